//! The device side of a split virtqueue: the NIC pops buffer chains the
//! driver offered and pushes completions. Everything read from the shared
//! region is checked: a driver can break its own ring, never the device.

use std::sync::Arc;
use std::sync::atomic::{Ordering, fence};

use super::{
    AVAIL_F_NO_INTERRUPT, Access, Armed, DESC_F_INDIRECT, DESC_F_NEXT, DESC_F_WRITE, Descriptor,
    Notify, RingConfig, RingError, RingMem, SharedRegion, Suppression, USED_F_NO_NOTIFY,
    need_event,
};

/// A chain popped from the available ring: its head and length. Read its
/// descriptors with [`Device::chain`]; complete it with [`Device::push_used`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Chain {
    /// Id of the chain's first descriptor (what the used ring reports).
    pub head: u16,
    /// Number of descriptors in the chain.
    pub descriptors: u16,
}

/// The device's end of one ring.
#[derive(Debug)]
pub struct Device {
    mem: RingMem,
    suppression: Suppression,
    /// Next available index to pop.
    last_avail: u16,
    /// Next used index to fill.
    used_shadow: u16,
    /// Used index last published.
    used_published: u16,
    /// Chains popped and not yet pushed back.
    in_flight: u16,
    broken: bool,
}

impl Device {
    /// Opens the device side of a ring whose memory is zeroed.
    pub fn new(region: Arc<SharedRegion>, config: RingConfig) -> Result<Self, RingError> {
        Ok(Self {
            mem: RingMem::new(region, config.layout)?,
            suppression: config.suppression,
            last_avail: 0,
            used_shadow: 0,
            used_published: 0,
            in_flight: 0,
            broken: false,
        })
    }

    /// Number of descriptors in the ring.
    pub fn size(&self) -> u16 {
        self.mem.size()
    }

    /// Pops one chain, if the driver published any.
    pub fn pop(&mut self) -> Result<Option<Chain>, RingError> {
        let mut one = [Chain::default()];
        Ok((self.pop_batch(&mut one)? == 1).then_some(one[0]))
    }

    /// Pops up to `out.len()` chains with one read of the available index,
    /// returning how many were written to `out`.
    pub fn pop_batch(&mut self, out: &mut [Chain]) -> Result<usize, RingError> {
        if self.broken {
            return Err(RingError::Broken);
        }
        let avail = self.mem.avail_idx().load(Ordering::Acquire);
        let ready = avail.wrapping_sub(self.last_avail);
        if u32::from(ready) + u32::from(self.in_flight) > u32::from(self.size()) {
            self.broken = true;
            return Err(RingError::IndexJump(ready));
        }
        let n = usize::from(ready).min(out.len());
        for slot in out.iter_mut().take(n) {
            let head = self
                .mem
                .avail_entry(self.last_avail)
                .load(Ordering::Relaxed);
            match self.walk(head) {
                Ok(descriptors) => *slot = Chain { head, descriptors },
                Err(e) => {
                    self.broken = true;
                    return Err(e);
                }
            }
            self.last_avail = self.last_avail.wrapping_add(1);
            self.in_flight += 1;
        }
        Ok(n)
    }

    /// Checks the chain from `head` and counts its descriptors.
    fn walk(&self, head: u16) -> Result<u16, RingError> {
        let iter = ChainIter {
            mem: &self.mem,
            next: Some(head),
            left: self.size(),
            head,
        };
        let mut count = 0u16;
        for d in iter {
            d?;
            count += 1;
        }
        Ok(count)
    }

