//! `janus switch`'s data plane (docs/switch.md): the program's ports bound
//! to Linux interfaces (mmap'd packet rings), carried over one nanomsg
//! PAIR socket (PTF's `nn` platform) or read from and written to pcap
//! files (`--use-files`), run through the P4Runtime server's switch
//! ([`janus_ctrl::server::SwitchHandle`]) on a thread of its own, with
//! captures per port, packet dumps and bmv2's nanomsg event log.
//!
//! - [`ports`]: where the ports are;
//! - [`files`]: ports on pcap files, as bmv2's `--use-files`;
//! - [`captures`]: `--pcap DIR`;
//! - [`events`]: `--nanolog ADDR`;
//! - [`data_plane`]: the loop.
//!
//! The command line (`src/cmd/switch.rs`) parses simple_switch_grpc's
//! options, starts the server and this loop, and prints what it reports.

pub mod captures;
pub mod data_plane;
pub mod events;
pub mod files;
pub mod ports;

pub use captures::Captures;
pub use data_plane::{DataPlane, Report};
pub use events::Events;
pub use files::FilePorts;
pub use ports::Ports;

use std::time::Duration;

/// bmv2's drop port, the only one Janus's v1model has.
pub const DROP_PORT: u32 = 511;

/// How long the data plane waits for frames before it looks at
/// PacketOuts again.
pub const POLL: Duration = Duration::from_millis(2);
