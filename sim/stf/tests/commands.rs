//! Every command form, including the tricky ones.

use janus_stf::*;

fn one(text: &str) -> Command {
    let stf = parse(text).unwrap_or_else(|e| panic!("{text:?}: {e:?}"));
    assert_eq!(stf.commands.len(), 1, "{text:?}");
    stf.commands.into_iter().next().unwrap().item
}

fn num(s: &str) -> Number {
    Number::parse(s).unwrap()
}

fn add_parts(
    text: &str,
) -> (
    String,
    Option<u64>,
    Vec<KeyMatch>,
    ActionCall,
    Option<String>,
) {
    match one(text) {
        Command::Add {
            table,
            priority,
            keys,
            action,
            id,
        } => (table, priority, keys, action, id),
        other => panic!("not an add: {other:?}"),
    }
}

fn keys_of(text: &str) -> Vec<(String, KeyValue)> {
    add_parts(text)
        .2
        .into_iter()
        .map(|k| (k.field, k.value))
        .collect()
}

fn args_of(action: &ActionCall) -> Vec<(String, Number)> {
    action
        .args
        .iter()
        .map(|a| (a.name.clone(), a.value.clone()))
        .collect()
}

// --- packet ---

#[test]
fn packet_simple() {
    assert_eq!(
        one("packet 0 0a0b0c"),
        Command::Packet {
            port: 0,
            data: vec![0x0a, 0x0b, 0x0c]
        }
    );
}

#[test]
fn packet_split_tokens_and_free_spacing() {
    let expect = Command::Packet {
        port: 12,
        data: vec![0xde, 0xad, 0xbe, 0xef, 0x01],
    };
    assert_eq!(one("packet 12 de ad be ef 01"), expect);
    assert_eq!(one("packet 12 d e a d b e e f 0 1"), expect);
    assert_eq!(one("  packet\t12\tDEADBEEF   01  "), expect);
    assert_eq!(one("packet 12 dea dbe ef01"), expect);
}

#[test]
fn packet_keyword_case_insensitive() {
    assert_eq!(
        one("PACKET 1 00"),
        Command::Packet {
            port: 1,
            data: vec![0]
        }
    );
    assert_eq!(
        one("PaCkEt 1 00"),
        Command::Packet {
            port: 1,
            data: vec![0]
        }
    );
}

#[test]
fn packet_with_comment_after_data() {
    assert_eq!(
        one("packet 1 0a0b # ethernet: 0c0d"),
        Command::Packet {
            port: 1,
            data: vec![0x0a, 0x0b]
        }
    );
    assert_eq!(
        one("packet 1 0a0b#0c0d"),
        Command::Packet {
            port: 1,
            data: vec![0x0a, 0x0b]
        }
    );
}

#[test]
fn packet_port_digits_then_data_directly() {
    // The reference lexer reads the port as the run of decimal digits.
    assert_eq!(
        one("packet 0ab"),
        Command::Packet {
            port: 0,
            data: vec![0xab]
        }
    );
}

#[test]
fn packet_large_frame() {
    let hex = "ab".repeat(9000);
    assert_eq!(
        one(&format!("packet 3 {hex}")),
        Command::Packet {
            port: 3,
            data: vec![0xab; 9000]
        }
    );
}

// --- expect ---

#[test]
fn expect_without_data_is_any() {
    assert_eq!(
        one("expect 5"),
        Command::Expect {
            port: 5,
            pattern: None
        }
    );
    assert_eq!(
        one("expect 5   # anything"),
        Command::Expect {
            port: 5,
            pattern: None
        }
    );
}

#[test]
fn expect_pattern_with_wildcards() {
    let Command::Expect {
        port,
        pattern: Some(p),
    } = one("expect 1 0a** 0*0c")
    else {
        panic!()
    };
    assert_eq!(port, 1);
    assert_eq!(
        p.nibbles,
        vec![
            Some(0),
            Some(10),
            None,
            None,
            Some(0),
            None,
            Some(0),
            Some(12)
        ]
    );
    assert!(!p.exact_length);
}

#[test]
fn expect_exact_length_marker() {
    let Command::Expect {
        pattern: Some(p), ..
    } = one("expect 1 0a0b $")
    else {
        panic!()
    };
    assert!(p.exact_length);
    assert_eq!(p.nibbles.len(), 4);
    let Command::Expect {
        pattern: Some(p), ..
    } = one("expect 1 0a0b$ # done")
    else {
        panic!()
    };
    assert!(p.exact_length);
    // `$` alone: an empty frame exactly.
    let Command::Expect {
        pattern: Some(p), ..
    } = one("expect 2 $")
    else {
        panic!()
    };
    assert!(p.exact_length && p.nibbles.is_empty());
}

