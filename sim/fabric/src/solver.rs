//! Max-min fair rates for flows over links, computed incrementally.
//!
//! Flows that use the links in the same proportions get the same max-min
//! rate, so the solver works on *classes*: a class is one [`Route`]'s link
//! usage and a multiplicity (how many flows follow it). A 1,536-rank ring
//! AllReduce is then 1,536 classes however many queue pairs it has, and
//! flows that end and start again on the same route reuse their class.
//!
//! Rates come from progressive filling (water-filling): every unfrozen
//! flow's rate rises together; when a link saturates, the flows crossing it
//! freeze at the current level. With a priority queue of the level at which
//! each link would saturate, one solve costs
//! O((links + route entries) log links).
//!
//! Incremental: adding or removing flows, or changing a capacity, marks
//! links dirty; [`Solver::solve`] re-solves only the connected components
//! (links joined by the classes crossing them) that contain a dirty link.
//!
//! Spraying: a [`Route`] with several paths is a flow split over them in
//! fixed proportions (the weights; equal weights for ideal packet
//! spraying). A link crossed by paths of total weight `w` out of `W`
//! carries `w / W` of the flow's rate, and the flow has one rate. See
//! docs/fabric.md, "Model".

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

use thiserror::Error;

use crate::flow::{LinkId, Path};

/// Errors of route construction and of the solver's inputs.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SolverError {
    #[error("a route needs at least one path")]
    NoPaths,
    #[error("the weights of a route's paths must not all be zero")]
    ZeroWeight,
    #[error("link {link} does not exist (the network has {links} links)")]
    UnknownLink { link: u32, links: usize },
    #[error("capacity of link {link} must be finite and non-negative, got {value}")]
    BadCapacity { link: u32, value: f64 },
    #[error("class {class} has {count} flows, cannot remove {removed}")]
    Underflow {
        class: u32,
        count: u64,
        removed: u64,
    },
}

/// The path or paths one flow follows: one path (a pinned or hashed flow)
/// or several with integer weights (a sprayed flow, split over its paths
/// in proportion to the weights).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Route {
    paths: Vec<(Path, u32)>,
}

impl Route {
    /// A flow on one path.
    pub fn single(path: Path) -> Route {
        Route {
            paths: vec![(path, 1)],
        }
    }

    /// Ideal spraying: the flow split equally over `paths`.
    pub fn spray(paths: Vec<Path>) -> Result<Route, SolverError> {
        Route::weighted(paths.into_iter().map(|p| (p, 1)).collect())
    }

    /// A flow split over `paths` in proportion to their weights.
    pub fn weighted(paths: Vec<(Path, u32)>) -> Result<Route, SolverError> {
        if paths.is_empty() {
            return Err(SolverError::NoPaths);
        }
        if paths.iter().all(|(_, w)| *w == 0) {
            return Err(SolverError::ZeroWeight);
        }
        Ok(Route { paths })
    }

    /// The paths and their weights.
    pub fn paths(&self) -> &[(Path, u32)] {
        &self.paths
    }

    /// Whether some path of positive weight crosses `link`.
    pub fn uses(&self, link: LinkId) -> bool {
        self.paths.iter().any(|(p, w)| *w > 0 && p.contains(&link))
    }

    /// Each link the route uses with the share of the flow's rate it
    /// carries, in link order.
    pub fn shares(&self) -> Vec<(LinkId, f64)> {
        let usage = Usage::of(self);
        usage
            .links
            .iter()
            .map(|&(l, w)| (l, w as f64 / usage.total as f64))
            .collect()
    }
}

/// A route reduced to what the rates depend on: the weight each link
/// carries out of the total. Routes with equal usage share a class.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Usage {
    links: Vec<(LinkId, u64)>,
    total: u64,
}

