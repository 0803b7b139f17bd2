//! Compile-time evaluation of integer and boolean operators with P4's
//! semantics: `bit<W>` wraps modulo 2^W, `int<W>` is two's complement,
//! `int` has infinite precision, saturating operators clamp.

use crate::ast::BinOp;
use crate::ir::{UnOp, Value};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The integer type a folded value has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntTy {
    Inf,
    Fixed { width: u32, signed: bool },
}

/// Why folding failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldError {
    DivisionByZero,
    /// A negative operand where P4 forbids one (division of `int`, shift amount).
    Negative,
    /// The result would be unreasonably large (a shift of `int` by a huge amount).
    TooLarge,
}

/// Reduces `v` to the range of `bit<width>` / `int<width>` (wrap-around).
pub fn wrap(v: &BigInt, width: u32, signed: bool) -> BigInt {
    if width == 0 {
        return BigInt::zero();
    }
    let modulus = BigInt::one() << width;
    let mut r = v.mod_floor(&modulus);
    if signed && r >= (BigInt::one() << (width - 1)) {
        r -= &modulus;
    }
    r
}

/// True if `v` is representable in `bit<width>` / `int<width>`.
pub fn fits(v: &BigInt, width: u32, signed: bool) -> bool {
    wrap(v, width, signed) == *v
}

/// True if `v` fits either as unsigned or as signed of `width` bits: what a
/// literal may hold without a truncation warning (`8w255` and `8w-1`-style
/// negations of `bit` values are common and intended).
pub fn fits_loosely(v: &BigInt, width: u32) -> bool {
    fits(v, width, false) || fits(v, width, true)
}

fn clamp(v: BigInt, width: u32, signed: bool) -> BigInt {
    let (lo, hi) = if signed {
        let h = BigInt::one() << (width - 1);
        (-h.clone(), h - 1)
    } else {
        (BigInt::zero(), (BigInt::one() << width) - 1)
    };
    v.clamp(lo, hi)
}

fn norm(v: BigInt, ty: IntTy) -> BigInt {
    match ty {
        IntTy::Inf => v,
        IntTy::Fixed { width, signed } => wrap(&v, width, signed),
    }
}

