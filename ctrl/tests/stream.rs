//! PacketOut and PacketIn on the StreamChannel, counters, direct
//! counters, registers and the packet replication engine, on a small
//! v1model program written here with Janus's controller headers. Every
//! wait is bounded by a timeout.

mod common;

use common::*;
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use p4::entity::Entity as E;
use p4::field_match::FieldMatchType as F;
use p4::update::Type::{Delete, Insert, Modify};
use tonic::Code;
use tonic::transport::Channel;

/// Packets from the CPU port carry `packet_out` (the port to leave by);
/// others are counted per port, remembered in a register and forwarded by
/// `fwd` on the destination MAC (to a port, to the CPU with a reason, to a
/// multicast group); EtherType 0x0bad also clones to session 7.
const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>

@controller_header("packet_in")
header packet_in_t { bit<9> ingress_port; bit<7> _pad; bit<8> reason; }
@controller_header("packet_out")
header packet_out_t { bit<9> egress_port; bit<7> _pad; }
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { packet_in_t packet_in; packet_out_t packet_out; ethernet_t eth; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start {
        transition select(sm.ingress_port) { 510: parse_out; default: parse_eth; }
    }
    state parse_out { pkt.extract(hdr.packet_out); transition parse_eth; }
    state parse_eth { pkt.extract(hdr.eth); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    counter(8, CounterType.packets_and_bytes) port_in;
    register<bit<32>>(16) seen;
    direct_counter(CounterType.packets_and_bytes) fwd_hits;
    action to_port(bit<9> port) { sm.egress_spec = port; }
    action punt(bit<8> reason) {
        sm.egress_spec = 510;
        hdr.packet_in.setValid();
        hdr.packet_in.ingress_port = sm.ingress_port;
        hdr.packet_in._pad = 0;
        hdr.packet_in.reason = reason;
    }
    action flood(bit<16> grp) { sm.mcast_grp = grp; }
    action drop() { mark_to_drop(sm); }
    table fwd {
        key = { hdr.eth.dst: exact; }
        actions = { to_port; punt; flood; drop; }
        default_action = drop();
        counters = fwd_hits;
    }
    apply {
        if (hdr.packet_out.isValid()) {
            sm.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
        } else {
            port_in.count((bit<32>) sm.ingress_port);
            bit<32> n;
            seen.read(n, (bit<32>) sm.ingress_port);
            seen.write((bit<32>) sm.ingress_port, n + 1);
            fwd.apply();
            if (hdr.eth.etype == 0x0bad) { clone(CloneType.I2E, 7); }
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

fn config() -> p4::ForwardingPipelineConfig {
    pipeline_config("stream_test.p4", PROGRAM.to_string(), None)
}

/// The id of the P4Info object (of any kind) named `name`.
fn id_of(info: &cfg::P4Info, name: &str) -> u32 {
    let pre = info
        .tables
        .iter()
        .map(|t| &t.preamble)
        .chain(info.actions.iter().map(|a| &a.preamble))
        .chain(info.counters.iter().map(|c| &c.preamble))
        .chain(info.direct_counters.iter().map(|c| &c.preamble))
        .chain(info.registers.iter().map(|r| &r.preamble))
        .chain(info.controller_packet_metadata.iter().map(|h| &h.preamble))
        .flatten()
        .find(|p| p.name == name || p.alias == name);
    pre.unwrap_or_else(|| panic!("no {name} in the P4Info")).id
}

/// A frame to `dst` from 02:..:01 with EtherType `etype`.
fn frame(dst: u8, etype: u16) -> Vec<u8> {
    let mut f = vec![0, 0, 0, 0, 0, dst, 2, 0, 0, 0, 0, 1];
    f.extend_from_slice(&etype.to_be_bytes());
    f.extend_from_slice(b"janus payload");
    f
}

/// A `fwd` entry: destination MAC ending in `dst` -> `action`.
fn fwd_entry(info: &cfg::P4Info, dst: u8, action_name: &str, arg: &[u8]) -> p4::TableEntry {
    p4::TableEntry {
        table_id: id_of(info, "I.fwd"),
        r#match: vec![p4::FieldMatch {
            field_id: 1,
            field_match_type: Some(F::Exact(p4::field_match::Exact { value: vec![dst] })),
        }],
        action: action(id_of(info, action_name), &[arg]),
        ..Default::default()
    }
}

async fn send_packet_out(s: &Stream, po: p4::PacketOut) {
    let msg = p4::StreamMessageRequest {
        update: Some(p4::stream_message_request::Update::Packet(po)),
    };
    within(s.tx.send(msg)).await.expect("send");
}

fn packet_out(payload: Vec<u8>, port: &[u8]) -> p4::PacketOut {
    p4::PacketOut {
        payload,
        metadata: vec![
            p4::PacketMetadata {
                metadata_id: 1,
                value: port.to_vec(),
            },
            p4::PacketMetadata {
                metadata_id: 2,
                value: vec![0],
            },
        ],
    }
}

async fn read_one(c: &mut P4RuntimeClient<Channel>, e: E) -> Result<Vec<E>, tonic::Status> {
    Ok(read_entities(c, vec![entity(e)])
        .await?
        .into_iter()
        .filter_map(|e| e.entity)
        .collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn packet_out_and_packet_in() {
    let (s, mut ports) = start_with_ports().await;
    let cfg = config();
    let info = cfg.p4info.clone().unwrap();
    let (mut c, mut primary) = primary_with(&s, 10, cfg).await;

    // A PacketOut to port 3 leaves by port 3, without its header.
    let payload = frame(9, 0x0800);
    send_packet_out(&primary, packet_out(payload.clone(), &[3])).await;
    let (port, out) = within(ports.recv()).await.expect("a packet out of a port");
    assert_eq!((port, out), (3, payload.clone()));
    // Non-canonical (zero-padded) metadata values are accepted.
    send_packet_out(&primary, packet_out(payload.clone(), &[0, 0, 4])).await;
    assert_eq!(within(ports.recv()).await.unwrap().0, 4);

    // Malformed metadata: dropped, with an INVALID_ARGUMENT StreamError.
    let mut bad = packet_out(payload.clone(), &[3]);
    bad.metadata.pop();
    let bad_cases = [
        bad.clone(),
        packet_out(payload.clone(), &[2, 0]), // 512 needs 10 bits
        {
            let mut b = packet_out(payload.clone(), &[3]);
            b.metadata[1].metadata_id = 9;
            b
        },
        {
            let mut b = packet_out(payload.clone(), &[3]);
            b.metadata[1].metadata_id = 1;
            b
        },
    ];
    for b in bad_cases {
        send_packet_out(&primary, b.clone()).await;
        match primary.next_update().await {
            p4::stream_message_response::Update::Error(e) => {
                assert_eq!(e.canonical_code, Code::InvalidArgument as i32, "{e:?}");
                match e.details {
                    Some(p4::stream_error::Details::PacketOut(p)) => {
                        assert_eq!(p.packet_out, Some(b))
                    }
                    other => panic!("no packet_out details: {other:?}"),
                }
            }
            other => panic!("not a stream error: {other:?}"),
        }
    }

    // A backup's PacketOut is dropped with PERMISSION_DENIED; the stream
    // stays open.
    let mut c2 = client(&s).await;
    let mut backup = Stream::open(&mut c2).await;
    backup.arbitrate(5).await;
    assert_eq!(backup.answer().await.unwrap().0, Code::AlreadyExists);
    send_packet_out(&backup, packet_out(payload.clone(), &[3])).await;
    match backup.next_update().await {
        p4::stream_message_response::Update::Error(e) => {
            assert_eq!(e.canonical_code, Code::PermissionDenied as i32)
        }
        other => panic!("not a stream error: {other:?}"),
    }

    // A packet the pipeline punts arrives at the primary (only) as a
    // PacketIn, its packet_in header turned into metadata.
    write(
        &mut c,
        10,
        vec![upd(
            Insert,
            E::TableEntry(fwd_entry(&info, 7, "I.punt", &[42])),
        )],
    )
    .await
    .unwrap();
    let sent = frame(7, 0x0800);
    let rest = s.switch.inject(2, &sent).expect("a pipeline");
    assert!(rest.is_empty(), "{rest:?}");
    match primary.next_update().await {
        p4::stream_message_response::Update::Packet(pi) => {
            assert_eq!(pi.payload, sent);
            let meta: Vec<(u32, Vec<u8>)> = pi
                .metadata
                .into_iter()
                .map(|m| (m.metadata_id, m.value))
                .collect();
            assert_eq!(meta, vec![(1, vec![2]), (2, vec![0]), (3, vec![42])]);
        }
        other => panic!("not a PacketIn: {other:?}"),
    }
    // The backup got nothing: the next thing it sees is the stream ending
    // or nothing at all within a short wait.
    let quiet =
        tokio::time::timeout(std::time::Duration::from_millis(200), backup.rx.message()).await;
    assert!(quiet.is_err(), "the backup received {quiet:?}");

    // The packet_in and packet_out P4Info ids are there (the headers were
    // mapped).
    assert_ne!(id_of(&info, "packet_in"), id_of(&info, "packet_out"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counters_and_registers() {
    let s = start().await;
    let cfg = config();
    let info = cfg.p4info.clone().unwrap();
    let (mut c, _stream) = primary_with(&s, 1, cfg).await;
    let counter = id_of(&info, "I.port_in");
    let register = id_of(&info, "I.seen");
    let table = id_of(&info, "I.fwd");
    write(
        &mut c,
        1,
        vec![
            upd(
                Insert,
                E::TableEntry(fwd_entry(&info, 5, "I.to_port", &[1])),
            ),
            upd(
                Insert,
                E::TableEntry(fwd_entry(&info, 6, "I.to_port", &[2])),
            ),
        ],
    )
    .await
    .unwrap();
    let f = frame(5, 0x0800);
    for _ in 0..3 {
        assert_eq!(s.switch.inject(2, &f).unwrap(), vec![(1, f.clone())]);
    }
    s.switch.inject(3, &frame(6, 0x0800)).unwrap();

    // One cell.
    let cell = |index: Option<i64>| {
        E::CounterEntry(p4::CounterEntry {
            counter_id: counter,
            index: index.map(|index| p4::Index { index }),
            data: None,
        })
    };
    let got = read_one(&mut c, cell(Some(2))).await.unwrap();
    let want = p4::CounterData {
        byte_count: 3 * f.len() as i64,
        packet_count: 3,
    };
    assert_eq!(
        got,
        vec![E::CounterEntry(p4::CounterEntry {
            counter_id: counter,
            index: Some(p4::Index { index: 2 }),
            data: Some(want),
        })]
    );
    // Every cell (index wildcard), and every counter (id 0).
    let all = read_one(&mut c, cell(None)).await.unwrap();
    assert_eq!(all.len(), 8);
    let packets: Vec<i64> = all
        .iter()
        .map(|e| match e {
            E::CounterEntry(c) => c.data.unwrap().packet_count,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(packets, vec![0, 0, 3, 1, 0, 0, 0, 0]);
    let every = read_one(&mut c, E::CounterEntry(Default::default()))
        .await
        .unwrap();
    assert_eq!(every.len(), 8);
    fails_with(read_one(&mut c, cell(Some(8))).await, Code::OutOfRange);
    fails_with(
        read_one(&mut c, cell(Some(-1))).await,
        Code::InvalidArgument,
    );

    // MODIFY sets a cell; without an index, every cell.
    let set = |index: Option<i64>, packets: i64| {
        E::CounterEntry(p4::CounterEntry {
            counter_id: counter,
            index: index.map(|index| p4::Index { index }),
            data: Some(p4::CounterData {
                byte_count: 0,
                packet_count: packets,
            }),
        })
    };
    write(&mut c, 1, vec![upd(Modify, set(Some(2), 100))])
        .await
        .unwrap();
    match &read_one(&mut c, cell(Some(2))).await.unwrap()[0] {
        E::CounterEntry(e) => assert_eq!(e.data.unwrap().packet_count, 100),
        other => panic!("{other:?}"),
    }
    write(&mut c, 1, vec![upd(Modify, set(None, 0))])
        .await
        .unwrap();
    assert!(
        read_one(&mut c, cell(None))
            .await
            .unwrap()
            .iter()
            .all(|e| matches!(
                e,
                E::CounterEntry(p4::CounterEntry { data: Some(d), .. }) if d.packet_count == 0
            ))
    );
    // INSERT, an unknown id, a cell beyond the size: per-update errors.
    let err = write(
        &mut c,
        1,
        vec![
            upd(Insert, set(Some(1), 1)),
            upd(
                Modify,
                E::CounterEntry(p4::CounterEntry {
                    counter_id: 12345,
                    ..Default::default()
                }),
            ),
            upd(Modify, set(Some(99), 1)),
        ],
    )
    .await
    .unwrap_err();
    let codes: Vec<Code> = update_codes(&err).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        codes,
        vec![Code::InvalidArgument, Code::NotFound, Code::OutOfRange]
    );

    // Direct counters: per entry, of one entry or of the whole table.
    let direct = |te: Option<p4::TableEntry>| {
        E::DirectCounterEntry(p4::DirectCounterEntry {
            table_entry: te,
            data: None,
        })
    };
    let mut key = fwd_entry(&info, 5, "I.to_port", &[1]);
    key.action = None;
    let one = read_one(&mut c, direct(Some(key.clone()))).await.unwrap();
    match &one[..] {
        [E::DirectCounterEntry(d)] => {
            assert_eq!(d.data.unwrap().packet_count, 3);
            assert_eq!(d.table_entry.as_ref().unwrap().r#match, key.r#match);
        }
        other => panic!("{other:?}"),
    }
    let whole = read_one(
        &mut c,
        direct(Some(p4::TableEntry {
            table_id: table,
            ..Default::default()
        })),
    )
    .await
    .unwrap();
    let mut counts: Vec<i64> = whole
        .iter()
        .map(|e| match e {
            E::DirectCounterEntry(d) => d.data.unwrap().packet_count,
            other => panic!("{other:?}"),
        })
        .collect();
    counts.sort();
    assert_eq!(counts, vec![1, 3]);
    assert_eq!(read_one(&mut c, direct(None)).await.unwrap().len(), 2);
    // Table entries read with counter_data carry it too.
    let mut filter = key.clone();
    filter.counter_data = Some(p4::CounterData::default());
    match &read_one(&mut c, E::TableEntry(filter)).await.unwrap()[..] {
        [E::TableEntry(te)] => assert_eq!(te.counter_data.unwrap().packet_count, 3),
        other => panic!("{other:?}"),
    }
    let mut missing = key.clone();
    missing.r#match[0].field_match_type =
        Some(F::Exact(p4::field_match::Exact { value: vec![99] }));
    fails_with(
        read_one(&mut c, direct(Some(missing.clone()))).await,
        Code::NotFound,
    );
    // A MODIFY sets one entry's counts; an unknown key or an INSERT fails.
    let set = |te: p4::TableEntry, packets: i64| {
        E::DirectCounterEntry(p4::DirectCounterEntry {
            table_entry: Some(te),
            data: Some(p4::CounterData {
                packet_count: packets,
                byte_count: 10 * packets,
            }),
        })
    };
    write(&mut c, 1, vec![upd(Modify, set(key.clone(), 40))])
        .await
        .unwrap();
    match &read_one(&mut c, direct(Some(key.clone()))).await.unwrap()[..] {
        [E::DirectCounterEntry(d)] => {
            assert_eq!(d.data.unwrap().packet_count, 40);
            assert_eq!(d.data.unwrap().byte_count, 400);
        }
        other => panic!("{other:?}"),
    }
    let err = write(
        &mut c,
        1,
        vec![
            upd(Modify, set(missing, 1)),
            upd(Insert, set(key.clone(), 1)),
        ],
    )
    .await
    .unwrap_err();
    let codes: Vec<Code> = update_codes(&err).into_iter().map(|(c, _)| c).collect();
    assert_eq!(codes, vec![Code::NotFound, Code::InvalidArgument]);

    // Registers: the pipeline counted packets per port; a write then a read.
    let reg = |index: Option<i64>, value: Option<Vec<u8>>| {
        E::RegisterEntry(p4::RegisterEntry {
            register_id: register,
            index: index.map(|index| p4::Index { index }),
            data: value.map(|v| p4::P4Data {
                data: Some(p4::p4_data::Data::Bitstring(v)),
            }),
        })
    };
    let value_at = |got: &[E]| -> Vec<u8> {
        match got {
            [E::RegisterEntry(r)] => match &r.data.as_ref().unwrap().data {
                Some(p4::p4_data::Data::Bitstring(b)) => b.clone(),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        value_at(&read_one(&mut c, reg(Some(2), None)).await.unwrap()),
        vec![3]
    );
    write(
        &mut c,
        1,
        vec![upd(Modify, reg(Some(9), Some(vec![0, 1, 2, 3])))],
    )
    .await
    .unwrap();
    assert_eq!(
        value_at(&read_one(&mut c, reg(Some(9), None)).await.unwrap()),
        vec![1, 2, 3]
    );
    assert_eq!(read_one(&mut c, reg(None, None)).await.unwrap().len(), 16);
    // The pipeline sees the written value.
    write(&mut c, 1, vec![upd(Modify, reg(Some(4), Some(vec![0x10])))])
        .await
        .unwrap();
    s.switch.inject(4, &frame(5, 0x0800)).unwrap();
    assert_eq!(
        value_at(&read_one(&mut c, reg(Some(4), None)).await.unwrap()),
        vec![0x11]
    );
    let err = write(
        &mut c,
        1,
        vec![
            upd(Modify, reg(Some(1), Some(vec![1, 0, 0, 0, 0]))),
            upd(Modify, reg(Some(16), Some(vec![1]))),
            upd(Insert, reg(Some(1), Some(vec![1]))),
            upd(Modify, reg(Some(1), None)),
        ],
    )
    .await
    .unwrap_err();
    let codes: Vec<Code> = update_codes(&err).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        codes,
        vec![
            Code::OutOfRange,
            Code::OutOfRange,
            Code::InvalidArgument,
            Code::InvalidArgument
        ]
    );
}

fn replica(port: u8, instance: u32) -> p4::Replica {
    p4::Replica {
        port_kind: Some(p4::replica::PortKind::Port(vec![port])),
        instance,
        backup_replicas: Vec::new(),
    }
}

fn group(id: u32, replicas: Vec<p4::Replica>) -> E {
    E::PacketReplicationEngineEntry(p4::PacketReplicationEngineEntry {
        r#type: Some(
            p4::packet_replication_engine_entry::Type::MulticastGroupEntry(
                p4::MulticastGroupEntry {
                    multicast_group_id: id,
                    replicas,
                    metadata: Vec::new(),
                },
            ),
        ),
    })
}

fn session(id: u32, replicas: Vec<p4::Replica>) -> E {
    E::PacketReplicationEngineEntry(p4::PacketReplicationEngineEntry {
        r#type: Some(
            p4::packet_replication_engine_entry::Type::CloneSessionEntry(p4::CloneSessionEntry {
                session_id: id,
                replicas,
                class_of_service: 0,
                packet_length_bytes: 0,
            }),
        ),
    })
}

fn ports_of(out: &[(u32, Vec<u8>)]) -> Vec<u32> {
    let mut p: Vec<u32> = out.iter().map(|(p, _)| *p).collect();
    p.sort();
    p
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn multicast_groups_and_clone_sessions() {
    let s = start().await;
    let cfg = config();
    let info = cfg.p4info.clone().unwrap();
    let (mut c, _stream) = primary_with(&s, 1, cfg).await;
    write(
        &mut c,
        1,
        vec![
            upd(Insert, E::TableEntry(fwd_entry(&info, 8, "I.flood", &[5]))),
            upd(
                Insert,
                E::TableEntry(fwd_entry(&info, 5, "I.to_port", &[1])),
            ),
        ],
    )
    .await
    .unwrap();
    let f = frame(8, 0x0800);
    // No group 5 yet: no copies.
    assert!(s.switch.inject(1, &f).unwrap().is_empty());

    write(
        &mut c,
        1,
        vec![upd(
            Insert,
            group(5, vec![replica(2, 0), replica(3, 0), replica(4, 1)]),
        )],
    )
    .await
    .unwrap();
    assert_eq!(ports_of(&s.switch.inject(1, &f).unwrap()), vec![2, 3, 4]);
    let read_groups = read_one(&mut c, group(0, Vec::new())).await.unwrap();
    assert_eq!(
        read_groups,
        vec![group(5, vec![replica(2, 0), replica(3, 0), replica(4, 1)])]
    );

    write(&mut c, 1, vec![upd(Modify, group(5, vec![replica(6, 2)]))])
        .await
        .unwrap();
    assert_eq!(ports_of(&s.switch.inject(1, &f).unwrap()), vec![6]);
    write(&mut c, 1, vec![upd(Delete, group(5, Vec::new()))])
        .await
        .unwrap();
    assert!(s.switch.inject(1, &f).unwrap().is_empty());
    assert!(
        read_one(&mut c, group(0, Vec::new()))
            .await
            .unwrap()
            .is_empty()
    );

    let err = write(
        &mut c,
        1,
        vec![
            upd(Insert, group(0, vec![replica(1, 0)])),
            upd(Modify, group(77, vec![replica(1, 0)])),
            upd(Insert, group(9, vec![replica(1, 0), replica(1, 0)])),
            upd(
                Insert,
                group(
                    10,
                    vec![p4::Replica {
                        port_kind: Some(p4::replica::PortKind::Port(vec![2, 0])),
                        ..Default::default()
                    }],
                ),
            ),
            upd(Insert, group(70000, vec![replica(1, 0)])),
            upd(Insert, group(11, vec![replica(1, 0)])),
            upd(Insert, group(11, vec![replica(2, 0)])),
        ],
    )
    .await
    .unwrap_err();
    let codes: Vec<Code> = update_codes(&err).into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        codes,
        vec![
            Code::InvalidArgument,
            Code::NotFound,
            Code::InvalidArgument,
            Code::InvalidArgument,
            Code::InvalidArgument,
            Code::Ok,
            Code::AlreadyExists,
        ]
    );

    // Clone session 7 with one replica: mirroring to port 9.
    let bad = frame(5, 0x0bad);
    assert_eq!(ports_of(&s.switch.inject(2, &bad).unwrap()), vec![1]);
    write(
        &mut c,
        1,
        vec![upd(Insert, session(7, vec![replica(9, 0)]))],
    )
    .await
    .unwrap();
    let out = s.switch.inject(2, &bad).unwrap();
    assert_eq!(ports_of(&out), vec![1, 9]);
    assert!(out.iter().all(|(_, b)| *b == bad));
    // Several replicas: through a multicast group of the server's.
    write(
        &mut c,
        1,
        vec![upd(Modify, session(7, vec![replica(9, 0), replica(10, 1)]))],
    )
    .await
    .unwrap();
    assert_eq!(ports_of(&s.switch.inject(2, &bad).unwrap()), vec![1, 9, 10]);
    assert_eq!(
        read_one(&mut c, session(0, Vec::new())).await.unwrap(),
        vec![session(7, vec![replica(9, 0), replica(10, 1)])]
    );
    // The group made for it is not the client's to write.
    let err = write(
        &mut c,
        1,
        vec![upd(Insert, group(65535, vec![replica(1, 0)]))],
    )
    .await
    .unwrap_err();
    assert_eq!(update_codes(&err)[0].0, Code::ResourceExhausted);
    // Reads of the PRE see groups and sessions apart; the group of 65535
    // is not among the client's groups.
    assert_eq!(
        read_one(&mut c, group(0, Vec::new())).await.unwrap().len(),
        1
    );
    write(&mut c, 1, vec![upd(Delete, session(7, Vec::new()))])
        .await
        .unwrap();
    assert_eq!(ports_of(&s.switch.inject(2, &bad).unwrap()), vec![1]);
    let err = write(&mut c, 1, vec![upd(Delete, session(7, Vec::new()))])
        .await
        .unwrap_err();
    assert_eq!(update_codes(&err)[0].0, Code::NotFound);
}
