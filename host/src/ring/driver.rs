//! The driver side of a split virtqueue: the host offers buffer chains and
//! reaps completions.

use std::sync::Arc;
use std::sync::atomic::{Ordering, fence};

use super::{
    AVAIL_F_NO_INTERRUPT, Access, Armed, Buffer, Completion, DESC_F_NEXT, DESC_F_WRITE, Notify,
    RingConfig, RingError, RingMem, SharedRegion, Suppression, USED_F_NO_NOTIFY, need_event,
};

/// Marks the end of the private free list.
const NONE: u16 = u16::MAX;

/// The driver's end of one ring. It keeps its own copy of chain links and
/// tokens, so a device scribbling on the shared descriptor table cannot make
/// it free the wrong descriptors.
#[derive(Debug)]
pub struct Driver {
    mem: RingMem,
    suppression: Suppression,
    /// Link of each descriptor: next in its chain, or next free.
    next: Box<[u16]>,
    /// Descriptors in the chain headed by each id (0: not a head in flight).
    chain_len: Box<[u16]>,
    /// Token of each head in flight.
    tokens: Box<[u64]>,
    free_head: u16,
    num_free: u16,
    /// Next available index to fill.
    avail_shadow: u16,
    /// Available index last published.
    avail_published: u16,
    /// Next used index to reap.
    last_used: u16,
    broken: bool,
}

impl Driver {
    /// Opens the driver side of a ring whose memory is zeroed (a fresh
    /// region or one the device reset).
    pub fn new(region: Arc<SharedRegion>, config: RingConfig) -> Result<Self, RingError> {
        let mem = RingMem::new(region, config.layout)?;
        let size = mem.size();
        let next: Box<[u16]> = (1..=size)
            .map(|i| if i == size { NONE } else { i })
            .collect();
        Ok(Self {
            mem,
            suppression: config.suppression,
            next,
            chain_len: vec![0; usize::from(size)].into_boxed_slice(),
            tokens: vec![0; usize::from(size)].into_boxed_slice(),
            free_head: 0,
            num_free: size,
            avail_shadow: 0,
            avail_published: 0,
            last_used: 0,
            broken: false,
        })
    }

    /// Number of descriptors in the ring.
    pub fn size(&self) -> u16 {
        self.mem.size()
    }

    /// Descriptors not in any chain.
    pub fn free_descriptors(&self) -> u16 {
        self.num_free
    }

    /// Writes a chain of `buffers` into free descriptors and queues its head
    /// on the available ring, tagged with `token` (returned on completion).
    /// The device sees it only after [`Driver::publish`], so several adds
    /// make one batch.
    pub fn add(&mut self, buffers: &[Buffer], token: u64) -> Result<(), RingError> {
        if self.broken {
            return Err(RingError::Broken);
        }
        if buffers.is_empty() {
            return Err(RingError::EmptyChain);
        }
        if buffers.len() > usize::from(self.num_free) {
            return Err(RingError::Full {
                needed: buffers.len(),
                free: self.num_free,
            });
        }
        let head = self.free_head;
        let mut id = head;
        for (i, buf) in buffers.iter().enumerate() {
            let last = i + 1 == buffers.len();
            let link = self.next[usize::from(id)];
            let mut flags = match buf.access {
                Access::DeviceReads => 0,
                Access::DeviceWrites => DESC_F_WRITE,
            };
            if !last {
                flags |= DESC_F_NEXT;
            }
            self.mem.desc_addr(id).store(buf.addr, Ordering::Relaxed);
            self.mem.desc_len(id).store(buf.len, Ordering::Relaxed);
            self.mem.desc_flags(id).store(flags, Ordering::Relaxed);
            self.mem
                .desc_next(id)
                .store(if last { 0 } else { link }, Ordering::Relaxed);
            if last {
                self.free_head = link;
            } else {
                id = link;
            }
        }
        // `buffers.len()` is at most `num_free`, itself at most 32768.
        let n = buffers.len() as u16;
        self.num_free -= n;
        self.chain_len[usize::from(head)] = n;
        self.tokens[usize::from(head)] = token;
        self.mem
            .avail_entry(self.avail_shadow)
            .store(head, Ordering::Relaxed);
        self.avail_shadow = self.avail_shadow.wrapping_add(1);
        Ok(())
    }

