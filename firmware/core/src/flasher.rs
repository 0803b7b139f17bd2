//! Crash-safe flashing: verify in RAM, write the inactive slot, read it
//! back, then switch the boot record to a trial boot of it.

use alloc::vec;

use crate::flash::{Flash, FlashError, Otp};
use crate::image::{DeviceModel, Image, VerifyError, verify};
use crate::layout::{Layout, LayoutError, Slot};
use crate::slots::{BootState, read_state, write_state};

/// How the flasher writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlashOptions {
    /// Bytes per write operation (a flash page).
    pub write_chunk: usize,
}

impl Default for FlashOptions {
    fn default() -> Self {
        FlashOptions { write_chunk: 256 }
    }
}

/// What a successful flashing did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlashReport {
    /// The slot written, now pending its trial boot.
    pub slot: Slot,
    pub bytes_written: usize,
    pub sectors_erased: u32,
    pub security_version: u32,
    /// The boot state after the switch.
    pub state: BootState,
}

/// Why flashing failed. Refusals happen before flash is touched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FlashImageError {
    #[error("the card has no root public key in OTP (not provisioned)")]
    NotProvisioned,
    #[error("image refused: {0}")]
    Refused(#[from] VerifyError),
    #[error(transparent)]
    Layout(#[from] LayoutError),
    #[error("the image is {image} bytes, a slot holds {slot}")]
    TooLarge { image: usize, slot: u64 },
    #[error("flash operation failed: {0}")]
    Flash(FlashError),
    #[error("slot {slot} reads back differently at byte {offset} after writing")]
    ReadBack { slot: Slot, offset: usize },
}

// `FlashError` (crate::flash) is not a `core::error::Error`, so no `#[from]`.
impl From<FlashError> for FlashImageError {
    fn from(e: FlashError) -> Self {
        FlashImageError::Flash(e)
    }
}

/// Flashes `image` with the default [`FlashOptions`].
pub fn flash_image(
    flash: &mut dyn Flash,
    otp: &dyn Otp,
    image: &[u8],
    model: DeviceModel<'_>,
) -> Result<FlashReport, FlashImageError> {
    flash_image_with(flash, otp, image, model, FlashOptions::default())
}

/// Verifies `image` for this card, writes it to the slot that is not the
/// last known good one, reads it back, and records it as pending a trial
/// boot. Until that last record is complete the card keeps booting what it
/// booted before.
pub fn flash_image_with(
    flash: &mut dyn Flash,
    otp: &dyn Otp,
    image: &[u8],
    model: DeviceModel<'_>,
    options: FlashOptions,
) -> Result<FlashReport, FlashImageError> {
    let root = otp
        .root_public_key()
        .ok_or(FlashImageError::NotProvisioned)?;
    let view = Image::parse(image).map_err(VerifyError::from)?;
    verify(&view, &root, model, otp.security_version())?;
    let layout = Layout::new(flash.geometry())?;
    if image.len() as u64 > layout.slot_size() {
        return Err(FlashImageError::TooLarge {
            image: image.len(),
            slot: layout.slot_size(),
        });
    }

    let mut state = read_state(flash, &layout)?;
    let slot = state.last_good.map_or(Slot::A, Slot::other);
    if state.pending == Some(slot) {
        // The slot is about to be overwritten: stop offering it for trial.
        state.pending = None;
        state.attempts = 0;
        state = write_state(flash, &layout, &state)?;
    }

    let sector_size = layout.geometry().sector_size as usize;
    let sectors = image.len().div_ceil(sector_size) as u32;
    let first = layout.slot_first_sector(slot);
    for sector in first..first + sectors {
        flash.erase(sector)?;
    }
    let base = layout.slot_offset(slot);
    let chunk = options.write_chunk.max(1);
    for (i, part) in image.chunks(chunk).enumerate() {
        flash.write(base + (i * chunk) as u64, part)?;
    }

    let mut back = vec![0u8; image.len()];
    flash.read(base, &mut back)?;
    if let Some(offset) = back.iter().zip(image).position(|(a, b)| a != b) {
        return Err(FlashImageError::ReadBack { slot, offset });
    }

    state.pending = Some(slot);
    state.attempts = 0;
    let state = write_state(flash, &layout, &state)?;
    Ok(FlashReport {
        slot,
        bytes_written: image.len(),
        sectors_erased: sectors,
        security_version: view.security_version(),
        state,
    })
}
