//! Operators: unary, binary (arithmetic, bitwise, comparisons,
//! concatenation), equality, shifts and `?:`, with `int` operands
//! converted and constants folded.

use super::Checker;
use super::consts::{self, FoldError, IntTy};
use super::exprs::{const_int, mk, unknown};
use crate::ast::{self, BinOp};
use crate::diag::Code;
use crate::ir::{self, ExprKind, UnOp, Value};
use crate::source::Span;
use crate::types::{Ty, TyId, TypeTable};
use num_bigint::BigInt;
use num_traits::Signed;

impl Checker<'_> {
    pub(super) fn int_ty(&self, ty: TyId) -> IntTy {
        match self.ty(ty) {
            Ty::Bits { width, signed } => IntTy::Fixed {
                width: *width,
                signed: *signed,
            },
            _ => IntTy::Inf,
        }
    }

    pub(super) fn unary_expr(
        &mut self,
        op: UnOp,
        operand: &ast::Expr,
        span: Span,
        expected: Option<TyId>,
    ) -> ir::Expr {
        let v = self.expr(operand, expected);
        if self.is_unknown(v.ty) {
            return unknown(span);
        }
        // `-`, `+` and `~` of a serializable enum work on its underlying
        // type, as p4c's Neg, UPlus and Cmpl do.
        let v = if op == UnOp::Not {
            v
        } else {
            self.enum_to_repr(v)
        };
        let ok = match op {
            UnOp::Not => v.ty == TypeTable::BOOL,
            UnOp::BitNot => matches!(self.ty(v.ty), Ty::Bits { .. }),
            UnOp::Neg | UnOp::Plus => self.is_integer(v.ty),
        };
        if !ok {
            let shown = self.show(v.ty);
            let (code, message) = match op {
                UnOp::Not => (
                    Code::NotBoolean,
                    format!("operator `!` needs a `bool` operand, not `{shown}`"),
                ),
                UnOp::BitNot if v.ty == TypeTable::INF_INT => (
                    Code::BadOperand,
                    format!(
                        "operator `~` cannot be applied to `{shown}` (an `int` constant has no width; cast it first)"
                    ),
                ),
                UnOp::BitNot => (
                    Code::BadOperand,
                    format!("operator `~` cannot be applied to `{shown}`"),
                ),
                UnOp::Neg => (
                    Code::BadOperand,
                    format!("operator `-` cannot be applied to `{shown}`"),
                ),
                UnOp::Plus => (
                    Code::BadOperand,
                    format!("operator `+` cannot be applied to `{shown}`"),
                ),
            };
            self.error(code, span, message);
            return unknown(span);
        }
        if op == UnOp::Plus {
            return mk(v.ty, v.kind, span);
        }
        if let ExprKind::Const(c) = &v.kind
            && let Some(r) = consts::unary(op, c, self.int_ty(v.ty))
        {
            return mk(v.ty, ExprKind::Const(r), span);
        }
        mk(v.ty, ExprKind::Unary(op, Box::new(v)), span)
    }

    /// Converts a serializable enum value to its underlying type (an
    /// implicit conversion P4 allows in arithmetic and comparisons).
    pub(super) fn enum_to_repr(&mut self, e: ir::Expr) -> ir::Expr {
        match self.prog.types.enum_info(e.ty).and_then(|i| i.repr) {
            Some(repr) => {
                let span = e.span;
                if let ExprKind::Const(v) = &e.kind {
                    return mk(repr, ExprKind::Const(v.clone()), span);
                }
                mk(repr, ExprKind::Cast(Box::new(e)), span)
            }
            None => e,
        }
    }

    /// Brings two numeric operands to one type: `int` constants take the
    /// other operand's type; fixed-width types must agree exactly.
    pub(super) fn numeric_operands(
        &mut self,
        op: BinOp,
        l: ir::Expr,
        r: ir::Expr,
        span: Span,
    ) -> Option<(ir::Expr, ir::Expr, TyId)> {
        let (l, r) = (self.enum_to_repr(l), self.enum_to_repr(r));
        if self.is_unknown(l.ty) || self.is_unknown(r.ty) {
            return None;
        }
        if self.is_type_param(l.ty) || self.is_type_param(r.ty) {
            let ty = if self.is_type_param(l.ty) { l.ty } else { r.ty };
            return Some((l, r, ty));
        }
        for side in [&l, &r] {
            if !self.is_integer(side.ty) {
                let shown = self.show(side.ty);
                self.error(
                    Code::BadOperand,
                    side.span,
                    format!("operator `{}` cannot be applied to `{shown}`", op.as_str()),
                );
                return None;
            }
        }
        let (lt, rt) = (l.ty, r.ty);
        if lt == TypeTable::INF_INT && rt == TypeTable::INF_INT {
            return Some((l, r, lt));
        }
        if lt == TypeTable::INF_INT {
            let l = self.coerce(l, rt);
            return Some((l, r, rt));
        }
        if rt == TypeTable::INF_INT {
            let r = self.coerce(r, lt);
            return Some((l, r, lt));
        }
        if lt != rt {
            let (ls, rs) = (self.show(lt), self.show(rt));
            self.error_with_note(
                Code::WidthMismatch,
                span,
                format!(
                    "operator `{}` has operands of different types: `{ls}` and `{rs}`",
                    op.as_str()
                ),
                "cast one operand so both have the same width and signedness",
            );
            return None;
        }
        Some((l, r, lt))
    }

    pub(super) fn binary_expr(
        &mut self,
        op: BinOp,
        la: &ast::Expr,
        ra: &ast::Expr,
        span: Span,
        expected: Option<TyId>,
    ) -> ir::Expr {
        use BinOp::*;
        match op {
            And | Or => {
                let l = self.expr(la, Some(TypeTable::BOOL));
                let r = self.expr(ra, Some(TypeTable::BOOL));
                for side in [&l, &r] {
                    if side.ty != TypeTable::BOOL && !self.is_unknown(side.ty) {
                        let shown = self.show(side.ty);
                        self.error(
                            Code::NotBoolean,
                            side.span,
                            format!(
                                "operator `{}` needs `bool` operands, not `{shown}`",
                                op.as_str()
                            ),
                        );
                        return unknown(span);
                    }
                }
                if let (ExprKind::Const(Value::Bool(a)), ExprKind::Const(Value::Bool(b))) =
                    (&l.kind, &r.kind)
                {
                    let v = if op == And { *a && *b } else { *a || *b };
                    return mk(TypeTable::BOOL, ExprKind::Const(Value::Bool(v)), span);
                }
                mk(
                    TypeTable::BOOL,
                    ExprKind::Binary(op, Box::new(l), Box::new(r)),
                    span,
                )
            }
            Eq | Ne => {
                let l = self.expr(la, None);
                let r = self.expr(ra, Some(l.ty));
                let l = if l.ty == TypeTable::INF_INT || matches!(self.ty(l.ty), Ty::Tuple(_)) {
                    // Re-check with the right side's type known ({...} literals).
                    let lt = r.ty;
                    self.expr(la, Some(lt))
                } else {
                    l
                };
                self.equality(op, l, r, span)
            }
            Shl | Shr => {
                let l = self.expr(la, expected);
                let r = self.expr(ra, None);
                self.shift(op, l, r, span)
            }
            Concat => {
                let l = self.expr(la, None);
                let r = self.expr(ra, None);
                let (l, r) = (self.enum_to_repr(l), self.enum_to_repr(r));
                if self.is_unknown(l.ty) || self.is_unknown(r.ty) {
                    return unknown(span);
                }
                // Strings concatenate (p4c: "the output type is just
                // string"); string values exist only at compile time.
                if let (ExprKind::Const(Value::Str(a)), ExprKind::Const(Value::Str(b))) =
                    (&l.kind, &r.kind)
                {
                    return mk(
                        TypeTable::STRING,
                        ExprKind::Const(Value::Str(format!("{a}{b}"))),
                        span,
                    );
                }
                let (Some((lw, ls)), Some((rw, _))) = (
                    self.prog.types.int_width(l.ty),
                    self.prog.types.int_width(r.ty),
                ) else {
                    let bad = if self.prog.types.int_width(l.ty).is_none() {
                        &l
                    } else {
                        &r
                    };
                    let shown = self.show(bad.ty);
                    self.error(
                        Code::BadOperand,
                        bad.span,
                        format!("`++` needs `bit<W>` or `int<W>` operands with a known width, not `{shown}`"),
                    );
                    return unknown(span);
                };
                let ty = self.types().bits(lw + rw, ls);
                if let (Some(a), Some(b)) = (const_int(&l), const_int(&r)) {
                    let v = consts::concat(
                        a,
                        b,
                        rw,
                        IntTy::Fixed {
                            width: lw + rw,
                            signed: ls,
                        },
                    );
                    return mk(ty, ExprKind::Const(Value::Int(v)), span);
                }
                mk(ty, ExprKind::Binary(op, Box::new(l), Box::new(r)), span)
            }
            _ => {
                let hint = if matches!(op, Lt | Le | Gt | Ge) {
                    None
                } else {
                    expected
                };
                let l = self.expr(la, hint);
                let r = self.expr(ra, hint.or(Some(l.ty)));
                if matches!(op, Div | Mod)
                    && [&l, &r].iter().any(|x| {
                        x.ty == TypeTable::INF_INT && const_int(x).is_some_and(|v| v.is_negative())
                    })
                {
                    // p4c's unsBinaryArith: "not defined on negative numbers",
                    // whatever the other operand's type.
                    self.error(
                        Code::BadOperand,
                        span,
                        format!("`{}` is not defined on negative numbers", op.as_str()),
                    );
                    return unknown(span);
                }
                let Some((l, r, ty)) = self.numeric_operands(op, l, r, span) else {
                    return unknown(span);
                };
                if matches!(op, Div | Mod) && matches!(self.ty(ty), Ty::Bits { signed: true, .. }) {
                    let shown = self.show(ty);
                    self.error(
                        Code::BadOperand,
                        span,
                        format!("`{}` is not defined on signed `{shown}`; P4 divides only unsigned values", op.as_str()),
                    );
                    return unknown(span);
                }
                if matches!(op, SatAdd | SatSub) && ty == TypeTable::INF_INT {
                    self.error(
                        Code::BadOperand,
                        span,
                        "saturating arithmetic needs a fixed-width type; cast the `int` operands",
                    );
                    return unknown(span);
                }
                let result_ty = if matches!(op, Lt | Le | Gt | Ge) {
                    TypeTable::BOOL
                } else {
                    ty
                };
                if let (Some(a), Some(b)) = (const_int(&l), const_int(&r)) {
                    match consts::binary(op, a, b, self.int_ty(ty)) {
                        Ok(v) => return mk(result_ty, ExprKind::Const(v), span),
                        Err(FoldError::DivisionByZero) => {
                            self.error(Code::DivisionByZero, span, "division by zero");
                            return unknown(span);
                        }
                        Err(FoldError::Negative) => {
                            self.error(
                                Code::BadOperand,
                                span,
                                format!("`{}` on `int` needs non-negative operands", op.as_str()),
                            );
                            return unknown(span);
                        }
                        Err(FoldError::TooLarge) => {}
                    }
                } else if matches!(op, Div | Mod)
                    && const_int(&r).is_some_and(|v| v.sign() == num_bigint::Sign::NoSign)
                {
                    self.error(Code::DivisionByZero, span, "division by zero");
                    return unknown(span);
                }
                mk(
                    result_ty,
                    ExprKind::Binary(op, Box::new(l), Box::new(r)),
                    span,
                )
            }
        }
    }

    pub(super) fn equality(&mut self, op: BinOp, l: ir::Expr, r: ir::Expr, span: Span) -> ir::Expr {
        if self.is_unknown(l.ty) || self.is_unknown(r.ty) {
            return unknown(span);
        }
        self.note_compared_type_param(l.ty);
        let (l, r) = if l.ty == r.ty {
            (l, r)
        } else if self.is_integer(l.ty)
            || self.is_integer(r.ty)
            || self.prog.types.underlying(l.ty).is_some()
            || self.prog.types.underlying(r.ty).is_some()
        {
            let l2 = self.enum_to_repr(l);
            let r2 = self.enum_to_repr(r);
            match self.numeric_operands(op, l2, r2, span) {
                Some((l, r, _)) => (l, r),
                None => return unknown(span),
            }
        } else if matches!(self.ty(r.ty), Ty::Tuple(_)) {
            let r = self.coerce(r, l.ty);
            (l, r)
        } else if matches!(self.ty(l.ty), Ty::Tuple(_)) {
            let l = self.coerce(l, r.ty);
            (l, r)
        } else {
            let (ls, rs) = (self.show(l.ty), self.show(r.ty));
            self.error(
                Code::TypeMismatch,
                span,
                format!("cannot compare `{ls}` with `{rs}`"),
            );
            return unknown(span);
        };
        if matches!(
            self.ty(l.ty),
            Ty::Extern { .. } | Ty::Block { .. } | Ty::Void | Ty::TableResult(_)
        ) {
            let shown = self.show(l.ty);
            self.error(
                Code::BadOperand,
                span,
                format!("values of type `{shown}` cannot be compared"),
            );
            return unknown(span);
        }
        if let (ExprKind::Const(a), ExprKind::Const(b)) = (&l.kind, &r.kind) {
            let eq = a == b;
            let v = if op == BinOp::Eq { eq } else { !eq };
            return mk(TypeTable::BOOL, ExprKind::Const(Value::Bool(v)), span);
        }
        mk(
            TypeTable::BOOL,
            ExprKind::Binary(op, Box::new(l), Box::new(r)),
            span,
        )
    }

    pub(super) fn shift(&mut self, op: BinOp, l: ir::Expr, r: ir::Expr, span: Span) -> ir::Expr {
        let (l, mut r) = (self.enum_to_repr(l), self.enum_to_repr(r));
        if self.is_unknown(l.ty) || self.is_unknown(r.ty) {
            return unknown(span);
        }
        if let Ty::Bits {
            width,
            signed: true,
        } = *self.ty(r.ty)
            && let Some(v) = const_int(&r).filter(|v| !v.is_negative()).cloned()
        {
            // A non-negative signed constant amount is taken as unsigned
            // (p4c's shift: "if the amount is signed but positive, make it
            // unsigned").
            let t = self.types().bits(width, false);
            r = mk(t, ExprKind::Const(Value::Int(v)), r.span);
        }
        if !self.is_integer(l.ty) {
            let shown = self.show(l.ty);
            self.error(
                Code::BadOperand,
                l.span,
                format!("cannot shift a value of type `{shown}`"),
            );
            return unknown(span);
        }
        match self.ty(r.ty) {
            Ty::Bits { signed: false, .. } => {}
            Ty::InfInt if const_int(&r).is_some_and(|v| !v.is_negative()) => {}
            _ => {
                let shown = self.show(r.ty);
                self.error(
                    Code::BadOperand,
                    r.span,
                    format!("a shift amount must be unsigned (`bit<W>` or a non-negative constant), not `{shown}`"),
                );
                return unknown(span);
            }
        }
        if l.ty == TypeTable::INF_INT && const_int(&r).is_none() {
            self.error(
                Code::NotConstant,
                r.span,
                "shifting an `int` constant needs a constant shift amount; cast the left operand to a fixed width",
            );
            return unknown(span);
        }
        // p4c's limits: an amount fits in 32 bits (its type checker), and
        // folding a constant shift stays within its widest type (2048).
        if let Some(b) = const_int(&r) {
            let limit = if const_int(&l).is_some() {
                BigInt::from(2048)
            } else {
                BigInt::from(i32::MAX)
            };
            if *b > limit {
                self.error(
                    Code::BadOperand,
                    r.span,
                    format!("shift amount {b} is too large (at most {limit})"),
                );
                return unknown(span);
            }
        }
        if let (Some(a), Some(b)) = (const_int(&l), const_int(&r)) {
            match consts::binary(op, a, b, self.int_ty(l.ty)) {
                Ok(v) => return mk(l.ty, ExprKind::Const(v), span),
                Err(_) => {
                    self.error(
                        Code::BadOperand,
                        span,
                        "shift amount too large for an `int` constant",
                    );
                    return unknown(span);
                }
            }
        }
        let ty = l.ty;
        mk(ty, ExprKind::Binary(op, Box::new(l), Box::new(r)), span)
    }

    pub(super) fn ternary_expr(
        &mut self,
        c: &ast::Expr,
        t: &ast::Expr,
        f: &ast::Expr,
        span: Span,
        expected: Option<TyId>,
    ) -> ir::Expr {
        let cond = self.condition(c, "the condition of `?:`");
        let a = self.expr(t, expected);
        let b = self.expr(f, expected.or(Some(a.ty)));
        if self.is_unknown(a.ty) || self.is_unknown(b.ty) {
            return unknown(span);
        }
        if a.ty == TypeTable::INF_INT && b.ty == TypeTable::INF_INT {
            // p4c: "Width must be specified for at least one of" the branches,
            // even when the condition is a constant.
            self.error(
                Code::TypeMismatch,
                span,
                "both branches of `?:` are `int` constants, which have no width; give one of them a width (e.g. `8w1`)",
            );
            return unknown(span);
        }
        if let ExprKind::Const(Value::Bool(v)) = cond.kind
            && a.ty == b.ty
        {
            return if v { a } else { b };
        }
        let (a, b) = if a.ty == b.ty {
            (a, b)
        } else if a.ty == TypeTable::INF_INT {
            let t = b.ty;
            (self.coerce(a, t), b)
        } else if b.ty == TypeTable::INF_INT {
            let t = a.ty;
            let b = self.coerce(b, t);
            (a, b)
        } else {
            let (x, y) = (self.show(a.ty), self.show(b.ty));
            self.error(
                Code::TypeMismatch,
                span,
                format!("the branches of `?:` have different types: `{x}` and `{y}`"),
            );
            return unknown(span);
        };
        if a.ty == TypeTable::INF_INT {
            if let ExprKind::Const(Value::Bool(v)) = cond.kind {
                return if v { a } else { b };
            }
            self.error(
                Code::TypeMismatch,
                span,
                "`?:` on `int` constants with a run-time condition has no width; cast a branch",
            );
            return unknown(span);
        }
        let ty = a.ty;
        mk(
            ty,
            ExprKind::Ternary(Box::new(cond), Box::new(a), Box::new(b)),
            span,
        )
    }
}
