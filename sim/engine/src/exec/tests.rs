//! Statement execution over real checked programs.

use super::compile::calls::resolved_ctor_args;
use super::run::{INLINE_KEYS, write_arg, write_param};
use super::*;
use crate::env::Env;
use crate::eval::{CompileError, Compiler, Node, Place};
use crate::flow::Flow;
use crate::plan::StoragePlan;
use crate::test_support::{is_valid, path_expr, program};
use crate::value::{Bits, FieldWord, read_word, write_word};
use janus_p4::ir::{self, ExprKind, Value};
use janus_p4::types::TyId;
use std::collections::HashMap;

const PROGRAM: &str = r#"
    #include <core.p4>
    header h_t { bit<8> a; bit<16> b; }
    struct s_t { h_t h; h_t g; h_t[3] stk; bit<32> acc; bit<8> sel; bit<8> out1; bit<8> out2; }
    control C(inout s_t s) {
        action add_to(inout bit<32> target, bit<32> amount) { target = target + amount; }
        action give(out bit<8> r) { r = 42; }
        action stop() { s.out2 = 1; exit; }
        apply {
            s.acc = 0;
            for (bit<8> i = 0; i < 5; i = i + 1) { s.acc = s.acc + (bit<32>)i; }
            if (s.acc == 10) { s.out1 = 1; } else { s.out1 = 2; }
            switch (s.sel) {
                1:
                2: { s.out2 = 12; }
                default: { s.out2 = 99; }
            }
            add_to(s.acc, 32w5);
            give(s.sel);
            s.h.b = 0xBEEF;
            s.h.setValid();
            s.g = s.h;
            s.g.setInvalid();
            s.stk[0] = { 8w7, 16w700 };
            s.stk.push_front(1);
            if (s.stk[1].a == 7 && !s.stk[0].isValid()) { s.stk.pop_front(1); }
            stop();
            s.out1 = 77;
        }
    }
"#;

struct Run {
    program: ir::Program,
    vars: HashMap<ir::VarId, u32>,
    ops: Vec<Op>,
    arena: Vec<u8>,
}

fn load() -> Run {
    let program = program(PROGRAM);
    let plan = StoragePlan::new(&program).expect("plan");
    let frame = plan.instance_frame("C").expect("frame");
    let vars: HashMap<_, _> = frame
        .vars
        .iter()
        .map(|(v, off)| (*v, frame.base + off))
        .collect();
    let block = program
        .blocks
        .iter()
        .find(|b| b.name == "C")
        .expect("C")
        .clone();
    let ops = {
        let mut comp = Compiler::new(&program, vars.clone());
        compile_stmts(&mut comp, &block.apply).expect("compiles")
    };
    Run {
        program,
        vars,
        ops,
        arena: vec![0; plan.arena_bytes as usize],
    }
}

/// Reads the scalar `s.<path>` as a u64.
fn read(r: &Run, path: &[&str]) -> u64 {
    let e = path_expr(&r.program, "s", path);
    let mut c = Compiler::new(&r.program, r.vars.clone());
    let mut arena = r.arena.clone();
    c.node(&e)
        .expect("scalar")
        .eval(&Env::new(&mut arena))
        .as_u64_truncated()
}

/// `s.<path>.isValid()`.
fn valid(r: &Run, path: &[&str]) -> bool {
    let e = is_valid(path_expr(&r.program, "s", path));
    let mut c = Compiler::new(&r.program, r.vars.clone());
    let mut arena = r.arena.clone();
    c.node(&e)
        .expect("validity")
        .eval(&Env::new(&mut arena))
        .to_bool()
}

#[test]
fn runs_a_control_body() {
    let mut r = load();
    // Stale values that the program must overwrite or keep as specified.
    let flow = run(&r.ops.clone(), &mut Env::new(&mut r.arena));
    assert_eq!(flow, Flow::Exit, "the action's exit ends the block");
    assert_eq!(
        read(&r, &["out1"]),
        1,
        "loop summed 0..5 = 10; the statement after exit did not run"
    );
    assert_eq!(read(&r, &["acc"]), 15, "inout argument copied back");
    assert_eq!(read(&r, &["sel"]), 42, "out argument copied back");
    assert_eq!(read(&r, &["out2"]), 1, "stop() ran last");
    // setValid on an invalid header zeroed it first: b was written before.
    assert!(valid(&r, &["h"]));
    assert_eq!(read(&r, &["h", "b"]), 0);
    // g copied from h, then made invalid; its fields keep their values.
    assert!(!valid(&r, &["g"]));
    // The list made stk[0] valid; push moved it to stk[1]; pop moved it back.
    assert!(valid(&r, &["stk", "0"]));
    assert_eq!(read(&r, &["stk", "0", "b"]), 700);
    assert!(!valid(&r, &["stk", "2"]));
}

#[test]
fn switch_takes_fallthrough_labels_and_default() {
    for (sel, want) in [(1u64, 12u64), (2, 12), (3, 99)] {
        let mut r = load();
        // Run only the switch (the 4th op), with `sel` preset.
        let sel_place = Compiler::new(&r.program, r.vars.clone())
            .place(&path_expr(&r.program, "s", &["sel"]))
            .expect("place");
        let bit = sel_place
            .resolve(&Env::new(&mut r.arena.clone()))
            .expect("fixed");
        crate::value::Bits::from_u64(8, false, sel).write_bits(&mut r.arena, bit as usize);
        let switch = r
            .ops
            .iter()
            .find(|op| matches!(op, Op::Switch { .. }))
            .expect("switch")
            .clone();
        run(&[switch], &mut Env::new(&mut r.arena));
        assert_eq!(read(&r, &["out2"]), want, "sel = {sel}");
    }
}

const ROUTER: &str = r#"
    #include <core.p4>
    struct m_t { bit<32> dst; bit<9> port; bit<8> ttl; bit<8> hits; bit<8> via; }
    control R(inout m_t m) {
        action set_port(bit<9> p) { m.port = p; }
        action drop() { m.port = 511; }
        action count(inout bit<8> c) { c = c + 1; }
        table route { key = { m.dst: lpm; } actions = { set_port; drop; } default_action = drop(); }
        table stats { key = { m.port: exact; } actions = { count(m.hits); NoAction; } }
        apply {
            if (route.apply().hit) { m.ttl = m.ttl - 1; }
            switch (stats.apply().action_run) {
                count: { m.via = 1; }
                NoAction: { m.via = 2; }
            }
        }
    }
"#;

