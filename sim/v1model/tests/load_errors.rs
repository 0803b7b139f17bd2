//! Programs that compile but that the switch cannot load give a clear
//! error, not a panic, an abort on a huge allocation or a silent zero.

use janus_v1model::{LoadError, V1Switch};

/// Everything of a v1model program but the ingress control `I`.
const FRAME: &str = r#"
#include <core.p4>
#include <v1model.p4>
header eth_h { bit<48> dst; bit<48> src; bit<16> etype; }
struct hdrs_t { eth_h eth; }
struct meta_t { }
parser P(packet_in pkt, out hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(h.eth); transition accept; }
}
control VC(inout hdrs_t h, inout meta_t m) { apply { } }
control E(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hdrs_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in hdrs_t h) { apply { pkt.emit(h.eth); } }
"#;

/// Compiles `FRAME` + `ingress` (which must compile) and loads it.
fn load(ingress: &str) -> Result<V1Switch, LoadError> {
    let source = format!("{FRAME}{ingress}\nV1Switch(P(), VC(), I(), E(), CC(), D()) main;\n");
    let c = janus_p4::driver::compile_source("t.p4", source, &Default::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    V1Switch::load(c.ir.expect("ir"))
}

/// The load error's message; panics if the program loads.
fn load_error(ingress: &str) -> String {
    match load(ingress) {
        Ok(_) => panic!("the program loads"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn constructor_argument_dividing_by_zero_once_bound_is_an_error() {
    let e = load_error(
        r#"
        control Adder(inout bit<8> v)(bit<8> amount) { apply { v = v + amount; } }
        control Mid(inout bit<8> v)(bit<8> n) {
            Adder(8w1 / n) a;
            apply { a.apply(v); }
        }
        control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
            Mid(8w0) mid;
            apply { mid.apply(h.eth.src[7:0]); sm.egress_spec = 1; }
        }
        "#,
    );
    assert!(e.contains("`amount`"), "{e}");
    assert!(e.contains("not a compile-time constant"), "{e}");
}

#[test]
fn register_size_wrapping_below_zero_is_an_error() {
    // `n - 10` with n = 3 is bit<32> 0xfffffff9 as the register's size.
    let e = load_error(
        r#"
        control Mid(inout bit<8> v)(int n) {
            register<bit<8>>(n - 10) r;
            apply { r.write(0, v); }
        }
        control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
            Mid(3) mid;
            apply { mid.apply(h.eth.src[7:0]); sm.egress_spec = 1; }
        }
        "#,
    );
    assert!(e.contains("4294967289 cells"), "{e}");
}

#[test]
fn extern_size_dividing_by_zero_once_bound_is_an_error() {
    let e = load_error(
        r#"
        control Mid(inout bit<8> v)(bit<32> n) {
            register<bit<8>>(32w4 / n) r;
            apply { r.write(0, v); }
        }
        control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
            Mid(0) mid;
            apply { mid.apply(h.eth.src[7:0]); sm.egress_spec = 1; }
        }
        "#,
    );
    assert!(e.contains("not a compile-time constant"), "{e}");
}

#[test]
fn counter_larger_than_the_limit_is_an_error() {
    let e = load_error(
        r#"
        control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
            counter(32w0xffffffff, CounterType.packets) c;
            apply { c.count(0); sm.egress_spec = 1; }
        }
        "#,
    );
    assert!(e.contains("`I.c` has 4294967295 cells"), "{e}");
}

#[test]
fn direct_meter_of_a_huge_table_is_an_error() {
    let e = load_error(
        r#"
        control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
            direct_meter<bit<32>>(MeterType.packets) dm;
            action a() { bit<32> c; dm.read(c); }
            table t {
                key = { h.eth.dst : exact; }
                actions = { a; }
                meters = dm;
                size = 4294967295;
            }
            apply { t.apply(); sm.egress_spec = 1; }
        }
        "#,
    );
    assert!(e.contains("4294967295 cells"), "{e}");
}

