//! The server's persisted state (`janus ctrl serve --state DIR`): a journal
//! of the committed pipeline and of every Write batch applied since.
//!
//! `DIR/journal` is a sequence of records, each `[length u32 LE][crc32 u32
//! LE][payload]` (CRC-32/IEEE of the payload). The first record is the
//! committed `ForwardingPipelineConfig`, each later one a `WriteRequest`
//! holding only the `updates` of one batch that were applied (protobuf
//! encoding). A batch's record is appended and `fsync`ed before the Write
//! RPC answers. A pipeline commit starts a new journal: the pipeline (and,
//! after RECONCILE_AND_COMMIT, the state carried over) is written to
//! `DIR/journal.tmp`, synced, renamed over `DIR/journal`, and the directory
//! synced, so the journal is always either the old one or the new one.
//!
//! On start ([`Journal::open`]) a record cut short or failing its CRC ends
//! the journal: it and anything after it are dropped (a warning gives the
//! offset) and the file is truncated there; such a record can only be the
//! tail a crash interrupted. A complete record that does not decode or
//! replay is an error: state is never dropped silently. `DIR/lock`, locked
//! with `flock` while the server runs, keeps a second server out of the
//! directory (the kernel releases it when the process dies, `kill -9`
//! included).

use crate::device::{Pipeline, RpcError};
use crate::proto::p4::v1 as p4;
use prost::Message;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Where the state lives.
#[derive(Clone, Debug)]
pub struct StateConfig {
    /// The state directory (created if missing).
    pub dir: PathBuf,
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
    #[error("{}: record {index} (offset {offset}) does not decode: {message}", path.display())]
    Decode {
        path: PathBuf,
        index: usize,
        offset: u64,
        message: String,
    },
    #[error("{}: record {index} (offset {offset}) cannot be replayed: {message}", path.display())]
    Replay {
        path: PathBuf,
        index: usize,
        offset: u64,
        message: String,
    },
    #[error("the journal failed earlier and takes no more writes (restart the server)")]
    Poisoned,
}

fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> JournalError {
    let path = path.to_path_buf();
    move |source| JournalError::Io { what, path, source }
}

