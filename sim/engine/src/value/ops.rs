//! P4 operators on [`Bits`]. Each has a fast path for values of at most 64
//! bits (both operands in [`Repr::Small`]) and a general path over words.

use super::{Bits, Repr, SMALL_MAX_WIDTH, Word, limbs, mask};
use std::borrow::Cow;

impl Bits {
    /// A value of this one's type from a pattern of at most 64 bits,
    /// truncated to the width.
    #[inline]
    fn with_small(&self, v: u64) -> Bits {
        Bits::small(self.width, self.signed, v & mask(self.width))
    }

    /// `other` as an operand of this value's type: itself when the types
    /// agree (always, for a type-checked program), else cast.
    #[inline]
    fn conform<'a>(&self, other: &'a Bits) -> Cow<'a, Bits> {
        self.debug_check_same_type(other);
        if self.width == other.width && self.signed == other.signed {
            Cow::Borrowed(other)
        } else {
            Cow::Owned(self.conform_cold(other))
        }
    }

    #[cold]
    #[inline(never)]
    fn conform_cold(&self, other: &Bits) -> Bits {
        other.cast(self.width, self.signed)
    }

    /// The general path of a binary operator: `f(result, a, b)` over words
    /// of equal length, then normalisation.
    fn map2(&self, other: &Bits, f: impl FnOnce(&mut [u64], &[u64], &[u64])) -> Bits {
        let b = self.conform(other);
        let mut r = Bits::zero(self.width, self.signed);
        f(r.words_mut(), self.words(), b.words());
        r.normalize();
        r
    }

    /// The general path of a unary operator on words.
    fn map1(&self, f: impl FnOnce(&mut [u64], &[u64])) -> Bits {
        let mut r = Bits::zero(self.width, self.signed);
        f(r.words_mut(), self.words());
        r.normalize();
        r
    }

    /// `self + other` modulo 2^W.
    #[inline]
    pub fn add(&self, other: &Bits) -> Bits {
        self.debug_check_same_type(other);
        if let (Repr::Small(a), Repr::Small(b)) = (&self.repr, &other.repr) {
            return self.with_small(a.wrapping_add(*b));
        }
        self.map2(other, limbs::add)
    }

    /// `self - other` modulo 2^W.
    #[inline]
    pub fn sub(&self, other: &Bits) -> Bits {
        self.debug_check_same_type(other);
        if let (Repr::Small(a), Repr::Small(b)) = (&self.repr, &other.repr) {
            return self.with_small(a.wrapping_sub(*b));
        }
        self.map2(other, limbs::sub)
    }

    /// `self * other` modulo 2^W (the low W bits of the product, which are
    /// the same for signed and unsigned operands).
    #[inline]
    pub fn mul(&self, other: &Bits) -> Bits {
        self.debug_check_same_type(other);
        if let (Repr::Small(a), Repr::Small(b)) = (&self.repr, &other.repr) {
            return self.with_small(a.wrapping_mul(*b));
        }
        self.map2(other, limbs::mul)
    }

    /// `self / other` for `bit<W>`, rounding down; zero if `other` is zero.
    ///
    /// P4_16 has no run-time division of `int<W>` (only of positive
    /// compile-time constants, which the front end folds); on signed
    /// operands this divides the bit patterns as unsigned numbers.
    pub fn div(&self, other: &Bits) -> Bits {
        self.div_rem(other, false)
    }

    /// `self % other` for `bit<W>`; zero if `other` is zero. Unsigned only,
    /// as [`div`](Self::div).
    pub fn rem(&self, other: &Bits) -> Bits {
        self.div_rem(other, true)
    }

    fn div_rem(&self, other: &Bits, rem: bool) -> Bits {
        debug_assert!(!self.signed, "division of int<{}> values", self.width);
        self.debug_check_same_type(other);
        if let (Repr::Small(a), Repr::Small(b)) = (&self.repr, &other.repr) {
            let r = if rem {
                a.checked_rem(*b)
            } else {
                a.checked_div(*b)
            };
            return self.with_small(r.unwrap_or(0));
        }
        self.map2(other, |r, a, b| limbs::div_rem(r, a, b, rem))
    }

    /// `self |+| other`: the sum clamped to the type's range.
    pub fn sat_add(&self, other: &Bits) -> Bits {
        self.debug_check_same_type(other);
        if let (Repr::Small(a), Repr::Small(b)) = (&self.repr, &other.repr) {
            return Word::new(self.width, self.signed, *a)
                .sat_add(Word::new(other.width, other.signed, *b))
                .to_bits();
        }
        let b = self.conform(other);
        let sum = self.add(&b);
        let overflow = if self.signed {
            self.is_negative() == b.is_negative() && sum.is_negative() != self.is_negative()
        } else {
            sum.compare(self).is_lt()
        };
        if overflow { self.saturated() } else { sum }
    }

    /// `self |-| other`: the difference clamped to the type's range.
    pub fn sat_sub(&self, other: &Bits) -> Bits {
        self.debug_check_same_type(other);
        if let (Repr::Small(a), Repr::Small(b)) = (&self.repr, &other.repr) {
            return Word::new(self.width, self.signed, *a)
                .sat_sub(Word::new(other.width, other.signed, *b))
                .to_bits();
        }
        let b = self.conform(other);
        if !self.signed {
            return if self.compare(&b).is_lt() {
                Bits::zero(self.width, false)
            } else {
                self.sub(&b)
            };
        }
        let diff = self.sub(&b);
        let overflow =
            self.is_negative() != b.is_negative() && diff.is_negative() != self.is_negative();
        if overflow { self.saturated() } else { diff }
    }

    /// The bound an overflowing saturating operation on `self` clamps to:
    /// the minimum if `self` is negative, else the maximum.
    fn saturated(&self) -> Bits {
        if self.is_negative() {
            Bits::min_value(self.width, self.signed)
        } else {
            Bits::max_value(self.width, self.signed)
        }
    }

    /// `-self` modulo 2^W (also defined for `bit<W>`: 2^W - self).
    #[inline]
    pub fn neg(&self) -> Bits {
        if let Repr::Small(a) = self.repr {
            return self.with_small(a.wrapping_neg());
        }
        let zero = Bits::zero(self.width, self.signed);
        zero.sub(self)
    }

    /// `~self`: the bitwise complement within the width.
    #[inline]
    pub fn not(&self) -> Bits {
        if let Repr::Small(a) = self.repr {
            return self.with_small(!a);
        }
        self.map1(|r, a| {
            for (r, &a) in r.iter_mut().zip(a) {
                *r = !a;
            }
        })
    }

    /// `self & other`.
    #[inline]
    pub fn and(&self, other: &Bits) -> Bits {
        self.bitwise(other, |a, b| a & b)
    }

    /// `self | other`.
    #[inline]
    pub fn or(&self, other: &Bits) -> Bits {
        self.bitwise(other, |a, b| a | b)
    }

    /// `self ^ other`.
    #[inline]
    pub fn xor(&self, other: &Bits) -> Bits {
        self.bitwise(other, |a, b| a ^ b)
    }

    #[inline]
    fn bitwise(&self, other: &Bits, f: impl Fn(u64, u64) -> u64) -> Bits {
        self.debug_check_same_type(other);
        if let (Repr::Small(a), Repr::Small(b)) = (&self.repr, &other.repr) {
            return self.with_small(f(*a, *b));
        }
        self.map2(other, |r, a, b| {
            for ((r, &a), &b) in r.iter_mut().zip(a).zip(b) {
                *r = f(a, b);
            }
        })
    }

    /// `self << amount` modulo 2^W; zero if `amount >= W`.
    #[inline]
    pub fn shl(&self, amount: u64) -> Bits {
        if amount >= u64::from(self.width) {
            return Bits::zero(self.width, self.signed);
        }
        if let Repr::Small(a) = self.repr {
            return self.with_small(a << amount);
        }
        self.map1(|r, a| limbs::or_shifted(r, a, amount as usize))
    }

    /// `self >> amount`: arithmetic (sign-filling) for `int<W>`, logical for
    /// `bit<W>`. An amount of `W` or more gives zero, or -1 for a negative
    /// `int<W>`.
    #[inline]
    pub fn shr(&self, amount: u64) -> Bits {
        if let Repr::Small(a) = self.repr {
            return Word::new(self.width, self.signed, a).shr(amount).to_bits();
        }
        if self.is_negative() {
            // floor(a / 2^k) = -1 - floor((-1 - a) / 2^k) = ~(~a >>> k)
            return self.not().logical_shr(amount).not();
        }
        self.logical_shr(amount)
    }

    fn logical_shr(&self, amount: u64) -> Bits {
        if amount >= u64::from(self.width) {
            return Bits::zero(self.width, self.signed);
        }
        self.map1(|r, a| limbs::extract(r, a, amount as usize))
    }

    /// `self ++ low`: a value of width `self.width() + low.width()` with
    /// `self` in the high bits and the signedness of `self`.
    pub fn concat(&self, low: &Bits) -> Bits {
        let width = self.width + low.width;
        if width <= SMALL_MAX_WIDTH {
            let high = self.as_u64_truncated().checked_shl(low.width).unwrap_or(0);
            return Bits::small(width, self.signed, high | low.as_u64_truncated());
        }
        let mut r = Bits::zero(width, self.signed);
        let words = r.words_mut();
        words[..low.words().len()].copy_from_slice(low.words());
        limbs::or_shifted(words, self.words(), low.width as usize);
        r
    }

    /// `self[hi:lo]`: bits `hi` down to `lo` of the two's-complement
    /// pattern as a `bit<hi-lo+1>` (unsigned even if `self` is signed).
    /// The front end guarantees `lo <= hi < W`; bits at or above `W` read as
    /// zero, and `hi < lo` gives a `bit<0>`.
    pub fn slice(&self, hi: u32, lo: u32) -> Bits {
        debug_assert!(
            lo <= hi && hi < self.width,
            "slice [{hi}:{lo}] of width {}",
            self.width
        );
        let Some(width) = hi.checked_sub(lo).and_then(|d| d.checked_add(1)) else {
            return Bits::zero(0, false);
        };
        if let Repr::Small(a) = self.repr
            && width <= SMALL_MAX_WIDTH
        {
            let v = a.checked_shr(lo).unwrap_or(0);
            return Bits::small(width, false, v & mask(width));
        }
        let mut r = Bits::zero(width, false);
        limbs::extract(r.words_mut(), self.words(), lo as usize);
        r.normalize();
        r
    }

    /// `(bit<width>) self` or `(int<width>) self`: truncation to a narrower
    /// width keeps the low bits; extension to a wider one zero-extends a
    /// `bit` source and sign-extends an `int` source; the result's bits are
    /// then read with the target signedness (so `bit<W>` to `int<W>`
    /// reinterprets the pattern, as in P4 and bmv2).
    pub fn cast(&self, width: u32, signed: bool) -> Bits {
        if let Repr::Small(a) = self.repr
            && width <= SMALL_MAX_WIDTH
        {
            return Word::new(self.width, self.signed, a)
                .cast(width, signed)
                .to_bits();
        }
        let mut r = Bits::zero(width, signed);
        let words = r.words_mut();
        let n = words.len().min(self.words().len());
        words[..n].copy_from_slice(&self.words()[..n]);
        if self.is_negative() && width > self.width {
            let first = (self.width / 64) as usize;
            if let Some(w) = words.get_mut(first) {
                *w |= u64::MAX << (self.width % 64);
            }
            for w in words.iter_mut().skip(first + 1) {
                *w = u64::MAX;
            }
        }
        r.normalize();
        r
    }
}
