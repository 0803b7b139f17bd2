//! Traffic: the `--traffic` kinds (RoCE test traffic and collectives), job
//! placement, and the phases they make.
//!
//! A rank is one endpoint (a GPU with its own NIC, rail-optimised
//! clusters). Every choice that is random (the permutation, the pairing,
//! the placement) draws from a [`Rng`] seeded by the run's seed, so a seed
//! gives the same workload every time. See docs/fabric.md, "Traffic".

use crate::flow::{Endpoint, JobTraffic, Phase, Transfer};
use crate::rng::Rng;
use crate::spec::{Key, Need, Params, Spec, SpecError};
use crate::topo::Topology;

/// The traffic kinds `--traffic` accepts.
pub const TRAFFIC_KINDS: &[&str] = &["permutation", "pairs", "allreduce", "alltoall"];

const QPS: Key = Key {
    name: "qps",
    need: Need::Default("1"),
    meaning: "queue pairs per transfer (separate RoCE flows, bytes split evenly)",
};
const SIZE: Key = Key {
    name: "size",
    need: Need::Default("1GiB"),
    meaning: "bytes per transfer (permutation, pairs); the buffer per rank (collectives)",
};
const ORDER: Key = Key {
    name: "order",
    need: Need::Default("contiguous"),
    meaning: "placement of ranks on endpoints: contiguous, random or fragmented",
};
const RANKS: Key = Key {
    name: "ranks",
    need: Need::Optional,
    meaning: "ranks per job (default: all endpoints shared equally by the jobs)",
};
const JOBS: Key = Key {
    name: "jobs",
    need: Need::Default("1"),
    meaning: "jobs (tenants) running the same collective at once",
};
const INTRA_HOST: Key = Key {
    name: "intra-host",
    need: Need::Default("fabric"),
    meaning: "transfers between ranks of one host: fabric (cross the leaf like any other) or free (NVLink, not simulated)",
};

/// The keys of `permutation:`.
pub const PERMUTATION_KEYS: &[Key] = &[
    QPS,
    SIZE,
    Key {
        name: "cross-leaf",
        need: Need::Default("false"),
        meaning: "bisection permutation: leaf i and leaf i + L/2 exchange, every endpoint of one sending to a distinct endpoint of the other (L leaves, even, equal endpoints per leaf)",
    },
];

/// The keys of `pairs:`.
pub const PAIRS_KEYS: &[Key] = &[
    QPS,
    SIZE,
    Key {
        name: "direction",
        need: Need::Default("one-way"),
        meaning: "one-way (the first of a pair writes to the second, ib_write_bw) or both (ib_write_bw -b)",
    },
];

/// The keys of `allreduce:`.
pub const ALLREDUCE_KEYS: &[Key] = &[
    SIZE,
    Key {
        name: "algo",
        need: Need::Default("ring"),
        meaning: "ring (NCCL ring) or tree (binary tree: reduce up, broadcast down)",
    },
    ORDER,
    QPS,
    RANKS,
    JOBS,
    INTRA_HOST,
];

/// The keys of `alltoall:`.
pub const ALLTOALL_KEYS: &[Key] = &[SIZE, ORDER, QPS, RANKS, JOBS, INTRA_HOST];

/// How a job's ranks are laid onto endpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Endpoints in leaf order (then endpoint order): ring neighbours share
    /// a leaf except at leaf boundaries; job `j` takes the `j`-th block.
    Contiguous,
    /// A seeded shuffle of all endpoints; job `j` takes the `j`-th block.
    Random,
    /// Whole hosts, shuffled and dealt round-robin to the jobs, so every
    /// job is scattered over many leaves interleaved with the others; a
    /// job's ranks follow its hosts in the dealt order, NIC by NIC.
    Fragmented,
}

const ORDERS: &[&str] = &["contiguous", "random", "fragmented"];
const ORDER_VALUES: [Order; 3] = [Order::Contiguous, Order::Random, Order::Fragmented];

/// A job's metadata, for reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobMeta {
    pub name: String,
    /// Rank `i` runs on `ranks[i]`.
    pub ranks: Vec<Endpoint>,
    /// The placement, for collectives.
    pub order: Option<Order>,
}

