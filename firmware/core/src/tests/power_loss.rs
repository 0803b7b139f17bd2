//! Power loss at every flash operation of a full flashing (and of boot and
//! confirm), each torn in several ways: the card always boots a verified
//! image, the old one or the new one.

extern crate std;

use alloc::vec::Vec;

use super::fixtures::*;
use crate::boot::{BootConfig, boot, confirm_boot};
use crate::flash::FlashError;
use crate::flasher::{FlashImageError, flash_image};
use crate::layout::{Layout, Slot};
use crate::slots::{RECORD_LEN, read_state, write_state};
use crate::testing::{PowerCut, RamFlash, RamOtp, Tear};

const TEARS: [Tear; 5] = [
    Tear::NotDone,
    Tear::Prefix(1),
    Tear::Prefix(32),
    Tear::Prefix(RECORD_LEN - 1),
    Tear::Prefix(usize::MAX),
];

/// A card running `old` from slot A, its current record sector holding
/// `extra` more records (so the switch may need a record-sector erase).
fn card_with_old_image(old: &[u8], extra: usize) -> (RamFlash, RamOtp) {
    let (mut flash, mut otp) = blank_card();
    install(&mut flash, &mut otp, old);
    let layout = Layout::new(GEOMETRY).unwrap();
    for _ in 0..extra {
        let state = read_state(&mut flash, &layout).unwrap();
        write_state(&mut flash, &layout, &state).unwrap();
    }
    (flash, otp)
}

#[test]
fn power_loss_at_every_flash_operation_leaves_a_bootable_card() {
    let old = image(1, 1);
    let new = image(2, 2);
    let mut cut_points = 0usize;
    let mut booted_new = 0usize;
    // 0: the switch record fits in the current sector; 13: it needs an
    // erase of the other one; 29: both sectors have been used.
    for extra in [0, 13, 29] {
        let (base_flash, otp) = card_with_old_image(&old, extra);
        let mut probe = base_flash.clone();
        probe.ops = 0;
        flash_image(&mut probe, &otp, &new, MODEL).unwrap();
        let total = probe.ops;
        for at in 0..total {
            for tear in TEARS {
                cut_points += 1;
                let mut flash = base_flash.clone();
                flash.arm(PowerCut { at, tear });
                let err = flash_image(&mut flash, &otp, &new, MODEL).unwrap_err();
                assert_eq!(
                    err,
                    FlashImageError::Flash(FlashError::PowerLost),
                    "extra {extra} cut {at} {tear:?}"
                );
                flash.power_on();

                let switched =
                    at == total - 1 && matches!(tear, Tear::Prefix(n) if n >= RECORD_LEN);
                let outcome = boot(&mut flash, &otp, MODEL, BootConfig::default())
                    .unwrap_or_else(|e| panic!("extra {extra} cut {at} {tear:?}: {e}"));
                let (slot, expected) = if switched {
                    (Slot::B, &new)
                } else {
                    (Slot::A, &old)
                };
                assert_eq!(outcome.slot, slot, "extra {extra} cut {at} {tear:?}");
                assert_eq!(
                    outcome.image.view().bytes(),
                    &expected[..],
                    "extra {extra} cut {at} {tear:?}"
                );
                assert!(!outcome.fell_back);
                booted_new += usize::from(switched);

                // The card recovers: flashing again works and boots the new image.
                if !switched {
                    flash_image(&mut flash, &otp, &new, MODEL).unwrap();
                    assert_eq!(
                        boot(&mut flash, &otp, MODEL, BootConfig::default())
                            .unwrap()
                            .slot,
                        Slot::B
                    );
                }
            }
        }
        std::println!(
            "flash of {} bytes over a card with {extra} extra records: {total} operations",
            new.len()
        );
    }
    std::println!(
        "power-loss cut points during flashing: {cut_points} (new image booted after {booted_new})"
    );
    assert!(cut_points > 3 * 30 * TEARS.len());
}

#[test]
fn power_loss_during_boot_and_confirm_leaves_a_bootable_card() {
    let old = image(1, 1);
    let new = image(2, 2);
    let mut cut_points = 0usize;
    for extra in [0, 13] {
        let (mut base_flash, base_otp) = card_with_old_image(&old, extra);
        flash_image(&mut base_flash, &base_otp, &new, MODEL).unwrap();
        // Cuts inside boot (which counts the trial attempt).
        let mut probe = base_flash.clone();
        probe.ops = 0;
        boot(&mut probe, &base_otp, MODEL, BootConfig::default()).unwrap();
        for at in 0..probe.ops {
            for tear in TEARS {
                cut_points += 1;
                let mut flash = base_flash.clone();
                flash.arm(PowerCut { at, tear });
                assert!(boot(&mut flash, &base_otp, MODEL, BootConfig::default()).is_err());
                flash.power_on();
                let outcome = boot(&mut flash, &base_otp, MODEL, BootConfig::default()).unwrap();
                assert_eq!((outcome.slot, outcome.trial), (Slot::B, true));
                assert!(outcome.state.attempts <= 2);
            }
        }
        // Cuts inside confirm (which promotes the trial slot).
        boot(&mut base_flash, &base_otp, MODEL, BootConfig::default()).unwrap();
        let mut probe = base_flash.clone();
        probe.ops = 0;
        confirm_boot(&mut probe, &mut base_otp.clone(), MODEL).unwrap();
        for at in 0..probe.ops {
            for tear in TEARS {
                cut_points += 1;
                let mut flash = base_flash.clone();
                let mut otp = base_otp.clone();
                flash.arm(PowerCut { at, tear });
                assert!(confirm_boot(&mut flash, &mut otp, MODEL).is_err());
                flash.power_on();
                // Either still on trial (confirm again) or already promoted.
                let outcome = boot(&mut flash, &otp, MODEL, BootConfig::default()).unwrap();
                assert_eq!(outcome.slot, Slot::B);
                confirm_boot(&mut flash, &mut otp, MODEL).unwrap();
                assert_eq!(otp.counter, 2);
            }
        }
    }
    std::println!("power-loss cut points during boot and confirm: {cut_points}");
    assert!(cut_points > 0);
}

#[test]
fn torn_record_sector_erase_keeps_the_newest_record() {
    // Fill the current record sector so the next update erases the other.
    let old = image(1, 1);
    let (base, _) = card_with_old_image(&old, 29);
    let layout = Layout::new(GEOMETRY).unwrap();
    let before = read_state(&mut base.clone(), &layout).unwrap();
    let sizes: Vec<usize> = (0..=1024).step_by(64).collect();
    for n in sizes {
        let mut flash = base.clone();
        flash.arm(PowerCut {
            at: 0,
            tear: Tear::Prefix(n),
        });
        assert!(write_state(&mut flash, &layout, &before).is_err());
        flash.power_on();
        assert_eq!(
            read_state(&mut flash, &layout).unwrap(),
            before,
            "erase torn after {n} bytes"
        );
    }
}
