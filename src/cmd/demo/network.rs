//! The demo's network: the tenants, their VFs and addresses, the uplinks and
//! the names the printed frames use for them.

use super::*;

// ---------------------------------------------------------------------------
// The topology (the same as the comments of p4/demo/sdn_demo.entries)
// ---------------------------------------------------------------------------

pub(super) type Mac = [u8; 6];
pub(super) type Ip4 = [u8; 4];

pub(super) struct Tenant {
    pub(super) name: &'static str,
    pub(super) id: usize,
    pub(super) vni: u32,
}

pub(super) const TENANT_A: Tenant = Tenant {
    name: "A",
    id: 1,
    vni: 1001,
};
pub(super) const TENANT_B: Tenant = Tenant {
    name: "B",
    id: 2,
    vni: 2002,
};
pub(super) const TENANTS: [&Tenant; 2] = [&TENANT_A, &TENANT_B];

/// VF ports and their tenants (VF6 has none).
pub(super) const VFS: [(u32, Option<&Tenant>); 5] = [
    (2, Some(&TENANT_A)),
    (3, Some(&TENANT_A)),
    (4, Some(&TENANT_B)),
    (5, Some(&TENANT_B)),
    (6, None),
];

pub(super) const A_GW_MAC: Mac = [2, 0, 0, 0, 1, 1];
pub(super) const VF2_MAC: Mac = [2, 0, 0, 0, 1, 2];
pub(super) const VF3_MAC: Mac = [2, 0, 0, 0, 1, 3];
pub(super) const A_REMOTE_MAC: Mac = [2, 0, 0, 0, 1, 0x20];
pub(super) const B_GW_MAC: Mac = [2, 0, 0, 0, 2, 1];
pub(super) const VF4_MAC: Mac = [2, 0, 0, 0, 2, 4];
pub(super) const VF5_MAC: Mac = [2, 0, 0, 0, 2, 5];
pub(super) const B_REMOTE_MAC: Mac = [2, 0, 0, 0, 2, 0x20];
pub(super) const VF6_MAC: Mac = [2, 0, 0, 0, 6, 6];
pub(super) const UPLINK_MAC: [Mac; 2] = [[2, 0xaa, 0, 0, 0, 0], [2, 0xaa, 0, 0, 0, 1]];
pub(super) const TOR_MAC: [Mac; 2] = [[2, 0xbb, 0, 0, 0, 0], [2, 0xbb, 0, 0, 0, 1]];
pub(super) const BROADCAST: Mac = [0xff; 6];

pub(super) const A_GW_IP: Ip4 = [10, 1, 0, 1];
pub(super) const VF2_IP: Ip4 = [10, 1, 0, 2];
pub(super) const VF3_IP: Ip4 = [10, 1, 0, 3];
pub(super) const A_REMOTE_IP: Ip4 = [10, 1, 8, 20];
pub(super) const B_GW_IP: Ip4 = [10, 2, 0, 1];
pub(super) const VF4_IP: Ip4 = [10, 2, 0, 4];
pub(super) const VF5_IP: Ip4 = [10, 2, 0, 5];
pub(super) const B_REMOTE_IP: Ip4 = [10, 2, 8, 20];
pub(super) const VF6_IP: Ip4 = [10, 6, 0, 6];
pub(super) const LOCAL_VTEP: Ip4 = [192, 168, 0, 1];
pub(super) const VTEP_A: Ip4 = [192, 168, 0, 20];
pub(super) const VTEP_B: Ip4 = [192, 168, 0, 21];
pub(super) const MGMT_NIC_IP: Ip4 = [172, 16, 0, 1];
pub(super) const MGMT_OPERATOR_IP: Ip4 = [172, 16, 5, 5];
pub(super) const UNDERLAY_HOST_IP: Ip4 = [192, 168, 7, 7];

/// Names for the MACs the demo uses, for the printed frames.
pub(super) const MAC_NAMES: [(Mac, &str); 14] = [
    (A_GW_MAC, "A's gateway"),
    (VF2_MAC, "VF2"),
    (VF3_MAC, "VF3"),
    (A_REMOTE_MAC, "A's remote VM"),
    (B_GW_MAC, "B's gateway"),
    (VF4_MAC, "VF4"),
    (VF5_MAC, "VF5"),
    (B_REMOTE_MAC, "B's remote VM"),
    (VF6_MAC, "VF6"),
    (UPLINK_MAC[0], "uplink 0"),
    (UPLINK_MAC[1], "uplink 1"),
    (TOR_MAC[0], "ToR 0"),
    (TOR_MAC[1], "ToR 1"),
    (BROADCAST, "broadcast"),
];

pub(super) fn tenant_of(port: u32) -> Option<&'static Tenant> {
    VFS.iter().find(|(p, _)| *p == port).and_then(|(_, t)| *t)
}

/// `port 3 (VF3, tenant A)`, `port 0 (uplink 0)`, `port 510 (CPU)`.
pub(super) fn port_label(port: u32) -> String {
    if is_uplink(port) {
        format!("port {port} (uplink {port})")
    } else if port == CPU_PORT {
        format!("port {port} (CPU)")
    } else if is_vf(port) {
        match tenant_of(port) {
            Some(t) => format!("port {port} (VF{port}, tenant {})", t.name),
            None => format!("port {port} (VF{port}, no tenant)"),
        }
    } else {
        format!("port {port}")
    }
}

pub(super) fn mac_text(m: &[u8]) -> String {
    match MAC_NAMES.iter().find(|(mac, _)| mac[..] == *m) {
        Some((_, name)) => (*name).to_string(),
        None => m
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(":"),
    }
}

pub(super) fn ip_text(ip: &[u8]) -> String {
    format!("{}.{}.{}.{}", ip[0], ip[1], ip[2], ip[3])
}
