//! P4Info generation: ids, names, aliases and resources.

use janus_p4::driver::{Options, compile_source};
use janus_p4::p4info::{self, P4Info, prefix};

const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
@controller_header("packet_in")
header packet_in_h { bit<9> ingress_port; bit<7> pad; }
header eth_h { bit<48> dst; bit<48> src; bit<16> ty; }
struct hdrs { packet_in_h cpu; eth_h eth; }
struct meta { bit<8> m; }
struct learn_t { bit<48> src; bit<9> port; }
parser P(packet_in b, out hdrs h, inout meta m, inout standard_metadata_t sm) {
    state start { b.extract(h.eth); transition accept; }
}
control Ing(inout hdrs h, inout meta m, inout standard_metadata_t sm) {
    direct_counter(CounterType.packets) hits;
    counter(32w64, CounterType.bytes) per_port;
    register<bit<32>>(32w128) last_seen;
    action_selector(HashAlgorithm.crc16, 32w1024, 32w14) sel;
    @id(0x42) action fwd(bit<9> port) { sm.egress_spec = port; hits.count(); }
    action drop() { mark_to_drop(sm); }
    @name("mac_table") table dmac {
        key = { h.eth.dst: exact; h.eth.ty: ternary @name("ethertype"); }
        actions = { fwd; @defaultonly drop; }
        const default_action = drop();
        counters = hits;
        size = 512;
    }
    table ecmp {
        key = { h.eth.ty: exact; h.eth.src: selector; }
        actions = { fwd; }
        implementation = sel;
    }
    apply {
        dmac.apply();
        ecmp.apply();
        per_port.count((bit<32>)sm.ingress_port);
        digest<learn_t>(1, { h.eth.src, sm.ingress_port });
    }
}
control Eg(inout hdrs h, inout meta m, inout standard_metadata_t sm) { apply { } }
control VC(inout hdrs h, inout meta m) { apply { } }
control CC(inout hdrs h, inout meta m) { apply { } }
control D(packet_out b, in hdrs h) { apply { b.emit(h.eth); } }
V1Switch(P(), VC(), Ing(), Eg(), CC(), D()) main;
"#;

