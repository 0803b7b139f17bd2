//! Zero-copy views over the on-disk structures of pcap and pcapng files.
//!
//! Each view wraps a byte buffer (`T: AsRef<[u8]>`) and reads its fields in
//! place. A view is built with `new_checked`, which verifies that the buffer is
//! long enough for every accessor (and, where a length field is involved, that
//! the length agrees with the buffer), so the accessors themselves never panic.
//! `new_unchecked` skips those checks and is meant for building a structure
//! into a buffer the caller has sized correctly.
//!
//! Errors from this module ([`enum@Error`]) carry offsets relative to the buffer
//! handed to the view; the [`Reader`](crate::Reader) turns them into
//! [`PcapError`](crate::PcapError)s with absolute file offsets.

pub mod pcap;
pub mod pcapng;

use thiserror::Error;

/// The byte order of the multi-byte fields of a capture file or section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// Least significant byte first.
    Little,
    /// Most significant byte first.
    Big,
}

impl ByteOrder {
    /// The byte order of the machine this code runs on.
    pub const fn native() -> Self {
        if cfg!(target_endian = "big") {
            ByteOrder::Big
        } else {
            ByteOrder::Little
        }
    }

    /// Reads a `u16` from the first two bytes of `bytes`.
    ///
    /// Callers guarantee (through a view's length check) that two bytes exist.
    fn u16(self, bytes: &[u8]) -> u16 {
        let b = [bytes[0], bytes[1]];
        match self {
            ByteOrder::Little => u16::from_le_bytes(b),
            ByteOrder::Big => u16::from_be_bytes(b),
        }
    }

    /// Reads a `u32` from the first four bytes of `bytes`.
    fn u32(self, bytes: &[u8]) -> u32 {
        let b = [bytes[0], bytes[1], bytes[2], bytes[3]];
        match self {
            ByteOrder::Little => u32::from_le_bytes(b),
            ByteOrder::Big => u32::from_be_bytes(b),
        }
    }

    /// Reads a `u64` from the first eight bytes of `bytes`.
    fn u64(self, bytes: &[u8]) -> u64 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[..8]);
        match self {
            ByteOrder::Little => u64::from_le_bytes(b),
            ByteOrder::Big => u64::from_be_bytes(b),
        }
    }

    fn put_u16(self, bytes: &mut [u8], value: u16) {
        let b = match self {
            ByteOrder::Little => value.to_le_bytes(),
            ByteOrder::Big => value.to_be_bytes(),
        };
        bytes[..2].copy_from_slice(&b);
    }

    fn put_u32(self, bytes: &mut [u8], value: u32) {
        let b = match self {
            ByteOrder::Little => value.to_le_bytes(),
            ByteOrder::Big => value.to_be_bytes(),
        };
        bytes[..4].copy_from_slice(&b);
    }
}

/// A structural error found by a view's `new_checked` or by an option walk.
///
/// Offsets are relative to the start of the buffer given to the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// The buffer ends before the structure does.
    #[error("{what} at offset {offset} needs {needed} bytes but only {available} remain")]
    Truncated {
        /// The structure that was cut short.
        what: &'static str,
        /// Where that structure starts.
        offset: usize,
        /// How many bytes it needs from `offset` on.
        needed: u64,
        /// How many bytes the buffer has from `offset` on.
        available: u64,
    },
    /// The first four bytes are not a magic number this crate knows.
    #[error("unknown magic number {magic:#010x}")]
    BadMagic {
        /// The first four bytes, read as a big-endian number.
        magic: u32,
    },
    /// A pcapng Section Header Block whose byte-order magic is neither
    /// 0x1A2B3C4D nor its byte swap.
    #[error("bad byte-order magic {magic:#010x} in section header")]
    BadByteOrderMagic {
        /// The byte-order magic field, read as a big-endian number.
        magic: u32,
    },
    /// A pcapng block length that is below 12 or not a multiple of 4.
    #[error("invalid block length {length} (must be a multiple of 4 and at least 12)")]
    BadBlockLength {
        /// The leading Block Total Length field.
        length: u32,
    },
    /// A pcapng block whose trailing length field differs from its leading one.
    #[error("block length mismatch: leading {leading}, trailing {trailing}")]
    BlockLengthMismatch {
        /// The leading Block Total Length field.
        leading: u32,
        /// The trailing Block Total Length field.
        trailing: u32,
    },
    /// A block body that contradicts itself (a packet or option longer than
    /// the block that holds it, a body too short for its fixed fields).
    #[error("{0}")]
    Malformed(&'static str),
}

/// A result from this module.
pub type Result<T> = core::result::Result<T, Error>;

/// Rounds `len` up to a multiple of four, as pcapng pads packet data and
/// option values. Computed in `u64`, so it cannot overflow for a `u32` input.
pub(crate) fn pad4(len: u32) -> u64 {
    (u64::from(len) + 3) & !3
}

fn check_len(what: &'static str, buffer: &[u8], needed: usize) -> Result<()> {
    if buffer.len() < needed {
        Err(Error::Truncated {
            what,
            offset: 0,
            needed: needed as u64,
            available: buffer.len() as u64,
        })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_reads_and_writes() {
        let mut buf = [0u8; 8];
        ByteOrder::Big.put_u32(&mut buf, 0x0102_0304);
        assert_eq!(buf[..4], [1, 2, 3, 4]);
        assert_eq!(ByteOrder::Little.u32(&buf), 0x0403_0201);
        ByteOrder::Little.put_u16(&mut buf[4..], 0xAABB);
        assert_eq!(buf[4..6], [0xBB, 0xAA]);
        assert_eq!(ByteOrder::Big.u16(&buf[4..]), 0xBBAA);
        assert_eq!(
            ByteOrder::Big.u64(&[0, 0, 0, 0, 0, 0, 1, 2]),
            0x0102,
            "u64 big endian"
        );
    }

    #[test]
    fn pad4_rounds_up_without_overflow() {
        assert_eq!(pad4(0), 0);
        assert_eq!(pad4(1), 4);
        assert_eq!(pad4(4), 4);
        assert_eq!(pad4(5), 8);
        assert_eq!(pad4(u32::MAX), 1 << 32);
    }
}
