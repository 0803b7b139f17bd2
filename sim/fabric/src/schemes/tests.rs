use super::addressing::{Addressing, ipv4_of};
use super::ecmp::Ecmp;
use super::nic_pinned::NicPinned;
use super::pinned::Pinned;
use super::planner::group_link_counts;
use super::*;
use crate::engine::{FlowKey, Network, Router};
use crate::flow::{Endpoint, LinkId};
use crate::topo::Topology;
use crate::traffic::Workload;
use janus_nic::roce::fabric_spine;

const PAPER: &str = "leaf-spine:leaves=2,spines=8,hosts-per-leaf=8,nics-per-host=1,gbps=400";

fn key(flow: FlowRef, src: Endpoint, dst: Endpoint) -> FlowKey {
    FlowKey {
        job: flow.job,
        phase: flow.phase,
        repetition: 0,
        transfer: flow.transfer,
        qp: flow.qp,
        src,
        dst,
    }
}

fn flow(transfer: u32, qp: u32) -> FlowRef {
    FlowRef {
        job: 0,
        phase: 0,
        transfer,
        qp,
    }
}

#[test]
fn parses_scheme_lists_and_names_the_bad_part() {
    let all = Scheme::parse_list("ecmp, ecmp-qps4,flowlet,pinned,nic-pinned,spray").unwrap();
    assert_eq!(
        all,
        [
            Scheme::Ecmp,
            Scheme::EcmpQps(4),
            Scheme::Flowlet,
            Scheme::Pinned,
            Scheme::NicPinned,
            Scheme::Spray
        ]
    );
    for s in &all {
        assert_eq!(s.to_string().parse::<Scheme>().unwrap(), *s);
    }
    let e = Scheme::parse_list("ecmp,pined").unwrap_err().to_string();
    assert!(e.contains("\"pined\"") && e.contains("nic-pinned"), "{e}");
    let e = Scheme::parse_list("ecmp-qps0").unwrap_err().to_string();
    assert!(e.contains("ecmp-qps0") && e.contains("\"0\""), "{e}");
    let e = Scheme::parse_list("ecmp-qpsx").unwrap_err().to_string();
    assert!(e.contains("\"x\""), "{e}");
    assert!(matches!(
        Scheme::parse_list("ecmp,,spray"),
        Err(SchemeError::Empty { .. })
    ));
}

#[test]
fn addresses_and_qp_numbers_are_deterministic_and_valid() {
    assert_eq!(ipv4_of(Endpoint(0)).octets(), [10, 0, 0, 0]);
    assert_eq!(ipv4_of(Endpoint(0x01_0203)).octets(), [10, 1, 2, 3]);
    let a = Addressing::new(7).flow(flow(3, 1), Endpoint(1), Endpoint(2));
    assert_eq!(
        a,
        Addressing::new(7).flow(flow(3, 1), Endpoint(1), Endpoint(2))
    );
    assert_ne!(
        a,
        Addressing::new(8).flow(flow(3, 1), Endpoint(1), Endpoint(2))
    );
    assert_ne!(
        a,
        Addressing::new(7).flow(flow(3, 2), Endpoint(1), Endpoint(2))
    );
    assert!(a.local_qpn.get() >= 2 && a.remote_qpn.get() >= 2);
    assert!(a.tuple.src_port >= 0xC000);
    assert_eq!(a.tuple.dst_port, 4791);
}

fn ctx<'a>(
    topo: &'a Topology,
    net: &'a Network,
    jobs: &'a [crate::flow::JobTraffic],
    hash: HashSeeding,
) -> RouterContext<'a> {
    RouterContext {
        topo,
        net,
        jobs,
        seed: 3,
        options: SchemeOptions {
            hash,
            ..SchemeOptions::default()
        },
    }
}

#[test]
fn plain_ecmp_on_four_spines_is_the_nic_model() {
    let topo = Topology::parse("leaf-spine:leaves=2,spines=4,hosts-per-leaf=4").unwrap();
    let net = Network::new(topo.capacities_bytes_per_s()).unwrap();
    let c = ctx(&topo, &net, &[], HashSeeding::Plain);
    let ecmp = Ecmp::new(&c);
    let addressing = Addressing::new(3);
    for t in 0..40 {
        let (src, dst) = (Endpoint(t % 4), Endpoint(4 + (t * 7) % 4));
        let path = ecmp.path(flow(t, 0), src, dst, &net);
        let spines = topo.next_hops(topo.link(path[0]).to, dst);
        let taken = spines.iter().position(|l| *l == path[1]).unwrap() as u32;
        let tuple = addressing.flow(flow(t, 0), src, dst).tuple;
        assert_eq!(taken, fabric_spine(&tuple));
    }
}

