//! The journal's format, scanning and recovery, on bytes and on disk.

use super::*;

fn batch(n: u8) -> Vec<u8> {
    updates_payload(&[p4::Update {
        r#type: i32::from(n),
        entity: None,
    }])
}

/// A journal of a pipeline and `batches` batches, with the records'
/// offsets.
fn journal(batches: u8) -> (Vec<u8>, Vec<usize>) {
    let mut bytes = file_header(7).to_vec();
    let mut offsets = vec![bytes.len()];
    let pipeline = p4::ForwardingPipelineConfig {
        p4_device_config: b"program".to_vec(),
        ..Default::default()
    };
    bytes.extend(encode_record(7, RecordKind::Pipeline, 0, &pipeline.encode_to_vec()).unwrap());
    for n in 0..batches {
        offsets.push(bytes.len());
        bytes.extend(encode_record(8 + u64::from(n), RecordKind::Batch, 0, &batch(n)).unwrap());
    }
    (bytes, offsets)
}

/// A journal of a pipeline, a snapshot and one batch, with the
/// records' offsets.
fn with_snapshot() -> (Vec<u8>, Vec<usize>) {
    let mut bytes = file_header(1).to_vec();
    let mut offsets = vec![bytes.len()];
    let pipeline = p4::ForwardingPipelineConfig::default().encode_to_vec();
    bytes.extend(encode_record(1, RecordKind::Pipeline, SNAPSHOT_FOLLOWS, &pipeline).unwrap());
    offsets.push(bytes.len());
    bytes.extend(encode_record(2, RecordKind::Snapshot, 0, &batch(1)).unwrap());
    offsets.push(bytes.len());
    bytes.extend(encode_record(3, RecordKind::Batch, 0, &batch(2)).unwrap());
    (bytes, offsets)
}

#[test]
fn a_snapshot_cut_short_or_missing_is_damage() {
    let (bytes, o) = with_snapshot();
    let c = parse(&bytes).unwrap();
    assert_eq!(c.records[1].kind(), RecordKind::Snapshot);
    // Cut anywhere from the end of the pipeline to the end of the
    // snapshot: never a torn tail.
    for cut in o[1]..o[2] {
        let d = parse(&bytes[..cut]).expect_err("damage");
        assert_eq!(
            (d.index, d.offset),
            (Some(1), o[1] as u64),
            "cut {cut}: {d}"
        );
    }
    // The batch after it is torn as usual.
    for cut in o[2] + 1..bytes.len() {
        assert!(parse(&bytes[..cut]).unwrap().torn.is_some());
    }
    // A batch where a snapshot is announced, a snapshot where none is.
    let mut b = bytes[..o[1]].to_vec();
    b.extend(encode_record(2, RecordKind::Batch, 0, &batch(1)).unwrap());
    assert_eq!(
        parse(&b).unwrap_err().problem,
        Problem::Order(RecordKind::Batch)
    );
    let (mut b, _) = journal(0);
    b.extend(encode_record(8, RecordKind::Snapshot, 0, &batch(1)).unwrap());
    assert_eq!(
        parse(&b).unwrap_err().problem,
        Problem::Order(RecordKind::Snapshot)
    );
}

#[test]
fn a_batch_payload_is_a_write_request_of_its_updates() {
    let updates: Vec<p4::Update> = (0..3)
        .map(|i| p4::Update {
            r#type: i + 1,
            entity: Some(p4::Entity::default()),
        })
        .collect();
    let expected = p4::WriteRequest {
        updates: updates.clone(),
        ..Default::default()
    }
    .encode_to_vec();
    assert_eq!(updates_payload(&updates), expected);
}

