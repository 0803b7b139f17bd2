//! Laying out one function: its shared region (rings, counters) and the
//! register space that describes it.

use super::blocks::QP_F_EVENT_IDX;
use super::field::put;
use super::{
    Counters, Doorbells, FunctionKindCode, HEADER_LEN, Identity, MAX_SPACE_LEN, QueuePair,
    RegsError, TYPE_COUNTERS, TYPE_DOORBELLS, TYPE_IDENTITY, TYPE_QUEUE_PAIR, VERSION_1,
};
use crate::ring::{MAX_QUEUE_SIZE, MAX_REGION_LEN, RingLayout, Suppression};

/// Number of counters of version 1 of the counters block, in this order:
/// received packets, received bytes, transmitted packets, transmitted bytes,
/// received packets dropped, transmitted packets dropped.
pub const COUNTER_COUNT: u32 = 6;

/// Largest number of queue pairs per function.
pub const MAX_QUEUE_PAIRS: u16 = 256;

/// The rings of one queue pair in the function's region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueuePairLayout {
    /// Receive ring (device to host).
    pub rx: RingLayout,
    /// Transmit ring (host to device).
    pub tx: RingLayout,
}

/// Who a function is and how its queues are shaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FunctionShape {
    /// Physical or virtual.
    pub kind: FunctionKindCode,
    /// Index of a virtual function (0 for the physical function).
    pub vf_index: u16,
    /// NIC port of the function.
    pub port: u32,
    /// Queue pairs (1..=[`MAX_QUEUE_PAIRS`]).
    pub queue_pairs: u16,
    /// Descriptors per ring (a power of two up to 32768).
    pub ring_size: u16,
    /// Notification suppression of every ring.
    pub suppression: Suppression,
}

/// A function's full layout: where everything sits in its shared region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionLayout {
    /// The shape it was planned from.
    pub shape: FunctionShape,
    /// Rings of each queue pair.
    pub queues: Vec<QueuePairLayout>,
    /// Offset of the counters in the region.
    pub counters: u64,
    /// Bytes of the region.
    pub region_len: u64,
}

impl FunctionLayout {
    /// Places every ring and the counters, one after the other, each on a
    /// cache line.
    pub fn plan(shape: FunctionShape) -> Result<Self, RegsError> {
        let size = shape.ring_size;
        if size == 0 || size > MAX_QUEUE_SIZE || !size.is_power_of_two() {
            return Err(RegsError::BadField {
                offset: 0,
                what: "ring size is not a power of two up to 32768",
            });
        }
        if shape.queue_pairs == 0 || shape.queue_pairs > MAX_QUEUE_PAIRS {
            return Err(RegsError::BadField {
                offset: 0,
                what: "queue pair count outside 1..=256",
            });
        }
        let mut at = 0u64;
        let mut queues = Vec::with_capacity(usize::from(shape.queue_pairs));
        for _ in 0..shape.queue_pairs {
            let rx = RingLayout::packed_at(size, at);
            let tx = RingLayout::packed_at(size, rx.end());
            at = tx.end();
            queues.push(QueuePairLayout { rx, tx });
        }
        let counters = at.next_multiple_of(64);
        let region_len = (counters + 8 * u64::from(COUNTER_COUNT)).next_multiple_of(64);
        if region_len > MAX_REGION_LEN as u64 {
            return Err(RegsError::TooLarge);
        }
        Ok(Self {
            shape,
            queues,
            counters,
            region_len,
        })
    }

    /// Offset of the doorbells block in the register space.
    fn doorbells_offset(&self) -> usize {
        Identity::<&[u8]>::LEN
            + self.queues.len() * QueuePair::<&[u8]>::LEN
            + Counters::<&[u8]>::LEN
    }

    /// Number of doorbell registers: two per queue pair (receive, transmit).
    pub fn doorbell_count(&self) -> usize {
        2 * self.queues.len()
    }

    /// Offset in the register space of doorbell `slot` (queue pair
    /// `slot / 2`; even slots ring the receive ring, odd ones the transmit
    /// ring); `None` past the last doorbell.
    pub fn doorbell_offset(&self, slot: usize) -> Option<u32> {
        (slot < self.doorbell_count())
            .then(|| (self.doorbells_offset() + Doorbells::<&[u8]>::SLOTS + 4 * slot) as u32)
    }

