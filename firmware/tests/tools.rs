//! The image and card tools on real files: tampering, refusals, boot
//! fallback, attestation, reproducible builds.

mod common;

use common::images::{MODEL, Workshop};
use janus_firmware::tools::ToolError;
use janus_firmware::tools::card_ops::{
    Health, SlotContent, attest_card, boot_card, card_status, flash_card,
};
use janus_firmware::tools::inspect::{Inspection, VerifyPolicy, verify_image};
use janus_firmware::tools::quote::{Expectation, verify_quote_file};
use janus_firmware_core::attest::QuoteError;
use janus_firmware_core::boot::BootConfig;
use janus_firmware_core::flasher::{FlashImageError, FlashOptions};
use janus_firmware_core::image::{Image, VerifyError, format};
use janus_firmware_core::layout::Slot;
use std::path::Path;

fn verify_file(ws: &Workshop, path: &Path) -> Result<(), ToolError> {
    let bytes = std::fs::read(path).unwrap();
    let policy = VerifyPolicy {
        model: Some(MODEL.to_string()),
        min_security_version: 0,
    };
    verify_image(path, &bytes, &ws.key.verifying_key().to_bytes(), &policy).map(|_| ())
}

#[test]
fn every_byte_flip_of_manifest_header_and_signature_is_refused() {
    let ws = Workshop::new("tamper");
    let original = std::fs::read(ws.build("nic.img", 1)).unwrap();
    let payload_start = Image::parse(&original)
        .unwrap()
        .components()
        .next()
        .unwrap()
        .offset;
    let signature_start = original.len() - format::SIGNATURE_LEN;
    let tampered = ws.path("tampered.img");
    let mut flips = 0;
    let mut positions: Vec<usize> = (0..payload_start)
        .chain(signature_start..original.len())
        .collect();
    // Sampled payload bytes: every 97th, plus both ends of each payload.
    positions.extend((payload_start..signature_start).step_by(97));
    positions.extend([payload_start, signature_start - 1]);
    for at in positions {
        for mask in [0xFF, 0x01, 0x80] {
            let mut bytes = original.clone();
            bytes[at] ^= mask;
            std::fs::write(&tampered, &bytes).unwrap();
            let result = verify_file(&ws, &tampered);
            assert!(result.is_err(), "flip {mask:#04x} at byte {at} accepted");
            flips += 1;
        }
    }
    println!(
        "{flips} single-byte flips refused ({payload_start} header+manifest+provenance bytes, 64 signature bytes exhaustively, payload sampled)"
    );
    std::fs::write(&tampered, &original).unwrap();
    verify_file(&ws, &tampered).unwrap();
}

fn flash_bin(card: &Path) -> Vec<u8> {
    std::fs::read(card.join("flash.bin")).unwrap()
}

fn refusal(card: &Path, image: &Path) -> VerifyError {
    let before = flash_bin(card);
    let bytes = std::fs::read(image).unwrap();
    let err = flash_card(card, &bytes, FlashOptions::default()).unwrap_err();
    assert_eq!(flash_bin(card), before, "a refused image changed the flash");
    match err {
        ToolError::Refused(e) | ToolError::Flash(FlashImageError::Refused(e)) => e,
        other => panic!("not a refusal: {other}"),
    }
}

#[test]
fn flash_refuses_wrong_key_downgrade_and_wrong_model_without_touching_flash() {
    let ws = Workshop::new("refuse");
    let other = janus_firmware::keys::generate().unwrap();
    janus_firmware::keys::write_key_pair(&ws.dir.0, "other", &other).unwrap();
    let card = ws.card("refuse-card");
    let v1 = ws.build("v1.img", 1);
    let v2 = ws.build("v2.img", 2);
    let foreign = ws.build_with("foreign.img", "other.key", MODEL, 3);
    let other_model = ws.build_with("model.img", "janus.key", "janus-other", 3);

    let bytes = std::fs::read(&v2).unwrap();
    flash_card(&card.0, &bytes, FlashOptions::default()).unwrap();
    boot_card(&card.0, BootConfig::default(), Some(Health::Pass)).unwrap();

    let mut messages = Vec::new();
    let e = refusal(&card.0, &foreign);
    assert!(matches!(e, VerifyError::SignedByOtherKey { .. }), "{e}");
    messages.push(e.to_string());
    let e = refusal(&card.0, &v1);
    assert_eq!(
        e,
        VerifyError::Downgrade {
            image: 1,
            counter: 2
        }
    );
    messages.push(e.to_string());
    let e = refusal(&card.0, &other_model);
    assert!(matches!(e, VerifyError::WrongModel { .. }), "{e}");
    messages.push(e.to_string());
    assert!(
        messages[0].contains("signed by another key"),
        "{}",
        messages[0]
    );
    assert!(messages[1].contains("downgrade refused"), "{}", messages[1]);
    assert!(
        messages[2].contains("janus-other") && messages[2].contains(MODEL),
        "{}",
        messages[2]
    );

    // A truncated file is refused before flash is touched, too.
    let cut = ws.path("cut.img");
    std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
    let e = refusal(&card.0, &cut);
    assert!(matches!(e, VerifyError::Format(_)), "{e}");
}

