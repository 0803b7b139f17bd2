//! Runs and sweeps end to end: determinism, failures, three tiers, and
//! the outcome's bookkeeping.

use janus_fabric::engine::{LinkChange, LinkState};
use janus_fabric::flow::LinkId;
use janus_fabric::run::{RunConfig, RunError, Sweep};
use janus_fabric::schemes::Scheme;
use janus_fabric::topo::Topology;

const PAPER: &str = "leaf-spine:leaves=2,spines=8,hosts-per-leaf=8,nics-per-host=1,gbps=400";
const CLOS3: &str = "clos3:pods=2,leaves-per-pod=2,aggs-per-pod=2,cores=4,hosts-per-leaf=4";

fn config(topo: &str, traffic: &str) -> RunConfig {
    RunConfig::new(Topology::parse(topo).expect("topology"), traffic).expect("traffic")
}

#[test]
fn a_sweep_is_deterministic_and_ordered_scheme_by_seed() {
    let c = config(PAPER, "allreduce:size=64MiB,order=random,qps=1");
    let sweep = Sweep {
        schemes: Scheme::parse_list("ecmp,pinned,nic-pinned,spray,flowlet").expect("schemes"),
        seeds: vec![3, 1, 2],
    };
    let a = sweep.run(&c).expect("sweep");
    let b = sweep.run(&c).expect("sweep");
    assert_eq!(a, b);
    let order: Vec<(Scheme, u64)> = a.iter().map(|o| (o.scheme, o.seed)).collect();
    assert_eq!(order, sweep.cases());
    for o in &a {
        assert_eq!(
            o,
            &c.run_one(o.scheme, o.seed).expect("run"),
            "{} {}",
            o.scheme,
            o.seed
        );
        assert!(o.ratio >= 1.0 - 1e-9);
        assert_eq!(o.jobs.len(), 1);
        assert_eq!(o.link_utilisation.len(), c.topo.links().len());
        assert!(o.utilisation.max <= 1.0 + 1e-9 && o.utilisation.max > 0.0);
        assert!(o.throughput.flows == 16 && o.throughput.max <= 400.0 + 1e-6);
        assert!(o.throughput.min <= o.throughput.p50 && o.throughput.p50 <= o.throughput.max);
    }
    let spray: Vec<_> = a.iter().filter(|o| o.scheme == Scheme::Spray).collect();
    assert!(spray.iter().all(|o| o.ratio == 1.0));
    let nic = a
        .iter()
        .find(|o| o.scheme == Scheme::NicPinned)
        .expect("nic-pinned");
    let ports = nic.diagnostics.ports.expect("port search");
    assert_eq!(ports.found, 16);
    assert!(ports.tries >= 16 && ports.max_tries >= 1);
}

#[test]
fn every_scheme_survives_a_spine_failure_and_pays_for_it() {
    let mut c = config(PAPER, "permutation:qps=1,size=256MiB");
    let spine = c.topo.node_by_name("spine2").expect("spine");
    let links: Vec<LinkId> = (0..c.topo.links().len() as u32)
        .map(LinkId)
        .filter(|l| {
            let link = c.topo.link(*l);
            link.from == spine || link.to == spine
        })
        .collect();
    c.engine.link_changes = links
        .iter()
        .map(|&link| LinkChange {
            at: 0.002,
            link,
            state: LinkState::Down,
        })
        .collect();
    let healthy = config(PAPER, "permutation:qps=1,size=256MiB");
    for scheme in
        Scheme::parse_list("ecmp,ecmp-qps4,flowlet,pinned,nic-pinned,spray").expect("schemes")
    {
        for seed in 0..4 {
            let failed = c.simulate(scheme, seed).expect("failed run");
            let fine = healthy.simulate(scheme, seed).expect("healthy run");
            assert!(
                failed.result.makespan >= fine.result.makespan - 1e-12,
                "{scheme} seed {seed}"
            );
        }
    }
    // A pinned flow through the dead spine is replanned, and waits for its
    // retransmission timer: at least one RTO late.
    let (mut replanned, mut late) = (0, 0);
    for seed in 0..4 {
        let run = c.simulate(Scheme::Pinned, seed).expect("run");
        replanned += run.diagnostics.plan.expect("plan").replanned;
        if run.result.makespan
            > healthy
                .simulate(Scheme::Pinned, seed)
                .expect("run")
                .result
                .makespan
                + c.engine.rto * 0.99
        {
            late += 1;
        }
    }
    assert!(replanned > 0 && late > 0, "{replanned} {late}");
}

#[test]
fn three_tier_schemes_order_as_expected() {
    let c = config(CLOS3, "allreduce:size=256MiB,order=random,qps=1");
    let sweep = Sweep {
        schemes: Scheme::parse_list("ecmp,pinned,nic-pinned").expect("schemes"),
        seeds: (0..6).collect(),
    };
    let out = sweep.run(&c).expect("sweep");
    let mean = |s: Scheme| {
        let v: Vec<f64> = out
            .iter()
            .filter(|o| o.scheme == s)
            .map(|o| o.ratio)
            .collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    let (e, p, n) = (
        mean(Scheme::Ecmp),
        mean(Scheme::Pinned),
        mean(Scheme::NicPinned),
    );
    println!(
        "clos3 ring AllReduce, random order, 6 seeds, ratio to spray: ecmp {e:.3}, pinned {p:.3}, nic-pinned {n:.3}"
    );
    assert!(p <= e && (n - p).abs() < 1e-9, "{e} {p} {n}");
    for o in out.iter().filter(|o| o.scheme == Scheme::NicPinned) {
        let ports = o.diagnostics.ports.expect("ports");
        assert_eq!(ports.found, ports.flows);
    }
    assert!(out.iter().filter(|o| o.scheme == Scheme::Pinned).all(|o| {
        let plan = o.diagnostics.plan.expect("plan");
        plan.greedy == plan.flows && plan.coloured == 0
    }));
}

#[test]
fn unreachable_endpoints_are_refused_with_their_names() {
    let mut topo = Topology::parse(PAPER).expect("topology");
    let leaf = topo.node_by_name("leaf1").expect("leaf");
    topo.fail_node(leaf).expect("fail");
    let c = RunConfig::new(topo, "permutation").expect("traffic");
    let e = c.run_one(Scheme::Ecmp, 0).unwrap_err();
    assert!(matches!(e, RunError::Unreachable { .. }), "{e}");
    assert!(e.to_string().contains("cannot reach"), "{e}");
    let bad = RunConfig::new(
        Topology::parse(PAPER).expect("topology"),
        "permutation:qpz=1",
    )
    .expect("parsed")
    .run_one(Scheme::Ecmp, 0)
    .unwrap_err();
    assert!(bad.to_string().contains("qpz"), "{bad}");
}

#[test]
fn static_failures_switch_the_planner_to_greedy_and_stay_collision_free() {
    let mut topo = Topology::parse(PAPER).expect("topology");
    let spine = topo.node_by_name("spine0").expect("spine");
    topo.fail_node(spine).expect("fail");
    let c = RunConfig::new(topo, "permutation:qps=1").expect("traffic");
    for seed in 0..5 {
        let o = c.run_one(Scheme::Pinned, seed).expect("run");
        let plan = o.diagnostics.plan.expect("plan");
        assert_eq!(plan.coloured, 0);
        // At most 8 flows leave a leaf, 7 spines are left: the greedy
        // plan puts at most 2 on a link.
        assert!(plan.max_link_flows <= 2, "{plan:?}");
        assert!(o.ratio <= 2.0 + 1e-9, "{}", o.ratio);
    }
}
