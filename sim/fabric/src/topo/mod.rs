//! Fabric topologies: two-tier leaf-spine and three-tier Clos, hosts with
//! several NICs, link speeds, failures, and up-down equal-cost routing.
//!
//! Everything is laid out by arithmetic from a [`Shape`], so a fabric of
//! 32k endpoints costs a few arrays:
//!
//! - nodes: the NICs first (node id = endpoint index, host-major), then the
//!   leaves, then the tier-2 switches (spines, or the pods' aggregation
//!   switches), then the core switches;
//! - cables: one per NIC (NIC to its leaf), one per (leaf, tier-2 switch of
//!   its pod), one per (aggregation switch, core of its plane); cable `k` is
//!   the two directed links `2k` (upward) and `2k+1` (downward).
//!
//! A two-tier fabric is the one-pod case of the three-tier layout without
//! cores. See docs/fabric.md, "Topologies".

mod build;
mod file;
mod routing;

use std::fmt;

use crate::flow::{Endpoint, LinkId, NodeId};
use crate::spec::SpecError;

pub use build::{CLOS3_KEYS, LEAF_SPINE_KEYS, TOPO_KINDS};
pub use file::FileFormat;
pub use routing::Paths;

/// Why a topology could not be built or changed.
#[derive(Debug, thiserror::Error)]
pub enum TopoError {
    /// A bad compact spec, or a bad key in a file.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A shape that makes no sense (from [`Topology::new`]).
    #[error("bad topology: {0}")]
    Shape(String),
    /// The topology file could not be read.
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// The topology file is not valid JSON or TOML, or not shaped as one.
    #[error("{path}: {message}")]
    File { path: String, message: String },
    /// A failure names a node that does not exist.
    #[error("unknown node \"{0}\" (nodes are nic<i>, leaf<i>, spine<i>, agg<i>, core<i>)")]
    UnknownNode(String),
    /// A failure names two nodes with no cable between them.
    #[error("no cable between {0} and {1}")]
    NoCable(String, String),
    /// A link id out of range.
    #[error("no link {0}")]
    NoLink(u32),
    /// A node id out of range.
    #[error("no node {0}")]
    NoNode(u32),
}

/// Whether the fabric has two tiers (leaf, spine) or three (leaf,
/// aggregation, core).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tiers {
    Two,
    Three,
}

/// The parameters a fabric is laid out from.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    pub tiers: Tiers,
    /// Pods (1 for a two-tier fabric).
    pub pods: u32,
    /// Leaves in each pod (all leaves, for a two-tier fabric).
    pub leaves_per_pod: u32,
    /// Spines (two tiers) or aggregation switches per pod (three tiers);
    /// every leaf has one uplink to each.
    pub aggs_per_pod: u32,
    /// Core switches (three tiers; 0 for two). They form `aggs_per_pod`
    /// planes of `cores / aggs_per_pod`; aggregation switch `a` of every
    /// pod has one uplink to each core of plane `a`.
    pub cores: u32,
    /// Hosts with a NIC on each leaf.
    pub hosts_per_leaf: u32,
    /// NICs (rails) per host.
    pub nics_per_host: u32,
    /// Rail-optimised wiring: NIC `i` of a host attaches to rail `i`'s
    /// leaf (leaves come in groups of `nics_per_host`, one per rail, shared
    /// by `hosts_per_leaf` hosts). Otherwise all NICs of a host attach to
    /// the same leaf.
    pub rails: bool,
    /// NIC link speed, Gbit/s.
    pub nic_gbps: f64,
    /// Leaf to spine/aggregation link speed, Gbit/s.
    pub up_gbps: f64,
    /// Aggregation to core link speed, Gbit/s (unused for two tiers).
    pub core_gbps: f64,
}

/// What a node is, with its index among its kind (global, not per pod).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    Nic { host: u32, nic: u32 },
    Leaf { index: u32, pod: u32 },
    Spine { index: u32 },
    Agg { index: u32, pod: u32 },
    Core { index: u32 },
}

/// One directed link.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Link {
    pub from: NodeId,
    pub to: NodeId,
    pub gbps: f64,
}

/// A failure to apply: a node, a whole cable (both directions), or one
/// direction of a cable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    Node(NodeId),
    Cable(LinkId),
    Link(LinkId),
}

