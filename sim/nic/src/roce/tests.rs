//! Unit tests of the RoCEv2 path model.
//!
//! Known values (marked "Python") were computed once, independently of this
//! code, by a straight Python transcription of docs/nic-model.md: Linux's
//! formula on Python integers, a bit-by-bit CRC-16/ARC (`crc ^= b`, then
//! eight times `crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1`) over
//! `ipaddress.IPv4Address(..).packed + bytes([proto]) + struct.pack("!HH",
//! sport, dport)`, and the probe order of "Failover".

use super::*;

fn ip(s: &str) -> Ipv4Addr {
    s.parse().expect("an IPv4 address")
}

fn path(index: usize) -> Path {
    Path::from_index(index).expect("a path index")
}

/// The flow of the doc's first example: 10.0.0.2 -> 10.0.1.10, local QP
/// 0x11, remote QP 0x22 (default port 0xC242, uplink 0, path 2).
fn example_flow() -> RoceFlow {
    RoceFlow::tagged(
        ip("10.0.0.2"),
        ip("10.0.1.10"),
        Qpn::new(0x11),
        Qpn::new(0x22),
    )
}

/// splitmix64, for reproducible pseudo-random inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn tuple(&mut self) -> FiveTuple {
        let r = self.next();
        FiveTuple::rocev2(
            Ipv4Addr::from(r as u32),
            Ipv4Addr::from((r >> 32) as u32),
            self.next() as u16,
        )
    }
}

/// The tuple (src, dst, protocol, sport, dport).
fn tuple(src: &str, dst: &str, protocol: u8, src_port: u16, dst_port: u16) -> FiveTuple {
    FiveTuple {
        src: ip(src),
        dst: ip(dst),
        protocol,
        src_port,
        dst_port,
    }
}

#[test]
fn the_hash_reads_the_five_tuple_in_network_order() {
    // Tuple -> hash input, CRC, spine (Python).
    let cases = [
        (
            tuple("10.0.0.2", "10.0.1.10", 17, 0xC242, 4791),
            "0a0000020a00010a11c24212b7",
            0x73FA,
            2,
        ),
        (
            tuple("192.168.1.1", "192.168.1.2", 17, 0xC000, 4791),
            "c0a80101c0a8010211c00012b7",
            0x0AF0,
            0,
        ),
        (
            tuple("10.0.0.2", "10.0.2.20", 17, 0xE285, 4791),
            "0a0000020a00021411e28512b7",
            0xF070,
            0,
        ),
        (
            tuple("0.0.0.0", "0.0.0.0", 0, 0, 0),
            "00000000000000000000000000",
            0x0000,
            0,
        ),
        (
            tuple("255.255.255.255", "255.255.255.255", 255, 0xFFFF, 0xFFFF),
            "ffffffffffffffffffffffffff",
            0x7F01,
            1,
        ),
        (
            tuple("10.1.2.3", "10.4.5.6", 6, 443, 51000),
            "0a0102030a0405060601bbc738",
            0x709E,
            2,
        ),
    ];
    for (t, input, crc, spine) in cases {
        let hex: String = t.hash_input().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, input, "{t:?}");
        assert_eq!(crc16_arc(&t.hash_input()), crc, "{t:?}");
        assert_eq!(fabric_spine(&t), spine, "{t:?}");
    }
    let t = FiveTuple::rocev2(ip("10.0.0.2"), ip("10.0.1.10"), 0xC242);
    assert_eq!(t, tuple("10.0.0.2", "10.0.1.10", 17, 0xC242, 4791));
}

#[test]
fn linux_source_ports_of_known_qp_pairs() {
    // (local QP, remote QP) -> flow label, source port (Python). The first
    // two are docs/nic-model.md's examples; 0xFFFFFF^2 is a 48-bit product
    // (both folds matter); a zero QP gives the minimum port.
    let cases: [(u32, u32, u32, u16); 9] = [
        (0x000011, 0x000022, 0x00242, 0xC242),
        (0xABCDEF, 0x123456, 0xAC3E3, 0xC3C8),
        (0x000102, 0x0A0B0C, 0xF22B9, 0xE285),
        (0xFFFFFF, 0xFFFFFF, 0xFFF1E, 0xFF21),
        (0x00C0DE, 0x00BEEF, 0x8DBBF, 0xDB9C),
        (0x000000, 0x123456, 0x00000, 0xC000),
        (0x000001, 0x000001, 0x00001, 0xC001),
        (0x000033, 0x000022, 0x006C6, 0xC6C6),
        (0x800000, 0x000003, 0x00018, 0xC018),
    ];
    for (local, remote, label, port) in cases {
        let (l, r) = (Qpn::new(local), Qpn::new(remote));
        assert_eq!(linux_flow_label(l, r), label, "{local:#x} {remote:#x}");
        assert_eq!(linux_src_port(l, r), port, "{local:#x} {remote:#x}");
        assert_eq!(linux_src_port(r, l), port, "symmetric");
        assert_eq!(flow_label_to_src_port(label), port);
    }
}

