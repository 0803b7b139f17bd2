//! The state directory: a server restarted from it reads back what was
//! written; only a torn tail (a batch cut short) is dropped, every other
//! damage (a flipped byte anywhere, swapped records, an old format) stops
//! the start-up with the file untouched; `check` and `recover` work on the
//! journal under the directory's lock; the journal is compacted into a
//! snapshot every `snapshot_every` batches; refused batches leave the
//! journal alone; a second server cannot share the directory.

mod common;

use common::*;
use janus_ctrl::device::ForwardingPipeline;
use janus_ctrl::journal::{
    self, Body, Journal, JournalError, Problem, RecordKind, StateConfig, Torn,
};
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use janus_ctrl::server::P4RuntimeService;
use p4::entity::Entity as E;
use p4::update::Type;
use std::path::PathBuf;
use std::time::Instant;
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
    StateConfig::new(dir)
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
    fill_n(cfg, ids, 3).await
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

/// Writes the pipeline and `n` batches (route `k` to port `k`, counter
/// cell `k` set to `10 k`, and from the fourth on a deletion of route
/// `k - 3`) into a fresh state directory; returns what a read gives after
/// each batch.
async fn fill_n(cfg: &StateConfig, ids: &Ids, n: u8) -> Vec<Vec<p4::Entity>> {
    let s = start_in(cfg).await;
    let (mut c, _stream) = primary_with(&s, 1, config()).await;
    let mut seen = vec![everything(&mut c, ids).await];
    for k in 1..=n {
        let mut updates = vec![
            route(ids, k, k),
            counter(ids, i64::from(k % 8), 10 * i64::from(k)),
        ];
        if k > 3 {
            let mut gone = route(ids, k - 3, k - 3);
            gone.r#type = Type::Delete as i32;
            updates.push(gone);
        }
        // All or nothing, so one write is one journal record: a
        // CONTINUE_ON_ERROR batch may be applied (and journaled) in time
        // slices, more of them on a loaded machine.
        lib_client(&c, "", 1)
            .write(updates, p4::write_request::Atomicity::RollbackOnError)
            .await
            .expect("write");
        seen.push(everything(&mut c, ids).await);
    }
    seen
}

/// The state a pipeline holds: every table entry and counter cell.
fn state_of(p: &ForwardingPipeline, ids: &Ids) -> Vec<p4::Entity> {
    [
        E::TableEntry(p4::TableEntry::default()),
        E::CounterEntry(p4::CounterEntry {
            counter_id: ids.hits,
            ..Default::default()
        }),
    ]
    .into_iter()
    .flat_map(|e| {
        p.read_entity(&p4::Entity { entity: Some(e) })
            .expect("read")
    })
    .collect()
}

/// Where each record of an intact journal starts.
fn record_offsets(bytes: &[u8]) -> Vec<u64> {
    journal::parse(bytes)
        .expect("an intact journal")
        .records
        .iter()
        .map(|r| r.offset)
        .collect()
}

/// The offset of the record holding byte `i` (0: the file header).
fn record_holding(offsets: &[u64], i: usize) -> u64 {
    offsets
        .iter()
        .rev()
        .find(|&&o| o <= i as u64)
        .copied()
        .unwrap_or(0)
}

/// The same entities in a canonical order (a read's order is not
/// specified: a table's entries come back in slot order, which depends on
/// the history of inserts and deletes, not only on the entries).
fn sorted(entities: Vec<p4::Entity>) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = entities.iter().map(prost::Message::encode_to_vec).collect();
    v.sort();
    v
}

