//! Zero-copy views of the block types. Each `new_checked` checks the header
//! (type, version, length) so the accessors after it always find their
//! bytes; they still read through checked helpers and fall back to zero, so
//! no byte pattern can make them panic.

use super::field::{u16_at, u32_at, u64_at};
use super::{
    HEADER_LEN, RegsError, TYPE_COUNTERS, TYPE_DOORBELLS, TYPE_IDENTITY, TYPE_QUEUE_PAIR, VERSION_1,
};

/// The 16-byte header every block starts with.
#[derive(Debug, Clone, Copy)]
pub struct BlockHeader<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> BlockHeader<T> {
    /// A header view; fails if `buffer` is shorter than a header.
    pub fn new_checked(buffer: T) -> Result<Self, RegsError> {
        let available = buffer.as_ref().len();
        if available < HEADER_LEN {
            return Err(RegsError::Truncated {
                offset: 0,
                needed: HEADER_LEN,
                available,
            });
        }
        Ok(Self { buffer })
    }

    /// Block type (`TYPE_*`).
    pub fn block_type(&self) -> u32 {
        u32_at(self.buffer.as_ref(), 0).unwrap_or(0)
    }

    /// Block version.
    pub fn version(&self) -> u32 {
        u32_at(self.buffer.as_ref(), 4).unwrap_or(0)
    }

    /// Offset of the next block from the start of the space; 0 ends the chain.
    pub fn next(&self) -> u32 {
        u32_at(self.buffer.as_ref(), 8).unwrap_or(0)
    }

    /// Length of the block in bytes, header included.
    pub fn len(&self) -> u32 {
        u32_at(self.buffer.as_ref(), 12).unwrap_or(0)
    }

    /// Whether the length field is zero (a malformed block).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Checks that `buffer` holds a block of `block_type`, version 1, with at
/// least `min_len` bytes.
fn check<T: AsRef<[u8]>>(buffer: &T, block_type: u32, min_len: usize) -> Result<(), RegsError> {
    let header = BlockHeader::new_checked(buffer.as_ref())?;
    if header.block_type() != block_type {
        return Err(RegsError::WrongType {
            expected: block_type,
            found: header.block_type(),
        });
    }
    if header.version() != VERSION_1 {
        return Err(RegsError::UnsupportedVersion {
            block_type,
            version: header.version(),
        });
    }
    let available = buffer.as_ref().len();
    if available < min_len {
        return Err(RegsError::Truncated {
            offset: 0,
            needed: min_len,
            available,
        });
    }
    Ok(())
}

/// Function kind as coded in the identity block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunctionKindCode {
    /// The physical function (owned by the NIC's firmware).
    Physical,
    /// A virtual function (handed to a tenant).
    Virtual,
}

impl FunctionKindCode {
    /// The code stored in the block.
    pub fn code(self) -> u16 {
        match self {
            Self::Physical => 1,
            Self::Virtual => 2,
        }
    }
}

/// Identity block: who the function is.
#[derive(Debug, Clone, Copy)]
pub struct Identity<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> Identity<T> {
    /// Bytes of a version-1 identity block.
    pub const LEN: usize = 40;

    /// Checks type, version and length.
    pub fn new_checked(buffer: T) -> Result<Self, RegsError> {
        check(&buffer, TYPE_IDENTITY, Self::LEN)?;
        Ok(Self { buffer })
    }

    /// Function kind; `None` for an unknown code.
    pub fn kind(&self) -> Option<FunctionKindCode> {
        match u16_at(self.buffer.as_ref(), 16)? {
            1 => Some(FunctionKindCode::Physical),
            2 => Some(FunctionKindCode::Virtual),
            _ => None,
        }
    }

    /// Index of a virtual function (0 for the physical function).
    pub fn vf_index(&self) -> u16 {
        u16_at(self.buffer.as_ref(), 18).unwrap_or(0)
    }

    /// Number of queue pairs (and queue-pair blocks).
    pub fn queue_pairs(&self) -> u16 {
        u16_at(self.buffer.as_ref(), 20).unwrap_or(0)
    }

    /// The NIC port of the function (`janus_nic::ports`).
    pub fn port(&self) -> u32 {
        u32_at(self.buffer.as_ref(), 24).unwrap_or(0)
    }

    /// Length of the function's shared region; every ring and counter
    /// address of the function lies below it.
    pub fn region_len(&self) -> u64 {
        u64_at(self.buffer.as_ref(), 32).unwrap_or(0)
    }
}