#[test]
fn arrays_up_to_the_limit_load() {
    let ingress = format!(
        r#"
        control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {{
            counter(32w{}, CounterType.packets) c;
            apply {{ c.count(0); sm.egress_spec = 1; }}
        }}
        "#,
        janus_v1model::MAX_CELLS
    );
    assert!(load(&ingress).is_ok());
}

/// The 1-based line of `source` holding `marker`.
fn line_of(ingress: &str, marker: &str) -> usize {
    let source = format!("{FRAME}{ingress}");
    source
        .lines()
        .position(|l| l.contains(marker))
        .expect("marker")
        + 1
}

#[test]
fn refusals_name_their_place_in_the_program() {
    // An extern no v1model target implements: the call's line and column.
    let ingress = r#"
        extern void user_ext(in bit<8> x);
        control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
            apply {
                sm.egress_spec = 1;
                user_ext(h.eth.src[7:0]); // here
            }
        }
        "#;
    let e = load(ingress).err().expect("refused");
    let line = line_of(ingress, "// here");
    let at = format!("t.p4:{line}:17");
    assert_eq!(e.location(), Some(at.as_str()), "{e}");
    assert!(e.to_string().starts_with(&at), "{e}");
    assert!(e.to_string().contains("user_ext"), "{e}");
    // A size that does not fold: the extern instance's declaration.
    let ingress = r#"
        control Mid(inout bit<8> v)(bit<32> n) {
            register<bit<8>>(32w4 / n) r; // here
            apply { r.write(0, v); }
        }
        control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
            Mid(0) mid;
            apply { mid.apply(h.eth.src[7:0]); sm.egress_spec = 1; }
        }
        "#;
    let e = load(ingress).err().expect("refused");
    let line = line_of(ingress, "// here");
    assert!(
        e.location()
            .is_some_and(|at| at.starts_with(&format!("t.p4:{line}:"))),
        "{e}"
    );
    // A direct meter of a huge table: the table.
    let ingress = r#"
        control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {
            direct_meter<bit<32>>(MeterType.packets) dm;
            action a() { bit<32> c; dm.read(c); }
            table t { // here
                key = { h.eth.dst : exact; }
                actions = { a; }
                meters = dm;
                size = 4294967295;
            }
            apply { t.apply(); sm.egress_spec = 1; }
        }
        "#;
    let e = load(ingress).err().expect("refused");
    let line = line_of(ingress, "// here");
    assert!(
        e.location()
            .is_some_and(|at| at.starts_with(&format!("t.p4:{line}:"))),
        "{e}"
    );
}

#[test]
fn a_main_that_is_not_v1switch_names_main() {
    let source = format!(
        "{FRAME}control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {{ apply {{ }} }}\n\
         control C();\npackage Other(C c);\ncontrol Cx() {{ apply {{ }} }}\nOther(Cx()) main;\n"
    );
    let c = janus_p4::driver::compile_source("t.p4", source.clone(), &Default::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let e = V1Switch::load(c.ir.expect("ir")).err().expect("refused");
    let line = source.lines().position(|l| l.contains("main;")).unwrap() + 1;
    assert_eq!(e.location(), Some(format!("t.p4:{line}:1").as_str()), "{e}");
}

#[test]
fn a_refused_expression_is_named_with_its_place() {
    // A table implemented by an extern the engine does not know: the
    // engine says which construct it refuses, and where.
    let source = FRAME.replace(
        "struct meta_t { }",
        "struct meta_t { }\nextern Pool { Pool(); }",
    ) + "control I(inout hdrs_t h, inout meta_t m, inout standard_metadata_t sm) {\n\
         Pool() pool; action a() { }\n\
         table t { key = { h.eth.etype : exact; } actions = { a; } implementation = pool; }\n\
         apply { t.apply(); } }\n\
         V1Switch(P(), VC(), I(), E(), CC(), D()) main;\n";
    let c = janus_p4::driver::compile_source("t.p4", source, &Default::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let e = match V1Switch::load(c.ir.expect("ir")) {
        Ok(_) => panic!("the program loads"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("t.p4:16:"), "{e}");
    assert!(
        e.contains("this table implementation is not supported by the engine yet"),
        "{e}"
    );
}
