//! Flashing, booting, confirming and falling back.

use alloc::boxed::Box;
use alloc::string::ToString;

use super::fixtures::*;
use crate::boot::{BootConfig, BootError, ConfirmError, SlotFailure, boot, confirm_boot};
use crate::flasher::{FlashImageError, flash_image};
use crate::image::{DeviceModel, Image, VerifyError};
use crate::layout::{Layout, Slot};
use crate::measure::Measurements;
use crate::slots::{BootState, read_state, write_state};

#[test]
fn flash_then_boot_runs_the_new_image_on_trial_then_confirms() {
    let (mut flash, mut otp) = blank_card();
    let img = image(1, 1);
    let report = flash_image(&mut flash, &otp, &img, MODEL).unwrap();
    assert_eq!(report.slot, Slot::A);
    assert_eq!(report.state.pending, Some(Slot::A));

    let outcome = boot(&mut flash, &otp, MODEL, BootConfig::default()).unwrap();
    assert_eq!(outcome.slot, Slot::A);
    assert!(outcome.trial && !outcome.fell_back);
    assert_eq!(outcome.image.view().bytes(), &img[..]);
    assert_eq!(outcome.state.attempts, 1);
    let view = Image::parse(&img).unwrap();
    assert_eq!(outcome.measurements, Measurements::of_image(&view));
    assert_eq!(outcome.measurements.events.len(), 4);
    assert_eq!(
        Measurements::replay(&outcome.measurements.events),
        outcome.measurements.pcr
    );

    let confirmed = confirm_boot(&mut flash, &mut otp, MODEL).unwrap();
    assert!(confirmed.promoted);
    assert_eq!(otp.counter, 1);
    let again = boot(&mut flash, &otp, MODEL, BootConfig::default()).unwrap();
    assert!(!again.trial);
    assert_eq!(again.slot, Slot::A);

    // The next image goes to the other slot.
    let report = flash_image(&mut flash, &otp, &image(2, 2), MODEL).unwrap();
    assert_eq!(report.slot, Slot::B);
    assert_eq!(
        boot(&mut flash, &otp, MODEL, BootConfig::default())
            .unwrap()
            .slot,
        Slot::B
    );
    confirm_boot(&mut flash, &mut otp, MODEL).unwrap();
    assert_eq!(otp.counter, 2);
}

#[test]
fn refusals_happen_before_flash_is_touched() {
    let (mut flash, mut otp) = blank_card();
    install(&mut flash, &mut otp, &image(5, 1));
    let before = flash.clone();
    let cases = [
        (image_with(&other_key(), MODEL, 6, 2), "other key"),
        (image(4, 2), "downgrade"),
        (
            image_with(
                &root_key(),
                DeviceModel {
                    id: 0x4A4E_0002,
                    name: "janus-other",
                },
                6,
                2,
            ),
            "model",
        ),
    ];
    for (img, what) in &cases {
        let err = flash_image(&mut flash, &otp, img, MODEL).unwrap_err();
        match (what, &err) {
            (&"other key", FlashImageError::Refused(VerifyError::SignedByOtherKey { .. }))
            | (
                &"downgrade",
                FlashImageError::Refused(VerifyError::Downgrade {
                    image: 4,
                    counter: 5,
                }),
            )
            | (&"model", FlashImageError::Refused(VerifyError::WrongModel { .. })) => {}
            _ => panic!("{what}: unexpected {err:?}"),
        }
        assert_eq!(flash.ops, before.ops, "{what}: flash was written");
        assert!(
            flash.raw_mut() == before.clone().raw_mut(),
            "{what}: flash changed"
        );
    }
    let mut garbage = image(6, 2);
    garbage.truncate(100);
    assert!(matches!(
        flash_image(&mut flash, &otp, &garbage, MODEL),
        Err(FlashImageError::Refused(VerifyError::Format(_)))
    ));
    otp.root = None;
    assert_eq!(
        flash_image(&mut flash, &otp, &image(6, 2), MODEL),
        Err(FlashImageError::NotProvisioned)
    );
}

#[test]
fn image_larger_than_a_slot_is_refused() {
    let (mut flash, otp) = blank_card();
    let big = crate::image::ImageBuilder::new(MODEL, 1)
        .component(crate::image::ComponentType::Pipeline, 1, &[0u8; 11 * 1024])
        .build(&root_key())
        .unwrap();
    assert!(matches!(
        flash_image(&mut flash, &otp, &big, MODEL),
        Err(FlashImageError::TooLarge { .. })
    ));
}

