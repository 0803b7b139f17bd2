//! The server's persisted state (`janus ctrl serve --state DIR`): a journal
//! of the committed pipeline, a snapshot of the state, and every Write
//! batch applied since, which detects damage instead of silently dropping
//! what it cannot read.
//!
//! # The file format (journal format 1)
//!
//! `DIR/journal` starts with a 24-byte file header, then records. All
//! integers are little-endian; every checksum is CRC-32/IEEE (as zlib
//! computes it, [`crc32`]).
//!
//! | bytes | file header |
//! |---|---|
//! | 0..8 | magic `JANUSJNL` |
//! | 8..12 | format version, `1` |
//! | 12..20 | the sequence number of the first record |
//! | 20..24 | CRC of bytes 0..20 |
//!
//! | bytes | record header, then `length` bytes of payload |
//! |---|---|
//! | 0..4 | `length` of the payload |
//! | 4..12 | sequence number |
//! | 12 | kind: 1 pipeline, 2 batch, 3 snapshot |
//! | 13..16 | flags: on the pipeline record, bit 0 ([`SNAPSHOT_FOLLOWS`]) says record 1 is a snapshot; every other bit zero |
//! | 16..20 | header CRC: of bytes 0..16 |
//! | 20..24 | record CRC: of bytes 0..16 followed by the payload |
//!
//! Record 0 is the committed `ForwardingPipelineConfig`; record 1 is a
//! snapshot (a `WriteRequest` whose updates recreate every entity written
//! before it, [`ForwardingPipeline::snapshot`]) exactly when the pipeline record's
//! flags announce one (so a snapshot cut short or missing is never taken
//! for a torn batch); every other record is a batch (a `WriteRequest`
//! holding the `updates` of one Write that were applied).
//! Sequence numbers are strictly consecutive from the file header's: a
//! record missing, repeated or out of place breaks the sequence. They go
//! on from one journal to the next, so a sequence number names one record
//! of the state directory's history.
//!
//! A batch's record is appended and `fsync`ed before the Write RPC
//! answers. A pipeline commit starts a new journal: the file header, the
//! pipeline (and, after RECONCILE_AND_COMMIT, the state carried over, as a
//! snapshot record) are written to `DIR/journal.tmp`, synced, renamed over
//! `DIR/journal`, and the directory synced, so the journal is always
//! either the old one or the new one. After every
//! [`StateConfig::snapshot_every`] batches (default
//! [`DEFAULT_SNAPSHOT_EVERY`]) the server compacts the journal the same
//! way ([`Journal::compact`]): pipeline and snapshot of the current state,
//! so replay time stays bounded. A snapshot holds what a read of the
//! state gives at that moment, so counter and register cells keep the
//! values packets gave them too (a batch only replays written values).
//!
//! # What is dropped automatically: a torn tail
//!
//! Only a batch append can be interrupted by a crash (everything else is
//! written whole before a rename). So the one thing [`Journal::open`]
//! drops by itself is a *torn tail*: bytes after the last intact record,
//! at index 1 or later, that are a prefix of the batch record being
//! appended, namely either
//!
//! - fewer than 24 bytes (a header cut short) whose sequence-number,
//!   kind and flag bytes, as far as they go, are those of the next batch
//!   (the next sequence number, kind 2, flags 0), where a batch can be
//!   (not in place of an announced snapshot), or
//! - a complete header whose header CRC matches, naming the next sequence
//!   number and kind batch, whose length runs past the end of the file.
//!
//! The tail is dropped with a warning giving its offset and byte count,
//! and the file is truncated there: the only case in which opening the
//! journal modifies it. A torn batch was never acknowledged (the answer
//! waits for the `fsync`). A truncated file cannot be told from a torn
//! append, so a file cut at a record boundary or inside the last batch
//! loses the batches after the cut.
//!
//! Anything else is [`Damage`]: a bad or unknown file header (journal
//! format 0, the unversioned format before this one, included), a header
//! or record CRC that does not match, a sequence number other than the
//! next, a record of an unknown kind or in the wrong place, a pipeline or
//! snapshot record cut short (or an announced snapshot missing), bytes
//! after the last record that are not the
//! start of the next batch, a payload that does not decode. Start-up then
//! fails with [`JournalError::Damaged`], naming the record's index, its
//! sequence number when its header can be read, and its offset, and the
//! file is left exactly as it was. `janus ctrl journal check --state DIR`
//! ([`check`]) reports what the journal holds and where it is damaged;
//! `janus ctrl journal recover --state DIR --up-to N` ([`recover`]) keeps
//! a copy of the file (`DIR/journal.damaged-K`) and rewrites the journal
//! with the intact records up to sequence number N (`--up-to 0` keeps
//! none).
//!
//! A complete, intact record that does not replay is an error as well
//! ([`JournalError::Replay`]). `DIR/lock`, locked with `flock` while the
//! server runs (and while `check` or `recover` do), keeps a second server
//! out of the directory (the kernel releases it when the process dies,
//! `kill -9` included).