/// CRC-32 (IEEE 802.3, reflected, as zlib computes it).
pub fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut t = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            t[i] = c;
            i += 1;
        }
        t
    };
    let mut c = !0u32;
    for &b in bytes {
        c = TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// Bytes of a record's header.
const HEADER: usize = 8;

fn frame(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc32(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// What a journal held when it was opened.
#[derive(Debug, Default)]
pub struct Contents {
    /// The committed pipeline (none in a new state directory).
    pub pipeline: Option<p4::ForwardingPipelineConfig>,
    /// The batches applied since, with their offsets.
    pub batches: Vec<(u64, Vec<p4::Update>)>,
    /// The offset of a torn or corrupt tail that was dropped.
    pub dropped_at: Option<u64>,
}

/// What [`crate::server::P4RuntimeService::restore`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restored {
    /// Batches replayed after the pipeline.
    pub batches: usize,
    /// The offset of a torn or corrupt tail that was dropped.
    pub dropped_at: Option<u64>,
}

/// The open journal of a state directory, holding its lock.
#[derive(Debug)]
pub struct Journal {
    dir: PathBuf,
    /// The journal file (opened to append), once a pipeline is committed.
    file: Option<File>,
    /// Its length after the last complete record.
    len: u64,
    /// Set when a failed append could not be undone.
    poisoned: bool,
    _lock: File,
}

impl Journal {
    /// Opens (creating) the state directory, takes its lock and reads the
    /// journal, truncating a torn tail.
    pub fn open(config: &StateConfig) -> Result<(Journal, Contents), JournalError> {
        let dir = config.dir.clone();
        std::fs::create_dir_all(&dir).map_err(io("cannot create", &dir))?;
        let lock_path = dir.join("lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io("cannot open", &lock_path))?;
        let locked = lock.try_lock();
        match locked {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Err(JournalError::Locked(dir)),
            Err(std::fs::TryLockError::Error(e)) => return Err(io("cannot lock", &lock_path)(e)),
        }
        let path = dir.join("journal");
        let mut journal = Journal {
            dir,
            file: None,
            len: 0,
            poisoned: false,
            _lock: lock,
        };
        let mut bytes = Vec::new();
        match File::open(&path) {
            Ok(mut f) => {
                f.read_to_end(&mut bytes)
                    .map_err(io("cannot read", &path))?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((journal, Contents::default()));
            }
            Err(e) => return Err(io("cannot open", &path)(e)),
        }
        let mut contents = Contents::default();
        let mut at = 0usize;
        let mut index = 0usize;
        while at < bytes.len() {
            let Some(payload) = record_at(&bytes, at) else {
                tracing::warn!(
                    offset = at,
                    dropped = bytes.len() - at,
                    path = %path.display(),
                    "journal: a torn or corrupt record at the end was dropped"
                );
                contents.dropped_at = Some(at as u64);
                break;
            };
            let decode = |message: String| JournalError::Decode {
                path: path.clone(),
                index,
                offset: at as u64,
                message,
            };
            if index == 0 {
                contents.pipeline = Some(
                    p4::ForwardingPipelineConfig::decode(payload)
                        .map_err(|e| decode(e.to_string()))?,
                );
            } else {
                let batch = p4::WriteRequest::decode(payload).map_err(|e| decode(e.to_string()))?;
                contents.batches.push((at as u64, batch.updates));
            }
            at += HEADER + payload.len();
            index += 1;
        }
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(io("cannot open", &path))?;
        if contents.dropped_at.is_some() {
            file.set_len(at as u64)
                .map_err(io("cannot truncate", &path))?;
            file.sync_all().map_err(io("cannot sync", &path))?;
        }
        journal.len = at as u64;
        journal.file = contents.pipeline.is_some().then_some(file);
        Ok((journal, contents))
    }

    fn path(&self) -> PathBuf {
        self.dir.join("journal")
    }

    /// Appends the applied updates of one batch and syncs the file.
    /// Nothing is written for an empty batch, or before a pipeline is
    /// committed (writes fail then).
    pub fn append_batch(&mut self, updates: &[p4::Update]) -> Result<(), JournalError> {
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
        let record = frame(
            &p4::WriteRequest {
                updates: updates.to_vec(),
                ..Default::default()
            }
            .encode_to_vec(),
        );
        let written = file
            .write_all(&record)
            .and_then(|()| file.sync_data())
            .map_err(io("cannot append to", &path));
        match written {
            Ok(()) => {
                self.len += record.len() as u64;
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
    /// batch `state` (the state a RECONCILE_AND_COMMIT carried over),
    /// replacing the old one atomically.
    pub fn start(
        &mut self,
        pipeline: &p4::ForwardingPipelineConfig,
        state: &[p4::Update],
    ) -> Result<(), JournalError> {
        let path = self.path();
        let tmp = self.dir.join("journal.tmp");
        let mut bytes = frame(&pipeline.encode_to_vec());
        if !state.is_empty() {
            bytes.extend(frame(
                &p4::WriteRequest {
                    updates: state.to_vec(),
                    ..Default::default()
                }
                .encode_to_vec(),
            ));
        }
        let mut f = File::create(&tmp).map_err(io("cannot create", &tmp))?;
        f.write_all(&bytes)
            .and_then(|()| f.sync_all())
            .map_err(io("cannot write", &tmp))?;
        drop(f);
        std::fs::rename(&tmp, &path).map_err(io("cannot rename over", &path))?;
        File::open(&self.dir)
            .and_then(|d| d.sync_all())
            .map_err(io("cannot sync", &self.dir))?;
        self.file = Some(
            OpenOptions::new()
                .append(true)
                .open(&path)
                .map_err(io("cannot open", &path))?,
        );
        self.len = bytes.len() as u64;
        self.poisoned = false;
        Ok(())
    }

    /// Rebuilds the pipeline a journal's contents describe: the committed
    /// config, then every batch, each update of which must apply.
    pub fn replay(&self, contents: Contents) -> Result<Option<Pipeline>, JournalError> {
        let path = self.path();
        let Some(config) = contents.pipeline else {
            return Ok(None);
        };
        let replay = |index: usize, offset: u64, message: String| JournalError::Replay {
            path: path.clone(),
            index,
            offset,
            message,
        };
        let mut pipeline =
            Pipeline::build(config).map_err(|e| replay(0, 0, format!("the pipeline: {e}")))?;
        for (n, (offset, updates)) in contents.batches.into_iter().enumerate() {
            for (i, u) in updates.iter().enumerate() {
                pipeline.apply(u).map_err(|e: RpcError| {
                    replay(n + 1, offset, format!("update {i}: {}", e.message))
                })?;
            }
        }
        Ok(Some(pipeline))
    }
}

/// The payload of the complete, intact record at `at`, if there is one.
fn record_at(bytes: &[u8], at: usize) -> Option<&[u8]> {
    let header = bytes.get(at..at.checked_add(HEADER)?)?;
    let len = u32::from_le_bytes(header[0..4].try_into().ok()?) as usize;
    let crc = u32::from_le_bytes(header[4..8].try_into().ok()?);
    let start = at + HEADER;
    let payload = bytes.get(start..start.checked_add(len)?)?;
    (crc32(payload) == crc).then_some(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn records_are_framed_and_checked() {
        let r = frame(b"hello");
        assert_eq!(record_at(&r, 0), Some(&b"hello"[..]));
        assert_eq!(record_at(&r[..r.len() - 1], 0), None);
        let mut bad = r.clone();
        bad[9] ^= 1;
        assert_eq!(record_at(&bad, 0), None);
    }
}