#[test]
fn expect_odd_nibbles_allowed() {
    let Command::Expect {
        pattern: Some(p), ..
    } = one("expect 1 abc")
    else {
        panic!()
    };
    assert_eq!(p.nibbles, vec![Some(10), Some(11), Some(12)]);
}

#[test]
fn expect_keyword_case() {
    assert_eq!(
        one("EXPECT 7"),
        Command::Expect {
            port: 7,
            pattern: None
        }
    );
}

// --- add ---

#[test]
fn add_basic_exact_decimal_and_hex() {
    let (table, prio, keys, action, id) =
        add_parts("add ingress.dmac hdr.ethernet.dstAddr:0x000102030405 fwd(port:3)");
    assert_eq!(table, "ingress.dmac");
    assert_eq!(prio, None);
    assert_eq!(id, None);
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0].field, "hdr.ethernet.dstAddr");
    assert_eq!(keys[0].value, KeyValue::Value(num("0x000102030405")));
    assert_eq!(keys[0].column, 18);
    assert_eq!(action.column, 54);
    assert_eq!(action.args[0].column, 58);
    assert_eq!(action.name, "fwd");
    assert_eq!(args_of(&action), vec![("port".to_string(), num("3"))]);
    assert_eq!(
        keys_of("add t f:1234 a()"),
        vec![("f".into(), KeyValue::Value(num("1234")))]
    );
}

#[test]
fn add_with_priority() {
    let (_, prio, keys, _, _) = add_parts("add acl 10 hdr.ipv4.srcAddr:0x0a****** drop()");
    assert_eq!(prio, Some(10));
    assert_eq!(keys[0].value, KeyValue::Value(num("0x0a******")));
    let (_, prio, _, _, _) = add_parts("add acl 0 f:0x1 drop()");
    assert_eq!(prio, Some(0));
}

#[test]
fn add_with_id_suffix() {
    let (_, prio, _, _, id) = add_parts("add tab1 dstAddr:0xa1a2a3a4a5a6 act(port:2) = A");
    assert_eq!(prio, None);
    assert_eq!(id.as_deref(), Some("A"));
    let (_, prio, _, _, id) = add_parts("add tab1 5 dstAddr:0xa1 act(port:2) = entry_1");
    assert_eq!((prio, id.as_deref()), (Some(5), Some("entry_1")));
}

#[test]
fn add_lpm_forms() {
    assert_eq!(
        keys_of("add r hdr.ipv4.dstAddr:0x0a000000/8 a()"),
        vec![(
            "hdr.ipv4.dstAddr".into(),
            KeyValue::Prefix {
                value: num("0x0a000000"),
                len: 8
            }
        )]
    );
    assert_eq!(
        keys_of("add r hdr.ipv4.dstAddr:167772160/8 a()"),
        vec![(
            "hdr.ipv4.dstAddr".into(),
            KeyValue::Prefix {
                value: num("167772160"),
                len: 8
            }
        )]
    );
    // Free spacing between tokens, as the reference lexer allows.
    assert_eq!(
        keys_of("add r dst : 0x0a000000 / 24 a()"),
        vec![(
            "dst".into(),
            KeyValue::Prefix {
                value: num("0x0a000000"),
                len: 24
            }
        )]
    );
    // Trailing `*` digits: the prefix length comes from the digits.
    assert_eq!(
        keys_of("add r dst:0x0a0000** a()"),
        vec![("dst".into(), KeyValue::Value(num("0x0a0000**")))]
    );
}