use crate::codec::RpcError;
use crate::device::ForwardingPipeline;
use crate::proto::p4::v1 as p4;
use prost::Message;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Batches between two snapshots unless [`StateConfig::snapshot_every`]
/// says otherwise.
pub const DEFAULT_SNAPSHOT_EVERY: u32 = 1000;

/// Where the state lives.
#[derive(Clone, Debug)]
pub struct StateConfig {
    /// The state directory (created if missing).
    pub dir: PathBuf,
    /// Compact the journal (pipeline and a snapshot of the state) after
    /// this many batches; 0 never does.
    pub snapshot_every: u32,
}

impl StateConfig {
    /// The state directory `dir`, snapshotting every
    /// [`DEFAULT_SNAPSHOT_EVERY`] batches.
    pub fn new(dir: impl Into<PathBuf>) -> StateConfig {
        StateConfig {
            dir: dir.into(),
            snapshot_every: DEFAULT_SNAPSHOT_EVERY,
        }
    }
}

/// Why the journal cannot be opened, read or written.
#[derive(Debug, Error)]
pub enum JournalError {
    #[error("{what} {}: {source}", path.display())]
    Io {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the state directory {} is in use by another server (its lock file is held)", .0.display())]
    Locked(PathBuf),
    #[error("{}: {damage}. The journal was left as it is. {}", path.display(), recovery_hint(dir, damage))]
    Damaged {
        path: PathBuf,
        dir: PathBuf,
        damage: Box<Damage>,
    },
    #[error("{}: record {index} (seq {seq}, offset {offset}) cannot be replayed: {message}", path.display())]
    Replay {
        path: PathBuf,
        index: usize,
        seq: u64,
        offset: u64,
        message: String,
    },
    #[error(
        "a record of {bytes} bytes is too large for the journal (at most {} bytes)",
        u32::MAX
    )]
    TooLarge { bytes: usize },
    #[error("the state cannot be read for a snapshot: {0}")]
    Snapshot(String),
    #[error("{}: no journal there", .0.display())]
    NoJournal(PathBuf),
    #[error("--up-to {up_to}: {}", match last { Some(l) => format!("past the last intact record (seq {l})"), None => "there is no intact record (--up-to 0 keeps none)".to_string() })]
    UpTo { up_to: u64, last: Option<u64> },
    #[error("the journal failed earlier and takes no more writes (restart the server)")]
    Poisoned,
}

/// How to get out of `damage`, for the error message.
fn recovery_hint(dir: &Path, damage: &Damage) -> String {
    let dir = dir.display();
    let keep = match damage.intact {
        Some((first, last)) => format!(
            "`janus ctrl journal recover --state {dir} --up-to {last}` keeps a copy of the file and \
             rewrites the journal with the intact records (seq {first}..{last}), dropping the rest"
        ),
        None => format!(
            "`janus ctrl journal recover --state {dir} --up-to 0` keeps a copy of the file and \
             starts an empty journal (no pipeline)"
        ),
    };
    format!("`janus ctrl journal check --state {dir}` reports what it holds; {keep}")
}

fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> JournalError {
    let path = path.to_path_buf();
    move |source| JournalError::Io { what, path, source }
}

use janus_wire::crc::Crc32;
pub use janus_wire::crc::crc32;

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
    fn from_byte(b: u8) -> Option<RecordKind> {
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
fn updates_payload<'u>(updates: impl IntoIterator<Item = &'u p4::Update>) -> Vec<u8> {
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

/// A torn tail: the start of a batch record whose append was cut short.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Torn {
    /// Where it starts (the end of the last intact record).
    pub offset: u64,
    /// Its bytes (to the end of the file).
    pub bytes: u64,
    /// The sequence number it would have had.
    pub seq: u64,
}

