//! A hostile peer: whatever the other side writes into the shared region,
//! the ring never panics, never walks out of its area, and a malformed chain
//! breaks only that ring.

use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU16, Ordering};

use janus_host::ring::{
    Chain, Completion, Device, Driver, RingConfig, RingError, RingLayout, SharedRegion, Suppression,
};
use proptest::prelude::*;

/// Memory the test maps itself, as a memfd mapping would be.
#[repr(C, align(64))]
struct Page([u8; 4096]);

/// A region over test-owned memory that the test can scribble on.
struct Scribble {
    mem: NonNull<Page>,
    region: Arc<SharedRegion>,
}

impl Scribble {
    fn new() -> Self {
        let mem = NonNull::from(Box::leak(Box::new(Page([0; 4096]))));
        // SAFETY: the page lives until `drop`, after the region; the test
        // writes it only through atomics.
        let region = unsafe { SharedRegion::from_raw(mem.cast(), 4096) }.unwrap();
        Self {
            mem,
            region: Arc::new(region),
        }
    }

    fn write(&self, offset: usize, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            // SAFETY: in the page (callers stay below 4096).
            unsafe { AtomicU8::from_ptr(self.mem.cast::<u8>().as_ptr().add(offset + i)) }
                .store(*b, Ordering::Relaxed);
        }
    }

    fn write_u16(&self, offset: usize, v: u16) {
        // SAFETY: in the page, 2-aligned by the callers.
        unsafe { AtomicU16::from_ptr(self.mem.cast::<u8>().as_ptr().add(offset).cast()) }
            .store(v, Ordering::Release);
    }
}

impl Drop for Scribble {
    fn drop(&mut self) {
        // SAFETY: leaked in `new`; the region was the only other user and
        // every clone of it is gone once the ring ends are dropped.
        drop(unsafe { Box::from_raw(self.mem.as_ptr()) });
    }
}

fn config(size: u16) -> RingConfig {
    RingConfig {
        layout: RingLayout::packed_at(size, 0),
        suppression: Suppression::EventIdx,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random bytes in the whole ring: the device pops, reads and completes
    /// without panicking; every descriptor it reports has an in-range id.
    #[test]
    fn device_survives_arbitrary_ring_bytes(
        bytes in proptest::collection::vec(any::<u8>(), 1200),
        avail_idx in any::<u16>(),
    ) {
        let s = Scribble::new();
        let cfg = config(16);
        s.write(0, &bytes);
        s.write_u16(cfg.layout.avail as usize + 2, avail_idx);
        let mut dev = Device::new(s.region.clone(), cfg).unwrap();
        let mut chains = [Chain::default(); 16];
        for _ in 0..4 {
            match dev.pop_batch(&mut chains) {
                Ok(n) => {
                    for c in &chains[..n] {
                        prop_assert!(c.head < 16 && c.descriptors <= 16);
                        prop_assert!(dev.chain(c).count() <= 16);
                        dev.push_used(c.head, 0).unwrap();
                    }
                    let _ = dev.publish_used();
                }
                Err(e) => {
                    prop_assert_eq!(dev.pop_batch(&mut chains), Err(RingError::Broken), "{}", e);
                    break;
                }
            }
        }
    }

    /// Random bytes in the used ring: the driver reaps without panicking
    /// and never frees more descriptors than the ring has.
    #[test]
    fn driver_survives_arbitrary_used_ring(
        bytes in proptest::collection::vec(any::<u8>(), 140),
        used_idx in any::<u16>(),
    ) {
        let s = Scribble::new();
        let cfg = config(16);
        let mut drv = Driver::new(s.region.clone(), cfg).unwrap();
        for t in 0..4 {
            drv.add(&[janus_host::ring::Buffer { addr: t, len: 1, access: janus_host::ring::Access::DeviceReads }], t).unwrap();
        }
        let _ = drv.publish();
        s.write(cfg.layout.used as usize, &bytes);
        s.write_u16(cfg.layout.used as usize + 2, used_idx);
        let mut done = [Completion::default(); 16];
        let _ = drv.reap(&mut done);
        prop_assert!(drv.free_descriptors() <= 16);
    }
}

/// A chain that loops back on itself is refused and breaks the ring.
#[test]
fn looping_chain_is_refused() {
    let s = Scribble::new();
    let cfg = config(8);
    // Descriptors 0 -> 1 -> 0 with NEXT set on both.
    for (id, next) in [(0usize, 1u16), (1, 0)] {
        let at = cfg.layout.desc as usize + 16 * id;
        s.write_u16(at + 12, 1);
        s.write_u16(at + 14, next);
    }
    s.write_u16(cfg.layout.avail as usize + 4, 0);
    s.write_u16(cfg.layout.avail as usize + 2, 1);
    let mut dev = Device::new(s.region.clone(), cfg).unwrap();
    assert_eq!(dev.pop(), Err(RingError::ChainTooLong(0)));
    assert_eq!(dev.pop(), Err(RingError::Broken));
}

/// An available index that claims more chains than the ring holds.
#[test]
fn index_jump_is_refused() {
    let s = Scribble::new();
    let cfg = config(8);
    s.write_u16(cfg.layout.avail as usize + 2, 9);
    let mut dev = Device::new(s.region.clone(), cfg).unwrap();
    assert_eq!(dev.pop(), Err(RingError::IndexJump(9)));
}

/// A completion for a head the driver never offered.
#[test]
fn unknown_completion_is_refused() {
    let s = Scribble::new();
    let cfg = config(8);
    let mut drv = Driver::new(s.region.clone(), cfg).unwrap();
    s.write(cfg.layout.used as usize + 4, &5u32.to_le_bytes());
    s.write_u16(cfg.layout.used as usize + 2, 1);
    let mut done = [Completion::default(); 8];
    assert_eq!(drv.reap(&mut done), Err(RingError::NotOutstanding(5)));
    assert_eq!(drv.reap(&mut done), Err(RingError::Broken));
}

/// Layouts that do not fit the region, overlap or have a bad size.
#[test]
fn bad_layouts_are_refused() {
    let region = Arc::new(SharedRegion::new(4096).unwrap());
    let mut cfg = config(8);
    cfg.layout.size = 12;
    assert!(Device::new(region.clone(), cfg).is_err());
    let mut cfg = config(8);
    cfg.layout.used = cfg.layout.avail;
    assert!(Device::new(region.clone(), cfg).is_err());
    let cfg = config(256);
    assert!(Driver::new(region.clone(), cfg).is_err());
    let mut cfg = config(8);
    cfg.layout.desc = 8;
    assert!(Driver::new(region, cfg).is_err());
    assert!(SharedRegion::new(0).is_err());
}
