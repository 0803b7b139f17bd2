//! Printer tests: round trips and exact output.

use super::*;
use crate::source::Span;

use crate::parser::{parse_expression, parse_program};

fn parse(src: &str) -> Program {
    let (toks, lex_errs) = lexer::lex(src);
    assert!(lex_errs.is_empty(), "{lex_errs:?}\nin:\n{src}");
    let (prog, errs) = parse_program(&toks, src);
    assert!(errs.is_empty(), "{errs:?}\nin:\n{src}");
    prog
}

/// Parses `src`, prints it, re-parses the output and checks the trees
/// agree; returns the printed text.
fn roundtrip(src: &str) -> String {
    let mut first = parse(src);
    let printed = program(&first);
    let mut second = parse(&printed);
    // Printing is a fixed point.
    assert_eq!(program(&second), printed);
    strip_spans(&mut first);
    strip_spans(&mut second);
    assert_eq!(first, second, "printed:\n{printed}");
    printed
}

fn parse_expr(src: &str) -> Expr {
    let (toks, _) = lexer::lex(src);
    parse_expression(&toks, src).unwrap_or_else(|e| panic!("{src}: {e:?}"))
}

/// Checks that expression `src` prints as `want` and that `want` parses
/// back to the same tree.
fn expr_prints(src: &str, want: &str) {
    let mut e = parse_expr(src);
    let printed = expr(&e);
    assert_eq!(printed, want, "from {src}");
    let mut back = parse_expr(&printed);
    e.strip_spans();
    back.strip_spans();
    assert_eq!(e, back, "{printed}");
}

#[test]
fn parentheses_only_where_needed() {
    expr_prints("(a + b) * c", "(a + b) * c");
    expr_prints("a + (b * c)", "a + b * c");
    expr_prints("a - (b - c)", "a - (b - c)");
    expr_prints("(a - b) - c", "a - b - c");
    expr_prints("-(-x)", "-(-x)");
    expr_prints("- -x", "-(-x)");
    expr_prints("+(+x)", "+(+x)");
    expr_prints("-(+x)", "-+x");
    expr_prints("!(a == b)", "!(a == b)");
    expr_prints("(bit<8>) (a + b)", "(bit<8>)(a + b)");
    expr_prints("(bit<8>) -1", "(bit<8>)-1");
    expr_prints("((bit<8>) a).b", "((bit<8>)a).b");
    expr_prints("(-a)[3:0]", "(-a)[3:0]");
    expr_prints("(a + b).f(c)", "(a + b).f(c)");
    expr_prints("(x ? y : z) ? 1 : 2", "(x ? y : z) ? 1 : 2");
    expr_prints("x ? y : (z ? 1 : 2)", "x ? y : z ? 1 : 2");
    expr_prints("x ? (y ? 1 : 2) : z", "x ? y ? 1 : 2 : z");
    expr_prints("(a || b) && c", "(a || b) && c");
    expr_prints("a >> (b >> c)", "a >> (b >> c)");
    expr_prints("a ++ b ++ c", "a ++ b ++ c");
    expr_prints("a |+| (b |-| c)", "a |+| (b |-| c)");
    expr_prints("hdr.stack[i + 1].f[7:0]", "hdr.stack[i + 1].f[7:0]");
    expr_prints("b.lookahead<bit<16>>()", "b.lookahead<bit<16>>()");
    expr_prints("f(x = 1, y = _)", "f(x = 1, y = _)");
    expr_prints(
        "{ a = 1, b = { 2, 3 }, ... }",
        "{ a = 1, b = { 2, 3 }, ... }",
    );
    expr_prints("{}", "{}");
    expr_prints(".g + error.NoMatch", ".g + error.NoMatch");
}

#[test]
fn comparisons_that_look_like_type_arguments() {
    // `a < b > (c)` would be the generic call `a<b>(c)`.
    expr_prints("(a < b) > (c)", "(a < b) > c");
    expr_prints("(a < b) > (bit<8>)c", "(a < b) > (bit<8>)c");
    expr_prints("(a < b) > (c == d)", "(a < b) > (c == d)");
    expr_prints("(x.y < b) > c", "(x.y < b) > c");
    expr_prints("a < b", "a < b");
    expr_prints("f((a < b), c > (bit<8>)d)", "f((a < b), c > (bit<8>)d)");
    expr_prints("f((a < b), c > (d + 1))", "f((a < b), c > d + 1)");
    // Without the guard the text would be a generic call:
    assert!(
        matches!(parse_expr("f(a < b, c > (d))").kind, ExprKind::Call { ref args, .. } if args.len() == 1)
    );
    expr_prints("f(a < b, c)", "f(a < b, c)");
    expr_prints("b.lookahead<bit<8>>() > 3", "b.lookahead<bit<8>>() > 3");
}

