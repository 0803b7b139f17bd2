//! The controller's pinning plan as the Janus NIC's table entries
//! (`janus fabric plan`): for every planned flow that crosses the spines,
//! the `pinned_flows` entry of `p4/roce_paths.p4` that makes the NIC send
//! the flow with the source port and uplink that land it on its planned
//! spine under the switch-hash model (`janus_nic::roce::fabric_spine`).
//!
//! The mapping (docs/fabric.md, "Co-design: from plan to NIC entries"):
//!
//! - fabric endpoint `e` is uplink `e mod nics-per-host` of the Janus NIC
//!   of host `e / nics-per-host`, with the fabric's address `10.0.0.0 + e`
//!   ([`crate::schemes::addressing`]); so `nics-per-host` is 1 or 2 (the
//!   NIC's uplinks) and every leaf has exactly 4 spines
//!   (`janus_nic::roce::SPINES_PER_UPLINK`): a two-tier fabric;
//! - the flow's QP numbers are the run's ([`Addressing`]); the entry's key
//!   is (destination address, remote QP), the BTH destination QP;
//! - the planned spine `s` and the uplink `u` are the NIC's `Path`
//!   `u * 4 + s`; the pin is `janus_nic::roce::pin_for_path` of it: the
//!   flow's Linux port moved to spine `s` by a spine delta.
//!
//! Flows within one leaf have one path and get no entry.

use std::fmt::Write;

use janus_nic::ports;
use janus_nic::roce::{self, Path as NicPath, RoceFlow, SPINES_PER_UPLINK};
use serde::Serialize;

use crate::engine::Network;
use crate::flow::Endpoint;
use crate::run::{RunConfig, RunError};
use crate::schemes::Scheme;
use crate::schemes::addressing::{Addressing, ipv4_of};
use crate::schemes::live::View;
use crate::schemes::planner::Plan;
use crate::topo::{NodeKind, Tiers, Topology};

/// The P4 names of the table and action (`p4/roce_paths.p4`), as the
/// entries file writes them.
pub const TABLE: &str = "pinned_flows";
pub const ACTION: &str = "pin";

/// Why a plan cannot be exported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExportError {
    /// The fabric is not one the NIC model describes.
    #[error("the fabric does not match the Janus NIC model: {0}")]
    Fabric(String),
    /// The workload could not be made.
    #[error(transparent)]
    Run(#[from] RunError),
    /// Two flows would need the same `pinned_flows` key with different pins.
    #[error("flows {a} and {b} both go to {dst} QP {qpn:#08x} with different pins")]
    Conflict {
        a: String,
        b: String,
        dst: std::net::Ipv4Addr,
        qpn: u32,
    },
}

/// One flow's entry, with what it stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PinnedFlow {
    /// `job/phase/transfer/qp` of the flow in the workload.
    pub flow: String,
    /// The sending NIC (host) and its uplink; the fabric endpoints.
    pub nic: u32,
    pub uplink: u32,
    pub src_endpoint: u32,
    pub dst_endpoint: u32,
    pub src_ip: String,
    pub dst_ip: String,
    pub local_qpn: u32,
    /// The key's QP: the BTH destination QP.
    pub remote_qpn: u32,
    /// The fabric spine the plan put the flow on (`spine<N>`).
    pub spine: u32,
    /// The NIC model's path, `uplink * 4 + spine`.
    pub nic_path: u32,
    /// The source port Linux would use, and the pinned one.
    pub default_src_port: u16,
    pub src_port: u16,
}

/// A plan's entries.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PinPlan {
    pub topo: String,
    pub traffic: String,
    pub seed: u64,
    /// One per flow that crosses the spines, in plan order.
    pub flows: Vec<PinnedFlow>,
    /// Flows within one leaf: no entry needed.
    pub same_leaf_flows: usize,
}

