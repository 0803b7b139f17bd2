//! [`Word`]: a value of at most 64 bits held in registers, the fast path of
//! expression evaluation. Every operator gives the same result as the
//! [`Bits`] operator of the same name (a property test checks this), so an
//! expression whose values all fit in 64 bits can be evaluated on words.

// The operators keep the names of their `Bits` counterparts (and P4's
// semantics, e.g. division by zero gives 0) rather than std's traits.
#![allow(clippy::should_implement_trait)]

use super::{Bits, mask, sext};
use std::cmp::Ordering;

/// A `bit<W>` or `int<W>` value with `W <= 64`; `v` is the pattern, with
/// the bits above `W` clear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word {
    pub v: u64,
    pub width: u32,
    pub signed: bool,
}

impl Word {
    /// `v` reduced modulo 2^width.
    #[inline]
    pub fn new(width: u32, signed: bool, v: u64) -> Word {
        debug_assert!(width <= 64);
        Word {
            v: v & mask(width),
            width,
            signed,
        }
    }

    /// A `Bits` of at most 64 bits as a word.
    #[inline]
    pub fn from_bits(b: &Bits) -> Word {
        debug_assert!(b.width() <= 64, "a {}-bit value as a word", b.width());
        Word {
            v: b.as_u64_truncated(),
            width: b.width(),
            signed: b.is_signed(),
        }
    }

    #[inline]
    pub fn to_bits(self) -> Bits {
        Bits::small(self.width, self.signed, self.v)
    }

    /// `bit<1>` from a `bool`.
    #[inline]
    pub fn from_bool(b: bool) -> Word {
        Word {
            v: b as u64,
            width: 1,
            signed: false,
        }
    }

    #[inline]
    pub fn is_true(self) -> bool {
        self.v != 0
    }

    #[inline]
    fn with(self, v: u64) -> Word {
        Word::new(self.width, self.signed, v)
    }

    /// The numeric value (sign-extended for `int<W>`).
    #[inline]
    fn numeric(self) -> i128 {
        if self.signed {
            i128::from(sext(self.v, self.width))
        } else {
            i128::from(self.v)
        }
    }

    #[inline]
    pub fn add(self, o: Word) -> Word {
        self.with(self.v.wrapping_add(o.v))
    }

    #[inline]
    pub fn sub(self, o: Word) -> Word {
        self.with(self.v.wrapping_sub(o.v))
    }

    #[inline]
    pub fn mul(self, o: Word) -> Word {
        self.with(self.v.wrapping_mul(o.v))
    }

    /// Quotient of the patterns; 0 when dividing by zero (as `Bits::div`).
    #[inline]
    pub fn div(self, o: Word) -> Word {
        self.with(self.v.checked_div(o.v).unwrap_or(0))
    }

    #[inline]
    pub fn rem(self, o: Word) -> Word {
        self.with(self.v.checked_rem(o.v).unwrap_or(0))
    }

    /// `|+|`: the sum clamped to the type's range.
    pub fn sat_add(self, o: Word) -> Word {
        self.clamp(self.numeric() + o.numeric())
    }

    /// `|-|`: the difference clamped to the type's range.
    pub fn sat_sub(self, o: Word) -> Word {
        self.clamp(self.numeric() - o.numeric())
    }

    fn clamp(self, v: i128) -> Word {
        let w = self.width;
        let (lo, hi) = match (self.signed, w) {
            (_, 0) => (0, 0),
            (true, _) => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
            (false, _) => (0, (1i128 << w) - 1),
        };
        self.with(v.clamp(lo, hi) as u64)
    }

    #[inline]
    pub fn neg(self) -> Word {
        self.with(self.v.wrapping_neg())
    }

    #[inline]
    pub fn not(self) -> Word {
        self.with(!self.v)
    }

    #[inline]
    pub fn and(self, o: Word) -> Word {
        self.with(self.v & o.v)
    }

    #[inline]
    pub fn or(self, o: Word) -> Word {
        self.with(self.v | o.v)
    }

