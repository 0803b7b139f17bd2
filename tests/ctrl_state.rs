//! `janus ctrl serve --state DIR` killed with SIGKILL while a client writes
//! batches (and the journal is compacted every few batches): after a
//! restart every acknowledged batch is there, and every batch is there
//! whole or not at all. A damaged journal stops the server (exit 1, the
//! file untouched) until `janus ctrl journal recover` rewrites it;
//! `janus ctrl journal check` reports it, and both refuse to run while a
//! server holds the directory.

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
    serve_with(dir, prog, &[]).expect("the server starts")
}

/// Starts `janus ctrl serve --state dir --p4 prog ARGS`: the server once it
/// prints its address, or its exit code and error line.
fn serve_with(dir: &Path, prog: &Path, args: &[&str]) -> Result<Server, (Option<i32>, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_janus"))
        .args(["ctrl", "serve", "--insecure", "--listen", "127.0.0.1:0"])
        .arg("--state")
        .arg(dir)
        .arg("--p4")
        .arg(prog)
        .args(args)
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
    match rx
        .recv_timeout(LIMIT)
        .expect("the server prints its address or an error")
    {
        Ok(addr) => {
            server.addr = addr;
            Ok(server)
        }
        Err(line) => {
            let status = server.child.wait().expect("the server exits");
            Err((status.code(), line))
        }
    }
}

/// `janus ctrl journal ARGS`: exit code, stdout, stderr.
fn journal_cmd(args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_janus"))
        .args(["ctrl", "journal"])
        .args(args)
        .arg("--state")
        .arg(dir)
        .output()
        .expect("janus runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janus-ctrl-state-{name}-{}", std::process::id()));
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

/// Becomes the primary (election id 1); the stream's two ends.
async fn become_primary(
    c: &mut P4RuntimeClient<Channel>,
) -> (
    mpsc::Sender<p4::StreamMessageRequest>,
    tonic::Streaming<p4::StreamMessageResponse>,
) {
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
    (tx, stream)
}

/// Inserts the entries of batch `n` (all or nothing; unbounded: callers
/// bound it).
async fn write_batch(
    c: &mut P4RuntimeClient<Channel>,
    table: u32,
    action: u32,
    n: u16,
) -> Result<(), tonic::Status> {
    let updates = keys(n)
        .map(|k| p4::Update {
            r#type: p4::update::Type::Insert as i32,
            entity: Some(p4::Entity {
                entity: Some(p4::entity::Entity::TableEntry(entry(table, action, k))),
            }),
        })
        .collect();
    c.write(p4::WriteRequest {
        device_id: 1,
        election_id: Some(p4::Uint128 { high: 0, low: 1 }),
        updates,
        atomicity: p4::write_request::Atomicity::RollbackOnError as i32,
        ..Default::default()
    })
    .await
    .map(|_| ())
}

/// The keys of the table's entries.
async fn present_keys(
    c: &mut P4RuntimeClient<Channel>,
    table: u32,
) -> std::collections::BTreeSet<u16> {
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
    present
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_batches_survive_kill_9_whole() {
    let dir = temp_dir("kill");
    let prog = dir.join("prog.p4");
    std::fs::write(&prog, PROGRAM).unwrap();
    let state = dir.join("state");
    // Compacted every 7 batches: the kill may land in a compaction.
    let server = serve_with(&state, &prog, &["--snapshot-every", "7"]).expect("starts");
    let mut c = connect(&server).await;
    let (table, action) = ids(&mut c).await;
    let (tx, stream) = become_primary(&mut c).await;

    // Write batches until the server dies under the writer.
    let acked = Arc::new(Mutex::new(Vec::<u16>::new()));
    let writer = {
        let acked = acked.clone();
        let mut c = c.clone();
        tokio::spawn(async move {
            for n in 0..2000u16 {
                let sent = write_batch(&mut c, table, action, n);
                match tokio::time::timeout(LIMIT, sent).await {
                    Ok(Ok(())) => acked.lock().unwrap().push(n),
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

    // The killed server left an intact journal (maybe a torn tail).
    let (code, out, err) = journal_cmd(&["check"], &state);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("snapshot: seq"), "compacted: {out}");

    // Restart from the same directory (same --p4: the restored pipeline
    // wins) and read the table back.
    let server = serve(&state, &prog);
    let mut c = connect(&server).await;
    let present = present_keys(&mut c, table).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_journal_stops_the_server_until_recovered() {
    let dir = temp_dir("damaged");
    let prog = dir.join("prog.p4");
    std::fs::write(&prog, PROGRAM).unwrap();
    let state = dir.join("state");
    let (table, action) = {
        let server = serve(&state, &prog);
        let mut c = connect(&server).await;
        let ids = ids(&mut c).await;
        let _primary = become_primary(&mut c).await;
        for n in 0..3 {
            within(write_batch(&mut c, ids.0, ids.1, n))
                .await
                .expect("write");
        }
        ids
    };
    // A byte flipped in the middle batch (record 2).
    let path = state.join("journal");
    let mut bytes = std::fs::read(&path).unwrap();
    let contents = janus_ctrl::journal::parse(&bytes).expect("intact");
    assert_eq!(contents.records.len(), 4);
    let (kept, middle) = (contents.records[1].seq, contents.records[2].clone());
    bytes[(middle.offset + middle.len - 1) as usize] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();

    // The server refuses to start, naming the record; the file stays.
    let (code, line) = match serve_with(&state, &prog, &[]) {
        Ok(_) => panic!("a server started on a damaged journal"),
        Err(e) => e,
    };
    assert_eq!(code, Some(1), "{line}");
    for part in [
        "record 2".to_string(),
        format!("seq {}", middle.seq),
        format!("offset {}", middle.offset),
        format!(
            "janus ctrl journal recover --state {} --up-to {kept}",
            state.display()
        ),
    ] {
        assert!(line.contains(&part), "{part:?} in {line}");
    }
    assert_eq!(std::fs::read(&path).unwrap(), bytes);

    let (code, out, err) = journal_cmd(&["check"], &state);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("damaged: record 2"), "{out}");
    assert!(out.contains("records: 2 intact"), "{out}");
    let (code, out, err) = journal_cmd(&["recover", "--up-to", &(kept + 1).to_string()], &state);
    assert_eq!(code, Some(1), "past the intact records: {out}{err}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);

    let (code, out, err) = journal_cmd(&["recover", "--up-to", &kept.to_string()], &state);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        std::fs::read(state.join("journal.damaged-1")).unwrap(),
        bytes
    );
    let (code, out, _) = journal_cmd(&["check", "--records"], &state);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("intact"), "{out}");

    // The server starts with batch 0 only; check and recover refuse while
    // it runs.
    let server = serve(&state, &prog);
    let mut c = connect(&server).await;
    let present = present_keys(&mut c, table).await;
    assert_eq!(present, keys(0).collect());
    let (code, _, err) = journal_cmd(&["check"], &state);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("in use"), "{err}");
    let (code, _, err) = journal_cmd(&["recover", "--up-to", "0"], &state);
    assert_eq!(code, Some(2), "{err}");
    let _ = action;
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