/// Checks that `topo` is a fabric of Janus NICs (see the module comment).
pub fn check_fabric(topo: &Topology) -> Result<(), ExportError> {
    let s = topo.shape();
    if s.tiers != Tiers::Two {
        return Err(ExportError::Fabric(
            "a three-tier fabric; the NIC model has leaves with 4 spines (use leaf-spine:...,spines=4)".into(),
        ));
    }
    if s.aggs_per_pod != SPINES_PER_UPLINK {
        return Err(ExportError::Fabric(format!(
            "{} spines; the NIC model's leaves have {SPINES_PER_UPLINK} (spines=4)",
            s.aggs_per_pod
        )));
    }
    if s.nics_per_host as usize > ports::UPLINKS.len() {
        return Err(ExportError::Fabric(format!(
            "{} NICs per host; a Janus NIC has {} uplinks (nics-per-host=1 or 2)",
            s.nics_per_host,
            ports::UPLINKS.len()
        )));
    }
    Ok(())
}

/// The spine a planned path crosses, if any.
fn spine_of(topo: &Topology, path: &[crate::flow::LinkId]) -> Option<u32> {
    path.iter()
        .find_map(|&l| match topo.node_kind(topo.link(l).to) {
            NodeKind::Spine { index } => Some(index),
            _ => None,
        })
}

/// Plans `seed`'s workload as the `pinned` scheme does and derives the
/// NIC entries; `topo_arg` and the config's traffic name the plan.
pub fn pin_plan(config: &RunConfig, topo_arg: &str, seed: u64) -> Result<PinPlan, ExportError> {
    let topo = &config.topo;
    check_fabric(topo)?;
    let jobs = config.jobs(Scheme::Pinned, seed)?;
    let net = Network::new(topo.capacities_bytes_per_s()).map_err(|source| RunError::Engine {
        scheme: Scheme::Pinned,
        seed,
        source,
    })?;
    let plan = Plan::build(View { topo, net: &net }, &jobs);
    let addressing = Addressing::new(seed);
    let nics = topo.shape().nics_per_host;
    let mut flows = Vec::new();
    let mut same_leaf_flows = 0;
    let mut keys = std::collections::HashMap::new();
    for p in plan.flows() {
        let Some(spine) = spine_of(topo, &p.path) else {
            same_leaf_flows += 1;
            continue;
        };
        let a = addressing.flow(p.flow, p.src, p.dst);
        let (nic, uplink) = (p.src.0 / nics, p.src.0 % nics);
        let roce_flow = RoceFlow::tagged(ipv4_of(p.src), ipv4_of(p.dst), a.local_qpn, a.remote_qpn);
        let path = NicPath::new(uplink, spine).ok_or_else(|| {
            ExportError::Fabric(format!("no NIC path for uplink {uplink}, spine {spine}"))
        })?;
        let pin = roce::pin_for_path(&roce_flow, path);
        let entry = PinnedFlow {
            flow: format!(
                "{}/{}/{}/{}",
                p.flow.job, p.flow.phase, p.flow.transfer, p.flow.qp
            ),
            nic,
            uplink,
            src_endpoint: p.src.0,
            dst_endpoint: p.dst.0,
            src_ip: ipv4_of(p.src).to_string(),
            dst_ip: ipv4_of(p.dst).to_string(),
            local_qpn: a.local_qpn.get(),
            remote_qpn: a.remote_qpn.get(),
            spine,
            nic_path: path.index() as u32,
            default_src_port: roce_flow.default_src_port(),
            src_port: pin.src_port,
        };
        let key = (p.dst, a.remote_qpn.get());
        match keys.get(&key) {
            Some(&i) => {
                let other: &PinnedFlow = &flows[i];
                if (other.src_port, other.uplink) != (entry.src_port, entry.uplink) {
                    return Err(ExportError::Conflict {
                        a: other.flow.clone(),
                        b: entry.flow,
                        dst: ipv4_of(p.dst),
                        qpn: key.1,
                    });
                }
            }
            None => {
                keys.insert(key, flows.len());
                flows.push(entry);
            }
        }
    }
    Ok(PinPlan {
        topo: topo_arg.to_string(),
        traffic: config.traffic.to_string(),
        seed,
        flows,
        same_leaf_flows,
    })
}

