//! Reading a classic pcap stream record by record, as it is written: for
//! named pipes and other streams a [`Reader`](crate::Reader) cannot hold
//! whole (bmv2's `--use-files` inputs are often FIFOs a test writes into
//! while the switch runs).
//!
//! Only classic pcap (either byte order, micro- or nanosecond timestamps)
//! is read this way; a pcapng stream is refused at its first bytes with
//! [`PcapError::BadMagic`]. A record is checked as [`Reader`](crate::Reader)
//! checks it: its captured length is bounded by
//! [`ReadOptions::max_record_len`](crate::ReadOptions), and a stream that
//! ends inside a record is [`PcapError::Truncated`]; a stream that ends
//! between records is the end.

use std::io::{self, Read};

use crate::error::PcapError;
use crate::wire::ByteOrder;
use crate::wire::pcap::{self as wpcap, PcapHeader, RecordHeader};
use crate::{DEFAULT_MAX_RECORD_LEN, LinkType, TsResolution};

/// A classic pcap stream read one record at a time.
#[derive(Debug)]
pub struct StreamReader<R: Read> {
    input: R,
    order: ByteOrder,
    resolution: TsResolution,
    link_type: LinkType,
    max_record_len: u32,
    /// Bytes consumed so far, for error offsets.
    offset: u64,
}

/// One record's capture time and lengths; its bytes are in the caller's
/// buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamRecord {
    /// Nanoseconds since 1970-01-01 00:00:00 UTC.
    pub timestamp_ns: u64,
    /// The packet's length on the wire.
    pub orig_len: u32,
}

impl<R: Read> StreamReader<R> {
    /// Reads and checks the file header (blocking until it is there).
    pub fn new(mut input: R) -> Result<Self, PcapError> {
        let mut header = [0u8; wpcap::HEADER_LEN];
        let got = read_full(&mut input, &mut header)?;
        if got < 4 {
            return Err(PcapError::Truncated {
                what: "pcap file header",
                offset: 0,
                needed: wpcap::HEADER_LEN as u64,
                available: got as u64,
            });
        }
        let magic = [header[0], header[1], header[2], header[3]];
        if wpcap::identify_magic(magic).is_none() {
            return Err(PcapError::BadMagic {
                magic: u32::from_be_bytes(magic),
            });
        }
        if got < header.len() {
            return Err(PcapError::Truncated {
                what: "pcap file header",
                offset: 0,
                needed: wpcap::HEADER_LEN as u64,
                available: got as u64,
            });
        }
        let view =
            PcapHeader::new_checked(&header[..]).map_err(|e| PcapError::from_wire(e, 0, 0))?;
        if view.version_major() != wpcap::VERSION_MAJOR {
            return Err(PcapError::UnsupportedVersion {
                format: "pcap",
                offset: 0,
                major: view.version_major(),
                minor: view.version_minor(),
            });
        }
        Ok(StreamReader {
            order: view.byte_order(),
            resolution: view.resolution(),
            link_type: view.link_type(),
            input,
            max_record_len: DEFAULT_MAX_RECORD_LEN,
            offset: wpcap::HEADER_LEN as u64,
        })
    }

    /// The link type of every record.
    pub fn link_type(&self) -> LinkType {
        self.link_type
    }

    /// Reads the next record's bytes into `data` (replacing what it held;
    /// its capacity is reused): `None` at the end of the stream.
    pub fn next_into(&mut self, data: &mut Vec<u8>) -> Result<Option<StreamRecord>, PcapError> {
        let mut raw = [0u8; wpcap::RECORD_HEADER_LEN];
        let got = read_full(&mut self.input, &mut raw)?;
        if got == 0 {
            return Ok(None);
        }
        if got < raw.len() {
            return Err(self.truncated("record header", raw.len(), got));
        }
        let header = RecordHeader::new_unchecked(&raw[..], self.order);
        let caplen = header.incl_len();
        if caplen > self.max_record_len {
            return Err(PcapError::RecordTooLong {
                offset: self.offset,
                len: caplen,
                limit: self.max_record_len,
            });
        }
        let record = StreamRecord {
            timestamp_ns: header.timestamp_ns(self.resolution),
            orig_len: header.orig_len(),
        };
        self.offset += raw.len() as u64;
        data.clear();
        data.resize(caplen as usize, 0);
        let got = read_full(&mut self.input, data)?;
        if got < data.len() {
            let err = self.truncated("packet data", data.len(), got);
            data.truncate(got);
            return Err(err);
        }
        self.offset += u64::from(caplen);
        Ok(Some(record))
    }

