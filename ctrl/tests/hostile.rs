//! Malformed and hostile requests: protobuf bodies mangled on the wire,
//! huge batches, messages over the size limit, unknown ids and wrong
//! widths. The server answers each with a status, keeps serving, and what
//! it stored (its journal) still restores to exactly what it serves.

mod common;

use bytes::{Buf, BufMut};
use common::*;
use janus_ctrl::journal::StateConfig;
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use p4::entity::Entity as E;
use p4::update::Type::Insert;
use prost::Message;
use tonic::Code;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::Channel;

const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { ethernet_t eth; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    counter(64, CounterType.packets_and_bytes) hits;
    register<bit<16>>(64) marks;
    action fwd(bit<9> port) { sm.egress_spec = port; }
    action mark(bit<16> v) { marks.write(0, v); }
    table l2 {
        key = { hdr.eth.dst : exact; }
        actions = { fwd; mark; NoAction; }
        size = 300000;
    }
    table acl {
        key = { hdr.eth.src : ternary; hdr.eth.etype : range; }
        actions = { fwd; NoAction; }
    }
    apply { hits.count(0); l2.apply(); acl.apply(); }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

fn config() -> p4::ForwardingPipelineConfig {
    pipeline_config("hostile.p4", PROGRAM.to_string(), None)
}

/// Sends and receives protobuf bodies as raw bytes.
#[derive(Clone, Copy, Default)]
struct Raw;
struct RawEncoder;
struct RawDecoder;

impl Encoder for RawEncoder {
    type Item = Vec<u8>;
    type Error = tonic::Status;
    fn encode(&mut self, item: Vec<u8>, dst: &mut EncodeBuf<'_>) -> Result<(), tonic::Status> {
        dst.put_slice(&item);
        Ok(())
    }
}

impl Decoder for RawDecoder {
    type Item = Vec<u8>;
    type Error = tonic::Status;
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Vec<u8>>, tonic::Status> {
        let mut out = vec![0; src.remaining()];
        src.copy_to_slice(&mut out);
        Ok(Some(out))
    }
}

impl Codec for Raw {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
    type Encoder = RawEncoder;
    type Decoder = RawDecoder;
    fn encoder(&mut self) -> RawEncoder {
        RawEncoder
    }
    fn decoder(&mut self) -> RawDecoder {
        RawDecoder
    }
}

/// Calls the unary `method` of the P4Runtime service with `body` as its
/// encoded request.
async fn raw_call(
    channel: &Channel,
    method: &'static str,
    body: Vec<u8>,
) -> Result<Vec<u8>, tonic::Status> {
    let mut grpc = tonic::client::Grpc::new(channel.clone());
    within(grpc.ready()).await.expect("channel ready");
    let path = PathAndQuery::from_static(method);
    within(grpc.unary(tonic::Request::new(body), path, Raw))
        .await
        .map(tonic::Response::into_inner)
}

/// A small deterministic generator (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// `bytes` with a few random flips, cuts, insertions or duplications.
fn mangle(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for _ in 0..1 + rng.below(4) {
        match rng.below(5) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            1 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = rng.next() as u8;
            }
            2 => b.truncate(rng.below(b.len() + 1)),
            3 => {
                let i = rng.below(b.len() + 1);
                b.insert(i, rng.next() as u8);
            }
            _ if !b.is_empty() => {
                let i = rng.below(b.len());
                let j = i + rng.below(b.len() - i);
                let piece = b[i..=j.min(b.len() - 1)].to_vec();
                b.splice(i..i, piece);
            }
            _ => {}
        }
    }
    b
}

fn l2_entry(info: &cfg::P4Info, dst: u64, port: u8) -> p4::TableEntry {
    let id = ids(info);
    p4::TableEntry {
        table_id: id("I.l2"),
        r#match: vec![p4::FieldMatch {
            field_id: 1,
            field_match_type: Some(p4::field_match::FieldMatchType::Exact(
                p4::field_match::Exact {
                    value: dst.to_be_bytes()[2..].to_vec(),
                },
            )),
        }],
        action: action(id("I.fwd"), &[&[port]]),
        ..Default::default()
    }
}