impl PinPlan {
    /// The entries file (`janus ctrl table add --file`, `janus sim run
    /// --entries`): one `add` line per flow, grouped under a comment per
    /// sending NIC.
    pub fn to_entries(&self) -> String {
        let mut out = format!(
            "# Pinning plan of janus fabric plan: --topo {} --traffic {} --seed {}\n\
             # p4/roce_paths.p4, RoceIngress.path_select.pinned_flows: key (IPv4\n\
             # destination, BTH destination QP), pin(sport, uplink). {} flows pinned,\n\
             # {} within one leaf (no entry). One file serves every NIC: each key\n\
             # names its flow's destination QP.\n",
            self.topo,
            self.traffic,
            self.seed,
            self.flows.len(),
            self.same_leaf_flows
        );
        let mut nic = None;
        for f in &self.flows {
            if nic != Some(f.nic) {
                nic = Some(f.nic);
                let _ = writeln!(out, "\n# NIC {}", f.nic);
            }
            // Writing to a String cannot fail.
            let _ = writeln!(
                out,
                "# flow {}: {} (endpoint {}, uplink {}) -> {} (endpoint {}), QPs {:#08x} -> {:#08x}, spine{} = NIC path {}, Linux port {:#06x}\n\
                 add {TABLE} hdr.ipv4.dst_addr:{:#010x} hdr.bth.dst_qp:{:#08x} {ACTION}(sport:{:#06x}, uplink:{})",
                f.flow,
                f.src_ip,
                f.src_endpoint,
                f.uplink,
                f.dst_ip,
                f.dst_endpoint,
                f.local_qpn,
                f.remote_qpn,
                f.spine,
                f.nic_path,
                f.default_src_port,
                u32::from(ipv4_of(Endpoint(f.dst_endpoint))),
                f.remote_qpn,
                f.src_port,
                f.uplink
            );
        }
        out
    }

    /// The plan as JSON (every field of [`PinnedFlow`]).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(topo: &str, traffic: &str) -> Result<PinPlan, ExportError> {
        let config =
            RunConfig::new(Topology::parse(topo).expect("topo"), traffic).expect("traffic");
        pin_plan(&config, topo, 1)
    }

    #[test]
    fn every_pin_lands_on_its_planned_spine() {
        let p = plan(
            "leaf-spine:leaves=2,spines=4,hosts-per-leaf=4,nics-per-host=2",
            "permutation:cross-leaf=true,qps=2",
        )
        .expect("plan");
        assert_eq!(p.flows.len(), 32);
        for f in &p.flows {
            let tuple = roce::FiveTuple::rocev2(
                f.src_ip.parse().unwrap(),
                f.dst_ip.parse().unwrap(),
                f.src_port,
            );
            assert_eq!(roce::fabric_spine(&tuple), f.spine, "{f:?}");
            assert_eq!(f.nic_path, f.uplink * 4 + f.spine);
            assert!(f.src_port >= roce::ROCE_SRC_PORT_MIN);
        }
        let text = p.to_entries();
        assert_eq!(text.lines().filter(|l| l.starts_with("add ")).count(), 32);
    }

    #[test]
    fn fabrics_unlike_the_nic_are_refused() {
        let e = plan(
            "leaf-spine:leaves=2,spines=8,hosts-per-leaf=2",
            "permutation",
        )
        .unwrap_err();
        assert!(e.to_string().contains("8 spines"), "{e}");
        let e = plan(
            "leaf-spine:leaves=2,spines=4,hosts-per-leaf=2,nics-per-host=4",
            "permutation",
        )
        .unwrap_err();
        assert!(e.to_string().contains("4 NICs per host"), "{e}");
        let e = plan(
            "clos3:pods=2,leaves-per-pod=2,aggs-per-pod=4,cores=4,hosts-per-leaf=2",
            "permutation",
        )
        .unwrap_err();
        assert!(e.to_string().contains("three-tier"), "{e}");
    }
}
