//! P4Info from programs p4c accepts (issue 17): sizes folded per instance
//! and annotation bodies with any tokens.

use crate::driver::{Options, compile_source};
use crate::p4info;

/// A table `size` computed from constructor parameters is folded for each
/// instance of its control (issue 17); one from named constants is folded
/// by the checker.
#[test]
fn table_sizes_from_constants_and_constructor_parameters() {
    const SRC: &str = r#"
#include <core.p4>
#include <v1model.p4>
const bit<32> BASE = 100;
struct headers { }
struct metadata { bit<8> k; }
parser P(packet_in b, out headers h, inout metadata m, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control Sized(inout metadata m)(bit<32> n) {
    table t { key = { m.k: exact; } actions = { NoAction; } size = n * 2 + BASE; }
    table u { key = { m.k: exact; } actions = { NoAction; } size = BASE * 3; }
    apply { t.apply(); u.apply(); }
}
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    Sized(10) small;
    Sized(450) big;
    apply { small.apply(meta); big.apply(meta); }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out packet, in headers hdr) { apply { } }
V1Switch(P(), C(), I(), E(), C(), D()) main;
"#;
    let c = compile_source("sizes.p4", SRC.into(), &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let i = p4info::build(c.program().expect("program"));
    let sizes: Vec<(&str, u64)> = i
        .tables
        .iter()
        .map(|t| (t.preamble.name.as_str(), t.size))
        .collect();
    assert_eq!(
        sizes,
        [
            ("I.small.t", 120),
            ("I.small.u", 300),
            ("I.big.t", 1000),
            ("I.big.u", 300)
        ]
    );
}

/// An unstructured annotation keeps every token of its body, characters no
/// P4 token starts with included (p4c's UNEXPECTED_TOKENs), printed one
/// space apart; comments are left out (issue 17).
#[test]
fn annotation_bodies_keep_unreadable_characters() {
    const SRC: &str = r#"
#include <core.p4>
#include <v1model.p4>
struct headers { }
struct metadata { bit<8> k; }
parser P(packet_in b, out headers h, inout metadata m, inout standard_metadata_t sm) {
    state start { transition accept; }
}
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    @switchstack(x $ y "c)" /* a note */ d[1] # 'q') @mode((a, b))
    table t { key = { meta.k: exact; } actions = { NoAction; } }
    apply { t.apply(); }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out packet, in headers hdr) { apply { } }
V1Switch(P(), C(), I(), E(), C(), D()) main;
"#;
    let c = compile_source("annos.p4", SRC.into(), &Options::default());
    assert!(c.diagnostics.is_empty(), "{}", c.render(false));
    let i = p4info::build(c.program().expect("program"));
    assert_eq!(
        i.tables[0].preamble.annotations,
        [
            "@switchstack(x $ y \"c)\" d [ 1 ] # ' q ')",
            "@mode(( a , b ))"
        ]
    );
}
