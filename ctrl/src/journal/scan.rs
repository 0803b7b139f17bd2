//! Reading a journal's bytes: every record checked, a torn tail told
//! from damage, and what the damage is.

use super::*;

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