fn acl_entry(info: &cfg::P4Info, src: u8, lo: u8, hi: u8) -> p4::TableEntry {
    let id = ids(info);
    p4::TableEntry {
        table_id: id("I.acl"),
        r#match: vec![
            p4::FieldMatch {
                field_id: 1,
                field_match_type: Some(p4::field_match::FieldMatchType::Ternary(
                    p4::field_match::Ternary {
                        value: vec![src],
                        mask: vec![0xff],
                    },
                )),
            },
            p4::FieldMatch {
                field_id: 2,
                field_match_type: Some(p4::field_match::FieldMatchType::Range(
                    p4::field_match::Range {
                        low: vec![lo],
                        high: vec![hi],
                    },
                )),
            },
        ],
        action: action(id("I.fwd"), &[&[1]]),
        priority: 5,
        ..Default::default()
    }
}

fn everything_filter(info: &cfg::P4Info) -> Vec<p4::Entity> {
    let counter = info.counters[0].preamble.as_ref().unwrap().id;
    let register = info.registers[0].preamble.as_ref().unwrap().id;
    vec![
        p4::Entity {
            entity: Some(E::TableEntry(p4::TableEntry::default())),
        },
        p4::Entity {
            entity: Some(E::CounterEntry(p4::CounterEntry {
                counter_id: counter,
                ..Default::default()
            })),
        },
        p4::Entity {
            entity: Some(E::RegisterEntry(p4::RegisterEntry {
                register_id: register,
                ..Default::default()
            })),
        },
        p4::Entity {
            entity: Some(E::PacketReplicationEngineEntry(
                p4::PacketReplicationEngineEntry::default(),
            )),
        },
    ]
}

