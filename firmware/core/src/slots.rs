//! The boot-state record: which slot runs, which one is on trial, how many
//! trial boots were made, which one last passed its health check.
//!
//! Records are 64 bytes, self-checking (a SHA-256 over the first 32 bytes)
//! and numbered. The two record sectors are append-only logs used in
//! turn: a new record goes into the first never-written place after the
//! last written one of the sector holding the newest valid record; when
//! that sector is full, the *other* sector is erased and the record goes
//! at its start. The sector holding the newest valid record is never
//! erased or written over, so a torn write or erase only ever damages an
//! older or a not-yet-valid record: the state read back is either the
//! previous one or the new one, and switching is atomic.

use sha2::{Digest, Sha256};

use crate::flash::{Flash, FlashError};
use crate::layout::{Layout, Slot};

/// Size of one boot record.
pub const RECORD_LEN: usize = 64;
const MAGIC: [u8; 4] = *b"JBST";
const VERSION: u16 = 1;
const NO_SLOT: u8 = 0xFF;
const BODY_LEN: usize = 32;

/// The boot state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BootState {
    /// The record's sequence number (0: no record on flash yet).
    pub seq: u64,
    /// The slot the boot ROM handed over to last.
    pub active: Option<Slot>,
    /// A newly flashed slot waiting for its trial boots.
    pub pending: Option<Slot>,
    /// Boots of `pending` made so far.
    pub attempts: u8,
    /// The slot that last passed its health check.
    pub last_good: Option<Slot>,
}

fn slot_byte(slot: Option<Slot>) -> u8 {
    slot.map_or(NO_SLOT, Slot::index)
}

fn byte_slot(byte: u8) -> Result<Option<Slot>, ()> {
    match byte {
        NO_SLOT => Ok(None),
        b => Slot::from_index(b).map(Some).ok_or(()),
    }
}

impl BootState {
    /// The record's bytes.
    pub fn encode(&self) -> [u8; RECORD_LEN] {
        let mut out = [0u8; RECORD_LEN];
        out[0..4].copy_from_slice(&MAGIC);
        out[4..6].copy_from_slice(&VERSION.to_le_bytes());
        out[8..16].copy_from_slice(&self.seq.to_le_bytes());
        out[16] = slot_byte(self.active);
        out[17] = slot_byte(self.pending);
        out[18] = self.attempts;
        out[19] = slot_byte(self.last_good);
        let digest = Sha256::digest(&out[..BODY_LEN]);
        out[BODY_LEN..].copy_from_slice(&digest);
        out
    }

    /// The state in a record, `None` unless it is complete and intact.
    pub fn decode(bytes: &[u8]) -> Option<BootState> {
        let record: &[u8; RECORD_LEN] = bytes.try_into().ok()?;
        if record[0..4] != MAGIC
            || record[4..6] != VERSION.to_le_bytes()
            || record[6..8] != [0, 0]
            || record[20..BODY_LEN].iter().any(|&b| b != 0)
            || Sha256::digest(&record[..BODY_LEN]).as_slice() != &record[BODY_LEN..]
        {
            return None;
        }
        let mut seq = [0u8; 8];
        seq.copy_from_slice(&record[8..16]);
        Some(BootState {
            seq: u64::from_le_bytes(seq),
            active: byte_slot(record[16]).ok()?,
            pending: byte_slot(record[17]).ok()?,
            attempts: record[18],
            last_good: byte_slot(record[19]).ok()?,
        })
    }
}

/// What the two record sectors hold.
struct Scan {
    /// The newest valid record and where it is (sector, index).
    newest: Option<(BootState, usize)>,
    /// Per sector: the index after its last written (not all-0xFF) place.
    end: [usize; 2],
}

fn scan(flash: &mut dyn Flash, layout: &Layout) -> Result<Scan, FlashError> {
    let mut record = [0u8; RECORD_LEN];
    let mut newest: Option<(BootState, usize)> = None;
    let mut end = [0usize; 2];
    for (sector, end) in end.iter_mut().enumerate() {
        let base = layout.record_sector_offset(sector);
        for index in 0..layout.records_per_sector() {
            flash.read(base + (index * RECORD_LEN) as u64, &mut record)?;
            if record.iter().any(|&b| b != 0xFF) {
                *end = index + 1;
            }
            if let Some(state) = BootState::decode(&record)
                && newest.is_none_or(|(n, _)| state.seq > n.seq)
            {
                newest = Some((state, sector));
            }
        }
    }
    Ok(Scan { newest, end })
}

/// Reads the current boot state (the newest valid record; the default
/// state, with `seq` 0, on a card that never had one).
pub fn read_state(flash: &mut dyn Flash, layout: &Layout) -> Result<BootState, FlashError> {
    Ok(scan(flash, layout)?
        .newest
        .map(|(state, _)| state)
        .unwrap_or_default())
}

/// Makes `state` the current boot state (its `seq` is replaced by the next
/// number) and returns it as stored. Atomic: if power fails inside, the
/// state read back afterwards is the previous one or the new one.
pub fn write_state(
    flash: &mut dyn Flash,
    layout: &Layout,
    state: &BootState,
) -> Result<BootState, FlashError> {
    let found = scan(flash, layout)?;
    let mut next = *state;
    next.seq = found.newest.map_or(0, |(n, _)| n.seq) + 1;
    let current = found.newest.map(|(_, sector)| sector);
    let (sector, index) = match current {
        Some(s) if found.end[s] < layout.records_per_sector() => (s, found.end[s]),
        _ => {
            let target = current.map_or(0, |s| 1 - s);
            flash.erase(Layout::RECORD_SECTORS[target])?;
            (target, 0)
        }
    };
    let offset = layout.record_sector_offset(sector) + (index * RECORD_LEN) as u64;
    let bytes = next.encode();
    flash.write(offset, &bytes)?;
    let mut back = [0u8; RECORD_LEN];
    flash.read(offset, &mut back)?;
    if back != bytes {
        return Err(FlashError::Io);
    }
    Ok(next)
}
