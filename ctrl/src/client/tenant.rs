//! A tenant of p4/sdn.p4 and the table entries that make it: the one
//! mapping `janus ctrl tenant add|del` and `janus demo` both use (the
//! entries are those `p4/demo/sdn_demo.entries` writes for each tenant).
//!
//! For tenant `id` with VNI `vni`:
//! - each VF (port, MAC, IPv4): `vf_tenants` port -> `assign_vf(id, vni)`,
//!   `vf_owners` port -> `set_port_owner(id)`, the anti-spoofing entries
//!   `vf_mac_sources` (port, MAC) and `vf_ipv4_sources` (port, IPv4) ->
//!   `source_allowed()`, `tenant_macs` (vni, MAC) -> `bridge_to_vf(port)`
//!   and the host route `tenant_routes` (id, IPv4/32) ->
//!   `route_to_vf(port, MAC)`;
//! - `vni_tenants` vni -> `set_tenant(id)`;
//! - the gateway: `tenant_gateways` id -> `set_gateway(MAC, IPv4, IPv6)`;
//! - each tunnel: `tunnels` id -> `set_tunnel(remote VTEP, underlay MAC,
//!   uplink)`;
//! - each remote prefix: `tenant_routes` (id, prefix) ->
//!   `route_to_remote(tunnel, next MAC)`.
//!
//! Deleting a tenant reads the device and removes every entry keyed by,
//! or assigning to, the tenant (its id, its VFs, its VNIs), its security
//! group rules, and the tunnels only its routes and MACs use.

use super::entries::EntrySpec;
use super::schema::{self, Schema};
use super::values as value;
use crate::proto::p4::v1 as p4;
use std::collections::{BTreeMap, BTreeSet};
use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

/// A MAC address.
pub type Mac = [u8; 6];

/// A VF of the tenant: `port=N,mac=M,ip=A`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vf {
    pub port: u32,
    pub mac: Mac,
    pub ipv4: Ipv4Addr,
}

/// The tenant's gateway: `mac=M,ip=A[,ip6=A6]` (IPv6 `::` when left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gateway {
    pub mac: Mac,
    pub ipv4: Ipv4Addr,
    pub ipv6: Ipv6Addr,
}

/// A VXLAN tunnel: `id=N,vtep=A,underlay-mac=M,uplink=N`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tunnel {
    pub id: u32,
    pub remote_vtep: Ipv4Addr,
    pub underlay_mac: Mac,
    pub uplink: u32,
}

/// A prefix of the tenant on another server:
/// `prefix=A/LEN,tunnel=N,next-mac=M`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remote {
    pub prefix: Ipv4Addr,
    pub len: u8,
    pub tunnel: u32,
    pub next_mac: Mac,
}

/// Everything `tenant add` configures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TenantSpec {
    pub id: u32,
    pub vni: u32,
    pub gateway: Option<Gateway>,
    pub vfs: Vec<Vf>,
    pub tunnels: Vec<Tunnel>,
    pub remotes: Vec<Remote>,
}

pub fn mac_text(m: &Mac) -> String {
    m.iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(":")
}

