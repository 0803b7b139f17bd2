//! The simulated card: flash conformance, persistence, OTP semantics and
//! the errors for folders that are not (this version's) cards.

mod common;

use common::{SMALL, TempDir, new_card};
use ed25519_dalek::{Signature, VerifyingKey};
use janus_firmware::card::{Card, CardConfig, CardError, CardOptions, CardSpec, Durability};
use janus_firmware_core::flash::{Flash, Geometry, Otp};

#[test]
fn card_flash_passes_conformance() {
    let dir = TempDir::new("conf");
    let mut card = new_card(&dir, SMALL);
    common::conformance::check(card.parts().0);
}

#[test]
fn card_flash_synced_each_operation_passes_conformance() {
    let dir = TempDir::new("conf-sync");
    drop(new_card(&dir, SMALL));
    let options = CardOptions {
        durability: Durability::SyncEachOperation,
    };
    let mut card = Card::open(&dir.0, options).unwrap();
    common::conformance::check(card.parts().0);
}

#[test]
fn new_card_is_erased_and_files_are_laid_out() {
    let dir = TempDir::new("layout");
    let mut card = new_card(&dir, SMALL);
    assert_eq!(card.config().geometry, SMALL);
    assert_eq!(card.config().model, "janus-test");
    let flash = std::fs::read(dir.0.join("flash.bin")).unwrap();
    assert_eq!(flash.len() as u64, SMALL.size());
    assert!(flash.iter().all(|&b| b == 0xFF));
    for file in [
        "card.toml",
        "otp/root.pub",
        "otp/security-version",
        "otp/device.key",
        "otp/device.pub",
    ] {
        assert!(dir.0.join(file).is_file(), "{file} missing");
    }
    let mut buf = [0; 4];
    card.parts().0.read(0, &mut buf).unwrap();
    assert_eq!(buf, [0xFF; 4]);
}

#[test]
fn flash_contents_survive_reopening() {
    let dir = TempDir::new("persist");
    let mut card = new_card(&dir, SMALL);
    card.parts().0.write(4095, b"janus").unwrap();
    drop(card);
    let mut card = Card::open(&dir.0, CardOptions::default()).unwrap();
    let mut buf = [0; 5];
    card.parts().0.read(4095, &mut buf).unwrap();
    assert_eq!(&buf, b"janus");
    // The file holds exactly what the flash says.
    let file = std::fs::read(dir.0.join("flash.bin")).unwrap();
    assert_eq!(&file[4095..4100], b"janus");
}

#[test]
fn otp_counter_is_monotonic_and_persistent() {
    let dir = TempDir::new("otp");
    let mut card = new_card(&dir, SMALL);
    let otp = card.parts().1;
    assert_eq!(otp.security_version(), 0);
    otp.raise_security_version(5).unwrap();
    otp.raise_security_version(3).unwrap();
    assert_eq!(otp.security_version(), 5);
    drop(card);
    let mut card = Card::open(&dir.0, CardOptions::default()).unwrap();
    assert_eq!(card.parts().1.security_version(), 5);
    assert_eq!(
        std::fs::read_to_string(dir.0.join("otp/security-version")).unwrap(),
        "5\n"
    );
}

#[test]
fn otp_keys_are_the_provisioned_ones_and_the_device_key_signs() {
    let dir = TempDir::new("keys");
    let root = janus_firmware::keys::generate().unwrap();
    let spec = CardSpec {
        config: CardConfig {
            model: "m".to_string(),
            geometry: SMALL,
        },
        root_public_key: Some(root.verifying_key()),
    };
    let device_pub = {
        let mut card = Card::create(&dir.0, &spec, CardOptions::default()).unwrap();
        let otp = card.parts().1;
        assert_eq!(otp.root_public_key(), Some(root.verifying_key().to_bytes()));
        otp.device_public_key()
    };
    let card = Card::open(&dir.0, CardOptions::default()).unwrap();
    let (_, otp) = card.into_parts();
    assert_eq!(
        otp.device_public_key(),
        device_pub,
        "the device key persists"
    );
    let device = VerifyingKey::from_bytes(&device_pub).unwrap();
    let sig = Signature::from_bytes(&otp.device_sign(b"quote"));
    device.verify_strict(b"quote", &sig).unwrap();
    let published =
        janus_firmware::keys::load_verifying_key(&dir.0.join("otp/device.pub")).unwrap();
    assert_eq!(published, device);
}

