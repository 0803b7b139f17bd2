//! Test doubles: a RAM NOR flash with a power-cut injector, and a RAM OTP.

use alloc::vec;
use alloc::vec::Vec;

use ed25519_dalek::{Signer, SigningKey};

use crate::flash::{Flash, FlashError, Geometry, Otp};

/// How the operation that loses power ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tear {
    /// Nothing of it happens.
    NotDone,
    /// A write programs its first `n` bytes; an erase erases the sector's
    /// first `n` bytes and leaves the rest as it was.
    Prefix(usize),
}

/// A power cut at mutating operation number `at` (0-based: erases and
/// writes count, reads do not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PowerCut {
    pub at: u64,
    pub tear: Tear,
}

/// NOR flash in RAM, honouring [`Flash`]'s semantics.
#[derive(Clone)]
pub struct RamFlash {
    geometry: Geometry,
    bytes: Vec<u8>,
    /// Mutating operations done (or attempted) since the last power-on.
    pub ops: u64,
    cut: Option<PowerCut>,
    powered: bool,
}

impl RamFlash {
    /// An erased flash.
    pub fn new(geometry: Geometry) -> Self {
        RamFlash {
            geometry,
            bytes: vec![0xFF; geometry.size() as usize],
            ops: 0,
            cut: None,
            powered: true,
        }
    }

    /// Arms a power cut (operation counting restarts at 0).
    pub fn arm(&mut self, cut: PowerCut) {
        self.ops = 0;
        self.cut = Some(cut);
    }

    /// Restores power, disarms the injector and resets the counter.
    pub fn power_on(&mut self) {
        self.powered = true;
        self.cut = None;
        self.ops = 0;
    }

    /// The raw contents (for tampering in tests).
    pub fn raw_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }

    fn range(&self, offset: u64, len: usize) -> Result<core::ops::Range<usize>, FlashError> {
        let end = offset
            .checked_add(len as u64)
            .ok_or(FlashError::OutOfRange)?;
        if end > self.geometry.size() {
            return Err(FlashError::OutOfRange);
        }
        Ok(offset as usize..end as usize)
    }

    /// Counts a mutating operation; `Some(tear)` when power dies in it.
    fn tick(&mut self) -> Result<Option<Tear>, FlashError> {
        if !self.powered {
            return Err(FlashError::PowerLost);
        }
        let n = self.ops;
        self.ops += 1;
        match self.cut {
            Some(cut) if cut.at == n => {
                self.powered = false;
                Ok(Some(cut.tear))
            }
            _ => Ok(None),
        }
    }
}

impl Flash for RamFlash {
    fn geometry(&self) -> Geometry {
        self.geometry
    }

    fn read(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), FlashError> {
        if !self.powered {
            return Err(FlashError::PowerLost);
        }
        let range = self.range(offset, buf.len())?;
        buf.copy_from_slice(&self.bytes[range]);
        Ok(())
    }

    fn erase(&mut self, sector: u32) -> Result<(), FlashError> {
        if sector >= self.geometry.sector_count {
            return Err(FlashError::OutOfRange);
        }
        let size = self.geometry.sector_size as usize;
        let start = sector as usize * size;
        let len = match self.tick()? {
            None => size,
            Some(Tear::NotDone) => 0,
            Some(Tear::Prefix(n)) => n.min(size),
        };
        self.bytes[start..start + len].fill(0xFF);
        if !self.powered {
            return Err(FlashError::PowerLost);
        }
        Ok(())
    }

    fn write(&mut self, offset: u64, data: &[u8]) -> Result<(), FlashError> {
        let range = self.range(offset, data.len())?;
        let len = match self.tick()? {
            None => data.len(),
            Some(Tear::NotDone) => 0,
            Some(Tear::Prefix(n)) => n.min(data.len()),
        };
        crate::flash::program(&mut self.bytes[range], &data[..len]);
        if !self.powered {
            return Err(FlashError::PowerLost);
        }
        Ok(())
    }
}

/// OTP in RAM.
#[derive(Clone)]
pub struct RamOtp {
    pub root: Option<[u8; 32]>,
    pub counter: u32,
    pub device_key: SigningKey,
}

impl Otp for RamOtp {
    fn root_public_key(&self) -> Option<[u8; 32]> {
        self.root
    }

    fn security_version(&self) -> u32 {
        self.counter
    }

    fn raise_security_version(&mut self, version: u32) -> Result<(), FlashError> {
        self.counter = self.counter.max(version);
        Ok(())
    }

    fn device_public_key(&self) -> [u8; 32] {
        self.device_key.verifying_key().to_bytes()
    }

    fn device_sign(&self, message: &[u8]) -> [u8; 64] {
        self.device_key.sign(message).to_bytes()
    }
}