impl TenantSpec {
    /// The entries, in the order they are written.
    pub fn entries(&self) -> Vec<EntrySpec> {
        let (id, vni) = (self.id.to_string(), self.vni.to_string());
        let mut out = Vec::new();
        for vf in &self.vfs {
            let (port, mac) = (vf.port.to_string(), mac_text(&vf.mac));
            out.extend([
                EntrySpec::new(
                    "vf_tenants",
                    &[("ingress_port", port.clone())],
                    "assign_vf",
                    &[("tenant", id.clone()), ("vni", vni.clone())],
                ),
                EntrySpec::new(
                    "vf_owners",
                    &[("sm.egress_port", port.clone())],
                    "set_port_owner",
                    &[("tenant", id.clone())],
                ),
                EntrySpec::new(
                    "vf_mac_sources",
                    &[
                        ("ingress_port", port.clone()),
                        ("hdr.ethernet.src_addr", mac.clone()),
                    ],
                    "source_allowed",
                    &[],
                ),
                EntrySpec::new(
                    "vf_ipv4_sources",
                    &[
                        ("ingress_port", port.clone()),
                        ("meta.src_ipv4", vf.ipv4.to_string()),
                    ],
                    "source_allowed",
                    &[],
                ),
                EntrySpec::new(
                    "tenant_macs",
                    &[
                        ("meta.vni", vni.clone()),
                        ("hdr.ethernet.dst_addr", mac.clone()),
                    ],
                    "bridge_to_vf",
                    &[("port", port.clone())],
                ),
                EntrySpec::new(
                    "tenant_routes",
                    &[
                        ("vrf", id.clone()),
                        ("hdr.ipv4.dst_addr", format!("{}/32", vf.ipv4)),
                    ],
                    "route_to_vf",
                    &[("port", port), ("next_mac", mac)],
                ),
            ]);
        }
        out.push(EntrySpec::new(
            "vni_tenants",
            &[("hdr.vxlan.vni", vni.clone())],
            "set_tenant",
            &[("tenant", id.clone())],
        ));
        if let Some(g) = &self.gateway {
            out.push(EntrySpec::new(
                "tenant_gateways",
                &[("meta.tenant", id.clone())],
                "set_gateway",
                &[
                    ("mac", mac_text(&g.mac)),
                    ("ipv4", g.ipv4.to_string()),
                    ("ipv6", g.ipv6.to_string()),
                ],
            ));
        }
        for t in &self.tunnels {
            out.push(EntrySpec::new(
                "tunnels",
                &[("meta.tunnel", t.id.to_string())],
                "set_tunnel",
                &[
                    ("remote_vtep", t.remote_vtep.to_string()),
                    ("underlay_mac", mac_text(&t.underlay_mac)),
                    ("uplink", t.uplink.to_string()),
                ],
            ));
        }
        for r in &self.remotes {
            out.push(EntrySpec::new(
                "tenant_routes",
                &[
                    ("vrf", id.clone()),
                    ("hdr.ipv4.dst_addr", format!("{}/{}", r.prefix, r.len)),
                ],
                "route_to_remote",
                &[
                    ("tunnel", r.tunnel.to_string()),
                    ("next_mac", mac_text(&r.next_mac)),
                ],
            ));
        }
        out
    }
}

/// The tables a tenant's entries live in (read by [`entries_to_delete`]).
pub const TENANT_TABLES: [&str; 10] = [
    "vf_tenants",
    "vf_owners",
    "vf_mac_sources",
    "vf_ipv4_sources",
    "vf_ipv6_sources",
    "tenant_macs",
    "tenant_routes",
    "vni_tenants",
    "tenant_gateways",
    "security_group_rules",
];

/// An entry read back, with its fields and parameters by name.
struct Read<'a> {
    table: &'a str,
    entry: &'a p4::TableEntry,
    fields: BTreeMap<&'a str, &'a [u8]>,
    action: &'a str,
    params: BTreeMap<&'a str, &'a [u8]>,
}

fn view<'a>(schema: &'a Schema, table: &'a str, e: &'a p4::TableEntry) -> Read<'a> {
    use crate::proto::p4::v1::field_match::FieldMatchType as F;
    let t = schema.table_by_id(e.table_id);
    let mut fields = BTreeMap::new();
    for m in &e.r#match {
        let name = t
            .and_then(|t| t.match_fields.iter().find(|f| f.id == m.field_id))
            .map_or("", |f| f.name.as_str());
        let v: &[u8] = match &m.field_match_type {
            Some(F::Exact(x)) => &x.value,
            Some(F::Lpm(x)) => &x.value,
            Some(F::Ternary(x)) => &x.value,
            Some(F::Optional(x)) => &x.value,
            Some(F::Range(x)) => &x.low,
            _ => &[],
        };
        fields.insert(name, v);
    }
    let (mut action, mut params) = ("", BTreeMap::new());
    if let Some(p4::table_action::Type::Action(a)) =
        e.action.as_ref().and_then(|a| a.r#type.as_ref())
        && let Some(info) = schema.action_by_id(a.action_id)
    {
        action = schema::shown(info.preamble.as_ref());
        for p in &a.params {
            if let Some(q) = info.params.iter().find(|q| q.id == p.param_id) {
                params.insert(q.name.as_str(), p.value.as_slice());
            }
        }
    }
    Read {
        table,
        entry: e,
        fields,
        action,
        params,
    }
}