#[test]
fn an_intact_journal_parses() {
    let (bytes, offsets) = journal(3);
    let c = parse(&bytes).unwrap();
    assert_eq!(c.first_seq, 7);
    assert_eq!(c.records.len(), 4);
    assert_eq!(c.next_seq(), 11);
    assert_eq!(c.torn, None);
    for (r, &o) in c.records.iter().zip(&offsets) {
        assert_eq!(r.offset, o as u64);
    }
    assert_eq!(c.records[2].updates()[0].r#type, 1);
    let c = parse(&file_header(3)).unwrap();
    assert_eq!((c.first_seq, c.next_seq(), c.records.len()), (3, 3, 0));
}

#[test]
fn every_cut_of_the_last_batch_is_a_torn_tail() {
    let (bytes, offsets) = journal(3);
    let last = offsets[3];
    for cut in last + 1..bytes.len() {
        let c = parse(&bytes[..cut]).unwrap_or_else(|d| panic!("cut {cut}: {d}"));
        assert_eq!(c.records.len(), 3, "cut {cut}");
        let t = c.torn.unwrap();
        assert_eq!(
            (t.offset, t.bytes, t.seq),
            (last as u64, (cut - last) as u64, 10)
        );
    }
    // The pipeline is never appended: cutting it is damage.
    for cut in FILE_HEADER + 1..offsets[1] {
        let d = parse(&bytes[..cut]).unwrap_err();
        assert_eq!(d.index, Some(0), "cut {cut}");
    }
    // A short file header.
    for cut in 8..FILE_HEADER {
        assert_eq!(
            parse(&bytes[..cut]).unwrap_err().problem,
            Problem::ShortFileHeader(cut)
        );
    }
}

#[test]
fn every_flipped_byte_is_damage_at_its_record() {
    let (bytes, offsets) = journal(3);
    for i in 0..bytes.len() {
        for x in [0x01u8, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[i] ^= x;
            let d = parse(&b).expect_err("detected");
            let start = offsets.iter().rev().find(|&&o| o <= i).copied();
            match start {
                None => assert_eq!((d.offset, d.index), (0, None), "byte {i}"),
                Some(o) => assert_eq!(d.offset, o as u64, "byte {i}: {d}"),
            }
        }
    }
}

#[test]
fn swapped_or_repeated_records_break_the_sequence() {
    let (bytes, o) = journal(3);
    let mut swapped = bytes[..o[2]].to_vec();
    swapped.extend_from_slice(&bytes[o[3]..]);
    swapped.extend_from_slice(&bytes[o[2]..o[3]]);
    let d = parse(&swapped).unwrap_err();
    assert_eq!(
        (d.index, d.seq, d.problem.clone()),
        (
            Some(2),
            Some(10),
            Problem::Sequence {
                expected: 9,
                found: 10
            }
        )
    );
    assert_eq!(d.intact, Some((7, 8)));
    let mut repeated = bytes.clone();
    repeated.extend_from_slice(&bytes[o[3]..]);
    assert_eq!(parse(&repeated).unwrap_err().index, Some(4));
}

#[test]
fn garbage_after_the_last_record_is_damage() {
    let (bytes, _) = journal(2);
    let mut b = bytes.clone();
    b.extend_from_slice(&[0u8; 40]);
    assert_eq!(
        parse(&b).unwrap_err().problem,
        Problem::RecordHeaderChecksum
    );
    let mut b = bytes.clone();
    b.extend_from_slice(&[0u8; 10]);
    assert_eq!(parse(&b).unwrap_err().problem, Problem::Trailing(10));
}

#[test]
fn format_0_and_unknown_files_are_named() {
    let mut old = Vec::new();
    let payload = b"old pipeline";
    old.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    old.extend_from_slice(&crc32(payload).to_le_bytes());
    old.extend_from_slice(payload);
    let d = parse(&old).unwrap_err();
    assert_eq!(d.problem, Problem::Format0);
    assert!(d.to_string().contains("journal format 0"), "{d}");
    assert_eq!(
        parse(b"hello world").unwrap_err().problem,
        Problem::UnknownFormat
    );
    assert_eq!(parse(b"").unwrap_err().problem, Problem::Empty);
    let mut v2 = file_header(1);
    v2[8] = 2;
    let crc = crc32(&v2[0..20]);
    v2[20..24].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(parse(&v2).unwrap_err().problem, Problem::Version(2));
}

#[test]
fn records_after_a_damaged_file_header_are_still_read() {
    let (mut bytes, _) = journal(2);
    bytes[13] ^= 1;
    let s = scan(&bytes);
    assert_eq!(s.damage.len(), 1);
    assert_eq!(s.damage[0].problem, Problem::FileHeaderChecksum);
    assert_eq!(s.records.len(), 3);
    assert_eq!(s.damage[0].intact, Some((7, 9)));
}
