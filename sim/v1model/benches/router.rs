//! Packets per second through the shipped L3 router with ACL (64-byte
//! UDP packets, one core), with 10, 10k and 100k LPM routes.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use janus_engine::table::{Entry, FieldMatch};
use janus_engine::target::Target;
use janus_engine::value::Bits;
use janus_v1model::V1Switch;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

fn router(routes: usize) -> V1Switch {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../p4/examples/l3_router_acl.p4");
    let c = janus_p4::driver::compile_file(&path, &Default::default()).expect("readable");
    assert!(!c.has_errors(), "{}", c.render(false));
    let mut sw = V1Switch::load(c.ir.expect("ir")).expect("loads");
    let slot = sw
        .tables()
        .iter()
        .position(|t| t.name == "RouterIngress.ipv4_lpm")
        .expect("table");
    let action = sw.tables()[slot]
        .actions
        .iter()
        .position(|a| a.name == "RouterIngress.set_nexthop")
        .expect("action");
    let table = sw.table_mut(slot).expect("table");
    // Distinct /24 routes spread over 11.0.0.0/8 and up; the benchmark's
    // own route is a /16 the others never cover.
    let mut x: u32 = 0x9E37_79B9;
    let mut added = 0;
    while added + 1 < routes {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let prefix = (x | 0x0B00_0000) & 0xFFFF_FF00;
        if prefix >> 16 == 0x0a02 {
            continue;
        }
        let entry = Entry {
            key: vec![FieldMatch::Lpm {
                value: Bits::from_u64(32, false, prefix as u64),
                len: 24,
            }],
            priority: 0,
            action,
            args: vec![Bits::from_u64(48, false, 1), Bits::from_u64(9, false, 3)],
        };
        table.max_size = usize::MAX;
        if table.insert(entry).is_ok() {
            added += 1;
        }
    }
    table
        .insert(Entry {
            key: vec![FieldMatch::Lpm {
                value: Bits::from_u64(32, false, 0x0a02_0000),
                len: 16,
            }],
            priority: 0,
            action,
            args: vec![Bits::from_u64(48, false, 0xbb), Bits::from_u64(9, false, 2)],
        })
        .expect("route");
    sw
}

fn packet() -> Vec<u8> {
    // Ethernet (14) + IPv4 (20, total length 50, a correct header checksum,
    // so verify_checksum finds no error) + UDP (8, length 30) + 22 bytes.
    let hex = "aaaaaaaaaaaa0200000000010800\
               4500003200010000401162b30a0101010a020304\
               12341f90001e0000\
               00000000000000000000000000000000000000000000";
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

fn bench(c: &mut Criterion) {
    let pkt = packet();
    assert_eq!(pkt.len(), 64);
    let mut g = c.benchmark_group("l3_router_acl");
    g.throughput(Throughput::Elements(1))
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    for routes in [10usize, 10_000, 100_000] {
        let mut sw = router(routes);
        assert_eq!(sw.process(1, &pkt).len(), 1, "the packet is routed");
        g.bench_function(format!("{routes}_routes"), |b| {
            b.iter(|| {
                let mut sent = 0usize;
                sw.process_with(1, black_box(&pkt), &mut |port, bytes| {
                    sent += black_box((port, bytes)).1.len();
                });
                black_box(sent)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
