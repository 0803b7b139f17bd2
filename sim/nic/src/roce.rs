//! The RoCEv2 path model: how `p4/roce_paths.p4` picks a frame's UDP source
//! port and uplink, and which fabric path the frame then takes
//! (docs/nic-model.md, "Choosing the port and the uplink" and "The
//! switch-hash model").
//!
//! This module is the one Rust statement of that model. The pipeline's
//! tests (`tests/roce_paths.rs`) check `roce_paths.p4` against it packet by
//! packet, so the program cannot change its hash without this module
//! changing too; the fabric simulator's pinning planner (a later issue)
//! places flows with it.
//!
//! The pieces, in the order the NIC applies them:
//!
//! 1. [`linux_src_port`]: the default source port, Linux's
//!    `rdma_calc_flow_label` + `rdma_flow_label_to_udp_sport` of the two QP
//!    numbers (or, for a frame without the driver's tx_meta tag, the port
//!    the host chose: [`DefaultPort`]). The default uplink is bit 0 of that
//!    port.
//! 2. A [`Pin`] from the controller's `pinned_flows` table replaces both.
//! 3. [`fabric_spine`]: the spine the leaf behind the uplink picks, CRC-16/ARC
//!    ([`crc16_arc`]) of the [`FiveTuple`] modulo [`SPINES_PER_UPLINK`];
//!    with the uplink it names a [`Path`].
//! 4. If that path is down ([`Liveness`]), failover: the first live path of
//!    the fixed probe list [`failover_candidates`]; none live, the frame is
//!    dropped. [`choose`] does steps 1 to 4.
//!
//! The planner's inverse: [`src_port_for_spine`] and [`pin_for_path`] find
//! the source port that lands a flow on a wanted path.

use crate::ports;
use std::net::Ipv4Addr;

/// RoCEv2's UDP destination port (IANA).
pub const ROCEV2_UDP_PORT: u16 = 4791;
/// The IP protocol number of UDP.
pub const IP_PROTOCOL_UDP: u8 = 17;
/// The lowest source port Linux gives RoCEv2 (`IB_ROCE_UDP_ENCAP_VALID_PORT_MIN`):
/// every port [`linux_src_port`] returns has these two top bits set.
pub const ROCE_SRC_PORT_MIN: u16 = 0xC000;
/// EtherType of the tx_meta tag the host's RDMA driver inserts after the
/// source MAC to tell the NIC the local QP number (IEEE local experimental 1).
pub const ETHERTYPE_TX_META: u16 = 0x88B5;
/// Spine links of each uplink's leaf switch.
pub const SPINES_PER_UPLINK: u32 = 4;
/// Fabric paths from the NIC: every uplink times every spine of its leaf.
pub const PATH_COUNT: usize = ports::UPLINKS.len() * SPINES_PER_UPLINK as usize;

/// The source-port XOR masks of the failover probe, in probe order. XOR-ing
/// a frame's source port with `SPINE_DELTAS[t]` moves it from spine `s` to
/// spine `s ^ t` whatever the rest of the 5-tuple: CRC-16 with a zero
/// initial value and no final XOR is linear, `crc(x ^ d) = crc(x) ^ crc(d)`,
/// and `crc(d) % 4 == t` for these `d` (a 13-byte tuple that is zero but
/// for the source port `SPINE_DELTAS[t]`). Only bits 0 and 11 change, so a
/// port in `0xC000..=0xFFFF` stays there.
pub const SPINE_DELTAS: [u16; SPINES_PER_UPLINK as usize] = [0x0000, 0x0001, 0x0800, 0x0801];

/// An InfiniBand queue pair number: 24 bits, as the BTH carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Qpn(u32);

impl Qpn {
    /// The largest QP number, `0xFFFFFF`.
    pub const MAX: Qpn = Qpn(0xFF_FFFF);

    /// The QP number `n`.
    ///
    /// # Panics
    ///
    /// If `n` does not fit in 24 bits.
    pub const fn new(n: u32) -> Qpn {
        assert!(n <= Qpn::MAX.0, "a QP number has 24 bits");
        Qpn(n)
    }

    /// The number.
    pub const fn get(self) -> u32 {
        self.0
    }
}

/// Linux's 20-bit IPv6/RoCEv2 flow label of a QP pair
/// (`rdma_calc_flow_label` in `include/rdma/ib_verbs.h`): the 64-bit
/// product of the two numbers, folded by `v ^= v >> 20; v ^= v >> 40`,
/// low 20 bits. Symmetric in its arguments.
pub const fn linux_flow_label(local: Qpn, remote: Qpn) -> u32 {
    let mut v = local.0 as u64 * remote.0 as u64;
    v ^= v >> 20;
    v ^= v >> 40;
    (v & 0xF_FFFF) as u32
}

