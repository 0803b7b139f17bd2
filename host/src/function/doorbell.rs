//! Doorbell registers: write-only, one per ring; the driver writes, the
//! device takes the latest value.

use std::sync::atomic::{AtomicU64, Ordering};

/// Set in a slot when a value waits to be taken.
const PENDING: u64 = 1 << 32;

/// A function's doorbell registers.
#[derive(Debug)]
pub(crate) struct DoorbellSet {
    slots: Box<[AtomicU64]>,
}

impl DoorbellSet {
    pub(crate) fn new(count: usize) -> Self {
        Self {
            slots: (0..count).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Records a write of `value` to doorbell `slot` (false if no such slot).
    pub(crate) fn ring(&self, slot: usize, value: u32) -> bool {
        match self.slots.get(slot) {
            Some(s) => {
                s.store(PENDING | u64::from(value), Ordering::Release);
                true
            }
            None => false,
        }
    }

    /// The value last written to `slot` since the last take, if any.
    pub(crate) fn take(&self, slot: usize) -> Option<u32> {
        let v = self.slots.get(slot)?.swap(0, Ordering::Acquire);
        (v & PENDING != 0).then_some(v as u32)
    }
}
