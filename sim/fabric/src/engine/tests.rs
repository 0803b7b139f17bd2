use proptest::prelude::*;

use super::*;
use crate::flow::{Endpoint, Path, Phase, Transfer};

/// A router from a closure.
struct FnRouter<F>(F);

impl<F: FnMut(&FlowKey, &Network) -> Route> Router for FnRouter<F> {
    fn route(&mut self, flow: &FlowKey, net: &Network) -> Route {
        (self.0)(flow, net)
    }
}

fn links(ls: &[u32]) -> Path {
    ls.iter().map(|&l| LinkId(l)).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn transfer(src: u32, dst: u32, bytes: u64) -> Transfer {
    Transfer {
        src: Endpoint(src),
        dst: Endpoint(dst),
        bytes,
        qps: 1,
    }
}

fn job(name: &str, phases: Vec<(Vec<Transfer>, u32)>) -> JobTraffic {
    JobTraffic {
        name: name.into(),
        phases: phases
            .into_iter()
            .map(|(transfers, repeat)| Phase { transfers, repeat })
            .collect(),
    }
}

/// A star: endpoint `e` has an uplink `e` and a downlink `n + e`.
fn star(n: u32, cap: f64) -> (Network, impl FnMut(&FlowKey, &Network) -> Route + Clone) {
    let net = Network::new(vec![cap; 2 * n as usize]).unwrap();
    (net, move |k: &FlowKey, _: &Network| {
        Route::single(links(&[k.src.0, n + k.dst.0]))
    })
}

fn no_failures() -> EngineConfig {
    EngineConfig::default()
}

#[test]
fn one_flow_takes_bytes_over_capacity() {
    let (net, r) = star(2, 100.0);
    let jobs = [job("a", vec![(vec![transfer(0, 1, 1000)], 1)])];
    let res = run(&net, &jobs, &mut FnRouter(r), &no_failures()).unwrap();
    assert!(close(res.jobs[0].completion, 10.0));
    assert!(close(res.flows[0].throughput(), 100.0));
    assert!(close(res.links[0].bytes, 1000.0));
    assert!(close(res.links[0].utilisation, 1.0));
}

#[test]
fn two_flows_sharing_a_link_each_get_half() {
    let (net, r) = star(3, 100.0);
    let jobs = [job(
        "a",
        vec![(vec![transfer(0, 2, 1000), transfer(1, 2, 1000)], 1)],
    )];
    let res = run(&net, &jobs, &mut FnRouter(r), &no_failures()).unwrap();
    assert!(close(res.jobs[0].completion, 20.0));
    for f in &res.flows {
        assert!(close(f.throughput(), 50.0));
    }
}

#[test]
fn queue_pairs_split_a_transfer() {
    let (net, r) = star(2, 100.0);
    let mut t = transfer(0, 1, 1000);
    t.qps = 4;
    let jobs = [job("a", vec![(vec![t], 1)])];
    let res = run(&net, &jobs, &mut FnRouter(r), &no_failures()).unwrap();
    assert!(close(res.jobs[0].completion, 10.0));
    assert_eq!(res.flows.len(), 4);
    for f in &res.flows {
        assert!(close(f.bytes, 250.0));
        assert!(close(f.throughput(), 25.0));
    }
}

#[test]
fn a_flow_limited_elsewhere_leaves_the_rest_to_the_other() {
    // Link 0 (10 B/s) is shared; flow a also crosses link 1 (2 B/s).
    let net = Network::new(vec![10.0, 2.0]).unwrap();
    let r = |k: &FlowKey, _: &Network| {
        if k.transfer == 0 {
            Route::single(links(&[0, 1]))
        } else {
            Route::single(links(&[0]))
        }
    };
    let jobs = [job(
        "a",
        vec![(vec![transfer(0, 1, 20), transfer(2, 3, 160)], 1)],
    )];
    let res = run(&net, &jobs, &mut FnRouter(r), &no_failures()).unwrap();
    // a: 20 B at 2 B/s = 10 s; b: 80 B at 8 B/s, then 80 B at 10 B/s.
    assert!(close(res.flows[0].busy, 10.0));
    assert!(close(res.flows[1].busy, 18.0));
    assert!(close(res.jobs[0].completion, 18.0));
}

#[test]
fn a_repeated_phase_takes_repeat_times_one_repetition() {
    for ff in [FastForward::On, FastForward::Off] {
        let (net, r) = star(3, 100.0);
        let config = EngineConfig {
            fast_forward: ff,
            ..EngineConfig::default()
        };
        let phase = vec![transfer(0, 2, 1000), transfer(1, 2, 500)];
        let one = [job("a", vec![(phase.clone(), 1)])];
        let seven = [job("a", vec![(phase, 7)])];
        let t1 = run(&net, &one, &mut FnRouter(r.clone()), &config).unwrap();
        let t7 = run(&net, &seven, &mut FnRouter(r), &config).unwrap();
        assert!(close(t1.jobs[0].completion, 15.0));
        assert!(close(t7.jobs[0].completion, 7.0 * 15.0), "{ff:?}");
        assert_eq!(t7.flows[0].repetitions, 7);
        assert!(close(t7.flows[0].bytes, 7000.0));
        assert!(close(t7.links[5].bytes, 7.0 * 1500.0));
        assert_eq!(t7.skipped_repetitions > 0, ff == FastForward::On);
    }
}

#[test]
fn two_jobs_interleave() {
    let (net, r) = star(4, 100.0);
    let jobs = [
        job(
            "a",
            vec![
                (vec![transfer(0, 2, 1000)], 1),
                (vec![transfer(0, 3, 1000)], 1),
            ],
        ),
        job("b", vec![(vec![transfer(1, 2, 3000)], 1)]),
    ];
    let res = run(&net, &jobs, &mut FnRouter(r), &no_failures()).unwrap();
    // a's first phase shares link 6 with b (50 B/s each) until 20 s, its
    // second phase runs alone at 100 B/s; b then has 2000 B left.
    assert!(close(res.jobs[0].completion, 30.0));
    assert!(close(res.jobs[1].completion, 40.0));
    assert!(close(res.makespan, 40.0));
    assert!(close(res.links[6].bytes, 4000.0));
    assert!(close(res.links[6].utilisation, 1.0));
}

/// Two parallel cores between one sender and one receiver: link 0 up,
/// links 1 and 2 the cores, link 3 down. The router takes the first core
/// it sees up.
fn two_cores() -> (Network, impl FnMut(&FlowKey, &Network) -> Route + Clone) {
    let net = Network::new(vec![100.0; 4]).unwrap();
    (net, |_: &FlowKey, net: &Network| {
        let core = if net.is_live(LinkId(1)) { 1 } else { 2 };
        Route::single(links(&[0, core, 3]))
    })
}

fn fail(at: f64, link: u32) -> LinkChange {
    LinkChange {
        at,
        link: LinkId(link),
        state: LinkState::Down,
    }
}

#[test]
fn a_failure_stalls_the_flow_until_the_first_timeout_after_the_reroute() {
    // 1000 B at 100 B/s; core 1 fails at 4 s (400 B done).
    let jobs = [job("a", vec![(vec![transfer(0, 1, 1000)], 1)])];
    for (delay, rto, resume) in [(2.5, 1.0, 7.0), (0.5, 2.0, 6.0), (0.0, 0.5, 4.5)] {
        let (net, r) = two_cores();
        let config = EngineConfig {
            reroute_delay: delay,
            rto,
            link_changes: vec![fail(4.0, 1)],
            ..EngineConfig::default()
        };
        let res = run(&net, &jobs, &mut FnRouter(r), &config).unwrap();
        assert!(
            close(res.jobs[0].completion, resume + 6.0),
            "delay {delay} rto {rto}: {}",
            res.jobs[0].completion
        );
        assert!(close(res.links[1].bytes, 400.0));
        assert!(close(res.links[2].bytes, 600.0));
        assert!(close(res.links[0].bytes, 1000.0));
    }
}

#[test]
fn a_flow_without_another_path_resumes_after_the_repair() {
    let (net, r) = star(2, 100.0);
    let jobs = [job("a", vec![(vec![transfer(0, 1, 1000)], 1)])];
    let config = EngineConfig {
        reroute_delay: 1.0,
        rto: 3.0,
        link_changes: vec![
            fail(4.0, 0),
            LinkChange {
                at: 20.0,
                link: LinkId(0),
                state: LinkState::Up,
            },
        ],
        ..EngineConfig::default()
    };
    let res = run(&net, &jobs, &mut FnRouter(r), &config).unwrap();
    // Timer expiries at 7, 10, ..., 19, 22: the first after the repair.
    assert!(close(res.jobs[0].completion, 22.0 + 6.0));
}

#[test]
fn a_flow_started_before_the_routers_know_stalls_too() {
    // The core fails at 1 s; the second phase starts at 2 s, before the
    // routers learn of it at 3 s, and is routed onto the dead core.
    let (net, r) = two_cores();
    let jobs = [job(
        "a",
        vec![
            (vec![transfer(0, 1, 200)], 1),
            (vec![transfer(0, 1, 100)], 1),
        ],
    )];
    let config = EngineConfig {
        reroute_delay: 2.0,
        rto: 1.5,
        link_changes: vec![fail(1.0, 1)],
        ..EngineConfig::default()
    };
    let res = run(&net, &jobs, &mut FnRouter(r), &config).unwrap();
    // Phase 1: stalls at 1 s, retries at 2.5 (not yet rerouted), 4 s:
    // resumes, 100 B left: ends at 5 s. Phase 2 starts at 5 s on core 2.
    assert!(close(res.jobs[0].completion, 6.0));
}

#[test]
fn a_run_that_cannot_finish_is_an_error() {
    let (net, r) = star(2, 100.0);
    let jobs = [job("a", vec![(vec![transfer(0, 1, 1000)], 1)])];
    let config = EngineConfig {
        link_changes: vec![fail(1.0, 0)],
        ..EngineConfig::default()
    };
    let err = run(&net, &jobs, &mut FnRouter(r), &config).unwrap_err();
    assert!(
        matches!(err, EngineError::Stuck { stalled: 1, .. }),
        "{err}"
    );
}

#[test]
fn bad_inputs_are_errors() {
    let (net, r) = star(2, 100.0);
    let mut t = transfer(0, 1, 10);
    t.qps = 0;
    let jobs = [job("a", vec![(vec![t], 1)])];
    let err = run(&net, &jobs, &mut FnRouter(r), &no_failures()).unwrap_err();
    assert_eq!(
        err,
        EngineError::ZeroQps {
            job: 0,
            phase: 0,
            transfer: 0
        }
    );
    let jobs = [job("a", vec![(vec![transfer(0, 1, 10)], 1)])];
    let mut bad = FnRouter(|_: &FlowKey, _: &Network| Route::single(links(&[9])));
    let err = run(&net, &jobs, &mut bad, &no_failures()).unwrap_err();
    assert!(matches!(err, EngineError::BadRoute { link: 9, .. }));
    let config = EngineConfig {
        link_changes: vec![fail(1.0, 7)],
        ..EngineConfig::default()
    };
    let (net, r) = star(2, 100.0);
    let err = run(&net, &jobs, &mut FnRouter(r), &config).unwrap_err();
    assert!(matches!(err, EngineError::BadLinkChange { link: 7, .. }));
    let config = EngineConfig {
        rto: 0.0,
        ..EngineConfig::default()
    };
    let (net, r) = star(2, 100.0);
    assert!(matches!(
        run(&net, &jobs, &mut FnRouter(r), &config),
        Err(EngineError::BadConfig(_))
    ));
}

#[test]
fn empty_phases_and_zero_bytes_end_at_once() {
    let (net, r) = star(2, 100.0);
    let jobs = [job(
        "a",
        vec![
            (Vec::new(), 3),
            (vec![transfer(0, 1, 0)], 2),
            (vec![transfer(0, 1, 100)], 0),
        ],
    )];
    let res = run(&net, &jobs, &mut FnRouter(r), &no_failures()).unwrap();
    assert_eq!(res.jobs[0].completion, 0.0);
    assert_eq!(res.flows[0].repetitions, 2);
}

/// A toy leaf-spine: `leaves` x `per_leaf` endpoints, `spines` spines.
#[derive(Clone, Copy, Debug)]
struct Fabric {
    leaves: u32,
    spines: u32,
    per_leaf: u32,
}

impl Fabric {
    fn endpoints(&self) -> u32 {
        self.leaves * self.per_leaf
    }

    fn network(&self, cap: f64) -> Network {
        let e = self.endpoints();
        Network::new(vec![cap; (2 * e + 2 * self.leaves * self.spines) as usize]).unwrap()
    }

    fn path(&self, src: u32, dst: u32, spine: u32) -> Path {
        let e = self.endpoints();
        let (ls, ld) = (src / self.per_leaf, dst / self.per_leaf);
        if ls == ld {
            return links(&[src, e + dst]);
        }
        let up = 2 * e + ls * self.spines + spine;
        let down = 2 * e + self.leaves * self.spines + ld * self.spines + spine;
        links(&[src, up, down, e + dst])
    }

    /// A hashing router: the spine from a hash of the flow and the seed,
    /// skipping spines whose uplink the routers know to be down.
    fn ecmp(self, seed: u64) -> impl FnMut(&FlowKey, &Network) -> Route + Clone {
        move |k: &FlowKey, net: &Network| {
            let h =
                mix(seed ^ (u64::from(k.src.0) << 32 | u64::from(k.dst.0)) ^ u64::from(k.qp) << 48);
            let mut spine = (h % u64::from(self.spines)) as u32;
            for _ in 0..self.spines {
                let p = self.path(k.src.0, k.dst.0, spine);
                if p.iter().all(|&l| net.is_live(l)) {
                    break;
                }
                spine = (spine + 1) % self.spines;
            }
            Route::single(self.path(k.src.0, k.dst.0, spine))
        }
    }
}

fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn ring(name: &str, order: &[u32], bytes: u64, repeat: u32) -> JobTraffic {
    let n = order.len();
    let transfers = (0..n)
        .map(|i| transfer(order[i], order[(i + 1) % n], bytes))
        .collect();
    job(name, vec![(transfers, repeat)])
}

fn assert_same(a: &RunResult, b: &RunResult) {
    assert_eq!(a.jobs.len(), b.jobs.len());
    for (x, y) in a.jobs.iter().zip(&b.jobs) {
        assert!(close(x.completion, y.completion), "{x:?} vs {y:?}");
    }
    for (x, y) in a.flows.iter().zip(&b.flows) {
        assert_eq!(x.repetitions, y.repetitions);
        assert!(
            close(x.bytes, y.bytes) && close(x.busy, y.busy),
            "{x:?} vs {y:?}"
        );
    }
    for (l, (x, y)) in a.links.iter().zip(&b.links).enumerate() {
        assert!(close(x.bytes, y.bytes), "link {l}: {x:?} vs {y:?}");
    }
}

#[test]
fn fast_forward_matches_stepping_on_a_ring() {
    let fabric = Fabric {
        leaves: 4,
        spines: 4,
        per_leaf: 4,
    };
    let order: Vec<u32> = (0..16).map(|i| (i * 7) % 16).collect();
    let jobs = [ring("ring", &order, 1 << 20, 30)];
    let net = fabric.network(1e9);
    let on = run(&net, &jobs, &mut FnRouter(fabric.ecmp(1)), &no_failures()).unwrap();
    let off = run(
        &net,
        &jobs,
        &mut FnRouter(fabric.ecmp(1)),
        &EngineConfig {
            fast_forward: FastForward::Off,
            ..EngineConfig::default()
        },
    )
    .unwrap();
    assert_same(&on, &off);
    assert_eq!(on.skipped_repetitions, 28);
    assert!(on.events < off.events);
}

#[test]
fn fast_forward_skips_beside_another_jobs_long_flow() {
    let fabric = Fabric {
        leaves: 2,
        spines: 4,
        per_leaf: 4,
    };
    let order: Vec<u32> = (0..8).map(|i| (i * 3) % 8).collect();
    let jobs = [
        ring("ring", &order, 1 << 18, 50),
        job("bg", vec![(vec![transfer(0, 5, 4 << 20)], 1)]),
    ];
    let net = fabric.network(1e9);
    let on = run(&net, &jobs, &mut FnRouter(fabric.ecmp(3)), &no_failures()).unwrap();
    let off = run(
        &net,
        &jobs,
        &mut FnRouter(fabric.ecmp(3)),
        &EngineConfig {
            fast_forward: FastForward::Off,
            ..EngineConfig::default()
        },
    )
    .unwrap();
    assert_same(&on, &off);
    // Skips while the background flow runs, and after it ends.
    assert!(on.skipped_repetitions > 0);
    assert!(on.jobs[1].completion < on.jobs[0].completion);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A ring beside a long background flow of another job, with a link
    /// failing and coming back: fast-forward changes nothing.
    #[test]
    fn fast_forward_matches_stepping(
        seed in 0u64..1000,
        repeat in 1u32..40,
        background in 1u64..200,
        fail_at in 0.0f64..0.05,
        fail_link in 0u32..64,
        down_for in 0.0f64..0.01,
    ) {
        let fabric = Fabric { leaves: 2, spines: 4, per_leaf: 4 };
        let order: Vec<u32> = (0..8).map(|i| (i * 3) % 8).collect();
        let jobs = [
            ring("ring", &order, 1 << 18, repeat),
            job("bg", vec![(vec![transfer(0, 5, background << 20)], 1)]),
        ];
        let net = fabric.network(1e9);
        let link = fail_link % net.links() as u32;
        let base = EngineConfig {
            reroute_delay: 0.001,
            rto: 0.002,
            link_changes: vec![
                fail(fail_at, link),
                LinkChange { at: fail_at + down_for, link: LinkId(link), state: LinkState::Up },
            ],
            ..EngineConfig::default()
        };
        let on = run(&net, &jobs, &mut FnRouter(fabric.ecmp(seed)), &base).unwrap();
        let off = run(
            &net,
            &jobs,
            &mut FnRouter(fabric.ecmp(seed)),
            &EngineConfig { fast_forward: FastForward::Off, ..base.clone() },
        )
        .unwrap();
        assert_same(&on, &off);
        let again = run(&net, &jobs, &mut FnRouter(fabric.ecmp(seed)), &base).unwrap();
        prop_assert_eq!(on, again);
    }
}
