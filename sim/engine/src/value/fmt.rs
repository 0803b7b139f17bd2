//! Display of values as width-prefixed hexadecimal, close to P4 literal
//! syntax: `8w0x2a` for `bit<8>` 42, `16s0x7` for `int<16>` 7 and
//! `16s-0x3` for `int<16>` -3 (the sign goes after the width prefix, so
//! the width is always first and the magnitude is read as unsigned, which
//! also covers the minimum: `8s-0x80`).

use super::Bits;
use std::fmt;

impl fmt::Display for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.signed { 's' } else { 'w' };
        if self.is_negative() {
            write!(f, "{}{kind}-0x", self.width)?;
            // The magnitude 2^W - pattern, read as unsigned (exact for the
            // minimum too).
            write_hex(f, self.neg().words())
        } else {
            write!(f, "{}{kind}0x", self.width)?;
            write_hex(f, self.words())
        }
    }
}

/// Same as `Display`: concise in assertion failures and logs.
impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Little-endian words as hexadecimal without leading zeros ("0" for zero).
fn write_hex(f: &mut fmt::Formatter<'_>, words: &[u64]) -> fmt::Result {
    let Some(top) = words.iter().rposition(|&w| w != 0) else {
        return f.write_str("0");
    };
    write!(f, "{:x}", words[top])?;
    for w in words[..top].iter().rev() {
        write!(f, "{w:016x}")?;
    }
    Ok(())
}
