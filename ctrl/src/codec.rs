//! The P4Runtime wire conventions every entity shares: errors with their
//! canonical gRPC codes ([`RpcError`]) and the byte strings that carry
//! values (P4Runtime 1.5, "Bytestrings"), bit fields packed as headers
//! are (controller headers, digests), and the update kinds an entity
//! takes. A leaf: it knows no entity.

use crate::proto::p4::v1 as p4;
use janus_engine::value::Bits;
use thiserror::Error;
use tonic::Code;

/// A P4Runtime error with its canonical code.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{message}")]
pub struct RpcError {
    pub code: Code,
    pub message: String,
}

impl RpcError {
    pub fn new(code: Code, message: impl Into<String>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
        }
    }
}

/// INVALID_ARGUMENT with `message`.
pub(crate) fn invalid(message: impl Into<String>) -> RpcError {
    RpcError::new(Code::InvalidArgument, message)
}

impl From<RpcError> for tonic::Status {
    fn from(e: RpcError) -> tonic::Status {
        tonic::Status::new(e.code, e.message)
    }
}

/// The canonical byte string of a value: big-endian, the shortest that
/// holds it (at least one byte).
pub fn to_bytes(v: &Bits) -> Vec<u8> {
    // Values of up to 128 bits (nearly all) are written on the stack, so
    // the string returned is the only allocation.
    let n = v.byte_len().max(1);
    let mut stack = [0u8; 16];
    let mut heap = Vec::new();
    let out: &mut [u8] = if n <= stack.len() {
        &mut stack[..n]
    } else {
        heap.resize(n, 0);
        &mut heap
    };
    v.to_be_bytes(out);
    let spare = n as u32 * 8 - v.width();
    out[0] &= 0xffu8.checked_shr(spare).unwrap_or(0);
    let first = out.iter().position(|&b| b != 0).unwrap_or(n - 1);
    out[first..].to_vec()
}

/// A byte string as a value of `width` bits. Leading zero bytes are
/// accepted (non-canonical); a value that needs more than `width` bits is
/// OUT_OF_RANGE; an empty string is INVALID_ARGUMENT.
pub fn from_bytes(b: &[u8], width: u32, signed: bool, what: &str) -> Result<Bits, RpcError> {
    if b.is_empty() {
        return Err(invalid(format!("{what}: empty byte string")));
    }
    let first = b.iter().position(|&x| x != 0).unwrap_or(b.len());
    let digits = &b[first..];
    let bits = match digits.first() {
        None => 0,
        Some(&top) => (digits.len() as u32 - 1) * 8 + (8 - top.leading_zeros()),
    };
    if bits > width {
        return Err(RpcError::new(
            Code::OutOfRange,
            format!("{what}: the value needs {bits} bits; the field has {width}"),
        ));
    }
    Ok(Bits::from_be_bytes(width, signed, digits))
}

/// Refuses every update kind but MODIFY, for the entities that can only
/// be modified (counters, registers, meters): INVALID_ARGUMENT naming
/// `what`.
pub(crate) fn only_modify(kind: p4::update::Type, what: &str) -> Result<(), RpcError> {
    if kind == p4::update::Type::Modify {
        Ok(())
    } else {
        Err(invalid(format!("{what} can only be modified (MODIFY)")))
    }
}

/// The value as a u64, if it fits.
pub(crate) fn u64_of(v: &Bits) -> Option<u64> {
    let b = to_bytes(v);
    if b.len() > 8 {
        return None;
    }
    Some(b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
}

/// Packs (width, value) fields most significant bit first, as a header
/// is laid out on the wire; the last byte is zero-padded.
pub(crate) fn pack(fields: &[(u32, Bits)]) -> Vec<u8> {
    let total: u32 = fields.iter().map(|(w, _)| w).sum();
    let mut out = vec![0u8; total.div_ceil(8) as usize];
    let mut at = 0usize;
    for (width, v) in fields {
        let bytes = to_bytes(v);
        let vbits = bytes.len() * 8;
        for i in 0..*width as usize {
            // Bit i of the field (from its most significant bit).
            let from_lsb = *width as usize - 1 - i;
            let bit = from_lsb < vbits && {
                let byte = bytes[bytes.len() - 1 - from_lsb / 8];
                byte >> (from_lsb % 8) & 1 == 1
            };
            if bit {
                out[(at + i) / 8] |= 0x80 >> ((at + i) % 8);
            }
        }
        at += *width as usize;
    }
    out
}

/// The `width`-bit field at bit `at` of `bytes` (most significant bit first).
pub(crate) fn unpack(bytes: &[u8], at: u32, width: u32) -> Bits {
    let mut out = vec![0u8; width.div_ceil(8) as usize];
    let n = out.len();
    for i in 0..width as usize {
        let pos = at as usize + i;
        if bytes[pos / 8] & (0x80 >> (pos % 8)) != 0 {
            let from_lsb = width as usize - 1 - i;
            out[n - 1 - from_lsb / 8] |= 1 << (from_lsb % 8);
        }
    }
    Bits::from_be_bytes(width.max(1), false, &out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_strings_are_canonical_and_checked() {
        let v = from_bytes(&[0, 0, 0x01, 0x02], 9, false, "x").unwrap();
        assert_eq!(to_bytes(&v), vec![0x01, 0x02]);
        assert_eq!(to_bytes(&Bits::zero(32, false)), vec![0]);
        assert_eq!(
            from_bytes(&[0x02, 0x00], 9, false, "x").unwrap_err().code,
            Code::OutOfRange
        );
        assert_eq!(
            from_bytes(&[], 9, false, "x").unwrap_err().code,
            Code::InvalidArgument
        );
        let wide = from_bytes(&[0xff; 6], 48, false, "x").unwrap();
        assert_eq!(to_bytes(&wide), vec![0xff; 6]);
    }

    #[test]
    fn fields_pack_and_unpack_by_width() {
        let f = |w, v| (w, Bits::from_u64(w, false, v));
        let packed = pack(&[f(9, 510), f(7, 0), f(8, 3)]);
        assert_eq!(packed, vec![0xff, 0x00, 0x03]);
        assert_eq!(to_bytes(&unpack(&packed, 0, 9)), vec![0x01, 0xfe]);
        assert_eq!(to_bytes(&unpack(&packed, 16, 8)), vec![3]);
        let odd = pack(&[f(3, 5), f(2, 1)]);
        assert_eq!(odd, vec![0b1010_1000]);
        assert_eq!(to_bytes(&unpack(&odd, 3, 2)), vec![1]);
    }
}
