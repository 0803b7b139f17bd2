//! The simulated card's flash: a file of `sector_count * sector_size`
//! bytes with NOR semantics (erase sets a sector to `0xFF`, a write stores
//! `old & new`).
//!
//! Every write and erase is one `pwrite` of the bytes it changes, so it is
//! in the file (the kernel's page cache) when the call returns: a process
//! that is killed loses nothing. Whether it is also on the disk is the
//! [`Durability`] choice.

use crate::nor_file::NorFile;
use janus_firmware_core::flash::{Flash, FlashError, Geometry};
use std::fs::File;
use std::path::PathBuf;

/// When the flash file is synced to the disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    /// Writes reach the page cache and survive the process, not a crash of
    /// the host; the card syncs when it is closed ([`FileFlash::sync`] on
    /// drop). The simulated card's power cuts are the fault injector's, not
    /// the host's, so this is the default.
    #[default]
    PageCache,
    /// `fdatasync` after every write and erase: the file survives a host
    /// crash at any point, at the cost of one disk flush per operation
    /// (docs/firmware.md gives the measured cost).
    SyncEachOperation,
}

/// The flash of a simulated card, backed by `flash.bin`.
#[derive(Debug)]
pub struct FileFlash {
    nor: NorFile,
    durability: Durability,
}

impl FileFlash {
    /// Wraps an open flash file whose length the caller has checked.
    pub(crate) fn new(
        file: File,
        path: PathBuf,
        geometry: Geometry,
        durability: Durability,
    ) -> Self {
        FileFlash {
            nor: NorFile {
                file,
                path,
                geometry,
                label: "flash",
            },
            durability,
        }
    }

    /// Syncs the flash file to the disk (`fdatasync`).
    pub fn sync(&self) -> Result<(), FlashError> {
        self.nor
            .file
            .sync_data()
            .map_err(|e| self.nor.io_error("sync", e))
    }

    /// Stores `bytes` at `offset`, then syncs if the durability asks.
    fn store(&self, offset: u64, bytes: &[u8]) -> Result<(), FlashError> {
        self.nor.store(offset, bytes)?;
        match self.durability {
            Durability::PageCache => Ok(()),
            Durability::SyncEachOperation => self.sync(),
        }
    }
}

impl Flash for FileFlash {
    fn geometry(&self) -> Geometry {
        self.nor.geometry
    }

    fn read(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), FlashError> {
        self.nor.read(offset, buf)
    }

    fn erase(&mut self, sector: u32) -> Result<(), FlashError> {
        let geometry = self.nor.geometry;
        if sector >= geometry.sector_count {
            return Err(FlashError::OutOfRange);
        }
        let erased = vec![0xFF; geometry.sector_size as usize];
        self.store(u64::from(sector) * u64::from(geometry.sector_size), &erased)
    }

    fn write(&mut self, offset: u64, data: &[u8]) -> Result<(), FlashError> {
        let cells = self.nor.programmed(offset, data)?;
        self.store(offset, &cells)
    }
}

impl Drop for FileFlash {
    fn drop(&mut self) {
        // Errors are logged by `sync`; there is no caller to return them to.
        let _ = self.sync();
    }
}
