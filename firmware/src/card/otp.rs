//! The simulated card's one-time-programmable area and secure element, as
//! files in the card's `otp/` folder:
//!
//! - `root.pub`: the root public key (SPKI PEM), written at creation and
//!   never changed; absent on a card that is not provisioned;
//! - `security-version`: the anti-rollback counter in decimal; raised by
//!   replacing the file atomically (write, sync, rename, sync the folder),
//!   never lowered;
//! - `device.key`: the device's attestation key (PKCS#8 PEM, mode 0600),
//!   generated at creation. On hardware it never leaves the secure element;
//!   here the file stands in for it, so anyone who can read the card's
//!   folder can forge the card's quotes;
//! - `device.pub`: a copy of the device's public key for verifiers (never
//!   read back by the card).

use crate::keys::{self, KeyError};
use ed25519_dalek::{Signer, SigningKey};
use janus_firmware_core::flash::{FlashError, Otp};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The OTP folder's files.
pub(crate) const ROOT_KEY: &str = "root.pub";
pub(crate) const SECURITY_VERSION: &str = "security-version";
pub(crate) const DEVICE_KEY: &str = "device.key";
pub(crate) const DEVICE_PUB: &str = "device.pub";

/// Why the OTP area could not be read or created.
#[derive(Debug, thiserror::Error)]
pub enum OtpError {
    #[error(transparent)]
    Key(#[from] KeyError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: the anti-rollback counter is not a number: {text:?}", path.display())]
    BadCounter { path: PathBuf, text: String },
}

/// The simulated card's OTP area and device key.
pub struct FileOtp {
    dir: PathBuf,
    root: Option<[u8; 32]>,
    security_version: u32,
    device: SigningKey,
}

impl std::fmt::Debug for FileOtp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileOtp")
            .field("dir", &self.dir)
            .field("root", &self.root)
            .field("security_version", &self.security_version)
            .finish_non_exhaustive()
    }
}

impl FileOtp {
    /// Provisions a new OTP folder `dir` (which must not exist): the root
    /// key if given, the counter at 0, a fresh device key.
    pub(crate) fn create(
        dir: &Path,
        root: Option<&ed25519_dalek::VerifyingKey>,
    ) -> Result<Self, OtpError> {
        std::fs::create_dir(dir).map_err(|source| OtpError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        if let Some(root) = root {
            keys::write_public_key(&dir.join(ROOT_KEY), root)?;
        }
        let device = keys::generate()?;
        keys::write_private_key(&dir.join(DEVICE_KEY), &device)?;
        keys::write_public_key(&dir.join(DEVICE_PUB), &device.verifying_key())?;
        write_counter(dir, 0)?;
        Ok(FileOtp {
            dir: dir.to_path_buf(),
            root: root.map(|k| k.to_bytes()),
            security_version: 0,
            device,
        })
    }

    /// Reads an OTP folder.
    pub(crate) fn open(dir: &Path) -> Result<Self, OtpError> {
        let root_path = dir.join(ROOT_KEY);
        let root = if root_path.exists() {
            Some(keys::load_verifying_key(&root_path)?.to_bytes())
        } else {
            None
        };
        let counter_path = dir.join(SECURITY_VERSION);
        let text = std::fs::read_to_string(&counter_path).map_err(|source| OtpError::Io {
            path: counter_path.clone(),
            source,
        })?;
        let security_version = text.trim().parse().map_err(|_| OtpError::BadCounter {
            path: counter_path,
            text: text.clone(),
        })?;
        let device = keys::load_signing_key(&dir.join(DEVICE_KEY))?;
        Ok(FileOtp {
            dir: dir.to_path_buf(),
            root,
            security_version,
            device,
        })
    }
}

/// Replaces the counter file atomically: a crash leaves the old value or
/// the new one.
fn write_counter(dir: &Path, version: u32) -> Result<(), OtpError> {
    let path = dir.join(SECURITY_VERSION);
    let tmp = dir.join(format!("{SECURITY_VERSION}.new"));
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| OtpError::Io { path, source }
    };
    let mut file = File::create(&tmp).map_err(io(&tmp))?;
    writeln!(file, "{version}").map_err(io(&tmp))?;
    file.sync_all().map_err(io(&tmp))?;
    std::fs::rename(&tmp, &path).map_err(io(&path))?;
    File::open(dir).and_then(|d| d.sync_all()).map_err(io(dir))
}

impl Otp for FileOtp {
    fn root_public_key(&self) -> Option<[u8; 32]> {
        self.root
    }

    fn security_version(&self) -> u32 {
        self.security_version
    }

    fn raise_security_version(&mut self, version: u32) -> Result<(), FlashError> {
        if version <= self.security_version {
            return Ok(());
        }
        write_counter(&self.dir, version).map_err(|e| {
            tracing::warn!("raising the anti-rollback counter failed: {e}");
            FlashError::Io
        })?;
        tracing::info!(
            from = self.security_version,
            to = version,
            "anti-rollback counter raised"
        );
        self.security_version = version;
        Ok(())
    }

    fn device_public_key(&self) -> [u8; 32] {
        self.device.verifying_key().to_bytes()
    }

    fn device_sign(&self, message: &[u8]) -> [u8; 64] {
        self.device.sign(message).to_bytes()
    }
}
