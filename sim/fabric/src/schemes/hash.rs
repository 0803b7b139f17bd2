//! The switch hash: the model `p4/roce_paths.p4` and `janus_nic::roce`
//! state (CRC-16/ARC of the 13-byte IPv4/UDP 5-tuple), with a per-switch
//! seed.
//!
//! A switch with `n` equal-cost next hops sends a flow to hop
//! `switch_hash(seed, crc) % n`, where `crc = crc16_arc(tuple.hash_input())`
//! and, for a switch seed `s` (32 bits), `switch_hash(0, crc) = crc` and
//! otherwise `x = (crc ^ s_low16) * (s_high16 | 1) mod 2^16`,
//! `switch_hash = x ^ (x >> 8)`:
//!
//! - the XOR is what seeding a CRC does: a CRC with initial value `s` is
//!   the zero-initialised CRC XOR a constant depending only on `s` and the
//!   length, so XOR-ing a 16-bit seed is the same family;
//! - the odd multiplier and the shift are the seeded mixing of hash bits
//!   that switch ASICs apply per switch. Without them every switch would
//!   pick by the same low CRC bits up to a relabelling, and switches in
//!   series would polarise (a three-tier fabric's core choice would follow
//!   from its aggregation choice); the CRC is linear, so any seeded
//!   bit-selection alone leaves some pairs of switches perfectly
//!   correlated.
//!
//! Seed 0 is the plain model: `switch_hash(0, crc) = crc`, so with
//! [`HashSeeding::Plain`] every switch computes exactly what
//! `janus_nic::roce::fabric_spine` computes (for its 4 spines).
//!
//! CRC-16/ARC (initial value 0, no final XOR) is linear over the tuple's
//! bits, so the CRC of a tuple with source port `p` is the CRC of the same
//! tuple with port 0 XOR the CRC of an otherwise zero tuple with port `p`
//! ([`PortCrcs`]); the NIC-side pinning searches ports with one XOR each.

use janus_nic::roce::{FiveTuple, ROCE_SRC_PORT_MIN, crc16_arc};

use crate::flow::NodeId;
use crate::rng::Rng;

/// How the switches seed their hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashSeeding {
    /// Every switch uses seed 0: the plain model of `janus_nic::roce`.
    Plain,
    /// Every switch has its own seed, drawn from the run's seed and its
    /// node id (what operators configure to avoid polarisation).
    PerSwitch,
}

/// The random stream of switch seeds.
const STREAM_SWITCH: u64 = 0x5717;

/// The seeds of a run's switches.
#[derive(Debug, Clone, Copy)]
pub struct SwitchSeeds {
    run_seed: u64,
    mode: HashSeeding,
}

impl SwitchSeeds {
    /// The seeds of a run.
    pub fn new(run_seed: u64, mode: HashSeeding) -> SwitchSeeds {
        SwitchSeeds { run_seed, mode }
    }

    /// The seed of switch `node`.
    pub fn of(&self, node: NodeId) -> u32 {
        match self.mode {
            HashSeeding::Plain => 0,
            HashSeeding::PerSwitch => {
                Rng::new(self.run_seed ^ (u64::from(node.0) << 24), STREAM_SWITCH).next_u64() as u32
            }
        }
    }
}

/// The seeded hash of a tuple's CRC (see the module comment).
pub fn switch_hash(seed: u32, crc: u16) -> u16 {
    if seed == 0 {
        return crc;
    }
    let x = (crc ^ seed as u16).wrapping_mul((seed >> 16) as u16 | 1);
    x ^ (x >> 8)
}

/// The hop a switch with seed `seed` picks among `n` for a tuple whose CRC
/// is `crc`.
pub fn pick(seed: u32, crc: u16, n: usize) -> usize {
    usize::from(switch_hash(seed, crc)) % n
}

/// The CRC of a tuple (`crc16_arc` of its 13 bytes).
pub fn tuple_crc(tuple: &FiveTuple) -> u16 {
    crc16_arc(&tuple.hash_input())
}

/// The number of RoCEv2 source ports Linux uses, `0xC000..=0xFFFF`.
pub const ROCE_PORTS: usize = 0x4000;

/// The CRC contribution of every RoCEv2 source port: the CRC of a tuple
/// that is zero but for the port.
#[derive(Debug, Clone)]
pub struct PortCrcs {
    table: Vec<u16>,
}

impl PortCrcs {
    /// Computes the table (16,384 CRCs).
    pub fn new() -> PortCrcs {
        let zero = FiveTuple::rocev2([0; 4].into(), [0; 4].into(), 0);
        let mut only_port = zero.hash_input();
        only_port[8] = 0;
        only_port[11] = 0;
        only_port[12] = 0;
        let table = (0..ROCE_PORTS)
            .map(|i| {
                let port = ROCE_SRC_PORT_MIN + i as u16;
                only_port[9..11].copy_from_slice(&port.to_be_bytes());
                crc16_arc(&only_port)
            })
            .collect();
        PortCrcs { table }
    }

    /// The CRC of `tuple` with its source port replaced by `port`
    /// (`port` in `0xC000..=0xFFFF`), given `base`, the CRC of `tuple`
    /// with source port 0.
    pub fn crc_with_port(&self, base: u16, port: u16) -> u16 {
        base ^ self.table[usize::from(port.wrapping_sub(ROCE_SRC_PORT_MIN)) % ROCE_PORTS]
    }
}

impl Default for PortCrcs {
    fn default() -> Self {
        PortCrcs::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janus_nic::roce::fabric_spine;

    fn tuple(port: u16) -> FiveTuple {
        FiveTuple::rocev2([10, 0, 0, 7].into(), [10, 0, 1, 3].into(), port)
    }

    #[test]
    fn seed_zero_is_the_nic_model() {
        for port in [0xC000, 0xC123, 0xFFFF, 0xE001] {
            let t = tuple(port);
            assert_eq!(pick(0, tuple_crc(&t), 4) as u32, fabric_spine(&t));
        }
    }

    #[test]
    fn port_crcs_are_linear() {
        let crcs = PortCrcs::new();
        let base = tuple_crc(&tuple(0));
        for port in [0xC000u16, 0xC001, 0xD00D, 0xFFFF] {
            assert_eq!(crcs.crc_with_port(base, port), tuple_crc(&tuple(port)));
        }
    }

    #[test]
    fn per_switch_seeds_differ_and_repeat() {
        let s = SwitchSeeds::new(5, HashSeeding::PerSwitch);
        assert_ne!(s.of(NodeId(40)), s.of(NodeId(41)));
        assert_eq!(
            s.of(NodeId(40)),
            SwitchSeeds::new(5, HashSeeding::PerSwitch).of(NodeId(40))
        );
        assert_eq!(SwitchSeeds::new(5, HashSeeding::Plain).of(NodeId(40)), 0);
    }
}