    /// Chains added since the last publish.
    pub fn pending(&self) -> u16 {
        self.avail_shadow.wrapping_sub(self.avail_published)
    }

    /// Makes every chain added since the last publish visible to the device
    /// (one release store of the available index) and says whether the
    /// device must be kicked.
    pub fn publish(&mut self) -> Notify {
        let old = self.avail_published;
        let new = self.avail_shadow;
        if old == new {
            return Notify::Suppressed;
        }
        self.mem.avail_idx().store(new, Ordering::Release);
        self.avail_published = new;
        // Pairs with the fence in `Device::arm_kicks`: either the device sees
        // the new index or we see its new event/flag.
        fence(Ordering::SeqCst);
        let wanted = match self.suppression {
            Suppression::EventIdx => {
                need_event(self.mem.avail_event().load(Ordering::Relaxed), new, old)
            }
            Suppression::Flags => {
                self.mem.used_flags().load(Ordering::Relaxed) & USED_F_NO_NOTIFY == 0
            }
        };
        if wanted {
            Notify::Required
        } else {
            Notify::Suppressed
        }
    }

    /// Reaps up to `out.len()` completions in order, returning how many were
    /// written. Their descriptors become free again.
    pub fn reap(&mut self, out: &mut [Completion]) -> Result<usize, RingError> {
        if self.broken {
            return Err(RingError::Broken);
        }
        let used = self.mem.used_idx().load(Ordering::Acquire);
        let ready = used.wrapping_sub(self.last_used);
        if ready > self.size() {
            self.broken = true;
            return Err(RingError::IndexJump(ready));
        }
        let n = usize::from(ready).min(out.len());
        for slot in out.iter_mut().take(n) {
            let raw_id = self.mem.used_id(self.last_used).load(Ordering::Relaxed);
            let written = self.mem.used_len(self.last_used).load(Ordering::Relaxed);
            let head = match u16::try_from(raw_id) {
                Ok(h) if h < self.size() => h,
                _ => {
                    self.broken = true;
                    return Err(RingError::BadId(raw_id));
                }
            };
            let len = self.chain_len[usize::from(head)];
            if len == 0 {
                self.broken = true;
                return Err(RingError::NotOutstanding(head));
            }
            self.free_chain(head, len);
            *slot = Completion {
                token: self.tokens[usize::from(head)],
                written,
            };
            self.last_used = self.last_used.wrapping_add(1);
        }
        Ok(n)
    }

    /// Returns the chain at `head` (of `len` descriptors) to the free list,
    /// following the driver's private links.
    fn free_chain(&mut self, head: u16, len: u16) {
        let mut tail = head;
        for _ in 1..len {
            tail = self.next[usize::from(tail)];
        }
        self.next[usize::from(tail)] = self.free_head;
        self.free_head = head;
        self.num_free += len;
        self.chain_len[usize::from(head)] = 0;
    }

    /// Asks the device to interrupt on its next completion, then checks
    /// whether completions arrived meanwhile (if so, reap before sleeping).
    pub fn arm_interrupts(&mut self) -> Armed {
        match self.suppression {
            Suppression::EventIdx => self
                .mem
                .used_event()
                .store(self.last_used, Ordering::Relaxed),
            Suppression::Flags => self.mem.avail_flags().store(0, Ordering::Relaxed),
        }
        // Pairs with the fence in `Device::publish_used`.
        fence(Ordering::SeqCst);
        if self.mem.used_idx().load(Ordering::Acquire) == self.last_used {
            Armed::Idle
        } else {
            Armed::WorkPending
        }
    }

    /// Asks the device not to interrupt (the driver polls). With `EVENT_IDX`
    /// this is a no-op: the device interrupts at most once more, when it
    /// passes the last armed `used_event`.
    pub fn suppress_interrupts(&mut self) {
        if self.suppression == Suppression::Flags {
            self.mem
                .avail_flags()
                .store(AVAIL_F_NO_INTERRUPT, Ordering::Relaxed);
        }
    }
}
