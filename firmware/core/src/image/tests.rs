//! Image format: round trip, tampering, refusals, arbitrary input.

extern crate std;

use alloc::vec::Vec;

use proptest::prelude::*;

use super::format::*;
use super::*;
use crate::tests::fixtures::{MODEL, image, image_with, other_key, root_key};

fn root() -> [u8; 32] {
    root_key().verifying_key().to_bytes()
}

fn check(bytes: &[u8]) -> Result<(), VerifyError> {
    let view = Image::parse(bytes)?;
    verify(&view, &root(), MODEL, 1)
}

#[test]
fn round_trip_keeps_every_field() {
    let img = image(7, 3);
    let view = Image::parse(&img).unwrap();
    verify(&view, &root(), MODEL, 7).unwrap();
    assert_eq!(view.format_version(), 1);
    assert_eq!(view.total_len(), img.len());
    assert_eq!(view.security_version(), 7);
    assert_eq!((view.model_id(), view.model_name()), (MODEL.id, MODEL.name));
    assert_eq!(view.signer_key(), root());
    let components: Vec<_> = view
        .components()
        .map(|c| (c.ty, c.version, c.payload.len()))
        .collect();
    assert_eq!(
        components,
        [
            (ComponentType::Pipeline, 13, 6000),
            (ComponentType::FirmwareConfig, 2, 500),
            (ComponentType::HostAbi, 1, 4)
        ]
    );
    assert_eq!(
        view.component(ComponentType::HostAbi).unwrap().payload,
        1u32.to_le_bytes()
    );
    let p = view.provenance();
    assert_eq!(
        (p.build_time, p.tool_version),
        (1_760_000_000, "janus 0.1.0")
    );
    let sources: Vec<_> = p.sources().collect();
    assert_eq!(sources.len(), 2);
    assert_eq!(
        (sources[0].name, sources[0].sha256),
        ("p4/roce_paths.p4", [0xAB; 32])
    );
    assert_eq!(sources[1].name, "fw.toml");
    assert_eq!(view.signed_bytes().len() + SIGNATURE_LEN, img.len());
    assert_eq!(Image::declared_len(&img[..HEADER_LEN]), Ok(img.len()));
}

#[test]
fn refusals_are_distinct() {
    assert!(matches!(
        check(&image_with(&other_key(), MODEL, 2, 1)),
        Err(VerifyError::SignedByOtherKey { .. })
    ));
    let other_model = DeviceModel {
        id: MODEL.id,
        name: "janus-nic-v2",
    };
    assert!(matches!(
        check(&image_with(&root_key(), other_model, 2, 1)),
        Err(VerifyError::WrongModel { .. })
    ));
    let view_img = image(3, 1);
    let view = Image::parse(&view_img).unwrap();
    assert_eq!(
        verify(&view, &root(), MODEL, 4),
        Err(VerifyError::Downgrade {
            image: 3,
            counter: 4
        })
    );
    assert_eq!(
        verify(&view, &[0xEE; 32], MODEL, 0).unwrap_err(),
        VerifyError::SignedByOtherKey { signer: root() }
    );
    // A signer that writes the root key in the header but signs with
    // another key: the signature is wrong.
    struct Liar;
    impl ImageSigner for Liar {
        fn public_key(&self) -> [u8; 32] {
            root_key().verifying_key().to_bytes()
        }
        fn sign(&self, message: &[u8]) -> [u8; 64] {
            ImageSigner::sign(&other_key(), message)
        }
    }
    let forged = ImageBuilder::new(MODEL, 2)
        .component(ComponentType::Pipeline, 1, b"x")
        .build(&Liar)
        .unwrap();
    assert_eq!(check(&forged), Err(VerifyError::BadSignature));
    let mut flipped = image(2, 1);
    let last = flipped.len() - SIGNATURE_LEN - 1;
    flipped[last] ^= 1;
    assert_eq!(
        check(&flipped),
        Err(VerifyError::ComponentHash {
            index: 2,
            ty: ComponentType::HostAbi
        })
    );
}

#[test]
fn builder_rejects_bad_input() {
    let key = root_key();
    assert_eq!(
        ImageBuilder::new(MODEL, 1).build(&key),
        Err(BuildError::NoComponents)
    );
    let dup = ImageBuilder::new(MODEL, 1)
        .component(ComponentType::Pipeline, 1, b"a")
        .component(ComponentType::Pipeline, 2, b"b");
    assert_eq!(
        dup.build(&key),
        Err(BuildError::DuplicateComponent(ComponentType::Pipeline))
    );
    for name in ["", "a\0b", "this-model-name-is-far-too-long-for-32"] {
        let b = ImageBuilder::new(DeviceModel { id: 1, name }, 1).component(
            ComponentType::Pipeline,
            1,
            b"a",
        );
        assert_eq!(b.build(&key), Err(BuildError::ModelName));
    }
}

