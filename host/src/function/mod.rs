//! Physical and virtual functions. The NIC (its firmware) owns every
//! [`FunctionSpace`]: the register space, the shared region with the rings
//! and counters, the device ends of the rings. A tenant gets a [`VfHandle`]:
//! the driver ends of its own VF's rings, a read-only view of its own
//! registers, its doorbells and counters, and nothing else. A handle holds
//! no reference to any other function, so reaching another VF's queues is
//! not expressible.

mod doorbell;
mod space;
mod vf;

pub use space::{FunctionSpace, HostConfig, HostInterface};
pub use vf::VfHandle;

use janus_nic::ports;

use crate::regs::RegsError;
use crate::ring::{RegionError, RingError, Suppression};

/// The index of a virtual function: 0 up to the number of VF ports of the
/// NIC (`janus_nic::ports::FIRST_VF..=LAST_VF`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VfIndex(u16);

/// Number of virtual functions the NIC's port map has room for.
pub const MAX_VFS: u16 = (ports::LAST_VF - ports::FIRST_VF + 1) as u16;

impl VfIndex {
    /// Checks that `index` names a VF port.
    pub fn new(index: u16) -> Result<Self, FunctionError> {
        if index < MAX_VFS {
            Ok(Self(index))
        } else {
            Err(FunctionError::BadVfIndex(index))
        }
    }

    /// The index.
    pub fn get(self) -> u16 {
        self.0
    }

    /// The VF's NIC port.
    pub fn port(self) -> u32 {
        ports::FIRST_VF + u32::from(self.0)
    }
}

/// Physical function (the NIC's own, on the CPU port) or a virtual one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunctionKind {
    /// The physical function, owned by the NIC's firmware.
    Physical,
    /// A virtual function, handed to a tenant.
    Virtual(VfIndex),
}

/// Shape of a function's queues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueConfig {
    /// Queue pairs (1..=256).
    pub queue_pairs: u16,
    /// Descriptors per ring (a power of two up to 32768).
    pub ring_size: u16,
    /// Notification suppression of every ring.
    pub suppression: Suppression,
}

/// Which ring of a queue pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Device to host.
    Rx,
    /// Host to device.
    Tx,
}

impl Direction {
    /// Doorbell slot / ring number of `pair`'s ring in this direction.
    pub(crate) fn slot(self, pair: u16) -> usize {
        2 * usize::from(pair)
            + match self {
                Self::Rx => 0,
                Self::Tx => 1,
            }
    }
}

/// A function's counters, in the order of the counters block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    /// Packets delivered to the host.
    RxPackets,
    /// Bytes delivered to the host.
    RxBytes,
    /// Packets sent by the host.
    TxPackets,
    /// Bytes sent by the host.
    TxBytes,
    /// Packets for the host dropped (no receive buffer).
    RxDropped,
    /// Packets from the host dropped.
    TxDropped,
}

impl Counter {
    /// Position in the counters block.
    pub(crate) fn index(self) -> u64 {
        self as u64
    }
}

/// Why a function operation was refused.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum FunctionError {
    /// VF index past the port map's VF range.
    #[error("VF index {0} is outside 0..{MAX_VFS}")]
    BadVfIndex(u16),
    /// No VF of that index was created.
    #[error("VF {0} does not exist")]
    NoSuchVf(u16),
    /// Queue pair index past the function's queues.
    #[error("queue pair {pair} does not exist (the function has {pairs})")]
    NoSuchQueue {
        /// Index asked for.
        pair: u16,
        /// Queue pairs of the function.
        pairs: u16,
    },
    /// That end of that ring (or the VF handle) was already handed out.
    #[error("{0} already taken")]
    AlreadyTaken(&'static str),
    /// A register write to an offset that is not one of the function's doorbells.
    #[error("register offset {0:#x} is not a doorbell of this function")]
    NotADoorbell(u32),
    /// The physical function has no tenant handle.
    #[error("the physical function is not handed to tenants")]
    NotVirtual,
    /// Laying out the register space failed.
    #[error(transparent)]
    Regs(#[from] RegsError),
    /// Creating the shared region failed.
    #[error(transparent)]
    Region(#[from] RegionError),
    /// Opening a ring failed.
    #[error(transparent)]
    Ring(#[from] RingError),
}
