//! What controllers push: a P4Info for the program with ids of its own
//! (as p4c's may have), checked by names and shapes and then used with its
//! ids for every Write, Read, counter, PacketOut and PacketIn, and across a
//! restart from the state directory; hostile P4Infos refused with
//! INVALID_ARGUMENT, the running pipeline untouched; PI's P4DeviceConfig
//! wrapper accepted; bmv2 JSON refused with a message saying what to push.
//! Every wait is bounded by a timeout.

mod common;

use common::*;
use janus_ctrl::journal::StateConfig;
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use p4::entity::Entity as E;
use p4::field_match::FieldMatchType as F;
use p4::set_forwarding_pipeline_config_request::Action;
use p4::update::Type::Insert;
use prost::Message;
use std::collections::HashMap;
use tonic::Code;
use tonic::transport::Channel;

/// `route` (LPM on the destination MAC, exact on the EtherType, with a
/// direct counter) rewrites the destination and picks the port, or punts
/// to the CPU with a reason; `by_src` (an action profile) and `acl` run
/// for EtherType 0x0101. Packets from the CPU port carry `packet_out`;
/// every other packet is counted per port, metered, remembered in a
/// register; EtherType 0x88b5 sends a digest, the value set matches
/// EtherTypes in the parser.
const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>

@controller_header("packet_in")
header packet_in_t { bit<9> ingress_port; bit<7> _pad; bit<8> reason; }
@controller_header("packet_out")
header packet_out_t { bit<9> egress_port; bit<7> _pad; }
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { packet_in_t packet_in; packet_out_t packet_out; ethernet_t eth; }
struct meta_t { bit<32> color; bit<1> special; }
struct learn_t { bit<48> src; bit<9> port; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) special_types;
    state start {
        transition select(sm.ingress_port) { 510: parse_out; default: parse_eth; }
    }
    state parse_out { pkt.extract(hdr.packet_out); transition parse_eth; }
    state parse_eth {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) { special_types: special; default: accept; }
    }
    state special { m.special = 1; transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    counter(8, CounterType.packets_and_bytes) port_in;
    register<bit<32>>(16) seen;
    meter(4, MeterType.packets) port_meter;
    direct_counter(CounterType.packets_and_bytes) route_hits;
    action set_nhop(bit<48> dmac, bit<9> port) { hdr.eth.dst = dmac; sm.egress_spec = port; }
    action punt(bit<8> reason) {
        sm.egress_spec = 510;
        hdr.packet_in.setValid();
        hdr.packet_in.ingress_port = sm.ingress_port;
        hdr.packet_in._pad = 0;
        hdr.packet_in.reason = reason;
    }
    action to_port(bit<9> port) { sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }
    table route {
        key = { hdr.eth.dst: lpm; hdr.eth.etype: exact; }
        actions = { set_nhop; punt; drop; }
        default_action = drop();
        counters = route_hits;
        size = 128;
    }
    table by_src {
        key = { hdr.eth.src: exact; }
        actions = { to_port; drop; }
        implementation = action_profile(32w8);
    }
    table acl {
        key = { hdr.eth.src: ternary; }
        actions = { drop; NoAction; }
        default_action = NoAction();
    }
    apply {
        if (hdr.packet_out.isValid()) {
            sm.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
        } else {
            port_in.count((bit<32>) sm.ingress_port);
            port_meter.execute_meter((bit<32>) sm.ingress_port, m.color);
            bit<32> n;
            seen.read(n, (bit<32>) sm.ingress_port);
            seen.write((bit<32>) sm.ingress_port, n + 1);
            if (hdr.eth.etype == 0x88b5) {
                digest<learn_t>(1, { hdr.eth.src, sm.ingress_port });
            }
            if (hdr.eth.etype == 0x0101) {
                by_src.apply();
                acl.apply();
            } else {
                route.apply();
            }
        }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.packet_in); pkt.emit(hdr.eth); }
}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

/// The program's pipeline file with the program's own P4Info.
fn config() -> p4::ForwardingPipelineConfig {
    pipeline_config("push_p4info.p4", PROGRAM.to_string(), Some(5))
}

/// Every preamble of `info`, mutable, with its kind's prefix.
fn preambles(info: &mut cfg::P4Info) -> Vec<&mut cfg::Preamble> {
    let mut out: Vec<&mut cfg::Preamble> = Vec::new();
    out.extend(info.tables.iter_mut().filter_map(|x| x.preamble.as_mut()));
    out.extend(info.actions.iter_mut().filter_map(|x| x.preamble.as_mut()));
    out.extend(
        info.action_profiles
            .iter_mut()
            .filter_map(|x| x.preamble.as_mut()),
    );
    out.extend(info.counters.iter_mut().filter_map(|x| x.preamble.as_mut()));
    out.extend(
        info.direct_counters
            .iter_mut()
            .filter_map(|x| x.preamble.as_mut()),
    );
    out.extend(info.meters.iter_mut().filter_map(|x| x.preamble.as_mut()));
    out.extend(
        info.direct_meters
            .iter_mut()
            .filter_map(|x| x.preamble.as_mut()),
    );
    out.extend(
        info.registers
            .iter_mut()
            .filter_map(|x| x.preamble.as_mut()),
    );
    out.extend(
        info.value_sets
            .iter_mut()
            .filter_map(|x| x.preamble.as_mut()),
    );
    out.extend(info.digests.iter_mut().filter_map(|x| x.preamble.as_mut()));
    out.extend(
        info.controller_packet_metadata
            .iter_mut()
            .filter_map(|x| x.preamble.as_mut()),
    );
    out
}

