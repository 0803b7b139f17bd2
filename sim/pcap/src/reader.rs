//! Reading pcap and pcapng files held in memory.

use crate::error::PcapError;
use crate::wire::ByteOrder;
use crate::wire::pcap::{self as wpcap, PcapHeader, RecordHeader};
use crate::wire::pcapng::{
    self as wng, Block, EnhancedPacket, InterfaceDescription, ObsoletePacket, SectionHeader,
    SimplePacket,
};
use crate::{LinkType, Packet, TsResolution};

/// The default for [`ReadOptions::max_record_len`]: 256 MiB.
pub const DEFAULT_MAX_RECORD_LEN: u32 = 256 << 20;

/// How strictly a [`Reader`] checks packet lengths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// A packet claiming more captured bytes than this is an error
    /// ([`PcapError::RecordTooLong`]), whatever the file holds.
    pub max_record_len: u32,
    /// When true, a packet capturing more bytes than the snapshot length of
    /// its file (pcap) or interface (pcapng) is an error
    /// ([`PcapError::ExceedsSnaplen`]); a snapshot length of 0 means "no
    /// limit". Off by default, as in libpcap and Wireshark: some writers get
    /// the snapshot length wrong, and their files are still good captures.
    pub enforce_snaplen: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_record_len: DEFAULT_MAX_RECORD_LEN,
            enforce_snaplen: false,
        }
    }
}

/// Which of the two formats a file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Classic libpcap format.
    Pcap,
    /// pcapng.
    PcapNg,
}

/// The unit of a pcapng interface's timestamps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimestampUnit {
    /// 10^-n seconds (`if_tsresol` with the top bit clear; 6 when absent).
    Pow10(u8),
    /// 2^-n seconds (`if_tsresol` with the top bit set).
    Pow2(u8),
}

impl TimestampUnit {
    /// Decodes an `if_tsresol` option value.
    pub fn from_tsresol(value: u8) -> Self {
        if value & 0x80 == 0 {
            TimestampUnit::Pow10(value)
        } else {
            TimestampUnit::Pow2(value & 0x7F)
        }
    }

    /// Converts a count of these units, plus an offset in whole seconds, to
    /// nanoseconds since 1970; `None` when the result is negative or does not
    /// fit a `u64`. Sub-nanosecond units are truncated toward zero.
    pub fn to_ns(self, units: u64, offset_s: i64) -> Option<u64> {
        let units = u128::from(units);
        let ns: u128 = match self {
            TimestampUnit::Pow10(n) if n <= 9 => units * 10u128.pow(9 - u32::from(n)),
            // 10^38 is the largest power of ten a u128 holds; past it the
            // quotient is 0 for any u64 numerator.
            TimestampUnit::Pow10(n) if n - 9 <= 38 => units / 10u128.pow(u32::from(n) - 9),
            TimestampUnit::Pow10(_) => 0,
            // units < 2^64 and 10^9 < 2^30, so the product fits in 94 bits.
            TimestampUnit::Pow2(n) => (units * 1_000_000_000) >> n.min(127),
        };
        let total = i128::try_from(ns).ok()? + i128::from(offset_s) * 1_000_000_000;
        u64::try_from(total).ok()
    }
}

impl From<TsResolution> for TimestampUnit {
    fn from(res: TsResolution) -> Self {
        match res {
            TsResolution::Microsecond => TimestampUnit::Pow10(6),
            TsResolution::Nanosecond => TimestampUnit::Pow10(9),
        }
    }
}

/// A capture interface. A classic pcap file has exactly one, described by
/// its file header; a pcapng file has one per Interface Description Block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interface<'a> {
    /// The link type of the interface's packets.
    pub link_type: LinkType,
    /// Snapshot length; 0 means no limit.
    pub snaplen: u32,
    /// The unit of the interface's timestamps.
    pub timestamp_unit: TimestampUnit,
    /// Seconds added to every timestamp (`if_tsoffset`; 0 for pcap).
    pub timestamp_offset_s: i64,
    /// The interface's name (`if_name`), when present and valid UTF-8.
    pub name: Option<&'a str>,
    /// The section (0 for the first) the interface belongs to.
    pub section: u32,
}

/// Where a pcap version keeps the captured and original lengths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lengths {
    /// 2.4: captured length, then original length.
    InOrder,
    /// 2.3: some writers swapped them; a captured length above the original
    /// length gives those away (libpcap's rule).
    MaybeSwapped,
    /// Before 2.3: original length, then captured length.
    Swapped,
}