/// The entries that make tenant `id`, found among `read` (table short
/// name, entry) as the device holds them: what `tenant del` removes.
pub fn entries_to_delete(
    schema: &Schema,
    read: &[(String, p4::TableEntry)],
    id: u32,
) -> Vec<p4::TableEntry> {
    let rows: Vec<Read> = read.iter().map(|(t, e)| view(schema, t, e)).collect();
    let me = value::from_u64(u64::from(id));
    let is_me = |v: Option<&&[u8]>| v.is_some_and(|v| value::canonical(v) == me);
    let ports: BTreeSet<Vec<u8>> = rows
        .iter()
        .filter(|r| r.table == "vf_tenants" && is_me(r.params.get("tenant")))
        .filter_map(|r| r.fields.get("ingress_port").map(|v| value::canonical(v)))
        .collect();
    let mut vnis: BTreeSet<Vec<u8>> = rows
        .iter()
        .filter(|r| r.table == "vf_tenants" && is_me(r.params.get("tenant")))
        .filter_map(|r| r.params.get("vni").map(|v| value::canonical(v)))
        .collect();
    vnis.extend(
        rows.iter()
            .filter(|r| r.table == "vni_tenants" && is_me(r.params.get("tenant")))
            .filter_map(|r| r.fields.get("hdr.vxlan.vni").map(|v| value::canonical(v))),
    );
    let in_set = |set: &BTreeSet<Vec<u8>>, v: Option<&&[u8]>| {
        v.is_some_and(|v| set.contains(&value::canonical(v)))
    };
    let mine = |r: &Read| -> bool {
        match r.table {
            "vf_tenants" | "vni_tenants" | "vf_owners" => is_me(r.params.get("tenant")),
            "vf_mac_sources" | "vf_ipv4_sources" | "vf_ipv6_sources" => {
                in_set(&ports, r.fields.get("ingress_port"))
            }
            "tenant_macs" => in_set(&vnis, r.fields.get("meta.vni")),
            "tenant_routes" => is_me(r.fields.get("vrf")),
            "tenant_gateways" | "security_group_rules" => is_me(r.fields.get("meta.tenant")),
            _ => false,
        }
    };
    // Tunnels the tenant's routes and MACs use, unless another's use them.
    let tunnels_of = |keep: bool| -> BTreeSet<Vec<u8>> {
        rows.iter()
            .filter(|r| mine(r) == keep)
            .filter(|r| r.action.ends_with("_remote"))
            .filter_map(|r| r.params.get("tunnel").map(|v| value::canonical(v)))
            .collect()
    };
    let others = tunnels_of(false);
    let tunnels: BTreeSet<Vec<u8>> = tunnels_of(true).difference(&others).cloned().collect();
    rows.iter()
        .filter(|r| {
            mine(r) || (r.table == "tunnels" && in_set(&tunnels, r.fields.get("meta.tunnel")))
        })
        .map(|r| p4::TableEntry {
            table_id: r.entry.table_id,
            r#match: r.entry.r#match.clone(),
            priority: r.entry.priority,
            ..Default::default()
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Command-line forms: `key=value,key=value`
// ---------------------------------------------------------------------------

/// The `key=value` pairs of `text`, each key once and all of `keys`'
/// required ones present.
fn pairs<'a>(
    text: &'a str,
    required: &[&str],
    optional: &[&str],
) -> Result<BTreeMap<&'a str, &'a str>, String> {
    let mut out = BTreeMap::new();
    for part in text.split(',') {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("`{part}`: expected KEY=VALUE"))?;
        let k = k.trim();
        if !required.contains(&k) && !optional.contains(&k) {
            let mut all: Vec<&str> = required.to_vec();
            all.extend(optional);
            return Err(format!("unknown key `{k}` (expected {})", all.join(", ")));
        }
        if out.insert(k, v.trim()).is_some() {
            return Err(format!("`{k}` given twice"));
        }
    }
    if let Some(missing) = required.iter().find(|k| !out.contains_key(*k)) {
        return Err(format!("`{missing}=...` is missing"));
    }
    Ok(out)
}

fn mac(text: &str) -> Result<Mac, String> {
    let v = value::parse(text, 48)?;
    let mut m = [0u8; 6];
    m[6 - v.len()..].copy_from_slice(&v);
    Ok(m)
}

fn ipv4(text: &str) -> Result<Ipv4Addr, String> {
    text.parse()
        .map_err(|_| format!("`{text}` is not an IPv4 address"))
}

fn number(text: &str, max: u64) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|v| u64::from(*v) <= max)
        .ok_or_else(|| format!("`{text}` is not a number from 0 to {max}"))
}

