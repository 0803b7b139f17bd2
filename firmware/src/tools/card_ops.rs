//! What `janus nic flash|boot|attest|status` do to a simulated card.
//!
//! The card's folder gains a `ram/` folder when it boots: it stands for
//! the card's RAM, holding the image the boot ROM verified and handed over
//! (`ram/image.bin`) and how it booted (`ram/boot.json`). `nic attest`
//! quotes what is there, as the running firmware would; a failed boot
//! empties it. Flashing does not touch it: the running image keeps running
//! until the next boot.

use super::{ToolError, device_model, key_fingerprint, read_file};
use crate::card::{Card, CardOptions, Geometry};
use janus_firmware_core::attest::{Booted, Quote, quote_booted};
use janus_firmware_core::boot::{
    BootConfig, BootOutcome, Confirmed, FailedSlot, boot, confirm_boot, load_verified,
};
use janus_firmware_core::flash::{Flash, Otp};
use janus_firmware_core::flasher::{FlashOptions, FlashReport, flash_image_with};
use janus_firmware_core::image::{Image, OwnedImage, format};
use janus_firmware_core::layout::{Layout, Slot};
use janus_firmware_core::measure::Measurements;
use janus_firmware_core::slots::{BootState, read_state, write_state};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const RAM_DIR: &str = "ram";
const RAM_IMAGE: &str = "image.bin";
const RAM_BOOT: &str = "boot.json";

/// What flashing did and how long it took.
#[derive(Clone, Debug)]
pub struct FlashSummary {
    pub report: FlashReport,
    /// Parsing and verifying the image in RAM, before flash is touched.
    pub verify_time: Duration,
    /// Erasing, writing, reading back and switching the boot record
    /// (the flasher verifies again first).
    pub write_time: Duration,
}

/// Verifies `image` for the card in `dir`, then writes it to the inactive
/// slot and records it as pending its trial boot. A refusal leaves the
/// flash untouched.
pub fn flash_card(
    dir: &Path,
    image: &[u8],
    options: FlashOptions,
) -> Result<FlashSummary, ToolError> {
    let mut card = Card::open(dir, CardOptions::default())?;
    let model_name = card.config().model.clone();
    let model = device_model(&model_name)?;
    let (flash, otp) = card.parts();
    let root = otp.root_public_key().ok_or(ToolError::NotProvisioned)?;
    let started = Instant::now();
    let view = Image::parse(image).map_err(janus_firmware_core::image::VerifyError::from)?;
    janus_firmware_core::image::verify(&view, &root, model, otp.security_version())?;
    let verify_time = started.elapsed();
    let started = Instant::now();
    let report = flash_image_with(flash, otp, image, model, options)?;
    let write_time = started.elapsed();
    tracing::info!(dir = %dir.display(), slot = %report.slot, "image flashed");
    Ok(FlashSummary {
        report,
        verify_time,
        write_time,
    })
}

/// The result of the health check after a boot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Health {
    /// Passed: the boot is confirmed (the slot becomes last known good,
    /// the anti-rollback counter rises to its security version).
    Pass,
    /// Failed: the boot stays unconfirmed; a trial slot uses up one of its
    /// attempts.
    Fail,
}

/// What `nic boot` did.
#[derive(Clone, Debug)]
pub struct BootReport {
    pub outcome: BootOutcome,
    /// The trial attempts a new slot gets.
    pub max_attempts: u8,
    /// Set when the health check passed and the boot was confirmed.
    pub confirmed: Option<Confirmed>,
}

/// How the running image booted, kept in the card's `ram/`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct RamRecord {
    slot: String,
    trial: bool,
    fell_back: bool,
    confirmed: bool,
}

