//! Up-down equal-cost routing over live elements.
//!
//! A flow climbs from its NIC to the lowest tier that reaches the
//! destination (the leaf for a NIC under the same leaf, a spine or the
//! pod's aggregation switches within a pod, a core across pods), then
//! descends. Every switch keeps, per destination *leaf*, the set of live
//! next links that still lead to that leaf over live elements; the last hop
//! (leaf to NIC) is the NIC's own cable. The sets are interned (a fabric
//! without failures has few distinct ones), so a table entry is one `u32`
//! and `next_hops` is two array reads: for 4k hosts x 8 NICs on a
//! three-tier fabric, 3k switches x 1k leaves, about 12 MB, against
//! hundreds of MB for per-(switch, endpoint) tables.

use std::collections::HashMap;

use super::{Tiers, Topology};
use crate::flow::{Endpoint, LinkId, NodeId, Path};

/// The routing tables of a topology (see the module comment).
#[derive(Debug, Clone, Default)]
pub(super) struct Tables {
    /// Set id per (switch row, destination leaf); rows are leaves, then
    /// tier-2 switches, then cores (node id minus the endpoint count).
    table: Vec<u32>,
    /// Set `i` is `hops[offsets[i]..offsets[i + 1]]`; set 0 is empty.
    offsets: Vec<u32>,
    hops: Vec<LinkId>,
    /// `LinkId(i)` at index `i` for the NIC cables (links `0..2E`), so
    /// that a NIC's uplink and its leaf's downlink to it are slices too.
    nic_links: Vec<LinkId>,
    leaves: u32,
}

/// Cable numbering (see the module comment of `topo`).
#[derive(Clone, Copy)]
struct Cables {
    endpoints: u32,
    leaves: u32,
    aggs_per_pod: u32,
    plane: u32,
}

impl Cables {
    fn leaf_agg(&self, leaf: u32, a: u32) -> u32 {
        self.endpoints + leaf * self.aggs_per_pod + a
    }
    fn agg_core(&self, agg: u32, j: u32) -> u32 {
        self.endpoints + self.leaves * self.aggs_per_pod + agg * self.plane + j
    }
}

fn up(cable: u32) -> LinkId {
    LinkId(2 * cable)
}

fn down(cable: u32) -> LinkId {
    LinkId(2 * cable + 1)
}

/// Builds the tables: interns sets, remembering each row's last set so the
/// common case (the same set as for the previous destination leaf) costs a
/// slice comparison instead of a hash.
struct Builder {
    tables: Tables,
    index: HashMap<Box<[LinkId]>, u32>,
    last: Vec<u32>,
}

impl Builder {
    fn set(&self, id: u32) -> &[LinkId] {
        let t = &self.tables;
        &t.hops[t.offsets[id as usize] as usize..t.offsets[id as usize + 1] as usize]
    }

    fn put(&mut self, row: u32, leaf: u32, links: &[LinkId]) {
        let last = self.last[row as usize];
        let id = if self.set(last) == links {
            last
        } else if links.is_empty() {
            0
        } else if let Some(&id) = self.index.get(links) {
            id
        } else {
            let t = &mut self.tables;
            let id = (t.offsets.len() - 1) as u32;
            t.hops.extend_from_slice(links);
            t.offsets.push(t.hops.len() as u32);
            self.index.insert(links.into(), id);
            id
        };
        self.last[row as usize] = id;
        let leaves = self.tables.leaves;
        self.tables.table[(row * leaves + leaf) as usize] = id;
    }
}

