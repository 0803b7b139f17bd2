//! A shared-memory region that rings live in, accessed only through atomics.
//!
//! The region is a plain range of bytes: today a zeroed heap allocation, later
//! a memfd mapping shared between the NIC process and a host shim
//! ([`SharedRegion::from_raw`]). Every access is an atomic load or store of
//! the field's natural size at a fixed offset, so two threads (or two
//! processes) may use one region at the same time without data races; the
//! ring protocol decides which side writes which field.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering};

use thiserror::Error;

/// Alignment of a region's base address: a cache line.
pub const REGION_ALIGN: usize = 64;

/// Largest region this crate creates or accepts (1 GiB).
pub const MAX_REGION_LEN: usize = 1 << 30;

/// Why a region could not be created or a range in it is unusable.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RegionError {
    /// The requested length is zero or above [`MAX_REGION_LEN`].
    #[error("region length {0} is outside 1..={MAX_REGION_LEN}")]
    BadLength(usize),
    /// The base address of an external mapping is not aligned.
    #[error("region base address is not {REGION_ALIGN}-byte aligned")]
    Unaligned,
    /// The allocator refused the request.
    #[error("cannot allocate a region of {0} bytes")]
    OutOfMemory(usize),
    /// A range does not fit in the region or is misaligned for its fields.
    #[error(
        "range {offset:#x}+{len:#x} (alignment {align}) does not fit a region of {region_len:#x} bytes"
    )]
    BadRange {
        /// Start of the range.
        offset: u64,
        /// Length of the range.
        len: u64,
        /// Alignment the range needs.
        align: u64,
        /// Length of the region.
        region_len: usize,
    },
}

/// Who frees the memory when the region is dropped.
enum Backing {
    /// Allocated by [`SharedRegion::new`] with this layout.
    Heap(Layout),
    /// Owned by the caller of [`SharedRegion::from_raw`].
    External,
    /// Kept alive by this owner (a mapping), released after the region.
    Owned {
        /// Dropped (unmapping the memory) after the region.
        _owner: Box<dyn Send + Sync>,
    },
}

/// A byte range shared between a driver and a device.
pub struct SharedRegion {
    base: NonNull<u8>,
    len: usize,
    backing: Backing,
}

// SAFETY: the region is only ever read and written through atomic operations
// (see the accessors below), so sharing it between threads cannot race.
unsafe impl Send for SharedRegion {}
// SAFETY: as above.
unsafe impl Sync for SharedRegion {}

impl SharedRegion {
    /// A zeroed region of `len` bytes on the heap, aligned to [`REGION_ALIGN`].
    pub fn new(len: usize) -> Result<Self, RegionError> {
        if len == 0 || len > MAX_REGION_LEN {
            return Err(RegionError::BadLength(len));
        }
        let layout =
            Layout::from_size_align(len, REGION_ALIGN).map_err(|_| RegionError::BadLength(len))?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        let base = NonNull::new(ptr).ok_or(RegionError::OutOfMemory(len))?;
        Ok(Self {
            base,
            len,
            backing: Backing::Heap(layout),
        })
    }

    /// A region over memory the caller maps and owns (for instance a memfd
    /// mapping shared with another process).
    ///
    /// # Safety
    ///
    /// `base` must be valid for reads and writes of `len` bytes for as long
    /// as the returned region lives, and every other user of that memory
    /// (another thread or process) must access it only through atomic
    /// operations of the field sizes of the ring layout.
    pub unsafe fn from_raw(base: NonNull<u8>, len: usize) -> Result<Self, RegionError> {
        if len == 0 || len > MAX_REGION_LEN {
            return Err(RegionError::BadLength(len));
        }
        if !(base.as_ptr() as usize).is_multiple_of(REGION_ALIGN) {
            return Err(RegionError::Unaligned);
        }
        Ok(Self {
            base,
            len,
            backing: Backing::External,
        })
    }

