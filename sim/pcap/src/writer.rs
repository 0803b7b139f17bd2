//! Writing classic pcap files.

use std::io::Write;

use crate::error::PcapError;
use crate::wire::ByteOrder;
use crate::wire::pcap::{self as wpcap, PcapHeader, RecordHeader};
use crate::{LinkType, TsResolution};

/// The snapshot length tcpdump and Wireshark use today (and the default).
pub const SNAPLEN_DEFAULT: u32 = 262_144;
/// The traditional snapshot length.
pub const SNAPLEN_LEGACY: u32 = 65_535;

/// How a [`Writer`] lays out its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriterConfig {
    /// Timestamp resolution of the records (and so the file's magic number).
    /// Microsecond files truncate timestamps to whole microseconds.
    pub resolution: TsResolution,
    /// The snapshot length written in the header; longer packets are cut to
    /// this many bytes (their original length is kept). Must be from 1 to
    /// [`DEFAULT_MAX_RECORD_LEN`](crate::DEFAULT_MAX_RECORD_LEN).
    pub snaplen: u32,
    /// The link type of every packet.
    pub link_type: LinkType,
}

impl Default for WriterConfig {
    /// Microsecond timestamps, snapshot length 262144, Ethernet.
    fn default() -> Self {
        WriterConfig {
            resolution: TsResolution::Microsecond,
            snaplen: SNAPLEN_DEFAULT,
            link_type: LinkType::ETHERNET,
        }
    }
}

/// Writes a classic pcap file (version 2.4, little-endian) to `W`.
///
/// The file header is written by [`Writer::new`]; each
/// [`write_packet`](Writer::write_packet) appends one record. Wrap files in a
/// [`std::io::BufWriter`]; call [`finish`](Writer::finish) (or
/// [`flush`](Writer::flush)) at the end to see I/O errors.
#[derive(Debug)]
pub struct Writer<W: Write> {
    out: W,
    config: WriterConfig,
}

impl<W: Write> Writer<W> {
    /// Checks `config` and writes the file header.
    pub fn new(mut out: W, config: WriterConfig) -> Result<Self, PcapError> {
        if config.snaplen == 0 {
            return Err(PcapError::InvalidConfig("snaplen must not be 0"));
        }
        if config.snaplen > crate::DEFAULT_MAX_RECORD_LEN {
            return Err(PcapError::InvalidConfig(
                "snaplen must not exceed 256 MiB (readers reject such records)",
            ));
        }
        let mut buf = [0u8; wpcap::HEADER_LEN];
        let mut header =
            PcapHeader::new_unchecked(&mut buf[..], ByteOrder::Little, config.resolution);
        header.set_magic();
        header.set_version(wpcap::VERSION_MAJOR, wpcap::VERSION_MINOR);
        header.clear_reserved();
        header.set_snaplen(config.snaplen);
        header.set_link_type(config.link_type);
        out.write_all(&buf)?;
        Ok(Writer { out, config })
    }

    /// The configuration the file was written with.
    pub fn config(&self) -> &WriterConfig {
        &self.config
    }

    /// Appends a packet seen whole on the wire: its original length is
    /// `data.len()`. Data beyond the snapshot length is not written.
    ///
    /// `timestamp_ns` counts nanoseconds since 1970-01-01 00:00:00 UTC; its
    /// seconds must fit a `u32` (up to the year 2106).
    pub fn write_packet(&mut self, timestamp_ns: u64, data: &[u8]) -> Result<(), PcapError> {
        let orig_len = u32::try_from(data.len()).map_err(|_| PcapError::InvalidPacketLength {
            reason: "packet longer than u32::MAX bytes",
        })?;
        self.write_truncated(timestamp_ns, data, orig_len)
    }

    /// Appends a packet of which only `data` was captured out of `orig_len`
    /// bytes on the wire (`orig_len >= data.len()`). Data beyond the snapshot
    /// length is not written.
    pub fn write_truncated(
        &mut self,
        timestamp_ns: u64,
        data: &[u8],
        orig_len: u32,
    ) -> Result<(), PcapError> {
        if data.len() as u64 > u64::from(orig_len) {
            return Err(PcapError::InvalidPacketLength {
                reason: "original length is smaller than the captured data",
            });
        }
        let seconds = timestamp_ns / 1_000_000_000;
        let nanos = (timestamp_ns % 1_000_000_000) as u32;
        let seconds = u32::try_from(seconds)
            .map_err(|_| PcapError::UnrepresentableTimestamp { timestamp_ns })?;
        let frac = match self.config.resolution {
            TsResolution::Microsecond => nanos / 1_000,
            TsResolution::Nanosecond => nanos,
        };
        // data.len() <= orig_len <= u32::MAX, so this cannot truncate.
        let caplen = (data.len() as u32).min(self.config.snaplen);
        let mut buf = [0u8; wpcap::RECORD_HEADER_LEN];
        let mut header = RecordHeader::new_unchecked(&mut buf[..], ByteOrder::Little);
        header.set_timestamp(seconds, frac);
        header.set_lengths(caplen, orig_len);
        self.out.write_all(&buf)?;
        self.out.write_all(&data[..caplen as usize])?;
        Ok(())
    }

    /// Flushes the underlying writer.
    pub fn flush(&mut self) -> Result<(), PcapError> {
        self.out.flush()?;
        Ok(())
    }

    /// Borrows the underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// Flushes and returns the underlying writer.
    pub fn finish(mut self) -> Result<W, PcapError> {
        self.out.flush()?;
        Ok(self.out)
    }
}
