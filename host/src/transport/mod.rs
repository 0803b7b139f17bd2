//! The transport between the NIC process and a host shim: each VF's rings,
//! counters and packet buffers live in one memory file the NIC creates and
//! the shim maps; an event counter carries the shim's kicks (doorbells) and
//! another the NIC's interrupts. The NIC listens on a unix socket per VF
//! (`DIR/vf<PORT>.sock`); on connect it sends the [`Handshake`] with the
//! three descriptors (`SCM_RIGHTS`), and the connection then only says
//! whether the peer is still there. Design: docs/host-interface.md
//! ("Transport").

mod handshake;
mod host_end;
mod hub;
mod memory;
mod nic_end;

pub use handshake::{HANDSHAKE_LEN, Handshake, MAGIC, Refusal, TRANSPORT_VERSION};
pub use host_end::{HostEnd, HostEndCounters};
pub use hub::{Hub, HubConfig, HubCounters, Pipeline};
pub use memory::{BUF_SIZE, VfMemory};
pub use nic_end::{NicEnd, Reception};

use std::path::{Path, PathBuf};

use crate::regs::RegsError;
use crate::ring::{RegionError, RingError};

/// The socket a shim connects to for the VF on NIC port `port`.
pub fn socket_path(dir: &Path, port: u32) -> PathBuf {
    dir.join(format!("vf{port}.sock"))
}

/// Why the transport failed.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// A system call failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        source: std::io::Error,
    },
    /// The peer sent a malformed handshake.
    #[error("bad handshake: {0}")]
    BadHandshake(String),
    /// The NIC refused the attachment.
    #[error("the NIC refused VF {port}: {reason}")]
    Refused {
        /// The VF's port.
        port: u32,
        /// Why.
        reason: Refusal,
    },
    /// The memory's layout cannot be used.
    #[error(transparent)]
    Regs(#[from] RegsError),
    /// A range in the memory is unusable.
    #[error(transparent)]
    Region(#[from] RegionError),
    /// A ring failed (the peer broke it).
    #[error(transparent)]
    Ring(#[from] RingError),
    /// A port that is not a VF port of the NIC.
    #[error("port {0} is not a VF port (2..=509)")]
    NotAVf(u32),
}

impl TransportError {
    /// An I/O error while doing `what`.
    pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Self {
        let what = what.into();
        move |source| Self::Io { what, source }
    }
}
