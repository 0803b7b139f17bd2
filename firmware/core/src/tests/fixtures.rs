//! Keys, a device model, images and cards shared by the tests.

use alloc::vec::Vec;

use ed25519_dalek::SigningKey;

use crate::boot::{BootConfig, BootOutcome, boot, confirm_boot};
use crate::flash::Geometry;
use crate::flasher::flash_image;
use crate::image::{ComponentType, DeviceModel, ImageBuilder, ProvenanceSpec};
use crate::testing::{RamFlash, RamOtp};

pub const MODEL: DeviceModel<'static> = DeviceModel {
    id: 0x4A4E_0001,
    name: "janus-sim-nic",
};

pub fn root_key() -> SigningKey {
    SigningKey::from_bytes(&[7; 32])
}

pub fn other_key() -> SigningKey {
    SigningKey::from_bytes(&[9; 32])
}

/// 1 KiB sectors (16 boot records each), 2 record sectors, 10-sector slots.
pub const GEOMETRY: Geometry = Geometry {
    sector_size: 1024,
    sector_count: 22,
};

/// A pipeline payload that differs with `seed`.
pub fn payload(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

/// A three-component image at `security_version`, signed by `key`.
pub fn image_with(
    key: &SigningKey,
    model: DeviceModel<'_>,
    security_version: u32,
    seed: u8,
) -> Vec<u8> {
    let pipeline = payload(6000, seed);
    let config = payload(500, seed ^ 0x55);
    let abi = 1u32.to_le_bytes();
    ImageBuilder::new(model, security_version)
        .component(ComponentType::Pipeline, 10 + seed as u32, &pipeline)
        .component(ComponentType::FirmwareConfig, 2, &config)
        .component(ComponentType::HostAbi, 1, &abi)
        .provenance(ProvenanceSpec {
            build_time: 1_760_000_000,
            tool_version: "janus 0.1.0",
            sources: alloc::vec![("p4/roce_paths.p4", [0xAB; 32]), ("fw.toml", [0xCD; 32])],
        })
        .build(key)
        .expect("valid image")
}

pub fn image(security_version: u32, seed: u8) -> Vec<u8> {
    image_with(&root_key(), MODEL, security_version, seed)
}

/// A blank, provisioned card.
pub fn blank_card() -> (RamFlash, RamOtp) {
    let otp = RamOtp {
        root: Some(root_key().verifying_key().to_bytes()),
        counter: 0,
        device_key: SigningKey::from_bytes(&[11; 32]),
    };
    (RamFlash::new(GEOMETRY), otp)
}

/// Flashes `image`, boots it and confirms it.
pub fn install(flash: &mut RamFlash, otp: &mut RamOtp, image: &[u8]) -> BootOutcome {
    flash_image(flash, otp, image, MODEL).expect("flash");
    let outcome = boot(flash, otp, MODEL, BootConfig::default()).expect("boot");
    confirm_boot(flash, otp, MODEL).expect("confirm");
    outcome
}