#[test]
fn failed_health_checks_fall_back_to_the_previous_slot() {
    let ws = Workshop::new("fallback");
    let card = ws.card("fallback-card");
    let v1 = std::fs::read(ws.build("v1.img", 1)).unwrap();
    let v2 = std::fs::read(ws.build("v2.img", 2)).unwrap();
    flash_card(&card.0, &v1, FlashOptions::default()).unwrap();
    let first = boot_card(&card.0, BootConfig::default(), Some(Health::Pass)).unwrap();
    assert_eq!(first.outcome.slot, Slot::A);
    assert!(first.confirmed.unwrap().promoted);

    let flashed = flash_card(&card.0, &v2, FlashOptions::default()).unwrap();
    assert_eq!(flashed.report.slot, Slot::B);
    let config = BootConfig::default();
    for attempt in 1..=config.max_attempts {
        let r = boot_card(&card.0, config, Some(Health::Fail)).unwrap();
        assert_eq!((r.outcome.slot, r.outcome.trial), (Slot::B, true));
        assert_eq!(r.outcome.state.attempts, attempt);
        assert!(r.confirmed.is_none());
    }
    let r = boot_card(&card.0, config, Some(Health::Fail)).unwrap();
    assert_eq!(r.outcome.slot, Slot::A, "did not fall back");
    assert!(r.outcome.fell_back);
    assert_eq!(r.outcome.image.view().bytes(), &v1[..]);
    let status = card_status(&card.0).unwrap();
    assert_eq!(status.state.last_good, Some(Slot::A));
    assert_eq!(status.state.pending, None);
    assert_eq!(
        status.security_version, 1,
        "the failed image raised the counter"
    );
    let running = status.running.unwrap();
    assert_eq!((running.slot, running.fell_back), (Slot::A, true));
    assert!(matches!(
        status.slots[1].1,
        SlotContent::Bootable {
            security_version: 2,
            ..
        }
    ));
}

#[test]
fn attestation_matches_the_booted_image_only() {
    let ws = Workshop::new("attest");
    let card = ws.card("attest-card");
    let v1 = ws.build("v1.img", 1);
    let v2 = ws.build("v2.img", 2);
    assert!(matches!(
        attest_card(&card.0, b"n"),
        Err(ToolError::NotBooted)
    ));
    flash_card(
        &card.0,
        &std::fs::read(&v1).unwrap(),
        FlashOptions::default(),
    )
    .unwrap();
    boot_card(&card.0, BootConfig::default(), None).unwrap();
    let quote = attest_card(&card.0, b"nonce-1").unwrap();
    let quote_path = ws.path("quote.bin");
    std::fs::write(&quote_path, quote.to_bytes()).unwrap();
    let device = card.0.join("otp/device.pub");
    let check = |nonce: &[u8], expected: Expectation| {
        verify_quote_file(&quote_path, &device, nonce, &expected)
    };
    check(b"nonce-1", Expectation::Image(v1.clone())).unwrap();
    check(b"nonce-1", Expectation::Pcr(quote.pcr)).unwrap();
    assert!(matches!(
        check(b"nonce-2", Expectation::Image(v1.clone())),
        Err(ToolError::Quote(QuoteError::NonceMismatch))
    ));
    assert!(matches!(
        check(b"nonce-1", Expectation::Image(v2.clone())),
        Err(ToolError::Quote(QuoteError::PcrMismatch))
    ));
    // Another card's device key does not vouch for this quote.
    let other = ws.card("attest-other");
    assert!(matches!(
        verify_quote_file(
            &quote_path,
            &other.0.join("otp/device.pub"),
            b"nonce-1",
            &Expectation::Image(v1)
        ),
        Err(ToolError::Quote(QuoteError::BadSignature))
    ));
}

#[test]
fn builds_are_reproducible_and_inspection_is_complete() {
    let ws = Workshop::new("repro");
    let a = std::fs::read(ws.build("a.img", 4)).unwrap();
    let b = std::fs::read(ws.build("b.img", 4)).unwrap();
    assert_eq!(a, b, "same inputs and build time, different images");
    let inspection = Inspection::of(Path::new("a.img"), &a).unwrap();
    assert_eq!(inspection.security_version, 4);
    assert_eq!(inspection.model.name, MODEL);
    assert!(inspection.signer.signature_valid_for_signer);
    let types: Vec<_> = inspection.components.iter().map(|c| c.ty).collect();
    assert_eq!(types, ["pipeline", "firmware-config", "host-abi"]);
    assert!(inspection.components.iter().all(|c| c.sha256_matches));
    assert_eq!(inspection.pipeline.as_deref(), Some("sdn"));
    assert_eq!(inspection.config.as_ref().unwrap().tenants, [1]);
    assert_eq!(inspection.provenance.build_time_utc, "2025-10-09T08:53:20Z");
    let names: Vec<_> = inspection
        .provenance
        .sources
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert!(names.iter().any(|n| n.ends_with("sdn.p4")), "{names:?}");
    assert!(
        names.iter().any(|n| n.ends_with("fw-9004.toml")),
        "{names:?}"
    );
    let json: serde_json::Value = serde_json::from_str(&inspection.to_json()).unwrap();
    assert_eq!(json["schema"], "janus-image-inspect/1");
    assert_eq!(json["components"][0]["type"], "pipeline");
    assert_eq!(json["measurement"]["events"].as_array().unwrap().len(), 4);
}
