//! Unit tests of edge cases, with values written out by hand.

use super::*;
use std::collections::HashSet;

fn u(w: u32, v: u64) -> Bits {
    Bits::from_u64(w, false, v)
}

fn s(w: u32, v: i64) -> Bits {
    Bits::from_i64(w, true, v)
}

/// `bit<w>`/`int<w>` from a decimal or `0x` string, via the reference.
fn big(w: u32, signed: bool, text: &str) -> Bits {
    let v = match text.strip_prefix("0x") {
        Some(hex) => BigInt::parse_bytes(hex.as_bytes(), 16),
        None => BigInt::parse_bytes(text.as_bytes(), 10),
    };
    bits_of(&v.unwrap_or_default(), w, signed)
}

#[test]
fn storage_follows_width() {
    for (w, storage) in [
        (0, Storage::Small),
        (1, Storage::Small),
        (64, Storage::Small),
        (65, Storage::Inline),
        (256, Storage::Inline),
        (257, Storage::Heap),
        (1 << 16, Storage::Heap),
    ] {
        for signed in [false, true] {
            let a = Bits::ones(w, signed);
            assert_eq!(a.storage(), storage, "width {w}");
            // Results keep the storage of their width.
            assert_eq!(a.add(&a).storage(), storage);
            assert_eq!(a.shr(3).storage(), storage);
            assert_eq!(a.clone().storage(), storage);
        }
    }
    assert_eq!(u(32, 1).concat(&u(32, 1)).storage(), Storage::Small);
    assert_eq!(u(32, 1).concat(&u(33, 1)).storage(), Storage::Inline);
    assert_eq!(Bits::ones(300, true).slice(63, 0).storage(), Storage::Small);
    assert_eq!(Bits::ones(300, true).slice(299, 0).storage(), Storage::Heap);
    assert_eq!(u(8, 1).cast(200, false).storage(), Storage::Inline);
}

#[test]
fn shifts_by_width_or_more() {
    for w in [1, 8, 64, 65, 128, 300] {
        for k in [u64::from(w), u64::from(w) + 1, 1000, u64::MAX] {
            assert!(Bits::ones(w, false).shl(k).is_zero(), "bit<{w}> << {k}");
            assert!(Bits::ones(w, false).shr(k).is_zero(), "bit<{w}> >> {k}");
            assert!(Bits::ones(w, true).shl(k).is_zero(), "int<{w}> << {k}");
            // Arithmetic: a negative value shifts to -1, a positive one to 0.
            assert_eq!(
                Bits::min_value(w, true).shr(k),
                Bits::ones(w, true),
                "int<{w}> >> {k}"
            );
            assert!(Bits::max_value(w, true).shr(k).is_zero());
        }
    }
    assert_eq!(s(8, -128).shr(7), s(8, -1));
    assert_eq!(s(8, -128).shr(6), s(8, -2));
    assert_eq!(u(8, 0x80).shr(7), u(8, 1));
    assert_eq!(s(8, 1).shl(7), s(8, -128));
    assert_eq!(s(8, -7).shr(1), s(8, -4)); // rounds towards negative infinity
    assert_eq!(u(8, 0xff).shr(0), u(8, 0xff));
    assert_eq!(Bits::ones(0, true).shr(0), Bits::zero(0, true));
}