/// `info` with every object renumbered (the same prefix, other low 24
/// bits) and every reference following; with `fields`, match field,
/// parameter and metadata ids renumbered too (in reverse order, from 40).
/// Annotations are dropped (a controller's P4Info need not carry them).
fn renumbered(info: &cfg::P4Info, fields: bool) -> cfg::P4Info {
    let mut out = info.clone();
    let mut map: HashMap<u32, u32> = HashMap::new();
    for (i, p) in preambles(&mut out).into_iter().enumerate() {
        let new = (p.id & 0xff00_0000) | (0x5a_0000 + 3 * i as u32 + 1);
        assert_ne!(new, p.id);
        map.insert(p.id, new);
        p.id = new;
        p.annotations.clear();
    }
    let m = |id: &mut u32| {
        if *id != 0 {
            *id = map[id];
        }
    };
    let reverse = |n: usize, i: usize| 40 + (n - i) as u32;
    // (new action id, old param id) -> new param id.
    let mut params: HashMap<(u32, u32), u32> = HashMap::new();
    for a in &mut out.actions {
        let id = a.preamble.as_ref().unwrap().id;
        let n = a.params.len();
        for (i, p) in a.params.iter_mut().enumerate() {
            let new = if fields { reverse(n, i) } else { p.id };
            params.insert((id, p.id), new);
            p.id = new;
        }
    }
    for t in &mut out.tables {
        for r in &mut t.action_refs {
            m(&mut r.id);
        }
        m(&mut t.const_default_action_id);
        m(&mut t.implementation_id);
        if let Some(call) = t.initial_default_action.as_mut() {
            m(&mut call.action_id);
            for a in &mut call.arguments {
                a.param_id = params[&(call.action_id, a.param_id)];
            }
        }
        t.direct_resource_ids.iter_mut().for_each(m);
        if fields {
            let n = t.match_fields.len();
            for (i, f) in t.match_fields.iter_mut().enumerate() {
                f.id = reverse(n, i);
            }
        }
    }
    for a in &mut out.action_profiles {
        a.table_ids.iter_mut().for_each(m);
    }
    for c in &mut out.direct_counters {
        m(&mut c.direct_table_id);
    }
    for c in &mut out.direct_meters {
        m(&mut c.direct_table_id);
    }
    for h in &mut out.controller_packet_metadata {
        if fields {
            let n = h.metadata.len();
            for (i, x) in h.metadata.iter_mut().enumerate() {
                x.id = reverse(n, i);
            }
        }
    }
    for v in &mut out.value_sets {
        if fields {
            let n = v.r#match.len();
            for (i, x) in v.r#match.iter_mut().enumerate() {
                x.id = reverse(n, i);
            }
        }
    }
    out
}

fn with_p4info(info: cfg::P4Info) -> p4::ForwardingPipelineConfig {
    p4::ForwardingPipelineConfig {
        p4info: Some(info),
        ..config()
    }
}

/// The id of the object named `name` (any kind).
fn id_of(info: &cfg::P4Info, name: &str) -> u32 {
    let mut info = info.clone();
    preambles(&mut info)
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no {name} in the P4Info"))
        .id
}

fn table<'a>(info: &'a cfg::P4Info, name: &str) -> &'a cfg::Table {
    info.tables
        .iter()
        .find(|t| t.preamble.as_ref().unwrap().name == name)
        .unwrap()
}

fn table_mut<'a>(info: &'a mut cfg::P4Info, name: &str) -> &'a mut cfg::Table {
    info.tables
        .iter_mut()
        .find(|t| t.preamble.as_ref().unwrap().name == name)
        .unwrap()
}

fn action_def<'a>(info: &'a cfg::P4Info, name: &str) -> &'a cfg::Action {
    info.actions
        .iter()
        .find(|a| a.preamble.as_ref().unwrap().name == name)
        .unwrap()
}

/// The id of match field `name` of `table`, of parameter `name` of
/// `action`, of metadata `name` of `header`.
fn field_id(info: &cfg::P4Info, t: &str, name: &str) -> u32 {
    table(info, t)
        .match_fields
        .iter()
        .find(|f| f.name == name)
        .unwrap()
        .id
}

fn param_id(info: &cfg::P4Info, a: &str, name: &str) -> u32 {
    action_def(info, a)
        .params
        .iter()
        .find(|p| p.name == name)
        .unwrap()
        .id
}

fn metadata_id(info: &cfg::P4Info, header: &str, name: &str) -> u32 {
    info.controller_packet_metadata
        .iter()
        .find(|h| h.preamble.as_ref().unwrap().name == header)
        .unwrap()
        .metadata
        .iter()
        .find(|m| m.name == name)
        .unwrap()
        .id
}

/// A `route` entry for 0a:00:00:00:00:00/8 and EtherType 0x0800 ->
/// set_nhop(dmac 02:..:0b, port 3), in `info`'s ids.
fn route_entry(info: &cfg::P4Info) -> p4::TableEntry {
    p4::TableEntry {
        table_id: id_of(info, "I.route"),
        r#match: vec![
            p4::FieldMatch {
                field_id: field_id(info, "I.route", "hdr.eth.dst"),
                field_match_type: Some(F::Lpm(p4::field_match::Lpm {
                    value: vec![0x0a, 0, 0, 0, 0, 0],
                    prefix_len: 8,
                })),
            },
            p4::FieldMatch {
                field_id: field_id(info, "I.route", "hdr.eth.etype"),
                field_match_type: Some(F::Exact(p4::field_match::Exact {
                    value: vec![0x08, 0x00],
                })),
            },
        ],
        action: Some(p4::TableAction {
            r#type: Some(p4::table_action::Type::Action(p4::Action {
                action_id: id_of(info, "I.set_nhop"),
                params: vec![
                    p4::action::Param {
                        param_id: param_id(info, "I.set_nhop", "port"),
                        value: vec![3],
                    },
                    p4::action::Param {
                        param_id: param_id(info, "I.set_nhop", "dmac"),
                        value: vec![2, 0, 0, 0, 0, 0x0b],
                    },
                ],
            })),
        }),
        ..Default::default()
    }
}

/// A frame to `dst` with EtherType `etype`.
fn frame(dst: [u8; 6], etype: u16) -> Vec<u8> {
    let mut f = dst.to_vec();
    f.extend_from_slice(&[2, 0, 0, 0, 0, 1]);
    f.extend_from_slice(&etype.to_be_bytes());
    f.extend_from_slice(b"janus payload");
    f
}

async fn read_tables(c: &mut P4RuntimeClient<Channel>) -> Vec<p4::TableEntry> {
    read_entities(
        c,
        vec![p4::Entity {
            entity: Some(E::TableEntry(p4::TableEntry::default())),
        }],
    )
    .await
    .expect("read")
    .into_iter()
    .filter_map(|e| match e.entity {
        Some(E::TableEntry(t)) => Some(t),
        _ => None,
    })
    .collect()
}

