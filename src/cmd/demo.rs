//! `janus demo`: the main job a newcomer runs first.
//!
//! It starts a P4Runtime server in-process (127.0.0.1:0), pushes
//! `p4/sdn.p4` (the multi-tenant overlay, docs/nic-model.md) to it over
//! gRPC as a client, and writes the table entries of
//! `p4/demo/sdn_demo.entries` (two tenants with two VFs each, a management
//! network, two remote VTEPs): the tenants through the mapping `janus ctrl
//! tenant add` uses, the rest from the file. It sends a scripted mix of
//! frames through the server's switch (traffic
//! inside a tenant, attempts to cross tenants, spoofing, management access,
//! ARP for the gateway) and prints what happened to each: the port it left
//! by, or the drop reason the program's `drops` counters recorded. Then the
//! per-tenant and per-VF counters (read over P4Runtime), and one pcap per
//! port.
//!
//! Nothing printed is written in advance: every fate comes from running the
//! frame. Each scenario also states the fate it expects; the demo exits 1
//! and names the scenarios whose fate differed, so it doubles as a
//! self-check (exit 2: the program, entries or output folder could not be
//! used).

use super::ctrl_client::session;
use super::ctrl_client::{insert_entries, read_counter};
use clap::Args;
use janus_ctrl::client::entries::EntrySpec;
use janus_ctrl::client::schema::Schema;
use janus_ctrl::client::tenant::{Gateway, Remote, TenantSpec, Tunnel, Vf};
use janus_ctrl::client::{Client, ClientConfig};
use janus_ctrl::listen::serve;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::server::{P4RuntimeService, SwitchHandle};
use janus_engine::target::Target;
use janus_nic::ports::{CPU_PORT, is_uplink, is_vf};
use janus_p4::driver::{Compilation, Options, compile_file};
use janus_packet::{
    ArpOp, Body, Frame, Transport, VXLAN_PORT, Vxlan, arp_frame, ether_type, ethernet_frame,
    ip_protocol,
};
use janus_pcap::{Writer, WriterConfig};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct DemoArgs {
    /// Where the captures go: `in-portN.pcap` (frames the demo sent into
    /// port N) and `portN.pcap` (frames the NIC sent out of port N).
    #[arg(long, value_name = "DIR", default_value = "target/janus-demo")]
    pub out_dir: PathBuf,
    /// Run the tenant scenario over real network namespaces, TAP devices
    /// and processes instead (needs root; docs/host-interface.md).
    #[arg(long)]
    pub real: bool,
}

/// The table entries, as STF control-plane commands (`janus sim run
/// --entries` reads the same file).
const ENTRIES: &str = include_str!("../../p4/demo/sdn_demo.entries");
const ENTRIES_PATH: &str = "p4/demo/sdn_demo.entries";
const PROGRAM_PATH: &str = "p4/sdn.p4";

/// Capture time of scenario `i`: 2026-01-01 00:00:00 UTC + `i` seconds, so
/// that `janus sim run` replays the inputs in the demo's order.
const FIRST_TIMESTAMP_NS: u64 = 1_767_225_600 * 1_000_000_000;

// ---------------------------------------------------------------------------
// The topology (the same as the comments of p4/demo/sdn_demo.entries)
// ---------------------------------------------------------------------------

type Mac = [u8; 6];
type Ip4 = [u8; 4];

struct Tenant {
    name: &'static str,
    id: usize,
    vni: u32,
}

const TENANT_A: Tenant = Tenant {
    name: "A",
    id: 1,
    vni: 1001,
};
const TENANT_B: Tenant = Tenant {
    name: "B",
    id: 2,
    vni: 2002,
};
const TENANTS: [&Tenant; 2] = [&TENANT_A, &TENANT_B];

/// VF ports and their tenants (VF6 has none).
const VFS: [(u32, Option<&Tenant>); 5] = [
    (2, Some(&TENANT_A)),
    (3, Some(&TENANT_A)),
    (4, Some(&TENANT_B)),
    (5, Some(&TENANT_B)),
    (6, None),
];

const A_GW_MAC: Mac = [2, 0, 0, 0, 1, 1];
const VF2_MAC: Mac = [2, 0, 0, 0, 1, 2];
const VF3_MAC: Mac = [2, 0, 0, 0, 1, 3];
const A_REMOTE_MAC: Mac = [2, 0, 0, 0, 1, 0x20];
const B_GW_MAC: Mac = [2, 0, 0, 0, 2, 1];
const VF4_MAC: Mac = [2, 0, 0, 0, 2, 4];
const VF5_MAC: Mac = [2, 0, 0, 0, 2, 5];
const B_REMOTE_MAC: Mac = [2, 0, 0, 0, 2, 0x20];
const VF6_MAC: Mac = [2, 0, 0, 0, 6, 6];
const UPLINK_MAC: [Mac; 2] = [[2, 0xaa, 0, 0, 0, 0], [2, 0xaa, 0, 0, 0, 1]];
const TOR_MAC: [Mac; 2] = [[2, 0xbb, 0, 0, 0, 0], [2, 0xbb, 0, 0, 0, 1]];
const BROADCAST: Mac = [0xff; 6];

const A_GW_IP: Ip4 = [10, 1, 0, 1];
const VF2_IP: Ip4 = [10, 1, 0, 2];
const VF3_IP: Ip4 = [10, 1, 0, 3];
const A_REMOTE_IP: Ip4 = [10, 1, 8, 20];
const B_GW_IP: Ip4 = [10, 2, 0, 1];
const VF4_IP: Ip4 = [10, 2, 0, 4];
const VF5_IP: Ip4 = [10, 2, 0, 5];
const B_REMOTE_IP: Ip4 = [10, 2, 8, 20];
const VF6_IP: Ip4 = [10, 6, 0, 6];
const LOCAL_VTEP: Ip4 = [192, 168, 0, 1];
const VTEP_A: Ip4 = [192, 168, 0, 20];
const VTEP_B: Ip4 = [192, 168, 0, 21];
const MGMT_NIC_IP: Ip4 = [172, 16, 0, 1];
const MGMT_OPERATOR_IP: Ip4 = [172, 16, 5, 5];
const UNDERLAY_HOST_IP: Ip4 = [192, 168, 7, 7];

/// Names for the MACs the demo uses, for the printed frames.
const MAC_NAMES: [(Mac, &str); 14] = [
    (A_GW_MAC, "A's gateway"),
    (VF2_MAC, "VF2"),
    (VF3_MAC, "VF3"),
    (A_REMOTE_MAC, "A's remote VM"),
    (B_GW_MAC, "B's gateway"),
    (VF4_MAC, "VF4"),
    (VF5_MAC, "VF5"),
    (B_REMOTE_MAC, "B's remote VM"),
    (VF6_MAC, "VF6"),
    (UPLINK_MAC[0], "uplink 0"),
    (UPLINK_MAC[1], "uplink 1"),
    (TOR_MAC[0], "ToR 0"),
    (TOR_MAC[1], "ToR 1"),
    (BROADCAST, "broadcast"),
];