#[test]
fn saturating_at_both_ends() {
    assert_eq!(u(8, 200).sat_add(&u(8, 100)), u(8, 255));
    assert_eq!(u(8, 1).sat_sub(&u(8, 2)), u(8, 0));
    assert_eq!(u(8, 5).sat_sub(&u(8, 2)), u(8, 3));
    assert_eq!(s(8, 100).sat_add(&s(8, 100)), s(8, 127));
    assert_eq!(s(8, -100).sat_add(&s(8, -100)), s(8, -128));
    assert_eq!(s(8, -100).sat_sub(&s(8, 100)), s(8, -128));
    assert_eq!(s(8, 100).sat_sub(&s(8, -100)), s(8, 127));
    assert_eq!(s(8, -1).sat_sub(&s(8, -128)), s(8, 127));
    assert_eq!(s(8, 0).sat_sub(&s(8, -128)), s(8, 127));
    assert_eq!(s(8, -2).sat_sub(&s(8, 127)), s(8, -128));
    assert_eq!(u(64, u64::MAX).sat_add(&u(64, 1)), u(64, u64::MAX));
    assert_eq!(s(64, i64::MAX).sat_add(&s(64, 1)), s(64, i64::MAX));
    assert_eq!(s(64, i64::MIN).sat_sub(&s(64, 1)), s(64, i64::MIN));
    for w in [65, 128, 256, 300] {
        let (max, min) = (Bits::max_value(w, true), Bits::min_value(w, true));
        let one = s(w, 1);
        assert_eq!(max.sat_add(&one), max);
        assert_eq!(min.sat_sub(&one), min);
        assert_eq!(min.sat_add(&min), min);
        assert_eq!(max.sat_sub(&min), max);
        assert_eq!(min.sat_add(&max), s(w, -1));
        let umax = Bits::max_value(w, false);
        assert_eq!(umax.sat_add(&u(w, 1)), umax);
        assert!(u(w, 1).sat_sub(&umax).is_zero());
    }
    // Width 0: the only value is 0.
    assert!(Bits::zero(0, true).sat_add(&Bits::zero(0, true)).is_zero());
}

#[test]
fn division_by_zero_is_zero() {
    for w in [1, 8, 64, 65, 128, 256, 257, 1000] {
        let (a, zero) = (Bits::ones(w, false), Bits::zero(w, false));
        assert!(a.div(&zero).is_zero(), "bit<{w}> / 0");
        assert!(a.rem(&zero).is_zero(), "bit<{w}> % 0");
    }
    assert_eq!(u(8, 200).div(&u(8, 7)), u(8, 28));
    assert_eq!(u(8, 200).rem(&u(8, 7)), u(8, 4));
}

/// Signed division is not offered: P4 has none at run time (the front end
/// folds `/` and `%` of positive constants). Debug builds catch a call.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "division of int<8>")]
fn signed_division_is_not_offered() {
    let _ = s(8, -6).div(&s(8, 2));
}

/// Divisions whose quotient digit estimate needs Knuth's corrections: every
/// combination of extreme words at 192 bits (three words).
#[test]
fn division_corner_words() {
    const WORDS: [u64; 5] = [0, 1, 0x7fff_ffff_ffff_ffff, 0x8000_0000_0000_0000, u64::MAX];
    let all: Vec<Bits> = (0..125)
        .map(|i| {
            let ws = [WORDS[i % 5], WORDS[i / 5 % 5], WORDS[i / 25]];
            Bits::from_words_le(192, false, &ws)
        })
        .collect();
    for a in &all {
        for b in &all {
            let (x, y) = (value_of(a), value_of(b));
            let (q, r) = if y.is_zero() {
                (BigInt::zero(), BigInt::zero())
            } else {
                (&x / &y, &x % &y)
            };
            assert_eq!(a.div(b), bits_of(&q, 192, false), "{a} / {b}");
            assert_eq!(a.rem(b), bits_of(&r, 192, false), "{a} % {b}");
        }
    }
}

#[test]
fn cast_extends_by_source_signedness() {
    assert_eq!(s(8, -2).cast(16, true), s(16, -2));
    assert_eq!(s(8, -2).cast(16, false), u(16, 0xfffe));
    assert_eq!(u(8, 0xfe).cast(16, true), s(16, 254));
    assert_eq!(u(8, 0xfe).cast(8, true), s(8, -2)); // same width: reinterpret
    assert_eq!(s(8, -2).cast(8, false), u(8, 0xfe));
    assert_eq!(s(16, 0x1ff).cast(8, true), s(8, -1)); // truncate
    assert_eq!(s(16, -2).cast(4, false), u(4, 0xe));
    assert_eq!(s(8, -2).cast(128, true), s(128, -2));
    assert_eq!(
        s(8, -2).cast(300, false),
        big(300, false, "0x0").sub(&u(300, 2))
    );
    assert_eq!(s(64, -1).cast(65, false), Bits::ones(65, false));
    assert_eq!(s(300, -5).cast(64, true), s(64, -5));
    assert_eq!(s(300, -5).cast(1000, true), s(1000, -5));
    assert_eq!(u(300, 5).cast(1000, true), s(1000, 5));
    assert!(s(8, -1).cast(0, true).is_zero());
    assert_eq!(Bits::zero(0, true).cast(8, true), s(8, 0));
}