/// The entry as a read returns it: match fields sorted by id, params in
/// the action's order.
fn canonical(mut te: p4::TableEntry, info: &cfg::P4Info) -> p4::TableEntry {
    te.r#match.sort_by_key(|m| {
        table(info, "I.route")
            .match_fields
            .iter()
            .position(|f| f.id == m.field_id)
    });
    if let Some(p4::TableAction {
        r#type: Some(p4::table_action::Type::Action(a)),
    }) = te.action.as_mut()
    {
        let order = &action_def(info, "I.set_nhop").params;
        a.params
            .sort_by_key(|p| order.iter().position(|x| x.id == p.param_id));
    }
    te
}

async fn get_p4info(c: &mut P4RuntimeClient<Channel>) -> cfg::P4Info {
    within(
        c.get_forwarding_pipeline_config(p4::GetForwardingPipelineConfigRequest {
            device_id: DEVICE,
            response_type: p4::get_forwarding_pipeline_config_request::ResponseType::All as i32,
        }),
    )
    .await
    .expect("get")
    .into_inner()
    .config
    .unwrap()
    .p4info
    .unwrap()
}

/// The pushed ids are the ones every entity uses: a Write, a Read of the
/// entry and of counters, a PacketOut's and a PacketIn's metadata, the
/// P4Info GetForwardingPipelineConfig returns; the program's ids are now
/// unknown.
async fn renumbered_ids_work(fields: bool) {
    let s = start().await;
    let program = config().p4info.unwrap();
    let pushed = renumbered(&program, fields);
    let (mut c, mut stream) = primary_with(&s, 10, with_p4info(pushed.clone())).await;
    assert_eq!(get_p4info(&mut c).await, pushed);

    let te = route_entry(&pushed);
    write(&mut c, 10, vec![update(Insert, te.clone())])
        .await
        .expect("a write in the pushed ids");
    let got = read_tables(&mut c).await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0], canonical(te, &pushed));

    // The program's ids name nothing now.
    let old = route_entry(&program);
    let e = write(&mut c, 10, vec![update(Insert, old)])
        .await
        .unwrap_err();
    assert_eq!(update_codes(&e)[0].0, Code::NotFound, "{e:?}");

    // The entry forwards with its parameters in the right places.
    let out = s
        .switch
        .inject(1, &frame([0x0a, 1, 2, 3, 4, 5], 0x0800))
        .expect("a pipeline");
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].0, 3);
    assert_eq!(&out[0].1[..6], &[2, 0, 0, 0, 0, 0x0b]);

    // Counters, direct counters and registers by the pushed ids.
    let port_in = id_of(&pushed, "I.port_in");
    let entities = read_entities(
        &mut c,
        vec![
            p4::Entity {
                entity: Some(E::CounterEntry(p4::CounterEntry {
                    counter_id: port_in,
                    index: Some(p4::Index { index: 1 }),
                    ..Default::default()
                })),
            },
            p4::Entity {
                entity: Some(E::DirectCounterEntry(p4::DirectCounterEntry {
                    table_entry: Some(p4::TableEntry {
                        table_id: id_of(&pushed, "I.route"),
                        ..Default::default()
                    }),
                    ..Default::default()
                })),
            },
            p4::Entity {
                entity: Some(E::RegisterEntry(p4::RegisterEntry {
                    register_id: id_of(&pushed, "I.seen"),
                    index: Some(p4::Index { index: 1 }),
                    ..Default::default()
                })),
            },
        ],
    )
    .await
    .expect("read counters");
    match &entities[0].entity {
        Some(E::CounterEntry(x)) => {
            assert_eq!(x.counter_id, port_in);
            assert_eq!(x.data.as_ref().unwrap().packet_count, 1);
        }
        other => panic!("{other:?}"),
    }
    match &entities[1].entity {
        Some(E::DirectCounterEntry(x)) => {
            let t = x.table_entry.as_ref().unwrap();
            assert_eq!(t.table_id, id_of(&pushed, "I.route"));
            assert_eq!(x.data.as_ref().unwrap().packet_count, 1);
        }
        other => panic!("{other:?}"),
    }
    match &entities[2].entity {
        Some(E::RegisterEntry(x)) => assert_eq!(x.register_id, id_of(&pushed, "I.seen")),
        other => panic!("{other:?}"),
    }

    // Meters, action profiles, value sets and digests by the pushed ids.
    let member = p4::ActionProfileMember {
        action_profile_id: pushed.action_profiles[0].preamble.as_ref().unwrap().id,
        member_id: 1,
        action: Some(p4::Action {
            action_id: id_of(&pushed, "I.to_port"),
            params: vec![p4::action::Param {
                param_id: param_id(&pushed, "I.to_port", "port"),
                value: vec![4],
            }],
        }),
    };
    let meter = p4::MeterEntry {
        meter_id: id_of(&pushed, "I.port_meter"),
        index: Some(p4::Index { index: 0 }),
        config: Some(p4::MeterConfig {
            cir: 10,
            cburst: 10,
            pir: 20,
            pburst: 20,
            eburst: 0,
        }),
        ..Default::default()
    };
    let value_set = p4::ValueSetEntry {
        value_set_id: pushed.value_sets[0].preamble.as_ref().unwrap().id,
        members: vec![p4::ValueSetMember {
            r#match: vec![p4::FieldMatch {
                field_id: pushed.value_sets[0].r#match[0].id,
                field_match_type: Some(F::Exact(p4::field_match::Exact {
                    value: vec![0x12, 0x34],
                })),
            }],
        }],
    };
    let digest = p4::DigestEntry {
        digest_id: pushed.digests[0].preamble.as_ref().unwrap().id,
        config: Some(p4::digest_entry::Config {
            max_timeout_ns: 0,
            max_list_size: 1,
            ack_timeout_ns: 0,
        }),
    };
    let modify = p4::update::Type::Modify;
    let entity_update = |kind: p4::update::Type, e: E| p4::Update {
        r#type: kind as i32,
        entity: Some(p4::Entity { entity: Some(e) }),
    };
    write(
        &mut c,
        10,
        vec![
            entity_update(Insert, E::ActionProfileMember(member.clone())),
            entity_update(modify, E::MeterEntry(meter)),
            entity_update(modify, E::ValueSetEntry(value_set.clone())),
            entity_update(Insert, E::DigestEntry(digest)),
        ],
    )
    .await
    .expect("writes of externs in the pushed ids");
    let got = read_entities(
        &mut c,
        vec![
            p4::Entity {
                entity: Some(E::ActionProfileMember(p4::ActionProfileMember {
                    action_profile_id: member.action_profile_id,
                    ..Default::default()
                })),
            },
            p4::Entity {
                entity: Some(E::ValueSetEntry(p4::ValueSetEntry {
                    value_set_id: value_set.value_set_id,
                    ..Default::default()
                })),
            },
        ],
    )
    .await
    .expect("read externs");
    assert_eq!(got[0].entity, Some(E::ActionProfileMember(member)));
    assert_eq!(got[1].entity, Some(E::ValueSetEntry(value_set)));

    // A digest goes out under the pushed digest id.
    s.switch
        .inject(2, &frame([0x0c; 6], 0x88b5))
        .expect("a pipeline");
    let list = loop {
        let msg = within(stream.rx.message()).await.unwrap().unwrap();
        if let Some(p4::stream_message_response::Update::Digest(d)) = msg.update {
            break d;
        }
    };
    assert_eq!(list.digest_id, digest.digest_id);

    // PacketOut metadata in the pushed ids; a PacketIn carries them.
    let punt = p4::TableEntry {
        table_id: id_of(&pushed, "I.route"),
        r#match: vec![
            p4::FieldMatch {
                field_id: field_id(&pushed, "I.route", "hdr.eth.dst"),
                field_match_type: Some(F::Lpm(p4::field_match::Lpm {
                    value: vec![0x0e, 0, 0, 0, 0, 0],
                    prefix_len: 8,
                })),
            },
            p4::FieldMatch {
                field_id: field_id(&pushed, "I.route", "hdr.eth.etype"),
                field_match_type: Some(F::Exact(p4::field_match::Exact {
                    value: vec![0x08, 0x00],
                })),
            },
        ],
        action: Some(p4::TableAction {
            r#type: Some(p4::table_action::Type::Action(p4::Action {
                action_id: id_of(&pushed, "I.punt"),
                params: vec![p4::action::Param {
                    param_id: param_id(&pushed, "I.punt", "reason"),
                    value: vec![7],
                }],
            })),
        }),
        ..Default::default()
    };
    write(&mut c, 10, vec![update(Insert, punt)])
        .await
        .expect("punt entry");
    s.switch
        .inject(5, &frame([0x0e, 0, 0, 0, 0, 1], 0x0800))
        .expect("a pipeline");
    let packet_in = loop {
        let msg = within(stream.rx.message()).await.unwrap().unwrap();
        if let Some(p4::stream_message_response::Update::Packet(p)) = msg.update {
            break p;
        }
    };
    let mut meta: Vec<(u32, Vec<u8>)> = packet_in
        .metadata
        .iter()
        .map(|m| (m.metadata_id, m.value.clone()))
        .collect();
    meta.sort();
    let mut want = vec![
        (metadata_id(&pushed, "packet_in", "ingress_port"), vec![5]),
        (metadata_id(&pushed, "packet_in", "_pad"), vec![0]),
        (metadata_id(&pushed, "packet_in", "reason"), vec![7]),
    ];
    want.sort();
    assert_eq!(meta, want);
    // A PacketOut in the program's metadata ids, when they are not the
    // pushed ones, is refused on the stream.
    if fields {
        let po = p4::PacketOut {
            payload: frame([1; 6], 0x0800),
            metadata: ["egress_port", "_pad"]
                .iter()
                .map(|n| p4::PacketMetadata {
                    metadata_id: metadata_id(&program, "packet_out", n),
                    value: vec![0],
                })
                .collect(),
        };
        within(stream.tx.send(p4::StreamMessageRequest {
            update: Some(p4::stream_message_request::Update::Packet(po)),
        }))
        .await
        .unwrap();
        let err = loop {
            let msg = within(stream.rx.message()).await.unwrap().unwrap();
            if let Some(p4::stream_message_response::Update::Error(e)) = msg.update {
                break e;
            }
        };
        assert_eq!(err.canonical_code, Code::InvalidArgument as i32, "{err:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_p4info_with_other_object_ids_is_used_with_its_ids() {
    renumbered_ids_work(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_p4info_with_other_field_and_param_ids_is_used_with_its_ids() {
    renumbered_ids_work(true).await;
}

/// PacketOuts in the pushed metadata ids leave by the port they name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn packet_outs_use_the_pushed_metadata_ids() {
    let (s, mut ports) = start_with_ports().await;
    let pushed = renumbered(&config().p4info.unwrap(), true);
    let (_c, stream) = primary_with(&s, 10, with_p4info(pushed.clone())).await;
    let payload = frame([1; 6], 0x0800);
    // Given in reverse order: ids, not positions, say which is which.
    let po = p4::PacketOut {
        payload: payload.clone(),
        metadata: vec![
            p4::PacketMetadata {
                metadata_id: metadata_id(&pushed, "packet_out", "_pad"),
                value: vec![0],
            },
            p4::PacketMetadata {
                metadata_id: metadata_id(&pushed, "packet_out", "egress_port"),
                value: vec![6],
            },
        ],
    };
    within(stream.tx.send(p4::StreamMessageRequest {
        update: Some(p4::stream_message_request::Update::Packet(po)),
    }))
    .await
    .unwrap();
    assert_eq!(within(ports.recv()).await.expect("a packet"), (6, payload));
}

/// A match field, parameter and metadata field with a translated type
/// (`type_name`) and an SDN bitwidth are accepted; values are taken at the
/// program's width for now.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn translated_types_may_have_sdn_widths() {
    let s = start().await;
    let mut info = renumbered(&config().p4info.unwrap(), false);
    let named = |n: &str| Some(cfg::P4NamedType { name: n.into() });
    for a in &mut info.actions {
        for p in &mut a.params {
            if p.name == "port" {
                p.bitwidth = 32;
                p.type_name = named("PortId_t");
            }
        }
    }
    for h in &mut info.controller_packet_metadata {
        for m in &mut h.metadata {
            if m.name == "ingress_port" || m.name == "egress_port" {
                m.bitwidth = 0;
                m.type_name = named("PortIdString_t");
            }
        }
    }
    table_mut(&mut info, "I.route").match_fields[1].bitwidth = 32;
    table_mut(&mut info, "I.route").match_fields[1].type_name = named("EthType_t");
    let (mut c, _stream) = primary_with(&s, 10, with_p4info(info.clone())).await;
    write(&mut c, 10, vec![update(Insert, route_entry(&info))])
        .await
        .expect("a write");
    // Without the type name, the width is a mismatch.
    let mut plain = info.clone();
    table_mut(&mut plain, "I.route").match_fields[1].type_name = None;
    let e = set_pipeline(&mut c, 10, with_p4info(plain), Action::VerifyAndCommit)
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(
        e.message()
            .contains("match field 2 is hdr.eth.etype (16 bits, EXACT) in the program but hdr.eth.etype (32 bits, EXACT) in the P4Info"),
        "{}",
        e.message()
    );
}

/// Hostile P4Infos: each refused with INVALID_ARGUMENT naming the problem,
/// by VERIFY_AND_COMMIT and RECONCILE_AND_COMMIT alike; the running
/// pipeline (a renumbered P4Info, with an entry) keeps running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_p4infos_are_refused_and_change_nothing() {
    let s = start().await;
    let program = config().p4info.unwrap();
    let running = renumbered(&program, true);
    let (mut c, _stream) = primary_with(&s, 10, with_p4info(running.clone())).await;
    let te = route_entry(&running);
    write(&mut c, 10, vec![update(Insert, te.clone())])
        .await
        .unwrap();
    let want = canonical(te, &running);

    let route = id_of(&running, "I.route");
    let mut cases: Vec<(&str, cfg::P4Info, &str)> = Vec::new();
    let mut dup = running.clone();
    let first = dup.actions[0].preamble.as_ref().unwrap().id;
    dup.actions[1].preamble.as_mut().unwrap().id = first;
    cases.push(("duplicate ids", dup, "is used twice"));
    let mut wrong_kind = running.clone();
    table_mut(&mut wrong_kind, "I.route")
        .preamble
        .as_mut()
        .unwrap()
        .id = (route & 0x00ff_ffff) | 0x0100_0000;
    cases.push((
        "a table id with the action prefix",
        wrong_kind,
        "table I.route has id 0x015a",
    ));
    let mut wide = running.clone();
    table_mut(&mut wide, "I.route").match_fields[0].bitwidth = 47;
    cases.push((
        "a field of the wrong width",
        wide,
        "table I.route: match field 1 is hdr.eth.dst (48 bits, LPM) in the program but hdr.eth.dst (47 bits, LPM) in the P4Info",
    ));
    let mut missing = running.clone();
    missing
        .tables
        .retain(|t| t.preamble.as_ref().unwrap().name != "I.acl");
    cases.push((
        "a missing table",
        missing,
        "table I.acl of the program is missing from the P4Info",
    ));
    let mut extra = running.clone();
    let mut acl2 = table(&running, "I.acl").clone();
    let p = acl2.preamble.as_mut().unwrap();
    p.name = "I.acl2".into();
    p.id = 0x0200_0077;
    extra.tables.push(acl2);
    cases.push((
        "an extra table",
        extra,
        "the P4Info has a table I.acl2 (id 0x02000077), which is not in the program",
    ));
    let mut dangling = running.clone();
    table_mut(&mut dangling, "I.route").action_refs[0].id = 0x01ff_fff0;
    cases.push((
        "an action ref to a missing id",
        dangling,
        "table I.route: an action ref is id 0x01fffff0, which names nothing in the P4Info",
    ));
    let mut renamed = running.clone();
    table_mut(&mut renamed, "I.route").match_fields[1].name = "hdr.eth.type".into();
    cases.push((
        "a renamed match field",
        renamed,
        "table I.route: match field 2 is hdr.eth.etype (16 bits, EXACT) in the program but hdr.eth.type (16 bits, EXACT) in the P4Info",
    ));
    let mut wrong_ref_kind = running.clone();
    table_mut(&mut wrong_ref_kind, "I.route").action_refs[0].id = route;
    cases.push((
        "an action ref naming a table",
        wrong_ref_kind,
        "which is a table I.route, not an action",
    ));
    let mut dup_field = running.clone();
    let t = table_mut(&mut dup_field, "I.route");
    t.match_fields[1].id = t.match_fields[0].id;
    cases.push(("a repeated match field id", dup_field, "match field id"));
    let mut dup_name = running.clone();
    let n = dup_name.actions[0].preamble.as_ref().unwrap().name.clone();
    dup_name.actions[1].preamble.as_mut().unwrap().name = n;
    cases.push(("two actions of one name", dup_name, "two actions are named"));
    let mut param = running.clone();
    for a in &mut param.actions {
        if a.preamble.as_ref().unwrap().name == "I.set_nhop" {
            a.params.swap(0, 1);
        }
    }
    cases.push((
        "parameters out of order",
        param,
        "action I.set_nhop: parameter 1 is dmac (48 bits) in the program but port (9 bits) in the P4Info",
    ));
    let mut size = running.clone();
    table_mut(&mut size, "I.route").size = 64;
    cases.push((
        "another table size",
        size,
        "table I.route: size 128 in the program but 64 in the P4Info",
    ));
    let mut counter = running.clone();
    counter.counters[0].size = 9;
    cases.push((
        "another counter size",
        counter,
        "counter I.port_in: size 8 in the program but 9 in the P4Info",
    ));

    for (what, info, message) in cases {
        for action in [Action::VerifyAndCommit, Action::ReconcileAndCommit] {
            let e = set_pipeline(&mut c, 10, with_p4info(info.clone()), action)
                .await
                .expect_err(what);
            assert_eq!(e.code(), Code::InvalidArgument, "{what}: {e:?}");
            assert!(e.message().contains(message), "{what}: {}", e.message());
            // The running pipeline is untouched.
            assert_eq!(read_tables(&mut c).await, vec![want.clone()], "{what}");
            assert_eq!(get_p4info(&mut c).await, running, "{what}");
        }
    }

    // RECONCILE_AND_COMMIT to the program's own ids cannot carry the
    // entry (its ids would change meaning): refused, nothing changes.
    let e = set_pipeline(&mut c, 10, config(), Action::ReconcileAndCommit)
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert_eq!(read_tables(&mut c).await, vec![want.clone()]);
    // Then a commit of the program's ids (the state starts empty).
    set_pipeline(&mut c, 10, config(), Action::VerifyAndCommit)
        .await
        .unwrap();
    assert!(read_tables(&mut c).await.is_empty());
    assert_eq!(get_p4info(&mut c).await, program);
}