impl Usage {
    fn of(route: &Route) -> Usage {
        let mut links: BTreeMap<LinkId, u64> = BTreeMap::new();
        let mut total = 0u64;
        for (path, w) in &route.paths {
            total += u64::from(*w);
            if *w == 0 {
                continue;
            }
            for &l in path {
                *links.entry(l).or_default() += u64::from(*w);
            }
        }
        Usage {
            links: links.into_iter().collect(),
            total,
        }
    }
}

/// A class of flows with the same usage: the handle the solver gives out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClassId(pub u32);

#[derive(Clone, Debug)]
struct Class {
    usage: Usage,
    /// Per link of `usage`: the share of a flow's rate it carries.
    coef: Vec<f64>,
    count: u64,
    /// Per-flow rate (bytes/s); infinite for a route with no links.
    rate: f64,
    /// Whether the class is in `by_usage` and the link lists (not freed).
    listed: bool,
}

/// Dead classes (no flows) kept for reuse before a compaction.
const COMPACT_MIN_DEAD: usize = 1024;

/// Max-min fair rates over a set of links, kept up to date as flows come
/// and go.
#[derive(Clone, Debug)]
pub struct Solver {
    capacity: Vec<f64>,
    classes: Vec<Class>,
    free: Vec<u32>,
    by_usage: HashMap<Usage, u32>,
    /// Per link: the classes (live or dead) whose usage includes it.
    link_classes: Vec<Vec<u32>>,
    dirty_links: Vec<u32>,
    dead: usize,
    scratch: Scratch,
}

/// Per-solve working state, kept to avoid reallocation.
#[derive(Clone, Debug, Default)]
struct Scratch {
    epoch: u32,
    link_mark: Vec<u32>,
    class_mark: Vec<u32>,
    frozen_load: Vec<f64>,
    demand: Vec<f64>,
    unfrozen: Vec<u32>,
    version: Vec<u32>,
    frozen: Vec<bool>,
    stack: Vec<u32>,
    comp_links: Vec<u32>,
    comp_classes: Vec<u32>,
}

/// A link's saturation level in the filling queue (min-heap order).
#[derive(Clone, Copy, Debug)]
struct Pending {
    level: f64,
    link: u32,
    version: u32,
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Pending {}
impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Pending {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .level
            .total_cmp(&self.level)
            .then(other.link.cmp(&self.link))
            .then(other.version.cmp(&self.version))
    }
}

impl Solver {
    /// A solver over links with these capacities (bytes/s, indexed by
    /// `LinkId`).
    pub fn new(capacity: Vec<f64>) -> Result<Solver, SolverError> {
        for (i, &c) in capacity.iter().enumerate() {
            check_capacity(i as u32, c)?;
        }
        let n = capacity.len();
        Ok(Solver {
            capacity,
            classes: Vec::new(),
            free: Vec::new(),
            by_usage: HashMap::new(),
            link_classes: vec![Vec::new(); n],
            dirty_links: Vec::new(),
            dead: 0,
            scratch: Scratch {
                link_mark: vec![0; n],
                frozen_load: vec![0.0; n],
                demand: vec![0.0; n],
                unfrozen: vec![0; n],
                version: vec![0; n],
                ..Scratch::default()
            },
        })
    }

    /// The number of links.
    pub fn links(&self) -> usize {
        self.capacity.len()
    }

    /// Adds `count` flows following `route`; returns their class.
    pub fn add(&mut self, route: &Route, count: u64) -> Result<ClassId, SolverError> {
        let usage = Usage::of(route);
        for &(l, _) in &usage.links {
            if l.0 as usize >= self.capacity.len() {
                return Err(SolverError::UnknownLink {
                    link: l.0,
                    links: self.capacity.len(),
                });
            }
        }
        let id = match self.by_usage.get(&usage) {
            Some(&id) => id,
            None => self.new_class(usage),
        };
        if count > 0 {
            let class = &mut self.classes[id as usize];
            if class.count == 0 {
                self.dead -= 1;
            }
            class.count += count;
            self.dirty_links
                .extend(class.usage.links.iter().map(|(l, _)| l.0));
        }
        Ok(ClassId(id))
    }

