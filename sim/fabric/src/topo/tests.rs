use std::collections::HashSet;
use std::time::Instant;

use proptest::prelude::*;

use super::*;
use crate::flow::Path;

fn paper() -> Topology {
    Topology::parse("leaf-spine:leaves=2,spines=8,hosts-per-leaf=8,nics-per-host=1,gbps=400")
        .unwrap()
}

fn small_clos3() -> Topology {
    Topology::parse(
        "clos3:pods=2,leaves-per-pod=2,aggs-per-pod=2,cores=4,hosts-per-leaf=2,nics-per-host=2,gbps=100",
    )
    .unwrap()
}

/// Checks every path from `src` to `dst`: NIC to NIC over live, connected
/// links, all the same length, agreeing with `next_hops`, `path_count` and
/// `path`. Returns them.
fn check_paths(t: &Topology, src: Endpoint, dst: Endpoint) -> Vec<Path> {
    let paths: Vec<Path> = t.paths(src, dst).collect();
    assert_eq!(paths.len() as u64, t.path_count(src, dst));
    assert_eq!(t.reachable(src, dst), !paths.is_empty());
    let mut steps = HashSet::new();
    for (i, p) in paths.iter().enumerate() {
        assert_eq!(p.len(), paths[0].len(), "equal length");
        assert_eq!(t.path(src, dst, i as u64).as_ref(), Some(p));
        let mut at = t.nic_node(src);
        for (k, l) in p.iter().enumerate() {
            assert!(t.usable(*l), "live link");
            assert_eq!(t.link(*l).from, at, "connected");
            assert!(t.next_hops(at, dst).contains(l), "next_hops agree");
            steps.insert((p[..k].to_vec(), *l));
            at = t.link(*l).to;
        }
        assert_eq!(at, t.nic_node(dst));
    }
    assert_eq!(t.path(src, dst, paths.len() as u64), None);
    // Every next hop offered along a path prefix is taken by some path.
    for p in &paths {
        let mut at = t.nic_node(src);
        for k in 0..p.len() {
            for l in t.next_hops(at, dst) {
                assert!(steps.contains(&(p[..k].to_vec(), *l)), "unused next hop");
            }
            at = t.link(p[k]).to;
        }
    }
    paths
}

#[test]
fn leaf_spine_counts_and_capacities() {
    let t = paper();
    assert_eq!(t.endpoint_count(), 16);
    assert_eq!(t.hosts(), 16);
    assert_eq!(t.leaves(), 2);
    assert_eq!(t.node_count(), 16 + 2 + 8);
    assert_eq!(t.links().len(), 2 * (16 + 2 * 8));
    let caps = t.capacities_bytes_per_s();
    assert_eq!(caps.len(), 64);
    assert!(caps.iter().all(|c| *c == 400e9 / 8.0));
    assert_eq!(t.bisection_gbps(), 3200.0);
    assert_eq!(t.leaf_oversubscription(), 1.0);
    assert_eq!(t.leaf_of(Endpoint(7)), 0);
    assert_eq!(t.leaf_of(Endpoint(8)), 1);
    assert_eq!(t.node_name(NodeId(18)), "spine0");
    assert_eq!(t.node_by_name("spine0").unwrap(), NodeId(18));
    let text = t.to_string();
    assert!(
        text.contains("2 leaves, 8 spines") && text.contains("16 endpoints"),
        "{text}"
    );
}

#[test]
fn oversubscription_sets_uplink_speed() {
    let t = Topology::parse("leaf-spine:leaves=2,spines=4,hosts-per-leaf=8,oversub=2").unwrap();
    assert_eq!(t.shape().up_gbps, 400.0);
    assert_eq!(t.leaf_oversubscription(), 2.0);
    let e = Topology::parse("leaf-spine:leaves=2,spines=4,hosts-per-leaf=8,oversub=2,spine-gbps=1")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "leaf-spine: give spine-gbps or oversub, not both"
    );
}

