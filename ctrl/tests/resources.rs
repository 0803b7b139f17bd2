//! Meters and direct meters, action profiles and selectors (members,
//! groups, indirect table entries), parser value sets and digests, on a
//! small v1model program written here. Every wait is bounded by a timeout.

mod common;

use common::*;
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use p4::entity::Entity as E;
use p4::field_match::FieldMatchType as F;
use p4::update::Type::{Delete, Insert, Modify};
use std::time::Duration;
use tonic::Code;
use tonic::transport::Channel;

/// `route` (an action selector on the source MAC) and `plain` (an action
/// profile) forward; a packet meter per ingress port writes its colour into
/// the last byte of the source MAC, the direct meter of `policed` into the
/// byte before; an EtherType in the value set `special_types` sends a
/// `learn_t` digest (source MAC, ingress port).
const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { ethernet_t eth; }
struct meta_t { bit<1> special; bit<32> color; bit<32> dcolor; }
struct learn_t { bit<48> src; bit<9> port; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) special_types;
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) { special_types: special; default: accept; }
    }
    state special { m.special = 1; transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    meter(4, MeterType.packets) port_meter;
    direct_meter<bit<32>>(MeterType.packets) dst_meter;
    action to_port(bit<9> port) { sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }
    action metered() { dst_meter.read(m.dcolor); }
    table route {
        key = { hdr.eth.dst: exact; hdr.eth.src: selector; }
        actions = { to_port; drop; }
        implementation = action_selector(HashAlgorithm.crc16, 32w16, 32w16);
    }
    table plain {
        key = { hdr.eth.etype: exact; }
        actions = { to_port; drop; }
        implementation = action_profile(32w8);
    }
    table policed {
        key = { hdr.eth.dst: exact; }
        actions = { metered; NoAction; }
        meters = dst_meter;
        default_action = NoAction();
    }
    apply {
        if (m.special == 1) {
            digest<learn_t>(1, { hdr.eth.src, sm.ingress_port });
        }
        port_meter.execute_meter((bit<32>) sm.ingress_port, m.color);
        route.apply();
        plain.apply();
        policed.apply();
        hdr.eth.src[7:0] = (bit<8>) m.color;
        hdr.eth.src[15:8] = (bit<8>) m.dcolor;
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

fn config() -> p4::ForwardingPipelineConfig {
    pipeline_config("resources_test.p4", PROGRAM.to_string(), None)
}

/// The id of the P4Info object (of any kind) named `name`.
fn id_of(info: &cfg::P4Info, name: &str) -> u32 {
    let pre = info
        .tables
        .iter()
        .map(|t| &t.preamble)
        .chain(info.actions.iter().map(|a| &a.preamble))
        .chain(info.action_profiles.iter().map(|a| &a.preamble))
        .chain(info.meters.iter().map(|m| &m.preamble))
        .chain(info.direct_meters.iter().map(|m| &m.preamble))
        .chain(info.value_sets.iter().map(|v| &v.preamble))
        .chain(info.digests.iter().map(|d| &d.preamble))
        .flatten()
        .find(|p| p.name == name);
    pre.unwrap_or_else(|| panic!("no {name} in the P4Info")).id
}

/// A frame to 00:..:`dst` from 02:00:00:00:`src`:00 with EtherType `etype`.
fn frame(dst: u8, src: u8, etype: u16) -> Vec<u8> {
    let mut f = vec![0, 0, 0, 0, 0, dst, 2, 0, 0, 0, src, 0];
    f.extend_from_slice(&etype.to_be_bytes());
    f.extend_from_slice(b"janus payload");
    f
}

async fn read_one(c: &mut P4RuntimeClient<Channel>, e: E) -> Result<Vec<E>, tonic::Status> {
    Ok(read_entities(c, vec![entity(e)])
        .await?
        .into_iter()
        .filter_map(|e| e.entity)
        .collect())
}

fn exact(v: &[u8]) -> p4::FieldMatch {
    p4::FieldMatch {
        field_id: 1,
        field_match_type: Some(F::Exact(p4::field_match::Exact { value: v.to_vec() })),
    }
}

/// An entry of a table keyed on one exact field.
fn entry(table: u32, key: &[u8], action: Option<p4::TableAction>) -> p4::TableEntry {
    p4::TableEntry {
        table_id: table,
        r#match: vec![exact(key)],
        action,
        ..Default::default()
    }
}

fn to_member(id: u32) -> Option<p4::TableAction> {
    Some(p4::TableAction {
        r#type: Some(p4::table_action::Type::ActionProfileMemberId(id)),
    })
}

fn to_group(id: u32) -> Option<p4::TableAction> {
    Some(p4::TableAction {
        r#type: Some(p4::table_action::Type::ActionProfileGroupId(id)),
    })
}

fn member(info: &cfg::P4Info, profile: &str, id: u32, port: u8) -> E {
    E::ActionProfileMember(p4::ActionProfileMember {
        action_profile_id: id_of(info, profile),
        member_id: id,
        action: Some(p4::Action {
            action_id: id_of(info, "I.to_port"),
            params: vec![p4::action::Param {
                param_id: 1,
                value: vec![port],
            }],
        }),
    })
}

fn group(info: &cfg::P4Info, id: u32, members: &[(u32, i32)]) -> E {
    E::ActionProfileGroup(p4::ActionProfileGroup {
        action_profile_id: id_of(info, "action_selector"),
        group_id: id,
        members: members
            .iter()
            .map(|&(member_id, weight)| p4::action_profile_group::Member {
                member_id,
                weight,
                watch_kind: None,
            })
            .collect(),
        max_size: 0,
    })
}

fn meter_config(cir: i64, cburst: i64, pir: i64, pburst: i64) -> Option<p4::MeterConfig> {
    Some(p4::MeterConfig {
        cir,
        cburst,
        pir,
        pburst,
        eburst: 0,
    })
}

/// The meter colours a frame from `port` came out with: (port meter,
/// direct meter), and the port it left by.
fn colours(s: &Server, port: u32, f: &[u8]) -> Vec<(u32, u8, u8)> {
    s.switch
        .inject(port, f)
        .expect("a pipeline")
        .into_iter()
        .map(|(p, out)| (p, out[11], out[10]))
        .collect()
}

/// Routes frames to 00:..:0a out of port 2 through member 1.
async fn route_to_port_2(c: &mut P4RuntimeClient<Channel>, info: &cfg::P4Info) {
    let route = id_of(info, "I.route");
    write(
        c,
        10,
        vec![
            upd(Insert, member(info, "action_selector", 1, 2)),
            update(Insert, entry(route, &[0x0a], to_member(1))),
        ],
    )
    .await
    .expect("route set up");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn meters_and_direct_meters() {
    let s = start().await;
    let cfg = config();
    let info = cfg.p4info.clone().unwrap();
    let meter = info.meters.first().expect("a meter in the P4Info");
    assert_eq!(meter.size, 4);
    assert_eq!(
        meter.spec.as_ref().unwrap().unit,
        cfg::meter_spec::Unit::Packets as i32
    );
    let dm = info.direct_meters.first().expect("a direct meter");
    assert_eq!(dm.direct_table_id, id_of(&info, "I.policed"));
    let (mut c, _stream) = primary_with(&s, 10, cfg.clone()).await;
    route_to_port_2(&mut c, &info).await;
    let port_meter = id_of(&info, "I.port_meter");
    let cell = |index: i64, config: Option<p4::MeterConfig>| {
        E::MeterEntry(p4::MeterEntry {
            meter_id: port_meter,
            index: Some(p4::Index { index }),
            config,
            counter_data: None,
        })
    };

    // Unconfigured: every packet GREEN (0).
    let f = frame(0x0a, 1, 0x0800);
    for _ in 0..3 {
        assert_eq!(colours(&s, 1, &f), vec![(2, 0, 0)]);
    }
    // One packet per second, bursts of 1 (committed) and 2 (peak): GREEN,
    // YELLOW (1), then RED (2).
    write(
        &mut c,
        10,
        vec![upd(Modify, cell(1, meter_config(1, 1, 1, 2)))],
    )
    .await
    .unwrap();
    let seen: Vec<u8> = (0..3).map(|_| colours(&s, 1, &f)[0].1).collect();
    assert_eq!(seen, vec![0, 1, 2]);
    // Port 2's cell is not configured.
    assert_eq!(colours(&s, 2, &f), vec![(2, 0, 0)]);

    // Read back as written; other cells without a config.
    let got = read_one(&mut c, cell(1, None)).await.unwrap();
    assert_eq!(got, vec![cell(1, meter_config(1, 1, 1, 2))]);
    assert_eq!(
        read_one(&mut c, cell(0, None)).await.unwrap(),
        vec![cell(0, None)]
    );
    let all = read_one(
        &mut c,
        E::MeterEntry(p4::MeterEntry {
            meter_id: port_meter,
            ..Default::default()
        }),
    )
    .await
    .unwrap();
    assert_eq!(all.len(), 4);
    assert_eq!(all[1], cell(1, meter_config(1, 1, 1, 2)));
    let every = read_one(&mut c, E::MeterEntry(p4::MeterEntry::default()))
        .await
        .unwrap();
    assert_eq!(every, all);

    // Every cell at once; then one cell reset (no config): GREEN again.
    write(
        &mut c,
        10,
        vec![upd(
            Modify,
            E::MeterEntry(p4::MeterEntry {
                meter_id: port_meter,
                index: None,
                config: meter_config(5, 1, 10, 1),
                counter_data: None,
            }),
        )],
    )
    .await
    .unwrap();
    let got = read_one(&mut c, cell(3, None)).await.unwrap();
    assert_eq!(got, vec![cell(3, meter_config(5, 1, 10, 1))]);
    assert_eq!(colours(&s, 2, &f)[0].1, 0);
    assert_eq!(colours(&s, 2, &f)[0].1, 2);
    write(&mut c, 10, vec![upd(Modify, cell(2, None))])
        .await
        .unwrap();
    for _ in 0..3 {
        assert_eq!(colours(&s, 2, &f)[0].1, 0);
    }
    assert_eq!(
        read_one(&mut c, cell(2, None)).await.unwrap(),
        vec![cell(2, None)]
    );

    // Bad meter writes, each with its code.
    let mut eburst = meter_config(1, 1, 1, 1);
    eburst.as_mut().unwrap().eburst = 3;
    let bad = vec![
        upd(Insert, cell(1, meter_config(1, 1, 1, 1))),
        upd(
            Modify,
            E::MeterEntry(p4::MeterEntry {
                meter_id: 12345,
                ..Default::default()
            }),
        ),
        upd(Modify, cell(4, meter_config(1, 1, 1, 1))),
        upd(Modify, cell(1, meter_config(10, 1, 5, 1))),
        upd(Modify, cell(1, eburst)),
        upd(Modify, cell(1, meter_config(-1, 1, 1, 1))),
        upd(Modify, cell(-1, meter_config(1, 1, 1, 1))),
    ];
    let e = write(&mut c, 10, bad).await.unwrap_err();
    let codes: Vec<Code> = update_codes(&e).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        codes,
        vec![
            Code::InvalidArgument,
            Code::NotFound,
            Code::OutOfRange,
            Code::InvalidArgument,
            Code::InvalidArgument,
            Code::InvalidArgument,
            Code::InvalidArgument,
        ]
    );

    // Direct meter: an entry of `policed`, its cell configured.
    let policed = id_of(&info, "I.policed");
    let metered = action(id_of(&info, "I.metered"), &[]);
    let pe = entry(policed, &[0x0a], metered.clone());
    write(&mut c, 10, vec![update(Insert, pe.clone())])
        .await
        .unwrap();
    let dcell = |config| {
        E::DirectMeterEntry(p4::DirectMeterEntry {
            table_entry: Some(pe.clone()),
            config,
            counter_data: None,
        })
    };
    assert_eq!(colours(&s, 3, &f), vec![(2, 0, 0)]);
    write(
        &mut c,
        10,
        vec![upd(Modify, dcell(meter_config(1, 1, 1, 1)))],
    )
    .await
    .unwrap();
    let seen: Vec<u8> = (0..2).map(|_| colours(&s, 3, &f)[0].2).collect();
    assert_eq!(seen, vec![0, 2]);
    // Read back: by key, the table's, every table's, and with the entry.
    let want = E::DirectMeterEntry(p4::DirectMeterEntry {
        table_entry: Some(pe.clone()),
        config: meter_config(1, 1, 1, 1),
        counter_data: None,
    });
    assert_eq!(
        read_one(&mut c, dcell(None)).await.unwrap(),
        vec![want.clone()]
    );
    let whole = E::DirectMeterEntry(p4::DirectMeterEntry {
        table_entry: Some(p4::TableEntry {
            table_id: policed,
            ..Default::default()
        }),
        ..Default::default()
    });
    assert_eq!(read_one(&mut c, whole).await.unwrap(), vec![want.clone()]);
    let every = E::DirectMeterEntry(p4::DirectMeterEntry::default());
    assert_eq!(read_one(&mut c, every).await.unwrap(), vec![want]);
    let with_config = E::TableEntry(p4::TableEntry {
        table_id: policed,
        meter_config: Some(p4::MeterConfig::default()),
        ..Default::default()
    });
    let got = read_one(&mut c, with_config.clone()).await.unwrap();
    let mut pe_config = pe.clone();
    pe_config.meter_config = meter_config(1, 1, 1, 1);
    assert_eq!(got, vec![E::TableEntry(pe_config)]);

    // A missing entry, a table without a direct meter, an INSERT.
    let missing = E::DirectMeterEntry(p4::DirectMeterEntry {
        table_entry: Some(entry(policed, &[0x0b], None)),
        config: meter_config(1, 1, 1, 1),
        counter_data: None,
    });
    let no_meter = E::DirectMeterEntry(p4::DirectMeterEntry {
        table_entry: Some(entry(id_of(&info, "I.plain"), &[8, 0], None)),
        config: meter_config(1, 1, 1, 1),
        counter_data: None,
    });
    let e = write(
        &mut c,
        10,
        vec![
            upd(Modify, missing),
            upd(Modify, no_meter),
            upd(Insert, dcell(meter_config(1, 1, 1, 1))),
        ],
    )
    .await
    .unwrap_err();
    let codes: Vec<Code> = update_codes(&e).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        codes,
        vec![Code::NotFound, Code::InvalidArgument, Code::InvalidArgument]
    );

    // Deleting the entry resets its cell: inserted again, it is GREEN and
    // unconfigured. An entry inserted with a meter_config gets it.
    write(&mut c, 10, vec![update(Delete, pe.clone())])
        .await
        .unwrap();
    write(&mut c, 10, vec![update(Insert, pe.clone())])
        .await
        .unwrap();
    for _ in 0..3 {
        assert_eq!(colours(&s, 3, &f)[0].2, 0);
    }
    assert_eq!(
        read_one(&mut c, dcell(None)).await.unwrap(),
        vec![dcell(None)]
    );
    let mut pe2 = entry(policed, &[0x0c], metered);
    pe2.meter_config = meter_config(1, 1, 1, 1);
    write(&mut c, 10, vec![update(Insert, pe2.clone())])
        .await
        .unwrap();
    let got = read_one(&mut c, with_config).await.unwrap();
    assert!(got.contains(&E::TableEntry(pe2)), "{got:?}");

    // A P4Info whose meter differs from the program's is refused.
    let mut wrong = cfg.clone();
    wrong.p4info.as_mut().unwrap().meters[0].size = 8;
    fails_with(
        set_pipeline(
            &mut c,
            10,
            wrong,
            p4::set_forwarding_pipeline_config_request::Action::Verify,
        )
        .await,
        Code::InvalidArgument,
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn action_profiles_and_selectors() {
    let s = start().await;
    let cfg = config();
    let info = cfg.p4info.clone().unwrap();
    let selector = id_of(&info, "action_selector");
    let route = id_of(&info, "I.route");
    assert_eq!(
        info.tables
            .iter()
            .find(|t| t.preamble.as_ref().unwrap().id == route)
            .unwrap()
            .implementation_id,
        selector
    );
    let sel = info
        .action_profiles
        .iter()
        .find(|a| a.preamble.as_ref().unwrap().id == selector)
        .unwrap();
    assert!(sel.with_selector);
    assert_eq!(sel.table_ids, vec![route]);
    let (mut c, _stream) = primary_with(&s, 10, cfg).await;

    // Members; an entry pointing to one.
    write(
        &mut c,
        10,
        vec![
            upd(Insert, member(&info, "action_selector", 1, 2)),
            upd(Insert, member(&info, "action_selector", 2, 3)),
            update(Insert, entry(route, &[0x0a], to_member(1))),
        ],
    )
    .await
    .unwrap();
    let out = |src: u8| -> Vec<u32> {
        s.switch
            .inject(1, &frame(0x0a, src, 0x0800))
            .unwrap()
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    };
    assert_eq!(out(1), vec![2]);
    // A member modified: the entry follows; read back canonically.
    let mut padded = member(&info, "action_selector", 1, 4);
    if let E::ActionProfileMember(m) = &mut padded {
        m.action.as_mut().unwrap().params[0].value = vec![0, 4];
    }
    write(&mut c, 10, vec![upd(Modify, padded)]).await.unwrap();
    assert_eq!(out(1), vec![4]);
    let got = read_one(
        &mut c,
        E::ActionProfileMember(p4::ActionProfileMember {
            action_profile_id: selector,
            member_id: 1,
            action: None,
        }),
    )
    .await
    .unwrap();
    assert_eq!(got, vec![member(&info, "action_selector", 1, 4)]);
    let all = read_one(&mut c, E::ActionProfileMember(Default::default()))
        .await
        .unwrap();
    assert_eq!(all.len(), 2);

    // A group of both; the entry points to it: flows spread over ports 4
    // and 3, each flow always to the same port.
    write(
        &mut c,
        10,
        vec![
            upd(Insert, group(&info, 10, &[(1, 1), (2, 1)])),
            update(Modify, entry(route, &[0x0a], to_group(10))),
        ],
    )
    .await
    .unwrap();
    let mut ports = std::collections::BTreeSet::new();
    for src in 0..32 {
        let first = out(src);
        assert_eq!(out(src), first, "flow {src} changed member");
        ports.extend(first);
    }
    assert_eq!(ports.into_iter().collect::<Vec<_>>(), vec![3, 4]);
    let got = read_one(
        &mut c,
        E::TableEntry(p4::TableEntry {
            table_id: route,
            ..Default::default()
        }),
    )
    .await
    .unwrap();
    assert_eq!(
        got,
        vec![E::TableEntry(entry(route, &[0x0a], to_group(10)))]
    );
    let got = read_one(&mut c, E::ActionProfileGroup(Default::default()))
        .await
        .unwrap();
    assert_eq!(got, vec![group(&info, 10, &[(1, 1), (2, 1)])]);

    // The group shrunk to member 2: every flow to port 3.
    write(&mut c, 10, vec![upd(Modify, group(&info, 10, &[(2, 1)]))])
        .await
        .unwrap();
    for src in 0..8 {
        assert_eq!(out(src), vec![3]);
    }

    // Bad updates, each with its code.
    let plain = id_of(&info, "I.plain");
    let mut wrong_action = member(&info, "action_selector", 5, 1);
    if let E::ActionProfileMember(m) = &mut wrong_action {
        m.action.as_mut().unwrap().action_id = id_of(&info, "I.metered");
        m.action.as_mut().unwrap().params.clear();
    }
    let mut plain_group = group(&info, 11, &[]);
    if let E::ActionProfileGroup(g) = &mut plain_group {
        g.action_profile_id = id_of(&info, "action_profile");
    }
    let bad = vec![
        upd(Insert, member(&info, "action_selector", 1, 9)),
        upd(Insert, group(&info, 12, &[(1, -1)])),
        upd(Insert, group(&info, 12, &[(1, 0)])),
        upd(Insert, group(&info, 12, &[(7, 1)])),
        upd(Insert, group(&info, 12, &[(1, 1), (1, 1)])),
        upd(Delete, member(&info, "action_selector", 2, 3)),
        upd(Delete, group(&info, 10, &[])),
        update(
            Insert,
            entry(route, &[0x0b], action(id_of(&info, "I.to_port"), &[&[1]])),
        ),
        update(Insert, entry(route, &[0x0b], to_member(99))),
        update(Insert, entry(route, &[0x0b], to_group(99))),
        upd(Insert, wrong_action),
        upd(Insert, plain_group),
        upd(Modify, member(&info, "action_selector", 42, 1)),
        update(Insert, entry(plain, &[8, 0], to_member(1))),
    ];
    let e = write(&mut c, 10, bad).await.unwrap_err();
    let codes: Vec<Code> = update_codes(&e).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        codes,
        vec![
            Code::AlreadyExists,
            Code::InvalidArgument,
            Code::InvalidArgument,
            Code::NotFound,
            Code::InvalidArgument,
            Code::FailedPrecondition,
            Code::FailedPrecondition,
            Code::InvalidArgument,
            Code::NotFound,
            Code::NotFound,
            Code::InvalidArgument,
            Code::InvalidArgument,
            Code::NotFound,
            Code::NotFound,
        ]
    );

    // An action profile without a selector: members only.
    write(
        &mut c,
        10,
        vec![
            upd(Insert, member(&info, "action_profile", 1, 6)),
            update(Insert, entry(plain, &[0x86, 0xdd], to_member(1))),
        ],
    )
    .await
    .unwrap();
    let routed: Vec<u32> = s
        .switch
        .inject(1, &frame(0x0b, 1, 0x86dd))
        .unwrap()
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    assert_eq!(routed, vec![6]);

    // Torn down in order: entry, group, members.
    write(
        &mut c,
        10,
        vec![
            update(Delete, entry(route, &[0x0a], None)),
            upd(Delete, group(&info, 10, &[])),
            upd(Delete, member(&info, "action_selector", 1, 0)),
            upd(Delete, member(&info, "action_selector", 2, 0)),
        ],
    )
    .await
    .unwrap();
    let left = read_one(
        &mut c,
        E::ActionProfileMember(p4::ActionProfileMember {
            action_profile_id: selector,
            ..Default::default()
        }),
    )
    .await
    .unwrap();
    assert!(left.is_empty(), "{left:?}");
    assert!(
        read_one(&mut c, E::ActionProfileGroup(Default::default()))
            .await
            .unwrap()
            .is_empty()
    );
}

/// The next message of the stream that is not an arbitration answer, or
/// `None` if none comes within `wait`.
async fn next_message(
    s: &mut Stream,
    wait: Duration,
) -> Option<p4::stream_message_response::Update> {
    loop {
        let msg = match tokio::time::timeout(wait, s.rx.message()).await {
            Err(_) => return None,
            Ok(m) => m.expect("the stream is open").expect("a message"),
        };
        match msg.update {
            Some(p4::stream_message_response::Update::Arbitration(_)) => continue,
            other => return other,
        }
    }
}

async fn next_digest(s: &mut Stream) -> p4::DigestList {
    match next_message(s, LIMIT).await {
        Some(p4::stream_message_response::Update::Digest(d)) => d,
        other => panic!("not a digest list: {other:?}"),
    }
}

async fn no_message(s: &mut Stream) {
    let got = next_message(s, Duration::from_millis(300)).await;
    assert!(got.is_none(), "unexpected: {got:?}");
}

fn bitstrings(d: &p4::DigestList) -> Vec<Vec<u8>> {
    assert_eq!(d.data.len(), 1);
    match &d.data[0].data {
        Some(p4::p4_data::Data::Struct(s)) => s
            .members
            .iter()
            .map(|m| match &m.data {
                Some(p4::p4_data::Data::Bitstring(b)) => b.clone(),
                other => panic!("not a bitstring: {other:?}"),
            })
            .collect(),
        other => panic!("not a struct: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn value_sets_and_digests() {
    let s = start().await;
    let cfg = config();
    let info = cfg.p4info.clone().unwrap();
    let digest = id_of(&info, "learn_t");
    let vs = id_of(&info, "P.special_types");
    let (mut c, mut primary) = primary_with(&s, 10, cfg).await;
    route_to_port_2(&mut c, &info).await;
    let config = |ack_ns| {
        Some(p4::digest_entry::Config {
            max_timeout_ns: 0,
            max_list_size: 1,
            ack_timeout_ns: ack_ns,
        })
    };
    let dentry = |config| {
        E::DigestEntry(p4::DigestEntry {
            digest_id: digest,
            config,
        })
    };
    write(&mut c, 10, vec![upd(Insert, dentry(config(0)))])
        .await
        .unwrap();
    assert_eq!(
        read_one(&mut c, E::DigestEntry(Default::default()))
            .await
            .unwrap(),
        vec![dentry(config(0))]
    );

    // The value set is empty: no digest.
    s.switch.inject(1, &frame(0x0a, 1, 0x88b5)).unwrap();
    no_message(&mut primary).await;

    // Members: one exact, one ternary; read back canonically.
    let ternary = p4::FieldMatch {
        field_id: 1,
        field_match_type: Some(F::Ternary(p4::field_match::Ternary {
            value: vec![0x90, 0x00],
            mask: vec![0xff, 0x00],
        })),
    };
    let members = vec![
        p4::ValueSetMember {
            r#match: vec![exact(&[0, 0x88, 0xb5])],
        },
        p4::ValueSetMember {
            r#match: vec![ternary.clone()],
        },
    ];
    let vset = |members| {
        E::ValueSetEntry(p4::ValueSetEntry {
            value_set_id: vs,
            members,
        })
    };
    write(&mut c, 10, vec![upd(Modify, vset(members))])
        .await
        .unwrap();
    let got = read_one(&mut c, vset(Vec::new())).await.unwrap();
    assert_eq!(
        got,
        vec![vset(vec![
            p4::ValueSetMember {
                r#match: vec![exact(&[0x88, 0xb5])],
            },
            p4::ValueSetMember {
                r#match: vec![ternary],
            },
        ])]
    );

    // A special EtherType sends a digest: (source MAC, ingress port).
    s.switch.inject(1, &frame(0x0a, 7, 0x88b5)).unwrap();
    let d = next_digest(&mut primary).await;
    assert_eq!(d.digest_id, digest);
    assert_eq!(bitstrings(&d), vec![vec![2, 0, 0, 0, 7, 0], vec![1]]);
    s.switch.inject(3, &frame(0x0a, 8, 0x9012)).unwrap();
    let d2 = next_digest(&mut primary).await;
    assert_eq!(bitstrings(&d2), vec![vec![2, 0, 0, 0, 8, 0], vec![3]]);
    assert_ne!(d.list_id, d2.list_id);
    s.switch.inject(3, &frame(0x0a, 8, 0x0800)).unwrap();
    no_message(&mut primary).await;

    // With an ack timeout, the same data is not sent again until acked.
    write(
        &mut c,
        10,
        vec![upd(Modify, dentry(config(60_000_000_000)))],
    )
    .await
    .unwrap();
    s.switch.inject(1, &frame(0x0a, 9, 0x88b5)).unwrap();
    let d = next_digest(&mut primary).await;
    s.switch.inject(1, &frame(0x0a, 9, 0x88b5)).unwrap();
    no_message(&mut primary).await;
    let ack = p4::StreamMessageRequest {
        update: Some(p4::stream_message_request::Update::DigestAck(
            p4::DigestListAck {
                digest_id: digest,
                list_id: d.list_id,
            },
        )),
    };
    within(primary.tx.send(ack)).await.unwrap();
    // The ack travels on the stream; give the server a moment.
    let mut again = None;
    for _ in 0..50 {
        s.switch.inject(1, &frame(0x0a, 9, 0x88b5)).unwrap();
        if let Some(u) = next_message(&mut primary, Duration::from_millis(100)).await {
            again = Some(u);
            break;
        }
    }
    match again {
        Some(p4::stream_message_response::Update::Digest(d)) => {
            assert_eq!(bitstrings(&d)[0], vec![2, 0, 0, 0, 9, 0]);
        }
        other => panic!("no digest after the ack: {other:?}"),
    }

    // Bad updates.
    let too_many = (0..5u8)
        .map(|i| p4::ValueSetMember {
            r#match: vec![exact(&[0x10, i])],
        })
        .collect();
    let bad = vec![
        upd(Insert, dentry(config(0))),
        upd(
            Modify,
            E::DigestEntry(p4::DigestEntry {
                digest_id: 4242,
                config: config(0),
            }),
        ),
        upd(Modify, dentry(None)),
        upd(Insert, vset(Vec::new())),
        upd(
            Modify,
            vset(vec![p4::ValueSetMember {
                r#match: vec![p4::FieldMatch {
                    field_id: 2,
                    ..exact(&[1])
                }],
            }]),
        ),
        upd(Modify, vset(vec![p4::ValueSetMember { r#match: vec![] }])),
        upd(Modify, vset(too_many)),
        upd(
            Modify,
            vset(vec![p4::ValueSetMember {
                r#match: vec![exact(&[1, 0, 0])],
            }]),
        ),
    ];
    let e = write(&mut c, 10, bad).await.unwrap_err();
    let codes: Vec<Code> = update_codes(&e).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        codes,
        vec![
            Code::AlreadyExists,
            Code::NotFound,
            Code::InvalidArgument,
            Code::InvalidArgument,
            Code::InvalidArgument,
            Code::InvalidArgument,
            Code::ResourceExhausted,
            Code::OutOfRange,
        ]
    );
    // The failed value set writes left the members as they were.
    assert_eq!(read_one(&mut c, vset(Vec::new())).await.unwrap().len(), 1);

    // Emptied value set: no digest; digest deleted: none either.
    write(&mut c, 10, vec![upd(Modify, vset(Vec::new()))])
        .await
        .unwrap();
    s.switch.inject(1, &frame(0x0a, 5, 0x88b5)).unwrap();
    no_message(&mut primary).await;
    write(
        &mut c,
        10,
        vec![
            upd(
                Modify,
                vset(vec![p4::ValueSetMember {
                    r#match: vec![exact(&[0x88, 0xb5])],
                }]),
            ),
            upd(Delete, dentry(None)),
        ],
    )
    .await
    .unwrap();
    s.switch.inject(1, &frame(0x0a, 6, 0x88b5)).unwrap();
    no_message(&mut primary).await;
    assert!(
        read_one(&mut c, E::DigestEntry(Default::default()))
            .await
            .unwrap()
            .is_empty()
    );
}
