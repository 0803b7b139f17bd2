//! `janus image build`: compile the P4 program to a pipeline file, load
//! the configuration, record the provenance and sign.

use super::{HOST_ABI_VERSION, PIPELINE_COMPONENT_VERSION, ToolError, device_model, read_file};
use crate::config::{CONFIG_FORMAT_VERSION, FirmwareConfig};
use crate::keys;
use janus_firmware_core::image::{ComponentType, ImageBuilder, ProvenanceSpec};
use janus_p4::driver::{Options, compile_file};
use janus_p4::pipeline::Pipeline;
use janus_p4::source::FileId;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildSpec {
    /// The P4 program.
    pub p4: PathBuf,
    /// `-I` include folders.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]` macro definitions.
    pub defines: Vec<(String, Option<String>)>,
    /// The configuration file (TOML, see [`crate::config`]).
    pub config: PathBuf,
    /// The signing key (PKCS#8 PEM).
    pub key: PathBuf,
    /// The device model the image is for.
    pub model: String,
    /// The anti-rollback version.
    pub security_version: u32,
    /// Seconds since the Unix epoch ([`build_time`]).
    pub build_time: u64,
}

/// A built image.
#[derive(Clone, Debug)]
pub struct Built {
    /// The signed image.
    pub bytes: Vec<u8>,
    /// The P4 program's warnings, rendered (empty when clean).
    pub warnings: String,
}

/// The build time to record: `SOURCE_DATE_EPOCH` when set (reproducible
/// builds, reproducible-builds.org), else now.
pub fn build_time() -> Result<u64, ToolError> {
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(text) => text.trim().parse().map_err(|_| {
            ToolError::Usage(format!(
                "SOURCE_DATE_EPOCH={text:?} is not a number of seconds since 1970"
            ))
        }),
        Err(_) => Ok(std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())),
    }
}

/// The tool version recorded in images.
pub fn tool_version() -> String {
    format!("janus {}", env!("CARGO_PKG_VERSION"))
}

/// Builds and signs the image `spec` describes.
pub fn build_image(spec: &BuildSpec) -> Result<Built, ToolError> {
    let model = device_model(&spec.model)?;
    let key = keys::load_signing_key(&spec.key)?;
    let config = FirmwareConfig::load(&spec.config)?;
    let options = Options {
        include_dirs: spec.include_dirs.clone(),
        defines: spec.defines.clone(),
        ..Options::default()
    };
    let compilation = compile_file(&spec.p4, &options).map_err(|source| ToolError::Io {
        path: spec.p4.clone(),
        source,
    })?;
    if compilation.has_errors() {
        return Err(ToolError::P4 {
            path: spec.p4.clone(),
            diagnostics: compilation.render(false),
        });
    }
    let warnings = if compilation.diagnostics.warning_count() > 0 {
        compilation.render(false)
    } else {
        String::new()
    };
    let pipeline = Pipeline::from_compilation(&compilation).to_bytes();

    // Provenance: every P4 file read from disk, then the configuration.
    let mut sources: Vec<(String, [u8; 32])> = Vec::new();
    for i in 0..compilation.sources.len() {
        let file = compilation.sources.file(FileId(i as u32));
        if let Some(path) = &file.path {
            sources.push((file.name.clone(), sha256_file(path)?));
        }
    }
    sources.push((
        spec.config.display().to_string(),
        sha256_file(&spec.config)?,
    ));
    let tool = tool_version();
    let provenance = ProvenanceSpec {
        build_time: spec.build_time,
        tool_version: &tool,
        sources: sources.iter().map(|(n, h)| (n.as_str(), *h)).collect(),
    };

    let config_payload = config.to_payload();
    let abi = HOST_ABI_VERSION.to_le_bytes();
    let bytes = ImageBuilder::new(model, spec.security_version)
        .component(
            ComponentType::Pipeline,
            PIPELINE_COMPONENT_VERSION,
            &pipeline,
        )
        .component(
            ComponentType::FirmwareConfig,
            CONFIG_FORMAT_VERSION,
            &config_payload,
        )
        .component(ComponentType::HostAbi, HOST_ABI_VERSION, &abi)
        .provenance(provenance)
        .build(&key)?;
    tracing::info!(
        p4 = %spec.p4.display(),
        bytes = bytes.len(),
        security_version = spec.security_version,
        "image built"
    );
    Ok(Built { bytes, warnings })
}

fn sha256_file(path: &Path) -> Result<[u8; 32], ToolError> {
    Ok(Sha256::digest(read_file(path)?).into())
}
