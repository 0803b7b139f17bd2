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
