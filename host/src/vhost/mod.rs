//! A vhost-user-net backend for one VF: a QEMU guest's virtio-net device
//! attaches to a VF of the NIC process over a unix socket, as OVS-DPDK and
//! P4-DPDK attach guests. QEMU shares the guest's memory (a memfd-backed
//! memory backend) and the two virtqueues of the device; this backend maps
//! that memory (the rust-vmm crates: `vhost-user-backend` speaks the
//! protocol, `virtio-queue` walks the rings, `vm-memory` maps the guest)
//! and moves frames between those queues and the VF's transport
//! ([`HostEnd`](crate::transport::HostEnd)), in bounded batches. Design and
//! limits: docs/host-interface.md ("Virtual machines (vhost-user)").

mod backend;
mod net;
mod relay;
mod server;

pub use backend::VhostCounters;
pub use net::{HEADER_LEN, backend_features};
pub use server::{VhostUser, VhostUserConfig};

use crate::transport::TransportError;

/// Why the vhost-user backend failed.
#[derive(Debug, thiserror::Error)]
pub enum VhostError {
    /// The transport to the NIC failed.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// The vhost-user socket could not be created.
    #[error("vhost-user socket {path}: {reason}")]
    Socket {
        /// The socket's path.
        path: String,
        /// Why.
        reason: String,
    },
    /// The vhost-user session with the guest's VMM failed.
    #[error("vhost-user session: {0}")]
    Session(String),
    /// The guest's rings are malformed.
    #[error("virtqueue: {0}")]
    Queue(#[from] virtio_queue::Error),
    /// Interrupting the guest failed.
    #[error("interrupting the guest: {0}")]
    Notify(std::io::Error),
    /// Waiting for events failed.
    #[error("waiting for events: {0}")]
    Poll(std::io::Error),
}
