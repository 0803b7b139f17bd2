//! The parser is total: no input makes it panic, every error has a sane
//! position, and whatever parses prints back to the same commands.
//! `janus_stf::fuzz` checks all of that for one input, so these tests feed
//! it arbitrary text, mutated valid files and hand-picked nasty inputs.

use janus_stf::*;
use proptest::prelude::*;

/// Valid lines used as seeds for mutation.
const VALID: &str = "\
# comment line
add MyIngress.dmac hdr.ethernet.dstAddr:0x000000000001 forward(port:1) = host1
add acl 100 hdr.ipv4.srcAddr:0x0a****** hdr.tcp.dstPort:0x0016 deny()
add ipv4_lpm hdr.ipv4.dstAddr:0x0a000000/8 set_nhop(nhop_ipv4:0x0a000001, port:1)
add t 5 $valid$:1 stk[0].f:0b1*0* hdr.mpls$1.label:0x***** \"q.a\"(\"p q\":1)
setdefault ipv4_lpm drop()
packet 0 000000000001 000000000009 0800 4500 # frame
expect 1 000000000001 **** 0800 45** $
expect 4
check_counter MyIngress.c($host1) bytes >= 34
check_counter c(1)
mc_node_create 0 1 2 3
mirroring_add_mc 6 1
meter_set_rates m 3 0.0001:10 2:2
register_write r 0 0xdeadbeef
remove all
wait
no_packet
";

fn check(text: &str) {
    janus_stf::fuzz(text.as_bytes());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_unicode_never_panics(s in any::<String>()) {
        check(&s);
    }

    #[test]
    fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..400)) {
        janus_stf::fuzz(&b);
    }

    #[test]
    fn stf_alphabet_never_panics(s in "[ a-fA-F0-9xXbB_$*#:.,()\\[\\]/=!<>\"\t\r\n-]{0,200}") {
        check(&s);
    }

    #[test]
    fn keyword_lines_never_panic(
        kw in prop::sample::select(KEYWORDS),
        upper in any::<bool>(),
        rest in "[ a-z0-9_$*#:.,()\\[\\]/=!<>\"\t-]{0,80}",
    ) {
        let kw = if upper { kw.to_ascii_uppercase() } else { kw.to_string() };
        check(&format!("{kw} {rest}"));
        check(&format!("{kw}{rest}"));
    }

    #[test]
    fn mutated_valid_files_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..4, prop::sample::select(
            &[' ', '\n', '#', '*', '$', ':', '(', ')', ',', '.', '/', '=', '"', '[', ']', '0', '9', 'x', 'b', 'f', 'é', '\0', '\t', '-'][..]
        )), 1..8),
    ) {
        let mut chars: Vec<char> = VALID.chars().collect();
        for (at, op, c) in edits {
            if chars.is_empty() {
                chars.push(c);
                continue;
            }
            let i = at.index(chars.len());
            match op {
                0 => chars.insert(i, c),
                1 => { chars.remove(i); }
                2 => chars[i] = c,
                _ => {
                    // Duplicate a slice (grows lines and numbers).
                    let end = (i + 1 + at.index(16)).min(chars.len());
                    let slice: Vec<char> = chars[i..end].to_vec();
                    chars.splice(i..i, slice);
                }
            }
        }
        check(&chars.into_iter().collect::<String>());
    }

    #[test]
    fn lines_are_independent(a in "[ a-z0-9*#:.()\n]{0,60}", b in "[ a-z0-9*#:.()\n]{0,60}") {
        let (sa, ea) = parse_partial(&a);
        let (sb, eb) = parse_partial(&b);
        let (sab, eab) = parse_partial(&format!("{a}\n{b}"));
        let offset = a.split('\n').count();
        let mut want_cmds: Vec<(usize, Command)> = sa.commands.into_iter().map(|c| (c.line, c.item)).collect();
        want_cmds.extend(sb.commands.into_iter().map(|c| (c.line + offset, c.item)));
        let got_cmds: Vec<(usize, Command)> = sab.commands.into_iter().map(|c| (c.line, c.item)).collect();
        prop_assert_eq!(got_cmds, want_cmds);
        let mut want_errs = ea;
        want_errs.extend(eb.into_iter().map(|e| StfError { line: e.line + offset, ..e }));
        prop_assert_eq!(eab, want_errs);
    }
}

