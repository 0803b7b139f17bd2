//! Where things live on the card's flash: two boot-record sectors, then
//! image slot A, then image slot B, each slot a whole number of sectors
//! (docs/firmware.md, "Flash layout and boot").

use crate::flash::Geometry;

/// One of the two image slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    A,
    B,
}

impl Slot {
    /// The other slot.
    pub const fn other(self) -> Slot {
        match self {
            Slot::A => Slot::B,
            Slot::B => Slot::A,
        }
    }

    /// 0 for A, 1 for B (the encoding in boot records and quotes).
    pub const fn index(self) -> u8 {
        match self {
            Slot::A => 0,
            Slot::B => 1,
        }
    }

    /// The slot with index `index`.
    pub const fn from_index(index: u8) -> Option<Slot> {
        match index {
            0 => Some(Slot::A),
            1 => Some(Slot::B),
            _ => None,
        }
    }
}

impl core::fmt::Display for Slot {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Slot::A => "A",
            Slot::B => "B",
        })
    }
}

/// Why a flash cannot hold the Janus layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error(
        "the flash has {0} sectors; the layout needs at least 4 (2 boot-record sectors, one per slot)"
    )]
    TooFewSectors(u32),
    #[error("sectors of {0} bytes are smaller than a boot record")]
    SectorTooSmall(u32),
}

/// The flash layout for one geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    geometry: Geometry,
    slot_sectors: u32,
}

impl Layout {
    /// Sectors 0 and 1 hold boot records.
    pub const RECORD_SECTORS: [u32; 2] = [0, 1];

    /// The layout of a flash of `geometry`: the sectors after the two
    /// record sectors are split evenly between the slots (an odd one left
    /// unused).
    pub fn new(geometry: Geometry) -> Result<Self, LayoutError> {
        if geometry.sector_count < 4 {
            return Err(LayoutError::TooFewSectors(geometry.sector_count));
        }
        if (geometry.sector_size as usize) < crate::slots::RECORD_LEN {
            return Err(LayoutError::SectorTooSmall(geometry.sector_size));
        }
        Ok(Layout {
            geometry,
            slot_sectors: (geometry.sector_count - 2) / 2,
        })
    }

    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Sectors per slot.
    pub fn slot_sectors(&self) -> u32 {
        self.slot_sectors
    }

    /// The first sector of `slot`.
    pub fn slot_first_sector(&self, slot: Slot) -> u32 {
        2 + slot.index() as u32 * self.slot_sectors
    }

    /// The byte offset of `slot`.
    pub fn slot_offset(&self, slot: Slot) -> u64 {
        self.slot_first_sector(slot) as u64 * self.geometry.sector_size as u64
    }

    /// The size of a slot in bytes (the largest image it holds).
    pub fn slot_size(&self) -> u64 {
        self.slot_sectors as u64 * self.geometry.sector_size as u64
    }

    /// The byte offset of record sector `which` (0 or 1).
    pub fn record_sector_offset(&self, which: usize) -> u64 {
        Self::RECORD_SECTORS[which & 1] as u64 * self.geometry.sector_size as u64
    }

    /// Boot records per record sector.
    pub fn records_per_sector(&self) -> usize {
        self.geometry.sector_size as usize / crate::slots::RECORD_LEN
    }
}