/// Drop reasons of p4/sdn.p4 (`DROP_*`), index = reason.
const DROP_REASONS: [&str; 20] = [
    "",
    "bad IPv4 checksum",
    "unknown VF",
    "spoofed source",
    "VF to management network",
    "VF to CPU port",
    "over the VF's rate (meter RED)",
    "not overlay traffic",
    "unknown VNI",
    "security group",
    "L2 miss (no MAC entry in the tenant)",
    "no route in the tenant's VRF",
    "TTL expired",
    "IPv4 options",
    "no tunnel",
    "hairpin (uplink to uplink)",
    "bad output port",
    "bad packet_out",
    "tenant mismatch (egress owner check)",
    "no VTEP source",
];
/// Size of the `drops` counter arrays (`DROP_REASON_COUNT`).
const DROP_SLOTS: usize = 32;

/// packet_in reasons (janus_nic.p4 `NIC_PUNT_*`).
fn punt_reason(r: u8) -> &'static str {
    match r {
        1 => "ARP for the gateway",
        2 => "neighbor discovery for the gateway",
        3 => "management traffic",
        _ => "unknown reason",
    }
}

fn drop_reason(r: usize) -> &'static str {
    DROP_REASONS.get(r).copied().unwrap_or("unknown reason")
}

fn tenant_of(port: u32) -> Option<&'static Tenant> {
    VFS.iter().find(|(p, _)| *p == port).and_then(|(_, t)| *t)
}

/// `port 3 (VF3, tenant A)`, `port 0 (uplink 0)`, `port 510 (CPU)`.
fn port_label(port: u32) -> String {
    if is_uplink(port) {
        format!("port {port} (uplink {port})")
    } else if port == CPU_PORT {
        format!("port {port} (CPU)")
    } else if is_vf(port) {
        match tenant_of(port) {
            Some(t) => format!("port {port} (VF{port}, tenant {})", t.name),
            None => format!("port {port} (VF{port}, no tenant)"),
        }
    } else {
        format!("port {port}")
    }
}

fn mac_text(m: &[u8]) -> String {
    match MAC_NAMES.iter().find(|(mac, _)| mac[..] == *m) {
        Some((_, name)) => (*name).to_string(),
        None => m
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(":"),
    }
}

fn ip_text(ip: &[u8]) -> String {
    format!("{}.{}.{}.{}", ip[0], ip[1], ip[2], ip[3])
}

// ---------------------------------------------------------------------------
// Frame builders
// ---------------------------------------------------------------------------

const PAYLOAD: &[u8] = b"janus demo";

/// An IPv4 packet (identification 1, DF, TTL 64) carrying a TCP or UDP
/// segment with `payload`.
fn ipv4(src: Ip4, dst: Ip4, l4: Transport, payload: &[u8]) -> Vec<u8> {
    // The demo's payloads are a few bytes: they always fit.
    janus_packet::ipv4_packet(src, dst, l4, payload).unwrap_or_default()
}

const fn udp_ports(src: u16, dst: u16) -> Transport {
    Transport::Udp { src, dst }
}

const fn tcp_ports(src: u16, dst: u16) -> Transport {
    Transport::Tcp { src, dst }
}

/// An IPv4 frame.
fn ip_frame(dst: Mac, src: Mac, ip: &[u8]) -> Vec<u8> {
    ethernet_frame(dst, src, ether_type::IPV4, ip)
}

/// An IPv4 frame with an 802.1Q tag.
fn tagged_ip_frame(dst: Mac, src: Mac, vid: u16, ip: &[u8]) -> Vec<u8> {
    // The demo's VLAN ids are 12 bits.
    janus_packet::tagged_frame(dst, src, vid, ether_type::IPV4, ip).unwrap_or_default()
}

/// A VXLAN header with `vni` followed by `inner`.
fn vxlan(vni: u32, inner: &[u8]) -> Vec<u8> {
    // The demo's VNIs are 24 bits.
    janus_packet::vxlan_payload(vni, inner).unwrap_or_default()
}

/// What a remote VTEP sends to this NIC on `uplink`: `inner` in VXLAN.
fn from_remote_vtep(uplink: usize, remote: Ip4, vni: u32, inner: &[u8]) -> Vec<u8> {
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

fn be16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes([*b.get(at)?, *b.get(at + 1)?]))
}

/// The VXLAN packet a frame carries, if it does.
fn vxlan_of(frame: &[u8]) -> Option<Vxlan<'_>> {
    Frame::parse(frame)?.vxlan()
}