/// A restart from the state directory keeps the pushed ids.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_keeps_the_pushed_ids() {
    let dir = std::env::temp_dir().join(format!("janus-push-p4info-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let state = StateConfig::new(dir.clone());
    let pushed = renumbered(&config().p4info.unwrap(), true);
    let te = route_entry(&pushed);
    {
        let st = state.clone();
        let s = start_with(move |svc| {
            svc.restore(&st).expect("a fresh state");
        })
        .await;
        let (mut c, _stream) = primary_with(&s, 10, with_p4info(pushed.clone())).await;
        write(&mut c, 10, vec![update(Insert, te.clone())])
            .await
            .unwrap();
    }
    // The first server's lock goes with its task; wait for it.
    let until = std::time::Instant::now() + LIMIT;
    let s = loop {
        let st = state.clone();
        let ok = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = ok.clone();
        let s = start_with(move |svc| {
            flag.store(
                svc.restore(&st).is_ok(),
                std::sync::atomic::Ordering::SeqCst,
            );
        })
        .await;
        if ok.load(std::sync::atomic::Ordering::SeqCst) {
            break s;
        }
        assert!(std::time::Instant::now() < until, "the state stays locked");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    let mut c = client(&s).await;
    assert_eq!(get_p4info(&mut c).await, pushed);
    assert_eq!(read_tables(&mut c).await, vec![canonical(te, &pushed)]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// PI's P4DeviceConfig wrapper (as the P4 tutorials' p4runtime_lib sends
/// it) around a pipeline file or P4 source is accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pi_p4_device_config_wrapper_is_accepted() {
    use janus_ctrl::proto::p4::tmp::{P4DeviceConfig, p4_device_config::Extras};
    let s = start().await;
    let plain = config();
    let wrap = |data: Vec<u8>| {
        P4DeviceConfig {
            reassign: true,
            extras: Some(Extras {
                kv: [("k".to_string(), "v".to_string())].into(),
            }),
            device_data: data,
        }
        .encode_to_vec()
    };
    let pushed = renumbered(&plain.p4info.clone().unwrap(), true);
    let wrapped = p4::ForwardingPipelineConfig {
        p4info: Some(pushed.clone()),
        p4_device_config: wrap(plain.p4_device_config.clone()),
        cookie: plain.cookie,
    };
    let (mut c, _stream) = primary_with(&s, 10, wrapped.clone()).await;
    write(&mut c, 10, vec![update(Insert, route_entry(&pushed))])
        .await
        .expect("a write");
    // The device config reads back as pushed.
    let got = within(
        c.get_forwarding_pipeline_config(p4::GetForwardingPipelineConfigRequest {
            device_id: DEVICE,
            response_type: p4::get_forwarding_pipeline_config_request::ResponseType::All as i32,
        }),
    )
    .await
    .unwrap()
    .into_inner()
    .config
    .unwrap();
    assert_eq!(got.p4_device_config, wrapped.p4_device_config);
    // Wrapped P4 source; a minimal wrapper (device_data only).
    let source = p4::ForwardingPipelineConfig {
        p4_device_config: P4DeviceConfig {
            device_data: PROGRAM.as_bytes().to_vec(),
            ..Default::default()
        }
        .encode_to_vec(),
        ..wrapped.clone()
    };
    set_pipeline(&mut c, 10, source, Action::Verify)
        .await
        .expect("wrapped P4 source");
    // A wrapper around something that does not compile says so.
    let bad = p4::ForwardingPipelineConfig {
        p4_device_config: wrap(b"control C() { apply { x = ; } }".to_vec()),
        ..wrapped
    };
    let e = set_pipeline(&mut c, 10, bad, Action::Verify)
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("does not compile"), "{}", e.message());
}

/// A bmv2 JSON file, raw or in PI's wrapper, is refused with a message
/// saying what to push instead; the running pipeline stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bmv2_json_is_refused_with_what_to_push() {
    use janus_ctrl::proto::p4::tmp::P4DeviceConfig;
    let s = start().await;
    let (mut c, _stream) = primary_with(&s, 10, config()).await;
    let json = br#"{
  "header_types" : [{"name" : "scalars_0", "id" : 0, "fields" : [["tmp", 32, false]]}],
  "headers" : [],
  "parsers" : [{"name" : "parser", "init_state" : "start", "parse_states" : []}],
  "pipelines" : [{"name" : "ingress", "tables" : [], "conditionals" : [], "init_table" : null}],
  "__meta__" : {"version" : [2, 23], "compiler" : "https://github.com/p4lang/p4c"},
  "escaped" : "a \"quoted\" \\ \u00e9 string",
  "numbers" : [-1, 2.5e3, 0, true, false, null]
}"#
    .to_vec();
    let wrapped = P4DeviceConfig {
        reassign: true,
        extras: None,
        device_data: json.clone(),
    }
    .encode_to_vec();
    for (what, bytes, prefix) in [
        (
            "raw",
            json.clone(),
            "the device config is not a Janus pipeline file or P4 source: it is a bmv2 JSON file",
        ),
        (
            "wrapped",
            wrapped,
            "the P4DeviceConfig's device_data is a bmv2 JSON file",
        ),
    ] {
        let cfg = p4::ForwardingPipelineConfig {
            p4_device_config: bytes,
            ..config()
        };
        let e = set_pipeline(&mut c, 10, cfg, Action::VerifyAndCommit)
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{what}");
        let m = e.message();
        assert!(m.contains(prefix), "{what}: {m}");
        assert!(m.contains("header_types"), "{what}: {m}");
        assert!(
            m.contains("Janus runs P4 programs, not bmv2 JSON"),
            "{what}: {m}"
        );
        assert!(
            m.contains("janus p4 compile PROG.p4 -o PROG.pipeline"),
            "{what}: {m}"
        );
        assert!(!m.contains("expected a type"), "{what}: {m}");
        assert_eq!(get_p4info(&mut c).await, config().p4info.unwrap());
    }
    // Other JSON is named as JSON too.
    let cfg = p4::ForwardingPipelineConfig {
        p4_device_config: br#" {"program": "x.p4"} "#.to_vec(),
        ..config()
    };
    let e = set_pipeline(&mut c, 10, cfg, Action::Verify)
        .await
        .unwrap_err();
    assert!(
        e.message().contains("is a JSON document"),
        "{}",
        e.message()
    );
    // Text that starts with `{` but is not JSON goes to the P4 compiler.
    let cfg = p4::ForwardingPipelineConfig {
        p4_device_config: b"{ not json".to_vec(),
        ..config()
    };
    let e = set_pipeline(&mut c, 10, cfg, Action::Verify)
        .await
        .unwrap_err();
    assert!(e.message().contains("does not compile"), "{}", e.message());
}

