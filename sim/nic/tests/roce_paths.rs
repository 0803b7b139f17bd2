//! `p4/roce_paths.p4` on the v1model behavioural model against
//! `janus_nic::roce`, packet by packet: for every frame, the source port,
//! the uplink and the path (the `path_packets` cell the pipeline counted)
//! must be the model's; the counters must add up to the model's tallies.

use janus_engine::table::{Entry, FieldMatch};
use janus_engine::target::Target;
use janus_engine::value::Bits;
use janus_nic::ports;
use janus_nic::roce::{self, Choice, Liveness, PATH_COUNT, Path, Pin, Placement, Qpn, RoceFlow};
use janus_v1model::V1Switch;
use janus_wire::checksum::internet_checksum;
use std::collections::HashMap;
use std::net::Ipv4Addr;

const PROGRAM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../p4/roce_paths.p4");
const PATH_DOWN: &str = "RoceIngress.path_select.path_down";
const PATH_PACKETS: &str = "RoceIngress.path_select.path_packets";
const SELECTIONS: &str = "RoceIngress.path_select.selections";
const PINNED_FLOWS: &str = "RoceIngress.path_select.pinned_flows";
const PIN: &str = "RoceIngress.path_select.pin";

const TOR_MAC: [u8; 6] = [0x02, 0xbb, 0, 0, 0, 0];
const PAYLOAD: [u8; 16] = *b"0123456789abcdef";
const FLOWS: usize = 1000;

/// A flow and the VF port it is sent from.
#[derive(Clone, Copy, Debug)]
struct TestFlow {
    vf: u32,
    flow: RoceFlow,
    /// UDP source port the host writes in the frame (the default for an
    /// untagged flow; replaced for a tagged one).
    host_src_port: u16,
}

impl TestFlow {
    /// The frame the VF sends: Ethernet, the tx_meta tag if the flow is
    /// tagged, IPv4, UDP (checksum non-zero), BTH (RC SEND), payload.
    fn frame(&self, psn: u32) -> Vec<u8> {
        let mut f = TOR_MAC.to_vec();
        f.extend_from_slice(&vf_mac(self.vf));
        match self.flow.default_port {
            roce::DefaultPort::Linux { local_qpn } => {
                f.extend_from_slice(&roce::ETHERTYPE_TX_META.to_be_bytes());
                f.extend_from_slice(&local_qpn.get().to_be_bytes()[1..]);
                f.extend_from_slice(&[0, 0x08, 0x00]);
            }
            roce::DefaultPort::Host(_) => f.extend_from_slice(&[0x08, 0x00]),
        }
        let udp_len = 8 + 12 + PAYLOAD.len() as u16;
        let mut ip = vec![0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 17, 0, 0];
        ip[2..4].copy_from_slice(&(20 + udp_len).to_be_bytes());
        ip.extend_from_slice(&self.flow.src.octets());
        ip.extend_from_slice(&self.flow.dst.octets());
        let sum = internet_checksum(&ip);
        ip[10..12].copy_from_slice(&sum.to_be_bytes());
        f.extend(ip);
        f.extend_from_slice(&self.host_src_port.to_be_bytes());
        f.extend_from_slice(&roce::ROCEV2_UDP_PORT.to_be_bytes());
        f.extend_from_slice(&udp_len.to_be_bytes());
        f.extend_from_slice(&[0xbe, 0xef]);
        f.extend_from_slice(&[0x04, 0, 0xff, 0xff, 0]);
        f.extend_from_slice(&self.flow.remote_qpn.get().to_be_bytes()[1..]);
        f.extend_from_slice(&(0x8000_0000 | psn).to_be_bytes());
        f.extend_from_slice(&PAYLOAD);
        f
    }
}