#[test]
fn tables_run_entries_defaults_hit_and_action_run() {
    use crate::table::{Entry, FieldMatch, TableState};
    let program = program(ROUTER);
    let plan = StoragePlan::new(&program).expect("plan");
    let frame = plan.instance_frame("R").expect("frame");
    let vars: HashMap<_, _> = frame
        .vars
        .iter()
        .map(|(v, off)| (*v, frame.base + off))
        .collect();
    let mut c = Compiler::new(&program, vars.clone());
    c.tables = program
        .tables
        .iter()
        .enumerate()
        .map(|(i, _)| (ir::TableId(i as u32), i as u32))
        .collect();
    let block = program
        .blocks
        .iter()
        .find(|b| b.name == "R")
        .expect("R")
        .clone();
    let ops = compile_stmts(&mut c, &block.apply).expect("compiles");
    let mut tables: Vec<TableState> = program
        .tables
        .iter()
        .map(|t| crate::pipeline::tables::table_from_ir(&program, t).expect("table"))
        .collect();
    // route: 10.0.0.0/8 -> set_port(3); stats: port 3 -> count.
    tables[0]
        .insert(Entry {
            key: vec![FieldMatch::Lpm {
                value: Bits::from_u64(32, false, 0x0a00_0000),
                len: 8,
            }],
            priority: 0,
            action: 0,
            args: vec![Bits::from_u64(9, false, 3)],
        })
        .unwrap();
    tables[1]
        .insert(Entry {
            key: vec![FieldMatch::Exact(Bits::from_u64(9, false, 3))],
            priority: 0,
            action: 0,
            args: vec![],
        })
        .unwrap();
    let r = Run {
        program,
        vars,
        ops,
        arena: vec![0; plan.arena_bytes as usize],
    };
    let run_with = |dst: u64| {
        let mut arena = r.arena.clone();
        let dst_place = Compiler::new(&r.program, r.vars.clone())
            .place(&path_expr(&r.program, "m", &["dst"]))
            .unwrap();
        let ttl_place = Compiler::new(&r.program, r.vars.clone())
            .place(&path_expr(&r.program, "m", &["ttl"]))
            .unwrap();
        let (d, t) = {
            let env = Env::new(&mut arena);
            (
                dst_place.resolve(&env).unwrap(),
                ttl_place.resolve(&env).unwrap(),
            )
        };
        Bits::from_u64(32, false, dst).write_bits(&mut arena, d as usize);
        Bits::from_u64(8, false, 64).write_bits(&mut arena, t as usize);
        let mut results = [crate::env::ApplyResult::default(); 2];
        let flow = run(
            &r.ops,
            &mut Env::new(&mut arena).with_tables(&tables, &mut results),
        );
        assert_eq!(flow, Flow::Continue);
        let read = |f: &str| {
            let e = path_expr(&r.program, "m", &[f]);
            let mut a = arena.clone();
            Compiler::new(&r.program, r.vars.clone())
                .node(&e)
                .unwrap()
                .eval(&Env::new(&mut a))
                .as_u64_truncated()
        };
        (
            read("port"),
            read("ttl"),
            read("hits"),
            read("via"),
            results,
        )
    };
    let (port, ttl, hits, via, results) = run_with(0x0a01_0203);
    assert_eq!(
        (port, ttl, hits, via),
        (3, 63, 1, 1),
        "hit: set_port(3), ttl decremented, counted"
    );
    assert!(results[0].hit && results[1].hit);
    let (port, ttl, hits, via, results) = run_with(0x0b00_0001);
    assert_eq!(
        (port, ttl, hits, via),
        (511, 64, 0, 2),
        "miss: default drop(); stats default NoAction"
    );
    assert!(!results[0].hit && !results[1].hit);
    assert_eq!(results[0].action, 1, "the default action ran");
}

/// A toy architecture: `drop_it` sets its inout argument to 511; an `Acc`
/// instance sums what it is given and returns the sum.
struct Toy {
    acc: u64,
}

impl crate::externs::ExternResolver for Toy {
    fn resolve(&self, site: &crate::externs::CallSite<'_>) -> Option<u32> {
        match (site.name, site.instance) {
            ("drop_it", None) => Some(0),
            ("add", Some(_)) => Some(1),
            ("total", Some(_)) => Some(2),
            _ => None,
        }
    }
}

impl crate::externs::ExternHandler for Toy {
    fn call(
        &mut self,
        id: u32,
        args: &[crate::externs::ExternArg],
        result: Option<&Place>,
        env: &mut Env<'_>,
    ) -> Flow {
        use crate::externs::ExternArg;
        match (id, args) {
            (0, [ExternArg::Place { place, .. }]) => {
                let bit = place.resolve(env).unwrap();
                Bits::from_u64(9, false, 511).write_bits(env.arena, bit as usize);
            }
            (1, [ExternArg::Value(v)]) => self.acc += v.eval(env).as_u64_truncated(),
            (1, [ExternArg::Place { place, .. }]) => {
                let bit = place.resolve(env).unwrap();
                self.acc += Bits::read_bits(env.arena, bit as usize, 32, false).as_u64_truncated();
            }
            (2, []) => {
                let bit = result.unwrap().resolve(env).unwrap();
                Bits::from_u64(32, false, self.acc).write_bits(env.arena, bit as usize);
            }
            other => panic!("unexpected call {other:?}"),
        }
        Flow::Continue
    }
}

#[test]
fn extern_calls_go_through_the_architecture() {
    let program = program(
        r#"
        #include <core.p4>
        extern void drop_it(inout bit<9> port);
        extern Acc { Acc(); void add(in bit<32> v); bit<32> total(); }
        control C(inout bit<9> port, inout bit<32> sum) {
            Acc() acc;
            apply {
                acc.add(32w5);
                acc.add((bit<32>)port);
                drop_it(port);
                sum = acc.total();
            }
        }
        extern void unknown_fn();
        control U() { apply { unknown_fn(); } }
    "#,
    );
    let plan = StoragePlan::new(&program).expect("plan");
    let frame = plan.instance_frame("C").expect("frame");
    let vars: HashMap<_, _> = frame
        .vars
        .iter()
        .map(|(v, off)| (*v, frame.base + off))
        .collect();
    let mut toy = Toy { acc: 0 };
    let ops = {
        let mut c = Compiler::new(&program, vars.clone());
        c.externs = Some(&toy);
        compile_stmts(&mut c, &program.blocks[0].apply).expect("compiles")
    };
    let mut arena = vec![0u8; plan.arena_bytes as usize];
    let port_bit = vars[&program.blocks[0].params[0].var] * 8;
    Bits::from_u64(9, false, 7).write_bits(&mut arena, port_bit as usize);
    assert_eq!(
        run(&ops, &mut Env::new(&mut arena).with_externs(&mut toy)),
        Flow::Continue
    );
    let sum_bit = vars[&program.blocks[0].params[1].var] * 8;
    assert_eq!(
        Bits::read_bits(&arena, sum_bit as usize, 32, false).as_u64_truncated(),
        12
    );
    assert_eq!(
        Bits::read_bits(&arena, port_bit as usize, 9, false).as_u64_truncated(),
        511
    );
    // An extern the architecture does not implement fails to load, by name
    // and at the call's place.
    let mut c = Compiler::new(&program, HashMap::new());
    c.externs = Some(&toy);
    let err = compile_stmts(&mut c, &program.blocks[1].apply).unwrap_err();
    assert_eq!(
        err.inner(),
        &CompileError::UnknownExtern("unknown_fn".into())
    );
    assert!(
        err.location().is_some_and(|at| at.starts_with("test.p4:")),
        "{err}"
    );
}

/// Control `C` of a program compiled on its own: its storage plan,
/// variable offsets, declaration and ops.
struct Compiled<'p> {
    plan: StoragePlan,
    vars: HashMap<ir::VarId, u32>,
    block: &'p ir::Block,
    ops: Vec<Op>,
}