/// Linux's RoCEv2 UDP source port for a flow label
/// (`rdma_flow_label_to_udp_sport`): the label's top 6 bits folded into
/// its low 14 by XOR, plus [`ROCE_SRC_PORT_MIN`]. Bits of `flow_label`
/// above the 20th are ignored.
pub const fn flow_label_to_src_port(flow_label: u32) -> u16 {
    let low = flow_label & 0x3FFF;
    let high = (flow_label & 0xF_C000) >> 14;
    ((low ^ high) as u16) | ROCE_SRC_PORT_MIN
}

/// The UDP source port Linux gives RoCEv2 frames of the QP pair (local,
/// remote): [`flow_label_to_src_port`] of [`linux_flow_label`]. This is a
/// tagged frame's default port in `roce_paths.p4` (`LinuxRoceEntropy`).
pub const fn linux_src_port(local: Qpn, remote: Qpn) -> u16 {
    flow_label_to_src_port(linux_flow_label(local, remote))
}

/// CRC-16/ARC (v1model's `HashAlgorithm.crc16`), the path hash's CRC.
pub use janus_wire::crc::crc16_arc;

/// The IPv4/UDP 5-tuple a leaf switch hashes to pick a spine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FiveTuple {
    pub src: Ipv4Addr,
    pub dst: Ipv4Addr,
    /// The IPv4 protocol field.
    pub protocol: u8,
    pub src_port: u16,
    pub dst_port: u16,
}

impl FiveTuple {
    /// A RoCEv2 frame's tuple: UDP, destination port [`ROCEV2_UDP_PORT`].
    pub const fn rocev2(src: Ipv4Addr, dst: Ipv4Addr, src_port: u16) -> FiveTuple {
        FiveTuple {
            src,
            dst,
            protocol: IP_PROTOCOL_UDP,
            src_port,
            dst_port: ROCEV2_UDP_PORT,
        }
    }

    /// The same tuple with source port `src_port`.
    pub const fn with_src_port(self, src_port: u16) -> FiveTuple {
        FiveTuple { src_port, ..self }
    }

    /// What the hash reads: source address, destination address, protocol,
    /// source port, destination port, concatenated in network byte order
    /// with no padding (4 + 4 + 1 + 2 + 2 = 13 bytes). The field list of
    /// `fabric_spine` in `roce_paths.p4`.
    pub fn hash_input(&self) -> [u8; 13] {
        let mut bytes = [0u8; 13];
        bytes[0..4].copy_from_slice(&self.src.octets());
        bytes[4..8].copy_from_slice(&self.dst.octets());
        bytes[8] = self.protocol;
        bytes[9..11].copy_from_slice(&self.src_port.to_be_bytes());
        bytes[11..13].copy_from_slice(&self.dst_port.to_be_bytes());
        bytes
    }
}

/// The spine (0..[`SPINES_PER_UPLINK`]) a leaf switch sends `tuple` to:
/// `crc16_arc(tuple.hash_input()) % 4`, as bmv2 computes `hash(spine,
/// HashAlgorithm.crc16, 32w0, {...}, 32w4)`.
pub fn fabric_spine(tuple: &FiveTuple) -> u32 {
    u32::from(crc16_arc(&tuple.hash_input())) % SPINES_PER_UPLINK
}

/// A fabric path: an uplink and a spine of the leaf behind it. Numbered
/// `uplink * SPINES_PER_UPLINK + spine` (0..[`PATH_COUNT`]), the index of
/// the `path_down` register and the `path_packets` counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Path {
    uplink: u32,
    spine: u32,
}

impl Path {
    /// The path through uplink port `uplink` and spine `spine`; `None` if
    /// `uplink` is not an uplink ([`ports::is_uplink`]) or `spine` is not
    /// below [`SPINES_PER_UPLINK`].
    pub fn new(uplink: u32, spine: u32) -> Option<Path> {
        (ports::is_uplink(uplink) && spine < SPINES_PER_UPLINK).then_some(Path { uplink, spine })
    }

    /// The path numbered `index`; `None` from [`PATH_COUNT`] on.
    pub fn from_index(index: usize) -> Option<Path> {
        let spines = SPINES_PER_UPLINK as usize;
        let uplink = *ports::UPLINKS.get(index / spines)?;
        Some(Path {
            uplink,
            spine: (index % spines) as u32,
        })
    }

    /// Every path, by index.
    pub fn all() -> impl Iterator<Item = Path> {
        (0..PATH_COUNT).filter_map(Path::from_index)
    }

    /// The path's number, `uplink * SPINES_PER_UPLINK + spine`.
    pub fn index(self) -> usize {
        let uplink = ports::UPLINKS
            .iter()
            .position(|&u| u == self.uplink)
            .expect("a path's uplink is an uplink");
        uplink * SPINES_PER_UPLINK as usize + self.spine as usize
    }

