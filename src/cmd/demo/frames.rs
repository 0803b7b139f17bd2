//! The frames the scenarios send (built with `janus-packet`) and the words
//! the demo describes frames and their deliveries with.

use super::*;

// ---------------------------------------------------------------------------
// Frame builders
// ---------------------------------------------------------------------------

pub(super) const PAYLOAD: &[u8] = b"janus demo";

/// An IPv4 packet (identification 1, DF, TTL 64) carrying a TCP or UDP
/// segment with `payload`.
pub(super) fn ipv4(src: Ip4, dst: Ip4, l4: Transport, payload: &[u8]) -> Vec<u8> {
    // The demo's payloads are a few bytes: they always fit.
    janus_packet::ipv4_packet(src, dst, l4, payload).unwrap_or_default()
}

pub(super) const fn udp_ports(src: u16, dst: u16) -> Transport {
    Transport::Udp { src, dst }
}

pub(super) const fn tcp_ports(src: u16, dst: u16) -> Transport {
    Transport::Tcp { src, dst }
}

/// An IPv4 frame.
pub(super) fn ip_frame(dst: Mac, src: Mac, ip: &[u8]) -> Vec<u8> {
    ethernet_frame(dst, src, ether_type::IPV4, ip)
}

/// An IPv4 frame with an 802.1Q tag.
pub(super) fn tagged_ip_frame(dst: Mac, src: Mac, vid: u16, ip: &[u8]) -> Vec<u8> {
    // The demo's VLAN ids are 12 bits.
    janus_packet::tagged_frame(dst, src, vid, ether_type::IPV4, ip).unwrap_or_default()
}

/// A VXLAN header with `vni` followed by `inner`.
pub(super) fn vxlan(vni: u32, inner: &[u8]) -> Vec<u8> {
    // The demo's VNIs are 24 bits.
    janus_packet::vxlan_payload(vni, inner).unwrap_or_default()
}

/// What a remote VTEP sends to this NIC on `uplink`: `inner` in VXLAN.
pub(super) fn from_remote_vtep(uplink: usize, remote: Ip4, vni: u32, inner: &[u8]) -> Vec<u8> {
    let ip = ipv4(
        remote,
        LOCAL_VTEP,
        udp_ports(50123, VXLAN_PORT),
        &vxlan(vni, inner),
    );
    ip_frame(UPLINK_MAC[uplink], TOR_MAC[uplink], &ip)
}

// ---------------------------------------------------------------------------
// Frame decoding, for the printed table
// ---------------------------------------------------------------------------

pub(super) fn be16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes([*b.get(at)?, *b.get(at + 1)?]))
}

/// The VXLAN packet a frame carries, if it does.
pub(super) fn vxlan_of(frame: &[u8]) -> Option<Vxlan<'_>> {
    Frame::parse(frame)?.vxlan()
}

/// `UDP 10.1.0.2:5000 > 10.1.0.3:6000 (dst MAC VF3)` and the like.
pub(super) fn describe(frame: &[u8]) -> String {
    let Some(f) = Frame::parse(frame) else {
        return format!("{} bytes", frame.len());
    };
    let tag = f.vlan.map_or(String::new(), |v| format!("VLAN {v}, "));
    let what = match &f.body {
        Body::Arp(a) => match a.operation {
            1 => format!(
                "ARP who-has {} tell {}",
                ip_text(&a.target.1),
                ip_text(&a.sender.1)
            ),
            2 => format!(
                "ARP {} is-at {}",
                ip_text(&a.sender.1),
                mac_text(&a.sender.0)
            ),
            _ => "ARP".to_string(),
        },
        Body::Ipv4(ip) => {
            let (src, dst) = (ip_text(&ip.src), ip_text(&ip.dst));
            let ports = match ip.ports {
                Some((s, d)) => format!("{src}:{s} > {dst}:{d}"),
                None => format!("{src} > {dst}"),
            };
            match ip.protocol {
                ip_protocol::UDP => match f.vxlan() {
                    Some(v) => format!("VXLAN VNI {} {src} > {dst}", v.vni),
                    None => format!("UDP {ports}"),
                },
                ip_protocol::TCP => format!("TCP {ports}"),
                p => format!("IPv4 protocol {p} {src} > {dst}"),
            }
        }
        Body::Other => format!("EtherType 0x{:04x}", f.ether_type),
    };
    let mut text = format!("{tag}{what} (dst MAC {})", mac_text(&f.dst));
    if let Some(v) = f.vxlan() {
        text.push_str(&format!(" carrying [{}]", describe(v.inner)));
    }
    text
}

/// A frame sent into `port`: the CPU port's frames start with packet_out.
pub(super) fn describe_sent(port: u32, frame: &[u8]) -> String {
    if port == CPU_PORT && frame.len() >= 2 {
        let out = be16(frame, 0).unwrap_or(0) >> 7;
        format!("packet_out(port {out}) + {}", describe(&frame[2..]))
    } else {
        describe(frame)
    }
}

/// The IPv4 TTL of a frame, if it is IPv4.
pub(super) fn ttl(frame: &[u8]) -> Option<u8> {
    Frame::parse(frame)?.ipv4().map(|ip| ip.ttl)
}

/// How `out` (sent on `out_port`) relates to `sent` (sent into `in_port`).
pub(super) fn describe_delivery(
    reasons: &Reasons,
    in_port: u32,
    sent: &[u8],
    out_port: u32,
    out: &[u8],
) -> String {
    // What the tenant frame was when it entered the pipeline.
    let (tenant_frame, came_in) = if in_port == CPU_PORT && sent.len() >= 2 {
        (&sent[2..], "packet_out header removed")
    } else if let Some(v) = vxlan_of(sent).filter(|_| is_uplink(in_port)) {
        (v.inner, "VXLAN removed")
    } else {
        (sent, "")
    };
    let change = |got: &[u8]| -> String {
        if got == tenant_frame {
            "unchanged".to_string()
        } else {
            match (ttl(tenant_frame), ttl(got)) {
                (Some(a), Some(b)) if a != b => format!(
                    "routed: TTL {a} -> {b}, source MAC now {}, destination {}",
                    mac_text(&got[6..12]),
                    mac_text(&got[0..6])
                ),
                _ => "changed".to_string(),
            }
        }
    };
    if out_port == CPU_PORT && out.len() >= 3 {
        let from = be16(out, 0).unwrap_or(0) >> 7;
        let reason = out[2];
        let rest = if out[3..] == *sent {
            "frame unchanged"
        } else {
            "frame changed"
        };
        return format!(
            "packet_in(from port {from}, reason {reason} \"{}\"), {rest}",
            reasons.punt(reason)
        );
    }
    if is_uplink(out_port) {
        if let Some(v) = vxlan_of(out) {
            return format!(
                "VXLAN VNI {}, {} > {}, UDP source port {}; inner frame {}",
                v.vni,
                ip_text(&v.src),
                ip_text(&v.dst),
                v.udp_src_port,
                change(v.inner)
            );
        }
        return format!("not VXLAN: {}", describe(out));
    }
    let what = change(out);
    if came_in.is_empty() {
        what
    } else {
        format!("{came_in}, the frame inside {what}")
    }
}