/// Where one ring lies in the shared region and which register is its doorbell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RingAddrs {
    /// Offset of the descriptor table in the region.
    pub desc: u64,
    /// Offset of the available ring.
    pub avail: u64,
    /// Offset of the used ring.
    pub used: u64,
    /// Offset of the doorbell register in the register space.
    pub doorbell: u32,
}

/// Queue-pair block: the receive and transmit rings of one queue pair.
#[derive(Debug, Clone, Copy)]
pub struct QueuePair<T: AsRef<[u8]>> {
    buffer: T,
}

/// Queue-pair feature bit: `EVENT_IDX` notification suppression.
pub const QP_F_EVENT_IDX: u32 = 1;

impl<T: AsRef<[u8]>> QueuePair<T> {
    /// Bytes of a version-1 queue-pair block.
    pub const LEN: usize = 88;
    /// Offset of the receive ring's fields.
    pub const RX: usize = 24;
    /// Offset of the transmit ring's fields.
    pub const TX: usize = 56;

    /// Checks type, version and length.
    pub fn new_checked(buffer: T) -> Result<Self, RegsError> {
        check(&buffer, TYPE_QUEUE_PAIR, Self::LEN)?;
        Ok(Self { buffer })
    }

    /// Index of the queue pair within its function.
    pub fn queue(&self) -> u16 {
        u16_at(self.buffer.as_ref(), 16).unwrap_or(0)
    }

    /// Descriptors per ring.
    pub fn ring_size(&self) -> u16 {
        u16_at(self.buffer.as_ref(), 18).unwrap_or(0)
    }

    /// Feature bits (`QP_F_*`).
    pub fn features(&self) -> u32 {
        u32_at(self.buffer.as_ref(), 20).unwrap_or(0)
    }

    fn ring(&self, at: usize) -> RingAddrs {
        let b = self.buffer.as_ref();
        RingAddrs {
            desc: u64_at(b, at).unwrap_or(0),
            avail: u64_at(b, at + 8).unwrap_or(0),
            used: u64_at(b, at + 16).unwrap_or(0),
            doorbell: u32_at(b, at + 24).unwrap_or(0),
        }
    }

    /// The receive ring (the device writes packets for the host).
    pub fn rx(&self) -> RingAddrs {
        self.ring(Self::RX)
    }

    /// The transmit ring (the device reads packets from the host).
    pub fn tx(&self) -> RingAddrs {
        self.ring(Self::TX)
    }
}

/// Counters block: where the function's counters are in its region.
#[derive(Debug, Clone, Copy)]
pub struct Counters<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> Counters<T> {
    /// Bytes of a version-1 counters block.
    pub const LEN: usize = 32;

    /// Checks type, version and length.
    pub fn new_checked(buffer: T) -> Result<Self, RegsError> {
        check(&buffer, TYPE_COUNTERS, Self::LEN)?;
        Ok(Self { buffer })
    }

    /// Number of 64-bit counters.
    pub fn count(&self) -> u32 {
        u32_at(self.buffer.as_ref(), 16).unwrap_or(0)
    }

    /// Offset of the first counter in the shared region (8-aligned).
    pub fn offset(&self) -> u64 {
        u64_at(self.buffer.as_ref(), 24).unwrap_or(0)
    }
}

/// Doorbells block: the function's write-only doorbell registers.
#[derive(Debug, Clone, Copy)]
pub struct Doorbells<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> Doorbells<T> {
    /// Bytes before the first doorbell register.
    pub const SLOTS: usize = 24;

    /// Bytes of a doorbells block with `count` registers (a multiple of 8).
    pub fn len_for(count: usize) -> usize {
        (Self::SLOTS + 4 * count).next_multiple_of(8)
    }

    /// Checks type, version and that every register is inside the block.
    pub fn new_checked(buffer: T) -> Result<Self, RegsError> {
        check(&buffer, TYPE_DOORBELLS, Self::SLOTS)?;
        let count = u32_at(buffer.as_ref(), 16).unwrap_or(0) as usize;
        let needed = Self::len_for(count);
        let available = buffer.as_ref().len();
        if available < needed {
            return Err(RegsError::Truncated {
                offset: 0,
                needed,
                available,
            });
        }
        Ok(Self { buffer })
    }

    /// Number of doorbell registers.
    pub fn count(&self) -> u32 {
        u32_at(self.buffer.as_ref(), 16).unwrap_or(0)
    }
}