#[test]
fn concat_takes_the_left_signedness() {
    assert_eq!(s(4, -1).concat(&u(4, 0)), s(8, -16));
    assert_eq!(u(4, 0xf).concat(&s(4, -1)), u(8, 0xff));
    assert_eq!(s(4, 1).concat(&s(4, -1)), s(8, 0x1f));
    assert_eq!(u(0, 0).concat(&u(64, 7)), u(64, 7));
    assert_eq!(u(64, 7).concat(&u(0, 0)), u(64, 7));
    let wide = s(100, -1).concat(&u(200, 1));
    assert_eq!(wide.width(), 300);
    assert!(wide.is_signed() && wide.is_negative());
    let expect = big(300, true, "0x0")
        .sub(&Bits::one_shl(300, 200))
        .add(&s(300, 1));
    assert_eq!(wide, expect);
}

impl Bits {
    /// 2^k as an `int<w>` (test helper).
    fn one_shl(w: u32, k: u64) -> Bits {
        Bits::from_u64(w, true, 1).shl(k)
    }
}

#[test]
fn slice_of_signed_is_unsigned() {
    let a = s(8, -1).slice(7, 4);
    assert_eq!(a, u(4, 0xf));
    assert!(!a.is_signed());
    assert_eq!(s(8, -128).slice(7, 7), u(1, 1));
    assert_eq!(s(16, -3).slice(15, 8), u(8, 0xff));
    assert_eq!(s(200, -1).slice(199, 100), Bits::ones(100, false));
    assert_eq!(s(200, -2).slice(64, 1), Bits::ones(64, false));
    assert_eq!(u(128, 0x1234).slice(11, 4), u(8, 0x23));
}

#[test]
fn bool_conversions() {
    assert_eq!(Bits::from_bool(true), u(1, 1));
    assert_eq!(Bits::from_bool(false), u(1, 0));
    assert!(u(1, 1).to_bool());
    assert!(!u(1, 0).to_bool());
}

#[test]
fn display() {
    assert_eq!(u(8, 42).to_string(), "8w0x2a");
    assert_eq!(s(16, -3).to_string(), "16s-0x3");
    assert_eq!(s(16, 7).to_string(), "16s0x7");
    assert_eq!(s(8, -128).to_string(), "8s-0x80");
    assert_eq!(u(0, 0).to_string(), "0w0x0");
    assert_eq!(
        Bits::ones(128, false).to_string(),
        "128w0xffffffffffffffffffffffffffffffff"
    );
    assert_eq!(
        u(130, 1).shl(128).to_string(),
        "130w0x100000000000000000000000000000000"
    );
    assert_eq!(format!("{:?}", s(300, -1)), "300s-0x1");
}

#[test]
fn equality_and_hash_include_the_type() {
    let set: HashSet<Bits> = [u(8, 1), s(8, 1), u(9, 1), u(8, 1), u(300, 1), u(300, 1)]
        .into_iter()
        .collect();
    assert_eq!(set.len(), 4);
    assert_ne!(u(8, 1), s(8, 1));
    assert_eq!(u(8, 1).partial_cmp(&u(9, 1)), None);
    let (small, wide) = (u(8, 1), u(9, 2));
    assert!(!small.lt(&wide) && !small.ge(&wide));
}

#[test]
fn words_for_hashing() {
    assert_eq!(u(0, 0).words(), &[] as &[u64]);
    assert_eq!(s(8, -1).words(), &[0xff]);
    assert_eq!(s(65, -1).words(), &[u64::MAX, 1]);
    assert_eq!(u(300, 0).words().len(), 5);
}

#[test]
fn conversions() {
    assert_eq!(s(8, -1).to_u64(), None);
    assert_eq!(s(8, -1).to_i64(), Some(-1));
    assert_eq!(s(8, -1).as_u64_truncated(), 0xff);
    assert_eq!(u(64, u64::MAX).to_i64(), None);
    assert_eq!(s(200, i64::MIN).to_i64(), Some(i64::MIN));
    assert_eq!(s(200, i64::MIN).sub(&s(200, 1)).to_i64(), None);
    assert_eq!(Bits::from_i64(128, false, -1), Bits::ones(128, false));
    assert_eq!(u(128, 5).shl(64).shift_amount(), u64::MAX);
    assert_eq!(u(128, 5).shift_amount(), 5);
}

