//! The scenarios: each frame and the fate it expects, running it through
//! the switch, and the words for what happened.

use super::*;

// ---------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------

/// The fate a scenario expects.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Expect {
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
    pub(super) fn text(self, reasons: &Reasons) -> String {
        match self {
            Expect::To(p) => format!("delivered to {}", port_label(p)),
            Expect::Vxlan { uplink, vni } => {
                format!("VXLAN VNI {vni} out of {}", port_label(uplink))
            }
            Expect::Cpu(r) => format!("to the CPU, packet_in reason {r} ({})", reasons.punt(r)),
            Expect::Drop(r) => {
                format!("dropped in ingress, reason {r} ({})", reasons.drop(r))
            }
            Expect::EgressDrop(r) => {
                format!("dropped in egress, reason {r} ({})", reasons.drop(r))
            }
        }
    }
}

pub(super) struct Scenario {
    pub(super) section: &'static str,
    /// What the scenario sends and what it shows.
    pub(super) what: &'static str,
    pub(super) port: u32,
    pub(super) frame: Vec<u8>,
    pub(super) expect: Expect,
}

pub(super) fn scenarios() -> Vec<Scenario> {
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
// Running
// ---------------------------------------------------------------------------

/// What one frame did.
pub(super) struct Outcome {
    pub(super) outputs: Vec<(u32, Vec<u8>)>,
    /// Reasons whose `SdnIngress.drops` / `SdnEgress.drops` counter moved.
    pub(super) ingress_drops: Vec<usize>,
    pub(super) egress_drops: Vec<usize>,
}

pub(super) fn drop_counts(sw: &dyn Target, name: &str) -> Vec<u64> {
    (0..DROP_SLOTS)
        .map(|i| sw.counter(name, i).map_or(0, |(p, _)| p))
        .collect()
}

pub(super) fn moved(before: &[u64], after: &[u64]) -> Vec<usize> {
    (0..before.len())
        .filter(|&i| after[i] != before[i])
        .collect()
}

pub(super) fn run_one(sw: &mut dyn Target, port: u32, frame: &[u8]) -> Outcome {
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
pub(super) fn matches(expect: Expect, in_port: u32, o: &Outcome) -> bool {
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
pub(super) fn fate_lines(reasons: &Reasons, s: &Scenario, o: &Outcome) -> Vec<(String, String)> {
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
                describe_delivery(reasons, s.port, &s.frame, *port, out)
            ),
        ));
    }
    for r in &o.ingress_drops {
        lines.push((
            "dropped".to_string(),
            format!("in ingress, reason {r} \"{}\"", reasons.drop(*r)),
        ));
    }
    for r in &o.egress_drops {
        lines.push((
            "dropped".to_string(),
            format!("in egress, reason {r} \"{}\"", reasons.drop(*r)),
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
pub(super) fn short_fate(reasons: &Reasons, o: &Outcome) -> String {
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
            .map(|r| format!("dropped: {}", reasons.drop(*r))),
    );
    parts.extend(
        o.egress_drops
            .iter()
            .map(|r| format!("dropped in egress: {}", reasons.drop(*r))),
    );
    if parts.is_empty() {
        parts.push("dropped (no counter)".to_string());
    }
    parts.join("; ")
}
