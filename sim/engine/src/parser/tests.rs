//! Parsing and deparsing real packets with checked programs.

use super::*;
use crate::plan::StoragePlan;
use crate::test_support::{is_valid, path_expr, program};
use std::collections::HashMap;

const PROGRAM: &str = r#"
    #include <core.p4>
    header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
    header vlan_t { bit<3> pcp; bit<1> cfi; bit<12> vid; bit<16> type; }
    header ipv4_t {
        bit<4> version; bit<4> ihl; bit<8> tos; bit<16> len; bit<16> id; bit<3> flags;
        bit<13> frag; bit<8> ttl; bit<8> proto; bit<16> csum; bit<32> src; bit<32> dst;
        varbit<320> options;
    }
    struct hdrs { eth_t eth; vlan_t[2] vlan; ipv4_t ipv4; }
    parser P(packet_in pkt, out hdrs h) {
        state start {
            pkt.extract(h.eth);
            transition select(h.eth.type) {
                0x8100 &&& 0xEFFF: vlan;
                0x0800: ipv4;
                0x9000 .. 0x90FF: skip;
                default: accept;
            }
        }
        state vlan {
            pkt.extract(h.vlan.next);
            transition select(h.vlan.last.type) { 0x8100: vlan; 0x0800: ipv4; default: accept; }
        }
        state ipv4 {
            verify(pkt.lookahead<bit<4>>() == 4, error.NoMatch);
            pkt.extract(h.ipv4, (bit<32>)(((bit<16>)pkt.lookahead<bit<8>>()[3:0] - 5) * 32));
            transition accept;
        }
        state skip { pkt.advance(16); transition reject; }
    }
    control D(packet_out pkt, in hdrs h) { apply { pkt.emit(h); } }
"#;

struct Setup {
    program: ir::Program,
    parser: CompiledParser,
    deparser: Vec<Op>,
    vars: HashMap<ir::VarId, u32>,
    arena_bytes: usize,
}

fn setup() -> Setup {
    let program = program(PROGRAM);
    let plan = StoragePlan::new(&program).expect("plan");
    // Both blocks' `h` must share storage, as an architecture binds them:
    // map D's `h` onto P's frame.
    let pf = plan.instance_frame("P").expect("P");
    let df = plan.instance_frame("D").expect("D");
    let mut vars: HashMap<_, _> = pf.vars.iter().map(|(v, o)| (*v, pf.base + o)).collect();
    let h_of = |block: &str| {
        program
            .blocks
            .iter()
            .find(|b| b.name == block)
            .unwrap()
            .params
            .iter()
            .find(|p| p.name == "h")
            .unwrap()
            .var
    };
    let p_h = vars[&h_of("P")];
    vars.extend(df.vars.iter().map(|(v, o)| (*v, df.base + o)));
    vars.insert(h_of("D"), p_h);
    let mut c = Compiler::new(&program, vars.clone());
    let pblock = program
        .blocks
        .iter()
        .find(|b| b.name == "P")
        .unwrap()
        .clone();
    let parser = compile_parser(&mut c, &pblock, &[]).expect("parser compiles");
    let dblock = program
        .blocks
        .iter()
        .find(|b| b.name == "D")
        .unwrap()
        .clone();
    let deparser = compile_stmts(&mut c, &dblock.apply).expect("deparser compiles");
    Setup {
        program,
        parser,
        deparser,
        vars,
        arena_bytes: plan.arena_bytes as usize,
    }
}

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

const ETH: &str = "ffffffffffff 020000000001";
const IPV4_OPTS: &str = "46 00 0020 0001 0000 40 11 0000 0a000001 0a000002 01020304";

fn parse(s: &Setup, packet: &[u8]) -> (Outcome, Vec<u8>, usize) {
    let mut arena = vec![0u8; s.arena_bytes];
    let mut env = Env::parsing(&mut arena, packet);
    let outcome = run_parser(&s.parser, &mut env);
    let cursor = env.cursor;
    (outcome, arena, cursor)
}

fn read(s: &Setup, arena: &[u8], path: &[&str]) -> u64 {
    let e = path_expr(&s.program, "h", path);
    let mut c = Compiler::new(&s.program, s.vars.clone());
    let mut a = arena.to_vec();
    c.node(&e)
        .unwrap()
        .eval(&Env::new(&mut a))
        .as_u64_truncated()
}