    fn truncated(&self, what: &'static str, needed: usize, available: usize) -> PcapError {
        PcapError::Truncated {
            what,
            offset: self.offset,
            needed: needed as u64,
            available: available as u64,
        }
    }
}

/// Reads until `buf` is full or the stream ends; the bytes read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Writer, WriterConfig};

    fn file(config: WriterConfig, packets: &[(u64, Vec<u8>)]) -> Vec<u8> {
        let mut w = Writer::new(Vec::new(), config).unwrap();
        for (ts, data) in packets {
            w.write_packet(*ts, data).unwrap();
        }
        w.finish().unwrap()
    }

    /// A reader handing out at most one byte per read, as a pipe may.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some((&b, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            if buf.is_empty() {
                return Ok(0);
            }
            buf[0] = b;
            self.0 = rest;
            Ok(1)
        }
    }

    #[test]
    fn reads_what_the_writer_wrote_in_pieces_as_the_whole_file_reader_does() {
        let packets: Vec<(u64, Vec<u8>)> = (0..20u64)
            .map(|i| {
                (
                    1_700_000_000_000_000_000 + i * 1_001_000,
                    vec![i as u8; 14 + i as usize * 7],
                )
            })
            .collect();
        for resolution in [TsResolution::Microsecond, TsResolution::Nanosecond] {
            let bytes = file(
                WriterConfig {
                    resolution,
                    ..WriterConfig::default()
                },
                &packets,
            );
            let whole: Vec<(u64, Vec<u8>)> = crate::open(&bytes)
                .unwrap()
                .map(|p| p.map(|p| (p.timestamp_ns, p.data.to_vec())))
                .collect::<Result<_, _>>()
                .unwrap();
            let mut s = StreamReader::new(Trickle(&bytes)).unwrap();
            assert_eq!(s.link_type(), LinkType::ETHERNET);
            let mut data = Vec::new();
            let mut streamed = Vec::new();
            while let Some(r) = s.next_into(&mut data).unwrap() {
                assert_eq!(r.orig_len as usize, data.len());
                streamed.push((r.timestamp_ns, data.clone()));
            }
            assert_eq!(streamed, whole);
            assert_eq!(streamed.len(), packets.len());
        }
    }

    #[test]
    fn a_cut_stream_is_truncated_at_the_record_and_garbage_is_refused() {
        let bytes = file(
            WriterConfig::default(),
            &[(1_000, vec![7; 60]), (2_000, vec![8; 60])],
        );
        let mut data = Vec::new();
        for cut in wpcap::HEADER_LEN + 1..bytes.len() {
            let at_boundary = cut == wpcap::HEADER_LEN + 16 + 60;
            let mut s = StreamReader::new(&bytes[..cut]).unwrap();
            let mut outcome = Ok(Some(()));
            while let Ok(Some(())) = outcome {
                outcome = s.next_into(&mut data).map(|r| r.map(|_| ()));
            }
            match outcome {
                Ok(None) => assert!(at_boundary, "cut at {cut} read as a clean end"),
                Err(PcapError::Truncated { .. }) => assert!(!at_boundary, "cut at {cut}"),
                other => panic!("cut at {cut}: {other:?}"),
            }
        }
        assert!(matches!(
            StreamReader::new(&b"\x0a\x0d\x0d\x0a and then pcapng"[..]),
            Err(PcapError::BadMagic { .. })
        ));
        assert!(matches!(
            StreamReader::new(&bytes[..10]),
            Err(PcapError::Truncated { .. })
        ));
        let mut huge = bytes[..wpcap::HEADER_LEN].to_vec();
        huge.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0]);
        let mut s = StreamReader::new(&huge[..]).unwrap();
        assert!(matches!(
            s.next_into(&mut data),
            Err(PcapError::RecordTooLong { .. })
        ));
    }
}
