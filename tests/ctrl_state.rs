//! `janus ctrl serve --state DIR` killed with SIGKILL while a client writes
//! batches: after a restart every acknowledged batch is there, and every
//! batch is there whole or not at all.

use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;

const LIMIT: Duration = Duration::from_secs(30);
/// Entries each batch inserts.
const PER_BATCH: u16 = 4;

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
    action to_port(bit<9> port) { sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }
    table by_type { key = { hdr.eth.etype: exact; } actions = { to_port; drop; } default_action = drop(); size = 65536; }
    apply { by_type.apply(); }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

/// The server process, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `janus ctrl serve --state dir --p4 prog` and waits (bounded) for
/// the address it prints.
fn serve(dir: &Path, prog: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_janus"))
        .args(["ctrl", "serve", "--insecure", "--listen", "127.0.0.1:0"])
        .arg("--state")
        .arg(dir)
        .arg("--p4")
        .arg(prog)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("janus runs");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(rest) = line.split(" on ").nth(1)
                && let Some(addr) = rest.split(',').next()
                && let Ok(addr) = addr.parse::<SocketAddr>()
            {
                let _ = tx.send(Ok(addr));
            } else if line.starts_with("error") {
                let _ = tx.send(Err(line));
            }
        }
    });
    let mut server = Server {
        child,
        addr: "127.0.0.1:0".parse().unwrap(),
    };
    server.addr = rx
        .recv_timeout(LIMIT)
        .expect("the server prints its address")
        .expect("the server starts");
    server
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janus-ctrl-state-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

async fn within<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(LIMIT, f).await.expect("timed out")
}

async fn connect(s: &Server) -> P4RuntimeClient<Channel> {
    within(P4RuntimeClient::connect(format!("http://{}", s.addr)))
        .await
        .expect("connect")
}

/// Ids of the table and action, from the server's P4Info.
async fn ids(c: &mut P4RuntimeClient<Channel>) -> (u32, u32) {
    let info = within(
        c.get_forwarding_pipeline_config(p4::GetForwardingPipelineConfigRequest {
            device_id: 1,
            response_type: 2,
        }),
    )
    .await
    .expect("get")
    .into_inner()
    .config
    .and_then(|c| c.p4info)
    .expect("a P4Info");
    let table = info.tables[0].preamble.as_ref().unwrap().id;
    let action = info
        .actions
        .iter()
        .filter_map(|a| a.preamble.as_ref())
        .find(|p| p.name == "I.to_port")
        .unwrap()
        .id;
    (table, action)
}

fn entry(table: u32, action: u32, key: u16) -> p4::TableEntry {
    p4::TableEntry {
        table_id: table,
        r#match: vec![p4::FieldMatch {
            field_id: 1,
            field_match_type: Some(p4::field_match::FieldMatchType::Exact(
                p4::field_match::Exact {
                    value: key.to_be_bytes().to_vec(),
                },
            )),
        }],
        action: Some(p4::TableAction {
            r#type: Some(p4::table_action::Type::Action(p4::Action {
                action_id: action,
                params: vec![p4::action::Param {
                    param_id: 1,
                    value: vec![1],
                }],
            })),
        }),
        ..Default::default()
    }
}

/// The keys batch `n` inserts.
fn keys(n: u16) -> impl Iterator<Item = u16> {
    (0..PER_BATCH).map(move |j| 1 + n * PER_BATCH + j)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_batches_survive_kill_9_whole() {
    let dir = temp_dir();
    let prog = dir.join("prog.p4");
    std::fs::write(&prog, PROGRAM).unwrap();
    let state = dir.join("state");
    let server = serve(&state, &prog);
    let mut c = connect(&server).await;
    let (table, action) = ids(&mut c).await;

    // Become the primary.
    let (tx, rx) = mpsc::channel(4);
    let mut stream = within(c.stream_channel(ReceiverStream::new(rx)))
        .await
        .expect("stream")
        .into_inner();
    tx.send(p4::StreamMessageRequest {
        update: Some(p4::stream_message_request::Update::Arbitration(
            p4::MasterArbitrationUpdate {
                device_id: 1,
                role: None,
                election_id: Some(p4::Uint128 { high: 0, low: 1 }),
                status: None,
            },
        )),
    })
    .await
    .unwrap();
    within(stream.message()).await.expect("arbitration answer");

    // Write batches until the server dies under the writer.
    let acked = Arc::new(Mutex::new(Vec::<u16>::new()));
    let writer = {
        let acked = acked.clone();
        let mut c = c.clone();
        tokio::spawn(async move {
            for n in 0..2000u16 {
                let updates = keys(n)
                    .map(|k| p4::Update {
                        r#type: p4::update::Type::Insert as i32,
                        entity: Some(p4::Entity {
                            entity: Some(p4::entity::Entity::TableEntry(entry(table, action, k))),
                        }),
                    })
                    .collect();
                let sent = c.write(p4::WriteRequest {
                    device_id: 1,
                    election_id: Some(p4::Uint128 { high: 0, low: 1 }),
                    updates,
                    atomicity: p4::write_request::Atomicity::RollbackOnError as i32,
                    ..Default::default()
                });
                match tokio::time::timeout(LIMIT, sent).await {
                    Ok(Ok(_)) => acked.lock().unwrap().push(n),
                    _ => return n,
                }
            }
            2000
        })
    };
    // Let some batches through, then SIGKILL mid-stream.
    within(async {
        while acked.lock().unwrap().len() < 25 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    drop(server);
    let attempted = within(writer).await.expect("the writer ends");
    drop(stream);
    drop(tx);
    let acked = acked.lock().unwrap().clone();
    assert!(acked.len() >= 25 && attempted < 2000, "{attempted}");

    // Restart from the same directory (same --p4: the restored pipeline
    // wins) and read the table back.
    let server = serve(&state, &prog);
    let mut c = connect(&server).await;
    let mut read = within(c.read(p4::ReadRequest {
        device_id: 1,
        entities: vec![p4::Entity {
            entity: Some(p4::entity::Entity::TableEntry(p4::TableEntry {
                table_id: table,
                ..Default::default()
            })),
        }],
        ..Default::default()
    }))
    .await
    .expect("read")
    .into_inner();
    let mut present = std::collections::BTreeSet::new();
    while let Some(r) = within(read.message()).await.expect("read stream") {
        for e in r.entities {
            let Some(p4::entity::Entity::TableEntry(te)) = e.entity else {
                panic!("not a table entry");
            };
            let Some(p4::field_match::FieldMatchType::Exact(x)) =
                te.r#match[0].field_match_type.clone()
            else {
                panic!("not exact");
            };
            let mut key = [0u8; 2];
            key[2 - x.value.len()..].copy_from_slice(&x.value);
            present.insert(u16::from_be_bytes(key));
        }
    }
    for n in 0..=attempted {
        let here = keys(n).filter(|k| present.contains(k)).count();
        assert!(
            here == 0 || here == usize::from(PER_BATCH),
            "batch {n} is half there ({here} of {PER_BATCH})"
        );
        if acked.contains(&n) {
            assert_eq!(
                here,
                usize::from(PER_BATCH),
                "acknowledged batch {n} is lost"
            );
        }
    }
    assert!(
        present.len() <= (acked.len() + 1) * usize::from(PER_BATCH),
        "at most the batch in flight beyond the acknowledged ones"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
