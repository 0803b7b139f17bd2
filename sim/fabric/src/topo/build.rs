//! The `--topo` kinds: their keys, defaults, and the shapes they make.

use super::{Shape, Tiers, TopoError, Topology};
use crate::spec::{Key, Need, Params, Spec, SpecError};

/// The topology kinds `--topo` accepts.
pub const TOPO_KINDS: &[&str] = &["leaf-spine", "clos3"];

const NICS: Key = Key {
    name: "nics-per-host",
    need: Need::Default("1"),
    meaning: "NICs (rails) per host",
};
const GBPS: Key = Key {
    name: "gbps",
    need: Need::Default("400"),
    meaning: "NIC link speed, Gbit/s",
};
const HOSTS: Key = Key {
    name: "hosts-per-leaf",
    need: Need::Required,
    meaning: "hosts with a NIC on each leaf",
};
const RAILS: Key = Key {
    name: "rails",
    need: Need::Default("false"),
    meaning: "rail-optimised: NIC i of a host on rail i's leaf (else all on one leaf)",
};
const OVERSUB: Key = Key {
    name: "oversub",
    need: Need::Optional,
    meaning: "leaf oversubscription factor: sets the leaf uplink speed to NIC capacity / (uplinks x factor)",
};

/// The keys of `leaf-spine:`.
pub const LEAF_SPINE_KEYS: &[Key] = &[
    Key {
        name: "leaves",
        need: Need::Required,
        meaning: "leaf (ToR) switches",
    },
    Key {
        name: "spines",
        need: Need::Required,
        meaning: "spine switches; every leaf has one uplink to each",
    },
    HOSTS,
    NICS,
    GBPS,
    Key {
        name: "spine-gbps",
        need: Need::Optional,
        meaning: "leaf-spine link speed, Gbit/s (default: gbps)",
    },
    OVERSUB,
    RAILS,
];

/// The keys of `clos3:`.
pub const CLOS3_KEYS: &[Key] = &[
    Key {
        name: "pods",
        need: Need::Required,
        meaning: "pods",
    },
    Key {
        name: "leaves-per-pod",
        need: Need::Required,
        meaning: "leaves in each pod",
    },
    Key {
        name: "aggs-per-pod",
        need: Need::Required,
        meaning: "aggregation switches per pod; every leaf of the pod has one uplink to each",
    },
    Key {
        name: "cores",
        need: Need::Required,
        meaning: "core switches, a multiple of aggs-per-pod: plane a (cores/aggs-per-pod of them) links to aggregation switch a of every pod",
    },
    HOSTS,
    NICS,
    GBPS,
    Key {
        name: "agg-gbps",
        need: Need::Optional,
        meaning: "leaf-aggregation link speed, Gbit/s (default: gbps)",
    },
    Key {
        name: "core-gbps",
        need: Need::Optional,
        meaning: "aggregation-core link speed, Gbit/s (default: agg-gbps)",
    },
    OVERSUB,
    RAILS,
];

/// The shape a `leaf-spine:` or `clos3:` spec describes.
pub fn shape_of(spec: &Spec) -> Result<Shape, SpecError> {
    match spec.kind.as_str() {
        "leaf-spine" => leaf_spine(&spec.against(LEAF_SPINE_KEYS)?),
        "clos3" => clos3(&spec.against(CLOS3_KEYS)?),
        _ => Err(spec.unknown_kind(TOPO_KINDS)),
    }
}

/// The leaf uplink speed: given, or from `oversub`, or the NIC speed.
fn uplink_gbps(p: &Params<'_>, key: &str, shape: &Shape) -> Result<f64, SpecError> {
    let given = p.opt_f64(key)?;
    let oversub = p.opt_f64("oversub")?;
    match (given, oversub) {
        (Some(_), Some(_)) => Err(p.invalid(format!("give {key} or oversub, not both"))),
        (Some(g), None) => Ok(g),
        (None, Some(f)) => {
            let ports = shape.hosts_per_leaf * if shape.rails { 1 } else { shape.nics_per_host };
            Ok(f64::from(ports) * shape.nic_gbps / (f64::from(shape.aggs_per_pod) * f))
        }
        (None, None) => Ok(shape.nic_gbps),
    }
}

fn common(p: &Params<'_>, tiers: Tiers) -> Result<Shape, SpecError> {
    let gbps = p.f64("gbps")?;
    Ok(Shape {
        tiers,
        pods: 1,
        leaves_per_pod: 0,
        aggs_per_pod: 0,
        cores: 0,
        hosts_per_leaf: p.u32_min("hosts-per-leaf", 1)?,
        nics_per_host: p.u32_min("nics-per-host", 1)?,
        rails: p.bool("rails")?,
        nic_gbps: gbps,
        up_gbps: gbps,
        core_gbps: gbps,
    })
}

fn leaf_spine(p: &Params<'_>) -> Result<Shape, SpecError> {
    let mut shape = common(p, Tiers::Two)?;
    shape.leaves_per_pod = p.u32_min("leaves", 1)?;
    shape.aggs_per_pod = p.u32_min("spines", 1)?;
    shape.up_gbps = uplink_gbps(p, "spine-gbps", &shape)?;
    shape.core_gbps = shape.up_gbps;
    shape.validate().map_err(|m| p.invalid(m))?;
    Ok(shape)
}

fn clos3(p: &Params<'_>) -> Result<Shape, SpecError> {
    let mut shape = common(p, Tiers::Three)?;
    shape.pods = p.u32_min("pods", 1)?;
    shape.leaves_per_pod = p.u32_min("leaves-per-pod", 1)?;
    shape.aggs_per_pod = p.u32_min("aggs-per-pod", 1)?;
    shape.cores = p.u32_min("cores", 1)?;
    shape.up_gbps = uplink_gbps(p, "agg-gbps", &shape)?;
    shape.core_gbps = p.opt_f64("core-gbps")?.unwrap_or(shape.up_gbps);
    shape.validate().map_err(|m| p.invalid(m))?;
    Ok(shape)
}

impl Topology {
    /// Builds the fabric a parsed spec describes.
    pub fn from_spec(spec: &Spec) -> Result<Topology, TopoError> {
        Topology::new(shape_of(spec)?)
    }

    /// Builds the fabric a compact `--topo` spec describes, e.g.
    /// `leaf-spine:leaves=2,spines=8,hosts-per-leaf=8,nics-per-host=1,gbps=400`.
    pub fn parse(text: &str) -> Result<Topology, TopoError> {
        Topology::from_spec(&Spec::parse(text)?)
    }
}
