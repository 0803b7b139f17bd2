//! Shape of the IR the checker produces, where the engine relies on it.

use janus_p4::driver::{Options, compile_source};
use janus_p4::ir::{Callee, ExprKind, StmtKind};

#[test]
fn table_apply_results_keep_the_apply_call() {
    let src = r#"
        #include <core.p4>
        control C(inout bit<8> x) {
            action a() { x = 1; }
            table t { key = { x: exact; } actions = { a; } }
            apply {
                if (t.apply().hit) { x = 2; }
                switch (t.apply().action_run) { a: { x = 3; } }
            }
        }
    "#;
    let c = compile_source("ir.p4", src.into(), &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let p = c.program().expect("program");
    let apply = &p.blocks[0].apply;
    let StmtKind::If(cond, ..) = &apply[0].kind else {
        panic!("{:?}", apply[0].kind)
    };
    let ExprKind::TableHit(call) = &cond.kind else {
        panic!("{:?}", cond.kind)
    };
    assert!(matches!(
        call.kind,
        ExprKind::Call(Callee::TableApply(_), _)
    ));
    let StmtKind::Switch(subject, _) = &apply[1].kind else {
        panic!()
    };
    let ExprKind::ActionRun(call) = &subject.kind else {
        panic!("{:?}", subject.kind)
    };
    assert!(matches!(
        call.kind,
        ExprKind::Call(Callee::TableApply(_), _)
    ));
}

const INFERRED: &str = r#"
    #include <core.p4>
    #include <v1model.p4>
    struct h_t { }
    struct m_t { }
    control Checker<T>(inout T v)(T init) { apply { v = init; } }
    parser P(packet_in pkt, out h_t h, inout m_t m, inout standard_metadata_t sm) {
        state start { transition accept; }
    }
    control V<H, M>(inout H h, inout M m) { apply { } }
    control Stats()(bit<32> n) {
        counter(n * 2 + 1, CounterType.packets) per_port;
        apply { per_port.count(0); }
    }
    control I(inout h_t h, inout m_t m, inout standard_metadata_t sm) {
        Checker(8w5) c8;
        Stats(32w3) stats;
        bit<8> x = 0;
        apply { c8.apply(x); stats.apply(); }
    }
    control E(inout h_t h, inout m_t m, inout standard_metadata_t sm) { apply { } }
    control C(inout h_t h, inout m_t m) { apply { } }
    control D(packet_out pkt, in h_t h) { apply { } }
    V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

/// `Checker(8w5)` is `Checker<bit<8>>`, and `V()` passed to `V1Switch` is
/// `V<h_t, m_t>`: type arguments inferred from constructor arguments and
/// from where an instance is passed.
#[test]
fn instance_type_arguments_are_inferred() {
    use janus_p4::types::Ty;
    let c = compile_source("ir.p4", INFERRED.into(), &Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let p = c.program().expect("program");
    let args_of = |name: &str| {
        let inst = p.instances.iter().find(|i| i.name == name).expect(name);
        match p.types.get(inst.ty) {
            Ty::Block { args, .. } => args.iter().map(|t| p.types.get(*t).clone()).collect(),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        args_of("c8"),
        vec![Ty::Bits {
            width: 8,
            signed: false
        }]
    );
    let v: Vec<Ty> = args_of("V");
    assert_eq!(v.len(), 2);
    assert!(v.iter().all(|t| matches!(t, Ty::Struct(_))), "{v:?}");
    // P4Info sizes an extern from its block's constructor argument.
    let info = janus_p4::p4info::build(p);
    let per_port = info
        .counters
        .iter()
        .find(|r| r.preamble.name == "I.stats.per_port")
        .expect("counter");
    assert_eq!(per_port.size, 7);
}
