use proptest::prelude::*;

use super::*;

fn path(links: &[u32]) -> Path {
    links.iter().map(|&l| LinkId(l)).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn one_flow_on_one_link_gets_the_link() {
    let mut s = Solver::new(vec![100.0]).unwrap();
    let c = s.add(&Route::single(path(&[0])), 1).unwrap();
    s.solve();
    assert!(close(s.rate(c), 100.0));
}

#[test]
fn two_flows_sharing_a_link_get_half_each() {
    let mut s = Solver::new(vec![100.0, 1000.0, 1000.0]).unwrap();
    let a = s.add(&Route::single(path(&[1, 0])), 1).unwrap();
    let b = s.add(&Route::single(path(&[2, 0])), 1).unwrap();
    s.solve();
    assert!(close(s.rate(a), 50.0));
    assert!(close(s.rate(b), 50.0));
    assert!(close(s.link_load(LinkId(0)), 100.0));
}

#[test]
fn a_flow_limited_elsewhere_leaves_the_rest_to_the_other() {
    // Link 0 (10) is shared; flow a is also on link 1 (2).
    let mut s = Solver::new(vec![10.0, 2.0]).unwrap();
    let a = s.add(&Route::single(path(&[0, 1])), 1).unwrap();
    let b = s.add(&Route::single(path(&[0])), 1).unwrap();
    s.solve();
    assert!(close(s.rate(a), 2.0));
    assert!(close(s.rate(b), 8.0));
}

#[test]
fn flows_on_one_route_share_a_class_and_split_its_rate() {
    let mut s = Solver::new(vec![90.0]).unwrap();
    let a = s.add(&Route::single(path(&[0])), 2).unwrap();
    let b = s.add(&Route::single(path(&[0])), 1).unwrap();
    assert_eq!(a, b);
    assert_eq!(s.count(a), 3);
    s.solve();
    assert!(close(s.rate(a), 30.0));
}

#[test]
fn a_sprayed_flow_uses_all_its_paths() {
    // Two disjoint paths of 10 each: the sprayed flow gets 20; a pinned
    // flow on path 0 shares it with the sprayed flow's half.
    let mut s = Solver::new(vec![10.0, 10.0]).unwrap();
    let spray = Route::spray(vec![path(&[0]), path(&[1])]).unwrap();
    let c = s.add(&spray, 1).unwrap();
    s.solve();
    assert!(close(s.rate(c), 20.0));
    let p = s.add(&Route::single(path(&[0])), 1).unwrap();
    s.solve();
    // Spray at r puts r/2 on each link: r/2 + p <= 10, fair: r = p = 20/3.
    assert!(close(s.rate(c), 20.0 / 3.0));
    assert!(close(s.rate(p), 20.0 / 3.0));
}

#[test]
fn a_route_without_links_is_unbounded() {
    let mut s = Solver::new(vec![1.0]).unwrap();
    let c = s.add(&Route::single(Vec::new()), 1).unwrap();
    s.solve();
    assert_eq!(s.rate(c), f64::INFINITY);
}

#[test]
fn bad_inputs_are_errors() {
    assert!(matches!(
        Solver::new(vec![f64::NAN]),
        Err(SolverError::BadCapacity { link: 0, .. })
    ));
    assert!(matches!(
        Solver::new(vec![-1.0]),
        Err(SolverError::BadCapacity { link: 0, .. })
    ));
    let mut s = Solver::new(vec![1.0]).unwrap();
    assert_eq!(
        s.add(&Route::single(path(&[3])), 1),
        Err(SolverError::UnknownLink { link: 3, links: 1 })
    );
    let c = s.add(&Route::single(path(&[0])), 1).unwrap();
    assert!(matches!(s.remove(c, 2), Err(SolverError::Underflow { .. })));
    assert_eq!(Route::spray(Vec::new()), Err(SolverError::NoPaths));
    assert_eq!(
        Route::weighted(vec![(path(&[0]), 0)]),
        Err(SolverError::ZeroWeight)
    );
}

#[test]
fn compaction_keeps_live_classes_and_their_rates() {
    let links = 64u32;
    let mut s = Solver::new(vec![1.0; links as usize]).unwrap();
    let keep = s.add(&Route::single(path(&[0, 1])), 1).unwrap();
    let mut dead = Vec::new();
    for a in 0..links {
        for b in 0..links {
            if a != b {
                dead.push(s.add(&Route::single(path(&[a, b])), 1).unwrap());
            }
        }
    }
    s.solve();
    for c in dead {
        s.remove(c, 1).unwrap();
    }
    s.solve();
    assert!(close(s.rate(keep), 1.0));
    // The freed classes are reused without disturbing the live one.
    let other = s.add(&Route::single(path(&[1, 2])), 1).unwrap();
    assert_ne!(other, keep);
    s.solve();
    assert!(close(s.rate(keep), 0.5));
    assert!(close(s.rate(other), 0.5));
}

/// A random small case: link capacities and routes with multiplicities.
#[derive(Clone, Debug)]
struct Case {
    capacity: Vec<f64>,
    routes: Vec<(Route, u64)>,
}

fn route_strategy(links: u32) -> impl Strategy<Value = Route> {
    prop::collection::vec((prop::collection::btree_set(0..links, 1..4), 1u32..4), 1..3).prop_map(
        |paths| {
            Route::weighted(
                paths
                    .into_iter()
                    .map(|(ls, w)| (ls.into_iter().map(LinkId).collect(), w))
                    .collect(),
            )
            .unwrap()
        },
    )
}

fn case_strategy() -> impl Strategy<Value = Case> {
    (1u32..7).prop_flat_map(|links| {
        (
            prop::collection::vec(1u32..20, links as usize),
            prop::collection::vec((route_strategy(links), 1u64..4), 1..9),
        )
            .prop_map(|(caps, routes)| Case {
                capacity: caps.into_iter().map(f64::from).collect(),
                routes,
            })
    })
}

/// A class as solved: its links with shares, its flows, its rate.
type Rated = (Vec<(LinkId, f64)>, u64, f64);

/// Checks the max-min characterisation: the rates are feasible and every
/// flow crosses a saturated link on which no flow has a larger rate.
fn assert_max_min(capacity: &[f64], flows: &[Rated]) {
    let mut load = vec![0.0; capacity.len()];
    for (shares, n, r) in flows {
        for &(l, a) in shares {
            load[l.0 as usize] += *n as f64 * a * r;
        }
    }
    for (l, (&ld, &c)) in load.iter().zip(capacity).enumerate() {
        assert!(
            ld <= c * (1.0 + 1e-9) + 1e-12,
            "link {l} over capacity: {ld} > {c}"
        );
    }
    for (i, (shares, _, r)) in flows.iter().enumerate() {
        let bottleneck = shares.iter().any(|&(l, _)| {
            let li = l.0 as usize;
            let saturated = load[li] >= capacity[li] * (1.0 - 1e-9) - 1e-12;
            let maximal = flows
                .iter()
                .filter(|(s, _, _)| s.iter().any(|&(m, _)| m == l))
                .all(|(_, _, other)| *other <= r * (1.0 + 1e-9) + 1e-12);
            saturated && maximal
        });
        assert!(
            bottleneck,
            "flow {i} (rate {r}) has no bottleneck: {flows:?}"
        );
    }
}

fn solve_case(case: &Case) -> Vec<Rated> {
    let mut s = Solver::new(case.capacity.clone()).unwrap();
    let ids: Vec<ClassId> = case
        .routes
        .iter()
        .map(|(r, n)| s.add(r, *n).unwrap())
        .collect();
    s.solve();
    case.routes
        .iter()
        .zip(ids)
        .map(|((r, n), id)| (r.shares(), *n, s.rate(id)))
        .collect()
}

/// One step of a random add/remove/capacity sequence.
#[derive(Clone, Debug)]
enum Op {
    Add(usize, u64),
    Remove(usize),
    Capacity(u32, u32),
    Solve,
}

fn ops_strategy() -> impl Strategy<Value = (u32, Vec<Route>, Vec<Op>)> {
    (2u32..8).prop_flat_map(|links| {
        (
            Just(links),
            prop::collection::vec(route_strategy(links), 1..10),
            prop::collection::vec(
                prop_oneof![
                    (0usize..10, 1u64..3).prop_map(|(i, n)| Op::Add(i, n)),
                    (0usize..10).prop_map(Op::Remove),
                    (0..links, 0u32..20).prop_map(|(l, c)| Op::Capacity(l, c)),
                    Just(Op::Solve),
                ],
                1..40,
            ),
        )
    })
}

proptest! {
    #[test]
    fn rates_are_max_min_fair(case in case_strategy()) {
        let flows = solve_case(&case);
        assert_max_min(&case.capacity, &flows);
    }

    #[test]
    fn incremental_equals_from_scratch((links, routes, ops) in ops_strategy()) {
        let mut capacity = vec![10.0; links as usize];
        let mut s = Solver::new(capacity.clone()).unwrap();
        let mut counts = vec![0u64; routes.len()];
        let mut ids = vec![None; routes.len()];
        for op in ops {
            match op {
                Op::Add(i, n) => {
                    let i = i % routes.len();
                    ids[i] = Some(s.add(&routes[i], n).unwrap());
                    counts[i] += n;
                }
                Op::Remove(i) => {
                    let i = i % routes.len();
                    if counts[i] > 0 {
                        s.remove(ids[i].unwrap(), 1).unwrap();
                        counts[i] -= 1;
                    }
                }
                Op::Capacity(l, c) => {
                    capacity[l as usize] = f64::from(c);
                    s.set_capacity(LinkId(l), f64::from(c)).unwrap();
                }
                Op::Solve => {
                    s.solve();
                }
            }
        }
        s.solve();
        // Routes with equal usage share a class: merge them for the
        // reference as the solver does.
        let mut fresh = Solver::new(capacity.clone()).unwrap();
        let mut flows = Vec::new();
        for (i, r) in routes.iter().enumerate() {
            if counts[i] > 0 {
                let f = fresh.add(r, counts[i]).unwrap();
                flows.push((i, f));
            }
        }
        fresh.solve();
        for (i, f) in flows {
            let inc = s.rate(ids[i].unwrap());
            let scratch = fresh.rate(f);
            prop_assert!(close(inc, scratch), "route {i}: incremental {inc} vs scratch {scratch}");
        }
    }
}
