//! The frames the slow path reads and writes: zero-copy views with
//! checked constructors (a view exists only over bytes long enough for
//! every field it reads) and the replies built from them.
//!
//! - [`ArpRequest`]: an Ethernet II ARP request for an IPv4 address
//!   (hardware type 1, protocol 0x0800, lengths 6 and 4, operation 1);
//! - [`NeighborSolicitation`]: an Ethernet II IPv6 frame carrying an
//!   ICMPv6 neighbour solicitation (type 135, code 0, hop limit 255, as
//!   RFC 4861 §7.1.1 requires of a valid one).

use janus_wire::checksum::Checksum;
use std::net::{Ipv4Addr, Ipv6Addr};

/// A MAC address.
pub type Mac = [u8; 6];

const ETH_LEN: usize = 14;
const ETHERTYPE_ARP: u16 = 0x0806;
const ETHERTYPE_IPV6: u16 = 0x86dd;
const ARP_LEN: usize = 28;
const IPV6_LEN: usize = 40;
const ICMPV6: u8 = 58;
const NS_TYPE: u8 = 135;
const NA_TYPE: u8 = 136;
/// ICMPv6 NS/NA body: type, code, checksum, reserved/flags, target.
const ND_LEN: usize = 24;
/// The target link-layer address option (type 2, length 1 = 8 bytes).
const TARGET_LL_OPTION: [u8; 2] = [2, 1];

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

fn mac_at(b: &[u8], at: usize) -> Mac {
    let mut m = [0; 6];
    m.copy_from_slice(&b[at..at + 6]);
    m
}

fn ethernet(dst: Mac, src: Mac, ether_type: u16, capacity: usize) -> Vec<u8> {
    let mut f = Vec::with_capacity(ETH_LEN + capacity);
    f.extend_from_slice(&dst);
    f.extend_from_slice(&src);
    f.extend_from_slice(&ether_type.to_be_bytes());
    f
}

/// An ARP request in an Ethernet frame.
#[derive(Clone, Copy, Debug)]
pub struct ArpRequest<'a>(&'a [u8]);

impl<'a> ArpRequest<'a> {
    /// The view, if `frame` is an Ethernet II ARP request for IPv4 over
    /// Ethernet.
    pub fn parse(frame: &'a [u8]) -> Option<ArpRequest<'a>> {
        if frame.len() < ETH_LEN + ARP_LEN || be16(frame, 12) != ETHERTYPE_ARP {
            return None;
        }
        let a = &frame[ETH_LEN..];
        let ok = be16(a, 0) == 1 && be16(a, 2) == 0x0800 && a[4] == 6 && a[5] == 4;
        (ok && be16(a, 6) == 1).then_some(ArpRequest(frame))
    }

    /// The sender's hardware address.
    pub fn sender_mac(&self) -> Mac {
        mac_at(self.0, ETH_LEN + 8)
    }

    /// The sender's protocol address.
    pub fn sender_ip(&self) -> Ipv4Addr {
        let b = &self.0[ETH_LEN + 14..ETH_LEN + 18];
        Ipv4Addr::new(b[0], b[1], b[2], b[3])
    }

    /// The address asked about.
    pub fn target_ip(&self) -> Ipv4Addr {
        let b = &self.0[ETH_LEN + 24..ETH_LEN + 28];
        Ipv4Addr::new(b[0], b[1], b[2], b[3])
    }

    /// The reply "`target_ip` is at `mac`", unicast to the sender.
    pub fn reply(&self, mac: Mac) -> Vec<u8> {
        let mut f = ethernet(self.sender_mac(), mac, ETHERTYPE_ARP, ARP_LEN);
        f.extend_from_slice(&[0, 1, 8, 0, 6, 4, 0, 2]);
        f.extend_from_slice(&mac);
        f.extend_from_slice(&self.target_ip().octets());
        f.extend_from_slice(&self.sender_mac());
        f.extend_from_slice(&self.sender_ip().octets());
        f
    }
}

/// An ICMPv6 neighbour solicitation in an Ethernet frame.
#[derive(Clone, Copy, Debug)]
pub struct NeighborSolicitation<'a>(&'a [u8]);