/// `UDP 10.1.0.2:5000 > 10.1.0.3:6000 (dst MAC VF3)` and the like.
fn describe(frame: &[u8]) -> String {
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
fn describe_sent(port: u32, frame: &[u8]) -> String {
    if port == CPU_PORT && frame.len() >= 2 {
        let out = be16(frame, 0).unwrap_or(0) >> 7;
        format!("packet_out(port {out}) + {}", describe(&frame[2..]))
    } else {
        describe(frame)
    }
}

/// The IPv4 TTL of a frame, if it is IPv4.
fn ttl(frame: &[u8]) -> Option<u8> {
    Frame::parse(frame)?.ipv4().map(|ip| ip.ttl)
}

/// How `out` (sent on `out_port`) relates to `sent` (sent into `in_port`).
fn describe_delivery(in_port: u32, sent: &[u8], out_port: u32, out: &[u8]) -> String {
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
            punt_reason(reason)
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

// ---------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------

/// The fate a scenario expects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Delivered, unencapsulated, on this port.
    To(u32),
    /// Encapsulated in VXLAN with this VNI, out of this uplink.
    Vxlan { uplink: u32, vni: u32 },
    /// Sent to the CPU port with this packet_in reason.
    Cpu(u8),
    /// Dropped in ingress, counted under this reason.
    Drop(usize),
    /// Dropped in egress, counted under this reason.
    EgressDrop(usize),
}

impl Expect {
    fn text(self) -> String {
        match self {
            Expect::To(p) => format!("delivered to {}", port_label(p)),
            Expect::Vxlan { uplink, vni } => {
                format!("VXLAN VNI {vni} out of {}", port_label(uplink))
            }
            Expect::Cpu(r) => format!("to the CPU, packet_in reason {r} ({})", punt_reason(r)),
            Expect::Drop(r) => format!("dropped in ingress, reason {r} ({})", drop_reason(r)),
            Expect::EgressDrop(r) => format!("dropped in egress, reason {r} ({})", drop_reason(r)),
        }
    }
}

struct Scenario {
    section: &'static str,
    /// What the scenario sends and what it shows.
    what: &'static str,
    port: u32,
    frame: Vec<u8>,
    expect: Expect,
}

fn scenarios() -> Vec<Scenario> {
    let udp = |src: Ip4, dst: Ip4| ipv4(src, dst, udp_ports(5000, 6000), PAYLOAD);
    let tcp = |src: Ip4, dst: Ip4, dport: u16| ipv4(src, dst, tcp_ports(40000, dport), PAYLOAD);
    let inside = "Traffic inside a tenant";
    let across = "Attempts to cross tenants";
    let spoof = "Spoofing";
    let mgmt = "The management network";
    let cpu = "The gateway and the CPU port";
    let mut packet_out = vec![0x01, 0x00]; // egress port 2 << 7
    packet_out.extend(arp_frame(
        VF2_MAC,
        A_GW_MAC,
        ArpOp::Reply,
        (A_GW_MAC, A_GW_IP),
        (VF2_MAC, VF2_IP),
    ));
    vec![
        Scenario {
            section: inside,
            what: "tenant A VF2 -> VF3, same subnet: bridged on the NIC, never on the wire",
            port: 2,
            frame: ip_frame(VF3_MAC, VF2_MAC, &udp(VF2_IP, VF3_IP)),
            expect: Expect::To(3),
        },
        Scenario {
            section: inside,
            what: "tenant A VF2 -> 10.1.8.20, A's VM on another server: routed by the \
                   gateway into a VXLAN tunnel (VNI 1001) toward VTEP 192.168.0.20",
            port: 2,
            frame: ip_frame(A_GW_MAC, VF2_MAC, &tcp(VF2_IP, A_REMOTE_IP, 443)),
            expect: Expect::Vxlan {
                uplink: 0,
                vni: TENANT_A.vni,
            },
        },
        Scenario {
            section: inside,
            what: "tenant B VF4 -> VF5, HTTP: bridged",
            port: 4,
            frame: ip_frame(VF5_MAC, VF4_MAC, &tcp(VF4_IP, VF5_IP, 80)),
            expect: Expect::To(5),
        },
        Scenario {
            section: inside,
            what: "tenant B's VM on another server (10.2.8.20) -> VF5: arrives as VXLAN \
                   VNI 2002 on uplink 1, decapsulated and bridged to VF5",
            port: 1,
            frame: from_remote_vtep(
                1,
                VTEP_B,
                TENANT_B.vni,
                &ip_frame(
                    VF5_MAC,
                    B_REMOTE_MAC,
                    &ipv4(B_REMOTE_IP, VF5_IP, udp_ports(53, 40002), PAYLOAD),
                ),
            ),
            expect: Expect::To(5),
        },
        Scenario {
            section: inside,
            what: "tenant B VF5 -> VF4, telnet (TCP 23): tenant B's security group denies it",
            port: 5,
            frame: ip_frame(VF4_MAC, VF5_MAC, &tcp(VF5_IP, VF4_IP, 23)),
            expect: Expect::Drop(9),
        },
        Scenario {
            section: across,
            what: "tenant A VF2 -> tenant B VF4's MAC: B's MACs are not in A's MAC table",
            port: 2,
            frame: ip_frame(VF4_MAC, VF2_MAC, &udp(VF2_IP, VF4_IP)),
            expect: Expect::Drop(10),
        },
        Scenario {
            section: across,
            what: "tenant A VF2 -> tenant B VF4 with a forged VNI: VF2 wraps a frame for \
                   VF4 in its own VXLAN header (B's VNI 2002) and sends it to this NIC's \
                   VTEP 192.168.0.1. A VF's VXLAN header is only payload: it is routed in \
                   A's VRF, which has no route to 192.168.0.1",
            port: 2,
            frame: ip_frame(
                A_GW_MAC,
                VF2_MAC,
                &ipv4(
                    VF2_IP,
                    LOCAL_VTEP,
                    udp_ports(50000, 4789),
                    &vxlan(
                        TENANT_B.vni,
                        &ip_frame(VF4_MAC, B_REMOTE_MAC, &udp(B_REMOTE_IP, VF4_IP)),
                    ),
                ),
            ),
            expect: Expect::Drop(11),
        },
        Scenario {
            section: across,
            what: "tenant B VF5 -> 10.1.0.2 (tenant A's VF2) through B's gateway: B's VRF \
                   has no route to A",
            port: 5,
            frame: ip_frame(B_GW_MAC, VF5_MAC, &udp(VF5_IP, VF2_IP)),
            expect: Expect::Drop(11),
        },
        Scenario {
            section: across,
            what: "the network -> tenant B VF4 inside tenant A's VNI 1001 (forged VNI from \
                   a remote VTEP): VF4's MAC is not in A's MAC table",
            port: 0,
            frame: from_remote_vtep(
                0,
                VTEP_A,
                TENANT_A.vni,
                &ip_frame(VF4_MAC, A_REMOTE_MAC, &udp(A_REMOTE_IP, VF4_IP)),
            ),
            expect: Expect::Drop(10),
        },
        Scenario {
            section: across,
            what: "a host on the physical network -> VF2 (10.1.0.2) without VXLAN: only \
                   overlay traffic to this NIC's VTEP is accepted from the uplinks",
            port: 0,
            frame: ip_frame(UPLINK_MAC[0], TOR_MAC[0], &udp(UNDERLAY_HOST_IP, VF2_IP)),
            expect: Expect::Drop(7),
        },
        Scenario {
            section: across,
            what: "an operator mistake: A's VRF routes 10.2.0.0/24 to VF4, which is B's \
                   (a deliberately wrong entry in the demo's config). VF2 -> 10.2.0.4 \
                   is routed there, and the egress owner check (vf_owners) drops it",
            port: 2,
            frame: ip_frame(A_GW_MAC, VF2_MAC, &udp(VF2_IP, VF4_IP)),
            expect: Expect::EgressDrop(18),
        },
        Scenario {
            section: across,
            what: "VF6, assigned to no tenant, -> VF2",
            port: 6,
            frame: ip_frame(VF2_MAC, VF6_MAC, &udp(VF6_IP, VF2_IP)),
            expect: Expect::Drop(2),
        },
        Scenario {
            section: spoof,
            what: "tenant A VF3 poses as VF2 (VF2's MAC and IPv4 address) toward A's \
                   remote VM",
            port: 3,
            frame: ip_frame(A_GW_MAC, VF2_MAC, &udp(VF2_IP, A_REMOTE_IP)),
            expect: Expect::Drop(3),
        },
        Scenario {
            section: spoof,
            what: "tenant A VF3 sends from tenant B's address 10.2.0.4 (with its own MAC)",
            port: 3,
            frame: ip_frame(A_GW_MAC, VF3_MAC, &udp(VF4_IP, A_REMOTE_IP)),
            expect: Expect::Drop(3),
        },
        Scenario {
            section: spoof,
            what: "ARP poisoning: tenant A VF3 announces \"10.1.0.1 (the gateway) is at \
                   VF3's MAC\" (gratuitous ARP)",
            port: 3,
            frame: arp_frame(
                BROADCAST,
                VF3_MAC,
                ArpOp::Reply,
                (VF3_MAC, A_GW_IP),
                (BROADCAST, A_GW_IP),
            ),
            expect: Expect::Drop(3),
        },
        Scenario {
            section: mgmt,
            what: "tenant A VF2 -> 172.16.0.1 (the management network), SSH through the \
                   gateway",
            port: 2,
            frame: ip_frame(A_GW_MAC, VF2_MAC, &tcp(VF2_IP, MGMT_NIC_IP, 22)),
            expect: Expect::Drop(4),
        },
        Scenario {
            section: mgmt,
            what: "tenant A VF2 -> VF3 tagged with the management VLAN 100",
            port: 2,
            frame: tagged_ip_frame(VF3_MAC, VF2_MAC, 100, &udp(VF2_IP, VF3_IP)),
            expect: Expect::Drop(4),
        },
        Scenario {
            section: mgmt,
            what: "an operator (172.16.5.5) -> the NIC's management address 172.16.0.1, \
                   SSH, on uplink 0: handed to the CPU port with packet_in, never to a VF",
            port: 0,
            frame: ip_frame(
                UPLINK_MAC[0],
                TOR_MAC[0],
                &tcp(MGMT_OPERATOR_IP, MGMT_NIC_IP, 22),
            ),
            expect: Expect::Cpu(3),
        },
        Scenario {
            section: cpu,
            what: "tenant A VF2 asks \"who has 10.1.0.1?\" (its gateway): punted to the \
                   CPU, which answers for the gateway",
            port: 2,
            frame: arp_frame(
                BROADCAST,
                VF2_MAC,
                ArpOp::Request,
                (VF2_MAC, VF2_IP),
                ([0; 6], A_GW_IP),
            ),
            expect: Expect::Cpu(1),
        },
        Scenario {
            section: cpu,
            what: "the CPU's answer, as a packet_out naming port 2: \"10.1.0.1 is at \
                   02:00:00:00:01:01\" reaches VF2",
            port: CPU_PORT,
            frame: packet_out,
            expect: Expect::To(2),
        },
        Scenario {
            section: cpu,
            what: "tenant B VF4 asks \"who has 10.2.0.1?\": B's gateway, punted too",
            port: 4,
            frame: arp_frame(
                BROADCAST,
                VF4_MAC,
                ArpOp::Request,
                (VF4_MAC, VF4_IP),
                ([0; 6], B_GW_IP),
            ),
            expect: Expect::Cpu(1),
        },
    ]
}

// ---------------------------------------------------------------------------
// The control plane: a P4Runtime server in this process, driven over gRPC
// ---------------------------------------------------------------------------

/// The counters the demo reads after the run (and requires of the program).
const COUNTERS: [&str; 6] = [
    "SdnIngress.drops",
    "SdnEgress.drops",
    "SdnIngress.tenant_packets",
    "SdnIngress.vf_rx",
    "SdnEgress.vf_tx",
    "SdnIngress.vf_drops",
];

/// The tenants as `janus ctrl tenant add` takes them; their entries come
/// from [`TenantSpec::entries`], the mapping the command line uses.
fn tenant_specs() -> [TenantSpec; 2] {
    let vf = |port, mac, ip: Ip4| Vf {
        port,
        mac,
        ipv4: ip.into(),
    };
    let tenant = |t: &Tenant, gw: (Mac, Ip4, [u16; 8]), vfs, tunnel: (u32, Ip4), remote: Mac| {
        let uplink = tunnel.0 - 1;
        TenantSpec {
            id: t.id as u32,
            vni: t.vni,
            gateway: Some(Gateway {
                mac: gw.0,
                ipv4: gw.1.into(),
                ipv6: gw.2.into(),
            }),
            vfs,
            tunnels: vec![Tunnel {
                id: tunnel.0,
                remote_vtep: tunnel.1.into(),
                underlay_mac: TOR_MAC[uplink as usize],
                uplink,
            }],
            remotes: vec![Remote {
                prefix: [10, t.id as u8, 8, 0].into(),
                len: 24,
                tunnel: tunnel.0,
                next_mac: remote,
            }],
        }
    };
    [
        tenant(
            &TENANT_A,
            (A_GW_MAC, A_GW_IP, [0xfd01, 0, 0, 0, 0, 0, 0, 1]),
            vec![vf(2, VF2_MAC, VF2_IP), vf(3, VF3_MAC, VF3_IP)],
            (1, VTEP_A),
            A_REMOTE_MAC,
        ),
        tenant(
            &TENANT_B,
            (B_GW_MAC, B_GW_IP, [0xfd02, 0, 0, 0, 0, 0, 0, 1]),
            vec![vf(4, VF4_MAC, VF4_IP), vf(5, VF5_MAC, VF5_IP)],
            (2, VTEP_B),
            B_REMOTE_MAC,
        ),
    ]
}

/// The compiled program as a pipeline config: its pipeline file and P4Info.
fn pipeline_config(c: &Compilation) -> Result<p4::ForwardingPipelineConfig, String> {
    let program = c
        .program()
        .ok_or_else(|| format!("{PROGRAM_PATH} does not compile"))?;
    Ok(p4::ForwardingPipelineConfig {
        p4info: Some(janus_ctrl::p4info::to_proto(&janus_p4::p4info::build(
            program,
        ))),
        p4_device_config: janus_p4::pipeline::Pipeline::from_compilation(c).to_bytes(),
        cookie: None,
    })
}

/// Runs `f` on the server's switch.
fn on_switch<R>(h: &SwitchHandle, f: impl FnOnce(&mut dyn Target) -> R) -> Result<R, String> {
    h.with_switch(|sw| sw.map(f))
        .ok_or_else(|| "the P4Runtime server has no pipeline".to_string())
}

/// How many entries [`Plane::configure`] wrote.
struct Written {
    /// Through the tenant mapping.
    tenants: usize,
    /// The entries file's other lines.
    others: usize,
}

/// The P4Runtime server (in this process) and the demo's client of it,
/// primary.
struct Plane {
    addr: std::net::SocketAddr,
    switch: SwitchHandle,
    client: Client,
    schema: Schema,
    /// Stops the server when dropped.
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Plane {
    /// Starts the server on 127.0.0.1:0, connects, becomes primary and
    /// pushes `config`.
    async fn start(config: p4::ForwardingPipelineConfig) -> Result<Plane, String> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let service = P4RuntimeService::new(1);
        let switch = service.switch_handle();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            let shutdown = async {
                let _ = stopped.await;
            };
            if let Err(e) = serve(service, listener, shutdown).await {
                tracing::error!("the demo's P4Runtime server stopped: {e}");
            }
        });
        let mut client = Client::connect(ClientConfig::new(addr.to_string()))
            .await
            .map_err(|e| e.to_string())?;
        session::become_primary(&mut client)
            .await
            .map_err(|e| e.to_string())?;
        client
            .set_pipeline(
                p4::set_forwarding_pipeline_config_request::Action::VerifyAndCommit,
                config,
            )
            .await
            .map_err(|e| e.to_string())?;
        let schema = session::schema(&mut client)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Plane {
            addr,
            switch,
            client,
            schema,
            _stop: stop,
        })
    }

    /// Writes the tenants' entries (the tenant mapping) and then the
    /// entries file's other lines. The file also holds the tenants' entries
    /// (`janus sim run --entries` replays the demo from it): they must be
    /// exactly the mapping's, or the demo stops.
    async fn configure(&mut self) -> Result<Written, String> {
        let tenants: Vec<EntrySpec> = tenant_specs().iter().flat_map(|t| t.entries()).collect();
        let file =
            EntrySpec::from_entries_file(ENTRIES, ENTRIES_PATH).map_err(|e| e.to_string())?;
        let resolve = |s: &EntrySpec| {
            s.resolve(&self.schema)
                .map_err(|e| format!("{}: {e}", s.label()))
        };
        let mapped = tenants.iter().map(resolve).collect::<Result<Vec<_>, _>>()?;
        let mut found = vec![false; mapped.len()];
        let mut others = Vec::new();
        for spec in &file {
            let e = resolve(spec)?;
            let same_key = |m: &p4::TableEntry| {
                m.table_id == e.table_id && m.r#match == e.r#match && m.priority == e.priority
            };
            match mapped.iter().position(same_key) {
                Some(i) if mapped[i].action == e.action => found[i] = true,
                Some(_) => {
                    return Err(format!(
                        "{ENTRIES_PATH}: `{}` has another action than the tenant's entry",
                        spec.label()
                    ));
                }
                None => others.push(spec.clone()),
            }
        }
        if let Some(i) = found.iter().position(|f| !f) {
            return Err(format!(
                "{ENTRIES_PATH} lacks the tenant entry `{}`",
                tenants[i].label()
            ));
        }
        let client = &mut self.client;
        let tenants = insert_entries(client, &self.schema, &tenants)
            .await
            .map_err(|e| e.to_string())?;
        let others = insert_entries(client, &self.schema, &others)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Written { tenants, others })
    }

    /// Every cell of [`COUNTERS`], read over P4Runtime: name -> index ->
    /// (packets, bytes).
    async fn counters(
        &mut self,
    ) -> Result<BTreeMap<&'static str, BTreeMap<usize, (u64, u64)>>, String> {
        let mut out = BTreeMap::new();
        for name in COUNTERS {
            let cells = read_counter(&mut self.client, &self.schema, name, None)
                .await
                .map_err(|e| e.to_string())?;
            out.insert(
                name,
                cells
                    .into_iter()
                    .map(|(i, p, b)| (i as usize, (p as u64, b as u64)))
                    .collect(),
            );
        }
        Ok(out)
    }
}

