//! The state directory: a server restarted from it reads back what was
//! written; a torn or corrupt tail is dropped; refused batches leave the
//! journal alone; a second server cannot share the directory.

mod common;

use common::*;
use janus_ctrl::journal::{Journal, JournalError, StateConfig};
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use janus_ctrl::server::P4RuntimeService;
use p4::entity::Entity as E;
use p4::update::Type;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tonic::Code;
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
    counter(8, CounterType.packets) hits;
    action to_port(bit<9> port) { sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }
    table fwd { key = { hdr.eth.dst: exact; } actions = { to_port; drop; } default_action = drop(); size = 64; }
    apply { hits.count((bit<32>) sm.ingress_port); fwd.apply(); }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

fn config() -> p4::ForwardingPipelineConfig {
    pipeline_config("journal.p4", PROGRAM.to_string(), Some(7))
}

fn state_dir(name: &str) -> StateConfig {
    let dir = std::env::temp_dir().join(format!("janus-journal-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    StateConfig { dir }
}

fn journal_path(cfg: &StateConfig) -> PathBuf {
    cfg.dir.join("journal")
}

struct Ids {
    fwd: u32,
    to_port: u32,
    hits: u32,
}

fn ids() -> Ids {
    let c = config();
    let info = c.p4info.unwrap();
    let name = |n: &str| {
        info.tables
            .iter()
            .map(|t| &t.preamble)
            .chain(info.actions.iter().map(|a| &a.preamble))
            .chain(info.counters.iter().map(|c| &c.preamble))
            .flatten()
            .find(|p| p.name == n)
            .unwrap_or_else(|| panic!("no {n}"))
            .id
    };
    Ids {
        fwd: name("I.fwd"),
        to_port: name("I.to_port"),
        hits: name("I.hits"),
    }
}

fn route(ids: &Ids, dst: u8, port: u8) -> p4::Update {
    update(
        Type::Insert,
        p4::TableEntry {
            table_id: ids.fwd,
            r#match: vec![p4::FieldMatch {
                field_id: 1,
                field_match_type: Some(p4::field_match::FieldMatchType::Exact(
                    p4::field_match::Exact { value: vec![dst] },
                )),
            }],
            action: action(ids.to_port, &[&[port]]),
            ..Default::default()
        },
    )
}

fn counter(ids: &Ids, index: i64, packets: i64) -> p4::Update {
    p4::Update {
        r#type: Type::Modify as i32,
        entity: Some(p4::Entity {
            entity: Some(E::CounterEntry(p4::CounterEntry {
                counter_id: ids.hits,
                index: Some(p4::Index { index }),
                data: Some(p4::CounterData {
                    packet_count: packets,
                    byte_count: 0,
                }),
            })),
        }),
    }
}

/// A server restoring `cfg`.
async fn start_in(cfg: &StateConfig) -> Server {
    let cfg = cfg.clone();
    start_with(move |s| {
        s.restore(&cfg).expect("the state restores");
    })
    .await
}

/// Waits (bounded) until the state directory's lock is free again after a
/// server was dropped.
async fn wait_unlocked(cfg: &StateConfig) {
    let until = Instant::now() + LIMIT;
    loop {
        match Journal::open(cfg) {
            Ok(_) => return,
            Err(JournalError::Locked(_)) if Instant::now() < until => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => panic!("the lock stays held: {e}"),
        }
    }
}

async fn everything(c: &mut P4RuntimeClient<Channel>, ids: &Ids) -> Vec<p4::Entity> {
    read_entities(
        c,
        vec![
            p4::Entity {
                entity: Some(E::TableEntry(p4::TableEntry::default())),
            },
            p4::Entity {
                entity: Some(E::CounterEntry(p4::CounterEntry {
                    counter_id: ids.hits,
                    ..Default::default()
                })),
            },
        ],
    )
    .await
    .expect("read")
}

