//! `@p4runtime_translation` served (P4Runtime 1.5 §8.4.6, §17.1): SDN
//! values (strings, 32-bit ports) mapped to the data plane's on writes,
//! PacketOut, and back on reads, PacketIn and digests; operator-pinned
//! mappings (`janus.Translation` extern entries); allocation rules,
//! exhaustion, rollback, and the mappings surviving a restart and a
//! snapshot. Through the real gRPC server; every wait is bounded.

mod common;

use common::*;
use janus_ctrl::proto::janus::Translation;
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use janus_ctrl::translation::{TRANSLATION_EXTERN_TYPE, TRANSLATION_TYPE_URL};
use p4::entity::Entity as E;
use p4::field_match::FieldMatchType as F;
use p4::update::Type::{Delete, Insert, Modify};
use p4::write_request::Atomicity;
use prost::Message;
use tonic::Code;
use tonic::transport::Channel;

/// `vrf_of` gives a source MAC its VRF (a string type of 4 bits, so 16
/// VRFs fill it); `route` sends (VRF, destination MAC) to a port named by
/// a string, or to the CPU with the ingress port as a 32-bit SDN port;
/// `acl` matches the SDN port ternary. Every packet sends a digest with
/// the ingress port's name. PacketOuts name their port.
const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>

@p4runtime_translation("janus.test/port_name", string)
type bit<9> port_name_t;
@p4runtime_translation("janus.test/vrf", string)
type bit<4> vrf_t;
@p4runtime_translation("p4.org/psa/v1/PortId_t", 32)
type bit<9> sdn_port_t;

@controller_header("packet_in")
header packet_in_t { sdn_port_t ingress_port; bit<7> _pad; }
@controller_header("packet_out")
header packet_out_t { port_name_t egress_port; bit<7> _pad; }
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { packet_in_t packet_in; packet_out_t packet_out; ethernet_t eth; }
struct meta_t { vrf_t vrf; sdn_port_t port; }
struct seen_t { port_name_t port; bit<48> src; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start {
        transition select(sm.ingress_port) { 510: parse_out; default: parse_eth; }
    }
    state parse_out { pkt.extract(hdr.packet_out); transition parse_eth; }
    state parse_eth { pkt.extract(hdr.eth); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action set_vrf(vrf_t vrf) { m.vrf = vrf; }
    action fwd(port_name_t port) { sm.egress_spec = (bit<9>) port; }
    action to_cpu() {
        sm.egress_spec = 510;
        hdr.packet_in.setValid();
        hdr.packet_in.ingress_port = (sdn_port_t) sm.ingress_port;
    }
    action drop() { mark_to_drop(sm); }
    table vrf_of {
        key = { hdr.eth.src: exact; }
        actions = { set_vrf; NoAction; }
    }
    table route {
        key = { m.vrf: exact; hdr.eth.dst: exact; }
        actions = { fwd; to_cpu; drop; }
        default_action = drop();
    }
    table acl {
        key = { m.port: ternary; }
        actions = { drop; NoAction; }
    }
    apply {
        if (hdr.packet_out.isValid()) {
            sm.egress_spec = (bit<9>) hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
            exit;
        }
        m.port = (sdn_port_t) sm.ingress_port;
        vrf_of.apply();
        route.apply();
        acl.apply();
        digest<seen_t>(1, { (port_name_t) sm.ingress_port, hdr.eth.src });
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.packet_in); pkt.emit(hdr.eth); }
}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

const ELECTION: u64 = 10;

fn config() -> p4::ForwardingPipelineConfig {
    pipeline_config("translation_test.p4", PROGRAM.to_string(), Some(7))
}

struct Ids {
    vrf_of: u32,
    route: u32,
    acl: u32,
    set_vrf: u32,
    fwd: u32,
    to_cpu: u32,
    drop: u32,
    digest: u32,
}