impl Tables {
    /// Computes every switch's next-hop sets toward every leaf, bottom-up
    /// per destination leaf, over live elements only.
    pub(super) fn compute(topo: &Topology) -> Tables {
        let c = topo.counts();
        let s = &topo.shape;
        let cables = Cables {
            endpoints: c.endpoints,
            leaves: c.leaves,
            aggs_per_pod: s.aggs_per_pod,
            plane: c.plane,
        };
        let switches = c.leaves + c.aggs + c.cores;
        let mut b = Builder {
            tables: Tables {
                table: vec![0; switches as usize * c.leaves as usize],
                offsets: vec![0, 0],
                hops: Vec::new(),
                nic_links: (0..2 * c.endpoints).map(LinkId).collect(),
                leaves: c.leaves,
            },
            index: HashMap::new(),
            last: vec![0; switches as usize],
        };
        let agg_row = |g: u32| c.leaves + g;
        let core_row = |k: u32| c.leaves + c.aggs + k;
        let mut agg_ok = vec![false; c.aggs as usize];
        let mut core_ok = vec![false; c.cores as usize];
        let mut scratch = Vec::new();
        for dl in 0..c.leaves {
            let q = dl / s.leaves_per_pod;
            let leaf_live = topo.node_live[(c.endpoints + dl) as usize];
            for a in 0..s.aggs_per_pod {
                let g = q * s.aggs_per_pod + a;
                let link = down(cables.leaf_agg(dl, a));
                let ok = leaf_live && topo.usable(link);
                agg_ok[g as usize] = ok;
                let links = [link];
                b.put(agg_row(g), dl, if ok { &links } else { &[] });
            }
            if s.tiers == Tiers::Three {
                for k in 0..c.cores {
                    let (a, j) = (k / c.plane, k % c.plane);
                    let g = q * s.aggs_per_pod + a;
                    let link = down(cables.agg_core(g, j));
                    let ok = agg_ok[g as usize] && topo.usable(link);
                    core_ok[k as usize] = ok;
                    let links = [link];
                    b.put(core_row(k), dl, if ok { &links } else { &[] });
                }
                for p in (0..s.pods).filter(|p| *p != q) {
                    for a in 0..s.aggs_per_pod {
                        let g = p * s.aggs_per_pod + a;
                        scratch.clear();
                        scratch.extend((0..c.plane).map(|j| up(cables.agg_core(g, j))).filter(
                            |l| {
                                let core =
                                    topo.links[l.0 as usize].to.0 - c.endpoints - c.leaves - c.aggs;
                                core_ok[core as usize] && topo.usable(*l)
                            },
                        ));
                        agg_ok[g as usize] = !scratch.is_empty();
                        b.put(agg_row(g), dl, &scratch);
                    }
                }
            }
            for x in (0..c.leaves).filter(|x| *x != dl) {
                let p = x / s.leaves_per_pod;
                scratch.clear();
                scratch.extend(
                    (0..s.aggs_per_pod)
                        .filter(|a| agg_ok[(p * s.aggs_per_pod + a) as usize])
                        .map(|a| up(cables.leaf_agg(x, a)))
                        .filter(|l| topo.usable(*l)),
                );
                b.put(x, dl, &scratch);
            }
        }
        b.tables
    }

    fn set(&self, id: u32) -> &[LinkId] {
        &self.hops[self.offsets[id as usize] as usize..self.offsets[id as usize + 1] as usize]
    }

    fn entry(&self, row: u32, leaf: u32) -> &[LinkId] {
        self.set(self.table[(row * self.leaves + leaf) as usize])
    }

    /// Ordered leaf pairs (different leaves) with no live route.
    pub(super) fn unreachable_leaf_pairs(&self, topo: &Topology) -> usize {
        let leaves = self.leaves;
        (0..leaves)
            .flat_map(|x| (0..leaves).map(move |d| (x, d)))
            .filter(|(x, d)| {
                x != d
                    && (!topo.node_live[(topo.counts().endpoints + x) as usize]
                        || self.entry(*x, *d).is_empty())
            })
            .count()
    }
}