/// `h.vlan.lastIndex` after a parse.
fn vlan_last_index(s: &Setup, arena: &[u8]) -> u64 {
    let stack = path_expr(&s.program, "h", &["vlan"]);
    let b32 = (0..)
        .map(janus_p4::types::TyId)
        .find(|t| s.program.types.int_width(*t) == Some((32, false)))
        .expect("bit<32>");
    let e = ir::Expr {
        ty: b32,
        kind: ir::ExprKind::StackLastIndex(Box::new(stack)),
        span: Default::default(),
    };
    let mut c = Compiler::new(&s.program, s.vars.clone());
    let mut a = arena.to_vec();
    c.node(&e)
        .unwrap()
        .eval(&Env::new(&mut a))
        .as_u64_truncated()
}

fn valid(s: &Setup, arena: &[u8], path: &[&str]) -> bool {
    let e = is_valid(path_expr(&s.program, "h", path));
    let mut c = Compiler::new(&s.program, s.vars.clone());
    let mut a = arena.to_vec();
    c.node(&e).unwrap().eval(&Env::new(&mut a)).to_bool()
}

fn error(s: &Setup, name: &str) -> Option<u32> {
    s.program
        .errors
        .iter()
        .position(|e| e == name)
        .map(|i| i as u32)
}

#[test]
fn parses_vlans_and_ipv4_with_options_and_deparses_back() {
    let s = setup();
    let packet = hex(&format!(
        "{ETH} 8100 2064 8100 a0c8 0800 {IPV4_OPTS} deadbeef"
    ));
    let (outcome, mut arena, cursor) = parse(&s, &packet);
    assert_eq!(outcome, Outcome::Accept);
    assert_eq!(cursor, (14 + 8 + 24) * 8, "payload left unparsed");
    assert!(valid(&s, &arena, &["vlan", "0"]) && valid(&s, &arena, &["vlan", "1"]));
    assert_eq!(read(&s, &arena, &["vlan", "0", "vid"]), 0x064);
    assert_eq!(read(&s, &arena, &["vlan", "1", "pcp"]), 5);
    assert_eq!(vlan_last_index(&s, &arena), 1, "two tags extracted");
    assert_eq!(read(&s, &arena, &["ipv4", "ttl"]), 0x40);
    assert_eq!(read(&s, &arena, &["ipv4", "dst"]), 0x0a00_0002);
    // Deparse: the headers as they were, options included.
    let mut out = Vec::new();
    let mut env = Env::deparsing(&mut arena, &mut out);
    assert_eq!(run(&s.deparser, &mut env), Flow::Continue);
    assert_eq!(env.out_bits, (14 + 8 + 24) * 8);
    assert_eq!(out, packet[..14 + 8 + 24]);
}

#[test]
fn select_masks_ranges_and_explicit_reject() {
    let s = setup();
    // 0x9100 matches the mask 0x8100 &&& 0xEFFF: a VLAN tag.
    let (o, arena, _) = parse(&s, &hex(&format!("{ETH} 9100 0001 0800 {IPV4_OPTS}")));
    assert_eq!(o, Outcome::Accept);
    assert!(valid(&s, &arena, &["vlan", "0"]));
    // 0x9042 is in 0x9000 .. 0x90FF: advance, then `transition reject` (no error).
    let (o, _, cursor) = parse(&s, &hex(&format!("{ETH} 9042 0000")));
    assert_eq!((o, cursor), (Outcome::Reject(None), (14 + 2) * 8));
    // Anything else: accept with only Ethernet.
    let (o, arena, _) = parse(&s, &hex(&format!("{ETH} 86dd")));
    assert_eq!(o, Outcome::Accept);
    assert!(valid(&s, &arena, &["eth"]) && !valid(&s, &arena, &["ipv4"]));
}

#[test]
fn parser_errors() {
    let s = setup();
    // Truncated Ethernet header.
    let (o, arena, cursor) = parse(&s, &hex("ffffffffffff 0200"));
    assert_eq!(o, Outcome::Reject(error(&s, "PacketTooShort")));
    assert!(
        !valid(&s, &arena, &["eth"]),
        "a failed extract leaves the header invalid"
    );
    assert_eq!(cursor, 0);
    // Three VLAN tags into a stack of two.
    let (o, arena, _) = parse(
        &s,
        &hex(&format!("{ETH} 8100 0001 8100 0002 8100 0003 0800")),
    );
    assert_eq!(o, Outcome::Reject(error(&s, "StackOutOfBounds")));
    assert!(
        valid(&s, &arena, &["vlan", "1"]),
        "headers extracted before the error stay valid"
    );
    // verify() fails: IP version 6 in an IPv4 ethertype.
    let (o, _, _) = parse(&s, &hex(&format!("{ETH} 0800 65 00")));
    assert_eq!(o, Outcome::Reject(error(&s, "NoMatch")));
    // Options longer than the packet.
    let (o, _, _) = parse(
        &s,
        &hex(&format!(
            "{ETH} 0800 4f 00 0020 0001 0000 40 11 0000 0a000001 0a000002"
        )),
    );
    assert_eq!(o, Outcome::Reject(error(&s, "PacketTooShort")));
    // lookahead past the end is checked before use.
    let (o, _, _) = parse(&s, &hex(&format!("{ETH} 0800")));
    assert_eq!(o, Outcome::Reject(error(&s, "PacketTooShort")));
}

