//! The simulated card's flash: a file of `sector_count * sector_size`
//! bytes with NOR semantics (erase sets a sector to `0xFF`, a write stores
//! `old & new`).
//!
//! Every write and erase is one `pwrite` of the bytes it changes, so it is
//! in the file (the kernel's page cache) when the call returns: a process
//! that is killed loses nothing. Whether it is also on the disk is the
//! [`Durability`] choice.

use janus_firmware_core::flash::{Flash, FlashError, Geometry};
use std::fs::File;
use std::os::unix::fs::FileExt;
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
    file: File,
    path: PathBuf,
    geometry: Geometry,
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
            file,
            path,
            geometry,
            durability,
        }
    }

    /// Syncs the flash file to the disk (`fdatasync`).
    pub fn sync(&self) -> Result<(), FlashError> {
        self.file.sync_data().map_err(|e| self.io_error("sync", e))
    }

    /// Checks that `len` bytes at `offset` lie inside the device.
    fn check_range(&self, offset: u64, len: usize) -> Result<(), FlashError> {
        match offset.checked_add(len as u64) {
            Some(end) if end <= self.geometry.size() => Ok(()),
            _ => Err(FlashError::OutOfRange),
        }
    }

    /// Stores `bytes` at `offset`, then syncs if the durability asks.
    fn store(&self, offset: u64, bytes: &[u8]) -> Result<(), FlashError> {
        self.file
            .write_all_at(bytes, offset)
            .map_err(|e| self.io_error("write", e))?;
        match self.durability {
            Durability::PageCache => Ok(()),
            Durability::SyncEachOperation => self.sync(),
        }
    }

    fn io_error(&self, what: &str, e: std::io::Error) -> FlashError {
        tracing::warn!(path = %self.path.display(), "flash {what} failed: {e}");
        FlashError::Io
    }
}

impl Flash for FileFlash {
    fn geometry(&self) -> Geometry {
        self.geometry
    }

    fn read(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), FlashError> {
        self.check_range(offset, buf.len())?;
        self.file
            .read_exact_at(buf, offset)
            .map_err(|e| self.io_error("read", e))
    }

    fn erase(&mut self, sector: u32) -> Result<(), FlashError> {
        if sector >= self.geometry.sector_count {
            return Err(FlashError::OutOfRange);
        }
        let erased = vec![0xFF; self.geometry.sector_size as usize];
        self.store(
            u64::from(sector) * u64::from(self.geometry.sector_size),
            &erased,
        )
    }

    fn write(&mut self, offset: u64, data: &[u8]) -> Result<(), FlashError> {
        self.check_range(offset, data.len())?;
        let mut cells = vec![0; data.len()];
        self.file
            .read_exact_at(&mut cells, offset)
            .map_err(|e| self.io_error("read", e))?;
        for (cell, new) in cells.iter_mut().zip(data) {
            *cell &= new;
        }
        self.store(offset, &cells)
    }
}

impl Drop for FileFlash {
    fn drop(&mut self) {
        // Errors are logged by `sync`; there is no caller to return them to.
        let _ = self.sync();
    }
}