/// What a classic pcap file's header fixes for every record: the file
/// has exactly one interface, so its records are read from this, not from
/// the interface list the accessors show.
#[derive(Debug, Clone, Copy)]
struct PcapFile {
    order: ByteOrder,
    resolution: TsResolution,
    lengths: Lengths,
    snaplen: u32,
    link_type: LinkType,
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Pcap(PcapFile),
    PcapNg {
        /// Byte order of the current section.
        order: ByteOrder,
        /// Index in `interfaces` of the current section's first interface.
        section_start: usize,
        /// Index of the current section.
        section: u32,
    },
}

/// Reads packets from a pcap or pcapng file held in memory.
///
/// Created by [`open`] or [`open_with`]. It is an iterator of packets whose
/// data borrow the file's buffer. After the first error it yields nothing
/// more.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    options: ReadOptions,
    kind: Kind,
    interfaces: Vec<Interface<'a>>,
    failed: bool,
}

/// Opens a capture file held in `bytes`, detecting classic pcap (any of the
/// four magic numbers) or pcapng, with the default [`ReadOptions`].
///
/// The file header is checked here; for pcapng, the blocks before the first
/// packet (normally the Section Header Block and the Interface Description
/// Blocks) are read too, so [`Reader::link_type`] and
/// [`Reader::interfaces`] are known at once for ordinary files.
pub fn open(bytes: &[u8]) -> Result<Reader<'_>, PcapError> {
    open_with(bytes, ReadOptions::default())
}

/// Like [`open`], with the given [`ReadOptions`].
pub fn open_with(bytes: &[u8], options: ReadOptions) -> Result<Reader<'_>, PcapError> {
    if bytes.len() < 4 {
        return Err(PcapError::Truncated {
            what: "magic number",
            offset: 0,
            needed: 4,
            available: bytes.len() as u64,
        });
    }
    let first4 = [bytes[0], bytes[1], bytes[2], bytes[3]];
    if u32::from_be_bytes(first4) == wng::BLOCK_SHB {
        open_pcapng(bytes, options)
    } else {
        open_pcap(bytes, options)
    }
}

fn open_pcap(bytes: &[u8], options: ReadOptions) -> Result<Reader<'_>, PcapError> {
    let header = PcapHeader::new_checked(bytes).map_err(|e| PcapError::from_wire(e, 0, 0))?;
    let (major, minor) = (header.version_major(), header.version_minor());
    // 2.4 is the format in use since 1998. Earlier minors differ only in the
    // order of the two length fields.
    let lengths = match (major, minor) {
        (wpcap::VERSION_MAJOR, wpcap::VERSION_MINOR) => Lengths::InOrder,
        (wpcap::VERSION_MAJOR, 3) => Lengths::MaybeSwapped,
        (wpcap::VERSION_MAJOR, 0..=2) => Lengths::Swapped,
        _ => {
            return Err(PcapError::UnsupportedVersion {
                format: "pcap",
                offset: 0,
                major,
                minor,
            });
        }
    };
    let interface = Interface {
        link_type: header.link_type(),
        snaplen: header.snaplen(),
        timestamp_unit: header.resolution().into(),
        timestamp_offset_s: 0,
        name: None,
        section: 0,
    };
    Ok(Reader {
        buf: bytes,
        pos: wpcap::HEADER_LEN,
        options,
        kind: Kind::Pcap(PcapFile {
            order: header.byte_order(),
            resolution: header.resolution(),
            lengths,
            snaplen: interface.snaplen,
            link_type: interface.link_type,
        }),
        interfaces: vec![interface],
        failed: false,
    })
}

fn open_pcapng(bytes: &[u8], options: ReadOptions) -> Result<Reader<'_>, PcapError> {
    // The section's byte order is needed before the block can be framed.
    let order = wng::section_byte_order(bytes).map_err(|e| PcapError::from_wire(e, 0, 0))?;
    let mut reader = Reader {
        buf: bytes,
        pos: 0,
        options,
        kind: Kind::PcapNg {
            order,
            section_start: 0,
            section: 0,
        },
        interfaces: Vec::new(),
        failed: false,
    };
    // Read the leading non-packet blocks, stopping before the first packet.
    while reader.pos < bytes.len() {
        let rest = &bytes[reader.pos..];
        if rest.len() >= 4 {
            let ty = reader.block_type_at(rest);
            if matches!(ty, wng::BLOCK_EPB | wng::BLOCK_PB | wng::BLOCK_SPB) {
                break;
            }
        }
        let skipped = reader.next_pcapng()?;
        debug_assert!(skipped.is_none(), "packet blocks are excluded above");
    }
    Ok(reader)
}

