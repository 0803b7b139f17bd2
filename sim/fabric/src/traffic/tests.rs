use std::collections::HashSet;

use proptest::prelude::*;

use super::*;

fn paper() -> Topology {
    Topology::parse("leaf-spine:leaves=2,spines=8,hosts-per-leaf=8,nics-per-host=1,gbps=400")
        .unwrap()
}

fn four_leaves() -> Topology {
    Topology::parse("leaf-spine:leaves=4,spines=4,hosts-per-leaf=4,nics-per-host=2").unwrap()
}

/// Ring edges (rank i to i+1) whose ends sit under different leaves.
fn cross_leaf_ring_edges(t: &Topology, w: &Workload) -> usize {
    w.jobs[0].phases[0]
        .transfers
        .iter()
        .filter(|x| t.leaf_of(x.src) != t.leaf_of(x.dst))
        .count()
}

#[test]
fn ring_allreduce_has_n_transfers_of_size_over_n_repeated() {
    let t = paper();
    let w = Workload::parse("allreduce:size=1GiB,order=random,qps=2", &t, 7).unwrap();
    assert_eq!(w.jobs.len(), 1);
    assert_eq!(w.jobs[0].name, "allreduce-ring");
    let phases = &w.jobs[0].phases;
    assert_eq!(phases.len(), 1);
    assert_eq!(phases[0].repeat, 2 * 15);
    let ranks = &w.meta[0].ranks;
    assert_eq!(ranks.len(), 16);
    for (i, x) in phases[0].transfers.iter().enumerate() {
        assert_eq!(x.bytes, (1 << 30) / 16);
        assert_eq!(x.qps, 2);
        assert_eq!((x.src, x.dst), (ranks[i], ranks[(i + 1) % 16]));
    }
}

#[test]
fn contiguous_ring_neighbours_share_a_leaf_except_at_boundaries() {
    let t = paper();
    let w = Workload::parse("allreduce:order=contiguous", &t, 1).unwrap();
    assert_eq!(cross_leaf_ring_edges(&t, &w), 2);
    let t = four_leaves();
    let w = Workload::parse("allreduce:order=contiguous", &t, 1).unwrap();
    assert_eq!(cross_leaf_ring_edges(&t, &w), 4);
    // Rail-optimised: leaf order, not host order.
    let t =
        Topology::parse("leaf-spine:leaves=4,spines=2,hosts-per-leaf=4,nics-per-host=2,rails=true")
            .unwrap();
    let w = Workload::parse("allreduce:order=contiguous", &t, 1).unwrap();
    assert_eq!(cross_leaf_ring_edges(&t, &w), 4);
    // A random order crosses leaves far more often.
    let t = four_leaves();
    let w = Workload::parse("allreduce:order=random", &t, 1).unwrap();
    assert!(cross_leaf_ring_edges(&t, &w) > 12);
}

#[test]
fn same_seed_same_workload_different_seeds_differ() {
    let t = four_leaves();
    for spec in [
        "permutation:qps=1",
        "pairs:size=1MiB",
        "allreduce:order=random",
        "allreduce:order=fragmented,jobs=2",
    ] {
        let a = Workload::parse(spec, &t, 11).unwrap();
        assert_eq!(a, Workload::parse(spec, &t, 11).unwrap(), "{spec}");
        assert_ne!(a, Workload::parse(spec, &t, 12).unwrap(), "{spec}");
    }
}

#[test]
fn pairs_are_disjoint() {
    let t = paper();
    let w = Workload::parse("pairs:qps=4,size=64KB", &t, 3).unwrap();
    let transfers = &w.jobs[0].phases[0].transfers;
    assert_eq!(transfers.len(), 8);
    let ends: HashSet<Endpoint> = transfers.iter().flat_map(|x| [x.src, x.dst]).collect();
    assert_eq!(ends.len(), 16);
    assert!(transfers.iter().all(|x| x.bytes == 64_000 && x.qps == 4));
    let both = Workload::parse("pairs:direction=both", &t, 3).unwrap();
    assert_eq!(both.jobs[0].phases[0].transfers.len(), 16);
}

#[test]
fn tree_allreduce_reduces_up_then_broadcasts_down() {
    let t = paper();
    let w = Workload::parse("allreduce:algo=tree,size=1MiB,ranks=7", &t, 1).unwrap();
    let phases = &w.jobs[0].phases;
    let ranks = &w.meta[0].ranks;
    // 7 ranks: depth 2, so 2 levels up and 2 down.
    assert_eq!(phases.len(), 4);
    assert_eq!(phases[0].transfers.len(), 4);
    assert_eq!(phases[1].transfers.len(), 2);
    assert_eq!(phases[1].transfers[0].dst, ranks[0]);
    assert_eq!(phases[2].transfers[0].src, ranks[0]);
    assert_eq!(phases[3].transfers.len(), 4);
    assert!(
        phases
            .iter()
            .flat_map(|p| &p.transfers)
            .all(|x| x.bytes == 1 << 20)
    );
}

#[test]
fn alltoall_covers_every_ordered_pair_once() {
    let t = paper();
    let w = Workload::parse("alltoall:size=16MiB,ranks=5", &t, 1).unwrap();
    let phases = &w.jobs[0].phases;
    assert_eq!(phases.len(), 4);
    let pairs: HashSet<(Endpoint, Endpoint)> = phases
        .iter()
        .flat_map(|p| &p.transfers)
        .map(|x| (x.src, x.dst))
        .collect();
    assert_eq!(pairs.len(), 20);
    assert!(pairs.iter().all(|(s, d)| s != d));
}