impl Topology {
    /// The equal-cost next links from `node` toward endpoint `dst` over
    /// live elements (up-down routing); empty at `dst` itself, when `dst`
    /// is unreachable from `node`, and for an out-of-range `dst`. O(1).
    pub fn next_hops(&self, node: NodeId, dst: Endpoint) -> &[LinkId] {
        let t = &self.routes;
        let e = self.counts().endpoints;
        if dst.0 >= e || node.0 == dst.0 || node.0 as usize >= self.node_live.len() {
            return &[];
        }
        let deliver = 2 * dst.0 as usize + 1;
        if !self.usable(LinkId(deliver as u32)) {
            return &[];
        }
        let dl = self.nic_leaf[dst.0 as usize];
        if node.0 < e {
            let sl = self.nic_leaf[node.0 as usize];
            let uplink = 2 * node.0 as usize;
            let onward = sl == dl || !t.entry(sl, dl).is_empty();
            if onward && self.usable(LinkId(uplink as u32)) {
                return &t.nic_links[uplink..uplink + 1];
            }
            return &[];
        }
        let row = node.0 - e;
        if row == dl {
            return &t.nic_links[deliver..deliver + 1];
        }
        t.entry(row, dl)
    }

    /// Whether `dst` can be reached from `src` over live elements (a
    /// different endpoint).
    pub fn reachable(&self, src: Endpoint, dst: Endpoint) -> bool {
        !self.next_hops(self.nic_node(src), dst).is_empty()
    }

    /// All equal-cost shortest (up-down) paths from `src` to `dst` over
    /// live elements, enumerated lazily (depth first, in link order). None
    /// when `src == dst` or `dst` is unreachable. Use [`Topology::path_count`]
    /// and [`Topology::path`] to pick one without enumerating.
    pub fn paths(&self, src: Endpoint, dst: Endpoint) -> Paths<'_> {
        let first = self.next_hops(self.nic_node(src), dst);
        Paths {
            topo: self,
            dst: self.nic_node(dst),
            target: dst,
            stack: vec![(first, 0)],
            path: Vec::new(),
        }
    }

    /// The number of equal-cost paths from `src` to `dst` (0 when
    /// unreachable). O(number of tier-2 and core switches).
    pub fn path_count(&self, src: Endpoint, dst: Endpoint) -> u64 {
        if src == dst {
            return 0;
        }
        self.count_from(self.nic_node(src), dst)
    }

    fn count_from(&self, node: NodeId, dst: Endpoint) -> u64 {
        if node.0 == dst.0 {
            return 1;
        }
        self.next_hops(node, dst)
            .iter()
            .map(|l| self.count_from(self.links[l.0 as usize].to, dst))
            .sum()
    }

    /// The `index`-th path in [`Topology::paths`] order, without
    /// enumerating the ones before it; `None` past the last.
    pub fn path(&self, src: Endpoint, dst: Endpoint, mut index: u64) -> Option<Path> {
        let mut node = self.nic_node(src);
        let mut path = Vec::new();
        while node.0 != dst.0 {
            let mut chosen = None;
            for &l in self.next_hops(node, dst) {
                let to = self.links[l.0 as usize].to;
                let n = self.count_from(to, dst);
                if index < n {
                    chosen = Some((l, to));
                    break;
                }
                index -= n;
            }
            let (l, to) = chosen?;
            path.push(l);
            node = to;
        }
        (!path.is_empty()).then_some(path)
    }
}

/// The lazy enumeration of [`Topology::paths`].
#[derive(Debug)]
pub struct Paths<'a> {
    topo: &'a Topology,
    dst: NodeId,
    target: Endpoint,
    /// Per depth: the next-hop choices and the next one to try.
    stack: Vec<(&'a [LinkId], usize)>,
    path: Path,
}

impl Iterator for Paths<'_> {
    type Item = Path;

    fn next(&mut self) -> Option<Path> {
        loop {
            let depth = self.stack.len();
            let (choices, next) = self.stack.last_mut()?;
            let Some(&link) = choices.get(*next) else {
                self.stack.pop();
                continue;
            };
            *next += 1;
            self.path.truncate(depth - 1);
            self.path.push(link);
            let to = self.topo.links[link.0 as usize].to;
            if to == self.dst {
                return Some(self.path.clone());
            }
            let hops = self.topo.next_hops(to, self.target);
            self.stack.push((hops, 0));
        }
    }
}
