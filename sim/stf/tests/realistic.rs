//! A realistic multi-command STF file (written for these tests).

use janus_stf::*;

const FILE: &str = include_str!("data/l3_switch.stf");

fn stf() -> Stf {
    parse(FILE).unwrap_or_else(|errors| {
        let all: Vec<String> = errors.iter().map(ToString::to_string).collect();
        panic!("{}", all.join("\n"))
    })
}

/// table, priority, keys, action, id
type Add<'a> = (
    &'a str,
    Option<u64>,
    &'a [KeyMatch],
    &'a ActionCall,
    Option<&'a str>,
);

fn adds(stf: &Stf) -> Vec<Add<'_>> {
    stf.commands
        .iter()
        .filter_map(|c| match &c.item {
            Command::Add {
                table,
                priority,
                keys,
                action,
                id,
            } => Some((
                table.as_str(),
                *priority,
                keys.as_slice(),
                action,
                id.as_deref(),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn parses_every_command_in_order() {
    let stf = stf();
    let kws: Vec<&str> = stf.commands.iter().map(|c| c.item.keyword()).collect();
    let count = |k: &str| kws.iter().filter(|x| **x == k).count();
    assert_eq!(stf.commands.len(), 43);
    assert_eq!(count("setdefault"), 3);
    assert_eq!(count("add"), 11);
    assert_eq!(count("packet"), 3);
    assert_eq!(count("expect"), 7);
    assert_eq!(count("check_counter"), 3);
    assert_eq!(kws.first(), Some(&"setdefault"));
    assert_eq!(kws.last(), Some(&"remove"));
    // Lines are the file's lines.
    let first = &stf.commands[0];
    assert_eq!((first.line, first.column), (5, 1));
    assert_eq!(
        stf.observed_ports().into_iter().collect::<Vec<_>>(),
        vec![0, 1, 2, 3, 4, 7]
    );
}

#[test]
fn l2_entries() {
    let stf = stf();
    let a = adds(&stf);
    let (table, prio, keys, action, id) = a[0];
    assert_eq!((table, prio, id), ("MyIngress.dmac", None, Some("host1")));
    assert_eq!(keys[0].field, "hdr.ethernet.dstAddr");
    assert_eq!(keys[0].value.exact(48).unwrap(), vec![0, 0, 0, 0, 0, 1]);
    assert_eq!(action.name, "forward");
    assert_eq!(action.args[0].value.to_u64().unwrap(), 1);
    let (_, _, _, action, _) = a[2];
    assert_eq!(
        (
            action.args[0].name.as_str(),
            action.args[0].value.to_u64().unwrap()
        ),
        ("port", 3)
    );
}

#[test]
fn l3_prefixes() {
    let stf = stf();
    let a = adds(&stf);
    let lpm = |i: usize, width| a[i].2[0].value.lpm(width).unwrap();
    assert_eq!(
        lpm(3, 32),
        Lpm {
            value: vec![10, 0, 0, 0],
            prefix_len: 8
        }
    );
    assert_eq!(
        lpm(4, 32),
        Lpm {
            value: vec![10, 1, 0, 0],
            prefix_len: 24
        }
    );
    assert_eq!(
        lpm(5, 32),
        Lpm {
            value: vec![192, 168, 0, 0],
            prefix_len: 16
        }
    );
    let v6 = lpm(6, 128);
    assert_eq!(v6.prefix_len, 32);
    assert_eq!(v6.value[..4], [0x20, 0x01, 0x0d, 0xb8]);
    assert!(v6.value[4..].iter().all(|b| *b == 0));
    // Parameters in any order.
    let names: Vec<&str> = a[4].3.args.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["port", "nhop_ipv4"]);
    assert_eq!(
        a[5].3.args[0].value.to_be_bytes(32).unwrap(),
        vec![192, 168, 0, 1]
    );
}

#[test]
fn acl_entries() {
    let stf = stf();
    let a = adds(&stf);
    let (table, prio, keys, action, _) = a[7];
    assert_eq!(
        (table, prio, action.name.as_str()),
        ("acl", Some(100), "deny")
    );
    let src = keys[0].value.ternary(32).unwrap();
    assert_eq!(
        (src.value, src.mask),
        (vec![10, 0, 0, 0], vec![0xff, 0, 0, 0])
    );
    let port = keys[1].value.ternary(16).unwrap();
    assert_eq!((port.value, port.mask), (vec![0, 22], vec![0xff, 0xff]));
    let (_, prio, keys, _, _) = a[8];
    assert_eq!(prio, Some(10));
    assert_eq!(keys[0].value.ternary(32).unwrap().mask, vec![0, 0, 0, 0]);
    let flags = keys[1].value.ternary(8).unwrap();
    assert_eq!((flags.value, flags.mask), (vec![0b1000], vec![0b1010]));
    let (_, _, keys, _, _) = a[9];
    let fields: Vec<&str> = keys.iter().map(|k| k.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "$valid$",
            "vlan[0].vid",
            "hdr.vlan$1.vid",
            "hdr.mpls$1.label"
        ]
    );
    let (table, prio, keys, action, _) = a[10];
    assert_eq!(
        (table, prio, keys[0].field.as_str(), action.name.as_str()),
        ("MyIngress.acl", Some(1), "hdr.ipv4.protocol", "permit")
    );
}

#[test]
fn replication_state_and_checks() {
    let stf = stf();
    let items: Vec<&Command> = stf.commands.iter().map(|c| &c.item).collect();
    assert!(items.contains(&&Command::McNodeCreate {
        rid: 0,
        ports: vec![1, 2, 3]
    }));
    assert!(items.contains(&&Command::MirroringAddMc {
        session: 6,
        group: 1
    }));
    assert!(items.contains(&&Command::MeterArraySetRates {
        name: "MyIngress.rate_limit".into(),
        rates: vec![
            MeterRate {
                rate: 0.0001,
                burst: 10
            },
            MeterRate {
                rate: 0.001,
                burst: 20
            }
        ],
    }));
    assert!(items.contains(&&Command::CheckCounter {
        name: "MyIngress.dmac_hits".into(),
        index: CounterIndex::Name("$host1".into()),
        check: Some(CounterCheck {
            kind: CounterKind::Bytes,
            op: CmpOp::Ge,
            value: 34
        }),
    }));
}

#[test]
fn traffic_and_patterns() {
    let stf = stf();
    let packets: Vec<(u32, &Vec<u8>)> = stf
        .commands
        .iter()
        .filter_map(|c| match &c.item {
            Command::Packet { port, data } => Some((*port, data)),
            _ => None,
        })
        .collect();
    assert_eq!(packets[0].0, 0);
    assert_eq!(packets[0].1.len(), 34);
    let expects: Vec<(u32, Option<&Pattern>)> = stf
        .commands
        .iter()
        .filter_map(|c| match &c.item {
            Command::Expect { port, pattern } => Some((*port, pattern.as_ref())),
            _ => None,
        })
        .collect();
    // The first frame is expected back unchanged, exactly.
    let p0 = expects[0].1.unwrap();
    assert!(p0.exact_length);
    assert!(p0.matches(packets[0].1));
    let mut longer = packets[0].1.clone();
    longer.push(0);
    assert!(!p0.matches(&longer));
    // The routed frame: prefix match with wildcards; a TTL change is fine.
    let p1 = expects[1].1.unwrap();
    let mut routed = packets[1].1.clone();
    routed[22] = 0x3f;
    assert!(p1.matches(&routed));
    routed[23] = 0x11; // protocol differs
    assert!(!p1.matches(&routed));
    // `expect 4` alone: any frame.
    assert_eq!(expects[5], (4, None));
    assert!(expects[6].1.unwrap().matches(&[0xff; 6]));
}

#[test]
fn prints_and_reparses_identically() {
    let stf = stf();
    let again = parse(&stf.to_string()).unwrap();
    let a: Vec<&Command> = stf.commands.iter().map(|c| &c.item).collect();
    let b: Vec<&Command> = again.commands.iter().map(|c| &c.item).collect();
    assert_eq!(a, b);
}
