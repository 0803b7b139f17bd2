//! The simulated card: a directory that behaves like a NIC's boot flash and
//! secure element (`janus nic create DIR`).
//!
//! ```text
//! DIR/card.toml   format version, device model, flash geometry (written last:
//!                 a folder without it is not a card)
//! DIR/flash.bin   the NOR flash, sector_count * sector_size bytes, 0xFF when new
//! DIR/otp/        root public key, anti-rollback counter, device key (see otp.rs)
//! ```

mod file_flash;
mod otp;
mod size;

pub use file_flash::{Durability, FileFlash};
pub use otp::{FileOtp, OtpError};
pub use size::parse_size;

use ed25519_dalek::VerifyingKey;
/// The flash geometry type, re-exported for the command line.
pub use janus_firmware_core::flash::Geometry;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The card folder format this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// The device model of a card created without `--model`.
pub const DEFAULT_MODEL: &str = "janus-sim";

const CARD_TOML: &str = "card.toml";
const FLASH_BIN: &str = "flash.bin";
const OTP_DIR: &str = "otp";

/// Why a card could not be created or opened.
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a Janus card: it has no card.toml (create one with `janus nic create`)", dir.display())]
    NotACard { dir: PathBuf },
    #[error("{} exists and is not empty; a card is created in a new or empty folder", dir.display())]
    NotEmpty { dir: PathBuf },
    #[error("{}: {reason}", path.display())]
    BadConfig { path: PathBuf, reason: String },
    #[error(
        "{} is a card of format version {found}; this janus reads version {FORMAT_VERSION}",
        dir.display()
    )]
    FormatVersion { dir: PathBuf, found: i64 },
    #[error(
        "{} is {found} bytes, the geometry says {expected}: {}",
        path.display(),
        if found < expected { "the flash file is truncated" } else { "the flash file is too long" }
    )]
    FlashSize {
        path: PathBuf,
        expected: u64,
        found: u64,
    },
    #[error("bad geometry: {0}")]
    Geometry(String),
    #[error("bad device model {0:?}: use letters, digits, '.', '_' and '-' (1 to 64 characters)")]
    Model(String),
    #[error("the card's OTP area: {0}")]
    Otp(#[from] OtpError),
}

/// What `card.toml` records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardConfig {
    /// The device model images must be built for.
    pub model: String,
    /// The flash's shape.
    pub geometry: Geometry,
}

/// What a new card is made of.
#[derive(Clone, Debug)]
pub struct CardSpec {
    pub config: CardConfig,
    /// The root public key burnt into OTP; `None` leaves the card
    /// unprovisioned (it then boots nothing).
    pub root_public_key: Option<VerifyingKey>,
}

/// How an opened card behaves.
#[derive(Clone, Copy, Debug, Default)]
pub struct CardOptions {
    pub durability: Durability,
}

/// An open simulated card.
#[derive(Debug)]
pub struct Card {
    dir: PathBuf,
    config: CardConfig,
    flash: FileFlash,
    otp: FileOtp,
}

impl Card {
    /// Creates a card in `dir` (a new or empty folder): an erased flash
    /// file, the OTP area with a fresh device key, then `card.toml`.
    pub fn create(dir: &Path, spec: &CardSpec, options: CardOptions) -> Result<Card, CardError> {
        check_model(&spec.config.model)?;
        check_geometry(spec.config.geometry)?;
        prepare_dir(dir)?;
        write_flash_file(&dir.join(FLASH_BIN), spec.config.geometry)?;
        FileOtp::create(&dir.join(OTP_DIR), spec.root_public_key.as_ref())?;
        write_config(&dir.join(CARD_TOML), &spec.config)?;
        tracing::info!(dir = %dir.display(), model = %spec.config.model, "card created");
        Card::open(dir, options)
    }

    /// Opens the card in `dir`.
    pub fn open(dir: &Path, options: CardOptions) -> Result<Card, CardError> {
        let config = read_config(dir)?;
        let path = dir.join(FLASH_BIN);
        let io = |source| CardError::Io {
            path: path.clone(),
            source,
        };
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(io)?;
        let found = file.metadata().map_err(io)?.len();
        let expected = config.geometry.size();
        if found != expected {
            return Err(CardError::FlashSize {
                path,
                expected,
                found,
            });
        }
        let flash = FileFlash::new(file, path, config.geometry, options.durability);
        let otp = FileOtp::open(&dir.join(OTP_DIR))?;
        Ok(Card {
            dir: dir.to_path_buf(),
            config,
            flash,
            otp,
        })
    }

    /// The card's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The model and geometry from `card.toml`.
    pub fn config(&self) -> &CardConfig {
        &self.config
    }