    /// The uplink's port number.
    pub fn uplink(self) -> u32 {
        self.uplink
    }

    /// The spine of the uplink's leaf.
    pub fn spine(self) -> u32 {
        self.spine
    }
}

/// The path a frame with 5-tuple `tuple` sent out of port `uplink` takes;
/// `None` if `uplink` is not an uplink (the program treats that as a down
/// path).
pub fn path_of(tuple: &FiveTuple, uplink: u32) -> Option<Path> {
    Path::new(uplink, fabric_spine(tuple))
}

/// Which paths are down: the `path_down` register of `roce_paths.p4`
/// (1 = down), written by the control plane. All paths start up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Liveness {
    down: [bool; PATH_COUNT],
}

impl Liveness {
    /// Every path up.
    pub fn all_up() -> Liveness {
        Liveness::default()
    }

    /// Every path in `down` down, the others up.
    pub fn with_down(down: impl IntoIterator<Item = Path>) -> Liveness {
        let mut liveness = Liveness::all_up();
        for path in down {
            liveness.set_down(path, true);
        }
        liveness
    }

    /// Marks `path` down (`true`) or up (`false`).
    pub fn set_down(&mut self, path: Path, down: bool) {
        self.down[path.index()] = down;
    }

    /// Whether `path` is up.
    pub fn is_up(&self, path: Path) -> bool {
        !self.down[path.index()]
    }

    /// The paths that are down, by index.
    pub fn down_paths(&self) -> impl Iterator<Item = Path> + '_ {
        Path::all().filter(|p| !self.is_up(*p))
    }
}

/// Where a frame's default source port comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DefaultPort {
    /// The frame carries the host driver's tx_meta tag with the local QP
    /// number: the default is [`linux_src_port`] of it and the BTH's
    /// destination QP.
    Linux { local_qpn: Qpn },
    /// No tag: the source port the host put in the frame is kept as the
    /// default.
    Host(u16),
}

/// A RoCEv2 flow as a VF sends it: what the NIC's choice depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoceFlow {
    /// IPv4 source address (the VF's).
    pub src: Ipv4Addr,
    /// IPv4 destination address; with `remote_qpn`, the key of a [`Pin`].
    pub dst: Ipv4Addr,
    /// The BTH destination QP.
    pub remote_qpn: Qpn,
    pub default_port: DefaultPort,
}

impl RoceFlow {
    /// A flow whose frames carry the tx_meta tag with `local_qpn`.
    pub const fn tagged(src: Ipv4Addr, dst: Ipv4Addr, local_qpn: Qpn, remote_qpn: Qpn) -> RoceFlow {
        RoceFlow {
            src,
            dst,
            remote_qpn,
            default_port: DefaultPort::Linux { local_qpn },
        }
    }

    /// A flow whose frames have no tag and source port `host_src_port`.
    pub const fn untagged(
        src: Ipv4Addr,
        dst: Ipv4Addr,
        remote_qpn: Qpn,
        host_src_port: u16,
    ) -> RoceFlow {
        RoceFlow {
            src,
            dst,
            remote_qpn,
            default_port: DefaultPort::Host(host_src_port),
        }
    }

    /// The source port the flow gets unless pinned or failed over.
    pub const fn default_src_port(&self) -> u16 {
        match self.default_port {
            DefaultPort::Linux { local_qpn } => linux_src_port(local_qpn, self.remote_qpn),
            DefaultPort::Host(port) => port,
        }
    }

    /// The uplink the flow leaves by unless pinned or failed over: bit 0
    /// of [`RoceFlow::default_src_port`].
    pub const fn default_uplink(&self) -> u32 {
        ports::UPLINKS[(self.default_src_port() & 1) as usize]
    }

    /// The flow's 5-tuple when it is sent with source port `src_port`.
    pub const fn tuple(&self, src_port: u16) -> FiveTuple {
        FiveTuple::rocev2(self.src, self.dst, src_port)
    }
}

/// An entry of `RoceIngress.path_select.pinned_flows` (key: the flow's
/// destination address and remote QP): action `pin(sport, uplink)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pin {
    pub src_port: u16,
    /// A port number; a port that is not an uplink makes the pin's path
    /// count as down.
    pub uplink: u32,
}

/// Where a frame goes: its source port, the uplink it leaves by, and the
/// fabric path that puts it on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub src_port: u16,
    pub uplink: u32,
    pub path: Path,
}

impl Placement {
    /// `flow` sent with `src_port` out of `uplink`; `None` if `uplink` is
    /// not an uplink.
    pub fn of(flow: &RoceFlow, src_port: u16, uplink: u32) -> Option<Placement> {
        Some(Placement {
            src_port,
            uplink,
            path: path_of(&flow.tuple(src_port), uplink)?,
        })
    }
}

