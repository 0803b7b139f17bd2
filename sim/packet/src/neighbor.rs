//! The requests the firmware's slow path answers for the gateways, and
//! its replies:
//!
//! - [`ArpRequest`]: an untagged Ethernet II ARP request for an IPv4
//!   address (hardware type 1, protocol 0x0800, lengths 6 and 4,
//!   operation 1), answered by [`ArpRequest::reply`];
//! - [`NeighborSolicitation`]: an untagged IPv6 frame whose next header is
//!   ICMPv6, carrying a neighbour solicitation (type 135, code 0) with hop
//!   limit 255, as RFC 4861 §7.1.1 requires of a valid one, answered by
//!   [`NeighborSolicitation::advertisement`].
//!
//! The views are checked: `parse` gives one only over a whole request.

use crate::view::{Body, Frame};
use crate::{Ip4, Mac, ip_protocol};
use etherparse::icmpv6::NeighborAdvertisementHeader;
use etherparse::{Icmpv6Type, LinkSlice, NetSlice, PacketBuilder, SlicedPacket, TransportSlice};
use std::net::{Ipv4Addr, Ipv6Addr};

/// The ICMPv6 neighbour discovery target's length.
const TARGET_LEN: usize = 16;

/// The target link-layer address option (type 2, length 1 = 8 bytes).
const TARGET_LL_OPTION: [u8; 2] = [2, 1];

/// The all-nodes multicast address and its MAC (RFC 4291, RFC 2464).
const ALL_NODES: Ipv6Addr = Ipv6Addr::new(0xff02, 0, 0, 0, 0, 0, 0, 1);
const ALL_NODES_MAC: Mac = [0x33, 0x33, 0, 0, 0, 1];

/// An ARP request in an Ethernet frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArpRequest {
    sender: (Mac, Ip4),
    target: Ip4,
}

impl ArpRequest {
    /// The view, if `frame` is an untagged Ethernet II ARP request for
    /// IPv4 over Ethernet.
    pub fn parse(frame: &[u8]) -> Option<ArpRequest> {
        let f = Frame::parse(frame)?;
        match f.body {
            Body::Arp(a) if f.vlan.is_none() && a.operation == 1 => Some(ArpRequest {
                sender: a.sender,
                target: a.target.1,
            }),
            _ => None,
        }
    }

    /// The sender's hardware address.
    pub fn sender_mac(&self) -> Mac {
        self.sender.0
    }

    /// The sender's protocol address.
    pub fn sender_ip(&self) -> Ipv4Addr {
        Ipv4Addr::from(self.sender.1)
    }

    /// The address asked about.
    pub fn target_ip(&self) -> Ipv4Addr {
        Ipv4Addr::from(self.target)
    }

    /// The reply "`target_ip` is at `mac`", unicast to the sender.
    pub fn reply(&self, mac: Mac) -> Vec<u8> {
        crate::arp_frame(
            self.sender.0,
            mac,
            crate::ArpOp::Reply,
            (mac, self.target),
            self.sender,
        )
    }
}

/// An ICMPv6 neighbour solicitation in an Ethernet frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeighborSolicitation {
    source_mac: Mac,
    source_ip: Ipv6Addr,
    target: Ipv6Addr,
}

impl NeighborSolicitation {
    /// The view, if `frame` is a valid neighbour solicitation (see the
    /// module comment).
    pub fn parse(frame: &[u8]) -> Option<NeighborSolicitation> {
        let sliced = SlicedPacket::from_ethernet(frame).ok()?;
        let (Some(LinkSlice::Ethernet2(eth)), true) = (&sliced.link, sliced.link_exts.is_empty())
        else {
            return None;
        };
        let Some(NetSlice::Ipv6(ip)) = &sliced.net else {
            return None;
        };
        let header = ip.header();
        if header.next_header().0 != ip_protocol::ICMPV6 || header.hop_limit() != 255 {
            return None;
        }
        let Some(TransportSlice::Icmpv6(icmp)) = &sliced.transport else {
            return None;
        };
        if icmp.icmp_type() != Icmpv6Type::NeighborSolicitation {
            return None;
        }
        let target: [u8; TARGET_LEN] = icmp.payload().get(..TARGET_LEN)?.try_into().ok()?;
        Some(NeighborSolicitation {
            source_mac: eth.source(),
            source_ip: Ipv6Addr::from(header.source()),
            target: Ipv6Addr::from(target),
        })
    }

    /// The Ethernet source address.
    pub fn source_mac(&self) -> Mac {
        self.source_mac
    }

    /// The IPv6 source address (`::` during duplicate address detection).
    pub fn source_ip(&self) -> Ipv6Addr {
        self.source_ip
    }

    /// The address asked about.
    pub fn target(&self) -> Ipv6Addr {
        self.target
    }