    /// The flash and the OTP area, borrowed together (the boot code takes
    /// both).
    pub fn parts(&mut self) -> (&mut FileFlash, &mut FileOtp) {
        (&mut self.flash, &mut self.otp)
    }

    /// The flash and the OTP area, owned (to wrap the flash, e.g. in a
    /// [`crate::fault::FaultyFlash`]).
    pub fn into_parts(self) -> (FileFlash, FileOtp) {
        (self.flash, self.otp)
    }
}

/// Device models are identifiers: they are printed, compared and written
/// into images and `card.toml` verbatim.
fn check_model(model: &str) -> Result<(), CardError> {
    let ok = (1..=64).contains(&model.len())
        && model
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(CardError::Model(model.to_string()))
    }
}

/// A geometry the card can hold: sectors a power of two from 64 bytes to
/// 16 MiB, at least two of them, at most 4 GiB in all.
fn check_geometry(g: Geometry) -> Result<(), CardError> {
    let bad = |s: String| Err(CardError::Geometry(s));
    if !g.sector_size.is_power_of_two() || !(64..=16 << 20).contains(&g.sector_size) {
        return bad(format!(
            "the sector size must be a power of two from 64 B to 16 MiB, not {}",
            g.sector_size
        ));
    }
    if g.sector_count < 2 {
        return bad(format!(
            "the flash must hold at least two sectors, not {}",
            g.sector_count
        ));
    }
    if g.size() > 4 << 30 {
        return bad(format!(
            "the flash must be at most 4 GiB, not {} bytes",
            g.size()
        ));
    }
    Ok(())
}

/// Creates `dir` or accepts it empty.
fn prepare_dir(dir: &Path) -> Result<(), CardError> {
    let io = |source| CardError::Io {
        path: dir.to_path_buf(),
        source,
    };
    match std::fs::read_dir(dir) {
        Ok(mut entries) => match entries.next() {
            None => Ok(()),
            Some(_) => Err(CardError::NotEmpty {
                dir: dir.to_path_buf(),
            }),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(io)
        }
        Err(e) => Err(io(e)),
    }
}

/// Writes an erased flash (all `0xFF`), synced.
fn write_flash_file(path: &Path, geometry: Geometry) -> Result<(), CardError> {
    let io = |source| CardError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = File::create(path).map_err(io)?;
    let chunk = vec![0xFF; 1 << 20];
    let mut left = geometry.size();
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        file.write_all(&chunk[..n]).map_err(io)?;
        left -= n as u64;
    }
    file.sync_all().map_err(io)
}

fn write_config(path: &Path, config: &CardConfig) -> Result<(), CardError> {
    // The model is an identifier (check_model), so it needs no escaping.
    let text = format!(
        "# A Janus simulated card (janus nic create); see docs/firmware.md.\n\
         format = {FORMAT_VERSION}\n\
         model = \"{}\"\n\
         sector_size = {}\n\
         sector_count = {}\n",
        config.model, config.geometry.sector_size, config.geometry.sector_count
    );
    let io = |source| CardError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = File::create(path).map_err(io)?;
    file.write_all(text.as_bytes()).map_err(io)?;
    file.sync_all().map_err(io)
}

fn read_config(dir: &Path) -> Result<CardConfig, CardError> {
    let path = dir.join(CARD_TOML);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(CardError::NotACard {
                dir: dir.to_path_buf(),
            });
        }
        Err(source) => return Err(CardError::Io { path, source }),
    };
    let bad = |reason: String| CardError::BadConfig {
        path: path.clone(),
        reason,
    };
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| bad(e.to_string()))?;
    let int = |key: &str| match table.get(key) {
        Some(toml::Value::Integer(i)) => Ok(*i),
        Some(_) => Err(bad(format!("`{key}` must be an integer"))),
        None => Err(bad(format!("`{key}` is missing"))),
    };
    let format = int("format")?;
    if format != i64::from(FORMAT_VERSION) {
        return Err(CardError::FormatVersion {
            dir: dir.to_path_buf(),
            found: format,
        });
    }
    let model = match table.get("model") {
        Some(toml::Value::String(s)) => s.clone(),
        _ => return Err(bad("`model` must be a string".to_string())),
    };
    let u32_of = |key: &str| {
        int(key).and_then(|i| {
            u32::try_from(i).map_err(|_| bad(format!("`{key}` is out of range: {i}")))
        })
    };
    let geometry = Geometry {
        sector_size: u32_of("sector_size")?,
        sector_count: u32_of("sector_count")?,
    };
    check_model(&model)?;
    check_geometry(geometry)?;
    Ok(CardConfig { model, geometry })
}
