//! Ed25519 keys in standard encodings: a private key as PKCS#8 PEM
//! (`-----BEGIN PRIVATE KEY-----`, RFC 8410), a public key as SPKI PEM
//! (`-----BEGIN PUBLIC KEY-----`), the formats OpenSSL reads and writes
//! (`openssl pkey -in KEY -pubout`).
//!
//! Image signing keys (`janus keys generate`) and the simulated card's
//! device key are both stored this way.

use ed25519_dalek::pkcs8::spki::der::pem::{self, LineEnding};
use ed25519_dalek::pkcs8::spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};
use ed25519_dalek::pkcs8::{EncodePrivateKey, EncodePublicKey, KeypairBytes, PrivateKeyInfo};
use ed25519_dalek::{SecretKey, SigningKey, VerifyingKey};
use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// The OID of Ed25519 in a key's AlgorithmIdentifier (RFC 8410).
const ED25519_OID: &str = "1.3.101.112";

/// Why a key could not be generated, stored or loaded.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} already exists (refusing to overwrite a key)", path.display())]
    Exists { path: PathBuf },
    #[error("the operating system's random source failed: {0}")]
    Random(getrandom::Error),
    #[error("{} is not a PEM file ({reason})", path.display())]
    NotPem { path: PathBuf, reason: String },
    #[error(
        "{} holds a public key (PEM label `PUBLIC KEY`) where a private key is expected",
        path.display()
    )]
    PublicWherePrivateExpected { path: PathBuf },
    #[error(
        "{} holds a private key where a public key is expected (give the .pub file)",
        path.display()
    )]
    PrivateWherePublicExpected { path: PathBuf },
    #[error(
        "{} is an encrypted private key; Janus reads unencrypted PKCS#8 only (decrypt it with `openssl pkey -in {} -out PLAIN.key`)",
        path.display(),
        path.display()
    )]
    Encrypted { path: PathBuf },
    #[error("{} holds a PEM block labelled `{label}`, expected `{expected}`", path.display())]
    UnexpectedLabel {
        path: PathBuf,
        label: String,
        expected: &'static str,
    },
    #[error("{} is not an Ed25519 key (algorithm {algorithm}; Janus signs with Ed25519, OID {ED25519_OID})", path.display())]
    WrongKeyType { path: PathBuf, algorithm: String },
    #[error("{} is a malformed key: {reason}", path.display())]
    Malformed { path: PathBuf, reason: String },
}

/// Where `write_key_pair` stored a key pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyPairFiles {
    /// The private key, PKCS#8 PEM, mode 0600.
    pub private: PathBuf,
    /// The public key, SPKI PEM.
    pub public: PathBuf,
}

/// A new Ed25519 signing key from the operating system's random source.
pub fn generate() -> Result<SigningKey, KeyError> {
    let mut secret = SecretKey::default();
    getrandom::fill(&mut secret).map_err(KeyError::Random)?;
    let key = SigningKey::from_bytes(&secret);
    secret.fill(0);
    Ok(key)
}

/// Writes `key` as `DIR/NAME.key` (PKCS#8 PEM, mode 0600) and its public
/// half as `DIR/NAME.pub` (SPKI PEM). Existing files are never overwritten.
pub fn write_key_pair(dir: &Path, name: &str, key: &SigningKey) -> Result<KeyPairFiles, KeyError> {
    let files = KeyPairFiles {
        private: dir.join(format!("{name}.key")),
        public: dir.join(format!("{name}.pub")),
    };
    for path in [&files.private, &files.public] {
        if path.exists() {
            return Err(KeyError::Exists { path: path.clone() });
        }
    }
    write_private_key(&files.private, key)?;
    write_public_key(&files.public, &key.verifying_key())?;
    Ok(files)
}

/// Writes a private key as PKCS#8 PEM with mode 0600; fails if `path`
/// exists.
pub fn write_private_key(path: &Path, key: &SigningKey) -> Result<(), KeyError> {
    // PKCS#8 v1 (the private key alone), as RFC 8410's example and OpenSSL
    // write it: OpenSSL 3.0 refuses the v2 form that embeds the public key.
    let pair = KeypairBytes {
        secret_key: key.to_bytes(),
        public_key: None,
    };
    let pem = pair
        .to_pkcs8_pem(LineEnding::LF)
        .map_err(|e| malformed(path, e))?;
    write_new(path, pem.as_bytes(), 0o600)
}

