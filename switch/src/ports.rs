//! Where the switch's ports are: Linux interfaces, one nanomsg socket, or
//! pcap files.

use crate::files::FilePorts;
use janus_host::nanomsg::packet::PacketSocket;
use janus_host::ports::PortSet;

/// Where the switch's ports are.
pub enum Ports {
    /// Linux interfaces (`-i PORT@IFACE`).
    Rings(PortSet),
    /// One nanomsg PAIR socket for every port (`--packet-in ADDR`).
    Socket(PacketSocket),
    /// pcap files (`--use-files WAIT`).
    Files(FilePorts),
}

impl Ports {
    /// For the start-up line.
    pub fn describe(&self) -> String {
        match self {
            Ports::Rings(p) => {
                let listed: Vec<String> = p.list().map(|(p, i)| format!("{p}@{i}")).collect();
                format!("ports [{}]", listed.join(", "))
            }
            Ports::Socket(s) => format!("every port over the nanomsg PAIR socket {}", s.endpoint()),
            Ports::Files(f) => f.describe(),
        }
    }
}
