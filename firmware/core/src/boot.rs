//! The boot ROM: choose a slot from the boot record, verify it against the
//! OTP key, device model and anti-rollback counter, measure it, count the
//! trial attempt, and hand over; fall back to the last known good slot
//! when the trial slot is invalid or has used up its attempts. Nothing
//! unverified is ever handed over.

use alloc::boxed::Box;
use alloc::vec;

use crate::flash::{Flash, FlashError, Otp};
use crate::image::{DeviceModel, Image, ImageError, OwnedImage, VerifyError, format, verify};
use crate::layout::{Layout, LayoutError, Slot};
use crate::measure::Measurements;
use crate::slots::{BootState, read_state, write_state};

/// Boot policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BootConfig {
    /// Trial boots a newly flashed slot gets to pass its health check
    /// ([`confirm_boot`]) before the card falls back.
    pub max_attempts: u8,
}

impl Default for BootConfig {
    fn default() -> Self {
        BootConfig { max_attempts: 3 }
    }
}

/// Why a slot could not be booted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SlotFailure {
    #[error("{0}")]
    Format(ImageError),
    #[error("the header claims {declared} bytes, more than the slot's {slot}")]
    TooLarge { declared: usize, slot: u64 },
    #[error("{0}")]
    Rejected(Box<VerifyError>),
    #[error("{attempts} trial boots without a passed health check")]
    AttemptsExhausted { attempts: u8 },
}

/// A slot and why it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedSlot {
    pub slot: Slot,
    pub failure: SlotFailure,
}

impl core::fmt::Display for FailedSlot {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "slot {}: {}", self.slot, self.failure)
    }
}

fn describe(
    f: &mut core::fmt::Formatter<'_>,
    what: &str,
    slot: &Option<FailedSlot>,
) -> core::fmt::Result {
    match slot {
        Some(s) => write!(f, "; {what} {s}"),
        None => write!(f, "; no {what} slot"),
    }
}

/// Why the card did not boot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BootError {
    #[error("the card has no root public key in OTP (not provisioned)")]
    NotProvisioned,
    #[error(transparent)]
    Layout(#[from] LayoutError),
    #[error("flash operation failed: {0}")]
    Flash(FlashError),
    #[error("no bootable image{}", NoBootable(.trial, .last_good))]
    NoBootableImage {
        trial: Option<FailedSlot>,
        last_good: Option<FailedSlot>,
    },
}

// `FlashError` (crate::flash) is not a `core::error::Error`, so no `#[from]`.
impl From<FlashError> for BootError {
    fn from(e: FlashError) -> Self {
        BootError::Flash(e)
    }
}

struct NoBootable<'a>(&'a Option<FailedSlot>, &'a Option<FailedSlot>);

impl core::fmt::Display for NoBootable<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        describe(f, "trial", self.0)?;
        describe(f, "last known good", self.1)
    }
}

/// What the boot ROM hands over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BootOutcome {
    pub slot: Slot,
    /// The verified image, read into RAM (what runs is this copy, not
    /// flash that could change after verification).
    pub image: OwnedImage,
    pub measurements: Measurements,
    /// Whether a trial slot was given up on this boot.
    pub fell_back: bool,
    /// The trial slot given up on, and why.
    pub fallback_reason: Option<FailedSlot>,
    /// Whether this is a trial boot (not yet confirmed healthy).
    pub trial: bool,
    /// The boot state after this boot was counted.
    pub state: BootState,
}

/// Reads the image in `slot` into RAM and verifies it.
pub fn load_verified(
    flash: &mut dyn Flash,
    layout: &Layout,
    slot: Slot,
    root: &[u8; 32],
    model: DeviceModel<'_>,
    min_security_version: u32,
) -> Result<Result<OwnedImage, SlotFailure>, FlashError> {
    let base = layout.slot_offset(slot);
    let mut header = [0u8; format::HEADER_LEN];
    flash.read(base, &mut header)?;
    let declared = match Image::declared_len(&header) {
        Ok(n) => n,
        Err(e) => return Ok(Err(SlotFailure::Format(e))),
    };
    if declared as u64 > layout.slot_size() {
        return Ok(Err(SlotFailure::TooLarge {
            declared,
            slot: layout.slot_size(),
        }));
    }
    let mut bytes = vec![0u8; declared];
    flash.read(base, &mut bytes)?;
    let image = match OwnedImage::new(bytes) {
        Ok(image) => image,
        Err(e) => return Ok(Err(SlotFailure::Format(e))),
    };
    Ok(verify(&image.view(), root, model, min_security_version)
        .map(|()| image)
        .map_err(|e| SlotFailure::Rejected(Box::new(e))))
}

