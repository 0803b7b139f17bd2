//! `expect` pattern matching semantics.

use janus_stf::{Mismatch, Pattern};

fn pat(s: &str) -> Pattern {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn prefix_match() {
    let p = pat("0a0b");
    assert!(p.matches(&[0x0a, 0x0b]));
    assert!(p.matches(&[0x0a, 0x0b, 0x0c, 0x0d]));
    assert!(!p.matches(&[0x0a, 0x0c]));
}

#[test]
fn shorter_packet_fails() {
    let p = pat("0a0b0c");
    assert!(!p.matches(&[0x0a, 0x0b]));
    assert_eq!(
        p.check(&[0x0a, 0x0b]),
        Err(Mismatch::TooShort {
            expected: 6,
            received: 4
        })
    );
    assert!(!p.matches(&[]));
}

#[test]
fn exact_length() {
    let p = pat("0a0b $");
    assert!(p.matches(&[0x0a, 0x0b]));
    assert!(!p.matches(&[0x0a, 0x0b, 0x00]));
    assert_eq!(
        p.check(&[0x0a, 0x0b, 0x00]),
        Err(Mismatch::TooLong {
            expected: 4,
            received: 6
        })
    );
    let empty = pat("$");
    assert!(empty.matches(&[]));
    assert!(!empty.matches(&[0]));
}

#[test]
fn wildcards() {
    let p = pat("0* ** *c");
    assert!(p.matches(&[0x01, 0xff, 0x0c]));
    assert!(p.matches(&[0x0f, 0x00, 0xfc, 0x99]));
    assert!(!p.matches(&[0x1f, 0x00, 0xfc]));
    assert_eq!(
        p.check(&[0x00, 0x00, 0x0d]),
        Err(Mismatch::Differs {
            nibble: 5,
            expected: 0xc,
            received: 0xd
        })
    );
    // Wildcards still need the frame to be long enough.
    assert!(!pat("****").matches(&[0x00]));
}

#[test]
fn odd_nibble_count() {
    let p = pat("abc");
    assert!(p.matches(&[0xab, 0xc0]));
    assert!(p.matches(&[0xab, 0xcf, 0x11]));
    assert!(!p.matches(&[0xab, 0xd0]));
    assert!(!p.matches(&[0xab]));
    // Odd length with `$` can never match a whole-byte frame.
    let p = pat("abc$");
    assert!(!p.matches(&[0xab, 0xc0]));
    assert!(!p.matches(&[0xab]));
}

#[test]
fn empty_pattern_matches_anything() {
    let p = Pattern::default();
    assert!(p.matches(&[]));
    assert!(p.matches(&[1, 2, 3]));
}

#[test]
fn case_insensitive_hex() {
    assert!(pat("AbCd").matches(&[0xab, 0xcd]));
}

#[test]
fn from_bytes_and_display() {
    let p = Pattern::from_bytes(&[0xde, 0xad], true);
    assert_eq!(p.to_string(), "dead$");
    assert!(p.matches(&[0xde, 0xad]));
    assert_eq!(pat("0a ** # comment").to_string(), "0a**");
    assert_eq!(pat("").nibbles.len(), 0);
}

#[test]
fn invalid_nibble_values_never_match() {
    let p = Pattern {
        nibbles: vec![Some(16)],
        exact_length: false,
    };
    assert!(!p.matches(&[0xff]));
}

#[test]
fn pattern_parse_errors() {
    for bad in ["0g", "0a $ 0b", "0x0a", "ab\ncd", "zz"] {
        assert!(bad.parse::<Pattern>().is_err(), "{bad}");
    }
}

#[test]
fn mismatch_messages() {
    assert_eq!(
        Mismatch::TooShort {
            expected: 6,
            received: 4
        }
        .to_string(),
        "received packet too short: 4 hex digits, expected at least 6"
    );
    assert_eq!(
        Mismatch::Differs {
            nibble: 5,
            expected: 0xc,
            received: 0xd
        }
        .to_string(),
        "packet differs at hex digit 5 (byte 2): expected C, received D"
    );
}