#[test]
fn a_parser_that_never_consumes_times_out() {
    let program =
        // `reject` is reachable (p4c refuses a parser that can reach
        // neither accept nor reject) but never taken: x stays 0.
        program(
            "#include <core.p4>\nparser L(packet_in p) { state start { bit<8> x = 0; \
             transition select(x) { 0: start; default: reject; } } }",
        );
    let plan = StoragePlan::new(&program).expect("plan");
    let f = plan.instance_frame("L").expect("L");
    let mut c = Compiler::new(
        &program,
        f.vars.iter().map(|(v, o)| (*v, f.base + o)).collect(),
    );
    let parser = compile_parser(&mut c, &program.blocks[0], &[]).expect("compiles");
    let mut arena = vec![0u8; plan.arena_bytes as usize];
    let timeout = program
        .errors
        .iter()
        .position(|e| e == "ParserTimeout")
        .unwrap() as u32;
    assert_eq!(
        run_parser(&parser, &mut Env::parsing(&mut arena, &[1, 2])),
        Outcome::Reject(Some(timeout))
    );
}

// --- Selects on words against selects on `Bits` ---

use crate::value::write_word;
use proptest::prelude::*;

/// Key `i` of a select: a load of the 64-bit slot `i` of the arena.
fn key_node(i: usize, (width, signed): (u32, bool)) -> Node {
    Node::Narrow(Box::new(Node::LoadFixed {
        bit: i as u32 * 64,
        width,
        signed,
    }))
}

fn exact(shape: (u32, bool), v: i64) -> KeyMatch {
    KeyMatch::Exact(Bits::from_u64(shape.0, shape.1, v as u64))
}

fn range(shape: (u32, bool), lo: i64, hi: i64) -> KeyMatch {
    KeyMatch::Range {
        lo: Bits::from_u64(shape.0, shape.1, lo as u64),
        hi: Bits::from_u64(shape.0, shape.1, hi as u64),
    }
}

fn case(keys: Vec<KeyMatch>, next: u32) -> Case {
    Case {
        keys,
        value_set: None,
        next,
    }
}

/// The state each path chooses for keys of `shapes` holding `values`:
/// (the word path, the `Bits` path).
fn choose_both(
    shapes: &[(u32, bool)],
    cases: &[Case],
    values: &[u64],
) -> (Option<u32>, Option<u32>) {
    let keys: Vec<Node> = shapes
        .iter()
        .enumerate()
        .map(|(i, s)| key_node(i, *s))
        .collect();
    let words = WordSelect::of(&keys, shapes, cases).expect("a word select");
    let mut arena = vec![0u8; 8 * shapes.len()];
    for (i, (v, (w, _))) in values.iter().zip(shapes).enumerate() {
        write_word(&mut arena, i * 64, *w, *v);
    }
    let mut env = Env::new(&mut arena);
    let by_words = words.choose(&env);
    (by_words, choose_bits(&keys, cases, &mut env))
}

/// Asserts both paths choose `want` for `values`.
fn assert_chooses(shapes: &[(u32, bool)], cases: &[Case], values: &[i64], want: Option<u32>) {
    let values: Vec<u64> = values.iter().map(|v| *v as u64).collect();
    let (words, bits) = choose_both(shapes, cases, &values);
    assert_eq!(bits, want, "Bits path on {values:x?}");
    assert_eq!(words, want, "word path on {values:x?}");
}

#[test]
fn word_select_masks_exact_ranges_and_default() {
    let b16 = (16, false);
    let cases = [
        case(
            vec![KeyMatch::Masked {
                value: Bits::from_u64(16, false, 0x8100),
                mask: Bits::from_u64(16, false, 0xEFFF),
            }],
            1,
        ),
        case(vec![exact(b16, 0x0800)], 2),
        case(vec![range(b16, 0x9000, 0x90FF)], 3),
        case(vec![KeyMatch::Any], 4),
    ];
    for (v, want) in [
        (0x8100, 1),
        (0x9100, 1),
        (0x0800, 2),
        (0x9000, 3),
        (0x9042, 3),
        (0x90FF, 3),
        (0x9101, 4),
        (0x86dd, 4),
    ] {
        assert_chooses(&[b16], &cases, &[v], Some(want));
    }
    // Without the default, no case matches.
    assert_chooses(&[b16], &cases[..3], &[0x86dd], None);
}