// ---------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------

/// What one frame did.
struct Outcome {
    outputs: Vec<(u32, Vec<u8>)>,
    /// Reasons whose `SdnIngress.drops` / `SdnEgress.drops` counter moved.
    ingress_drops: Vec<usize>,
    egress_drops: Vec<usize>,
}

fn drop_counts(sw: &dyn Target, name: &str) -> Vec<u64> {
    (0..DROP_SLOTS)
        .map(|i| sw.counter(name, i).map_or(0, |(p, _)| p))
        .collect()
}

fn moved(before: &[u64], after: &[u64]) -> Vec<usize> {
    (0..before.len())
        .filter(|&i| after[i] != before[i])
        .collect()
}

fn run_one(sw: &mut dyn Target, port: u32, frame: &[u8]) -> Outcome {
    let (ing, eg) = (
        drop_counts(sw, "SdnIngress.drops"),
        drop_counts(sw, "SdnEgress.drops"),
    );
    let outputs = sw.process(port, frame);
    Outcome {
        outputs,
        ingress_drops: moved(&ing, &drop_counts(sw, "SdnIngress.drops")),
        egress_drops: moved(&eg, &drop_counts(sw, "SdnEgress.drops")),
    }
}

/// Whether the outcome is what the scenario expects.
fn matches(expect: Expect, in_port: u32, o: &Outcome) -> bool {
    let no_drops = o.ingress_drops.is_empty() && o.egress_drops.is_empty();
    match (expect, o.outputs.as_slice()) {
        (Expect::To(p), [(q, _)]) => no_drops && p == *q,
        (Expect::Vxlan { uplink, vni }, [(q, out)]) => {
            no_drops && uplink == *q && vxlan_of(out).is_some_and(|v| v.vni == vni)
        }
        (Expect::Cpu(r), [(q, out)]) => {
            no_drops
                && *q == CPU_PORT
                && out.len() >= 3
                && out[2] == r
                && u32::from(be16(out, 0).unwrap_or(0) >> 7) == in_port
        }
        (Expect::Drop(r), []) => o.ingress_drops == [r] && o.egress_drops.is_empty(),
        (Expect::EgressDrop(r), []) => o.egress_drops == [r] && o.ingress_drops.is_empty(),
        _ => false,
    }
}

