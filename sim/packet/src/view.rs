//! Checked views of frames: [`Frame::parse`] slices a frame with
//! etherparse and gives a view only when every header it names is whole
//! (lengths inside the bytes given). The views borrow the frame.

use crate::{Ip4, Mac, VXLAN_FLAGS, VXLAN_HEADER_LEN, VXLAN_PORT, ip_protocol};
use etherparse::{ArpHardwareId, EtherType, LinkSlice, NetSlice, SlicedPacket, TransportSlice};

/// An Ethernet II frame: its addresses, its first 802.1Q tag and what it
/// carries.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    pub dst: Mac,
    pub src: Mac,
    /// The VLAN id of the first 802.1Q tag, if tagged.
    pub vlan: Option<u16>,
    /// The EtherType of what follows the Ethernet header and the tags.
    pub ether_type: u16,
    pub body: Body<'a>,
}

/// What a frame carries, as far as the views go.
#[derive(Clone, Copy, Debug)]
pub enum Body<'a> {
    Arp(Arp),
    Ipv4(Ipv4<'a>),
    /// Anything else (IPv6 included: see [`crate::neighbor`]).
    Other,
}

/// An ARP packet for IPv4 over Ethernet (hardware type 1, protocol
/// 0x0800, address lengths 6 and 4; other ARP packets are [`Body::Other`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arp {
    /// 1 request, 2 reply.
    pub operation: u16,
    pub sender: (Mac, Ip4),
    pub target: (Mac, Ip4),
}

/// An IPv4 packet.
#[derive(Clone, Copy, Debug)]
pub struct Ipv4<'a> {
    pub src: Ip4,
    pub dst: Ip4,
    pub ttl: u8,
    pub protocol: u8,
    /// (source, destination) of a UDP or TCP transport.
    pub ports: Option<(u16, u16)>,
    /// The transport's payload (UDP, TCP), else the IPv4 payload.
    pub payload: &'a [u8],
}

/// A VXLAN packet: IPv4, UDP to [`VXLAN_PORT`], a VXLAN header with the
/// I flag set, and the inner frame.
#[derive(Clone, Copy, Debug)]
pub struct Vxlan<'a> {
    pub vni: u32,
    /// The outer IPv4 source and destination (the VTEPs).
    pub src: Ip4,
    pub dst: Ip4,
    /// The outer UDP source port (the flow's entropy, RFC 7348 §5).
    pub udp_src_port: u16,
    pub inner: &'a [u8],
}

fn mac(b: &[u8]) -> Option<Mac> {
    b.try_into().ok()
}

fn ip4(b: &[u8]) -> Option<Ip4> {
    b.try_into().ok()
}

impl<'a> Frame<'a> {
    /// The view of `bytes` as an Ethernet II frame; `None` when it is not
    /// one or a header it carries is cut short.
    pub fn parse(bytes: &'a [u8]) -> Option<Frame<'a>> {
        let sliced = SlicedPacket::from_ethernet(bytes).ok()?;
        let Some(LinkSlice::Ethernet2(eth)) = &sliced.link else {
            return None;
        };
        let ether_type = sliced.ether_payload()?.ether_type.0;
        let body = match &sliced.net {
            Some(NetSlice::Arp(a)) => {
                let ethernet_ipv4 = a.hw_addr_type() == ArpHardwareId::ETHERNET
                    && a.proto_addr_type() == EtherType::IPV4
                    && a.hw_addr_size() == 6
                    && a.proto_addr_size() == 4;
                if ethernet_ipv4 {
                    Body::Arp(Arp {
                        operation: a.operation().0,
                        sender: (mac(a.sender_hw_addr())?, ip4(a.sender_protocol_addr())?),
                        target: (mac(a.target_hw_addr())?, ip4(a.target_protocol_addr())?),
                    })
                } else {
                    Body::Other
                }
            }
            Some(NetSlice::Ipv4(ip)) => {
                let h = ip.header();
                let (ports, payload) = match &sliced.transport {
                    Some(TransportSlice::Udp(u)) => {
                        (Some((u.source_port(), u.destination_port())), u.payload())
                    }
                    Some(TransportSlice::Tcp(t)) => {
                        (Some((t.source_port(), t.destination_port())), t.payload())
                    }
                    _ => (None, ip.payload().payload),
                };
                Body::Ipv4(Ipv4 {
                    src: h.source(),
                    dst: h.destination(),
                    ttl: h.ttl(),
                    protocol: h.protocol().0,
                    ports,
                    payload,
                })
            }
            _ => Body::Other,
        };
        Some(Frame {
            dst: eth.destination(),
            src: eth.source(),
            vlan: sliced.vlan_ids().first().map(|v| v.value()),
            ether_type,
            body,
        })
    }

    /// The IPv4 packet the frame carries, if it does.
    pub fn ipv4(&self) -> Option<&Ipv4<'a>> {
        match &self.body {
            Body::Ipv4(ip) => Some(ip),
            _ => None,
        }
    }

