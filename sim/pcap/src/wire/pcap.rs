//! The classic libpcap file format: a 24-byte file header, then records, each
//! a 16-byte record header followed by the captured bytes.
//!
//! ```text
//! file header                         record header
//!  0 magic number                      0 timestamp, seconds
//!  4 major version | minor version     4 timestamp, µs or ns (by the magic)
//!  8 reserved (thiszone)               8 captured length
//! 12 reserved (sigfigs)               12 original length
//! 16 snapshot length
//! 20 FCS/reserved bits | link type
//! ```
//!
//! All fields are in the byte order of the writer, which the magic number
//! reveals: 0xA1B2C3D4 (microsecond timestamps) or 0xA1B23C4D (nanosecond
//! timestamps), read in either byte order.

use super::{ByteOrder, Error, Result, check_len};
use crate::{LinkType, TsResolution};

/// Magic number of a file with microsecond timestamps.
pub const MAGIC_MICROS: u32 = 0xA1B2_C3D4;
/// Magic number of a file with nanosecond timestamps.
pub const MAGIC_NANOS: u32 = 0xA1B2_3C4D;
/// Length of the file header.
pub const HEADER_LEN: usize = 24;
/// Length of a record header.
pub const RECORD_HEADER_LEN: usize = 16;
/// The current (and only supported) major version.
pub const VERSION_MAJOR: u16 = 2;
/// The current minor version.
pub const VERSION_MINOR: u16 = 4;

mod field {
    use core::ops::Range;

    pub const MAGIC: Range<usize> = 0..4;
    pub const VERSION_MAJOR: Range<usize> = 4..6;
    pub const VERSION_MINOR: Range<usize> = 6..8;
    pub const THISZONE: Range<usize> = 8..12;
    pub const SIGFIGS: Range<usize> = 12..16;
    pub const SNAPLEN: Range<usize> = 16..20;
    pub const LINKTYPE: Range<usize> = 20..24;

    pub const TS_SEC: Range<usize> = 0..4;
    pub const TS_FRAC: Range<usize> = 4..8;
    pub const INCL_LEN: Range<usize> = 8..12;
    pub const ORIG_LEN: Range<usize> = 12..16;
}

/// Identifies a classic pcap magic number from the first four bytes of a
/// file: the byte order of the file and its timestamp resolution.
pub fn identify_magic(first4: [u8; 4]) -> Option<(ByteOrder, TsResolution)> {
    let kind = |m| match m {
        MAGIC_MICROS => Some(TsResolution::Microsecond),
        MAGIC_NANOS => Some(TsResolution::Nanosecond),
        _ => None,
    };
    if let Some(res) = kind(u32::from_le_bytes(first4)) {
        Some((ByteOrder::Little, res))
    } else {
        kind(u32::from_be_bytes(first4)).map(|res| (ByteOrder::Big, res))
    }
}

/// A view of a classic pcap file header.
#[derive(Debug, Clone)]
pub struct PcapHeader<T: AsRef<[u8]>> {
    buffer: T,
    order: ByteOrder,
    resolution: TsResolution,
}

impl<T: AsRef<[u8]>> PcapHeader<T> {
    /// Wraps `buffer` (the start of a file), checking that it holds a whole
    /// header and starts with a known magic number. The buffer may be longer
    /// than the header (for example, the whole file).
    pub fn new_checked(buffer: T) -> Result<Self> {
        let bytes = buffer.as_ref();
        check_len("magic number", bytes, 4)?;
        let first4 = [bytes[0], bytes[1], bytes[2], bytes[3]];
        let Some((order, resolution)) = identify_magic(first4) else {
            return Err(Error::BadMagic {
                magic: u32::from_be_bytes(first4),
            });
        };
        check_len("pcap file header", bytes, HEADER_LEN)?;
        Ok(PcapHeader {
            buffer,
            order,
            resolution,
        })
    }

    /// Wraps `buffer` without any check, for writing a header with the given
    /// byte order and resolution. Accessors panic if the buffer is shorter
    /// than [`HEADER_LEN`].
    pub fn new_unchecked(buffer: T, order: ByteOrder, resolution: TsResolution) -> Self {
        PcapHeader {
            buffer,
            order,
            resolution,
        }
    }

