//! Writer -> reader round trips.

use janus_pcap::{LinkType, PcapError, SNAPLEN_LEGACY, TsResolution, Writer, WriterConfig, open};
use proptest::prelude::*;

/// The largest timestamp a pcap record holds: u32::MAX seconds plus just
/// under one second.
const MAX_TS: u64 = u32::MAX as u64 * 1_000_000_000 + 999_999_999;

fn resolution() -> impl Strategy<Value = TsResolution> {
    prop_oneof![
        Just(TsResolution::Microsecond),
        Just(TsResolution::Nanosecond)
    ]
}

fn expected_ts(ts: u64, resolution: TsResolution) -> u64 {
    match resolution {
        TsResolution::Microsecond => ts / 1_000 * 1_000,
        TsResolution::Nanosecond => ts,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random packets and timestamps, both resolutions, various snaplens and
    /// link types: what is read back is what was written, cut to the snaplen
    /// and with the timestamp at the file's resolution.
    #[test]
    fn writer_then_reader(
        resolution in resolution(),
        snaplen in prop_oneof![Just(65_535u32), Just(262_144u32), 1u32..200],
        link_type in prop_oneof![Just(1u16), Just(101), any::<u16>()],
        packets in prop::collection::vec(
            (0..=MAX_TS, prop::collection::vec(any::<u8>(), 0..300)),
            0..20,
        ),
    ) {
        let config = WriterConfig { resolution, snaplen, link_type: LinkType(link_type) };
        let mut writer = Writer::new(Vec::new(), config).unwrap();
        for (ts, data) in &packets {
            writer.write_packet(*ts, data).unwrap();
        }
        let file = writer.finish().unwrap();

        let reader = open(&file).unwrap();
        prop_assert_eq!(reader.pcap_resolution(), Some(resolution));
        prop_assert_eq!(reader.link_type(), Some(LinkType(link_type)));
        prop_assert_eq!(reader.interfaces()[0].snaplen, snaplen);
        let read: Vec<_> = reader.collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(read.len(), packets.len());
        for (p, (ts, data)) in read.iter().zip(&packets) {
            let kept = data.len().min(snaplen as usize);
            prop_assert_eq!(p.timestamp_ns, expected_ts(*ts, resolution));
            prop_assert_eq!(p.data, &data[..kept]);
            prop_assert_eq!(p.orig_len as usize, data.len());
            prop_assert_eq!(p.link_type, LinkType(link_type));
        }
    }

    /// Packets written as captured fragments keep their original length.
    #[test]
    fn truncated_packets_keep_orig_len(
        resolution in resolution(),
        data in prop::collection::vec(any::<u8>(), 0..100),
        extra in 0u32..10_000,
        ts in 0..=MAX_TS,
    ) {
        let config = WriterConfig { resolution, ..WriterConfig::default() };
        let mut writer = Writer::new(Vec::new(), config).unwrap();
        let orig_len = data.len() as u32 + extra;
        writer.write_truncated(ts, &data, orig_len).unwrap();
        let file = writer.finish().unwrap();
        let p = open(&file).unwrap().next().unwrap().unwrap();
        prop_assert_eq!(p.data, &data[..]);
        prop_assert_eq!(p.orig_len, orig_len);
        prop_assert_eq!(p.is_truncated(), extra > 0);
        prop_assert_eq!(p.timestamp_ns, expected_ts(ts, resolution));
    }
}

#[test]
fn default_config_is_ethernet_microseconds_262144() {
    let file = Writer::new(Vec::new(), WriterConfig::default())
        .unwrap()
        .finish()
        .unwrap();
    assert_eq!(
        file,
        [
            0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x04, 0x00, 1,
            0, 0, 0
        ]
    );
    let reader = open(&file).unwrap();
    assert_eq!(reader.count(), 0);
}

#[test]
fn legacy_snaplen_and_nanosecond_header_bytes() {
    let config = WriterConfig {
        resolution: TsResolution::Nanosecond,
        snaplen: SNAPLEN_LEGACY,
        link_type: LinkType::RAW,
    };
    let mut writer = Writer::new(Vec::new(), config).unwrap();
    writer.write_packet(1_000_000_007, &[9, 8, 7]).unwrap();
    let file = writer.finish().unwrap();
    assert_eq!(&file[..4], &[0x4d, 0x3c, 0xb2, 0xa1]);
    assert_eq!(&file[16..24], &[0xff, 0xff, 0, 0, 101, 0, 0, 0]);
    assert_eq!(
        &file[24..],
        &[1, 0, 0, 0, 7, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 9, 8, 7]
    );
}

#[test]
fn writer_rejects_what_pcap_cannot_hold() {
    assert!(matches!(
        Writer::new(
            Vec::new(),
            WriterConfig {
                snaplen: 0,
                ..WriterConfig::default()
            }
        ),
        Err(PcapError::InvalidConfig(_))
    ));
    assert!(matches!(
        Writer::new(
            Vec::new(),
            WriterConfig {
                snaplen: u32::MAX,
                ..WriterConfig::default()
            }
        ),
        Err(PcapError::InvalidConfig(_))
    ));
    let mut writer = Writer::new(Vec::new(), WriterConfig::default()).unwrap();
    assert!(matches!(
        writer.write_packet(MAX_TS + 1, &[]),
        Err(PcapError::UnrepresentableTimestamp { .. })
    ));
    assert!(matches!(
        writer.write_truncated(0, &[1, 2, 3], 2),
        Err(PcapError::InvalidPacketLength { .. })
    ));
    // Nothing was written for the rejected packets.
    assert_eq!(writer.finish().unwrap().len(), 24);
}

#[test]
fn writer_reports_io_errors() {
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    assert!(matches!(
        Writer::new(Full, WriterConfig::default()),
        Err(PcapError::Io(_))
    ));
}
