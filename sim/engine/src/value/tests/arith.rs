//! Differential property tests: every operator against the reference model
//! at random widths and values.

use super::*;
use std::cmp::Ordering;

/// Shift amounts: everything in `0..=w + 70`, the boundaries, and huge.
fn amount(w: u32) -> impl Strategy<Value = u64> {
    let w = u64::from(w);
    prop_oneof![
        4 => 0..=w + 70,
        1 => Just(w),
        1 => Just(w.saturating_sub(1)),
        1 => any::<u64>(),
    ]
}

/// The reference shift: amounts past the width act like `w + 64`, which
/// shifts everything out (keeps `BigInt` shifts small).
fn ref_amount(w: u32, amount: u64) -> usize {
    amount.min(u64::from(w) + 64) as usize
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn wrapping_arithmetic((a, b) in pair()) {
        let (w, s) = (a.width(), a.is_signed());
        let (x, y) = (value_of(&a), value_of(&b));
        assert_is(&a.add(&b), w, s, &(&x + &y))?;
        assert_is(&a.sub(&b), w, s, &(&x - &y))?;
        assert_is(&a.mul(&b), w, s, &(&x * &y))?;
        assert_is(&a.neg(), w, s, &-&x)?;
        assert_is(&a.not(), w, s, &(-&x - 1))?;
    }

    #[test]
    fn bitwise((a, b) in pair()) {
        let (w, s) = (a.width(), a.is_signed());
        let (x, y) = (value_of(&a), value_of(&b));
        assert_is(&a.and(&b), w, s, &(&x & &y))?;
        assert_is(&a.or(&b), w, s, &(&x | &y))?;
        assert_is(&a.xor(&b), w, s, &(&x ^ &y))?;
    }

    #[test]
    fn saturating((a, b) in pair()) {
        let (w, s) = (a.width(), a.is_signed());
        let (x, y) = (value_of(&a), value_of(&b));
        assert_is(&a.sat_add(&b), w, s, &clamp(&x + &y, w, s))?;
        assert_is(&a.sat_sub(&b), w, s, &clamp(&x - &y, w, s))?;
    }

    #[test]
    fn unsigned_division((a, b) in width().prop_flat_map(|w| (value(w, false), value(w, false)))) {
        let w = a.width();
        let (x, y) = (value_of(&a), value_of(&b));
        let (q, r) = if y.is_zero() {
            (BigInt::zero(), BigInt::zero())
        } else {
            (&x / &y, &x % &y)
        };
        assert_is(&a.div(&b), w, false, &q)?;
        assert_is(&a.rem(&b), w, false, &r)?;
    }

    #[test]
    fn comparisons((a, b) in pair()) {
        let expect = value_of(&a).cmp(&value_of(&b));
        prop_assert_eq!(a.compare(&b), expect);
        prop_assert_eq!(a.partial_cmp(&b), Some(expect));
        prop_assert_eq!(a == b, expect == Ordering::Equal);
        prop_assert_eq!(a != b, expect != Ordering::Equal);
        prop_assert_eq!(a < b, expect == Ordering::Less);
        prop_assert_eq!(a <= b, expect != Ordering::Greater);
        prop_assert_eq!(a > b, expect == Ordering::Greater);
        prop_assert_eq!(a >= b, expect != Ordering::Less);
        prop_assert_eq!(a.compare(&a), Ordering::Equal);
    }

    #[test]
    fn shifts((a, k) in typ().prop_flat_map(|(w, s)| (value(w, s), amount(w)))) {
        let (w, s) = (a.width(), a.is_signed());
        let x = value_of(&a);
        let n = ref_amount(w, k);
        assert_is(&a.shl(k), w, s, &(&x << n))?;
        // `BigInt >>` rounds towards negative infinity: arithmetic for
        // negative values, logical for the non-negative unsigned ones.
        assert_is(&a.shr(k), w, s, &(&x >> n))?;
    }

    #[test]
    fn concat(a in typed_value(), b in typed_value()) {
        let w = a.width() + b.width();
        let low = wrap(&value_of(&b), b.width(), false);
        let expect = (value_of(&a) << b.width() as usize) + low;
        assert_is(&a.concat(&b), w, a.is_signed(), &expect)?;
    }

    #[test]
    fn slice(
        (a, hi, lo) in typ()
            .prop_filter("slices need a bit", |(w, _)| *w > 0)
            .prop_flat_map(|(w, s)| (value(w, s), (0..w).prop_flat_map(|hi| (Just(hi), 0..=hi))))
            .prop_map(|(a, (hi, lo))| (a, hi, lo))
    ) {
        let expect = value_of(&a) >> lo as usize;
        assert_is(&a.slice(hi, lo), hi - lo + 1, false, &expect)?;
    }

    #[test]
    fn cast(a in typed_value(), (w, s) in typ()) {
        // The numeric value survives extension, then wraps to the target:
        // zero- or sign-extension by the source, truncation, reinterpretation.
        assert_is(&a.cast(w, s), w, s, &value_of(&a))?;
    }

    #[test]
    fn accessors(a in typed_value(), i in 0u32..1200) {
        let x = value_of(&a);
        check_invariants(&a)?;
        prop_assert_eq!(a.is_zero(), x.is_zero());
        prop_assert_eq!(a.is_negative(), x < BigInt::zero());
        prop_assert_eq!(a.to_u64(), u64::try_from(&x).ok());
        prop_assert_eq!(a.to_i64(), i64::try_from(&x).ok());
        let pattern = wrap(&x, a.width(), false);
        let low = &pattern & BigInt::from(u64::MAX);
        prop_assert_eq!(a.as_u64_truncated(), u64::try_from(&low).unwrap_or_default());
        prop_assert_eq!(a.shift_amount(), u64::try_from(&pattern).unwrap_or(u64::MAX));
        prop_assert_eq!(a.bit(i), i < a.width() && pattern.bit(u64::from(i)));
    }

    #[test]
    fn from_integers((w, s) in typ(), u in any::<u64>(), i in any::<i64>()) {
        assert_is(&Bits::from_u64(w, s, u), w, s, &BigInt::from(u))?;
        assert_is(&Bits::from_i64(w, s, i), w, s, &BigInt::from(i))?;
    }

    #[test]
    fn type_bounds((w, s) in typ()) {
        let (lo, hi) = if w == 0 {
            (BigInt::zero(), BigInt::zero())
        } else if s {
            (-pow2(w - 1), pow2(w - 1) - 1)
        } else {
            (BigInt::zero(), pow2(w) - 1)
        };
        assert_is(&Bits::zero(w, s), w, s, &BigInt::zero())?;
        assert_is(&Bits::ones(w, s), w, s, &BigInt::from(-1))?;
        assert_is(&Bits::min_value(w, s), w, s, &lo)?;
        assert_is(&Bits::max_value(w, s), w, s, &hi)?;
    }

    #[test]
    fn byte_strings(
        (w, s) in typ(),
        bytes in prop::collection::vec(any::<u8>(), 0..160),
        out_len in 0usize..160,
    ) {
        let x = BigInt::from_bytes_be(Sign::Plus, &bytes);
        let v = Bits::from_be_bytes(w, s, &bytes);
        assert_is(&v, w, s, &x)?;
        let mut out = vec![0x5a; out_len];
        v.to_be_bytes(&mut out);
        let expect = wrap(&value_of(&v), 8 * out_len as u32, false);
        let expect_bytes = expect.magnitude().to_bytes_be();
        let mut padded = vec![0u8; out_len];
        if !expect.is_zero() {
            padded[out_len - expect_bytes.len()..].copy_from_slice(&expect_bytes);
        }
        prop_assert_eq!(out, padded);
    }

    #[test]
    fn display(a in typed_value()) {
        let x = value_of(&a);
        let kind = if a.is_signed() { 's' } else { 'w' };
        let sign = if x < BigInt::zero() { "-" } else { "" };
        let expect = format!("{}{kind}{sign}0x{:x}", a.width(), x.magnitude());
        prop_assert_eq!(a.to_string(), expect.clone());
        prop_assert_eq!(format!("{a:?}"), expect);
    }
}
