//! A synthetic two-tier fabric shared by the benchmarks: `leaves` leaves of
//! `per_leaf` endpoints, `spines` spines, every link at `gbps`; a hashing
//! router; ring AllReduce traffic in a shuffled rank order.

use janus_fabric::engine::{FlowKey, Network, Route, Router};
use janus_fabric::flow::{Endpoint, JobTraffic, LinkId, Path, Phase, Transfer};

/// A two-tier leaf-spine, link ids: endpoint uplinks, endpoint downlinks,
/// leaf-to-spine, spine-to-leaf.
#[derive(Clone, Copy, Debug)]
pub struct Fabric {
    pub leaves: u32,
    pub spines: u32,
    pub per_leaf: u32,
    pub gbps: f64,
}

impl Fabric {
    pub fn endpoints(&self) -> u32 {
        self.leaves * self.per_leaf
    }

    pub fn capacities(&self) -> Vec<f64> {
        let n = 2 * self.endpoints() + 2 * self.leaves * self.spines;
        vec![self.gbps * 1e9 / 8.0; n as usize]
    }

    pub fn network(&self) -> Network {
        Network::new(self.capacities()).expect("valid capacities")
    }

    pub fn path(&self, src: u32, dst: u32, spine: u32) -> Path {
        let e = self.endpoints();
        let (ls, ld) = (src / self.per_leaf, dst / self.per_leaf);
        let ids = if ls == ld {
            vec![src, e + dst]
        } else {
            vec![
                src,
                2 * e + ls * self.spines + spine,
                2 * e + self.leaves * self.spines + ld * self.spines + spine,
                e + dst,
            ]
        };
        ids.into_iter().map(LinkId).collect()
    }

    /// The spine a seeded hash of the flow picks.
    pub fn ecmp_spine(&self, seed: u64, src: u32, dst: u32, qp: u32) -> u32 {
        let h = mix(seed ^ (u64::from(src) << 32 | u64::from(dst)) ^ (u64::from(qp) << 56));
        (h % u64::from(self.spines)) as u32
    }
}

/// ECMP-like: the spine from a seeded hash of the flow.
pub struct Ecmp {
    pub fabric: Fabric,
    pub seed: u64,
}

impl Router for Ecmp {
    fn route(&mut self, k: &FlowKey, _: &Network) -> Route {
        let s = self.fabric.ecmp_spine(self.seed, k.src.0, k.dst.0, k.qp);
        Route::single(self.fabric.path(k.src.0, k.dst.0, s))
    }
}

pub fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The ranks 0..n in a seeded shuffled order.
pub fn shuffled(n: u32, seed: u64) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n).collect();
    let mut state = seed;
    for i in (1..order.len()).rev() {
        state = mix(state.wrapping_add(0x9e37_79b9_7f4a_7c15));
        order.swap(i, (state % (i as u64 + 1)) as usize);
    }
    order
}

/// A ring AllReduce of `size` bytes: 2(n-1) steps, each rank sending
/// size/n to its successor.
pub fn ring_allreduce(order: &[u32], size: u64) -> JobTraffic {
    let n = order.len();
    let transfers = (0..n)
        .map(|i| Transfer {
            src: Endpoint(order[i]),
            dst: Endpoint(order[(i + 1) % n]),
            bytes: size / n as u64,
            qps: 1,
        })
        .collect();
    JobTraffic {
        name: "allreduce".into(),
        phases: vec![Phase {
            transfers,
            repeat: 2 * (n as u32 - 1),
        }],
    }
}

/// 1,536 endpoints (192 hosts x 8 NICs), 1:1: 48 leaves of 32, 32 spines.
pub const GPUS_1536: Fabric = Fabric {
    leaves: 48,
    spines: 32,
    per_leaf: 32,
    gbps: 400.0,
};

/// 32,768 endpoints, 1:1: 512 leaves of 64, 64 spines.
pub const GPUS_32K: Fabric = Fabric {
    leaves: 512,
    spines: 64,
    per_leaf: 64,
    gbps: 400.0,
};
