//! Tests of the value layer: a big-integer reference model (this module),
//! differential property tests of the arithmetic (`arith`) and of bit-level
//! I/O (`io`), and unit tests of edge cases (`unit`).

mod arith;
mod io;
mod unit;

use super::{Bits, Storage, word_count};
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Zero};
use proptest::prelude::*;
use proptest::sample::select;

/// Cases per property: the acceptance asks for many random widths.
const CASES: u32 = 512;

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(CASES)
}

// ---------------------------------------------------------------------------
// The reference model: P4 semantics on unbounded integers.

/// 2^w.
fn pow2(w: u32) -> BigInt {
    BigInt::one() << w as usize
}

/// `v` reduced to the range of `bit<w>` / `int<w>` (wrap-around).
fn wrap(v: &BigInt, w: u32, signed: bool) -> BigInt {
    if w == 0 {
        return BigInt::zero();
    }
    let m = pow2(w);
    let mut r = ((v % &m) + &m) % &m;
    if signed && r >= pow2(w - 1) {
        r -= m;
    }
    r
}

/// `v` clamped to the range of the type.
fn clamp(v: BigInt, w: u32, signed: bool) -> BigInt {
    let (lo, hi) = match (w, signed) {
        (0, _) => (BigInt::zero(), BigInt::zero()),
        (_, true) => (-pow2(w - 1), pow2(w - 1) - 1),
        (_, false) => (BigInt::zero(), pow2(w) - 1),
    };
    v.clamp(lo, hi)
}

/// The numeric value of a `Bits`, from its words alone.
fn value_of(b: &Bits) -> BigInt {
    let u = b
        .words()
        .iter()
        .rev()
        .fold(BigUint::zero(), |acc, &w| (acc << 64usize) + w);
    let v = BigInt::from_biguint(Sign::Plus, u);
    if b.is_signed() && b.width() > 0 && v >= pow2(b.width() - 1) {
        v - pow2(b.width())
    } else {
        v
    }
}

/// The `Bits` of type `bit<w>`/`int<w>` holding `v` wrapped, built from the
/// pattern's words.
fn bits_of(v: &BigInt, w: u32, signed: bool) -> Bits {
    let pattern = wrap(v, w, false);
    let digits = pattern.magnitude().to_u64_digits();
    Bits::from_words_le(w, signed, &digits)
}

/// Asserts the representation invariants: storage by width, word count,
/// bits above the width clear.
fn check_invariants(b: &Bits) -> Result<(), TestCaseError> {
    let w = b.width();
    prop_assert_eq!(b.storage(), Storage::for_width(w));
    prop_assert_eq!(b.words().len(), word_count(w));
    if !w.is_multiple_of(64) {
        let top = b.words().last().copied().unwrap_or(0);
        prop_assert_eq!(top >> (w % 64), 0, "unnormalised top word of {:?}", b);
    }
    Ok(())
}

/// Asserts `r` is the value `expect` (wrapped) of type `bit<w>`/`int<w>`.
fn assert_is(r: &Bits, w: u32, signed: bool, expect: &BigInt) -> Result<(), TestCaseError> {
    prop_assert_eq!(r.width(), w);
    prop_assert_eq!(r.is_signed(), signed);
    check_invariants(r)?;
    prop_assert_eq!(value_of(r), wrap(expect, w, signed));
    prop_assert_eq!(r, &bits_of(expect, w, signed));
    Ok(())
}

// ---------------------------------------------------------------------------
// Strategies.

/// Widths around word and byte boundaries, plus uniformly random ones.
const WIDTHS: &[u32] = &[
    0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 96, 127, 128, 129, 192, 255, 256,
    257, 320, 336, 1000,
];

fn width() -> impl Strategy<Value = u32> {
    prop_oneof![3 => select(WIDTHS), 1 => 0u32..=1100]
}

fn typ() -> impl Strategy<Value = (u32, bool)> {
    (width(), any::<bool>())
}

/// A value of the type: random patterns of full or reduced magnitude, and
/// the special values (0, 1, -1/max, signed min and max, small numbers).
fn value(w: u32, signed: bool) -> impl Strategy<Value = Bits> {
    let n = word_count(w);
    let special = |v: BigInt| Just(bits_of(&v, w, signed));
    let half = if w == 0 { BigInt::zero() } else { pow2(w - 1) };
    prop_oneof![
        4 => prop::collection::vec(any::<u64>(), n)
            .prop_map(move |ws| Bits::from_words_le(w, signed, &ws)),
        3 => (prop::collection::vec(any::<u64>(), n), 0..=w).prop_map(move |(ws, k)| {
            let v = value_of(&Bits::from_words_le(w, false, &ws)) >> k as usize;
            bits_of(&v, w, signed)
        }),
        1 => special(BigInt::zero()),
        1 => special(BigInt::one()),
        1 => special(pow2(w) - 1),
        1 => special(half.clone()),
        1 => special(half - 1),
        1 => (-300i64..300).prop_map(move |v| bits_of(&BigInt::from(v), w, signed)),
    ]
}

fn typed_value() -> impl Strategy<Value = Bits> {
    typ().prop_flat_map(|(w, s)| value(w, s))
}

fn pair() -> impl Strategy<Value = (Bits, Bits)> {
    typ().prop_flat_map(|(w, s)| (value(w, s), value(w, s)))
}
