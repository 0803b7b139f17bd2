//! Next hops and paths as the routers see them: the topology's equal-cost
//! next hops (static failures already removed) restricted to the links the
//! routers' [`Network`] view says are up, and to hops from which the
//! destination is still reachable over such links (a converged routing
//! protocol withdraws a next hop whose onward paths are all down).

use crate::engine::Network;
use crate::flow::{Endpoint, LinkId, NodeId, Path};
use crate::topo::Topology;

/// The fabric as one router sees it at one moment.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    pub topo: &'a Topology,
    pub net: &'a Network,
}

impl<'a> View<'a> {
    /// Whether `dst` can be reached from `node` over live links.
    pub fn viable(&self, node: NodeId, dst: Endpoint) -> bool {
        node.0 == dst.0
            || self
                .topo
                .next_hops(node, dst)
                .iter()
                .any(|&l| self.net.is_live(l) && self.viable(self.topo.link(l).to, dst))
    }

    /// The live next hops from `node` toward `dst`, into `out` (cleared
    /// first), in the topology's order.
    pub fn hops(&self, node: NodeId, dst: Endpoint, out: &mut Vec<LinkId>) {
        out.clear();
        let all = self.topo.next_hops(node, dst);
        if all.len() == 1 {
            // A single hop: no choice to make, dead or alive.
            if self.net.is_live(all[0]) {
                out.push(all[0]);
            }
            return;
        }
        out.extend(
            all.iter()
                .copied()
                .filter(|&l| self.net.is_live(l) && self.viable(self.topo.link(l).to, dst)),
        );
    }

    /// Walks from `src` to `dst` choosing at each switch with `choose(node,
    /// live hops)` (an index into them); `None` when some switch on the way
    /// has no live hop.
    pub fn walk(
        &self,
        src: Endpoint,
        dst: Endpoint,
        mut choose: impl FnMut(NodeId, &[LinkId]) -> usize,
    ) -> Option<Path> {
        let mut node = self.topo.nic_node(src);
        let target = self.topo.nic_node(dst);
        let mut path = Vec::new();
        let mut hops = Vec::new();
        while node != target {
            self.hops(node, dst, &mut hops);
            if hops.is_empty() {
                return None;
            }
            let i = if hops.len() == 1 {
                0
            } else {
                choose(node, &hops)
            };
            let link = hops[i];
            path.push(link);
            node = self.topo.link(link).to;
        }
        (!path.is_empty()).then_some(path)
    }

    /// The path of [`View::walk`] over the topology alone (ignoring the
    /// routers' view of link states): where a flow goes when every live
    /// alternative is gone, to stall until its links come back.
    pub fn walk_static(
        topo: &Topology,
        src: Endpoint,
        dst: Endpoint,
        mut choose: impl FnMut(NodeId, &[LinkId]) -> usize,
    ) -> Option<Path> {
        let mut node = topo.nic_node(src);
        let target = topo.nic_node(dst);
        let mut path = Vec::new();
        while node != target {
            let hops = topo.next_hops(node, dst);
            if hops.is_empty() {
                return None;
            }
            let i = if hops.len() == 1 {
                0
            } else {
                choose(node, hops)
            };
            path.push(hops[i]);
            node = topo.link(hops[i]).to;
        }
        (!path.is_empty()).then_some(path)
    }

    /// The live path from `src` to `dst` whose most loaded link (after
    /// adding this flow) is least loaded, ties broken by the smallest sum
    /// of loads, then by the first in the topology's path order. `cost(l)`
    /// is link `l`'s load with this flow added. Depth-first with pruning
    /// (a prefix no better than the best path so far is not extended).
    pub fn least_loaded(
        &self,
        src: Endpoint,
        dst: Endpoint,
        cost: &dyn Fn(LinkId) -> f64,
    ) -> Option<Path> {
        let mut search = Search {
            view: *self,
            dst,
            cost,
            best: None,
            path: Vec::new(),
        };
        search.go(self.topo.nic_node(src), 0.0, 0.0);
        search.best.map(|(p, _, _)| p)
    }
}

/// The state of [`View::least_loaded`].
struct Search<'a, 'c> {
    view: View<'a>,
    dst: Endpoint,
    cost: &'c dyn Fn(LinkId) -> f64,
    best: Option<(Path, f64, f64)>,
    path: Path,
}

impl Search<'_, '_> {
    fn worse_than_best(&self, max: f64, sum: f64) -> bool {
        match &self.best {
            Some((_, bmax, bsum)) => max > *bmax || (max == *bmax && sum >= *bsum),
            None => false,
        }
    }

    fn go(&mut self, node: NodeId, max: f64, sum: f64) {
        if node.0 == self.dst.0 {
            if !self.path.is_empty() && !self.worse_than_best(max, sum) {
                self.best = Some((self.path.clone(), max, sum));
            }
            return;
        }
        let mut hops = Vec::new();
        self.view.hops(node, self.dst, &mut hops);
        for l in hops {
            let c = (self.cost)(l);
            let (m, s) = (max.max(c), sum + c);
            if self.worse_than_best(m, s) {
                continue;
            }
            self.path.push(l);
            self.go(self.view.topo.link(l).to, m, s);
            self.path.pop();
        }
    }
}
