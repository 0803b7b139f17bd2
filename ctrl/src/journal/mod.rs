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

mod format;
mod scan;
mod store;
mod tools;

pub use format::*;
pub use scan::*;
pub use store::*;
pub use tools::*;

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

#[cfg(test)]
mod tests;