/// Writes a public key as SPKI PEM (mode 0644); fails if `path` exists.
pub fn write_public_key(path: &Path, key: &VerifyingKey) -> Result<(), KeyError> {
    let pem = key
        .to_public_key_pem(LineEnding::LF)
        .map_err(|e| malformed(path, e))?;
    write_new(path, pem.as_bytes(), 0o644)
}

/// Creates `path` (never replacing a file) with `mode`, writes `bytes` and
/// syncs them.
fn write_new(path: &Path, bytes: &[u8], mode: u32) -> Result<(), KeyError> {
    let io = |source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(path)
        .map_err(|source| match source.kind() {
            std::io::ErrorKind::AlreadyExists => KeyError::Exists {
                path: path.to_path_buf(),
            },
            _ => io(source),
        })?;
    file.write_all(bytes).map_err(io)?;
    file.sync_all().map_err(io)
}

/// Loads an Ed25519 private key from a PKCS#8 PEM file.
pub fn load_signing_key(path: &Path) -> Result<SigningKey, KeyError> {
    let (label, der) = read_pem(path)?;
    match label.as_str() {
        "PRIVATE KEY" => {}
        "PUBLIC KEY" => {
            return Err(KeyError::PublicWherePrivateExpected {
                path: path.to_path_buf(),
            });
        }
        "ENCRYPTED PRIVATE KEY" => {
            return Err(KeyError::Encrypted {
                path: path.to_path_buf(),
            });
        }
        _ => return Err(label_error(path, label, "PRIVATE KEY")),
    }
    let info = PrivateKeyInfo::try_from(der.as_slice()).map_err(|e| malformed(path, e))?;
    check_algorithm(path, &info.algorithm)?;
    SigningKey::try_from(info).map_err(|e| malformed(path, e))
}

/// Loads an Ed25519 public key from an SPKI PEM file.
pub fn load_verifying_key(path: &Path) -> Result<VerifyingKey, KeyError> {
    let (label, der) = read_pem(path)?;
    match label.as_str() {
        "PUBLIC KEY" => {}
        "PRIVATE KEY" | "ENCRYPTED PRIVATE KEY" => {
            return Err(KeyError::PrivateWherePublicExpected {
                path: path.to_path_buf(),
            });
        }
        _ => return Err(label_error(path, label, "PUBLIC KEY")),
    }
    let info = SubjectPublicKeyInfoRef::try_from(der.as_slice()).map_err(|e| malformed(path, e))?;
    check_algorithm(path, &info.algorithm)?;
    VerifyingKey::try_from(info).map_err(|e| malformed(path, e))
}

/// Reads `path` as one PEM block: its label and DER contents.
fn read_pem(path: &Path) -> Result<(String, Vec<u8>), KeyError> {
    let bytes = std::fs::read(path).map_err(|source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let (label, der) = pem::decode_vec(&bytes).map_err(|e| KeyError::NotPem {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    Ok((label.to_string(), der))
}

/// A wrong-label error, naming the key type when the label tells it (an
/// OpenSSL "traditional" RSA or EC key).
fn label_error(path: &Path, label: String, expected: &'static str) -> KeyError {
    match label.as_str() {
        "RSA PRIVATE KEY" | "RSA PUBLIC KEY" => KeyError::WrongKeyType {
            path: path.to_path_buf(),
            algorithm: "RSA".to_string(),
        },
        "EC PRIVATE KEY" => KeyError::WrongKeyType {
            path: path.to_path_buf(),
            algorithm: "EC".to_string(),
        },
        _ => KeyError::UnexpectedLabel {
            path: path.to_path_buf(),
            label,
            expected,
        },
    }
}

/// Refuses a key whose algorithm is not Ed25519.
fn check_algorithm(path: &Path, algorithm: &AlgorithmIdentifierRef<'_>) -> Result<(), KeyError> {
    let oid = algorithm.oid.to_string();
    if oid == ED25519_OID {
        return Ok(());
    }
    Err(KeyError::WrongKeyType {
        path: path.to_path_buf(),
        algorithm: known_algorithm(&oid).map_or(oid.clone(), |name| format!("{name} ({oid})")),
    })
}

/// Names of the algorithms a wrong key is most likely to be.
fn known_algorithm(oid: &str) -> Option<&'static str> {
    Some(match oid {
        "1.2.840.113549.1.1.1" => "RSA",
        "1.2.840.10045.2.1" => "EC",
        "1.3.101.113" => "Ed448",
        "1.3.101.110" => "X25519",
        _ => return None,
    })
}

fn malformed(path: &Path, e: impl std::fmt::Display) -> KeyError {
    KeyError::Malformed {
        path: path.to_path_buf(),
        reason: e.to_string(),
    }
}

#[cfg(test)]
mod tests;
