//! The checked, zero-copy view of an image: [`Image::parse`] validates the
//! whole structure once (never panicking on any input), after which every
//! accessor reads fields at offsets known to be in bounds.

use alloc::vec::Vec;

use super::format::*;
use super::{ComponentType, FormatIssue, ImageError};

/// Namespace of the image parser: `Image::parse(bytes)`.
pub enum Image {}

impl Image {
    /// Parses and structurally checks an image (the whole buffer is the
    /// image). It does not check hashes or the signature: see
    /// [`super::verify`].
    pub fn parse(bytes: &[u8]) -> Result<ImageView<'_>, ImageError> {
        ImageView::new_checked(bytes)
    }

    /// The total length an image claims in its header, from a prefix of at
    /// least [`HEADER_LEN`] bytes (to know how much to read from flash).
    pub fn declared_len(prefix: &[u8]) -> Result<usize, ImageError> {
        check_fixed_prefix(prefix)?;
        Ok(read_u32(prefix, H_TOTAL_LEN)? as usize)
    }
}

/// One component of a parsed image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Component<'a> {
    /// Its position in the manifest.
    pub index: usize,
    pub ty: ComponentType,
    pub version: u32,
    /// Where the payload starts, from the start of the image.
    pub offset: usize,
    /// The SHA-256 the manifest declares for the payload.
    pub sha256: [u8; 32],
    pub payload: &'a [u8],
}

/// A source file's hash in the provenance section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceHash<'a> {
    pub name: &'a str,
    pub sha256: [u8; 32],
}

/// The build provenance of an image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance<'a> {
    /// Build time, seconds since the Unix epoch (UTC).
    pub build_time: u64,
    pub tool_version: &'a str,
    bytes: &'a [u8],
    source_count: usize,
}

impl<'a> Provenance<'a> {
    /// The hashed source files, in build order.
    pub fn sources(&self) -> impl Iterator<Item = SourceHash<'a>> + 'a {
        let bytes = self.bytes;
        let mut at = PROVENANCE_FIXED_LEN + self.tool_version.len();
        (0..self.source_count).map(move |_| {
            let name_len = u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
            let name_at = at + 2;
            let hash_at = name_at + name_len;
            at = hash_at + 32;
            SourceHash {
                // Checked to be UTF-8 by the parser.
                name: core::str::from_utf8(&bytes[name_at..hash_at]).unwrap_or_default(),
                sha256: sha_at(bytes, hash_at),
            }
        })
    }
}

/// A structurally valid image borrowed from a byte buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageView<'a> {
    bytes: &'a [u8],
    parts: Parts,
}

/// Where the sections of a checked image are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    component_count: usize,
    provenance_start: usize,
    provenance_end: usize,
    signature_start: usize,
}

/// A structurally valid image that owns its bytes (an image read from
/// flash into RAM).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedImage {
    bytes: Vec<u8>,
    parts: Parts,
}

impl OwnedImage {
    /// Parses `bytes` as [`Image::parse`] does and keeps them.
    pub fn new(bytes: Vec<u8>) -> Result<Self, ImageError> {
        let parts = ImageView::new_checked(&bytes)?.parts;
        Ok(OwnedImage { bytes, parts })
    }

    /// The view of the image.
    pub fn view(&self) -> ImageView<'_> {
        ImageView {
            bytes: &self.bytes,
            parts: self.parts,
        }
    }

    /// The image's bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

fn err(offset: usize, issue: FormatIssue) -> ImageError {
    ImageError { offset, issue }
}

fn read_u16(buf: &[u8], at: usize) -> Result<u16, ImageError> {
    u16_at(buf, at).ok_or(err(at, FormatIssue::Truncated))
}

fn read_u32(buf: &[u8], at: usize) -> Result<u32, ImageError> {
    u32_at(buf, at).ok_or(err(at, FormatIssue::Truncated))
}

fn sha_at(buf: &[u8], at: usize) -> [u8; 32] {
    let mut out = [0u8; 32];
    out.copy_from_slice(&buf[at..at + 32]);
    out
}

/// Magic and format version: what must hold before any length is trusted.
fn check_fixed_prefix(bytes: &[u8]) -> Result<(), ImageError> {
    if bytes.len() < HEADER_LEN {
        return Err(err(bytes.len(), FormatIssue::Truncated));
    }
    if bytes[H_MAGIC..H_MAGIC + MAGIC.len()] != MAGIC {
        return Err(err(H_MAGIC, FormatIssue::BadMagic));
    }
    let version = read_u16(bytes, H_FORMAT_VERSION)?;
    if version != FORMAT_VERSION {
        return Err(err(
            H_FORMAT_VERSION,
            FormatIssue::UnsupportedVersion(version),
        ));
    }
    Ok(())
}

