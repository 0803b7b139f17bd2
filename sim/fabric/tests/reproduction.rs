//! The published results, reproduced in the flow-level model: ECMP's
//! collisions against a collision-free pinning plan on the paper's fabric
//! (2 leaves x 8 hosts, 8 spines, 400 Gbit/s). Run with `--nocapture` to
//! see the measured numbers (docs/fabric.md, "Results", records them).

use janus_fabric::run::RunConfig;
use janus_fabric::schemes::Scheme;
use janus_fabric::topo::Topology;
use janus_fabric::traffic::Workload;

const PAPER: &str = "leaf-spine:leaves=2,spines=8,hosts-per-leaf=8,nics-per-host=1,gbps=400";
/// Four leaves of the paper's racks: a ring in random order crosses
/// leaves at almost every hop.
const FOUR_LEAVES: &str = "leaf-spine:leaves=4,spines=8,hosts-per-leaf=8,nics-per-host=1,gbps=400";
const SEEDS: u64 = 40;

fn config(topo: &str, traffic: &str) -> RunConfig {
    RunConfig::new(Topology::parse(topo).expect("topology"), traffic).expect("traffic")
}

fn makespan(c: &RunConfig, scheme: Scheme, seed: u64) -> f64 {
    c.simulate(scheme, seed).expect("run").result.makespan
}

/// Per seed, `scheme`'s makespan over `pinned`'s.
fn ratios(c: &RunConfig, scheme: Scheme) -> Vec<f64> {
    (0..SEEDS)
        .map(|s| makespan(c, scheme, s) / makespan(c, Scheme::Pinned, s))
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// P(max load <= m) when `k` balls fall uniformly into `n` bins:
/// `k! / n^k [x^k] (sum_{j<=m} x^j / j!)^n`.
fn max_load_cdf(k: usize, n: usize, m: usize) -> f64 {
    let term: Vec<f64> = (0..=m.min(k))
        .scan(1.0, |f, j| {
            if j > 0 {
                *f /= j as f64;
            }
            Some(*f)
        })
        .collect();
    let mut poly = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; (poly.len() + term.len() - 1).min(k + 1)];
        for (i, a) in poly.iter().enumerate() {
            for (j, b) in term.iter().enumerate() {
                if i + j <= k {
                    next[i + j] += a * b;
                }
            }
        }
        poly = next;
    }
    let fact: f64 = (1..=k).map(|i| i as f64).product();
    poly.get(k).copied().unwrap_or(0.0) * fact / (n as f64).powi(k as i32)
}

/// E[max(M_a, M_b, 1)], `M` the max load of independent sets of `a` and
/// `b` balls in `n` bins.
fn expected_max(a: usize, b: usize, n: usize) -> f64 {
    (1..a.max(b).max(1))
        .map(|m| 1.0 - max_load_cdf(a, n, m) * max_load_cdf(b, n, m))
        .sum::<f64>()
        + 1.0
}

#[test]
fn balls_in_bins_reference_values() {
    // 8 flows hashed onto 8 spines: the expected busiest spine carries
    // 2.597 flows (exact); 1 flow, 1; 2 flows, 1 + 1/8.
    assert!((expected_max(8, 0, 8) - 2.597_232_8).abs() < 1e-6);
    assert!((expected_max(1, 1, 8) - 1.0).abs() < 1e-12);
    assert!((expected_max(2, 0, 8) - 1.125).abs() < 1e-12);
}

#[test]
fn permutation_ecmp_penalty_matches_balls_in_bins() {
    let c = config(PAPER, "permutation:qps=1");
    let topo = &c.topo;
    let measured = ratios(&c, Scheme::Ecmp);
    // The prediction per seed: the k flows from leaf 0 to leaf 1 and the
    // k' back are hashed onto the 8 spines independently; the makespan is
    // the busiest uplink's (= downlink's) flow count times a flow's time
    // alone, pinning's makespan.
    let predicted: Vec<f64> = (0..SEEDS)
        .map(|s| {
            let w = Workload::parse("permutation:qps=1", topo, s).expect("workload");
            let cross = |from: u32| {
                w.jobs[0].phases[0]
                    .transfers
                    .iter()
                    .filter(|t| topo.leaf_of(t.src) == from && topo.leaf_of(t.dst) != from)
                    .count()
            };
            expected_max(cross(0), cross(1), 8)
        })
        .collect();
    let (m, p) = (mean(&measured), mean(&predicted));
    println!(
        "permutation, 2 leaves x 8 hosts, 8 spines, qps=1, {SEEDS} seeds: ECMP / pinned = {m:.3} (balls-in-bins prediction {p:.3}; 8 flows on 8 spines: {:.3}; published: up to 1.6)",
        expected_max(8, 0, 8)
    );
    // The spread of one seed's max load is about 0.6 flows: the mean of
    // 40 differs from the prediction by 0.1 at one standard deviation.
    assert!((m - p).abs() < 0.3, "measured {m}, predicted {p}");
    assert!(m > 1.4, "ECMP must lose to pinning: {m}");
}

