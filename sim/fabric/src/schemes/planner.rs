//! The pinning planner: a path for every flow (queue pair of a transfer),
//! chosen so that flows running at the same time share links as little
//! as possible.
//!
//! Flows are planned in *groups* that run at the same time: the flows of
//! phase `k` of every job (a job runs its phases in order; the jobs of a
//! workload start together, so their `k`-th phases roughly overlap).
//!
//! - **Two tiers, nothing failed:** a flow between two leaves is an edge
//!   of the bipartite demand multigraph (source leaves on one side,
//!   destination leaves on the other); a proper edge colouring with `C`
//!   colours, `C` the largest degree, exists (König's edge-colouring
//!   theorem) and the alternating-path method finds one: colour the edges
//!   one by one; for edge `(u, v)` take a colour `a` free at `u` and `b`
//!   free at `v`; if `a` is not free at `v`, swap `a` and `b` along the
//!   path from `v` whose edges alternate `a, b, a, ...` (in a bipartite
//!   graph it cannot reach `u`), which frees `a` at `v`. Colour `c` is
//!   spine `c mod S`. When `C <= S` no two flows of a group share a leaf
//!   uplink or a spine downlink: collision-free, which is optimal on a
//!   non-blocking two-tier Clos. When `C > S` (more flows leave a leaf than
//!   it has spines) every such link carries at most `ceil(C / S)` flows,
//!   the least possible. All uplinks of a two-tier fabric have one speed,
//!   so this holds under oversubscription too. Flows within a leaf have
//!   one path.
//! - **Three tiers, or failures:** greedy least-loaded: flows in order
//!   (job, transfer, queue pair), each on its live path whose most loaded
//!   link (counting the flows already placed in the group, weighted by
//!   the inverse of the link's speed) is least loaded
//!   ([`View::least_loaded`]).
//!
//! A plan is per queue pair of a transfer, the same for every repetition
//! of its phase (so the engine can fast-forward a ring AllReduce). When a
//! failure cuts a planned path, [`Plan::replan`] moves that flow alone to
//! its least loaded live path given the rest of its group.

use std::collections::HashMap;

use super::live::View;
use super::{FlowRef, PlanStats};
use crate::flow::{Endpoint, JobTraffic, LinkId, Path};
use crate::topo::Tiers;

/// One planned flow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedFlow {
    pub flow: FlowRef,
    pub src: Endpoint,
    pub dst: Endpoint,
    pub path: Path,
}

/// The planned path of every flow of a workload.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Per job, per phase: the index in `flows` of each transfer's first
    /// queue pair.
    first: Vec<Vec<Vec<usize>>>,
    flows: Vec<PlannedFlow>,
    /// Per group (phase index): the range of `flows` it holds, grouped.
    groups: Vec<Vec<usize>>,
    stats: PlanStats,
}

/// Flow counts per link for one group, reset cheaply between groups.
struct Loads {
    count: Vec<u32>,
    touched: Vec<LinkId>,
    reference: f64,
}

impl Loads {
    fn new(view: &View<'_>) -> Loads {
        let links = view.net.links();
        Loads {
            count: vec![0; links],
            touched: Vec::new(),
            reference: (0..links as u32)
                .map(|i| view.net.capacity(LinkId(i)))
                .fold(0.0, f64::max),
        }
    }

    fn add(&mut self, path: &[LinkId], delta: i32) {
        for &l in path {
            let c = &mut self.count[l.0 as usize];
            if *c == 0 {
                self.touched.push(l);
            }
            *c = c.saturating_add_signed(delta);
        }
    }

    fn max(&self) -> u32 {
        self.touched
            .iter()
            .map(|l| self.count[l.0 as usize])
            .max()
            .unwrap_or(0)
    }

    fn clear(&mut self) {
        for l in self.touched.drain(..) {
            self.count[l.0 as usize] = 0;
        }
    }

    /// The load of `l` with one more flow, in flows at the fastest link's
    /// speed.
    fn cost(&self, view: &View<'_>, l: LinkId) -> f64 {
        let cap = view.net.capacity(l);
        if cap > 0.0 {
            f64::from(self.count[l.0 as usize] + 1) * self.reference / cap
        } else {
            f64::INFINITY
        }
    }
}