    /// The solicited advertisement "`target` is at `mac`" (RFC 4861
    /// §7.2.4), with the target link-layer address option: to the
    /// soliciting node, or to all nodes (`ff02::1`, solicited flag clear)
    /// when the solicitation came from `::`; router and override flags set,
    /// as a gateway sets them.
    pub fn advertisement(&self, mac: Mac) -> Vec<u8> {
        let from_unspecified = self.source_ip.is_unspecified();
        let (dst_ip, dst_mac) = if from_unspecified {
            (ALL_NODES, ALL_NODES_MAC)
        } else {
            (self.source_ip, self.source_mac)
        };
        let flags = NeighborAdvertisementHeader {
            router: true,
            solicited: !from_unspecified,
            r#override: true,
        };
        let mut body = Vec::with_capacity(TARGET_LEN + 8);
        body.extend_from_slice(&self.target.octets());
        body.extend_from_slice(&TARGET_LL_OPTION);
        body.extend_from_slice(&mac);
        let builder = PacketBuilder::ethernet2(mac, dst_mac)
            .ipv6(self.target.octets(), dst_ip.octets(), 255)
            .icmpv6(Icmpv6Type::NeighborAdvertisement(flags));
        let mut out = Vec::with_capacity(builder.size(body.len()));
        // 24 bytes of ICMPv6 payload always fit an IPv6 packet.
        let _ = builder.write(&mut out, &body);
        out
    }
}

/// An ARP request frame, broadcast (for tests and the health check's
/// probe).
pub fn arp_request(sender: (Mac, Ipv4Addr), target: Ipv4Addr) -> Vec<u8> {
    crate::arp_frame(
        [0xff; 6],
        sender.0,
        crate::ArpOp::Request,
        (sender.0, sender.1.octets()),
        ([0; 6], target.octets()),
    )
}

/// Whether `frame` is an ARP reply saying `ip` is at `mac`.
pub fn is_arp_reply(frame: &[u8], ip: Ipv4Addr, mac: Mac) -> bool {
    matches!(
        Frame::parse(frame).map(|f| f.body),
        Some(Body::Arp(a)) if a.operation == 2 && a.sender == (mac, ip.octets())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use etherparse::Icmpv6Slice;

    const VM: Mac = [2, 0, 0, 0, 1, 2];
    const GW: Mac = [2, 0, 0, 0, 0, 0xfe];
    const ETH_LEN: usize = 14;
    const IPV6_LEN: usize = 40;

    #[test]
    fn arp_request_parses_and_is_answered() {
        let vm_ip = Ipv4Addr::new(10, 1, 0, 2);
        let gw_ip = Ipv4Addr::new(10, 1, 0, 1);
        let req = arp_request((VM, vm_ip), gw_ip);
        assert_eq!(req.len(), ETH_LEN + 28);
        let view = ArpRequest::parse(&req).unwrap();
        assert_eq!(
            (view.sender_mac(), view.sender_ip(), view.target_ip()),
            (VM, vm_ip, gw_ip)
        );
        let reply = view.reply(GW);
        assert_eq!(&reply[..6], &VM);
        assert!(is_arp_reply(&reply, gw_ip, GW));
        assert!(!is_arp_reply(&reply, vm_ip, GW));
        // A reply is not a request; truncated frames are no requests.
        assert!(ArpRequest::parse(&reply).is_none());
        for len in 0..req.len() {
            assert!(ArpRequest::parse(&req[..len]).is_none(), "{len}");
        }
    }

    fn solicitation(src: Ipv6Addr, target: Ipv6Addr, hop_limit: u8) -> Vec<u8> {
        let builder = PacketBuilder::ethernet2(VM, [0x33, 0x33, 0xff, 0, 0, 1])
            .ipv6(
                src.octets(),
                Ipv6Addr::new(0xff02, 0, 0, 0, 0, 1, 0xff00, 1).octets(),
                hop_limit,
            )
            .icmpv6(Icmpv6Type::NeighborSolicitation);
        let mut f = Vec::new();
        builder.write(&mut f, &target.octets()).unwrap();
        f
    }

    #[test]
    fn neighbor_solicitation_is_answered_with_a_valid_advertisement() {
        let vm: Ipv6Addr = "fd00:1::2".parse().unwrap();
        let gw: Ipv6Addr = "fd00:1::1".parse().unwrap();
        let ns = solicitation(vm, gw, 255);
        let view = NeighborSolicitation::parse(&ns).unwrap();
        assert_eq!((view.source_ip(), view.target()), (vm, gw));
        let na = view.advertisement(GW);
        assert_eq!(&na[..6], &VM);
        assert_eq!(&na[ETH_LEN + 24..ETH_LEN + 40], &vm.octets());
        let icmp = &na[ETH_LEN + IPV6_LEN..];
        assert_eq!((icmp[0], icmp[4]), (136, 0xe0));
        assert_eq!(&icmp[8..24], &gw.octets());
        assert_eq!(&icmp[24..26], &TARGET_LL_OPTION);
        assert_eq!(&icmp[26..32], &GW);
        let slice = Icmpv6Slice::from_slice(icmp).unwrap();
        assert!(slice.is_checksum_valid(gw.octets(), vm.octets()));
        // Hop limit other than 255: not a valid solicitation.
        assert!(NeighborSolicitation::parse(&solicitation(vm, gw, 64)).is_none());
        for len in 0..ns.len() {
            assert!(NeighborSolicitation::parse(&ns[..len]).is_none(), "{len}");
        }
    }

    #[test]
    fn duplicate_address_detection_is_answered_to_all_nodes() {
        let gw: Ipv6Addr = "fd00:1::1".parse().unwrap();
        let ns = solicitation(Ipv6Addr::UNSPECIFIED, gw, 255);
        let na = NeighborSolicitation::parse(&ns).unwrap().advertisement(GW);
        assert_eq!(&na[..6], &ALL_NODES_MAC);
        assert_eq!(&na[ETH_LEN + 24..ETH_LEN + 40], &ALL_NODES.octets());
        assert_eq!(na[ETH_LEN + IPV6_LEN + 4], 0xa0);
    }
}