/// What is wrong at a [`Damage`]'s place.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Problem {
    #[error(
        "the file is empty (journal format unknown; a journal starts with a {FILE_HEADER}-byte file header)"
    )]
    Empty,
    #[error(
        "journal format 0 (the unversioned format of earlier Janus builds): this Janus reads journal format {FORMAT} only"
    )]
    Format0,
    #[error("journal format unknown: the file does not start with the journal magic `JANUSJNL`")]
    UnknownFormat,
    #[error("journal format {0}: this Janus reads journal format {FORMAT} only")]
    Version(u32),
    #[error("the file header is cut short ({0} of {FILE_HEADER} bytes)")]
    ShortFileHeader(usize),
    #[error("the file header's checksum does not match")]
    FileHeaderChecksum,
    #[error(
        "the record header's checksum does not match (its length, sequence number and kind cannot be trusted)"
    )]
    RecordHeaderChecksum,
    #[error("unknown record flags {0:#08x}")]
    Flags(u32),
    #[error("unknown record kind {0}")]
    Kind(u8),
    #[error(
        "sequence number {found} where {expected} was expected (a record missing, repeated or out of order)"
    )]
    Sequence { expected: u64, found: u64 },
    #[error(
        "a {0} record in this place (the pipeline must be record 0; record 1 is a snapshot when the pipeline record announces one, else a batch; the rest are batches)"
    )]
    Order(RecordKind),
    #[error(
        "the snapshot record the pipeline record announces is missing or cut short ({0} bytes of it); only batches are appended, so this is not a torn append"
    )]
    SnapshotMissing(u64),
    #[error(
        "the {kind} record is cut short ({have} of {need} bytes); only batches are appended, so this is not a torn append"
    )]
    Truncated {
        kind: RecordKind,
        have: u64,
        need: u64,
    },
    #[error("the record's checksum does not match (the record is complete: {0} bytes)")]
    RecordChecksum(u64),
    #[error("the {0} record's payload does not decode: {1}")]
    Decode(RecordKind, String),
    #[error("{0} bytes after the last record are not the start of the next batch record")]
    Trailing(u64),
}

impl Problem {
    /// A file this version cannot read at all (nothing in it can be kept).
    pub fn is_format(&self) -> bool {
        matches!(
            self,
            Problem::Empty
                | Problem::Format0
                | Problem::UnknownFormat
                | Problem::Version(_)
                | Problem::ShortFileHeader(_)
        )
    }
}

/// Where a journal is damaged, and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The offset of the damaged record's header (0: the file header).
    pub offset: u64,
    /// The damaged record's index (None: the file header).
    pub index: Option<usize>,
    /// Its sequence number, when its header is intact.
    pub seq: Option<u64>,
    /// The sequence number it should have, when known.
    pub expected_seq: Option<u64>,
    pub problem: Problem,
    /// The sequence numbers (first, last) of the intact records that a
    /// recovery can keep (for a damaged file header, those after it).
    pub intact: Option<(u64, u64)>,
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            None => write!(f, "the file header (offset {})", self.offset)?,
            Some(i) => {
                write!(f, "record {i} (")?;
                match (self.seq, self.expected_seq) {
                    (Some(s), _) => write!(f, "seq {s}, ")?,
                    (None, Some(e)) => write!(f, "seq unreadable, {e} expected, ")?,
                    (None, None) => write!(f, "seq unreadable, ")?,
                }
                write!(f, "offset {})", self.offset)?;
            }
        }
        if self.problem.is_format() {
            return write!(f, ": {}; nothing in the file can be read", self.problem);
        }
        write!(f, " is damaged: {}", self.problem)?;
        match self.intact {
            Some((a, b)) => write!(f, "; the records of seq {a}..{b} are intact"),
            None => write!(f, "; no record is intact"),
        }
    }
}

impl std::error::Error for Damage {}

/// Everything a read of a journal file found: the intact records in
/// order, a torn tail, and the damage (at most one in the file header
/// and one in the records; records end at the first).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scan {
    /// The journal format (None when the file header is unreadable).
    pub format: Option<u32>,
    /// The file header's first sequence number, when it is intact.
    pub first_seq: Option<u64>,
    pub records: Vec<Record>,
    pub torn: Option<Torn>,
    pub damage: Vec<Damage>,
}

/// What an undamaged journal holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Contents {
    /// The file header's first sequence number (1 in a new directory).
    pub first_seq: u64,
    /// The records, in order: the pipeline, maybe a snapshot, batches.
    pub records: Vec<Record>,
    /// A torn tail that was (or, from [`parse`], would be) dropped.
    pub torn: Option<Torn>,
}

impl Contents {
    /// The committed pipeline (none in a new state directory).
    pub fn pipeline(&self) -> Option<&p4::ForwardingPipelineConfig> {
        match self.records.first().map(|r| &r.body) {
            Some(Body::Pipeline(c)) => Some(c),
            _ => None,
        }
    }

    /// The sequence number the next record gets.
    pub fn next_seq(&self) -> u64 {
        self.records
            .last()
            .map_or(self.first_seq, |r| r.seq.saturating_add(1))
    }

    /// What a restore of these contents brings back.
    pub fn restored(&self) -> Restored {
        Restored {
            pipeline: self.pipeline().is_some(),
            seqs: seq_range(&self.records),
            snapshot: self
                .records
                .iter()
                .find(|r| r.kind() == RecordKind::Snapshot)
                .map(|r| r.updates().len()),
            batches: self
                .records
                .iter()
                .filter(|r| r.kind() == RecordKind::Batch)
                .count(),
            torn: self.torn,
        }
    }
}