/// What leaves the NIC for `frame` sent with `src_port`: tag removed,
/// source port replaced, UDP checksum 0, nothing else changed.
fn sent(frame: &[u8], src_port: u16) -> Vec<u8> {
    let mut out = frame[..12].to_vec();
    let rest = if frame[12..14] == roce::ETHERTYPE_TX_META.to_be_bytes() {
        &frame[18..]
    } else {
        &frame[12..]
    };
    out.extend_from_slice(rest);
    out[34..36].copy_from_slice(&src_port.to_be_bytes());
    out[40..42].copy_from_slice(&[0, 0]);
    out
}

fn vf_mac(vf: u32) -> [u8; 6] {
    [0x02, 0, 0, 0, (vf >> 8) as u8, vf as u8]
}

/// splitmix64, for reproducible flows.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn qpn(&mut self) -> Qpn {
        Qpn::new(self.below(1 << 24) as u32)
    }
}

/// `n` flows, each from its own (VF, source address, destination address,
/// QP pair); one in ten has no tx_meta tag and keeps the host's port.
fn flows(seed: u64, n: usize) -> Vec<TestFlow> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|i| {
            let vf =
                ports::FIRST_VF + rng.below(u64::from(ports::LAST_VF - ports::FIRST_VF + 1)) as u32;
            let src = Ipv4Addr::new(10, 0, (vf >> 8) as u8, vf as u8);
            let dst = Ipv4Addr::new(
                10,
                1 + rng.below(200) as u8,
                rng.below(256) as u8,
                1 + rng.below(254) as u8,
            );
            let host_src_port = rng.next() as u16;
            let flow = if i % 10 == 9 {
                RoceFlow::untagged(src, dst, rng.qpn(), host_src_port)
            } else {
                RoceFlow::tagged(src, dst, rng.qpn(), rng.qpn())
            };
            TestFlow {
                vf,
                flow,
                host_src_port,
            }
        })
        .collect()
}

/// The pipeline, with the model's tallies of its counters and the model's
/// view of its state (pins, paths down).
struct Nic {
    sw: V1Switch,
    liveness: Liveness,
    pins: HashMap<(Ipv4Addr, Qpn), Pin>,
    path_packets: [(u64, u64); PATH_COUNT],
    selections: [u64; 4],
    psn: u32,
}

impl Nic {
    fn new() -> Nic {
        let c = janus_p4::driver::compile_file(PROGRAM.as_ref(), &Default::default())
            .expect("readable");
        assert!(!c.has_errors(), "{}", c.render(false));
        Nic {
            sw: V1Switch::load(c.ir.expect("ir")).expect("loads"),
            liveness: Liveness::all_up(),
            pins: HashMap::new(),
            path_packets: [(0, 0); PATH_COUNT],
            selections: [0; 4],
            psn: 0,
        }
    }

    fn path_counts(&self) -> Vec<(u64, u64)> {
        (0..PATH_COUNT)
            .map(|i| self.sw.counter(PATH_PACKETS, i).expect("path counter"))
            .collect()
    }

    /// Marks `path` down or up in the pipeline's register and the model.
    fn set_down(&mut self, path: Path, down: bool) {
        self.sw
            .register_write(PATH_DOWN, path.index(), u64::from(down))
            .expect("path-down register");
        self.liveness.set_down(path, down);
    }

    /// Installs `pin` for `flow` in `pinned_flows`.
    fn pin(&mut self, flow: &RoceFlow, pin: Pin) {
        let slot = self
            .sw
            .tables()
            .iter()
            .position(|t| t.name == PINNED_FLOWS)
            .expect("pinned_flows");
        let action = self.sw.tables()[slot]
            .actions
            .iter()
            .position(|a| a.name == PIN)
            .expect("pin action");
        let entry = Entry {
            key: vec![
                FieldMatch::Exact(Bits::from_u64(32, false, u32::from(flow.dst).into())),
                FieldMatch::Exact(Bits::from_u64(24, false, flow.remote_qpn.get().into())),
            ],
            priority: 0,
            action,
            args: vec![
                Bits::from_u64(16, false, pin.src_port.into()),
                Bits::from_u64(9, false, pin.uplink.into()),
            ],
        };
        self.sw
            .table_mut(slot)
            .expect("slot")
            .insert(entry)
            .expect("inserted");
        self.pins.insert((flow.dst, flow.remote_qpn), pin);
    }

