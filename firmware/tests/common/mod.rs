//! Helpers shared by the integration tests: temporary cards and the
//! conformance checks every `Flash` backend must pass.

#![allow(dead_code, reason = "each test binary uses a different part")]

pub mod conformance;
pub mod images;
pub mod mem_flash;

use janus_firmware::card::{Card, CardConfig, CardOptions, CardSpec};
use janus_firmware_core::flash::Geometry;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// A small geometry that keeps the tests fast: 16 sectors of 4 KiB.
pub const SMALL: Geometry = Geometry {
    sector_size: 4096,
    sector_count: 16,
};

/// A temporary folder path, unique in this process, that does not exist
/// yet; removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("janus-fw-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A new card with the given geometry and a fresh root key.
pub fn new_card(dir: &TempDir, geometry: Geometry) -> Card {
    let root = janus_firmware::keys::generate().unwrap();
    let spec = CardSpec {
        config: CardConfig {
            model: "janus-test".to_string(),
            geometry,
        },
        root_public_key: Some(root.verifying_key()),
    };
    Card::create(&dir.0, &spec, CardOptions::default()).unwrap()
}