fn seq_range(records: &[Record]) -> Option<(u64, u64)> {
    Some((records.first()?.seq, records.last()?.seq))
}

/// What [`crate::server::P4RuntimeService::restore`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restored {
    /// Whether a pipeline was restored.
    pub pipeline: bool,
    /// The sequence numbers of the records replayed (first, last).
    pub seqs: Option<(u64, u64)>,
    /// The updates of the snapshot replayed, if there was one.
    pub snapshot: Option<usize>,
    /// Batches replayed after the pipeline (and snapshot).
    pub batches: usize,
    /// The torn tail that was dropped.
    pub torn: Option<Torn>,
}

impl fmt::Display for Restored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.pipeline {
            f.write_str("nothing (no pipeline)")?;
        } else {
            f.write_str("the pipeline")?;
            if let Some(n) = self.snapshot {
                write!(f, ", a snapshot of {n} updates")?;
            }
            let s = if self.batches == 1 { "" } else { "es" };
            write!(f, ", {} batch{s}", self.batches)?;
            if let Some((a, b)) = self.seqs {
                write!(f, " (records seq {a}..{b})")?;
            }
        }
        if let Some(t) = self.torn {
            write!(
                f,
                "; a torn tail of {} bytes at offset {} was dropped",
                t.bytes, t.offset
            )?;
        }
        Ok(())
    }
}

fn le_u32(b: &[u8]) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[..4]);
    u32::from_le_bytes(a)
}

fn le_u64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// Whether `bytes` read as a journal of format 0: `[length u32][crc32
/// u32][payload]` records from offset 0, the first one intact.
fn looks_like_format0(bytes: &[u8]) -> bool {
    if bytes.len() < 8 {
        return false;
    }
    let len = le_u32(&bytes[0..4]) as usize;
    let crc = le_u32(&bytes[4..8]);
    match 8usize.checked_add(len).and_then(|end| bytes.get(8..end)) {
        Some(payload) => crc32(payload) == crc,
        None => false,
    }
}