fn ids_of(info: &cfg::P4Info) -> Ids {
    let id = ids(info);
    Ids {
        vrf_of: id("I.vrf_of"),
        route: id("I.route"),
        acl: id("I.acl"),
        set_vrf: id("I.set_vrf"),
        fwd: id("I.fwd"),
        to_cpu: id("I.to_cpu"),
        drop: id("I.drop"),
        digest: info.digests[0].preamble.as_ref().unwrap().id,
    }
}

fn exact(field_id: u32, value: &[u8]) -> p4::FieldMatch {
    p4::FieldMatch {
        field_id,
        field_match_type: Some(F::Exact(p4::field_match::Exact {
            value: value.to_vec(),
        })),
    }
}

fn mac(last: u8) -> Vec<u8> {
    vec![2, 0, 0, 0, 0, last]
}

fn vrf_entry(ids: &Ids, src: u8, vrf: &str) -> p4::TableEntry {
    p4::TableEntry {
        table_id: ids.vrf_of,
        r#match: vec![exact(1, &mac(src))],
        action: action(ids.set_vrf, &[vrf.as_bytes()]),
        ..Default::default()
    }
}

fn route_entry(ids: &Ids, vrf: &str, dst: u8, port: Option<&str>) -> p4::TableEntry {
    p4::TableEntry {
        table_id: ids.route,
        r#match: vec![exact(1, vrf.as_bytes()), exact(2, &mac(dst))],
        action: match port {
            Some(p) => action(ids.fwd, &[p.as_bytes()]),
            None => action(ids.to_cpu, &[]),
        },
        ..Default::default()
    }
}

fn mapping(type_name: &str, sdn: &[u8], dp: &[u8], pinned: bool) -> E {
    E::ExternEntry(p4::ExternEntry {
        extern_type_id: TRANSLATION_EXTERN_TYPE,
        extern_id: 0,
        entry: Some(prost_types::Any {
            type_url: TRANSLATION_TYPE_URL.into(),
            value: Translation {
                type_name: type_name.into(),
                sdn_value: sdn.to_vec(),
                dp_value: dp.to_vec(),
                pinned,
            }
            .encode_to_vec(),
        }),
    })
}

/// Every mapping the server reports: (type, SDN value, data-plane value,
/// pinned).
async fn mappings(c: &mut P4RuntimeClient<Channel>) -> Vec<(String, Vec<u8>, Vec<u8>, bool)> {
    read_entities(
        c,
        vec![entity(E::ExternEntry(p4::ExternEntry {
            extern_type_id: TRANSLATION_EXTERN_TYPE,
            ..Default::default()
        }))],
    )
    .await
    .expect("read the mappings")
    .into_iter()
    .map(|e| match e.entity {
        Some(E::ExternEntry(x)) => {
            let t = Translation::decode(x.entry.expect("an entry").value.as_slice()).unwrap();
            (t.type_name, t.sdn_value, t.dp_value, t.pinned)
        }
        other => panic!("not a translation: {other:?}"),
    })
    .collect()
}

async fn writes(
    c: &P4RuntimeClient<Channel>,
    updates: Vec<p4::Update>,
    atomicity: Atomicity,
) -> Result<(), tonic::Status> {
    lib_client(c, "", ELECTION)
        .write(updates, atomicity)
        .await
        .map(|_| ())
        .map_err(status)
}

async fn write_one(c: &P4RuntimeClient<Channel>, u: p4::Update) -> Result<(), tonic::Status> {
    writes(c, vec![u], Atomicity::ContinueOnError).await
}

/// The code of the one update of a failed write.
fn code_of(r: Result<(), tonic::Status>) -> Code {
    let s = r.expect_err("the write should fail");
    update_codes(&s).first().map_or(s.code(), |(c, _)| *c)
}

fn frame(dst: u8, src: u8) -> Vec<u8> {
    let mut f = mac(dst);
    f.extend(mac(src));
    f.extend_from_slice(&[0x08, 0x00]);
    f.extend_from_slice(b"janus translation payload");
    f
}