/// Boots the card in `dir` (the boot ROM), then applies `health`.
pub fn boot_card(
    dir: &Path,
    config: BootConfig,
    health: Option<Health>,
) -> Result<BootReport, ToolError> {
    let mut card = Card::open(dir, CardOptions::default())?;
    let model_name = card.config().model.clone();
    let model = device_model(&model_name)?;
    let (flash, otp) = card.parts();
    let outcome = match boot(flash, otp, model, config) {
        Ok(outcome) => outcome,
        Err(e) => {
            clear_ram(dir)?;
            return Err(e.into());
        }
    };
    let confirmed = match health {
        Some(Health::Pass) => Some(confirm_boot(flash, otp, model)?),
        Some(Health::Fail) | None => None,
    };
    write_ram(
        dir,
        &outcome.image,
        &RamRecord {
            slot: outcome.slot.to_string(),
            trial: outcome.trial,
            fell_back: outcome.fell_back,
            confirmed: confirmed.is_some(),
        },
    )?;
    tracing::info!(dir = %dir.display(), slot = %outcome.slot, "card booted");
    Ok(BootReport {
        outcome,
        max_attempts: config.max_attempts,
        confirmed,
    })
}

/// Confirms the boot the card in `dir` runs (the health check passed,
/// after a boot with no health given): `confirm_boot`, then the `ram/`
/// record says confirmed.
pub fn confirm_running(dir: &Path) -> Result<Confirmed, ToolError> {
    let running = running(dir)?.ok_or(ToolError::NotBooted)?;
    let mut card = Card::open(dir, CardOptions::default())?;
    let model_name = card.config().model.clone();
    let model = device_model(&model_name)?;
    let (flash, otp) = card.parts();
    let confirmed = confirm_boot(flash, otp, model)?;
    write_ram(
        dir,
        &running.image,
        &RamRecord {
            slot: running.slot.to_string(),
            trial: running.trial,
            fell_back: running.fell_back,
            confirmed: true,
        },
    )?;
    tracing::info!(dir = %dir.display(), slot = %confirmed.slot, "boot confirmed");
    Ok(confirmed)
}

/// The image the card runs and how it booted, from its `ram/`.
#[derive(Clone, Debug)]
pub struct Running {
    pub slot: Slot,
    pub image: OwnedImage,
    pub measurements: Measurements,
    pub trial: bool,
    pub fell_back: bool,
    pub confirmed: bool,
}

fn ram_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(RAM_DIR).join(name)
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ToolError + '_ {
    move |source| ToolError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn clear_ram(dir: &Path) -> Result<(), ToolError> {
    let ram = dir.join(RAM_DIR);
    match std::fs::remove_dir_all(&ram) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(&ram)(e)),
        _ => Ok(()),
    }
}

fn write_ram(dir: &Path, image: &OwnedImage, record: &RamRecord) -> Result<(), ToolError> {
    clear_ram(dir)?;
    let ram = dir.join(RAM_DIR);
    std::fs::create_dir(&ram).map_err(io(&ram))?;
    let image_path = ram_path(dir, RAM_IMAGE);
    std::fs::write(&image_path, image.view().bytes()).map_err(io(&image_path))?;
    let boot_path = ram_path(dir, RAM_BOOT);
    let json = serde_json::to_vec_pretty(record).unwrap_or_default();
    std::fs::write(&boot_path, json).map_err(io(&boot_path))
}

/// What the card in `dir` runs, `None` when it has not booted.
pub fn running(dir: &Path) -> Result<Option<Running>, ToolError> {
    let boot_path = ram_path(dir, RAM_BOOT);
    let text = match std::fs::read(&boot_path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(&boot_path)(e)),
    };
    let bad = |what: String| ToolError::Usage(format!("{}: {what}", boot_path.display()));
    let record: RamRecord = serde_json::from_slice(&text).map_err(|e| bad(e.to_string()))?;
    let slot = match record.slot.as_str() {
        "A" => Slot::A,
        "B" => Slot::B,
        other => return Err(bad(format!("unknown slot {other:?}"))),
    };
    let image_path = ram_path(dir, RAM_IMAGE);
    let image = OwnedImage::new(read_file(&image_path)?).map_err(|source| ToolError::Format {
        path: image_path,
        source,
    })?;
    let measurements = Measurements::of_image(&image.view());
    Ok(Some(Running {
        slot,
        image,
        measurements,
        trial: record.trial,
        fell_back: record.fell_back,
        confirmed: record.confirmed,
    }))
}

