//! Verifying a parsed image against the card: its root key, its device
//! model and its anti-rollback counter.

use alloc::string::{String, ToString};

use ed25519_dalek::{Signature, VerifyingKey};
use sha2::{Digest, Sha256};

use super::{ComponentType, DeviceModel, ImageError, ImageView};

/// Why an image is refused. Each refusal has its own variant so that tools
/// can print a precise message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error(transparent)]
    Format(#[from] ImageError),
    #[error("the root public key is not a valid Ed25519 key")]
    BadRootKey,
    #[error("the image is signed by another key ({}…), not this card's root key", hex8(.signer))]
    SignedByOtherKey { signer: [u8; 32] },
    #[error("the image's signature is wrong (the image was altered after signing)")]
    BadSignature,
    #[error("component {index} ({ty}) does not match its SHA-256 in the manifest")]
    ComponentHash { index: usize, ty: ComponentType },
    #[error(
        "the image is for device model {found_name} (id {found_id:#010x}), this card is {expected_name} (id {expected_id:#010x})"
    )]
    WrongModel {
        expected_id: u32,
        expected_name: String,
        found_id: u32,
        found_name: String,
    },
    #[error(
        "downgrade refused: image security version {image} is below the card's anti-rollback counter {counter}"
    )]
    Downgrade { image: u32, counter: u32 },
}

fn hex8(bytes: &[u8; 32]) -> String {
    use core::fmt::Write;
    let mut out = String::new();
    for b in &bytes[..8] {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Checks, in this order: that the image names `root_public_key` as its
/// signer, that every component matches its manifest hash, the signature
/// over everything before it, the device model, and that the security
/// version is at least `min_security_version`.
pub fn verify(
    view: &ImageView<'_>,
    root_public_key: &[u8; 32],
    expected_model: DeviceModel<'_>,
    min_security_version: u32,
) -> Result<(), VerifyError> {
    let key = VerifyingKey::from_bytes(root_public_key).map_err(|_| VerifyError::BadRootKey)?;
    let signer = view.signer_key();
    if &signer != root_public_key {
        return Err(VerifyError::SignedByOtherKey { signer });
    }
    for c in view.components() {
        if Sha256::digest(c.payload).as_slice() != c.sha256 {
            return Err(VerifyError::ComponentHash {
                index: c.index,
                ty: c.ty,
            });
        }
    }
    let signature = Signature::from_bytes(&view.signature());
    key.verify_strict(view.signed_bytes(), &signature)
        .map_err(|_| VerifyError::BadSignature)?;
    if view.model_id() != expected_model.id || view.model_name() != expected_model.name {
        return Err(VerifyError::WrongModel {
            expected_id: expected_model.id,
            expected_name: expected_model.name.to_string(),
            found_id: view.model_id(),
            found_name: view.model_name().to_string(),
        });
    }
    if view.security_version() < min_security_version {
        return Err(VerifyError::Downgrade {
            image: view.security_version(),
            counter: min_security_version,
        });
    }
    Ok(())
}
