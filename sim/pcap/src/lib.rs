//! pcap and pcapng capture files for the Janus behavioural model.
//!
//! - [`open`] reads a file held in memory, detecting classic pcap (all four
//!   magic numbers: micro- or nanosecond timestamps, either byte order) or
//!   pcapng (any number of sections, either byte order). The [`Reader`] it
//!   returns is an iterator of [`Packet`]s whose data borrow the input: no
//!   packet is copied.
//! - [`Writer`] writes classic pcap with micro- or nanosecond timestamps.
//! - [`wire`] has the zero-copy header and block views both are built on.
//!
//! The reader never panics on malformed input and never allocates according
//! to a length read from the file: every length is checked against the bytes
//! actually present first. Errors ([`PcapError`]) give the byte offset of the
//! offending structure.
//!
//! # Example
//!
//! ```
//! use janus_pcap::{LinkType, TsResolution, Writer, WriterConfig};
//!
//! // Write two frames with nanosecond timestamps into memory...
//! let config = WriterConfig {
//!     resolution: TsResolution::Nanosecond,
//!     ..WriterConfig::default()
//! };
//! let mut writer = Writer::new(Vec::new(), config)?;
//! writer.write_packet(1_700_000_000_123_456_789, &[0xAA; 60])?;
//! writer.write_truncated(1_700_000_001_000_000_000, &[0xBB; 14], 1514)?;
//! let file: Vec<u8> = writer.finish()?;
//!
//! // ...and read them back.
//! let mut reader = janus_pcap::open(&file)?;
//! assert_eq!(reader.link_type(), Some(LinkType::ETHERNET));
//! let first = reader.next().unwrap()?;
//! assert_eq!(first.timestamp_ns, 1_700_000_000_123_456_789);
//! assert_eq!(first.data, &[0xAA; 60][..]);
//! let second = reader.next().unwrap()?;
//! assert_eq!((second.data.len(), second.orig_len), (14, 1514));
//! assert!(second.is_truncated());
//! assert!(reader.next().is_none());
//! # Ok::<(), janus_pcap::PcapError>(())
//! ```
//!
//! # What is not supported
//!
//! - Writing pcapng (reading it is supported).
//! - pcap versions other than 2.x (2.0 to 2.3 are read with libpcap's rules
//!   for their swapped length fields), and variant formats with other
//!   magic numbers (Alexey Kuznetsov's patched format, IXIA, Navtel).
//! - Reading from a stream: the whole file must be in memory (or mapped).
//! - The pcap header's `thiszone` field is ignored (as libpcap does);
//!   timestamps are taken as UTC. Timestamps before 1970 cannot be
//!   represented and read as [`PcapError::TimestampOutOfRange`].
//! - pcapng: Simple Packet Blocks have no timestamp and read as 0; options
//!   other than `if_tsresol`, `if_tsoffset` and `if_name` are checked for
//!   framing but not interpreted; compressed or encrypted blocks are skipped
//!   like any unknown block; a section of an unsupported major version is an
//!   error rather than skipped.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod reader;
mod stream;
pub mod wire;
mod writer;

pub use error::PcapError;
pub use reader::{
    DEFAULT_MAX_RECORD_LEN, Format, Interface, ReadOptions, Reader, TimestampUnit, open, open_with,
};
pub use stream::{StreamReader, StreamRecord};
pub use wire::ByteOrder;
pub use writer::{SNAPLEN_DEFAULT, SNAPLEN_LEGACY, Writer, WriterConfig};

use core::fmt;

/// A captured packet, borrowing its bytes from the file buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packet<'a> {
    /// Capture time, in nanoseconds since 1970-01-01 00:00:00 UTC. 0 for a
    /// pcapng Simple Packet Block, which has no timestamp.
    pub timestamp_ns: u64,
    /// The captured bytes (possibly fewer than were on the wire).
    pub data: &'a [u8],
    /// The packet's length on the wire.
    pub orig_len: u32,
    /// The interface the packet was captured on: 0 for pcap; for pcapng, the
    /// index of its Interface Description Block among all those in the file
    /// (counting across sections), as used by [`Reader::interface`].
    pub interface: u32,
    /// The link type of the packet's interface.
    pub link_type: LinkType,
}

impl Packet<'_> {
    /// Whether fewer bytes were captured than were on the wire.
    pub fn is_truncated(&self) -> bool {
        (self.data.len() as u64) < u64::from(self.orig_len)
    }
}

/// Timestamp resolution of a classic pcap file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TsResolution {
    /// Microseconds (magic number 0xA1B2C3D4).
    Microsecond,
    /// Nanoseconds (magic number 0xA1B23C4D).
    Nanosecond,
}

/// A link-layer header type (a `LINKTYPE_` value from the tcpdump.org
/// registry), naming what the first bytes of each packet are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkType(pub u16);

impl LinkType {
    /// BSD loopback (4-byte address family header).
    pub const NULL: LinkType = LinkType(0);
    /// Ethernet II / IEEE 802.3.
    pub const ETHERNET: LinkType = LinkType(1);
    /// Raw IPv4 or IPv6, no link-layer header.
    pub const RAW: LinkType = LinkType(101);
    /// IEEE 802.11 wireless.
    pub const IEEE802_11: LinkType = LinkType(105);
    /// OpenBSD loopback.
    pub const LOOP: LinkType = LinkType(108);
    /// Linux "cooked" capture, version 1.
    pub const LINUX_SLL: LinkType = LinkType(113);
    /// Raw IPv4, no link-layer header.
    pub const IPV4: LinkType = LinkType(228);
    /// Raw IPv6, no link-layer header.
    pub const IPV6: LinkType = LinkType(229);
    /// Linux "cooked" capture, version 2.
    pub const LINUX_SLL2: LinkType = LinkType(276);

    /// The registry name of the well-known link types above.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            LinkType::NULL => "NULL",
            LinkType::ETHERNET => "ETHERNET",
            LinkType::RAW => "RAW",
            LinkType::IEEE802_11 => "IEEE802_11",
            LinkType::LOOP => "LOOP",
            LinkType::LINUX_SLL => "LINUX_SLL",
            LinkType::IPV4 => "IPV4",
            LinkType::IPV6 => "IPV6",
            LinkType::LINUX_SLL2 => "LINUX_SLL2",
            _ => return None,
        })
    }
}

impl fmt::Display for LinkType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "{name} ({})", self.0),
            None => write!(f, "link type {}", self.0),
        }
    }
}