#[test]
fn byte_strings() {
    let mut out = [0u8; 4];
    s(16, -2).to_be_bytes(&mut out);
    assert_eq!(out, [0xff, 0xff, 0xff, 0xfe]); // sign-extended
    u(16, 0xabcd).to_be_bytes(&mut out);
    assert_eq!(out, [0, 0, 0xab, 0xcd]);
    let mut one = [0u8; 1];
    u(16, 0xabcd).to_be_bytes(&mut one);
    assert_eq!(one, [0xcd]); // truncated
    assert_eq!(Bits::from_be_bytes(12, false, &[0xab, 0xcd]), u(12, 0xbcd));
    assert_eq!(Bits::from_be_bytes(16, true, &[0xff]), s(16, 0xff)); // not sign-extended
    assert_eq!(Bits::from_be_bytes(8, true, &[0xff]), s(8, -1));
    assert_eq!(u(9, 0x1ff).byte_len(), 2);
}

#[test]
fn ipv4_header_fields() {
    // version 4, ihl 5, dscp 0x2e / ecn 1, ..., flags 0b010, frag offset 0x123.
    let mut hdr = [0x45, 0xb9, 0x00, 0x54, 0x12, 0x34, 0x41, 0x23];
    assert_eq!(Bits::read_bits(&hdr, 0, 4, false), u(4, 4));
    assert_eq!(Bits::read_bits(&hdr, 4, 4, false), u(4, 5));
    assert_eq!(Bits::read_bits(&hdr, 8, 6, false), u(6, 0x2e));
    assert_eq!(Bits::read_bits(&hdr, 14, 2, false), u(2, 1));
    assert_eq!(Bits::read_bits(&hdr, 16, 16, false), u(16, 0x54));
    assert_eq!(Bits::read_bits(&hdr, 48, 3, false), u(3, 2));
    assert_eq!(Bits::read_bits(&hdr, 51, 13, false), u(13, 0x123));
    assert_eq!(Bits::read_bits(&hdr, 48, 3, true), s(3, 2));
    assert_eq!(Bits::read_bits(&hdr, 0, 4, true), s(4, 4));
    assert_eq!(Bits::read_bits(&hdr, 8, 2, true), s(2, -2));
    u(13, 0x1fff).write_bits(&mut hdr, 51);
    assert_eq!(hdr[6..], [0x5f, 0xff]);
    s(3, -1).write_bits(&mut hdr, 48);
    assert_eq!(hdr[6], 0xff);
    assert_eq!(hdr[..6], [0x45, 0xb9, 0x00, 0x54, 0x12, 0x34]);
}

#[test]
#[should_panic(expected = "outside a buffer of 2 bytes")]
fn read_past_the_end_panics() {
    let _ = Bits::read_bits(&[0, 0], 9, 8, false);
}

#[test]
#[should_panic(expected = "outside a buffer of 2 bytes")]
fn write_past_the_end_panics() {
    u(8, 1).write_bits(&mut [0, 0], 9);
}

/// Width 2^16, the largest the issue names: every operation against the
/// reference once.
#[test]
fn width_two_to_the_sixteen() {
    let w = 1 << 16;
    let mut words: Vec<u64> = (0..1024u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    words[1023] |= 1 << 63; // negative as an int<2^16>
    let a = Bits::from_words_le(w, false, &words);
    let b = a.shr(20_000).add(&u(w, 12345));
    let (x, y) = (value_of(&a), value_of(&b));
    let check = |r: &Bits, v: &BigInt| assert!(*r == bits_of(v, w, false));
    check(&a.add(&b), &(&x + &y));
    check(&a.mul(&b), &(&x * &y));
    check(&a.div(&b), &(&x / &y));
    check(&a.rem(&b), &(&x % &y));
    check(&a.sat_add(&a), &clamp(&x + &x, w, false));
    check(&b.sat_sub(&a), &BigInt::zero());
    check(&a.shl(33_333), &(&x << 33_333usize));
    let sa = a.cast(w, true);
    assert_eq!(
        sa.cast(w + 100, true).slice(w + 99, w - 1),
        Bits::ones(101, false)
    );
    let mut buf = vec![0u8; (w as usize + 3).div_ceil(8)];
    a.write_bits(&mut buf, 3);
    assert!(Bits::read_bits(&buf, 3, w, false) == a);
}
