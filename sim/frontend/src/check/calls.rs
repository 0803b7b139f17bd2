//! Calls: functions, actions, extern functions and methods, built-in
//! methods of headers, unions and stacks, `apply`, and constructors.

use super::exprs::{const_int, mk, unknown};
use super::unify::Solution;
use super::{Binding, BlockKind, Checker, Context, ParamSig, Sig};
use crate::ast;
use crate::diag::Code;
use crate::ir::{self, BuiltinMethod, Callee, Direction, ExprKind, Value};
use crate::source::Span;
use crate::types::{Ty, TyId, TypeTable};
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// The result of matching a call's arguments against a signature.
pub(crate) struct Invocation {
    pub args: Vec<Option<ir::Expr>>,
    pub ret: TyId,
    pub type_args: Vec<TyId>,
}

impl Checker<'_> {
    pub(crate) fn call_expr(
        &mut self,
        callee: &ast::Expr,
        targs: &[ast::Type],
        args: &[ast::Arg],
        span: Span,
        _expected: Option<TyId>,
    ) -> ir::Expr {
        let explicit: Vec<TyId> = targs.iter().map(|t| self.resolve_type(t)).collect();
        self.check_type_args(targs, &explicit);
        match &callee.kind {
            ast::ExprKind::Name(path) => self.call_name(path, &explicit, args, span),
            ast::ExprKind::Member(base, m) => self.call_member(base, m, &explicit, args, span),
            _ => {
                let _ = self.expr(callee, None);
                self.error(
                    Code::NotCallable,
                    callee.span,
                    "this expression cannot be called",
                );
                unknown(span)
            }
        }
    }

    fn call_name(
        &mut self,
        path: &ast::Path,
        explicit: &[TyId],
        args: &[ast::Arg],
        span: Span,
    ) -> ir::Expr {
        let name = path.name.name.clone();
        let Some(b) = self.lookup_path(path).cloned() else {
            self.error(
                Code::UndeclaredName,
                path.name.span,
                format!("`{name}` is not declared"),
            );
            self.check_args_only(args);
            return unknown(span);
        };
        match b {
            Binding::Action(id) => self.direct_action_call(id, args, span),
            Binding::Functions(ids) => {
                let sigs: Vec<Sig> = ids
                    .iter()
                    .map(|i| self.fn_sigs[i.0 as usize].clone())
                    .collect();
                let Some(k) = self.pick_overload(&sigs, args, &name, span) else {
                    return unknown(span);
                };
                if self.ctx == Context::TopLevel {
                    self.error(
                        Code::NotAllowedHere,
                        span,
                        "functions cannot be called at the top level",
                    );
                }
                let Some(inv) =
                    self.invoke(&sigs[k], Solution::default(), explicit, args, span, &name)
                else {
                    return unknown(span);
                };
                self.check_compared_type_args(&sigs[k], &inv.type_args, span, &name);
                self.check_call_result(&inv, span, &name);
                self.recheck_generic_call(ids[k].0, &inv.type_args, span);
                mk(
                    inv.ret,
                    ExprKind::Call(Callee::Function(ids[k]), inv.args),
                    span,
                )
            }
            Binding::ExternFunctions(ids) => {
                if name == "verify" && self.ctx != Context::ParserState {
                    self.error(
                        Code::NotAllowedHere,
                        span,
                        format!(
                            "`verify` can only be called in a parser state, not in {}",
                            self.ctx_name()
                        ),
                    );
                }
                let sigs: Vec<Sig> = ids
                    .iter()
                    .map(|i| self.ext_functions[*i as usize].1.clone())
                    .collect();
                let Some(k) = self.pick_overload(&sigs, args, &name, span) else {
                    return unknown(span);
                };
                let Some(inv) =
                    self.invoke(&sigs[k], Solution::default(), explicit, args, span, &name)
                else {
                    return unknown(span);
                };
                if name == "static_assert" {
                    return self.static_assert(&inv.args, span);
                }
                self.require_directionless_constants(&sigs[k], &inv);
                self.check_call_result(&inv, span, &name);
                let callee = Callee::ExternFunction {
                    name,
                    type_args: inv.type_args,
                };
                mk(inv.ret, ExprKind::Call(callee, inv.args), span)
            }
            Binding::Block(_) | Binding::Extern(_) => {
                let ty = self.resolve_type(&ast::Type {
                    kind: ast::TypeKind::Named {
                        path: path.clone(),
                        args: Vec::new(),
                    },
                    span: path.name.span,
                });
                let ty = self.with_explicit_args(ty, explicit);
                self.construct_value(ty, args, span)
            }
            other => {
                self.error(
                    Code::NotCallable,
                    path.name.span,
                    format!("`{name}` is {} and cannot be called", other.describe()),
                );
                self.check_args_only(args);
                unknown(span)
            }
        }
    }

    /// `E<T>(...)`: applies explicit type arguments to an extern or block type.
    fn with_explicit_args(&mut self, ty: TyId, explicit: &[TyId]) -> TyId {
        if explicit.is_empty() {
            return ty;
        }
        match self.ty(ty).clone() {
            Ty::Extern { decl, name, .. } => self.types().intern(Ty::Extern {
                decl,
                name,
                args: explicit.to_vec(),
            }),
            Ty::Block { decl, name, .. } => self.types().intern(Ty::Block {
                decl,
                name,
                args: explicit.to_vec(),
            }),
            _ => ty,
        }
    }

    fn check_args_only(&mut self, args: &[ast::Arg]) {
        for a in args {
            let _ = self.expr(&a.value, None);
        }
    }

    fn call_member(
        &mut self,
        base: &ast::Expr,
        m: &ast::Ident,
        explicit: &[TyId],
        args: &[ast::Arg],
        span: Span,
    ) -> ir::Expr {
        if let ast::ExprKind::Name(path) = &base.kind {
            match self.lookup_path(path).cloned() {
                Some(Binding::Table(id)) => {
                    if m.name != "apply" {
                        self.error(
                            Code::UnknownMember,
                            m.span,
                            format!("a table has no method `{}`", m.name),
                        );
                        return unknown(span);
                    }
                    self.usage.tables.insert(id);
                    return self.table_apply(id, args, span);
                }
                Some(Binding::Type(ty)) => {
                    if let Some(v) = self.size_method(ty, m, args, span) {
                        return v;
                    }
                }
                Some(Binding::Block(idx)) if m.name == "apply" => {
                    return self.direct_invocation(idx, path, args, span);
                }
                _ => {}
            }
        }
        let recv = self.expr(base, None);
        if self.is_unknown(recv.ty) {
            self.check_args_only(args);
            return unknown(span);
        }
        match self.ty(recv.ty).clone() {
            Ty::Extern {
                decl,
                args: eargs,
                name,
            } => self.extern_method(recv, decl, &name, &eargs, m, explicit, args, span),
            Ty::Block {
                decl, args: bargs, ..
            } if m.name == "apply" => self.block_apply(recv, decl, &bargs, args, span),
            Ty::Struct(_) | Ty::Stack { .. } => self.builtin_method(recv, m, args, span),
            _ => {
                if let Some(v) = self.size_method(recv.ty, m, args, span) {
                    return v;
                }
                let shown = self.show(recv.ty);
                self.error(
                    Code::UnknownMember,
                    m.span,
                    format!("`{shown}` has no method `{}`", m.name),
                );
                unknown(span)
            }
        }
    }

    /// `minSizeInBits()` and friends, on a value or a type.
    fn size_method(
        &mut self,
        ty: TyId,
        m: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> Option<ir::Expr> {
        let bits = match m.name.as_str() {
            "minSizeInBits" | "minSizeInBytes" => self.prog.types.size_in_bits(ty)?,
            "maxSizeInBits" | "maxSizeInBytes" => self.prog.types.max_size_in_bits(ty)?,
            _ => return None,
        };
        if !args.is_empty() {
            self.error(
                Code::ArgumentCount,
                span,
                format!("`{}` takes no arguments", m.name),
            );
        }
        let v = if m.name.ends_with("Bytes") {
            bits.div_ceil(8)
        } else {
            bits
        };
        Some(mk(
            TypeTable::INF_INT,
            ExprKind::Const(Value::Int(BigInt::from(v))),
            span,
        ))
    }

    fn builtin_method(
        &mut self,
        recv: ir::Expr,
        m: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> ir::Expr {
        let is_header = self.prog.types.is_header(recv.ty);
        let is_union = self.prog.types.is_union(recv.ty);
        // `push_front`/`pop_front` are for header stacks, not arrays of
        // other types.
        let is_stack = matches!(self.ty(recv.ty), Ty::Stack { elem, .. }
            if self.prog.types.is_header(*elem) || self.prog.types.is_union(*elem));
        let (method, nargs, ret) = match m.name.as_str() {
            "isValid" if is_header || is_union => (BuiltinMethod::IsValid, 0, TypeTable::BOOL),
            "setValid" if is_header => (BuiltinMethod::SetValid, 0, TypeTable::VOID),
            "setInvalid" if is_header => (BuiltinMethod::SetInvalid, 0, TypeTable::VOID),
            "push_front" if is_stack => (BuiltinMethod::PushFront, 1, TypeTable::VOID),
            "pop_front" if is_stack => (BuiltinMethod::PopFront, 1, TypeTable::VOID),
            _ => {
                if let Some(v) = self.size_method(recv.ty, m, args, span) {
                    return v;
                }
                let shown = self.show(recv.ty);
                let is_field = self
                    .prog
                    .types
                    .struct_info(recv.ty)
                    .is_some_and(|s| s.fields.iter().any(|f| f.name == m.name));
                if is_field {
                    self.error(
                        Code::NotCallable,
                        m.span,
                        format!("`{}` is a field of `{shown}`, not a method", m.name),
                    );
                } else {
                    self.error(
                        Code::UnknownMember,
                        m.span,
                        format!("`{shown}` has no method `{}`", m.name),
                    );
                }
                return unknown(span);
            }
        };
        if args.len() != nargs {
            self.error(
                Code::ArgumentCount,
                span,
                format!(
                    "`{}` takes {nargs} argument(s), {} given",
                    m.name,
                    args.len()
                ),
            );
            return unknown(span);
        }
        if matches!(method, BuiltinMethod::PushFront | BuiltinMethod::PopFront)
            && matches!(self.ctx, Context::ParserState | Context::ParserLocal)
        {
            self.error(
                Code::NotAllowedHere,
                m.span,
                format!("`{}` of a header stack cannot be used in a parser", m.name),
            );
        }
        let mut call_args = Vec::new();
        if nargs == 1 {
            let a = self.expr(&args[0].value, None);
            if const_int(&a).is_none() && !self.is_unknown(a.ty) {
                self.error(
                    Code::NotConstant,
                    args[0].value.span,
                    format!(
                        "the argument of `{}` must be a compile-time constant",
                        m.name
                    ),
                );
            }
            call_args.push(Some(a));
        }
        if method == BuiltinMethod::IsValid && (is_header || is_union) {
            // A header (or union) constant: `{#}`, or a header value made
            // of constants; its validity is known now.
            match &recv.kind {
                ExprKind::InvalidHeader => {
                    return mk(TypeTable::BOOL, ExprKind::Const(Value::Bool(false)), span);
                }
                ExprKind::List(_) | ExprKind::Const(_)
                    if is_header && super::exprs::is_constant_tree(&recv) =>
                {
                    return mk(TypeTable::BOOL, ExprKind::Const(Value::Bool(true)), span);
                }
                _ => {}
            }
        }
        if method != BuiltinMethod::IsValid
            && let Some(why) = self.not_assignable(&recv)
        {
            self.error(
                Code::NotAnLValue,
                recv.span,
                format!("`{}` changes its receiver, but {why}", m.name),
            );
        }
        let callee = Callee::Builtin {
            receiver: Box::new(recv),
            method,
        };
        mk(ret, ExprKind::Call(callee, call_args), span)
    }

    #[allow(clippy::too_many_arguments)]
    fn extern_method(
        &mut self,
        recv: ir::Expr,
        decl: u32,
        ext_name: &str,
        eargs: &[TyId],
        m: &ast::Ident,
        explicit: &[TyId],
        args: &[ast::Arg],
        span: Span,
    ) -> ir::Expr {
        let info = self.externs[decl as usize].clone();
        let cands: Vec<Sig> = info
            .methods
            .iter()
            .filter(|x| x.name == m.name)
            .map(|x| x.sig.clone())
            .collect();
        if cands.is_empty() {
            self.error(
                Code::UnknownMember,
                m.span,
                format!("extern `{ext_name}` has no method `{}`", m.name),
            );
            self.check_args_only(args);
            return unknown(span);
        }
        let Some(k) = self.pick_overload(&cands, args, &m.name, span) else {
            return unknown(span);
        };
        let mut sol = Solution::new(vec![info.owner]);
        for (i, a) in eargs.iter().enumerate() {
            sol.bound.insert((info.owner, i as u32), *a);
        }
        let Some(inv) = self.invoke(&cands[k], sol, explicit, args, span, &m.name) else {
            return unknown(span);
        };
        self.require_directionless_constants(&cands[k], &inv);
        self.check_call_result(&inv, span, &m.name);
        self.check_packet_method(ext_name, &m.name, &inv, span);
        let callee = Callee::ExternMethod {
            receiver: Box::new(recv),
            name: m.name.clone(),
            type_args: inv.type_args,
        };
        mk(inv.ret, ExprKind::Call(callee, inv.args), span)
    }

    fn table_apply(&mut self, id: ir::TableId, args: &[ast::Arg], span: Span) -> ir::Expr {
        if !args.is_empty() {
            self.error(
                Code::ArgumentCount,
                span,
                "`apply` of a table takes no arguments",
            );
        }
        let in_var_init = self.ctx == Context::ControlLocal && self.in_control_var_init;
        if self.ctx != Context::ControlApply && !in_var_init {
            self.error(
                Code::NotAllowedHere,
                span,
                format!(
                    "a table can only be applied in a control's `apply` block, not in {}",
                    self.ctx_name()
                ),
            );
        }
        let ty = self.types().intern(Ty::TableResult(id.0));
        mk(ty, ExprKind::Call(Callee::TableApply(id), Vec::new()), span)
    }

    fn block_apply(
        &mut self,
        recv: ir::Expr,
        decl: u32,
        bargs: &[TyId],
        args: &[ast::Arg],
        span: Span,
    ) -> ir::Expr {
        let kind = self.blocks[decl as usize].kind;
        let allowed = match kind {
            BlockKind::Parser => self.ctx == Context::ParserState,
            BlockKind::Control => self.ctx == Context::ControlApply,
            BlockKind::Package => false,
        };
        if !allowed {
            self.error(
                Code::NotAllowedHere,
                span,
                format!(
                    "a {} cannot be applied in {}",
                    kind.as_str(),
                    self.ctx_name()
                ),
            );
        }
        let params = self.block_params(decl, bargs);
        let sig = Sig {
            owner: self.blocks[decl as usize].owner,
            type_params: Vec::new(),
            params,
            ret: TypeTable::VOID,
        };
        let Some(inv) = self.invoke(&sig, Solution::default(), &[], args, span, "apply") else {
            return unknown(span);
        };
        mk(
            TypeTable::VOID,
            ExprKind::Call(Callee::BlockApply(Box::new(recv)), inv.args),
            span,
        )
    }

    /// `static_assert(check[, message])`: evaluated now; a false check is an
    /// error, and the call is the constant `true`.
    fn static_assert(&mut self, args: &[Option<ir::Expr>], span: Span) -> ir::Expr {
        let check = args.first().and_then(|a| a.as_ref());
        let message = match args.get(1).and_then(|a| a.as_ref()).map(|e| &e.kind) {
            Some(ExprKind::Const(Value::Str(s))) => format!(": {s}"),
            _ => String::new(),
        };
        match check.map(|c| &c.kind) {
            Some(ExprKind::Const(Value::Bool(true))) => {}
            Some(ExprKind::Const(Value::Bool(false))) => {
                self.error(
                    Code::NotConstant,
                    span,
                    format!("static assertion failed{message}"),
                );
            }
            _ if check.is_some_and(|c| self.is_unknown(c.ty)) => {}
            _ => self.error(
                Code::NotConstant,
                span,
                "the condition of `static_assert` must be a compile-time constant",
            ),
        }
        mk(TypeTable::BOOL, ExprKind::Const(Value::Bool(true)), span)
    }

    /// `P.apply(...)` on a parser or control declaration: an anonymous
    /// instance (named after the declaration) applied at once.
    fn direct_invocation(
        &mut self,
        idx: u32,
        path: &ast::Path,
        args: &[ast::Arg],
        span: Span,
    ) -> ir::Expr {
        let Some(idx) = self.pick_block_overload(idx, 0, Some(args.len()), span) else {
            self.check_args_only(args);
            return unknown(span);
        };
        let info = self.blocks[idx as usize].clone();
        if info.ir.is_none()
            || info.kind == BlockKind::Package
            || !info.ctor_params.iter().all(|p| p.has_default)
        {
            self.error(
                Code::WrongKindOfName,
                path.name.span,
                format!(
                    "`{}` cannot be applied directly; instantiate it first",
                    info.name
                ),
            );
            return unknown(span);
        }
        let ty = self.types().intern(Ty::Block {
            decl: idx,
            name: info.name.clone(),
            args: Vec::new(),
        });
        let saved = self.ctx;
        // The instantiation itself is implicit; only the apply is checked
        // against the current context.
        self.ctx = if info.kind == BlockKind::Parser {
            Context::ParserLocal
        } else {
            Context::ControlLocal
        };
        self.overload_chosen = true;
        let inst = self.instantiate(ty, &[], span, &info.name, Vec::new(), false);
        self.overload_chosen = false;
        self.ctx = saved;
        let Some(inst) = inst else {
            return unknown(span);
        };
        // The enclosing block owns the anonymous instance, as if declared.
        if let Some(b) = self.current_block {
            self.prog.blocks[b.0 as usize].instances.push(inst);
        }
        let recv = mk(ty, ExprKind::Instance(inst), path.name.span);
        self.block_apply(recv, idx, &[], args, span)
    }

    fn direct_action_call(&mut self, id: ir::ActionId, args: &[ast::Arg], span: Span) -> ir::Expr {
        if !matches!(self.ctx, Context::ControlApply | Context::Action) {
            self.error(
                Code::NotAllowedHere,
                span,
                format!("an action can only be called from a control's `apply` block or another action, not from {}", self.ctx_name()),
            );
        }
        let params = self.action_sigs[id.0 as usize].clone();
        let sig = Sig {
            owner: 0,
            type_params: Vec::new(),
            params,
            ret: TypeTable::VOID,
        };
        let name = self.prog.actions[id.0 as usize].name.clone();
        let Some(inv) = self.invoke(&sig, Solution::default(), &[], args, span, &name) else {
            return unknown(span);
        };
        mk(
            TypeTable::VOID,
            ExprKind::Call(Callee::Action(id), inv.args),
            span,
        )
    }

    pub(crate) fn ctx_name(&self) -> &'static str {
        match self.ctx {
            Context::TopLevel => "the top level",
            Context::ParserLocal | Context::ParserState => "a parser",
            Context::ControlLocal => "a control's declarations",
            Context::ControlApply => "a control's apply block",
            Context::Action => "an action",
            Context::Function => "a function",
        }
    }

    /// Chooses among overloads by argument count (and names, for named
    /// arguments).
    pub(crate) fn pick_overload(
        &mut self,
        sigs: &[Sig],
        args: &[ast::Arg],
        name: &str,
        span: Span,
    ) -> Option<usize> {
        let named: Vec<&str> = args
            .iter()
            .filter_map(|a| a.name.as_ref().map(|n| n.name.as_str()))
            .collect();
        let fits = |s: &Sig| {
            if named.is_empty() {
                s.arity().contains(&args.len())
            } else {
                named.iter().all(|n| s.params.iter().any(|p| p.name == *n))
                    && s.params
                        .iter()
                        .all(|p| p.has_default || named.contains(&p.name.as_str()))
            }
        };
        let fitting: Vec<usize> = (0..sigs.len()).filter(|&k| fits(&sigs[k])).collect();
        match fitting.as_slice() {
            [k] => return Some(*k),
            [_, _, ..] => {
                // p4c: "multiple matching declarations" / "Ambiguous method".
                self.error(
                    Code::AmbiguousCall,
                    span,
                    format!(
                        "the call of `{name}` with {} argument(s) matches {} of its overloads",
                        args.len(),
                        fitting.len()
                    ),
                );
                self.check_args_only(args);
                return None;
            }
            [] => {}
        }
        let counts: Vec<String> = sigs
            .iter()
            .map(|s| {
                let r = s.arity();
                if r.start() == r.end() {
                    r.start().to_string()
                } else {
                    format!("{} to {}", r.start(), r.end())
                }
            })
            .collect();
        let message = if named.is_empty() {
            format!(
                "`{name}` takes {} argument(s), but {} were given",
                counts.join(" or "),
                args.len()
            )
        } else {
            let names: Vec<String> = named.iter().map(|n| format!("`{n}`")).collect();
            format!(
                "no overload of `{name}` takes exactly the arguments named {} (it takes {} argument(s))",
                names.join(", "),
                counts.join(" or ")
            )
        };
        self.error(Code::ArgumentCount, span, message);
        self.check_args_only(args);
        None
    }

    /// Matches arguments to parameters, infers type parameters, converts
    /// arguments and checks directions.
    pub(crate) fn invoke(
        &mut self,
        sig: &Sig,
        mut sol: Solution,
        explicit: &[TyId],
        args: &[ast::Arg],
        span: Span,
        what: &str,
    ) -> Option<Invocation> {
        let slots = self.map_args(&sig.params, args, span, what)?;
        sol.owners.push(sig.owner);
        if !explicit.is_empty() {
            if explicit.len() != sig.type_params.len() {
                self.error(
                    Code::ArgumentCount,
                    span,
                    format!(
                        "`{what}` takes {} type argument(s), {} given",
                        sig.type_params.len(),
                        explicit.len()
                    ),
                );
                return None;
            }
            for (i, t) in explicit.iter().enumerate() {
                sol.bound.insert((sig.owner, i as u32), *t);
            }
        }
        let owners = sol.owners.clone();
        let mut checked: Vec<Option<ir::Expr>> = Vec::with_capacity(slots.len());
        for (p, slot) in sig.params.iter().zip(&slots) {
            // An argument left out takes the parameter's default value.
            let Some(value) = slot.map(|a| &a.value).or(p.default.as_ref()) else {
                checked.push(None);
                continue;
            };
            let pty = self.subst(p.ty, &sol);
            // A parameter bound only by an earlier `int` argument is still
            // open: a later argument with a width decides it.
            let int_bound = pty != p.ty && self.mentions_int(pty);
            let hint = if int_bound || self.mentions_params(pty, &owners) {
                None
            } else {
                Some(pty)
            };
            let v = self.expr(value, hint);
            let _ = self.unify(if int_bound { p.ty } else { pty }, v.ty, &mut sol);
            checked.push(Some(v));
        }
        let mut out = Vec::with_capacity(checked.len());
        for (p, v) in sig.params.iter().zip(checked) {
            let Some(v) = v else {
                out.push(None);
                continue;
            };
            let pty = self.subst(p.ty, &sol);
            let dont_care = matches!(v.kind, ExprKind::DontCare) && v.ty == TypeTable::DONT_CARE;
            if dont_care && p.dir != Direction::Out {
                // p4c's type unification: `_` stands for a value thrown away.
                self.error(
                    Code::TypeMismatch,
                    v.span,
                    format!(
                        "`_` can only be the argument of an `out` parameter, and `{}` of `{what}` is not one",
                        p.name
                    ),
                );
            } else if dont_care && self.mentions_params(pty, &[sig.owner]) {
                // p4c's DontcareArgs: `_` becomes a temporary of the type.
                self.error(
                    Code::BadTypeArgument,
                    v.span,
                    format!(
                        "cannot infer the type of `_` for parameter `{}` of `{what}`; give the type arguments, e.g. `{what}<bit<8>>(_)`",
                        p.name
                    ),
                );
            }
            let v = if dont_care || self.mentions_params(pty, &owners) {
                v
            } else {
                self.coerce_arg(v, pty, p)
            };
            if matches!(p.dir, Direction::Out | Direction::InOut)
                && !dont_care
                && !self.is_unknown(v.ty)
                && let Some(why) = self.not_assignable(&v)
            {
                self.error(
                    Code::NotAnLValue,
                    v.span,
                    format!("parameter `{}` of `{what}` is `{}`, so its argument must be assignable, but {why}", p.name, p.dir.as_str()),
                );
            }
            out.push(Some(v));
        }
        let ret = self.subst(sig.ret, &sol);
        let ret = if self.mentions_params(ret, &[sig.owner]) {
            self.error(
                Code::BadTypeArgument,
                span,
                format!("cannot infer the result type of `{what}`; give its type arguments, e.g. `{what}<bit<8>>(...)`"),
            );
            TypeTable::UNKNOWN
        } else if self.mentions_params(ret, &owners) {
            TypeTable::UNKNOWN
        } else {
            ret
        };
        let type_args: Vec<TyId> = (0..sig.type_params.len() as u32)
            .map(|i| {
                sol.bound
                    .get(&(sig.owner, i))
                    .copied()
                    .unwrap_or(TypeTable::UNKNOWN)
            })
            .collect();
        self.reject_int_type_args(sig, &type_args, span, what);
        Some(Invocation {
            args: out,
            ret,
            type_args,
        })
    }

    /// Reports type parameters bound to `int` or to a type with an `int`
    /// inside (e.g. `{ a = 1 }`). A call runs when a packet is processed,
    /// but `int` values exist only at compile time (P4_16 spec, section
    /// 7.1.6.5), so such a binding leaves the parameter without a width.
    fn reject_int_type_args(&mut self, sig: &Sig, type_args: &[TyId], span: Span, what: &str) {
        for (name, ty) in sig.type_params.iter().zip(type_args) {
            if self.mentions_int(*ty) {
                let shown = self.show(*ty);
                self.error(
                    Code::BadTypeArgument,
                    span,
                    format!(
                        "type parameter `{name}` of `{what}` would be `{shown}`, but `int` values exist only at compile time; give the integer a width (e.g. `8w1`) or the type argument (e.g. `{what}<bit<8>>(...)`)"
                    ),
                );
            }
        }
    }

    /// True if `ty` is `int` or has an `int` component.
    fn mentions_int(&self, ty: TyId) -> bool {
        match self.ty(ty) {
            Ty::InfInt => true,
            Ty::Stack { elem, .. } | Ty::List(elem) => self.mentions_int(*elem),
            Ty::Tuple(items) => items.iter().any(|t| self.mentions_int(*t)),
            Ty::Struct(i) => self.prog.types.structs[*i as usize]
                .fields
                .iter()
                .any(|f| self.mentions_int(f.ty)),
            _ => false,
        }
    }

    /// Converts an argument; for `out`/`inout` parameters the types must
    /// match exactly (no conversion back is possible).
    fn coerce_arg(&mut self, v: ir::Expr, pty: TyId, p: &ParamSig) -> ir::Expr {
        if matches!(p.dir, Direction::Out | Direction::InOut)
            && v.ty != pty
            && !self.is_unknown(v.ty)
            && !self.is_unknown(pty)
            && !matches!(self.ty(pty), Ty::DontCare)
        {
            if self.convertible(v.ty, pty) && v.ty != TypeTable::INF_INT {
                return self.coerce(v, pty);
            }
            let (f, t) = (self.show(v.ty), self.show(pty));
            if v.ty != TypeTable::INF_INT {
                self.error(
                    Code::TypeMismatch,
                    v.span,
                    format!(
                        "parameter `{}` is `{} {t}`, but the argument is `{f}`",
                        p.name,
                        p.dir.as_str()
                    ),
                );
                return unknown(v.span);
            }
            return v;
        }
        self.coerce(v, pty)
    }

    /// Places named arguments (`f(y = 2, x = 1)`) into `slots`, where slot
    /// `i` is parameter `first + i`; a name that is no such parameter gets
    /// the error `unknown` gives. All arguments must be named.
    pub(super) fn place_named<'b>(
        &mut self,
        params: &[ParamSig],
        args: &'b [ast::Arg],
        first: usize,
        slots: &mut [Option<&'b ast::Arg>],
        unknown: impl Fn(&str) -> (Code, String),
    ) -> Option<()> {
        for a in args {
            let Some(n) = &a.name else {
                self.error(
                    Code::ArgumentCount,
                    a.value.span,
                    "either all arguments are named or none",
                );
                return None;
            };
            let slot = params
                .iter()
                .position(|p| p.name == n.name)
                .and_then(|i| i.checked_sub(first))
                .filter(|&i| i < slots.len());
            match slot {
                Some(i) if slots[i].is_none() => slots[i] = Some(a),
                Some(_) => {
                    self.error(
                        Code::ArgumentCount,
                        n.span,
                        format!("argument `{}` is given twice", n.name),
                    );
                    return None;
                }
                None => {
                    let (code, message) = unknown(&n.name);
                    self.error(code, n.span, message);
                    return None;
                }
            }
        }
        Some(())
    }

    fn map_args<'b>(
        &mut self,
        params: &[ParamSig],
        args: &'b [ast::Arg],
        span: Span,
        what: &str,
    ) -> Option<Vec<Option<&'b ast::Arg>>> {
        let mut slots: Vec<Option<&ast::Arg>> = vec![None; params.len()];
        let named = args.iter().any(|a| a.name.is_some());
        if named {
            self.place_named(params, args, 0, &mut slots, |name| {
                (
                    Code::ArgumentCount,
                    format!("`{what}` has no parameter `{name}`"),
                )
            })?;
        } else {
            if args.len() > params.len() {
                self.error(
                    Code::ArgumentCount,
                    span,
                    format!(
                        "`{what}` takes {} argument(s), but {} were given",
                        params.len(),
                        args.len()
                    ),
                );
                self.check_args_only(args);
                return None;
            }
            for (i, a) in args.iter().enumerate() {
                slots[i] = Some(a);
            }
        }
        for (p, s) in params.iter().zip(&slots) {
            if s.is_none() && !p.has_default {
                self.error(
                    Code::ArgumentCount,
                    span,
                    format!(
                        "`{what}` needs an argument for parameter `{}` ({} given)",
                        p.name,
                        args.len()
                    ),
                );
                self.check_args_only(args);
                return None;
            }
        }
        Some(slots)
    }

    /// A constructor call used as a value (e.g. a package argument, or
    /// `implementation = action_selector(...)`): an anonymous instance.
    pub(crate) fn construct_value(&mut self, ty: TyId, args: &[ast::Arg], span: Span) -> ir::Expr {
        if self.ctx == Context::Action {
            // p4c's ValidateParsedProgram: "Constructor calls not allowed in actions".
            self.error(
                Code::NotAllowedHere,
                span,
                "constructor calls are not allowed in actions",
            );
        }
        let name = match self.ty(ty) {
            Ty::Extern { name, .. } | Ty::Block { name, .. } => name.clone(),
            _ => String::new(),
        };
        match self.instantiate(ty, args, span, &name, Vec::new(), false) {
            Some(id) => {
                let ty = self.prog.instances[id.0 as usize].ty;
                mk(ty, ExprKind::Instance(id), span)
            }
            None => unknown(span),
        }
    }

    /// Creates an instance of an extern, parser, control or package.
    pub(crate) fn instantiate(
        &mut self,
        ty: TyId,
        args: &[ast::Arg],
        span: Span,
        name: &str,
        annotations: Vec<ast::Annotation>,
        declared: bool,
    ) -> Option<ir::InstanceId> {
        let (ty, ir_args, of) = match self.ty(ty).clone() {
            Ty::Unknown => {
                self.check_args_only(args);
                return None;
            }
            Ty::Extern {
                decl,
                name: ext,
                args: eargs,
            } => {
                let info = self.externs[decl as usize].clone();
                if info.ctors.is_empty() {
                    self.error(
                        Code::WrongKindOfName,
                        span,
                        format!("extern `{ext}` has no constructor and cannot be instantiated"),
                    );
                    return None;
                }
                let k = self.pick_overload(&info.ctors, args, &ext, span)?;
                let mut sol = Solution::new(vec![info.owner]);
                for (i, a) in eargs.iter().enumerate() {
                    sol.bound.insert((info.owner, i as u32), *a);
                }
                let inv = self.invoke_keep_solution(&info.ctors[k], &mut sol, args, span, &ext)?;
                let targs: Vec<TyId> = (0..info.type_params.len() as u32)
                    .map(|i| {
                        sol.bound
                            .get(&(info.owner, i))
                            .copied()
                            .unwrap_or(TypeTable::UNKNOWN)
                    })
                    .collect();
                let ty = self.types().intern(Ty::Extern {
                    decl,
                    name: ext.clone(),
                    args: targs,
                });
                (ty, inv, ir::InstanceOf::Extern { name: ext })
            }
            Ty::Block {
                decl, args: bargs, ..
            } => {
                // `direct_invocation` has chosen among overloads already.
                let chosen = if std::mem::take(&mut self.overload_chosen) {
                    decl
                } else {
                    self.pick_block_overload(decl, args.len(), None, span)?
                };
                let (decl, ty) = if chosen == decl {
                    (decl, ty)
                } else {
                    let name = self.blocks[chosen as usize].name.clone();
                    let t = self.types().intern(Ty::Block {
                        decl: chosen,
                        name,
                        args: bargs.clone(),
                    });
                    (chosen, t)
                };
                let info = self.blocks[decl as usize].clone();
                match info.kind {
                    BlockKind::Package => {
                        let args = self.package_args(decl, &bargs, args, span)?;
                        (
                            ty,
                            args,
                            ir::InstanceOf::Package {
                                name: info.name.clone(),
                            },
                        )
                    }
                    kind => {
                        let Some(block) = info.ir else {
                            self.error(
                                Code::WrongKindOfName,
                                span,
                                format!(
                                    "`{}` is a {} type; instantiate a {} declaration",
                                    info.name,
                                    kind.as_str(),
                                    kind.as_str()
                                ),
                            );
                            return None;
                        };
                        let wrong_place = (declared && self.ctx == Context::TopLevel)
                            || matches!(
                                (kind, self.ctx),
                                (BlockKind::Parser, Context::ControlLocal)
                                    | (BlockKind::Control, Context::ParserLocal)
                            )
                            || matches!(
                                self.ctx,
                                Context::ParserState
                                    | Context::ControlApply
                                    | Context::Action
                                    | Context::Function
                            );
                        if wrong_place {
                            self.error(
                                Code::NotAllowedHere,
                                span,
                                format!(
                                    "a {} cannot be instantiated in {}",
                                    kind.as_str(),
                                    self.ctx_name()
                                ),
                            );
                        }
                        let sig = Sig {
                            owner: info.owner,
                            type_params: info.type_params.clone(),
                            params: info.ctor_params.clone(),
                            ret: TypeTable::VOID,
                        };
                        let inv =
                            self.invoke(&sig, Solution::default(), &bargs, args, span, &info.name)?;
                        let ty = self.inferred_block_type(ty, &inv.type_args);
                        (ty, inv.args.into_iter().flatten().collect(), {
                            self.usage.blocks.insert(block);
                            ir::InstanceOf::Block(block)
                        })
                    }
                }
            }
            _ => {
                let shown = self.show(ty);
                self.error(
                    Code::WrongKindOfName,
                    span,
                    format!("`{shown}` cannot be instantiated"),
                );
                self.check_args_only(args);
                return None;
            }
        };
        for a in &ir_args {
            self.require_compile_time(a, "a constructor argument");
        }
        let cp = self.control_plane_name(name, &annotations);
        let id = ir::InstanceId(self.prog.instances.len() as u32);
        let of_block = matches!(of, ir::InstanceOf::Block(_));
        self.prog.instances.push(ir::Instance {
            name: name.to_string(),
            cp_name: cp,
            ty,
            of,
            args: ir_args,
            annotations,
            span,
        });
        if of_block {
            self.recheck_generic_use(ty, span);
        }
        Some(id)
    }

    /// The type of an instance of a generic parser or control written
    /// without type arguments (`Checker(8w5) c;`): the block's type with the
    /// arguments its constructor arguments bound (spec 16.1, type
    /// inference). Unchanged when type arguments were given, the block is
    /// not generic, or some parameter is still open (a package argument
    /// gets its types where it is passed, see [`Checker::package_args`]).
    fn inferred_block_type(&mut self, ty: TyId, inferred: &[TyId]) -> TyId {
        let Ty::Block { decl, name, args } = self.ty(ty).clone() else {
            return ty;
        };
        if !args.is_empty() || inferred.is_empty() || inferred.iter().any(|t| self.is_unknown(*t)) {
            return ty;
        }
        self.types().intern(Ty::Block {
            decl,
            name,
            args: inferred.to_vec(),
        })
    }

    /// p4c: an argument for a directionless parameter of an extern
    /// function or method is a compile-time constant.
    fn require_directionless_constants(&mut self, sig: &Sig, inv: &Invocation) {
        for (p, a) in sig.params.iter().zip(&inv.args) {
            if p.dir == Direction::None
                && let Some(a) = a
            {
                self.require_compile_time(a, "an argument for a directionless parameter");
            }
        }
    }

    /// Reports `e` (`what`) unless it is known at compile time: constants
    /// and lists of them, constructor parameters, instances.
    fn require_compile_time(&mut self, e: &ir::Expr, what: &str) {
        if self.is_unknown(e.ty)
            || matches!(e.kind, ExprKind::DontCare)
            || matches!(self.ty(e.ty), Ty::Extern { .. } | Ty::Block { .. })
            || super::exprs::is_constant_tree(e)
            || self.over_ctor_params(e)
        {
            return;
        }
        self.error(
            Code::NotConstant,
            e.span,
            format!("{what} must be a compile-time constant"),
        );
    }

    /// Like [`Checker::invoke`], keeping the solution (for extern type
    /// parameters inferred from constructor arguments).
    fn invoke_keep_solution(
        &mut self,
        sig: &Sig,
        sol: &mut Solution,
        args: &[ast::Arg],
        span: Span,
        what: &str,
    ) -> Option<Vec<ir::Expr>> {
        let slots = self.map_args(&sig.params, args, span, what)?;
        let mut out = Vec::new();
        for (p, slot) in sig.params.iter().zip(slots) {
            let Some(a) = slot else { continue };
            let pty = self.subst(p.ty, sol);
            let owners = sol.owners.clone();
            let hint = if self.mentions_params(pty, &owners) {
                None
            } else {
                Some(pty)
            };
            let v = self.expr(&a.value, hint);
            let _ = self.unify(pty, v.ty, sol);
            let pty = self.subst(p.ty, sol);
            let v = if self.mentions_params(pty, &owners) {
                v
            } else {
                self.coerce(v, pty)
            };
            out.push(v);
        }
        Some(out)
    }

    /// Arguments of a package instantiation: each must be a parser,
    /// control, package or extern matching the package's parameter.
    fn package_args(
        &mut self,
        decl: u32,
        bargs: &[TyId],
        args: &[ast::Arg],
        span: Span,
    ) -> Option<Vec<ir::Expr>> {
        let info = self.blocks[decl as usize].clone();
        let params = self.block_params(decl, bargs);
        let required = params.iter().filter(|p| !p.has_default).count();
        if args.len() < required || args.len() > params.len() {
            self.error(
                Code::BadPackage,
                span,
                format!(
                    "package `{}` takes {} argument(s), but {} were given",
                    info.name,
                    params.len(),
                    args.len()
                ),
            );
            self.check_args_only(args);
            return None;
        }
        let mut sol = Solution::new(vec![info.owner]);
        let mut out = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let p = match &a.name {
                Some(n) => match params.iter().find(|p| p.name == n.name) {
                    Some(p) => p.clone(),
                    None => {
                        self.error(
                            Code::BadPackage,
                            n.span,
                            format!("package `{}` has no parameter `{}`", info.name, n.name),
                        );
                        return None;
                    }
                },
                None => params[i].clone(),
            };
            let v = self.expr(&a.value, None);
            if self.is_unknown(v.ty) {
                continue;
            }
            if !self.unify(p.ty, v.ty, &mut sol) {
                let want = self.show(p.ty);
                let got = self.show(v.ty);
                let got_kind = match self.ty(v.ty) {
                    Ty::Block { decl, .. } => self.blocks[*decl as usize].kind.as_str(),
                    _ => "value",
                };
                self.error(
                    Code::BadPackage,
                    a.value.span,
                    format!(
                        "argument `{}` of package `{}` must be a `{want}`, but this {got_kind} `{got}` does not match it",
                        p.name, info.name
                    ),
                );
                continue;
            }
            out.push(v);
        }
        for v in &out {
            self.bind_passed_block_types(v, &sol);
        }
        Some(out)
    }

    /// A package argument that instantiates a generic parser or control
    /// without type arguments (`V1Switch(MyParser(), ...)` for `parser
    /// MyParser<H, M>(...)`) takes the types its parameters were unified
    /// with, once every one is concrete.
    fn bind_passed_block_types(&mut self, v: &ir::Expr, sol: &Solution) {
        let ExprKind::Instance(id) = v.kind else {
            return;
        };
        let Ty::Block { decl, name, args } = self.ty(v.ty).clone() else {
            return;
        };
        let info = &self.blocks[decl as usize];
        if !args.is_empty() || info.type_params.is_empty() {
            return;
        }
        let (owner, count) = (info.owner, info.type_params.len() as u32);
        let mut targs = Vec::with_capacity(count as usize);
        for i in 0..count {
            let Some(mut t) = sol.bound.get(&(owner, i)).copied() else {
                return;
            };
            // A parameter bound to the package's own type parameter, bound
            // in turn by another argument: follow the chain.
            for _ in 0..sol.bound.len() {
                let next = self.subst(t, sol);
                if next == t {
                    break;
                }
                t = next;
            }
            if self.is_unknown(t) || self.mentions_params(t, &sol.owners) {
                return;
            }
            targs.push(t);
        }
        let ty = self.types().intern(Ty::Block {
            decl,
            name,
            args: targs,
        });
        self.prog.instances[id.0 as usize].ty = ty;
        self.recheck_generic_use(ty, v.span);
    }

    /// p4c's control-plane name for a declaration: `@name` if given (a
    /// leading `.` makes it global), else its name; top-level names are global.
    pub(crate) fn control_plane_name(
        &self,
        name: &str,
        annotations: &[ast::Annotation],
    ) -> ir::CpName {
        let given = ast::annotation_str(annotations, "name");
        let local = given.unwrap_or_else(|| name.to_string());
        match local.strip_prefix('.') {
            Some(global) => ir::CpName {
                local: global.to_string(),
                global: true,
            },
            None => ir::CpName {
                local,
                global: self.ctx == Context::TopLevel,
            },
        }
    }
}

/// Evaluates a constant argument as u64 (helper for table properties).
pub(crate) fn const_u64_of(e: &ir::Expr) -> Option<u64> {
    const_int(e).and_then(|v| v.to_u64())
}