impl<'a> NeighborSolicitation<'a> {
    /// The view, if `frame` is an untagged IPv6 frame whose next header is
    /// ICMPv6 carrying a neighbour solicitation with hop limit 255.
    pub fn parse(frame: &'a [u8]) -> Option<NeighborSolicitation<'a>> {
        if frame.len() < ETH_LEN + IPV6_LEN + ND_LEN || be16(frame, 12) != ETHERTYPE_IPV6 {
            return None;
        }
        let ip = &frame[ETH_LEN..];
        let payload_len = usize::from(be16(ip, 4));
        let ok = ip[0] >> 4 == 6
            && ip[6] == ICMPV6
            && ip[7] == 255
            && payload_len >= ND_LEN
            && ETH_LEN + IPV6_LEN + payload_len <= frame.len();
        let icmp = &ip[IPV6_LEN..];
        (ok && icmp[0] == NS_TYPE && icmp[1] == 0).then_some(NeighborSolicitation(frame))
    }

    /// The Ethernet source address.
    pub fn source_mac(&self) -> Mac {
        mac_at(self.0, 6)
    }

    /// The IPv6 source address (`::` during duplicate address detection).
    pub fn source_ip(&self) -> Ipv6Addr {
        ipv6_at(self.0, ETH_LEN + 8)
    }

    /// The address asked about.
    pub fn target(&self) -> Ipv6Addr {
        ipv6_at(self.0, ETH_LEN + IPV6_LEN + 8)
    }

    /// The solicited advertisement "`target` is at `mac`" (RFC 4861
    /// §7.2.4): to the soliciting node, or to all nodes (`ff02::1`,
    /// unsolicited flag clear) when the solicitation came from `::`;
    /// router, solicited and override flags as a gateway sets them.
    pub fn advertisement(&self, mac: Mac) -> Vec<u8> {
        let target = self.target();
        let from_unspecified = self.source_ip().is_unspecified();
        let (dst_ip, dst_mac, flags) = if from_unspecified {
            let all_nodes = Ipv6Addr::new(0xff02, 0, 0, 0, 0, 0, 0, 1);
            (all_nodes, [0x33, 0x33, 0, 0, 0, 1], 0xa0)
        } else {
            (self.source_ip(), self.source_mac(), 0xe0)
        };
        let icmp_len = ND_LEN + 8;
        let mut icmp = Vec::with_capacity(icmp_len);
        icmp.extend_from_slice(&[NA_TYPE, 0, 0, 0, flags, 0, 0, 0]);
        icmp.extend_from_slice(&target.octets());
        icmp.extend_from_slice(&TARGET_LL_OPTION);
        icmp.extend_from_slice(&mac);
        let sum = icmpv6_checksum(target, dst_ip, &icmp);
        icmp[2..4].copy_from_slice(&sum.to_be_bytes());
        let mut f = ethernet(dst_mac, mac, ETHERTYPE_IPV6, IPV6_LEN + icmp_len);
        f.extend_from_slice(&[0x60, 0, 0, 0]);
        f.extend_from_slice(&(icmp_len as u16).to_be_bytes());
        f.extend_from_slice(&[ICMPV6, 255]);
        f.extend_from_slice(&target.octets());
        f.extend_from_slice(&dst_ip.octets());
        f.extend_from_slice(&icmp);
        f
    }
}

fn ipv6_at(b: &[u8], at: usize) -> Ipv6Addr {
    let mut a = [0; 16];
    a.copy_from_slice(&b[at..at + 16]);
    Ipv6Addr::from(a)
}

/// The ICMPv6 checksum over the pseudo-header and `icmp` (its checksum
/// field zero).
fn icmpv6_checksum(src: Ipv6Addr, dst: Ipv6Addr, icmp: &[u8]) -> u16 {
    Checksum::new()
        .add(&src.octets())
        .add(&dst.octets())
        .add(&(icmp.len() as u32).to_be_bytes())
        .add(&[0, 0, 0, ICMPV6])
        .add(icmp)
        .finish()
}

/// An ARP request frame (for tests and the health check's probe).
pub fn arp_request(sender: (Mac, Ipv4Addr), target: Ipv4Addr) -> Vec<u8> {
    let mut f = ethernet([0xff; 6], sender.0, ETHERTYPE_ARP, ARP_LEN);
    f.extend_from_slice(&[0, 1, 8, 0, 6, 4, 0, 1]);
    f.extend_from_slice(&sender.0);
    f.extend_from_slice(&sender.1.octets());
    f.extend_from_slice(&[0; 6]);
    f.extend_from_slice(&target.octets());
    f
}

/// Whether `frame` is an ARP reply saying `ip` is at `mac`.
pub fn is_arp_reply(frame: &[u8], ip: Ipv4Addr, mac: Mac) -> bool {
    if frame.len() < ETH_LEN + ARP_LEN || be16(frame, 12) != ETHERTYPE_ARP {
        return false;
    }
    let a = &frame[ETH_LEN..];
    be16(a, 6) == 2 && mac_at(a, 8) == mac && a[14..18] == ip.octets()
}

#[cfg(test)]
mod tests {
    use super::*;