#[test]
fn word_select_ranges_on_signed_keys_order_by_value() {
    for w in [4u32, 8, 33, 64] {
        let s = (w, true);
        let (min, max) = (i64::MIN >> (64 - w), i64::MAX >> (64 - w));
        let cases = [
            case(vec![range(s, -3, 2)], 1),
            case(vec![range(s, min, -4)], 2),
            // Empty: lo above hi.
            case(vec![range(s, 5, 3)], 3),
        ];
        for (v, want) in [
            (-3, Some(1)),
            (0, Some(1)),
            (2, Some(1)),
            (-4, Some(2)),
            (min, Some(2)),
            (3, None),
            (4, None),
            (max, None),
        ] {
            assert_chooses(&[s], &cases, &[v], want);
        }
    }
    // An unsigned key of the same width orders patterns as unsigned.
    let u = (8, false);
    let cases = [case(vec![range(u, 0x80, 0xFF)], 1)];
    assert_chooses(&[u], &cases, &[0x80], Some(1));
    assert_chooses(&[u], &cases, &[0x7F], None);
}

#[test]
fn word_select_tuple_keys_match_every_key_in_case_order() {
    let shapes = [(8, false), (4, true), (64, false), (1, false)];
    let cases = [
        case(
            vec![
                exact(shapes[0], 1),
                KeyMatch::Any,
                KeyMatch::Any,
                exact(shapes[3], 1),
            ],
            1,
        ),
        case(
            vec![
                KeyMatch::Masked {
                    value: Bits::from_u64(8, false, 0x02),
                    mask: Bits::from_u64(8, false, 0x0F),
                },
                range(shapes[1], -3, 2),
                KeyMatch::Any,
                KeyMatch::Any,
            ],
            2,
        ),
        case(
            vec![
                KeyMatch::Any,
                KeyMatch::Any,
                exact(shapes[2], -1),
                KeyMatch::Any,
            ],
            3,
        ),
    ];
    assert_chooses(&shapes, &cases, &[1, 0, 0, 1], Some(1));
    assert_chooses(&shapes, &cases, &[1, 0, -1, 0], Some(3));
    assert_chooses(&shapes, &cases, &[0x12, -3, 0, 1], Some(2));
    assert_chooses(&shapes, &cases, &[0x12, 3, 0, 1], None);
    assert_chooses(&shapes, &cases, &[0x13, 0, -2, 0], None);
}

#[test]
fn word_select_only_for_narrow_constant_selects() {
    let b8 = (8, false);
    let cases = [case(vec![exact(b8, 1)], 1)];
    assert!(WordSelect::of(&[key_node(0, b8)], &[b8], &cases).is_some());
    // A key not known to be narrow.
    let wide = Node::LoadFixed {
        bit: 0,
        width: 8,
        signed: false,
    };
    assert!(WordSelect::of(&[wide], &[b8], &cases).is_none());
    // A value set, as a whole keyset or for one key.
    let set = Case {
        keys: Vec::new(),
        value_set: Some(0),
        next: 1,
    };
    assert!(WordSelect::of(&[key_node(0, b8)], &[b8], &[set]).is_none());
    let in_set = [case(vec![KeyMatch::InValueSet(0)], 1)];
    assert!(WordSelect::of(&[key_node(0, b8)], &[b8], &in_set).is_none());
    // More keys than the stack array holds.
    let shapes = vec![b8; 9];
    let keys: Vec<Node> = (0..9).map(|i| key_node(i, b8)).collect();
    assert!(WordSelect::of(&keys, &shapes, &[case(vec![KeyMatch::Any; 9], 1)]).is_none());
}

const TUPLE_PROGRAM: &str = r#"
    #include <core.p4>
    header h_t { bit<8> a; bit<4> b; bit<4> c; }
    struct hs { h_t h; }
    parser Q(packet_in pkt, out hs h) {
        state start {
            pkt.extract(h.h);
            transition select(h.h.a, (int<4>)h.h.b) {
                (0x01, _): accept;
                (0x02 &&& 0x0F, -3 .. 2): accept;
                (_, 7): reject;
            }
        }
    }
