//! Differential property tests of bit-level I/O against a naive
//! bit-by-bit reference.

use super::*;

/// Bit `i` of `buf` in network order (bit 0 is the MSB of `buf[0]`).
fn get_bit(buf: &[u8], i: usize) -> bool {
    (buf[i / 8] >> (7 - i % 8)) & 1 == 1
}

fn set_bit(buf: &mut [u8], i: usize, on: bool) {
    let m = 0x80u8 >> (i % 8);
    if on {
        buf[i / 8] |= m;
    } else {
        buf[i / 8] &= !m;
    }
}

/// The field's bit pattern, one bit at a time, most significant first.
fn naive_read(buf: &[u8], off: usize, w: u32) -> BigInt {
    (0..w as usize).fold(BigInt::zero(), |acc, i| {
        (acc << 1usize) + u8::from(get_bit(buf, off + i))
    })
}

fn naive_write(buf: &mut [u8], off: usize, v: &Bits) {
    let w = v.width();
    for i in 0..w {
        set_bit(buf, off + i as usize, v.bit(w - 1 - i));
    }
}

/// A type, a bit offset, and a buffer that holds the field with 0..12
/// bytes to spare (so both the whole-word and the near-the-end paths run).
fn field() -> impl Strategy<Value = (u32, bool, usize, Vec<u8>)> {
    (typ(), 0usize..70, 0usize..12).prop_flat_map(|((w, s), off, slack)| {
        let len = (off + w as usize).div_ceil(8) + slack;
        (
            Just(w),
            Just(s),
            Just(off),
            prop::collection::vec(any::<u8>(), len),
        )
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn read_matches_naive((w, s, off, buf) in field()) {
        let v = Bits::read_bits(&buf, off, w, s);
        assert_is(&v, w, s, &naive_read(&buf, off, w))?;
        prop_assert_eq!(Bits::try_read_bits(&buf, off, w, s), Some(v));
    }

    #[test]
    fn write_matches_naive_and_round_trips(
        ((w, s, off, buf), v) in field().prop_flat_map(|f| {
            let (w, s) = (f.0, f.1);
            (Just(f), value(w, s))
        })
    ) {
        let mut fast = buf.clone();
        v.write_bits(&mut fast, off);
        let mut naive = buf.clone();
        naive_write(&mut naive, off, &v);
        // Equal to the naive write, so every bit outside the field is as it was.
        prop_assert_eq!(&fast, &naive);
        prop_assert_eq!(Bits::read_bits(&fast, off, w, s), v);
    }

    #[test]
    fn out_of_range_is_refused((w, s, _off, buf) in field(), extra in 1usize..20) {
        // A field that ends `extra` bits past the buffer (or is longer than it).
        let off = (buf.len() * 8 + extra).saturating_sub(w as usize);
        prop_assert_eq!(Bits::try_read_bits(&buf, off, w, s), None);
        let mut copy = buf.clone();
        prop_assert!(!Bits::ones(w, s).try_write_bits(&mut copy, off));
        prop_assert_eq!(copy, buf);
    }
}

proptest! {
    #![proptest_config(config())]

    /// `FieldWord` reads and writes what `read_word` and `write_word` do,
    /// for fields in one load, straddling nine bytes, near the buffer's
    /// end and outside it.
    #[test]
    fn field_word_matches_read_and_write_word(
        w in 0u32..=64,
        off in 0usize..90,
        len in 0usize..24,
        seed in any::<u64>(),
        v in any::<u64>(),
    ) {
        let buf: Vec<u8> = (0..len).map(|i| (seed >> (i % 8 * 8)) as u8 ^ i as u8).collect();
        let f = crate::value::FieldWord::new(off as u32, w);
        prop_assert_eq!(f.width(), w);
        prop_assert_eq!(f.read(&buf), crate::value::read_word(&buf, off, w));
        let (mut a, mut b) = (buf.clone(), buf);
        f.write(&mut a, v);
        crate::value::write_word(&mut b, off, w, v);
        prop_assert_eq!(a, b);
    }
}