/// (a) A byte flipped anywhere is either refused, naming the record
/// holding it (and, through [`Journal::open`], leaving the file exactly as
/// it is), or harmless: the replayed state equals the original. Never a
/// silent loss. Every byte is flipped whole (xor 0xff) in the file; bits 0
/// and 7 are flipped through the pure [`journal::parse`], at every byte
/// but the bulk of the pipeline's payload (every 16th byte there: those
/// cases are all alike, and the debug build's CRC is slow).
#[tokio::test]
async fn every_flipped_byte_is_refused_with_the_file_untouched_or_harmless() {
    let ids = ids();
    let mut cfg = state_dir("flip");
    // Compaction after the third batch: pipeline, snapshot, two batches.
    cfg.snapshot_every = 3;
    let seen = fill_n(&cfg, &ids, 5).await;
    wait_unlocked(&cfg).await;
    let path = journal_path(&cfg);
    let original = std::fs::read(&path).unwrap();
    let contents = journal::parse(&original).expect("intact");
    let kinds: Vec<RecordKind> = contents.records.iter().map(|r| r.kind()).collect();
    assert_eq!(
        kinds,
        [
            RecordKind::Pipeline,
            RecordKind::Snapshot,
            RecordKind::Batch,
            RecordKind::Batch
        ]
    );
    let offsets = record_offsets(&original);
    let (reference, journal) = {
        let (j, c) = Journal::open(&cfg).unwrap();
        let p = j.replay(c).unwrap().expect("a pipeline");
        (state_of(&p, &ids), j)
    };
    drop(journal);
    let same_records = |c: &journal::Contents| {
        c.torn.is_none()
            && c.records
                .iter()
                .map(|r| (&r.body, r.seq))
                .eq(contents.records.iter().map(|r| (&r.body, r.seq)))
    };
    // Harmless: the same records, or (it never happens with this format)
    // other records replaying to the same state.
    let harmless = |c: journal::Contents, i: usize, x: u8| {
        if !same_records(&c) {
            let config = c.pipeline().expect("a pipeline").clone();
            let mut p = ForwardingPipeline::build(config).expect("builds");
            for r in &c.records[1..] {
                for u in r.updates() {
                    p.apply(u).expect("replays");
                }
            }
            assert_eq!(
                sorted(state_of(&p, &ids)),
                sorted(reference.clone()),
                "byte {i} ^ {x:#x}: the state changed silently"
            );
        }
    };
    let started = Instant::now();
    let (mut refused, mut fine) = (0usize, 0usize);
    for i in 0..original.len() {
        let mut bytes = original.clone();
        bytes[i] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        match Journal::open(&cfg) {
            Err(e @ JournalError::Damaged { .. }) => {
                let JournalError::Damaged { damage, .. } = &e else {
                    unreachable!()
                };
                assert_eq!(damage.offset, record_holding(&offsets, i), "byte {i}: {e}");
                let e = e.to_string();
                assert!(e.contains(&format!("offset {}", damage.offset)), "{e}");
                assert!(e.contains("janus ctrl journal recover"), "{e}");
                assert_eq!(std::fs::read(&path).unwrap(), bytes, "byte {i}: touched");
                refused += 1;
            }
            Err(e) => panic!("byte {i}: {e}"),
            Ok((_, c)) => {
                harmless(c, i, 0xff);
                fine += 1;
            }
        }
    }
    let pipeline = &contents.records[0];
    let bulk = pipeline.offset + 64..pipeline.offset + pipeline.len - 64;
    for i in 0..original.len() {
        if bulk.contains(&(i as u64)) && i % 16 != 0 {
            continue;
        }
        for x in [0x01u8, 0x80] {
            let mut bytes = original.clone();
            bytes[i] ^= x;
            match journal::parse(&bytes) {
                Err(d) => {
                    assert_eq!(d.offset, record_holding(&offsets, i), "byte {i}: {d}");
                    refused += 1;
                }
                Ok(c) => {
                    harmless(c, i, x);
                    fine += 1;
                }
            }
        }
    }
    eprintln!(
        "{} bytes, {refused} flips refused, {fine} harmless, {:?}",
        original.len(),
        started.elapsed()
    );
    std::fs::write(&path, &original).unwrap();
    assert_eq!(sorted(restarted(&cfg, &ids).await), sorted(seen[5].clone()));
    let _ = std::fs::remove_dir_all(&cfg.dir);
}

