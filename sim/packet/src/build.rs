//! Owned frames, written whole: each builder computes the lengths, the
//! EtherTypes and protocol numbers, and the checksums of what it writes.

use crate::{Ip4, Mac, VXLAN_FLAGS, VXLAN_HEADER_LEN, ether_type};
use etherparse::{
    ArpEthIpv4Packet, ArpOperation, EtherType, Ethernet2Header, IpHeaders, IpNumber,
    Ipv4Extensions, Ipv4Header, PacketBuilder, SingleVlanHeader, VlanId, VlanPcp,
};

/// Why a frame cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The payload does not fit the header's length field.
    TooLong { len: usize },
    /// A VLAN id above 4095.
    VlanId(u16),
    /// A VNI above 2^24 - 1.
    Vni(u32),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::TooLong { len } => write!(f, "a payload of {len} bytes does not fit"),
            BuildError::VlanId(v) => write!(f, "VLAN id {v} is not 12 bits"),
            BuildError::Vni(v) => write!(f, "VNI {v} is not 24 bits"),
        }
    }
}

impl std::error::Error for BuildError {}

/// What an IPv4 packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// A UDP datagram between the ports.
    Udp { src: u16, dst: u16 },
    /// A TCP segment of an established connection between the ports:
    /// sequence and acknowledgement numbers 1, PSH and ACK, window 65535,
    /// no options.
    Tcp { src: u16, dst: u16 },
}

/// An IPv4 packet from `src` to `dst` carrying `payload` over
/// `transport`: identification 1, don't-fragment, TTL 64, no options,
/// with its header checksum and the transport's checksum (a UDP checksum
/// that sums to 0 is sent as 0xffff, RFC 768).
pub fn ipv4_packet(
    src: Ip4,
    dst: Ip4,
    transport: Transport,
    payload: &[u8],
) -> Result<Vec<u8>, BuildError> {
    let too_long = BuildError::TooLong { len: payload.len() };
    let mut header =
        Ipv4Header::new(0, 64, IpNumber::UDP, src, dst).map_err(|_| too_long.clone())?;
    header.identification = 1;
    header.dont_fragment = true;
    let ip = PacketBuilder::ip(IpHeaders::Ipv4(header, Ipv4Extensions::default()));
    let mut out = Vec::new();
    let written = match transport {
        Transport::Udp { src, dst } => ip.udp(src, dst).write(&mut out, payload),
        Transport::Tcp { src, dst } => ip
            .tcp(src, dst, 1, u16::MAX)
            .psh()
            .ack(1)
            .write(&mut out, payload),
    };
    written.map_err(|_| too_long)?;
    Ok(out)
}

/// An Ethernet II frame carrying `payload` of `ether_type`.
pub fn ethernet_frame(dst: Mac, src: Mac, ether_type: u16, payload: &[u8]) -> Vec<u8> {
    let header = Ethernet2Header {
        source: src,
        destination: dst,
        ether_type: EtherType(ether_type),
    };
    let mut f = Vec::with_capacity(Ethernet2Header::LEN + payload.len());
    f.extend_from_slice(&header.to_bytes());
    f.extend_from_slice(payload);
    f
}

/// An Ethernet II frame with one 802.1Q tag (priority 0, VLAN `vid`)
/// carrying `payload` of `ether_type`.
pub fn tagged_frame(
    dst: Mac,
    src: Mac,
    vid: u16,
    ether_type: u16,
    payload: &[u8],
) -> Result<Vec<u8>, BuildError> {
    let tag = SingleVlanHeader {
        pcp: VlanPcp::ZERO,
        drop_eligible_indicator: false,
        vlan_id: VlanId::try_new(vid).map_err(|_| BuildError::VlanId(vid))?,
        ether_type: EtherType(ether_type),
    };
    let mut body = Vec::with_capacity(SingleVlanHeader::LEN + payload.len());
    body.extend_from_slice(&tag.to_bytes());
    body.extend_from_slice(payload);
    Ok(ethernet_frame(dst, src, ether_type::VLAN, &body))
}

/// An ARP operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArpOp {
    Request,
    Reply,
}

/// An ARP frame for IPv4 over Ethernet (RFC 826): `sender` and `target`
/// are (hardware, protocol) addresses.
pub fn arp_frame(dst: Mac, src: Mac, op: ArpOp, sender: (Mac, Ip4), target: (Mac, Ip4)) -> Vec<u8> {
    let arp = ArpEthIpv4Packet {
        operation: match op {
            ArpOp::Request => ArpOperation::REQUEST,
            ArpOp::Reply => ArpOperation::REPLY,
        },
        sender_mac: sender.0,
        sender_ipv4: sender.1,
        target_mac: target.0,
        target_ipv4: target.1,
    };
    ethernet_frame(dst, src, ether_type::ARP, &arp.to_bytes())
}

/// A VXLAN header for `vni` (the I flag set) followed by `inner`: the
/// payload of a UDP datagram to [`crate::VXLAN_PORT`].
pub fn vxlan_payload(vni: u32, inner: &[u8]) -> Result<Vec<u8>, BuildError> {
    if vni >> 24 != 0 {
        return Err(BuildError::Vni(vni));
    }
    let mut v = Vec::with_capacity(VXLAN_HEADER_LEN + inner.len());
    v.extend_from_slice(&[VXLAN_FLAGS, 0, 0, 0]);
    v.extend_from_slice(&(vni << 8).to_be_bytes());
    v.extend_from_slice(inner);
    Ok(v)
}