impl FromStr for Vf {
    type Err = String;
    fn from_str(s: &str) -> Result<Vf, String> {
        let p = pairs(s, &["port", "mac", "ip"], &[])?;
        Ok(Vf {
            port: number(p["port"], 511)?,
            mac: mac(p["mac"])?,
            ipv4: ipv4(p["ip"])?,
        })
    }
}

impl FromStr for Gateway {
    type Err = String;
    fn from_str(s: &str) -> Result<Gateway, String> {
        let p = pairs(s, &["mac", "ip"], &["ip6"])?;
        Ok(Gateway {
            mac: mac(p["mac"])?,
            ipv4: ipv4(p["ip"])?,
            ipv6: match p.get("ip6") {
                Some(t) => t
                    .parse()
                    .map_err(|_| format!("`{t}` is not an IPv6 address"))?,
                None => Ipv6Addr::UNSPECIFIED,
            },
        })
    }
}

impl FromStr for Tunnel {
    type Err = String;
    fn from_str(s: &str) -> Result<Tunnel, String> {
        let p = pairs(s, &["id", "vtep", "underlay-mac", "uplink"], &[])?;
        Ok(Tunnel {
            id: number(p["id"], 0xffff)?,
            remote_vtep: ipv4(p["vtep"])?,
            underlay_mac: mac(p["underlay-mac"])?,
            uplink: number(p["uplink"], 511)?,
        })
    }
}

impl FromStr for Remote {
    type Err = String;
    fn from_str(s: &str) -> Result<Remote, String> {
        let p = pairs(s, &["prefix", "tunnel", "next-mac"], &[])?;
        let (addr, len) = p["prefix"]
            .split_once('/')
            .ok_or_else(|| format!("`{}`: expected A.B.C.D/LEN", p["prefix"]))?;
        Ok(Remote {
            prefix: ipv4(addr)?,
            len: number(len, 32)? as u8,
            tunnel: number(p["tunnel"], 0xffff)?,
            next_mac: mac(p["next-mac"])?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_forms_parse_and_refuse_mistakes() {
        let vf: Vf = "port=2,mac=02:00:00:00:01:02,ip=10.1.0.2".parse().unwrap();
        assert_eq!(
            (vf.port, vf.mac[5], vf.ipv4),
            (2, 2, Ipv4Addr::new(10, 1, 0, 2))
        );
        let g: Gateway = "mac=02:00:00:00:01:01,ip=10.1.0.1".parse().unwrap();
        assert_eq!(g.ipv6, Ipv6Addr::UNSPECIFIED);
        let r: Remote = "prefix=10.1.8.0/24,tunnel=1,next-mac=02:00:00:00:01:20"
            .parse()
            .unwrap();
        assert_eq!(r.len, 24);
        assert!(
            "port=2,mac=02:00:00:00:01:02"
                .parse::<Vf>()
                .unwrap_err()
                .contains("ip=")
        );
        assert!("port=600,mac=1,ip=1.2.3.4".parse::<Vf>().is_err());
        assert!("port=2,port=3".parse::<Vf>().unwrap_err().contains("twice"));
        assert!(
            "color=red"
                .parse::<Gateway>()
                .unwrap_err()
                .contains("unknown key")
        );
    }
}
