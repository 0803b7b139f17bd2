//! Action profiles and selectors: table entries point to members or
//! groups; a group picks one member per packet by the selector hash of the
//! `selector` keys (the same flow always gets the same member); an empty
//! group is a miss.

use janus_engine::profile::{Member, Target};
use janus_engine::table::{Entry, FieldMatch};
use janus_engine::target::Target as _;
use janus_engine::value::Bits;
use janus_v1model::V1Switch;

mod common;

const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> dst; bit<8> flow; bit<8> mark; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    action_selector(HashAlgorithm.crc16, 32w16, 32w14) ecmp;
    action_profile(32w4) marks;
    action send(bit<9> port) { sm.egress_spec = port; }
    action set_mark(bit<8> v) { h.h.mark = v; }
    action miss() { sm.egress_spec = 9; }
    table fwd {
        key = { h.h.dst : exact; h.h.flow : selector; }
        actions = { send; miss; }
        default_action = miss();
        implementation = ecmp;
    }
    table mark {
        key = { h.h.dst : exact; }
        actions = { set_mark; NoAction; }
        implementation = marks;
    }
    apply { fwd.apply(); mark.apply(); }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

fn load() -> V1Switch {
    common::load("ecmp.p4", PROGRAM)
}

fn slot(sw: &V1Switch, name: &str) -> usize {
    sw.tables()
        .iter()
        .position(|t| t.name == name)
        .expect("table")
}

fn dst(v: u64) -> Vec<FieldMatch> {
    vec![FieldMatch::Exact(Bits::from_u64(8, false, v))]
}

fn send(port: u64) -> Member {
    Member {
        action: 0,
        args: vec![Bits::from_u64(9, false, port)],
    }
}

/// The (port, bytes) of the one copy a packet to `dst` of `flow` makes.
fn run(sw: &mut V1Switch, dst: u8, flow: u8) -> (u32, Vec<u8>) {
    common::one_copy(sw, &[dst, flow, 0])
}

#[test]
fn a_group_spreads_flows_over_its_members_and_keeps_each_flow_on_one() {
    let mut sw = load();
    let names: Vec<&str> = sw.profiles().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["I.ecmp", "I.marks"]);
    let ecmp = sw.profile_mut("I.ecmp").expect("profile");
    for port in 2..5 {
        ecmp.add_member(port as u32, send(port)).expect("member");
    }
    ecmp.add_group(1, &[2, 3, 4]).expect("group");
    ecmp.add_group(2, &[]).expect("empty group");
    let fwd = slot(&sw, "I.fwd");
    let table = sw.table_mut(fwd).expect("table");
    table
        .insert_indirect(dst(10), 0, Target::Group(1))
        .expect("entry");
    table
        .insert_indirect(dst(11), 0, Target::Member(4))
        .expect("entry");
    table
        .insert_indirect(dst(12), 0, Target::Group(2))
        .expect("entry");

    let mut used = std::collections::BTreeSet::new();
    for flow in 0..32 {
        let (port, _) = run(&mut sw, 10, flow);
        assert!((2..5).contains(&port), "flow {flow}: port {port}");
        assert_eq!(run(&mut sw, 10, flow).0, port, "flow {flow} moved");
        used.insert(port);
    }
    assert_eq!(used.len(), 3, "every member carries some flows: {used:?}");
    assert_eq!(run(&mut sw, 11, 0).0, 4, "an entry pointing to a member");
    assert_eq!(run(&mut sw, 12, 0).0, 9, "an empty group is a miss");
    assert_eq!(run(&mut sw, 13, 0).0, 9, "no entry: the default action");

    // Pointing the entry at another member takes effect at once.
    let table = sw.table_mut(fwd).expect("table");
    table
        .modify_indirect(&dst(10), 0, Target::Member(2))
        .expect("modify");
    assert!((0..8).all(|flow| run(&mut sw, 10, flow).0 == 2));
}

#[test]
fn an_action_profile_without_a_selector_points_entries_at_members() {
    let mut sw = load();
    let marks = sw.profile_mut("I.marks").expect("profile");
    let mark = |v| Member {
        action: 0,
        args: vec![Bits::from_u64(8, false, v)],
    };
    marks.add_member(1, mark(0xaa)).expect("member");
    assert!(
        marks.add_group(1, &[1]).is_err(),
        "no groups without a selector"
    );
    let table = sw.table_mut(slot(&sw, "I.mark")).expect("table");
    table
        .insert_indirect(dst(10), 0, Target::Member(1))
        .expect("entry");
    // A direct entry (as STF `add` writes) still runs its own action.
    table
        .insert(Entry {
            key: dst(11),
            priority: 0,
            action: 0,
            args: vec![Bits::from_u64(8, false, 0xbb)],
        })
        .expect("entry");
    assert_eq!(run(&mut sw, 10, 0).1, [10, 0, 0xaa]);
    assert_eq!(run(&mut sw, 11, 0).1, [11, 0, 0xbb]);
}
