//! Where a split virtqueue's three areas sit in a region, and the raw field
//! accessors over them (virtio 1.x, section "Split Virtqueues").
//!
//! ```text
//! descriptor table  (align 16)  size × { addr: u64, len: u32, flags: u16, next: u16 }
//! available ring    (align 2)   flags: u16, idx: u16, ring: [u16; size], used_event: u16
//! used ring         (align 4)   flags: u16, idx: u16, ring: [{ id: u32, len: u32 }; size], avail_event: u16
//! ```
//!
//! All fields are little-endian (the accessors are native atomics; the crate
//! refuses to build on big-endian targets).

use std::sync::Arc;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64};

use super::region::{RegionError, SharedRegion};

#[cfg(target_endian = "big")]
compile_error!("janus-host's shared rings are little-endian; big-endian hosts are not supported");

/// Largest queue size of a split virtqueue.
pub const MAX_QUEUE_SIZE: u16 = 32768;

/// Bytes of one descriptor.
pub const DESC_BYTES: u64 = 16;

/// Byte offsets of one ring's areas inside a region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RingLayout {
    /// Number of descriptors (a power of two, at most [`MAX_QUEUE_SIZE`]).
    pub size: u16,
    /// Offset of the descriptor table.
    pub desc: u64,
    /// Offset of the available ring.
    pub avail: u64,
    /// Offset of the used ring.
    pub used: u64,
}

impl RingLayout {
    /// Bytes of the descriptor table of a ring of `size` entries.
    pub fn desc_bytes(size: u16) -> u64 {
        DESC_BYTES * u64::from(size)
    }

    /// Bytes of the available ring of a ring of `size` entries.
    pub fn avail_bytes(size: u16) -> u64 {
        6 + 2 * u64::from(size)
    }

    /// Bytes of the used ring of a ring of `size` entries.
    pub fn used_bytes(size: u16) -> u64 {
        6 + 8 * u64::from(size)
    }

    /// The three areas one after the other from `base` (rounded up to 64),
    /// each starting on a cache line so that the driver's and the device's
    /// writes do not share one.
    pub fn packed_at(size: u16, base: u64) -> Self {
        let desc = base.next_multiple_of(64);
        let avail = (desc + Self::desc_bytes(size)).next_multiple_of(64);
        let used = (avail + Self::avail_bytes(size)).next_multiple_of(64);
        Self {
            size,
            desc,
            avail,
            used,
        }
    }

    /// First byte after the ring's last area.
    pub fn end(&self) -> u64 {
        (self.desc + Self::desc_bytes(self.size))
            .max(self.avail + Self::avail_bytes(self.size))
            .max(self.used + Self::used_bytes(self.size))
    }

    /// The three areas as (offset, length) pairs.
    fn areas(&self) -> [(u64, u64); 3] {
        [
            (self.desc, Self::desc_bytes(self.size)),
            (self.avail, Self::avail_bytes(self.size)),
            (self.used, Self::used_bytes(self.size)),
        ]
    }
}

/// Why a ring layout cannot be used over a region.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum LayoutError {
    /// The size is zero, not a power of two or above the maximum.
    #[error("queue size {0} is not a power of two in 1..={MAX_QUEUE_SIZE}")]
    BadSize(u16),
    /// An area is outside the region or misaligned.
    #[error("ring area: {0}")]
    Range(#[from] RegionError),
    /// Two areas overlap.
    #[error("ring areas overlap")]
    Overlap,
}

/// A validated ring layout over a region: the raw field accessors. Every
/// method's offsets are in range because [`RingMem::new`] checked the areas
/// and indices are reduced modulo the size (or checked below it).
#[derive(Debug, Clone)]
pub(crate) struct RingMem {
    region: Arc<SharedRegion>,
    layout: RingLayout,
    mask: u16,
}

impl RingMem {
    pub(crate) fn new(region: Arc<SharedRegion>, layout: RingLayout) -> Result<Self, LayoutError> {
        let size = layout.size;
        if size == 0 || size > MAX_QUEUE_SIZE || !size.is_power_of_two() {
            return Err(LayoutError::BadSize(size));
        }
        let areas = layout.areas();
        for ((off, len), align) in areas.iter().zip([16, 2, 4]) {
            region.check_range(*off, *len, align)?;
        }
        for (i, a) in areas.iter().enumerate() {
            for b in &areas[i + 1..] {
                if a.0 < b.0 + b.1 && b.0 < a.0 + a.1 {
                    return Err(LayoutError::Overlap);
                }
            }
        }
        Ok(Self {
            region,
            layout,
            mask: size - 1,
        })
    }

