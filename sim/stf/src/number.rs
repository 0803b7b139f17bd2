//! Numbers as written in STF: decimal, `0x` hex, `0o` octal or `0b`
//! binary, of any length, where hex, octal and binary digits may be `*`
//! (don't care). The reference driver reads `0o` in ternary and lpm keys (a
//! `*` is three don't-care bits) and bmv2's CLI reads it anywhere.
//!
//! The digits are kept as written (leading zeros included) because the
//! meaning of a key value depends on them: a ternary mask covers exactly
//! the digits written, and an lpm prefix length is counted in digits.
//! Conversions to bytes are done on demand, for a given field width.

use crate::error::ValueError;
use std::fmt;

/// The most digits a number token may have. Keeps the (quadratic) decimal
/// conversion cheap; 4096 hex digits are 16384 bits, far beyond any P4 key.
pub const MAX_DIGITS: usize = 4096;

/// How a number was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Radix {
    /// Plain digits `0`-`9`.
    Decimal,
    /// `0x` followed by hex digits or `*`.
    Hex,
    /// `0o` followed by octal digits or `*`.
    Octal,
    /// `0b` followed by `0`, `1` or `*`.
    Binary,
}

impl Radix {
    /// The base: 10, 16, 8 or 2.
    pub fn base(self) -> u32 {
        match self {
            Radix::Decimal => 10,
            Radix::Hex => 16,
            Radix::Octal => 8,
            Radix::Binary => 2,
        }
    }

    /// Bits per digit for hex (4), octal (3) and binary (1); `None` for
    /// decimal.
    pub fn bits_per_digit(self) -> Option<u32> {
        match self {
            Radix::Decimal => None,
            Radix::Hex => Some(4),
            Radix::Octal => Some(3),
            Radix::Binary => Some(1),
        }
    }
}

/// A number as written in an STF file.
///
/// Invariants: at least one digit; every digit is below the base; `*`
/// digits (`None`) only in hex, octal and binary numbers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Number {
    radix: Radix,
    /// Most significant first; `None` is a `*` (don't-care) digit.
    digits: Vec<Option<u8>>,
}

impl Number {
    /// Parses one number token: `123`, `0x0a**`, `0X1F`, `0o7*`, `0b10*1`.
    ///
    /// The error is a sentence for the user.
    pub fn parse(text: &str) -> Result<Number, String> {
        // Rendered only into an error.
        let shown = crate::lexer::Snippet(text);
        let bytes = text.as_bytes();
        let (radix, body) =
            if bytes.len() >= 2 && bytes[0] == b'0' && matches!(bytes[1], b'x' | b'X') {
                (Radix::Hex, &text[2..])
            } else if bytes.len() >= 2 && bytes[0] == b'0' && matches!(bytes[1], b'b' | b'B') {
                (Radix::Binary, &text[2..])
            } else if bytes.len() >= 2 && bytes[0] == b'0' && matches!(bytes[1], b'o' | b'O') {
                (Radix::Octal, &text[2..])
            } else {
                (Radix::Decimal, text)
            };
        if body.is_empty() {
            return Err(match radix {
                Radix::Decimal => "expected a number".to_string(),
                Radix::Hex => format!("`{shown}` needs at least one hex digit after `0x`"),
                Radix::Octal => format!("`{shown}` needs at least one octal digit after `0o`"),
                Radix::Binary => format!("`{shown}` needs at least one binary digit after `0b`"),
            });
        }
        if body.chars().count() > MAX_DIGITS {
            return Err(format!("`{shown}` has more than {MAX_DIGITS} digits"));
        }
        let mut digits = Vec::with_capacity(body.len());
        for c in body.chars() {
            let d = match (radix, c) {
                (Radix::Hex | Radix::Octal | Radix::Binary, '*') => None,
                (Radix::Decimal, '*') => {
                    return Err(format!(
                        "`{shown}`: don't-care digits `*` need a hex (`0x..`) or binary (`0b..`) number"
                    ));
                }
                _ => match c.to_digit(radix.base()) {
                    Some(v) => Some(v as u8),
                    None => {
                        return Err(match radix {
                            Radix::Decimal if c.is_ascii_alphabetic() || c == '_' || c == '$' => {
                                format!(
                                    "`{shown}` is not a number: decimal numbers have only the digits 0-9 \
                                 (hex needs `0x`), and names cannot start with a digit"
                                )
                            }
                            Radix::Decimal => {
                                format!("invalid digit `{c}` in decimal number `{shown}`")
                            }
                            Radix::Hex => format!("invalid hex digit `{c}` in `{shown}`"),
                            Radix::Octal => format!("invalid octal digit `{c}` in `{shown}`"),
                            Radix::Binary => {
                                format!("invalid binary digit `{c}` in `{shown}` (only 0, 1 and *)")
                            }
                        });
                    }
                },
            };
            digits.push(d);
        }
        Ok(Number { radix, digits })
    }