fn info() -> P4Info {
    let c = compile_source("p4info_test.p4", PROGRAM.into(), &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    p4info::build(c.program().expect("program"))
}

#[test]
fn ids_carry_the_p4runtime_prefixes() {
    let i = info();
    assert_eq!(i.arch(), "v1model");
    for t in &i.tables {
        assert_eq!(
            t.preamble.id >> 24,
            prefix::TABLE as u32,
            "{}",
            t.preamble.name
        );
    }
    for a in &i.actions {
        assert_eq!(
            a.preamble.id >> 24,
            prefix::ACTION as u32,
            "{}",
            a.preamble.name
        );
    }
    assert_eq!(
        i.direct_counters[0].preamble.id >> 24,
        prefix::DIRECT_COUNTER as u32
    );
    assert_eq!(i.counters[0].preamble.id >> 24, prefix::COUNTER as u32);
    assert_eq!(i.registers[0].preamble.id >> 24, prefix::REGISTER as u32);
    assert_eq!(
        i.action_profiles[0].preamble.id >> 24,
        prefix::ACTION_PROFILE as u32
    );
    assert_eq!(
        i.controller_packet_metadata[0].preamble.id >> 24,
        prefix::CONTROLLER_HEADER as u32
    );
    assert_eq!(i.digests[0].preamble.id >> 24, prefix::DIGEST as u32);
}

#[test]
fn id_annotation_is_honoured_and_ids_are_stable() {
    let a = info();
    let fwd = a
        .actions
        .iter()
        .find(|x| x.preamble.name == "Ing.fwd")
        .expect("fwd");
    assert_eq!(fwd.preamble.id, 0x0100_0042);
    assert_eq!(a, info(), "P4Info differs between two runs");
    let mut ids: Vec<u32> = a.tables.iter().map(|t| t.preamble.id).collect();
    ids.extend(a.actions.iter().map(|t| t.preamble.id));
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate ids");
}

#[test]
fn names_follow_the_control_plane_convention() {
    let i = info();
    let names: Vec<&str> = i.tables.iter().map(|t| t.preamble.name.as_str()).collect();
    assert_eq!(names, ["Ing.mac_table", "Ing.ecmp"]);
    assert_eq!(i.tables[0].preamble.alias, "mac_table");
    let keys: Vec<(&str, &str, u32)> = i.tables[0]
        .match_fields
        .iter()
        .map(|m| (m.name.as_str(), m.match_type.as_str(), m.bitwidth))
        .collect();
    assert_eq!(
        keys,
        [("h.eth.dst", "EXACT", 48), ("ethertype", "TERNARY", 16)]
    );
    // `NoAction` is global; `drop` is default-only in the table.
    let dmac = &i.tables[0];
    assert_eq!(dmac.size, 512);
    assert_eq!(dmac.action_refs[1].scope, "DEFAULT_ONLY");
    assert_eq!(dmac.const_default_action_id, Some(dmac.action_refs[1].id));
}

#[test]
fn resources_are_linked_to_their_tables() {
    let i = info();
    let dmac = &i.tables[0];
    assert_eq!(
        dmac.direct_resource_ids,
        vec![i.direct_counters[0].preamble.id]
    );
    assert_eq!(i.direct_counters[0].direct_table_id, Some(dmac.preamble.id));
    let ecmp = &i.tables[1];
    // The selector key is not a match field.
    assert_eq!(ecmp.match_fields.len(), 1);
    assert_eq!(
        ecmp.implementation_id,
        Some(i.action_profiles[0].preamble.id)
    );
    assert!(i.action_profiles[0].with_selector);
    assert_eq!(i.action_profiles[0].size, 1024);
    assert_eq!(i.counters[0].unit, "BYTES");
    assert_eq!(i.counters[0].size, 64);
    assert_eq!(
        (i.registers[0].size, i.registers[0].type_spec.clone()),
        (128, Some(p4info::TypeSpec::Bit(32)))
    );
    let fwd = i
        .actions
        .iter()
        .find(|a| a.preamble.name == "Ing.fwd")
        .expect("fwd");
    assert_eq!(
        (fwd.params[0].name.as_str(), fwd.params[0].bitwidth),
        ("port", 9)
    );
}

#[test]
fn controller_headers_and_digests() {
    let i = info();
    let cpu = &i.controller_packet_metadata[0];
    assert_eq!(cpu.preamble.name, "packet_in");
    let md: Vec<(&str, u32)> = cpu
        .metadata
        .iter()
        .map(|m| (m.name.as_str(), m.bitwidth))
        .collect();
    assert_eq!(md, [("ingress_port", 9), ("pad", 7)]);
    assert_eq!(i.digests[0].preamble.name, "learn_t");
}

#[test]
fn text_format_is_well_formed() {
    let text = p4info::to_text(&info());
    let opens = text.matches('{').count();
    assert_eq!(opens, text.matches('}').count());
    assert!(text.starts_with(
        "# proto-file: p4/config/v1/p4info.proto\n# proto-message: p4.config.v1.P4Info\n\npkg_info {\n  arch: \"v1model\"\n}\n"
    ));
    assert!(text.contains("tables {\n  preamble {\n    id: "), "{text}");
    assert!(text.contains("match_type: TERNARY"));
    assert!(text.contains("controller_packet_metadata {"));
}

/// Every valid corpus program: P4Info ids are unique and carry their
/// prefix, every reference points at an emitted object, text is balanced.
#[test]
fn corpus_p4info_is_consistent() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/p4/valid");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("corpus") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|x| x != "p4") {
            continue;
        }
        let c = janus_p4::driver::compile_file(&path, &Options::default()).expect("readable");
        let Some(program) = c.program() else { continue };
        let src = std::fs::read_to_string(&path).expect("readable");
        let i = p4info::build(program);
        let mut ids = std::collections::HashSet::new();
        let mut check = |id: u32, pfx: u8, what: &str| {
            assert_eq!(
                id >> 24,
                pfx as u32,
                "{}: {what} id {id:#x}",
                path.display()
            );
            assert!(ids.insert(id), "{}: duplicate id {id:#x}", path.display());
        };
        i.tables
            .iter()
            .for_each(|t| check(t.preamble.id, prefix::TABLE, &t.preamble.name));
        i.actions
            .iter()
            .for_each(|a| check(a.preamble.id, prefix::ACTION, &a.preamble.name));
        i.action_profiles
            .iter()
            .for_each(|a| check(a.preamble.id, prefix::ACTION_PROFILE, "profile"));
        i.counters
            .iter()
            .for_each(|a| check(a.preamble.id, prefix::COUNTER, "counter"));
        i.direct_counters
            .iter()
            .for_each(|a| check(a.preamble.id, prefix::DIRECT_COUNTER, "direct counter"));
        i.meters
            .iter()
            .for_each(|a| check(a.preamble.id, prefix::METER, "meter"));
        i.direct_meters
            .iter()
            .for_each(|a| check(a.preamble.id, prefix::DIRECT_METER, "direct meter"));
        i.registers
            .iter()
            .for_each(|a| check(a.preamble.id, prefix::REGISTER, "register"));
        i.digests
            .iter()
            .for_each(|a| check(a.preamble.id, prefix::DIGEST, "digest"));
        i.value_sets
            .iter()
            .for_each(|a| check(a.preamble.id, prefix::VALUE_SET, "value set"));
        for t in &i.tables {
            for r in &t.action_refs {
                // p4c leaves `@hidden` actions out but keeps the references.
                assert!(
                    i.actions.iter().any(|a| a.preamble.id == r.id) || src.contains("@hidden"),
                    "{}: dangling action ref",
                    path.display()
                );
            }
            if let Some(imp) = t.implementation_id {
                assert!(
                    i.action_profiles.iter().any(|a| a.preamble.id == imp),
                    "{}: dangling profile",
                    path.display()
                );
            }
        }
        let text = p4info::to_text(&i);
        assert_eq!(
            text.matches('{').count(),
            text.matches('}').count(),
            "{}",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 70, "only {checked} programs checked");
}

