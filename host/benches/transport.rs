//! Transport benchmark: the NIC's hub (its own thread, sleeping in `poll`
//! when idle, as in `janus nic run`) between two host ends over the real
//! memory file, event counters and sockets. One iteration sends a frame
//! from VF 2, the hub forwards it to VF 3, VF 3 echoes it and the hub
//! forwards it back: two hops through the NIC (shim -> NIC -> shim) each
//! way, without a P4 pipeline. Frames of 64 and 1500 bytes, one at a time
//! (latency) and 32 at a time (throughput).
//!
//! Run with `cargo bench -p janus-host --bench transport`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use janus_host::transport::{HostEnd, Hub, HubConfig, Pipeline, socket_path};

struct Swap;

impl Pipeline for Swap {
    fn process(&mut self, port: u32, frame: &[u8], out: &mut Vec<(u32, Vec<u8>)>) {
        out.push((if port == 2 { 3 } else { 2 }, frame.to_vec()));
    }
}

/// Receives exactly `n` frames on `end` (spinning, 10 s at most).
fn take(end: &mut HostEnd, n: usize, mut f: impl FnMut(&[u8])) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut got = 0;
    while got < n {
        got += end.receive(n - got, &mut f).expect("receive");
        end.reclaim().expect("reclaim");
        assert!(Instant::now() < deadline, "frames lost");
    }
}

fn transport(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("janus-bench-transport-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let mut hub = Hub::bind(HubConfig {
        dir: dir.clone(),
        ports: vec![2, 3],
        ring_size: 256,
        batch: 32,
    })
    .expect("hub");
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let nic = thread::spawn(move || hub.run(&mut Swap, &|| flag.load(Ordering::Relaxed)));
    let mut a = HostEnd::connect(&socket_path(&dir, 2), 2).expect("VF 2");
    let mut b = HostEnd::connect(&socket_path(&dir, 3), 3).expect("VF 3");
    let mut group = c.benchmark_group("transport");
    for len in [64usize, 1500] {
        for batch in [1usize, 32] {
            let frame = vec![0x5a; len];
            group.throughput(Throughput::Elements(batch as u64));
            group.bench_function(format!("echo_{len}B_batch{batch}"), |bench| {
                let mut echo = Vec::with_capacity(batch);
                bench.iter(|| {
                    for _ in 0..batch {
                        assert!(a.send(&frame).expect("send"));
                    }
                    a.flush().expect("flush");
                    echo.clear();
                    take(&mut b, batch, |f| echo.push(f.to_vec()));
                    for f in &echo {
                        assert!(b.send(f).expect("send"));
                    }
                    b.flush().expect("flush");
                    take(&mut a, batch, |_| {});
                });
            });
        }
    }
    group.finish();
    stop.store(true, Ordering::Relaxed);
    drop((a, b));
    let _ = nic.join();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, transport);
criterion_main!(benches);