// --- generated commands print and parse back -------------------------------

fn ident() -> impl Strategy<Value = String> {
    "[A-Za-z_$][A-Za-z0-9_$]{0,6}"
}

fn quoted() -> impl Strategy<Value = String> {
    "[a-z .#:()\\[\\]]{1,8}"
}

fn single_name() -> impl Strategy<Value = String> {
    prop_oneof![3 => ident(), 1 => quoted()]
}

fn qualified_name() -> impl Strategy<Value = String> {
    let plain = (
        ident(),
        proptest::option::of("[0-9]{1,3}"),
        proptest::collection::vec(ident(), 0..3),
    )
        .prop_map(|(first, index, rest)| {
            let mut s = first;
            if let Some(i) = index {
                s.push_str(&format!("[{i}]"));
            }
            for r in rest {
                s.push('.');
                s.push_str(&r);
            }
            s
        });
    prop_oneof![4 => plain, 1 => quoted()]
}

fn number(dont_care: bool) -> impl Strategy<Value = Number> {
    let digit = move |base: u8| {
        if dont_care {
            prop_oneof![4 => (0..base).prop_map(Some), 1 => Just(None)].boxed()
        } else {
            (0..base).prop_map(Some).boxed()
        }
    };
    prop_oneof![
        proptest::collection::vec((0u8..10).prop_map(Some), 1..40)
            .prop_map(|d| Number::from_digits(Radix::Decimal, d).unwrap()),
        proptest::collection::vec(digit(16), 1..40).prop_map(|d| Number::from_digits(
            Radix::Hex,
            d
        )
        .unwrap()),
        proptest::collection::vec(digit(8), 1..40).prop_map(|d| Number::from_digits(
            Radix::Octal,
            d
        )
        .unwrap()),
        proptest::collection::vec(digit(2), 1..40).prop_map(|d| Number::from_digits(
            Radix::Binary,
            d
        )
        .unwrap()),
    ]
}

fn key_value() -> impl Strategy<Value = KeyValue> {
    prop_oneof![
        number(true).prop_map(KeyValue::Value),
        (number(false), any::<u32>()).prop_map(|(value, len)| KeyValue::Prefix { value, len }),
    ]
}

fn action() -> impl Strategy<Value = ActionCall> {
    (
        qualified_name(),
        proptest::collection::vec((single_name(), number(false)), 0..4),
    )
        .prop_map(|(name, args)| ActionCall {
            name,
            args: args
                .into_iter()
                .map(|(name, value)| ActionArg {
                    name,
                    value,
                    column: 0,
                })
                .collect(),
            column: 0,
        })
}

fn rate() -> impl Strategy<Value = MeterRate> {
    (
        prop_oneof![
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(f64::abs),
            (0u64..1_000_000, 0u32..8).prop_map(|(m, e)| m as f64 / 10f64.powi(e as i32)),
        ],
        any::<u64>(),
    )
        .prop_map(|(rate, burst)| MeterRate { rate, burst })
}

fn pattern() -> impl Strategy<Value = Pattern> {
    (
        proptest::collection::vec(proptest::option::weighted(0.8, 0u8..16), 0..40),
        any::<bool>(),
    )
        .prop_map(|(nibbles, exact_length)| Pattern {
            nibbles,
            exact_length,
        })
}

