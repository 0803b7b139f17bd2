//! Quotes: made from a boot, checked by a verifier.

use super::fixtures::*;
use crate::attest::{Quote, QuoteError, quote, verify_quote};
use crate::boot::{BootConfig, boot};
use crate::flash::Otp;
use crate::image::Image;
use crate::measure::Measurements;

#[test]
fn quote_verifies_and_rejects_wrong_nonce_measurements_or_key() {
    let (mut flash, mut otp) = blank_card();
    let img = image(1, 1);
    install(&mut flash, &mut otp, &img);
    let outcome = boot(&mut flash, &otp, MODEL, BootConfig::default()).unwrap();
    let q = quote(&otp, &outcome, b"nonce-42").unwrap();
    let device = otp.device_public_key();
    let expected = Measurements::of_image(&Image::parse(&img).unwrap());
    verify_quote(&q, &device, b"nonce-42", &expected).unwrap();

    // Round trip through bytes.
    let decoded = Quote::from_bytes(&q.to_bytes()).unwrap();
    assert_eq!(decoded, q);

    assert_eq!(
        verify_quote(&q, &device, b"nonce-43", &expected),
        Err(QuoteError::NonceMismatch)
    );
    let other = Measurements::of_image(&Image::parse(&image(1, 2)).unwrap());
    assert_eq!(
        verify_quote(&q, &device, b"nonce-42", &other),
        Err(QuoteError::PcrMismatch)
    );
    let mut reordered = expected.clone();
    reordered.events.swap(1, 2);
    assert_eq!(
        verify_quote(&q, &device, b"nonce-42", &reordered),
        Err(QuoteError::EventLogMismatch)
    );
    let stranger = other_key().verifying_key().to_bytes();
    assert_eq!(
        verify_quote(&q, &stranger, b"nonce-42", &expected),
        Err(QuoteError::BadSignature)
    );
    let mut forged = q.clone();
    forged.image_security_version = 9;
    assert_eq!(
        verify_quote(&forged, &device, b"nonce-42", &expected),
        Err(QuoteError::BadSignature)
    );
}

#[test]
fn malformed_quotes_are_errors() {
    let (mut flash, mut otp) = blank_card();
    install(&mut flash, &mut otp, &image(1, 1));
    let outcome = boot(&mut flash, &otp, MODEL, BootConfig::default()).unwrap();
    let bytes = quote(&otp, &outcome, &[1, 2, 3]).unwrap().to_bytes();
    for len in 0..bytes.len() {
        assert!(Quote::from_bytes(&bytes[..len]).is_err());
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(Quote::from_bytes(&longer).is_err());
    assert_eq!(
        quote(&otp, &outcome, &[0; 2000]),
        Err(QuoteError::NonceTooLong)
    );
}
