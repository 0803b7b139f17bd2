//! The packet path allocates nothing in steady state: the shipped L3
//! router routes packets through `process_with` under a global allocator
//! that counts this thread's allocations, and after a warm-up the count
//! must not move. `process` (which returns owned packets) is the control:
//! the counter sees its allocations.

use janus_engine::target::Target;
use janus_v1model::V1Switch;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
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

fn router() -> V1Switch {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../p4/examples/l3_router_acl.p4");
    let c = janus_p4::driver::compile_file(&path, &Default::default()).expect("readable");
    assert!(!c.has_errors(), "{}", c.render(false));
    let mut sw = V1Switch::load(c.ir.expect("ir")).expect("loads");
    let entries = "add ipv4_lpm hdr.ipv4.dst_addr:0x0a020000/16 set_nexthop(next_mac:0xbb, port:2)\n\
                   add port_mac standard_metadata.egress_port:2 rewrite_source(smac:0x020000000002)\n";
    let stf = janus_stf::parse(entries).expect("entries parse");
    janus_stf::runner::configure(&mut sw, &stf).expect("entries apply");
    sw
}

/// A 64-byte UDP packet to 10.2.3.4 with a right IPv4 checksum.
const PACKET: &str = "aaaaaaaaaaaa0200000000010800\
                      4500003200010000401162b70a0101010a020304\
                      12341f90001e0000\
                      00000000000000000000000000000000000000000000";

#[test]
fn routing_a_packet_allocates_nothing_in_steady_state() {
    let packet: Vec<u8> = (0..PACKET.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&PACKET[i..i + 2], 16).expect("hex"))
        .collect();
    let mut sw = router();
    let mut sent = 0;
    let mut count = |port: u32, bytes: &[u8]| {
        assert_eq!((port, bytes.len()), (2, 64));
        sent += 1;
    };
    // Warm-up: buffers reach their size.
    for _ in 0..4 {
        sw.process_with(1, &packet, &mut count);
    }
    let before = allocations();
    for _ in 0..100 {
        sw.process_with(1, &packet, &mut count);
    }
    assert_eq!(allocations(), before, "the packet path allocated");
    assert_eq!(sent, 104, "every packet is routed");

    let before = allocations();
    let out = sw.process(1, &packet);
    assert_eq!(out.len(), 1);
    assert!(allocations() > before, "the counter sees allocations");
}