    fn new_class(&mut self, usage: Usage) -> u32 {
        let coef = usage
            .links
            .iter()
            .map(|&(_, w)| w as f64 / usage.total as f64)
            .collect();
        let rate = if usage.links.is_empty() {
            f64::INFINITY
        } else {
            0.0
        };
        let class = Class {
            usage: usage.clone(),
            coef,
            count: 0,
            rate,
            listed: true,
        };
        let id = match self.free.pop() {
            Some(id) => {
                self.classes[id as usize] = class;
                id
            }
            None => {
                self.classes.push(class);
                self.scratch.class_mark.push(0);
                self.scratch.frozen.push(false);
                (self.classes.len() - 1) as u32
            }
        };
        for &(l, _) in &usage.links {
            self.link_classes[l.0 as usize].push(id);
        }
        self.by_usage.insert(usage, id);
        self.dead += 1;
        id
    }

    /// Removes `count` flows of `class`.
    pub fn remove(&mut self, class: ClassId, count: u64) -> Result<(), SolverError> {
        let have = self.count(class);
        if have < count || class.0 as usize >= self.classes.len() {
            return Err(SolverError::Underflow {
                class: class.0,
                count: have,
                removed: count,
            });
        }
        let c = &mut self.classes[class.0 as usize];
        if count == 0 {
            return Ok(());
        }
        c.count -= count;
        if c.count == 0 {
            self.dead += 1;
        }
        self.dirty_links
            .extend(c.usage.links.iter().map(|(l, _)| l.0));
        Ok(())
    }

    /// Sets a link's capacity (bytes/s).
    pub fn set_capacity(&mut self, link: LinkId, capacity: f64) -> Result<(), SolverError> {
        check_capacity(link.0, capacity)?;
        let slot = self
            .capacity
            .get_mut(link.0 as usize)
            .ok_or(SolverError::UnknownLink {
                link: link.0,
                links: 0,
            })?;
        *slot = capacity;
        self.dirty_links.push(link.0);
        Ok(())
    }

    /// The number of flows in `class`.
    pub fn count(&self, class: ClassId) -> u64 {
        self.classes.get(class.0 as usize).map_or(0, |c| c.count)
    }

    /// The per-flow rate of `class` (bytes/s) as of the last
    /// [`Solver::solve`]; infinite for a route that crosses no link.
    pub fn rate(&self, class: ClassId) -> f64 {
        self.classes.get(class.0 as usize).map_or(0.0, |c| c.rate)
    }

    /// The load of `link` (bytes/s) as of the last [`Solver::solve`].
    pub fn link_load(&self, link: LinkId) -> f64 {
        let Some(list) = self.link_classes.get(link.0 as usize) else {
            return 0.0;
        };
        list.iter()
            .map(|&c| {
                let class = &self.classes[c as usize];
                if class.count == 0 {
                    return 0.0;
                }
                let i = class
                    .usage
                    .links
                    .binary_search_by_key(&link, |&(l, _)| l)
                    .unwrap_or(0);
                class.count as f64 * class.coef[i] * class.rate
            })
            .sum()
    }

    /// Re-solves the components touched since the last solve; returns the
    /// number of classes whose rate was recomputed.
    pub fn solve(&mut self) -> usize {
        if self.dead > COMPACT_MIN_DEAD && self.dead > self.classes.len() - self.dead {
            self.compact();
        }
        if self.dirty_links.is_empty() {
            return 0;
        }
        self.collect_component();
        self.fill();
        self.scratch.comp_classes.len()
    }

    /// Drops the classes without flows.
    fn compact(&mut self) {
        for (id, class) in self.classes.iter_mut().enumerate() {
            if class.count == 0 && class.listed {
                self.by_usage.remove(&class.usage);
                self.free.push(id as u32);
                class.listed = false;
            }
        }
        for list in &mut self.link_classes {
            list.clear();
        }
        for (id, class) in self.classes.iter().enumerate() {
            if class.count > 0 {
                for &(l, _) in &class.usage.links {
                    self.link_classes[l.0 as usize].push(id as u32);
                }
            }
        }
        self.free.sort_unstable_by(|a, b| b.cmp(a));
        self.dead = 0;
    }

