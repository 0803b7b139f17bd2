//! Parser value sets: a select case on `value_set<T>(size)` matches the
//! members the control plane added (values, or values under masks); with
//! no members it matches nothing, and the set holds at most `size`.

use janus_engine::table::{Entry, FieldMatch};
use janus_engine::target::Target;
use janus_engine::value::Bits;
use janus_v1model::V1Switch;

mod common;

const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<16> type; }
header tag_t { bit<8> kind; bit<8> mark; }
struct headers_t { eth_t eth; tag_t tag; }
struct meta_t { }
struct pair_t { bit<16> type; bit<8> kind; }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) tagged_types;
    value_set<pair_t>(2) marked;
    state start {
        pkt.extract(h.eth);
        transition select(h.eth.type) {
            tagged_types: tag;
            default: accept;
        }
    }
    state tag {
        pkt.extract(h.tag);
        transition select(h.eth.type, h.tag.kind) {
            marked: mark;
            default: accept;
        }
    }
    state mark {
        h.tag.mark = 0xee;
        transition accept;
    }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (h.tag.isValid()) { sm.egress_spec = 3; }
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.eth); pkt.emit(h.tag); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

fn load() -> V1Switch {
    common::load("pvs.p4", PROGRAM)
}

fn member(fields: &[(u32, u64, u64)]) -> Entry {
    Entry {
        key: fields
            .iter()
            .map(|&(w, value, mask)| FieldMatch::Ternary {
                value: Bits::from_u64(w, false, value),
                mask: Bits::from_u64(w, false, mask),
            })
            .collect(),
        priority: 0,
        action: 0,
        args: Vec::new(),
    }
}

#[test]
fn select_cases_match_the_members_of_value_sets() {
    let mut sw = load();
    let names: Vec<&str> = sw.value_sets().iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["P.tagged_types", "P.marked"]);
    // No members: nothing matches, the tag is payload.
    assert_eq!(common::one_copy(&mut sw, &[0x81, 0x00, 0x01, 0x00]).0, 2);

    let tagged = sw.value_set_mut("P.tagged_types").expect("value set");
    tagged
        .insert(member(&[(16, 0x8100, 0xffff)]))
        .expect("member");
    // 0x9a00 under mask 0xff00: any 0x9aXX type.
    tagged
        .insert(member(&[(16, 0x9a00, 0xff00)]))
        .expect("member");
    assert_eq!(common::one_copy(&mut sw, &[0x81, 0x00, 0x01, 0x00]).0, 3);
    assert_eq!(common::one_copy(&mut sw, &[0x9a, 0x42, 0x01, 0x00]).0, 3);
    assert_eq!(common::one_copy(&mut sw, &[0x81, 0x01, 0x01, 0x00]).0, 2);

    // A struct element: one key per field, all must match.
    let marked = sw.value_set_mut("P.marked").expect("value set");
    marked
        .insert(member(&[(16, 0x8100, 0xffff), (8, 7, 0xff)]))
        .expect("member");
    assert_eq!(
        common::one_copy(&mut sw, &[0x81, 0x00, 0x07, 0x00]),
        (3, vec![0x81, 0x00, 0x07, 0xee])
    );
    assert_eq!(
        common::one_copy(&mut sw, &[0x9a, 0x00, 0x07, 0x00]),
        (3, vec![0x9a, 0x00, 0x07, 0x00])
    );
}

#[test]
fn a_value_set_holds_at_most_its_size() {
    let mut sw = load();
    let marked = sw.value_set_mut("P.marked").expect("value set");
    for kind in 0..2 {
        marked
            .insert(member(&[(16, 1, 0xffff), (8, kind, 0xff)]))
            .expect("fits");
    }
    assert!(
        marked
            .insert(member(&[(16, 1, 0xffff), (8, 9, 0xff)]))
            .is_err()
    );
}

const TUPLE_PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    value_set<bit<8>>(4) special;
    state start {
        pkt.extract(h.h);
        transition select(h.h.a, h.h.b) {
            (special, 8w1 .. 8w5): marked;
            default: accept;
        }
    }
    state marked { sm.egress_spec = 3; transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply { if (sm.egress_spec != 3) { sm.egress_spec = 2; } }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

#[test]
fn a_value_set_can_be_one_element_of_a_tuple_keyset() {
    let mut sw = common::load("pvs_tuple.p4", TUPLE_PROGRAM);
    assert_eq!(common::one_copy(&mut sw, &[0x42, 2]).0, 2, "empty set");
    sw.value_set_mut("P.special")
        .expect("value set")
        .insert(member(&[(8, 0x42, 0xff)]))
        .expect("member");
    assert_eq!(common::one_copy(&mut sw, &[0x42, 2]).0, 3);
    assert_eq!(common::one_copy(&mut sw, &[0x42, 9]).0, 2, "b out of range");
    assert_eq!(
        common::one_copy(&mut sw, &[0x43, 2]).0,
        2,
        "a not in the set"
    );
}