#[test]
fn clos3_counts() {
    let t = small_clos3();
    assert_eq!(t.endpoint_count(), 16);
    assert_eq!(t.hosts(), 8);
    assert_eq!(t.node_count(), 16 + 4 + 4 + 4);
    assert_eq!(t.links().len(), 2 * (16 + 4 * 2 + 4 * 2));
    assert_eq!(t.node_name(NodeId(24)), "core0");
    // 4 cores x 2 pods x 100G, halved.
    assert_eq!(t.bisection_gbps(), 400.0);
    assert_eq!(t.agg_oversubscription(), Some(1.0));
    assert_eq!(t.leaf_oversubscription(), 2.0);
}

#[test]
fn rails_put_nic_i_on_rail_i_leaf() {
    let t =
        Topology::parse("leaf-spine:leaves=4,spines=2,hosts-per-leaf=3,nics-per-host=2,rails=true")
            .unwrap();
    assert_eq!(t.hosts(), 6);
    assert_eq!(t.endpoint_count(), 12);
    assert_eq!(t.leaf_of(Endpoint(0)), 0);
    assert_eq!(t.leaf_of(Endpoint(1)), 1);
    assert_eq!(t.leaf_of(Endpoint(5)), 1); // host 2, NIC 1
    assert_eq!(t.leaf_of(Endpoint(6)), 2); // host 3, NIC 0
    let e =
        Topology::parse("leaf-spine:leaves=3,spines=2,hosts-per-leaf=3,nics-per-host=2,rails=true")
            .unwrap_err();
    assert!(e.to_string().contains("multiple of nics-per-host"), "{e}");
}

#[test]
fn two_tier_paths_one_per_spine() {
    let t = paper();
    let paths = check_paths(&t, Endpoint(0), Endpoint(9));
    assert_eq!(paths.len(), 8);
    assert!(paths.iter().all(|p| p.len() == 4));
    let same_leaf = check_paths(&t, Endpoint(0), Endpoint(3));
    assert_eq!(same_leaf.len(), 1);
    assert_eq!(same_leaf[0].len(), 2);
    assert_eq!(t.paths(Endpoint(4), Endpoint(4)).count(), 0);
}

#[test]
fn three_tier_paths() {
    let t = small_clos3();
    // Across pods: one path per core; within a pod: one per aggregation switch.
    assert_eq!(check_paths(&t, Endpoint(0), Endpoint(15)).len(), 4);
    assert!(t.paths(Endpoint(0), Endpoint(15)).all(|p| p.len() == 6));
    assert_eq!(check_paths(&t, Endpoint(0), Endpoint(5)).len(), 2);
    assert_eq!(check_paths(&t, Endpoint(0), Endpoint(1)).len(), 1);
}

#[test]
fn failing_a_spine_removes_its_paths() {
    let mut t = paper();
    let spine = t.node_by_name("spine3").unwrap();
    t.fail_node(spine).unwrap();
    let paths = check_paths(&t, Endpoint(0), Endpoint(9));
    assert_eq!(paths.len(), 7);
    assert!(paths.iter().flatten().all(|l| t.link(*l).to != spine));
    assert_eq!(
        t.capacities_bytes_per_s()
            .iter()
            .filter(|c| **c == 0.0)
            .count(),
        4
    );
    t.restore_all();
    assert_eq!(t.path_count(Endpoint(0), Endpoint(9)), 8);
}

#[test]
fn one_direction_fails_alone() {
    let mut t = paper();
    let (leaf0, spine1) = (
        t.node_by_name("leaf0").unwrap(),
        t.node_by_name("spine1").unwrap(),
    );
    let up = t.cable_between(spine1, leaf0).unwrap();
    t.fail_link(up).unwrap();
    assert_eq!(check_paths(&t, Endpoint(0), Endpoint(9)).len(), 7);
    assert_eq!(check_paths(&t, Endpoint(9), Endpoint(0)).len(), 8);
    t.fail_cable(up).unwrap();
    assert_eq!(check_paths(&t, Endpoint(9), Endpoint(0)).len(), 7);
}

#[test]
fn core_failure_in_three_tier() {
    let mut t = small_clos3();
    t.fail_node(t.node_by_name("core1").unwrap()).unwrap();
    assert_eq!(check_paths(&t, Endpoint(0), Endpoint(15)).len(), 3);
    // An aggregation switch down takes its plane's cores out of use for its pod.
    t.fail_node(t.node_by_name("agg0").unwrap()).unwrap();
    assert_eq!(check_paths(&t, Endpoint(0), Endpoint(15)).len(), 2);
    assert_eq!(check_paths(&t, Endpoint(0), Endpoint(5)).len(), 1);
}