/// The bisection permutation of the paper's fabric: each of leaf 0's 8
/// hosts writes to a distinct host of leaf 1 and back (ib_write_bw
/// between the racks), one QP per flow.
const BISECTION: &str = "permutation:cross-leaf=true,qps=1";

/// E[1 / (1 + X)] for X ~ Binomial(n - 1, 1/bins): the share of a link a
/// flow gets when it and `n - 1` others are hashed uniformly onto `bins`
/// equal links, `(1 - (1 - 1/bins)^n) * bins / n`.
fn collision_share(n: u32, bins: u32) -> f64 {
    let q = 1.0 - 1.0 / f64::from(bins);
    (1.0 - q.powi(n as i32)) * f64::from(bins) / f64::from(n)
}

#[test]
fn collision_share_reference_values() {
    // 8 flows on 8 spines: 1 - (7/8)^8 = 0.6564, pinning 1.52x better.
    assert!((collision_share(8, 8) - 0.656_391_4).abs() < 1e-6);
    assert!((collision_share(1, 8) - 1.0).abs() < 1e-12);
}

#[test]
fn bisection_mean_flow_throughput_matches_the_collision_factor() {
    let c = config(PAPER, BISECTION);
    let (mut ecmp_sum, mut pinned_sum, mut makespans) = (0.0, 0.0, Vec::new());
    for seed in 0..SEEDS {
        let ideal = c.ideal(seed).expect("ideal");
        let ecmp = RunConfig::outcome(c.simulate(Scheme::Ecmp, seed).expect("ecmp"), &ideal);
        let pinned = RunConfig::outcome(c.simulate(Scheme::Pinned, seed).expect("pinned"), &ideal);
        assert_eq!(ecmp.throughput.flows, 16);
        assert_eq!(
            ecmp.transfer_throughput, ecmp.throughput,
            "one QP per transfer"
        );
        // Pinning is collision-free: every flow at line rate.
        assert!((pinned.throughput.mean - 400.0).abs() < 1e-6, "{pinned:?}");
        assert!((pinned.throughput_ratio - 1.0).abs() < 1e-9);
        ecmp_sum += ecmp.throughput.mean;
        pinned_sum += pinned.throughput.mean;
        makespans.push(ecmp.makespan / pinned.makespan);
    }
    let measured = pinned_sum / ecmp_sum;
    let theory = 1.0 / collision_share(8, 8);
    let makespan = mean(&makespans);
    let makespan_theory = expected_max(8, 8, 8);
    println!(
        "bisection permutation, 2 leaves x 8 hosts, 8 spines, qps=1, {SEEDS} seeds: mean per-flow throughput pinned / ECMP = {measured:.3} (collision factor 1 / (1 - (7/8)^8) = {theory:.3}; published: up to 1.6); makespan ECMP / pinned = {makespan:.3} (balls-in-bins {makespan_theory:.3})"
    );
    // In the model a flow sharing its spine with k others gets exactly
    // 1/(k+1) of the link for its whole transfer (equal sizes: they all
    // end together), so a seed's mean share is the mean of 1/(1+X) over
    // its 16 flows. Its spread is 0.079 per seed (two independent
    // directions of 8 flows); over 40 seeds the ratio's standard deviation
    // is about 0.03, so a band of 0.12 (4 sigma) around 1.523 holds
    // whatever the hash, as long as it spreads flows uniformly.
    assert!(
        (measured - theory).abs() < 0.12,
        "measured {measured}, theory {theory}"
    );
    // The makespan is the busier direction's busiest spine.
    assert!(
        (makespan - makespan_theory).abs() < 0.3,
        "{makespan} {makespan_theory}"
    );
}

#[test]
fn ring_allreduce_random_order_ecmp_penalty_is_2x_or_more() {
    let c = config(FOUR_LEAVES, "allreduce:size=1GiB,order=random,qps=1");
    let r = ratios(&c, Scheme::Ecmp);
    let m = mean(&r);
    println!(
        "ring AllReduce, random order, 4 leaves x 8 hosts, 8 spines, {SEEDS} seeds: ECMP / pinned = {m:.3} (min {:.3}, max {:.3}; published: up to 2.5)",
        r.iter().copied().fold(f64::INFINITY, f64::min),
        r.iter().copied().fold(0.0, f64::max)
    );
    assert!(m >= 2.0, "{m}");
    let two = config(PAPER, "allreduce:size=1GiB,order=random,qps=1");
    println!(
        "ring AllReduce, random order, the paper's 2 leaves: ECMP / pinned = {:.3}",
        mean(&ratios(&two, Scheme::Ecmp))
    );
}

