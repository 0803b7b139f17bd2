//! Reading hand-built, byte-level files: every classic pcap magic and byte
//! order, and pcapng in both byte orders with options, unknown blocks, Simple
//! Packet Blocks and several interfaces and sections.

mod common;

use common::*;
use janus_pcap::wire::pcapng::{self as wng, Block, EnhancedPacket};
use janus_pcap::{
    ByteOrder, Format, LinkType, Packet, PcapError, ReadOptions, TimestampUnit, TsResolution, open,
    open_with,
};

fn collect(bytes: &[u8]) -> Vec<Packet<'_>> {
    open(bytes)
        .expect("open")
        .collect::<Result<Vec<_>, _>>()
        .expect("read all packets")
}

fn check_pcap(bytes: &[u8], order: ByteOrder, resolution: TsResolution) {
    let reader = open(bytes).unwrap();
    assert_eq!(reader.format(), Format::Pcap);
    assert_eq!(reader.byte_order(), order);
    assert_eq!(reader.pcap_resolution(), Some(resolution));
    assert_eq!(reader.link_type(), Some(LinkType::ETHERNET));
    assert_eq!(reader.interfaces().len(), 1);
    assert_eq!(reader.interfaces()[0].snaplen, 65_535);

    let packets = collect(bytes);
    assert_eq!(packets.len(), 2);
    let (f1, f2) = match resolution {
        TsResolution::Microsecond => (123_456_000, 999_999_000),
        TsResolution::Nanosecond => (123_456_789, 999_999_999),
    };
    assert_eq!(
        packets[0].timestamp_ns,
        u64::from(PCAP_SECONDS[0]) * 1_000_000_000 + f1
    );
    assert_eq!(packets[0].data, &[0xde, 0xad, 0xbe, 0xef]);
    assert_eq!(packets[0].orig_len, 4);
    assert!(!packets[0].is_truncated());
    assert_eq!(
        packets[1].timestamp_ns,
        u64::from(PCAP_SECONDS[1]) * 1_000_000_000 + f2
    );
    assert_eq!(packets[1].data, &[1, 2]);
    assert_eq!(packets[1].orig_len, 60);
    assert!(packets[1].is_truncated());
    for p in &packets {
        assert_eq!((p.interface, p.link_type), (0, LinkType::ETHERNET));
    }
}

#[test]
fn pcap_little_endian_microseconds() {
    check_pcap(PCAP_LE_MICROS, ByteOrder::Little, TsResolution::Microsecond);
}

#[test]
fn pcap_big_endian_microseconds() {
    check_pcap(PCAP_BE_MICROS, ByteOrder::Big, TsResolution::Microsecond);
}

#[test]
fn pcap_little_endian_nanoseconds() {
    check_pcap(PCAP_LE_NANOS, ByteOrder::Little, TsResolution::Nanosecond);
}

#[test]
fn pcap_big_endian_nanoseconds() {
    check_pcap(PCAP_BE_NANOS, ByteOrder::Big, TsResolution::Nanosecond);
}

#[test]
fn packet_data_borrows_the_input() {
    let packets = collect(PCAP_LE_MICROS);
    let range = PCAP_LE_MICROS.as_ptr_range();
    for p in packets {
        assert!(range.contains(&p.data.as_ptr()), "data is not copied");
    }
    let packets = collect(PCAPNG_BE);
    let range = PCAPNG_BE.as_ptr_range();
    for p in packets {
        assert!(range.contains(&p.data.as_ptr()), "data is not copied");
    }
}

