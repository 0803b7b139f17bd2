//! The vocabulary shared by the topology, the traffic, the schemes and the
//! engine.

/// A link of the fabric, one direction: an index into
/// `Topology::links`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkId(pub u32);

/// A node of the fabric (a NIC, a switch): an index into `Topology::nodes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// A traffic endpoint: one NIC of one host, numbered host by host
/// (`host * nics_per_host + nic`), an index into `Topology::endpoints()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Endpoint(pub u32);

/// The links a flow crosses, in order, NIC to NIC.
pub type Path = Vec<LinkId>;

/// One transfer of a phase: `bytes` from `src` to `dst` over `qps` queue
/// pairs (each QP a separate RoCE flow with its own UDP source port, so
/// ECMP may hash them apart; `bytes` split evenly).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    pub src: Endpoint,
    pub dst: Endpoint,
    pub bytes: u64,
    pub qps: u32,
}

/// Transfers that start together; the phase ends when all are done.
/// `repeat` times in a row (a ring AllReduce's 2(n-1) steps are one phase
/// repeated, since each step moves the same amount between the same
/// neighbours).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    pub transfers: Vec<Transfer>,
    pub repeat: u32,
}

/// One job's traffic: its phases, in order. Jobs of a workload run at the
/// same time, each through its own phases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobTraffic {
    pub name: String,
    pub phases: Vec<Phase>,
}