#[test]
fn ring_allreduce_contiguous_order_has_no_penalty() {
    for topo in [PAPER, FOUR_LEAVES] {
        let c = config(topo, "allreduce:size=1GiB,order=contiguous,qps=1");
        let r = ratios(&c, Scheme::Ecmp);
        println!(
            "ring AllReduce, contiguous order, {topo}: ECMP / pinned = {:.3}",
            mean(&r)
        );
        assert!(r.iter().all(|x| (x - 1.0).abs() < 1e-9), "{r:?}");
    }
}

#[test]
fn more_queue_pairs_shrink_the_ecmp_penalty() {
    let c = config(PAPER, "permutation:qps=1");
    let one = mean(&ratios(&c, Scheme::Ecmp));
    let four = mean(&ratios(&c, Scheme::EcmpQps(4)));
    let eight = mean(&ratios(&c, Scheme::EcmpQps(8)));
    let ring = config(FOUR_LEAVES, "allreduce:size=1GiB,order=random,qps=1");
    let ring_one = mean(&ratios(&ring, Scheme::Ecmp));
    let ring_four = mean(&ratios(&ring, Scheme::EcmpQps(4)));
    println!(
        "permutation ECMP / pinned: qps=1 {one:.3}, qps=4 {four:.3}, qps=8 {eight:.3}; ring AllReduce (4 leaves): qps=1 {ring_one:.3}, qps=4 {ring_four:.3}"
    );
    assert!(four < one && eight < four, "{one} {four} {eight}");
    assert!(ring_four < ring_one, "{ring_one} {ring_four}");
}

#[test]
fn flowlets_recover_part_of_the_penalty() {
    let c = config(PAPER, "permutation:qps=1");
    let ecmp = mean(&ratios(&c, Scheme::Ecmp));
    let flowlet = mean(&ratios(&c, Scheme::Flowlet));
    println!("permutation ECMP / pinned {ecmp:.3}, flowlet / pinned {flowlet:.3}");
    assert!(flowlet < ecmp, "{flowlet} {ecmp}");
    assert!(flowlet >= 1.0 - 1e-9);
}

#[test]
fn nic_pinning_equals_controller_pinning_on_two_tiers() {
    for (topo, traffic) in [
        (PAPER, "permutation:qps=1"),
        (PAPER, "allreduce:size=1GiB,order=random,qps=2"),
        (FOUR_LEAVES, "allreduce:size=1GiB,order=random,qps=1"),
    ] {
        let c = config(topo, traffic);
        let mut tries = 0;
        let mut flows = 0;
        for seed in 0..10 {
            let nic = c.simulate(Scheme::NicPinned, seed).expect("run");
            let pinned = makespan(&c, Scheme::Pinned, seed);
            let ports = nic.diagnostics.ports.expect("port search");
            assert_eq!(ports.found, ports.flows, "{topo} {traffic} seed {seed}");
            assert_eq!(nic.result.makespan, pinned, "{topo} {traffic} seed {seed}");
            tries += ports.tries;
            flows += ports.flows;
        }
        println!(
            "nic-pinned = pinned on {topo}, {traffic}: every flow's port found, {:.1} ports tried per flow",
            tries as f64 / flows as f64
        );
    }
}

#[test]
fn spray_is_never_slower_than_any_scheme() {
    let all = Scheme::parse_list("ecmp,ecmp-qps4,flowlet,pinned,nic-pinned").expect("schemes");
    for (topo, traffic) in [
        (PAPER, "permutation:qps=1"),
        (FOUR_LEAVES, "allreduce:size=256MiB,order=random,qps=1"),
        (PAPER, "alltoall:size=64MiB,order=random"),
        (
            "clos3:pods=2,leaves-per-pod=2,aggs-per-pod=2,cores=4,hosts-per-leaf=4",
            "permutation:qps=1",
        ),
    ] {
        let c = config(topo, traffic);
        for seed in 0..5 {
            let ideal = c.ideal(seed).expect("ideal");
            for &s in &all {
                let run = c.simulate(s, seed).expect("run");
                let o = RunConfig::outcome(run, &ideal);
                assert!(
                    o.ratio >= 1.0 - 1e-9,
                    "{topo} {traffic} seed {seed}: {s} beats spray: {}",
                    o.ratio
                );
            }
        }
    }
}