/// A fabric: nodes, directed links with capacities, liveness, and the
/// routing tables derived from them.
#[derive(Debug, Clone)]
pub struct Topology {
    shape: Shape,
    links: Vec<Link>,
    link_live: Vec<bool>,
    node_live: Vec<bool>,
    /// Global leaf index of each endpoint.
    nic_leaf: Vec<u32>,
    routes: routing::Tables,
}

/// Counts of a layout, derived from its shape.
#[derive(Debug, Clone, Copy)]
struct Counts {
    endpoints: u32,
    leaves: u32,
    aggs: u32,
    cores: u32,
    /// Cores per plane (uplinks of an aggregation switch).
    plane: u32,
}

impl Shape {
    /// Checks that the shape is buildable; the message names the bad
    /// parameter.
    pub fn validate(&self) -> Result<(), String> {
        let min1 = [
            ("pods", self.pods),
            ("leaves", self.leaves_per_pod),
            (
                match self.tiers {
                    Tiers::Two => "spines",
                    Tiers::Three => "aggs-per-pod",
                },
                self.aggs_per_pod,
            ),
            ("hosts-per-leaf", self.hosts_per_leaf),
            ("nics-per-host", self.nics_per_host),
        ];
        for (name, v) in min1 {
            if v == 0 {
                return Err(format!("{name} must be at least 1"));
            }
        }
        for (name, v) in [
            ("gbps", self.nic_gbps),
            ("uplink gbps", self.up_gbps),
            ("core gbps", self.core_gbps),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("{name} must be a positive number"));
            }
        }
        match self.tiers {
            Tiers::Two if self.pods != 1 || self.cores != 0 => {
                return Err("a two-tier fabric has one pod and no cores".into());
            }
            Tiers::Three if self.cores == 0 || !self.cores.is_multiple_of(self.aggs_per_pod) => {
                return Err(format!(
                    "cores={} must be a positive multiple of aggs-per-pod={} (one plane of cores per aggregation switch)",
                    self.cores, self.aggs_per_pod
                ));
            }
            _ => {}
        }
        if self.rails && !self.leaves_per_pod.is_multiple_of(self.nics_per_host) {
            return Err(format!(
                "rails=true needs leaves{} to be a multiple of nics-per-host={} (one leaf per rail)",
                if self.tiers == Tiers::Three {
                    "-per-pod"
                } else {
                    ""
                },
                self.nics_per_host
            ));
        }
        // Keep every id in u32 and the routing tables within ~1 GiB.
        let leaves = u64::from(self.pods) * u64::from(self.leaves_per_pod);
        let nic_ports = u64::from(self.hosts_per_leaf)
            * if self.rails {
                1
            } else {
                u64::from(self.nics_per_host)
            };
        let endpoints = leaves * nic_ports;
        let aggs = u64::from(self.pods) * u64::from(self.aggs_per_pod);
        let switches = leaves + aggs + u64::from(self.cores);
        let cables = endpoints
            + leaves * u64::from(self.aggs_per_pod)
            + aggs * u64::from(self.cores / self.aggs_per_pod.max(1));
        if endpoints > 1 << 24 || cables > 1 << 28 || switches * leaves > 1 << 28 {
            return Err(format!(
                "too large: {endpoints} endpoints, {switches} switches, {cables} cables"
            ));
        }
        Ok(())
    }

    fn counts(&self) -> Counts {
        let leaves = self.pods * self.leaves_per_pod;
        let ports = self.hosts_per_leaf * if self.rails { 1 } else { self.nics_per_host };
        Counts {
            endpoints: leaves * ports,
            leaves,
            aggs: self.pods * self.aggs_per_pod,
            cores: self.cores,
            plane: self.cores / self.aggs_per_pod,
        }
    }

    /// The leaf (global index) endpoint `e` attaches to.
    fn leaf_of(&self, e: u32) -> u32 {
        let host = e / self.nics_per_host;
        if self.rails {
            (host / self.hosts_per_leaf) * self.nics_per_host + e % self.nics_per_host
        } else {
            host / self.hosts_per_leaf
        }
    }
}

