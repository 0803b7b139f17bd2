//! The pipeline's clock: `ingress_global_timestamp` and
//! `egress_global_timestamp` in microseconds since the pipeline was
//! loaded, and the last-hit time of entries in tables that support idle
//! timeouts.

use janus_engine::table::{Entry, FieldMatch};
use janus_engine::target::Target;
use janus_engine::value::Bits;

mod common;

const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> key; bit<48> ingress_ts; bit<48> egress_ts; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.h); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    action fwd() { sm.egress_spec = 2; }
    table flows {
        key = { h.h.key : exact; }
        actions = { fwd; NoAction; }
        support_timeout = true;
    }
    apply {
        sm.egress_spec = 3;
        flows.apply();
        h.h.ingress_ts = sm.ingress_global_timestamp;
    }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    apply { h.h.egress_ts = sm.egress_global_timestamp; }
}
control C(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t h) { apply { pkt.emit(h.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

fn stamps(bytes: &[u8]) -> (u64, u64) {
    let field = |at: usize| {
        bytes[at..at + 6]
            .iter()
            .fold(0u64, |a, b| a << 8 | u64::from(*b))
    };
    (field(1), field(7))
}

#[test]
fn timestamps_come_from_the_pipeline_clock_and_entries_keep_their_last_hit() {
    let mut sw = common::load("clock.p4", PROGRAM);
    let slot = sw
        .tables()
        .iter()
        .position(|t| t.name == "I.flows")
        .expect("table");
    let key = vec![FieldMatch::Exact(Bits::from_u64(8, false, 7))];
    let table = sw.table_mut(slot).expect("table");
    table
        .insert(Entry {
            key: key.clone(),
            priority: 0,
            action: 0,
            args: Vec::new(),
        })
        .expect("entry");
    let index = table.index_of(&key, 0).expect("added");
    assert_eq!(table.last_hit_us(index), None, "not hit yet");

    let mut packet = vec![7];
    packet.extend([0; 12]);
    let before = sw.now_us();
    let (port, bytes) = common::one_copy(&mut sw, &packet);
    let after = sw.now_us();
    assert_eq!(port, 2);
    let (ingress, egress) = stamps(&bytes);
    assert!(before <= ingress && ingress <= egress && egress <= after);

    let hit = sw
        .table(slot)
        .expect("table")
        .last_hit_us(index)
        .expect("hit");
    // (A hit in the clock's first microsecond is recorded as 1.)
    assert!(
        before <= hit && hit <= after.max(1),
        "{before} <= {hit} <= {after}"
    );
    // A miss touches no entry.
    packet[0] = 8;
    assert_eq!(common::one_copy(&mut sw, &packet).0, 3);
    assert_eq!(sw.table(slot).expect("table").last_hit_us(index), Some(hit));
}