/// Writes the pipeline and three batches into a fresh state directory;
/// returns what a read gives after each batch.
async fn fill(cfg: &StateConfig, ids: &Ids) -> Vec<Vec<p4::Entity>> {
    let s = start_in(cfg).await;
    let (mut c, _stream) = primary_with(&s, 1, config()).await;
    let mut seen = vec![everything(&mut c, ids).await];
    for n in 1..=3u8 {
        write(
            &mut c,
            1,
            vec![
                route(ids, n, n),
                counter(ids, i64::from(n), 10 * i64::from(n)),
            ],
        )
        .await
        .expect("write");
        seen.push(everything(&mut c, ids).await);
    }
    seen
}

async fn restarted(cfg: &StateConfig, ids: &Ids) -> Vec<p4::Entity> {
    wait_unlocked(cfg).await;
    let s = start_in(cfg).await;
    let mut c = client(&s).await;
    everything(&mut c, ids).await
}

#[tokio::test]
async fn a_restarted_server_reads_back_what_was_written() {
    let cfg = state_dir("restart");
    let ids = ids();
    let seen = fill(&cfg, &ids).await;
    let s = {
        wait_unlocked(&cfg).await;
        start_in(&cfg).await
    };
    let mut c = client(&s).await;
    assert_eq!(everything(&mut c, &ids).await, seen[3]);
    let got = within(
        c.get_forwarding_pipeline_config(p4::GetForwardingPipelineConfigRequest {
            device_id: DEVICE,
            response_type: 0,
        }),
    )
    .await
    .expect("get")
    .into_inner()
    .config
    .expect("a config");
    assert_eq!(got, config());
    let _ = std::fs::remove_dir_all(&cfg.dir);
}

#[tokio::test]
async fn a_torn_or_corrupt_tail_is_dropped() {
    let ids = ids();
    // Cut mid-record: the last batch goes, the rest stays.
    let cfg = state_dir("torn");
    let seen = fill(&cfg, &ids).await;
    let path = journal_path(&cfg);
    let full = std::fs::read(&path).unwrap().len() as u64;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(full - 3)
        .unwrap();
    assert_eq!(restarted(&cfg, &ids).await, seen[2]);
    let kept = std::fs::read(&path).unwrap().len() as u64;
    assert!(kept < full - 3, "the torn record was truncated away");

    // A byte flipped in the (new) last record: that batch goes too.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 2;
    bytes[last] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(restarted(&cfg, &ids).await, seen[1]);
    let _ = std::fs::remove_dir_all(&cfg.dir);
}

#[tokio::test]
async fn refused_batches_leave_the_journal_unchanged() {
    use p4::write_request::Atomicity;
    let cfg = state_dir("refused");
    let ids = ids();
    let s = start_in(&cfg).await;
    let (mut c, _stream) = primary_with(&s, 1, config()).await;
    write(&mut c, 1, vec![route(&ids, 1, 1)]).await.unwrap();
    let before = std::fs::read(journal_path(&cfg)).unwrap();
    // Every update fails.
    let e = write(&mut c, 1, vec![route(&ids, 1, 2)]).await.unwrap_err();
    assert_eq!(update_codes(&e)[0].0, Code::AlreadyExists);
    // All or nothing, rolled back.
    let e = within(c.write(p4::WriteRequest {
        device_id: DEVICE,
        election_id: election(1),
        updates: vec![route(&ids, 2, 2), route(&ids, 1, 3)],
        atomicity: Atomicity::RollbackOnError as i32,
        ..Default::default()
    }))
    .await
    .unwrap_err();
    assert_eq!(update_codes(&e)[1].0, Code::AlreadyExists);
    // Not the primary.
    let e = write(&mut c, 2, vec![route(&ids, 3, 3)]).await.unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied);
    assert_eq!(std::fs::read(journal_path(&cfg)).unwrap(), before);
    let _ = std::fs::remove_dir_all(&cfg.dir);
}

#[tokio::test]
async fn two_servers_cannot_share_a_state_directory() {
    let cfg = state_dir("lock");
    let _s = start_in(&cfg).await;
    match P4RuntimeService::new(DEVICE).restore(&cfg) {
        Err(JournalError::Locked(dir)) => assert_eq!(dir, cfg.dir),
        other => panic!("a second server got the directory: {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&cfg.dir);
}