/// The traffic of a run: every job's phases, and who runs where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workload {
    pub jobs: Vec<JobTraffic>,
    pub meta: Vec<JobMeta>,
}

/// Random streams of one seed, one per use.
const STREAM_PERMUTATION: u64 = 1;
const STREAM_PAIRS: u64 = 2;
const STREAM_PLACEMENT: u64 = 3;

impl Workload {
    /// Builds the workload a compact `--traffic` spec describes on `topo`,
    /// e.g. `allreduce:size=1GiB,order=random,qps=1`.
    pub fn parse(text: &str, topo: &Topology, seed: u64) -> Result<Workload, SpecError> {
        Workload::build(&Spec::parse(text)?, topo, seed)
    }

    /// Builds the workload a parsed spec describes on `topo`.
    pub fn build(spec: &Spec, topo: &Topology, seed: u64) -> Result<Workload, SpecError> {
        match spec.kind.as_str() {
            "permutation" => permutation(&spec.against(PERMUTATION_KEYS)?, topo, seed),
            "pairs" => pairs(&spec.against(PAIRS_KEYS)?, topo, seed),
            "allreduce" => collective(&spec.against(ALLREDUCE_KEYS)?, topo, seed),
            "alltoall" => collective(&spec.against(ALLTOALL_KEYS)?, topo, seed),
            _ => Err(spec.unknown_kind(TRAFFIC_KINDS)),
        }
    }
}

fn transfer(src: Endpoint, dst: Endpoint, bytes: u64, qps: u32) -> Transfer {
    Transfer {
        src,
        dst,
        bytes,
        qps,
    }
}

fn all_endpoints(p: &Params<'_>, topo: &Topology) -> Result<Vec<Endpoint>, SpecError> {
    let all: Vec<Endpoint> = topo.endpoints().collect();
    if all.len() < 2 {
        return Err(p.invalid("needs at least 2 endpoints"));
    }
    Ok(all)
}

fn single_job(name: &str, ranks: Vec<Endpoint>, transfers: Vec<Transfer>) -> Workload {
    Workload {
        jobs: vec![JobTraffic {
            name: name.to_string(),
            phases: vec![Phase {
                transfers,
                repeat: 1,
            }],
        }],
        meta: vec![JobMeta {
            name: name.to_string(),
            ranks,
            order: None,
        }],
    }
}

/// Every endpoint sends `size` to its image under a seeded random
/// derangement (a shuffle whose fixed points are each swapped with the next
/// position, which leaves no fixed point).
fn permutation(p: &Params<'_>, topo: &Topology, seed: u64) -> Result<Workload, SpecError> {
    let (qps, size) = (p.u32_min("qps", 1)?, p.size("size")?);
    if p.bool("cross-leaf")? {
        return cross_leaf(p, topo, seed, size, qps);
    }
    let all = all_endpoints(p, topo)?;
    let mut image = all.clone();
    Rng::new(seed, STREAM_PERMUTATION).shuffle(&mut image);
    let n = image.len();
    for i in 0..n {
        if image[i] == all[i] {
            image.swap(i, (i + 1) % n);
        }
    }
    let transfers = all
        .iter()
        .zip(&image)
        .map(|(s, d)| transfer(*s, *d, size, qps))
        .collect();
    Ok(single_job("permutation", all, transfers))
}