    /// Builds a number from digits (most significant first, `None` = `*`).
    /// Returns `None` if the digits break the invariants.
    pub fn from_digits(radix: Radix, digits: Vec<Option<u8>>) -> Option<Number> {
        let ok = !digits.is_empty()
            && digits.len() <= MAX_DIGITS
            && digits.iter().all(|d| match d {
                Some(v) => u32::from(*v) < radix.base(),
                None => radix != Radix::Decimal,
            });
        ok.then_some(Number { radix, digits })
    }

    /// The decimal number `value`.
    pub fn from_u128(value: u128) -> Number {
        let digits = value.to_string().bytes().map(|b| Some(b - b'0')).collect();
        Number {
            radix: Radix::Decimal,
            digits,
        }
    }

    /// How the number was written.
    pub fn radix(&self) -> Radix {
        self.radix
    }

    /// The digits, most significant first; `None` is a `*`.
    pub fn digits(&self) -> &[Option<u8>] {
        &self.digits
    }

    /// Whether any digit is `*`.
    pub fn has_dont_care(&self) -> bool {
        self.digits.iter().any(Option::is_none)
    }

    /// Bits covered by the digits written (4 per hex digit, 3 per octal
    /// digit, 1 per binary digit, leading zeros included); `None` for
    /// decimal.
    pub fn written_bits(&self) -> Option<usize> {
        self.radix
            .bits_per_digit()
            .map(|b| b as usize * self.digits.len())
    }

    /// The value as a `u128`; an error if it has `*` digits or is too large.
    pub fn to_u128(&self) -> Result<u128, ValueError> {
        self.to_bounded(128)
    }

    /// The value as a `u64`; an error if it has `*` digits or is too large.
    pub fn to_u64(&self) -> Result<u64, ValueError> {
        self.to_bounded(64).map(|v| v as u64)
    }

    /// The value as a `u32`; an error if it has `*` digits or is too large.
    pub fn to_u32(&self) -> Result<u32, ValueError> {
        self.to_bounded(32).map(|v| v as u32)
    }

    /// Value checked to fit `bits` (at most 128) bits. Linear, stops at
    /// the first overflow.
    fn to_bounded(&self, bits: u32) -> Result<u128, ValueError> {
        let too_large = || ValueError::TooLarge {
            value: self.to_string(),
            bits,
        };
        let base = u128::from(self.radix.base());
        let mut acc: u128 = 0;
        for d in &self.digits {
            let d = d.ok_or_else(|| ValueError::DontCare {
                value: self.to_string(),
            })?;
            acc = acc
                .checked_mul(base)
                .and_then(|a| a.checked_add(u128::from(d)))
                .ok_or_else(too_large)?;
        }
        if bits < 128 && acc >> bits != 0 {
            return Err(too_large());
        }
        Ok(acc)
    }

    /// The value in exactly `(width + 7) / 8` big-endian bytes; an error if
    /// it has `*` digits or needs more than `width` bits.
    pub fn to_be_bytes(&self, width: u32) -> Result<Vec<u8>, ValueError> {
        if self.has_dont_care() {
            return Err(ValueError::DontCare {
                value: self.to_string(),
            });
        }
        self.fit(&self.le_bytes(false), width)
    }