impl Topology {
    /// Lays out a fabric with every element live.
    pub fn new(shape: Shape) -> Result<Topology, TopoError> {
        shape.validate().map_err(TopoError::Shape)?;
        let c = shape.counts();
        let nic_leaf: Vec<u32> = (0..c.endpoints).map(|e| shape.leaf_of(e)).collect();
        let leaf_node = |l: u32| NodeId(c.endpoints + l);
        let agg_node = |g: u32| NodeId(c.endpoints + c.leaves + g);
        let core_node = |k: u32| NodeId(c.endpoints + c.leaves + c.aggs + k);
        let mut links = Vec::new();
        let mut cable = |lower: NodeId, upper: NodeId, gbps: f64| {
            links.push(Link {
                from: lower,
                to: upper,
                gbps,
            });
            links.push(Link {
                from: upper,
                to: lower,
                gbps,
            });
        };
        for e in 0..c.endpoints {
            cable(NodeId(e), leaf_node(nic_leaf[e as usize]), shape.nic_gbps);
        }
        for l in 0..c.leaves {
            let pod = l / shape.leaves_per_pod;
            for a in 0..shape.aggs_per_pod {
                cable(
                    leaf_node(l),
                    agg_node(pod * shape.aggs_per_pod + a),
                    shape.up_gbps,
                );
            }
        }
        for g in 0..c.aggs {
            let a = g % shape.aggs_per_pod;
            for j in 0..c.plane {
                cable(agg_node(g), core_node(a * c.plane + j), shape.core_gbps);
            }
        }
        let nodes = (c.endpoints + c.leaves + c.aggs + c.cores) as usize;
        let mut topo = Topology {
            link_live: vec![true; links.len()],
            node_live: vec![true; nodes],
            links,
            nic_leaf,
            routes: routing::Tables::default(),
            shape,
        };
        topo.recompute();
        Ok(topo)
    }

