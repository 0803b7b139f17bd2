//! Signed firmware images (format version 1, docs/image-format.md): the
//! byte layout ([`format`]), a checked zero-copy parser ([`Image::parse`]),
//! a builder that signs ([`ImageBuilder`]) and the verifier ([`verify()`]).

mod build;
pub mod format;
mod verify;
mod view;

#[cfg(test)]
mod tests;

pub use build::{BuildError, ImageBuilder, ImageSigner, ProvenanceSpec};
pub use verify::{VerifyError, verify};
pub use view::{Component, Image, ImageView, OwnedImage, Provenance, SourceHash};

/// What a component is. Codes 0 and 4 and up are reserved: the parser
/// refuses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComponentType {
    /// The compiled P4 pipeline with its P4Info (a `janus p4 compile -o`
    /// pipeline file).
    Pipeline,
    /// The firmware configuration (tenants bootstrap, management address,
    /// control-plane certificates).
    FirmwareConfig,
    /// The host-shim ABI the image speaks (its version is the ABI version).
    HostAbi,
}

impl ComponentType {
    /// Every defined type, by code.
    pub const ALL: [ComponentType; 3] = [
        ComponentType::Pipeline,
        ComponentType::FirmwareConfig,
        ComponentType::HostAbi,
    ];

    /// The type's code in the manifest.
    pub const fn code(self) -> u16 {
        match self {
            ComponentType::Pipeline => 1,
            ComponentType::FirmwareConfig => 2,
            ComponentType::HostAbi => 3,
        }
    }

    /// The type's position in [`ComponentType::ALL`]: an index into a
    /// table with one slot per type, whatever the codes are.
    pub const fn index(self) -> usize {
        match self {
            ComponentType::Pipeline => 0,
            ComponentType::FirmwareConfig => 1,
            ComponentType::HostAbi => 2,
        }
    }

    /// The type with manifest code `code`, `None` for reserved codes.
    pub const fn from_code(code: u16) -> Option<Self> {
        match code {
            1 => Some(ComponentType::Pipeline),
            2 => Some(ComponentType::FirmwareConfig),
            3 => Some(ComponentType::HostAbi),
            _ => None,
        }
    }

    /// A stable lower-case name (`pipeline`, `firmware-config`, `host-abi`).
    pub const fn name(self) -> &'static str {
        match self {
            ComponentType::Pipeline => "pipeline",
            ComponentType::FirmwareConfig => "firmware-config",
            ComponentType::HostAbi => "host-abi",
        }
    }
}

impl core::fmt::Display for ComponentType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The device model an image is built for: both the id and the name must
/// match the card's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceModel<'a> {
    pub id: u32,
    /// 1 to 32 bytes of UTF-8 without NUL.
    pub name: &'a str,
}

impl core::fmt::Display for DeviceModel<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} (id {:#010x})", self.name, self.id)
    }
}

/// A structural defect of an image, at byte `offset` of it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad image format at byte {offset}: {issue}")]
pub struct ImageError {
    pub offset: usize,
    pub issue: FormatIssue,
}

/// What is wrong with an image's structure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatIssue {
    #[error("the image ends too early")]
    Truncated,
    #[error("not a Janus image (bad magic)")]
    BadMagic,
    #[error("unsupported format version {0} (this firmware reads version 1)")]
    UnsupportedVersion(u16),
    #[error("the header says {declared} bytes, the image has {actual}")]
    LengthMismatch { declared: usize, actual: usize },
    #[error("{0} components (1 to 3 allowed)")]
    ComponentCount(usize),
    #[error("the device model name is not 1 to 32 bytes of UTF-8 padded with NULs")]
    ModelName,
    #[error("a reserved field is not zero")]
    ReservedNotZero,
    #[error("a section does not fit in the image")]
    SectionBounds,
    #[error("reserved component type {0}")]
    UnknownComponentType(u16),
    #[error("component type {0} appears twice")]
    DuplicateComponent(ComponentType),
    #[error("component payloads do not tile the payload area in manifest order")]
    ComponentPlacement,
    #[error("malformed provenance section")]
    Provenance,
}