#[test]
fn disconnected_pairs_are_reported() {
    let mut t = paper();
    let all: Vec<Failure> = (0..8)
        .map(|i| Failure::Node(t.node_by_name(&format!("spine{i}")).unwrap()))
        .collect();
    t.set_live(&all, false).unwrap();
    assert!(!t.reachable(Endpoint(0), Endpoint(9)));
    assert_eq!(t.paths(Endpoint(0), Endpoint(9)).count(), 0);
    assert_eq!(t.path(Endpoint(0), Endpoint(9), 0), None);
    assert!(t.reachable(Endpoint(0), Endpoint(1)));
    assert!(t.to_string().contains("2 leaf pairs unreachable"), "{t}");
    // A NIC's own cable down cuts it off from everyone.
    t.restore_all();
    t.fail_cable(LinkId(2 * 9)).unwrap();
    assert!(!t.reachable(Endpoint(0), Endpoint(9)));
    assert!(!t.reachable(Endpoint(9), Endpoint(0)));
    assert!(
        t.next_hops(t.node_by_name("spine0").unwrap(), Endpoint(9))
            .is_empty()
    );
}

#[test]
fn bad_ids_are_errors() {
    let mut t = paper();
    assert!(matches!(
        t.fail_link(LinkId(64)),
        Err(TopoError::NoLink(64))
    ));
    assert!(matches!(
        t.fail_node(NodeId(26)),
        Err(TopoError::NoNode(26))
    ));
    assert!(t.next_hops(NodeId(0), Endpoint(99)).is_empty());
    assert!(matches!(
        t.node_by_name("core0"),
        Err(TopoError::UnknownNode(_))
    ));
    assert!(matches!(
        t.node_by_name("spine8"),
        Err(TopoError::UnknownNode(_))
    ));
}

#[test]
fn spec_errors_name_the_bad_part() {
    let e = Topology::parse("leaf-spine:leaves=2,spins=8,hosts-per-leaf=1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "leaf-spine: unknown key \"spins\" (known: leaves, spines, hosts-per-leaf, nics-per-host, gbps, spine-gbps, oversub, rails)"
    );
    let e =
        Topology::parse("clos3:pods=2,leaves-per-pod=2,aggs-per-pod=3,cores=4,hosts-per-leaf=1")
            .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("clos3: cores=4 must be a positive multiple"),
        "{e}"
    );
    let e = Topology::parse("leaf-spine:leaves=0,spines=1,hosts-per-leaf=1").unwrap_err();
    assert_eq!(e.to_string(), "leaf-spine: leaves=0 must be at least 1");
    let e = Topology::parse("fat-tree:k=4").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown kind \"fat-tree\" (known: leaf-spine, clos3)"
    );
    let e = Topology::parse("leaf-spine:leaves=2,spines=8,hosts-per-leaf=1,gbps=fast").unwrap_err();
    assert_eq!(
        e.to_string(),
        "leaf-spine: gbps \"fast\" is not a positive number"
    );
}

#[test]
fn files_json_and_toml_with_failures() {
    let json = r#"{ "kind": "leaf-spine", "leaves": 2, "spines": 8, "hosts-per-leaf": 8,
        "gbps": 400, "rails": false,
        "failures": { "nodes": ["spine3"], "cables": [["leaf0", "spine1"]] } }"#;
    let t = Topology::from_file_text(json, FileFormat::Json, "t.json").unwrap();
    assert_eq!(t.endpoint_count(), 16);
    assert_eq!(t.path_count(Endpoint(0), Endpoint(9)), 6);
    let toml = "kind = \"clos3\"\npods = 2\nleaves-per-pod = 2\naggs-per-pod = 2\ncores = 4\nhosts-per-leaf = 2\nnics-per-host = 2\ngbps = 100.0\n[failures]\nnodes = [\"core0\"]\n";
    let t = Topology::from_file_text(toml, FileFormat::Toml, "t.toml").unwrap();
    assert_eq!(t.path_count(Endpoint(0), Endpoint(15)), 3);
    let e = Topology::from_file_text(r#"{"kind":"leaf-spine","leaves":2,"spines":1,"hosts-per-leaf":1,"failures":{"nodes":["spine9"]}}"#, FileFormat::Json, "t.json").unwrap_err();
    assert!(e.to_string().contains("unknown node \"spine9\""), "{e}");
    let e = Topology::from_file_text("leaves = 2", FileFormat::Toml, "t.toml").unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.toml: missing \"kind\" (leaf-spine or clos3)"
    );
    let e = Topology::from_file_text("{", FileFormat::Json, "t.json").unwrap_err();
    assert!(e.to_string().starts_with("t.json: "), "{e}");
    let e = Topology::load(std::path::Path::new("/nonexistent/t.toml")).unwrap_err();
    assert!(e.to_string().starts_with("/nonexistent/t.toml: "), "{e}");
}