/// Reads a journal file: the file header, then the records up to the end,
/// a torn tail, or the first damage. Never panics, whatever the bytes.
pub fn scan(bytes: &[u8]) -> Scan {
    let mut scan = Scan::default();
    let header_damage = |problem: Problem| Damage {
        offset: 0,
        index: None,
        seq: None,
        expected_seq: None,
        problem,
        intact: None,
    };
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        let problem = if bytes.is_empty() {
            Problem::Empty
        } else if looks_like_format0(bytes) {
            Problem::Format0
        } else {
            Problem::UnknownFormat
        };
        scan.damage.push(header_damage(problem));
        return scan;
    }
    if bytes.len() < FILE_HEADER {
        scan.damage
            .push(header_damage(Problem::ShortFileHeader(bytes.len())));
        return scan;
    }
    let version = le_u32(&bytes[8..12]);
    if crc32(&bytes[0..20]) != le_u32(&bytes[20..24]) {
        // The records may still be intact: read them, for a recovery.
        scan.damage.push(header_damage(Problem::FileHeaderChecksum));
    } else if version != FORMAT {
        scan.format = Some(version);
        scan.damage.push(header_damage(Problem::Version(version)));
        return scan;
    } else {
        scan.format = Some(version);
        scan.first_seq = Some(le_u64(&bytes[12..20]));
    }
    let mut at = FILE_HEADER;
    let mut expected = scan.first_seq;
    let mut index = 0usize;
    // Whether the pipeline record announced a snapshot as record 1.
    let mut announced = false;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let mut damage = |seq: Option<u64>, problem: Problem| {
            scan.damage.push(Damage {
                offset: at as u64,
                index: Some(index),
                seq,
                expected_seq: expected,
                problem,
                intact: None,
            })
        };
        let snapshot_due = index == 1 && announced;
        if rest.len() < RECORD_HEADER {
            if snapshot_due {
                damage(None, Problem::SnapshotMissing(rest.len() as u64));
                break;
            }
            // Only a batch (index 1 on) is appended; its header's known
            // bytes must be those of the next record.
            let consistent = index >= 1
                && expected.is_some_and(|seq| {
                    let mut want = [0u8; 16];
                    want[4..12].copy_from_slice(&seq.to_le_bytes());
                    want[12] = RecordKind::Batch as u8;
                    rest.iter()
                        .enumerate()
                        .all(|(i, &b)| !(4..16).contains(&i) || want[i] == b)
                });
            if consistent {
                scan.torn = Some(Torn {
                    offset: at as u64,
                    bytes: rest.len() as u64,
                    seq: expected.unwrap_or_default(),
                });
            } else {
                damage(None, Problem::Trailing(rest.len() as u64));
            }
            break;
        }
        let header = &rest[..RECORD_HEADER];
        if crc32(&header[0..16]) != le_u32(&header[16..20]) {
            damage(None, Problem::RecordHeaderChecksum);
            break;
        }
        let len = u64::from(le_u32(&header[0..4]));
        let seq = le_u64(&header[4..12]);
        let flags = le_u32(&header[12..16]) >> 8;
        if let Some(want) = expected
            && seq != want
        {
            damage(
                Some(seq),
                Problem::Sequence {
                    expected: want,
                    found: seq,
                },
            );
            break;
        }
        let Some(kind) = RecordKind::from_byte(header[12]) else {
            damage(Some(seq), Problem::Kind(header[12]));
            break;
        };
        let known_flags = match kind {
            RecordKind::Pipeline => u32::from(SNAPSHOT_FOLLOWS),
            _ => 0,
        };
        if flags & !known_flags != 0 {
            damage(Some(seq), Problem::Flags(flags));
            break;
        }
        let in_place = match kind {
            RecordKind::Pipeline => index == 0,
            RecordKind::Snapshot => snapshot_due,
            RecordKind::Batch => index >= 2 || (index == 1 && !announced),
        };
        if !in_place {
            damage(Some(seq), Problem::Order(kind));
            break;
        }
        let need = RECORD_HEADER as u64 + len;
        if need > rest.len() as u64 {
            if kind == RecordKind::Batch {
                scan.torn = Some(Torn {
                    offset: at as u64,
                    bytes: rest.len() as u64,
                    seq,
                });
            } else {
                damage(
                    Some(seq),
                    Problem::Truncated {
                        kind,
                        have: rest.len() as u64,
                        need,
                    },
                );
            }
            break;
        }
        // `need` fits in `rest`, hence in usize.
        let need = need as usize;
        let payload = &rest[RECORD_HEADER..need];
        let crc = Crc32::new().update(&header[0..16]).update(payload).finish();
        if crc != le_u32(&header[20..24]) {
            damage(Some(seq), Problem::RecordChecksum(need as u64));
            break;
        }
        let body = match kind {
            RecordKind::Pipeline => {
                p4::ForwardingPipelineConfig::decode(payload).map(|c| Body::Pipeline(Box::new(c)))
            }
            RecordKind::Snapshot => {
                p4::WriteRequest::decode(payload).map(|w| Body::Snapshot(w.updates))
            }
            RecordKind::Batch => p4::WriteRequest::decode(payload).map(|w| Body::Batch(w.updates)),
        };
        let body = match body {
            Ok(b) => b,
            Err(e) => {
                damage(Some(seq), Problem::Decode(kind, e.to_string()));
                break;
            }
        };
        if kind == RecordKind::Pipeline {
            announced = flags & u32::from(SNAPSHOT_FOLLOWS) != 0;
        }
        scan.records.push(Record {
            index,
            seq,
            offset: at as u64,
            len: need as u64,
            body,
        });
        at += need;
        index += 1;
        expected = seq.checked_add(1);
        if expected.is_none() && at < bytes.len() {
            // Nothing can follow the last sequence number.
            scan.damage.push(Damage {
                offset: at as u64,
                index: Some(index),
                seq: None,
                expected_seq: None,
                problem: Problem::Trailing((bytes.len() - at) as u64),
                intact: None,
            });
            break;
        }
    }
    if announced && scan.records.len() == 1 && at == bytes.len() {
        // The file ends right after a pipeline announcing a snapshot.
        scan.damage.push(Damage {
            offset: at as u64,
            index: Some(1),
            seq: None,
            expected_seq: expected,
            problem: Problem::SnapshotMissing(0),
            intact: None,
        });
    }
    let intact = seq_range(&scan.records);
    for d in &mut scan.damage {
        if !d.problem.is_format() {
            d.intact = intact;
        }
    }
    scan
}

/// Reads a journal file: its contents, or the first damage. A pure
/// function of the bytes that never panics.
pub fn parse(bytes: &[u8]) -> Result<Contents, Damage> {
    let scan = scan(bytes);
    if let Some(d) = scan.damage.into_iter().next() {
        return Err(d);
    }
    Ok(Contents {
        // An intact file header gives it.
        first_seq: scan.first_seq.unwrap_or(1),
        records: scan.records,
        torn: scan.torn,
    })
}

/// Opens (creating) `dir/lock` and locks it.
fn lock(dir: &Path) -> Result<File, JournalError> {
    let lock_path = dir.join("lock");
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(io("cannot open", &lock_path))?;
    match lock.try_lock() {
        Ok(()) => Ok(lock),
        Err(std::fs::TryLockError::WouldBlock) => Err(JournalError::Locked(dir.to_path_buf())),
        Err(std::fs::TryLockError::Error(e)) => Err(io("cannot lock", &lock_path)(e)),
    }
}

