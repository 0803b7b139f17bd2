//! The byte layout of image format version 1 (docs/image-format.md): every
//! offset and size as a constant, and little-endian field readers that
//! never panic.

/// The image's first eight bytes.
pub const MAGIC: [u8; 8] = *b"JANUSIMG";
/// The format version this crate writes and reads.
pub const FORMAT_VERSION: u16 = 1;

/// Size of the fixed header.
pub const HEADER_LEN: usize = 96;
/// Size of one manifest entry.
pub const ENTRY_LEN: usize = 48;
/// Size of the trailing Ed25519 signature.
pub const SIGNATURE_LEN: usize = 64;
/// Size of the device model name field (UTF-8, NUL-padded).
pub const MODEL_NAME_LEN: usize = 32;
/// Most components an image may list (one per defined type).
pub const MAX_COMPONENTS: usize = 3;
/// Size of the fixed part of the provenance section.
pub const PROVENANCE_FIXED_LEN: usize = 12;
/// Size of one source hash's fixed part (name length + SHA-256).
pub const SOURCE_FIXED_LEN: usize = 34;

// Header fields: offsets from the start of the image.
pub const H_MAGIC: usize = 0;
pub const H_FORMAT_VERSION: usize = 8;
pub const H_COMPONENT_COUNT: usize = 10;
pub const H_TOTAL_LEN: usize = 12;
pub const H_SECURITY_VERSION: usize = 16;
pub const H_MODEL_ID: usize = 20;
pub const H_MODEL_NAME: usize = 24;
pub const H_PROVENANCE_LEN: usize = 56;
pub const H_SIGNER_KEY: usize = 60;
pub const H_RESERVED: usize = 92;

// Manifest entry fields: offsets from the start of the entry.
pub const E_TYPE: usize = 0;
pub const E_RESERVED: usize = 2;
pub const E_VERSION: usize = 4;
pub const E_OFFSET: usize = 8;
pub const E_LENGTH: usize = 12;
pub const E_SHA256: usize = 16;

// Provenance fields: offsets from the start of the section.
pub const P_BUILD_TIME: usize = 0;
pub const P_TOOL_VERSION_LEN: usize = 8;
pub const P_SOURCE_COUNT: usize = 10;
pub const P_TOOL_VERSION: usize = 12;

/// Reads `N` bytes at `at`, `None` past the end.
pub(crate) fn bytes<const N: usize>(buf: &[u8], at: usize) -> Option<[u8; N]> {
    buf.get(at..at.checked_add(N)?)?.try_into().ok()
}

pub(crate) fn u16_at(buf: &[u8], at: usize) -> Option<u16> {
    bytes(buf, at).map(u16::from_le_bytes)
}

pub(crate) fn u32_at(buf: &[u8], at: usize) -> Option<u32> {
    bytes(buf, at).map(u32::from_le_bytes)
}

pub(crate) fn u64_at(buf: &[u8], at: usize) -> Option<u64> {
    bytes(buf, at).map(u64::from_le_bytes)
}
