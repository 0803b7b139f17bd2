//! Addresses and numbers of the simulated RoCEv2 flows.
//!
//! - **IPv4 plan:** endpoint `e` (a NIC) is `10.0.0.0 + e`, i.e.
//!   `10.(e >> 16).(e >> 8 & 255).(e & 255)`: the whole fabric is one
//!   `10.0.0.0/8` (a topology has at most 2^24 endpoints), hosts' NICs
//!   consecutive. Only the hash reads the addresses.
//! - **QP numbers:** every flow (job, phase, transfer, queue pair) gets a
//!   local and a remote QP number, 24 bits, drawn from the run's seed and
//!   the flow's identity (as a driver allocating QPs would give
//!   arbitrary-looking numbers), in `2..=0xFFFFFF` (QP 0 and 1 are the
//!   special QPs). The numbers do not depend on the repetition: a ring
//!   AllReduce reuses its connections for every step.
//! - **UDP ports:** the source port is Linux's RoCEv2 rule of the two QP
//!   numbers ([`linux_src_port`]), the destination port 4791.

use std::net::Ipv4Addr;

use janus_nic::roce::{FiveTuple, Qpn, linux_src_port};

use super::FlowRef;
use crate::flow::Endpoint;
use crate::rng::Rng;

/// The random stream of QP numbers (see [`Rng::new`]).
const STREAM_QPN: u64 = 0x5150;

/// The IPv4 address of an endpoint (see the module comment).
pub fn ipv4_of(e: Endpoint) -> Ipv4Addr {
    Ipv4Addr::from(0x0A00_0000u32.wrapping_add(e.0 & 0x00FF_FFFF))
}

/// A flow's numbers: its QP pair, its default (Linux) source port and
/// 5-tuple.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowAddress {
    pub local_qpn: Qpn,
    pub remote_qpn: Qpn,
    pub tuple: FiveTuple,
}

/// The QP numbers of one run.
#[derive(Debug, Clone, Copy)]
pub struct Addressing {
    seed: u64,
}

impl Addressing {
    /// The numbering of a run with this seed.
    pub fn new(seed: u64) -> Addressing {
        Addressing { seed }
    }

    /// The numbers of `flow` from `src` to `dst`.
    pub fn flow(&self, flow: FlowRef, src: Endpoint, dst: Endpoint) -> FlowAddress {
        let id = (u64::from(flow.job) << 48)
            ^ (u64::from(flow.phase) << 32)
            ^ (u64::from(flow.transfer) << 8)
            ^ u64::from(flow.qp).rotate_left(40);
        let mut rng = Rng::new(
            self.seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            STREAM_QPN,
        );
        let mut qpn = || Qpn::new(2 + rng.below(0xFF_FFFE) as u32);
        let (local_qpn, remote_qpn) = (qpn(), qpn());
        let port = linux_src_port(local_qpn, remote_qpn);
        FlowAddress {
            local_qpn,
            remote_qpn,
            tuple: FiveTuple::rocev2(ipv4_of(src), ipv4_of(dst), port),
        }
    }
}