/// The bytes of the journal file in `dir`, or None when there is none.
fn read_journal(dir: &Path) -> Result<Option<Vec<u8>>, JournalError> {
    let path = dir.join("journal");
    let mut bytes = Vec::new();
    match File::open(&path) {
        Ok(mut f) => {
            f.read_to_end(&mut bytes)
                .map_err(io("cannot read", &path))?;
            Ok(Some(bytes))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io("cannot open", &path)(e)),
    }
}

/// Writes `bytes` as `dir/journal` atomically: `dir/journal.tmp`, synced,
/// renamed over it, the directory synced. Returns whether the rename
/// happened (when an error follows it, the new file is in place but the
/// rename may not be durable).
fn replace_journal(dir: &Path, bytes: &[u8]) -> (bool, Result<(), JournalError>) {
    let path = dir.join("journal");
    let tmp = dir.join("journal.tmp");
    let written = File::create(&tmp)
        .map_err(io("cannot create", &tmp))
        .and_then(|mut f| {
            f.write_all(bytes)
                .and_then(|()| f.sync_all())
                .map_err(io("cannot write", &tmp))
        });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return (false, Err(e));
    }
    if let Err(e) = std::fs::rename(&tmp, &path) {
        let _ = std::fs::remove_file(&tmp);
        return (false, Err(io("cannot rename over", &path)(e)));
    }
    let synced = File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io("cannot sync", dir));
    (true, synced)
}

/// The open journal of a state directory, holding its lock.
#[derive(Debug)]
pub struct Journal {
    dir: PathBuf,
    /// The journal file (opened to append), once a pipeline is committed.
    file: Option<File>,
    /// Its length after the last complete record.
    len: u64,
    /// The sequence number of the next record.
    next_seq: u64,
    /// Batches appended since the last snapshot (or pipeline).
    since_snapshot: u64,
    snapshot_every: u32,
    /// Set when a failed write could not be undone.
    poisoned: bool,
    _lock: File,
}

impl Journal {
    /// Opens (creating) the state directory, takes its lock and reads the
    /// journal. A torn tail is cut off (the file's only change); any other
    /// damage is [`JournalError::Damaged`], the file untouched.
    pub fn open(config: &StateConfig) -> Result<(Journal, Contents), JournalError> {
        let dir = config.dir.clone();
        std::fs::create_dir_all(&dir).map_err(io("cannot create", &dir))?;
        let lock = lock(&dir)?;
        let path = dir.join("journal");
        let mut journal = Journal {
            dir: dir.clone(),
            file: None,
            len: 0,
            next_seq: 1,
            since_snapshot: 0,
            snapshot_every: config.snapshot_every,
            poisoned: false,
            _lock: lock,
        };
        let Some(bytes) = read_journal(&dir)? else {
            return Ok((
                journal,
                Contents {
                    first_seq: 1,
                    ..Default::default()
                },
            ));
        };
        let contents = parse(&bytes).map_err(|damage| JournalError::Damaged {
            path: path.clone(),
            dir: dir.clone(),
            damage: Box::new(damage),
        })?;
        let end = contents.torn.map_or(bytes.len() as u64, |t| t.offset);
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(io("cannot open", &path))?;
        if let Some(torn) = contents.torn {
            tracing::warn!(
                offset = torn.offset,
                bytes = torn.bytes,
                seq = torn.seq,
                path = %path.display(),
                "journal: a torn tail (batch seq {} cut short by a crash, never acknowledged) was dropped: \
                 {} bytes at offset {}",
                torn.seq,
                torn.bytes,
                torn.offset
            );
            file.set_len(end).map_err(io("cannot truncate", &path))?;
            file.sync_all().map_err(io("cannot sync", &path))?;
        }
        journal.len = end;
        journal.next_seq = contents.next_seq();
        journal.since_snapshot = contents
            .records
            .iter()
            .filter(|r| r.kind() == RecordKind::Batch)
            .count() as u64;
        journal.file = contents.pipeline().is_some().then_some(file);
        Ok((journal, contents))
    }

    fn path(&self) -> PathBuf {
        self.dir.join("journal")
    }

    /// Appends the applied updates of one batch and syncs the file.
    /// Nothing is written for an empty batch, or before a pipeline is
    /// committed (writes fail then).
    pub fn append_batch(&mut self, updates: &[&p4::Update]) -> Result<(), JournalError> {
        if self.poisoned {
            return Err(JournalError::Poisoned);
        }
        let path = self.path();
        let Some(file) = self.file.as_mut() else {
            return Ok(());
        };
        if updates.is_empty() {
            return Ok(());
        }
        let record = encode_record(
            self.next_seq,
            RecordKind::Batch,
            0,
            &updates_payload(updates.iter().copied()),
        )?;
        let written = file
            .write_all(&record)
            .and_then(|()| file.sync_data())
            .map_err(io("cannot append to", &path));
        match written {
            Ok(()) => {
                self.len += record.len() as u64;
                self.next_seq = self.next_seq.saturating_add(1);
                self.since_snapshot += 1;
                Ok(())
            }
            Err(e) => {
                // Cut a partial record off, so later records stay readable.
                if file
                    .set_len(self.len)
                    .and_then(|()| file.sync_all())
                    .is_err()
                {
                    tracing::error!("journal: a failed append could not be undone");
                    self.poisoned = true;
                }
                Err(e)
            }
        }
    }

