//! Type-parameter inference: unification of declared parameter types with
//! argument types, and substitution of the solution.

use super::{Checker, ParamSig};
use crate::types::{Ty, TyId, TypeTable};
use std::collections::HashMap;

/// Bindings of type parameters `(owner, index)` found so far.
#[derive(Clone, Debug, Default)]
pub(crate) struct Solution {
    pub owners: Vec<u32>,
    pub bound: HashMap<(u32, u32), TyId>,
}

impl Solution {
    pub fn new(owners: Vec<u32>) -> Solution {
        Solution {
            owners,
            bound: HashMap::new(),
        }
    }
}

impl Checker<'_> {
    /// Unifies a parameter type (which may mention type parameters of the
    /// owners in `sol`) with an argument type. `int` arguments do not bind
    /// a parameter (they convert to whatever it is bound to).
    pub(crate) fn unify(&mut self, param: TyId, arg: TyId, sol: &mut Solution) -> bool {
        if param == arg {
            return true;
        }
        let (p, a) = (self.ty(param).clone(), self.ty(arg).clone());
        match (&p, &a) {
            (Ty::Param { owner, index, .. }, _) if sol.owners.contains(owner) => {
                if let Some(&b) = sol.bound.get(&(*owner, *index)) {
                    if b == arg || arg == TypeTable::INF_INT || self.is_unknown(arg) {
                        return true;
                    }
                    if b == TypeTable::INF_INT {
                        sol.bound.insert((*owner, *index), arg);
                        return true;
                    }
                    return self.unify(b, arg, sol) || self.convertible(arg, b);
                }
                if arg == TypeTable::DONT_CARE {
                    return true;
                }
                sol.bound.insert((*owner, *index), arg);
                true
            }
            (Ty::Unknown, _) | (_, Ty::Unknown) | (Ty::DontCare, _) | (_, Ty::DontCare) => true,
            (Ty::Bits { .. }, Ty::InfInt) => true,
            (Ty::Stack { elem: e1, size: s1 }, Ty::Stack { elem: e2, size: s2 }) => {
                s1 == s2 && self.unify(*e1, *e2, sol)
            }
            (Ty::Tuple(x), Ty::Tuple(y)) => {
                x.len() == y.len()
                    && x.clone()
                        .iter()
                        .zip(y.clone().iter())
                        .all(|(a, b)| self.unify(*a, *b, sol))
            }
            (Ty::List(x), Ty::List(y)) => self.unify(*x, *y, sol),
            (Ty::List(x), Ty::Tuple(ys)) => ys.clone().iter().all(|y| self.unify(*x, *y, sol)),
            (
                Ty::Extern {
                    decl: d1, args: a1, ..
                },
                Ty::Extern {
                    decl: d2, args: a2, ..
                },
            ) => {
                d1 == d2
                    && (a1.is_empty()
                        || a2.is_empty()
                        || a1
                            .clone()
                            .iter()
                            .zip(a2.clone().iter())
                            .all(|(x, y)| self.unify(*x, *y, sol)))
            }
            (
                Ty::Block {
                    decl: d1, args: a1, ..
                },
                Ty::Block {
                    decl: d2, args: a2, ..
                },
            ) => self.unify_blocks((*d1, a1.clone()), (*d2, a2.clone()), sol),
            (Ty::Struct(_), Ty::Struct(_)) => match self.same_generic(param, arg) {
                Some((ps, as_)) => ps.iter().zip(&as_).all(|(p, a)| self.unify(*p, *a, sol)),
                None => self.convertible(arg, param),
            },
            (Ty::Struct(_), Ty::Tuple(_)) => self.convertible(arg, param),
            (_, Ty::Enum(_)) => self.prog.types.underlying(arg) == Some(param),
            (Ty::Set(x), _) => self.unify(*x, arg, sol),
            _ => false,
        }
    }

    /// The type arguments of `a` and `b` when both specialise the same
    /// generic struct, header or union.
    fn same_generic(&self, a: TyId, b: TyId) -> Option<(Vec<TyId>, Vec<TyId>)> {
        let (ga, aa) = self.generic_struct_origin.get(&a)?;
        let (gb, ab) = self.generic_struct_origin.get(&b)?;
        (ga == gb).then(|| (aa.clone(), ab.clone()))
    }

    /// True if a value of type `from` converts implicitly to `to`.
    pub(crate) fn convertible(&self, from: TyId, to: TyId) -> bool {
        if from == to || self.is_unknown(from) || self.is_unknown(to) {
            return true;
        }
        match (self.ty(from), self.ty(to)) {
            (Ty::InfInt, Ty::Bits { .. }) => true,
            (Ty::Enum(_), _) => self.prog.types.underlying(from) == Some(to),
            (Ty::Tuple(items), Ty::Struct(i)) => {
                let fields = &self.prog.types.structs[*i as usize].fields;
                fields.len() == items.len()
                    && items
                        .iter()
                        .zip(fields)
                        .all(|(a, f)| self.convertible(*a, f.ty))
            }
            (Ty::Tuple(a), Ty::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| self.convertible(*x, *y))
            }
            // A struct-typed value set matched against a tuple of select keys.
            (Ty::Struct(i), Ty::Tuple(items)) => {
                let fields = &self.prog.types.structs[*i as usize].fields;
                fields.len() == items.len()
                    && fields
                        .iter()
                        .zip(items)
                        .all(|(f, t)| self.convertible(f.ty, *t))
            }
            (Ty::Struct(a), Ty::Struct(b)) => {
                let (a, b) = (
                    &self.prog.types.structs[*a as usize],
                    &self.prog.types.structs[*b as usize],
                );
                a.name.starts_with("struct {")
                    && a.fields.len() == b.fields.len()
                    && a.fields.iter().all(|f| {
                        b.fields
                            .iter()
                            .any(|g| g.name == f.name && self.convertible(f.ty, g.ty))
                    })
            }
            _ => false,
        }
    }

    /// A parser/control/package (declaration or type) given where another
    /// is expected: same kind, same number of apply parameters with the same
    /// directions, and types that unify.
    pub(crate) fn unify_blocks(
        &mut self,
        param: (u32, Vec<TyId>),
        arg: (u32, Vec<TyId>),
        sol: &mut Solution,
    ) -> bool {
        let (pk, ak) = (
            self.blocks[param.0 as usize].kind,
            self.blocks[arg.0 as usize].kind,
        );
        if pk != ak {
            return false;
        }
        let pp = self.block_params(param.0, &param.1);
        let ap = self.block_params(arg.0, &arg.1);
        // A generic declaration used as an argument: its own parameters
        // are solved too.
        let arg_owner = self.blocks[arg.0 as usize].owner;
        if arg.1.is_empty() && !self.blocks[arg.0 as usize].type_params.is_empty() {
            sol.owners.push(arg_owner);
        }
        // A block may leave out trailing parameters that the parser or
        // control type gives default values (p4c accepts `MyC(inout H h)`
        // for `control C(inout H h, in T t = {0, 0})`).
        let (given, rest) = pp.split_at(ap.len().min(pp.len()));
        ap.len() <= pp.len()
            && rest.iter().all(|p| p.has_default)
            && given.iter().zip(&ap).all(|(p, a)| {
                p.dir == a.dir && (self.unify(p.ty, a.ty, sol) || self.unify(a.ty, p.ty, sol))
            })
    }

    /// The apply parameters of block `idx`, with its type parameters
    /// replaced by `args` (when given).
    pub(crate) fn block_params(&mut self, idx: u32, args: &[TyId]) -> Vec<ParamSig> {
        let b = self.blocks[idx as usize].clone();
        if args.is_empty() || b.type_params.is_empty() {
            return b.params;
        }
        let mut sol = Solution::new(vec![b.owner]);
        for (i, a) in args.iter().enumerate() {
            sol.bound.insert((b.owner, i as u32), *a);
        }
        b.params
            .into_iter()
            .map(|p| ParamSig {
                ty: self.subst(p.ty, &sol),
                ..p
            })
            .collect()
    }

    /// Replaces solved type parameters in `ty`.
    pub(crate) fn subst(&mut self, ty: TyId, sol: &Solution) -> TyId {
        if sol.bound.is_empty() {
            return ty;
        }
        match self.ty(ty).clone() {
            Ty::Param { owner, index, .. } => sol.bound.get(&(owner, index)).copied().unwrap_or(ty),
            Ty::Stack { elem, size } => {
                let elem = self.subst(elem, sol);
                self.types().intern(Ty::Stack { elem, size })
            }
            Ty::Tuple(items) => {
                let items = items.into_iter().map(|t| self.subst(t, sol)).collect();
                self.types().intern(Ty::Tuple(items))
            }
            Ty::List(e) => {
                let e = self.subst(e, sol);
                self.types().intern(Ty::List(e))
            }
            Ty::Set(e) => {
                let e = self.subst(e, sol);
                self.types().intern(Ty::Set(e))
            }
            Ty::Extern { decl, name, args } => {
                let args = args.into_iter().map(|t| self.subst(t, sol)).collect();
                self.types().intern(Ty::Extern { decl, name, args })
            }
            Ty::Block { decl, name, args } => {
                let args = args.into_iter().map(|t| self.subst(t, sol)).collect();
                self.types().intern(Ty::Block { decl, name, args })
            }
            Ty::Struct(_) => match self.generic_struct_origin.get(&ty).cloned() {
                Some((idx, args)) => {
                    let args: Vec<TyId> = args.into_iter().map(|t| self.subst(t, sol)).collect();
                    self.specialize_struct(idx, &args, crate::source::Span::default())
                }
                None => ty,
            },
            _ => ty,
        }
    }

    /// True if `ty` mentions a type parameter of one of `owners`.
    pub(crate) fn mentions_params(&self, ty: TyId, owners: &[u32]) -> bool {
        match self.ty(ty) {
            Ty::Param { owner, .. } => owners.contains(owner),
            Ty::Stack { elem, .. } | Ty::List(elem) | Ty::Set(elem) => {
                self.mentions_params(*elem, owners)
            }
            Ty::Tuple(items) => items.iter().any(|t| self.mentions_params(*t, owners)),
            Ty::Extern { args, .. } | Ty::Block { args, .. } => {
                args.iter().any(|t| self.mentions_params(*t, owners))
            }
            Ty::Struct(_) => self
                .generic_struct_origin
                .get(&ty)
                .is_some_and(|(_, args)| args.iter().any(|t| self.mentions_params(*t, owners))),
            _ => false,
        }
    }
}
