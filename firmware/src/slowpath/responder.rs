//! What the slow path answers, without any I/O: a punted frame, the VF it
//! came from and the punt reason in, the reply frame out (or why none).

use crate::config::FirmwareConfig;
use janus_nic::ports::punt;
use janus_packet::Mac;
use janus_packet::neighbor::{ArpRequest, NeighborSolicitation};
use std::collections::BTreeMap;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::atomic::{AtomicU64, Ordering};

/// A tenant's gateway as the slow path answers for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GatewayAddr {
    tenant: u32,
    mac: Mac,
    ipv4: Ipv4Addr,
    ipv6: Ipv6Addr,
}

/// The gateways by VF port, from the firmware configuration.
#[derive(Clone, Debug, Default)]
pub struct Responder {
    by_port: BTreeMap<u32, GatewayAddr>,
}

/// Why a punted frame got no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ignored {
    /// Not the reason the slow path handles (it is the operator's).
    OtherReason,
    /// The VF belongs to no tenant with a gateway.
    UnknownPort,
    /// Not an ARP request / neighbour solicitation, or a malformed one.
    NotARequest,
    /// A request for another address than the tenant's gateway.
    OtherTarget,
}

/// What the slow path did, counted (read by its status output).
#[derive(Debug, Default)]
pub struct SlowPathCounters {
    pub arp_answered: AtomicU64,
    pub nd_answered: AtomicU64,
    pub ignored: AtomicU64,
    /// PacketOuts the server refused (StreamErrors).
    pub refused: AtomicU64,
}

/// A snapshot of [`SlowPathCounters`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlowPathStats {
    pub arp_answered: u64,
    pub nd_answered: u64,
    pub ignored: u64,
    pub refused: u64,
}

impl SlowPathCounters {
    /// The counts now.
    pub fn snapshot(&self) -> SlowPathStats {
        SlowPathStats {
            arp_answered: self.arp_answered.load(Ordering::Relaxed),
            nd_answered: self.nd_answered.load(Ordering::Relaxed),
            ignored: self.ignored.load(Ordering::Relaxed),
            refused: self.refused.load(Ordering::Relaxed),
        }
    }
}

impl Responder {
    /// The gateways of `config`'s tenants, by each of their VFs.
    pub fn new(config: &FirmwareConfig) -> Responder {
        let mut by_port = BTreeMap::new();
        for t in &config.tenants {
            let Some(gw) = &t.gateway else { continue };
            for vf in &t.vfs {
                by_port.insert(
                    vf.port,
                    GatewayAddr {
                        tenant: t.id,
                        mac: gw.mac.0,
                        ipv4: gw.ipv4,
                        ipv6: gw.ipv6,
                    },
                );
            }
        }
        Responder { by_port }
    }

    /// Whether any VF has a gateway to answer for.
    pub fn is_empty(&self) -> bool {
        self.by_port.is_empty()
    }

    /// The reply to `frame`, punted with `reason` from VF `port`: sent back
    /// out of that port.
    pub fn answer(&self, port: u32, reason: u8, frame: &[u8]) -> Result<Vec<u8>, Ignored> {
        let gw = self.by_port.get(&port).ok_or(Ignored::UnknownPort)?;
        match reason {
            punt::ARP_GATEWAY => {
                let req = ArpRequest::parse(frame).ok_or(Ignored::NotARequest)?;
                if req.target_ip() != gw.ipv4 {
                    return Err(Ignored::OtherTarget);
                }
                tracing::trace!(port, tenant = gw.tenant, "ARP for the gateway answered");
                Ok(req.reply(gw.mac))
            }
            punt::ND_GATEWAY => {
                let ns = NeighborSolicitation::parse(frame).ok_or(Ignored::NotARequest)?;
                if gw.ipv6.is_unspecified() || ns.target() != gw.ipv6 {
                    return Err(Ignored::OtherTarget);
                }
                tracing::trace!(port, tenant = gw.tenant, "ND for the gateway answered");
                Ok(ns.advertisement(gw.mac))
            }
            _ => Err(Ignored::OtherReason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janus_packet::neighbor::{arp_request, is_arp_reply};

    fn responder() -> Responder {
        let gw = GatewayAddr {
            tenant: 1,
            mac: [2, 0, 0, 0, 0, 0xfe],
            ipv4: Ipv4Addr::new(10, 1, 0, 1),
            ipv6: Ipv6Addr::UNSPECIFIED,
        };
        Responder {
            by_port: [(2, gw)].into_iter().collect(),
        }
    }

    #[test]
    fn answers_arp_for_the_gateway_of_the_vfs_tenant_only() {
        let r = responder();
        let vm = ([2, 0, 0, 0, 1, 2], Ipv4Addr::new(10, 1, 0, 2));
        let gw_ip = Ipv4Addr::new(10, 1, 0, 1);
        let reply = r
            .answer(2, punt::ARP_GATEWAY, &arp_request(vm, gw_ip))
            .unwrap();
        assert!(is_arp_reply(&reply, gw_ip, [2, 0, 0, 0, 0, 0xfe]));
        let other = arp_request(vm, Ipv4Addr::new(10, 1, 0, 9));
        assert_eq!(
            r.answer(2, punt::ARP_GATEWAY, &other),
            Err(Ignored::OtherTarget)
        );
        assert_eq!(
            r.answer(3, punt::ARP_GATEWAY, &arp_request(vm, gw_ip)),
            Err(Ignored::UnknownPort)
        );
        assert_eq!(
            r.answer(2, punt::MANAGEMENT, &[]),
            Err(Ignored::OtherReason)
        );
        assert_eq!(
            r.answer(2, punt::ARP_GATEWAY, &[0; 10]),
            Err(Ignored::NotARequest)
        );
        // No IPv6 gateway address: solicitations go unanswered.
        assert_eq!(
            r.answer(2, punt::ND_GATEWAY, &[0; 90]),
            Err(Ignored::NotARequest)
        );
    }
}
