//! The Janus SmartNIC as its software sees it (docs/nic-model.md), with no
//! simulator attached: the pipelines' tests, the control plane and the
//! fabric simulator all depend on this crate, so each states these facts
//! once.
//!
//! - [`ports`]: the port map, the Rust side of `p4/include/janus_nic.p4`.
//! - [`roce`]: the RoCEv2 path model `p4/roce_paths.p4` implements: Linux's
//!   source port from the QP numbers, the leaf switches' CRC-16 spine hash,
//!   path numbering, pinning and failover, and the inverse the pinning
//!   planner needs (a source port that lands a flow on a wanted path).
//!
//! ```
//! use janus_nic::roce::{Liveness, Qpn, RoceFlow, choose};
//! use std::net::Ipv4Addr;
//!
//! let flow = RoceFlow::tagged(
//!     Ipv4Addr::new(10, 0, 0, 2),
//!     Ipv4Addr::new(10, 0, 1, 10),
//!     Qpn::new(0x11),
//!     Qpn::new(0x22),
//! );
//! let placed = choose(&flow, None, &Liveness::all_up()).placement().unwrap();
//! assert_eq!((placed.src_port, placed.uplink, placed.path.index()), (0xC242, 0, 2));
//! ```

pub mod ports;
pub mod roce;