/// One line per fate: where each copy went, or why it was dropped.
fn fate_lines(s: &Scenario, o: &Outcome) -> Vec<(String, String)> {
    let mut lines = Vec::new();
    for (port, out) in &o.outputs {
        let verb = if *port == CPU_PORT {
            "to CPU"
        } else if is_uplink(*port) {
            "sent out"
        } else {
            "delivered"
        };
        lines.push((
            verb.to_string(),
            format!(
                "{}: {}",
                port_label(*port),
                describe_delivery(s.port, &s.frame, *port, out)
            ),
        ));
    }
    for r in &o.ingress_drops {
        lines.push((
            "dropped".to_string(),
            format!("in ingress, reason {r} \"{}\"", drop_reason(*r)),
        ));
    }
    for r in &o.egress_drops {
        lines.push((
            "dropped".to_string(),
            format!("in egress, reason {r} \"{}\"", drop_reason(*r)),
        ));
    }
    if lines.is_empty() {
        lines.push((
            "dropped".to_string(),
            "no output, and no drop counter moved".to_string(),
        ));
    }
    lines
}

/// Short fate for the summary table.
fn short_fate(o: &Outcome) -> String {
    let mut parts: Vec<String> = o
        .outputs
        .iter()
        .map(|(p, out)| {
            if *p == CPU_PORT && out.len() >= 3 {
                format!("to CPU (port {p}), packet_in reason {}", out[2])
            } else if let Some(Vxlan { vni, .. }) = vxlan_of(out).filter(|_| is_uplink(*p)) {
                format!("out of port {p} (uplink {p}), VXLAN VNI {vni}")
            } else {
                format!("delivered to port {p}")
            }
        })
        .collect();
    parts.extend(
        o.ingress_drops
            .iter()
            .map(|r| format!("dropped: {}", drop_reason(*r))),
    );
    parts.extend(
        o.egress_drops
            .iter()
            .map(|r| format!("dropped in egress: {}", drop_reason(*r))),
    );
    if parts.is_empty() {
        parts.push("dropped (no counter)".to_string());
    }
    parts.join("; ")
}