/// What the NIC does with a RoCEv2 frame, and why: the four cases the
/// `selections` counter of `roce_paths.p4` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// The default port and uplink, their path up.
    Default(Placement),
    /// The pin, its path up.
    Pinned(Placement),
    /// The path chosen so far was down: the first live failover candidate.
    Failover(Placement),
    /// Every candidate path is down: the frame is dropped.
    NoLivePath,
}

impl Choice {
    /// Where the frame goes; `None` when it is dropped.
    pub fn placement(self) -> Option<Placement> {
        match self {
            Choice::Default(p) | Choice::Pinned(p) | Choice::Failover(p) => Some(p),
            Choice::NoLivePath => None,
        }
    }

    /// The index of the `RoceIngress.path_select.selections` counter this
    /// frame increments (`SELECT_*` in `roce_paths.p4`).
    pub fn selection_index(self) -> usize {
        match self {
            Choice::Default(_) => 0,
            Choice::Pinned(_) => 1,
            Choice::Failover(_) => 2,
            Choice::NoLivePath => 3,
        }
    }
}

/// The placements failover probes for `flow`, in order: from its default
/// port `p` and uplink `u`, `(u, p ^ d)` for each `d` of [`SPINE_DELTAS`],
/// then the same four ports on the other uplink. They cover all
/// [`PATH_COUNT`] paths, each once.
pub fn failover_candidates(flow: &RoceFlow) -> [Placement; PATH_COUNT] {
    let port = flow.default_src_port();
    let first = flow.default_uplink();
    let other = ports::UPLINKS[0] + ports::UPLINKS[1] - first;
    std::array::from_fn(|i| {
        let uplink = if i < SPINE_DELTAS.len() { first } else { other };
        let src_port = port ^ SPINE_DELTAS[i % SPINE_DELTAS.len()];
        Placement::of(flow, src_port, uplink).expect("both are uplinks")
    })
}

/// The NIC's choice for a frame of `flow`, with `pin` the `pinned_flows`
/// entry for its (destination, remote QP) if there is one, and the paths
/// down as `liveness` says: the pin or the default, if its path is up;
/// otherwise the first live [`failover_candidates`] (failover starts from
/// the default port and uplink even for a pinned flow); otherwise dropped.
pub fn choose(flow: &RoceFlow, pin: Option<Pin>, liveness: &Liveness) -> Choice {
    let (src_port, uplink) = match pin {
        Some(pin) => (pin.src_port, pin.uplink),
        None => (flow.default_src_port(), flow.default_uplink()),
    };
    let chosen = Placement::of(flow, src_port, uplink).filter(|p| liveness.is_up(p.path));
    match (chosen, pin) {
        (Some(placement), Some(_)) => return Choice::Pinned(placement),
        (Some(placement), None) => return Choice::Default(placement),
        (None, _) => {}
    }
    failover_candidates(flow)
        .into_iter()
        .find(|c| liveness.is_up(c.path))
        .map_or(Choice::NoLivePath, Choice::Failover)
}

/// A source port that makes the leaf send `tuple` to `spine`: `tuple`'s
/// own port XOR the [`SPINE_DELTAS`] entry that moves its spine there (its
/// own port if it already lands there). The port differs from
/// `tuple.src_port` at most in bits 0 and 11, so a RoCEv2 port stays in
/// `0xC000..=0xFFFF`. The uplink plays no part: every leaf hashes alike.
///
/// # Panics
///
/// If `spine` is not below [`SPINES_PER_UPLINK`].
pub fn src_port_for_spine(tuple: &FiveTuple, spine: u32) -> u16 {
    assert!(spine < SPINES_PER_UPLINK, "spine {spine} out of range");
    let now = fabric_spine(tuple);
    let port = tuple.src_port ^ SPINE_DELTAS[(now ^ spine) as usize];
    debug_assert_eq!(fabric_spine(&tuple.with_src_port(port)), spine);
    port
}

/// The pin that puts `flow` on `path`: uplink `path.uplink()` and the
/// source port [`src_port_for_spine`] finds from the flow's default port
/// (so the pinned port is one of the flow's failover candidates). For
/// the pinning planner; installed in `pinned_flows` under (`flow.dst`,
/// `flow.remote_qpn`), it makes [`choose`] return
/// `Choice::Pinned` on `path` while that path is up.
pub fn pin_for_path(flow: &RoceFlow, path: Path) -> Pin {
    Pin {
        src_port: src_port_for_spine(&flow.tuple(flow.default_src_port()), path.spine()),
        uplink: path.uplink(),
    }
}

#[cfg(test)]
mod tests;
