//! `janus image verify-quote`: checks a card's quote against what the
//! verifier expects it to run.

use super::inspect::parse;
use super::{ToolError, read_file};
use crate::keys;
use janus_firmware_core::attest::{Quote, verify_quote, verify_quote_pcr};
use janus_firmware_core::measure::Measurements;
use std::path::{Path, PathBuf};

/// What the quote must report.
#[derive(Clone, Debug)]
pub enum Expectation {
    /// The measurements of booting this image (PCR and event log).
    Image(PathBuf),
    /// This PCR value (the event log is not checked).
    Pcr([u8; 32]),
}

/// Checks the quote in `quote_path`: signed by the device key in
/// `device_pubkey` (SPKI PEM), answering `nonce`, reporting `expected`.
/// Returns the decoded quote.
pub fn verify_quote_file(
    quote_path: &Path,
    device_pubkey: &Path,
    nonce: &[u8],
    expected: &Expectation,
) -> Result<Quote, ToolError> {
    let quote = Quote::from_bytes(&read_file(quote_path)?)?;
    let device = keys::load_verifying_key(device_pubkey)?.to_bytes();
    match expected {
        Expectation::Image(path) => {
            let bytes = read_file(path)?;
            let view = parse(path, &bytes)?;
            verify_quote(&quote, &device, nonce, &Measurements::of_image(&view))?;
        }
        Expectation::Pcr(pcr) => verify_quote_pcr(&quote, &device, nonce, pcr)?,
    }
    Ok(quote)
}