#[test]
fn unprovisioned_card_has_no_root_key() {
    let dir = TempDir::new("unprov");
    let spec = CardSpec {
        config: CardConfig {
            model: "m".to_string(),
            geometry: SMALL,
        },
        root_public_key: None,
    };
    let mut card = Card::create(&dir.0, &spec, CardOptions::default()).unwrap();
    assert_eq!(card.parts().1.root_public_key(), None);
}

#[test]
fn folder_without_card_toml_is_not_a_card() {
    let dir = TempDir::new("notcard");
    std::fs::create_dir_all(&dir.0).unwrap();
    let err = Card::open(&dir.0, CardOptions::default()).unwrap_err();
    assert!(matches!(err, CardError::NotACard { .. }), "{err}");
    assert!(err.to_string().contains("is not a Janus card"), "{err}");
}

#[test]
fn card_of_another_format_version_is_refused() {
    let dir = TempDir::new("format");
    drop(new_card(&dir, SMALL));
    let path = dir.0.join("card.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("format = 1", "format = 2");
    std::fs::write(&path, text).unwrap();
    let err = Card::open(&dir.0, CardOptions::default()).unwrap_err();
    assert!(
        matches!(err, CardError::FormatVersion { found: 2, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("format version 2"), "{err}");
}

#[test]
fn truncated_flash_file_is_refused() {
    let dir = TempDir::new("trunc");
    drop(new_card(&dir, SMALL));
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.0.join("flash.bin"))
        .unwrap();
    file.set_len(SMALL.size() - 100).unwrap();
    let err = Card::open(&dir.0, CardOptions::default()).unwrap_err();
    assert!(matches!(err, CardError::FlashSize { .. }), "{err}");
    assert!(err.to_string().contains("truncated"), "{err}");
}

#[test]
fn broken_card_toml_and_counter_are_reported() {
    let dir = TempDir::new("broken");
    drop(new_card(&dir, SMALL));
    let toml = dir.0.join("card.toml");
    let good = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, good.replace("sector_count = 16", "")).unwrap();
    let err = Card::open(&dir.0, CardOptions::default()).unwrap_err();
    assert!(
        err.to_string().contains("`sector_count` is missing"),
        "{err}"
    );
    std::fs::write(&toml, "format = [").unwrap();
    assert!(matches!(
        Card::open(&dir.0, CardOptions::default()).unwrap_err(),
        CardError::BadConfig { .. }
    ));
    std::fs::write(&toml, good).unwrap();
    std::fs::write(dir.0.join("otp/security-version"), "lots\n").unwrap();
    let err = Card::open(&dir.0, CardOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("anti-rollback counter is not a number"),
        "{err}"
    );
}

#[test]
fn create_refuses_non_empty_folders_bad_models_and_geometries() {
    let dir = TempDir::new("create");
    drop(new_card(&dir, SMALL));
    let spec = |model: &str, geometry| CardSpec {
        config: CardConfig {
            model: model.to_string(),
            geometry,
        },
        root_public_key: None,
    };
    let err = Card::create(&dir.0, &spec("m", SMALL), CardOptions::default()).unwrap_err();
    assert!(matches!(err, CardError::NotEmpty { .. }), "{err}");
    let fresh = TempDir::new("create2");
    for model in ["", "has space", "quote\"", &"x".repeat(65)] {
        let err = Card::create(&fresh.0, &spec(model, SMALL), CardOptions::default()).unwrap_err();
        assert!(matches!(err, CardError::Model(_)), "{model:?}: {err}");
    }
    for (sector_size, sector_count) in [(3000, 16), (32, 16), (4096, 1), (1 << 20, 8192)] {
        let g = Geometry {
            sector_size,
            sector_count,
        };
        let err = Card::create(&fresh.0, &spec("m", g), CardOptions::default()).unwrap_err();
        assert!(matches!(err, CardError::Geometry(_)), "{g:?}: {err}");
    }
    assert!(!fresh.0.exists(), "a refused card leaves nothing behind");
}
