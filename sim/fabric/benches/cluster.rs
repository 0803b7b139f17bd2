//! Cluster-scale runs end to end from the specs: topology build, workload,
//! the scheme's planning (pinning plan, port search) and the engine.
//!
//! - one 1,536-GPU ring AllReduce (192 hosts x 8 NICs, rail-optimised,
//!   non-blocking two tiers) in random rank order, under ECMP, pinning and
//!   NIC-side pinning;
//! - with `JANUS_BENCH_32K=1`, the same on 32,768 GPUs (4,096 hosts x 8
//!   NICs, a non-blocking three-tier Clos) under ECMP and pinning;
//! - `sweep`: what `janus fabric run` does for the paper's bisection
//!   permutation, 6 schemes x 40 seeds, on 1 and on 2 threads.
//!
//! Run with `cargo bench -p janus-fabric --bench cluster`.

use criterion::{Criterion, criterion_group, criterion_main};
use janus_fabric::report::parallel::{ParallelOptions, Progress, run_sweep};
use janus_fabric::run::{RunConfig, Sweep};
use janus_fabric::schemes::Scheme;
use janus_fabric::topo::Topology;
use std::hint::black_box;

const GPUS_1536: &str =
    "leaf-spine:leaves=48,spines=32,hosts-per-leaf=32,nics-per-host=8,rails=true";
const GPUS_32K: &str = "clos3:pods=32,leaves-per-pod=32,aggs-per-pod=32,cores=1024,hosts-per-leaf=32,nics-per-host=8,rails=true";
const TRAFFIC: &str = "allreduce:size=1GiB,order=random,qps=1";

/// Builds everything from the specs and plays one run; the completion.
fn end_to_end(topo: &str, scheme: Scheme) -> f64 {
    let topo = Topology::parse(topo).expect("topology");
    let config = RunConfig::new(topo, TRAFFIC).expect("traffic");
    let run = config.simulate(scheme, 1).expect("run");
    run.result.makespan
}

fn cluster(c: &mut Criterion) {
    let mut g = c.benchmark_group("cluster");
    g.sample_size(10);
    for scheme in [Scheme::Ecmp, Scheme::Pinned, Scheme::NicPinned] {
        g.bench_function(format!("allreduce_1536_{scheme}"), |b| {
            b.iter(|| black_box(end_to_end(GPUS_1536, scheme)))
        });
    }
    if std::env::var_os("JANUS_BENCH_32K").is_some() {
        for scheme in [Scheme::Ecmp, Scheme::Pinned] {
            g.bench_function(format!("allreduce_32k_{scheme}"), |b| {
                b.iter(|| black_box(end_to_end(GPUS_32K, scheme)))
            });
        }
    }
    g.finish();
}

const PAPER: &str = "leaf-spine:leaves=2,spines=8,hosts-per-leaf=8,nics-per-host=1,gbps=400";

fn sweep(c: &mut Criterion) {
    let config = RunConfig::new(
        Topology::parse(PAPER).expect("topology"),
        "permutation:cross-leaf=true,qps=1",
    )
    .expect("traffic");
    let sweep = Sweep {
        schemes: Scheme::parse_list("ecmp,ecmp-qps4,flowlet,pinned,nic-pinned,spray")
            .expect("schemes"),
        seeds: (0..40).collect(),
    };
    let mut g = c.benchmark_group("sweep");
    g.sample_size(10);
    for threads in [1, 2] {
        let options = ParallelOptions {
            threads: Some(threads),
            progress: Progress::Hidden,
        };
        g.bench_function(format!("bisection_6x40_threads{threads}"), |b| {
            b.iter(|| black_box(run_sweep(&config, &sweep, options).expect("sweep").len()))
        });
    }
    g.finish();
}

criterion_group!(benches, cluster, sweep);
criterion_main!(benches);
