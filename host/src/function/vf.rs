//! The tenant's handle of one virtual function.

use super::space::{Shared, take_once};
use super::{Counter, Direction, FunctionError, VfIndex};
use crate::ring::Driver;

/// What a tenant holds of its VF: its own register space (read-only), the
/// driver ends of its own rings, its doorbells and its counters. It holds
/// no reference to anything else of the NIC.
#[derive(Debug)]
pub struct VfHandle {
    index: VfIndex,
    shared: Shared,
    drivers_taken: Vec<bool>,
}

impl VfHandle {
    pub(crate) fn new(index: VfIndex, shared: Shared) -> Self {
        let rings = shared.layout.doorbell_count();
        Self {
            index,
            shared,
            drivers_taken: vec![false; rings],
        }
    }

    /// The VF's index.
    pub fn index(&self) -> VfIndex {
        self.index
    }

    /// The VF's register space (read it with [`crate::regs::walk`]).
    pub fn registers(&self) -> &[u8] {
        &self.shared.regs
    }

    /// Length of the VF's shared region.
    pub fn region_len(&self) -> usize {
        self.shared.region.len()
    }

    /// The driver end of `pair`'s ring in direction `dir` (once per ring).
    pub fn driver(&mut self, pair: u16, dir: Direction) -> Result<Driver, FunctionError> {
        let config = self.shared.ring(pair, dir)?;
        take_once(&mut self.drivers_taken, dir.slot(pair), "driver end")?;
        Ok(Driver::new(self.shared.region.clone(), config)?)
    }

    /// A register write. Only the VF's doorbells are writable; any other
    /// offset (another register, past the space) is refused.
    pub fn write_register(&self, offset: u32, value: u32) -> Result<(), FunctionError> {
        let slot = self
            .shared
            .layout
            .doorbell_slot(offset)
            .ok_or(FunctionError::NotADoorbell(offset))?;
        if self.shared.doorbells.ring(slot, value) {
            Ok(())
        } else {
            Err(FunctionError::NotADoorbell(offset))
        }
    }

    /// Rings the doorbell of `pair`'s ring in direction `dir` with `value`
    /// (by convention the ring's new available index).
    pub fn ring_doorbell(
        &self,
        pair: u16,
        dir: Direction,
        value: u32,
    ) -> Result<(), FunctionError> {
        self.shared.ring(pair, dir)?;
        let offset = self.shared.layout.doorbell_offset(dir.slot(pair)).ok_or(
            FunctionError::NoSuchQueue {
                pair,
                pairs: self.shared.layout.shape.queue_pairs,
            },
        )?;
        self.write_register(offset, value)
    }

    /// The current value of one of the VF's counters.
    pub fn counter(&self, counter: Counter) -> Result<u64, FunctionError> {
        let offset = self.shared.layout.counters + 8 * counter.index();
        Ok(self.shared.region.load_u64(offset)?)
    }
}