/// The bisection permutation (`cross-leaf=true`): with `L` leaves, leaf
/// `i` and leaf `(i + L/2) mod L` exchange traffic; each endpoint of one
/// sends to a distinct endpoint of the other, under a seeded bijection per
/// direction (ib_write_bw between the two halves of the fabric). Every
/// flow crosses the spine (or core) tier. Needs an even number of leaves
/// with the same number of endpoints each.
fn cross_leaf(
    p: &Params<'_>,
    topo: &Topology,
    seed: u64,
    size: u64,
    qps: u32,
) -> Result<Workload, SpecError> {
    let leaves = topo.leaves() as usize;
    let mut by_leaf: Vec<Vec<Endpoint>> = vec![Vec::new(); leaves];
    for e in topo.endpoints() {
        by_leaf[topo.leaf_of(e) as usize].push(e);
    }
    let per_leaf = by_leaf[0].len();
    if leaves < 2 || !leaves.is_multiple_of(2) || per_leaf == 0 {
        return Err(p.invalid(format!(
            "cross-leaf needs an even number of leaves with endpoints, not {leaves}"
        )));
    }
    if by_leaf.iter().any(|l| l.len() != per_leaf) {
        return Err(p.invalid("cross-leaf needs the same number of endpoints on every leaf"));
    }
    let mut rng = Rng::new(seed, STREAM_PERMUTATION);
    let mut transfers = Vec::with_capacity(leaves * per_leaf);
    for (i, sources) in by_leaf.iter().enumerate() {
        let mut image = by_leaf[(i + leaves / 2) % leaves].clone();
        rng.shuffle(&mut image);
        transfers.extend(
            sources
                .iter()
                .zip(&image)
                .map(|(s, d)| transfer(*s, *d, size, qps)),
        );
    }
    Ok(single_job(
        "permutation",
        topo.endpoints().collect(),
        transfers,
    ))
}

/// Endpoints shuffled and paired off (an odd one out stays idle).
fn pairs(p: &Params<'_>, topo: &Topology, seed: u64) -> Result<Workload, SpecError> {
    let (qps, size) = (p.u32_min("qps", 1)?, p.size("size")?);
    let both = p.word("direction", &["one-way", "both"])? == 1;
    let mut all = all_endpoints(p, topo)?;
    Rng::new(seed, STREAM_PAIRS).shuffle(&mut all);
    let mut transfers = Vec::new();
    for pair in all.chunks_exact(2) {
        transfers.push(transfer(pair[0], pair[1], size, qps));
        if both {
            transfers.push(transfer(pair[1], pair[0], size, qps));
        }
    }
    all.truncate(all.len() / 2 * 2);
    Ok(single_job("pairs", all, transfers))
}

/// Lays `jobs` jobs of `per_job` ranks onto the endpoints.
fn place(
    p: &Params<'_>,
    topo: &Topology,
    order: Order,
    jobs: u32,
    seed: u64,
) -> Result<Vec<Vec<Endpoint>>, SpecError> {
    let total = topo.endpoint_count();
    let per_job = match p.opt_u32("ranks")? {
        Some(r) => r,
        None => total / jobs,
    };
    if per_job < 2 || u64::from(per_job) * u64::from(jobs) > u64::from(total) {
        return Err(p.invalid(format!(
            "{jobs} job(s) of {per_job} ranks do not fit {total} endpoints (each job needs at least 2 ranks)"
        )));
    }
    let per_job = per_job as usize;
    let mut rng = Rng::new(seed, STREAM_PLACEMENT);
    let blocks = |list: Vec<Endpoint>| -> Vec<Vec<Endpoint>> {
        list.chunks_exact(per_job)
            .take(jobs as usize)
            .map(<[Endpoint]>::to_vec)
            .collect()
    };
    match order {
        Order::Contiguous => {
            let mut list: Vec<Endpoint> = topo.endpoints().collect();
            list.sort_by_key(|e| topo.leaf_of(*e));
            Ok(blocks(list))
        }
        Order::Random => {
            let mut list: Vec<Endpoint> = topo.endpoints().collect();
            rng.shuffle(&mut list);
            Ok(blocks(list))
        }
        Order::Fragmented => {
            let nics = topo.shape().nics_per_host;
            let mut hosts: Vec<u32> = (0..topo.hosts()).collect();
            rng.shuffle(&mut hosts);
            let mut out = vec![Vec::with_capacity(per_job); jobs as usize];
            for (i, h) in hosts.iter().enumerate() {
                let job = &mut out[i % jobs as usize];
                let room = per_job - job.len();
                job.extend((0..nics.min(room as u32)).map(|n| Endpoint(h * nics + n)));
            }
            if out.iter().any(|j| j.len() < per_job) {
                return Err(p.invalid(format!(
                    "fragmented placement deals whole hosts: {jobs} job(s) of {per_job} ranks do not fit {} hosts of {nics} NICs",
                    topo.hosts()
                )));
            }
            Ok(out)
        }
    }
}