    /// The doorbell slot at register offset `offset`, if it is one.
    pub fn doorbell_slot(&self, offset: u32) -> Option<usize> {
        let first = self.doorbells_offset() + Doorbells::<&[u8]>::SLOTS;
        let rel = (offset as usize).checked_sub(first)?;
        let slot = rel / 4;
        (rel.is_multiple_of(4) && slot < self.doorbell_count()).then_some(slot)
    }

    /// Lays out the register space: identity, one queue-pair block per
    /// queue, counters, doorbells, chained in that order.
    pub fn build_space(&self) -> Result<Vec<u8>, RegsError> {
        let doorbells = self.doorbell_count();
        let total = self.doorbells_offset() + Doorbells::<&[u8]>::len_for(doorbells);
        if total > MAX_SPACE_LEN {
            return Err(RegsError::TooLarge);
        }
        let mut space = vec![0u8; total];
        let mut at = 0;
        let identity = Identity::<&[u8]>::LEN;
        header(&mut space, at, TYPE_IDENTITY, identity, total)?;
        let s = &self.shape;
        fill(&mut space, at + 16, &s.kind.code().to_le_bytes())?;
        fill(&mut space, at + 18, &s.vf_index.to_le_bytes())?;
        fill(&mut space, at + 20, &s.queue_pairs.to_le_bytes())?;
        fill(&mut space, at + 24, &s.port.to_le_bytes())?;
        fill(&mut space, at + 32, &self.region_len.to_le_bytes())?;
        at += identity;
        let features = match s.suppression {
            Suppression::EventIdx => QP_F_EVENT_IDX,
            Suppression::Flags => 0,
        };
        for (q, qp) in self.queues.iter().enumerate() {
            let len = QueuePair::<&[u8]>::LEN;
            header(&mut space, at, TYPE_QUEUE_PAIR, len, total)?;
            fill(&mut space, at + 16, &(q as u16).to_le_bytes())?;
            fill(&mut space, at + 18, &s.ring_size.to_le_bytes())?;
            fill(&mut space, at + 20, &features.to_le_bytes())?;
            let rings = [
                (QueuePair::<&[u8]>::RX, qp.rx, 2 * q),
                (QueuePair::<&[u8]>::TX, qp.tx, 2 * q + 1),
            ];
            for (field, ring, slot) in rings {
                let f = at + field;
                fill(&mut space, f, &ring.desc.to_le_bytes())?;
                fill(&mut space, f + 8, &ring.avail.to_le_bytes())?;
                fill(&mut space, f + 16, &ring.used.to_le_bytes())?;
                let doorbell = self.doorbell_offset(slot).ok_or(RegsError::TooLarge)?;
                fill(&mut space, f + 24, &doorbell.to_le_bytes())?;
            }
            at += len;
        }
        let len = Counters::<&[u8]>::LEN;
        header(&mut space, at, TYPE_COUNTERS, len, total)?;
        fill(&mut space, at + 16, &COUNTER_COUNT.to_le_bytes())?;
        fill(&mut space, at + 24, &self.counters.to_le_bytes())?;
        at += len;
        header(
            &mut space,
            at,
            TYPE_DOORBELLS,
            Doorbells::<&[u8]>::len_for(doorbells),
            total,
        )?;
        fill(&mut space, at + 16, &(doorbells as u32).to_le_bytes())?;
        Ok(space)
    }
}

/// Writes a block header at `at`; the next pointer is the following block
/// unless this one reaches the end of the space.
fn header(
    space: &mut [u8],
    at: usize,
    block_type: u32,
    len: usize,
    total: usize,
) -> Result<(), RegsError> {
    let next = if at + len >= total { 0 } else { at + len };
    debug_assert!(len >= HEADER_LEN);
    fill(space, at, &block_type.to_le_bytes())?;
    fill(space, at + 4, &VERSION_1.to_le_bytes())?;
    fill(space, at + 8, &(next as u32).to_le_bytes())?;
    fill(space, at + 12, &(len as u32).to_le_bytes())
}

fn fill(space: &mut [u8], at: usize, value: &[u8]) -> Result<(), RegsError> {
    if put(space, at, value) {
        Ok(())
    } else {
        Err(RegsError::TooLarge)
    }
}