fn compile_control_c(program: &ir::Program) -> Compiled<'_> {
    let plan = StoragePlan::new(program).expect("plan");
    let frame = plan.instance_frame("C").expect("frame");
    let mut vars = plan.shared_vars();
    vars.extend(frame.vars.iter().map(|(v, off)| (*v, frame.base + off)));
    let block = program.blocks.iter().find(|b| b.name == "C").unwrap();
    let ops =
        compile_stmts(&mut Compiler::new(program, vars.clone()), &block.apply).expect("compiles");
    Compiled {
        plan,
        vars,
        block,
        ops,
    }
}

#[test]
fn functions_return_values_and_copy_out() {
    let program = program(
        r#"
        #include <core.p4>
        bit<8> add3(in bit<8> x) { return x + 3; }
        void bump(inout bit<8> y) { y = y + 1; }
        bit<8> larger(in bit<8> a, in bit<8> b) {
            if (a > b) { return a; }
            return b;
        }
        control C(inout bit<8> a, inout bit<8> b, inout bit<8> c) {
            apply {
                b = add3(a);
                bump(b);
                c = larger(a, 8w9);
            }
        }
    "#,
    );
    let Compiled {
        plan,
        vars,
        block,
        ops,
    } = compile_control_c(&program);
    let bit = |i: usize| (vars[&block.params[i].var] * 8) as usize;
    for (a, want_b, want_c) in [(1u64, 5u64, 9u64), (20, 24, 20)] {
        let mut arena = vec![0u8; plan.arena_bytes as usize];
        Bits::from_u64(8, false, a).write_bits(&mut arena, bit(0));
        run(&ops, &mut Env::new(&mut arena));
        assert_eq!(
            Bits::read_bits(&arena, bit(1), 8, false).as_u64_truncated(),
            want_b,
            "a = {a}"
        );
        assert_eq!(
            Bits::read_bits(&arena, bit(2), 8, false).as_u64_truncated(),
            want_c,
            "a = {a}"
        );
    }
}