/// Boots the card (see the module documentation and docs/firmware.md).
pub fn boot(
    flash: &mut dyn Flash,
    otp: &dyn Otp,
    model: DeviceModel<'_>,
    config: BootConfig,
) -> Result<BootOutcome, BootError> {
    let root = otp.root_public_key().ok_or(BootError::NotProvisioned)?;
    let layout = Layout::new(flash.geometry())?;
    let min = otp.security_version();
    let mut state = read_state(flash, &layout)?;

    let mut trial_failure = None;
    if let Some(slot) = state.pending {
        let failure = if state.attempts >= config.max_attempts {
            SlotFailure::AttemptsExhausted {
                attempts: state.attempts,
            }
        } else {
            match load_verified(flash, &layout, slot, &root, model, min)? {
                Ok(image) => {
                    state.attempts += 1;
                    state.active = Some(slot);
                    let state = write_state(flash, &layout, &state)?;
                    return Ok(outcome(slot, image, None, true, state));
                }
                Err(failure) => failure,
            }
        };
        trial_failure = Some(FailedSlot { slot, failure });
        state.pending = None;
        state.attempts = 0;
        state = write_state(flash, &layout, &state)?;
    }

    let Some(slot) = state.last_good else {
        return Err(BootError::NoBootableImage {
            trial: trial_failure,
            last_good: None,
        });
    };
    match load_verified(flash, &layout, slot, &root, model, min)? {
        Ok(image) => {
            if state.active != Some(slot) {
                state.active = Some(slot);
                state = write_state(flash, &layout, &state)?;
            }
            Ok(outcome(slot, image, trial_failure, false, state))
        }
        Err(failure) => Err(BootError::NoBootableImage {
            trial: trial_failure,
            last_good: Some(FailedSlot { slot, failure }),
        }),
    }
}

fn outcome(
    slot: Slot,
    image: OwnedImage,
    fallback_reason: Option<FailedSlot>,
    trial: bool,
    state: BootState,
) -> BootOutcome {
    let measurements = Measurements::of_image(&image.view());
    BootOutcome {
        slot,
        image,
        measurements,
        fell_back: fallback_reason.is_some(),
        fallback_reason,
        trial,
        state,
    }
}

/// What [`confirm_boot`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Confirmed {
    pub slot: Slot,
    /// Whether the slot was on trial and is now the last known good one.
    pub promoted: bool,
    /// The anti-rollback counter afterwards.
    pub security_version: u32,
}

/// Why a boot could not be confirmed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfirmError {
    #[error("the card has no root public key in OTP (not provisioned)")]
    NotProvisioned,
    #[error(transparent)]
    Layout(#[from] LayoutError),
    #[error("flash operation failed: {0}")]
    Flash(FlashError),
    #[error("no slot was booted: boot the card first")]
    NotBooted,
    #[error("the booted slot no longer verifies: {0}")]
    Invalid(FailedSlot),
}

// `FlashError` (crate::flash) is not a `core::error::Error`, so no `#[from]`.
impl From<FlashError> for ConfirmError {
    fn from(e: FlashError) -> Self {
        ConfirmError::Flash(e)
    }
}

/// The health check passed: the booted slot becomes the last known good
/// one (ending its trial), then the OTP anti-rollback counter is raised to
/// its security version. In that order: a power cut between the two leaves
/// the counter low (calling again raises it) rather than a counter that
/// would refuse the fallback slot while the new one is still on trial.
pub fn confirm_boot(
    flash: &mut dyn Flash,
    otp: &mut dyn Otp,
    model: DeviceModel<'_>,
) -> Result<Confirmed, ConfirmError> {
    let root = otp.root_public_key().ok_or(ConfirmError::NotProvisioned)?;
    let layout = Layout::new(flash.geometry())?;
    let mut state = read_state(flash, &layout)?;
    let slot = state.active.ok_or(ConfirmError::NotBooted)?;
    let promoted = state.pending == Some(slot);
    if !promoted && state.last_good != Some(slot) {
        return Err(ConfirmError::NotBooted);
    }
    let image = load_verified(flash, &layout, slot, &root, model, otp.security_version())?
        .map_err(|failure| ConfirmError::Invalid(FailedSlot { slot, failure }))?;
    if promoted {
        state.last_good = Some(slot);
        state.pending = None;
        state.attempts = 0;
        write_state(flash, &layout, &state)?;
    }
    otp.raise_security_version(image.view().security_version())?;
    Ok(Confirmed {
        slot,
        promoted,
        security_version: otp.security_version(),
    })
}
