//! ECMP: every switch picks a flow's next hop by hashing its RoCEv2
//! 5-tuple ([`super::hash`]), hop by hop over the equal-cost next hops
//! ([`Topology::next_hops`](crate::topo::Topology::next_hops)), as the
//! routers see them ([`super::live`]): after a failure, a switch re-hashes
//! over its live next hops.
//!
//! `ecmp-qps<N>` is the same router; the run splits every transfer over
//! `N` queue pairs, each with its own QP numbers and so its own source
//! port.

use super::addressing::Addressing;
use super::hash::{SwitchSeeds, pick, tuple_crc};
use super::live::View;
use super::{Diagnostics, FlowRef, RouterContext, SchemeRouter};
use crate::engine::{FlowKey, Network, Route, Router};
use crate::flow::{Endpoint, Path};
use crate::topo::Topology;

/// The ECMP router.
#[derive(Debug, Clone)]
pub struct Ecmp<'a> {
    topo: &'a Topology,
    addressing: Addressing,
    seeds: SwitchSeeds,
}

impl<'a> Ecmp<'a> {
    /// The router of one run.
    pub fn new(ctx: &RouterContext<'a>) -> Ecmp<'a> {
        Ecmp {
            topo: ctx.topo,
            addressing: Addressing::new(ctx.seed),
            seeds: SwitchSeeds::new(ctx.seed, ctx.options.hash),
        }
    }

    /// The CRC of a flow's 5-tuple with its Linux source port.
    pub fn flow_crc(&self, flow: FlowRef, src: Endpoint, dst: Endpoint) -> u16 {
        tuple_crc(&self.addressing.flow(flow, src, dst).tuple)
    }

    /// The path switches hashing `crc` give a flow from `src` to `dst`
    /// over the live hops of `net`; over the topology's hops when some
    /// switch has no live hop (the flow then stalls on a dead link).
    pub fn path_for_crc(&self, net: &Network, src: Endpoint, dst: Endpoint, crc: u16) -> Path {
        let view = View {
            topo: self.topo,
            net,
        };
        let choose = |node, hops: &[_]| pick(self.seeds.of(node), crc, hops.len());
        view.walk(src, dst, choose)
            .or_else(|| View::walk_static(self.topo, src, dst, choose))
            .unwrap_or_default()
    }

    /// The ECMP path of a flow.
    pub fn path(&self, flow: FlowRef, src: Endpoint, dst: Endpoint, net: &Network) -> Path {
        self.path_for_crc(net, src, dst, self.flow_crc(flow, src, dst))
    }
}

impl Router for Ecmp<'_> {
    fn route(&mut self, flow: &FlowKey, net: &Network) -> Route {
        Route::single(self.path(flow.into(), flow.src, flow.dst, net))
    }
}

impl SchemeRouter for Ecmp<'_> {
    fn diagnostics(&self) -> Diagnostics {
        Diagnostics::default()
    }
}