#[test]
fn falls_back_after_n_unconfirmed_trial_boots() {
    for max_attempts in [1u8, 3, 5] {
        let config = BootConfig { max_attempts };
        let (mut flash, mut otp) = blank_card();
        let old = image(1, 1);
        install(&mut flash, &mut otp, &old);
        let new = image(2, 2);
        flash_image(&mut flash, &otp, &new, MODEL).unwrap();
        for attempt in 1..=max_attempts {
            let outcome = boot(&mut flash, &otp, MODEL, config).unwrap();
            assert_eq!(
                (outcome.slot, outcome.trial, outcome.state.attempts),
                (Slot::B, true, attempt)
            );
            // The health check does not pass: no confirm_boot.
        }
        let outcome = boot(&mut flash, &otp, MODEL, config).unwrap();
        assert_eq!(outcome.slot, Slot::A);
        assert!(outcome.fell_back && !outcome.trial);
        let reason = outcome.fallback_reason.unwrap();
        assert_eq!(
            (reason.slot, reason.failure),
            (
                Slot::B,
                SlotFailure::AttemptsExhausted {
                    attempts: max_attempts
                }
            )
        );
        assert_eq!(outcome.image.view().bytes(), &old[..]);
        assert_eq!(outcome.state.pending, None);
        // The fallback is stable and the counter was not raised.
        let next = boot(&mut flash, &otp, MODEL, config).unwrap();
        assert_eq!((next.slot, next.fell_back), (Slot::A, false));
        assert_eq!(otp.counter, 1);
    }
}

#[test]
fn corrupted_trial_slot_falls_back_at_once() {
    let (mut flash, mut otp) = blank_card();
    install(&mut flash, &mut otp, &image(1, 1));
    flash_image(&mut flash, &otp, &image(2, 2), MODEL).unwrap();
    let layout = Layout::new(GEOMETRY).unwrap();
    let at = layout.slot_offset(Slot::B) as usize + 3000;
    flash.raw_mut()[at] ^= 0x01; // bit rot in the pipeline payload
    let outcome = boot(&mut flash, &otp, MODEL, BootConfig::default()).unwrap();
    assert_eq!(outcome.slot, Slot::A);
    assert!(outcome.fell_back);
    assert!(matches!(
        outcome.fallback_reason.unwrap().failure,
        SlotFailure::Rejected(e) if matches!(*e, VerifyError::ComponentHash { index: 0, .. })
    ));
}

#[test]
fn no_valid_slot_is_a_clear_error_never_unverified_code() {
    let (mut flash, mut otp) = blank_card();
    let err = boot(&mut flash, &otp, MODEL, BootConfig::default()).unwrap_err();
    assert_eq!(
        err,
        BootError::NoBootableImage {
            trial: None,
            last_good: None
        }
    );
    assert!(err.to_string().starts_with("no bootable image"));

    install(&mut flash, &mut otp, &image(1, 1));
    let layout = Layout::new(GEOMETRY).unwrap();
    let at = layout.slot_offset(Slot::A) as usize + 200; // the manifest
    flash.raw_mut()[at] ^= 0x01;
    let err = boot(&mut flash, &otp, MODEL, BootConfig::default()).unwrap_err();
    let BootError::NoBootableImage {
        trial: None,
        last_good: Some(failed),
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(failed.slot, Slot::A);
    assert!(err.to_string().contains("last known good slot A"), "{err}");
}

#[test]
fn an_older_image_in_the_fallback_slot_is_not_booted_after_the_counter_rose() {
    let (mut flash, mut otp) = blank_card();
    install(&mut flash, &mut otp, &image(1, 1));
    install(&mut flash, &mut otp, &image(2, 2)); // slot B, counter 2
    // Forge a record that points back at slot A (security version 1).
    let layout = Layout::new(GEOMETRY).unwrap();
    let state = BootState {
        seq: 0,
        active: Some(Slot::A),
        pending: None,
        attempts: 0,
        last_good: Some(Slot::A),
    };
    write_state(&mut flash, &layout, &state).unwrap();
    let err = boot(&mut flash, &otp, MODEL, BootConfig::default()).unwrap_err();
    let BootError::NoBootableImage {
        last_good: Some(failed),
        ..
    } = err
    else {
        panic!()
    };
    assert_eq!(
        failed.failure,
        SlotFailure::Rejected(Box::new(VerifyError::Downgrade {
            image: 1,
            counter: 2
        }))
    );
}

#[test]
fn confirm_requires_a_boot_and_is_idempotent() {
    let (mut flash, mut otp) = blank_card();
    assert_eq!(
        confirm_boot(&mut flash, &mut otp, MODEL),
        Err(ConfirmError::NotBooted)
    );
    install(&mut flash, &mut otp, &image(3, 1));
    let again = confirm_boot(&mut flash, &mut otp, MODEL).unwrap();
    assert!(!again.promoted);
    assert_eq!(again.security_version, 3);
}

#[test]
fn boot_record_alternates_sectors_over_many_updates() {
    let (mut flash, mut otp) = blank_card();
    install(&mut flash, &mut otp, &image(1, 1));
    let layout = Layout::new(GEOMETRY).unwrap();
    let mut last = read_state(&mut flash, &layout).unwrap();
    for _ in 0..100 {
        let outcome = boot(&mut flash, &otp, MODEL, BootConfig::default()).unwrap();
        assert_eq!(outcome.slot, Slot::A);
        last = write_state(&mut flash, &layout, &outcome.state).unwrap();
    }
    assert_eq!(read_state(&mut flash, &layout).unwrap(), last);
    assert!(last.seq > 2 * layout.records_per_sector() as u64);
}
