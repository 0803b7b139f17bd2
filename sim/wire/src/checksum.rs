//! The Internet checksum (RFC 1071): the one's complement of the
//! one's-complement sum of a message's big-endian 16-bit words, an odd last
//! byte padded with zero. IPv4 headers, TCP, UDP and ICMP use it, and so
//! do v1model's `csum16` and its checksum externs.
//!
//! Sums are kept unfolded in a `u64` and folded once at the end
//! ([`fold_complement`]): 2^64 and 2^16 are both 1 modulo 2^16 - 1, so a
//! sum with end-around carry at any width folds to the same checksum.

/// The checksum of `data`.
pub fn internet_checksum(data: &[u8]) -> u16 {
    fold_complement(sum_words(data))
}

/// The checksum of a message given in pieces (a pseudo-header and a
/// segment, header fields one by one), each piece going on where the last
/// one ended, odd lengths included.
#[derive(Clone, Copy, Debug, Default)]
pub struct Checksum {
    sum: u64,
    /// The last byte of an odd-length stretch so far: the high half of a
    /// word whose low half the next piece starts with.
    odd: Option<u8>,
}

impl Checksum {
    pub fn new() -> Checksum {
        Checksum::default()
    }

    /// Adds the bytes of `piece`.
    pub fn add(&mut self, mut piece: &[u8]) -> &mut Checksum {
        if let (Some(high), Some((&low, rest))) = (self.odd, piece.split_first()) {
            self.sum = add_carry(self.sum, u64::from(u16::from_be_bytes([high, low])));
            self.odd = None;
            piece = rest;
        }
        if piece.len() % 2 == 1 {
            let (whole, last) = piece.split_at(piece.len() - 1);
            self.sum = add_carry(self.sum, sum_words(whole));
            self.odd = Some(last[0]);
        } else {
            self.sum = add_carry(self.sum, sum_words(piece));
        }
        self
    }

    /// Adds a 16-bit word (at an even position of the message).
    pub fn add_u16(&mut self, word: u16) -> &mut Checksum {
        self.add(&word.to_be_bytes())
    }

    /// The checksum of everything added.
    pub fn finish(&self) -> u16 {
        let last = self.odd.map_or(0, |b| u64::from(b) << 8);
        fold_complement(add_carry(self.sum, last))
    }
}

/// The one's-complement sum of the big-endian 16-bit words of `bytes` (an
/// odd last byte the high half of a word), not folded to 16 bits: taken
/// eight bytes at a time with end-around carry (the sum is 0 only when
/// every byte is).
pub fn sum_words(bytes: &[u8]) -> u64 {
    let (eights, rest) = bytes.as_chunks::<8>();
    let mut sum = 0;
    for e in eights {
        sum = add_carry(sum, u64::from_be_bytes(*e));
    }
    let tail = rest
        .iter()
        .zip((0..8).rev())
        .fold(0, |t, (b, i)| t | u64::from(*b) << (8 * i));
    add_carry(sum, tail)
}

/// The plain sum of the big-endian 16-bit words of `bytes` (an odd last
/// byte the high half of a word): for header-sized data (fewer than 2^48
/// words, so the sum cannot overflow), where it is cheaper than
/// [`sum_words`] and folds the same.
pub fn sum_pairs(bytes: &[u8]) -> u64 {
    let (pairs, rest) = bytes.as_chunks::<2>();
    let last = rest.first().map_or(0, |&b| u64::from(b) << 8);
    pairs
        .iter()
        .fold(last, |s, w| s + u64::from(u16::from_be_bytes(*w)))
}

/// `a + b` with end-around carry.
#[inline(always)]
pub fn add_carry(a: u64, b: u64) -> u64 {
    let (s, carry) = a.overflowing_add(b);
    s + u64::from(carry)
}

/// The checksum of an unfolded sum: folded to 16 bits, complemented.
///
/// Two steps, each keeping the sum modulo 2^16 - 1 and non-zero when it
/// was: the 32-bit halves added with end-around carry (with a carry, the
/// sum without it is at most 2^32 - 2, so adding it cannot overflow); then
/// the 16-bit halves, by adding the number to itself rotated by 16: the
/// high half of that is the halves' sum plus the carry out of the low
/// half's, their end-around sum.
#[inline]
pub fn fold_complement(sum: u64) -> u16 {
    let (s, carry) = (sum as u32).overflowing_add((sum >> 32) as u32);
    let s = s.wrapping_add(u32::from(carry));
    let s = s.wrapping_add(s.rotate_left(16)) >> 16;
    !s as u16
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use proptest::prelude::*;
    use std::vec::Vec;

    /// RFC 1071 as written: 16-bit words summed in 32 bits, folded while
    /// there is a carry.
    fn reference(data: &[u8]) -> u16 {
        let mut sum: u64 = data
            .chunks(2)
            .map(|c| u64::from(u16::from_be_bytes([c[0], c.get(1).copied().unwrap_or(0)])))
            .sum();
        while sum >> 16 != 0 {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        !(sum as u16)
    }

    #[test]
    fn rfc_1071_example_and_an_ipv4_header() {
        // RFC 1071 section 3: the words 0001 f203 f4f5 f6f7 sum to ddf2.
        assert_eq!(
            internet_checksum(&[0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7]),
            !0xddf2
        );
        // An IPv4 header whose checksum field holds 0xb861.
        let header = [
            0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8,
            0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
        ];
        assert_eq!(internet_checksum(&header), 0xb861);
        assert_eq!(internet_checksum(&[]), 0xffff);
    }

    proptest! {
        #[test]
        fn folding_in_two_steps_is_folding_until_16_bits(sum in any::<u64>(), small in 0u64..0x30000) {
            let fold = |mut s: u64| {
                while s >> 16 != 0 {
                    s = (s & 0xFFFF) + (s >> 16);
                }
                !s as u16
            };
            prop_assert_eq!(fold_complement(sum), fold(sum));
            prop_assert_eq!(fold_complement(small), fold(small));
        }

        #[test]
        fn every_form_agrees_with_rfc_1071(data in proptest::collection::vec(any::<u8>(), 0..300),
                                           cuts in proptest::collection::vec(0usize..300, 0..6)) {
            let want = reference(&data);
            prop_assert_eq!(internet_checksum(&data), want);
            prop_assert_eq!(fold_complement(sum_pairs(&data)), want);
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(data.len())).collect();
            cuts.sort_unstable();
            let mut c = Checksum::new();
            let mut at = 0;
            for cut in cuts.into_iter().chain([data.len()]) {
                c.add(&data[at..cut]);
                at = cut;
            }
            prop_assert_eq!(c.finish(), want);
        }
    }
}
