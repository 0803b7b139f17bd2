//! Building and signing images.

use alloc::vec::Vec;

use ed25519_dalek::{Signer, SigningKey};
use sha2::{Digest, Sha256};

use super::format::*;
use super::{ComponentType, DeviceModel};

/// What signs an image: an ed25519-dalek [`SigningKey`], or any other
/// holder of the key (an HSM, a remote signer).
pub trait ImageSigner {
    /// The Ed25519 public key, written into the header.
    fn public_key(&self) -> [u8; 32];
    /// The Ed25519 signature of `message`.
    fn sign(&self, message: &[u8]) -> [u8; 64];
}

impl ImageSigner for SigningKey {
    fn public_key(&self) -> [u8; 32] {
        self.verifying_key().to_bytes()
    }

    fn sign(&self, message: &[u8]) -> [u8; 64] {
        Signer::sign(self, message).to_bytes()
    }
}

/// The build provenance to record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProvenanceSpec<'a> {
    /// Seconds since the Unix epoch (UTC).
    pub build_time: u64,
    pub tool_version: &'a str,
    /// Source files: a name and the SHA-256 of the file.
    pub sources: Vec<(&'a str, [u8; 32])>,
}

/// Why an image could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("the device model name must be 1 to 32 bytes without NUL")]
    ModelName,
    #[error("an image needs at least one component")]
    NoComponents,
    #[error("component type {0} given twice")]
    DuplicateComponent(ComponentType),
    #[error("the {0} text is longer than 65535 bytes")]
    TextTooLong(&'static str),
    #[error("more than 65535 source hashes")]
    TooManySources,
    #[error("the image would exceed 4 GiB")]
    TooLarge,
}

/// Collects the parts of an image and produces its signed bytes.
#[derive(Clone, Debug)]
pub struct ImageBuilder<'a> {
    model: DeviceModel<'a>,
    security_version: u32,
    components: Vec<(ComponentType, u32, &'a [u8])>,
    provenance: ProvenanceSpec<'a>,
}

fn len_u16(len: usize, what: &'static str) -> Result<u16, BuildError> {
    u16::try_from(len).map_err(|_| BuildError::TextTooLong(what))
}

impl<'a> ImageBuilder<'a> {
    /// An image for `model` with anti-rollback version `security_version`.
    pub fn new(model: DeviceModel<'a>, security_version: u32) -> Self {
        ImageBuilder {
            model,
            security_version,
            components: Vec::new(),
            provenance: ProvenanceSpec::default(),
        }
    }

    /// Adds a component (manifest order is the order of the calls).
    pub fn component(mut self, ty: ComponentType, version: u32, payload: &'a [u8]) -> Self {
        self.components.push((ty, version, payload));
        self
    }

    /// Sets the provenance section.
    pub fn provenance(mut self, provenance: ProvenanceSpec<'a>) -> Self {
        self.provenance = provenance;
        self
    }

    fn encode_provenance(&self) -> Result<Vec<u8>, BuildError> {
        let p = &self.provenance;
        let mut out = Vec::new();
        out.extend_from_slice(&p.build_time.to_le_bytes());
        out.extend_from_slice(&len_u16(p.tool_version.len(), "tool version")?.to_le_bytes());
        out.extend_from_slice(
            &u16::try_from(p.sources.len())
                .map_err(|_| BuildError::TooManySources)?
                .to_le_bytes(),
        );
        out.extend_from_slice(p.tool_version.as_bytes());
        for (name, sha) in &p.sources {
            out.extend_from_slice(&len_u16(name.len(), "source name")?.to_le_bytes());
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(sha);
        }
        Ok(out)
    }

    /// Lays the image out and signs it.
    pub fn build(&self, signer: &dyn ImageSigner) -> Result<Vec<u8>, BuildError> {
        let name = self.model.name.as_bytes();
        if name.is_empty() || name.len() > MODEL_NAME_LEN || name.contains(&0) {
            return Err(BuildError::ModelName);
        }
        if self.components.is_empty() {
            return Err(BuildError::NoComponents);
        }
        for (i, (ty, _, _)) in self.components.iter().enumerate() {
            if self.components[..i].iter().any(|(t, _, _)| t == ty) {
                return Err(BuildError::DuplicateComponent(*ty));
            }
        }
        let provenance = self.encode_provenance()?;
        let payload_start = HEADER_LEN + self.components.len() * ENTRY_LEN + provenance.len();
        let payload_len: usize = self.components.iter().map(|(_, _, p)| p.len()).sum();
        let total = payload_start + payload_len + SIGNATURE_LEN;
        let total_u32 = u32::try_from(total).map_err(|_| BuildError::TooLarge)?;

        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.components.len() as u16).to_le_bytes());
        out.extend_from_slice(&total_u32.to_le_bytes());
        out.extend_from_slice(&self.security_version.to_le_bytes());
        out.extend_from_slice(&self.model.id.to_le_bytes());
        let mut name_field = [0u8; MODEL_NAME_LEN];
        name_field[..name.len()].copy_from_slice(name);
        out.extend_from_slice(&name_field);
        out.extend_from_slice(&(provenance.len() as u32).to_le_bytes());
        out.extend_from_slice(&signer.public_key());
        out.extend_from_slice(&[0u8; HEADER_LEN - H_RESERVED]);
        debug_assert_eq!(out.len(), HEADER_LEN);

        let mut offset = payload_start;
        for (ty, version, payload) in &self.components {
            out.extend_from_slice(&ty.code().to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
            out.extend_from_slice(&version.to_le_bytes());
            out.extend_from_slice(&(offset as u32).to_le_bytes());
            out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
            out.extend_from_slice(&Sha256::digest(payload));
            offset += payload.len();
        }
        out.extend_from_slice(&provenance);
        for (_, _, payload) in &self.components {
            out.extend_from_slice(payload);
        }
        let signature = signer.sign(&out);
        out.extend_from_slice(&signature);
        Ok(out)
    }
}