#[test]
fn format_errors_carry_the_offset() {
    let img = image(2, 1);
    let at = |bytes: &[u8]| Image::parse(bytes).unwrap_err();
    assert_eq!(
        at(&img[..10]),
        ImageError {
            offset: 10,
            issue: FormatIssue::Truncated
        }
    );
    let mut bad = img.clone();
    bad[3] = b'X';
    assert_eq!(at(&bad).offset, H_MAGIC);
    let mut bad = img.clone();
    bad[H_FORMAT_VERSION] = 2;
    assert_eq!(
        at(&bad),
        ImageError {
            offset: H_FORMAT_VERSION,
            issue: FormatIssue::UnsupportedVersion(2)
        }
    );
    assert_eq!(at(&img[..img.len() - 1]).offset, H_TOTAL_LEN);
    let mut bad = img.clone();
    bad[HEADER_LEN + ENTRY_LEN + E_TYPE] = 9;
    assert_eq!(
        at(&bad),
        ImageError {
            offset: HEADER_LEN + ENTRY_LEN,
            issue: FormatIssue::UnknownComponentType(9)
        }
    );
    let mut bad = img.clone();
    bad[HEADER_LEN + ENTRY_LEN + E_TYPE] = 1;
    assert_eq!(
        at(&bad).issue,
        FormatIssue::DuplicateComponent(ComponentType::Pipeline)
    );
    let mut bad = img.clone();
    bad[H_RESERVED + 2] = 1;
    assert_eq!(
        at(&bad),
        ImageError {
            offset: H_RESERVED + 2,
            issue: FormatIssue::ReservedNotZero
        }
    );
    let mut bad = img;
    bad[H_MODEL_NAME + 20] = b'x';
    assert_eq!(
        at(&bad),
        ImageError {
            offset: H_MODEL_NAME + 20,
            issue: FormatIssue::ModelName
        }
    );
}

/// Every single-byte change (three masks per byte) of the header, the
/// manifest, the provenance and the signature is rejected.
#[test]
fn every_metadata_and_signature_byte_flip_is_rejected() {
    let img = image(2, 1);
    let view = Image::parse(&img).unwrap();
    let metadata_end = view.components().next().unwrap().offset;
    let signature = img.len() - SIGNATURE_LEN..img.len();
    let mut flips = 0;
    for i in (0..metadata_end).chain(signature) {
        for mask in [0x01u8, 0x80, 0xFF] {
            let mut t = img.clone();
            t[i] ^= mask;
            assert!(check(&t).is_err(), "flip {mask:#04x} at byte {i} accepted");
            flips += 1;
        }
    }
    std::println!("{flips} metadata/signature flips rejected");
}

#[test]
fn sampled_payload_byte_flips_are_rejected() {
    let img = image(2, 1);
    let view = Image::parse(&img).unwrap();
    let start = view.components().next().unwrap().offset;
    let end = img.len() - SIGNATURE_LEN;
    for i in (start..end).step_by(37).chain([start, end - 1]) {
        let mut t = img.clone();
        t[i] ^= 0x20;
        assert!(
            matches!(check(&t), Err(VerifyError::ComponentHash { .. })),
            "flip at {i} accepted"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        if let Ok(view) = Image::parse(&bytes) {
            let _ = verify(&view, &root(), MODEL, 0);
            let _ = view.components().count();
            let _ = view.provenance().sources().count();
        }
        let _ = Image::declared_len(&bytes);
    }

    #[test]
    fn mutated_images_never_panic_and_are_rejected(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8),
        cut in any::<usize>(),
    ) {
        let mut img = image(2, 1);
        let original = img.clone();
        for (at, value) in edits {
            let len = img.len();
            img[at % len] = value;
        }
        let keep = img.len() - cut % 64;
        img.truncate(keep);
        match Image::parse(&img) {
            Ok(view) => {
                let _ = view.components().count();
                let _ = view.provenance().sources().count();
                let verdict = verify(&view, &root(), MODEL, 0);
                prop_assert_eq!(verdict.is_ok(), img == original);
            }
            Err(_) => prop_assert!(img != original),
        }
    }
}

#[test]
fn each_type_indexes_its_own_slot_and_round_trips_its_code() {
    for (i, ty) in ComponentType::ALL.iter().enumerate() {
        assert_eq!(ty.index(), i, "{ty}");
        assert_eq!(ComponentType::from_code(ty.code()), Some(*ty));
    }
}