/// Ring AllReduce: one phase, rank `i` sends `size/n` to rank `i+1`,
/// repeated `2(n-1)` times.
fn ring(ranks: &[Endpoint], size: u64, qps: u32) -> Vec<Phase> {
    let n = ranks.len();
    let chunk = size.div_ceil(n as u64);
    vec![Phase {
        transfers: (0..n)
            .map(|i| transfer(ranks[i], ranks[(i + 1) % n], chunk, qps))
            .collect(),
        repeat: 2 * (n as u32 - 1),
    }]
}

/// Tree AllReduce on a binary tree in rank order (rank `i`'s parent is
/// `(i-1)/2`): one phase per level reducing `size` up to the root, deepest
/// first, then one per level broadcasting it down.
fn tree(ranks: &[Endpoint], size: u64, qps: u32) -> Vec<Phase> {
    let depth = |i: usize| (usize::BITS - (i + 1).leading_zeros() - 1) as usize;
    let max = depth(ranks.len() - 1);
    let level = |d: usize, up: bool| Phase {
        transfers: (1..ranks.len())
            .filter(|i| depth(*i) == d)
            .map(|i| {
                let (child, parent) = (ranks[i], ranks[(i - 1) / 2]);
                if up {
                    transfer(child, parent, size, qps)
                } else {
                    transfer(parent, child, size, qps)
                }
            })
            .collect(),
        repeat: 1,
    };
    let mut phases: Vec<Phase> = (1..=max).rev().map(|d| level(d, true)).collect();
    phases.extend((1..=max).map(|d| level(d, false)));
    phases
}

/// All-to-all as `n-1` shifted permutations, one phase each: in phase `k`
/// rank `i` sends `size/n` to rank `i+k`.
fn alltoall(ranks: &[Endpoint], size: u64, qps: u32) -> Vec<Phase> {
    let n = ranks.len();
    let chunk = size.div_ceil(n as u64);
    (1..n)
        .map(|k| Phase {
            transfers: (0..n)
                .map(|i| transfer(ranks[i], ranks[(i + k) % n], chunk, qps))
                .collect(),
            repeat: 1,
        })
        .collect()
}

/// Makes a collective's phases from its ranks, buffer size and QPs.
type MakePhases = fn(&[Endpoint], u64, u32) -> Vec<Phase>;

fn collective(p: &Params<'_>, topo: &Topology, seed: u64) -> Result<Workload, SpecError> {
    let size = p.size("size")?;
    let qps = p.u32_min("qps", 1)?;
    let jobs = p.u32_min("jobs", 1)?;
    let order = ORDER_VALUES[p.word("order", ORDERS)?];
    let free_intra_host = p.word("intra-host", &["fabric", "free"])? == 1;
    let (name, make): (&str, MakePhases) = if p.kind() == "alltoall" {
        ("alltoall", alltoall)
    } else if p.word("algo", &["ring", "tree"])? == 0 {
        ("allreduce-ring", ring)
    } else {
        ("allreduce-tree", tree)
    };
    let placed = place(p, topo, order, jobs, seed)?;
    let mut workload = Workload {
        jobs: Vec::new(),
        meta: Vec::new(),
    };
    for (j, ranks) in placed.into_iter().enumerate() {
        let name = if jobs == 1 {
            name.to_string()
        } else {
            format!("{name}.{j}")
        };
        let mut phases = make(&ranks, size, qps);
        if free_intra_host {
            for ph in &mut phases {
                ph.transfers
                    .retain(|t| topo.host_of(t.src) != topo.host_of(t.dst));
            }
            phases.retain(|ph| !ph.transfers.is_empty());
        }
        workload.jobs.push(JobTraffic {
            name: name.clone(),
            phases,
        });
        workload.meta.push(JobMeta {
            name,
            ranks,
            order: Some(order),
        });
    }
    Ok(workload)
}

#[cfg(test)]
mod tests;
