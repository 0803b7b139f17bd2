//! The one message the NIC sends a shim on its VF socket, with the memory
//! file and the two event counters (docs/host-interface.md, "Transport"):
//!
//! ```text
//! 0..4   magic "JNSV"      4..8   version (1)     8..12  status (0 ok, else a Refusal)
//! 12..16 NIC port of the VF                       16..18 ring size    18..20 reserved
//! 20..24 buffer size       24..32 bytes of the memory file
//! ```
//!
//! The shim recomputes the layout from the port and ring size
//! ([`super::VfMemory::plan`]) and checks that it agrees on the length.

use super::{BUF_SIZE, TransportError, VfMemory};

/// First bytes of a handshake.
pub const MAGIC: [u8; 4] = *b"JNSV";
/// The transport's version.
pub const TRANSPORT_VERSION: u32 = 1;
/// Bytes of a handshake.
pub const HANDSHAKE_LEN: usize = 32;

/// Why the NIC refused an attachment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Another shim is attached to the VF.
    #[error("another shim is attached")]
    Busy,
    /// The NIC could not set up the VF's memory.
    #[error("the NIC could not set up the VF's memory")]
    NoMemory,
}

impl Refusal {
    fn code(self) -> u32 {
        match self {
            Self::Busy => 1,
            Self::NoMemory => 2,
        }
    }

    fn from_code(code: u32) -> Option<Self> {
        match code {
            1 => Some(Self::Busy),
            2 => Some(Self::NoMemory),
            _ => None,
        }
    }
}

/// What a handshake says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Handshake {
    /// The VF's NIC port.
    pub port: u32,
    /// Descriptors per ring.
    pub ring_size: u16,
    /// Bytes of the memory file.
    pub len: u64,
    /// `Some` when the NIC refused (then no descriptors come with it).
    pub refusal: Option<Refusal>,
}

impl Handshake {
    /// The acceptance for `memory`.
    pub fn accept(memory: &VfMemory) -> Self {
        Self {
            port: memory.function.shape.port,
            ring_size: memory.ring_size(),
            len: memory.len,
            refusal: None,
        }
    }

    /// A refusal of the VF on `port`.
    pub fn refuse(port: u32, reason: Refusal) -> Self {
        Self {
            port,
            ring_size: 0,
            len: 0,
            refusal: Some(reason),
        }
    }

    /// The message's bytes.
    pub fn encode(&self) -> [u8; HANDSHAKE_LEN] {
        let mut b = [0u8; HANDSHAKE_LEN];
        b[0..4].copy_from_slice(&MAGIC);
        b[4..8].copy_from_slice(&TRANSPORT_VERSION.to_le_bytes());
        b[8..12].copy_from_slice(&self.refusal.map_or(0, Refusal::code).to_le_bytes());
        b[12..16].copy_from_slice(&self.port.to_le_bytes());
        b[16..18].copy_from_slice(&self.ring_size.to_le_bytes());
        b[20..24].copy_from_slice(&BUF_SIZE.to_le_bytes());
        b[24..32].copy_from_slice(&self.len.to_le_bytes());
        b
    }

    /// Parses a message (checking magic, version and buffer size).
    pub fn decode(b: &[u8]) -> Result<Self, TransportError> {
        let bad = |m: &str| TransportError::BadHandshake(m.to_string());
        if b.len() != HANDSHAKE_LEN {
            return Err(bad("wrong length"));
        }
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        if b[0..4] != MAGIC {
            return Err(bad("not a Janus VF socket"));
        }
        if u32_at(4) != TRANSPORT_VERSION {
            return Err(bad("unknown transport version"));
        }
        let status = u32_at(8);
        let refusal = match status {
            0 => None,
            c => Some(Refusal::from_code(c).ok_or_else(|| bad("unknown status"))?),
        };
        if refusal.is_none() && u32_at(20) != BUF_SIZE {
            return Err(bad("unexpected buffer size"));
        }
        let mut len = [0u8; 8];
        len.copy_from_slice(&b[24..32]);
        Ok(Self {
            port: u32_at(12),
            ring_size: u16::from_le_bytes([b[16], b[17]]),
            len: u64::from_le_bytes(len),
            refusal,
        })
    }
}