    /// Starts a new journal holding `pipeline` and, when not empty, the
    /// snapshot `state` (the state a RECONCILE_AND_COMMIT carried over, or
    /// the current state when compacting), replacing the old one
    /// atomically. When the rename happened but the directory could not
    /// be synced, the journal takes no more writes ([`JournalError::Poisoned`]):
    /// which of the two journals a crash leaves is unknown.
    pub fn start(
        &mut self,
        pipeline: &p4::ForwardingPipelineConfig,
        state: &[p4::Update],
    ) -> Result<(), JournalError> {
        let path = self.path();
        let first = self.next_seq;
        let mut bytes = file_header(first).to_vec();
        let flags = if state.is_empty() {
            0
        } else {
            SNAPSHOT_FOLLOWS
        };
        bytes.extend(encode_record(
            first,
            RecordKind::Pipeline,
            flags,
            &pipeline.encode_to_vec(),
        )?);
        let mut next = first.saturating_add(1);
        if !state.is_empty() {
            bytes.extend(encode_record(
                next,
                RecordKind::Snapshot,
                0,
                &updates_payload(state),
            )?);
            next = next.saturating_add(1);
        }
        let (renamed, result) = replace_journal(&self.dir, &bytes);
        if renamed {
            // The old file is gone from the directory: never append to it.
            self.file = None;
        }
        if let Err(e) = result {
            if renamed {
                tracing::error!("journal: a new journal is in place but not synced: {e}");
                self.poisoned = true;
            }
            return Err(e);
        }
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(io("cannot open", &path));
        let file = match file {
            Ok(f) => f,
            Err(e) => {
                self.poisoned = true;
                return Err(e);
            }
        };
        self.file = Some(file);
        self.len = bytes.len() as u64;
        self.next_seq = next;
        self.since_snapshot = 0;
        self.poisoned = false;
        Ok(())
    }

    /// Whether [`StateConfig::snapshot_every`] batches were appended since
    /// the journal started (or was last compacted).
    pub fn wants_snapshot(&self) -> bool {
        self.snapshot_every > 0
            && self.file.is_some()
            && self.since_snapshot >= u64::from(self.snapshot_every)
    }

    /// Compacts the journal: a new one holding `pipeline`'s config and a
    /// snapshot of its state ([`ForwardingPipeline::snapshot`]), written as
    /// [`Journal::start`] writes. Returns the snapshot's updates. On an
    /// error the old journal stays in use (unless it is poisoned) and the
    /// next attempt waits another `snapshot_every` batches.
    pub fn compact(&mut self, pipeline: &ForwardingPipeline) -> Result<usize, JournalError> {
        let result = pipeline
            .snapshot()
            .map_err(|e: RpcError| JournalError::Snapshot(e.message))
            .and_then(|state| {
                self.start(&pipeline.config, &state)?;
                Ok(state.len())
            });
        if result.is_err() {
            self.since_snapshot = 0;
        }
        result
    }

    /// The sequence number the next record gets.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Rebuilds the pipeline a journal's contents describe: the committed
    /// config, then the snapshot and every batch, each update of which
    /// must apply.
    pub fn replay(&self, contents: Contents) -> Result<Option<ForwardingPipeline>, JournalError> {
        self.replay_with(contents, &crate::translation::TranslationFile::default())
    }

    /// [`Journal::replay`], the pipeline built with the operator's
    /// translation mappings ([`ForwardingPipeline::build_with`]).
    pub fn replay_with(
        &self,
        contents: Contents,
        file: &crate::translation::TranslationFile,
    ) -> Result<Option<ForwardingPipeline>, JournalError> {
        let path = self.path();
        let mut records = contents.records.into_iter();
        let Some(first) = records.next() else {
            return Ok(None);
        };
        let replay = |r: &Record, message: String| JournalError::Replay {
            path: path.clone(),
            index: r.index,
            seq: r.seq,
            offset: r.offset,
            message,
        };
        let Body::Pipeline(config) = &first.body else {
            return Err(replay(&first, "record 0 is not the pipeline".into()));
        };
        let mut pipeline = ForwardingPipeline::build_with((**config).clone(), file)
            .map_err(|e| replay(&first, format!("the pipeline: {e}")))?;
        for r in records {
            for (i, u) in r.updates().iter().enumerate() {
                pipeline
                    .apply(u)
                    .map_err(|e: RpcError| replay(&r, format!("update {i}: {}", e.message)))?;
            }
        }
        Ok(Some(pipeline))
    }
}

