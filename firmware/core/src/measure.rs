//! Measured boot: a PCR-style hash chain over what the boot ROM hands
//! over, with an event log that lets a verifier replay it.
//!
//! The chain starts at 32 zero bytes and is extended, in this order, with
//! the SHA-256 of the image's header and manifest (event kind 0, version =
//! the image's security version), then with the SHA-256 of each component
//! payload in manifest order (event kind = the component type's code,
//! version = the component's version). `extend(pcr, d) = SHA-256(pcr || d)`.

use alloc::vec::Vec;

use sha2::{Digest, Sha256};

use crate::image::{ComponentType, ImageView};

/// What an event measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// The image's header and manifest.
    Manifest,
    /// A component's payload.
    Component(ComponentType),
}

impl EventKind {
    /// 0 for the manifest, else the component type's code.
    pub const fn code(self) -> u16 {
        match self {
            EventKind::Manifest => 0,
            EventKind::Component(ty) => ty.code(),
        }
    }
}

/// One entry of the event log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub kind: EventKind,
    pub version: u32,
    /// The SHA-256 extended into the chain.
    pub digest: [u8; 32],
}

impl Event {
    /// Size of an encoded event: kind (u16 LE), version (u32 LE), digest.
    pub const ENCODED_LEN: usize = 38;

    /// The event's bytes, as hashed into the event-log digest.
    pub fn encode(&self) -> [u8; Self::ENCODED_LEN] {
        let mut out = [0u8; Self::ENCODED_LEN];
        out[0..2].copy_from_slice(&self.kind.code().to_le_bytes());
        out[2..6].copy_from_slice(&self.version.to_le_bytes());
        out[6..].copy_from_slice(&self.digest);
        out
    }
}

/// `SHA-256(pcr || digest)`.
pub fn extend(pcr: &[u8; 32], digest: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(pcr);
    h.update(digest);
    h.finalize().into()
}

/// The chain's value and the events that produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measurements {
    pub pcr: [u8; 32],
    pub events: Vec<Event>,
}

impl Measurements {
    /// The measurements of booting `image`.
    pub fn of_image(image: &ImageView<'_>) -> Self {
        let mut events = Vec::with_capacity(image.component_count() + 1);
        events.push(Event {
            kind: EventKind::Manifest,
            version: image.security_version(),
            digest: Sha256::digest(image.header_and_manifest()).into(),
        });
        for c in image.components() {
            events.push(Event {
                kind: EventKind::Component(c.ty),
                version: c.version,
                digest: Sha256::digest(c.payload).into(),
            });
        }
        Measurements {
            pcr: Self::replay(&events),
            events,
        }
    }

    /// The chain value an event log produces.
    pub fn replay(events: &[Event]) -> [u8; 32] {
        events
            .iter()
            .fold([0u8; 32], |pcr, e| extend(&pcr, &e.digest))
    }

    /// SHA-256 over the encoded events in order.
    pub fn log_digest(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        for e in &self.events {
            h.update(e.encode());
        }
        h.finalize().into()
    }
}
