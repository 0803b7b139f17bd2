//! The entries loader's quick path for `add` lines
//! (`janus_stf::entries::configure_text`) against the general path (the
//! STF parser and runner, `janus_stf::runner::configure`): for any line,
//! both add the same entry to the same table, or both refuse it.

use janus_engine::target::Target;
use janus_v1model::V1Switch;
use proptest::prelude::*;

const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> ty; }
header v6_t { bit<128> dst; bit<8> hop; }
struct headers_t { eth_t eth; v6_t v6; }
struct meta_t { bit<32> addr; @name("class") bit<16> cls; bit<3> pcp; bit<72> tag; }
parser P(packet_in p, out headers_t h, inout meta_t m, inout standard_metadata_t s) {
    state start { p.extract(h.eth); p.extract(h.v6); transition accept; }
}
control V(inout headers_t h, inout meta_t m) { apply {} }
control I(inout headers_t h, inout meta_t m, inout standard_metadata_t s) {
    action fwd(bit<9> port, bit<48> mac) { s.egress_spec = port; h.eth.src = mac; }
    action wide(bit<128> v) { h.v6.dst = v; }
    action nop() {}
    action tag(bit<72> t) { m.tag = t; }
    table exact_t { key = { h.eth.dst: exact; h.eth.ty: exact; } actions = { fwd; nop; } }
    table lpm_t { key = { m.addr: lpm; } actions = { fwd; wide; nop; tag; } size = 1024; }
    table v6_t { key = { h.v6.dst: lpm; h.v6.hop: exact; } actions = { wide; nop; } }
    table acl_t { key = { m.cls: ternary; m.pcp: exact; h.eth.ty: range; } actions = { fwd; nop; } }
    table opt_t { key = { h.eth.src: optional; m.cls: ternary; } actions = { nop; fwd; } }
    apply { exact_t.apply(); lpm_t.apply(); v6_t.apply(); acl_t.apply(); opt_t.apply(); }
}
control E(inout headers_t h, inout meta_t m, inout standard_metadata_t s) { apply {} }
control C(inout headers_t h, inout meta_t m) { apply {} }
control D(packet_out p, in headers_t h) { apply { p.emit(h.eth); p.emit(h.v6); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
"#;

fn switch() -> V1Switch {
    static IR: std::sync::OnceLock<janus_p4::ir::Program> = std::sync::OnceLock::new();
    let ir = IR.get_or_init(|| {
        let c =
            janus_p4::driver::compile_source("quick.p4", PROGRAM.to_string(), &Default::default());
        assert!(!c.has_errors(), "{}", c.render(false));
        c.ir.expect("ir")
    });
    V1Switch::load(ir.clone()).expect("loads")
}

/// The number of entries in `lpm_t`.
fn lpm_entries(sw: &V1Switch) -> usize {
    let slot = sw
        .tables()
        .iter()
        .position(|t| t.name.ends_with("lpm_t"))
        .expect("lpm_t");
    sw.table(slot).expect("slot").len()
}

/// Every table's entries, in order, with the table's name.
fn contents(sw: &V1Switch) -> Vec<(String, Vec<janus_engine::table::Entry>)> {
    (0..sw.tables().len())
        .map(|slot| {
            let entries = sw.table(slot).expect("slot").entries().cloned().collect();
            (sw.tables()[slot].name.clone(), entries)
        })
        .collect()
}

/// Numbers in the spellings the two paths must read alike: decimal, hex
/// (any case, leading zeros), binary and octal (general path only), with
/// `*` digits, and values too wide for their field.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..4096).prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| v.to_string()),
        any::<u128>().prop_map(|v| v.to_string()),
        "[0-9]{39,41}",
        (any::<u128>(), 0usize..3).prop_map(|(v, z)| format!("0x{}{v:x}", "0".repeat(z))),
        (0u32..65536).prop_map(|v| format!("0X{v:X}")),
        (0u32..256).prop_map(|v| format!("0x{v:02x}")),
        "0x[0-9a-f]{1,4}\\*{1,2}",
        "0b[01]{1,8}",
        "0o[0-7]{1,4}",
        "0x[0-9a-f]{30,34}",
        Just("0x".to_string()),
        Just("12ab".to_string()),
    ]
}

fn key_value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => number(),
        2 => (number(), 0u32..140).prop_map(|(n, l)| format!("{n}/{l}")),
        1 => (number(), number()).prop_map(|(a, b)| format!("{a}->{b}")),
    ]
}

/// The tables' keys as lines may write them: each table's own fields
/// (in several spellings) and a few that are not its keys.
fn table_and_fields() -> impl Strategy<Value = (&'static str, Vec<&'static str>)> {
    let tables: Vec<(&'static str, Vec<&'static str>)> = vec![
        (
            "exact_t",
            vec!["h.eth.dst", "eth.dst", "dst", "h.eth.ty", "ty"],
        ),
        ("I.exact_t", vec!["h.eth.dst", "h.eth.ty"]),
        ("lpm_t", vec!["m.addr", "addr"]),
        ("I.lpm_t", vec!["m.addr"]),
        ("v6_t", vec!["h.v6.dst", "hop", "dst"]),
        ("acl_t", vec!["m.cls", "class", "cls", "m.pcp", "h.eth.ty"]),
        ("opt_t", vec!["h.eth.src", "src", "m.cls", "class"]),
        ("_t", vec!["dst"]),
        ("nosuch", vec!["dst"]),
    ];
    let odd = ["nothere", "h.eth$1.dst", "m.addr[0]", "m.pcp"];
    (
        prop::sample::select(tables),
        prop::collection::vec(0usize..100, 0..4),
    )
        .prop_map(move |((t, fields), picks)| {
            let chosen = picks
                .iter()
                .map(|&p| match p {
                    0..=89 => fields[p % fields.len()],
                    _ => odd[p % odd.len()],
                })
                .collect();
            (t, chosen)
        })
}

