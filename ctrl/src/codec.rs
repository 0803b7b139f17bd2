//! The P4Runtime wire conventions every entity shares: errors with their
//! canonical gRPC codes ([`RpcError`]) and the byte strings that carry
//! values (P4Runtime 1.5, "Bytestrings"). A leaf: it knows no entity.

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
    let mut out = vec![0u8; v.byte_len().max(1)];
    v.to_be_bytes(&mut out);
    let spare = out.len() as u32 * 8 - v.width();
    if spare > 0 {
        out[0] &= 0xff >> spare;
    }
    let first = out.iter().position(|&b| b != 0).unwrap_or(out.len() - 1);
    out.split_off(first)
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
