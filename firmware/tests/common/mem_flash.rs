//! A NOR flash in memory with the trait's semantics: a copy of a card's
//! flash for the long power-loss sweeps.

use janus_firmware_core::flash::{Flash, FlashError, Geometry};

/// NOR flash in a `Vec`.
#[derive(Clone, Debug)]
pub struct MemFlash {
    pub geometry: Geometry,
    pub bytes: Vec<u8>,
}

impl MemFlash {
    fn range(&self, offset: u64, len: usize) -> Result<std::ops::Range<usize>, FlashError> {
        match offset.checked_add(len as u64) {
            Some(end) if end <= self.geometry.size() => Ok(offset as usize..end as usize),
            _ => Err(FlashError::OutOfRange),
        }
    }
}

impl Flash for MemFlash {
    fn geometry(&self) -> Geometry {
        self.geometry
    }

    fn read(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), FlashError> {
        let range = self.range(offset, buf.len())?;
        buf.copy_from_slice(&self.bytes[range]);
        Ok(())
    }

    fn erase(&mut self, sector: u32) -> Result<(), FlashError> {
        let size = self.geometry.sector_size as usize;
        let range = self.range(u64::from(sector) * size as u64, size)?;
        self.bytes[range].fill(0xFF);
        Ok(())
    }

    fn write(&mut self, offset: u64, data: &[u8]) -> Result<(), FlashError> {
        let range = self.range(offset, data.len())?;
        janus_firmware_core::flash::program(&mut self.bytes[range], data);
        Ok(())
    }
}