#[tokio::test]
async fn mangled_requests_get_statuses_and_stored_state_stays_sound() {
    let dir = std::env::temp_dir().join(format!("janus-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let state = StateConfig::new(dir.clone());
    let cfg = config();
    let info = cfg.p4info.clone().unwrap();
    let live = {
        let s = start_in(&state).await;
        let (mut c, _primary) = primary_with(&s, 1, cfg.clone()).await;
        write(
            &mut c,
            1,
            vec![
                update(Insert, l2_entry(&info, 0x0200_0000_0001, 1)),
                update(Insert, acl_entry(&info, 9, 10, 20)),
            ],
        )
        .await
        .unwrap();

        // Valid requests of every shape, to mangle.
        let mut seeds: Vec<(&'static str, Vec<u8>)> = Vec::new();
        for atomicity in 0..3 {
            seeds.push((
                "/p4.v1.P4Runtime/Write",
                p4::WriteRequest {
                    device_id: DEVICE,
                    election_id: election(1),
                    atomicity,
                    updates: vec![
                        update(Insert, l2_entry(&info, 0x0200_0000_0002, 2)),
                        update(Insert, acl_entry(&info, 3, 1, 2)),
                        update(
                            p4::update::Type::Delete,
                            l2_entry(&info, 0x0200_0000_0001, 1),
                        ),
                    ],
                    ..Default::default()
                }
                .encode_to_vec(),
            ));
        }
        seeds.push((
            "/p4.v1.P4Runtime/Read",
            p4::ReadRequest {
                device_id: DEVICE,
                entities: everything_filter(&info),
                ..Default::default()
            }
            .encode_to_vec(),
        ));
        seeds.push((
            "/p4.v1.P4Runtime/SetForwardingPipelineConfig",
            p4::SetForwardingPipelineConfigRequest {
                device_id: DEVICE,
                election_id: election(1),
                action: 1,
                config: Some(cfg.clone()),
                ..Default::default()
            }
            .encode_to_vec(),
        ));
        seeds.push(("/p4.v1.P4Runtime/Capabilities", Vec::new()));
        let channel = Channel::from_shared(format!("http://{}", s.addr))
            .unwrap()
            .connect()
            .await
            .unwrap();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut answered, mut refused) = (0, 0);
        for round in 0..600 {
            let (method, seed) = &seeds[round % seeds.len()];
            let body = mangle(&mut rng, seed);
            match raw_call(&channel, method, body).await {
                Ok(_) => answered += 1,
                Err(status) => {
                    refused += 1;
                    assert_ne!(
                        status.code(),
                        Code::Unavailable,
                        "the server went away: {status:?}"
                    );
                }
            }
        }
        assert!(
            answered > 0 && refused > 0,
            "{answered} answered, {refused} refused"
        );
        // Still serving, and every entry it holds can be deleted: the
        // control plane's maps and the switch agree.
        let held = read_entities(&mut c, everything_filter(&info))
            .await
            .unwrap();
        let entries: Vec<p4::TableEntry> = held
            .iter()
            .filter_map(|e| match &e.entity {
                Some(E::TableEntry(t)) => Some(t.clone()),
                _ => None,
            })
            .collect();
        assert!(!entries.is_empty());
        held
    };
    // What was stored restores to exactly what was served.
    wait_for_unlock(&state).await;
    let s = start_in(&state).await;
    let mut c = client(&s).await;
    let restored = read_entities(&mut c, everything_filter(&info))
        .await
        .unwrap();
    assert_eq!(restored, live);
    let _ = std::fs::remove_dir_all(&dir);
}

async fn wait_for_unlock(state: &StateConfig) {
    let until = std::time::Instant::now() + LIMIT;
    loop {
        match janus_ctrl::journal::Journal::open(state) {
            Ok(_) => return,
            Err(_) if std::time::Instant::now() < until => {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await
            }
            Err(e) => panic!("the state stays locked: {e}"),
        }
    }
}

#[tokio::test]
async fn huge_batches_unknown_ids_and_wrong_widths() {
    let s = start().await;
    let cfg = config();
    let info = cfg.p4info.clone().unwrap();
    let (mut c, _primary) = primary_with(&s, 1, cfg).await;

    // 200,000 inserts in one batch (about 6 MB): applied.
    let batch: Vec<p4::Update> = (0..200_000u64)
        .map(|i| update(Insert, l2_entry(&info, 0x0400_0000_0000 + i, 1)))
        .collect();
    write(&mut c, 1, batch).await.expect("a big batch");
    let n = read_entities(
        &mut c,
        vec![p4::Entity {
            entity: Some(E::TableEntry(p4::TableEntry {
                table_id: ids(&info)("I.l2"),
                ..Default::default()
            })),
        }],
    )
    .await
    .unwrap()
    .len();
    assert_eq!(n, 200_000);

    // Over the 64 MiB message limit: refused whole, the server stays.
    let channel = Channel::from_shared(format!("http://{}", s.addr))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut big = p4::WriteRequest {
        device_id: DEVICE,
        election_id: election(1),
        ..Default::default()
    }
    .encode_to_vec();
    // An unknown field (number 15, bytes) of 65 MiB.
    let len = 65usize << 20;
    big.push(15 << 3 | 2);
    let mut v = len;
    while v >= 0x80 {
        big.push((v as u8) | 0x80);
        v >>= 7;
    }
    big.push(v as u8);
    big.resize(big.len() + len, 0);
    let e = raw_call(&channel, "/p4.v1.P4Runtime/Write", big)
        .await
        .unwrap_err();
    assert!(
        matches!(
            e.code(),
            Code::ResourceExhausted | Code::OutOfRange | Code::InvalidArgument
        ),
        "{e:?}"
    );

    // Unknown ids and wrong widths: per-update errors, the good one applied.
    let id = ids(&info);
    let mut unknown_table = l2_entry(&info, 1, 1);
    unknown_table.table_id = 0x0200_0bad;
    let mut unknown_action = l2_entry(&info, 2, 1);
    unknown_action.action = action(0x0100_0bad, &[&[1]]);
    let mut wide_key = l2_entry(&info, 3, 1);
    wide_key.r#match[0].field_match_type = Some(p4::field_match::FieldMatchType::Exact(
        p4::field_match::Exact { value: vec![1; 7] },
    ));
    let mut wide_param = l2_entry(&info, 4, 1);
    wide_param.action = action(id("I.fwd"), &[&[2, 0]]);
    let mut unknown_field = l2_entry(&info, 5, 1);
    unknown_field.r#match[0].field_id = 9;
    let e = write(
        &mut c,
        1,
        vec![
            update(Insert, unknown_table),
            update(Insert, unknown_action),
            update(Insert, wide_key),
            update(Insert, wide_param),
            update(Insert, unknown_field),
            update(Insert, l2_entry(&info, 6, 1)),
        ],
    )
    .await
    .unwrap_err();
    let codes: Vec<Code> = update_codes(&e).into_iter().map(|(c, _)| c).collect();
    assert_eq!(codes.len(), 6);
    assert_eq!(codes[0], Code::NotFound);
    assert_eq!(codes[2], Code::OutOfRange);
    assert_eq!(codes[3], Code::OutOfRange);
    assert!(codes[1] != Code::Ok && codes[4] != Code::Ok, "{codes:?}");
    assert_eq!(codes[5], Code::Ok);

    // Still serving.
    let mut c2: P4RuntimeClient<Channel> = client(&s).await;
    within(c2.capabilities(p4::CapabilitiesRequest::default()))
        .await
        .expect("capabilities");
}