impl<'a> Reader<'a> {
    /// The file's format.
    pub fn format(&self) -> Format {
        match self.kind {
            Kind::Pcap(_) => Format::Pcap,
            Kind::PcapNg { .. } => Format::PcapNg,
        }
    }

    /// The byte order of the file (pcap) or of the current section (pcapng).
    pub fn byte_order(&self) -> ByteOrder {
        match self.kind {
            Kind::Pcap(PcapFile { order, .. }) | Kind::PcapNg { order, .. } => order,
        }
    }

    /// The timestamp resolution of a classic pcap file; `None` for pcapng,
    /// where each interface has its own ([`Interface::timestamp_unit`]).
    pub fn pcap_resolution(&self) -> Option<TsResolution> {
        match self.kind {
            Kind::Pcap(file) => Some(file.resolution),
            Kind::PcapNg { .. } => None,
        }
    }

    /// The link type shared by every interface described so far: always
    /// `Some` for pcap; for pcapng, `None` when no interface has been
    /// described yet or the interfaces differ (then see
    /// [`Reader::interface_link_type`] or [`Packet::link_type`]).
    pub fn link_type(&self) -> Option<LinkType> {
        let first = self.interfaces.first()?.link_type;
        self.interfaces
            .iter()
            .all(|i| i.link_type == first)
            .then_some(first)
    }

    /// The link type of an interface, by the index [`Packet::interface`]
    /// uses.
    pub fn interface_link_type(&self, interface: u32) -> Option<LinkType> {
        self.interface(interface).map(|i| i.link_type)
    }