/// 4k hosts x 8 NICs on a three-tier fabric (non-blocking: 32 pods of 32
/// leaves x 32 aggregation switches, 1024 cores in 32 planes).
#[test]
fn clos3_32k_endpoints_builds() {
    let start = Instant::now();
    let mut t = Topology::parse(
        "clos3:pods=32,leaves-per-pod=32,aggs-per-pod=32,cores=1024,hosts-per-leaf=4,nics-per-host=8,gbps=400",
    )
    .unwrap();
    let built = start.elapsed();
    assert_eq!(t.endpoint_count(), 32768);
    assert_eq!(t.hosts(), 4096);
    assert_eq!(t.bisection_gbps(), 32768.0 * 400.0 / 2.0);
    assert_eq!(t.path_count(Endpoint(0), Endpoint(32767)), 1024);
    let p = t.path(Endpoint(0), Endpoint(32767), 1000).unwrap();
    assert_eq!(p.len(), 6);
    let start = Instant::now();
    t.fail_node(t.node_by_name("core1000").unwrap()).unwrap();
    let failed = start.elapsed();
    assert_eq!(t.path_count(Endpoint(0), Endpoint(32767)), 1023);
    eprintln!("32k-endpoint clos3 built in {built:?}, a core failure rerouted in {failed:?}");
}

fn arb_topology() -> impl Strategy<Value = Topology> {
    let two = (1u32..4, 1u32..5, 1u32..3, 1u32..3, any::<bool>()).prop_filter_map(
        "rails need leaves divisible by nics",
        |(leaves, spines, hosts, nics, rails)| {
            Topology::parse(&format!(
                "leaf-spine:leaves={},spines={spines},hosts-per-leaf={hosts},nics-per-host={nics},rails={rails}",
                leaves * if rails { nics } else { 1 }
            ))
            .ok()
        },
    );
    let three = (1u32..4, 1u32..3, 1u32..3, 1u32..3, 1u32..3).prop_map(
        |(pods, leaves, aggs, plane, hosts)| {
            Topology::parse(&format!(
                "clos3:pods={pods},leaves-per-pod={leaves},aggs-per-pod={aggs},cores={},hosts-per-leaf={hosts},nics-per-host=2",
                aggs * plane
            ))
            .unwrap()
        },
    );
    prop_oneof![two, three]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn paths_are_live_equal_length_and_agree_with_next_hops(
        mut t in arb_topology(),
        fail_links in proptest::collection::vec(any::<u32>(), 0..4),
        fail_nodes in proptest::collection::vec(any::<u32>(), 0..2),
    ) {
        let n_links = t.links().len() as u32;
        let n_nodes = t.node_count() as u32;
        let mut failures: Vec<Failure> =
            fail_links.iter().map(|l| Failure::Link(LinkId(l % n_links))).collect();
        failures.extend(fail_nodes.iter().map(|n| Failure::Node(NodeId(n % n_nodes))));
        t.set_live(&failures, false).unwrap();
        let n = t.endpoint_count();
        for s in 0..n {
            for d in 0..n {
                let paths = check_paths(&t, Endpoint(s), Endpoint(d));
                prop_assert_eq!(paths.is_empty(), s == d || !t.reachable(Endpoint(s), Endpoint(d)));
            }
        }
    }
}