/// (b) Two records swapped, or one repeated: the sequence breaks there.
#[tokio::test]
async fn swapped_or_repeated_records_are_refused() {
    let ids = ids();
    let cfg = state_dir("swap");
    fill(&cfg, &ids).await;
    wait_unlocked(&cfg).await;
    let path = journal_path(&cfg);
    let original = std::fs::read(&path).unwrap();
    let o: Vec<usize> = record_offsets(&original)
        .into_iter()
        .map(|x| x as usize)
        .collect();
    assert_eq!(o.len(), 4);
    // Batches 1 and 2 (records 1 and 2) swapped.
    let mut swapped = original[..o[1]].to_vec();
    swapped.extend_from_slice(&original[o[2]..o[3]]);
    swapped.extend_from_slice(&original[o[1]..o[2]]);
    swapped.extend_from_slice(&original[o[3]..]);
    // Batch 2 twice.
    let mut repeated = original[..o[3]].to_vec();
    repeated.extend_from_slice(&original[o[2]..o[3]]);
    repeated.extend_from_slice(&original[o[3]..]);
    for (bytes, index) in [(swapped, 1), (repeated, 3)] {
        std::fs::write(&path, &bytes).unwrap();
        match P4RuntimeService::new(DEVICE).restore(&cfg) {
            Err(JournalError::Damaged { damage, .. }) => {
                assert_eq!(damage.index, Some(index), "{damage}");
                assert!(
                    matches!(damage.problem, Problem::Sequence { .. }),
                    "{damage}"
                );
                assert_eq!(damage.offset, o[index] as u64);
            }
            other => panic!("not refused: {other:?}"),
        }
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
    }
    let _ = std::fs::remove_dir_all(&cfg.dir);
}

/// (c) The last record cut at every length is a torn tail: dropped (and
/// only then is the file changed), the earlier state intact.
#[tokio::test]
async fn the_last_record_cut_at_every_length_is_a_torn_tail() {
    let ids = ids();
    let cfg = state_dir("torn");
    let seen = fill(&cfg, &ids).await;
    wait_unlocked(&cfg).await;
    let path = journal_path(&cfg);
    let original = std::fs::read(&path).unwrap();
    let contents = journal::parse(&original).unwrap();
    let last = contents.records.last().unwrap().clone();
    let (start, end) = (last.offset as usize, (last.offset + last.len) as usize);
    assert_eq!(end, original.len());
    for cut in start..end {
        std::fs::write(&path, &original[..cut]).unwrap();
        let (journal, got) = Journal::open(&cfg).unwrap_or_else(|e| panic!("cut {cut}: {e}"));
        let torn = (cut > start).then_some(Torn {
            offset: start as u64,
            bytes: (cut - start) as u64,
            seq: last.seq,
        });
        assert_eq!(got.torn, torn, "cut {cut}");
        assert_eq!(got.records, contents.records[..3], "cut {cut}");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            original[..start],
            "cut {cut}"
        );
        drop(journal);
    }
    // Replayed: the state before the last batch, and appends go on at the
    // next sequence number.
    std::fs::write(&path, &original[..end - 1]).unwrap();
    assert_eq!(restarted(&cfg, &ids).await, seen[2]);
    {
        wait_unlocked(&cfg).await;
        let s = start_in(&cfg).await;
        let (mut c, _stream) = primary_with(&s, 1, config()).await;
        write(&mut c, 1, vec![route(&ids, 9, 9)]).await.unwrap();
    }
    wait_unlocked(&cfg).await;
    let after = journal::parse(&std::fs::read(&path).unwrap()).unwrap();
    let seqs: Vec<u64> = after.records.iter().map(|r| r.seq).collect();
    // The torn batch's sequence number is given again: the pipeline
    // committed again (a new journal), then the batch.
    assert_eq!(seqs, [4, 5]);
    let _ = std::fs::remove_dir_all(&cfg.dir);
}

