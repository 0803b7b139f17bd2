//! NIC-side pinning: the planner's paths ([`Plan`]) realised the way
//! Janus's NIC does it, by the UDP source port alone. For each flow the
//! controller searches the RoCEv2 source ports (`0xC000..=0xFFFF`,
//! starting at the flow's Linux port, in a scattered order, see `scatter`)
//! for one
//! whose hash at every switch with a choice selects the planned next hop
//! (the generalisation of `janus_nic::roce::src_port_for_spine` to every
//! hop of the topology); the flow then routes by plain ECMP with that
//! port. A flow for which no port works keeps its Linux port and its ECMP
//! path (a fallback, counted).
//!
//! The search costs one XOR and one hash per switch hop per port tried
//! ([`PortCrcs`]); a two-tier fabric with `S` spines needs about `S`
//! tries per flow, a three-tier one about `aggs x cores per plane`.
//!
//! Under failures the routing is ECMP with the chosen port, re-hashed
//! over live hops; a flow whose path is cut is replanned and its port
//! searched again against the live hops.

use std::collections::HashMap;

use janus_nic::roce::ROCE_SRC_PORT_MIN;

use super::addressing::Addressing;
use super::ecmp::Ecmp;
use super::hash::{PortCrcs, ROCE_PORTS, SwitchSeeds, pick, tuple_crc};
use super::live::View;
use super::planner::Plan;
use super::{Diagnostics, FlowRef, PortSearch, RouterContext, SchemeRouter};
use crate::engine::{FlowKey, Network, Route, Router};
use crate::flow::{Endpoint, LinkId, NodeId, Path};
use crate::topo::Topology;

/// One flow's port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Port {
    /// The CRC of the flow's tuple with source port 0.
    base: u16,
    port: u16,
    /// Whether the search found it (else the Linux port).
    found: bool,
}

/// The NIC-side pinning router.
#[derive(Debug, Clone)]
pub struct NicPinned<'a> {
    topo: &'a Topology,
    ecmp: Ecmp<'a>,
    addressing: Addressing,
    seeds: SwitchSeeds,
    crcs: PortCrcs,
    plan: Plan,
    ports: HashMap<FlowRef, Port>,
    search: PortSearch,
}

impl<'a> NicPinned<'a> {
    /// Plans the run's flows and searches their ports.
    pub fn new(ctx: &RouterContext<'a>) -> NicPinned<'a> {
        let view = View {
            topo: ctx.topo,
            net: ctx.net,
        };
        let mut router = NicPinned {
            topo: ctx.topo,
            ecmp: Ecmp::new(ctx),
            addressing: Addressing::new(ctx.seed),
            seeds: SwitchSeeds::new(ctx.seed, ctx.options.hash),
            crcs: PortCrcs::new(),
            plan: Plan::build(view, ctx.jobs),
            ports: HashMap::new(),
            search: PortSearch::default(),
        };
        for i in 0..router.plan.flows().len() {
            router.assign(&view, i);
        }
        router
    }

    /// The plan the ports realise.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The source port of a flow (its Linux port when none was found).
    pub fn port(&self, flow: FlowRef) -> Option<u16> {
        self.ports.get(&flow).map(|p| p.port)
    }

    /// Searches a port for planned flow `i` against the hops of `view`
    /// and records it (or the fallback).
    fn assign(&mut self, view: &View<'_>, i: usize) {
        let f = &self.plan.flows()[i];
        if let Some(old) = self.ports.get(&f.flow) {
            // A new search replaces the earlier one's outcome.
            self.search.flows -= 1;
            if old.found {
                self.search.found -= 1;
            } else {
                self.search.fallback -= 1;
            }
        }
        let tuple = self.addressing.flow(f.flow, f.src, f.dst).tuple;
        let base = tuple_crc(&tuple.with_src_port(0));
        // (seed, hops, wanted index) at every switch with a choice.
        let mut hops = Vec::new();
        let mut wanted: Vec<(u32, usize, usize)> = Vec::new();
        let mut possible = true;
        for &link in &f.path {
            let node: NodeId = self.topo.link(link).from;
            view.hops(node, f.dst, &mut hops);
            match hops.iter().position(|&h| h == link) {
                Some(_) if hops.len() == 1 => {}
                Some(k) => wanted.push((self.seeds.of(node), hops.len(), k)),
                None => possible = false,
            }
        }
        let start = usize::from(tuple.src_port.wrapping_sub(ROCE_SRC_PORT_MIN)) % ROCE_PORTS;
        let mut tries = 0u64;
        let mut found = None;
        if possible {
            for k in 0..ROCE_PORTS {
                let port = ROCE_SRC_PORT_MIN + (start ^ scatter(k)) as u16;
                let crc = self.crcs.crc_with_port(base, port);
                tries += 1;
                if wanted
                    .iter()
                    .all(|&(seed, n, want)| pick(seed, crc, n) == want)
                {
                    found = Some(port);
                    break;
                }
            }
        }
        self.search.flows += 1;
        self.search.tries += tries;
        self.search.max_tries = self.search.max_tries.max(tries);
        let port = match found {
            Some(p) => {
                self.search.found += 1;
                p
            }
            None => {
                self.search.fallback += 1;
                tuple.src_port
            }
        };
        self.ports.insert(
            f.flow,
            Port {
                base,
                port,
                found: found.is_some(),
            },
        );
    }

    /// The path ECMP gives a flow with its chosen source port.
    pub fn path(&self, flow: FlowRef, src: Endpoint, dst: Endpoint, net: &Network) -> Path {
        match self.ports.get(&flow) {
            Some(p) => {
                let crc = self.crcs.crc_with_port(p.base, p.port);
                self.ecmp.path_for_crc(net, src, dst, crc)
            }
            None => self.ecmp.path(flow, src, dst, net),
        }
    }
}

/// A bijection of `0..ROCE_PORTS` with `scatter(0) == 0`: the `k`-th port
/// tried is the Linux port XOR `scatter(k)`. Counting ports up would
/// change only the low port bits for a long time, and the CRC bits a
/// switch reads may not depend on them (the hash is linear in the port);
/// an odd multiplier and an xorshift spread consecutive `k` over all bits.
fn scatter(k: usize) -> usize {
    let x = k.wrapping_mul(0x2F6B) % ROCE_PORTS;
    x ^ (x >> 7)
}

impl Router for NicPinned<'_> {
    fn route(&mut self, flow: &FlowKey, net: &Network) -> Route {
        let key = FlowRef::from(flow);
        let path = self.path(key, flow.src, flow.dst, net);
        if path.iter().all(|&l: &LinkId| net.is_live(l)) {
            return Route::single(path);
        }
        // The port's path is cut: replan the flow and search again.
        let Some(i) = self.plan.index(key) else {
            return Route::single(path);
        };
        let view = View {
            topo: self.topo,
            net,
        };
        if self.plan.replan(&view, i).is_some() {
            self.assign(&view, i);
        }
        Route::single(self.path(key, flow.src, flow.dst, net))
    }
}

impl SchemeRouter for NicPinned<'_> {
    fn diagnostics(&self) -> Diagnostics {
        Diagnostics {
            plan: Some(self.plan.stats()),
            ports: Some(self.search),
            ..Diagnostics::default()
        }
    }
}