#[test]
fn literals_keep_width_base_and_escapes() {
    expr_prints("8w255", "8w255");
    expr_prints("4s3", "4s3");
    expr_prints("16w0xff_FF", "16w0xFFFF");
    expr_prints("0b1010 + 0o17 + 0d42 + 1_000", "0b1010 + 0o17 + 42 + 1000");
    expr_prints(r#""a\"b\\c\nd""#, r#""a\"b\\c\nd""#);
    expr_prints(r#""odd \q escape""#, r#""odd \\q escape""#);
    expr_prints("true && !false", "true && !false");
}

#[test]
fn every_declaration_kind_roundtrips() {
    roundtrip(
        r#"
            const int W = 4;
            const bit<16> ETH = 16w0x800;
            typedef bit<(W * 2)> byte_t;
            type bit<32> ip_t;
            typedef bit byte1_t;
            header h_t { bit<4> a; varbit<32> opts; }
            header_union u_t { h_t a; h_t b; }
            struct s_t<T> { h_t[4] stack; tuple<bit<8>, bool> t; list<bit<8>> l; T x; }
            struct empty_t {}
            enum Color { Red, Green }
            enum bit<8> Proto { TCP = 6, UDP = 17 }
            error { Custom, Other }
            match_kind { fancy }
            bit<8> add1(in bit<8> x) { return x + 1; }
            T id<T>(in T x) { return x; }
            extern void f<T>(in T x, bit<8> y = 3);
            extern Checksum<W> {
                Checksum();
                Checksum(bit<8> seed);
                void update<T>(in T data);
                @hidden W get();
                abstract W combine(in W a);
            }
            extern Empty {}
            parser PT<H>(packet_in b, out H h);
            control CT<H>(inout H h);
            package Pkg<H>(PT<H> p, CT<H> c);
            @name(".global") action a(bit<8> x, @optional in bool y) {}
            bit<8> g;
            bit<8> g2 = 3;
            Checksum<bit<16>>(8w0) ck;
            Pkg(P(), C(), Deep(1, 2)()) main;
            "#,
    );
}

#[test]
fn control_with_table_entries_and_priorities() {
    roundtrip(
        r#"
            control C(inout bit<32> a)(bit<8> depth) {
                bit<32> tmp;
                action set(bit<32> v) { a = v; }
                table t {
                    key = { a: exact @name("addr"); a[7:0]: ternary; }
                    actions = { set; @defaultonly NoAction(); }
                    const entries = {
                        (1, 0x10 &&& 0xF0): set(1);
                        priority = 10: (_, default): set(2);
                        @priority(3) (2, _): NoAction();
                        const priority = 1: (3, 1 .. 7): set(v = 3) @tag;
                    }
                    const default_action = NoAction();
                    size = 1024;
                    @hidden implementation = foo;
                    key2 = {1, 2};
                }
                Virt() v = { bit<16> f(in bit<16> x) { return x; } };
                apply {
                    t.apply();
                    switch (t.apply().action_run) {
                        set: {}
                        NoAction:
                        default: { exit; }
                    }
                }
            }
            "#,
    );
}

#[test]
fn parser_with_select_and_value_sets() {
    roundtrip(
        r#"
            parser P(packet_in b, out bit<16> t) {
                value_set<bit<16>>(4) vs;
                bit<8> n = 0;
                state start {
                    b.extract(t);
                    transition select(t, t[3:0]) {
                        (0x800, _): next;
                        (0x8100 &&& 0xEFFF, 1 .. 3): next;
                        (vs, default): accept;
                        (1 + 2) & 3: reject;
                        (4): reject;
                        a ? b : c: reject;
                        default: .reject;
                    }
                }
                @name("nx") state next { transition accept; }
                state empty {}
                state only_stmts { n = n + 1; }
            }
            "#,
    );
}

#[test]
fn statements_roundtrip() {
    roundtrip(
        r#"
            typedef bit<8> T;
            control C(inout bit<8> x) {
                apply {
                    T a;
                    T b = (T) 1;
                    @atomic { x = x + 1; }
                    const bit<4> c = x[3:0];
                    x[7:4] = c;
                    x += 1; x -= 1; x *= 2; x /= 2; x %= 3; x <<= 1; x >>= 1;
                    x &= 1; x |= 1; x ^= 1; x |+|= 1; x |-|= 1;
                    if (x == 0) { exit; } else if (x > 1) return; else {}
                    if (x == 1) if (x == 2) x = 3; else x = 4;
                    if (a < b) return 3;
                    { }
                    ;
                    for (bit<8> i = 0; i < 4; i = i + 1) { x = x + i; }
                    for (bit<8> i = 0, j = 1; i < 4; i = i + 1, j = j + 2) { }
                    for (;;) { break; continue; }
                    for (bit<8> v in 1 .. 3) x = v;
                    @unroll for (v in list_expr) { }
                    switch (x) { 1: 2: { } default: {} }
                    switch (x) { }
                    transition accept;
                }
            }
            "#,
    );
}

#[test]
fn annotations_of_every_body_kind() {
    let printed = roundtrip(
        r#"
            @my_anno(1, "x") @weird(a b c +) @structured[k = 1, j = "s"] @list[1, 2 + 3] @flag
            @empty() @touch(a>>b) @spaced(a > > b)
            @pragma mypragma 1 "two" three
            header h { @field_list(1) bit<8> f; @pragma p
                bit<8> g; }
            "#,
    );
    assert!(
        printed.contains("@touch(a>>b) @spaced(a > > b)"),
        "{printed}"
    );
    assert!(
        printed.contains("@pragma mypragma 1 \"two\" three\n"),
        "{printed}"
    );
}

#[test]
fn stripped_trees_of_differently_laid_out_texts_are_equal() {
    let mut a = parse("const bit<8> x = (1 + 2) * 3; @a(x  ,y) header h { }");
    let mut b = parse("const   bit<8>   x=(1+2)*3;\n@a(x, y)\nheader h {}");
    assert_ne!(a, b);
    strip_spans(&mut a);
    strip_spans(&mut b);
    assert_eq!(a, b);
}

#[test]
fn golden_small_program() {
    let src = "header eth_t { bit<48> dst; bit<48> src; bit<16> etype; }
            struct headers_t { eth_t eth; }
            const bit<16> TYPE_IPV4 = 0x800; const bit<16> TYPE_ARP = 0x806;
            parser P(packet_in pkt, out headers_t hdr) {
                state start { pkt.extract(hdr.eth);
                    transition select(hdr.eth.etype) { TYPE_IPV4: accept; default: reject; } }
            }
            control Ing(inout headers_t hdr, inout bit<9> port) {
                action fwd(bit<9> p) { port = p; }
                action drop() { }
                table mac { key = { hdr.eth.dst: exact; } actions = { fwd; drop; }
                    default_action = drop(); size = 256; }
                apply { if (hdr.eth.isValid()) { mac.apply(); } else { drop(); } }
            }";
    let want = "\
header eth_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

struct headers_t {
    eth_t eth;
}

const bit<16> TYPE_IPV4 = 0x800;
const bit<16> TYPE_ARP = 0x806;

parser P(packet_in pkt, out headers_t hdr) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            TYPE_IPV4: accept;
            default: reject;
        }
    }
}

