//! Split virtqueues over shared memory: the driver side (the host adds
//! buffers, decides when to kick, reaps completions) and the device side
//! (the NIC pops buffer chains, pushes completions, decides when to notify).
//!
//! The protocol and its memory ordering are described in
//! docs/host-interface.md ("Rings"). In short: a side writes the entries it
//! owns with relaxed stores and then publishes them with one release store of
//! its 16-bit free-running index; the other side loads that index with
//! acquire before reading the entries. Notification suppression (the
//! `EVENT_IDX` feature or the `NO_NOTIFY`/`NO_INTERRUPT` flags) puts a full
//! fence between publishing an index and reading the peer's event field, on
//! both sides, so a kick or interrupt is never lost.
//!
//! Nothing on the data path allocates: each side's private state is sized
//! when the ring is opened.

mod device;
mod driver;
mod layout;
mod region;

pub use device::{Chain, ChainIter, Device};
pub use driver::Driver;
pub use layout::{DESC_BYTES, LayoutError, MAX_QUEUE_SIZE, RingLayout};
pub use region::{MAX_REGION_LEN, REGION_ALIGN, RegionError, SharedRegion};

pub(crate) use layout::RingMem;

/// Descriptor flag: the chain continues at `next`.
pub const DESC_F_NEXT: u16 = 1;
/// Descriptor flag: the device writes this buffer (otherwise it reads it).
pub const DESC_F_WRITE: u16 = 2;
/// Descriptor flag: indirect table (not supported: chains using it are refused).
pub const DESC_F_INDIRECT: u16 = 4;
/// Used-ring flag: the device asks not to be kicked (without `EVENT_IDX`).
pub const USED_F_NO_NOTIFY: u16 = 1;
/// Available-ring flag: the driver asks not to be interrupted (without `EVENT_IDX`).
pub const AVAIL_F_NO_INTERRUPT: u16 = 1;

/// Which notification-suppression scheme both sides agreed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Suppression {
    /// The flags `NO_NOTIFY` / `NO_INTERRUPT` (no `EVENT_IDX` feature).
    #[default]
    Flags,
    /// The `EVENT_IDX` feature: `used_event` and `avail_event`.
    EventIdx,
}

/// How a ring is opened: where it is and what was negotiated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RingConfig {
    /// The ring's areas in the region.
    pub layout: RingLayout,
    /// Notification suppression scheme.
    pub suppression: Suppression,
}

/// Who writes a buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The device reads it (a packet to transmit).
    DeviceReads,
    /// The device writes it (room for a received packet).
    DeviceWrites,
}

/// One buffer of a chain, as the driver offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Buffer {
    /// Address of the buffer in the driver's memory.
    pub addr: u64,
    /// Length in bytes.
    pub len: u32,
    /// Who writes it.
    pub access: Access,
}

/// One descriptor as the device reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor {
    /// Buffer address.
    pub addr: u64,
    /// Buffer length.
    pub len: u32,
    /// Who writes it.
    pub access: Access,
}

/// A buffer chain the device has finished, as the driver reaps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Completion {
    /// The token the driver attached when adding the chain.
    pub token: u64,
    /// Bytes the device wrote into the chain's writable buffers.
    pub written: u32,
}

/// Whether the other side must be told about what was just published.
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notify {
    /// Kick (driver) or interrupt (device) the other side.
    Required,
    /// The other side asked not to be told.
    Suppressed,
}

/// Whether re-enabling notifications raced with new work.
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Armed {
    /// Notifications are on and nothing arrived meanwhile: safe to sleep.
    Idle,
    /// Work arrived while arming: poll again before sleeping.
    WorkPending,
}

/// A ring operation that failed. Errors caused by the peer (a malformed
/// chain, an impossible index) mark the ring broken: later calls fail with
/// [`RingError::Broken`], as virtio's `DEVICE_NEEDS_RESET`.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum RingError {
    /// The layout is unusable.
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// Not enough free descriptors for the chain.
    #[error("ring full: {needed} descriptors needed, {free} free")]
    Full {
        /// Descriptors the chain needs.
        needed: usize,
        /// Descriptors free.
        free: u16,
    },
    /// A chain must have at least one buffer.
    #[error("empty buffer chain")]
    EmptyChain,
    /// The peer's index moved further than the ring holds.
    #[error("peer index jumped by {0}, more than the ring size")]
    IndexJump(u16),
    /// A descriptor or head id is out of range.
    #[error("descriptor id {0} out of range")]
    BadId(u32),
    /// A chain loops or is longer than the ring.
    #[error("descriptor chain from head {0} loops or exceeds the ring size")]
    ChainTooLong(u16),
    /// A descriptor uses a feature this ring does not offer.
    #[error("descriptor {0} uses an unsupported flag (indirect)")]
    Unsupported(u16),
    /// The device completed a chain the driver did not have outstanding.
    #[error("completion for head {0}, which is not outstanding")]
    NotOutstanding(u16),
    /// More completions pushed than chains popped.
    #[error("more completions than chains in flight")]
    TooManyCompletions,
    /// An earlier error from the peer broke the ring.
    #[error("ring broken by an earlier peer error")]
    Broken,
}

/// virtio's `vring_need_event`: whether moving an index from `old` to `new`
/// crossed `event` (that is, `event` is one of `old..new` modulo 2^16).
pub fn need_event(event: u16, new: u16, old: u16) -> bool {
    new.wrapping_sub(event).wrapping_sub(1) < new.wrapping_sub(old)
}
