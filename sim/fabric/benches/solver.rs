//! Max-min solver benchmarks: the flows of one ring AllReduce step (one
//! flow per rank, ECMP-hashed over the spines) on a two-tier fabric of
//! 1,536 and 32,768 endpoints; a full solve, and the incremental re-solve
//! after one flow ends.
//!
//! Run with `cargo bench -p janus-fabric --bench solver`.

#[allow(dead_code, reason = "the engine benchmark uses the rest")]
mod fabric;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use fabric::{Fabric, GPUS_32K, GPUS_1536, shuffled};
use janus_fabric::solver::{ClassId, Route, Solver};
use std::hint::black_box;

fn ring_routes(f: &Fabric) -> Vec<Route> {
    let order = shuffled(f.endpoints(), 7);
    let n = order.len();
    (0..n)
        .map(|i| {
            let (s, d) = (order[i], order[(i + 1) % n]);
            Route::single(f.path(s, d, f.ecmp_spine(1, s, d, 0)))
        })
        .collect()
}

fn loaded(f: &Fabric, routes: &[Route]) -> (Solver, Vec<ClassId>) {
    let mut s = Solver::new(f.capacities()).expect("capacities");
    let ids = routes.iter().map(|r| s.add(r, 1).expect("route")).collect();
    (s, ids)
}

fn solve(c: &mut Criterion) {
    let mut g = c.benchmark_group("solver");
    g.sample_size(20);
    for (name, f) in [("1536", GPUS_1536), ("32k", GPUS_32K)] {
        let routes = ring_routes(&f);
        g.bench_with_input(BenchmarkId::new("full", name), &routes, |b, routes| {
            b.iter_batched(
                || loaded(&f, routes),
                |(mut s, _)| black_box(s.solve()),
                criterion::BatchSize::LargeInput,
            )
        });
        let (mut s, ids) = loaded(&f, &routes);
        s.solve();
        g.bench_with_input(BenchmarkId::new("remove_add_one", name), &ids, |b, ids| {
            b.iter(|| {
                s.remove(ids[0], 1).expect("live");
                s.solve();
                s.add(&routes[0], 1).expect("route");
                black_box(s.solve())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, solve);
criterion_main!(benches);