control Ing(inout headers_t hdr, inout bit<9> port) {
    action fwd(bit<9> p) {
        port = p;
    }

    action drop() {}

    table mac {
        key = {
            hdr.eth.dst: exact;
        }
        actions = {
            fwd;
            drop;
        }
        default_action = drop();
        size = 256;
    }

    apply {
        if (hdr.eth.isValid()) {
            mac.apply();
        } else {
            drop();
        }
    }
}
";
    assert_eq!(roundtrip(src), want);
}

#[test]
fn golden_statements_and_long_headers() {
    let src = "control C(inout bit<8> x) { apply {
            if (x == 1) x = 2; else if (x == 3) { x = 4; } else x = 5;
            for (bit<8> i = 0; i < 4; i = i + 1) x = x |+| i;
            for (;;) {}
            switch (x) { 1: 2: { exit; } default: {} }
        } }
        extern void very_long_function_name(in bit<32> first_argument, inout bit<32> second_argument, out bool third);";
    let want = "\
control C(inout bit<8> x) {
    apply {
        if (x == 1)
            x = 2;
        else if (x == 3) {
            x = 4;
        } else
            x = 5;
        for (bit<8> i = 0; i < 4; i = i + 1)
            x = x |+| i;
        for (;;) {}
        switch (x) {
            1:
            2: {
                exit;
            }
            default: {}
        }
    }
}

extern void very_long_function_name(
    in bit<32> first_argument,
    inout bit<32> second_argument,
    out bool third
);
";
    assert_eq!(roundtrip(src), want);
}

#[test]
fn trees_without_exact_text_print_equivalents() {
    // The parser never builds these; they print as equivalent programs.
    let name = |n: &str| {
        Expr::new(
            ExprKind::Name(Path {
                global: false,
                name: Ident::new(n, Span::DUMMY),
            }),
            Span::DUMMY,
        )
    };
    let construct = Expr::new(
        ExprKind::Construct {
            ty: Type {
                kind: TypeKind::Named {
                    path: Path {
                        global: false,
                        name: Ident::new("E", Span::DUMMY),
                    },
                    args: vec![],
                },
                span: Span::DUMMY,
            },
            args: vec![Arg {
                name: None,
                value: name("x"),
            }],
        },
        Span::DUMMY,
    );
    assert_eq!(expr(&construct), "E(x)");
    let s = Stmt {
        kind: StmtKind::Assign {
            lhs: name("x"),
            op: Some(BinOp::And),
            rhs: name("y"),
        },
        span: Span::DUMMY,
    };
    assert_eq!(stmt(&s), "x = x && (y);\n");
    let open_if = Stmt {
        kind: StmtKind::If {
            cond: name("a"),
            then: Box::new(s.clone()),
            otherwise: None,
        },
        span: Span::DUMMY,
    };
    let outer = Stmt {
        kind: StmtKind::If {
            cond: name("b"),
            then: Box::new(open_if),
            otherwise: Some(Box::new(s)),
        },
        span: Span::DUMMY,
    };
    assert!(
        stmt(&outer).starts_with("if (b) {\n    if (a)\n"),
        "{}",
        stmt(&outer)
    );
}
