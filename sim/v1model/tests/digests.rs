//! `digest` delivers (receiver, flattened data) to the control plane, in
//! order, through a bounded queue.

use janus_engine::target::Target;
use janus_v1model::{MAX_PENDING_DIGESTS, V1Switch};

mod common;

const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
struct headers_t { eth_t eth; }
struct meta_t { }
struct learn_t { bit<48> src; bit<9> port; }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.eth); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        digest<learn_t>(7, { h.eth.src, sm.ingress_port });
        sm.egress_spec = 2;
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.eth); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

fn load() -> V1Switch {
    common::load("learn.p4", PROGRAM)
}

fn frame(src_last: u8) -> Vec<u8> {
    let mut f = vec![0xff; 6];
    f.extend_from_slice(&[2, 0, 0, 0, 0, src_last, 0x88, 0xb5]);
    f
}

#[test]
fn digests_carry_receiver_and_packed_fields_in_order() {
    let mut sw = load();
    assert_eq!(sw.process(3, &frame(0x11)).len(), 1);
    assert_eq!(sw.process(5, &frame(0x22)).len(), 1);
    let (digests, dropped) = sw.take_digests();
    assert_eq!(dropped, 0);
    // 48 + 9 = 57 bits, packed most significant first into 8 bytes.
    let packed = |src_last: u64, port: u64| {
        let v: u64 = ((0x0200_0000_0000 | src_last) << 9 | port) << 7;
        (7, v.to_be_bytes().to_vec())
    };
    assert_eq!(digests, vec![packed(0x11, 3), packed(0x22, 5)]);
    assert_eq!(sw.take_digests(), (vec![], 0), "taken digests are gone");
}

#[test]
fn the_digest_queue_is_bounded() {
    let mut sw = load();
    for _ in 0..MAX_PENDING_DIGESTS + 5 {
        sw.process(1, &frame(1));
    }
    let (digests, dropped) = sw.take_digests();
    assert_eq!(digests.len(), MAX_PENDING_DIGESTS);
    assert_eq!(dropped, 5);
}

/// A digest of a struct value: its fields in order, a nested struct's in
/// turn, packed as for a list.
const STRUCT_PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
struct headers_t { eth_t eth; }
struct port_t { bit<9> port; }
struct learn_t { bit<48> src; port_t in_port; }
struct meta_t { learn_t l; }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.eth); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        m.l.src = h.eth.src;
        m.l.in_port.port = sm.ingress_port;
        digest<learn_t>(7, m.l);
        sm.egress_spec = 2;
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.eth); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

#[test]
fn a_struct_digest_carries_its_fields_in_order() {
    let mut sw = common::load("learn_struct.p4", STRUCT_PROGRAM);
    assert_eq!(sw.process(3, &frame(0x11)).len(), 1);
    let (digests, dropped) = sw.take_digests();
    assert_eq!(dropped, 0);
    let v: u64 = ((0x0200_0000_0011 << 9) | 3) << 7;
    assert_eq!(digests, vec![(7, v.to_be_bytes().to_vec())]);
}