#[test]
fn linux_ports_are_in_the_rocev2_range() {
    let mut rng = Rng(1);
    for _ in 0..10_000 {
        let r = rng.next();
        let l = Qpn::new(r as u32 & 0xFF_FFFF);
        let q = Qpn::new((r >> 32) as u32 & 0xFF_FFFF);
        assert!(linux_flow_label(l, q) <= 0xF_FFFF);
        assert!(linux_src_port(l, q) >= ROCE_SRC_PORT_MIN);
    }
}

#[test]
#[should_panic(expected = "24 bits")]
fn a_qp_number_has_24_bits() {
    Qpn::new(0x100_0000);
}

#[test]
fn each_spine_delta_moves_the_spine_by_its_index() {
    // crc(d) % 4 == t for the tuple that is zero but for source port d.
    for (t, d) in SPINE_DELTAS.into_iter().enumerate() {
        let only_d = FiveTuple {
            src: Ipv4Addr::UNSPECIFIED,
            dst: Ipv4Addr::UNSPECIFIED,
            protocol: 0,
            src_port: d,
            dst_port: 0,
        };
        assert_eq!(fabric_spine(&only_d), t as u32);
    }
    // Hence, by linearity, s -> s ^ t for any tuple.
    let mut rng = Rng(2);
    for _ in 0..10_000 {
        let tuple = rng.tuple();
        let s = fabric_spine(&tuple);
        for (t, d) in SPINE_DELTAS.into_iter().enumerate() {
            let moved = tuple.with_src_port(tuple.src_port ^ d);
            assert_eq!(fabric_spine(&moved), s ^ t as u32, "{tuple:?}");
        }
    }
}

#[test]
fn paths_are_numbered_uplink_times_spines_plus_spine() {
    assert_eq!(PATH_COUNT, 8);
    assert_eq!(Path::all().count(), PATH_COUNT);
    for (i, p) in Path::all().enumerate() {
        assert_eq!(p.index(), i);
        assert_eq!(i, p.uplink() as usize * 4 + p.spine() as usize);
        assert_eq!(Path::new(p.uplink(), p.spine()), Some(p));
    }
    assert_eq!(Path::from_index(8), None);
    assert_eq!(Path::new(2, 0), None, "port 2 is a VF");
    assert_eq!(Path::new(0, 4), None);
    assert_eq!(path_of(&example_flow().tuple(0xC242), 1), Path::new(1, 2));
    assert_eq!(path_of(&example_flow().tuple(0xC242), 7), None);
}

#[test]
fn defaults_come_from_the_qps_or_the_host() {
    let flow = example_flow();
    assert_eq!(
        (flow.default_src_port(), flow.default_uplink()),
        (0xC242, 0)
    );
    let host = RoceFlow::untagged(ip("10.0.0.2"), ip("10.0.3.30"), Qpn::new(0x444), 0xC123);
    assert_eq!(
        (host.default_src_port(), host.default_uplink()),
        (0xC123, 1)
    );
    let c = choose(&host, None, &Liveness::all_up());
    // Python: crc16 spine of (10.0.0.2, 10.0.3.30, 17, 0xC123, 4791) is 3.
    assert_eq!(
        c,
        Choice::Default(Placement {
            src_port: 0xC123,
            uplink: 1,
            path: path(7)
        })
    );
}

#[test]
fn failover_probes_the_default_uplink_first() {
    // Python: the example flow's candidates (uplink, port, path).
    let want = [
        (0, 0xC242, 2),
        (0, 0xC243, 3),
        (0, 0xCA42, 0),
        (0, 0xCA43, 1),
        (1, 0xC242, 6),
        (1, 0xC243, 7),
        (1, 0xCA42, 4),
        (1, 0xCA43, 5),
    ];
    let got = failover_candidates(&example_flow()).map(|c| (c.uplink, c.src_port, c.path.index()));
    assert_eq!(got, want);
    // Whatever the flow, the candidates cover every path once.
    let mut rng = Rng(3);
    for _ in 0..1000 {
        let r = rng.next();
        let flow = RoceFlow::tagged(
            Ipv4Addr::from(r as u32),
            Ipv4Addr::from((r >> 32) as u32),
            Qpn::new(rng.next() as u32 & 0xFF_FFFF),
            Qpn::new(rng.next() as u32 & 0xFF_FFFF),
        );
        let mut seen: Vec<usize> = failover_candidates(&flow)
            .iter()
            .map(|c| c.path.index())
            .collect();
        seen.sort();
        assert_eq!(seen, (0..PATH_COUNT).collect::<Vec<_>>());
    }
}

