//! The shipped L3 router with ACL through the whole v1model pipeline.

use janus_engine::table::{Entry, FieldMatch};
use janus_engine::target::Target;
use janus_engine::value::Bits;
use janus_v1model::V1Switch;
use janus_wire::checksum::internet_checksum;
use std::path::Path;

fn load() -> V1Switch {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../p4/examples/l3_router_acl.p4");
    let c = janus_p4::driver::compile_file(&path, &Default::default()).expect("readable");
    assert!(!c.has_errors(), "{}", c.render(false));
    V1Switch::load(c.ir.expect("ir")).expect("loads")
}

fn slot(sw: &V1Switch, name: &str) -> usize {
    sw.tables()
        .iter()
        .position(|t| t.name == name)
        .unwrap_or_else(|| panic!("no table {name}"))
}

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn udp_packet(dst_ip: &str, ttl: u8, dst_port: u16) -> Vec<u8> {
    let mut ip = hex(&format!(
        "45 00 0024 0001 0000 {ttl:02x} 11 0000 0a010101 {dst_ip}"
    ));
    let c = internet_checksum(&ip);
    ip[10] = (c >> 8) as u8;
    ip[11] = c as u8;
    let mut p = hex("aaaaaaaaaaaa 020000000001 0800");
    p.extend(ip);
    p.extend(hex(&format!(
        "1234 {dst_port:04x} 0010 0000 cafebabecafebabe"
    )));
    p
}

#[test]
fn routes_rewrites_and_fixes_the_checksum() {
    let mut sw = load();
    let lpm = slot(&sw, "RouterIngress.ipv4_lpm");
    let set_nexthop = sw.tables()[lpm]
        .actions
        .iter()
        .position(|a| a.name == "RouterIngress.set_nexthop")
        .expect("action");
    sw.table_mut(lpm)
        .unwrap()
        .insert(Entry {
            key: vec![FieldMatch::Lpm {
                value: Bits::from_u64(32, false, 0x0a02_0000),
                len: 16,
            }],
            priority: 0,
            action: set_nexthop,
            args: vec![
                Bits::from_u64(48, false, 0x0000_0000_00bb),
                Bits::from_u64(9, false, 2),
            ],
        })
        .unwrap();
    let packet = udp_packet("0a020304", 64, 8080);
    let out = sw.process(1, &packet);
    assert_eq!(out.len(), 1, "{out:?}");
    let (port, bytes) = &out[0];
    assert_eq!(*port, 2);
    assert_eq!(bytes.len(), packet.len());
    assert_eq!(&bytes[0..6], &hex("0000000000bb"), "new destination MAC");
    assert_eq!(
        &bytes[6..12],
        &hex("aaaaaaaaaaaa"),
        "old destination became the source"
    );
    assert_eq!(bytes[14 + 8], 63, "TTL decremented");
    assert_eq!(
        internet_checksum(&bytes[14..34]),
        0,
        "IPv4 checksum recomputed"
    );
    assert_eq!(
        &bytes[34..],
        &packet[34..],
        "UDP header and payload unchanged"
    );
}

#[test]
fn drops_misses_expired_ttl_and_acl_denials() {
    let mut sw = load();
    // No route: the default action drops.
    assert!(sw.process(1, &udp_packet("0a020304", 64, 8080)).is_empty());
    let lpm = slot(&sw, "RouterIngress.ipv4_lpm");
    let set_nexthop = sw.tables()[lpm]
        .actions
        .iter()
        .position(|a| a.name == "RouterIngress.set_nexthop")
        .unwrap();
    sw.table_mut(lpm)
        .unwrap()
        .insert(Entry {
            key: vec![FieldMatch::Lpm {
                value: Bits::from_u64(32, false, 0),
                len: 0,
            }],
            priority: 0,
            action: set_nexthop,
            args: vec![Bits::from_u64(48, false, 1), Bits::from_u64(9, false, 3)],
        })
        .unwrap();
    assert_eq!(sw.process(1, &udp_packet("0a020304", 64, 8080)).len(), 1);
    assert!(
        sw.process(1, &udp_packet("0a020304", 1, 8080)).is_empty(),
        "TTL 1 is dropped"
    );
    // The ACL's const entries deny UDP to ports 0..1023 (except DNS to 192.168/16).
    assert!(
        sw.process(1, &udp_packet("0a020304", 64, 80)).is_empty(),
        "denied by the ACL"
    );
    assert_eq!(
        sw.process(1, &udp_packet("c0a80001", 64, 53)).len(),
        1,
        "DNS to 192.168/16 permitted"
    );
    // Not IPv4: dropped.
    assert!(
        sw.process(1, &hex("aaaaaaaaaaaa 020000000001 86dd 00000000"))
            .is_empty()
    );
}