/// A control instantiated twice inside another: its objects appear once per
/// instance, named by instance path, as p4c names them.
#[test]
fn nested_instances_are_named_by_path() {
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/p4/valid/nested_control_instances.p4"),
    )
    .expect("corpus program");
    let c = compile_source("nested.p4", src, &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let i = p4info::build(c.program().expect("program"));
    let tables: Vec<(&str, &str)> = i
        .tables
        .iter()
        .map(|t| (t.preamble.name.as_str(), t.preamble.alias.as_str()))
        .collect();
    // p4c inlines the instances where they are declared, before `g`.
    assert_eq!(
        tables,
        [
            ("Ing.first.t", "first.t"),
            ("Ing.second.t", "second.t"),
            ("global_tbl", "global_tbl")
        ]
    );
    let actions: Vec<&str> = i.actions.iter().map(|a| a.preamble.name.as_str()).collect();
    assert_eq!(actions, ["NoAction", "Ing.first.set", "Ing.second.set"]);
    let counters: Vec<&str> = i
        .counters
        .iter()
        .map(|a| a.preamble.name.as_str())
        .collect();
    assert_eq!(counters, ["Ing.first.hits", "Ing.second.hits"]);
    // Each table instance refers to its own copy of the action.
    assert_ne!(i.tables[0].action_refs[0].id, i.tables[1].action_refs[0].id);
}

#[test]
fn an_instance_passed_by_name_keeps_the_name_where_it_was_declared() {
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/p4/valid/p10_control_ctor_shared.p4"),
    )
    .expect("corpus program");
    let c = compile_source("shared.p4", src, &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let program = c.program().expect("program");
    let paths: Vec<String> = program
        .instance_paths()
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    // `tally` is passed to `a` and `b` but lives once, in I.
    assert!(
        paths
            .iter()
            .filter(|p| p.ends_with("tally"))
            .eq(["I.tally"].iter())
    );
    let i = p4info::build(program);
    let tables: Vec<&str> = i.tables.iter().map(|t| t.preamble.name.as_str()).collect();
    assert_eq!(tables, ["I.tally.bonus"]);
    let counters: Vec<&str> = i
        .counters
        .iter()
        .map(|c| c.preamble.name.as_str())
        .collect();
    assert_eq!(counters, ["I.tally.c"]);
    let registers: Vec<&str> = i
        .registers
        .iter()
        .map(|r| r.preamble.name.as_str())
        .collect();
    assert_eq!(registers, ["I.tally.r"]);
}

