//! Folding of checked IR expressions whose operands are all constants, for
//! later passes that learn a value only per instance (a constructor
//! argument `step + 1` once `step` is bound): the same rules as the
//! checker's own folding (`consts.rs`).

use super::consts::{self, IntTy};
use crate::ir::{BinOp, Expr, ExprKind, Value, VarId};
use crate::types::{Ty, TyId, TypeTable};
use num_bigint::BigInt;
use num_traits::Zero;
use std::collections::HashMap;

/// The value of `e` when it is built only from constants with unary,
/// binary, ternary, cast and slice operators; `None` otherwise (or when
/// the arithmetic fails, e.g. a division by zero).
pub fn fold_const(types: &TypeTable, e: &Expr) -> Option<Value> {
    fold_with(types, e, &HashMap::new())
}

/// As [`fold_const`], with the variables of `values` (e.g. constructor
/// parameters bound for one instance) taken as those constants.
pub fn fold_with(types: &TypeTable, e: &Expr, values: &HashMap<VarId, Value>) -> Option<Value> {
    let fold_const = |types: &TypeTable, e: &Expr| fold_with(types, e, values);
    match &e.kind {
        ExprKind::Const(v) => Some(v.clone()),
        ExprKind::Var(v) => values.get(v).cloned(),
        ExprKind::Unary(op, a) => consts::unary(*op, &fold_const(types, a)?, int_ty(types, e.ty)?),
        ExprKind::Binary(op, a, b) => binary(types, *op, a, b, e.ty, values),
        ExprKind::Ternary(c, a, b) => match fold_const(types, c)? {
            Value::Bool(true) => fold_const(types, a),
            Value::Bool(false) => fold_const(types, b),
            _ => None,
        },
        ExprKind::Cast(a) => cast(types, fold_const(types, a)?, e.ty),
        ExprKind::Slice(a, hi, lo) => match fold_const(types, a)? {
            Value::Int(v) => Some(Value::Int(consts::slice(&v, *hi, *lo))),
            _ => None,
        },
        _ => None,
    }
}

fn binary(
    types: &TypeTable,
    op: BinOp,
    a: &Expr,
    b: &Expr,
    result: TyId,
    values: &HashMap<VarId, Value>,
) -> Option<Value> {
    let (x, y) = (fold_with(types, a, values)?, fold_with(types, b, values)?);
    match (op, x, y) {
        (BinOp::And, Value::Bool(x), Value::Bool(y)) => Some(Value::Bool(x && y)),
        (BinOp::Or, Value::Bool(x), Value::Bool(y)) => Some(Value::Bool(x || y)),
        (BinOp::Eq, x, y) => Some(Value::Bool(x == y)),
        (BinOp::Ne, x, y) => Some(Value::Bool(x != y)),
        (BinOp::Concat, Value::Int(x), Value::Int(y)) => {
            let b_width = width(types, b.ty)?;
            Some(Value::Int(consts::concat(
                &x,
                &y,
                b_width,
                int_ty(types, result)?,
            )))
        }
        (op, Value::Int(x), Value::Int(y)) => {
            // Shifts and comparisons take the left operand's type.
            let ty = match op {
                BinOp::Shl | BinOp::Shr | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => a.ty,
                _ => result,
            };
            consts::binary(op, &x, &y, int_ty(types, ty)?).ok()
        }
        _ => None,
    }
}

/// A constant converted to type `to`: integers wrap to the width, `bool`
/// and `bit<1>` convert both ways.
fn cast(types: &TypeTable, v: Value, to: TyId) -> Option<Value> {
    let to = types.underlying(to).unwrap_or(to);
    match (v, types.get(to)) {
        (Value::Int(i), Ty::Bits { width, signed }) => {
            Some(Value::Int(consts::wrap(&i, *width, *signed)))
        }
        (Value::Int(i), Ty::InfInt) => Some(Value::Int(i)),
        (Value::Int(i), Ty::Bool) => Some(Value::Bool(!i.is_zero())),
        (Value::Bool(b), Ty::Bits { .. }) => Some(Value::Int(BigInt::from(u8::from(b)))),
        (Value::Bool(b), Ty::Bool) => Some(Value::Bool(b)),
        _ => None,
    }
}

fn int_ty(types: &TypeTable, t: TyId) -> Option<IntTy> {
    let t = types.underlying(t).unwrap_or(t);
    match types.get(t) {
        Ty::InfInt => Some(IntTy::Inf),
        Ty::Bits { width, signed } => Some(IntTy::Fixed {
            width: *width,
            signed: *signed,
        }),
        Ty::Bool => Some(IntTy::Inf),
        _ => None,
    }
}

fn width(types: &TypeTable, t: TyId) -> Option<u32> {
    let t = types.underlying(t).unwrap_or(t);
    match types.get(t) {
        Ty::Bits { width, .. } => Some(*width),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    fn c(types: &mut TypeTable, v: i64, width: u32) -> Expr {
        let ty = types.intern(Ty::Bits {
            width,
            signed: false,
        });
        Expr {
            ty,
            kind: ExprKind::Const(Value::Int(BigInt::from(v))),
            span: Span::default(),
        }
    }

    fn bin(types: &mut TypeTable, op: BinOp, a: Expr, b: Expr, ty: Ty) -> Expr {
        Expr {
            ty: types.intern(ty),
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            span: Span::default(),
        }
    }

    const U8: Ty = Ty::Bits {
        width: 8,
        signed: false,
    };

    #[test]
    fn folds_arithmetic_at_the_width() {
        let mut t = TypeTable::new();
        let (a, b) = (c(&mut t, 200, 8), c(&mut t, 100, 8));
        let e = bin(&mut t, BinOp::Add, a, b, U8);
        assert_eq!(fold_const(&t, &e), Some(Value::Int(BigInt::from(44))));
    }

    #[test]
    fn shifts_casts_and_comparisons() {
        let mut t = TypeTable::new();
        let (a, b) = (c(&mut t, 3, 8), c(&mut t, 1, 8));
        let shifted = bin(&mut t, BinOp::Shl, a, b, U8);
        assert_eq!(fold_const(&t, &shifted), Some(Value::Int(BigInt::from(6))));
        let cast = Expr {
            ty: t.intern(Ty::Bits {
                width: 4,
                signed: false,
            }),
            kind: ExprKind::Cast(Box::new(c(&mut t, 0x1f, 8))),
            span: Span::default(),
        };
        assert_eq!(fold_const(&t, &cast), Some(Value::Int(BigInt::from(0xf))));
        let (x, y) = (c(&mut t, 2, 8), c(&mut t, 5, 8));
        let lt = bin(&mut t, BinOp::Lt, x, y, Ty::Bool);
        assert_eq!(fold_const(&t, &lt), Some(Value::Bool(true)));
    }

    #[test]
    fn a_division_by_zero_or_a_variable_does_not_fold() {
        let mut t = TypeTable::new();
        let (a, z) = (c(&mut t, 3, 8), c(&mut t, 0, 8));
        let div = bin(&mut t, BinOp::Div, a, z, U8);
        assert_eq!(fold_const(&t, &div), None);
        let var = Expr {
            ty: t.intern(U8),
            kind: ExprKind::Var(crate::ir::VarId(0)),
            span: Span::default(),
        };
        let one = c(&mut t, 1, 8);
        let add = bin(&mut t, BinOp::Add, var, one, U8);
        assert_eq!(fold_const(&t, &add), None);
    }
}
