//! Table entries' idle timeouts (IdleTimeoutNotification,
//! `time_since_last_hit`) and metadata.

mod common;

use common::*;
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use p4::update::Type::{Insert, Modify};
use std::time::{Duration, Instant};
use tonic::Code;

/// `aged` supports idle timeouts, `plain` does not; both match the
/// destination MAC's last byte.
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
    action fwd(bit<9> port) { sm.egress_spec = port; }
    table aged {
        key = { hdr.eth.dst : exact; }
        actions = { fwd; NoAction; }
        support_timeout = true;
    }
    table plain {
        key = { hdr.eth.dst : exact; }
        actions = { fwd; NoAction; }
    }
    apply { aged.apply(); plain.apply(); }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

fn entry(
    info: &cfg::P4Info,
    table: &str,
    dst: u8,
    idle_ns: i64,
    metadata: &[u8],
) -> p4::TableEntry {
    let id = ids(info);
    p4::TableEntry {
        table_id: id(table),
        r#match: vec![p4::FieldMatch {
            field_id: 1,
            field_match_type: Some(p4::field_match::FieldMatchType::Exact(
                p4::field_match::Exact { value: vec![dst] },
            )),
        }],
        action: action(id("I.fwd"), &[&[2]]),
        idle_timeout_ns: idle_ns,
        metadata: metadata.to_vec(),
        ..Default::default()
    }
}

fn frame(dst: u8) -> Vec<u8> {
    let mut f = vec![0, 0, 0, 0, 0, dst, 2, 0, 0, 0, 0, 1, 0x08, 0x00];
    f.extend_from_slice(b"idle");
    f
}

/// The next IdleTimeoutNotification on `s` (skipping arbitration).
async fn next_idle(s: &mut Stream) -> p4::IdleTimeoutNotification {
    loop {
        let msg = within(s.rx.message()).await.unwrap().expect("a message");
        match msg.update {
            Some(p4::stream_message_response::Update::IdleTimeoutNotification(n)) => return n,
            Some(p4::stream_message_response::Update::Arbitration(_)) => {}
            other => panic!("unexpected {other:?}"),
        }
    }
}

fn read_filter(info: &cfg::P4Info, elapsed: bool) -> p4::Entity {
    p4::Entity {
        entity: Some(p4::entity::Entity::TableEntry(p4::TableEntry {
            table_id: ids(info)("I.aged"),
            time_since_last_hit: elapsed.then(Default::default),
            ..Default::default()
        })),
    }
}

const TIMEOUT: Duration = Duration::from_millis(400);

#[tokio::test]
async fn idle_entries_are_reported_once_per_idle_period() {
    let s = start().await;
    let cfg = pipeline_config("idle.p4", PROGRAM.to_string(), None);
    let info = cfg.p4info.clone().unwrap();
    let (mut c, mut primary) = primary_with(&s, 1, cfg).await;
    let timeout_ns = TIMEOUT.as_nanos() as i64;
    let inserted = Instant::now();
    write(
        &mut c,
        1,
        vec![
            update(Insert, entry(&info, "I.aged", 1, timeout_ns, b"cookie-1")),
            // No timeout: never reported.
            update(Insert, entry(&info, "I.aged", 2, 0, b"")),
            update(Insert, entry(&info, "I.plain", 1, 0, b"plain metadata")),
        ],
    )
    .await
    .unwrap();

    // Read back: metadata and timeout as written; the time since the last
    // hit only when asked for.
    let read = read_entities(&mut c, vec![read_filter(&info, false)])
        .await
        .unwrap();
    let first = read
        .iter()
        .find_map(|e| match &e.entity {
            Some(p4::entity::Entity::TableEntry(t))
                if t.r#match[0] == entry(&info, "I.aged", 1, 0, b"").r#match[0] =>
            {
                Some(t.clone())
            }
            _ => None,
        })
        .expect("the entry");
    assert_eq!(first.metadata, b"cookie-1");
    assert_eq!(first.idle_timeout_ns, timeout_ns);
    assert_eq!(first.time_since_last_hit, None);
    let read = read_entities(&mut c, vec![read_filter(&info, true)])
        .await
        .unwrap();
    for e in &read {
        let Some(p4::entity::Entity::TableEntry(t)) = &e.entity else {
            panic!()
        };
        let elapsed = t
            .time_since_last_hit
            .as_ref()
            .expect("asked for")
            .elapsed_ns;
        assert!((0..60_000_000_000).contains(&elapsed), "{elapsed}");
    }

    // Reported once the timeout has run, not before, and only that entry.
    let n = next_idle(&mut primary).await;
    assert!(
        inserted.elapsed() >= TIMEOUT - Duration::from_millis(50),
        "{:?}",
        inserted.elapsed()
    );
    assert_eq!(n.table_entry.len(), 1);
    assert_eq!(
        n.table_entry[0].r#match,
        entry(&info, "I.aged", 1, 0, b"").r#match
    );
    assert_eq!(n.table_entry[0].idle_timeout_ns, timeout_ns);
    assert!(n.timestamp > 0);

    // A hit restarts the clock: reported again one timeout later.
    s.switch.inject(1, &frame(1)).unwrap();
    let hit = Instant::now();
    let n = next_idle(&mut primary).await;
    assert!(hit.elapsed() >= TIMEOUT - Duration::from_millis(50));
    assert_eq!(n.table_entry.len(), 1);

    // MODIFY can change the timeout and the metadata.
    write(
        &mut c,
        1,
        vec![update(Modify, entry(&info, "I.aged", 1, 0, b"cookie-2"))],
    )
    .await
    .unwrap();
    let read = read_entities(&mut c, vec![read_filter(&info, false)])
        .await
        .unwrap();
    assert!(read.iter().any(|e| matches!(&e.entity,
        Some(p4::entity::Entity::TableEntry(t)) if t.metadata == b"cookie-2" && t.idle_timeout_ns == 0)));
}

#[tokio::test]
async fn bad_idle_timeouts_are_refused() {
    let s = start().await;
    let cfg = pipeline_config("idle.p4", PROGRAM.to_string(), None);
    let info = cfg.p4info.clone().unwrap();
    let (mut c, _primary) = primary_with(&s, 1, cfg).await;
    let e = write(
        &mut c,
        1,
        vec![
            update(Insert, entry(&info, "I.plain", 3, 1_000_000, b"")),
            update(Insert, entry(&info, "I.aged", 3, -1, b"")),
        ],
    )
    .await
    .unwrap_err();
    let codes: Vec<Code> = update_codes(&e).into_iter().map(|(c, _)| c).collect();
    assert_eq!(codes, [Code::InvalidArgument, Code::InvalidArgument]);
    // Nothing was inserted.
    let all = read_entities(&mut c, vec![read_filter(&info, false)])
        .await
        .unwrap();
    assert!(all.is_empty(), "{all:?}");
}
