//! Values as operators type and read them: decimal, `0x` hex, `0b`
//! binary (numbers through `janus_stf::Number`, the parser the entries
//! files use), MAC `aa:bb:cc:dd:ee:ff`, IPv4 `a.b.c.d` and IPv6. On the
//! wire they are P4Runtime's canonical byte strings (big-endian, shortest,
//! at least one byte).

use janus_stf::Number;
use std::net::{Ipv4Addr, Ipv6Addr};

/// `text` as the canonical byte string of a `width`-bit field; the error
/// is a sentence for the user.
pub fn parse(text: &str, width: u32) -> Result<Vec<u8>, String> {
    let text = text.trim();
    let bytes = if let Some(mac) = parse_mac(text) {
        mac.to_vec()
    } else if let Ok(ip) = text.parse::<Ipv4Addr>() {
        ip.octets().to_vec()
    } else if text.contains(':') {
        text.parse::<Ipv6Addr>()
            .map_err(|_| format!("`{text}` is neither a MAC address nor an IPv6 address"))?
            .octets()
            .to_vec()
    } else {
        Number::parse(text)?
            .to_be_bytes(width)
            .map_err(|e| e.to_string())?
    };
    fit(&bytes, width).ok_or_else(|| {
        format!(
            "`{text}` needs {} bits but the field is {width} bits wide",
            bit_len(&bytes)
        )
    })
}

/// `v` as a canonical byte string.
pub fn from_u64(v: u64) -> Vec<u8> {
    canonical(&v.to_be_bytes())
}

/// Big-endian `bytes` without leading zero bytes (one byte at least).
pub fn canonical(bytes: &[u8]) -> Vec<u8> {
    let first = bytes.iter().position(|b| *b != 0).unwrap_or(bytes.len());
    if first == bytes.len() {
        vec![0]
    } else {
        bytes[first..].to_vec()
    }
}

/// The canonical form of `bytes` when its value fits in `width` bits.
pub fn fit(bytes: &[u8], width: u32) -> Option<Vec<u8>> {
    (bit_len(bytes) <= width as usize).then(|| canonical(bytes))
}

/// All ones over `width` bits, canonical.
pub fn ones(width: u32) -> Vec<u8> {
    let len = (width as usize).div_ceil(8).max(1);
    let mut v = vec![0xff; len];
    let spare = len * 8 - width as usize;
    if spare > 0 {
        v[0] >>= spare;
    }
    canonical(&v)
}

/// Significant bits of a big-endian value.
fn bit_len(bytes: &[u8]) -> usize {
    match bytes.iter().position(|b| *b != 0) {
        None => 0,
        Some(i) => (bytes.len() - i - 1) * 8 + (8 - bytes[i].leading_zeros() as usize),
    }
}

/// `aa:bb:cc:dd:ee:ff` (one or two hex digits per byte).
fn parse_mac(text: &str) -> Option<[u8; 6]> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 6 {
        return None;
    }
    let mut mac = [0u8; 6];
    for (slot, p) in mac.iter_mut().zip(&parts) {
        if p.is_empty() || p.len() > 2 {
            return None;
        }
        *slot = u8::from_str_radix(p, 16).ok()?;
    }
    Some(mac)
}

/// How a field's values are shown, from its width and name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Mac,
    Ipv4,
    Ipv6,
    Number,
}

impl Style {
    /// 48-bit fields are MACs; 32- and 128-bit fields named like
    /// addresses (`ipv4`, `ipv6`, `vtep`, `..addr`) are IP addresses.
    pub fn of(name: &str, width: u32) -> Style {
        let name = name.to_ascii_lowercase();
        let addr = name.ends_with("addr") || name.contains("vtep");
        match width {
            48 => Style::Mac,
            32 if addr || name.contains("ipv4") => Style::Ipv4,
            128 if addr || name.contains("ipv6") => Style::Ipv6,
            _ => Style::Number,
        }
    }
}

/// A value read from the server, in a form [`parse`] reads back.
pub fn render(bytes: &[u8], style: Style) -> String {
    let padded = |n: usize| -> Option<Vec<u8>> {
        let c = canonical(bytes);
        (c.len() <= n).then(|| {
            let mut v = vec![0; n - c.len()];
            v.extend_from_slice(&c);
            v
        })
    };
    match style {
        Style::Mac => {
            if let Some(v) = padded(6) {
                return v
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect::<Vec<_>>()
                    .join(":");
            }
        }
        Style::Ipv4 => {
            if let Some(v) = padded(4) {
                return Ipv4Addr::new(v[0], v[1], v[2], v[3]).to_string();
            }
        }
        Style::Ipv6 => {
            if let Some(v) = padded(16) {
                let mut a = [0u8; 16];
                a.copy_from_slice(&v);
                return Ipv6Addr::from(a).to_string();
            }
        }
        Style::Number => {}
    }
    match padded(16) {
        Some(v) if canonical(bytes).len() <= 8 => {
            let mut a = [0u8; 16];
            a.copy_from_slice(&v);
            u128::from_be_bytes(a).to_string()
        }
        _ => {
            let hex: String = canonical(bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            format!("0x{hex}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_notation_to_canonical_bytes() {
        assert_eq!(parse("1001", 24).unwrap(), vec![0x03, 0xe9]);
        assert_eq!(parse("0x0017", 16).unwrap(), vec![0x17]);
        assert_eq!(parse("0", 9).unwrap(), vec![0]);
        assert_eq!(
            parse("02:00:00:00:01:02", 48).unwrap(),
            vec![2, 0, 0, 0, 1, 2]
        );
        assert_eq!(parse("10.1.0.2", 32).unwrap(), vec![10, 1, 0, 2]);
        assert_eq!(parse("0.0.0.7", 32).unwrap(), vec![7]);
        assert_eq!(parse("fd01::1", 128).unwrap()[0], 0xfd);
        assert!(parse("512", 9).unwrap_err().contains("10 bits"));
        assert!(parse("10.1.0.2", 16).is_err());
        assert!(parse("0x1*", 8).is_err());
        assert!(parse("port", 8).is_err());
        assert!(parse("1:2:3", 8).is_err());
    }

    #[test]
    fn renders_what_parse_reads_back() {
        for (text, width, name) in [
            ("02:00:00:00:01:02", 48, "hdr.ethernet.dst_addr"),
            ("10.1.0.2", 32, "meta.src_ipv4"),
            ("192.168.0.20", 32, "remote_vtep"),
            ("fd01::1", 128, "ipv6"),
            ("1001", 24, "meta.vni"),
        ] {
            let bytes = parse(text, width).unwrap();
            assert_eq!(render(&bytes, Style::of(name, width)), text);
        }
        assert_eq!(ones(9), vec![1, 0xff]);
        assert_eq!(ones(16), vec![0xff, 0xff]);
    }
}