fn check_pcapng_packets(packets: &[Packet<'_>], interface_base: u32) {
    assert_eq!(packets.len(), PCAPNG_PACKETS.len());
    for (p, &(ts, data, orig, iface, lt)) in packets.iter().zip(PCAPNG_PACKETS.iter()) {
        assert_eq!(p.timestamp_ns, ts);
        assert_eq!(p.data, data);
        assert_eq!(p.orig_len, orig);
        assert_eq!(p.interface, iface + interface_base);
        assert_eq!(p.link_type, LinkType(lt));
    }
}

fn check_pcapng(bytes: &[u8], order: ByteOrder) {
    let mut reader = open(bytes).unwrap();
    assert_eq!(reader.format(), Format::PcapNg);
    assert_eq!(reader.byte_order(), order);
    assert_eq!(reader.pcap_resolution(), None);
    // Opening reads up to the first packet: SHB, IDB 0 and the unknown block.
    assert_eq!(reader.position(), 108);
    assert_eq!(reader.link_type(), Some(LinkType::ETHERNET));
    let first = reader.interface(0).unwrap();
    assert_eq!(first.name, Some("port0"));
    assert_eq!(first.snaplen, 262_144);
    assert_eq!(first.timestamp_unit, TimestampUnit::Pow10(9));

    let packets: Vec<_> = reader.by_ref().map(Result::unwrap).collect();
    check_pcapng_packets(&packets, 0);
    // IDB 1 was read on the way; the interfaces now differ.
    assert_eq!(reader.interfaces().len(), 2);
    assert_eq!(reader.link_type(), None);
    assert_eq!(reader.interface_link_type(1), Some(LinkType::RAW));
    assert_eq!(
        reader.interface(1).unwrap().timestamp_unit,
        TimestampUnit::Pow10(6)
    );
    assert_eq!(reader.interface(1).unwrap().snaplen, 0);
    assert_eq!(reader.interface_link_type(2), None);
    assert_eq!(reader.position(), bytes.len());
    assert!(reader.next().is_none());
}

#[test]
fn pcapng_little_endian() {
    check_pcapng(PCAPNG_LE, ByteOrder::Little);
}

#[test]
fn pcapng_big_endian() {
    check_pcapng(PCAPNG_BE, ByteOrder::Big);
}

#[test]
fn pcapng_sections_of_both_byte_orders() {
    // A little-endian section followed by a big-endian one: interfaces are
    // numbered across the file, and each section has its own byte order.
    let mut file = PCAPNG_LE.to_vec();
    file.extend_from_slice(PCAPNG_BE);
    let mut reader = open(&file).unwrap();
    let packets: Vec<_> = reader.by_ref().map(Result::unwrap).collect();
    check_pcapng_packets(&packets[..3], 0);
    check_pcapng_packets(&packets[3..], 2);
    assert_eq!(reader.byte_order(), ByteOrder::Big);
    let sections: Vec<u32> = reader.interfaces().iter().map(|i| i.section).collect();
    assert_eq!(sections, [0, 0, 1, 1]);
}

#[test]
fn pcapng_section_scopes_interface_ids() {
    // A second section without its own IDB: its packet's interface 0 does
    // not refer to the first section's interfaces.
    let mut file = PCAPNG_LE[..168].to_vec(); // SHB, IDB, unknown, EPB
    file.extend_from_slice(&PCAPNG_LE[..44]); // a new SHB
    file.extend_from_slice(&PCAPNG_LE[108..168]); // EPB on interface 0
    let results: Vec<_> = open(&file).unwrap().collect();
    assert_eq!(results.len(), 2);
    assert!(results[0].is_ok());
    assert!(matches!(
        results[1],
        Err(PcapError::UnknownInterface {
            offset: 212,
            interface: 0,
            known: 0
        })
    ));
}

#[test]
fn pcapng_views_expose_options() {
    // The EPB at offset 108 through the wire views directly.
    for (bytes, order) in [(PCAPNG_LE, ByteOrder::Little), (PCAPNG_BE, ByteOrder::Big)] {
        assert_eq!(wng::section_byte_order(bytes).unwrap(), order);
        let block = Block::new_checked(&bytes[108..], order).unwrap();
        assert_eq!(block.block_type(), wng::BLOCK_EPB);
        assert_eq!(block.total_len(), 60);
        let epb = EnhancedPacket::new_checked(block.body(), order).unwrap();
        assert_eq!(epb.interface_id(), 0);
        assert_eq!(epb.timestamp(), 1_700_000_000_123_456_789);
        assert_eq!((epb.captured_len(), epb.original_len()), (5, 60));
        let options: Vec<_> = epb.options().map(Result::unwrap).collect();
        assert_eq!(options.len(), 2);
        assert_eq!(options[0].code, wng::EPB_FLAGS);
        assert_eq!(options[0].as_u32(), Some(1));
        assert_eq!(options[1].code, wng::OPT_COMMENT);
        assert_eq!(options[1].as_str(), Some("hi"));
    }
}

#[test]
fn pcapng_empty_section_has_no_packets() {
    let mut reader = open(&PCAPNG_LE[..44]).unwrap();
    assert_eq!(reader.link_type(), None);
    assert!(reader.next().is_none());
}

#[test]
fn pcapng_if_tsoffset_and_binary_resolution() {
    // IDB with if_tsresol 0x8A (2^-10 s) and if_tsoffset 100 s, then an EPB
    // whose timestamp is 2048 units: 2 s + 100 s.
    #[rustfmt::skip]
    let tail: &[u8] = &[
        0x01, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x09, 0x00, 0x01, 0x00, 0x8a, 0x00, 0x00, 0x00,
        0x0e, 0x00, 0x08, 0x00, 100, 0, 0, 0, 0, 0, 0, 0,
        0x00, 0x00, 0x00, 0x00,
        0x2c, 0x00, 0x00, 0x00,
        0x06, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x20, 0x00, 0x00, 0x00,
    ];
    let mut file = PCAPNG_LE[..44].to_vec();
    file.extend_from_slice(tail);
    let reader = open(&file).unwrap();
    assert_eq!(
        reader.interface(0).unwrap().timestamp_unit,
        TimestampUnit::Pow2(10)
    );
    assert_eq!(reader.interface(0).unwrap().timestamp_offset_s, 100);
    let packets: Vec<_> = reader.map(Result::unwrap).collect();
    assert_eq!(packets.len(), 1);
    assert_eq!(packets[0].timestamp_ns, 102_000_000_000);
    assert!(packets[0].data.is_empty());
}

#[test]
fn obsolete_packet_block_is_read() {
    // Packet Block (type 2): 16-bit interface id, 16-bit drop count.
    #[rustfmt::skip]
    let pb: &[u8] = &[
        0x02, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x07, 0x00,                         // interface 0, 7 drops
        0x00, 0x00, 0x00, 0x00, 0x2a, 0x00, 0x00, 0x00, // ts 42 (ns, IDB 0)
        0x03, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
        0x01, 0x02, 0x03, 0x00,
        0x24, 0x00, 0x00, 0x00,
    ];
    let mut file = PCAPNG_LE[..88].to_vec();
    file.extend_from_slice(pb);
    let packets = collect(&file);
    assert_eq!(packets.len(), 1);
    assert_eq!(packets[0].timestamp_ns, 42);
    assert_eq!(packets[0].data, &[1, 2, 3]);
}

#[test]
fn bad_magic_and_versions() {
    assert!(matches!(
        open(&[0u8; 64]),
        Err(PcapError::BadMagic { magic: 0 })
    ));
    let mut v = PCAP_LE_MICROS.to_vec();
    v[4] = 1; // version 1.4
    assert!(matches!(
        open(&v),
        Err(PcapError::UnsupportedVersion {
            format: "pcap",
            major: 1,
            minor: 4,
            ..
        })
    ));
    let mut v = PCAP_BE_NANOS.to_vec();
    v[7] = 5; // version 2.5 does not exist
    assert!(matches!(
        open(&v),
        Err(PcapError::UnsupportedVersion { minor: 5, .. })
    ));
    let mut v = PCAPNG_LE.to_vec();
    v[12] = 2; // pcapng 2.0
    assert!(matches!(
        open(&v),
        Err(PcapError::UnsupportedVersion {
            format: "pcapng",
            major: 2,
            ..
        })
    ));
    let mut v = PCAPNG_LE.to_vec();
    v[8] = 0x00; // byte-order magic
    assert!(matches!(
        open(&v),
        Err(PcapError::BadByteOrderMagic { offset: 0, .. })
    ));
}

#[test]
fn pcap_record_limits() {
    // Record 2 claims 70000 captured bytes: more than the snaplen 65535.
    let mut v = PCAP_LE_MICROS.to_vec();
    v[44 + 8..44 + 12].copy_from_slice(&70_000u32.to_le_bytes());
    let strict = ReadOptions {
        enforce_snaplen: true,
        ..ReadOptions::default()
    };
    let results: Vec<_> = open_with(&v, strict).unwrap().collect();
    assert_eq!(results.len(), 2);
    assert!(matches!(
        results[1],
        Err(PcapError::ExceedsSnaplen {
            offset: 44,
            len: 70_000,
            snaplen: 65_535
        })
    ));
    // Without snaplen enforcement (the default) the claim meets the end of the file.
    let lenient = ReadOptions::default();
    let results: Vec<_> = open_with(&v, lenient).unwrap().collect();
    assert!(matches!(
        results[1],
        Err(PcapError::Truncated {
            offset: 60,
            needed: 70_000,
            available: 2,
            ..
        })
    ));
    // An absurd length is rejected before anything else.
    v[44 + 8..44 + 12].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
    let results: Vec<_> = open_with(&v, lenient).unwrap().collect();
    assert!(matches!(
        results[1],
        Err(PcapError::RecordTooLong {
            offset: 44,
            limit: 268_435_456,
            ..
        })
    ));
}

#[test]
fn pcapng_block_errors() {
    // Trailing length of the unknown block at 88 altered.
    let mut v = PCAPNG_LE.to_vec();
    v[104] = 0x18;
    let err = open(&v).unwrap_err();
    assert!(
        matches!(
            err,
            PcapError::BlockLengthMismatch {
                offset: 88,
                leading: 20,
                trailing: 24
            }
        ),
        "{err}"
    );
    // Length not a multiple of 4.
    let mut v = PCAPNG_LE.to_vec();
    v[92] = 0x13;
    assert!(matches!(
        open(&v),
        Err(PcapError::BadBlockLength {
            offset: 88,
            length: 19
        })
    ));
    // EPB captured length larger than the block.
    let mut v = PCAPNG_LE.to_vec();
    v[108 + 20] = 0x40;
    let results: Vec<_> = open(&v).unwrap().collect();
    assert!(matches!(
        results[0],
        Err(PcapError::MalformedBlock {
            offset: 108,
            block_type: 6,
            ..
        })
    ));
    assert_eq!(results.len(), 1, "the reader stops after an error");
    // EPB captured length beyond the interface's snaplen, when enforced
    // (by default such a packet is read, as libpcap does).
    let mut v = PCAPNG_LE.to_vec();
    v[44 + 12..44 + 16].copy_from_slice(&4u32.to_le_bytes());
    assert!(open(&v).unwrap().all(|p| p.is_ok()));
    let strict = ReadOptions {
        enforce_snaplen: true,
        ..ReadOptions::default()
    };
    let results: Vec<_> = open_with(&v, strict).unwrap().collect();
    assert!(matches!(
        results[0],
        Err(PcapError::ExceedsSnaplen {
            offset: 108,
            len: 5,
            snaplen: 4
        })
    ));
    // An option running past the end of the IDB.
    let mut v = PCAPNG_LE.to_vec();
    v[44 + 18] = 0x40;
    assert!(matches!(
        open(&v),
        Err(PcapError::MalformedBlock {
            offset: 44,
            block_type: 1,
            ..
        })
    ));
    // if_tsresol of the wrong length.
    let mut v = PCAPNG_LE.to_vec();
    v[44 + 30] = 0x02;
    assert!(matches!(
        open(&v),
        Err(PcapError::MalformedBlock { offset: 44, .. })
    ));
}

#[test]
fn error_messages_name_the_offset() {
    let err = open(&PCAP_LE_MICROS[..50])
        .unwrap()
        .nth(1)
        .unwrap()
        .unwrap_err();
    assert_eq!(err.offset(), Some(44));
    assert_eq!(
        err.to_string(),
        "truncated file: record header at byte 44 needs 16 bytes but only 6 remain"
    );
}

#[test]
fn old_pcap_versions_swap_lengths() {
    // Version 2.2: every record stores the original length first.
    let mut v = PCAP_LE_MICROS.to_vec();
    v[6] = 2;
    v[24 + 8..24 + 16].copy_from_slice(&[4, 0, 0, 0, 4, 0, 0, 0]);
    v[44 + 8..44 + 16].copy_from_slice(&[60, 0, 0, 0, 2, 0, 0, 0]);
    let packets = collect(&v);
    assert_eq!((packets[1].data, packets[1].orig_len), (&[1u8, 2][..], 60));

    // Version 2.3: swapped only where the captured length exceeds the
    // original one (libpcap's rule).
    v[6] = 3;
    let packets = collect(&v);
    assert_eq!((packets[1].data, packets[1].orig_len), (&[1u8, 2][..], 60));
    v[44 + 8..44 + 16].copy_from_slice(&[2, 0, 0, 0, 60, 0, 0, 0]);
    let packets = collect(&v);
    assert_eq!((packets[1].data, packets[1].orig_len), (&[1u8, 2][..], 60));
}