/// The tenant rights come from the program's annotations, under the
/// pushed ids, whatever annotations the pushed P4Info carries.
#[test]
fn tenant_policy_follows_the_pushed_ids() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../p4/sdn.p4");
    let c = janus_p4::driver::compile_file(&path, &janus_p4::driver::Options::default())
        .expect("p4/sdn.p4");
    assert!(!c.has_errors(), "{}", c.render(false));
    let program = janus_ctrl::p4info::to_proto(&janus_p4::p4info::build(c.program().unwrap()));
    let before = janus_ctrl::roles::TenantPolicy::from_p4info(&program).unwrap();
    let tenant_tables: Vec<(String, String)> = program
        .tables
        .iter()
        .filter_map(|t| {
            let p = t.preamble.as_ref()?;
            let f = before.tenant_field(p.id)?;
            let field = t.match_fields.iter().find(|m| m.id == f)?;
            Some((p.name.clone(), field.name.clone()))
        })
        .collect();
    assert!(!tenant_tables.is_empty(), "sdn.p4 has tenant tables");
    // Renumbered, annotations dropped (`renumbered` clears them).
    let pushed = renumbered(&program, true);
    let used = janus_ctrl::p4info_check::check(&pushed, &program).expect("accepted");
    let after = janus_ctrl::roles::TenantPolicy::from_p4info(&used).unwrap();
    for (t, field) in &tenant_tables {
        let tid = id_of(&pushed, t);
        assert_eq!(
            after.tenant_field(tid),
            Some(field_id(&pushed, t, field)),
            "{t}"
        );
    }
    // No table keeps its program id.
    for t in &program.tables {
        let id = t.preamble.as_ref().unwrap().id;
        assert_eq!(after.tenant_field(id), None);
    }
    // The P4Info the server runs with is the program's, renumbered.
    assert_eq!(
        janus_ctrl::p4info_check::check(&program, &program).unwrap(),
        program
    );
    let back = janus_ctrl::p4info_check::check(&pushed, &program).unwrap();
    assert_eq!(back.tables.len(), program.tables.len());
    for (b, p) in back.tables.iter().zip(&pushed.tables) {
        assert_eq!(
            b.preamble.as_ref().unwrap().id,
            p.preamble.as_ref().unwrap().id
        );
        let ids = |t: &cfg::Table| t.match_fields.iter().map(|m| m.id).collect::<Vec<_>>();
        assert_eq!(ids(b), ids(p));
    }
}

