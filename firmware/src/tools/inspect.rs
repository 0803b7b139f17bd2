//! `janus image inspect` and `janus image verify`: what an image holds,
//! and whether a given key, model and counter accept it.
//!
//! The JSON form ([`Inspection`], schema `janus-image-inspect/1`) is
//! documented in docs/firmware.md, "Images and tools".

use super::{ToolError, device_model, hex, key_fingerprint, utc_time};
use crate::config::FirmwareConfig;
use janus_firmware_core::image::{DeviceModel, Image, ImageView, verify};
use janus_firmware_core::measure::{EventKind, Measurements};
use janus_p4::pipeline::Pipeline;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fmt::Write;
use std::path::Path;

/// The schema name of [`Inspection`]'s JSON.
pub const INSPECT_SCHEMA: &str = "janus-image-inspect/1";

/// Everything an image says about itself (nothing here is trusted until
/// `verify` checks it against a key).
#[derive(Clone, Debug, Serialize)]
pub struct Inspection {
    pub schema: &'static str,
    pub format_version: u16,
    pub size: usize,
    pub security_version: u32,
    pub model: ModelInfo,
    pub signer: SignerInfo,
    pub components: Vec<ComponentInfo>,
    pub provenance: ProvenanceInfo,
    pub measurement: MeasurementInfo,
    /// The pipeline's program name, when the payload is a pipeline file.
    pub pipeline: Option<String>,
    /// A summary of the configuration, when the payload parses.
    pub config: Option<ConfigInfo>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ModelInfo {
    pub id: u32,
    pub name: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SignerInfo {
    /// The signer key in the header (hex).
    pub public_key: String,
    /// SHA-256 of its SPKI DER encoding (hex).
    pub fingerprint: String,
    /// The signature (hex).
    pub signature: String,
    /// Whether the signature verifies under the header's own signer key:
    /// the image is intact, not that the key is trusted.
    pub signature_valid_for_signer: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ComponentInfo {
    pub index: usize,
    /// `pipeline`, `firmware-config` or `host-abi`.
    #[serde(rename = "type")]
    pub ty: &'static str,
    pub code: u16,
    pub version: u32,
    pub offset: usize,
    pub size: usize,
    /// The SHA-256 in the manifest (hex).
    pub sha256: String,
    /// Whether the payload hashes to it.
    pub sha256_matches: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ProvenanceInfo {
    pub build_time: u64,
    pub build_time_utc: String,
    pub tool_version: String,
    pub sources: Vec<SourceInfo>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SourceInfo {
    pub name: String,
    pub sha256: String,
}

/// What the boot ROM will measure when it boots this image.
#[derive(Clone, Debug, Serialize)]
pub struct MeasurementInfo {
    pub pcr: String,
    pub event_log_digest: String,
    pub events: Vec<EventInfo>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EventInfo {
    /// `manifest` or the component type's name.
    pub kind: &'static str,
    pub version: u32,
    pub digest: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ConfigInfo {
    pub management: String,
    pub tenants: Vec<u32>,
}

impl Inspection {
    /// Describes the image `bytes` (read from `path`, for messages).
    pub fn of(path: &Path, bytes: &[u8]) -> Result<Inspection, ToolError> {
        let view = parse(path, bytes)?;
        Ok(Inspection::of_view(&view))
    }

    fn of_view(view: &ImageView<'_>) -> Inspection {
        let signer = view.signer_key();
        let own_model = DeviceModel {
            id: view.model_id(),
            name: view.model_name(),
        };
        let provenance = view.provenance();
        let measurements = Measurements::of_image(view);
        Inspection {
            schema: INSPECT_SCHEMA,
            format_version: view.format_version(),
            size: view.total_len(),
            security_version: view.security_version(),
            model: ModelInfo {
                id: view.model_id(),
                name: view.model_name().to_string(),
            },
            signer: SignerInfo {
                public_key: hex(&signer),
                fingerprint: key_fingerprint(&signer),
                signature: hex(&view.signature()),
                signature_valid_for_signer: verify(view, &signer, own_model, 0).is_ok(),
            },
            components: view
                .components()
                .map(|c| ComponentInfo {
                    index: c.index,
                    ty: c.ty.name(),
                    code: c.ty.code(),
                    version: c.version,
                    offset: c.offset,
                    size: c.payload.len(),
                    sha256: hex(&c.sha256),
                    sha256_matches: Sha256::digest(c.payload).as_slice() == c.sha256,
                })
                .collect(),
            provenance: ProvenanceInfo {
                build_time: provenance.build_time,
                build_time_utc: utc_time(provenance.build_time),
                tool_version: provenance.tool_version.to_string(),
                sources: provenance
                    .sources()
                    .map(|s| SourceInfo {
                        name: s.name.to_string(),
                        sha256: hex(&s.sha256),
                    })
                    .collect(),
            },
            measurement: MeasurementInfo {
                pcr: hex(&measurements.pcr),
                event_log_digest: hex(&measurements.log_digest()),
                events: measurements
                    .events
                    .iter()
                    .map(|e| EventInfo {
                        kind: event_name(e.kind),
                        version: e.version,
                        digest: hex(&e.digest),
                    })
                    .collect(),
            },
            pipeline: view
                .component(janus_firmware_core::image::ComponentType::Pipeline)
                .and_then(|c| Pipeline::from_bytes(c.payload).ok())
                .map(|p| p.name),
            config: view
                .component(janus_firmware_core::image::ComponentType::FirmwareConfig)
                .and_then(|c| FirmwareConfig::from_payload(c.payload).ok())
                .map(|c| ConfigInfo {
                    management: c.management.to_string(),
                    tenants: c.tenants.iter().map(|t| t.id).collect(),
                }),
        }
    }

    /// The JSON form (pretty-printed).
    pub fn to_json(&self) -> String {
        // Plain strings and numbers: serialisation cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The human-readable form.
    pub fn to_text(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "format version    {}", self.format_version);
        let _ = writeln!(o, "size              {} bytes", self.size);
        let _ = writeln!(
            o,
            "device model      {} (id {:#010x})",
            self.model.name, self.model.id
        );
        let _ = writeln!(o, "security version  {}", self.security_version);
        let _ = writeln!(o, "signer key        {}", self.signer.public_key);
        let _ = writeln!(o, "  fingerprint     sha256:{}", self.signer.fingerprint);
        let _ = writeln!(
            o,
            "  signature       {}",
            if self.signer.signature_valid_for_signer {
                "valid for this key (run `janus image verify --pubkey` to check the key)"
            } else {
                "INVALID for this key"
            }
        );
        let _ = writeln!(o, "components");
        for c in &self.components {
            let _ = writeln!(
                o,
                "  {} {:<16} version {:<4} {:>9} bytes at {:<8} sha256 {}{}",
                c.index,
                c.ty,
                c.version,
                c.size,
                c.offset,
                c.sha256,
                if c.sha256_matches { "" } else { " MISMATCH" }
            );
        }
        if let Some(name) = &self.pipeline {
            let _ = writeln!(o, "pipeline          {name}");
        }
        if let Some(c) = &self.config {
            let _ = writeln!(
                o,
                "configuration     management {}, tenants {:?}",
                c.management, c.tenants
            );
        }
        let p = &self.provenance;
        let _ = writeln!(o, "provenance");
        let _ = writeln!(
            o,
            "  built           {} ({})",
            p.build_time_utc, p.build_time
        );
        let _ = writeln!(o, "  tool            {}", p.tool_version);
        for s in &p.sources {
            let _ = writeln!(o, "  source          {} sha256 {}", s.name, s.sha256);
        }
        let _ = writeln!(o, "expected PCR      {}", self.measurement.pcr);
        o
    }
}

/// `manifest` or the component type's name.
pub fn event_name(kind: EventKind) -> &'static str {
    match kind {
        EventKind::Manifest => "manifest",
        EventKind::Component(ty) => ty.name(),
    }
}

/// Parses an image, naming the file in the error.
pub(crate) fn parse<'a>(path: &Path, bytes: &'a [u8]) -> Result<ImageView<'a>, ToolError> {
    Image::parse(bytes).map_err(|source| ToolError::Format {
        path: path.to_path_buf(),
        source,
    })
}

/// What `verify` checks the image against.
#[derive(Clone, Debug, Default)]
pub struct VerifyPolicy {
    /// The device model; `None` accepts the image's own.
    pub model: Option<String>,
    /// The lowest acceptable security version.
    pub min_security_version: u32,
}

/// What a verified image is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub model: String,
    pub security_version: u32,
    pub signer_fingerprint: String,
}

/// Verifies the image `bytes` against `public_key`, as a card whose root
/// key, model and counter are those would.
pub fn verify_image(
    path: &Path,
    bytes: &[u8],
    public_key: &[u8; 32],
    policy: &VerifyPolicy,
) -> Result<Verified, ToolError> {
    let view = parse(path, bytes)?;
    let model = match &policy.model {
        Some(name) => device_model(name)?,
        None => DeviceModel {
            id: view.model_id(),
            name: view.model_name(),
        },
    };
    verify(&view, public_key, model, policy.min_security_version)?;
    Ok(Verified {
        model: view.model_name().to_string(),
        security_version: view.security_version(),
        signer_fingerprint: key_fingerprint(public_key),
    })
}
