//! Flowlet switching: ECMP routes, plus a rebalance every flowlet period
//! that models the idle gaps at which a switch may re-hash a flow.
//!
//! The rule, at each rebalance: count the active (non-stalled) flows on
//! every link, weighted by a reference capacity over the link's (1 per
//! flow on links as fast as the NICs). Visit the links carrying more than
//! one flow, most loaded first; on each, the first of its flows (in the
//! engine's order) not yet visited at this rebalance "hits a gap" and
//! moves to its least loaded live equal-cost path
//! ([`View::least_loaded`]) if that lowers both its most loaded link
//! (with the flow on it) and the sum over links of the squared loads (so
//! rebalancing settles instead of cycling). One flow per link per period
//! models that only some flows of a congested link pause long enough for
//! a flowlet boundary. A moved queue pair keeps its new path for its
//! later repetitions (the flowlet table remembers it) until it moves
//! again or a failure cuts it.
//!
//! This is the flowlet scheme at its best: it assumes a gap on every
//! congested link every period, which RDMA flows at line rate rarely
//! leave.

use std::collections::HashMap;

use super::ecmp::Ecmp;
use super::live::View;
use super::{Diagnostics, FlowRef, RouterContext, SchemeRouter};
use crate::engine::{FlowKey, FlowView, Network, Route, Router};
use crate::flow::{LinkId, Path};
use crate::topo::Topology;

/// The flowlet router.
#[derive(Debug, Clone)]
pub struct Flowlet<'a> {
    topo: &'a Topology,
    ecmp: Ecmp<'a>,
    /// Paths of flows moved at a flowlet gap.
    moved: HashMap<FlowRef, Path>,
    moves: u64,
}

impl<'a> Flowlet<'a> {
    /// The router of one run.
    pub fn new(ctx: &RouterContext<'a>) -> Flowlet<'a> {
        Flowlet {
            topo: ctx.topo,
            ecmp: Ecmp::new(ctx),
            moved: HashMap::new(),
            moves: 0,
        }
    }
}

impl Router for Flowlet<'_> {
    fn route(&mut self, flow: &FlowKey, net: &Network) -> Route {
        let key = FlowRef::from(flow);
        if let Some(path) = self.moved.get(&key) {
            if path.iter().all(|&l| net.is_live(l)) {
                return Route::single(path.clone());
            }
            self.moved.remove(&key);
        }
        self.ecmp.route(flow, net)
    }

    fn rebalance(
        &mut self,
        _now: f64,
        flows: &[FlowView<'_>],
        net: &Network,
    ) -> Vec<(usize, Route)> {
        // Loads in flows, weighted by a reference capacity over the link's
        // (exactly 1.0 per flow on a link as fast as the first NIC's).
        let reference = flows
            .first()
            .and_then(|f| f.route.paths().first())
            .and_then(|(p, _)| p.first())
            .map_or(1.0, |&l| net.capacity(l));
        let weight = |l: LinkId| {
            let c = net.capacity(l);
            if c > 0.0 {
                reference / c
            } else {
                f64::INFINITY
            }
        };
        let add = |load: &mut HashMap<LinkId, f64>, path: &[LinkId], sign: f64| {
            for &l in path {
                *load.entry(l).or_default() += sign * weight(l);
            }
        };
        let mut load: HashMap<LinkId, f64> = HashMap::new();
        let mut on_link: HashMap<LinkId, Vec<usize>> = HashMap::new();
        for (i, f) in flows.iter().enumerate() {
            if f.rate <= 0.0 {
                continue;
            }
            for (path, _) in f.route.paths() {
                add(&mut load, path, 1.0);
                for &l in path {
                    on_link.entry(l).or_default().push(i);
                }
            }
        }
        let mut links: Vec<(LinkId, f64)> = on_link
            .iter()
            .filter(|(_, fl)| fl.len() > 1)
            .map(|(l, _)| (*l, load.get(l).copied().unwrap_or(0.0)))
            .collect();
        links.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let view = View {
            topo: self.topo,
            net,
        };
        let mut out: Vec<(usize, Route)> = Vec::new();
        let mut visited = vec![false; flows.len()];
        for (link, _) in links {
            let Some(&i) = on_link[&link].iter().find(|i| !visited[**i]) else {
                continue;
            };
            visited[i] = true;
            let f = &flows[i];
            let Some((old, _)) = f.route.paths().first() else {
                continue;
            };
            let before = old
                .iter()
                .map(|l| load.get(l).copied().unwrap_or(0.0))
                .fold(0.0, f64::max);
            add(&mut load, old, -1.0);
            let cost = |l: LinkId| load.get(&l).copied().unwrap_or(0.0) + weight(l);
            let best = view.least_loaded(f.key.src, f.key.dst, &cost);
            let after = best
                .as_ref()
                .map(|p| p.iter().map(|&l| cost(l)).fold(0.0, f64::max));
            // With the flow removed, the growth of the sum of squared link
            // loads if it goes (back) onto a path: a move must lower it too,
            // so rebalancing cannot cycle.
            let growth = |p: &[LinkId]| {
                p.iter()
                    .map(|&l| {
                        let w = weight(l);
                        (2.0 * load.get(&l).copied().unwrap_or(0.0) + w) * w
                    })
                    .sum::<f64>()
            };
            let improves = |p: &Path, after: f64| {
                after + 1e-9 < before && growth(p) + 1e-9 < growth(old) && p != old
            };
            match (best, after) {
                (Some(path), Some(after)) if improves(&path, after) => {
                    add(&mut load, &path, 1.0);
                    self.moved.insert(FlowRef::from(f.key), path.clone());
                    self.moves += 1;
                    out.push((i, Route::single(path)));
                }
                _ => add(&mut load, old, 1.0),
            }
        }
        out
    }
}

impl SchemeRouter for Flowlet<'_> {
    fn diagnostics(&self) -> Diagnostics {
        Diagnostics {
            flowlet_moves: self.moves,
            ..Diagnostics::default()
        }
    }
}
