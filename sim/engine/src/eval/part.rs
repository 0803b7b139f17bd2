//! Part-selects `[start +: width]` and `[start -: width]` with a run-time
//! start, on wide and one-word values.

use crate::value::{Bits, Word};

/// The lowest bit of a part-select `[start +: width]` (`up`) or
/// `[start -: width]`, possibly negative; `i64::MAX` for a start past any
/// value's width.
pub(super) fn part_low(start: &Bits, width: u32, up: bool) -> i64 {
    match start.to_u64().and_then(|s| i64::try_from(s).ok()) {
        Some(s) if up => s,
        Some(s) => s - (i64::from(width) - 1),
        None => i64::MAX,
    }
}

/// [`part_low`] of a start of at most 64 bits.
#[inline]
pub(super) fn part_low_word(start: Word, width: u32, up: bool) -> i64 {
    let s = i64::try_from(start.v).unwrap_or(i64::MAX);
    if up {
        s
    } else {
        s.saturating_sub(i64::from(width) - 1)
    }
}

/// Bits `lo .. lo + width` of `x` as a `bit<width>`; bits outside `x` are 0.
pub(super) fn part_get(x: &Bits, lo: i64, width: u32) -> Bits {
    let n = x.width();
    if lo >= i64::from(n) || lo <= -i64::from(width) {
        return Bits::zero(width, false);
    }
    let wide = x.cast(n, false).cast(n + width, false);
    let moved = if lo >= 0 {
        wide.shr(lo as u64)
    } else {
        wide.shl(lo.unsigned_abs())
    };
    moved.slice(width - 1, 0)
}

/// `x` with bits `lo .. lo + width` replaced by the low bits of `v`; bits
/// of the range outside `x` are dropped.
pub(super) fn part_set(x: &Bits, lo: i64, width: u32, v: &Bits) -> Bits {
    let n = x.width();
    if lo >= i64::from(n) || lo <= -i64::from(width) {
        return x.clone();
    }
    let wide = n + width;
    let ones = Bits::ones(width, false).cast(wide, false);
    let value = v.cast(width, false).cast(wide, false);
    let (mask, value) = if lo >= 0 {
        (ones.shl(lo as u64), value.shl(lo as u64))
    } else {
        (ones.shr(lo.unsigned_abs()), value.shr(lo.unsigned_abs()))
    };
    let (mask, value) = (mask.cast(n, false), value.cast(n, false));
    let kept = x.cast(n, false).and(&mask.not());
    kept.or(&value.and(&mask)).cast(n, x.is_signed())
}

/// [`part_get`] on a value of `n <= 64` bits (`x` its pattern).
#[inline]
pub(super) fn part_get_word(x: u64, n: u32, lo: i64, width: u32) -> u64 {
    if lo >= i64::from(n) || lo <= -i64::from(width) {
        return 0;
    }
    let x = u128::from(x & low_mask(n));
    let moved = if lo >= 0 {
        x >> lo
    } else {
        x << lo.unsigned_abs()
    };
    (moved as u64) & low_mask(width)
}

/// [`part_set`] on a value of `n <= 64` bits (`x` its pattern).
#[inline]
pub(super) fn part_set_word(x: u64, n: u32, lo: i64, width: u32, v: u64) -> u64 {
    if lo >= i64::from(n) || lo <= -i64::from(width) {
        return x;
    }
    let ones = u128::from(low_mask(width));
    let v = u128::from(v) & ones;
    let (mask, v) = if lo >= 0 {
        (ones << lo, v << lo)
    } else {
        (ones >> lo.unsigned_abs(), v >> lo.unsigned_abs())
    };
    let (mask, v) = (mask as u64 & low_mask(n), v as u64 & low_mask(n));
    (x & !mask) | (v & mask)
}

/// The low `w` bits set (`w <= 64`).
#[inline]
pub(super) fn low_mask(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}