/// The model name field: UTF-8, 1 to 32 bytes, then NULs only.
fn check_model_name(field: &[u8]) -> Result<&str, ImageError> {
    let len = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    if len == 0 {
        return Err(err(H_MODEL_NAME, FormatIssue::ModelName));
    }
    if let Some(pos) = field[len..].iter().position(|&b| b != 0) {
        return Err(err(H_MODEL_NAME + len + pos, FormatIssue::ModelName));
    }
    core::str::from_utf8(&field[..len])
        .map_err(|e| err(H_MODEL_NAME + e.valid_up_to(), FormatIssue::ModelName))
}

impl<'a> ImageView<'a> {
    fn new_checked(bytes: &'a [u8]) -> Result<Self, ImageError> {
        check_fixed_prefix(bytes)?;
        let total = read_u32(bytes, H_TOTAL_LEN)? as usize;
        if total != bytes.len() {
            return Err(err(
                H_TOTAL_LEN,
                FormatIssue::LengthMismatch {
                    declared: total,
                    actual: bytes.len(),
                },
            ));
        }
        let count = read_u16(bytes, H_COMPONENT_COUNT)? as usize;
        if count == 0 || count > MAX_COMPONENTS {
            return Err(err(H_COMPONENT_COUNT, FormatIssue::ComponentCount(count)));
        }
        check_model_name(&bytes[H_MODEL_NAME..H_MODEL_NAME + MODEL_NAME_LEN])?;
        if let Some(pos) = bytes[H_RESERVED..HEADER_LEN].iter().position(|&b| b != 0) {
            return Err(err(H_RESERVED + pos, FormatIssue::ReservedNotZero));
        }
        let provenance_len = read_u32(bytes, H_PROVENANCE_LEN)? as usize;
        let provenance_start = HEADER_LEN + count * ENTRY_LEN;
        let signature_start = total
            .checked_sub(SIGNATURE_LEN)
            .ok_or(err(total, FormatIssue::Truncated))?;
        let provenance_end = provenance_start
            .checked_add(provenance_len)
            .filter(|&end| end <= signature_start)
            .ok_or(err(H_PROVENANCE_LEN, FormatIssue::SectionBounds))?;
        let parts = Parts {
            component_count: count,
            provenance_start,
            provenance_end,
            signature_start,
        };
        let view = ImageView { bytes, parts };
        view.check_manifest()?;
        view.check_provenance()?;
        Ok(view)
    }

    /// Each entry: a defined type at most once, reserved zero, payloads
    /// tiling the payload area in manifest order.
    fn check_manifest(&self) -> Result<(), ImageError> {
        let mut cursor = self.parts.provenance_end;
        let mut seen = [false; ComponentType::ALL.len()];
        for index in 0..self.parts.component_count {
            let entry = HEADER_LEN + index * ENTRY_LEN;
            let code = read_u16(self.bytes, entry + E_TYPE)?;
            let ty = ComponentType::from_code(code)
                .ok_or(err(entry + E_TYPE, FormatIssue::UnknownComponentType(code)))?;
            if core::mem::replace(&mut seen[ty.index()], true) {
                return Err(err(entry + E_TYPE, FormatIssue::DuplicateComponent(ty)));
            }
            if read_u16(self.bytes, entry + E_RESERVED)? != 0 {
                return Err(err(entry + E_RESERVED, FormatIssue::ReservedNotZero));
            }
            let offset = read_u32(self.bytes, entry + E_OFFSET)? as usize;
            if offset != cursor {
                return Err(err(entry + E_OFFSET, FormatIssue::ComponentPlacement));
            }
            let length = read_u32(self.bytes, entry + E_LENGTH)? as usize;
            cursor = offset
                .checked_add(length)
                .filter(|&end| end <= self.parts.signature_start)
                .ok_or(err(entry + E_LENGTH, FormatIssue::ComponentPlacement))?;
        }
        if cursor != self.parts.signature_start {
            return Err(err(cursor, FormatIssue::ComponentPlacement));
        }
        Ok(())
    }