impl Plan {
    /// Plans every flow of `jobs` on the fabric of `view`.
    pub fn build(view: View<'_>, jobs: &[JobTraffic]) -> Plan {
        let mut plan = Plan {
            first: Vec::with_capacity(jobs.len()),
            flows: Vec::new(),
            groups: Vec::new(),
            stats: PlanStats::default(),
        };
        for (j, job) in jobs.iter().enumerate() {
            let mut phases = Vec::with_capacity(job.phases.len());
            for (p, phase) in job.phases.iter().enumerate() {
                if plan.groups.len() <= p {
                    plan.groups.push(Vec::new());
                }
                let mut firsts = Vec::with_capacity(phase.transfers.len());
                for (t, tr) in phase.transfers.iter().enumerate() {
                    firsts.push(plan.flows.len());
                    for qp in 0..tr.qps {
                        plan.groups[p].push(plan.flows.len());
                        plan.flows.push(PlannedFlow {
                            flow: FlowRef {
                                job: j as u32,
                                phase: p as u32,
                                transfer: t as u32,
                                qp,
                            },
                            src: tr.src,
                            dst: tr.dst,
                            path: Vec::new(),
                        });
                    }
                }
                phases.push(firsts);
            }
            plan.first.push(phases);
        }
        let colour = view.topo.shape().tiers == Tiers::Two
            && (0..view.topo.links().len() as u32).all(|i| view.topo.usable(LinkId(i)));
        let mut loads = Loads::new(&view);
        let groups = std::mem::take(&mut plan.groups);
        for group in &groups {
            if colour {
                plan.colour(&view, group);
            } else {
                plan.greedy(&view, group, &mut loads);
            }
            for &i in group {
                loads.add(&plan.flows[i].path, 1);
            }
            plan.stats.max_link_flows = plan.stats.max_link_flows.max(loads.max());
            loads.clear();
        }
        plan.groups = groups;
        plan.stats.flows = plan.flows.len() as u64;
        plan
    }

    /// The planned flows, by job, phase, transfer and queue pair.
    pub fn flows(&self) -> &[PlannedFlow] {
        &self.flows
    }

    /// What the planner did.
    pub fn stats(&self) -> PlanStats {
        self.stats
    }

    /// The index of a flow in [`Plan::flows`].
    pub fn index(&self, f: FlowRef) -> Option<usize> {
        let first = *self
            .first
            .get(f.job as usize)?
            .get(f.phase as usize)?
            .get(f.transfer as usize)?;
        let i = first + f.qp as usize;
        (self.flows.get(i)?.flow == f).then_some(i)
    }

    /// The planned path of a flow.
    pub fn path(&self, f: FlowRef) -> Option<&Path> {
        self.index(f).map(|i| &self.flows[i].path)
    }

    /// Moves flow `i` to its least loaded live path given the other
    /// flows of its group; returns the new path, or `None` (plan kept)
    /// when it has no live path.
    pub fn replan(&mut self, view: &View<'_>, i: usize) -> Option<&Path> {
        let group = &self.groups[self.flows[i].flow.phase as usize];
        let mut loads = Loads::new(view);
        for &k in group.iter().filter(|k| **k != i) {
            loads.add(&self.flows[k].path, 1);
        }
        let f = &self.flows[i];
        let path = view.least_loaded(f.src, f.dst, &|l| loads.cost(view, l))?;
        self.flows[i].path = path;
        self.stats.replanned += 1;
        Some(&self.flows[i].path)
    }

    fn greedy(&mut self, view: &View<'_>, group: &[usize], loads: &mut Loads) {
        for &i in group {
            let f = &self.flows[i];
            let path = view
                .least_loaded(f.src, f.dst, &|l| loads.cost(view, l))
                .or_else(|| View::walk_static(view.topo, f.src, f.dst, |_, _| 0))
                .unwrap_or_default();
            loads.add(&path, 1);
            self.flows[i].path = path;
            self.stats.greedy += 1;
        }
        // `build` counts the group again for its statistics.
        loads.clear();
    }