/// The P4 tutorials' basic router, as its exercise names things.
const BASIC: &str = r#"
#include <core.p4>
#include <v1model.p4>
const bit<16> TYPE_IPV4 = 0x800;
typedef bit<9> egressSpec_t;
typedef bit<48> macAddr_t;
typedef bit<32> ip4Addr_t;
header ethernet_t { macAddr_t dstAddr; macAddr_t srcAddr; bit<16> etherType; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen; bit<16> identification;
    bit<3> flags; bit<13> fragOffset; bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    ip4Addr_t srcAddr; ip4Addr_t dstAddr;
}
struct metadata { }
struct headers { ethernet_t ethernet; ipv4_t ipv4; }
parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
                inout standard_metadata_t standard_metadata) {
    state start { transition parse_ethernet; }
    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) { TYPE_IPV4: parse_ipv4; default: accept; }
    }
    state parse_ipv4 { packet.extract(hdr.ipv4); transition accept; }
}
control MyVerifyChecksum(inout headers hdr, inout metadata meta) { apply { } }
control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action drop() { mark_to_drop(standard_metadata); }
    action ipv4_forward(macAddr_t dstAddr, egressSpec_t port) {
        standard_metadata.egress_spec = port;
        hdr.ethernet.srcAddr = hdr.ethernet.dstAddr;
        hdr.ethernet.dstAddr = dstAddr;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }
    table ipv4_lpm {
        key = { hdr.ipv4.dstAddr: lpm; }
        actions = { ipv4_forward; drop; NoAction; }
        size = 1024;
        default_action = drop();
    }
    apply { if (hdr.ipv4.isValid()) { ipv4_lpm.apply(); } }
}
control MyEgress(inout headers hdr, inout metadata meta,
                 inout standard_metadata_t standard_metadata) { apply { } }