fn action() -> impl Strategy<Value = String> {
    let actions = prop::sample::select(vec![
        ("fwd", vec!["port", "mac"]),
        ("I.fwd", vec!["mac", "port"]),
        ("wide", vec!["v"]),
        ("tag", vec!["t"]),
        ("nop", vec![]),
        ("gone", vec![]),
    ]);
    (actions, any::<u8>(), prop::collection::vec(number(), 3)).prop_map(
        |((a, params), odd, values)| {
            let mut names: Vec<&str> = params.clone();
            match odd % 8 {
                0 => names.push("x"),
                1 => {
                    names.pop();
                }
                _ => {}
            }
            let args: Vec<String> = names
                .iter()
                .zip(&values)
                .map(|(p, v)| format!("{p}:{v}"))
                .collect();
            let sep = if odd % 5 == 0 { " ,  " } else { ", " };
            format!("{a}({})", args.join(sep))
        },
    )
}

/// `add` lines: mostly well formed, with spacing, priorities, comments and
/// ids that one path or the other must take.
fn line() -> impl Strategy<Value = String> {
    let priority = prop_oneof![
        Just(String::new()),
        (0u64..100).prop_map(|p| format!("{p} "))
    ];
    let tail = prop::sample::select(vec!["", "", " ", " # note", "\r", " = e1", " x", "#x"]);
    let lead = prop::sample::select(vec!["add ", "add ", "add  ", "  add\t", "ADD ", "addx "]);
    let values = prop::collection::vec(key_value(), 4);
    (lead, table_and_fields(), priority, values, action(), tail).prop_map(
        |(lead, (t, fields), p, values, a, tail)| {
            let keys: String = fields
                .iter()
                .zip(&values)
                .map(|(f, v)| format!("{f}:{v} "))
                .collect();
            format!("{lead}{t} {p}{keys}{a}{tail}")
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Each line, loaded by `configure_text` and by the general path into
    /// two switches that already hold the same entries: the same outcome.
    #[test]
    fn quick_adds_match_the_general_path(lines in prop::collection::vec(line(), 1..12)) {
        let (mut quick, mut general) = (switch(), switch());
        for l in &lines {
            let q = janus_stf::entries::configure_text(&mut quick, l);
            let g = janus_stf::parse(l)
                .map_err(|_| ())
                .and_then(|stf| janus_stf::runner::configure(&mut general, &stf).map_err(|_| ()));
            prop_assert_eq!(q.is_ok(), g.is_ok(), "line {:?}: {:?}", l, q);
            prop_assert_eq!(contents(&quick), contents(&general), "line {:?}", l);
        }
    }
}

/// The quick path takes the lines it is for (so the property above tests
/// it), and leaves the others to the general path.
#[test]
fn the_quick_path_takes_common_adds() {
    let mut sw = switch();
    let text = "# routes\n\
        add lpm_t m.addr:0x0a000000/8 fwd(port:1, mac:0x020000000001)\n\
        add lpm_t addr:167772160/16 wide(v:0x1)  # decimal\r\n\
        add I.exact_t h.eth.dst:0xffffffffffff h.eth.ty:0x0800 nop()\n\
        add v6_t h.v6.dst:0x20010db8000000000000000000000000/32 hop:64 wide(v:340282366920938463463374607431768211455)\n\
        add acl_t 10 class:0x0a0b m.pcp:3 ty:0x0800->0x08ff nop()\n\
        setdefault lpm_t nop()\n\
        add exact_t dst:1 ty:2 nop() = e1\n";
    let loaded = janus_stf::entries::configure_text(&mut sw, text).expect("loads");
    assert_eq!(loaded.commands, 7);
    assert_eq!(
        loaded.quick, 4,
        "the range key, setdefault and `= e1` take the general path"
    );
    let err = janus_stf::entries::configure_text(&mut sw, "add lpm_t m.addr:0x0b000000/40 nop()\n")
        .expect_err("prefix longer than the field");
    assert!(err.to_string().contains("line 1"), "{err}");
    assert!(err.to_string().contains("prefix length 40"), "{err}");
}

/// A line that does not parse is reported with every later one, and no
/// command after the first of them is carried out.
#[test]
fn parse_errors_are_all_reported() {
    let mut sw = switch();
    let text = "add lpm_t m.addr:0x0a000000/8 nop()\nadd lpm_t m.addr:0x0b000000/8 nop(\n\
                add lpm_t m.addr:0x0c000000/8 nop()\nbogus\n";
    match janus_stf::entries::configure_text(&mut sw, text) {
        Err(janus_stf::entries::LoadError::Parse(errors)) => {
            let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
            assert_eq!(lines, [2, 4]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(lpm_entries(&sw), 1, "only line 1 was carried out");
}

/// A byte-order mark on the first line and CRLF line ends are read as the
/// STF parser reads them; a line that is not UTF-8 stops the load with its
/// line number.
#[test]
fn read_lines_as_the_parser_does() {
    let mut sw = switch();
    let text = b"\xef\xbb\xbfadd lpm_t m.addr:0x0a000000/8 nop()\r\n\
                 add lpm_t m.addr:0x0b000000/8 nop()\r\n\
                 add lpm_t m.addr:0x0c000000/8 n\xffop()\n";
    match janus_stf::entries::configure_reader(&mut sw, &text[..]) {
        Err(janus_stf::entries::LoadError::Read { line, message }) => {
            assert_eq!(line, 3);
            assert!(message.contains("UTF-8"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(lpm_entries(&sw), 2);
}
