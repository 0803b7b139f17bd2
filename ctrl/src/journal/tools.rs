//! `janus ctrl journal check` and `recover`: reading a state directory
//! offline, and keeping the records before a damaged one.

use super::*;

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