"#;

#[test]
fn a_compiled_tuple_select_runs_on_words_and_fails_with_no_match() {
    let program = program(TUPLE_PROGRAM);
    let plan = StoragePlan::new(&program).expect("plan");
    let f = plan.instance_frame("Q").expect("Q");
    let mut c = Compiler::new(
        &program,
        f.vars.iter().map(|(v, o)| (*v, f.base + o)).collect(),
    );
    let parser = compile_parser(&mut c, &program.blocks[0], &[]).expect("compiles");
    assert!(matches!(parser.states[0].next, Next::Words(_)));
    let no_match = program.errors.iter().position(|e| e == "NoMatch");
    let run = |packet: &[u8]| {
        let mut arena = vec![0u8; plan.arena_bytes as usize];
        run_parser(&parser, &mut Env::parsing(&mut arena, packet))
    };
    assert_eq!(run(&[0x01, 0xF0]), Outcome::Accept);
    // b = 0xD is -3 as int<4>; 0x22 & 0x0F = 2.
    assert_eq!(run(&[0x22, 0xD0]), Outcome::Accept);
    assert_eq!(
        run(&[0x22, 0x30]),
        Outcome::Reject(no_match.map(|i| i as u32))
    );
    assert_eq!(run(&[0x05, 0x70]), Outcome::Reject(None));
    assert_eq!(
        run(&[0x05, 0x60]),
        Outcome::Reject(no_match.map(|i| i as u32))
    );
}

/// A key's match of a random kind; constants are drawn near `v` so that
/// some cases match.
fn key_match(shape: (u32, bool)) -> impl Strategy<Value = KeyMatch> {
    let bits = move |v: u64| Bits::from_u64(shape.0, shape.1, v);
    prop_oneof![
        Just(KeyMatch::Any),
        (0u64..4).prop_map(move |v| KeyMatch::Exact(bits(v.wrapping_sub(1)))),
        (any::<u64>(), any::<u64>()).prop_map(move |(v, m)| KeyMatch::Masked {
            value: bits(v),
            mask: bits(m),
        }),
        (any::<u64>(), any::<u64>()).prop_map(move |(lo, hi)| KeyMatch::Range {
            lo: bits(lo),
            hi: bits(hi),
        }),
        (0u64..4, 0u64..4).prop_map(move |(lo, hi)| KeyMatch::Range {
            lo: bits(lo.wrapping_sub(2)),
            hi: bits(hi.wrapping_sub(1)),
        }),
    ]
}

fn shape() -> impl Strategy<Value = (u32, bool)> {
    (prop_oneof![1u32..=8, 1u32..=64], any::<bool>())
}

/// A key's match of a kind other than a range.
fn key_match_without_range(shape: (u32, bool)) -> impl Strategy<Value = KeyMatch> {
    key_match(shape).prop_filter("a range", |m| !matches!(m, KeyMatch::Range { .. }))
}

/// Shapes, cases over them, and key values (some near zero and -1).
fn select() -> impl Strategy<Value = (Vec<(u32, bool)>, Vec<Case>, Vec<u64>)> {
    select_of(key_match)
}

/// [`select`] with each key's matches drawn by `matches`.
fn select_of<M: Strategy<Value = KeyMatch> + 'static>(
    matches: fn((u32, bool)) -> M,
) -> impl Strategy<Value = (Vec<(u32, bool)>, Vec<Case>, Vec<u64>)> {
    prop::collection::vec(shape(), 1..=3).prop_flat_map(move |shapes| {
        let case = shapes
            .iter()
            .map(|s| matches(*s))
            .collect::<Vec<_>>()
            .prop_map(|keys| case(keys, 0));
        let value = prop_oneof![(0u64..4).prop_map(|v| v.wrapping_sub(2)), any::<u64>()];
        (
            Just(shapes.clone()),
            prop::collection::vec(case, 0..6),
            prop::collection::vec(value, shapes.len()),
        )
    })
}