/// The port a frame from `src` to `dst` entering port `port` leaves by.
fn out_port(s: &Server, port: u32, dst: u8, src: u8) -> Option<u32> {
    s.switch
        .inject(port, &frame(dst, src))
        .expect("the packet goes through")
        .first()
        .map(|(p, _)| *p)
}

async fn read_table(c: &mut P4RuntimeClient<Channel>, table: u32) -> Vec<p4::TableEntry> {
    read_entities(
        c,
        vec![entity(E::TableEntry(p4::TableEntry {
            table_id: table,
            ..Default::default()
        }))],
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_p4info_presents_sdn_types() {
    let info = config().p4info.unwrap();
    let ti = info.type_info.as_ref().expect("type_info");
    use cfg::p4_new_type_spec::Representation;
    use cfg::p4_new_type_translation::SdnType;
    let sdn = |name: &str| match &ti.new_types[name].representation {
        Some(Representation::TranslatedType(t)) => (t.uri.clone(), t.sdn_type),
        other => panic!("{name}: {other:?}"),
    };
    assert_eq!(
        sdn("vrf_t"),
        (
            "janus.test/vrf".into(),
            Some(SdnType::SdnString(
                cfg::p4_new_type_translation::SdnString {}
            ))
        )
    );
    assert_eq!(sdn("sdn_port_t").1, Some(SdnType::SdnBitwidth(32)));
    let route = info
        .tables
        .iter()
        .find(|t| t.preamble.as_ref().unwrap().name == "I.route")
        .unwrap();
    let vrf = &route.match_fields[0];
    assert_eq!(
        (vrf.bitwidth, vrf.type_name.as_ref().unwrap().name.as_str()),
        (0, "vrf_t")
    );
    let acl = info
        .tables
        .iter()
        .find(|t| t.preamble.as_ref().unwrap().name == "I.acl")
        .unwrap();
    assert_eq!(acl.match_fields[0].bitwidth, 32);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strings_and_sdn_ports_are_translated_both_ways() {
    let (s, mut ports) = start_with_ports().await;
    let cfg = config();
    let ids = ids_of(cfg.p4info.as_ref().unwrap());
    let (mut c, mut stream) = primary_with(&s, ELECTION, cfg).await;

    // The operator names port 3 "Ethernet3"; "7" is its own number.
    write_one(
        &c,
        upd(Insert, mapping("port_name_t", b"Ethernet3", &[3], true)),
    )
    .await
    .expect("pin Ethernet3");
    writes(
        &c,
        vec![
            upd(Insert, E::TableEntry(vrf_entry(&ids, 1, "vrf-blue"))),
            upd(Insert, E::TableEntry(vrf_entry(&ids, 2, "vrf-red"))),
            upd(
                Insert,
                E::TableEntry(route_entry(&ids, "vrf-blue", 9, Some("Ethernet3"))),
            ),
            upd(
                Insert,
                E::TableEntry(route_entry(&ids, "vrf-red", 9, Some("7"))),
            ),
            upd(Insert, E::TableEntry(route_entry(&ids, "vrf-red", 8, None))),
        ],
        Atomicity::ContinueOnError,
    )
    .await
    .expect("write");
    assert_eq!(
        out_port(&s, 1, 9, 1),
        Some(3),
        "vrf-blue routes to Ethernet3"
    );
    assert_eq!(
        out_port(&s, 1, 9, 2),
        Some(7),
        "vrf-red routes to port \"7\""
    );

    // Reads give the SDN values back as written.
    let mut routes = read_table(&mut c, ids.route).await;
    routes.sort_by_key(|e| e.encode_to_vec());
    let mut want = vec![
        route_entry(&ids, "vrf-blue", 9, Some("Ethernet3")),
        route_entry(&ids, "vrf-red", 9, Some("7")),
        route_entry(&ids, "vrf-red", 8, None),
    ];
    want.sort_by_key(|e| e.encode_to_vec());
    assert_eq!(routes, want);
    // A read filter with an SDN value finds its entry; one with a value
    // nothing holds finds none.
    let filtered = |vrf: &str| p4::TableEntry {
        table_id: ids.route,
        r#match: vec![exact(1, vrf.as_bytes()), exact(2, &mac(9))],
        ..Default::default()
    };
    let got = read_entities(&mut c, vec![entity(E::TableEntry(filtered("vrf-blue")))])
        .await
        .unwrap();
    assert_eq!(got.len(), 1);
    let got = read_entities(&mut c, vec![entity(E::TableEntry(filtered("vrf-green")))])
        .await
        .unwrap();
    assert!(got.is_empty());
    // The allocations: strings without a number of their own take the
    // highest free value; "7" keeps 7.
    assert_eq!(
        mappings(&mut c).await,
        vec![
            ("port_name_t".into(), b"Ethernet3".to_vec(), vec![3], true),
            ("port_name_t".into(), b"7".to_vec(), vec![7], false),
            ("vrf_t".into(), b"vrf-red".to_vec(), vec![14], false),
            ("vrf_t".into(), b"vrf-blue".to_vec(), vec![15], false),
        ]
    );

    // The digest names the ingress port: port 3 is "Ethernet3", port 1
    // (unmapped) reads as its number.
    write_one(
        &c,
        upd(
            Insert,
            E::DigestEntry(p4::DigestEntry {
                digest_id: ids.digest,
                config: Some(p4::digest_entry::Config {
                    max_timeout_ns: 0,
                    max_list_size: 1,
                    ack_timeout_ns: 0,
                }),
            }),
        ),
    )
    .await
    .expect("digest config");
    // PacketIn: the ingress port as a 32-bit SDN port (its own number).
    out_port(&s, 3, 8, 2);
    let mut packet_in = None;
    let mut digest_ports = Vec::new();
    while packet_in.is_none() || digest_ports.is_empty() {
        match stream.next_update().await {
            p4::stream_message_response::Update::Packet(p) => packet_in = Some(p),
            p4::stream_message_response::Update::Digest(d) => {
                for data in d.data {
                    let Some(p4::p4_data::Data::Struct(s)) = data.data else {
                        panic!("a struct digest");
                    };
                    match &s.members[0].data {
                        Some(p4::p4_data::Data::Bitstring(b)) => digest_ports.push(b.clone()),
                        other => panic!("{other:?}"),
                    }
                }
            }
            _ => {}
        }
    }
    assert_eq!(packet_in.unwrap().metadata[0].value, vec![3]);
    assert_eq!(digest_ports, vec![b"Ethernet3".to_vec()]);

    // A PacketOut naming "Ethernet3" leaves by port 3; one naming a port
    // nobody mapped is dropped (PacketOuts do not allocate).
    let packet_out = |port: &[u8]| p4::StreamMessageRequest {
        update: Some(p4::stream_message_request::Update::Packet(p4::PacketOut {
            payload: frame(1, 2),
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
        })),
    };
    within(stream.tx.send(packet_out(b"Ethernet3")))
        .await
        .unwrap();
    assert_eq!(within(ports.recv()).await.expect("a frame").0, 3);
    within(stream.tx.send(packet_out(b"Ethernet99")))
        .await
        .unwrap();
    match stream.next_update().await {
        p4::stream_message_response::Update::Error(e) => {
            assert_eq!(e.canonical_code, Code::InvalidArgument as i32, "{e:?}");
        }
        other => panic!("expected a stream error, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allocation_fails_cleanly_and_leaves_nothing_behind() {
    let s = start().await;
    let cfg = config();
    let ids = ids_of(cfg.p4info.as_ref().unwrap());
    let (mut c, _stream) = primary_with(&s, ELECTION, cfg).await;
    // 16 VRFs fill bit<4>; the 17th is RESOURCE_EXHAUSTED.
    for k in 0..16u8 {
        write_one(
            &c,
            upd(
                Insert,
                E::TableEntry(vrf_entry(&ids, k, &format!("vrf-{k}"))),
            ),
        )
        .await
        .expect("a VRF");
    }
    assert_eq!(
        code_of(
            write_one(
                &c,
                upd(Insert, E::TableEntry(vrf_entry(&ids, 16, "vrf-16")))
            )
            .await
        ),
        Code::ResourceExhausted
    );
    let before = mappings(&mut c).await;
    assert_eq!(before.len(), 16);
    // A refused update leaves no mapping: a duplicate entry naming a new
    // port in its action.
    let dup = route_entry(&ids, "vrf-0", 1, Some("Ethernet1"));
    write_one(&c, upd(Insert, E::TableEntry(dup.clone())))
        .await
        .unwrap();
    let with_port = mappings(&mut c).await;
    let mut again = dup.clone();
    again.action = action(ids.fwd, &[b"Ethernet2"]);
    assert_eq!(
        code_of(write_one(&c, upd(Insert, E::TableEntry(again))).await),
        Code::AlreadyExists
    );
    assert_eq!(mappings(&mut c).await, with_port);
    // Nor does a batch rolled back.
    let r = writes(
        &c,
        vec![
            upd(
                Insert,
                E::TableEntry(route_entry(&ids, "vrf-1", 1, Some("Ethernet5"))),
            ),
            upd(Insert, E::TableEntry(dup)),
        ],
        Atomicity::RollbackOnError,
    )
    .await;
    assert!(r.is_err());
    assert_eq!(mappings(&mut c).await, with_port);
    // A DELETE or MODIFY naming an unmapped value finds no entry, and
    // maps nothing.
    assert_eq!(
        code_of(
            write_one(
                &c,
                upd(Delete, E::TableEntry(route_entry(&ids, "vrf-x", 1, None)))
            )
            .await
        ),
        Code::NotFound
    );
    assert_eq!(mappings(&mut c).await, with_port);

    // A mapping in use cannot be deleted; once unused it can, and its
    // value goes to the next allocation.
    let blue = mapping("vrf_t", b"vrf-0", &[15], false);
    assert_eq!(
        code_of(write_one(&c, upd(Delete, blue.clone())).await),
        Code::FailedPrecondition
    );
    write_one(
        &c,
        upd(Delete, E::TableEntry(route_entry(&ids, "vrf-0", 1, None))),
    )
    .await
    .unwrap();
    write_one(&c, upd(Delete, E::TableEntry(vrf_entry(&ids, 0, "vrf-0"))))
        .await
        .unwrap();
    write_one(&c, upd(Delete, blue))
        .await
        .expect("the unused mapping goes");
    write_one(
        &c,
        upd(Insert, E::TableEntry(vrf_entry(&ids, 16, "vrf-16"))),
    )
    .await
    .expect("vrf-16 takes the freed value");
    assert!(mappings(&mut c).await.contains(&(
        "vrf_t".into(),
        b"vrf-16".to_vec(),
        vec![15],
        false
    )));

    // Pins that conflict are ALREADY_EXISTS; a pin of an unknown type is
    // NOT_FOUND; MODIFY can pin an allocated mapping but not move it.
    assert_eq!(
        code_of(write_one(&c, upd(Insert, mapping("vrf_t", b"vrf-1", &[3], true))).await),
        Code::AlreadyExists
    );
    assert_eq!(
        code_of(write_one(&c, upd(Insert, mapping("nope_t", b"x", &[3], true))).await),
        Code::NotFound
    );
    write_one(&c, upd(Modify, mapping("vrf_t", b"vrf-1", &[14], true)))
        .await
        .expect("pinned");
    assert_eq!(
        code_of(write_one(&c, upd(Modify, mapping("vrf_t", b"vrf-1", &[2], true))).await),
        Code::InvalidArgument
    );

    // With the type full, values nothing holds any more are reclaimed,
    // pinned ones never: vrf-1 (pinned) and vrf-2 lose their entries;
    // vrf-17 takes vrf-2's value, and vrf-18 finds none.
    for (src, vrf) in [(1, "vrf-1"), (2, "vrf-2")] {
        write_one(&c, upd(Delete, E::TableEntry(vrf_entry(&ids, src, vrf))))
            .await
            .unwrap();
    }
    // Not inside an all-or-nothing batch.
    assert!(
        writes(
            &c,
            vec![upd(Insert, E::TableEntry(vrf_entry(&ids, 17, "vrf-17")))],
            Atomicity::RollbackOnError,
        )
        .await
        .is_err()
    );
    write_one(
        &c,
        upd(Insert, E::TableEntry(vrf_entry(&ids, 17, "vrf-17"))),
    )
    .await
    .expect("vrf-17 takes a reclaimed value");
    let now = mappings(&mut c).await;
    assert!(
        now.contains(&("vrf_t".into(), b"vrf-17".to_vec(), vec![13], false)),
        "{now:?}"
    );
    assert!(now.contains(&("vrf_t".into(), b"vrf-1".to_vec(), vec![14], true)));
    assert!(!now.iter().any(|m| m.1 == b"vrf-2"));
    assert_eq!(
        code_of(
            write_one(
                &c,
                upd(Insert, E::TableEntry(vrf_entry(&ids, 18, "vrf-18")))
            )
            .await
        ),
        Code::ResourceExhausted
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_match_kinds_translate_only_when_exact() {
    let s = start().await;
    let cfg = config();
    let ids = ids_of(cfg.p4info.as_ref().unwrap());
    let (mut c, _stream) = primary_with(&s, ELECTION, cfg).await;
    let acl = |value: &[u8], mask: &[u8]| p4::TableEntry {
        table_id: ids.acl,
        r#match: vec![p4::FieldMatch {
            field_id: 1,
            field_match_type: Some(F::Ternary(p4::field_match::Ternary {
                value: value.to_vec(),
                mask: mask.to_vec(),
            })),
        }],
        action: action(ids.drop, &[]),
        priority: 10,
        ..Default::default()
    };
    // An all-ones mask of the SDN width is an exact match on the port.
    let exact_port = acl(&[0, 0, 0, 4], &[0xff; 4]);
    write_one(&c, upd(Insert, E::TableEntry(exact_port)))
        .await
        .expect("exact acl");
    assert_eq!(out_port(&s, 4, 1, 1), None, "port 4 is dropped");
    let mut read = read_table(&mut c, ids.acl).await;
    assert_eq!(read.len(), 1);
    let e = read.pop().unwrap();
    assert_eq!(
        e.r#match,
        acl(&[4], &[0xff; 4]).r#match,
        "read back canonical"
    );
    // Any other mask cannot be translated.
    assert_eq!(
        code_of(write_one(&c, upd(Insert, E::TableEntry(acl(&[4], &[0xff])))).await),
        Code::InvalidArgument
    );
    // A 32-bit SDN port beyond the data plane's 9 bits (SDN_PORT_CPU)
    // gets the highest free value, and reads back as written.
    write_one(
        &c,
        upd(
            Insert,
            E::TableEntry(acl(&[0xff, 0xff, 0xff, 0xfd], &[0xff; 4])),
        ),
    )
    .await
    .expect("a wide SDN port");
    assert!(mappings(&mut c).await.contains(&(
        "sdn_port_t".into(),
        vec![0xff, 0xff, 0xff, 0xfd],
        vec![1, 0xff],
        false
    )));
    // More than 32 bits is OUT_OF_RANGE.
    assert_eq!(
        code_of(
            write_one(
                &c,
                upd(Insert, E::TableEntry(acl(&[1, 0, 0, 0, 0], &[0xff; 4])))
            )
            .await
        ),
        Code::OutOfRange
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mappings_survive_a_restart_and_a_snapshot() {
    for snapshot_every in [0, 2] {
        let mut state = state_dir("translation", &format!("restart-{snapshot_every}"));
        state.snapshot_every = snapshot_every;
        let cfg = config();
        let ids = ids_of(cfg.p4info.as_ref().unwrap());
        let before = {
            let s = start_in(&state).await;
            let (mut c, _stream) = primary_with(&s, ELECTION, cfg.clone()).await;
            // Allocated in an order a snapshot would not replay them in:
            // red before blue, then blue's entry before red's.
            write_one(
                &c,
                upd(Insert, E::TableEntry(vrf_entry(&ids, 2, "vrf-red"))),
            )
            .await
            .unwrap();
            write_one(
                &c,
                upd(Insert, E::TableEntry(vrf_entry(&ids, 1, "vrf-blue"))),
            )
            .await
            .unwrap();
            write_one(
                &c,
                upd(Delete, E::TableEntry(vrf_entry(&ids, 2, "vrf-red"))),
            )
            .await
            .unwrap();
            write_one(
                &c,
                upd(Insert, E::TableEntry(vrf_entry(&ids, 3, "vrf-red"))),
            )
            .await
            .unwrap();
            write_one(
                &c,
                upd(Insert, mapping("port_name_t", b"Ethernet3", &[3], true)),
            )
            .await
            .unwrap();
            write_one(
                &c,
                upd(
                    Insert,
                    E::TableEntry(route_entry(&ids, "vrf-blue", 9, Some("Ethernet3"))),
                ),
            )
            .await
            .unwrap();
            assert_eq!(out_port(&s, 1, 9, 1), Some(3));
            mappings(&mut c).await
        };
        wait_unlocked(&state).await;
        let s = start_in(&state).await;
        let mut c = client(&s).await;
        assert_eq!(
            mappings(&mut c).await,
            before,
            "snapshot_every {snapshot_every}"
        );
        assert_eq!(out_port(&s, 1, 9, 1), Some(3));
        drop(s);
        let _ = std::fs::remove_dir_all(&state.dir);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operators_file_is_pinned_in_every_pipeline() {
    let file = janus_ctrl::translation::TranslationFile::parse(
        "# the switch config\nport_name_t \"Ethernet 4\" 4\njanus.test/vrf vrf-file 3\nunknown_t x 1\n",
    )
    .expect("the file parses");
    let s = start_with(move |svc| svc.set_translation_file(file)).await;
    let cfg = config();
    let ids = ids_of(cfg.p4info.as_ref().unwrap());
    let (mut c, _stream) = primary_with(&s, ELECTION, cfg.clone()).await;
    let pinned = vec![
        (
            "port_name_t".to_string(),
            b"Ethernet 4".to_vec(),
            vec![4],
            true,
        ),
        ("vrf_t".to_string(), b"vrf-file".to_vec(), vec![3], true),
    ];
    assert_eq!(mappings(&mut c).await, pinned);
    writes(
        &c,
        vec![
            upd(Insert, E::TableEntry(vrf_entry(&ids, 1, "vrf-file"))),
            upd(
                Insert,
                E::TableEntry(route_entry(&ids, "vrf-file", 9, Some("Ethernet 4"))),
            ),
        ],
        Atomicity::RollbackOnError,
    )
    .await
    .expect("write");
    assert_eq!(out_port(&s, 1, 9, 1), Some(4));
    // A new pipeline starts from the file's mappings again.
    set_pipeline(
        &mut c,
        ELECTION,
        cfg,
        p4::set_forwarding_pipeline_config_request::Action::VerifyAndCommit,
    )
    .await
    .expect("pipeline set again");
    assert_eq!(mappings(&mut c).await, pinned);
    // A pinned mapping the file gave cannot be taken by another value.
    assert_eq!(
        code_of(
            write_one(
                &c,
                upd(Insert, mapping("port_name_t", b"Ethernet5", &[4], true))
            )
            .await
        ),
        Code::AlreadyExists
    );
}
