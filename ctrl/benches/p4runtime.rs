//! P4Runtime over loopback: table-entry writes per second in batches of 1
//! and 1,000, the latency of single writes and of batches of 1,000 while
//! the table fills to 1M entries (p50/p99, printed), clone sessions of four
//! replicas in batches of 10,000, and reading back 1M entries. Server and client run in one process on a
//! multi-threaded tokio runtime, over real TCP and HTTP/2 (plaintext, no
//! `--state`).

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use janus_ctrl::client::{Client, ClientConfig};
use janus_ctrl::listen::serve;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::server::P4RuntimeService;
use p4::write_request::Atomicity;
use std::time::{Duration, Instant};
use tokio::runtime::Runtime;

/// One exact 32-bit key, one action with one parameter.
const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header h_t { bit<32> key; }
struct headers_t { h_t h; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action fwd(bit<9> port) { sm.egress_spec = port; }
    table t {
        key = { hdr.h.key : exact; }
        actions = { fwd; NoAction; }
        size = 1100000;
    }
    apply { t.apply(); }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

struct Bench {
    rt: Runtime,
    /// Primary (election id 1) for as long as it lives.
    client: Client,
    table_id: u32,
    action_id: u32,
}

impl Bench {
    fn start() -> Bench {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let c =
            janus_p4::driver::compile_source("bench.p4", PROGRAM.to_string(), &Default::default());
        assert!(!c.has_errors(), "{}", c.render(false));
        let info = janus_ctrl::p4info::to_proto(&janus_p4::p4info::build(c.program().unwrap()));
        let config = p4::ForwardingPipelineConfig {
            p4info: Some(info.clone()),
            p4_device_config: janus_p4::pipeline::Pipeline::from_compilation(&c).to_bytes(),
            cookie: None,
        };
        let id = |name: &str| {
            info.tables
                .iter()
                .filter_map(|t| t.preamble.as_ref())
                .chain(info.actions.iter().filter_map(|a| a.preamble.as_ref()))
                .find(|p| p.name == name)
                .expect("in the P4Info")
                .id
        };
        let (table_id, action_id) = (id("I.t"), id("I.fwd"));
        let client = rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let service = P4RuntimeService::new(1);
            tokio::spawn(serve(service, listener, std::future::pending()));
            let mut client = Client::connect(ClientConfig::new(addr.to_string()))
                .await
                .expect("connect");
            let arbitration = client.become_primary().await.expect("arbitration");
            assert!(arbitration.is_primary(), "{arbitration:?}");
            client
                .set_pipeline(
                    p4::set_forwarding_pipeline_config_request::Action::VerifyAndCommit,
                    config,
                )
                .await
                .expect("pipeline");
            client
        });
        Bench {
            rt,
            client,
            table_id,
            action_id,
        }
    }

    fn update(&self, kind: p4::update::Type, key: u32) -> p4::Update {
        p4::Update {
            r#type: kind as i32,
            entity: Some(p4::Entity {
                entity: Some(p4::entity::Entity::TableEntry(p4::TableEntry {
                    table_id: self.table_id,
                    r#match: vec![p4::FieldMatch {
                        field_id: 1,
                        field_match_type: Some(p4::field_match::FieldMatchType::Exact(
                            p4::field_match::Exact {
                                value: canonical(key),
                            },
                        )),
                    }],
                    action: Some(p4::TableAction {
                        r#type: Some(p4::table_action::Type::Action(p4::Action {
                            action_id: self.action_id,
                            params: vec![p4::action::Param {
                                param_id: 1,
                                value: vec![(key % 500) as u8 + 1],
                            }],
                        })),
                    }),
                    ..Default::default()
                })),
            }),
        }
    }

    /// Clone session `id` copying to ports 1 to 4 (replication ids 0, 1).
    fn session(kind: p4::update::Type, id: u32) -> p4::Update {
        let replicas = (1..=4u8)
            .map(|port| p4::Replica {
                port_kind: Some(p4::replica::PortKind::Port(vec![port])),
                instance: u32::from(port % 2),
                backup_replicas: Vec::new(),
            })
            .collect();
        p4::Update {
            r#type: kind as i32,
            entity: Some(p4::Entity {
                entity: Some(p4::entity::Entity::PacketReplicationEngineEntry(
                    p4::PacketReplicationEngineEntry {
                        r#type: Some(
                            p4::packet_replication_engine_entry::Type::CloneSessionEntry(
                                p4::CloneSessionEntry {
                                    session_id: id,
                                    replicas,
                                    class_of_service: 0,
                                    packet_length_bytes: 0,
                                },
                            ),
                        ),
                    },
                )),
            }),
        }
    }

    fn write(&mut self, updates: Vec<p4::Update>) {
        let client = &mut self.client;
        self.rt
            .block_on(client.write(updates, Atomicity::ContinueOnError))
            .expect("the write succeeds");
    }

    fn read_all(&mut self) -> usize {
        let filter = p4::Entity {
            entity: Some(p4::entity::Entity::TableEntry(p4::TableEntry {
                table_id: self.table_id,
                ..Default::default()
            })),
        };
        // Each entity decoded and dropped as it arrives, as a controller
        // that walks a large table does.
        let client = &mut self.client;
        self.rt
            .block_on(client.read_each(vec![filter], drop))
            .expect("read")
    }
}