    /// The descriptors of a popped chain, checked again as they are read
    /// (the driver could have rewritten them since the pop).
    pub fn chain(&self, chain: &Chain) -> ChainIter<'_> {
        ChainIter {
            mem: &self.mem,
            next: Some(chain.head),
            left: chain.descriptors,
            head: chain.head,
        }
    }

    /// Queues the completion of the chain at `head`, with `written` bytes
    /// written into its writable buffers. The driver sees it only after
    /// [`Device::publish_used`].
    pub fn push_used(&mut self, head: u16, written: u32) -> Result<(), RingError> {
        if self.in_flight == 0 {
            return Err(RingError::TooManyCompletions);
        }
        if head >= self.size() {
            return Err(RingError::BadId(u32::from(head)));
        }
        self.mem
            .used_id(self.used_shadow)
            .store(u32::from(head), Ordering::Relaxed);
        self.mem
            .used_len(self.used_shadow)
            .store(written, Ordering::Relaxed);
        self.used_shadow = self.used_shadow.wrapping_add(1);
        self.in_flight -= 1;
        Ok(())
    }

    /// Makes every completion pushed since the last publish visible (one
    /// release store of the used index) and says whether to interrupt the
    /// driver.
    pub fn publish_used(&mut self) -> Notify {
        let old = self.used_published;
        let new = self.used_shadow;
        if old == new {
            return Notify::Suppressed;
        }
        self.mem.used_idx().store(new, Ordering::Release);
        self.used_published = new;
        // Pairs with the fence in `Driver::arm_interrupts`.
        fence(Ordering::SeqCst);
        let wanted = match self.suppression {
            Suppression::EventIdx => {
                need_event(self.mem.used_event().load(Ordering::Relaxed), new, old)
            }
            Suppression::Flags => {
                self.mem.avail_flags().load(Ordering::Relaxed) & AVAIL_F_NO_INTERRUPT == 0
            }
        };
        if wanted {
            Notify::Required
        } else {
            Notify::Suppressed
        }
    }

    /// Asks the driver to kick when it publishes past what the device has
    /// popped, then checks whether chains arrived meanwhile (if so, pop
    /// before sleeping).
    pub fn arm_kicks(&mut self) -> Armed {
        match self.suppression {
            Suppression::EventIdx => self
                .mem
                .avail_event()
                .store(self.last_avail, Ordering::Relaxed),
            Suppression::Flags => self.mem.used_flags().store(0, Ordering::Relaxed),
        }
        // Pairs with the fence in `Driver::publish`.
        fence(Ordering::SeqCst);
        if self.mem.avail_idx().load(Ordering::Acquire) == self.last_avail {
            Armed::Idle
        } else {
            Armed::WorkPending
        }
    }

    /// Asks the driver not to kick (the device polls). With `EVENT_IDX` this
    /// is a no-op: the driver kicks at most once more, when it passes the
    /// last armed `avail_event`.
    pub fn suppress_kicks(&mut self) {
        if self.suppression == Suppression::Flags {
            self.mem
                .used_flags()
                .store(USED_F_NO_NOTIFY, Ordering::Relaxed);
        }
    }
}

/// Iterator over a chain's descriptors; yields an error (and stops) on an
/// out-of-range id, an unsupported flag or a chain longer than expected.
#[derive(Debug)]
pub struct ChainIter<'a> {
    mem: &'a RingMem,
    next: Option<u16>,
    /// Descriptors still allowed.
    left: u16,
    head: u16,
}

impl Iterator for ChainIter<'_> {
    type Item = Result<Descriptor, RingError>;

    fn next(&mut self) -> Option<Self::Item> {
        let id = self.next.take()?;
        if id >= self.mem.size() {
            return Some(Err(RingError::BadId(u32::from(id))));
        }
        if self.left == 0 {
            return Some(Err(RingError::ChainTooLong(self.head)));
        }
        self.left -= 1;
        let flags = self.mem.desc_flags(id).load(Ordering::Relaxed);
        if flags & DESC_F_INDIRECT != 0 {
            return Some(Err(RingError::Unsupported(id)));
        }
        if flags & DESC_F_NEXT != 0 {
            self.next = Some(self.mem.desc_next(id).load(Ordering::Relaxed));
        }
        Some(Ok(Descriptor {
            addr: self.mem.desc_addr(id).load(Ordering::Relaxed),
            len: self.mem.desc_len(id).load(Ordering::Relaxed),
            access: if flags & DESC_F_WRITE != 0 {
                Access::DeviceWrites
            } else {
                Access::DeviceReads
            },
        }))
    }
}
