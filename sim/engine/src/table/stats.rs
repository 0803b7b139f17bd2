//! Hit statistics of a table's entries: packet and byte counts (direct
//! counters) and last-hit times (idle timeouts), kept in cells so that a
//! running packet updates them through a shared table.

use super::{Entry, TableState};
use std::cell::Cell;

impl TableState {
    /// Records a hit of entry `index` by a packet of `bytes` bytes that
    /// arrived at `now_us`: its direct counter, and its last-hit time if
    /// the table supports idle timeouts.
    #[inline(always)]
    pub fn count_hit(&self, index: u32, bytes: u64, now_us: u64) {
        if self.direct_counter || self.idle_timeout {
            self.record_hit(index, bytes, now_us);
        }
    }

    /// [`TableState::count_hit`] for a table that counts or times hits.
    #[inline(never)]
    fn record_hit(&self, index: u32, bytes: u64, now_us: u64) {
        if self.direct_counter
            && let Some(c) = self.counts.get(index as usize)
        {
            let (p, b) = c.get();
            c.set((p + 1, b + bytes));
        }
        if self.idle_timeout
            && let Some(t) = self.last_hit.get(index as usize)
        {
            t.set(now_us.max(1));
        }
    }

    /// Sets entry `index`'s direct-counter packets and bytes (a controller
    /// writing the counter); `false` when the table has no direct counter
    /// or no such entry.
    pub fn set_hit_counts(&self, index: u32, packets: u64, bytes: u64) -> bool {
        if !self.direct_counter || self.entry(index).is_none() {
            return false;
        }
        match self.counts.get(index as usize) {
            Some(c) => {
                c.set((packets, bytes));
                true
            }
            None => false,
        }
    }

    /// When entry `index` was last hit (microseconds on the pipeline's
    /// clock); `None` if it has not been hit since it was added, or the
    /// table does not support idle timeouts.
    pub fn last_hit_us(&self, index: u32) -> Option<u64> {
        self.entries.get(index as usize)?.as_ref()?;
        let t = self.last_hit.get(index as usize)?.get();
        (self.idle_timeout && t > 0).then_some(t)
    }

    /// Every entry with its direct-counter packets and bytes.
    pub fn counted_entries(&self) -> impl Iterator<Item = (&Entry, (u64, u64))> {
        self.indexed_entries().map(|(i, e)| (e, self.hit_counts(i)))
    }

    /// Entry `index`'s direct-counter packets and bytes ((0, 0) when the
    /// table has no direct counter or no such entry).
    pub fn hit_counts(&self, index: u32) -> (u64, u64) {
        self.counts.get(index as usize).map_or((0, 0), Cell::get)
    }

    /// Clears the statistics of entry `idx`, just added. Only a table that
    /// counts or times hits keeps them, so the others spend no memory on
    /// them; the vectors stay indexed by entry.
    pub(super) fn reset_stats(&mut self, idx: u32) {
        let i = idx as usize;
        if self.direct_counter {
            if self.counts.len() <= i {
                self.counts.resize(i + 1, Cell::default());
            }
            self.counts[i].set((0, 0));
        }
        if self.idle_timeout {
            if self.last_hit.len() <= i {
                self.last_hit.resize(i + 1, Cell::default());
            }
            self.last_hit[i].set(0);
        }
    }
}