    /// The shape this fabric was laid out from.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    fn counts(&self) -> Counts {
        self.shape.counts()
    }

    /// The traffic endpoints (NICs), host-major: `host * nics_per_host + nic`.
    pub fn endpoints(&self) -> impl ExactSizeIterator<Item = Endpoint> + use<> {
        (0..self.counts().endpoints).map(Endpoint)
    }

    /// The number of endpoints.
    pub fn endpoint_count(&self) -> u32 {
        self.counts().endpoints
    }

    /// The number of hosts.
    pub fn hosts(&self) -> u32 {
        self.counts().endpoints / self.shape.nics_per_host
    }

    /// The host of an endpoint.
    pub fn host_of(&self, e: Endpoint) -> u32 {
        e.0 / self.shape.nics_per_host
    }

    /// The global index of the leaf an endpoint attaches to.
    pub fn leaf_of(&self, e: Endpoint) -> u32 {
        self.nic_leaf[e.0 as usize]
    }

    /// The number of leaves.
    pub fn leaves(&self) -> u32 {
        self.counts().leaves
    }

    /// The node of an endpoint (its NIC).
    pub fn nic_node(&self, e: Endpoint) -> NodeId {
        NodeId(e.0)
    }

    /// The number of nodes (NICs and switches).
    pub fn node_count(&self) -> usize {
        self.node_live.len()
    }

    /// The directed links, indexed by [`LinkId`].
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// One link.
    pub fn link(&self, id: LinkId) -> &Link {
        &self.links[id.0 as usize]
    }

    /// The other direction of a link's cable.
    pub fn reverse(&self, id: LinkId) -> LinkId {
        LinkId(id.0 ^ 1)
    }

    /// What a node is.
    pub fn node_kind(&self, id: NodeId) -> NodeKind {
        let c = self.counts();
        let s = &self.shape;
        let mut i = id.0;
        if i < c.endpoints {
            return NodeKind::Nic {
                host: i / s.nics_per_host,
                nic: i % s.nics_per_host,
            };
        }
        i -= c.endpoints;
        if i < c.leaves {
            return NodeKind::Leaf {
                index: i,
                pod: i / s.leaves_per_pod,
            };
        }
        i -= c.leaves;
        if i < c.aggs {
            return match s.tiers {
                Tiers::Two => NodeKind::Spine { index: i },
                Tiers::Three => NodeKind::Agg {
                    index: i,
                    pod: i / s.aggs_per_pod,
                },
            };
        }
        NodeKind::Core { index: i - c.aggs }
    }

    /// A node's name: `nic<i>`, `leaf<i>`, `spine<i>`, `agg<i>`, `core<i>`
    /// (global indices).
    pub fn node_name(&self, id: NodeId) -> String {
        match self.node_kind(id) {
            NodeKind::Nic { .. } => format!("nic{}", id.0),
            NodeKind::Leaf { index, .. } => format!("leaf{index}"),
            NodeKind::Spine { index } => format!("spine{index}"),
            NodeKind::Agg { index, .. } => format!("agg{index}"),
            NodeKind::Core { index } => format!("core{index}"),
        }
    }

    /// The node a name (as [`Topology::node_name`] writes it) refers to.
    pub fn node_by_name(&self, name: &str) -> Result<NodeId, TopoError> {
        let c = self.counts();
        let split = name
            .find(|ch: char| ch.is_ascii_digit())
            .unwrap_or(name.len());
        let (prefix, digits) = name.split_at(split);
        let unknown = || TopoError::UnknownNode(name.to_string());
        let i: u32 = digits.parse().map_err(|_| unknown())?;
        let (base, count) = match (prefix, self.shape.tiers) {
            ("nic", _) => (0, c.endpoints),
            ("leaf", _) => (c.endpoints, c.leaves),
            ("spine", Tiers::Two) | ("agg", Tiers::Three) => (c.endpoints + c.leaves, c.aggs),
            ("core", Tiers::Three) => (c.endpoints + c.leaves + c.aggs, c.cores),
            _ => return Err(unknown()),
        };
        if i >= count {
            return Err(unknown());
        }
        Ok(NodeId(base + i))
    }

    /// The upward link of the cable between two nodes (either order).
    pub fn cable_between(&self, a: NodeId, b: NodeId) -> Result<LinkId, TopoError> {
        let up = self
            .links
            .iter()
            .step_by(2)
            .position(|l| (l.from == a && l.to == b) || (l.from == b && l.to == a));
        up.map(|k| LinkId(2 * k as u32))
            .ok_or_else(|| TopoError::NoCable(self.node_name(a), self.node_name(b)))
    }

    /// Link capacities in bytes per second, indexed by [`LinkId`]; a link
    /// that is down (failed, or an end node failed) has capacity 0.
    pub fn capacities_bytes_per_s(&self) -> Vec<f64> {
        (0..self.links.len())
            .map(|i| {
                if self.usable(LinkId(i as u32)) {
                    self.links[i].gbps * 1e9 / 8.0
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// Whether a link and both its end nodes are live.
    pub fn usable(&self, id: LinkId) -> bool {
        let l = &self.links[id.0 as usize];
        self.link_live[id.0 as usize]
            && self.node_live[l.from.0 as usize]
            && self.node_live[l.to.0 as usize]
    }

    /// Whether a node is live.
    pub fn node_live(&self, id: NodeId) -> bool {
        self.node_live[id.0 as usize]
    }

    fn check_link(&self, id: LinkId) -> Result<(), TopoError> {
        if (id.0 as usize) < self.links.len() {
            Ok(())
        } else {
            Err(TopoError::NoLink(id.0))
        }
    }

    fn check_node(&self, id: NodeId) -> Result<(), TopoError> {
        if (id.0 as usize) < self.node_live.len() {
            Ok(())
        } else {
            Err(TopoError::NoNode(id.0))
        }
    }

    /// Marks failures (`live = false`) or restores (`live = true`) and
    /// recomputes the routing tables once.
    pub fn set_live(&mut self, elements: &[Failure], live: bool) -> Result<(), TopoError> {
        for f in elements {
            match *f {
                Failure::Node(n) => self.check_node(n)?,
                Failure::Cable(l) | Failure::Link(l) => self.check_link(l)?,
            }
        }
        for f in elements {
            match *f {
                Failure::Node(n) => self.node_live[n.0 as usize] = live,
                Failure::Link(l) => self.link_live[l.0 as usize] = live,
                Failure::Cable(l) => {
                    self.link_live[l.0 as usize] = live;
                    self.link_live[(l.0 ^ 1) as usize] = live;
                }
            }
        }
        self.recompute();
        Ok(())
    }

    /// Fails one direction of a cable.
    pub fn fail_link(&mut self, id: LinkId) -> Result<(), TopoError> {
        self.set_live(&[Failure::Link(id)], false)
    }

    /// Fails both directions of the cable `id` belongs to.
    pub fn fail_cable(&mut self, id: LinkId) -> Result<(), TopoError> {
        self.set_live(&[Failure::Cable(id)], false)
    }

    /// Fails a node (a switch, or a NIC): all its links go down with it.
    pub fn fail_node(&mut self, id: NodeId) -> Result<(), TopoError> {
        self.set_live(&[Failure::Node(id)], false)
    }

    /// Brings every link and node back.
    pub fn restore_all(&mut self) {
        self.link_live.fill(true);
        self.node_live.fill(true);
        self.recompute();
    }

    fn recompute(&mut self) {
        self.routes = routing::Tables::compute(self);
    }

    /// Bisection bandwidth in Gbit/s: the smallest of the capacities that
    /// a cut into two halves crosses at each tier (half the NIC capacity,
    /// half the leaf uplinks, half the core links), all live.
    pub fn bisection_gbps(&self) -> f64 {
        let c = self.counts();
        let s = &self.shape;
        let mut cut = f64::from(c.endpoints) * s.nic_gbps;
        cut = cut.min(f64::from(c.leaves) * f64::from(s.aggs_per_pod) * s.up_gbps);
        if s.tiers == Tiers::Three && s.pods > 1 {
            cut = cut.min(f64::from(c.aggs) * f64::from(c.plane) * s.core_gbps);
        }
        cut / 2.0
    }

    /// Oversubscription at the leaves: NIC capacity down over uplink
    /// capacity up (1.0 means non-blocking).
    pub fn leaf_oversubscription(&self) -> f64 {
        let s = &self.shape;
        let down = f64::from(self.counts().endpoints / self.counts().leaves) * s.nic_gbps;
        down / (f64::from(s.aggs_per_pod) * s.up_gbps)
    }

    /// Oversubscription at the aggregation switches (three tiers): leaf
    /// links down over core links up.
    pub fn agg_oversubscription(&self) -> Option<f64> {
        let s = &self.shape;
        (s.tiers == Tiers::Three).then(|| {
            f64::from(s.leaves_per_pod) * s.up_gbps / (f64::from(self.counts().plane) * s.core_gbps)
        })
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.counts();
        let s = &self.shape;
        match s.tiers {
            Tiers::Two => write!(
                f,
                "leaf-spine: {} leaves, {} spines",
                c.leaves, s.aggs_per_pod
            )?,
            Tiers::Three => write!(
                f,
                "clos3: {} pods x ({} leaves, {} aggs), {} cores",
                s.pods, s.leaves_per_pod, s.aggs_per_pod, c.cores
            )?,
        }
        writeln!(
            f,
            "; {} hosts x {} NICs = {} endpoints{}",
            self.hosts(),
            s.nics_per_host,
            c.endpoints,
            if s.rails { " (rail-optimised)" } else { "" }
        )?;
        writeln!(
            f,
            "{} nodes, {} links ({} cables); NIC {} Gbit/s, leaf uplinks {} Gbit/s{}",
            self.node_count(),
            self.links.len(),
            self.links.len() / 2,
            s.nic_gbps,
            s.up_gbps,
            if s.tiers == Tiers::Three {
                format!(", core links {} Gbit/s", s.core_gbps)
            } else {
                String::new()
            }
        )?;
        write!(
            f,
            "bisection {} Gbit/s; oversubscription leaf {:.2}:1",
            self.bisection_gbps(),
            self.leaf_oversubscription()
        )?;
        if let Some(o) = self.agg_oversubscription() {
            write!(f, ", agg {o:.2}:1")?;
        }
        let dead_links = self.link_live.iter().filter(|l| !**l).count();
        let dead_nodes = self.node_live.iter().filter(|n| !**n).count();
        if dead_links + dead_nodes > 0 {
            write!(
                f,
                "\nfailed: {dead_links} links, {dead_nodes} nodes; {} leaf pairs unreachable",
                self.routes.unreachable_leaf_pairs(self)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
