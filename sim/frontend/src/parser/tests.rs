//! Parser unit tests on small snippets (no preprocessing).

use super::*;
use crate::ast::*;
use crate::lexer::lex;

fn parse_ok(src: &str) -> Program {
    let (toks, lex_errs) = lex(src);
    assert!(lex_errs.is_empty(), "{lex_errs:?}");
    let (prog, errs) = parse_program(&toks, src);
    assert!(errs.is_empty(), "{errs:?}\nin:\n{src}");
    prog
}

fn parse_err(src: &str) -> Vec<SyntaxError> {
    let (toks, _) = lex(src);
    let (_, errs) = parse_program(&toks, src);
    assert!(!errs.is_empty(), "expected a syntax error in:\n{src}");
    errs
}

fn expr(src: &str) -> Expr {
    let (toks, _) = lex(src);
    parse_expression(&toks, src).unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn precedence_follows_the_spec() {
    // Lowest to highest: `||`, `&&`, `== !=`, `< > <= >=`, `|`, `^`, `&`,
    // shifts, `+ - ++ |+| |-|`, `* / %`. Unlike C, bitwise operators bind
    // tighter than comparisons.
    let e = expr("a + b * c << 1 < d == e & f ^ g | h && i || j");
    let ExprKind::Binary(BinOp::Or, l, _) = e.kind else {
        panic!()
    };
    let ExprKind::Binary(BinOp::And, l, _) = l.kind else {
        panic!()
    };
    let ExprKind::Binary(BinOp::Eq, lt, bits) = l.kind else {
        panic!()
    };
    let ExprKind::Binary(BinOp::Lt, shl, _) = lt.kind else {
        panic!()
    };
    let ExprKind::Binary(BinOp::Shl, add, _) = shl.kind else {
        panic!()
    };
    let ExprKind::Binary(BinOp::Add, _, mul) = add.kind else {
        panic!()
    };
    assert!(matches!(mul.kind, ExprKind::Binary(BinOp::Mul, ..)));
    let ExprKind::Binary(BinOp::BitOr, xor, _) = bits.kind else {
        panic!()
    };
    let ExprKind::Binary(BinOp::BitXor, and, _) = xor.kind else {
        panic!()
    };
    assert!(matches!(and.kind, ExprKind::Binary(BinOp::BitAnd, ..)));
    // The common masking idiom.
    assert!(matches!(
        expr("x & 0xF0 == 0x10").kind,
        ExprKind::Binary(BinOp::Eq, ..)
    ));
}

#[test]
fn shift_right_from_two_touching_gt() {
    assert!(matches!(
        expr("a >> 2").kind,
        ExprKind::Binary(BinOp::Shr, ..)
    ));
    // With a space it is two comparisons' worth of tokens: `a > > 2` fails.
    let (toks, _) = lex("a > > 2");
    assert!(parse_expression(&toks, "a > > 2").is_err());
}

#[test]
fn casts_need_a_type() {
    let src = "typedef bit<8> T; const T x = (T) 5; const bit<8> y = (bit<8>) (x); const bit<8> z = (x) + 1;";
    let p = parse_ok(src);
    let DeclKind::Const(c) = &p.decls[1].kind else {
        panic!()
    };
    assert!(matches!(c.value.kind, ExprKind::Cast(..)));
    let DeclKind::Const(c) = &p.decls[2].kind else {
        panic!()
    };
    assert!(matches!(c.value.kind, ExprKind::Cast(..)));
    let DeclKind::Const(c) = &p.decls[3].kind else {
        panic!()
    };
    assert!(matches!(c.value.kind, ExprKind::Binary(BinOp::Add, ..)));
}

#[test]
fn generic_types_close_with_touching_angles() {
    let p = parse_ok("extern E<T> { E(); } control C() { E<bit<8>>() e; apply {} }");
    let DeclKind::Control(c) = &p.decls[1].kind else {
        panic!()
    };
    let DeclKind::Instance(i) = &c.locals[0].kind else {
        panic!()
    };
    let TypeKind::Named { args, .. } = &i.ty.kind else {
        panic!()
    };
    assert!(matches!(args[0].kind, TypeKind::Bit(_)));
}

#[test]
fn generic_method_call_and_less_than() {
    let e = expr("b.lookahead<bit<16>>()");
    let ExprKind::Call { type_args, .. } = e.kind else {
        panic!()
    };
    assert_eq!(type_args.len(), 1);
    assert!(matches!(
        expr("a < b").kind,
        ExprKind::Binary(BinOp::Lt, ..)
    ));
    assert!(matches!(
        expr("a < b && c > d").kind,
        ExprKind::Binary(BinOp::And, ..)
    ));
}

#[test]
fn statements_declarations_versus_assignments() {
    let src = r#"
        typedef bit<8> T;
        control C(inout bit<8> x) {
            apply {
                T a;
                T b = 1;
                bit<4> c = x[3:0];
                x = b;
                x[7:4] = c;
                x += 1;
                x >>= 1;
                if (x == 0) { exit; } else if (x > 1) return; else {}
                { }
                ;
            }
        }"#;
    let p = parse_ok(src);
    let DeclKind::Control(c) = &p.decls[1].kind else {
        panic!()
    };
    let kinds: Vec<_> = c
        .apply
        .stmts
        .iter()
        .map(|s| std::mem::discriminant(&s.kind))
        .collect();
    assert_eq!(kinds.len(), 10);
    assert!(matches!(c.apply.stmts[0].kind, StmtKind::Var(_)));
    assert!(matches!(
        c.apply.stmts[3].kind,
        StmtKind::Assign { op: None, .. }
    ));
    assert!(matches!(
        c.apply.stmts[5].kind,
        StmtKind::Assign {
            op: Some(BinOp::Add),
            ..
        }
    ));
    assert!(matches!(
        c.apply.stmts[6].kind,
        StmtKind::Assign {
            op: Some(BinOp::Shr),
            ..
        }
    ));
}

#[test]
fn parser_states_and_select() {
    let src = r#"
        parser P(packet_in b, out bit<16> t) {
            value_set<bit<16>>(4) vs;
            state start {
                b.extract(t);
                transition select(t, t[3:0]) {
                    (0x800, _): next;
                    (0x8100 &&& 0xEFFF, 1 .. 3): next;
                    (vs, default): accept;
                    default: reject;
                }
            }
            state next { transition accept; }
        }"#;
    let p = parse_ok(src);
    let DeclKind::Parser(pd) = &p.decls[0].kind else {
        panic!()
    };
    assert_eq!(pd.states.len(), 2);
    assert_eq!(pd.locals.len(), 1);
    let Some(Transition::Select { cases, keys, .. }) = &pd.states[0].transition else {
        panic!()
    };
    assert_eq!(keys.len(), 2);
    assert_eq!(cases.len(), 4);
    assert!(
        matches!(cases[1].keyset.kind, ExprKind::KeysetTuple(ref k) if matches!(k[0].kind, ExprKind::Mask(..)) && matches!(k[1].kind, ExprKind::Range(..)))
    );
    assert!(matches!(cases[3].keyset.kind, ExprKind::Default));
}

#[test]
fn select_case_with_parenthesised_expression() {
    let src = "parser P(in bit<8> t) { state start { transition select(t) { (1 + 2) & 3: accept; (4): reject; } } }";
    let p = parse_ok(src);
    let DeclKind::Parser(pd) = &p.decls[0].kind else {
        panic!()
    };
    let Some(Transition::Select { cases, .. }) = &pd.states[0].transition else {
        panic!()
    };
    assert!(matches!(
        cases[0].keyset.kind,
        ExprKind::Binary(BinOp::BitAnd, ..)
    ));
    assert!(matches!(cases[1].keyset.kind, ExprKind::Int(_)));
}

#[test]
fn tables_with_every_property() {
    let src = r#"
        control C(inout bit<32> a) {
            action set(bit<32> v) { a = v; }
            table t {
                key = { a: exact @name("addr"); a[7:0]: ternary; }
                actions = { set; @defaultonly NoAction(); }
                const entries = {
                    (1, 0x10 &&& 0xF0): set(1);
                    priority = 10: (_, default): set(2);
                    @priority(3) (2, _): NoAction();
                }
                const default_action = NoAction();
                size = 1024;
                @hidden implementation = foo;
            }
            apply { t.apply(); switch (t.apply().action_run) { set: {} NoAction: default: { } } }
        }"#;
    let p = parse_ok(src);
    let DeclKind::Control(c) = &p.decls[0].kind else {
        panic!()
    };
    let DeclKind::Table(t) = &c.locals[1].kind else {
        panic!()
    };
    assert_eq!(t.props.len(), 6);
    let TablePropKind::Entries(e) = &t.props[2].kind else {
        panic!()
    };
    assert!(t.props[2].is_const);
    assert_eq!(e.len(), 3);
    assert!(e[1].priority.is_some());
    assert!(t.props[3].is_const);
}

#[test]
fn externs_objects_functions_and_constructors() {
    let src = r#"
        extern void f<T>(in T x);
        extern bit<8> g(in bit<8> x);
        extern Checksum<W> {
            Checksum();
            Checksum(bit<8> seed);
            void update<T>(in T data);
            W get();
            abstract W combine(in W a);
        }
        extern packet_in { T lookahead<T>(); }
    "#;
    let p = parse_ok(src);
    assert!(matches!(p.decls[0].kind, DeclKind::ExternFunction(_)));
    assert!(matches!(p.decls[1].kind, DeclKind::ExternFunction(_)));
    let DeclKind::ExternObject(e) = &p.decls[2].kind else {
        panic!()
    };
    assert_eq!(e.methods.len(), 5);
    assert!(e.methods[0].ret.is_none() && e.methods[1].ret.is_none());
    assert!(e.methods[4].is_abstract);
}

#[test]
fn types_and_top_level_declarations() {
    let src = r#"
        const int W = 4;
        typedef bit<(W * 2)> byte_t;
        type bit<32> ip_t;
        header h_t { bit<4> a; varbit<32> opts; }
        header_union u_t { h_t a; h_t b; }
        struct s_t { h_t[4] stack; tuple<bit<8>, bool> t; list<bit<8>> l; }
        enum Color { Red, Green }
        enum bit<8> Proto { TCP = 6, UDP = 17 }
        error { Custom }
        match_kind { fancy }
        bit<8> add1(in bit<8> x) { return x + 1; }
        T id<T>(in T x) { return x; }
        parser PT<H>(packet_in b, out H h);
        control CT<H>(inout H h);
        package Pkg<H>(PT<H> p, CT<H> c);
        @name(".global") action a(bit<8> x) {}
    "#;
    let p = parse_ok(src);
    assert_eq!(p.decls.len(), 16);
    let DeclKind::Typedef(t) = &p.decls[2].kind else {
        panic!()
    };
    assert!(t.new_type);
}

#[test]
fn instantiations_with_nested_constructors_and_abstract_bodies() {
    let src = r#"
        extern Virt { Virt(); abstract bit<16> f(in bit<16> x); }
        control C() {
            Virt() v = { bit<16> f(in bit<16> x) { return x; } };
            apply {}
        }
        Pkg(P(), C(), Deep(1, 2)()) main;
    "#;
    let p = parse_ok(src);
    let DeclKind::Instance(i) = &p.decls[2].kind else {
        panic!()
    };
    assert_eq!(i.args.len(), 3);
    let DeclKind::Control(c) = &p.decls[1].kind else {
        panic!()
    };
    let DeclKind::Instance(v) = &c.locals[0].kind else {
        panic!()
    };
    assert_eq!(v.init.as_ref().map(Vec::len), Some(1));
}

#[test]
fn expressions_of_every_form() {
    for src in [
        "a |+| b |-| c",
        "a ++ b ++ c",
        "x ? y : z ? 1 : 2",
        "{ a = 1, b = { 2, 3 } }",
        "{ a = 1, ... }",
        "{ }",
        "hdr.stack[i].f[3:0]",
        "hdr.stack.next.f",
        "error.NoMatch",
        ".global_const",
        "h.minSizeInBits()",
        "8w255 + 4s7 + 0x_FF + 0b1010 + 0o17",
        "-a * ~b",
        "!(a == b)",
        "f(x = 1, y = _)",
        "(bit<8>) -1",
        "(bool) b",
        "this",
    ] {
        expr(src);
    }
}

#[test]
fn for_loops() {
    let src = r#"
        control C(inout bit<8> x) {
            apply {
                for (bit<8> i = 0; i < 4; i = i + 1) { x = x + i; }
                for (bit<8> i = 0, j = 1; i < 4; i = i + 1, j = j + 2) { }
                for (bit<8> v in 1 .. 3) { x = v; }
                for (v in list_expr) { }
            }
        }"#;
    let p = parse_ok(src);
    let DeclKind::Control(c) = &p.decls[0].kind else {
        panic!()
    };
    assert!(matches!(c.apply.stmts[0].kind, StmtKind::For { .. }));
    assert!(matches!(c.apply.stmts[2].kind, StmtKind::ForIn { .. }));
}

#[test]
fn annotations_keep_unknown_bodies() {
    let src = r#"
        @my_anno(1, "x") @weird(a b c +) @structured[k = 1, j = "s"] @flag
        @pragma mypragma 1 2
        header h { @field_list(1) bit<8> f; }
    "#;
    let p = parse_ok(src);
    let DeclKind::Header(h) = &p.decls[0].kind else {
        panic!()
    };
    assert_eq!(h.annotations.len(), 5);
    let AnnotationBody::Unstructured { exprs, .. } = &h.annotations[0].body else {
        panic!()
    };
    assert_eq!(exprs.as_ref().map(Vec::len), Some(2));
    let AnnotationBody::Unstructured { exprs, .. } = &h.annotations[1].body else {
        panic!()
    };
    assert!(exprs.is_none());
    assert!(matches!(
        h.annotations[2].body,
        AnnotationBody::KeyValues(_)
    ));
}

#[test]
fn syntax_errors_are_reported_and_recovered() {
    let errs = parse_err("const bit<8> a = 1 const bit<8> b = 2; header h { bit<8> x }");
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(errs[0].message.contains("expected `;`"), "{errs:?}");
    parse_err("control C() { apply { x = ; } }");
    parse_err("parser P() { state s { transition select(x) { 1 accept; } } }");
    parse_err("control C() { apply { if x { } } }");
    parse_err("header h { bit<8> x; ");
    parse_err("a b c");
}

#[test]
fn never_panics_on_truncated_programs() {
    let src = r#"control C(inout bit<8> x) { table t { key = { x: exact; } actions = { a; } } apply { switch (t.apply().action_run) { a: {} } } }"#;
    for cut in 0..src.len() {
        let (toks, _) = lex(&src[..cut]);
        let _ = parse_program(&toks, &src[..cut]);
    }
}

#[test]
fn typedef_of_a_derived_type_declares_both() {
    let p = parse_ok(
        "typedef struct point_s { int<32> x; } point_t; typedef header h_s { bit<8> a; } h_t;",
    );
    assert_eq!(p.decls.len(), 4);
    assert!(matches!(p.decls[0].kind, DeclKind::Struct(_)));
    assert!(matches!(p.decls[1].kind, DeclKind::Typedef(_)));
    assert!(matches!(p.decls[2].kind, DeclKind::Header(_)));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep_parens = format!(
        "const bit<8> x = {}1{};",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let long_chain = format!("const bit<8> y = 1{};", " + 1".repeat(100_000));
    let deep_blocks = format!("control C() {{ apply {{ {} }} }}", "{ ".repeat(100_000));
    // Prefix operators, casts and postfix links nest one level each.
    let prefix = |op: &str| format!("const bit<8> z = {}8w1;", op.repeat(300_000));
    let postfix = |link: &str| format!("const bit<8> w = x{};", link.repeat(300_000));
    let mut sources = vec![deep_parens, long_chain, deep_blocks];
    sources.extend(["-", "~", "!", "+ ", "(bit<8>)"].map(prefix));
    sources.extend([".f", "[0]", "[7:0]", "()", ".f<bit<8>>()"].map(postfix));
    sources.push(format!(
        "typedef {}bit<8>{} T;",
        "tuple<".repeat(300_000),
        ">".repeat(300_000)
    ));
    for src in sources {
        // Through the driver, which gives the front end a large stack.
        let c = crate::driver::compile_source("deep.p4", src, &Default::default());
        assert!(
            c.diagnostics
                .iter()
                .any(|d| d.message.contains("nested more than")),
            "{}",
            c.render(false)
        );
    }
}

#[test]
fn type_declaration_of_a_global_type() {
    let p = parse_ok("typedef bit<8> T; type .T U;");
    let DeclKind::Typedef(t) = &p.decls[1].kind else {
        panic!()
    };
    assert!(t.new_type);
}

#[test]
fn annotations_on_plain_statements_make_an_annotated_block() {
    // p4c takes annotations on block statements; any other annotated
    // statement is kept as an annotated block of that one statement.
    let p = parse_ok("control C(inout bit<8> x) { apply { @likely x = 1; } }");
    let DeclKind::Control(c) = &p.decls[0].kind else {
        panic!()
    };
    let StmtKind::Block(b) = &c.apply.stmts[0].kind else {
        panic!("{:?}", c.apply.stmts[0].kind)
    };
    assert_eq!(b.annotations[0].name.name, "likely");
    assert!(matches!(b.stmts[0].kind, StmtKind::Assign { .. }));
    parse_ok("control C(inout bit<8> x) { apply { @likely { x = 1; } @a bit<8> y = 2; } }");
    parse_ok("control C(inout bit<8> x) { apply { switch (x) { 1: @likely { x = 2; } } } }");
    parse_ok("control C(inout bit<8> x) { apply { for (@a bit<8> i in 1 .. 2) { x = i; } } }");
    // The bodies of actions, functions and `apply` are block statements.
    let p =
        parse_ok("action a() @atomic { } bit<8> f() @b { return 1; } control C() { apply @c { } }");
    let DeclKind::Control(c) = &p.decls[2].kind else {
        panic!()
    };
    assert_eq!(c.apply.annotations[0].name.name, "c");
    parse_err("parser P() { state start { @a transition accept; } }");
}

#[test]
fn widths_are_expressions_up_to_a_closing_angle() {
    parse_ok(
        "const bit<32> W = 8; header h { bit<W> a; bit<W + 2> b; int<W * 2> c; varbit<W << 3> d; }",
    );
    parse_ok("header h { bit<(4 > 3 ? 8 : 16)> a; bit<(16 >> 1)> b; }");
    parse_err("header h { bit<4 > 3> a; }");
}
