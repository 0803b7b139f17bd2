//! The register space of one PCIe function: a chain of self-describing
//! blocks, each starting with a 16-byte header (type, version, next, length),
//! read through zero-copy views that check every length and never panic on
//! any bytes. Layout byte by byte: docs/host-interface.md ("Register space").
//!
//! The space is a directory: it says who the function is, where each
//! queue's rings lie in the function's shared region, where its counters
//! are and which offsets are its doorbells. Live state (rings, counters)
//! lives in the shared region; doorbells are write-only registers.

mod blocks;
mod builder;
mod field;
mod walk;

pub use blocks::{
    BlockHeader, Counters, Doorbells, FunctionKindCode, Identity, QP_F_EVENT_IDX, QueuePair,
    RingAddrs,
};
pub use builder::{COUNTER_COUNT, FunctionLayout, FunctionShape, MAX_QUEUE_PAIRS, QueuePairLayout};
pub use walk::{Block, Walk, walk};

/// Block type: who the function is.
pub const TYPE_IDENTITY: u32 = 0x0001;
/// Block type: one queue pair's rings and doorbells.
pub const TYPE_QUEUE_PAIR: u32 = 0x0002;
/// Block type: where the function's counters are.
pub const TYPE_COUNTERS: u32 = 0x0003;
/// Block type: the function's doorbell registers.
pub const TYPE_DOORBELLS: u32 = 0x0004;

/// The only version of every block type so far.
pub const VERSION_1: u32 = 1;

/// Bytes of a block header.
pub const HEADER_LEN: usize = 16;

/// Largest register space (64 KiB, one BAR window).
pub const MAX_SPACE_LEN: usize = 1 << 16;

/// Why a register space or block is malformed.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum RegsError {
    /// Fewer bytes than a header or than the block's fields need.
    #[error("block at {offset:#x} is truncated: {needed} bytes needed, {available} available")]
    Truncated {
        /// Offset of the block.
        offset: usize,
        /// Bytes needed.
        needed: usize,
        /// Bytes available.
        available: usize,
    },
    /// A block's length field is not a multiple of 8 of at least a header.
    #[error("block at {offset:#x} has a bad length {len}")]
    BadLength {
        /// Offset of the block.
        offset: usize,
        /// Its length field.
        len: u32,
    },
    /// A next pointer goes backwards, into the current block or not on
    /// an 8-byte boundary: following it could loop.
    #[error("block at {offset:#x} points back or into itself (next {next:#x})")]
    Loop {
        /// Offset of the block.
        offset: usize,
        /// Its next pointer.
        next: u32,
    },
    /// A next pointer is past the end of the space.
    #[error("block at {offset:#x} points past the end of the space (next {next:#x})")]
    OutOfRange {
        /// Offset of the block.
        offset: usize,
        /// Its next pointer.
        next: u32,
    },
    /// The block is not of the type the view expects.
    #[error("block type {found:#x}, expected {expected:#x}")]
    WrongType {
        /// Type expected.
        expected: u32,
        /// Type found.
        found: u32,
    },
    /// The block's version is not one this crate reads.
    #[error("block type {block_type:#x} version {version} is not supported")]
    UnsupportedVersion {
        /// Block type.
        block_type: u32,
        /// Its version.
        version: u32,
    },
    /// A field holds a value outside its domain.
    #[error("block at {offset:#x}: {what}")]
    BadField {
        /// Offset of the block.
        offset: usize,
        /// What is wrong.
        what: &'static str,
    },
    /// The space to build is larger than [`MAX_SPACE_LEN`] or a count overflows.
    #[error("register space too large")]
    TooLarge,
}