    /// A region over memory that `owner` keeps mapped (for instance a
    /// memfd mapping): the owner is dropped when the region is, never
    /// before.
    ///
    /// # Safety
    ///
    /// As [`SharedRegion::from_raw`], with "for as long as the returned
    /// region lives" guaranteed by `owner` staying alive.
    pub unsafe fn from_owned(
        base: NonNull<u8>,
        len: usize,
        owner: Box<dyn Send + Sync>,
    ) -> Result<Self, RegionError> {
        // SAFETY: the caller's contract; the owner keeps the memory valid.
        let mut region = unsafe { Self::from_raw(base, len) }?;
        region.backing = Backing::Owned { _owner: owner };
        Ok(region)
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the region is empty (never true: regions have at least a byte).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Checks that `offset..offset+len` lies inside the region and that
    /// `offset` is a multiple of `align`.
    pub fn check_range(&self, offset: u64, len: u64, align: u64) -> Result<(), RegionError> {
        let bad = || RegionError::BadRange {
            offset,
            len,
            align,
            region_len: self.len,
        };
        let end = offset.checked_add(len).ok_or_else(bad)?;
        if end > self.len as u64 || align == 0 || !offset.is_multiple_of(align) {
            return Err(bad());
        }
        Ok(())
    }

    /// The 16-bit field at `offset`.
    ///
    /// # Safety
    ///
    /// `offset + 2` must not exceed the region's length and `offset` must be
    /// even (checked once, when a ring's layout is validated).
    pub(crate) unsafe fn u16_at(&self, offset: usize) -> &AtomicU16 {
        debug_assert!(offset + 2 <= self.len && offset.is_multiple_of(2));
        // SAFETY: in range and aligned by the caller's contract; the base is
        // valid for the region's lifetime, which bounds the returned borrow.
        unsafe { AtomicU16::from_ptr(self.base.as_ptr().add(offset).cast()) }
    }

    /// The 32-bit field at `offset`.
    ///
    /// # Safety
    ///
    /// `offset + 4` must not exceed the region's length and `offset` must be
    /// a multiple of 4.
    pub(crate) unsafe fn u32_at(&self, offset: usize) -> &AtomicU32 {
        debug_assert!(offset + 4 <= self.len && offset.is_multiple_of(4));
        // SAFETY: as in `u16_at`.
        unsafe { AtomicU32::from_ptr(self.base.as_ptr().add(offset).cast()) }
    }

    /// The 64-bit field at `offset`.
    ///
    /// # Safety
    ///
    /// `offset + 8` must not exceed the region's length and `offset` must be
    /// a multiple of 8.
    pub(crate) unsafe fn u64_at(&self, offset: usize) -> &AtomicU64 {
        debug_assert!(offset + 8 <= self.len && offset.is_multiple_of(8));
        // SAFETY: as in `u16_at`.
        unsafe { AtomicU64::from_ptr(self.base.as_ptr().add(offset).cast()) }
    }

    /// Reads the 64-bit field at `offset`, checking the range.
    pub fn load_u64(&self, offset: u64) -> Result<u64, RegionError> {
        self.check_range(offset, 8, 8)?;
        // SAFETY: checked just above.
        Ok(unsafe { self.u64_at(offset as usize) }.load(Ordering::Relaxed))
    }

    /// Copies `src` into the region at `offset` (a packet buffer), checking
    /// the range. Bytes are stored by relaxed atomics (eight at a time where
    /// aligned), so a peer writing the same bytes meanwhile garbles the
    /// data but never races; the ring's release store of its index
    /// publishes them.
    pub fn write_bytes(&self, offset: u64, src: &[u8]) -> Result<(), RegionError> {
        self.check_range(offset, src.len() as u64, 1)?;
        let start = offset as usize;
        let mut i = 0;
        while i < src.len() {
            let at = start + i;
            if at.is_multiple_of(8) && src.len() - i >= 8 {
                let mut word = [0u8; 8];
                word.copy_from_slice(&src[i..i + 8]);
                // SAFETY: in range (checked above) and 8-aligned.
                unsafe { self.u64_at(at) }.store(u64::from_ne_bytes(word), Ordering::Relaxed);
                i += 8;
            } else {
                // SAFETY: in range (checked above); bytes need no alignment.
                unsafe { self.u8_at(at) }.store(src[i], Ordering::Relaxed);
                i += 1;
            }
        }
        Ok(())
    }

    /// Copies `dst.len()` bytes of the region at `offset` into `dst`,
    /// checking the range (relaxed atomic loads, as [`Self::write_bytes`]).
    pub fn read_bytes(&self, offset: u64, dst: &mut [u8]) -> Result<(), RegionError> {
        self.check_range(offset, dst.len() as u64, 1)?;
        let start = offset as usize;
        let mut i = 0;
        while i < dst.len() {
            let at = start + i;
            if at.is_multiple_of(8) && dst.len() - i >= 8 {
                // SAFETY: in range (checked above) and 8-aligned.
                let word = unsafe { self.u64_at(at) }.load(Ordering::Relaxed);
                dst[i..i + 8].copy_from_slice(&word.to_ne_bytes());
                i += 8;
            } else {
                // SAFETY: in range (checked above).
                dst[i] = unsafe { self.u8_at(at) }.load(Ordering::Relaxed);
                i += 1;
            }
        }
        Ok(())
    }

    /// The byte at `offset`.
    ///
    /// # Safety
    ///
    /// `offset` must be below the region's length.
    unsafe fn u8_at(&self, offset: usize) -> &AtomicU8 {
        debug_assert!(offset < self.len);
        // SAFETY: in range by the caller's contract; the base is valid for
        // the region's lifetime, which bounds the returned borrow.
        unsafe { AtomicU8::from_ptr(self.base.as_ptr().add(offset)) }
    }

    /// Adds `n` to the 64-bit field at `offset` (wrapping), checking the range.
    pub fn fetch_add_u64(&self, offset: u64, n: u64) -> Result<(), RegionError> {
        self.check_range(offset, 8, 8)?;
        // SAFETY: checked just above.
        unsafe { self.u64_at(offset as usize) }.fetch_add(n, Ordering::Relaxed);
        Ok(())
    }
}

impl Drop for SharedRegion {
    fn drop(&mut self) {
        if let Backing::Heap(layout) = self.backing {
            // SAFETY: allocated in `new` with this very layout.
            unsafe { dealloc(self.base.as_ptr(), layout) }
        }
    }
}

impl std::fmt::Debug for SharedRegion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedRegion")
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}
