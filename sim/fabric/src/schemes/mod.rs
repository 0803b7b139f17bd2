//! Path-selection schemes: how each flow (one queue pair of one transfer)
//! gets its path. Every scheme is an engine [`Router`].
//!
//! | scheme | name | module |
//! |---|---|---|
//! | ECMP: every switch hashes the RoCEv2 5-tuple | `ecmp` | [`ecmp`] |
//! | ECMP with the transfers' queue pairs overridden | `ecmp-qps<N>` | [`ecmp`] |
//! | ECMP plus flowlet rebalancing | `flowlet` | [`flowlet`] |
//! | controller path pinning (collision-free planner) | `pinned` | [`planner`], [`pinned`] |
//! | NIC-side pinning (a UDP source port per flow) | `nic-pinned` | [`nic_pinned`] |
//! | ideal packet spraying, the upper bound | `spray` | [`spray`] |
//!
//! Shared pieces: [`addressing`] (IPv4 addresses, QP numbers, source
//! ports), [`hash`] (the seeded switch hash), [`live`] (next hops and
//! paths as the routers see them under failures). See docs/fabric.md,
//! "Schemes".

pub mod addressing;
pub mod ecmp;
pub mod flowlet;
pub mod hash;
pub mod live;
pub mod nic_pinned;
pub mod pinned;
pub mod planner;
pub mod spray;

use std::fmt;
use std::str::FromStr;

use crate::engine::{Network, Router};
use crate::flow::JobTraffic;
use crate::topo::Topology;

pub use hash::HashSeeding;

/// Why a scheme list was refused; the message names the bad part.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SchemeError {
    /// A name that is no scheme.
    #[error("unknown scheme \"{name}\" (known: {known})")]
    Unknown { name: String, known: String },
    /// `ecmp-qps<N>` with an `N` that is not a positive integer.
    #[error("scheme \"{name}\": \"{qps}\" is not a number of queue pairs (1 or more)")]
    BadQps { name: String, qps: String },
    /// An empty list, or an empty entry in it.
    #[error("empty scheme name in \"{list}\"")]
    Empty { list: String },
}

/// A path-selection scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scheme {
    /// ECMP with the workload's queue pairs.
    Ecmp,
    /// ECMP with every transfer split over this many queue pairs.
    EcmpQps(u32),
    /// ECMP, and flows moved off the most loaded links at flowlet gaps.
    Flowlet,
    /// The controller's planned path per flow.
    Pinned,
    /// The planned paths, realised by a UDP source port per flow.
    NicPinned,
    /// Every flow sprayed equally over its equal-cost paths.
    Spray,
}

/// The fixed scheme names (`ecmp-qps<N>` is the pattern of the rest).
pub const SCHEME_NAMES: &[&str] = &[
    "ecmp",
    "ecmp-qps<N>",
    "flowlet",
    "pinned",
    "nic-pinned",
    "spray",
];

impl Scheme {
    /// Parses a comma-separated list, e.g. `ecmp,ecmp-qps4,pinned`.
    pub fn parse_list(list: &str) -> Result<Vec<Scheme>, SchemeError> {
        list.split(',')
            .map(|part| {
                let part = part.trim();
                if part.is_empty() {
                    Err(SchemeError::Empty {
                        list: list.to_string(),
                    })
                } else {
                    part.parse()
                }
            })
            .collect()
    }

    /// The queue pairs per transfer this scheme imposes, if any.
    pub fn qps_override(self) -> Option<u32> {
        match self {
            Scheme::EcmpQps(n) => Some(n),
            _ => None,
        }
    }

    /// The scheme's router for one run.
    pub fn router<'a>(self, ctx: &RouterContext<'a>) -> Box<dyn SchemeRouter + 'a> {
        match self {
            Scheme::Ecmp | Scheme::EcmpQps(_) => Box::new(ecmp::Ecmp::new(ctx)),
            Scheme::Flowlet => Box::new(flowlet::Flowlet::new(ctx)),
            Scheme::Pinned => Box::new(pinned::Pinned::new(ctx)),
            Scheme::NicPinned => Box::new(nic_pinned::NicPinned::new(ctx)),
            Scheme::Spray => Box::new(spray::Spray::new(ctx, ctx.options.spray_cap)),
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scheme::Ecmp => f.write_str("ecmp"),
            Scheme::EcmpQps(n) => write!(f, "ecmp-qps{n}"),
            Scheme::Flowlet => f.write_str("flowlet"),
            Scheme::Pinned => f.write_str("pinned"),
            Scheme::NicPinned => f.write_str("nic-pinned"),
            Scheme::Spray => f.write_str("spray"),
        }
    }
}

