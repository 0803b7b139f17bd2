//! The firmware configuration: what the NIC's firmware needs besides its
//! pipeline (docs/firmware.md, "The configuration file").
//!
//! - the management address the control plane listens on;
//! - the tenants to install at boot (the data `janus ctrl tenant add`
//!   takes: id, VNI, VFs with MAC and IPv4, gateway, tunnels, remote
//!   prefixes);
//! - the control plane's certificates (server certificate and key, the CA
//!   that signs client certificates).
//!
//! A researcher writes it as TOML ([`FirmwareConfig::load`], certificates
//! named by path); `janus image build` validates it and embeds its
//! canonical form ([`FirmwareConfig::to_payload`]: compact JSON, fields in
//! a fixed order, tenants sorted by id and their lists by key, the
//! certificates' PEM text inline), so the same configuration always makes
//! the same bytes whatever the file's layout or comments.

mod types;
mod validate;

#[cfg(test)]
mod tests;

pub use types::{Certificates, Gateway, Mac, Prefix, Remote, Tenant, Tunnel, Vf};

use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// The configuration format this crate writes and reads.
pub const CONFIG_FORMAT_VERSION: u32 = 1;

/// Why a configuration file or payload was refused.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    Syntax { path: PathBuf, message: String },
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
    #[error("the image's firmware configuration is malformed: {0}")]
    Payload(String),
}

/// A validated firmware configuration, as embedded in an image.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirmwareConfig {
    /// [`CONFIG_FORMAT_VERSION`].
    pub format: u32,
    /// Where the control plane listens (IP and port).
    pub management: SocketAddr,
    /// The tenants installed at boot, sorted by id.
    pub tenants: Vec<Tenant>,
    /// The control plane's TLS material, PEM text.
    pub certificates: Certificates,
}

/// The TOML file as written: certificates by path.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    format: Option<u32>,
    management: ManagementFile,
    #[serde(default)]
    tenants: Vec<Tenant>,
    certificates: CertificateFiles,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ManagementFile {
    listen: SocketAddr,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CertificateFiles {
    server_cert: PathBuf,
    server_key: PathBuf,
    client_ca: PathBuf,
}

impl FirmwareConfig {
    /// Reads, validates and normalises the TOML file at `path`;
    /// certificate paths are relative to the file's folder.
    pub fn load(path: &Path) -> Result<FirmwareConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let file: ConfigFile = toml::from_str(&text).map_err(|e| ConfigError::Syntax {
            path: path.to_path_buf(),
            message: e.to_string().trim_end().to_string(),
        })?;
        let invalid = |message: String| ConfigError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        let format = file.format.unwrap_or(CONFIG_FORMAT_VERSION);
        if format != CONFIG_FORMAT_VERSION {
            return Err(invalid(format!(
                "`format = {format}`: this janus reads configuration format {CONFIG_FORMAT_VERSION}"
            )));
        }
        let base = path.parent().unwrap_or(Path::new("."));
        let certificates = Certificates::load(
            &base.join(&file.certificates.server_cert),
            &base.join(&file.certificates.server_key),
            &base.join(&file.certificates.client_ca),
        )
        .map_err(invalid)?;
        let mut config = FirmwareConfig {
            format,
            management: file.management.listen,
            tenants: file.tenants,
            certificates,
        };
        validate::check(&config).map_err(invalid)?;
        config.normalise();
        Ok(config)
    }

    /// Sorts tenants by id and each tenant's lists by their keys, so equal
    /// configurations serialise to equal bytes.
    fn normalise(&mut self) {
        self.tenants.sort_by_key(|t| t.id);
        for t in &mut self.tenants {
            t.vfs.sort_by_key(|v| v.port);
            t.tunnels.sort_by_key(|x| x.id);
            t.remotes.sort_by_key(|r| (r.prefix.addr, r.prefix.len));
        }
    }

    /// The canonical bytes embedded in an image (compact JSON).
    pub fn to_payload(&self) -> Vec<u8> {
        // Serialising plain structs of strings and numbers cannot fail.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Reads a configuration back from an image's payload, checking it as
    /// [`FirmwareConfig::load`] does.
    pub fn from_payload(bytes: &[u8]) -> Result<FirmwareConfig, ConfigError> {
        let config: FirmwareConfig =
            serde_json::from_slice(bytes).map_err(|e| ConfigError::Payload(e.to_string()))?;
        if config.format != CONFIG_FORMAT_VERSION {
            return Err(ConfigError::Payload(format!(
                "format {} (this janus reads {CONFIG_FORMAT_VERSION})",
                config.format
            )));
        }
        validate::check(&config).map_err(ConfigError::Payload)?;
        config.certificates.check().map_err(ConfigError::Payload)?;
        Ok(config)
    }
}
