//! Replication limits: a program that recirculates every packet ends after
//! a bounded number of passes instead of looping.

use janus_engine::target::Target;
use janus_v1model::V1Switch;

mod common;

const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> passes; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply { h.h.passes = h.h.passes + 1; sm.egress_spec = 1; }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply { if (h.h.passes < LIMIT) { recirculate_preserving_field_list(0); } }
}
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

fn load(limit: u32) -> V1Switch {
    common::load("recirc.p4", &format!("#define LIMIT {limit}\n{PROGRAM}"))
}

#[test]
fn recirculated_packets_come_back_through_ingress() {
    // Three passes: the packet leaves with the count of ingress runs.
    let mut sw = load(3);
    assert_eq!(sw.process(1, &[0]), vec![(1, vec![3])]);
}

#[test]
fn endless_recirculation_stops_at_the_pass_limit() {
    let mut sw = load(255);
    assert_eq!(sw.process(1, &[0]), vec![], "dropped after 16 passes");
    let mut sw = load(16);
    assert_eq!(
        sw.process(1, &[0]),
        vec![(1, vec![16])],
        "16 passes are allowed"
    );
}