    /// Returns the wrapped buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    fn bytes(&self) -> &[u8] {
        self.buffer.as_ref()
    }

    /// The file's byte order, from its magic number.
    pub fn byte_order(&self) -> ByteOrder {
        self.order
    }

    /// The file's timestamp resolution, from its magic number.
    pub fn resolution(&self) -> TsResolution {
        self.resolution
    }

    /// The magic number, in the file's byte order.
    pub fn magic(&self) -> u32 {
        self.order.u32(&self.bytes()[field::MAGIC])
    }

    /// Major version (2 for every file in use).
    pub fn version_major(&self) -> u16 {
        self.order.u16(&self.bytes()[field::VERSION_MAJOR])
    }

    /// Minor version (4 for every file in use).
    pub fn version_minor(&self) -> u16 {
        self.order.u16(&self.bytes()[field::VERSION_MINOR])
    }

    /// The first reserved field, historically a time zone offset ("thiszone")
    /// in seconds; writers set 0 and readers ignore it.
    pub fn thiszone(&self) -> i32 {
        self.order.u32(&self.bytes()[field::THISZONE]) as i32
    }

    /// The second reserved field, historically timestamp accuracy ("sigfigs").
    pub fn sigfigs(&self) -> u32 {
        self.order.u32(&self.bytes()[field::SIGFIGS])
    }

    /// The snapshot length: no record should capture more bytes than this.
    pub fn snaplen(&self) -> u32 {
        self.order.u32(&self.bytes()[field::SNAPLEN])
    }

    /// The whole link-type field, including the FCS and reserved bits above
    /// the low 16.
    pub fn link_type_field(&self) -> u32 {
        self.order.u32(&self.bytes()[field::LINKTYPE])
    }

    /// The link type: the low 16 bits of the link-type field.
    pub fn link_type(&self) -> LinkType {
        LinkType((self.link_type_field() & 0xFFFF) as u16)
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> PcapHeader<T> {
    fn bytes_mut(&mut self) -> &mut [u8] {
        self.buffer.as_mut()
    }

    /// Writes the magic number for this view's byte order and resolution.
    pub fn set_magic(&mut self) {
        let magic = match self.resolution {
            TsResolution::Microsecond => MAGIC_MICROS,
            TsResolution::Nanosecond => MAGIC_NANOS,
        };
        let order = self.order;
        order.put_u32(&mut self.bytes_mut()[field::MAGIC], magic);
    }

    /// Writes the version fields.
    pub fn set_version(&mut self, major: u16, minor: u16) {
        let order = self.order;
        order.put_u16(&mut self.bytes_mut()[field::VERSION_MAJOR], major);
        order.put_u16(&mut self.bytes_mut()[field::VERSION_MINOR], minor);
    }

    /// Writes both reserved fields (thiszone and sigfigs) as zero.
    pub fn clear_reserved(&mut self) {
        self.bytes_mut()[field::THISZONE.start..field::SIGFIGS.end].fill(0);
    }

    /// Writes the snapshot length.
    pub fn set_snaplen(&mut self, snaplen: u32) {
        let order = self.order;
        order.put_u32(&mut self.bytes_mut()[field::SNAPLEN], snaplen);
    }

    /// Writes the link-type field (with all FCS and reserved bits clear).
    pub fn set_link_type(&mut self, link_type: LinkType) {
        let order = self.order;
        order.put_u32(
            &mut self.bytes_mut()[field::LINKTYPE],
            u32::from(link_type.0),
        );
    }
}

/// A view of a classic pcap record header.
#[derive(Debug, Clone)]
pub struct RecordHeader<T: AsRef<[u8]>> {
    buffer: T,
    order: ByteOrder,
}

impl<T: AsRef<[u8]>> RecordHeader<T> {
    /// Wraps `buffer` (which may run on past the header), checking that it
    /// holds the 16 header bytes. The captured bytes that follow are not
    /// checked here: see [`RecordHeader::incl_len`].
    pub fn new_checked(buffer: T, order: ByteOrder) -> Result<Self> {
        check_len("record header", buffer.as_ref(), RECORD_HEADER_LEN)?;
        Ok(RecordHeader { buffer, order })
    }

    /// Wraps `buffer` without any check. Accessors panic if it is shorter
    /// than [`RECORD_HEADER_LEN`].
    pub fn new_unchecked(buffer: T, order: ByteOrder) -> Self {
        RecordHeader { buffer, order }
    }

    /// Returns the wrapped buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    fn bytes(&self) -> &[u8] {
        self.buffer.as_ref()
    }

    /// Timestamp, whole seconds since 1970-01-01 00:00:00 UTC.
    pub fn ts_sec(&self) -> u32 {
        self.order.u32(&self.bytes()[field::TS_SEC])
    }

    /// Timestamp, fraction of a second in micro- or nanoseconds (by the
    /// file's magic number).
    pub fn ts_frac(&self) -> u32 {
        self.order.u32(&self.bytes()[field::TS_FRAC])
    }

    /// Number of captured bytes that follow this header.
    pub fn incl_len(&self) -> u32 {
        self.order.u32(&self.bytes()[field::INCL_LEN])
    }

    /// Length of the packet as it was on the wire.
    pub fn orig_len(&self) -> u32 {
        self.order.u32(&self.bytes()[field::ORIG_LEN])
    }

    /// The timestamp in nanoseconds since the epoch. Cannot overflow: at most
    /// (2^32 - 1) * 10^9 + (2^32 - 1) * 10^3 < 2^64.
    pub fn timestamp_ns(&self, resolution: TsResolution) -> u64 {
        let frac_scale = match resolution {
            TsResolution::Microsecond => 1_000,
            TsResolution::Nanosecond => 1,
        };
        u64::from(self.ts_sec()) * 1_000_000_000 + u64::from(self.ts_frac()) * frac_scale
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> RecordHeader<T> {
    /// Writes the timestamp fields.
    pub fn set_timestamp(&mut self, sec: u32, frac: u32) {
        let order = self.order;
        let b = self.buffer.as_mut();
        order.put_u32(&mut b[field::TS_SEC], sec);
        order.put_u32(&mut b[field::TS_FRAC], frac);
    }

    /// Writes the captured and original lengths.
    pub fn set_lengths(&mut self, incl_len: u32, orig_len: u32) {
        let order = self.order;
        let b = self.buffer.as_mut();
        order.put_u32(&mut b[field::INCL_LEN], incl_len);
        order.put_u32(&mut b[field::ORIG_LEN], orig_len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifies_all_four_magics() {
        use ByteOrder::*;
        use TsResolution::*;
        assert_eq!(
            identify_magic([0xD4, 0xC3, 0xB2, 0xA1]),
            Some((Little, Microsecond))
        );
        assert_eq!(
            identify_magic([0xA1, 0xB2, 0xC3, 0xD4]),
            Some((Big, Microsecond))
        );
        assert_eq!(
            identify_magic([0x4D, 0x3C, 0xB2, 0xA1]),
            Some((Little, Nanosecond))
        );
        assert_eq!(
            identify_magic([0xA1, 0xB2, 0x3C, 0x4D]),
            Some((Big, Nanosecond))
        );
        assert_eq!(identify_magic([0x0A, 0x0D, 0x0D, 0x0A]), None);
    }

    #[test]
    fn header_checks_length_and_magic() {
        assert!(matches!(
            PcapHeader::new_checked(&[0xD4, 0xC3][..]),
            Err(Error::Truncated { needed: 4, .. })
        ));
        assert!(matches!(
            PcapHeader::new_checked(&[0xD4, 0xC3, 0xB2, 0xA1, 2, 0][..]),
            Err(Error::Truncated {
                needed: 24,
                available: 6,
                ..
            })
        ));
        assert_eq!(
            PcapHeader::new_checked(&[1, 2, 3, 4, 0, 0, 0, 0][..]).unwrap_err(),
            Error::BadMagic { magic: 0x0102_0304 }
        );
    }

    #[test]
    fn header_setters_and_getters_agree() {
        for order in [ByteOrder::Little, ByteOrder::Big] {
            for res in [TsResolution::Microsecond, TsResolution::Nanosecond] {
                let mut buf = [0xFFu8; HEADER_LEN];
                let mut h = PcapHeader::new_unchecked(&mut buf[..], order, res);
                h.set_magic();
                h.set_version(2, 4);
                h.clear_reserved();
                h.set_snaplen(262_144);
                h.set_link_type(LinkType::ETHERNET);
                let h = PcapHeader::new_checked(&buf[..]).unwrap();
                assert_eq!(h.byte_order(), order);
                assert_eq!(h.resolution(), res);
                assert_eq!((h.version_major(), h.version_minor()), (2, 4));
                assert_eq!((h.thiszone(), h.sigfigs()), (0, 0));
                assert_eq!(h.snaplen(), 262_144);
                assert_eq!(h.link_type(), LinkType::ETHERNET);
            }
        }
    }

    #[test]
    fn link_type_ignores_fcs_bits() {
        let mut buf = [0u8; HEADER_LEN];
        buf[..4].copy_from_slice(&MAGIC_MICROS.to_be_bytes());
        buf[20..24].copy_from_slice(&0x1400_0001u32.to_be_bytes());
        let h = PcapHeader::new_checked(&buf[..]).unwrap();
        assert_eq!(h.link_type(), LinkType::ETHERNET);
        assert_eq!(h.link_type_field(), 0x1400_0001);
    }

    #[test]
    fn record_header_fields() {
        let mut buf = [0u8; RECORD_HEADER_LEN];
        let mut r = RecordHeader::new_unchecked(&mut buf[..], ByteOrder::Big);
        r.set_timestamp(7, 999_999);
        r.set_lengths(60, 1514);
        let r = RecordHeader::new_checked(&buf[..], ByteOrder::Big).unwrap();
        assert_eq!((r.ts_sec(), r.ts_frac()), (7, 999_999));
        assert_eq!((r.incl_len(), r.orig_len()), (60, 1514));
        assert_eq!(
            r.timestamp_ns(TsResolution::Microsecond),
            7_999_999_000,
            "microseconds scale by 1000"
        );
        assert!(RecordHeader::new_checked(&buf[..15], ByteOrder::Big).is_err());
    }

    #[test]
    fn record_timestamp_cannot_overflow() {
        let buf = [0xFFu8; RECORD_HEADER_LEN];
        let r = RecordHeader::new_checked(&buf[..], ByteOrder::Little).unwrap();
        let max = r.timestamp_ns(TsResolution::Microsecond);
        assert_eq!(
            max,
            u64::from(u32::MAX) * 1_000_000_000 + u64::from(u32::MAX) * 1_000
        );
    }
}