/// A pushed program may include only the built-in architecture files: an
/// `#include` of a file on the server's disk (absolute, `../` relative,
/// or inside a pipeline file) is refused with INVALID_ARGUMENT, and the
/// answer quotes nothing of the file.
#[tokio::test]
async fn pushed_programs_cannot_include_server_files() {
    use p4::set_forwarding_pipeline_config_request::Action;
    const SECRET: &str = "janus_hostile_secret_line_7c41 = 1;";
    let dir = std::env::temp_dir().join(format!("janus-hostile-include-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let secret = dir.join("secret.p4");
    std::fs::write(&secret, format!("{SECRET}\n")).unwrap();
    // The same file by a path relative to the server's working directory.
    let cwd = std::env::current_dir().unwrap();
    let up = "../".repeat(cwd.components().count().saturating_sub(1));
    let relative = format!(
        "{up}{}",
        secret.display().to_string().trim_start_matches('/')
    );
    assert!(std::path::Path::new(&relative).is_file(), "{relative}");

    let s = start().await;
    let mut c = client(&s).await;
    let mut stream = Stream::open(&mut c).await;
    stream.arbitrate(1).await;
    assert_eq!(stream.answer().await.unwrap().0, Code::Ok);

    let includes = [
        "\"/etc/shadow\"".to_string(),
        format!("\"{}\"", secret.display()),
        format!("\"{relative}\""),
        format!("<{}>", secret.display()),
    ];
    for include in &includes {
        let source = format!("#include {include}\n{PROGRAM}");
        // As P4 source, and inside a pipeline file.
        let as_file = janus_p4::pipeline::Pipeline {
            name: "hostile".into(),
            source: source.clone(),
            p4info: String::new(),
        }
        .to_bytes();
        for device_config in [source.clone().into_bytes(), as_file] {
            let mut cfg = config();
            cfg.p4_device_config = device_config;
            let e = set_pipeline(&mut c, 1, cfg, Action::Verify)
                .await
                .unwrap_err();
            assert_eq!(e.code(), Code::InvalidArgument, "{include}: {e:?}");
            let msg = e.message();
            assert!(
                msg.contains(&format!("`#include {include}` is not allowed")),
                "{include}: {msg}"
            );
            assert!(!msg.contains("janus_hostile_secret"), "{include}: {msg}");
            assert!(!msg.contains("root:"), "{include}: {msg}");
        }
    }
    // The built-in files are still there.
    set_pipeline(&mut c, 1, config(), Action::Verify)
        .await
        .expect("the program verifies");
    let _ = std::fs::remove_dir_all(&dir);
}