    /// Sends one frame of `t` and checks that the pipeline did what the
    /// model says: the same frame out of the same uplink with the same
    /// source port, the same path counted, or a drop when no path is live.
    /// Returns the model's choice.
    fn send(&mut self, t: &TestFlow) -> Choice {
        let pin = self.pins.get(&(t.flow.dst, t.flow.remote_qpn)).copied();
        let want = roce::choose(&t.flow, pin, &self.liveness);
        self.psn += 1;
        let frame = t.frame(self.psn);
        let before = self.path_counts();
        let out = self.sw.process(t.vf, &frame);
        let after = self.path_counts();
        let counted: Vec<usize> = (0..PATH_COUNT).filter(|&i| after[i] != before[i]).collect();
        self.selections[want.selection_index()] += 1;
        match want.placement() {
            Some(p) => {
                assert_eq!(out.len(), 1, "{t:?}: one frame out");
                let (port, bytes) = &out[0];
                let got_sport = u16::from_be_bytes([bytes[34], bytes[35]]);
                assert_eq!(
                    (*port, got_sport),
                    (p.uplink, p.src_port),
                    "{t:?}: uplink and source port ({want:?})"
                );
                assert_eq!(bytes, &sent(&frame, p.src_port), "{t:?}: frame");
                assert_eq!(counted, [p.path.index()], "{t:?}: the path counted");
                assert!(self.liveness.is_up(p.path), "{t:?}: sent on a dead path");
                let cell = &mut self.path_packets[p.path.index()];
                cell.0 += 1;
                cell.1 += frame.len() as u64;
            }
            None => {
                assert!(out.is_empty(), "{t:?}: dropped, got {out:?}");
                assert!(counted.is_empty(), "{t:?}: no path counted");
            }
        }
        want
    }

    /// Sends one frame of each flow (each checked by `send`); the choices.
    fn send_all(&mut self, flows: &[TestFlow]) -> Vec<Choice> {
        flows.iter().map(|t| self.send(t)).collect()
    }

    /// The pipeline's counters equal the model's tallies.
    fn check_counters(&self) {
        assert_eq!(self.path_counts(), self.path_packets, "path_packets");
        let selections: Vec<u64> = (0..4)
            .map(|i| self.sw.counter(SELECTIONS, i).expect("selections").0)
            .collect();
        assert_eq!(selections, self.selections, "selections");
    }
}

fn path(index: usize) -> Path {
    Path::from_index(index).expect("a path")
}

fn placement(c: &Choice) -> Placement {
    c.placement().expect("placed")
}

#[test]
fn every_flow_takes_the_models_port_uplink_and_path() {
    let mut nic = Nic::new();
    let flows = flows(1, FLOWS);
    let choices = nic.send_all(&flows);
    assert!(choices.iter().all(|c| matches!(c, Choice::Default(_))));
    nic.check_counters();
    // The flows spread over all eight paths, roughly evenly.
    let per_path: Vec<u64> = nic.path_packets.iter().map(|c| c.0).collect();
    let (lo, hi) = (FLOWS as u64 / 16, FLOWS as u64 * 3 / 16);
    assert!(
        per_path.iter().all(|&n| (lo..=hi).contains(&n)),
        "{per_path:?}"
    );
    // The same flows again: the same choices (no state but the counters).
    assert_eq!(nic.send_all(&flows), choices);
    nic.check_counters();
}

