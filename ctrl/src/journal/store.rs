//! The journal in its state directory: locked, opened (replayed),
//! appended, replaced whole by a rename.

use super::*;

/// Opens (creating) `dir/lock` and locks it.
pub(super) fn lock(dir: &Path) -> Result<File, JournalError> {
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
pub(super) fn read_journal(dir: &Path) -> Result<Option<Vec<u8>>, JournalError> {
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
pub(super) fn replace_journal(dir: &Path, bytes: &[u8]) -> (bool, Result<(), JournalError>) {
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
