//! v1model's `HashAlgorithm`s over bytes (`hash`, checksums, selectors):
//! the algorithms are janus-wire's, run whole or fed in pieces.

use janus_engine::externs::ExternArg;
use janus_wire::checksum::{fold_complement, internet_checksum};
use janus_wire::crc;

/// v1model's `HashAlgorithm` members, in declaration order.
pub(super) const CRC32: u64 = 0;

/// CRC-32 with parameters the control plane may change; bmv2 starts it
/// with CRC-32's, which Janus keeps.
pub(super) const CRC32_CUSTOM: u64 = 1;

pub(super) const CRC16: u64 = 2;

/// As `CRC32_CUSTOM`, for CRC-16.
pub(super) const CRC16_CUSTOM: u64 = 3;

pub(super) const IDENTITY: u64 = 5;

pub(super) const CSUM16: u64 = 6;

pub(super) const XOR16: u64 = 7;

/// The hash an `action_selector` declared with `algo` (a `HashAlgorithm`
/// member) uses to pick a member of a group.
pub(crate) fn selector_hash(algo: u64) -> janus_engine::profile::SelectorHash {
    match algo {
        CRC32 => |b| u64::from(crc::crc32(b)),
        CSUM16 => |b| u64::from(internet_checksum(b)),
        IDENTITY => |b| compute(IDENTITY, b, b.len() * 8, 64),
        XOR16 => |b| compute(XOR16, b, b.len() * 8, 64),
        _ => |b| u64::from(crc::crc16_arc(b)),
    }
}

/// `algo` run over the bytes of `data` straight from `arena`, then over
/// `payload`; `None` (nothing run) unless `data` is an
/// [`ExternArg::Data`] of whole bytes on byte boundaries.
pub(super) fn run_in_place(
    algo: u64,
    data: Option<&ExternArg>,
    arena: &[u8],
    payload: &[u8],
) -> Option<Running> {
    let Some(ExternArg::Data(layout)) = data else {
        return None;
    };
    let mut run = Running::new(algo);
    // The Internet checksum (the common case) summed inline; the others
    // through `feed`.
    let aligned = match &mut run {
        Running::Csum16 { sum, odd } => {
            layout.for_each_aligned(arena, |bytes| pair_words(odd, bytes, |w| *sum += w))
        }
        _ => layout.for_each_aligned(arena, |bytes| run.feed(bytes)),
    };
    if !aligned {
        return None;
    }
    run.feed(payload);
    Some(run)
}

/// bmv2's hash and checksum algorithms over the first `bits` bits of `data`.
pub(super) fn compute(algo: u64, data: &[u8], bits: usize, out_width: u32) -> u64 {
    let mut run = Running::new(algo);
    run.feed(&data[..bits.div_ceil(8)]);
    run.finish(out_width)
}

/// One of bmv2's algorithms fed its data a slice at a time: the result is
/// what [`compute`] gives over the slices' concatenation.
#[derive(Clone, Copy, Debug)]
pub(super) enum Running {
    /// The sum of the 16-bit words so far (not yet folded), and a byte
    /// waiting for the next slice's first byte to make a word.
    Csum16 {
        sum: u64,
        odd: Option<u8>,
    },
    /// The XOR of the 16-bit words so far, and a byte waiting as above.
    Xor16 {
        acc: u64,
        odd: Option<u8>,
    },
    Crc16(u16),
    Crc32(u32),
    /// The first (at most 8) bytes as a number, and how many were taken:
    /// bmv2's `identity` reads only the data's first 8 bytes.
    Identity {
        acc: u64,
        taken: u8,
    },
}

impl Running {
    /// The state before any data, for `algo` (a `HashAlgorithm` member;
    /// CRC-16 also for the ones Janus does not implement).
    pub(super) fn new(algo: u64) -> Running {
        match algo {
            CRC32 | CRC32_CUSTOM => Running::Crc32(0xFFFF_FFFF),
            CSUM16 => Running::Csum16 { sum: 0, odd: None },
            XOR16 => Running::Xor16 { acc: 0, odd: None },
            IDENTITY => Running::Identity { acc: 0, taken: 0 },
            CRC16 | CRC16_CUSTOM => Running::Crc16(0),
            _ => Running::Crc16(0),
        }
    }

    /// Takes in the next bytes of the data.
    pub(super) fn feed(&mut self, data: &[u8]) {
        match self {
            Running::Csum16 { sum, odd } => pair_words(odd, data, |w| *sum += w),
            Running::Xor16 { acc, odd } => pair_words(odd, data, |w| *acc ^= w),
            Running::Crc16(crc) => *crc = crc::crc16_arc_update(*crc, data),
            Running::Crc32(crc) => *crc = crc::crc32_update(*crc, data),
            Running::Identity { acc, taken } => {
                for &b in data.iter().take(8 - *taken as usize) {
                    *acc = *acc << 8 | b as u64;
                    *taken += 1;
                }
            }
        }
    }

    /// The result over all the bytes fed (an odd last byte is the high
    /// half of a word whose low half is 0), cut to `out_width` bits.
    pub(super) fn finish(self, out_width: u32) -> u64 {
        let v = match self {
            Running::Csum16 { sum, odd } => {
                u64::from(fold_complement(sum + odd.map_or(0, |b| (b as u64) << 8)))
            }
            Running::Xor16 { acc, odd } => acc ^ odd.map_or(0, |b| (b as u64) << 8),
            Running::Crc16(crc) => crc as u64,
            Running::Crc32(crc) => (!crc) as u64,
            Running::Identity { acc, .. } => acc,
        };
        if out_width >= 64 {
            v
        } else {
            v & ((1u64 << out_width) - 1)
        }
    }
}

/// Passes `data`'s big-endian 16-bit words to `word`, the first made with
/// the byte `odd` left over from earlier data (if any); leaves in `odd` a
/// last byte without its pair.
pub(super) fn pair_words(odd: &mut Option<u8>, data: &[u8], mut word: impl FnMut(u64)) {
    let data = match (*odd, data.split_first()) {
        (Some(_), None) => return,
        (Some(hi), Some((&lo, rest))) => {
            word(u16::from_be_bytes([hi, lo]) as u64);
            rest
        }
        (None, _) => data,
    };
    let (words, rest) = data.as_chunks::<2>();
    *odd = rest.first().copied();
    for w in words {
        word(u16::from_be_bytes(*w) as u64);
    }
}