    fn colour(&mut self, view: &View<'_>, group: &[usize]) {
        let topo = view.topo;
        let leaves = topo.leaves() as usize;
        let mut edges: Vec<(usize, usize, usize)> = Vec::new();
        for &i in group {
            let f = &self.flows[i];
            let (u, v) = (topo.leaf_of(f.src) as usize, topo.leaf_of(f.dst) as usize);
            if u == v {
                self.flows[i].path =
                    View::walk_static(topo, f.src, f.dst, |_, _| 0).unwrap_or_default();
            } else {
                edges.push((i, u, leaves + v));
            }
        }
        let colours = edge_colouring(
            2 * leaves,
            &edges.iter().map(|e| (e.1, e.2)).collect::<Vec<_>>(),
        );
        for ((i, _, _), c) in edges.into_iter().zip(colours) {
            let f = &self.flows[i];
            let path =
                View::walk_static(topo, f.src, f.dst, |_, hops| c % hops.len()).unwrap_or_default();
            self.flows[i].path = path;
            self.stats.coloured += 1;
        }
    }
}

/// A proper edge colouring of a bipartite multigraph (`edges` between
/// vertices `0..vertices`, every edge joining the two sides) with as many
/// colours as its largest degree: the colour of each edge, in order.
pub fn edge_colouring(vertices: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut degree = vec![0usize; vertices];
    for &(u, v) in edges {
        degree[u] += 1;
        degree[v] += 1;
    }
    let delta = degree.iter().copied().max().unwrap_or(0);
    const FREE: usize = usize::MAX;
    // at[x * delta + c]: the edge of colour c at vertex x.
    let mut at = vec![FREE; vertices * delta];
    let mut colour = vec![FREE; edges.len()];
    let free_at = |at: &[usize], x: usize| (0..delta).find(|c| at[x * delta + c] == FREE);
    let mut path = Vec::new();
    for (e, &(u, v)) in edges.iter().enumerate() {
        // Both have a free colour: fewer than `delta` edges are coloured
        // at each, this one not yet.
        let (Some(a), Some(b)) = (free_at(&at, u), free_at(&at, v)) else {
            continue;
        };
        if at[v * delta + a] != FREE {
            // Swap a and b along the alternating path from v.
            path.clear();
            let (mut x, mut c) = (v, a);
            while at[x * delta + c] != FREE {
                let e2 = at[x * delta + c];
                path.push(e2);
                let (p, q) = edges[e2];
                x = if p == x { q } else { p };
                c = if c == a { b } else { a };
            }
            for &e2 in &path {
                let (p, q) = edges[e2];
                at[p * delta + colour[e2]] = FREE;
                at[q * delta + colour[e2]] = FREE;
            }
            for &e2 in &path {
                let (p, q) = edges[e2];
                colour[e2] = if colour[e2] == a { b } else { a };
                at[p * delta + colour[e2]] = e2;
                at[q * delta + colour[e2]] = e2;
            }
        }
        colour[e] = a;
        at[u * delta + a] = e;
        at[v * delta + a] = e;
    }
    colour
}

/// Flow counts per link of a plan's group `g` (for tests and reports).
pub fn group_link_counts(plan: &Plan, g: usize) -> HashMap<LinkId, u32> {
    let mut counts = HashMap::new();
    for &i in plan.groups.get(g).map_or(&[][..], |v| v) {
        for &l in &plan.flows[i].path {
            *counts.entry(l).or_insert(0) += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(vertices: usize, edges: &[(usize, usize)]) {
        let colours = edge_colouring(vertices, edges);
        let mut degree = vec![0; vertices];
        for &(u, v) in edges {
            degree[u] += 1;
            degree[v] += 1;
        }
        let delta = degree.into_iter().max().unwrap_or(0);
        let mut seen = std::collections::HashSet::new();
        for (&(u, v), &c) in edges.iter().zip(&colours) {
            assert!(c < delta, "colour {c} >= degree {delta}");
            assert!(seen.insert((u, c)), "vertex {u} has colour {c} twice");
            assert!(seen.insert((v, c)), "vertex {v} has colour {c} twice");
        }
    }

    #[test]
    fn colours_a_multigraph_with_max_degree_colours() {
        // Two leaves each way with repeated edges, and a dense random one.
        check(4, &[(0, 2), (0, 2), (0, 3), (1, 2), (1, 3), (1, 3)]);
        let mut rng = crate::rng::Rng::new(9, 0);
        let edges: Vec<(usize, usize)> = (0..400)
            .map(|_| (rng.below(12) as usize, 12 + rng.below(12) as usize))
            .collect();
        check(24, &edges);
    }
}
