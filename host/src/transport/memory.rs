//! Where everything of one VF sits in its memory file: one queue pair's
//! rings and the counters (placed by [`FunctionLayout::plan`], as the
//! register space describes them), then the packet buffers: one
//! [`BUF_SIZE`] slot per descriptor of each ring, receive slots first.
//! Descriptor addresses are offsets in this memory.

use crate::regs::{FunctionKindCode, FunctionLayout, FunctionShape};
use crate::ring::{RingConfig, Suppression};

use super::TransportError;

/// Bytes of one packet buffer: an Ethernet frame of MTU 1500 with room to
/// spare (larger frames are dropped and counted).
pub const BUF_SIZE: u32 = 2048;

/// The layout of one VF's memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VfMemory {
    /// Rings and counters.
    pub function: FunctionLayout,
    /// Offset of the first receive buffer (then the transmit buffers).
    pub buffers: u64,
    /// Bytes of the whole memory.
    pub len: u64,
}

impl VfMemory {
    /// Plans the memory of the VF on NIC port `port` with rings of
    /// `ring_size` descriptors.
    pub fn plan(port: u32, ring_size: u16) -> Result<Self, TransportError> {
        if !janus_nic::ports::is_vf(port) {
            return Err(TransportError::NotAVf(port));
        }
        let function = FunctionLayout::plan(FunctionShape {
            kind: FunctionKindCode::Virtual,
            vf_index: (port - janus_nic::ports::FIRST_VF) as u16,
            port,
            queue_pairs: 1,
            ring_size,
            suppression: Suppression::EventIdx,
        })?;
        let buffers = function.region_len.next_multiple_of(64);
        let len = buffers + 2 * u64::from(ring_size) * u64::from(BUF_SIZE);
        Ok(Self {
            function,
            buffers,
            len,
        })
    }

    /// Descriptors per ring.
    pub fn ring_size(&self) -> u16 {
        self.function.shape.ring_size
    }

    /// The receive ring (NIC to host).
    pub fn rx(&self) -> RingConfig {
        RingConfig {
            layout: self.function.queues[0].rx,
            suppression: self.function.shape.suppression,
        }
    }

    /// The transmit ring (host to NIC).
    pub fn tx(&self) -> RingConfig {
        RingConfig {
            layout: self.function.queues[0].tx,
            suppression: self.function.shape.suppression,
        }
    }

    /// Offset of receive buffer `i`.
    pub fn rx_buffer(&self, i: u16) -> u64 {
        self.buffers + u64::from(i) * u64::from(BUF_SIZE)
    }

    /// Offset of transmit buffer `i`.
    pub fn tx_buffer(&self, i: u16) -> u64 {
        self.rx_buffer(self.ring_size()) + u64::from(i) * u64::from(BUF_SIZE)
    }

    /// Whether `addr..addr+len` lies in the packet buffers (the NIC reads
    /// and writes packets nowhere else, whatever a descriptor says).
    pub fn in_buffers(&self, addr: u64, len: u32) -> bool {
        addr >= self.buffers
            && addr
                .checked_add(u64::from(len))
                .is_some_and(|e| e <= self.len)
    }

    /// Offset of the counter at `index` of the counters block.
    pub fn counter(&self, index: u64) -> u64 {
        self.function.counters + 8 * index
    }
}