    /// Tool version and source names UTF-8, the section consumed exactly.
    fn check_provenance(&self) -> Result<(), ImageError> {
        let base = self.parts.provenance_start;
        let section = &self.bytes[base..self.parts.provenance_end];
        if section.len() < PROVENANCE_FIXED_LEN {
            return Err(err(base + section.len(), FormatIssue::Provenance));
        }
        let tool_len = read_u16(section, P_TOOL_VERSION_LEN)? as usize;
        let sources = read_u16(section, P_SOURCE_COUNT)? as usize;
        let mut at = P_TOOL_VERSION;
        let text = |at: usize, len: usize| -> Result<usize, ImageError> {
            let end = at + len;
            let field = section
                .get(at..end)
                .ok_or(err(base + at, FormatIssue::Provenance))?;
            core::str::from_utf8(field)
                .map_err(|e| err(base + at + e.valid_up_to(), FormatIssue::Provenance))?;
            Ok(end)
        };
        at = text(at, tool_len)?;
        for _ in 0..sources {
            let name_len =
                u16_at(section, at).ok_or(err(base + at, FormatIssue::Provenance))? as usize;
            at = text(at + 2, name_len)? + 32;
            if at > section.len() {
                return Err(err(base + section.len(), FormatIssue::Provenance));
            }
        }
        if at != section.len() {
            return Err(err(base + at, FormatIssue::Provenance));
        }
        Ok(())
    }

    /// The whole image.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    pub fn format_version(&self) -> u16 {
        FORMAT_VERSION
    }

    pub fn total_len(&self) -> usize {
        self.bytes.len()
    }

    /// The anti-rollback security version.
    pub fn security_version(&self) -> u32 {
        u32::from_le_bytes(self.field(H_SECURITY_VERSION))
    }

    pub fn model_id(&self) -> u32 {
        u32::from_le_bytes(self.field(H_MODEL_ID))
    }

    pub fn model_name(&self) -> &'a str {
        let field = &self.bytes[H_MODEL_NAME..H_MODEL_NAME + MODEL_NAME_LEN];
        let len = field.iter().position(|&b| b == 0).unwrap_or(field.len());
        // Checked to be UTF-8 by the parser.
        core::str::from_utf8(&field[..len]).unwrap_or_default()
    }

    /// The Ed25519 public key the image says it is signed with.
    pub fn signer_key(&self) -> [u8; 32] {
        self.field(H_SIGNER_KEY)
    }

    /// The header and manifest bytes (measured as one event at boot).
    pub fn header_and_manifest(&self) -> &'a [u8] {
        &self.bytes[..self.parts.provenance_start]
    }

    /// Everything the signature covers.
    pub fn signed_bytes(&self) -> &'a [u8] {
        &self.bytes[..self.parts.signature_start]
    }

    pub fn signature(&self) -> [u8; SIGNATURE_LEN] {
        self.field(self.parts.signature_start)
    }

    pub fn component_count(&self) -> usize {
        self.parts.component_count
    }

    /// The components in manifest order.
    pub fn components(&self) -> impl Iterator<Item = Component<'a>> + 'a {
        let bytes = self.bytes;
        (0..self.parts.component_count).map(move |index| {
            let entry = HEADER_LEN + index * ENTRY_LEN;
            let u32_field = |at: usize| {
                u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
            };
            let code = u16::from_le_bytes([bytes[entry + E_TYPE], bytes[entry + E_TYPE + 1]]);
            let offset = u32_field(entry + E_OFFSET) as usize;
            let length = u32_field(entry + E_LENGTH) as usize;
            Component {
                index,
                // Checked to be a defined type by the parser.
                ty: ComponentType::from_code(code).unwrap_or(ComponentType::Pipeline),
                version: u32_field(entry + E_VERSION),
                offset,
                sha256: sha_at(bytes, entry + E_SHA256),
                payload: &bytes[offset..offset + length],
            }
        })
    }

    /// The component of type `ty`, if the image has one.
    pub fn component(&self, ty: ComponentType) -> Option<Component<'a>> {
        self.components().find(|c| c.ty == ty)
    }

    pub fn provenance(&self) -> Provenance<'a> {
        let section = &self.bytes[self.parts.provenance_start..self.parts.provenance_end];
        let tool_len =
            u16::from_le_bytes([section[P_TOOL_VERSION_LEN], section[P_TOOL_VERSION_LEN + 1]])
                as usize;
        Provenance {
            build_time: u64_at(section, P_BUILD_TIME).unwrap_or_default(),
            // Checked to be UTF-8 by the parser.
            tool_version: core::str::from_utf8(&section[P_TOOL_VERSION..P_TOOL_VERSION + tool_len])
                .unwrap_or_default(),
            bytes: section,
            source_count: u16::from_le_bytes([section[P_SOURCE_COUNT], section[P_SOURCE_COUNT + 1]])
                as usize,
        }
    }

    fn field<const N: usize>(&self, at: usize) -> [u8; N] {
        let mut out = [0u8; N];
        out.copy_from_slice(&self.bytes[at..at + N]);
        out
    }
}