#[test]
fn failover_avoids_dead_paths_and_restoring_brings_flows_back() {
    let mut nic = Nic::new();
    let flows = flows(2, FLOWS);
    let first = nic.send_all(&flows);

    // Three paths down, on both uplinks.
    let dead = [path(1), path(2), path(6)];
    for p in dead {
        nic.set_down(p, true);
    }
    let moved = nic.send_all(&flows);
    let mut failed_over = 0;
    for ((t, before), choice) in flows.iter().zip(&first).zip(&moved) {
        let (before, after) = (placement(before), placement(choice));
        assert!(!dead.contains(&after.path), "{t:?}");
        if dead.contains(&before.path) {
            // Moved to the first live candidate: the same uplink's other
            // spines first.
            failed_over += 1;
            assert!(matches!(choice, Choice::Failover(_)), "{t:?}");
            let first_live = roce::failover_candidates(&t.flow)
                .into_iter()
                .find(|c| !dead.contains(&c.path))
                .expect("a live path");
            assert_eq!(after, first_live, "{t:?}");
            assert_eq!(
                after.uplink, before.uplink,
                "{t:?}: its uplink still has live spines"
            );
        } else {
            assert_eq!(after, before, "{t:?}: a flow on a live path stays");
        }
    }
    assert!(failed_over > FLOWS / 4, "{failed_over}");

    // Path 2 back: its flows return, those of 1 and 6 stay away.
    nic.set_down(path(2), false);
    for ((t, before), after) in flows.iter().zip(&first).zip(nic.send_all(&flows)) {
        let (before, after) = (placement(before), placement(&after));
        if [path(1), path(6)].contains(&before.path) {
            assert_ne!(after, before, "{t:?}");
        } else {
            assert_eq!(after, before, "{t:?}");
        }
    }

    // Every path back: every flow is where it started.
    nic.set_down(path(1), false);
    nic.set_down(path(6), false);
    assert_eq!(nic.send_all(&flows), first);

    // Uplink 0's leaf gone: everything leaves by uplink 1, on the spine the
    // model picks.
    for spine in 0..4 {
        nic.set_down(Path::new(ports::UPLINKS[0], spine).expect("path"), true);
    }
    for c in nic.send_all(&flows) {
        assert_eq!(placement(&c).uplink, ports::UPLINKS[1]);
    }

    // Nothing live: every frame dropped.
    for spine in 0..4 {
        nic.set_down(Path::new(ports::UPLINKS[1], spine).expect("path"), true);
    }
    assert!(
        nic.send_all(&flows)
            .iter()
            .all(|c| *c == Choice::NoLivePath)
    );
    nic.check_counters();
    assert_eq!(nic.selections[3], FLOWS as u64);
}

#[test]
fn pinned_flows_take_their_pins_while_the_path_is_up() {
    let mut nic = Nic::new();
    let all = flows(3, FLOWS);
    // Pin every other flow to a path of the planner's choosing, round
    // robin over the eight (different remote QPs, so keys are distinct).
    let mut wanted = HashMap::new();
    for (i, t) in all.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
        let target = path(i / 2 % PATH_COUNT);
        nic.pin(&t.flow, roce::pin_for_path(&t.flow, target));
        wanted.insert(i, target);
    }
    let choices = nic.send_all(&all);
    for (i, (t, c)) in all.iter().zip(&choices).enumerate() {
        match wanted.get(&i) {
            Some(&target) => {
                let pin = nic.pins[&(t.flow.dst, t.flow.remote_qpn)];
                let Choice::Pinned(p) = *c else {
                    panic!("{t:?}: {c:?}")
                };
                assert_eq!(
                    (p.src_port, p.uplink, p.path),
                    (pin.src_port, pin.uplink, target)
                );
            }
            None => assert!(matches!(c, Choice::Default(_)), "{t:?}: {c:?}"),
        }
    }
    // The planner's spread: 500 pins, 62 or 63 per path.
    let mut pinned_per_path = [0; PATH_COUNT];
    for c in choices.iter().filter(|c| matches!(c, Choice::Pinned(_))) {
        pinned_per_path[placement(c).path.index()] += 1;
    }
    assert_eq!(pinned_per_path, [63, 63, 63, 63, 62, 62, 62, 62]);

    // A pinned path down: its pinned flows fail over from their default
    // ports (as the model says, checked by `send`); the other pins hold.
    nic.set_down(path(3), true);
    let down = nic.send_all(&all);
    for (i, (t, c)) in all.iter().zip(&down).enumerate() {
        match wanted.get(&i) {
            Some(&target) if target == path(3) => {
                assert!(matches!(c, Choice::Failover(_)), "{t:?}: {c:?}");
                assert_ne!(placement(c).path, path(3));
            }
            Some(_) => assert_eq!(c, &choices[i], "{t:?}"),
            None => assert_ne!(placement(c).path, path(3), "{t:?}"),
        }
    }

    // Restored: the pinned flows are back on their pins.
    nic.set_down(path(3), false);
    assert_eq!(nic.send_all(&all), choices);

    // A pin naming a port that is not an uplink counts as a down path.
    let t = all[1];
    nic.pin(
        &t.flow,
        Pin {
            src_port: 0xD00D,
            uplink: ports::CPU_PORT,
        },
    );
    let c = nic.send(&t);
    let Choice::Failover(p) = c else {
        panic!("{c:?}")
    };
    assert_eq!(p, roce::failover_candidates(&t.flow)[0]);
    nic.check_counters();
}