#[test]
fn add_range_keys_and_keyless_adds() {
    // `lo->hi` as simple_switch_CLI writes a range; spacing is free.
    assert_eq!(
        keys_of("add t hdr.p:0x10->0x20 q:5 -> 9 a()"),
        vec![
            (
                "hdr.p".into(),
                KeyValue::Range {
                    lo: num("0x10"),
                    hi: num("0x20")
                }
            ),
            (
                "q".into(),
                KeyValue::Range {
                    lo: num("5"),
                    hi: num("9")
                }
            )
        ]
    );
    let KeyValue::Range { lo, hi } = &keys_of("add t f:1->0x0300 a()")[0].1 else {
        panic!()
    };
    assert_eq!((lo, hi), (&num("1"), &num("0x0300")));
    assert_eq!(
        keys_of("add t f:0x10->0x20 a()")[0].1.range(16).unwrap(),
        (vec![0x00, 0x10], vec![0x00, 0x20])
    );
    assert_eq!(
        KeyValue::Value(num("7")).range(8).unwrap(),
        (vec![7], vec![7])
    );
    assert!(keys_of("add t f:1->2 a()")[0].1.exact(8).is_err());
    // No key at all (a table without keys), with or without a priority.
    let (table, prio, keys, action, id) = add_parts("add always set(v:7)");
    assert_eq!(
        (table.as_str(), prio, keys.len(), id),
        ("always", None, 0, None)
    );
    assert_eq!(action.name, "set");
    let (_, prio, keys, _, _) = add_parts("add always 3 NoAction()");
    assert_eq!((prio, keys.len()), (Some(3), 0));
    // Rendering and reparsing keep the range.
    let text = "add t 1 f:0x10->0x20 a()";
    let printed = one(text).to_string();
    assert_eq!(one(&printed), one(text), "{printed}");
}

#[test]
fn add_ternary_forms() {
    assert_eq!(
        keys_of("add t f:0x**0f a()"),
        vec![("f".into(), KeyValue::Value(num("0x**0f")))]
    );
    assert_eq!(
        keys_of("add t f:0b1*0* a()"),
        vec![("f".into(), KeyValue::Value(num("0b1*0*")))]
    );
}

#[test]
fn add_key_names_with_index_and_stack_suffix() {
    let keys =
        keys_of("add t hdr[0].f:1 hdr.stk$1.f:2 data.$valid:0b1 $valid$:1 meta.fwd.l2ptr:3 a()");
    let names: Vec<&str> = keys.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "hdr[0].f",
            "hdr.stk$1.f",
            "data.$valid",
            "$valid$",
            "meta.fwd.l2ptr"
        ]
    );
}

#[test]
fn add_key_names_with_an_index_on_any_component() {
    let keys = keys_of("add t hdr.vlans[1].vid:7 hdr.s[0].t[2].f:1 a()");
    let names: Vec<&str> = keys.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["hdr.vlans[1].vid", "hdr.s[0].t[2].f"]);
}

#[test]
fn add_action_params_any_order_and_spacing() {
    let (_, _, _, action, _) =
        add_parts("add t f:1 c4_6(val4:0x4040, val5 : 0x5050,val6:0x6060 , port:2)");
    assert_eq!(
        args_of(&action),
        vec![
            ("val4".to_string(), num("0x4040")),
            ("val5".to_string(), num("0x5050")),
            ("val6".to_string(), num("0x6060")),
            ("port".to_string(), num("2")),
        ]
    );
    let (_, _, _, action, _) = add_parts("add t f:1 set(port:2, mac:0b101)");
    assert_eq!(args_of(&action)[0].0, "port");
    assert_eq!(args_of(&action)[1].0, "mac");
}

#[test]
fn add_empty_parens_and_dotted_action() {
    let (_, _, _, action, _) = add_parts("add t f:1 ingress.drop()");
    assert_eq!(action.name, "ingress.drop");
    assert!(action.args.is_empty());
    let (_, _, _, action, _) = add_parts("add t f:1 NoAction ( )");
    assert_eq!(action.name, "NoAction");
}

#[test]
fn add_quoted_names() {
    let (table, _, keys, action, _) =
        add_parts("add \"MyIngress.my table\" \"hdr.h.f\":0x1 \"act.x\"(\"p q\":1)");
    assert_eq!(table, "MyIngress.my table");
    assert_eq!(keys[0].field, "hdr.h.f");
    assert_eq!(action.name, "act.x");
    assert_eq!(action.args[0].name, "p q");
    // A quoted first component can be followed by more components.
    let (table, _, _, _, _) = add_parts("add \"ingress\".t f:1 a()");
    assert_eq!(table, "ingress.t");
}

#[test]
fn add_keyword_case_and_keyword_like_names() {
    let (table, _, keys, action, _) = add_parts("ADD all packets:1 bytes:2 wait()");
    assert_eq!(table, "all");
    assert_eq!(keys[0].field, "packets");
    assert_eq!(keys[1].field, "bytes");
    assert_eq!(action.name, "wait");
}