    /// Gathers the links and live classes connected to a dirty link.
    fn collect_component(&mut self) {
        let s = &mut self.scratch;
        s.epoch = s.epoch.wrapping_add(1);
        if s.epoch == 0 {
            s.link_mark.iter_mut().for_each(|m| *m = 0);
            s.class_mark.iter_mut().for_each(|m| *m = 0);
            s.epoch = 1;
        }
        let epoch = s.epoch;
        s.comp_links.clear();
        s.comp_classes.clear();
        s.stack.clear();
        for l in self.dirty_links.drain(..) {
            if s.link_mark[l as usize] != epoch {
                s.link_mark[l as usize] = epoch;
                s.stack.push(l);
            }
        }
        while let Some(l) = s.stack.pop() {
            s.comp_links.push(l);
            for &c in &self.link_classes[l as usize] {
                let class = &self.classes[c as usize];
                if class.count == 0 || s.class_mark[c as usize] == epoch {
                    continue;
                }
                s.class_mark[c as usize] = epoch;
                s.comp_classes.push(c);
                for &(m, _) in &class.usage.links {
                    if s.link_mark[m.0 as usize] != epoch {
                        s.link_mark[m.0 as usize] = epoch;
                        s.stack.push(m.0);
                    }
                }
            }
        }
    }

    /// Progressive filling over the collected component.
    fn fill(&mut self) {
        let s = &mut self.scratch;
        for &l in &s.comp_links {
            let l = l as usize;
            s.frozen_load[l] = 0.0;
            s.demand[l] = 0.0;
            s.unfrozen[l] = 0;
        }
        for &c in &s.comp_classes {
            let class = &self.classes[c as usize];
            s.frozen[c as usize] = false;
            for (&(l, _), &coef) in class.usage.links.iter().zip(&class.coef) {
                s.demand[l.0 as usize] += class.count as f64 * coef;
                s.unfrozen[l.0 as usize] += 1;
            }
        }
        let mut heap = BinaryHeap::with_capacity(s.comp_links.len());
        for &l in &s.comp_links {
            let li = l as usize;
            if s.unfrozen[li] > 0 {
                s.version[li] = s.version[li].wrapping_add(1);
                heap.push(Pending {
                    level: self.capacity[li] / s.demand[li],
                    link: l,
                    version: s.version[li],
                });
            }
        }
        while let Some(p) = heap.pop() {
            let li = p.link as usize;
            if p.version != s.version[li] || s.unfrozen[li] == 0 {
                continue;
            }
            let level = p.level;
            for &c in &self.link_classes[li] {
                let ci = c as usize;
                let class = &mut self.classes[ci];
                if class.count == 0 || s.frozen[ci] || s.class_mark[ci] != s.epoch {
                    continue;
                }
                s.frozen[ci] = true;
                class.rate = level;
                let n = class.count as f64;
                for (&(m, _), &coef) in class.usage.links.iter().zip(&class.coef) {
                    let mi = m.0 as usize;
                    s.frozen_load[mi] += n * coef * level;
                    s.demand[mi] -= n * coef;
                    s.unfrozen[mi] -= 1;
                    s.version[mi] = s.version[mi].wrapping_add(1);
                    if s.unfrozen[mi] > 0 {
                        let rest = (self.capacity[mi] - s.frozen_load[mi]).max(0.0);
                        heap.push(Pending {
                            level: (rest / s.demand[mi]).max(level),
                            link: m.0,
                            version: s.version[mi],
                        });
                    }
                }
            }
        }
    }
}

fn check_capacity(link: u32, value: f64) -> Result<(), SolverError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(SolverError::BadCapacity { link, value })
    }
}

#[cfg(test)]
mod tests;