control MyComputeChecksum(inout headers hdr, inout metadata meta) { apply { } }
control MyDeparser(packet_out packet, in headers hdr) {
    apply { packet.emit(hdr.ethernet); packet.emit(hdr.ipv4); }
}
V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(),
         MyDeparser()) main;
"#;

/// The P4Info p4c writes for the basic router (its ids, aliases and
/// NoAction's annotation; no `initial_default_action`), in p4c's order.
fn p4c_basic_p4info() -> cfg::P4Info {
    let pre = |id: u32, name: &str, alias: &str| {
        Some(cfg::Preamble {
            id,
            name: name.into(),
            alias: alias.into(),
            ..Default::default()
        })
    };
    let mut no_action = pre(21257015, "NoAction", "NoAction");
    no_action
        .as_mut()
        .unwrap()
        .annotations
        .push("@noWarn(\"unused\")".into());
    let param = |id: u32, name: &str, bitwidth: i32| cfg::action::Param {
        id,
        name: name.into(),
        bitwidth,
        ..Default::default()
    };
    cfg::P4Info {
        pkg_info: Some(cfg::PkgInfo {
            arch: "v1model".into(),
            ..Default::default()
        }),
        tables: vec![cfg::Table {
            preamble: pre(37375156, "MyIngress.ipv4_lpm", "ipv4_lpm"),
            match_fields: vec![cfg::MatchField {
                id: 1,
                name: "hdr.ipv4.dstAddr".into(),
                bitwidth: 32,
                r#match: Some(cfg::match_field::Match::MatchType(
                    cfg::match_field::MatchType::Lpm as i32,
                )),
                ..Default::default()
            }],
            action_refs: [28792405, 25652968, 21257015]
                .into_iter()
                .map(|id| cfg::ActionRef {
                    id,
                    ..Default::default()
                })
                .collect(),
            size: 1024,
            ..Default::default()
        }],
        actions: vec![
            cfg::Action {
                preamble: no_action,
                params: vec![],
            },
            cfg::Action {
                preamble: pre(25652968, "MyIngress.drop", "drop"),
                params: vec![],
            },
            cfg::Action {
                preamble: pre(28792405, "MyIngress.ipv4_forward", "ipv4_forward"),
                params: vec![param(1, "dstAddr", 48), param(2, "port", 9)],
            },
        ],
        type_info: Some(cfg::P4TypeInfo::default()),
        ..Default::default()
    }
}