    /// An interface, by the index [`Packet::interface`] uses.
    pub fn interface(&self, interface: u32) -> Option<&Interface<'a>> {
        self.interfaces.get(usize::try_from(interface).ok()?)
    }

    /// The interfaces described so far, across all sections, in file order.
    pub fn interfaces(&self) -> &[Interface<'a>] {
        &self.interfaces
    }

    /// The byte offset of the next record or block to read.
    pub fn position(&self) -> usize {
        self.pos
    }

    fn block_type_at(&self, rest: &[u8]) -> u32 {
        let first4 = [rest[0], rest[1], rest[2], rest[3]];
        match self.kind {
            Kind::PcapNg {
                order: ByteOrder::Big,
                ..
            } => u32::from_be_bytes(first4),
            _ => u32::from_le_bytes(first4),
        }
    }

    fn check_caplen(&self, offset: usize, len: u32, snaplen: u32) -> Result<(), PcapError> {
        let offset = offset as u64;
        if len > self.options.max_record_len {
            return Err(PcapError::RecordTooLong {
                offset,
                len,
                limit: self.options.max_record_len,
            });
        }
        if self.options.enforce_snaplen && snaplen != 0 && len > snaplen {
            return Err(PcapError::ExceedsSnaplen {
                offset,
                len,
                snaplen,
            });
        }
        Ok(())
    }

    fn next_pcap(&mut self, file: PcapFile) -> Result<Packet<'a>, PcapError> {
        let PcapFile {
            order,
            resolution,
            lengths,
            snaplen,
            link_type,
        } = file;
        let buf = self.buf;
        let pos = self.pos;
        let header = RecordHeader::new_checked(&buf[pos..], order)
            .map_err(|e| PcapError::from_wire(e, pos, 0))?;
        let (mut caplen, mut orig_len) = (header.incl_len(), header.orig_len());
        let swap = match lengths {
            Lengths::InOrder => false,
            Lengths::MaybeSwapped => caplen > orig_len,
            Lengths::Swapped => true,
        };
        if swap {
            (caplen, orig_len) = (orig_len, caplen);
        }
        self.check_caplen(pos, caplen, snaplen)?;
        let start = pos + wpcap::RECORD_HEADER_LEN;
        let available = buf.len() - start;
        if caplen as usize > available {
            return Err(PcapError::Truncated {
                what: "packet data",
                offset: start as u64,
                needed: u64::from(caplen),
                available: available as u64,
            });
        }
        let end = start + caplen as usize;
        let packet = Packet {
            timestamp_ns: header.timestamp_ns(resolution),
            data: &buf[start..end],
            orig_len,
            interface: 0,
            link_type,
        };
        self.pos = end;
        Ok(packet)
    }

    /// Reads the block at `self.pos` and advances past it, returning the
    /// packet it holds if it is a packet block.
    fn next_pcapng(&mut self) -> Result<Option<Packet<'a>>, PcapError> {
        let Kind::PcapNg {
            mut order,
            section_start,
            section,
        } = self.kind
        else {
            unreachable!("next_pcapng on a pcap reader");
        };
        let buf = self.buf;
        let pos = self.pos;
        let rest = &buf[pos..];
        let wire_err = |e, ty| PcapError::from_wire(e, pos, ty);

        let is_shb = rest.len() >= 4 && rest[..4] == wng::BLOCK_SHB.to_be_bytes();
        if is_shb {
            order = wng::section_byte_order(rest).map_err(|e| wire_err(e, wng::BLOCK_SHB))?;
        }
        let block = Block::new_checked(rest, order).map_err(|e| wire_err(e, 0))?;
        let ty = block.block_type();
        let next_pos = pos + block.total_len() as usize;
        let body = block.body();

        let packet = match ty {
            wng::BLOCK_SHB => {
                let shb = SectionHeader::new_checked(body, order).map_err(|e| wire_err(e, ty))?;
                let (major, minor) = (shb.version_major(), shb.version_minor());
                if major != wng::VERSION_MAJOR {
                    return Err(PcapError::UnsupportedVersion {
                        format: "pcapng",
                        offset: pos as u64,
                        major,
                        minor,
                    });
                }
                for opt in shb.options() {
                    opt.map_err(|e| wire_err(e, ty))?;
                }
                // The first section starts at offset 0 and was set up by
                // open_pcapng; each later one starts a fresh interface list.
                let section = if pos == 0 { 0 } else { section + 1 };
                self.kind = Kind::PcapNg {
                    order,
                    section_start: self.interfaces.len(),
                    section,
                };
                None
            }
            wng::BLOCK_IDB => {
                let idb =
                    InterfaceDescription::new_checked(body, order).map_err(|e| wire_err(e, ty))?;
                let mut interface = Interface {
                    link_type: LinkType(idb.link_type()),
                    snaplen: idb.snaplen(),
                    timestamp_unit: TimestampUnit::Pow10(6),
                    timestamp_offset_s: 0,
                    name: None,
                    section,
                };
                for opt in idb.options() {
                    let opt = opt.map_err(|e| wire_err(e, ty))?;
                    let bad = |reason| PcapError::MalformedBlock {
                        offset: pos as u64,
                        block_type: ty,
                        reason,
                    };
                    match opt.code {
                        wng::IF_TSRESOL => {
                            let v = opt
                                .as_u8()
                                .ok_or_else(|| bad("if_tsresol option is not 1 byte long"))?;
                            interface.timestamp_unit = TimestampUnit::from_tsresol(v);
                        }
                        wng::IF_TSOFFSET => {
                            let v = opt
                                .as_u64()
                                .ok_or_else(|| bad("if_tsoffset option is not 8 bytes long"))?;
                            interface.timestamp_offset_s = v as i64;
                        }
                        wng::IF_NAME => interface.name = opt.as_str(),
                        _ => {}
                    }
                }
                // Each IDB occupies at least 20 bytes of the file, so this
                // list is bounded by the input's size.
                self.interfaces.push(interface);
                None
            }
            wng::BLOCK_EPB => {
                let epb = EnhancedPacket::new_checked(body, order).map_err(|e| wire_err(e, ty))?;
                for opt in epb.options() {
                    opt.map_err(|e| wire_err(e, ty))?;
                }
                Some(self.packet_from_block(
                    pos,
                    section_start,
                    epb.interface_id(),
                    epb.timestamp(),
                    epb.data(),
                    epb.original_len(),
                )?)
            }
            wng::BLOCK_PB => {
                let pb = ObsoletePacket::new_checked(body, order).map_err(|e| wire_err(e, ty))?;
                for opt in pb.options() {
                    opt.map_err(|e| wire_err(e, ty))?;
                }
                Some(self.packet_from_block(
                    pos,
                    section_start,
                    u32::from(pb.interface_id()),
                    pb.timestamp(),
                    pb.data(),
                    pb.original_len(),
                )?)
            }
            wng::BLOCK_SPB => {
                let spb = SimplePacket::new_checked(body, order).map_err(|e| wire_err(e, ty))?;
                let index = self.interface_index(pos, section_start, 0)?;
                let interface = &self.interfaces[index];
                let data = spb.data(interface.snaplen);
                self.check_caplen(pos, data.len() as u32, interface.snaplen)?;
                Some(Packet {
                    // A Simple Packet Block carries no timestamp.
                    timestamp_ns: 0,
                    data,
                    orig_len: spb.original_len(),
                    interface: index as u32,
                    link_type: interface.link_type,
                })
            }
            // Name resolution, statistics, decryption secrets, custom and
            // unknown blocks: framed and checked above, otherwise skipped.
            _ => None,
        };
        self.pos = next_pos;
        Ok(packet)
    }

    /// The index in `self.interfaces` of a section-relative interface id.
    fn interface_index(
        &self,
        pos: usize,
        section_start: usize,
        id: u32,
    ) -> Result<usize, PcapError> {
        let known = self.interfaces.len() - section_start;
        match usize::try_from(id) {
            Ok(id) if id < known => Ok(section_start + id),
            _ => Err(PcapError::UnknownInterface {
                offset: pos as u64,
                interface: id,
                known: known as u32,
            }),
        }
    }

    fn packet_from_block(
        &self,
        pos: usize,
        section_start: usize,
        interface_id: u32,
        timestamp: u64,
        data: &'a [u8],
        orig_len: u32,
    ) -> Result<Packet<'a>, PcapError> {
        let index = self.interface_index(pos, section_start, interface_id)?;
        let interface = &self.interfaces[index];
        self.check_caplen(pos, data.len() as u32, interface.snaplen)?;
        let timestamp_ns = interface
            .timestamp_unit
            .to_ns(timestamp, interface.timestamp_offset_s)
            .ok_or(PcapError::TimestampOutOfRange { offset: pos as u64 })?;
        Ok(Packet {
            timestamp_ns,
            data,
            orig_len,
            interface: index as u32,
            link_type: interface.link_type,
        })
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Result<Packet<'a>, PcapError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.failed && self.pos < self.buf.len() {
            let result = match self.kind {
                Kind::Pcap(file) => self.next_pcap(file).map(Some),
                Kind::PcapNg { .. } => self.next_pcapng(),
            };
            match result {
                Ok(Some(packet)) => return Some(Ok(packet)),
                Ok(None) => continue,
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

impl core::iter::FusedIterator for Reader<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamp_units_convert() {
        use TimestampUnit::*;
        assert_eq!(Pow10(6).to_ns(1_500_000, 0), Some(1_500_000_000));
        assert_eq!(Pow10(9).to_ns(42, 0), Some(42));
        assert_eq!(Pow10(0).to_ns(3, 0), Some(3_000_000_000));
        assert_eq!(Pow10(12).to_ns(5_000, 0), Some(5));
        assert_eq!(Pow10(127).to_ns(u64::MAX, 0), Some(0));
        assert_eq!(Pow10(0).to_ns(u64::MAX, 0), None, "overflows u64 ns");
        assert_eq!(Pow2(10).to_ns(1024, 0), Some(1_000_000_000));
        assert_eq!(Pow2(127).to_ns(u64::MAX, 0), Some(0));
        assert_eq!(Pow2(0).to_ns(2, 0), Some(2_000_000_000));
        assert_eq!(Pow10(6).to_ns(0, 10), Some(10_000_000_000));
        assert_eq!(Pow10(6).to_ns(0, -1), None, "before 1970");
        assert_eq!(Pow10(9).to_ns(u64::MAX, i64::MAX), None);
        assert_eq!(TimestampUnit::from_tsresol(0x8A), Pow2(10));
        assert_eq!(TimestampUnit::from_tsresol(9), Pow10(9));
    }

    #[test]
    fn short_inputs_are_truncated_errors() {
        for len in 0..4 {
            let bytes = vec![0xA1u8; len];
            assert!(matches!(
                open(&bytes),
                Err(PcapError::Truncated { needed: 4, .. })
            ));
        }
        assert!(matches!(
            open(&[0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0]),
            Err(PcapError::Truncated { needed: 24, .. })
        ));
        assert!(matches!(
            open(b"GIF89a..."),
            Err(PcapError::BadMagic { magic: 0x4749_4638 })
        ));
    }
}