#[test]
fn fragmented_jobs_hold_whole_scattered_hosts() {
    let t = four_leaves();
    let w = Workload::parse("allreduce:order=fragmented,jobs=2", &t, 5).unwrap();
    assert_eq!(w.jobs.len(), 2);
    assert_eq!(w.jobs[1].name, "allreduce-ring.1");
    let mut seen = HashSet::new();
    for m in &w.meta {
        assert_eq!(m.ranks.len(), 16);
        assert_eq!(m.order, Some(Order::Fragmented));
        for pair in m.ranks.chunks(2) {
            assert_eq!(t.host_of(pair[0]), t.host_of(pair[1]), "whole hosts");
        }
        let leaves: HashSet<u32> = m.ranks.iter().map(|e| t.leaf_of(*e)).collect();
        assert!(leaves.len() >= 3, "scattered: {leaves:?}");
        assert!(m.ranks.iter().all(|e| seen.insert(*e)), "disjoint jobs");
    }
}

#[test]
fn intra_host_free_drops_same_host_transfers() {
    let t = four_leaves();
    let fabric = Workload::parse("allreduce:order=contiguous", &t, 1).unwrap();
    assert_eq!(fabric.jobs[0].phases[0].transfers.len(), 32);
    let free = Workload::parse("allreduce:order=contiguous,intra-host=free", &t, 1).unwrap();
    let transfers = &free.jobs[0].phases[0].transfers;
    assert_eq!(transfers.len(), 16);
    assert!(
        transfers
            .iter()
            .all(|x| t.host_of(x.src) != t.host_of(x.dst))
    );
}

#[test]
fn errors_name_the_bad_part() {
    let t = paper();
    let err = |s: &str| Workload::parse(s, &t, 1).unwrap_err().to_string();
    assert_eq!(
        err("allreduce:size=1GB?"),
        "allreduce: size \"1GB?\" is not a size"
    );
    assert_eq!(
        err("allreduce:order=diagonal"),
        "allreduce: order \"diagonal\" is not one of contiguous, random, fragmented"
    );
    assert_eq!(
        err("permutation:qps=1,order=random"),
        "permutation: unknown key \"order\" (known: qps, size, cross-leaf)"
    );
    assert_eq!(
        err("permutation:qps=0"),
        "permutation: qps=0 must be at least 1"
    );
    assert!(err("allreduce:ranks=9,jobs=2").contains("do not fit 16 endpoints"));
    assert_eq!(
        err("broadcast:size=1"),
        "unknown kind \"broadcast\" (known: permutation, pairs, allreduce, alltoall)"
    );
}

#[test]
fn cross_leaf_permutation_pairs_the_two_halves() {
    let t = four_leaves();
    let w = Workload::parse("permutation:cross-leaf=true", &t, 3).unwrap();
    let transfers = &w.jobs[0].phases[0].transfers;
    assert_eq!(transfers.len(), 32);
    let dsts: HashSet<Endpoint> = transfers.iter().map(|x| x.dst).collect();
    assert_eq!(dsts.len(), 32, "every endpoint receives once");
    for x in transfers {
        assert_eq!((t.leaf_of(x.src) + 2) % 4, t.leaf_of(x.dst), "{x:?}");
    }
    let odd = Topology::parse("leaf-spine:leaves=3,spines=2,hosts-per-leaf=2").unwrap();
    let e = Workload::parse("permutation:cross-leaf=true", &odd, 0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "permutation: cross-leaf needs an even number of leaves with endpoints, not 3"
    );
}

proptest! {
    #[test]
    fn permutation_is_a_derangement(seed in any::<u64>(), leaves in 1u32..4, hosts in 1u32..6) {
        let t = Topology::parse(&format!("leaf-spine:leaves={leaves},spines=2,hosts-per-leaf={hosts},nics-per-host=1")).unwrap();
        let Ok(w) = Workload::parse("permutation:qps=2,size=1MiB", &t, seed) else {
            prop_assert!(t.endpoint_count() < 2);
            return Ok(());
        };
        let transfers = &w.jobs[0].phases[0].transfers;
        prop_assert_eq!(transfers.len(), t.endpoint_count() as usize);
        let dsts: HashSet<Endpoint> = transfers.iter().map(|x| x.dst).collect();
        prop_assert_eq!(dsts.len(), transfers.len());
        prop_assert!(transfers.iter().all(|x| x.src != x.dst));
        prop_assert!(transfers.iter().enumerate().all(|(i, x)| x.src == Endpoint(i as u32)));
    }

    #[test]
    fn collectives_place_distinct_ranks(seed in any::<u64>(), order in 0usize..3, jobs in 1u32..4) {
        let t = four_leaves();
        let spec = format!("allreduce:order={},jobs={jobs}", ORDERS[order]);
        let w = Workload::parse(&spec, &t, seed).unwrap();
        let mut seen = HashSet::new();
        for m in &w.meta {
            prop_assert_eq!(m.ranks.len(), 32 / jobs as usize);
            prop_assert!(m.ranks.iter().all(|e| seen.insert(*e)));
        }
    }
}