fn command() -> impl Strategy<Value = Command> {
    let cmp = prop::sample::select(
        &[
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
        ][..],
    );
    let kind = prop::sample::select(&[CounterKind::Packets, CounterKind::Bytes][..]);
    prop_oneof![
        (any::<u32>(), proptest::collection::vec(any::<u8>(), 1..64))
            .prop_map(|(port, data)| Command::Packet { port, data }),
        (any::<u32>(), pattern()).prop_map(|(port, p)| Command::Expect {
            port,
            pattern: (!p.nibbles.is_empty() || p.exact_length).then_some(p)
        }),
        Just(Command::NoPacket),
        (
            qualified_name(),
            proptest::option::of(any::<u64>()),
            proptest::collection::vec((qualified_name(), key_value()), 1..4),
            action(),
            proptest::option::of(single_name()),
        )
            .prop_map(|(table, priority, keys, action, id)| Command::Add {
                table,
                priority,
                keys: keys
                    .into_iter()
                    .map(|(field, value)| KeyMatch {
                        field,
                        value,
                        column: 0
                    })
                    .collect(),
                action,
                id,
            }),
        (qualified_name(), action())
            .prop_map(|(table, action)| Command::SetDefault { table, action }),
        Just(Command::RemoveAll),
        (
            qualified_name(),
            prop_oneof![
                any::<u64>().prop_map(CounterIndex::Index),
                single_name().prop_map(CounterIndex::Name)
            ],
            proptest::option::of((kind, cmp, any::<u64>())),
        )
            .prop_map(|(name, index, check)| Command::CheckCounter {
                name,
                index,
                check: check.map(|(kind, op, value)| CounterCheck { kind, op, value }),
            }),
        Just(Command::Wait),
        (any::<u32>(), any::<u32>())
            .prop_map(|(session, port)| Command::MirroringAdd { session, port }),
        (any::<u32>(), any::<u32>())
            .prop_map(|(session, group)| Command::MirroringAddMc { session, group }),
        any::<u32>().prop_map(|session| Command::MirroringDelete { session }),
        any::<u32>().prop_map(|session| Command::MirroringGet { session }),
        any::<u32>().prop_map(|group| Command::McMgrpCreate { group }),
        (any::<u32>(), proptest::collection::vec(any::<u32>(), 1..6))
            .prop_map(|(rid, ports)| Command::McNodeCreate { rid, ports }),
        (any::<u32>(), proptest::collection::vec(any::<u32>(), 1..6))
            .prop_map(|(node, ports)| Command::McNodeUpdate { node, ports }),
        (any::<u32>(), any::<u32>())
            .prop_map(|(group, node)| Command::McNodeAssociate { group, node }),
        (qualified_name(), any::<u64>())
            .prop_map(|(name, index)| Command::CounterRead { name, index }),
        (qualified_name(), any::<u64>(), any::<u64>(), any::<u64>()).prop_map(
            |(name, index, packets, bytes)| Command::CounterWrite {
                name,
                index,
                packets,
                bytes
            }
        ),
        (qualified_name(), any::<u64>())
            .prop_map(|(name, index)| Command::RegisterRead { name, index }),
        (qualified_name(), any::<u64>(), number(false))
            .prop_map(|(name, index, value)| Command::RegisterWrite { name, index, value }),
        qualified_name().prop_map(|name| Command::RegisterReset { name }),
        (qualified_name(), any::<u64>())
            .prop_map(|(name, index)| Command::MeterGetRates { name, index }),
        (
            qualified_name(),
            any::<u64>(),
            proptest::collection::vec(rate(), 1..4)
        )
            .prop_map(|(name, index, rates)| Command::MeterSetRates { name, index, rates }),
        (qualified_name(), proptest::collection::vec(rate(), 1..4))
            .prop_map(|(name, rates)| Command::MeterArraySetRates { name, rates }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn generated_commands_round_trip(cmds in proptest::collection::vec(command(), 1..6)) {
        let stf = Stf {
            commands: cmds.iter().cloned().map(|item| Located { line: 0, column: 0, item }).collect(),
        };
        let text = stf.to_string();
        let parsed = parse(&text).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        let got: Vec<Command> = parsed.commands.into_iter().map(|c| c.item).collect();
        prop_assert_eq!(got, cmds, "{}", text);
        check(&text);
    }

    #[test]
    fn pattern_of_a_packet_matches_it(
        data in proptest::collection::vec(any::<u8>(), 0..64),
        extra in proptest::collection::vec(any::<u8>(), 0..8),
        holes in proptest::collection::vec(any::<prop::sample::Index>(), 0..6),
    ) {
        let mut p = Pattern::from_bytes(&data, false);
        for h in &holes {
            if !p.nibbles.is_empty() {
                let i = h.index(p.nibbles.len());
                p.nibbles[i] = None;
            }
        }
        let mut longer = data.clone();
        longer.extend_from_slice(&extra);
        prop_assert!(p.matches(&data));
        prop_assert!(p.matches(&longer));
        let exact = Pattern { exact_length: true, ..p.clone() };
        prop_assert!(exact.matches(&data));
        prop_assert_eq!(exact.matches(&longer), extra.is_empty());
        if !data.is_empty() {
            prop_assert!(!p.matches(&data[..data.len() - 1]));
        }
        // Printed and parsed back, the pattern is the same.
        let back: Pattern = p.to_string().parse().unwrap();
        prop_assert_eq!(back, p);
    }

    #[test]
    fn flipping_a_checked_nibble_breaks_the_match(
        data in proptest::collection::vec(any::<u8>(), 1..32),
        at in any::<prop::sample::Index>(),
    ) {
        let p = Pattern::from_bytes(&data, false);
        let i = at.index(data.len() * 2);
        let mut other = data.clone();
        other[i / 2] ^= if i % 2 == 0 { 0x10 } else { 0x01 };
        prop_assert_eq!(
            p.check(&other),
            Err(Mismatch::Differs {
                nibble: i,
                expected: p.nibbles[i].unwrap(),
                received: p.nibbles[i].unwrap() ^ 1,
            })
        );
    }

    #[test]
    fn numbers_in_every_radix_agree(v in any::<u128>(), pad in 0usize..5) {
        let zeros = "0".repeat(pad);
        let dec = Number::parse(&format!("{zeros}{v}")).unwrap();
        let hex = Number::parse(&format!("0x{zeros}{v:x}")).unwrap();
        let bin = Number::parse(&format!("0b{zeros}{v:b}")).unwrap();
        for n in [&dec, &hex, &bin] {
            prop_assert_eq!(n.to_u128().unwrap(), v);
            prop_assert_eq!(n.to_be_bytes(128).unwrap(), v.to_be_bytes().to_vec());
            let width = 128 - v.leading_zeros();
            prop_assert_eq!(n.to_be_bytes(width).is_ok(), true);
            if width > 0 {
                let is_too_wide = matches!(n.to_be_bytes(width - 1), Err(ValueError::TooWide { .. }));
                prop_assert!(is_too_wide);
            }
        }
        prop_assert_eq!(dec.to_u64().is_ok(), v <= u128::from(u64::MAX));
    }

    #[test]
    fn ternary_mask_has_ones_under_written_digits(
        digits in proptest::collection::vec(proptest::option::weighted(0.7, 0u8..16), 1..32),
    ) {
        let n = Number::from_digits(Radix::Hex, digits.clone()).unwrap();
        let t = KeyValue::Value(n).ternary(128).unwrap();
        // Rebuild the expected value and mask nibble by nibble (low nibble last).
        let mut value = 0u128;
        let mut mask = 0u128;
        for d in &digits {
            value = (value << 4) | u128::from(d.unwrap_or(0));
            mask = (mask << 4) | if d.is_some() { 0xf } else { 0 };
        }
        prop_assert_eq!(t.value, value.to_be_bytes().to_vec());
        prop_assert_eq!(t.mask, mask.to_be_bytes().to_vec());
    }
}

// --- hand-picked nasty inputs ---------------------------------------------

/// Whole lines that have broken parsers before (or could).
const NASTY_LINES: &[&str] = &[
    "",
    " ",
    "\t",
    "\r",
    "\n\n\n",
    "#",
    "##",
    "# \u{0}",
    "\u{0}",
    "\u{feff}",
    "\u{feff}\u{feff}packet 0 00",
    "\u{200b}packet 0 00",
    "packet\u{a0}0 00",
    "packet 0 0\u{0}0",
    "packet 0 00 \u{fffd}",
    "packet 0 ０１",
    "packet 0 ab#",
    "packet 0 #",
    "packet 0#",
    "packet #",
    "packet 0 00 00 0",
    "packet 4294967295 00",
    "packet 4294967296 00",
    "packet 00000000000000000000000000000001 00",
    "packet 0 0x",
    "packet 0 x",
    "packet 0 *",
    "packet 0 $",
    "packet -1 00",
    "packet 1.5 00",
    "expect",
    "expect 0",
    "expect 0 $",
    "expect 0 $$",
    "expect 0 *$",
    "expect 0 $*",
    "expect 0 $ #",
    "expect 0 ***",
    "expect 0*",
    "expect 0$",
    "expect 0 0x00",
    "expect 0 é",
    "expect 99999999999999999999999999",
    "add",
    "add ",
    "add t",
    "add t 1",
    "add t 1 2",
    "add t :",
    "add t f:",
    "add t f:1",
    "add t f:1 (",
    "add t f:1 a(",
    "add t f:1 a()",
    "add t f:1 a())",
    "add t f:1 a(()",
    "add t f:1 a(x:1,,y:2)",
    "add t f:1 a(:1)",
    "add t f:1 a(x::1)",
    "add t f:1 a(x:1) =",
    "add t f:1 a(x:1) = =",
    "add t f:1 a(x:1) = 1",
    "add t f:1 a(x:1) == x",
    "add t f:1/ a()",
    "add t f:1// a()",
    "add t f:/8 a()",
    "add t f:1/99999999999 a()",
    "add t f:0x/8 a()",
    "add t f:0b a()",
    "add t f:0b* a()",
    "add t f:0x* a()",
    "add t f:0X** a()",
    "add t f:0B1 a()",
    "add t f:00x1 a()",
    "add t f:0x1.5 a()",
    "add t f[:1 a()",
    "add t f[]:1 a()",
    "add t f[1]:1 a()",
    "add t f[1][2]:1 a()",
    "add t f[99999999999999999999999]:1 a()",
    "add t .f:1 a()",
    "add t f.:1 a()",
    "add t f..g:1 a()",
    "add t $:1 a()",
    "add t $$$:1 $()",
    "add t _:_ _()",
    "add t \"\":1 a()",
    "add t \"f:1 a()",
    "add t \"f\":1 a()\"",
    "add \"t\" \"f\".\"g\":1 \"a\"(\"x\":1)",
    "add t f:1 \"a",
    "add t f:1 a(\"x",
    "add 1t f:1 a()",
    "add t 01 f:1 a()",
    "add t 18446744073709551616 f:1 a()",
    "add t 18446744073709551615 f:1 a()",
    "add t f:1 g:2 h:3 i:4 j:5 k:6 a()",
    "add t f:1 a(x:1) # (",
    "add t f : 1 a ( x : 1 , y : 2 ) = z",
    "add t f:1 a(x:1) g:2 b()",
    "add t f:1 a(x:0b)",
    "add t f:1 a(x:99999999999999999999999999999999999999999999999999)",
    "add t f:1 a(x:-1)",
    "add t f:&&& a()",
    "add t f:1&&&2 a()",
    "add t f:1 a(x:1);",
    "setdefault",
    "setdefault t",
    "setdefault t a",
    "setdefault t a(",
    "setdefault t a(x:1",
    "setdefault t a(x:1))",
    "setdefault t f:1 a()",
    "setdefault t 1 a()",
    "remove",
    "remove all all",
    "remove ALL",
    "remove entry",
    "check_counter",
    "check_counter c",
    "check_counter c(",
    "check_counter c()",
    "check_counter c(1",
    "check_counter c(1))",
    "check_counter c(1) packets",
    "check_counter c(1) packets ==",
    "check_counter c(1) packets == -1",
    "check_counter c(1) packets == 18446744073709551616",
    "check_counter c(1) packets =< 1",
    "check_counter c(1) packets => 1",
    "check_counter c(1) packets <> 1",
    "check_counter c(1) packets === 1",
    "check_counter c(1) PACKETS != 0x1",
    "check_counter c($) bytes < 1",
    "check_counter c(\"x\") bytes > 0b1",
    "check_counter c(0x*) bytes > 0",
    "check_counter c(1) bytes > 0x*",
    "wait wait",
    "WAIT",
    "no_packet 1",
    "mirroring_add",
    "mirroring_add 1",
    "mirroring_add 1 2 3",
    "mirroring_add x y",
    "mirroring_add 0x 1",
    "mirroring_add_mc 1 0b11",
    "mc_mgrp_create",
    "mc_mgrp_create -1",
    "mc_node_create",
    "mc_node_create 1",
    "mc_node_create 1 2 x",
    "mc_node_update 1 2 3 4 5 6 7 8 9 10",
    "mc_node_associate 1",
    "counter_read",
    "counter_read c",
    "counter_read 1 1",
    "counter_write c 1 2",
    "counter_write c 1 2 3 4",
    "register_read r",
    "register_write r 1",
    "register_write r 1 0x",
    "register_write r 1 0x1*",
    "register_reset",
    "register_reset r r",
    "meter_get_rates m",
    "meter_set_rates m",
    "meter_set_rates m 1",
    "meter_set_rates m 1 :",
    "meter_set_rates m 1 1:",
    "meter_set_rates m 1 :1",
    "meter_set_rates m 1 1.:1",
    "meter_set_rates m 1 .5:1",
    "meter_set_rates m 1 1.5.5:1",
    "meter_set_rates m 1 1e5:1",
    "meter_set_rates m 1 0x1.0:1",
    "meter_set_rates m 1 0xffffffffffffffffffffffffffffffffff:1",
    "meter_array_set_rates m 1:1 2",
    "meter_array_set_rates m 1:1:1",
    "table_add t a 1 => 2",
    "table_set_default t a",
    "PACKETS 1",
    "packets 1",
    "bytes",
    "all",
    "$",
    "*",
    ":",
    "(",
    ")",
    "\"",
    "\"add\" t f:1 a()",
    "1 add",
    "-",
    "=",
    "==",
    "é",
    "日本語",
    "🦀 packet 0 00",
    "add t f:1 a() 🦀",
    "packet 0 00 🦀",
];

/// Fragments appended to every keyword.
const NASTY_SUFFIXES: &[&str] = &[
    "",
    " ",
    "#",
    " #",
    " # x",
    " 0",
    " 1 2 3",
    " x",
    " x.y",
    " x[0]",
    " x[0].y z",
    " \"",
    " \"\"",
    " \"a b\"",
    " (",
    " )",
    " ()",
    " :",
    " 0x",
    " 0b2",
    " 0x**",
    " *",
    " $",
    " =",
    " /",
    " 99999999999999999999999999999999",
    " 1.5:2",
    " t f:1 a()",
    " t 1 f:0x1* a(x:1) = y",
    " c(1) packets == 1",
    "\u{0}",
    " \u{1}",
    "é",
    " \t\r",
];

#[test]
fn nasty_lines() {
    let mut n = 0;
    for line in NASTY_LINES {
        check(line);
        check(&format!("{line}\n{line}\r\n"));
        n += 2;
    }
    for kw in KEYWORDS {
        for suffix in NASTY_SUFFIXES {
            check(&format!("{kw}{suffix}"));
            check(&format!("{}{suffix}", kw.to_ascii_uppercase()));
            n += 2;
        }
    }
    assert!(n > 1500, "{n}");
}

#[test]
fn huge_inputs_stay_fast() {
    // Long lines of every kind; each must parse (or fail) quickly.
    let long = [
        format!("packet 0 {}", "ab".repeat(200_000)),
        format!("expect 0 {}$", "*".repeat(200_000)),
        format!("add t f:{} a()", "9".repeat(100_000)),
        format!("add t f:0x{} a()", "f".repeat(100_000)),
        format!("add t {} a()", "f:1 ".repeat(20_000)),
        format!("add t f:1 a({}x:1)", "x:1, ".repeat(20_000)),
        format!("add {} f:1 a()", "a.".repeat(50_000) + "b"),
        format!("mc_node_create 1 {}", "1 ".repeat(50_000)),
        format!("packet {} 00", "9".repeat(100_000)),
        format!("\"{}", "x".repeat(100_000)),
        "\n".repeat(200_000),
        "# c\n".repeat(50_000),
        format!("expct {}", "x".repeat(100_000)),
        format!("{} 1", "x".repeat(100_000)),
    ];
    let start = std::time::Instant::now();
    for text in &long {
        let _ = parse(text);
    }
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
    // A maximal decimal key value converts in reasonable time.
    let big = format!("add t f:{} a()", "9".repeat(MAX_DIGITS));
    let stf = parse(&big).unwrap();
    let Command::Add { keys, .. } = &stf.commands[0].item else {
        panic!()
    };
    assert_eq!(keys[0].value.exact(16384).unwrap().len(), 2048);
}
