//! Power loss on the simulated card: a full flashing of a real image is
//! cut after every k-th flash operation, for every k, completed or torn;
//! after each cut the card is powered on and booted. It always boots a
//! verified image, the old one or the new one, never anything else.

mod common;

use common::images::{MODEL, Workshop};
use common::mem_flash::MemFlash;
use janus_firmware::card::{Card, CardOptions, FileOtp};
use janus_firmware::fault::{FaultPlan, FaultyFlash, Tear};
use janus_firmware::tools::card_ops::{Health, boot_card, flash_card};
use janus_firmware::tools::device_model;
use janus_firmware_core::boot::{BootConfig, boot};
use janus_firmware_core::flash::{Flash, FlashError};
use janus_firmware_core::flasher::{FlashImageError, FlashOptions, flash_image};
use janus_firmware_core::layout::Slot;
use std::path::Path;

/// Cuts the power at operation `k` of flashing `new` onto `flash`, powers
/// on, boots, and checks the card runs `old` or `new`; returns whether it
/// runs `new`.
fn cut_and_boot<F: Flash>(
    flash: F,
    otp: &FileOtp,
    plan: FaultPlan,
    old: &[u8],
    new: &[u8],
) -> (F, bool) {
    let model = device_model(MODEL).unwrap();
    let mut faulty = FaultyFlash::new(flash, plan);
    let err = flash_image(&mut faulty, otp, new, model).unwrap_err();
    assert_eq!(
        err,
        FlashImageError::Flash(FlashError::PowerLost),
        "{plan:?}"
    );
    let mut flash = faulty.power_on();
    let outcome = boot(&mut flash, otp, model, BootConfig::default())
        .unwrap_or_else(|e| panic!("{plan:?}: the card does not boot: {e}"));
    let bytes = outcome.image.view().bytes();
    let runs_new = match (outcome.slot, bytes == new, bytes == old) {
        (Slot::A, false, true) => false,
        (Slot::B, true, false) => true,
        (slot, _, _) => panic!("{plan:?}: slot {slot} runs neither the old nor the new image"),
    };
    assert!(!outcome.fell_back, "{plan:?}");
    (flash, runs_new)
}

/// A card running `v1` (confirmed) from slot A.
fn card_running_v1(ws: &Workshop, tag: &str) -> (common::TempDir, Vec<u8>, Vec<u8>) {
    let card = ws.card(tag);
    let old = std::fs::read(ws.build("v1.img", 1)).unwrap();
    let new = std::fs::read(ws.build("v2.img", 2)).unwrap();
    flash_card(&card.0, &old, FlashOptions::default()).unwrap();
    boot_card(&card.0, BootConfig::default(), Some(Health::Pass)).unwrap();
    (card, old, new)
}

/// The writes and erases of a full flashing of `new` onto `flash`.
fn operations_of_a_flashing(flash: MemFlash, otp: &FileOtp, new: &[u8]) -> u64 {
    let plan = FaultPlan {
        cut_at: None,
        tear: Tear::Complete,
        seed: 0,
    };
    let mut counter = FaultyFlash::new(flash, plan);
    flash_image(&mut counter, otp, new, device_model(MODEL).unwrap()).unwrap();
    counter.operations()
}

fn memory_copy(card: &Path) -> MemFlash {
    let (flash, _) = Card::open(card, CardOptions::default())
        .unwrap()
        .into_parts();
    MemFlash {
        geometry: flash.geometry(),
        bytes: std::fs::read(card.join("flash.bin")).unwrap(),
    }
}

#[test]
fn power_cut_at_every_operation_of_a_flashing_in_a_copy_of_the_card() {
    let ws = Workshop::new("plmem");
    let (card, old, new) = card_running_v1(&ws, "plmem-card");
    let base = memory_copy(&card.0);
    let (_, otp) = Card::open(&card.0, CardOptions::default())
        .unwrap()
        .into_parts();
    let total = operations_of_a_flashing(base.clone(), &otp, &new);
    let (mut cut_points, mut new_runs) = (0u64, 0u64);
    for k in 1..=total {
        for (tear, seed) in [
            (Tear::Complete, 0),
            (Tear::Torn, k),
            (Tear::Torn, k ^ 0x5EED),
        ] {
            let plan = FaultPlan {
                cut_at: Some(k),
                tear,
                seed,
            };
            let (_, runs_new) = cut_and_boot(base.clone(), &otp, plan, &old, &new);
            // Only a completed last operation (the switch record) makes
            // the new image current.
            assert_eq!(runs_new, k == total && tear == Tear::Complete, "{plan:?}");
            cut_points += 1;
            new_runs += u64::from(runs_new);
        }
    }
    println!(
        "in-memory copy: {total} operations per flashing, {cut_points} cut points tried (each completed and torn twice), {new_runs} booted the new image, the rest the old one"
    );
    assert_eq!(cut_points, total * 3);
}

#[test]
fn power_cut_on_the_card_flash_file() {
    let ws = Workshop::new("plfile");
    let (card, old, new) = card_running_v1(&ws, "plfile-card");
    let flash_path = card.0.join("flash.bin");
    let base = std::fs::read(&flash_path).unwrap();
    let (_, otp) = Card::open(&card.0, CardOptions::default())
        .unwrap()
        .into_parts();
    let total = operations_of_a_flashing(memory_copy(&card.0), &otp, &new);
    let mut cut_points = 0u64;
    // Every k completed on the card's own file; torn at a sample of k
    // (every 5th and the last few: the switch record).
    for k in 1..=total {
        let mut tears = vec![(Tear::Complete, 0)];
        if k % 5 == 0 || k + 3 >= total {
            tears.push((Tear::Torn, k));
        }
        for (tear, seed) in tears {
            std::fs::write(&flash_path, &base).unwrap();
            let (flash, _) = Card::open(&card.0, CardOptions::default())
                .unwrap()
                .into_parts();
            let plan = FaultPlan {
                cut_at: Some(k),
                tear,
                seed,
            };
            let (flash, runs_new) = cut_and_boot(flash, &otp, plan, &old, &new);
            drop(flash);
            assert_eq!(runs_new, k == total && tear == Tear::Complete, "{plan:?}");
            cut_points += 1;
        }
    }
    println!("card flash file: {total} operations per flashing, {cut_points} cut points tried");
}
