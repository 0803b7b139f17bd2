//! The crate's error type.

use thiserror::Error;

use crate::wire;

/// An error reading or writing a capture file.
///
/// Reading errors carry the byte offset in the file where the offending
/// structure starts.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PcapError {
    /// The file ends in the middle of a structure.
    #[error(
        "truncated file: {what} at byte {offset} needs {needed} bytes but only {available} remain"
    )]
    Truncated {
        /// The structure that was cut short.
        what: &'static str,
        /// Byte offset where it starts.
        offset: u64,
        /// Bytes it needs from `offset` on.
        needed: u64,
        /// Bytes the file has from `offset` on.
        available: u64,
    },
    /// The file starts with neither a pcap magic number nor a pcapng Section
    /// Header Block.
    #[error("not a pcap or pcapng file: unknown magic number {magic:#010x}")]
    BadMagic {
        /// The first four bytes, read as a big-endian number.
        magic: u32,
    },
    /// A version this crate does not read (pcap other than 2.0 to 2.4,
    /// pcapng other than 1.x).
    #[error("unsupported {format} version {major}.{minor} at byte {offset}")]
    UnsupportedVersion {
        /// "pcap" or "pcapng".
        format: &'static str,
        /// Byte offset of the header holding the version.
        offset: u64,
        /// Major version.
        major: u16,
        /// Minor version.
        minor: u16,
    },
    /// A record or packet block announcing an unreasonable captured length.
    #[error("packet at byte {offset} claims {len} captured bytes, over the limit of {limit}")]
    RecordTooLong {
        /// Byte offset of the record or block.
        offset: u64,
        /// The captured length it claims.
        len: u32,
        /// The limit ([`ReadOptions::max_record_len`](crate::ReadOptions)).
        limit: u32,
    },
    /// A record or packet block capturing more bytes than its snapshot length.
    #[error(
        "packet at byte {offset} captures {len} bytes, more than the snapshot length {snaplen}"
    )]
    ExceedsSnaplen {
        /// Byte offset of the record or block.
        offset: u64,
        /// The captured length.
        len: u32,
        /// The snapshot length of the file or interface.
        snaplen: u32,
    },
    /// A pcapng Section Header Block with a bad byte-order magic.
    #[error("bad pcapng byte-order magic {magic:#010x} at byte {offset}")]
    BadByteOrderMagic {
        /// Byte offset of the block.
        offset: u64,
        /// The field, read as a big-endian number.
        magic: u32,
    },
    /// A pcapng block length below 12 or not a multiple of 4.
    #[error("invalid pcapng block length {length} at byte {offset}")]
    BadBlockLength {
        /// Byte offset of the block.
        offset: u64,
        /// The leading Block Total Length.
        length: u32,
    },
    /// A pcapng block whose trailing length differs from its leading length.
    #[error(
        "pcapng block at byte {offset}: leading length {leading} but trailing length {trailing}"
    )]
    BlockLengthMismatch {
        /// Byte offset of the block.
        offset: u64,
        /// The leading Block Total Length.
        leading: u32,
        /// The trailing Block Total Length.
        trailing: u32,
    },
    /// A pcapng block whose contents contradict themselves.
    #[error("malformed pcapng block of type {block_type:#x} at byte {offset}: {reason}")]
    MalformedBlock {
        /// Byte offset of the block.
        offset: u64,
        /// The block type.
        block_type: u32,
        /// What is wrong.
        reason: &'static str,
    },
    /// A pcapng packet referring to an interface its section has not described.
    #[error(
        "packet at byte {offset} refers to interface {interface}, but its section describes {known}"
    )]
    UnknownInterface {
        /// Byte offset of the packet block.
        offset: u64,
        /// The interface id in the block.
        interface: u32,
        /// How many interfaces the section had described before the block.
        known: u32,
    },
    /// A timestamp that is not representable as nanoseconds since 1970 in a
    /// `u64` (after the interface's resolution and offset are applied).
    #[error("timestamp of the packet at byte {offset} is out of range")]
    TimestampOutOfRange {
        /// Byte offset of the packet block.
        offset: u64,
    },
    /// Writing: a timestamp the chosen pcap resolution cannot represent
    /// (seconds beyond `u32::MAX`).
    #[error("timestamp {timestamp_ns} ns does not fit a pcap record (seconds over u32::MAX)")]
    UnrepresentableTimestamp {
        /// The timestamp given.
        timestamp_ns: u64,
    },
    /// Writing: an original length smaller than the bytes given, or a packet
    /// longer than a pcap record can describe.
    #[error("invalid packet length: {reason}")]
    InvalidPacketLength {
        /// What is wrong.
        reason: &'static str,
    },
    /// Writing: a [`WriterConfig`](crate::WriterConfig) that cannot produce a
    /// valid file.
    #[error("invalid writer configuration: {0}")]
    InvalidConfig(&'static str),
    /// Writing: the underlying writer failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

impl PcapError {
    /// Turns a wire-view error into a file error; `base` is the file offset of
    /// the buffer the view was given, `block_type` the pcapng block being read
    /// (for malformed-block reports).
    pub(crate) fn from_wire(err: wire::Error, base: usize, block_type: u32) -> Self {
        let at = |rel: usize| (base as u64).saturating_add(rel as u64);
        match err {
            wire::Error::Truncated {
                what,
                offset,
                needed,
                available,
            } => PcapError::Truncated {
                what,
                offset: at(offset),
                needed,
                available,
            },
            wire::Error::BadMagic { magic } => PcapError::BadMagic { magic },
            wire::Error::BadByteOrderMagic { magic } => PcapError::BadByteOrderMagic {
                offset: at(0),
                magic,
            },
            wire::Error::BadBlockLength { length } => PcapError::BadBlockLength {
                offset: at(0),
                length,
            },
            wire::Error::BlockLengthMismatch { leading, trailing } => {
                PcapError::BlockLengthMismatch {
                    offset: at(0),
                    leading,
                    trailing,
                }
            }
            wire::Error::Malformed(reason) => PcapError::MalformedBlock {
                offset: at(0),
                block_type,
                reason,
            },
        }
    }

    /// The byte offset in the file that the error refers to, for reading
    /// errors that have one.
    pub fn offset(&self) -> Option<u64> {
        match self {
            PcapError::Truncated { offset, .. }
            | PcapError::UnsupportedVersion { offset, .. }
            | PcapError::RecordTooLong { offset, .. }
            | PcapError::ExceedsSnaplen { offset, .. }
            | PcapError::BadByteOrderMagic { offset, .. }
            | PcapError::BadBlockLength { offset, .. }
            | PcapError::BlockLengthMismatch { offset, .. }
            | PcapError::MalformedBlock { offset, .. }
            | PcapError::UnknownInterface { offset, .. }
            | PcapError::TimestampOutOfRange { offset } => Some(*offset),
            PcapError::BadMagic { .. } => Some(0),
            _ => None,
        }
    }
}
