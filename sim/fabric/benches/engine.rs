//! Engine benchmarks: a 1 GiB ring AllReduce in shuffled rank order under
//! a hashing router, on 1,536 endpoints (3,070 repetitions of 1,536
//! transfers) and, with `JANUS_BENCH_32K=1`, on 32,768 endpoints.
//!
//! Run with `cargo bench -p janus-fabric --bench engine`.

mod fabric;

use criterion::{Criterion, criterion_group, criterion_main};
use fabric::{Ecmp, Fabric, GPUS_32K, GPUS_1536, ring_allreduce, shuffled};
use janus_fabric::engine::{EngineConfig, run};
use std::hint::black_box;

fn allreduce(f: Fabric) -> f64 {
    let jobs = [ring_allreduce(&shuffled(f.endpoints(), 3), 1 << 30)];
    let mut router = Ecmp {
        fabric: f,
        seed: 11,
    };
    let res = run(&f.network(), &jobs, &mut router, &EngineConfig::default()).expect("run");
    res.jobs[0].completion
}

fn engine(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    g.bench_function("ring_allreduce_1536", |b| {
        b.iter(|| black_box(allreduce(GPUS_1536)))
    });
    if std::env::var_os("JANUS_BENCH_32K").is_some() {
        g.bench_function("ring_allreduce_32k", |b| {
            b.iter(|| black_box(allreduce(GPUS_32K)))
        });
    }
    g.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
