//! Instances of externs with abstract methods (spec 11.3.1): the
//! initialiser block implements each abstract method with its declared
//! signature, as p4c's `TypeInference::checkAbstractMethods` checks.

use super::unify::Solution;
use super::{Checker, Sig};
use crate::ast;
use crate::diag::Code;
use crate::ir;
use crate::types::{Ty, TyId};

impl Checker<'_> {
    /// Checks the initialiser block of instance `inst` (declared by
    /// `decl`) against its extern's abstract methods; `impls` are the
    /// functions the block declares, with their checked signatures.
    pub(crate) fn check_abstract_methods(
        &mut self,
        inst: ir::InstanceId,
        decl: &ast::InstanceDecl,
        impls: &[(&ast::FunctionProto, Sig)],
    ) {
        let ty = self.prog.instances[inst.0 as usize].ty;
        let (ext, args) = match self.ty(ty).clone() {
            Ty::Extern { decl, args, .. } => (decl, args),
            _ => {
                if let Some(first) = decl.init.as_ref().and_then(|d| d.first()) {
                    self.error(
                        Code::AbstractMethod,
                        first.span,
                        "only extern instances can have an initialiser block",
                    );
                }
                return;
            }
        };
        let info = self.externs[ext as usize].clone();
        let abstracts: Vec<&super::ExternMethod> =
            info.methods.iter().filter(|m| m.is_abstract).collect();
        if abstracts.is_empty() {
            if decl.init.is_some() {
                self.error(
                    Code::AbstractMethod,
                    decl.name.span,
                    format!(
                        "extern `{}` has no abstract methods, so instance `{}` cannot have an initialiser block",
                        info.name, decl.name.name
                    ),
                );
            }
            return;
        }
        if decl.init.is_none() {
            let names: Vec<String> = abstracts
                .iter()
                .filter(|m| !m.optional)
                .map(|m| format!("`{}`", m.name))
                .collect();
            if !names.is_empty() {
                self.error(
                    Code::AbstractMethod,
                    decl.name.span,
                    format!(
                        "instance `{}` of `{}` must implement the abstract method(s) {} in an initialiser block (`= {{ ... }}`)",
                        decl.name.name,
                        info.name,
                        names.join(", ")
                    ),
                );
            }
            return;
        }
        let mut sol = Solution::new(vec![info.owner]);
        for (i, a) in args.iter().enumerate() {
            if !self.is_unknown(*a) {
                sol.bound.insert((info.owner, i as u32), *a);
            }
        }
        let mut done: Vec<&str> = Vec::new();
        for (proto, sig) in impls {
            let name = proto.name.name.as_str();
            if let Some(t) = proto.type_params.first() {
                if let Some(m) = abstracts.iter().find(|m| m.name == name) {
                    done.push(m.name.as_str());
                }
                self.error(
                    Code::AbstractMethod,
                    t.span,
                    format!("the implementation of abstract method `{name}` cannot be generic"),
                );
                continue;
            }
            let Some(m) = abstracts
                .iter()
                .find(|m| m.name == name && !done.contains(&m.name.as_str()))
            else {
                let what = if info.methods.iter().any(|m| m.name == name) {
                    "is not abstract"
                } else {
                    "is not a method of it"
                };
                self.error(
                    Code::AbstractMethod,
                    proto.name.span,
                    format!(
                        "`{name}` {what}: the initialiser of an instance of `{}` can only implement its abstract methods",
                        info.name
                    ),
                );
                continue;
            };
            done.push(m.name.as_str());
            self.match_abstract(&m.sig, proto, sig, &sol);
        }
        for m in &abstracts {
            if !m.optional && !done.contains(&m.name.as_str()) {
                self.error(
                    Code::AbstractMethod,
                    decl.name.span,
                    format!(
                        "instance `{}` does not implement abstract method `{}` of `{}`",
                        decl.name.name, m.name, info.name
                    ),
                );
            }
        }
    }

    /// One implementation against its abstract declaration: the same
    /// return type and, parameter by parameter, the same direction and type
    /// (p4c's `unifyFunctions`: names may differ).
    fn match_abstract(
        &mut self,
        want: &Sig,
        proto: &ast::FunctionProto,
        got: &Sig,
        sol: &Solution,
    ) {
        let name = &proto.name.name;
        let want_ret = self.subst(want.ret, sol);
        if !self.same_type(want_ret, got.ret) {
            let (w, g) = (self.show(want_ret), self.show(got.ret));
            self.error(
                Code::AbstractMethod,
                proto.ret.span,
                format!(
                    "abstract method `{name}` returns `{w}`, but this implementation returns `{g}`"
                ),
            );
            return;
        }
        let required = |s: &Sig| s.params.iter().filter(|p| !p.has_default).count();
        if want.params.len() < required(got) || got.params.len() < required(want) {
            self.error(
                Code::AbstractMethod,
                proto.name.span,
                format!(
                    "abstract method `{name}` takes {} parameter(s), but this implementation takes {}",
                    want.params.len(),
                    got.params.len()
                ),
            );
            return;
        }
        for ((w, g), p) in want.params.iter().zip(&got.params).zip(&proto.params) {
            if w.dir != g.dir {
                self.error(
                    Code::AbstractMethod,
                    p.span,
                    format!(
                        "parameter `{}` of `{name}` is `{}` here, but `{}` in the abstract declaration",
                        g.name,
                        dir_word(g.dir),
                        dir_word(w.dir)
                    ),
                );
                return;
            }
            let wt = self.subst(w.ty, sol);
            if !self.same_type(wt, g.ty) {
                let (ws, gs) = (self.show(wt), self.show(g.ty));
                self.error(
                    Code::AbstractMethod,
                    p.ty.span,
                    format!(
                        "parameter `{}` of `{name}` has type `{gs}` here, but `{ws}` in the abstract declaration",
                        g.name
                    ),
                );
                return;
            }
        }
    }

    /// Equal types, or one not known (an error already reported, or an
    /// extern type parameter the instance left open).
    fn same_type(&self, a: TyId, b: TyId) -> bool {
        a == b
            || self.is_unknown(a)
            || self.is_unknown(b)
            || matches!(self.ty(a), Ty::Param { .. })
            || matches!(self.ty(b), Ty::Param { .. })
    }
}

fn dir_word(d: ir::Direction) -> &'static str {
    match d {
        ir::Direction::None => "directionless",
        other => other.as_str(),
    }
}