#[test]
fn add_with_comment() {
    let (_, _, keys, _, _) = add_parts("add t f:0x01 a() # comment: with(parens) and f:2");
    assert_eq!(keys.len(), 1);
}

#[test]
fn add_many_keys_wide_values() {
    let (_, _, keys, _, _) = add_parts(
        "add v6 hdr.ipv6.dst:0x20010db8000000000000000000000001 hdr.ipv6.src:0x2001****************************** a()",
    );
    assert_eq!(keys.len(), 2);
    assert_eq!(
        keys[0].value.exact(128).unwrap()[..4],
        [0x20, 0x01, 0x0d, 0xb8]
    );
}

// --- setdefault ---

#[test]
fn setdefault_forms() {
    assert_eq!(
        one("setdefault ethertype_match l2_packet()"),
        Command::SetDefault {
            table: "ethertype_match".into(),
            action: ActionCall {
                name: "l2_packet".into(),
                args: vec![],
                column: 28
            }
        }
    );
    let Command::SetDefault { table, action } = one("SETDEFAULT ingress.t ingress.set(a:1, b:0x2)")
    else {
        panic!()
    };
    assert_eq!(table, "ingress.t");
    assert_eq!(action.name, "ingress.set");
    assert_eq!(
        args_of(&action),
        vec![("a".to_string(), num("1")), ("b".to_string(), num("0x2"))]
    );
}

// --- remove, wait, no_packet ---

#[test]
fn simple_commands() {
    assert_eq!(one("remove all"), Command::RemoveAll);
    assert_eq!(one("REMOVE ALL"), Command::RemoveAll);
    assert_eq!(one("wait"), Command::Wait);
    assert_eq!(one("WAIT # let the switch drain"), Command::Wait);
    assert_eq!(one("no_packet"), Command::NoPacket);
}

// --- check_counter ---

#[test]
fn check_counter_forms() {
    assert_eq!(
        one("check_counter cntDum(10) packets == 2"),
        Command::CheckCounter {
            name: "cntDum".into(),
            index: CounterIndex::Index(10),
            check: Some(CounterCheck {
                kind: CounterKind::Packets,
                op: CmpOp::Eq,
                value: 2
            }),
        }
    );
    assert_eq!(
        one("check_counter cntDum($A)"),
        Command::CheckCounter {
            name: "cntDum".into(),
            index: CounterIndex::Name("$A".into()),
            check: None
        }
    );
    for (text, op) in [
        ("==", CmpOp::Eq),
        ("!=", CmpOp::Ne),
        ("<", CmpOp::Lt),
        ("<=", CmpOp::Le),
        (">", CmpOp::Gt),
        (">=", CmpOp::Ge),
    ] {
        let Command::CheckCounter { check: Some(c), .. } =
            one(&format!("check_counter ingress.c(0) BYTES {text} 0x40"))
        else {
            panic!()
        };
        assert_eq!((c.kind, c.op, c.value), (CounterKind::Bytes, op, 64));
    }
}

// --- mirroring / multicast ---

#[test]
fn mirroring_and_multicast() {
    assert_eq!(
        one("mirroring_add 5 3"),
        Command::MirroringAdd {
            session: 5,
            port: 3
        }
    );
    assert_eq!(
        one("mirroring_add_mc 5 0x10"),
        Command::MirroringAddMc {
            session: 5,
            group: 16
        }
    );
    assert_eq!(
        one("mirroring_delete 5"),
        Command::MirroringDelete { session: 5 }
    );
    assert_eq!(one("mirroring_get 5"), Command::MirroringGet { session: 5 });
    assert_eq!(one("mc_mgrp_create 1"), Command::McMgrpCreate { group: 1 });
    assert_eq!(
        one("mc_node_create 0 1 2 3"),
        Command::McNodeCreate {
            rid: 0,
            ports: vec![1, 2, 3]
        }
    );
    assert_eq!(
        one("mc_node_create 7 4"),
        Command::McNodeCreate {
            rid: 7,
            ports: vec![4]
        }
    );
    assert_eq!(
        one("mc_node_update 0 5 6"),
        Command::McNodeUpdate {
            node: 0,
            ports: vec![5, 6]
        }
    );
    assert_eq!(
        one("mc_node_associate 1 0"),
        Command::McNodeAssociate { group: 1, node: 0 }
    );
    assert_eq!(
        one("MC_MGRP_CREATE 2 # group two"),
        Command::McMgrpCreate { group: 2 }
    );
}

