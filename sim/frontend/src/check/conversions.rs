//! Casts and implicit conversions: the spec's list of explicit casts,
//! lists and anonymous structs converted to the type a context expects.

use super::Checker;
use super::consts;
use super::exprs::{const_int, mk, unknown};
use crate::diag::Code;
use crate::ir::{self, ExprKind, Value};
use crate::source::Span;
use crate::types::{Ty, TyId, TypeTable};
use num_bigint::BigInt;

impl Checker<'_> {
    /// An explicit cast, per the P4_16 spec's list of allowed casts.
    pub(crate) fn cast(&mut self, v: ir::Expr, to: TyId, span: Span) -> ir::Expr {
        if self.is_unknown(v.ty) || self.is_unknown(to) {
            return unknown(span);
        }
        // p4c casts to a header stack only a list, and to a tuple nothing.
        let refused = match self.ty(to) {
            Ty::Stack { .. } if !matches!(v.kind, ExprKind::List(_)) => {
                Some("a cast to an array or header stack takes only a list `{...}`")
            }
            Ty::Tuple(_) => Some("a cast to a tuple type is not supported"),
            _ => None,
        };
        if let Some(why) = refused {
            self.error(Code::BadCast, span, why);
            return unknown(span);
        }
        if v.ty == to {
            return mk(to, v.kind, span);
        }
        let from = self.ty(v.ty).clone();
        let target = self.ty(to).clone();
        let ok = match (&from, &target) {
            // `(int)K` for a compile-time `bit<W>`/`int<W>` value (p4c's
            // canCastBetween allows Bits to InfInt; a value without a
            // width exists only at compile time).
            (Ty::Enum(_), Ty::InfInt) if self.prog.types.underlying(v.ty).is_none() => false,
            (Ty::Bits { .. } | Ty::Enum(_), Ty::InfInt) => {
                if const_int(&v).is_none() {
                    let f = self.show(v.ty);
                    self.error(
                        Code::BadCast,
                        span,
                        format!("only a compile-time constant `{f}` can be cast to `int`"),
                    );
                    return unknown(span);
                }
                true
            }
            (Ty::InfInt, Ty::Bool) => {
                const_int(&v).is_some_and(|x| *x == BigInt::from(0) || *x == BigInt::from(1))
            }
            (Ty::InfInt, Ty::Enum(_)) => self.prog.types.underlying(to).is_some(),
            // Bits, bool, serializable enums and new types.
            (
                Ty::Bits { .. } | Ty::Bool | Ty::InfInt | Ty::Enum(_) | Ty::NewType { .. },
                Ty::Bits { .. } | Ty::Bool | Ty::Enum(_) | Ty::NewType { .. },
            ) => self.cast_allowed_between(v.ty, to),
            (Ty::Tuple(_), Ty::Struct(_) | Ty::Tuple(_)) => {
                let c = self.coerce(v.clone(), to);
                return mk(to, c.kind, span);
            }
            (Ty::Struct(a), Ty::Struct(b)) => {
                // A struct-valued expression to a struct of the same shape.
                let (a, b) = (
                    &self.prog.types.structs[*a as usize],
                    &self.prog.types.structs[*b as usize],
                );
                a.fields.len() == b.fields.len()
                    && a.fields.iter().zip(&b.fields).all(|(x, y)| x.ty == y.ty)
                    && a.name.starts_with("struct {")
            }
            _ => false,
        };
        if !ok {
            let (f, t) = (self.show(v.ty), self.show(to));
            self.error(Code::BadCast, span, format!("cannot cast `{f}` to `{t}`"));
            return unknown(span);
        }
        // Fold constant casts.
        if let ExprKind::Const(c) = &v.kind {
            let folded = match (c, &target) {
                (Value::Int(x), Ty::InfInt) => Some(Value::Int(x.clone())),
                (Value::Int(x), Ty::Bits { width, signed }) => {
                    Some(Value::Int(consts::wrap(x, *width, *signed)))
                }
                (Value::Int(x), Ty::Bool) => Some(Value::Bool(*x != BigInt::from(0))),
                (Value::Bool(b), Ty::Bits { .. }) => Some(Value::Int(BigInt::from(*b as u8))),
                (Value::Int(x), Ty::Enum(_)) => {
                    let (w, s) = self
                        .prog
                        .types
                        .underlying(to)
                        .and_then(|u| self.prog.types.int_width(u))
                        .unwrap_or((0, false));
                    Some(Value::Int(consts::wrap(x, w, s)))
                }
                (Value::Int(x), Ty::NewType { of, .. }) => match self.prog.types.int_width(*of) {
                    Some((w, s)) => Some(Value::Int(consts::wrap(x, w, s))),
                    None => Some(Value::Int(x.clone())),
                },
                _ => None,
            };
            if let Some(c) = folded {
                return mk(to, ExprKind::Const(c), span);
            }
        }
        mk(to, ExprKind::Cast(Box::new(v)), span)
    }

    /// p4c's `canCastBetween` for scalar types: `bit<W>`/`int<W>` change
    /// width or signedness (not both), `bit<1>` and `bool` convert, a
    /// serializable enum converts as its underlying type does, and only
    /// from exactly that type; a `type` converts as its base type does,
    /// and only from exactly that type.
    pub(super) fn cast_allowed_between(&self, from: TyId, to: TyId) -> bool {
        if from == to {
            return true;
        }
        let types = &self.prog.types;
        if let Ty::NewType { of, .. } = self.ty(to)
            && *of == from
        {
            return true;
        }
        match (self.ty(from), self.ty(to)) {
            (Ty::NewType { of, .. }, _) => self.cast_allowed_between(*of, to),
            // An untyped constant takes the type (p4c unifies it).
            (Ty::InfInt, Ty::NewType { of, .. }) => self.cast_allowed_between(from, *of),
            (Ty::Enum(_), _) => types
                .underlying(from)
                .is_some_and(|u| self.cast_allowed_between(u, to)),
            (Ty::Bits { .. }, Ty::Enum(_)) => types.underlying(to) == Some(from),
            (
                Ty::Bits {
                    width: fw,
                    signed: fs,
                },
                Ty::Bits {
                    width: tw,
                    signed: ts,
                },
            ) => fw == tw || fs == ts,
            (Ty::InfInt, Ty::Bits { .. } | Ty::Bool) => true,
            (
                Ty::Bits {
                    width: 1,
                    signed: false,
                },
                Ty::Bool,
            )
            | (
                Ty::Bool,
                Ty::Bits {
                    width: 1,
                    signed: false,
                },
            ) => true,
            _ => false,
        }
    }

    /// Implicit conversion to `to`: `int` constants to fixed-width types,
    /// serializable enums to their underlying type, `{...}` to structs,
    /// headers and tuples. Reports a mismatch.
    pub(crate) fn coerce(&mut self, v: ir::Expr, to: TyId) -> ir::Expr {
        if v.ty == to || self.is_unknown(to) || self.is_unknown(v.ty) || to == TypeTable::DONT_CARE
        {
            return v;
        }
        if self.is_type_param(v.ty) || self.is_type_param(to) {
            // Inside a generic declaration, values of a type parameter are
            // checked when the declaration is used with concrete types.
            return mk(to, v.kind, v.span);
        }
        let span = v.span;
        if v.ty == TypeTable::DONT_CARE && matches!(v.kind, ExprKind::DontCare) {
            return v;
        }
        let target = self.ty(to).clone();
        match (&target, self.ty(v.ty).clone()) {
            (Ty::Bits { width, signed }, Ty::InfInt) => {
                if let Some(x) = const_int(&v) {
                    if !consts::fits_loosely(x, *width) && !consts::fits(x, *width, *signed) {
                        let shown = self.show(to);
                        self.warning(
                            Code::Truncation,
                            span,
                            format!("value {x} does not fit in `{shown}`; it is truncated"),
                        );
                    }
                    let w = consts::wrap(x, *width, *signed);
                    return mk(to, ExprKind::Const(Value::Int(w)), span);
                }
                return mk(to, ExprKind::Cast(Box::new(v)), span);
            }
            (Ty::NewType { of, .. }, Ty::InfInt) if self.prog.types.int_width(*of).is_some() => {
                let inner = self.coerce(v, *of);
                return mk(to, inner.kind, span);
            }
            (_, Ty::Enum(_)) if self.prog.types.underlying(v.ty) == Some(to) => {
                return self.enum_to_repr(v);
            }
            (Ty::Struct(_) | Ty::Tuple(_) | Ty::Stack { .. } | Ty::List(_), Ty::Tuple(items)) => {
                if let Some(r) = self.list_to(v.clone(), &items, to) {
                    return r;
                }
            }
            (Ty::Struct(_), Ty::Struct(_)) if self.is_anonymous_struct(v.ty) => {
                if let Some(r) = self.anon_struct_to(v.clone(), to) {
                    return r;
                }
            }
            (
                Ty::Block {
                    decl: pd, args: pa, ..
                },
                Ty::Block {
                    decl: ad, args: aa, ..
                },
            ) => {
                // A parser or control where a parser or control type is
                // expected: compatible apply signatures.
                let mut sol = super::unify::Solution::default();
                if self.unify_blocks((*pd, pa.clone()), (ad, aa), &mut sol) {
                    return mk(to, v.kind, span);
                }
            }
            (Ty::Set(elem), _) => {
                let inner = self.coerce(v, *elem);
                return mk(to, inner.kind, span);
            }
            _ => {}
        }
        let (f, t) = (self.show(v.ty), self.show(to));
        self.error(
            Code::TypeMismatch,
            span,
            format!("expected a value of type `{t}`, found `{f}`"),
        );
        unknown(span)
    }

    pub(super) fn is_anonymous_struct(&self, ty: TyId) -> bool {
        self.prog
            .types
            .struct_info(ty)
            .is_some_and(|s| s.name.starts_with("struct {"))
    }

    /// `{a, b}` (a tuple-typed list) converted positionally to a struct,
    /// header, tuple or stack.
    pub(super) fn list_to(&mut self, v: ir::Expr, items: &[TyId], to: TyId) -> Option<ir::Expr> {
        let span = v.span;
        let targets: Vec<TyId> = match self.ty(to).clone() {
            Ty::Struct(i) => self.prog.types.structs[i as usize]
                .fields
                .iter()
                .map(|f| f.ty)
                .collect(),
            Ty::Tuple(t) => t,
            Ty::Stack { elem, size } => vec![elem; size as usize],
            Ty::List(elem) => vec![elem; items.len()],
            _ => return None,
        };
        if targets.len() != items.len() {
            let shown = self.show(to);
            self.error(
                Code::TypeMismatch,
                span,
                format!(
                    "`{shown}` has {} fields, but the list has {}",
                    targets.len(),
                    items.len()
                ),
            );
            return Some(unknown(span));
        }
        let parts: Vec<ir::Expr> = match v.kind {
            ExprKind::List(parts) => parts,
            ExprKind::Const(Value::List(vals)) => vals
                .into_iter()
                .zip(items)
                .map(|(val, ty)| mk(*ty, ExprKind::Const(val), span))
                .collect(),
            _ => return None,
        };
        let converted: Vec<ir::Expr> = parts
            .into_iter()
            .zip(targets)
            .map(|(p, t)| self.coerce(p, t))
            .collect();
        Some(self.build_list(to, converted, span))
    }

    pub(super) fn anon_struct_to(&mut self, v: ir::Expr, to: TyId) -> Option<ir::Expr> {
        let span = v.span;
        let from = self.prog.types.struct_info(v.ty)?.clone();
        let target = self.prog.types.struct_info(to)?.clone();
        let ExprKind::List(parts) = v.kind else {
            return None;
        };
        let mut out = Vec::with_capacity(target.fields.len());
        for f in &target.fields {
            match from.fields.iter().position(|x| x.name == f.name) {
                Some(i) => {
                    let p = parts[i].clone();
                    out.push(self.coerce(p, f.ty));
                }
                None => {
                    self.error(
                        Code::TypeMismatch,
                        span,
                        format!("field `{}` of `{}` is not initialised", f.name, target.name),
                    );
                    return Some(unknown(span));
                }
            }
        }
        for f in &from.fields {
            if !target.fields.iter().any(|x| x.name == f.name) {
                self.error(
                    Code::UnknownMember,
                    span,
                    format!("`{}` has no field `{}`", target.name, f.name),
                );
                return Some(unknown(span));
            }
        }
        Some(self.build_list(to, out, span))
    }

    /// A list node of type `ty`, folded to a constant when every part is one.
    pub(crate) fn build_list(&mut self, ty: TyId, parts: Vec<ir::Expr>, span: Span) -> ir::Expr {
        if parts.iter().all(|p| matches!(p.kind, ExprKind::Const(_)))
            && !self.prog.types.is_header(ty)
        {
            let vals = parts
                .into_iter()
                .map(|p| match p.kind {
                    ExprKind::Const(v) => v,
                    _ => unreachable!("checked all constant"),
                })
                .collect();
            return mk(ty, ExprKind::Const(Value::List(vals)), span);
        }
        mk(ty, ExprKind::List(parts), span)
    }
}