    /// The VXLAN packet the frame carries, if it does.
    pub fn vxlan(&self) -> Option<Vxlan<'a>> {
        let ip = self.ipv4()?;
        let (udp_src_port, dst_port) = ip.ports?;
        if ip.protocol != ip_protocol::UDP || dst_port != VXLAN_PORT {
            return None;
        }
        let header = ip.payload.get(..VXLAN_HEADER_LEN)?;
        if header[0] & VXLAN_FLAGS == 0 {
            return None;
        }
        let vni = u32::from_be_bytes([header[4], header[5], header[6], header[7]]) >> 8;
        Some(Vxlan {
            vni,
            src: ip.src,
            dst: ip.dst,
            udp_src_port,
            inner: &ip.payload[VXLAN_HEADER_LEN..],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::*;
    use janus_wire::checksum::{Checksum, internet_checksum};
    use proptest::prelude::*;

    const A: Mac = [2, 0, 0, 0, 0, 1];
    const B: Mac = [2, 0, 0, 0, 0, 2];
    const IP_A: Ip4 = [10, 0, 0, 1];
    const IP_B: Ip4 = [10, 0, 0, 2];

    /// The transport checksum over the IPv4 pseudo-header: 0 when the
    /// checksum in `segment` is right.
    fn pseudo_sum(ip: &[u8]) -> u16 {
        let segment = &ip[20..];
        Checksum::new()
            .add(&ip[12..20])
            .add(&[0, ip[9]])
            .add_u16(segment.len() as u16)
            .add(segment)
            .finish()
    }

    #[test]
    fn ipv4_packets_carry_their_lengths_and_checksums() {
        for t in [
            Transport::Udp {
                src: 5000,
                dst: 6000,
            },
            Transport::Tcp { src: 5000, dst: 22 },
        ] {
            let ip = ipv4_packet(IP_A, IP_B, t, b"payload").unwrap();
            assert_eq!(&ip[..2], &[0x45, 0]);
            assert_eq!(usize::from(u16::from_be_bytes([ip[2], ip[3]])), ip.len());
            // Identification 1, don't-fragment, TTL 64.
            assert_eq!(&ip[4..9], &[0, 1, 0x40, 0, 64]);
            assert_eq!(internet_checksum(&ip[..20]), 0);
            assert_eq!(pseudo_sum(&ip), 0);
            match t {
                Transport::Udp { .. } => assert_eq!(ip[9], ip_protocol::UDP),
                Transport::Tcp { .. } => {
                    assert_eq!(ip[9], ip_protocol::TCP);
                    // Sequence 1, acknowledgement 1, 20 bytes, PSH ACK, window 65535.
                    assert_eq!(
                        &ip[24..36],
                        &[0, 0, 0, 1, 0, 0, 0, 1, 0x50, 0x18, 0xff, 0xff]
                    );
                }
            }
        }
        let huge = vec![0; 70_000];
        assert!(ipv4_packet(IP_A, IP_B, Transport::Udp { src: 1, dst: 2 }, &huge).is_err());
    }

    #[test]
    fn frames_read_back_as_they_were_built() {
        let ip = ipv4_packet(IP_A, IP_B, Transport::Udp { src: 7, dst: 9 }, b"hi").unwrap();
        let tagged = tagged_frame(B, A, 42, crate::ether_type::IPV4, &ip).unwrap();
        let f = Frame::parse(&tagged).unwrap();
        assert_eq!(
            (f.dst, f.src, f.vlan, f.ether_type),
            (B, A, Some(42), 0x0800)
        );
        let v4 = f.ipv4().unwrap();
        assert_eq!(
            (v4.src, v4.dst, v4.ttl, v4.ports, v4.payload),
            (IP_A, IP_B, 64, Some((7, 9)), &b"hi"[..])
        );
        assert!(tagged_frame(B, A, 4096, 0x0800, &ip).is_err());

        let arp = arp_frame([0xff; 6], A, ArpOp::Request, (A, IP_A), ([0; 6], IP_B));
        match Frame::parse(&arp).unwrap().body {
            Body::Arp(a) => assert_eq!(
                a,
                Arp {
                    operation: 1,
                    sender: (A, IP_A),
                    target: ([0; 6], IP_B)
                }
            ),
            other => panic!("{other:?}"),
        }
        for len in 0..arp.len() {
            assert!(
                !matches!(
                    Frame::parse(&arp[..len]).map(|f| f.body),
                    Some(Body::Arp(_))
                ),
                "{len}"
            );
        }
    }

    #[test]
    fn vxlan_frames_give_their_vni_and_inner_frame() {
        let inner = ethernet_frame(
            B,
            A,
            0x0800,
            &ipv4_packet(IP_A, IP_B, Transport::Tcp { src: 1, dst: 2 }, b"x").unwrap(),
        );
        let udp = vxlan_payload(0x123456, &inner).unwrap();
        let outer = ipv4_packet(
            [192, 168, 0, 1],
            [192, 168, 0, 2],
            Transport::Udp {
                src: 50000,
                dst: crate::VXLAN_PORT,
            },
            &udp,
        )
        .unwrap();
        let frame = ethernet_frame(A, B, 0x0800, &outer);
        let v = Frame::parse(&frame).unwrap().vxlan().unwrap();
        assert_eq!(
            (v.vni, v.src, v.dst, v.udp_src_port, v.inner),
            (
                0x123456,
                [192, 168, 0, 1],
                [192, 168, 0, 2],
                50000,
                &inner[..]
            )
        );
        assert!(vxlan_payload(1 << 24, &inner).is_err());
        // Without the I flag, or to another port: no VXLAN.
        let mut no_flag = udp.clone();
        no_flag[0] = 0;
        let outer = ipv4_packet(
            IP_A,
            IP_B,
            Transport::Udp {
                src: 1,
                dst: crate::VXLAN_PORT,
            },
            &no_flag,
        )
        .unwrap();
        assert!(
            Frame::parse(&ethernet_frame(A, B, 0x0800, &outer))
                .unwrap()
                .vxlan()
                .is_none()
        );
        let outer = ipv4_packet(IP_A, IP_B, Transport::Udp { src: 1, dst: 4790 }, &udp).unwrap();
        assert!(
            Frame::parse(&ethernet_frame(A, B, 0x0800, &outer))
                .unwrap()
                .vxlan()
                .is_none()
        );
    }

    proptest! {
        #[test]
        fn any_udp_payload_round_trips(payload in proptest::collection::vec(any::<u8>(), 0..1500), src: u16, dst: u16, vid in 0u16..4096) {
            let ip = ipv4_packet(IP_A, IP_B, Transport::Udp { src, dst }, &payload).unwrap();
            prop_assert_eq!(pseudo_sum(&ip), 0);
            let frame = tagged_frame(B, A, vid, 0x0800, &ip).unwrap();
            let f = Frame::parse(&frame).unwrap();
            prop_assert_eq!(f.vlan, Some(vid));
            let v4 = f.ipv4().unwrap();
            prop_assert_eq!(v4.ports, Some((src, dst)));
            prop_assert_eq!(v4.payload, &payload[..]);
        }

        #[test]
        fn no_bytes_make_the_view_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            if let Some(f) = Frame::parse(&bytes) {
                let _ = f.vxlan();
            }
            let _ = crate::neighbor::ArpRequest::parse(&bytes);
            let _ = crate::neighbor::NeighborSolicitation::parse(&bytes);
        }
    }
}
