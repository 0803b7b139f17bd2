//! Malformed input never panics: arbitrary bytes, mutated valid files, and
//! valid files cut at every byte.

mod common;

use common::*;
use janus_pcap::{PcapError, ReadOptions, open, open_with};
use proptest::prelude::*;

/// Reads everything, returning the number of packets before the end or the
/// first error. Checks the invariants every packet must meet.
fn drain(bytes: &[u8], options: ReadOptions) -> Result<usize, PcapError> {
    let reader = open_with(bytes, options)?;
    let range = bytes.as_ptr_range();
    let mut count = 0;
    for packet in reader {
        let packet = packet?;
        assert!(packet.data.is_empty() || range.contains(&packet.data.as_ptr()));
        assert!(packet.data.len() as u64 <= u64::from(options.max_record_len));
        count += 1;
    }
    Ok(count)
}

fn check_error_offset(err: &PcapError, len: usize) {
    if let Some(offset) = err.offset() {
        assert!(offset <= len as u64, "{err} points past the end ({len})");
    }
    // Every error renders.
    assert!(!err.to_string().is_empty());
}

/// Prefixes that steer random bytes past the magic-number check.
fn prefix() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        Just(PCAP_LE_MICROS[..24].to_vec()),
        Just(PCAP_BE_NANOS[..24].to_vec()),
        Just(PCAPNG_LE[..44].to_vec()),
        Just(PCAPNG_BE[..88].to_vec()),
        Just(vec![0x0a, 0x0d, 0x0d, 0x0a]),
    ]
}

fn options() -> impl Strategy<Value = ReadOptions> {
    (any::<bool>(), prop_oneof![Just(256u32 << 20), 0u32..64]).prop_map(
        |(enforce_snaplen, max_record_len)| ReadOptions {
            max_record_len,
            enforce_snaplen,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn arbitrary_bytes_never_panic(
        prefix in prefix(),
        tail in prop::collection::vec(any::<u8>(), 0..512),
        options in options(),
    ) {
        let mut bytes = prefix;
        bytes.extend_from_slice(&tail);
        if let Err(e) = drain(&bytes, options) {
            check_error_offset(&e, bytes.len());
        }
    }

    #[test]
    fn mutated_files_never_panic(
        which in 0usize..6,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        options in options(),
    ) {
        let (_, original) = all_fixtures()[which];
        let mut bytes = original.to_vec();
        for (index, value) in edits {
            let i = index.index(bytes.len());
            bytes[i] = value;
        }
        if let Err(e) = drain(&bytes, options) {
            check_error_offset(&e, bytes.len());
        }
    }
}

#[test]
fn truncation_at_every_byte_is_an_error_not_a_panic() {
    for (name, bytes) in all_fixtures() {
        let boundaries: &[usize] = if bytes.len() == 62 {
            &PCAP_BOUNDARIES
        } else {
            &PCAPNG_BOUNDARIES
        };
        let full = drain(bytes, ReadOptions::default()).unwrap();
        for cut in 0..bytes.len() {
            let result = drain(&bytes[..cut], ReadOptions::default());
            if boundaries.contains(&cut) {
                // A whole file with fewer records.
                let n = result.unwrap_or_else(|e| panic!("{name} cut at {cut}: {e}"));
                assert!(n < full, "{name} cut at {cut}");
            } else {
                let err = result.expect_err(&format!("{name} cut at {cut} must fail"));
                assert!(
                    matches!(err, PcapError::Truncated { .. }),
                    "{name} cut at {cut}: {err}"
                );
                check_error_offset(&err, cut);
            }
        }
    }
}

#[test]
fn huge_length_fields_do_not_allocate_or_panic() {
    // A pcapng block claiming 4 GiB and a pcap record claiming 4 GiB: both are
    // refused from the 12 or so bytes actually present.
    let mut ng = PCAPNG_LE[..44].to_vec();
    ng.extend_from_slice(&[0x06, 0, 0, 0, 0xfc, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    let err = open(&ng).unwrap().next().unwrap().unwrap_err();
    assert!(matches!(
        err,
        PcapError::Truncated {
            offset: 44,
            needed: 0xFFFF_FFFC,
            available: 12,
            ..
        }
    ));

    let mut p = PCAP_LE_MICROS[..24].to_vec();
    p.extend_from_slice(&[
        0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    ]);
    let err = open(&p).unwrap().next().unwrap().unwrap_err();
    assert!(matches!(err, PcapError::RecordTooLong { offset: 24, .. }));
}