/// A quote of what the card in `dir` runs, for `nonce`, signed by its
/// device key.
pub fn attest_card(dir: &Path, nonce: &[u8]) -> Result<Quote, ToolError> {
    let card = Card::open(dir, CardOptions::default())?;
    let running = running(dir)?.ok_or(ToolError::NotBooted)?;
    let (_, otp) = card.into_parts();
    let booted = Booted {
        measurements: &running.measurements,
        slot: running.slot,
        image_security_version: running.image.view().security_version(),
    };
    Ok(quote_booted(&otp, &booted, nonce)?)
}

/// What a slot holds.
#[derive(Clone, Debug)]
pub enum SlotContent {
    /// Its first sector's header is erased.
    Erased,
    /// An image that verifies now (key, model, counter).
    Bootable {
        size: usize,
        security_version: u32,
        pcr: [u8; 32],
    },
    /// Something the boot ROM would refuse, and why.
    Unbootable(String),
}

/// A card's state as `nic status` prints it.
#[derive(Clone, Debug)]
pub struct CardStatus {
    pub model: String,
    pub geometry: Geometry,
    pub slot_size: u64,
    /// The root key's fingerprint (`None`: not provisioned).
    pub root_fingerprint: Option<String>,
    pub security_version: u32,
    pub state: BootState,
    pub slots: [(Slot, SlotContent); 2],
    pub running: Option<Running>,
}

/// Reads the state of the card in `dir` (nothing is written).
pub fn card_status(dir: &Path) -> Result<CardStatus, ToolError> {
    let mut card = Card::open(dir, CardOptions::default())?;
    let config = card.config().clone();
    let (flash, otp) = card.parts();
    let layout = Layout::new(flash.geometry())
        .map_err(|e| ToolError::Usage(format!("{}: {e}", dir.display())))?;
    let state = read_state(flash, &layout).map_err(flash_failed)?;
    let root = otp.root_public_key();
    let slots = [Slot::A, Slot::B].map(|slot| (slot, SlotContent::Erased));
    let mut slots = slots;
    for (slot, content) in &mut slots {
        *content = slot_content(flash, otp, &layout, *slot, &config.model)?;
    }
    Ok(CardStatus {
        model: config.model,
        geometry: config.geometry,
        slot_size: layout.slot_size(),
        root_fingerprint: root.as_ref().map(key_fingerprint),
        security_version: otp.security_version(),
        state,
        slots,
        running: running(dir)?,
    })
}

fn flash_failed(e: janus_firmware_core::flash::FlashError) -> ToolError {
    ToolError::Usage(format!("reading the card's flash failed: {e}"))
}

fn slot_content(
    flash: &mut dyn Flash,
    otp: &dyn Otp,
    layout: &Layout,
    slot: Slot,
    model: &str,
) -> Result<SlotContent, ToolError> {
    let mut header = [0u8; format::HEADER_LEN];
    flash
        .read(layout.slot_offset(slot), &mut header)
        .map_err(flash_failed)?;
    if header.iter().all(|&b| b == 0xFF) {
        return Ok(SlotContent::Erased);
    }
    let Some(root) = otp.root_public_key() else {
        return Ok(SlotContent::Unbootable(
            "the card is not provisioned".to_string(),
        ));
    };
    let model = device_model(model)?;
    match load_verified(flash, layout, slot, &root, model, otp.security_version())
        .map_err(flash_failed)?
    {
        Ok(image) => {
            let view = image.view();
            Ok(SlotContent::Bootable {
                size: view.total_len(),
                security_version: view.security_version(),
                pcr: Measurements::of_image(&view).pcr,
            })
        }
        Err(failure) => Ok(SlotContent::Unbootable(failure.to_string())),
    }
}