impl FromStr for Scheme {
    type Err = SchemeError;

    fn from_str(name: &str) -> Result<Scheme, SchemeError> {
        Ok(match name {
            "ecmp" => Scheme::Ecmp,
            "flowlet" => Scheme::Flowlet,
            "pinned" => Scheme::Pinned,
            "nic-pinned" => Scheme::NicPinned,
            "spray" => Scheme::Spray,
            _ => match name.strip_prefix("ecmp-qps") {
                Some(n) => match n.parse::<u32>() {
                    Ok(q) if q >= 1 => Scheme::EcmpQps(q),
                    _ => {
                        return Err(SchemeError::BadQps {
                            name: name.to_string(),
                            qps: n.to_string(),
                        });
                    }
                },
                None => {
                    return Err(SchemeError::Unknown {
                        name: name.to_string(),
                        known: SCHEME_NAMES.join(", "),
                    });
                }
            },
        })
    }
}

/// Knobs of the schemes that are not part of their names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SchemeOptions {
    /// How the switches seed their hash.
    pub hash: HashSeeding,
    /// Period (s) of the flowlet rebalancing.
    pub flowlet_period: f64,
    /// Most paths a sprayed flow is split over (see [`spray`]).
    pub spray_cap: usize,
}

impl Default for SchemeOptions {
    /// Per-switch hash seeds, a 100 us flowlet period, sprays over at most
    /// 64 paths.
    fn default() -> Self {
        SchemeOptions {
            hash: HashSeeding::PerSwitch,
            flowlet_period: 100e-6,
            spray_cap: 64,
        }
    }
}

/// What a router is built from.
#[derive(Debug, Clone, Copy)]
pub struct RouterContext<'a> {
    /// The fabric, with its static failures.
    pub topo: &'a Topology,
    /// The routers' initial view of the links.
    pub net: &'a Network,
    /// The traffic as the engine will play it (after any qps override).
    pub jobs: &'a [JobTraffic],
    /// The run's seed (QP numbers, switch hash seeds).
    pub seed: u64,
    pub options: SchemeOptions,
}

/// How many flows the NIC-side pinning found a source port for, and what
/// the search cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PortSearch {
    /// Flows planned (one per queue pair of a transfer).
    pub flows: u64,
    /// Flows with a port whose hashes land on the planned path.
    pub found: u64,
    /// Flows without one, left on their ECMP path.
    pub fallback: u64,
    /// Ports tried, over all flows (each try is one hash per switch hop).
    pub tries: u64,
    /// The most ports tried for one flow.
    pub max_tries: u64,
}

/// What the pinning planner did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlanStats {
    /// Flows planned.
    pub flows: u64,
    /// Flows placed by the edge colouring (two tiers, no failures).
    pub coloured: u64,
    /// Flows placed by the greedy least-loaded rule.
    pub greedy: u64,
    /// The most planned flows of one phase on one link.
    pub max_link_flows: u32,
    /// Flows replanned because a failure cut their path.
    pub replanned: u64,
}

/// Per-scheme facts about a run, beyond what the engine measures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Diagnostics {
    /// The planner's work (pinned, nic-pinned).
    pub plan: Option<PlanStats>,
    /// The source-port search (nic-pinned).
    pub ports: Option<PortSearch>,
    /// Flows moved by flowlet rebalancing.
    pub flowlet_moves: u64,
}

/// A scheme's router: an engine [`Router`] that can report
/// [`Diagnostics`] after the run.
pub trait SchemeRouter: Router {
    /// What the scheme did so far.
    fn diagnostics(&self) -> Diagnostics;
}

/// A flow as the schemes key it: the engine's [`crate::engine::FlowKey`]
/// without the repetition (a queue pair keeps its numbers, source port
/// and pinned path over its repetitions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FlowRef {
    pub job: u32,
    pub phase: u32,
    pub transfer: u32,
    pub qp: u32,
}

impl From<&crate::engine::FlowKey> for FlowRef {
    fn from(k: &crate::engine::FlowKey) -> FlowRef {
        FlowRef {
            job: k.job,
            phase: k.phase,
            transfer: k.transfer,
            qp: k.qp,
        }
    }
}

#[cfg(test)]
mod tests;