#[test]
fn an_instance_created_in_a_constructor_call_is_named_under_its_receiver() {
    let src = r#"
#include <core.p4>
control Step(inout bit<8> x);
control AddOne(inout bit<8> x) {
    action inc() { x = x + 1; }
    table t { actions = { inc; } default_action = inc(); }
    apply { t.apply(); }
}
control Twice(inout bit<8> x)(Step f) { apply { f.apply(x); f.apply(x); } }
control Ing(inout bit<8> x) {
    Twice(AddOne()) twice;
    apply { twice.apply(x); }
}
control Ct(inout bit<8> x);
package Pkg(Ct c);
Pkg(Ing()) main;
"#;
    let c = compile_source("anon.p4", src.into(), &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let i = p4info::build(c.program().expect("program"));
    let tables: Vec<&str> = i.tables.iter().map(|t| t.preamble.name.as_str()).collect();
    assert_eq!(tables, ["Ing.twice.AddOne.t"]);
}

/// p4c's id rule: the resource prefix over the low 24 bits of the Jenkins
/// one-at-a-time hash of the fully qualified name.
#[test]
fn ids_are_p4cs_name_hashes() {
    // The hash's published test vectors.
    assert_eq!(p4info::jenkins_one_at_a_time(b"a"), 0xca2e_9442);
    assert_eq!(
        p4info::jenkins_one_at_a_time(b"The quick brown fox jumps over the lazy dog"),
        0x519e_91f5
    );
    // A router written the way the P4 tutorials name things: the ids p4c
    // gives these names (as controllers built on the tutorials hard-code
    // them).
    let src = r#"
#include <core.p4>
#include <v1model.p4>
header ipv4_t { bit<32> dst; }
struct headers { ipv4_t ipv4; }
struct metadata { }
parser MyParser(packet_in b, out headers h, inout metadata m, inout standard_metadata_t sm) {
    state start { b.extract(h.ipv4); transition accept; }
}
control MyIngress(inout headers h, inout metadata m, inout standard_metadata_t sm) {
    action drop() { mark_to_drop(sm); }
    action ipv4_forward(bit<9> port) { sm.egress_spec = port; }
    table ipv4_lpm {
        key = { h.ipv4.dst: lpm; }
        actions = { ipv4_forward; drop; NoAction; }
        default_action = drop();
    }
    apply { ipv4_lpm.apply(); }
}
control MyEgress(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control MyVerify(inout headers h, inout metadata m) { apply { } }
control MyCompute(inout headers h, inout metadata m) { apply { } }
control MyDeparser(packet_out b, in headers h) { apply { b.emit(h.ipv4); } }
V1Switch(MyParser(), MyVerify(), MyIngress(), MyEgress(), MyCompute(), MyDeparser()) main;
"#;
    let c = compile_source("tutorial.p4", src.into(), &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let i = p4info::build(c.program().expect("program"));
    let id = |name: &str| {
        i.tables
            .iter()
            .map(|t| &t.preamble)
            .chain(i.actions.iter().map(|a| &a.preamble))
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("no {name}"))
            .id
    };
    assert_eq!(id("MyIngress.ipv4_lpm"), 37_375_156);
    assert_eq!(id("NoAction"), 21_257_015);
    assert_eq!(id("MyIngress.drop"), 25_652_968);
    assert_eq!(id("MyIngress.ipv4_forward"), 28_792_405);
}

/// `@id` is taken first (its prefix added); a name whose hashed id an `@id`
/// took probes on from its hash, as p4c does.
#[test]
fn explicit_ids_come_first_and_hashed_ones_probe() {
    let hashed = |name: &str| {
        (u32::from(prefix::ACTION) << 24)
            | (p4info::jenkins_one_at_a_time(name.as_bytes()) & 0xff_ffff)
    };
    let taken = hashed("I.b") & 0xff_ffff;
    let src = format!(
        r#"
#include <core.p4>
#include <v1model.p4>
header h_t {{ bit<8> f; }}
struct headers {{ h_t h; }}
struct metadata {{ }}
parser P(packet_in b, out headers h, inout metadata m, inout standard_metadata_t sm) {{
    state start {{ b.extract(h.h); transition accept; }}
}}
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {{
    @id({taken}) action a() {{ }}
    action b() {{ }}
    table t {{ key = {{ h.h.f: exact; }} actions = {{ a; b; }} }}
    apply {{ t.apply(); }}
}}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) {{ apply {{ }} }}
control V(inout headers h, inout metadata m) {{ apply {{ }} }}
control C(inout headers h, inout metadata m) {{ apply {{ }} }}
control D(packet_out b, in headers h) {{ apply {{ b.emit(h.h); }} }}
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#
    );
    let c = compile_source("probe.p4", src, &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let i = p4info::build(c.program().expect("program"));
    let id = |name: &str| {
        i.actions
            .iter()
            .find(|a| a.preamble.name == name)
            .unwrap_or_else(|| panic!("no {name}"))
            .preamble
            .id
    };
    assert_eq!(id("I.a"), hashed("I.b"));
    let next = (u32::from(prefix::ACTION) << 24)
        | (p4info::jenkins_one_at_a_time(b"I.b").wrapping_add(1) & 0xff_ffff);
    assert_eq!(id("I.b"), next);
}

/// A program in the shape of p4lang's tutorial router: the whole text
/// format, as p4c's rules give it (header, objects in p4c's order, the
/// implicit `NoAction` with `@defaultonly`, initial default actions, the
/// size default, an empty `type_info`).
#[test]
fn router_text_is_p4cs() {
    const SRC: &str = r#"
#include <core.p4>
#include <v1model.p4>
header ipv4_t { bit<32> srcAddr; bit<32> dstAddr; }
struct headers { ipv4_t ipv4; }
struct metadata { }
parser MyParser(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { packet.extract(hdr.ipv4); transition accept; }
}
control MyVerifyChecksum(inout headers hdr, inout metadata meta) { apply { } }
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    action drop() { mark_to_drop(standard_metadata); }
    action ipv4_forward(bit<48> dstAddr, bit<9> port) { standard_metadata.egress_spec = port; }
    action unused_action() { }
    table ipv4_lpm {
        key = { hdr.ipv4.dstAddr: lpm; }
        actions = { ipv4_forward; drop; }
        size = 0;
    }
    table never_applied { actions = { unused_action; } }
    apply { if (hdr.ipv4.isValid()) { ipv4_lpm.apply(); } else { drop(); } }
}
control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control MyComputeChecksum(inout headers hdr, inout metadata meta) { apply { } }
control MyDeparser(packet_out packet, in headers hdr) { apply { packet.emit(hdr.ipv4); } }
V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
"#;
    let c = compile_source("router.p4", SRC.into(), &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let text = p4info::to_text(&p4info::build(c.program().expect("program")));
    let want = r#"# proto-file: p4/config/v1/p4info.proto
# proto-message: p4.config.v1.P4Info

pkg_info {
  arch: "v1model"
}
tables {
  preamble {
    id: 37375156
    name: "MyIngress.ipv4_lpm"
    alias: "ipv4_lpm"
  }
  match_fields {
    id: 1
    name: "hdr.ipv4.dstAddr"
    bitwidth: 32
    match_type: LPM
  }
  action_refs {
    id: 28792405
  }
  action_refs {
    id: 25652968
  }
  action_refs {
    id: 21257015
    annotations: "@defaultonly"
    scope: DEFAULT_ONLY
  }
  initial_default_action {
    action_id: 21257015
  }
  size: 1024
}
actions {
  preamble {
    id: 21257015
    name: "NoAction"
    alias: "NoAction"
    annotations: "@noWarn(\"unused\")"
  }
}
actions {
  preamble {
    id: 25652968
    name: "MyIngress.drop"
    alias: "drop"
  }
}
actions {
  preamble {
    id: 28792405
    name: "MyIngress.ipv4_forward"
    alias: "ipv4_forward"
  }
  params {
    id: 1
    name: "dstAddr"
    bitwidth: 48
  }
  params {
    id: 2
    name: "port"
    bitwidth: 9
  }
}
type_info {
}
"#;
    assert_eq!(text, want);
}

/// p4c's rules for what appears and how members, annotations and
/// controller headers are written.
#[test]
fn p4c_object_and_annotation_rules() {
    const SRC: &str = r#"
#include <core.p4>
#include <v1model.p4>
@controller_header("packet_in")
header packet_in_t { @id(2) bit<9> ingress_port; bit<7> pad; }
header h_t { bit<8> a; bit<8> b; }
struct headers { h_t h; }
struct metadata { }
parser P(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { packet.extract(hdr.h); transition accept; }
}
control V(inout headers hdr, inout metadata meta) { apply { } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action helper() { hdr.h.a = 1; }
    action calls_helper() { helper(); }
    action direct() { hdr.h.b = 2; }
    action set(@id(7) bit<8> x, bit<8> y) { hdr.h.a = x; hdr.h.b = y; }
    @brief("Sets things") @refers_to(t2 , b) @oneshot()
    table t {
        key = { hdr.h.a: exact @name("a") @format(MAC_ADDRESS); hdr.h.b: selector; hdr.h.a: ternary; }
        actions = { calls_helper; @tableonly set; }
        default_action = set(3, 4);
        implementation = action_selector(HashAlgorithm.crc16, 32w64, 32w8);
    }
    @hidden table hid { actions = { NoAction; } }
    @Sai[kind = "acl", id = 5] table t2 {
        key = { hdr.h.b: exact; }
        actions = { NoAction; }
        const entries = { 1 : NoAction(); }
    }
    apply { t.apply(); hid.apply(); t2.apply(); direct(); }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out packet, in headers hdr) { apply { } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;
    let c = compile_source("rules.p4", SRC.into(), &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let i = p4info::build(c.program().expect("program"));
    let names: Vec<&str> = i.tables.iter().map(|t| t.preamble.name.as_str()).collect();
    assert_eq!(names, ["I.t", "I.t2"], "hidden tables are left out");
    let actions: Vec<&str> = i.actions.iter().map(|a| a.preamble.name.as_str()).collect();
    // NoAction is top-level (first); helper is inlined into calls_helper.
    assert_eq!(actions, ["NoAction", "I.calls_helper", "I.direct", "I.set"]);
    let t = &i.tables[0];
    // The selector key uses up id 2.
    let fields: Vec<(u32, &str)> = t
        .match_fields
        .iter()
        .map(|m| (m.id, m.name.as_str()))
        .collect();
    assert_eq!(fields, [(1, "a"), (3, "hdr.h.a")]);
    assert_eq!(
        t.match_fields[0].annotations.unstructured,
        ["@format(MAC_ADDRESS)"]
    );
    assert_eq!(
        t.preamble.annotations,
        ["@refers_to(t2 , b)", "@oneshot"],
        "token bodies keep spaced tokens; an empty body has no parentheses"
    );
    assert_eq!(
        t.preamble.doc.as_ref().map(|d| d.brief.as_str()),
        Some("Sets things")
    );
    let set = i
        .actions
        .iter()
        .find(|a| a.preamble.name == "I.set")
        .expect("set");
    let params: Vec<(u32, &str)> = set.params.iter().map(|p| (p.id, p.name.as_str())).collect();
    assert_eq!(
        params,
        [(7, "x"), (2, "y")],
        "an @id member still uses up its position"
    );
    let ida = t.initial_default_action.as_ref().expect("initial default");
    assert_eq!(ida.action_id, set.preamble.id);
    assert_eq!(ida.arguments, [(7, vec![3]), (2, vec![4])]);
    assert_eq!(t.action_refs[1].scope, "TABLE_ONLY");
    assert_eq!(t.action_refs[1].annotations, ["@tableonly"]);
    let ap = &i.action_profiles[0];
    assert!(
        ap.with_selector,
        "a selector built in the table property is listed"
    );
    assert_eq!(t.implementation_id, Some(ap.preamble.id));
    let t2 = &i.tables[1];
    assert!(t2.is_const_table && t2.has_initial_entries);
    let sai = &t2.preamble.structured_annotations[0];
    assert_eq!(sai.name, "Sai");
    assert_eq!(
        sai.kv_pairs,
        [
            (
                "kind".to_string(),
                p4info::StructuredValue::String("acl".into())
            ),
            ("id".to_string(), p4info::StructuredValue::Int(5))
        ]
    );
    let h = &i.controller_packet_metadata[0];
    assert_eq!(h.preamble.name, "packet_in");
    assert_eq!(
        h.preamble.id,
        (u32::from(prefix::CONTROLLER_HEADER) << 24)
            | (p4info::jenkins_one_at_a_time(b"packet_in_t") & 0xff_ffff),
        "the id hashes the header type's name"
    );
    assert_eq!(
        h.preamble.annotations,
        ["@controller_header(\"packet_in\")"]
    );
    let meta: Vec<(u32, &str)> = h.metadata.iter().map(|m| (m.id, m.name.as_str())).collect();
    assert_eq!(meta, [(2, "ingress_port"), (3, "pad")]);
}

/// `type_info` as p4c's `TypeSpecConverter` fills it, and the widths and
/// `type_name`s of translated and serializable-enum members.
#[test]
fn type_info_describes_named_types() {
    const SRC: &str = r#"
#include <core.p4>
#include <v1model.p4>
enum bit<8> Kind { A = 1, B = 0x80 }
@p4runtime_translation("example.org/vrf", string) type bit<10> vrf_t;
@p4runtime_translation("example.org/port", bit<32>) type bit<9> port_t;
type bit<16> plain_t;
header h_t { bit<8> k; bit<10> v; }
struct headers { h_t h; }
struct learn_t { Kind kind; h_t hdr; bool flag; }
struct metadata { }
parser P(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { packet.extract(hdr.h); transition accept; }
}
control V(inout headers hdr, inout metadata meta) { apply { } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    register<plain_t>(4) r;
    action a(vrf_t vrf, port_t port, Kind kind) { }
    action learn() { digest<learn_t>(1, { Kind.A, hdr.h, true }); }
    table t { key = { hdr.h.v: exact; } actions = { a; learn; } }
    apply { t.apply(); }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out packet, in headers hdr) { apply { } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;
    use p4info::{NewTypeRepr, TypeSpec};
    let c = compile_source("types.p4", SRC.into(), &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let i = p4info::build(c.program().expect("program"));
    let a = i
        .actions
        .iter()
        .find(|a| a.preamble.name == "I.a")
        .expect("a");
    let params: Vec<(&str, u32, Option<&str>)> = a
        .params
        .iter()
        .map(|p| (p.name.as_str(), p.bitwidth, p.type_name.as_deref()))
        .collect();
    assert_eq!(
        params,
        [
            ("vrf", 0, Some("vrf_t")),
            ("port", 32, Some("port_t")),
            ("kind", 8, None)
        ],
        "SDN strings are 0 bits wide, SDN widths replace the data plane's"
    );
    let ti = i.type_info.as_ref().expect("type_info");
    assert_eq!(
        ti.new_types["vrf_t"].repr,
        NewTypeRepr::Translated("example.org/vrf".into(), None)
    );
    assert_eq!(
        ti.new_types["port_t"].repr,
        NewTypeRepr::Translated("example.org/port".into(), Some(32))
    );
    assert_eq!(
        ti.new_types["plain_t"].repr,
        NewTypeRepr::Original(TypeSpec::Bit(16))
    );
    let kind = &ti.serializable_enums["Kind"];
    assert_eq!(kind.width, 8);
    assert_eq!(
        kind.members,
        [("A".into(), vec![1]), ("B".into(), vec![0x80])]
    );
    assert_eq!(
        ti.structs["learn_t"],
        [
            (
                "kind".to_string(),
                TypeSpec::SerializableEnum("Kind".into())
            ),
            ("hdr".to_string(), TypeSpec::Header("h_t".into())),
            ("flag".to_string(), TypeSpec::Bool)
        ]
    );
    assert_eq!(
        ti.headers["h_t"],
        [
            ("k".to_string(), TypeSpec::Bit(8)),
            ("v".to_string(), TypeSpec::Bit(10))
        ]
    );
    assert_eq!(
        i.registers[0].type_spec,
        Some(TypeSpec::NewType("plain_t".into()))
    );
    let text = p4info::to_text(&i);
    assert!(text.contains(
        "  new_types {\n    key: \"vrf_t\"\n    value {\n      translated_type {\n        uri: \"example.org/vrf\"\n        sdn_string {\n        }\n      }\n    }\n  }\n"
    ), "{text}");
}

/// A v1model program declaring `types` (which give `headers` with a header
/// `h`, and `metadata`) whose ingress has one table `t` with `keys`.
fn table_program(types: &str, keys: &str) -> String {
    format!(
        r#"
#include <core.p4>
#include <v1model.p4>
{types}
parser P(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {{
    state start {{ packet.extract(hdr.h); transition accept; }}
}}
control V(inout headers hdr, inout metadata meta) {{ apply {{ }} }}
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {{
    table t {{
        key = {{ {keys} }}
        actions = {{ NoAction; }}
    }}
    apply {{ t.apply(); }}
}}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {{ apply {{ }} }}
control C(inout headers hdr, inout metadata meta) {{ apply {{ }} }}
control D(packet_out packet, in headers hdr) {{ apply {{ }} }}
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#
    )
}

/// The checked program of `source` and its table's P4Info match-field names.
fn key_names(source: String) -> (janus_p4::ir::Program, Vec<String>) {
    let c = compile_source("keys.p4", source, &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let program = c.program().expect("program").clone();
    let i = p4info::build(&program);
    let names = i.tables[0]
        .match_fields
        .iter()
        .map(|m| m.name.clone())
        .collect();
    (program, names)
}

/// p4c's TableKeyNames: a key is named by its `@name`, else by its
/// expression as written, with `h.isValid()` as `h.$valid$`, `a & b`
/// keeping its operator, constants in their base with lower-case hex
/// digits, slices and indices as written.
#[test]
fn key_names_are_p4cs() {
    let (_, names) = key_names(table_program(
        "header h_t { bit<8> k; bit<16> w; }\nstruct headers { h_t h; h_t[2] s; }\nstruct metadata { }",
        "hdr.h.isValid(): exact; hdr.h.w & 0x0FF0: ternary; hdr.h.w[7:0]: exact; \
         hdr.s[1].k: exact; hdr.h.k: exact @name(\"renamed\");",
    ));
    assert_eq!(
        names,
        [
            "hdr.h.$valid$",
            "hdr.h.w & 0xff0",
            "hdr.h.w[7:0]",
            "hdr.s[1].k",
            "renamed"
        ]
    );
}

/// p4c names a key's fields by their declarations' `@name` (TableKeyNames
/// uses `externalName`), and a global one (`@name(".f")`, as p4c's P4_14
/// translation writes) drops what is before it.
#[test]
fn key_names_use_the_fields_own_names() {
    let (program, names) = key_names(table_program(
        "header h_t { bit<8> k; @name(\"wide\") bit<16> w; }\nstruct ing_t { bit<12> vrf; }\n\
         struct headers { h_t h; }\nstruct metadata { @name(\".ingress_metadata\") ing_t ing; }",
        "hdr.h.w: exact; meta.ing.vrf: exact; hdr.h.w & 0xff: ternary; hdr.h.k: exact;",
    ));
    assert_eq!(
        names,
        [
            "hdr.h.wide",
            "ingress_metadata.vrf",
            "hdr.h.wide & 0xff",
            "hdr.h.k"
        ]
    );
    // The expressions as written stay with the keys whose names differ.
    let written: Vec<Option<&str>> = program.tables[0]
        .keys
        .iter()
        .map(|k| k.written.as_deref())
        .collect();
    assert_eq!(
        written,
        [
            Some("hdr.h.w"),
            Some("meta.ing.vrf"),
            Some("hdr.h.w & 0xff"),
            None
        ]
    );
}