    /// The value (`*` digits read as 0) as minimal little-endian bytes, or
    /// with `mask` the mask (all ones for each written digit, 0 for `*`).
    pub(crate) fn le_bytes(&self, mask: bool) -> Vec<u8> {
        let mut out = match self.radix.bits_per_digit() {
            None => {
                // Decimal: schoolbook multiply-add in base 256 (little endian).
                let mut limbs: Vec<u8> = Vec::new();
                for d in &self.digits {
                    let mut carry = u32::from(d.unwrap_or(0));
                    for limb in limbs.iter_mut() {
                        let v = u32::from(*limb) * 10 + carry;
                        *limb = v as u8;
                        carry = v >> 8;
                    }
                    while carry > 0 {
                        limbs.push(carry as u8);
                        carry >>= 8;
                    }
                }
                limbs
            }
            Some(bpd) => {
                let bpd = bpd as usize;
                let mut out = vec![0u8; (self.digits.len() * bpd).div_ceil(8)];
                for (k, d) in self.digits.iter().rev().enumerate() {
                    let v: u8 = match (d, mask) {
                        (Some(v), false) => *v,
                        (None, false) => 0,
                        (Some(_), true) => ((1u16 << bpd) - 1) as u8,
                        (None, true) => 0,
                    };
                    for j in 0..bpd {
                        if (v >> j) & 1 == 1 {
                            let bit = k * bpd + j;
                            out[bit / 8] |= 1 << (bit % 8);
                        }
                    }
                }
                out
            }
        };
        while out.last() == Some(&0) {
            out.pop();
        }
        out
    }

    /// Little-endian minimal bytes to `width` bits big-endian, or `TooWide`.
    pub(crate) fn fit(&self, le: &[u8], width: u32) -> Result<Vec<u8>, ValueError> {
        let needed = bit_len(le);
        if needed > width as usize {
            return Err(ValueError::TooWide {
                value: self.to_string(),
                needed,
                width,
            });
        }
        Ok(to_be(le, width))
    }
}

/// Number of significant bits in little-endian bytes.
pub(crate) fn bit_len(le: &[u8]) -> usize {
    match le.iter().rposition(|b| *b != 0) {
        None => 0,
        Some(i) => i * 8 + (8 - le[i].leading_zeros() as usize),
    }
}

/// Little-endian bytes to `(width + 7) / 8` big-endian bytes, dropping any
/// bits at or above `width`.
pub(crate) fn to_be(le: &[u8], width: u32) -> Vec<u8> {
    let n = (width as usize).div_ceil(8);
    let mut out = vec![0u8; n];
    for (i, b) in le.iter().take(n).enumerate() {
        out[n - 1 - i] = *b;
    }
    let extra = n * 8 - width as usize;
    if extra > 0 && n > 0 {
        out[0] &= 0xff >> extra;
    }
    out
}

impl fmt::Display for Number {
    /// Canonical form: decimal digits, or `0x`/`0o`/`0b` and lowercase
    /// digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(self.digits.len() + 2);
        match self.radix {
            Radix::Decimal => {}
            Radix::Hex => s.push_str("0x"),
            Radix::Octal => s.push_str("0o"),
            Radix::Binary => s.push_str("0b"),
        }
        for d in &self.digits {
            s.push(match d {
                None => '*',
                Some(v) => char::from_digit(u32::from(*v), 16).unwrap_or('?'),
            });
        }
        f.write_str(&s)
    }
}