proptest! {
    #[test]
    fn word_select_agrees_with_bits_select((shapes, mut cases, values) in select()) {
        for (i, c) in cases.iter_mut().enumerate() {
            c.next = i as u32;
        }
        let (words, bits) = choose_both(&shapes, &cases, &values);
        prop_assert_eq!(words, bits);
    }

    /// Several keys of at most 64 bits in all, and no ranges: matched
    /// joined in one word.
    #[test]
    fn joined_word_select_agrees_with_bits_select(
        (shapes, mut cases, values) in select_of(key_match_without_range)
            .prop_filter("keys to join", |(s, ..)| {
                s.len() > 1 && s.iter().map(|(w, _)| w).sum::<u32>() <= 64
                    && s.iter().all(|(w, _)| *w < 64)
            })
    ) {
        for (i, c) in cases.iter_mut().enumerate() {
            c.next = i as u32;
        }
        let keys: Vec<Node> = shapes.iter().enumerate().map(|(i, s)| key_node(i, *s)).collect();
        let select = WordSelect::of(&keys, &shapes, &cases).expect("a word select");
        prop_assert!(select.joined.is_some());
        let (words, bits) = choose_both(&shapes, &cases, &values);
        prop_assert_eq!(words, bits);
    }
}

// --- Exact selects against selects on `Bits` ---

/// Cases of exact values (some repeated) on one key, with or without a
/// catch-all, and a key value near them.
fn exact_select() -> impl Strategy<Value = ((u32, bool), Vec<Case>, u64)> {
    (shape(), prop::collection::vec(0u64..6, 0..6), any::<bool>()).prop_flat_map(
        |(shape, values, default)| {
            let mut cases: Vec<Case> = values
                .iter()
                .enumerate()
                .map(|(i, v)| case(vec![exact(shape, *v as i64 - 2)], i as u32))
                .collect();
            if default {
                cases.push(case(vec![KeyMatch::Any], 100));
                // Never reached: after the catch-all.
                cases.push(case(vec![exact(shape, 0)], 101));
            }
            let key = prop_oneof![(0u64..6).prop_map(|v| v.wrapping_sub(2)), any::<u64>()];
            (Just(shape), Just(cases), key)
        },
    )
}

proptest! {
    #[test]
    fn exact_select_agrees_with_bits_select((shape, cases, value) in exact_select()) {
        let key = key_node(0, shape);
        let exact = ExactSelect::of(std::slice::from_ref(&key), &[shape], &cases)
            .expect("an exact select");
        let mut arena = vec![0u8; 8];
        write_word(&mut arena, 0, shape.0, value);
        let by_exact = exact.choose(&arena);
        let by_bits = choose_bits(&[key], &cases, &mut Env::new(&mut arena));
        prop_assert_eq!(by_exact, by_bits);
    }
}

#[test]
fn exact_select_only_for_one_field_and_exact_values() {
    let b8 = (8, false);
    let exact_case = case(vec![exact(b8, 1)], 1);
    let of = |keys: &[Node], shapes: &[(u32, bool)], cases: &[Case]| {
        ExactSelect::of(keys, shapes, cases).is_some()
    };
    assert!(of(
        &[key_node(0, b8)],
        &[b8],
        std::slice::from_ref(&exact_case)
    ));
    // A mask, a range, a value set: not exact.
    let masked = case(
        vec![KeyMatch::Masked {
            value: Bits::from_u64(8, false, 1),
            mask: Bits::from_u64(8, false, 0xF),
        }],
        1,
    );
    assert!(!of(
        &[key_node(0, b8)],
        &[b8],
        &[exact_case.clone(), masked]
    ));
    assert!(!of(
        &[key_node(0, b8)],
        &[b8],
        &[case(vec![range(b8, 0, 2)], 1)]
    ));
    assert!(!of(
        &[key_node(0, b8)],
        &[b8],
        &[case(vec![KeyMatch::InValueSet(0)], 1)]
    ));
    // Two keys; a key that is no field; a shape of another width.
    let two = case(vec![exact(b8, 1), exact(b8, 1)], 1);
    assert!(!of(&[key_node(0, b8), key_node(1, b8)], &[b8, b8], &[two]));
    let not_field = Node::Narrow(Box::new(Node::Const(Bits::from_u64(8, false, 1))));
    assert!(!of(&[not_field], &[b8], std::slice::from_ref(&exact_case)));
    assert!(!of(&[key_node(0, b8)], &[(16, false)], &[exact_case]));
}

// --- Joined steps against the states one by one ---

/// A store of a constant or a move between fields in a 16-byte arena.
fn plain_store() -> impl Strategy<Value = Op> {
    let field = (0u32..96, 1u32..=24).prop_map(|(bit, width)| FieldWord::new(bit, width));
    prop_oneof![
        (field.clone(), any::<u64>()).prop_map(|(dst, value)| Op::SetWord { dst, value }),
        (field.clone(), 0u32..96).prop_map(|(dst, src)| Op::MoveWord {
            dst,
            src: FieldWord::new(src, dst.width()),
        }),
    ]
}