/// The tutorials' flow: p4c's P4Info, the program in PI's wrapper; an
/// entry in p4c's ids forwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_p4c_p4info_for_the_tutorials_basic_router_is_accepted() {
    use janus_ctrl::proto::p4::tmp::P4DeviceConfig;
    let s = start().await;
    let own = pipeline_config("basic.p4", BASIC.to_string(), None);
    let p4c = p4c_basic_p4info();
    let config = p4::ForwardingPipelineConfig {
        p4info: Some(p4c.clone()),
        p4_device_config: P4DeviceConfig {
            reassign: true,
            extras: None,
            device_data: own.p4_device_config,
        }
        .encode_to_vec(),
        cookie: None,
    };
    let (mut c, _stream) = primary_with(&s, 10, config).await;
    assert_eq!(get_p4info(&mut c).await, p4c);
    let te = p4::TableEntry {
        table_id: 37375156,
        r#match: vec![p4::FieldMatch {
            field_id: 1,
            field_match_type: Some(F::Lpm(p4::field_match::Lpm {
                value: vec![10, 0, 2, 0],
                prefix_len: 24,
            })),
        }],
        action: Some(p4::TableAction {
            r#type: Some(p4::table_action::Type::Action(p4::Action {
                action_id: 28792405,
                params: vec![
                    p4::action::Param {
                        param_id: 1,
                        value: vec![8, 0, 0, 0, 2, 0x22],
                    },
                    p4::action::Param {
                        param_id: 2,
                        value: vec![2],
                    },
                ],
            })),
        }),
        ..Default::default()
    };
    write(&mut c, 10, vec![update(Insert, te.clone())])
        .await
        .expect("an entry in p4c's ids");
    assert_eq!(read_tables(&mut c).await, vec![te]);
    let mut packet = vec![8, 0, 0, 0, 1, 0x11, 8, 0, 0, 0, 1, 0x01, 0x08, 0x00];
    packet.extend_from_slice(&[
        0x45, 0, 0, 20, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 1, 1, 10, 0, 2, 2,
    ]);
    let out = s.switch.inject(1, &packet).expect("a pipeline");
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].0, 2);
    assert_eq!(&out[0].1[..6], &[8, 0, 0, 0, 2, 0x22]);
    assert_eq!(out[0].1[14 + 8], 63, "TTL decremented");
}

/// A program with `@p4runtime_translation` types in a key, a parameter
/// and the controller headers: its own P4Info (whose translated fields
/// may carry SDN widths) is accepted, and packets and entries use the
/// data plane's widths (values are not translated yet).
const TRANSLATED: &str = r#"
#include <core.p4>
#include <v1model.p4>
@p4runtime_translation("p4.org/psa/v1/PortId_t", 32)
type bit<9> PortId_t;
@controller_header("packet_out")
header packet_out_t { PortId_t egress_port; bit<7> _pad; }
@controller_header("packet_in")
header packet_in_t { PortId_t ingress_port; bit<7> _pad; }
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { packet_in_t packet_in; packet_out_t packet_out; ethernet_t eth; }
struct meta_t { PortId_t in_port; }
parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start {
        transition select(sm.ingress_port) { 510: parse_out; default: parse_eth; }
    }
    state parse_out { pkt.extract(hdr.packet_out); transition parse_eth; }
    state parse_eth { pkt.extract(hdr.eth); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action to_port(PortId_t port) { sm.egress_spec = (bit<9>) port; }
    action drop() { mark_to_drop(sm); }
    table by_port {
        key = { m.in_port: exact; }
        actions = { to_port; drop; }
        default_action = drop();
    }
    apply {
        if (hdr.packet_out.isValid()) {
            sm.egress_spec = (bit<9>) hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
        } else {
            m.in_port = (PortId_t) sm.ingress_port;
            by_port.apply();
        }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.packet_in); pkt.emit(hdr.eth); }
}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn translated_program_fields_use_the_data_plane_widths() {
    let (s, mut ports) = start_with_ports().await;
    let own = pipeline_config("translated.p4", TRANSLATED.to_string(), None);
    let info = renumbered(own.p4info.as_ref().unwrap(), true);
    let config = p4::ForwardingPipelineConfig {
        p4info: Some(info.clone()),
        ..own
    };
    let (mut c, stream) = primary_with(&s, 10, config).await;
    let t = table(&info, "I.by_port");
    let te = p4::TableEntry {
        table_id: id_of(&info, "I.by_port"),
        r#match: vec![p4::FieldMatch {
            field_id: t.match_fields[0].id,
            field_match_type: Some(F::Exact(p4::field_match::Exact { value: vec![1] })),
        }],
        action: Some(p4::TableAction {
            r#type: Some(p4::table_action::Type::Action(p4::Action {
                action_id: id_of(&info, "I.to_port"),
                params: vec![p4::action::Param {
                    param_id: param_id(&info, "I.to_port", "port"),
                    value: vec![1, 0x04],
                }],
            })),
        }),
        ..Default::default()
    };
    write(&mut c, 10, vec![update(Insert, te)])
        .await
        .expect("an entry");
    let out = s
        .switch
        .inject(1, &frame([1; 6], 0x0800))
        .expect("a pipeline");
    assert_eq!(out.iter().map(|o| o.0).collect::<Vec<_>>(), vec![260]);
    // A PacketOut's port is packed in the header's 9 bits.
    let payload = frame([2; 6], 0x0800);
    let po = p4::PacketOut {
        payload: payload.clone(),
        metadata: vec![
            p4::PacketMetadata {
                metadata_id: metadata_id(&info, "packet_out", "egress_port"),
                value: vec![1, 0x05],
            },
            p4::PacketMetadata {
                metadata_id: metadata_id(&info, "packet_out", "_pad"),
                value: vec![0],
            },
        ],
    };
    within(stream.tx.send(p4::StreamMessageRequest {
        update: Some(p4::stream_message_request::Update::Packet(po)),
    }))
    .await
    .unwrap();
    assert_eq!(
        within(ports.recv()).await.expect("a packet"),
        (261, payload)
    );
}
