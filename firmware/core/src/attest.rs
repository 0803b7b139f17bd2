//! Remote attestation: a quote binds a verifier's nonce to the boot's
//! measurements, signed by the card's device key.
//!
//! Encoded quote (all little-endian): `"JNSQUOTE"` (8 bytes), nonce length
//! (u16), nonce, PCR (32), event-log digest (32), boot slot (u8: 0 = A,
//! 1 = B), image security version (u32), then the Ed25519 signature (64)
//! by the device key over the SHA-256 of everything before it.

use alloc::vec::Vec;

use ed25519_dalek::{Signature, VerifyingKey};
use sha2::{Digest, Sha256};

use crate::boot::BootOutcome;
use crate::flash::Otp;
use crate::layout::Slot;
use crate::measure::Measurements;

const MAGIC: [u8; 8] = *b"JNSQUOTE";
/// The longest nonce a quote carries.
pub const MAX_NONCE_LEN: usize = 1024;

/// A signed statement of what the card booted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quote {
    pub nonce: Vec<u8>,
    pub pcr: [u8; 32],
    pub event_log_digest: [u8; 32],
    pub slot: Slot,
    pub image_security_version: u32,
    pub signature: [u8; 64],
}

/// Why a quote could not be made, decoded or verified.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QuoteError {
    #[error("the nonce is longer than {MAX_NONCE_LEN} bytes")]
    NonceTooLong,
    #[error("malformed quote at byte {0}")]
    Malformed(usize),
    #[error("the device public key is not a valid Ed25519 key")]
    BadDeviceKey,
    #[error("the quote's signature is not the device key's")]
    BadSignature,
    #[error("the quote answers another nonce (replayed or stale)")]
    NonceMismatch,
    #[error("the measured PCR differs from the expected one")]
    PcrMismatch,
    #[error("the event log differs from the expected one")]
    EventLogMismatch,
}

impl Quote {
    /// The signed part's bytes.
    fn body(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + 2 + self.nonce.len() + 69);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&(self.nonce.len() as u16).to_le_bytes());
        out.extend_from_slice(&self.nonce);
        out.extend_from_slice(&self.pcr);
        out.extend_from_slice(&self.event_log_digest);
        out.push(self.slot.index());
        out.extend_from_slice(&self.image_security_version.to_le_bytes());
        out
    }

    /// The digest the device key signs.
    pub fn digest(&self) -> [u8; 32] {
        Sha256::digest(self.body()).into()
    }

    /// The encoded quote.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.body();
        out.extend_from_slice(&self.signature);
        out
    }

    /// Decodes a quote (does not verify it).
    pub fn from_bytes(bytes: &[u8]) -> Result<Quote, QuoteError> {
        let take = |at: usize, n: usize| bytes.get(at..at + n).ok_or(QuoteError::Malformed(at));
        if take(0, 8)? != MAGIC {
            return Err(QuoteError::Malformed(0));
        }
        let nonce_len = u16::from_le_bytes([take(8, 2)?[0], take(8, 2)?[1]]) as usize;
        if nonce_len > MAX_NONCE_LEN {
            return Err(QuoteError::Malformed(8));
        }
        let mut at = 10;
        let nonce = take(at, nonce_len)?.to_vec();
        at += nonce_len;
        let array = |at: usize| -> Result<[u8; 32], QuoteError> {
            take(at, 32)?
                .try_into()
                .map_err(|_| QuoteError::Malformed(at))
        };
        let pcr = array(at)?;
        let event_log_digest = array(at + 32)?;
        at += 64;
        let slot = Slot::from_index(take(at, 1)?[0]).ok_or(QuoteError::Malformed(at))?;
        let version = take(at + 1, 4)?;
        let image_security_version =
            u32::from_le_bytes([version[0], version[1], version[2], version[3]]);
        at += 5;
        let signature = take(at, 64)?
            .try_into()
            .map_err(|_| QuoteError::Malformed(at))?;
        if bytes.len() != at + 64 {
            return Err(QuoteError::Malformed(at + 64));
        }
        Ok(Quote {
            nonce,
            pcr,
            event_log_digest,
            slot,
            image_security_version,
            signature,
        })
    }
}

/// Quotes `boot` for a verifier's `nonce`, signed through the OTP's device
/// key.
pub fn quote(otp: &dyn Otp, boot: &BootOutcome, nonce: &[u8]) -> Result<Quote, QuoteError> {
    let booted = Booted {
        measurements: &boot.measurements,
        slot: boot.slot,
        image_security_version: boot.image.view().security_version(),
    };
    quote_booted(otp, &booted, nonce)
}

/// What a quote reports about a boot, when the [`BootOutcome`] itself is
/// no longer at hand (the running firmware keeps its measurements, not
/// the boot ROM's return value).
#[derive(Clone, Copy, Debug)]
pub struct Booted<'a> {
    pub measurements: &'a Measurements,
    pub slot: Slot,
    pub image_security_version: u32,
}

/// Quotes `booted` for a verifier's `nonce`, signed through the OTP's
/// device key ([`quote`] for a [`BootOutcome`]).
pub fn quote_booted(otp: &dyn Otp, booted: &Booted<'_>, nonce: &[u8]) -> Result<Quote, QuoteError> {
    if nonce.len() > MAX_NONCE_LEN {
        return Err(QuoteError::NonceTooLong);
    }
    let mut q = Quote {
        nonce: nonce.to_vec(),
        pcr: booted.measurements.pcr,
        event_log_digest: booted.measurements.log_digest(),
        slot: booted.slot,
        image_security_version: booted.image_security_version,
        signature: [0; 64],
    };
    q.signature = otp.device_sign(&q.digest());
    Ok(q)
}

/// Checks that `quote` is signed by `device_public_key`, answers `nonce`
/// and reports exactly the `expected` measurements (compute them from the
/// image with [`Measurements::of_image`]).
pub fn verify_quote(
    quote: &Quote,
    device_public_key: &[u8; 32],
    nonce: &[u8],
    expected: &Measurements,
) -> Result<(), QuoteError> {
    verify_quote_pcr(quote, device_public_key, nonce, &expected.pcr)?;
    if quote.event_log_digest != expected.log_digest() {
        return Err(QuoteError::EventLogMismatch);
    }
    Ok(())
}

/// Checks that `quote` is signed by `device_public_key`, answers `nonce`
/// and reports the PCR `expected_pcr` (for a verifier that knows the
/// expected chain value but not the image; the event log is not checked).
pub fn verify_quote_pcr(
    quote: &Quote,
    device_public_key: &[u8; 32],
    nonce: &[u8],
    expected_pcr: &[u8; 32],
) -> Result<(), QuoteError> {
    let key = VerifyingKey::from_bytes(device_public_key).map_err(|_| QuoteError::BadDeviceKey)?;
    key.verify_strict(&quote.digest(), &Signature::from_bytes(&quote.signature))
        .map_err(|_| QuoteError::BadSignature)?;
    if quote.nonce != nonce {
        return Err(QuoteError::NonceMismatch);
    }
    if &quote.pcr != expected_pcr {
        return Err(QuoteError::PcrMismatch);
    }
    Ok(())
}