/// Width of the printed text.
const WIDTH: usize = 100;

/// Wraps `text` to lines of at most `width` characters (longer words stay
/// whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Prints `text` after `first`, wrapped to [`WIDTH`], continuation lines
/// indented under the text.
fn say(first: &str, text: &str) {
    say_hanging(first, &" ".repeat(first.chars().count()), text);
}

/// Prints `text` after `first`, wrapped to [`WIDTH`], continuation lines
/// after `hang`.
fn say_hanging(first: &str, hang: &str, text: &str) {
    let width = WIDTH.saturating_sub(first.chars().count().max(hang.chars().count()));
    let mut lines = wrap(text, width).into_iter();
    println!("{first}{}", lines.next().unwrap_or_default());
    for line in lines {
        println!("{hang}{line}");
    }
}

/// `1 frame`, `2 frames`; `1 entry`, `2 entries`.
fn count(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    match (n, word.strip_suffix('y')) {
        (1, _) => format!("{n} {word}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {word}s"),
    }
}

/// `path` relative to the current directory when it is inside it.
fn shown(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

/// Removes the captures of an earlier run (`in-portN.pcap`, `portN.pcap`)
/// so that the folder holds this run's only.
fn remove_old_captures(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let port = name
            .strip_suffix(".pcap")
            .and_then(|n| n.strip_prefix("in-port").or_else(|| n.strip_prefix("port")));
        if port.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Writes `packets` (timestamp, bytes) as a pcap file.
fn write_pcap(path: &Path, packets: &[(u64, Vec<u8>)]) -> Result<(), String> {
    let file = File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    let mut w = Writer::new(BufWriter::new(file), WriterConfig::default())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    for (ts, data) in packets {
        w.write_packet(*ts, data)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    w.finish().map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(())
}

/// Compiles `path` and prints a summary of what the control plane sees.
fn front_end(path: &Path) -> Result<janus_p4::driver::Compilation, String> {
    let start = Instant::now();
    let c = compile_file(path, &Options::default())
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let elapsed = start.elapsed();
    let Some(program) = c.program() else {
        return Err(format!(
            "{} does not compile:\n{}",
            path.display(),
            c.render(false)
        ));
    };
    let info = janus_p4::p4info::build(program);
    let headers: Vec<&str> = info
        .controller_packet_metadata
        .iter()
        .map(|h| h.preamble.name.as_str())
        .collect();
    say_hanging(
        "  ",
        "      ",
        &format!(
            "{}: checked in {:.0} ms: {}, {}, {}, {}; controller headers: {}",
            shown(path),
            elapsed.as_secs_f64() * 1e3,
            count(info.tables.len() as u64, "table"),
            count(
                (info.counters.len() + info.direct_counters.len()) as u64,
                "counter"
            ),
            count(
                (info.meters.len() + info.direct_meters.len()) as u64,
                "meter"
            ),
            count(info.registers.len() as u64, "register"),
            if headers.is_empty() {
                "none".to_string()
            } else {
                headers.join(", ")
            }
        ),
    );
    Ok(c)
}

/// A folder for the demo's card, removed when dropped.
struct CardDir(PathBuf);

impl Drop for CardDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The firmware configuration of a card serving [`tenant_specs`].
fn card_config(certs: &Path) -> String {
    let mac = janus_ctrl::client::tenant::mac_text;
    let mut text = format!(
        "[management]\nlisten = \"127.0.0.1:9559\"\n\n[certificates]\nserver_cert = {:?}\nserver_key = {:?}\nclient_ca = {:?}\n",
        certs.join("server.pem"),
        certs.join("server.key"),
        certs.join("ca.pem")
    );
    for t in tenant_specs() {
        text.push_str(&format!("\n[[tenants]]\nid = {}\nvni = {}\n", t.id, t.vni));
        if let Some(g) = &t.gateway {
            text.push_str(&format!(
                "gateway = {{ mac = \"{}\", ipv4 = \"{}\", ipv6 = \"{}\" }}\n",
                mac(&g.mac),
                g.ipv4,
                g.ipv6
            ));
        }
        let vfs: Vec<String> = t
            .vfs
            .iter()
            .map(|v| {
                format!(
                    "{{ port = {}, mac = \"{}\", ipv4 = \"{}\" }}",
                    v.port,
                    mac(&v.mac),
                    v.ipv4
                )
            })
            .collect();
        let tunnels: Vec<String> = t
            .tunnels
            .iter()
            .map(|x| {
                format!(
                    "{{ id = {}, vtep = \"{}\", underlay_mac = \"{}\", uplink = {} }}",
                    x.id,
                    x.remote_vtep,
                    mac(&x.underlay_mac),
                    x.uplink
                )
            })
            .collect();
        let remotes: Vec<String> = t
            .remotes
            .iter()
            .map(|r| {
                format!(
                    "{{ prefix = \"{}/{}\", tunnel = {}, next_mac = \"{}\" }}",
                    r.prefix,
                    r.len,
                    r.tunnel,
                    mac(&r.next_mac)
                )
            })
            .collect();
        text.push_str(&format!(
            "vfs = [{}]\ntunnels = [{}]\nremotes = [{}]\n",
            vfs.join(", "),
            tunnels.join(", "),
            remotes.join(", ")
        ));
    }
    text
}

/// The card (docs/firmware.md): in a temporary folder, a signing key,
/// control-plane certificates, a configuration with the demo's tenants, a
/// signed image of p4/sdn.p4, a simulated card flashed with it and booted
/// by the firmware library (the boot ROM verifies and measures). Prints
/// the measured-boot summary; the booted image's pipeline, checked against
/// the one compiled above, is what the demo runs.
fn boot_card(
    root: &Path,
    compiled: &p4::ForwardingPipelineConfig,
) -> Result<p4::ForwardingPipelineConfig, String> {
    use janus_firmware::card::{Card, CardConfig, CardOptions, CardSpec, DEFAULT_MODEL, Geometry};
    use janus_firmware::tools::build::{BuildSpec, build_image, build_time};
    use janus_firmware::tools::card_ops::{boot_card, flash_card};
    use janus_firmware_core::image::ComponentType;
    let fail = |what: &str| {
        let what = what.to_string();
        move |e: String| format!("the demo's card: {what}: {e}")
    };
    let work =
        CardDir(std::env::temp_dir().join(format!("janus-demo-card-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&work.0);
    let dir = work.0.as_path();
    std::fs::create_dir_all(dir).map_err(|e| fail("folder")(e.to_string()))?;
    let key = janus_firmware::keys::generate().map_err(|e| fail("keys")(e.to_string()))?;
    janus_firmware::keys::write_key_pair(dir, "janus", &key)
        .map_err(|e| fail("keys")(e.to_string()))?;
    let certs = janus_ctrl::certs::CertsConfig {
        server_names: vec!["127.0.0.1".into()],
        clients: vec!["operator".into()],
    };
    janus_ctrl::certs::generate(&certs)
        .and_then(|b| b.write_to(&dir.join("certs")))
        .map_err(|e| fail("certificates")(e.to_string()))?;
    let config = dir.join("fw.toml");
    std::fs::write(&config, card_config(&dir.join("certs")))
        .map_err(|e| fail("configuration")(e.to_string()))?;
    let built = build_image(&BuildSpec {
        p4: root.join(PROGRAM_PATH),
        include_dirs: Vec::new(),
        defines: Vec::new(),
        config,
        key: dir.join("janus.key"),
        model: DEFAULT_MODEL.into(),
        security_version: 1,
        build_time: build_time().map_err(|e| fail("image")(e.to_string()))?,
    })
    .map_err(|e| fail("image")(e.to_string()))?;
    let card = dir.join("card");
    let spec = CardSpec {
        config: CardConfig {
            model: DEFAULT_MODEL.into(),
            geometry: Geometry {
                sector_size: 4096,
                sector_count: 256,
            },
        },
        root_public_key: Some(key.verifying_key()),
    };
    Card::create(&card, &spec, CardOptions::default())
        .map_err(|e| fail("create")(e.to_string()))?;
    let flashed = flash_card(&card, &built.bytes, Default::default())
        .map_err(|e| fail("flash")(e.to_string()))?;
    say_hanging(
        "  ",
        "      ",
        &format!(
            "the card: a signed image of {PROGRAM_PATH} ({} bytes, the tenants below in its              configuration) flashed into slot {} of a simulated card, then booted:",
            built.bytes.len(),
            flashed.report.slot
        ),
    );
    let report =
        boot_card(&card, Default::default(), None).map_err(|e| fail("boot")(e.to_string()))?;
    super::nic::print_boot_summary(&report);
    let view = report.outcome.image.view();
    let payload = view
        .component(ComponentType::Pipeline)
        .ok_or_else(|| fail("boot")("the booted image has no pipeline".into()))?
        .payload;
    let booted = janus_firmware::runtime::boot::pipeline(payload)
        .map_err(|e| fail("pipeline")(e.to_string()))?
        .config;
    if booted.p4info != compiled.p4info {
        return Err(fail("pipeline")(format!(
            "the booted image's P4Info differs from {PROGRAM_PATH}'s"
        )));
    }
    Ok(booted)
}

pub fn run(args: &DemoArgs) -> ExitCode {
    if args.real {
        return super::demo_real::run();
    }
    match demo(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(why) => {
            eprintln!("error: {why}");
            ExitCode::from(2)
        }
    }
}

/// The demo; `Ok(false)` when a scenario's fate differed from its
/// expectation.
fn demo(args: &DemoArgs) -> Result<bool, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!("Janus demo: one SmartNIC shared by two tenants, on the v1model behavioural model");

    println!("\n1. The P4 front end over the pipelines Janus ships (docs/pipelines.md)");
    let c = front_end(&root.join(PROGRAM_PATH))?;
    front_end(&root.join("p4/roce_paths.p4"))?;
    let config = boot_card(root, &pipeline_config(&c)?)?;

    // The control plane: a P4Runtime server in this process, configured
    // over gRPC as an operator's controller would.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let mut plane = runtime
        .block_on(Plane::start(config))
        .map_err(|e| format!("the P4Runtime server: {e}"))?;
    let written = runtime.block_on(plane.configure())?;
    on_switch(&plane.switch, |sw| {
        for name in COUNTERS {
            if sw.counter(name, 0).is_none() {
                return Err(format!("{PROGRAM_PATH} has no counter {name}"));
            }
        }
        Ok(())
    })??;

    say_hanging(
        "\n2. ",
        "   ",
        &format!(
            "{PROGRAM_PATH} pushed to a P4Runtime server at {} (SetForwardingPipelineConfig); \
             the tenants configured over P4Runtime at {} ({} written as `janus ctrl tenant add` \
             writes them), the operator's other entries from {ENTRIES_PATH} ({})",
            plane.addr,
            plane.addr,
            count(written.tenants as u64, "entry"),
            count(written.others as u64, "entry"),
        ),
    );
    let filled: Vec<(String, usize)> = on_switch(&plane.switch, |sw| {
        sw.tables()
            .iter()
            .enumerate()
            .filter_map(|(slot, t)| {
                let n = sw.table(slot).map_or(0, |s| s.len());
                let short = t.name.rsplit('.').next().unwrap_or(&t.name);
                (n > 0).then(|| (short.to_string(), n))
            })
            .collect()
    })?;
    println!(
        "  {} with {}:",
        count(filled.len() as u64, "table"),
        count(filled.iter().map(|f| f.1 as u64).sum::<u64>(), "entry"),
    );
    for row in filled.chunks(3) {
        let cells: Vec<String> = row.iter().map(|(t, n)| format!("{t:<22}{n:>3}")).collect();
        println!("    {}", cells.join("     "));
    }
    println!(
        "  tenant A  id 1, VNI 1001: VF2 10.1.0.2, VF3 10.1.0.3, gateway 10.1.0.1;\n            \
         10.1.8.0/24 on another server, behind VTEP 192.168.0.20 (uplink 0)\n  \
         tenant B  id 2, VNI 2002: VF4 10.2.0.4, VF5 10.2.0.5, gateway 10.2.0.1;\n            \
         10.2.8.0/24 on another server, behind VTEP 192.168.0.21 (uplink 1)\n  \
         VF6       assigned to no tenant\n  \
         this NIC  VTEP 192.168.0.1; management network 172.16.0.0/12, VLAN 100, VNI 9999\n  \
         ports     0 and 1 uplinks, 2..509 VFs, 510 CPU (docs/nic-model.md)"
    );

    println!("\n3. Traffic: each frame is sent into the pipeline and its fate read back");
    let scenarios = scenarios();
    let mut inputs: BTreeMap<u32, Vec<(u64, Vec<u8>)>> = BTreeMap::new();
    let mut outputs: BTreeMap<u32, Vec<(u64, Vec<u8>)>> = BTreeMap::new();
    let mut summary = Vec::new();
    let mut wrong = Vec::new();
    let mut section = "";
    for (i, s) in scenarios.iter().enumerate() {
        let n = i + 1;
        if s.section != section {
            section = s.section;
            println!("\n  {section}");
        }
        let ts = FIRST_TIMESTAMP_NS + n as u64 * 1_000_000_000;
        let o = on_switch(&plane.switch, |sw| run_one(sw, s.port, &s.frame))?;
        let ok = matches(s.expect, s.port, &o);
        say(&format!("  {n:>2}. "), s.what);
        say(
            "      sent       ",
            &format!(
                "{}: {}, {} bytes",
                port_label(s.port),
                describe_sent(s.port, &s.frame),
                s.frame.len()
            ),
        );
        for (verb, text) in fate_lines(s, &o) {
            say(&format!("      {verb:<10} "), &text);
        }
        if ok {
            println!("      check      as expected");
        } else {
            say(
                "      check      ",
                &format!("NOT AS EXPECTED: expected {}", s.expect.text()),
            );
            wrong.push(n);
        }
        inputs
            .entry(s.port)
            .or_default()
            .push((ts, s.frame.clone()));
        for (port, bytes) in &o.outputs {
            outputs.entry(*port).or_default().push((ts, bytes.clone()));
        }
        summary.push((n, s.port, short_fate(&o), ok));
    }

    println!("\n4. Summary: where each frame was sent in, its fate, and whether that was expected");
    println!("  {:>2}  {:<24}  {:<56}  check", "#", "sent on", "fate");
    for (n, port, fate, ok) in &summary {
        println!(
            "  {n:>2}  {:<24}  {fate:<56}  {}",
            port_label(*port),
            if *ok { "ok" } else { "WRONG" }
        );
    }

    println!(
        "\n5. Counters read after the run, over P4Runtime at {} (CounterEntry reads)",
        plane.addr
    );
    let counters = runtime.block_on(plane.counters())?;
    let cell = |name: &str, index: usize| -> (u64, u64) {
        counters
            .get(name)
            .and_then(|cells| cells.get(&index))
            .copied()
            .unwrap_or((0, 0))
    };
    say(
        "  ",
        "Per tenant (SdnIngress.tenant_packets, index = tenant id): frames classified to \
         the tenant, from its VFs and from the network, whether forwarded or dropped \
         afterwards.",
    );
    for t in TENANTS {
        let (p, b) = cell("SdnIngress.tenant_packets", t.id);
        println!(
            "    tenant {} (id {}, VNI {}): {}, {}",
            t.name,
            t.id,
            t.vni,
            count(p, "frame"),
            count(b, "byte")
        );
    }
    say(
        "  ",
        "Per VF (index = port): received from the VF (SdnIngress.vf_rx), sent to it \
         (SdnEgress.vf_tx), received and dropped (SdnIngress.vf_drops).",
    );
    println!(
        "    {:<22} {:>16} {:>16} {:>9}",
        "port", "received", "sent to it", "dropped"
    );
    for (port, _) in VFS {
        let rx = cell("SdnIngress.vf_rx", port as usize);
        let tx = cell("SdnEgress.vf_tx", port as usize);
        let dropped = cell("SdnIngress.vf_drops", port as usize).0;
        println!(
            "    {:<22} {:>16} {:>16} {dropped:>9}",
            port_label(port).trim_start_matches("port "),
            format!("{} ({} B)", rx.0, rx.1),
            format!("{} ({} B)", tx.0, tx.1)
        );
    }
    say(
        "  ",
        "Drops by reason (SdnIngress.drops and SdnEgress.drops, index = reason; \
         non-zero only):",
    );
    for (stage, name) in [
        ("ingress", "SdnIngress.drops"),
        ("egress", "SdnEgress.drops"),
    ] {
        for r in 0..DROP_SLOTS {
            let n = cell(name, r).0;
            if n > 0 {
                println!("    {stage:<8} {r:>2}  {:<40} {n:>3}", drop_reason(r));
            }
        }
    }

    let dir = &args.out_dir;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.clone());
    remove_old_captures(&dir);
    println!("\n6. Captures, in {} (open them in Wireshark)", shown(&dir));
    for (port, packets) in &inputs {
        let name = format!("in-port{port}.pcap");
        write_pcap(&dir.join(&name), packets)?;
        println!(
            "  {name:<17} {} sent into {}",
            count(packets.len() as u64, "frame"),
            port_label(*port)
        );
    }
    for (port, packets) in &outputs {
        let name = format!("port{port}.pcap");
        write_pcap(&dir.join(&name), packets)?;
        let note = if *port == CPU_PORT {
            " (each starts with the 3-byte packet_in header)"
        } else {
            ""
        };
        say(
            &format!("  {name:<17} "),
            &format!(
                "{} the NIC sent out of {}{note}",
                count(packets.len() as u64, "frame"),
                port_label(*port)
            ),
        );
    }
    println!("  The same run from the captures (its portN.pcap files hold the same frames):");
    let exe = std::env::current_exe().map_or_else(|_| "janus".to_string(), |p| shown(&p));
    let mut words = vec![
        format!("{exe} sim run {}", shown(&root.join(PROGRAM_PATH))),
        format!("--entries {}", shown(&root.join(ENTRIES_PATH))),
    ];
    words.extend(
        inputs
            .keys()
            .map(|p| format!("--in {p}={}", shown(&dir.join(format!("in-port{p}.pcap"))))),
    );
    words.push(format!("--out-dir {}", shown(&dir.join("replay"))));
    let mut lines: Vec<String> = vec![String::new()];
    for w in words {
        let last = lines.last_mut().expect("one line");
        if !last.is_empty() && last.len() + 1 + w.len() > WIDTH - 8 {
            lines.push(w);
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(&w);
        }
    }
    println!("    {}", lines.join(" \\\n      "));

    println!();
    if wrong.is_empty() {
        println!(
            "All {} scenarios behaved as expected. Tables, entries and counters: \
             docs/pipelines.md.",
            scenarios.len()
        );
        Ok(true)
    } else {
        let list: Vec<String> = wrong.iter().map(|n| n.to_string()).collect();
        println!(
            "{} of {} scenarios did NOT behave as expected: {}",
            wrong.len(),
            scenarios.len(),
            list.join(", ")
        );
        Ok(false)
    }
}
