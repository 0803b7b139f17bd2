//! The Janus fabric simulator: what a RoCE path-selection scheme buys on a
//! Clos fabric, at cluster scale.
//!
//! A run is a [`topo::Topology`] (leaf-spine or three-tier Clos, hosts with
//! several NICs, link speeds, failures), a [`traffic::Workload`] (RoCE test
//! traffic and collectives placed on the NICs) and a path-selection scheme
//! ([`schemes`]). The [`engine`] plays the workload at flow level: every
//! flow follows one path (or several, for spraying), rates are max-min fair
//! ([`solver`]), and a collective's phases start when the previous phase's
//! flows are done. See docs/fabric.md.
//!
//! | module | job |
//! |---|---|
//! | [`spec`] | the compact `kind:key=value,...` specs of `--topo` and `--traffic` |
//! | [`topo`] | topologies, equal-cost next hops and paths, failures |
//! | [`traffic`] | traffic patterns, job placement, the phases they make |
//! | [`flow`] | what the engine moves: endpoints, flows, phases, paths |
//! | [`solver`] | max-min fair rates, incrementally |
//! | [`engine`] | the flow-level simulation of a workload |
//! | [`schemes`] | ECMP, more QPs, flowlets, pinning (controller and NIC), spraying |
//! | [`run`] | one run (scheme, seed) against the ideal, and sweeps |
//! | [`report`] | `janus fabric run`: parallel sweeps, summary, JSON, CSV, plots |
//! | [`export`] | `janus fabric plan`: the pinning plan as NIC table entries |

pub mod engine;
pub mod export;
pub mod flow;
pub mod report;
pub mod rng;
pub mod run;
pub mod schemes;
pub mod solver;
pub mod spec;
pub mod topo;
pub mod traffic;
