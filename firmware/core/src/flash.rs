//! Storage as the boot code sees it: NOR-like flash and a one-time
//! programmable (OTP) area.
//!
//! **Flash semantics** (what every [`Flash`] must provide and what the
//! firmware may assume, no more): the device is `sector_count` sectors of
//! `sector_size` bytes. [`Flash::erase`] sets every byte of one sector to
//! `0xFF`. [`Flash::write`] programs bytes: like NOR flash it can only clear
//! bits (the stored byte becomes `old & new`); writing over bytes that are
//! not erased is allowed but only ever clears bits. Writes and erases are
//! not atomic: power may fail in the middle of one (a torn write leaves any
//! prefix of the bytes programmed, a torn erase leaves the sector in an
//! unknown state), and between any two operations. Reads return what is
//! stored.
//!
//! **OTP semantics**: the root public key is written once at manufacture
//! and never changes; the anti-rollback counter can only grow (it is a
//! monotonic counter burnt bit by bit on real parts); the device key is the
//! card's own signing key for attestation (on hardware it never leaves the
//! secure element; here the trait only exposes signing).

/// The shape of a flash device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub sector_size: u32,
    pub sector_count: u32,
}

impl Geometry {
    /// The device's size in bytes.
    pub const fn size(&self) -> u64 {
        self.sector_size as u64 * self.sector_count as u64
    }

    /// Checks that `len` bytes at `offset` lie inside the device.
    pub fn check_range(&self, offset: u64, len: usize) -> Result<(), FlashError> {
        match offset.checked_add(len as u64) {
            Some(end) if end <= self.size() => Ok(()),
            _ => Err(FlashError::OutOfRange),
        }
    }
}

/// Programs `data` over the stored `cells` with NOR semantics: each byte
/// becomes `old & new` (bits are only ever cleared).
pub fn program(cells: &mut [u8], data: &[u8]) {
    for (cell, new) in cells.iter_mut().zip(data) {
        *cell &= new;
    }
}

/// Why a storage operation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlashError {
    /// The range is outside the device.
    OutOfRange,
    /// The device stopped answering (on the simulated card: the power was
    /// cut by the fault injector); nothing after this point happened.
    PowerLost,
    /// The device reported an error.
    Io,
}

impl core::fmt::Display for FlashError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            FlashError::OutOfRange => "the range is outside the flash",
            FlashError::PowerLost => "power was lost",
            FlashError::Io => "the flash reported an error",
        })
    }
}

/// A NOR-like flash device (see the module documentation for the exact
/// semantics).
pub trait Flash {
    fn geometry(&self) -> Geometry;
    /// Reads `buf.len()` bytes at `offset`.
    fn read(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), FlashError>;
    /// Erases sector `sector` (all bytes become `0xFF`).
    fn erase(&mut self, sector: u32) -> Result<(), FlashError>;
    /// Programs `data` at `offset` (each byte becomes `old & new`).
    fn write(&mut self, offset: u64, data: &[u8]) -> Result<(), FlashError>;
}

/// The card's one-time-programmable area and device key.
pub trait Otp {
    /// The Ed25519 public key (32 bytes) that every image must be signed
    /// with; `None` on a card not provisioned yet.
    fn root_public_key(&self) -> Option<[u8; 32]>;
    /// The anti-rollback counter: images with a lower security version
    /// are refused.
    fn security_version(&self) -> u32;
    /// Raises the anti-rollback counter to `version` (never lowers it; a
    /// lower value is ignored).
    fn raise_security_version(&mut self, version: u32) -> Result<(), FlashError>;
    /// The device's attestation public key (Ed25519).
    fn device_public_key(&self) -> [u8; 32];
    /// Signs `message` with the device key (Ed25519, 64 bytes).
    fn device_sign(&self, message: &[u8]) -> [u8; 64];
}