/// Runs of stores to adjacent fields (which [`join`] may join), mixed with
/// arbitrary stores.
fn store_runs() -> impl Strategy<Value = Vec<Op>> {
    let adjacent = (
        0u32..64,
        0u32..64,
        prop::collection::vec(1u32..=12, 1..5),
        any::<bool>(),
    )
        .prop_map(|(dst, src, widths, consts)| {
            let (mut d, mut s) = (dst, src);
            widths
                .iter()
                .enumerate()
                .map(|(i, w)| {
                    let dst = FieldWord::new(d, *w);
                    let op = if consts {
                        Op::SetWord {
                            dst,
                            value: 0x5a5a_5a5a ^ i as u64,
                        }
                    } else {
                        Op::MoveWord {
                            dst,
                            src: FieldWord::new(s, *w),
                        }
                    };
                    (d, s) = (d + w, s + w);
                    op
                })
                .collect::<Vec<_>>()
        });
    prop::collection::vec(
        prop_oneof![adjacent, plain_store().prop_map(|op| vec![op])],
        1..5,
    )
    .prop_map(|runs| runs.concat())
}

proptest! {
    #[test]
    fn joined_stores_do_what_the_stores_do(
        ops in store_runs(),
        arena in prop::collection::vec(any::<u8>(), 16),
    ) {
        let states = [State {
            name: "s".into(),
            ops: ops.clone(),
            next: Next::Direct(ParserState::ACCEPT),
        }];
        let step = Step::of(&states, 0);
        let (mut one_by_one, mut joined) = (arena.clone(), arena);
        run(&ops, &mut Env::new(&mut one_by_one));
        run(&step.ops, &mut Env::new(&mut joined));
        prop_assert_eq!(one_by_one, joined);
    }
}

#[test]
fn adjacent_constants_and_moves_join_into_one_store() {
    let set = |bit, width, value| Op::SetWord {
        dst: FieldWord::new(bit, width),
        value,
    };
    // In either order.
    let want = Some(set(8, 24, 0x00AB_CDEF));
    assert_eq!(join(&set(8, 8, 0xAB), &set(16, 16, 0xCDEF)), want);
    assert_eq!(join(&set(16, 16, 0xCDEF), &set(8, 8, 0xAB)), want);
    // Not adjacent, or wider than one load.
    assert_eq!(join(&set(8, 8, 1), &set(24, 8, 1)), None);
    assert_eq!(join(&set(4, 56, 1), &set(60, 8, 1)), None);
    let mv = |dst, src, width| Op::MoveWord {
        dst: FieldWord::new(dst, width),
        src: FieldWord::new(src, width),
    };
    assert_eq!(join(&mv(0, 64, 16), &mv(16, 80, 16)), Some(mv(0, 64, 32)));
    // The second move reads what the first wrote: kept apart.
    assert_eq!(join(&mv(0, 16, 16), &mv(16, 32, 16)), None);
}

const ROUTER: &str = r#"
    #include <core.p4>
    header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
    header ip_t { bit<8> ver; bit<8> proto; bit<16> len; }
    header l4_t { bit<16> sport; bit<16> dport; }
    struct hs { eth_t eth; ip_t ip; l4_t l4; }
    struct meta_t { bit<16> sport; bit<16> dport; bool flag; bit<8> count; }
    parser R(packet_in pkt, out hs h, inout meta_t m) {
        state start {
            m.sport = 1;
            m.dport = 2;
            m.flag = true;
            transition parse_eth;
        }
        state parse_eth {
            pkt.extract(h.eth);
            transition select(h.eth.type) {
                0x0800: parse_ip;
                0x0801: parse_ip;
                0x9999: reject;
                default: accept;
            }
        }
        state parse_ip {
            pkt.extract(h.ip);
            m.count = m.count + 1;
            transition select(h.ip.proto) { 6: parse_l4; 17: parse_l4; 0: parse_eth; }
        }
        state parse_l4 {
            pkt.extract(h.l4);
            m.sport = h.l4.sport;
            m.dport = h.l4.dport;
            transition accept;
        }
    }
"#;

/// A parser of `source` (one parser, named `name`) and its arena size.
fn compiled(source: &str, name: &str) -> (CompiledParser, usize) {
    let program = program(source);
    let plan = StoragePlan::new(&program).expect("plan");
    let f = plan.instance_frame(name).expect("instance");
    let mut c = Compiler::new(
        &program,
        f.vars.iter().map(|(v, o)| (*v, f.base + o)).collect(),
    );
    let parser = compile_parser(&mut c, &program.blocks[0], &[]).expect("compiles");
    (parser, plan.arena_bytes as usize)
}