#[test]
fn composite_equality_compares_validity_and_fields() {
    let program = program(
        r#"
        #include <core.p4>
        header h_t { bit<8> a; bit<16> b; }
        struct s_t { h_t h; bit<8> x; }
        control C(inout s_t p, inout s_t q, inout bit<8> r) {
            apply {
                r = 0;
                if (p.h == q.h) { r = r | 1; }
                if (p == q) { r = r | 2; }
                if (p.h == {#}) { r = r | 4; }
                if (p.h != q.h) { r = r | 8; }
            }
        }
    "#,
    );
    let Compiled {
        plan,
        vars,
        block,
        ops,
    } = compile_control_c(&program);
    let at = |i: usize| (vars[&block.params[i].var] * 8) as usize;
    // Fields are written where the compiler places them.
    let field = |param: usize, path: &[&str]| {
        let name = &program.vars[block.params[param].var.0 as usize].name;
        let e = path_expr(&program, name, path);
        let mut c = Compiler::new(&program, vars.clone());
        c.place(&e).expect("place")
    };
    let set = |arena: &mut Vec<u8>, param: usize, path: &[&str], width: u32, v: u64| {
        let bit = field(param, path).resolve(&Env::new(arena)).expect("fixed");
        Bits::from_u64(width, false, v).write_bits(arena, bit as usize);
    };
    let h = path_expr(
        &program,
        &program.vars[block.params[0].var.0 as usize].name,
        &["h"],
    );
    let crate::layout::LayoutKind::Header {
        valid_bit_offset, ..
    } = crate::layout::Layouts::new(&program.types)
        .layout(h.ty)
        .expect("layout")
        .kind
    else {
        panic!("h is a header")
    };
    let set_valid = |arena: &mut Vec<u8>, param: usize, valid: bool| {
        let bit = field(param, &["h"])
            .resolve(&Env::new(arena))
            .expect("fixed");
        arena[(bit + valid_bit_offset) as usize / 8] = valid as u8;
    };
    // (p.h valid, p.h.a, q.h valid, q.h.a, p.x, q.x) -> r
    let cases = [
        ((false, 1, false, 2, 5, 5), 1 | 2 | 4), // both invalid: equal despite fields
        ((true, 1, false, 1, 5, 5), 8),          // validity differs
        ((true, 1, true, 1, 5, 5), 1 | 2),       // same fields
        ((true, 1, true, 2, 5, 5), 8),           // a field differs
        ((true, 1, true, 1, 5, 6), 1),           // headers equal, structs not
    ];
    for ((pv, pa, qv, qa, px, qx), want) in cases {
        let mut arena = vec![0u8; plan.arena_bytes as usize];
        set(&mut arena, 0, &["h", "a"], 8, pa);
        set(&mut arena, 1, &["h", "a"], 8, qa);
        set(&mut arena, 0, &["x"], 8, px);
        set(&mut arena, 1, &["x"], 8, qx);
        set_valid(&mut arena, 0, pv);
        set_valid(&mut arena, 1, qv);
        run(&ops, &mut Env::new(&mut arena));
        let r = Bits::read_bits(&arena, at(2), 8, false).as_u64_truncated();
        assert_eq!(r, want, "case p=({pv},{pa},{px}) q=({qv},{qa},{qx})");
    }
}

// ---------------------------------------------------------------------------
// Specialised ops give what the generic ops they replace give.

mod specialised {
    use super::*;
    use janus_p4::ir::{BinOp, UnOp};
    use proptest::prelude::*;

    const ARENA: usize = 48;

    fn fixed(bit: u32) -> Place {
        Place::Fixed { bit, ty: TyId(0) }
    }

    fn load(bit: u32, width: u32, signed: bool) -> Node {
        Node::LoadFixed { bit, width, signed }
    }

    fn konst(width: u32, signed: bool, v: u64) -> Node {
        Node::Const(Bits::from_u64(width, signed, v))
    }

    /// Runs `ops` on a copy of `arena`.
    fn run_on(ops: &[Op], arena: &[u8]) -> (Flow, Vec<u8>) {
        let mut arena = arena.to_vec();
        let flow = run(ops, &mut Env::new(&mut arena));
        (flow, arena)
    }

    /// `op` specialised (one op), after checking it runs as `op` does.
    fn same_as_generic(op: Op, arena: &[u8]) -> Result<Op, TestCaseError> {
        let generic = vec![op];
        let special = special::specialise(generic.clone());
        prop_assert_eq!(run_on(&special, arena), run_on(&generic, arena));
        prop_assert_eq!(special.len(), 1);
        Ok(special.into_iter().next().expect("one op"))
    }

    fn arena() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(any::<u8>(), ARENA)
    }

    /// What `ops` emit from a copy of `arena` with the given validity bytes
    /// set, after `before` bits already in the output.
    fn emitted(
        arena: &[u8],
        valid_bytes: &[(usize, bool)],
        before: usize,
        ops: &[Op],
    ) -> (usize, Vec<u8>) {
        let mut arena = arena.to_vec();
        for &(byte, valid) in valid_bytes {
            arena[byte] = u8::from(valid);
        }
        let mut out = Vec::new();
        let mut env = Env::deparsing(&mut arena, &mut out);
        env.emit_bits(false, 3, before);
        run(ops, &mut env);
        let bits = env.out_bits;
        (bits, out)
    }

    proptest! {
        /// Stores of constants, of fixed fields and of other narrow values
        /// to fixed places, anywhere in the arena (near its end, straddling
        /// nine bytes, partly outside it).
        #[test]
        fn stores_match_the_generic_store(
            a in arena(),
            w in 1u32..=64,
            signed in any::<bool>(),
            bit in 0u32..(ARENA as u32 * 8),
            src in 0u32..(ARENA as u32 * 8),
            k in any::<u64>(),
        ) {
            let narrow = |n: Node| Node::Narrow(Box::new(n));
            let store = |value| Op::Store { place: Box::new(fixed(bit)), value };
            let op = same_as_generic(store(narrow(konst(w, signed, k))), &a)?;
            prop_assert!(matches!(op, Op::SetWord { .. }), "{op:?}");
            let op = same_as_generic(store(narrow(load(src, w, signed))), &a)?;
            prop_assert!(matches!(op, Op::MoveWord { .. }), "{op:?}");
            for bin in [BinOp::Add, BinOp::Sub] {
                let sum = Node::Binary(bin, Box::new(load(src, w, signed)), Box::new(konst(w, signed, k)));
                let op = same_as_generic(store(narrow(sum)), &a)?;
                prop_assert!(matches!(op, Op::AddWord { .. }), "{op:?}");
            }
            let product = Node::Binary(BinOp::Mul, Box::new(load(src, w, signed)), Box::new(konst(w, signed, k)));
            let op = same_as_generic(store(narrow(product)), &a)?;
            prop_assert!(matches!(op, Op::StoreWord { .. }), "{op:?}");
            // A zero initialiser (a constant outside `Narrow`) inside the arena.
            if (bit + w) as usize <= ARENA * 8 {
                let op = same_as_generic(store(konst(w, signed, 0)), &a)?;
                prop_assert!(matches!(op, Op::SetWord { .. }), "{op:?}");
            }
            // Casts to every width: a move when they truncate or
            // zero-extend, an expression when they sign-extend.
            for to_width in [1, w / 2 + 1, w, 64] {
                for to_signed in [false, true] {
                    let cast = Node::Cast { to_width, to_signed, inner: Box::new(load(src, w, signed)) };
                    let op = same_as_generic(store(narrow(cast)), &a)?;
                    let moves = to_width <= w || !signed;
                    prop_assert_eq!(matches!(op, Op::MoveWord { .. }), moves, "{:?}", op);
                }
            }
        }

        /// A wide field stored to a wide place, whole bytes on byte
        /// boundaries: a copy; anything else stays a store.
        #[test]
        fn wide_field_stores_match_the_generic_store(
            a in arena(),
            bytes in 9u32..=16,
            dst in 0u32..(ARENA as u32 - 16),
            src in 0u32..(ARENA as u32 - 16),
            skew in 0u32..3,
        ) {
            let store = Op::Store {
                place: Box::new(fixed(dst * 8)),
                value: load(src * 8 + skew, bytes * 8, false),
            };
            let op = same_as_generic(store, &a)?;
            prop_assert_eq!(matches!(op, Op::Copy { .. }), skew == 0, "{:?}", op);
        }

        /// `if` on validity, on a field, on its negation and on a field
        /// compared with a constant (either side, signed or not).
        #[test]
        fn conditions_match_the_generic_if(
            a in arena(),
            w in 1u32..=64,
            signed in any::<bool>(),
            bit in 0u32..(ARENA as u32 * 8 - 64),
            byte in 0u32..ARENA as u32,
            op in prop::sample::select(vec![BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge]),
            near in any::<bool>(),
            k in any::<u64>(),
        ) {
            let field = load(bit, w, signed);
            // Half the time compare with the field's own value, give or take one.
            let k = if near { read_word(&a, bit as usize, w).wrapping_add(k % 3).wrapping_sub(1) } else { k };
            let valid = Node::Valid(Box::new(fixed(byte * 8)));
            let not = |n: Node| Node::Unary(UnOp::Not, Box::new(n));
            let cmp = |x: Node, y: Node| Node::Binary(op, Box::new(x), Box::new(y));
            let (w1, s1) = (1, false);
            let conds = [
                valid.clone(),
                not(valid),
                load(bit, w1, s1),
                not(load(bit, w1, s1)),
                field.clone(),
                cmp(field.clone(), konst(w, signed, k)),
                cmp(konst(w, signed, k), field),
            ];
            let mark = |v| Op::Store { place: Box::new(fixed(0)), value: Node::Narrow(Box::new(konst(8, false, v))) };
            for cond in conds {
                let op = Op::If(Box::new(Node::Narrow(Box::new(cond))), vec![mark(1)], vec![mark(2)]);
                let special = same_as_generic(op, &a)?;
                prop_assert!(matches!(special, Op::IfTest(..)), "{special:?}");
            }
        }

        /// `&&` and `||` chains of the shapes above, and two fields
        /// compared, nested either way.
        #[test]
        fn chains_of_conditions_match_the_generic_if(
            a in arena(),
            w in 1u32..=64,
            signed in any::<bool>(),
            bits in prop::collection::vec(0u32..(ARENA as u32 * 8 - 64), 4),
            op in prop::sample::select(vec![BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge]),
            same in any::<bool>(),
            k in any::<u64>(),
            shape in 0usize..6,
        ) {
            let bin = |o: BinOp, x: Node, y: Node| Node::Binary(o, Box::new(x), Box::new(y));
            let not = |n: Node| Node::Unary(UnOp::Not, Box::new(n));
            // Half the time the two fields hold the same value.
            let mut a = a;
            if same {
                let v = read_word(&a, bits[0] as usize, w);
                crate::value::write_word(&mut a, bits[1] as usize, w, v);
            }
            let fields = bin(op, load(bits[0], w, signed), load(bits[1], w, signed));
            let flag = |i: usize| load(bits[i], 1, false);
            let compare = bin(op, load(bits[2], w, signed), konst(w, signed, k));
            let conds = [
                fields.clone(),
                bin(BinOp::And, flag(2), fields.clone()),
                bin(BinOp::Or, not(flag(3)), bin(BinOp::And, fields.clone(), compare.clone())),
                bin(BinOp::And, bin(BinOp::Or, flag(0), flag(1)), not(flag(2))),
                bin(BinOp::And, bin(BinOp::And, compare.clone(), flag(3)), fields.clone()),
                bin(BinOp::Or, bin(BinOp::Or, flag(1), compare), fields),
            ];
            let mark = |v| Op::Store { place: Box::new(fixed(0)), value: Node::Narrow(Box::new(konst(8, false, v))) };
            let cond = conds[shape].clone();
            let op = Op::If(Box::new(Node::Narrow(Box::new(cond))), vec![mark(1)], vec![mark(2)]);
            let special = same_as_generic(op, &a)?;
            prop_assert!(matches!(special, Op::IfTest(..)), "{special:?}");
        }

        /// `extract` of a header without varbit at a fixed place, at any
        /// cursor, from packets long enough or not.
        #[test]
        fn extracts_match_the_generic_extract(
            a in arena(),
            input in prop::collection::vec(any::<u8>(), 0..40),
            wire_bits in 1u32..=200,
            at in 0u32..8,
            cursor in 0usize..330,
        ) {
            let shape = HeaderShape { wire_bits, valid_byte: wire_bits.div_ceil(8), varbit: None };
            let errors = ParserErrors { packet_too_short: 7, ..ParserErrors::default() };
            let generic = vec![Op::Extract { header: Box::new(fixed(at * 8)), shape: Box::new(shape), varbit_len: None, next_index: None, errors }];
            let special = special::specialise(generic.clone());
            prop_assert!(matches!(special[..], [Op::ExtractFixed(_)]), "{special:?}");
            let cursor = cursor.min(input.len() * 8);
            let go = |ops: &[Op]| {
                let mut arena = a.clone();
                let mut env = Env::parsing(&mut arena, &input);
                env.cursor = cursor;
                let flow = run(ops, &mut env);
                let cursor = env.cursor;
                (flow, cursor, arena)
            };
            prop_assert_eq!(go(&special), go(&generic));
        }

        /// `emit` of a header without varbit at a fixed place, valid or
        /// not, after output ending on a byte boundary or not.
        #[test]
        fn emits_match_the_generic_emit(
            a in arena(),
            wire_bits in 1u32..=200,
            at in 0u32..8,
            before in 0usize..20,
            valid in any::<bool>(),
        ) {
            let shape = HeaderShape { wire_bits, valid_byte: wire_bits.div_ceil(8), varbit: None };
            let generic = vec![Op::Emit { header: fixed(at * 8), shape }];
            let special = special::specialise(generic.clone());
            prop_assert!(matches!(special[..], [Op::EmitFixed(_)]), "{special:?}");
            let valid_bytes = [((at + wire_bits.div_ceil(8)) as usize, valid)];
            let go = |ops: &[Op]| emitted(&a, &valid_bytes, before, ops);
            prop_assert_eq!(go(&special), go(&generic));
        }

        /// Consecutive emits of headers laid one validity byte apart (as
        /// a deparser's are) joined into one op give what the single
        /// emits give: random validity, an output starting on a byte
        /// boundary or not, now and then a header of a partial byte
        /// (which stays a single emit and splits the run).
        #[test]
        fn emit_runs_match_consecutive_emits(
            a in arena(),
            headers in prop::collection::vec((1u32..=10, any::<bool>()), 2..=4),
            odd in prop::option::of(0usize..4),
            before in 0usize..20,
        ) {
            let mut generic = Vec::new();
            let mut valid_bytes = Vec::new();
            let mut at = 0;
            for (i, &(bytes, valid)) in headers.iter().enumerate() {
                let wire_bits = if odd == Some(i) { bytes * 8 - 3 } else { bytes * 8 };
                let shape = HeaderShape { wire_bits, valid_byte: bytes, varbit: None };
                generic.push(Op::Emit { header: fixed(at * 8), shape });
                valid_bytes.push(((at + bytes) as usize, valid));
                at += bytes + 1;
            }
            let special = special::specialise(generic.clone());
            let singles: Vec<Op> = generic.iter().cloned().map(|op| match op {
                Op::Emit { header: Place::Fixed { bit, .. }, shape } => Op::EmitFixed(FixedHeader {
                    byte: bit / 8,
                    bits: shape.wire_bits,
                    valid: bit / 8 + shape.valid_byte,
                    too_short: 0,
                }),
                op => op,
            }).collect();
            if odd.is_none_or(|i| i >= headers.len()) {
                prop_assert!(matches!(special[..], [Op::EmitFixedRun(_)]), "{special:?}");
            }
            let go = |ops: &[Op]| emitted(&a, &valid_bytes, before, ops);
            let want = go(&singles);
            prop_assert_eq!(go(&special), want.clone());
            prop_assert_eq!(go(&generic), want);
        }

        /// Control-plane arguments written as words land as `write_bits`
        /// puts them.
        #[test]
        fn narrow_arguments_are_written_as_bits_are(
            a in arena(),
            w in 0u32..=64,
            signed in any::<bool>(),
            bit in 0u32..(ARENA as u32 * 8 - 64),
            v in any::<u64>(),
        ) {
            let arg = Bits::from_u64(w, signed, v);
            let mut words = a.clone();
            write_arg(&mut Env::new(&mut words), &fixed(bit), &arg);
            let mut bits = a;
            arg.write_bits(&mut bits, bit as usize);
            prop_assert_eq!(words, bits);
        }
    }

    /// A `Seq` spliced into its list ends the list with the same flow.
    #[test]
    fn seq_bodies_are_spliced_with_their_flow() {
        let set = |byte: u32, v| Op::Store {
            place: Box::new(fixed(byte * 8)),
            value: Node::Narrow(Box::new(konst(8, false, v))),
        };
        let generic = vec![
            set(0, 1),
            Op::Seq(vec![set(1, 2), Op::Seq(vec![Op::Return]), set(2, 3)]),
            set(3, 4),
        ];
        let special = special::specialise(generic.clone());
        assert!(!special.iter().any(|op| matches!(op, Op::Seq(_))));
        assert_eq!(special.len(), 5);
        let a = [0u8; ARENA];
        let (flow, arena) = run_on(&special, &a);
        assert_eq!((flow, arena.clone()), run_on(&generic, &a));
        assert_eq!(flow, Flow::Return);
        assert_eq!(arena[..4], [1, 2, 0, 0]);
    }

    /// The compiler emits the specialised forms for the usual statements.
    #[test]
    fn compiled_controls_use_the_specialised_ops() {
        fn all(ops: &[Op], f: &mut impl FnMut(&Op)) {
            for op in ops {
                f(op);
                match op {
                    Op::If(_, a, b) | Op::IfTest(_, a, b) => {
                        all(a, f);
                        all(b, f);
                    }
                    Op::Loop { body, update, .. } => {
                        all(body, f);
                        all(update, f);
                    }
                    Op::CallAction {
                        copy_in,
                        body,
                        copy_out,
                    } => {
                        all(copy_in, f);
                        all(body, f);
                        all(copy_out, f);
                    }
                    Op::Switch { bodies, .. } => bodies.iter().for_each(|b| all(b, f)),
                    _ => {}
                }
            }
        }
        let r = super::load();
        let (mut sets, mut tests, mut seqs) = (0, 0, 0);
        all(&r.ops, &mut |op| match op {
            Op::SetWord { .. } => sets += 1,
            Op::IfTest(..) => tests += 1,
            Op::Seq(_) => seqs += 1,
            _ => {}
        });
        assert!(sets >= 3, "s.acc = 0, s.out1 = 1, s.out2 = 12, ...");
        assert!(tests >= 1, "if (s.acc == 10)");
        assert_eq!(seqs, 0, "blocks are spliced");
    }
}

// ---------------------------------------------------------------------------
// Table applies on fixed key fields give what the generic apply gives.

mod fixed_applies {
    use super::*;
    use crate::env::ApplyResult;
    use crate::profile::{ActionProfile, Member, Target};
    use crate::table::{Entry, FieldMatch, KeySpec, MatchKind, TableState};
    use proptest::prelude::*;

    const ARENA: usize = 64;
    /// Key values come from a small set, so that entries often match.
    const VALUES: u64 = 4;

    fn fixed(bit: u32) -> Place {
        Place::Fixed { bit, ty: TyId(0) }
    }

    /// One key field: its kind, width, place, and the packet's value.
    #[derive(Clone, Debug)]
    struct KeyField {
        kind: MatchKind,
        width: u32,
        signed: bool,
        bit: u32,
        value: u64,
    }

    fn key_field() -> impl Strategy<Value = KeyField> {
        let kind = prop::sample::select(vec![
            MatchKind::Exact,
            MatchKind::Lpm,
            MatchKind::Ternary,
            MatchKind::Range,
            MatchKind::Optional,
        ]);
        (kind, 1u32..=64, any::<bool>(), 0u32..256, 0..VALUES).prop_map(
            |(kind, width, signed, bit, value)| KeyField {
                kind,
                width,
                signed,
                bit: 128 + bit,
                value,
            },
        )
    }

    /// One entry's match on a field of `f`'s shape, from small numbers.
    fn field_match(f: &KeyField, a: u64, b: u64, len: u32) -> FieldMatch {
        let v = |x: u64| Bits::from_u64(f.width, f.signed, x);
        match f.kind {
            MatchKind::Exact => FieldMatch::Exact(v(a)),
            MatchKind::Lpm => FieldMatch::Lpm {
                value: v(a),
                len: len % (f.width + 1),
            },
            MatchKind::Ternary => FieldMatch::Ternary {
                value: v(a),
                mask: v([0, 1, u64::MAX, b][(len % 4) as usize]),
            },
            MatchKind::Range => FieldMatch::Range {
                lo: v(a.min(b)),
                hi: v(a.max(b)),
            },
            MatchKind::Optional => FieldMatch::Optional(len.is_multiple_of(2).then(|| v(a))),
        }
    }

    /// An entry of a [`Case`]: numbers for its key fields, its action,
    /// whether its arguments have the parameters' widths, their seed.
    type CaseEntry = (Vec<(u64, u64, u32)>, usize, bool, u64);

    /// A table case: key fields, action 0's parameter widths and places,
    /// entries as (numbers, action, whether its arguments have the
    /// parameters' widths), the default, counters, an indirect entry.
    #[derive(Clone, Debug)]
    struct Case {
        keys: Vec<KeyField>,
        params: Vec<(u32, u32)>,
        entries: Vec<CaseEntry>,
        default: Option<usize>,
        counted: (bool, bool),
        indirect: Option<bool>,
        arena: Vec<u8>,
    }

    fn case() -> impl Strategy<Value = Case> {
        (
            prop::collection::vec(key_field(), 1..=4),
            prop::collection::vec((1u32..=80, 0u32..120), 0..=3),
            prop::collection::vec(
                (
                    prop::collection::vec((0..VALUES, 0..VALUES, any::<u32>()), 4),
                    0usize..4,
                    prop::bool::weighted(0.9),
                    any::<u64>(),
                ),
                0..8,
            ),
            prop::option::of(0usize..4),
            (any::<bool>(), any::<bool>()),
            prop::option::weighted(0.2, any::<bool>()),
            prop::collection::vec(any::<u8>(), ARENA),
        )
            .prop_map(
                |(keys, params, entries, default, counted, indirect, arena)| Case {
                    keys,
                    params,
                    entries,
                    default,
                    counted,
                    indirect,
                    arena,
                },
            )
    }

    /// Arguments for action 0's parameters (of other widths when not `fit`).
    fn args(params: &[(u32, u32)], fit: bool, seed: u64) -> Vec<Bits> {
        params
            .iter()
            .enumerate()
            .map(|(i, &(w, _))| {
                let w = if fit { w } else { w % 70 + 1 };
                Bits::from_u64(w, false, seed.rotate_left(i as u32 * 13))
            })
            .collect()
    }

    /// The table of `c`, with the profile its indirect entry points into.
    fn table(c: &Case) -> (TableState, Vec<ActionProfile>) {
        let specs = c
            .keys
            .iter()
            .map(|k| KeySpec {
                kind: k.kind,
                width: k.width,
                signed: k.signed,
            })
            .collect();
        let mut t = TableState::new(specs, 64);
        (t.direct_counter, t.idle_timeout) = c.counted;
        t.default = c.default.map(|a| (a, args(&c.params, true, 0x5a5a)));
        let key_of = |nums: &[(u64, u64, u32)]| {
            c.keys
                .iter()
                .zip(nums)
                .map(|(k, &(a, b, len))| field_match(k, a, b, len))
                .collect::<Vec<_>>()
        };
        for (i, (nums, action, fit, seed)) in c.entries.iter().enumerate() {
            let _ = t.insert(Entry {
                key: key_of(nums),
                priority: i as i64 % 3,
                action: *action,
                args: args(&c.params, *fit, *seed),
            });
        }
        let mut profiles = Vec::new();
        if let Some(with_profile) = c.indirect {
            let mut p = ActionProfile::new(4, None);
            let member = Member {
                action: 0,
                args: args(&c.params, true, 7),
            };
            p.add_member(0, member).expect("room");
            profiles.push(p);
            t.profile = with_profile.then_some(0);
            let key = key_of(&[(0, 0, 0); 4]);
            let _ = t.insert_indirect(key, 5, Target::Member(0));
        }
        (t, profiles)
    }

    /// The table's op: action 0 writes its parameters and marks byte 0,
    /// action 1 is `NoAction`, action 2 exits, action 3 marks byte 1 and
    /// returns.
    fn op(c: &Case) -> Op {
        let mark = |byte: u32, v: u64| Op::SetWord {
            dst: FieldWord::new(byte * 8, 8),
            value: v,
        };
        let params = c
            .params
            .iter()
            .map(|&(w, bit)| ActionParam {
                place: fixed(bit),
                word: (w <= 64).then(|| FieldWord::new(bit, w)),
            })
            .collect();
        let action = |name: &str, params, body| ActionImpl {
            name: name.into(),
            params,
            copy_in: Vec::new(),
            body,
            copy_out: Vec::new(),
        };
        Op::ApplyTable {
            slot: 0,
            keys: Box::new(TableKeys {
                name: "t".into(),
                keys: c
                    .keys
                    .iter()
                    .map(|k| {
                        Node::Narrow(Box::new(Node::LoadFixed {
                            bit: k.bit,
                            width: k.width,
                            signed: k.signed,
                        }))
                    })
                    .collect(),
                selector_keys: Vec::new(),
            }),
            actions: vec![
                action("set", params, vec![mark(0, 1)]),
                action("NoAction", Vec::new(), Vec::new()),
                action("stop", Vec::new(), vec![Op::Exit]),
                action("ret", Vec::new(), vec![mark(1, 3), Op::Return, mark(1, 4)]),
            ],
            key_words: None,
        }
    }

    /// What an apply did: its flow, the arena, the recorded result, and
    /// the table's counters and hit times.
    type Outcome = (Flow, Vec<u8>, ApplyResult, Vec<(u64, u64)>, Vec<u64>);

    /// Runs `op` (followed by a mark of byte 2 when `then`, so that the
    /// apply is not the last op of its list) over the table of `c`.
    fn run_case(c: &Case, op: &Op, trace: bool, then: bool) -> Outcome {
        let (t, profiles) = table(c);
        let tables = [t];
        let mut arena = c.arena.clone();
        for k in &c.keys {
            write_word(&mut arena, k.bit as usize, k.width, k.value);
        }
        let mut results = [ApplyResult::default()];
        let flow = {
            let mut env = Env::new(&mut arena)
                .with_tables(&tables, &mut results)
                .with_profiles(&profiles);
            env.trace = trace;
            env.packet_bytes = 77;
            env.now_us = 1234;
            let mut ops = vec![op.clone()];
            if then {
                ops.push(Op::SetWord {
                    dst: FieldWord::new(16, 8),
                    value: 9,
                });
            }
            run(&ops, &mut env)
        };
        let counts = tables[0].counted_entries().map(|(_, n)| n).collect();
        let hits = (0..16).filter_map(|i| tables[0].last_hit_us(i)).collect();
        (flow, arena, results[0], counts, hits)
    }

    proptest! {
        /// Random narrow tables, entries, defaults and arguments (some of
        /// other widths than their parameters, some wider than a word):
        /// the apply on fixed key fields does what the generic apply on
        /// key words does, and what the apply on key values does.
        #[test]
        fn fixed_applies_match_the_generic_apply(c in case(), then in any::<bool>()) {
            let generic = op(&c);
            let special = special::specialise(vec![generic.clone()]);
            let [special @ Op::ApplyTable { key_words: Some(_), .. }] = &special[..] else {
                panic!("not specialised: {special:?}");
            };
            let fast = run_case(&c, special, false, then);
            prop_assert_eq!(&fast, &run_case(&c, &generic, false, then));
            prop_assert_eq!(&fast, &run_case(&c, &generic, true, then));
        }

        /// A control-plane argument written through its parameter's word
        /// form lands as `write_arg` puts it, whatever its width.
        #[test]
        fn parameter_words_write_what_write_arg_writes(
            a in prop::collection::vec(any::<u8>(), ARENA),
            param_width in 0u32..=64,
            arg_width in 0u32..=80,
            bit in 0u32..(ARENA as u32 * 8 - 80),
            v in any::<u64>(),
        ) {
            let arg = Bits::from_u64(arg_width, false, v);
            let param = ActionParam { place: fixed(bit), word: Some(FieldWord::new(bit, param_width)) };
            let mut by_word = a.clone();
            write_param(&mut Env::new(&mut by_word), &param, &arg);
            let mut by_place = a;
            write_arg(&mut Env::new(&mut by_place), &param.place, &arg);
            prop_assert_eq!(by_word, by_place);
        }
    }

    /// Keys that are not all fixed loads, or selector keys, keep the
    /// generic apply.
    #[test]
    fn other_keys_are_not_specialised() {
        let load = Node::Narrow(Box::new(Node::LoadFixed {
            bit: 0,
            width: 8,
            signed: false,
        }));
        let sum = Node::Narrow(Box::new(Node::Binary(
            janus_p4::ir::BinOp::Add,
            Box::new(Node::LoadFixed {
                bit: 0,
                width: 8,
                signed: false,
            }),
            Box::new(Node::Const(Bits::from_u64(8, false, 1))),
        )));
        let apply = |keys: Vec<Node>, selector_keys: Vec<Node>| Op::ApplyTable {
            slot: 0,
            keys: Box::new(TableKeys {
                name: "t".into(),
                keys,
                selector_keys,
            }),
            actions: Vec::new(),
            key_words: None,
        };
        let fixed = |op: Op| {
            matches!(
                &special::specialise(vec![op])[..],
                [Op::ApplyTable {
                    key_words: Some(_),
                    ..
                }]
            )
        };
        assert!(fixed(apply(vec![load.clone()], Vec::new())));
        assert!(!fixed(apply(vec![load.clone(), sum], Vec::new())));
        assert!(!fixed(apply(vec![load.clone()], vec![load.clone()])));
        assert!(!fixed(apply(vec![load; INLINE_KEYS + 1], Vec::new())));
    }
}

#[test]
fn constructor_parameters_forwarded_down_the_tree_take_their_values() {
    let program = program(
        r#"
        #include <core.p4>
        control Leaf(inout bit<8> v)(bit<8> amount) { apply { v = v + amount; } }
        control Mid(inout bit<8> v)(bit<8> amount) { Leaf(amount) leaf; apply { leaf.apply(v); } }
        control Top(inout bit<8> v) { Mid(8w7) mid; Leaf(8w2) direct; apply { mid.apply(v); } }
        control Ct(inout bit<8> v);
        package Pkg(Ct c);
        Pkg(Top()) main;
    "#,
    );
    let value = |path: &str| {
        let args = resolved_ctor_args(&program, path).expect(path);
        match &args[..] {
            [
                ir::Expr {
                    kind: ExprKind::Const(Value::Int(v)),
                    ..
                },
            ] => v.to_string(),
            other => panic!("{path}: {other:?}"),
        }
    };
    assert_eq!(value("Top.mid"), "7");
    assert_eq!(value("Top.mid.leaf"), "7");
    assert_eq!(value("Top.direct"), "2");
    assert!(resolved_ctor_args(&program, "Top.nothing").is_none());
}

// ---------------------------------------------------------------------------
// `run` continues a list with a nested list in tail position instead of
// calling itself: the flows are those of running every nested list in a
// call of its own.

mod tail_lists {
    use super::*;
    use proptest::prelude::*;

    const ARENA: usize = 8;

    /// Ops over an 8-byte arena: marks, `if`s on a byte, blocks, action
    /// calls without copies, `return` and `exit`.
    fn ops() -> impl Strategy<Value = Vec<Op>> {
        let leaf = prop_oneof![
            4 => (0u32..ARENA as u32, 0u64..4).prop_map(|(byte, value)| Op::SetWord {
                dst: FieldWord::new(byte * 8, 8),
                value,
            }),
            1 => Just(Op::Return),
            1 => Just(Op::Exit),
        ];
        let list = leaf.prop_recursive(4, 48, 4, |inner| {
            let list = prop::collection::vec(inner, 0..4);
            prop_oneof![
                (
                    0u32..ARENA as u32,
                    any::<bool>(),
                    list.clone(),
                    list.clone()
                )
                    .prop_map(|(byte, valid, a, b)| Op::IfTest(
                        Box::new(Test::Valid { byte, valid }),
                        a,
                        b
                    )),
                list.clone().prop_map(Op::Seq),
                list.prop_map(|body| Op::CallAction {
                    copy_in: Box::new([]),
                    body,
                    copy_out: Box::new([]),
                }),
            ]
        });
        prop::collection::vec(list, 0..5)
    }

    /// The reference: every nested list run by a call of its own; an
    /// action call ends at its `return`, `exit` ends everything.
    fn reference(ops: &[Op], arena: &mut [u8]) -> Flow {
        for op in ops {
            let flow = match op {
                Op::SetWord { dst, value } => {
                    dst.write(arena, *value);
                    Flow::Continue
                }
                Op::IfTest(t, a, b) => {
                    let Test::Valid { byte, valid } = **t else {
                        unreachable!("only validity tests")
                    };
                    let holds = (arena[byte as usize] != 0) == valid;
                    reference(if holds { a } else { b }, arena)
                }
                Op::Seq(list) => reference(list, arena),
                Op::CallAction { body, .. } => match reference(body, arena) {
                    Flow::Exit => Flow::Exit,
                    _ => Flow::Continue,
                },
                Op::Return => Flow::Return,
                Op::Exit => Flow::Exit,
                op => unreachable!("not generated: {op:?}"),
            };
            if flow != Flow::Continue {
                return flow;
            }
        }
        Flow::Continue
    }

    proptest! {
        /// Random nests of `if`s, blocks and action calls with `return`s
        /// and `exit`s: `run` ends with the reference's flow and arena.
        #[test]
        fn nested_lists_run_as_calls_of_their_own(
            ops in ops(),
            arena in prop::collection::vec(0u8..2, ARENA),
        ) {
            let mut want = arena.clone();
            let want_flow = reference(&ops, &mut want);
            let mut got = arena;
            let got_flow = run(&ops, &mut Env::new(&mut got));
            prop_assert_eq!((got_flow, got), (want_flow, want));
        }
    }
}

/// Ops stay small, their tag a plain one: the large, rare payloads live
/// behind boxes, so that op lists are dense in cache.
#[test]
fn ops_stay_small() {
    assert!(
        std::mem::size_of::<Op>() <= 64,
        "{}",
        std::mem::size_of::<Op>()
    );
}

#[test]
fn arrays_of_scalars_nest_and_index_at_run_time() {
    let program = program(
        r#"
        #include <core.p4>
        control C(in bit<8> i, in bit<8> j, out bit<8> r, out bit<8> q) {
            bit<8>[2][3] n;
            bit<16>[4] a;
            apply {
                n[i][j] = 7;
                a[i] = 0x1234;
                r = n[2][1] + n[i][j];
                q = a[i][7:0] + a[j][15:8];
            }
        }
    "#,
    );
    let Compiled {
        plan,
        vars,
        block,
        ops,
    } = compile_control_c(&program);
    let bit = |k: usize| (vars[&block.params[k].var] * 8) as usize;
    // (i, j) -> (r, q): an out-of-range element is neither written nor read.
    let cases = [
        (2u64, 1u64, 14u64, 0x34u64),
        (0, 1, 7, 0x34),
        (3, 0, 0, 0x34),
        (1, 2, 0, 0x34),
    ];
    for (i, j, want_r, want_q) in cases {
        let mut arena = vec![0u8; plan.arena_bytes as usize];
        Bits::from_u64(8, false, i).write_bits(&mut arena, bit(0));
        Bits::from_u64(8, false, j).write_bits(&mut arena, bit(1));
        run(&ops, &mut Env::new(&mut arena));
        let got = |k| Bits::read_bits(&arena, bit(k), 8, false).as_u64_truncated();
        assert_eq!((got(2), got(3)), (want_r, want_q), "i = {i}, j = {j}");
    }
}

#[test]
fn part_selects_read_and_write_at_run_time_starts() {
    // A naive bit model: bits outside the value read 0 and are not written.
    fn get(v: u128, n: i64, lo: i64, w: i64) -> u128 {
        (0..w)
            .filter(|k| (0..n).contains(&(lo + k)))
            .map(|k| ((v >> (lo + k)) & 1) << k)
            .sum()
    }
    fn put(mut v: u128, n: i64, lo: i64, w: i64, x: u128) -> u128 {
        for k in (0..w).filter(|k| (0..n).contains(&(lo + k))) {
            v = (v & !(1 << (lo + k))) | (((x >> k) & 1) << (lo + k));
        }
        v
    }
    // 24-bit values (on words) and 100-bit ones (on `Bits`).
    for width in [24u32, 100] {
        let program = program(&format!(
            r#"
            #include <core.p4>
            control C(in bit<8> s, inout bit<{width}> x, out bit<5> up, out bit<5> down,
                      inout bit<{width}> y) {{
                apply {{
                    up = x[s +: 5];
                    down = x[s -: 5];
                    y[s +: 5] = 5w0x15;
                    y[s -: 5] = y[s -: 5] ^ 5w0x1f;
                }}
            }}
        "#
        ));
        let Compiled {
            plan,
            vars,
            block,
            ops,
        } = compile_control_c(&program);
        let bit = |k: usize| (vars[&block.params[k].var] * 8) as usize;
        let n = i64::from(width);
        let mask = (1u128 << width) - 1;
        let x = 0x0123_4567_89ab_cdef_0f1e_2d3c_4b5a_u128 & mask;
        let y = 0x0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_u128 & mask;
        for s in [
            0u64, 1, 3, 4, 7, 20, 22, 23, 24, 27, 28, 95, 96, 99, 100, 104, 200, 255,
        ] {
            let mut arena = vec![0u8; plan.arena_bytes as usize];
            let wide = |v: u128| Bits::from_words_le(width, false, &[v as u64, (v >> 64) as u64]);
            Bits::from_u64(8, false, s).write_bits(&mut arena, bit(0));
            wide(x).write_bits(&mut arena, bit(1));
            wide(y).write_bits(&mut arena, bit(4));
            run(&ops, &mut Env::new(&mut arena));
            let read = |k: usize, w: u32| {
                let b = Bits::read_bits(&arena, bit(k), w, false);
                let words = b.words();
                u128::from(words[0]) | words.get(1).map_or(0, |h| u128::from(*h) << 64)
            };
            let s = s as i64;
            assert_eq!(read(2, 5), get(x, n, s, 5), "x[{s} +: 5], width {width}");
            assert_eq!(
                read(3, 5),
                get(x, n, s - 4, 5),
                "x[{s} -: 5], width {width}"
            );
            let mut want = put(y, n, s, 5, 0x15);
            want = put(want, n, s - 4, 5, get(want, n, s - 4, 5) ^ 0x1f);
            assert_eq!(read(4, width), want, "y after s = {s}, width {width}");
        }
    }
}

#[test]
fn unsupported_constructs_name_their_place() {
    let program = program(
        "#include <core.p4>\nextern void ext(in bit<8> x);\ncontrol C(inout bit<8> a) {\n    apply {\n        a = a + 1;\n        ext(a);\n    }\n}\n",
    );
    let plan = StoragePlan::new(&program).expect("plan");
    let frame = plan.instance_frame("C").expect("frame");
    let vars = frame
        .vars
        .iter()
        .map(|(v, off)| (*v, frame.base + off))
        .collect();
    let block = program.blocks.iter().find(|b| b.name == "C").unwrap();
    let err = compile_stmts(&mut Compiler::new(&program, vars), &block.apply)
        .map(|_| ())
        .unwrap_err();
    // Line 6, the extern call (no architecture implements it here).
    assert!(
        err.location()
            .is_some_and(|at| at.starts_with("test.p4:6:")),
        "{err}"
    );
    assert!(err.to_string().starts_with("test.p4:6:"), "{err}");
}