/// (d) A damaged middle record stops the start-up, naming it; `check`
/// reports it; `recover --up-to N` keeps a copy and the records up to N;
/// both refuse while a server holds the directory.
#[tokio::test]
async fn damage_stops_the_start_and_recover_keeps_the_intact_records() {
    let ids = ids();
    let cfg = state_dir("recover");
    let seen = fill(&cfg, &ids).await;
    wait_unlocked(&cfg).await;
    let path = journal_path(&cfg);
    let original = std::fs::read(&path).unwrap();
    let contents = journal::parse(&original).unwrap();
    let (first, middle) = (&contents.records[1], &contents.records[2]);
    let mut bytes = original.clone();
    bytes[(middle.offset + middle.len / 2) as usize] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();

    let e = P4RuntimeService::new(DEVICE)
        .restore(&cfg)
        .expect_err("refused");
    let message = e.to_string();
    for part in [
        "record 2".to_string(),
        format!("seq {}", middle.seq),
        format!("offset {}", middle.offset),
        "checksum".to_string(),
        format!("--up-to {}", first.seq),
    ] {
        assert!(message.contains(&part), "{part:?} in {message}");
    }
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "left as it was");

    let report = journal::check(&cfg.dir).unwrap();
    assert!(!report.intact());
    assert_eq!(report.scan.records.len(), 2);
    assert_eq!(report.scan.damage[0].index, Some(2));
    assert_eq!(report.scan.damage[0].intact, Some((1, first.seq)));

    // Past the intact records: refused, nothing changed.
    match journal::recover(&cfg.dir, middle.seq) {
        Err(JournalError::UpTo { last, .. }) => assert_eq!(last, Some(first.seq)),
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    assert!(!cfg.dir.join("journal.damaged-1").exists());

    let r = journal::recover(&cfg.dir, first.seq).unwrap();
    assert_eq!(r.copy, cfg.dir.join("journal.damaged-1"));
    assert_eq!(std::fs::read(&r.copy).unwrap(), bytes, "the copy");
    assert_eq!((r.kept, r.seqs, r.dropped), (2, Some((1, first.seq)), 0));
    let now = std::fs::read(&path).unwrap();
    assert!(journal::parse(&now).is_ok());
    assert!(journal::check(&cfg.dir).unwrap().intact());
    assert_eq!(restarted(&cfg, &ids).await, seen[1]);

    // With a server running: both refused.
    wait_unlocked(&cfg).await;
    let _s = start_in(&cfg).await;
    assert!(matches!(
        journal::check(&cfg.dir),
        Err(JournalError::Locked(_))
    ));
    assert!(matches!(
        journal::recover(&cfg.dir, 0),
        Err(JournalError::Locked(_))
    ));
    drop(_s);

    // --up-to 0 keeps nothing: the server starts without a pipeline.
    wait_unlocked(&cfg).await;
    let r = journal::recover(&cfg.dir, 0).unwrap();
    assert_eq!(r.copy, cfg.dir.join("journal.damaged-2"));
    assert_eq!((r.kept, r.dropped), (0, 2));
    let s = P4RuntimeService::new(DEVICE);
    assert!(!s.restore(&cfg).unwrap().pipeline);
    let _ = std::fs::remove_dir_all(&cfg.dir);
}

