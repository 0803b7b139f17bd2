//! Ideal packet spraying, the upper bound: every flow split equally over
//! its live equal-cost paths (a [`Route`] with equal weights).
//!
//! Cap: a pair with more than `cap` paths (three tiers across pods have
//! one per core) is sprayed over `cap` of them, evenly spaced in the
//! topology's path order with a per-pair offset (index `offset + k *
//! stride`, `stride = ceil(paths / cap)`), so that every first-hop choice
//! is covered and different pairs use different cores. With the default
//! cap of 64 a two-tier fabric of up to 64 spines is sprayed exactly.

use super::live::View;
use super::{Diagnostics, RouterContext, SchemeRouter};
use crate::engine::{FlowKey, Network, Route, Router};
use crate::flow::{Endpoint, Path};
use crate::topo::Topology;

/// The spraying router.
#[derive(Debug, Clone)]
pub struct Spray<'a> {
    topo: &'a Topology,
    cap: usize,
}

impl<'a> Spray<'a> {
    /// The router of one run, spraying over at most `cap` paths (at
    /// least 1).
    pub fn new(ctx: &RouterContext<'a>, cap: usize) -> Spray<'a> {
        Spray {
            topo: ctx.topo,
            cap: cap.max(1),
        }
    }

    /// The paths a flow from `src` to `dst` is sprayed over.
    pub fn paths(&self, src: Endpoint, dst: Endpoint, net: &Network) -> Vec<Path> {
        let live = |p: &Path| p.iter().all(|&l| net.is_live(l));
        let count = self.topo.path_count(src, dst);
        let cap = self.cap as u64;
        let chosen: Vec<Path> = if count <= cap {
            self.topo.paths(src, dst).filter(live).collect()
        } else {
            let stride = count.div_ceil(cap);
            let offset = (u64::from(src.0) * 31 + u64::from(dst.0)) % stride;
            (0..cap)
                .filter_map(|k| self.topo.path(src, dst, offset + k * stride))
                .filter(live)
                .collect()
        };
        if !chosen.is_empty() {
            return chosen;
        }
        // Everything chosen is down: any live paths, up to the cap; none
        // live, the first path, to stall on until a link comes back.
        let any: Vec<Path> = self
            .topo
            .paths(src, dst)
            .filter(live)
            .take(self.cap)
            .collect();
        if any.is_empty() {
            View::walk_static(self.topo, src, dst, |_, _| 0)
                .into_iter()
                .collect()
        } else {
            any
        }
    }
}

impl Router for Spray<'_> {
    fn route(&mut self, flow: &FlowKey, net: &Network) -> Route {
        let paths = self.paths(flow.src, flow.dst, net);
        Route::spray(paths).unwrap_or_else(|_| Route::single(Vec::new()))
    }
}

impl SchemeRouter for Spray<'_> {
    fn diagnostics(&self) -> Diagnostics {
        Diagnostics::default()
    }
}
