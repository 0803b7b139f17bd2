//! What the file-backed flashes share (the simulated card's `flash.bin`
//! and a Linux MTD device): range-checked positional reads and writes,
//! a write's read-modify-write with NOR semantics (`old & new`), and the
//! logging of an I/O failure as [`FlashError::Io`].

use janus_firmware_core::flash::{self, FlashError, Geometry};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;

/// An open flash file or device with its geometry.
#[derive(Debug)]
pub(crate) struct NorFile {
    pub(crate) file: File,
    pub(crate) path: PathBuf,
    pub(crate) geometry: Geometry,
    /// How the device is named in log lines (`flash`, `MTD`).
    pub(crate) label: &'static str,
}

impl NorFile {
    /// Reads `buf.len()` bytes at `offset` (inside the device).
    pub(crate) fn read(&self, offset: u64, buf: &mut [u8]) -> Result<(), FlashError> {
        self.geometry.check_range(offset, buf.len())?;
        self.file
            .read_exact_at(buf, offset)
            .map_err(|e| self.io_error("read", e))
    }

    /// The bytes at `offset` once `data` is programmed over them (each
    /// byte `old & new`), to be stored with one positional write.
    pub(crate) fn programmed(&self, offset: u64, data: &[u8]) -> Result<Vec<u8>, FlashError> {
        let mut cells = vec![0; data.len()];
        self.read(offset, &mut cells)?;
        flash::program(&mut cells, data);
        Ok(cells)
    }

    /// Stores `bytes` at `offset` with one positional write.
    pub(crate) fn store(&self, offset: u64, bytes: &[u8]) -> Result<(), FlashError> {
        self.file
            .write_all_at(bytes, offset)
            .map_err(|e| self.io_error("write", e))
    }

    /// Logs a failed operation and maps it to [`FlashError::Io`].
    pub(crate) fn io_error(&self, what: &str, e: std::io::Error) -> FlashError {
        tracing::warn!(path = %self.path.display(), "{} {what} failed: {e}", self.label);
        FlashError::Io
    }
}
