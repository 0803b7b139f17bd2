//! The fault injector: when the power goes, what a torn write or erase
//! leaves, and that a run is reproducible from its seed.

mod common;

use common::{SMALL, TempDir, new_card};
use janus_firmware::card::{Card, CardOptions, FileFlash};
use janus_firmware::fault::{FaultPlan, FaultyFlash, Tear};
use janus_firmware_core::flash::{Flash, FlashError};

const SECTOR: usize = SMALL.sector_size as usize;

/// The card's flash wrapped with `plan`.
fn faulty(dir: &TempDir, plan: FaultPlan) -> FaultyFlash<FileFlash> {
    let (flash, _) = Card::open(&dir.0, CardOptions::default())
        .unwrap()
        .into_parts();
    FaultyFlash::new(flash, plan)
}

fn plan(cut_at: u64, tear: Tear, seed: u64) -> FaultPlan {
    FaultPlan {
        cut_at: Some(cut_at),
        tear,
        seed,
    }
}

fn read_all(flash: &mut impl Flash, offset: u64, len: usize) -> Vec<u8> {
    let mut buf = vec![0; len];
    flash.read(offset, &mut buf).unwrap();
    buf
}

/// A card whose sector 0 holds a known pattern.
fn patterned_card(tag: &str) -> (TempDir, Vec<u8>) {
    let dir = TempDir::new(tag);
    let mut card = new_card(&dir, SMALL);
    let pattern: Vec<u8> = (0..SECTOR).map(|i| (i * 31 + 7) as u8 | 1).collect();
    card.parts().0.write(0, &pattern).unwrap();
    (dir, pattern)
}

#[test]
fn faulty_flash_without_a_cut_passes_conformance_and_counts() {
    let dir = TempDir::new("nocut");
    drop(new_card(&dir, SMALL));
    let mut flash = faulty(
        &dir,
        FaultPlan {
            cut_at: None,
            tear: Tear::Torn,
            seed: 1,
        },
    );
    common::conformance::check(&mut flash);
    assert!(flash.operations() > 10);
    assert!(!flash.power_lost());
}

#[test]
fn clean_cut_completes_the_kth_operation_and_fails_everything_after() {
    let dir = TempDir::new("clean");
    drop(new_card(&dir, SMALL));
    let mut flash = faulty(&dir, plan(3, Tear::Complete, 0));
    let mut buf = [0; 1];
    flash.write(0, &[1]).unwrap();
    flash.read(0, &mut buf).unwrap();
    flash.write(1, &[2]).unwrap();
    assert_eq!(flash.operations(), 2, "reads are not counted");
    flash.write(2, &[3]).unwrap();
    assert!(flash.power_lost());
    assert_eq!(flash.write(3, &[4]), Err(FlashError::PowerLost));
    assert_eq!(flash.erase(1), Err(FlashError::PowerLost));
    assert_eq!(flash.read(0, &mut buf), Err(FlashError::PowerLost));
    let mut flash = flash.power_on();
    assert_eq!(read_all(&mut flash, 0, 5), [1, 2, 3, 0xFF, 0xFF]);
}

#[test]
fn out_of_range_calls_are_refused_and_not_counted() {
    let dir = TempDir::new("range");
    drop(new_card(&dir, SMALL));
    let mut flash = faulty(&dir, plan(1, Tear::Torn, 0));
    assert_eq!(flash.erase(SMALL.sector_count), Err(FlashError::OutOfRange));
    assert_eq!(flash.write(SMALL.size(), &[0]), Err(FlashError::OutOfRange));
    assert_eq!(flash.operations(), 0);
    assert!(!flash.power_lost());
}

#[test]
fn torn_write_programs_a_proper_prefix_only() {
    let (dir, pattern) = patterned_card("tornw");
    let data = vec![0x00; 1000];
    let mut lengths = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let mut flash = faulty(&dir, plan(1, Tear::Torn, seed));
        assert_eq!(flash.write(100, &data), Err(FlashError::PowerLost));
        let mut flash = flash.power_on();
        let got = read_all(&mut flash, 0, SECTOR);
        // The pattern has no zero byte, so the programmed prefix ends at
        // the first byte that is not 0.
        let prefix = (100..1100).find(|&i| got[i] != 0).map_or(1000, |i| i - 100);
        assert!(prefix < 1000, "seed {seed}: a torn write is never complete");
        assert_eq!(
            &got[..100],
            &pattern[..100],
            "seed {seed}: before the write nothing changed"
        );
        assert_eq!(
            &got[100 + prefix..],
            &pattern[100 + prefix..],
            "seed {seed}: past the prefix nothing changed"
        );
        lengths.insert(prefix);
        // Restore sector 0 for the next seed.
        flash.erase(0).unwrap();
        flash.write(0, &pattern).unwrap();
    }
    assert!(
        lengths.len() > 10,
        "the prefix length varies with the seed: {lengths:?}"
    );
}