    #[inline]
    pub fn xor(self, o: Word) -> Word {
        self.with(self.v ^ o.v)
    }

    /// `<<`: zero once `amount >= W`.
    #[inline]
    pub fn shl(self, amount: u64) -> Word {
        if amount >= u64::from(self.width) {
            return self.with(0);
        }
        self.with(self.v << amount)
    }

    /// `>>`: arithmetic for `int<W>`, logical for `bit<W>`.
    #[inline]
    pub fn shr(self, amount: u64) -> Word {
        if self.signed {
            return self.with((sext(self.v, self.width) >> amount.min(63)) as u64);
        }
        let amount = u32::try_from(amount).unwrap_or(u32::MAX);
        self.with(self.v.checked_shr(amount).unwrap_or(0))
    }

    /// `self ++ low`; the caller guarantees the sum of widths is at most 64.
    #[inline]
    pub fn concat(self, low: Word) -> Word {
        let high = self.v.checked_shl(low.width).unwrap_or(0);
        Word::new(self.width + low.width, self.signed, high | low.v)
    }

    /// `self[hi:lo]` as a `bit<hi-lo+1>`.
    #[inline]
    pub fn slice(self, hi: u32, lo: u32) -> Word {
        let Some(width) = hi.checked_sub(lo).and_then(|d| d.checked_add(1)) else {
            return Word::new(0, false, 0);
        };
        Word::new(width, false, self.v.checked_shr(lo).unwrap_or(0))
    }

    /// `(bit<width>)` or `(int<width>)` of this value, `width <= 64`.
    #[inline]
    pub fn cast(self, width: u32, signed: bool) -> Word {
        let v = if self.signed {
            sext(self.v, self.width) as u64
        } else {
            self.v
        };
        Word::new(width, signed, v)
    }

    /// Numeric order of two values of one type.
    #[inline]
    pub fn compare(self, o: Word) -> Ordering {
        if self.signed {
            sext(self.v, self.width).cmp(&sext(o.v, o.width))
        } else {
            self.v.cmp(&o.v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn word() -> impl Strategy<Value = (u32, bool, u64, u64)> {
        (1u32..=64, any::<bool>(), any::<u64>(), any::<u64>())
    }

    proptest! {
        #[test]
        fn word_operators_agree_with_bits((w, s, a, b) in word(), amount in 0u64..70, hi in 0u32..64, lo in 0u32..64, to in 1u32..=64, to_signed in any::<bool>()) {
            let (x, y) = (Word::new(w, s, a), Word::new(w, s, b));
            let (bx, by) = (x.to_bits(), y.to_bits());
            let same = |got: Word, want: Bits| -> Result<(), TestCaseError> {
                prop_assert_eq!(got.to_bits(), want);
                Ok(())
            };
            same(x.add(y), bx.add(&by))?;
            same(x.sub(y), bx.sub(&by))?;
            same(x.mul(y), bx.mul(&by))?;
            if !s {
                // P4 divides only unsigned values (Bits checks that).
                same(x.div(y), bx.div(&by))?;
                same(x.rem(y), bx.rem(&by))?;
            }
            same(x.sat_add(y), bx.sat_add(&by))?;
            same(x.sat_sub(y), bx.sat_sub(&by))?;
            same(x.neg(), bx.neg())?;
            same(x.not(), bx.not())?;
            same(x.and(y), bx.and(&by))?;
            same(x.or(y), bx.or(&by))?;
            same(x.xor(y), bx.xor(&by))?;
            same(x.shl(amount), bx.shl(amount))?;
            same(x.shr(amount), bx.shr(amount))?;
            same(x.cast(to, to_signed), bx.cast(to, to_signed))?;
            prop_assert_eq!(x.compare(y), bx.compare(&by));
            if hi < w && lo <= hi {
                same(x.slice(hi, lo), bx.slice(hi, lo))?;
            }
            let low = Word::new(64 - w, false, b);
            if low.width > 0 {
                same(x.concat(low), bx.concat(&low.to_bits()))?;
            }
        }
    }
}
