//! The image and card tools behind `janus image ...` and `janus nic
//! flash|boot|attest|status` (docs/firmware.md, "Images and tools"); the
//! commands only parse arguments and print.
//!
//! - [`build`]: P4 program + configuration + key -> signed image;
//! - [`inspect`]: an image's contents, as text or JSON, and `verify`;
//! - [`card_ops`]: flashing, booting (the boot ROM), attesting and
//!   describing a simulated card;
//! - [`quote`]: checking a card's quote against an image or a PCR.

pub mod build;
pub mod card_ops;
mod encoding;
pub mod inspect;
pub mod quote;

pub use encoding::{hex, parse_hex, utc_time};

use crate::card::CardError;
use crate::config::ConfigError;
use crate::keys::KeyError;
use janus_firmware_core::attest::QuoteError;
use janus_firmware_core::boot::{BootError, ConfirmError};
use janus_firmware_core::flasher::FlashImageError;
use janus_firmware_core::image::{BuildError, DeviceModel, ImageError, VerifyError};
use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// The host ABI version images built by this janus declare (the host-abi
/// component): the contract of the ring and register layouts in
/// docs/host-interface.md, version 1.
pub const HOST_ABI_VERSION: u32 = 1;
/// The pipeline component's version: the pipeline file format
/// (`janus-pipeline 1`).
pub const PIPELINE_COMPONENT_VERSION: u32 = 1;

/// Why a tool failed. Each refusal keeps its typed cause so that the
/// command line prints a precise message.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Key(#[from] KeyError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("{} does not compile:\n{diagnostics}", path.display())]
    P4 { path: PathBuf, diagnostics: String },
    #[error("cannot build the image: {0}")]
    Build(#[from] BuildError),
    #[error("{}: {source}", path.display())]
    Format { path: PathBuf, source: ImageError },
    #[error("image refused: {0}")]
    Refused(#[from] VerifyError),
    #[error(transparent)]
    Card(#[from] CardError),
    #[error("the card has no root public key in OTP (not provisioned)")]
    NotProvisioned,
    #[error("flashing failed: {0}")]
    Flash(#[from] FlashImageError),
    #[error("boot failed: {0}")]
    Boot(#[from] BootError),
    #[error("health check could not be confirmed: {0}")]
    Confirm(#[from] ConfirmError),
    #[error("quote: {0}")]
    Quote(#[from] QuoteError),
    #[error("the card is not running an image: boot it first (`janus nic boot DIR`)")]
    NotBooted,
    #[error("no image is pending: flash one first (`janus nic flash DIR new.img`)")]
    NothingPending,
    #[error("the flashed image is refused by the boot ROM's checks: {0}")]
    SlotRefused(janus_firmware_core::boot::FailedSlot),
    #[error("{0}")]
    Usage(String),
}

/// The image model for the card model `name`: the name itself (1 to 32
/// bytes) and, as id, the first four bytes of its SHA-256 read as a
/// little-endian integer. Card and image tools derive it the same way, so
/// an image built with `--model NAME` matches a card created with
/// `--model NAME`.
pub fn device_model(name: &str) -> Result<DeviceModel<'_>, ToolError> {
    if name.is_empty() || name.len() > 32 || name.contains('\0') {
        return Err(ToolError::Usage(format!(
            "device model {name:?}: images name 1 to 32 bytes"
        )));
    }
    let digest = Sha256::digest(name.as_bytes());
    Ok(DeviceModel {
        id: u32::from_le_bytes([digest[0], digest[1], digest[2], digest[3]]),
        name,
    })
}

/// The fingerprint of an Ed25519 public key: the SHA-256 of its SPKI DER
/// encoding, in hex, so that `openssl pkey -pubin -in K.pub -outform DER |
/// sha256sum` prints the same.
pub fn key_fingerprint(key: &[u8; 32]) -> String {
    /// SPKI DER of an Ed25519 key: this prefix, then the 32 key bytes.
    const SPKI_PREFIX: [u8; 12] = [
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
    ];
    let mut h = Sha256::new();
    h.update(SPKI_PREFIX);
    h.update(key);
    hex(&h.finalize())
}

/// Reads a file, naming it in the error.
pub(crate) fn read_file(path: &std::path::Path) -> Result<Vec<u8>, ToolError> {
    std::fs::read(path).map_err(|source| ToolError::Io {
        path: path.to_path_buf(),
        source,
    })
}