#[test]
fn torn_erase_only_sets_bits_and_leaves_an_erased_prefix() {
    let (dir, pattern) = patterned_card("torne");
    let mut outcomes = Vec::new();
    for seed in 0..20 {
        let mut flash = faulty(&dir, plan(1, Tear::Torn, seed));
        assert_eq!(flash.erase(0), Err(FlashError::PowerLost));
        let mut flash = flash.power_on();
        let got = read_all(&mut flash, 0, SECTOR);
        for (i, (&now, &old)) in got.iter().zip(&pattern).enumerate() {
            assert_eq!(
                now & old,
                old,
                "seed {seed} byte {i}: an erase only sets bits"
            );
        }
        let erased = got.iter().take_while(|&&b| b == 0xFF).count();
        assert_ne!(
            got, pattern,
            "seed {seed}: noise or an erased prefix changed something"
        );
        // Sector 1 is untouched.
        assert!(
            read_all(&mut flash, SECTOR as u64, SECTOR)
                .iter()
                .all(|&b| b == 0xFF)
        );
        outcomes.push((erased, got));
        flash.erase(0).unwrap();
        flash.write(0, &pattern).unwrap();
    }
    let prefixes: std::collections::BTreeSet<_> = outcomes.iter().map(|(e, _)| *e).collect();
    assert!(
        prefixes.len() > 10,
        "the erased prefix varies with the seed: {prefixes:?}"
    );
    assert!(
        outcomes
            .iter()
            .any(|(_, got)| got.iter().any(|&b| b != 0xFF)),
        "some torn erases leave data behind"
    );
}

#[test]
fn same_seed_same_damage_and_clean_erase_cut() {
    let (dir, pattern) = patterned_card("determ");
    let run = |seed| {
        let mut flash = faulty(&dir, plan(2, Tear::Torn, seed));
        flash.write(SECTOR as u64, &[0x00; 64]).unwrap();
        assert_eq!(flash.erase(0), Err(FlashError::PowerLost));
        let mut flash = flash.power_on();
        let got = read_all(&mut flash, 0, 2 * SECTOR);
        flash.erase(0).unwrap();
        flash.erase(1).unwrap();
        flash.write(0, &pattern).unwrap();
        got
    };
    assert_eq!(run(42), run(42));
    assert_ne!(run(42), run(43));
    // A clean cut on an erase: the sector is fully erased.
    let mut flash = faulty(&dir, plan(1, Tear::Complete, 0));
    flash.erase(0).unwrap();
    assert_eq!(flash.write(0, &[0]), Err(FlashError::PowerLost));
    let mut flash = flash.power_on();
    assert!(read_all(&mut flash, 0, SECTOR).iter().all(|&b| b == 0xFF));
}

/// Cutting after every k of a scripted run: the flash always shows the
/// first k-1 operations done, and the k-th either done (clean) or torn
/// within its bounds.
#[test]
fn every_cut_point_of_a_run_leaves_a_consistent_prefix_of_it() {
    let dir = TempDir::new("every");
    drop(new_card(&dir, SMALL));
    let script = |flash: &mut dyn Flash| -> Result<(), FlashError> {
        flash.erase(0)?;
        flash.write(0, &[0xA0; 256])?;
        flash.write(256, &[0x0B; 256])?;
        flash.erase(1)?;
        flash.write(SECTOR as u64, &[0x00; 512])?;
        Ok(())
    };
    let mut counter = faulty(
        &dir,
        FaultPlan {
            cut_at: None,
            tear: Tear::Complete,
            seed: 0,
        },
    );
    script(&mut counter).unwrap();
    let total = counter.operations();
    assert_eq!(total, 5);
    let expected_after = |k: u64| {
        let mut image = vec![0xFFu8; 2 * SECTOR];
        if k >= 2 {
            image[..256].fill(0xA0);
        }
        if k >= 3 {
            image[256..512].fill(0x0B);
        }
        if k >= 5 {
            image[SECTOR..SECTOR + 512].fill(0x00);
        }
        image
    };
    for k in 1..=total {
        for tear in [Tear::Complete, Tear::Torn] {
            // Start each run from an erased card.
            let mut fresh = faulty(
                &dir,
                FaultPlan {
                    cut_at: None,
                    tear,
                    seed: 0,
                },
            );
            fresh.erase(0).unwrap();
            fresh.erase(1).unwrap();
            drop(fresh);
            let mut flash = faulty(&dir, plan(k, tear, k));
            // Only a clean cut after the last operation lets the run finish.
            let finished = tear == Tear::Complete && k == total;
            let expected = if finished {
                Ok(())
            } else {
                Err(FlashError::PowerLost)
            };
            assert_eq!(script(&mut flash), expected, "k={k} {tear:?}");
            let mut flash = flash.power_on();
            let got = read_all(&mut flash, 0, 2 * SECTOR);
            let before = expected_after(k - 1);
            let after = expected_after(k);
            for (i, &b) in got.iter().enumerate() {
                // Every operation of the script starts on erased cells, so a
                // torn one leaves each byte in its state before or after.
                let ok = match tear {
                    Tear::Complete => b == after[i],
                    Tear::Torn => b == before[i] || b == after[i],
                };
                assert!(
                    ok,
                    "k={k} {tear:?} byte {i}: {b:#x} (before {:#x}, after {:#x})",
                    before[i], after[i]
                );
            }
        }
    }
}
