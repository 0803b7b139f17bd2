//! The slow path: what the NIC's embedded cores answer for the tenants
//! (docs/firmware.md, "Runtime"). p4/sdn.p4 punts ARP requests and IPv6
//! neighbour solicitations for a tenant's gateway to the CPU port; the
//! agent answers them with the gateway MAC from the firmware
//! configuration, as PacketOuts out of the VF the request came from.
//!
//! - the requests and the replies are `janus_packet::neighbor`'s views and
//!   builders;
//! - [`responder`]: request in, reply out, no I/O;
//! - [`agent`]: the P4Runtime client (its own roles, PacketIn filters).

pub mod agent;
pub mod responder;

pub use agent::{AgentConfig, AgentError, SlowPath};
pub use responder::{Responder, SlowPathCounters, SlowPathStats};