#[test]
fn ecmp_rehashes_over_live_hops_only() {
    let topo = Topology::parse(PAPER).unwrap();
    let net_all = Network::new(topo.capacities_bytes_per_s()).unwrap();
    let c = ctx(&topo, &net_all, &[], HashSeeding::PerSwitch);
    let ecmp = Ecmp::new(&c);
    // Take the spine a flow hashes to and fail its downlink to the
    // destination leaf (the routers see it as down).
    let (src, dst) = (Endpoint(0), Endpoint(9));
    let path = ecmp.path(flow(0, 0), src, dst, &net_all);
    let down = path[2];
    let net = failed(&topo, &[down]);
    let rerouted = ecmp.path(flow(0, 0), src, dst, &net);
    assert!(rerouted.iter().all(|l| net.is_live(*l)), "{rerouted:?}");
    assert_ne!(
        rerouted[1], path[1],
        "the leaf must avoid the spine cut off"
    );
}

/// A network in which `down` links are down as the routers see them.
fn failed(topo: &Topology, down: &[LinkId]) -> Network {
    Network::new(topo.capacities_bytes_per_s())
        .unwrap()
        .with_down(down)
}

#[test]
fn pinned_plan_is_collision_free_on_the_paper_fabric() {
    let topo = Topology::parse(PAPER).unwrap();
    let net = Network::new(topo.capacities_bytes_per_s()).unwrap();
    for seed in 0..10 {
        let w = Workload::parse("permutation:qps=1", &topo, seed).unwrap();
        let c = ctx(&topo, &net, &w.jobs, HashSeeding::PerSwitch);
        let p = Pinned::new(&c);
        let counts = group_link_counts(p.plan(), 0);
        assert!(counts.values().all(|n| *n == 1), "seed {seed}: {counts:?}");
        assert_eq!(p.plan().stats().max_link_flows, 1);
        assert_eq!(p.plan().stats().greedy, 0);
    }
}

#[test]
fn nic_ports_make_ecmp_follow_the_plan() {
    for spec in [
        PAPER,
        "clos3:pods=2,leaves-per-pod=2,aggs-per-pod=2,cores=4,hosts-per-leaf=2",
    ] {
        let topo = Topology::parse(spec).unwrap();
        let net = Network::new(topo.capacities_bytes_per_s()).unwrap();
        let w = Workload::parse("permutation:qps=2", &topo, 5).unwrap();
        let c = ctx(&topo, &net, &w.jobs, HashSeeding::PerSwitch);
        let nic = NicPinned::new(&c);
        let d = nic.diagnostics().ports.unwrap();
        assert_eq!(d.found, d.flows, "{spec}: {d:?}");
        assert_eq!(d.fallback, 0);
        for f in nic.plan().flows() {
            assert_eq!(
                nic.path(f.flow, f.src, f.dst, &net),
                f.path,
                "{spec}: {f:?}"
            );
            let port = nic.port(f.flow).unwrap();
            assert!(port >= 0xC000);
        }
    }
}

#[test]
fn pinned_replans_a_flow_whose_path_fails() {
    let topo = Topology::parse(PAPER).unwrap();
    let net = Network::new(topo.capacities_bytes_per_s()).unwrap();
    let w = Workload::parse("permutation:qps=1", &topo, 1).unwrap();
    let c = ctx(&topo, &net, &w.jobs, HashSeeding::PerSwitch);
    let mut p = Pinned::new(&c);
    let f = p
        .plan()
        .flows()
        .iter()
        .find(|f| f.path.len() == 4)
        .unwrap()
        .clone();
    let cut = failed(&topo, &[f.path[1]]);
    let route = p.route(&key(f.flow, f.src, f.dst), &cut);
    let new = &route.paths()[0].0;
    assert!(new.iter().all(|l| cut.is_live(*l)));
    assert_eq!(p.diagnostics().plan.unwrap().replanned, 1);
    // The new path is kept for the next repetition.
    let again = p.route(&key(f.flow, f.src, f.dst), &cut);
    assert_eq!(&again.paths()[0].0, new);
}

#[test]
fn spray_covers_every_spine_and_caps_large_fans() {
    let topo = Topology::parse(PAPER).unwrap();
    let net = Network::new(topo.capacities_bytes_per_s()).unwrap();
    let c = ctx(&topo, &net, &[], HashSeeding::PerSwitch);
    let s = spray::Spray::new(&c, 64);
    assert_eq!(s.paths(Endpoint(0), Endpoint(9), &net).len(), 8);
    assert_eq!(s.paths(Endpoint(0), Endpoint(1), &net).len(), 1);
    let capped = spray::Spray::new(&c, 3);
    assert_eq!(capped.paths(Endpoint(0), Endpoint(9), &net).len(), 3);
}
