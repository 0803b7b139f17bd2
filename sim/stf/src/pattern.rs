//! Expected-packet patterns (`expect` data) and how they match frames.

use std::fmt;

/// The data of one `expect` line: hex nibbles where `*` matches any nibble,
/// and an optional trailing `$` that demands an exact length.
///
/// Matching (as p4c's bmv2 driver does it, on hex digits):
/// - the frame must have at least as many nibbles as the pattern: a shorter
///   frame fails;
/// - without `$` a longer frame is fine (the pattern is a prefix);
/// - with `$` the frame must have exactly as many nibbles, so a pattern
///   with an odd number of nibbles and `$` never matches;
/// - an odd number of nibbles without `$` checks the high nibble of the
///   last byte only.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pattern {
    /// Nibbles in frame order (high nibble of byte 0 first); `None` is `*`.
    /// Values above 15 never match.
    pub nibbles: Vec<Option<u8>>,
    /// `true` when the data ended with `$`.
    pub exact_length: bool,
}

/// Why a frame did not match a [`Pattern`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// The frame has fewer nibbles than the pattern.
    TooShort {
        /// Nibbles in the pattern.
        expected: usize,
        /// Nibbles in the frame.
        received: usize,
    },
    /// The pattern ends in `$` and the frame is longer.
    TooLong {
        /// Nibbles in the pattern.
        expected: usize,
        /// Nibbles in the frame.
        received: usize,
    },
    /// A nibble differs.
    Differs {
        /// Index of the nibble (0 = high nibble of byte 0).
        nibble: usize,
        /// The nibble the pattern wants.
        expected: u8,
        /// The nibble the frame has.
        received: u8,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::TooShort { expected, received } => write!(
                f,
                "received packet too short: {received} hex digits, expected at least {expected}"
            ),
            Mismatch::TooLong { expected, received } => write!(
                f,
                "received packet too long: {received} hex digits, expected exactly {expected}"
            ),
            Mismatch::Differs {
                nibble,
                expected,
                received,
            } => write!(
                f,
                "packet differs at hex digit {nibble} (byte {}): expected {expected:X}, received {received:X}",
                nibble / 2
            ),
        }
    }
}

impl Pattern {
    /// A pattern that matches exactly `bytes` as a prefix.
    pub fn from_bytes(bytes: &[u8], exact_length: bool) -> Pattern {
        let nibbles = bytes
            .iter()
            .flat_map(|b| [Some(b >> 4), Some(b & 0xf)])
            .collect();
        Pattern {
            nibbles,
            exact_length,
        }
    }

    /// Whether `packet` matches.
    pub fn matches(&self, packet: &[u8]) -> bool {
        self.check(packet).is_ok()
    }

    /// Matches `packet`, saying why not on failure (the first difference).
    pub fn check(&self, packet: &[u8]) -> Result<(), Mismatch> {
        let expected = self.nibbles.len();
        let received = packet.len().saturating_mul(2);
        if received < expected {
            return Err(Mismatch::TooShort { expected, received });
        }
        for (i, want) in self.nibbles.iter().enumerate() {
            let Some(want) = want else { continue };
            let byte = packet[i / 2];
            let got = if i % 2 == 0 { byte >> 4 } else { byte & 0xf };
            if *want != got {
                return Err(Mismatch::Differs {
                    nibble: i,
                    expected: *want,
                    received: got,
                });
            }
        }
        if self.exact_length && received != expected {
            return Err(Mismatch::TooLong { expected, received });
        }
        Ok(())
    }
}

impl fmt::Display for Pattern {
    /// As STF `expect` data: lowercase hex, `*`, and a final `$` if exact.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(self.nibbles.len() + 1);
        for n in &self.nibbles {
            s.push(match n {
                None => '*',
                Some(v) => char::from_digit(u32::from(*v), 16).unwrap_or('?'),
            });
        }
        if self.exact_length {
            s.push('$');
        }
        f.write_str(&s)
    }
}

impl std::str::FromStr for Pattern {
    type Err = crate::StfError;

    /// Parses `expect` data alone (no port): `0a0b ** 0c $`, comments
    /// allowed. Empty data gives the empty, non-exact pattern.
    fn from_str(s: &str) -> Result<Pattern, crate::StfError> {
        if let Some(pos) = s.find('\n') {
            return Err(crate::StfError {
                line: 1,
                column: s[..pos].chars().count() + 1,
                message: "a pattern is a single line".to_string(),
            });
        }
        let chars: Vec<char> = s.chars().collect();
        crate::parser::scan_data(&chars, 0, "expect", true)
            .map(|d| Pattern {
                nibbles: d.nibbles,
                exact_length: d.exact,
            })
            .map_err(|e| crate::StfError {
                line: 1,
                column: e.column,
                message: e.message,
            })
    }
}