impl std::str::FromStr for Number {
    type Err = String;
    fn from_str(s: &str) -> Result<Number, String> {
        Number::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_radixes() {
        let n = Number::parse("0x0a**").unwrap();
        assert_eq!(n.radix(), Radix::Hex);
        assert_eq!(n.digits(), &[Some(0), Some(10), None, None]);
        assert_eq!(n.written_bits(), Some(16));
        assert_eq!(
            Number::parse("0B1*0").unwrap().digits(),
            &[Some(1), None, Some(0)]
        );
        assert_eq!(Number::parse("0X1F").unwrap().to_u64().unwrap(), 31);
        assert_eq!(Number::parse("007").unwrap().to_u64().unwrap(), 7);
        assert_eq!(Number::parse("007").unwrap().to_string(), "007");
        let o = Number::parse("0o1*").unwrap();
        assert_eq!(o.radix(), Radix::Octal);
        assert_eq!(o.written_bits(), Some(6));
        assert_eq!(o.le_bytes(false), vec![0o10]);
        assert_eq!(o.le_bytes(true), vec![0o70]);
        assert_eq!(Number::parse("0O17").unwrap().to_u64().unwrap(), 15);
    }

    #[test]
    fn rejects_bad_numbers() {
        for bad in [
            "0x", "0b", "0o", "0x1g", "0b102", "0o18", "12ab", "1*", "", "1_000",
        ] {
            assert!(Number::parse(bad).is_err(), "{bad}");
        }
        assert!(Number::parse(&"1".repeat(MAX_DIGITS + 1)).is_err());
    }

    #[test]
    fn bounded_conversions() {
        assert_eq!(
            Number::parse("4294967295").unwrap().to_u32().unwrap(),
            u32::MAX
        );
        assert!(Number::parse("4294967296").unwrap().to_u32().is_err());
        assert_eq!(
            Number::parse(&u128::MAX.to_string())
                .unwrap()
                .to_u128()
                .unwrap(),
            u128::MAX
        );
        assert!(
            Number::parse("340282366920938463463374607431768211456")
                .unwrap()
                .to_u128()
                .is_err()
        );
        assert!(matches!(
            Number::parse("0x1*").unwrap().to_u64(),
            Err(ValueError::DontCare { .. })
        ));
        // Many leading zeros are fine.
        let zeros = format!("0x{}1", "0".repeat(1000));
        assert_eq!(Number::parse(&zeros).unwrap().to_u64().unwrap(), 1);
    }

    #[test]
    fn wide_values() {
        // 2^128 + 1 in decimal, into 136 bits.
        let n = Number::parse("340282366920938463463374607431768211457").unwrap();
        let b = n.to_be_bytes(136).unwrap();
        assert_eq!(b.len(), 17);
        assert_eq!(b[0], 1);
        assert_eq!(b[16], 1);
        assert!(b[1..16].iter().all(|x| *x == 0));
        assert!(matches!(
            n.to_be_bytes(128),
            Err(ValueError::TooWide {
                needed: 129,
                width: 128,
                ..
            })
        ));
        let ipv6 = Number::parse("0x20010db8000000000000000000000001").unwrap();
        let b = ipv6.to_be_bytes(128).unwrap();
        assert_eq!(&b[..4], &[0x20, 0x01, 0x0d, 0xb8]);
        assert_eq!(b[15], 1);
    }

    #[test]
    fn odd_widths() {
        let n = Number::parse("0x1ff").unwrap();
        assert_eq!(n.to_be_bytes(9).unwrap(), vec![0x01, 0xff]);
        assert!(n.to_be_bytes(8).is_err());
        assert_eq!(
            Number::parse("0").unwrap().to_be_bytes(0).unwrap(),
            Vec::<u8>::new()
        );
        assert!(Number::parse("1").unwrap().to_be_bytes(0).is_err());
    }

    #[test]
    fn from_digits_checks_invariants() {
        assert!(Number::from_digits(Radix::Decimal, vec![None]).is_none());
        assert!(Number::from_digits(Radix::Binary, vec![Some(2)]).is_none());
        assert!(Number::from_digits(Radix::Hex, vec![]).is_none());
        assert!(Number::from_digits(Radix::Hex, vec![Some(15), None]).is_some());
        assert_eq!(Number::from_u128(0).to_string(), "0");
        assert_eq!(Number::from_u128(1234).to_u64().unwrap(), 1234);
    }
}