    const VM: Mac = [2, 0, 0, 0, 1, 2];
    const GW: Mac = [2, 0, 0, 0, 0, 0xfe];

    #[test]
    fn arp_request_parses_and_is_answered() {
        let vm_ip = Ipv4Addr::new(10, 1, 0, 2);
        let gw_ip = Ipv4Addr::new(10, 1, 0, 1);
        let req = arp_request((VM, vm_ip), gw_ip);
        let view = ArpRequest::parse(&req).unwrap();
        assert_eq!(
            (view.sender_mac(), view.sender_ip(), view.target_ip()),
            (VM, vm_ip, gw_ip)
        );
        let reply = view.reply(GW);
        assert_eq!(&reply[..6], &VM);
        assert!(is_arp_reply(&reply, gw_ip, GW));
        // A reply is not a request; truncated frames are no requests.
        assert!(ArpRequest::parse(&reply).is_none());
        for len in 0..req.len() {
            assert!(ArpRequest::parse(&req[..len]).is_none(), "{len}");
        }
    }

    fn solicitation(src: Ipv6Addr, target: Ipv6Addr) -> Vec<u8> {
        let mut icmp = vec![NS_TYPE, 0, 0, 0, 0, 0, 0, 0];
        icmp.extend_from_slice(&target.octets());
        let mut f = ethernet([0x33, 0x33, 0xff, 0, 0, 1], VM, ETHERTYPE_IPV6, 64);
        f.extend_from_slice(&[0x60, 0, 0, 0, 0, icmp.len() as u8, ICMPV6, 255]);
        f.extend_from_slice(&src.octets());
        f.extend_from_slice(&Ipv6Addr::new(0xff02, 0, 0, 0, 0, 1, 0xff00, 1).octets());
        f.extend_from_slice(&icmp);
        f
    }

    #[test]
    fn neighbor_solicitation_is_answered_with_a_valid_advertisement() {
        let vm: Ipv6Addr = "fd00:1::2".parse().unwrap();
        let gw: Ipv6Addr = "fd00:1::1".parse().unwrap();
        let ns = solicitation(vm, gw);
        let view = NeighborSolicitation::parse(&ns).unwrap();
        assert_eq!((view.source_ip(), view.target()), (vm, gw));
        let na = view.advertisement(GW);
        assert_eq!(&na[..6], &VM);
        assert_eq!(ipv6_at(&na, ETH_LEN + 24), vm);
        let icmp = &na[ETH_LEN + IPV6_LEN..];
        assert_eq!((icmp[0], icmp[4]), (NA_TYPE, 0xe0));
        assert_eq!(&icmp[26..32], &GW);
        // The checksum verifies: summing with it in place gives zero.
        assert_eq!(icmpv6_checksum(gw, vm, icmp), 0);
        // Hop limit other than 255: not a valid solicitation.
        let mut bad = ns.clone();
        bad[ETH_LEN + 7] = 64;
        assert!(NeighborSolicitation::parse(&bad).is_none());
        for len in 0..ns.len() {
            assert!(NeighborSolicitation::parse(&ns[..len]).is_none(), "{len}");
        }
    }

    #[test]
    fn duplicate_address_detection_is_answered_to_all_nodes() {
        let gw: Ipv6Addr = "fd00:1::1".parse().unwrap();
        let ns = solicitation(Ipv6Addr::UNSPECIFIED, gw);
        let na = NeighborSolicitation::parse(&ns).unwrap().advertisement(GW);
        assert_eq!(&na[..6], &[0x33, 0x33, 0, 0, 0, 1]);
        assert_eq!(na[ETH_LEN + IPV6_LEN + 4], 0xa0);
    }
}