/// The outcome, arena and cursor of parsing `packet` with tracing on (the
/// states one by one) or off (the joined steps).
fn parse_with(
    p: &CompiledParser,
    arena: usize,
    packet: &[u8],
    trace: bool,
) -> (Outcome, Vec<u8>, usize) {
    let mut arena = vec![0u8; arena];
    let mut env = Env::parsing(&mut arena, packet).with_trace(trace);
    let outcome = run_parser(p, &mut env);
    let cursor = env.cursor;
    (outcome, arena, cursor)
}

#[test]
fn router_states_join_and_selects_are_exact() {
    let (p, _) = compiled(ROUTER, "R");
    // start joins parse_eth; parse_l4 ends at accept.
    assert_eq!(p.steps[0].hops, 2);
    assert!(matches!(p.steps[0].next, Next::Exact(_)));
    assert!(matches!(p.states[1].next, Next::Exact(_)));
    // The three constants are one store, the two moves one move.
    assert_eq!(p.steps[0].ops.len(), 2);
    assert_eq!(p.steps[3].ops.len(), 2);
}

/// Packets through the router parser: Ethernet types and protocols it
/// selects on, truncated anywhere, or random.
fn router_packet() -> impl Strategy<Value = Vec<u8>> {
    let eth_type = prop_oneof![Just(0x0800u16), Just(0x0801), Just(0x9999), any::<u16>()];
    let proto = prop_oneof![Just(6u8), Just(17), Just(0), any::<u8>()];
    (
        eth_type,
        proto,
        prop::collection::vec(any::<u8>(), 0..40),
        0usize..80,
    )
        .prop_map(|(t, proto, tail, cut)| {
            let mut p = vec![0xAA; 12];
            p.extend(t.to_be_bytes());
            p.extend([4, proto, 0, 20]);
            p.extend(tail);
            p.truncate(cut);
            p
        })
}

/// [`ROUTER`] without its loop back to `parse_eth`: no parse can time out.
fn acyclic_router() -> String {
    ROUTER.replace("0: parse_eth;", "0: reject;")
}

#[test]
fn only_parsers_without_loops_count_no_transitions() {
    assert!(!compiled(ROUTER, "R").0.bounded);
    assert!(compiled(&acyclic_router(), "R").0.bounded);
    // A state that goes to itself.
    let (p, _) = compiled(
        r#"
        #include <core.p4>
        struct m_t { bit<8> k; }
        parser T(packet_in pkt, inout m_t m) {
            state start { transition select(m.k) { 1: start; default: accept; } }
        }
        "#,
        "T",
    );
    assert!(!p.bounded);
}

proptest! {
    #[test]
    fn joined_steps_parse_as_states_one_by_one(packet in router_packet()) {
        let (p, arena) = compiled(ROUTER, "R");
        prop_assert_eq!(parse_with(&p, arena, &packet, false), parse_with(&p, arena, &packet, true));
        // The same without the loop, which runs without counting transitions.
        let (p, arena) = compiled(&acyclic_router(), "R");
        prop_assert!(p.bounded);
        prop_assert_eq!(parse_with(&p, arena, &packet, false), parse_with(&p, arena, &packet, true));
        let s = setup();
        prop_assert_eq!(
            parse_with(&s.parser, s.arena_bytes, &packet, false),
            parse_with(&s.parser, s.arena_bytes, &packet, true)
        );
    }
}

#[test]
fn joined_steps_time_out_after_the_same_states() {
    // Steps of 3 states, which 2^16 does not divide: the last step falls
    // back to the states one by one. The counter shows how far each got.
    let (p, arena) = compiled(
        r#"
        #include <core.p4>
        struct m_t { bit<32> n; bit<8> k; }
        parser T(packet_in pkt, inout m_t m) {
            state start { m.n = m.n + 1; transition a; }
            state a { m.n = m.n + 1; transition b; }
            state b { m.n = m.n + 1; transition select(m.k) { 0: start; 255: reject; } }
        }
        "#,
        "T",
    );
    assert_eq!(p.steps[0].hops, 3);
    let (joined, by_state) = (
        parse_with(&p, arena, &[], false),
        parse_with(&p, arena, &[], true),
    );
    assert_eq!(joined, by_state);
    assert_eq!(joined.0, Outcome::Reject(Some(p.errors.parser_timeout)));
    assert!(
        joined
            .1
            .windows(4)
            .any(|w| w == (MAX_TRANSITIONS as u32).to_be_bytes())
    );
}
