//! Values of up to 256 bits never touch the heap: every operation, the
//! bit-level I/O and the byte-string conversions run under a global
//! allocator that counts this thread's allocations, and the count must not
//! move. A control at 257 bits shows the counter does see allocations.

use janus_engine::value::{Bits, INLINE_MAX_WIDTH};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: the thread-local may be gone while the thread exits.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// Runs every operation on values of `width` bits.
fn exercise(width: u32, signed: bool, buf: &mut [u8]) {
    let a = Bits::from_words_le(
        width,
        signed,
        &[0x0123_4567_89ab_cdef, u64::MAX, 7, 1 << 63],
    );
    let b = Bits::from_i64(width, signed, -12345);
    black_box(a.add(&b));
    black_box(a.sub(&b));
    black_box(a.mul(&b));
    if !signed {
        black_box(a.div(&b));
        black_box(a.rem(&b));
        black_box(b.div(&a.shr(40)));
    }
    black_box(a.sat_add(&b));
    black_box(a.sat_sub(&b));
    black_box(a.neg());
    black_box(a.not());
    black_box(a.and(&b));
    black_box(a.or(&b));
    black_box(a.xor(&b));
    black_box(a.shl(13));
    black_box(a.shr(13));
    black_box(b.shr(70));
    black_box(a.compare(&b));
    black_box(a < b);
    black_box(a == b);
    black_box(a.clone());
    let half = width / 2;
    black_box(a.slice(width.saturating_sub(1), half.min(width.saturating_sub(1))));
    black_box(a.cast(half, !signed));
    black_box(a.cast(INLINE_MAX_WIDTH, signed));
    black_box(a.cast(half, signed).concat(&b.cast(width - half, false)));
    black_box(a.to_u64());
    black_box(a.to_i64());
    a.write_bits(buf, 5);
    black_box(Bits::read_bits(buf, 5, width, signed));
    a.to_be_bytes(&mut buf[..40]);
    black_box(Bits::from_be_bytes(width, signed, &buf[..40]));
}

#[test]
fn no_heap_allocation_up_to_256_bits() {
    let mut buf = [0u8; 64];
    let before = allocations();
    for width in [1, 8, 9, 32, 48, 63, 64, 65, 100, 128, 129, 200, 255, 256] {
        for signed in [false, true] {
            exercise(width, signed, &mut buf);
        }
    }
    assert_eq!(allocations(), before, "an operation allocated");
}

#[test]
fn the_counter_sees_heap_values() {
    let before = allocations();
    black_box(Bits::zero(INLINE_MAX_WIDTH + 1, false));
    assert!(allocations() > before);
}
