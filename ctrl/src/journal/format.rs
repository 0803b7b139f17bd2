//! The file format: the file header, records and their encoding (the
//! table in [`super`]).

use super::*;

/// The file header's first bytes.
pub const MAGIC: [u8; 8] = *b"JANUSJNL";
/// The journal format this version writes and reads.
pub const FORMAT: u32 = 1;
/// Bytes of the file header.
pub const FILE_HEADER: usize = 24;
/// Bytes of a record's header.
pub const RECORD_HEADER: usize = 24;
/// The pipeline record's flag saying that record 1 is a snapshot.
pub const SNAPSHOT_FOLLOWS: u8 = 1;

/// What a record holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    /// The committed `ForwardingPipelineConfig` (record 0).
    Pipeline = 1,
    /// The applied updates of one Write batch.
    Batch = 2,
    /// Updates recreating the state (record 1).
    Snapshot = 3,
}

impl RecordKind {
    pub(super) fn from_byte(b: u8) -> Option<RecordKind> {
        match b {
            1 => Some(RecordKind::Pipeline),
            2 => Some(RecordKind::Batch),
            3 => Some(RecordKind::Snapshot),
            _ => None,
        }
    }
}

impl fmt::Display for RecordKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RecordKind::Pipeline => "pipeline",
            RecordKind::Batch => "batch",
            RecordKind::Snapshot => "snapshot",
        })
    }
}

/// The file header of a journal whose first record is `first_seq`.
pub fn file_header(first_seq: u64) -> [u8; FILE_HEADER] {
    let mut h = [0u8; FILE_HEADER];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&FORMAT.to_le_bytes());
    h[12..20].copy_from_slice(&first_seq.to_le_bytes());
    let crc = crc32(&h[0..20]);
    h[20..24].copy_from_slice(&crc.to_le_bytes());
    h
}

/// One record, framed: header (with `flags` in byte 13:
/// [`SNAPSHOT_FOLLOWS`] on a pipeline record followed by a snapshot, else
/// 0) and payload.
pub fn encode_record(
    seq: u64,
    kind: RecordKind,
    flags: u8,
    payload: &[u8],
) -> Result<Vec<u8>, JournalError> {
    let len = u32::try_from(payload.len()).map_err(|_| JournalError::TooLarge {
        bytes: payload.len(),
    })?;
    let mut out = Vec::with_capacity(RECORD_HEADER + payload.len());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&seq.to_le_bytes());
    out.push(kind as u8);
    out.extend_from_slice(&[flags, 0, 0]);
    let header_crc = crc32(&out[0..16]);
    let record_crc = Crc32::new().update(&out[0..16]).update(payload).finish();
    out.extend_from_slice(&header_crc.to_le_bytes());
    out.extend_from_slice(&record_crc.to_le_bytes());
    out.extend_from_slice(payload);
    Ok(out)
}

/// The encoding of a `WriteRequest` holding only `updates`, written
/// straight from them (no copy of the updates).
pub(super) fn updates_payload<'u>(updates: impl IntoIterator<Item = &'u p4::Update>) -> Vec<u8> {
    /// `WriteRequest.updates`' field number.
    const UPDATES_FIELD: u32 = 4;
    let mut out = Vec::new();
    for u in updates {
        prost::encoding::message::encode(UPDATES_FIELD, u, &mut out);
    }
    out
}

/// A record's decoded payload.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    Pipeline(Box<p4::ForwardingPipelineConfig>),
    Snapshot(Vec<p4::Update>),
    Batch(Vec<p4::Update>),
}

/// An intact record.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Its position in the file (0: the pipeline).
    pub index: usize,
    pub seq: u64,
    /// The offset of its header.
    pub offset: u64,
    /// Its bytes, header included.
    pub len: u64,
    pub body: Body,
}

impl Record {
    pub fn kind(&self) -> RecordKind {
        match self.body {
            Body::Pipeline(_) => RecordKind::Pipeline,
            Body::Snapshot(_) => RecordKind::Snapshot,
            Body::Batch(_) => RecordKind::Batch,
        }
    }

    /// The updates of a batch or snapshot (none for the pipeline).
    pub fn updates(&self) -> &[p4::Update] {
        match &self.body {
            Body::Pipeline(_) => &[],
            Body::Snapshot(u) | Body::Batch(u) => u,
        }
    }
}