/// `const TYPE NAME = VALUE;` declarations of a P4 file (decimal or hex).
fn p4_constants(path: &str) -> HashMap<String, u64> {
    let text = std::fs::read_to_string(path).expect("readable");
    text.lines()
        .filter_map(|line| {
            let decl = line.trim().strip_prefix("const ")?;
            let (lhs, rhs) = decl.split_once('=')?;
            let name = lhs.split_whitespace().last()?.to_string();
            let value = rhs.split(';').next()?.trim();
            let value = match value.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16).ok()?,
                None => value.parse().ok()?,
            };
            Some((name, value))
        })
        .collect()
}

#[test]
fn the_program_and_the_model_share_their_constants() {
    let p4 = p4_constants(PROGRAM);
    let flow = RoceFlow::tagged(
        Ipv4Addr::new(10, 0, 0, 2),
        Ipv4Addr::new(10, 0, 1, 10),
        Qpn::new(1),
        Qpn::new(2),
    );
    let placed = roce::failover_candidates(&flow)[0];
    let want: [(&str, u64); 13] = [
        ("SPINES_PER_UPLINK", roce::SPINES_PER_UPLINK.into()),
        ("PATH_COUNT", PATH_COUNT as u64),
        ("SPINE_DELTA_1", roce::SPINE_DELTAS[1].into()),
        ("SPINE_DELTA_2", roce::SPINE_DELTAS[2].into()),
        ("SPINE_DELTA_3", roce::SPINE_DELTAS[3].into()),
        ("ROCE_SPORT_MIN", roce::ROCE_SRC_PORT_MIN.into()),
        ("UDP_PORT_ROCEV2", roce::ROCEV2_UDP_PORT.into()),
        ("ETH_TYPE_TX_META", roce::ETHERTYPE_TX_META.into()),
        ("PROTO_UDP", roce::IP_PROTOCOL_UDP.into()),
        (
            "SELECT_DEFAULT",
            Choice::Default(placed).selection_index() as u64,
        ),
        (
            "SELECT_PINNED",
            Choice::Pinned(placed).selection_index() as u64,
        ),
        (
            "SELECT_FAILOVER",
            Choice::Failover(placed).selection_index() as u64,
        ),
        (
            "SELECT_NO_LIVE_PATH",
            Choice::NoLivePath.selection_index() as u64,
        ),
    ];
    for (name, value) in want {
        assert_eq!(p4.get(name), Some(&value), "{name}");
    }
    assert_eq!(
        roce::SPINE_DELTAS[0],
        0,
        "the probe starts at the flow's own port"
    );
    let uplinks = p4_constants(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../p4/include/janus_nic.p4"
    ))["NIC_UPLINK_COUNT"];
    assert_eq!(p4["PATH_COUNT"], uplinks * p4["SPINES_PER_UPLINK"]);
}