    pub(crate) fn size(&self) -> u16 {
        self.layout.size
    }

    /// The slot of free-running index `idx`.
    pub(crate) fn slot(&self, idx: u16) -> usize {
        usize::from(idx & self.mask)
    }

    /// The descriptor `id`'s first byte. `id` must be below the size.
    fn desc_off(&self, id: u16) -> usize {
        debug_assert!(id < self.layout.size);
        self.layout.desc as usize + usize::from(id) * DESC_BYTES as usize
    }

    pub(crate) fn desc_addr(&self, id: u16) -> &AtomicU64 {
        // SAFETY: id < size (callers check), so the field is inside the
        // validated, 16-aligned descriptor table.
        unsafe { self.region.u64_at(self.desc_off(id)) }
    }

    pub(crate) fn desc_len(&self, id: u16) -> &AtomicU32 {
        // SAFETY: as in `desc_addr`.
        unsafe { self.region.u32_at(self.desc_off(id) + 8) }
    }

    pub(crate) fn desc_flags(&self, id: u16) -> &AtomicU16 {
        // SAFETY: as in `desc_addr`.
        unsafe { self.region.u16_at(self.desc_off(id) + 12) }
    }

    pub(crate) fn desc_next(&self, id: u16) -> &AtomicU16 {
        // SAFETY: as in `desc_addr`.
        unsafe { self.region.u16_at(self.desc_off(id) + 14) }
    }

    pub(crate) fn avail_flags(&self) -> &AtomicU16 {
        // SAFETY: inside the validated, 2-aligned available ring.
        unsafe { self.region.u16_at(self.layout.avail as usize) }
    }

    pub(crate) fn avail_idx(&self) -> &AtomicU16 {
        // SAFETY: as in `avail_flags`.
        unsafe { self.region.u16_at(self.layout.avail as usize + 2) }
    }

    /// The available ring's entry for free-running index `idx`.
    pub(crate) fn avail_entry(&self, idx: u16) -> &AtomicU16 {
        // SAFETY: the slot is below the size, inside the available ring.
        unsafe {
            self.region
                .u16_at(self.layout.avail as usize + 4 + 2 * self.slot(idx))
        }
    }

    pub(crate) fn used_event(&self) -> &AtomicU16 {
        // SAFETY: the last field of the validated available ring.
        unsafe {
            self.region
                .u16_at(self.layout.avail as usize + 4 + 2 * usize::from(self.layout.size))
        }
    }

    pub(crate) fn used_flags(&self) -> &AtomicU16 {
        // SAFETY: inside the validated, 4-aligned used ring.
        unsafe { self.region.u16_at(self.layout.used as usize) }
    }

    pub(crate) fn used_idx(&self) -> &AtomicU16 {
        // SAFETY: as in `used_flags`.
        unsafe { self.region.u16_at(self.layout.used as usize + 2) }
    }

    /// The used ring's `id` field for free-running index `idx`.
    pub(crate) fn used_id(&self, idx: u16) -> &AtomicU32 {
        // SAFETY: the slot is below the size; entries are 8 bytes from a
        // 4-aligned offset.
        unsafe {
            self.region
                .u32_at(self.layout.used as usize + 4 + 8 * self.slot(idx))
        }
    }

    /// The used ring's `len` field for free-running index `idx`.
    pub(crate) fn used_len(&self, idx: u16) -> &AtomicU32 {
        // SAFETY: as in `used_id`.
        unsafe {
            self.region
                .u32_at(self.layout.used as usize + 8 + 8 * self.slot(idx))
        }
    }

    pub(crate) fn avail_event(&self) -> &AtomicU16 {
        // SAFETY: the last field of the validated used ring.
        unsafe {
            self.region
                .u16_at(self.layout.used as usize + 4 + 8 * usize::from(self.layout.size))
        }
    }
}