/// The image flashed into the card in `dir` and pending its trial, read
/// into RAM and verified as the boot ROM verifies a trial slot (OTP key,
/// device model, anti-rollback counter); nothing is written.
pub fn pending_image(dir: &Path) -> Result<(Slot, OwnedImage), ToolError> {
    let running = running(dir)?.ok_or(ToolError::NotBooted)?;
    let mut card = Card::open(dir, CardOptions::default())?;
    let model_name = card.config().model.clone();
    let model = device_model(&model_name)?;
    let (flash, otp) = card.parts();
    let root = otp.root_public_key().ok_or(ToolError::NotProvisioned)?;
    let layout = Layout::new(flash.geometry())
        .map_err(|e| ToolError::Usage(format!("{}: {e}", dir.display())))?;
    let state = read_state(flash, &layout).map_err(flash_failed)?;
    let slot = match state.pending {
        Some(slot) if slot != running.slot => slot,
        _ => return Err(ToolError::NothingPending),
    };
    load_verified(flash, &layout, slot, &root, model, otp.security_version())
        .map_err(flash_failed)?
        .map(|image| (slot, image))
        .map_err(|failure| ToolError::SlotRefused(FailedSlot { slot, failure }))
}

/// Rewrites the boot record of the card in `dir` with `change`.
fn update_state(dir: &Path, change: impl FnOnce(&mut BootState)) -> Result<BootState, ToolError> {
    let mut card = Card::open(dir, CardOptions::default())?;
    let (flash, _) = card.parts();
    let layout = Layout::new(flash.geometry())
        .map_err(|e| ToolError::Usage(format!("{}: {e}", dir.display())))?;
    let mut state = read_state(flash, &layout).map_err(flash_failed)?;
    change(&mut state);
    write_state(flash, &layout, &state).map_err(flash_failed)
}

/// A pipeline swap to the pending `slot` begins: the slot becomes the
/// active one and the swap counts as one of its trial boots, so that a
/// process dying before [`confirm_swap`] or [`reject_pending`] leaves
/// the boot ROM's trial accounting in charge.
pub fn begin_swap_trial(dir: &Path, slot: Slot) -> Result<(), ToolError> {
    update_state(dir, |s| {
        s.active = Some(slot);
        s.attempts = s.attempts.saturating_add(1);
    })?;
    Ok(())
}

/// The swapped-in image passed its health check: its slot is confirmed
/// (last known good, anti-rollback counter raised) and `ram/` holds it,
/// so attestation quotes what runs.
pub fn confirm_swap(dir: &Path, slot: Slot, image: &OwnedImage) -> Result<Confirmed, ToolError> {
    let confirmed = {
        let mut card = Card::open(dir, CardOptions::default())?;
        let model_name = card.config().model.clone();
        let model = device_model(&model_name)?;
        let (flash, otp) = card.parts();
        confirm_boot(flash, otp, model)?
    };
    write_ram(
        dir,
        image,
        &RamRecord {
            slot: slot.to_string(),
            trial: false,
            fell_back: false,
            confirmed: true,
        },
    )?;
    tracing::info!(dir = %dir.display(), %slot, "pipeline swap confirmed");
    Ok(confirmed)
}

/// The pending slot failed (its replay or its health check after a
/// swap): it is no longer offered for trial and `running` is the active
/// slot again, so the next boot starts the last known good image.
pub fn reject_pending(dir: &Path, running: Slot) -> Result<BootState, ToolError> {
    let state = update_state(dir, |s| {
        s.pending = None;
        s.attempts = 0;
        s.active = Some(running);
    })?;
    tracing::warn!(dir = %dir.display(), "pending slot rejected");
    Ok(state)
}
