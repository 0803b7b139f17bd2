//! Ring benchmarks: a full round trip (driver add, publish, device pop, push
//! used, publish used, driver reap) per chain, in batches of 1 and 32, on
//! one thread; and the same across two threads (driver and device each
//! spinning on its own core), where a batch of 1 measures the added latency
//! of one hop through the ring and back.
//!
//! Run with `cargo bench -p janus-host --bench ring`.

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use janus_host::ring::{
    Access, Buffer, Chain, Completion, Device, Driver, RingConfig, RingLayout, SharedRegion,
    Suppression,
};

const SIZE: u16 = 256;

fn ring() -> (Driver, Device) {
    let layout = RingLayout::packed_at(SIZE, 0);
    let region = Arc::new(SharedRegion::new(layout.end() as usize).expect("region"));
    let config = RingConfig {
        layout,
        suppression: Suppression::EventIdx,
    };
    (
        Driver::new(region.clone(), config).expect("driver"),
        Device::new(region, config).expect("device"),
    )
}

const BUF: Buffer = Buffer {
    addr: 0x10_0000,
    len: 1500,
    access: Access::DeviceReads,
};

/// One round trip of `batch` chains on one thread.
fn round_trip(
    drv: &mut Driver,
    dev: &mut Device,
    batch: usize,
    chains: &mut [Chain],
    done: &mut [Completion],
) {
    for t in 0..batch {
        drv.add(&[BUF], t as u64).expect("add");
    }
    let _ = black_box(drv.publish());
    let n = dev.pop_batch(&mut chains[..batch]).expect("pop");
    for c in &chains[..n] {
        dev.push_used(c.head, 0).expect("push");
    }
    let _ = black_box(dev.publish_used());
    let r = drv.reap(&mut done[..batch]).expect("reap");
    assert_eq!(r, batch);
}

fn single_thread(c: &mut Criterion) {
    let mut g = c.benchmark_group("ring_1thread");
    for batch in [1usize, 32] {
        g.throughput(Throughput::Elements(batch as u64));
        let (mut drv, mut dev) = ring();
        let mut chains = [Chain::default(); 32];
        let mut done = [Completion::default(); 32];
        g.bench_function(format!("batch_{batch}"), |b| {
            b.iter(|| round_trip(&mut drv, &mut dev, batch, &mut chains, &mut done))
        });
    }
    g.finish();
}

/// Waiting for the other thread: a spin hint, and the core to whoever
/// else wants it (the machine may have fewer free cores than spinners).
fn idle() {
    std::hint::spin_loop();
    thread::yield_now();
}

/// Moves `total` chains through a device thread in batches of `batch`,
/// keeping at most `batch` in flight; returns the elapsed time.
fn two_threads_run(total: u64, batch: usize) -> Duration {
    let (mut drv, mut dev) = ring();
    let stop = Arc::new(AtomicBool::new(false));
    let stop_dev = stop.clone();
    let device = thread::spawn(move || {
        let mut chains = [Chain::default(); 32];
        while !stop_dev.load(Ordering::Relaxed) {
            let n = dev.pop_batch(&mut chains).expect("pop");
            for c in &chains[..n] {
                dev.push_used(c.head, 0).expect("push");
            }
            if n > 0 {
                let _ = black_box(dev.publish_used());
            } else {
                idle();
            }
        }
    });
    let mut done = [Completion::default(); 32];
    let start = Instant::now();
    let mut reaped = 0u64;
    let deadline = start + Duration::from_secs(60);
    while reaped < total && Instant::now() < deadline {
        for t in 0..batch {
            drv.add(&[BUF], t as u64).expect("add");
        }
        let _ = black_box(drv.publish());
        let mut got = 0;
        while got < batch && Instant::now() < deadline {
            let n = drv.reap(&mut done).expect("reap");
            if n == 0 {
                idle();
            }
            got += n;
        }
        reaped += got as u64;
    }
    let elapsed = start.elapsed();
    stop.store(true, Ordering::Relaxed);
    device.join().expect("device thread");
    assert_eq!(reaped, total, "two-thread run timed out");
    elapsed
}

fn two_threads(c: &mut Criterion) {
    let mut g = c.benchmark_group("ring_2threads");
    for batch in [1usize, 32] {
        g.throughput(Throughput::Elements(batch as u64));
        g.bench_function(format!("batch_{batch}"), |b| {
            b.iter_custom(|iters| two_threads_run(iters * batch as u64, batch))
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
}

criterion_group! {
    name = benches;
    config = config();
    targets = single_thread, two_threads
}
criterion_main!(benches);
