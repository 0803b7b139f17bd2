//! Frames as Janus's tools build and read them: the demo's scenarios, the
//! firmware's slow path (ARP and neighbour discovery for the gateways) and
//! the hot-swap's replay.
//!
//! - [`build`]: owned frames written whole, lengths and checksums
//!   computed: Ethernet II, 802.1Q, ARP, IPv4 with UDP or TCP, VXLAN;
//! - [`view`]: checked views ([`Frame::parse`] gives a view only over
//!   bytes that hold every field it reads): addresses, the VLAN tag, ARP,
//!   IPv4 and its ports, the VXLAN inside;
//! - [`neighbor`]: the slow path's requests (ARP requests, ICMPv6
//!   neighbour solicitations) and the replies built from them.
//!
//! The headers, their checksums and the slicing are etherparse's
//! (docs/architecture.md, "The packet layer", says why that crate); what
//! it does not cover is written here: the VXLAN header (RFC 7348) and the
//! target and option of a neighbour solicitation or advertisement
//! (RFC 4861 §4.3, §4.4).

pub mod build;
pub mod neighbor;
pub mod view;

pub use build::{ArpOp, BuildError, Transport, arp_frame, ethernet_frame, ipv4_packet};
pub use build::{tagged_frame, vxlan_payload};
pub use view::{Arp, Body, Frame, Ipv4, Vxlan};

/// A MAC address.
pub type Mac = [u8; 6];

/// An IPv4 address, as it is on the wire.
pub type Ip4 = [u8; 4];

/// EtherTypes of the frames here.
pub mod ether_type {
    pub const IPV4: u16 = 0x0800;
    pub const ARP: u16 = 0x0806;
    pub const VLAN: u16 = 0x8100;
    pub const IPV6: u16 = 0x86dd;
}

/// IP protocol numbers of the transports here.
pub mod ip_protocol {
    pub const TCP: u8 = 6;
    pub const UDP: u8 = 17;
    pub const ICMPV6: u8 = 58;
}

/// The UDP port VXLAN is sent to (RFC 7348 §5).
pub const VXLAN_PORT: u16 = 4789;

/// The VXLAN header's length.
pub const VXLAN_HEADER_LEN: usize = 8;

/// The VXLAN flags byte with the I flag (a valid VNI) set.
pub const VXLAN_FLAGS: u8 = 0x08;