/// The canonical bytes of `v` (no leading zero bytes, at least one byte).
fn canonical(v: u32) -> Vec<u8> {
    let bytes = v.to_be_bytes();
    let first = bytes.iter().position(|&b| b != 0).unwrap_or(3);
    bytes[first..].to_vec()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

/// Single-update writes one after the other: p50 and p99 latency, printed
/// (criterion reports means, the target is a tail).
fn single_write_latency(b: &mut Bench) {
    const N: u32 = 20_000;
    let mut samples = Vec::with_capacity(N as usize);
    for key in 0..N {
        let kind = if key % 2 == 0 {
            p4::update::Type::Insert
        } else {
            p4::update::Type::Delete
        };
        let u = b.update(kind, 1_000_000 + key / 2);
        let t = Instant::now();
        b.write(vec![u]);
        samples.push(t.elapsed());
    }
    samples.sort();
    println!(
        "single-update Write latency over {N} writes: p50 {:?}, p99 {:?}, max {:?}",
        percentile(&samples, 0.50),
        percentile(&samples, 0.99),
        samples[samples.len() - 1]
    );
}

fn benches(c: &mut Criterion) {
    let mut b = Bench::start();
    single_write_latency(&mut b);

    let mut g = c.benchmark_group("p4runtime_write");
    g.sample_size(20).measurement_time(Duration::from_secs(8));
    g.throughput(Throughput::Elements(1));
    let mut flip = false;
    g.bench_function("batch_of_1", |bench| {
        bench.iter(|| {
            // Insert and delete the same key by turns: every write is one
            // real change, and the table does not grow.
            flip = !flip;
            let kind = if flip {
                p4::update::Type::Insert
            } else {
                p4::update::Type::Delete
            };
            let u = b.update(kind, 7);
            b.write(vec![u]);
        })
    });
    // Each iteration writes 1,000 inserts then 1,000 deletes: 2,000 updates.
    g.throughput(Throughput::Elements(2000));
    let mut base = 0u32;
    g.bench_function("batch_of_1000", |bench| {
        bench.iter_batched(
            || {
                base = base.wrapping_add(1000) % 100_000_000;
                (base..base + 1000).collect::<Vec<u32>>()
            },
            |keys| {
                let updates = keys
                    .iter()
                    .map(|&k| b.update(p4::update::Type::Insert, k))
                    .collect();
                b.write(updates);
                // Undo, so that every batch inserts into the same table
                // size (measured too: the same cost as the inserts).
                let updates = keys
                    .iter()
                    .map(|&k| b.update(p4::update::Type::Delete, k))
                    .collect();
                b.write(updates);
            },
            BatchSize::SmallInput,
        )
    });
    // 10,000 clone sessions of four replicas inserted, then deleted: the
    // path that was quadratic (every session took a switch group by
    // scanning all of them).
    g.throughput(Throughput::Elements(20_000));
    g.bench_function("clone_sessions_10k_of_4_replicas", |bench| {
        bench.iter(|| {
            let ids = 1..=10_000u32;
            b.write(
                ids.clone()
                    .map(|i| Bench::session(p4::update::Type::Insert, i))
                    .collect(),
            );
            b.write(
                ids.map(|i| Bench::session(p4::update::Type::Delete, i))
                    .collect(),
            );
        })
    });
    g.finish();
    // batch_of_1 may have ended on an insert.
    if flip {
        let u = b.update(p4::update::Type::Delete, 7);
        b.write(vec![u]);
    }

    // 1M entries in batches of 1,000 (each batch timed), read back with
    // one wildcard read.
    fill_latency(&mut b, 1_000_000);
    assert_eq!(b.read_all(), 1_000_000);
    let mut g = c.benchmark_group("p4runtime_read");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.throughput(Throughput::Elements(1_000_000));
    g.bench_function("wildcard_1m_entries", |bench| {
        bench.iter(|| assert_eq!(b.read_all(), 1_000_000))
    });
    g.finish();
}

/// Fills the table with `n` entries in batches of 1,000 inserts, timing
/// each batch: p50 and p99 printed, as for single writes.
fn fill_latency(b: &mut Bench, n: u32) {
    let mut samples = Vec::with_capacity((n / 1000) as usize);
    let started = Instant::now();
    for chunk in 0..n / 1000 {
        let first = 10_000_000 + chunk * 1000;
        let updates = (first..first + 1000)
            .map(|k| b.update(p4::update::Type::Insert, k))
            .collect();
        let t = Instant::now();
        b.write(updates);
        samples.push(t.elapsed());
    }
    let total = started.elapsed();
    samples.sort();
    println!(
        "{n} inserts in batches of 1,000 in {total:?} ({:.0} entries/s): per batch p50 {:?}, p99 {:?}, max {:?}",
        f64::from(n) / total.as_secs_f64(),
        percentile(&samples, 0.50),
        percentile(&samples, 0.99),
        samples[samples.len() - 1]
    );
}

criterion_group!(p4runtime, benches);
criterion_main!(p4runtime);