#[test]
fn the_first_live_candidate_wins() {
    // Python: down paths -> (port, uplink, path) for the example flow.
    type Placed = Option<(u16, u32, usize)>;
    let cases: [(&[usize], Placed); 6] = [
        (&[], Some((0xC242, 0, 2))),
        (&[2], Some((0xC243, 0, 3))),
        (&[2, 3], Some((0xCA42, 0, 0))),
        (&[0, 1, 2, 3], Some((0xC242, 1, 6))),
        (&[0, 1, 2, 3, 4, 5, 6], Some((0xC243, 1, 7))),
        (&[0, 1, 2, 3, 4, 5, 6, 7], None),
    ];
    for (down, want) in cases {
        let liveness = Liveness::with_down(down.iter().map(|&i| path(i)));
        let c = choose(&example_flow(), None, &liveness);
        let got = c
            .placement()
            .map(|p| (p.src_port, p.uplink, p.path.index()));
        assert_eq!(got, want, "down {down:?}");
        let selection = match (down.is_empty(), want) {
            (true, _) => 0,
            (false, Some(_)) => 2,
            (false, None) => 3,
        };
        assert_eq!(c.selection_index(), selection, "down {down:?}");
    }
}

#[test]
fn a_pin_wins_while_its_path_is_up() {
    let flow = example_flow();
    // Python: port 0xD00D hashes to spine 2, so uplink 1 is path 6.
    let pin = Pin {
        src_port: 0xD00D,
        uplink: 1,
    };
    let placed = Placement {
        src_port: 0xD00D,
        uplink: 1,
        path: path(6),
    };
    assert_eq!(
        choose(&flow, Some(pin), &Liveness::all_up()),
        Choice::Pinned(placed)
    );
    assert_eq!(Choice::Pinned(placed).selection_index(), 1);
    // Its path down: failover from the default port, not the pin's.
    let fallback = Choice::Failover(Placement {
        src_port: 0xC242,
        uplink: 0,
        path: path(2),
    });
    assert_eq!(
        choose(&flow, Some(pin), &Liveness::with_down([path(6)])),
        fallback
    );
    // A pin to a port that is not an uplink counts as a down path.
    let bad = Pin {
        src_port: 0xD00D,
        uplink: 7,
    };
    assert_eq!(choose(&flow, Some(bad), &Liveness::all_up()), fallback);
}

#[test]
fn liveness_tracks_each_path() {
    let mut l = Liveness::all_up();
    assert!(Path::all().all(|p| l.is_up(p)));
    l.set_down(path(5), true);
    l.set_down(path(1), true);
    assert_eq!(l.down_paths().map(Path::index).collect::<Vec<_>>(), [1, 5]);
    l.set_down(path(5), false);
    assert_eq!(l, Liveness::with_down([path(1)]));
}

#[test]
fn a_source_port_for_each_spine() {
    // Python: the example tuple's spines for 0xC242 ^ each delta.
    let tuple = example_flow().tuple(0xC242);
    let want = [0xCA42, 0xCA43, 0xC242, 0xC243];
    for (spine, port) in want.into_iter().enumerate() {
        assert_eq!(src_port_for_spine(&tuple, spine as u32), port);
    }
    let mut rng = Rng(4);
    for _ in 0..10_000 {
        let tuple = rng.tuple();
        for spine in 0..SPINES_PER_UPLINK {
            let port = src_port_for_spine(&tuple, spine);
            assert_eq!(fabric_spine(&tuple.with_src_port(port)), spine);
            assert_eq!(
                (port ^ tuple.src_port) & !0x0801,
                0,
                "only bits 0 and 11 change"
            );
        }
    }
}

#[test]
#[should_panic(expected = "out of range")]
fn there_are_four_spines() {
    src_port_for_spine(&example_flow().tuple(0xC242), 4);
}

#[test]
fn a_pin_for_every_path() {
    let mut rng = Rng(5);
    for _ in 0..1000 {
        let r = rng.next();
        let flow = RoceFlow::tagged(
            Ipv4Addr::from(r as u32),
            Ipv4Addr::from((r >> 32) as u32),
            Qpn::new(rng.next() as u32 & 0xFF_FFFF),
            Qpn::new(rng.next() as u32 & 0xFF_FFFF),
        );
        for wanted in Path::all() {
            let pin = pin_for_path(&flow, wanted);
            assert!(pin.src_port >= ROCE_SRC_PORT_MIN);
            let c = choose(&flow, Some(pin), &Liveness::all_up());
            assert_eq!(c.placement().map(|p| p.path), Some(wanted));
            assert!(matches!(c, Choice::Pinned(_)));
            assert!(
                failover_candidates(&flow)
                    .iter()
                    .any(|c| c.src_port == pin.src_port),
                "the pinned port is a failover candidate's"
            );
        }
    }
}