/// What `janus ctrl journal check` found in a state directory.
#[derive(Clone, Debug)]
pub struct Report {
    /// The journal file.
    pub path: PathBuf,
    /// Its length (None: there is no journal).
    pub bytes: Option<u64>,
    pub scan: Scan,
}

impl Report {
    /// Whether the journal can be opened as it is (a torn tail aside).
    pub fn intact(&self) -> bool {
        self.scan.damage.is_empty()
    }
}

/// Reads the journal of `dir` (which must exist) under its lock, without
/// changing anything: refused while a server holds the directory.
pub fn check(dir: &Path) -> Result<Report, JournalError> {
    std::fs::metadata(dir).map_err(io("cannot open", dir))?;
    let _lock = lock(dir)?;
    let path = dir.join("journal");
    Ok(match read_journal(dir)? {
        None => Report {
            path,
            bytes: None,
            scan: Scan {
                format: Some(FORMAT),
                first_seq: Some(1),
                ..Default::default()
            },
        },
        Some(bytes) => Report {
            path,
            bytes: Some(bytes.len() as u64),
            scan: scan(&bytes),
        },
    })
}

/// What [`recover`] did.
#[derive(Clone, Debug)]
pub struct Recovered {
    /// The copy of the original journal.
    pub copy: PathBuf,
    /// The records kept, and their sequence numbers.
    pub kept: usize,
    pub seqs: Option<(u64, u64)>,
    /// Intact records dropped (after `--up-to`).
    pub dropped: usize,
    /// The original file's bytes and the new one's.
    pub old_bytes: u64,
    pub new_bytes: u64,
}

/// Rewrites the journal of `dir` with its intact records whose sequence
/// numbers are at most `up_to` (none when `up_to` is below the first),
/// byte for byte (but for a pipeline record kept without its snapshot,
/// which no longer announces one),
/// after copying the original to `dir/journal.damaged-K` (the first K from
/// 1 not taken). The new journal replaces the old atomically. Refused while
/// a server holds the directory, and when `up_to` is past the last intact
/// record.
pub fn recover(dir: &Path, up_to: u64) -> Result<Recovered, JournalError> {
    std::fs::metadata(dir).map_err(io("cannot open", dir))?;
    let _lock = lock(dir)?;
    let path = dir.join("journal");
    let bytes = read_journal(dir)?.ok_or_else(|| JournalError::NoJournal(path.clone()))?;
    let found = scan(&bytes);
    let last = found.records.last().map(|r| r.seq);
    let below_first = found.records.first().map_or(up_to == 0, |r| up_to < r.seq);
    if !below_first && last.is_none_or(|l| up_to > l) {
        return Err(JournalError::UpTo { up_to, last });
    }
    let keep: Vec<&Record> = found.records.iter().filter(|r| r.seq <= up_to).collect();
    let first_seq = keep
        .first()
        .map(|r| r.seq)
        .or(found.first_seq)
        .or(found.records.first().map(|r| r.seq))
        .unwrap_or(1);
    let mut new = file_header(first_seq).to_vec();
    let snapshot_kept = keep.iter().any(|r| r.kind() == RecordKind::Snapshot);
    for r in &keep {
        // Offsets and lengths come from the scan of these very bytes.
        let raw = &bytes[r.offset as usize..(r.offset + r.len) as usize];
        if r.kind() == RecordKind::Pipeline && !snapshot_kept {
            // The pipeline alone: it must not announce the snapshot.
            new.extend(encode_record(
                r.seq,
                RecordKind::Pipeline,
                0,
                &raw[RECORD_HEADER..],
            )?);
        } else {
            new.extend_from_slice(raw);
        }
    }
    debug_assert!(parse(&new).is_ok());
    let copy = (1u32..)
        .map(|k| dir.join(format!("journal.damaged-{k}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join("journal.damaged"));
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&copy)
        .map_err(io("cannot create", &copy))?;
    f.write_all(&bytes)
        .and_then(|()| f.sync_all())
        .map_err(io("cannot write", &copy))?;
    drop(f);
    let (_, result) = replace_journal(dir, &new);
    result?;
    Ok(Recovered {
        copy,
        kept: keep.len(),
        seqs: keep.first().zip(keep.last()).map(|(a, b)| (a.seq, b.seq)),
        dropped: found.records.len() - keep.len(),
        old_bytes: bytes.len() as u64,
        new_bytes: new.len() as u64,
    })
}

#[cfg(test)]
mod tests {
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
}
