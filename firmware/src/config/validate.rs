//! The rules a configuration must follow beyond its syntax: ranges that
//! fit the pipeline's fields (p4/sdn.p4), no id, VNI, port or MAC claimed
//! twice, remote prefixes through the tenant's own tunnels.

use super::FirmwareConfig;
use std::collections::BTreeSet;

/// The first rule `config` breaks, as a message naming the tenant.
pub(super) fn check(config: &FirmwareConfig) -> Result<(), String> {
    if config.management.port() == 0 {
        return Err(format!(
            "management.listen `{}`: give a port other than 0",
            config.management
        ));
    }
    let mut ids = BTreeSet::new();
    let mut vnis = BTreeSet::new();
    let mut ports = BTreeSet::new();
    for t in &config.tenants {
        let at = format!("tenant {}", t.id);
        if !(1..=0xFFFF).contains(&t.id) {
            return Err(format!(
                "{at}: the id must be 1 to 65535 (0 means no tenant)"
            ));
        }
        if t.vni >= 1 << 24 {
            return Err(format!("{at}: VNI {} does not fit in 24 bits", t.vni));
        }
        if !ids.insert(t.id) {
            return Err(format!("{at}: the id is given twice"));
        }
        if !vnis.insert(t.vni) {
            return Err(format!("{at}: VNI {} is already another tenant's", t.vni));
        }
        let mut macs = BTreeSet::new();
        for vf in &t.vfs {
            if vf.port > 511 {
                return Err(format!("{at}: VF port {} is above 511", vf.port));
            }
            if !ports.insert(vf.port) {
                return Err(format!("{at}: VF port {} is given twice", vf.port));
            }
            if vf.mac.0[0] & 1 != 0 {
                return Err(format!("{at}: VF MAC {} is a multicast address", vf.mac));
            }
            if !macs.insert(vf.mac) {
                return Err(format!("{at}: VF MAC {} is given twice", vf.mac));
            }
        }
        let mut tunnels = BTreeSet::new();
        for tunnel in &t.tunnels {
            if tunnel.id > 0xFFFF || tunnel.uplink > 511 {
                return Err(format!(
                    "{at}: tunnel {}: the id must be at most 65535 and the uplink at most 511",
                    tunnel.id
                ));
            }
            if !tunnels.insert(tunnel.id) {
                return Err(format!("{at}: tunnel {} is given twice", tunnel.id));
            }
        }
        for r in &t.remotes {
            if !tunnels.contains(&r.tunnel) {
                return Err(format!(
                    "{at}: remote {} goes through tunnel {}, which the tenant does not have",
                    r.prefix, r.tunnel
                ));
            }
        }
    }
    Ok(())
}