#[test]
fn counters_and_registers_by_name() {
    let src = r#"
        #include <core.p4>
        #include <v1model.p4>
        header h_t { bit<8> v; }
        struct hs { h_t h; }
        struct m_t { }
        parser P(packet_in p, out hs h, inout m_t m, inout standard_metadata_t sm) {
            state start { p.extract(h.h); transition accept; }
        }
        control I(inout hs h, inout m_t m, inout standard_metadata_t sm) {
            counter(32w4, CounterType.packets_and_bytes) seen;
            register<bit<16>>(32w4) last;
            apply {
                seen.count((bit<32>)h.h.v);
                bit<16> before;
                last.read(before, (bit<32>)h.h.v);
                last.write((bit<32>)h.h.v, before + 16w1);
                sm.egress_spec = 1;
            }
        }
        control E(inout hs h, inout m_t m, inout standard_metadata_t sm) { apply { } }
        control C(inout hs h, inout m_t m) { apply { } }
        control D(packet_out p, in hs h) { apply { p.emit(h.h); } }
        V1Switch(P(), C(), I(), E(), C(), D()) main;
    "#;
    let c = janus_p4::driver::compile_source("cr.p4", src.into(), &Default::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let mut sw = V1Switch::load(c.ir.unwrap()).expect("loads");
    for _ in 0..3 {
        assert_eq!(sw.process(0, &[2, 0xee, 0xee]).len(), 1);
    }
    assert_eq!(sw.counter("I.seen", 2), Some((3, 9)));
    assert_eq!(sw.counter("I.seen", 1), Some((0, 0)));
    assert_eq!(
        sw.register("I.last", 2).map(|b| b.as_u64_truncated()),
        Some(3)
    );
    assert!(sw.register_write("I.last", 2, 100).is_ok());
    sw.process(0, &[2]);
    assert_eq!(
        sw.register("I.last", 2).map(|b| b.as_u64_truncated()),
        Some(101)
    );
    assert_eq!(sw.counter("I.nope", 0), None);
}

#[test]
fn nested_parsers_and_controls_with_their_own_tables() {
    let src = r#"
        #include <core.p4>
        #include <v1model.p4>
        header a_t { bit<8> kind; bit<8> v; }
        header b_t { bit<16> w; }
        struct hs { a_t a; b_t b; }
        struct m_t { bit<8> seen; }
        parser Sub(packet_in p, inout hs h) {
            state start { p.extract(h.b); transition accept; }
        }
        parser P(packet_in p, out hs h, inout m_t m, inout standard_metadata_t sm) {
            Sub() sub;
            state start {
                p.extract(h.a);
                transition select(h.a.kind) { 1: more; default: accept; }
            }
            state more { sub.apply(p, h); transition accept; }
        }
        control Bump(inout bit<8> x, in bit<8> by) {
            action add(bit<8> k) { x = x + k; }
            table t { key = { by: exact; } actions = { add; NoAction; } default_action = NoAction(); }
            apply { t.apply(); }
        }
        control I(inout hs h, inout m_t m, inout standard_metadata_t sm) {
            Bump() first;
            Bump() second;
            apply {
                first.apply(h.a.v, 8w1);
                second.apply(h.a.v, 8w2);
                sm.egress_spec = 3;
            }
        }
        control E(inout hs h, inout m_t m, inout standard_metadata_t sm) { apply { } }
        control C(inout hs h, inout m_t m) { apply { } }
        control D(packet_out p, in hs h) { apply { p.emit(h.a); p.emit(h.b); } }
        V1Switch(P(), C(), I(), E(), C(), D()) main;
    "#;
    let c = janus_p4::driver::compile_source("nested.p4", src.into(), &Default::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let mut sw = V1Switch::load(c.ir.unwrap()).expect("loads");
    let names: Vec<&str> = sw.tables().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["I.first.t", "I.second.t"]);
    // first adds 10 when its key is 1; second adds 100 when its key is 2.
    for (slot, key, k) in [(0usize, 1u64, 10u64), (1, 2, 100)] {
        sw.table_mut(slot)
            .unwrap()
            .insert(Entry {
                key: vec![FieldMatch::Exact(Bits::from_u64(8, false, key))],
                priority: 0,
                action: 0,
                args: vec![Bits::from_u64(8, false, k)],
            })
            .unwrap();
    }
    // kind 1: the sub-parser extracts b too; v = 5 + 10 + 100.
    let out = sw.process(0, &[1, 5, 0xab, 0xcd, 0xee]);
    assert_eq!(out, vec![(3, vec![1, 115, 0xab, 0xcd, 0xee])]);
    // kind 2: no b; v = 7 + 110.
    let out = sw.process(0, &[2, 7, 0xee]);
    assert_eq!(out, vec![(3, vec![2, 117, 0xee])]);
}

#[test]
fn direct_counters_count_hits_per_entry() {
    let mut sw = load();
    let acl = slot(&sw, "RouterIngress.acl");
    // Two packets hit the const entry denying UDP to ports 0..1023; one
    // misses every entry (the default action runs, nothing is counted).
    for port in [80, 80, 8080] {
        sw.process(1, &udp_packet("0a020304", 64, port));
    }
    let table = sw.table(acl).expect("acl");
    let counted: Vec<(u64, u64)> = table
        .counted_entries()
        .map(|(_, c)| c)
        .filter(|c| c.0 > 0)
        .collect();
    assert_eq!(counted, vec![(2, 100)], "one entry, two 50-byte packets");
}