pub fn unary(op: UnOp, v: &Value, ty: IntTy) -> Option<Value> {
    Some(match (op, v) {
        (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
        (UnOp::Neg, Value::Int(i)) => Value::Int(norm(-i, ty)),
        (UnOp::BitNot, Value::Int(i)) => Value::Int(norm(-i - 1, ty)),
        _ => return None,
    })
}

/// Folds `a op b` where both are integer constants of type `ty` (for shifts,
/// `ty` is the left operand's). Comparisons give `Bool`.
pub fn binary(op: BinOp, a: &BigInt, b: &BigInt, ty: IntTy) -> Result<Value, FoldError> {
    use BinOp::*;
    let int = |v: BigInt| Ok(Value::Int(norm(v, ty)));
    match op {
        Add => int(a + b),
        Sub => int(a - b),
        Mul => int(a * b),
        Div | Mod => {
            if b.is_zero() {
                return Err(FoldError::DivisionByZero);
            }
            if ty == IntTy::Inf && (a.is_negative() || b.is_negative()) {
                return Err(FoldError::Negative);
            }
            // Fixed-width operands are already in range; unsigned values
            // are non-negative, so truncating division is exact here.
            if op == Div { int(a / b) } else { int(a % b) }
        }
        SatAdd | SatSub => {
            let r = if op == SatAdd { a + b } else { a - b };
            match ty {
                IntTy::Inf => int(r),
                IntTy::Fixed { width, signed } => Ok(Value::Int(clamp(r, width, signed))),
            }
        }
        Shl | Shr => {
            if b.is_negative() {
                return Err(FoldError::Negative);
            }
            let amount = b.to_u64().unwrap_or(u64::MAX);
            match ty {
                IntTy::Fixed { width, signed } => {
                    if amount >= width as u64 {
                        let fill = if op == Shr && signed && a.is_negative() {
                            -BigInt::one()
                        } else {
                            BigInt::zero()
                        };
                        return Ok(Value::Int(fill));
                    }
                    let amount = amount as usize;
                    if op == Shl {
                        int(a << amount)
                    } else {
                        // Arithmetic for signed (floor), logical for unsigned
                        // (the value is non-negative).
                        int(a >> amount)
                    }
                }
                IntTy::Inf => {
                    if amount > 1 << 20 {
                        return Err(FoldError::TooLarge);
                    }
                    let amount = amount as usize;
                    if op == Shl {
                        int(a << amount)
                    } else {
                        int(a >> amount)
                    }
                }
            }
        }
        BitAnd => int(a & b),
        BitOr => int(a | b),
        BitXor => int(a ^ b),
        Eq => Ok(Value::Bool(a == b)),
        Ne => Ok(Value::Bool(a != b)),
        Lt => Ok(Value::Bool(a < b)),
        Le => Ok(Value::Bool(a <= b)),
        Gt => Ok(Value::Bool(a > b)),
        Ge => Ok(Value::Bool(a >= b)),
        Concat | And | Or => Err(FoldError::TooLarge),
    }
}

/// `a ++ b` for fixed-width values: `b` occupies the low `b_width` bits.
pub fn concat(a: &BigInt, b: &BigInt, b_width: u32, result: IntTy) -> BigInt {
    let low = wrap(b, b_width, false);
    let high = a << b_width as usize;
    norm(high | low, result)
}

/// `v[hi:lo]` as an unsigned value.
pub fn slice(v: &BigInt, hi: u32, lo: u32) -> BigInt {
    wrap(&(v >> lo as usize), hi - lo + 1, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(v: i64) -> BigInt {
        BigInt::from(v)
    }

    const U8: IntTy = IntTy::Fixed {
        width: 8,
        signed: false,
    };
    const S8: IntTy = IntTy::Fixed {
        width: 8,
        signed: true,
    };

    #[test]
    fn wraps_at_width() {
        assert_eq!(wrap(&b(256), 8, false), b(0));
        assert_eq!(wrap(&b(-1), 8, false), b(255));
        assert_eq!(wrap(&b(128), 8, true), b(-128));
        assert_eq!(
            binary(BinOp::Add, &b(200), &b(100), U8),
            Ok(Value::Int(b(44)))
        );
        assert_eq!(binary(BinOp::Sub, &b(0), &b(1), U8), Ok(Value::Int(b(255))));
    }

    #[test]
    fn saturating_clamps() {
        assert_eq!(
            binary(BinOp::SatAdd, &b(200), &b(100), U8),
            Ok(Value::Int(b(255)))
        );
        assert_eq!(
            binary(BinOp::SatSub, &b(1), &b(2), U8),
            Ok(Value::Int(b(0)))
        );
        assert_eq!(
            binary(BinOp::SatAdd, &b(100), &b(100), S8),
            Ok(Value::Int(b(127)))
        );
        assert_eq!(
            binary(BinOp::SatSub, &b(-100), &b(100), S8),
            Ok(Value::Int(b(-128)))
        );
    }

    #[test]
    fn shifts() {
        assert_eq!(
            binary(BinOp::Shl, &b(0x81), &b(1), U8),
            Ok(Value::Int(b(2)))
        );
        assert_eq!(
            binary(BinOp::Shr, &b(-128), &b(7), S8),
            Ok(Value::Int(b(-1)))
        );
        assert_eq!(
            binary(BinOp::Shr, &b(-128), &b(9), S8),
            Ok(Value::Int(b(-1)))
        );
        assert_eq!(
            binary(BinOp::Shl, &b(1), &b(100), IntTy::Inf),
            Ok(Value::Int(BigInt::one() << 100))
        );
    }

    #[test]
    fn division_rules() {
        assert_eq!(
            binary(BinOp::Div, &b(7), &b(0), U8),
            Err(FoldError::DivisionByZero)
        );
        assert_eq!(
            binary(BinOp::Mod, &b(-7), &b(2), IntTy::Inf),
            Err(FoldError::Negative)
        );
        assert_eq!(
            binary(BinOp::Div, &b(7), &b(2), IntTy::Inf),
            Ok(Value::Int(b(3)))
        );
    }

    #[test]
    fn concat_and_slice() {
        assert_eq!(
            concat(
                &b(0xA),
                &b(0x5),
                4,
                IntTy::Fixed {
                    width: 8,
                    signed: false
                }
            ),
            b(0xA5)
        );
        assert_eq!(slice(&b(0xA5), 7, 4), b(0xA));
        assert_eq!(slice(&b(-1), 3, 0), b(0xF));
    }
}