/// (e) After `snapshot_every` batches the journal is compacted (pipeline
/// and snapshot); a restart gives the same state as a journal without
/// snapshots, from fewer records.
#[tokio::test]
async fn the_journal_is_compacted_every_k_batches() {
    let ids = ids();
    let mut cfg = state_dir("snapshot");
    cfg.snapshot_every = 4;
    let seen = fill_n(&cfg, &ids, 10).await;
    wait_unlocked(&cfg).await;
    let c = journal::parse(&std::fs::read(journal_path(&cfg)).unwrap()).unwrap();
    let records: Vec<(RecordKind, u64)> = c.records.iter().map(|r| (r.kind(), r.seq)).collect();
    // Pipeline 1, batches 2..5, compacted (6, 7), batches 8..11,
    // compacted (12, 13), batches 14 and 15.
    assert_eq!(
        records,
        [
            (RecordKind::Pipeline, 12),
            (RecordKind::Snapshot, 13),
            (RecordKind::Batch, 14),
            (RecordKind::Batch, 15)
        ]
    );
    let Body::Snapshot(snapshot) = &c.records[1].body else {
        unreachable!()
    };
    assert!(!snapshot.is_empty());
    // A restart: the same state as before, from 4 records.
    let restored = {
        let s = P4RuntimeService::new(DEVICE);
        let r = s.restore(&cfg).unwrap();
        assert_eq!((r.snapshot.is_some(), r.batches), (true, 2));
        r
    };
    assert_eq!(restored.seqs, Some((12, 15)));
    assert_eq!(
        sorted(restarted(&cfg, &ids).await),
        sorted(seen[10].clone())
    );

    // A damaged snapshot: the start-up is refused, and recovering up to
    // the pipeline keeps the pipeline alone (no longer announcing a
    // snapshot).
    let path = journal_path(&cfg);
    let mut bytes = std::fs::read(&path).unwrap();
    let snapshot = &c.records[1];
    bytes[(snapshot.offset + snapshot.len - 1) as usize] ^= 0x04;
    std::fs::write(&path, &bytes).unwrap();
    wait_unlocked(&cfg).await;
    match P4RuntimeService::new(DEVICE).restore(&cfg) {
        Err(JournalError::Damaged { damage, .. }) => {
            assert_eq!((damage.index, damage.seq), (Some(1), Some(13)));
            assert_eq!(damage.intact, Some((12, 12)));
        }
        other => panic!("{other:?}"),
    }
    let r = journal::recover(&cfg.dir, 12).unwrap();
    assert_eq!((r.kept, r.dropped), (1, 0));
    let (journal, after) = Journal::open(&cfg).unwrap();
    assert_eq!(after.records.len(), 1);
    assert_eq!(after.pipeline(), Some(&config()));
    let p = journal.replay(after).unwrap().expect("a pipeline");
    assert!(
        state_of(&p, &ids)
            .iter()
            .all(|e| !matches!(e.entity, Some(E::TableEntry(_))))
    );
    drop(journal);

    // The same batches without snapshots: 11 records, the same state.
    let mut plain = state_dir("no-snapshot");
    plain.snapshot_every = 0;
    assert_eq!(fill_n(&plain, &ids, 10).await, seen);
    wait_unlocked(&plain).await;
    let p = journal::parse(&std::fs::read(journal_path(&plain)).unwrap()).unwrap();
    assert_eq!(p.records.len(), 11);
    assert_eq!(restarted(&plain, &ids).await, seen[10]);
    let _ = std::fs::remove_dir_all(&cfg.dir);
    let _ = std::fs::remove_dir_all(&plain.dir);
}

/// A state directory of the unversioned format 0 is refused by name,
/// the file untouched.
#[tokio::test]
async fn a_format_0_journal_is_refused_by_name() {
    let cfg = state_dir("format0");
    std::fs::create_dir_all(&cfg.dir).unwrap();
    let payload = prost::Message::encode_to_vec(&config());
    let mut old = (payload.len() as u32).to_le_bytes().to_vec();
    old.extend_from_slice(&journal::crc32(&payload).to_le_bytes());
    old.extend_from_slice(&payload);
    std::fs::write(journal_path(&cfg), &old).unwrap();
    let e = P4RuntimeService::new(DEVICE)
        .restore(&cfg)
        .expect_err("refused");
    assert!(e.to_string().contains("journal format 0"), "{e}");
    assert!(e.to_string().contains("--up-to 0"), "{e}");
    assert_eq!(std::fs::read(journal_path(&cfg)).unwrap(), old);
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
