//! The swap's traffic check: a sample of frames replayed through staged
//! copies of the running pipeline and of the new one (each holding the
//! running entities), and the rule deciding whether the new one may
//! replace the old (docs/firmware.md, "Hot-swap").
//!
//! The rule: a frame the running pipeline delivered (to any port, the
//! CPU port included: a punt is a delivery) and the new one drops is a
//! *regression*. Regressions refuse the swap unless the new program lacks
//! tables the running one has: those tables held no entries (the state
//! carry-over refuses to drop entries), so what they decided came from the
//! program itself (default actions, constant entries), and a program that
//! removes them is expected to decide differently; the regressions are
//! then reported as explained by those tables. Frames delivered by both
//! to different ports, or delivered only by the new one, are reported and
//! allowed.

use crate::config::FirmwareConfig;
use crate::runtime::recorder::Frame;
use janus_ctrl::device::ForwardingPipeline;
use janus_packet::neighbor::arp_request;
use janus_packet::{Transport, ether_type, ethernet_frame, ipv4_packet};
use std::collections::BTreeSet;
use std::net::Ipv4Addr;

/// Where one frame went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regression {
    /// The frame's ingress port.
    pub port: u32,
    pub len: usize,
    /// The ports the running pipeline sent it to.
    pub old_ports: Vec<u32>,
}

/// What the replay found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Frames replayed from the recorder.
    pub recorded: usize,
    /// Frames made from the configuration (the recorder had too few).
    pub synthetic: usize,
    /// Delivered to the same ports by both, or dropped by both.
    pub same: usize,
    /// Delivered by both, to different ports.
    pub changed: usize,
    /// Dropped by the running pipeline, delivered by the new one.
    pub newly_delivered: usize,
    /// Delivered by the running pipeline, dropped by the new one.
    pub regressions: Vec<Regression>,
    /// The running program's tables the new one does not have.
    pub missing_tables: Vec<String>,
}

impl Comparison {
    /// Whether the rule lets the new pipeline in.
    pub fn passed(&self) -> bool {
        self.regressions.is_empty() || !self.missing_tables.is_empty()
    }

    /// Frames replayed.
    pub fn frames(&self) -> usize {
        self.recorded + self.synthetic
    }

    /// One line for logs and the swap's client.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} frames ({} recorded, {} synthetic): {} same, {} to other ports, {} newly delivered, {} dropped by the new pipeline",
            self.frames(),
            self.recorded,
            self.synthetic,
            self.same,
            self.changed,
            self.newly_delivered,
            self.regressions.len()
        );
        if !self.regressions.is_empty() && !self.missing_tables.is_empty() {
            s.push_str(&format!(
                " (explained: the new program has no {})",
                self.missing_tables.join(", ")
            ));
        }
        s
    }
}

/// The sample to replay: the recorded frames, completed with synthetic
/// ones from `config` when fewer than `min_recorded` were recorded.
pub fn sample(
    recorded: Vec<Frame>,
    min_recorded: usize,
    config: &FirmwareConfig,
) -> (Vec<Frame>, usize) {
    let n = recorded.len();
    let mut frames = recorded;
    if n < min_recorded {
        frames.extend(synthetic(config));
    }
    (frames, n)
}

/// Frames the configuration's tenants are expected to send: from each
/// VF, an ARP request for its gateway and a UDP datagram to each other
/// VF of its tenant and to each remote prefix (through the gateway).
pub fn synthetic(config: &FirmwareConfig) -> Vec<Frame> {
    let mut frames = Vec::new();
    for t in &config.tenants {
        for a in &t.vfs {
            if let Some(gw) = &t.gateway {
                frames.push((a.port, arp_request((a.mac.0, a.ipv4), gw.ipv4)));
                for r in &t.remotes {
                    let to = Ipv4Addr::from(u32::from(r.prefix.addr) | 1);
                    frames.push((a.port, udp((a.mac.0, a.ipv4), (gw.mac.0, to))));
                }
            }
            for b in t.vfs.iter().filter(|b| b.port != a.port) {
                frames.push((a.port, udp((a.mac.0, a.ipv4), (b.mac.0, b.ipv4))));
            }
        }
    }
    frames
}

/// An Ethernet/IPv4/UDP frame with an 18-byte payload, from port 40000
/// to port 9000.
fn udp(from: ([u8; 6], Ipv4Addr), to: ([u8; 6], Ipv4Addr)) -> Vec<u8> {
    const PAYLOAD: [u8; 18] = [0x4A; 18];
    let transport = Transport::Udp {
        src: 40000,
        dst: 9000,
    };
    // 18 bytes always fit an IPv4 packet.
    let ip = ipv4_packet(from.1.octets(), to.1.octets(), transport, &PAYLOAD).unwrap_or_default();
    ethernet_frame(to.0, from.0, ether_type::IPV4, &ip)
}

fn ports(pipeline: &mut ForwardingPipeline, port: u32, frame: &[u8]) -> Vec<u32> {
    let out: BTreeSet<u32> = pipeline
        .switch
        .process(port, frame)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    out.into_iter().collect()
}

fn table_names(pipeline: &ForwardingPipeline) -> BTreeSet<String> {
    pipeline
        .config
        .p4info
        .as_ref()
        .map(|i| {
            i.tables
                .iter()
                .filter_map(|t| t.preamble.as_ref().map(|p| p.name.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// Replays `frames` through both staged pipelines and applies the rule.
/// The first `recorded` frames came from the recorder.
pub fn compare(
    old: &mut ForwardingPipeline,
    new: &mut ForwardingPipeline,
    frames: &[Frame],
    recorded: usize,
) -> Comparison {
    let new_tables = table_names(new);
    let mut c = Comparison {
        recorded,
        synthetic: frames.len() - recorded,
        missing_tables: table_names(old)
            .into_iter()
            .filter(|t| !new_tables.contains(t))
            .collect(),
        ..Comparison::default()
    };
    for (port, frame) in frames {
        let before = ports(old, *port, frame);
        let after = ports(new, *port, frame);
        match (before.is_empty(), after.is_empty()) {
            _ if before == after => c.same += 1,
            (false, true) => c.regressions.push(Regression {
                port: *port,
                len: frame.len(),
                old_ports: before,
            }),
            (true, false) => c.newly_delivered += 1,
            _ => c.changed += 1,
        }
    }
    c
}
