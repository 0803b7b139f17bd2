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
        program("#include <core.p4>\nparser L(packet_in p) { state start { transition start; } }");
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
