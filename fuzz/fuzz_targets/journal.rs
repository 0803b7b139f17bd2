//! The state directory's journal reader (`janus_ctrl::journal::parse` and
//! `scan`) on arbitrary bytes: it must never panic. The first byte picks
//! the mode: even, the rest is a journal file as it is; odd, the rest
//! builds a well-framed journal (a pipeline record, then batches, maybe a
//! snapshot, with payloads from the input), which must parse, then checks
//! the format's promises on it: every cut inside or after the last record
//! (a batch) is a torn tail dropping only that record; a cut that is not
//! a record boundary inside the pipeline or snapshot, and any single byte
//! changed, is damage at the record holding it.
#![no_main]

use janus_ctrl::journal::{self, RecordKind};
use janus_ctrl::proto::p4::v1 as p4;
use libfuzzer_sys::fuzz_target;
use prost::Message;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        raw(rest);
    } else {
        framed(mode, rest);
    }
});

/// Arbitrary bytes: parse and scan agree, and what they report is
/// consistent with the input.
fn raw(bytes: &[u8]) {
    let scan = journal::scan(bytes);
    match journal::parse(bytes) {
        Ok(c) => {
            assert!(scan.damage.is_empty());
            assert_eq!(c.records, scan.records);
            let end = c
                .records
                .last()
                .map_or(journal::FILE_HEADER as u64, |r| r.offset + r.len);
            match c.torn {
                Some(t) => {
                    assert_eq!(t.offset, end);
                    assert_eq!(t.offset + t.bytes, bytes.len() as u64);
                }
                None => assert_eq!(end, bytes.len() as u64),
            }
            for w in c.records.windows(2) {
                assert_eq!(w[0].seq + 1, w[1].seq);
                assert_eq!(w[0].offset + w[0].len, w[1].offset);
            }
        }
        Err(d) => {
            assert_eq!(scan.damage.first(), Some(&d));
            assert!(d.offset <= bytes.len() as u64);
            let _ = d.to_string();
        }
    }
}

/// Splits `data` into chunks at 0xff bytes.
fn chunks(data: &[u8]) -> Vec<&[u8]> {
    data.split(|&b| b == 0xff).collect()
}

fn framed(mode: u8, data: &[u8]) {
    if data.len() < 4 {
        return;
    }
    let (knobs, data) = data.split_at(4);
    let parts = chunks(data);
    let first_seq = u64::from(knobs[0]) * 1000 + 1;
    let with_snapshot = mode & 2 != 0 && parts.len() > 1;
    let mut bytes = journal::file_header(first_seq).to_vec();
    let mut offsets = Vec::new();
    let mut seq = first_seq;
    let mut push = |bytes: &mut Vec<u8>, kind: RecordKind, flags: u8, payload: Vec<u8>| {
        offsets.push(bytes.len());
        bytes.extend(journal::encode_record(seq, kind, flags, &payload).expect("small"));
        seq += 1;
    };
    let pipeline = p4::ForwardingPipelineConfig {
        p4_device_config: parts[0].to_vec(),
        ..Default::default()
    };
    let flags = if with_snapshot {
        journal::SNAPSHOT_FOLLOWS
    } else {
        0
    };
    push(
        &mut bytes,
        RecordKind::Pipeline,
        flags,
        pipeline.encode_to_vec(),
    );
    for (i, part) in parts.iter().enumerate().skip(1) {
        // Whatever decodes as a WriteRequest, re-encoded; else one update
        // of the chunk's length as its type.
        let updates = p4::WriteRequest::decode(*part)
            .map(|w| w.updates)
            .unwrap_or_else(|_| {
                vec![p4::Update {
                    r#type: part.len() as i32,
                    entity: None,
                }]
            });
        let payload = p4::WriteRequest {
            updates,
            ..Default::default()
        }
        .encode_to_vec();
        let kind = if i == 1 && with_snapshot {
            RecordKind::Snapshot
        } else {
            RecordKind::Batch
        };
        push(&mut bytes, kind, 0, payload);
    }
    let holding = |i: usize| {
        offsets
            .iter()
            .rev()
            .find(|&&o| o <= i)
            .map_or(0, |&o| o as u64)
    };
    let full = journal::parse(&bytes).expect("a framed journal parses");
    assert_eq!(full.records.len(), offsets.len());
    assert_eq!(full.torn, None);

    // A cut.
    let cut = usize::from(u16::from_le_bytes([knobs[1], knobs[2]])) % (bytes.len() + 1);
    match journal::parse(&bytes[..cut]) {
        Ok(c) => {
            let whole = offsets.iter().filter(|&&o| o < cut).count();
            if offsets.contains(&cut) || cut == bytes.len() || cut == journal::FILE_HEADER {
                // At a record boundary: the records before it.
                assert_eq!(c.torn, None);
                assert_eq!(c.records.len(), whole);
            } else {
                // Inside a batch: only a batch can be torn.
                let t = c.torn.expect("a torn tail");
                assert_eq!(t.offset, holding(cut - 1));
                assert_eq!(c.records.len(), whole - 1);
                assert_eq!(c.records[..], full.records[..whole - 1]);
                assert_eq!(full.records[whole - 1].kind(), RecordKind::Batch);
            }
        }
        Err(d) => {
            // Only a cut inside the file header, the pipeline or the
            // snapshot.
            let kind = full.records.get(d.index.unwrap_or(0)).map(|r| r.kind());
            assert!(
                cut < journal::FILE_HEADER || kind != Some(RecordKind::Batch),
                "cut {cut}: {d}"
            );
        }
    }
    // A byte changed: always damage, at the record holding it.
    let at = usize::from(knobs[3]).wrapping_mul(bytes.len() / 256 + 1) % bytes.len();
    let x = knobs[1] | 1;
    let mut flipped = bytes.clone();
    flipped[at] ^= x;
    match journal::parse(&flipped) {
        Ok(_) => panic!("byte {at} ^ {x:#x} went unnoticed"),
        Err(d) => assert_eq!(d.offset, holding(at), "byte {at}: {d}"),
    }
}