// --- counters / registers / meters ---

#[test]
fn state_commands() {
    assert_eq!(
        one("counter_read ingress.c 3"),
        Command::CounterRead {
            name: "ingress.c".into(),
            index: 3
        }
    );
    assert_eq!(
        one("counter_write ingress.c 3 10 640"),
        Command::CounterWrite {
            name: "ingress.c".into(),
            index: 3,
            packets: 10,
            bytes: 640
        }
    );
    assert_eq!(
        one("register_read r 0"),
        Command::RegisterRead {
            name: "r".into(),
            index: 0
        }
    );
    assert_eq!(
        one("register_write MyIngress.reg 7 0xffffffffffffffffffffffffffffffffff"),
        Command::RegisterWrite {
            name: "MyIngress.reg".into(),
            index: 7,
            value: num("0xffffffffffffffffffffffffffffffffff")
        }
    );
    assert_eq!(
        one("register_reset MyIngress.reg"),
        Command::RegisterReset {
            name: "MyIngress.reg".into()
        }
    );
    assert_eq!(
        one("meter_get_rates m 2"),
        Command::MeterGetRates {
            name: "m".into(),
            index: 2
        }
    );
}

#[test]
fn meter_rates() {
    assert_eq!(
        one("meter_set_rates ingress.m 2 0.000002:3 0.00001:1"),
        Command::MeterSetRates {
            name: "ingress.m".into(),
            index: 2,
            rates: vec![
                MeterRate {
                    rate: 0.000002,
                    burst: 3
                },
                MeterRate {
                    rate: 0.00001,
                    burst: 1
                }
            ],
        }
    );
    assert_eq!(
        one("meter_array_set_rates m 1:10 2:20"),
        Command::MeterArraySetRates {
            name: "m".into(),
            rates: vec![
                MeterRate {
                    rate: 1.0,
                    burst: 10
                },
                MeterRate {
                    rate: 2.0,
                    burst: 20
                }
            ],
        }
    );
    let Command::MeterArraySetRates { rates, .. } = one("meter_array_set_rates m 0.5:10") else {
        panic!()
    };
    assert_eq!(
        rates,
        vec![MeterRate {
            rate: 0.5,
            burst: 10
        }]
    );
}

// --- file-level ---

#[test]
fn lines_columns_comments_blank_lines() {
    let stf = parse("# header\n\n   \n  wait\n\tpacket 1 00 # c\r\nexpect 1\n").unwrap();
    let pos: Vec<(usize, usize)> = stf.commands.iter().map(|c| (c.line, c.column)).collect();
    assert_eq!(pos, vec![(4, 3), (5, 2), (6, 1)]);
    assert_eq!(
        stf.observed_ports().into_iter().collect::<Vec<_>>(),
        vec![1]
    );
}

#[test]
fn empty_inputs() {
    for text in [
        "",
        "\n",
        "# only a comment",
        "\u{feff}",
        "\u{feff}# bom\n",
        "\r\n\r\n",
    ] {
        assert_eq!(parse(text).unwrap().commands.len(), 0, "{text:?}");
    }
}

#[test]
fn crlf_line_endings() {
    let stf = parse("add t f:1 a(x:2)\r\npacket 0 0102\r\nexpect 0 0102 $\r\n").unwrap();
    assert_eq!(stf.commands.len(), 3);
    let Command::Expect {
        pattern: Some(p), ..
    } = &stf.commands[2].item
    else {
        panic!()
    };
    assert!(p.exact_length);
}

#[test]
fn printing_round_trips() {
    let text = "add \"MyIngress.t x\" 3 hdr[0].f:0x0a** g:10/8 \"a.b\"(\"p q\":1, r:0b1) = \"e f\"\n\
                check_counter c(\"$x y\") packets >= 1\n\
                expect 1 0a**$\n\
                meter_set_rates m 0 0.25:10 3:7\n";
    let stf = parse(text).unwrap();
    let printed = stf.to_string();
    let again = parse(&printed).unwrap();
    let a: Vec<_> = stf.commands.iter().map(|c| &c.item).collect();
    let b: Vec<_> = again.commands.iter().map(|c| &c.item).collect();
    assert_eq!(a, b, "{printed}");
    assert!(printed.contains(
        "add \"MyIngress.t x\" 3 hdr[0].f:0x0a** g:10/8 a.b(\"p q\":1, r:0b1) = \"e f\""
    ));
}
