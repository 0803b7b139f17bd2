//! Mirroring sessions and multicast of `janus ctrl cli`, as P4Runtime
//! CloneSessionEntry and MulticastGroupEntry.
//!
//! bmv2's multicast has nodes (a replication id and ports, by handle)
//! associated with groups; P4Runtime has only the group's replicas. The
//! session keeps the nodes (handles from 0, the lowest free, as bmv2's
//! PRE) and writes a group's replicas, every associated node's ports with
//! its rid, each time one of them changes. A group the session did not
//! create but the device holds keeps the replicas it had.

use super::{CmdResult, Refused, Session, at_least, exactly, int, uin};
use crate::client::values;
use crate::proto::p4::v1 as p4;
use p4::packet_replication_engine_entry::Type as Pre_;
use std::collections::BTreeMap;
use tonic::Code;

/// A multicast node.
#[derive(Clone)]
struct Node {
    rid: u32,
    ports: Vec<u32>,
    group: Option<u32>,
}

/// A group as the session knows it.
#[derive(Default)]
struct Group {
    /// Replicas the device held when the session first touched the group.
    base: Vec<(u32, u32)>,
    /// Associated nodes, in association order.
    nodes: Vec<u32>,
}

/// The session's multicast state.
#[derive(Default)]
pub struct Pre {
    nodes: Vec<Option<Node>>,
    groups: BTreeMap<u32, Group>,
}

fn pre_entity(t: Pre_) -> p4::Entity {
    p4::Entity {
        entity: Some(p4::entity::Entity::PacketReplicationEngineEntry(
            p4::PacketReplicationEngineEntry { r#type: Some(t) },
        )),
    }
}

fn replica(port: u32, rid: u32) -> p4::Replica {
    p4::Replica {
        port_kind: Some(p4::replica::PortKind::Port(values::from_u64(port.into()))),
        instance: rid,
        backup_replicas: vec![],
    }
}

fn port_of(r: &p4::Replica) -> u32 {
    match &r.port_kind {
        Some(p4::replica::PortKind::Port(b)) => b
            .iter()
            .fold(0u32, |a, x| a.wrapping_shl(8) | u32::from(*x)),
        #[allow(deprecated)]
        Some(p4::replica::PortKind::EgressPort(p)) => *p,
        None => 0,
    }
}

fn pre_error(r: &Refused) -> String {
    let name = match r.code {
        Code::NotFound => "INVALID_MGID",
        Code::AlreadyExists => "DUPLICATE_MGID",
        Code::ResourceExhausted => "TABLE_FULL",
        _ => "ERROR",
    };
    format!("Invalid PRE operation ({name}) - {}", r.message)
}

fn mirror_error(r: &Refused) -> String {
    let name = match r.code {
        Code::NotFound => "SESSION_NOT_FOUND",
        _ => "ERROR",
    };
    format!("Invalid mirroring operation ({name}) - {}", r.message)
}

/// runtime_CLI's port map: one character per port up to the highest, `1`
/// where a port is, highest port first.
fn port_map(ports: &[u32]) -> String {
    let Some(max) = ports.iter().max() else {
        return String::new();
    };
    (0..=*max)
        .rev()
        .map(|p| if ports.contains(&p) { '1' } else { '0' })
        .collect()
}

fn parse_ports(words: &[&str]) -> Result<Vec<u32>, String> {
    let mut ports = Vec::new();
    for w in words.iter().take_while(|w| **w != "|") {
        let p: u32 = w
            .parse()
            .map_err(|_| uin(format!("'{w}' is not a valid port number")))?;
        if ports.contains(&p) {
            return Err(uin(format!("Found duplicate port number '{p}'")));
        }
        ports.push(p);
    }
    if words.contains(&"|") {
        return Err(uin(
            "LAGs are not supported: P4Runtime's packet replication engine has none",
        ));
    }
    ports.sort();
    Ok(ports)
}

fn mgrp(text: &str) -> Result<u32, String> {
    text.parse()
        .map_err(|_| uin("Bad format for multicast group id"))
}

fn node_handle(text: &str) -> Result<u32, String> {
    text.parse().map_err(|_| uin("Bad format for node handle"))
}

/// The group as the device holds it (None: no such group).
async fn read_group(s: &mut Session, id: u32) -> Result<Option<p4::MulticastGroupEntry>, Refused> {
    let filter = pre_entity(Pre_::MulticastGroupEntry(p4::MulticastGroupEntry {
        multicast_group_id: id,
        ..Default::default()
    }));
    let group = |e| match e {
        p4::entity::Entity::PacketReplicationEngineEntry(p) => match p.r#type {
            Some(Pre_::MulticastGroupEntry(g)) => Some(g),
            _ => None,
        },
        _ => None,
    };
    match s.read_first(filter, group).await {
        Ok(g) => Ok(g),
        Err(r) if r.code == Code::NotFound => Ok(None),
        Err(r) => Err(r),
    }
}

/// Makes sure the session knows group `id` (reading it from the device);
/// an error when the device has no such group.
async fn known_group(s: &mut Session, id: u32) -> Result<(), String> {
    if s.pre.groups.contains_key(&id) {
        return Ok(());
    }
    match read_group(s, id).await.map_err(|r| pre_error(&r))? {
        Some(g) => {
            let base = g
                .replicas
                .iter()
                .map(|r| (port_of(r), r.instance))
                .collect();
            s.pre.groups.insert(
                id,
                Group {
                    base,
                    nodes: vec![],
                },
            );
            Ok(())
        }
        None => Err(format!(
            "Invalid PRE operation (INVALID_MGID) - no multicast group {id}"
        )),
    }
}

/// Writes group `id`'s replicas.
async fn write_group(s: &mut Session, id: u32) -> Result<(), String> {
    let g = &s.pre.groups[&id];
    let mut replicas: Vec<p4::Replica> = g.base.iter().map(|&(p, r)| replica(p, r)).collect();
    for n in &g.nodes {
        if let Some(Some(node)) = s.pre.nodes.get(*n as usize) {
            replicas.extend(node.ports.iter().map(|&p| replica(p, node.rid)));
        }
    }
    let e = pre_entity(Pre_::MulticastGroupEntry(p4::MulticastGroupEntry {
        multicast_group_id: id,
        replicas,
        metadata: vec![],
    }));
    s.write(p4::update::Type::Modify, e)
        .await
        .map_err(|r| pre_error(&r))
}

fn node(s: &mut Session, h: u32) -> Result<&mut Node, String> {
    match s.pre.nodes.get_mut(h as usize) {
        Some(Some(n)) => Ok(n),
        _ => Err(format!(
            "Invalid PRE operation (INVALID_L1_HANDLE) - this session made no node {h}"
        )),
    }
}

/// Runs a mirroring or multicast command; None when `cmd` is not one.
pub async fn run(s: &mut Session, cmd: &str, args: &[&str]) -> Option<CmdResult> {
    Some(match cmd {
        "mirroring_add" => mirroring_add(s, args).await,
        "mirroring_delete" => mirroring_delete(s, args).await,
        "mirroring_get" => mirroring_get(s, args).await,
        "mc_mgrp_create" => mgrp_create(s, args).await,
        "mc_mgrp_destroy" => mgrp_destroy(s, args).await,
        "mc_node_create" => node_create(s, args),
        "mc_node_update" => node_update(s, args).await,
        "mc_node_associate" => associate(s, args, true).await,
        "mc_node_dissociate" => associate(s, args, false).await,
        "mc_node_destroy" => node_destroy(s, args).await,
        "mc_dump" => mc_dump(s).await,
        _ => return None,
    })
}

fn session_entity(id: u32, port: Option<u32>) -> p4::Entity {
    pre_entity(Pre_::CloneSessionEntry(p4::CloneSessionEntry {
        session_id: id,
        replicas: port.map(|p| replica(p, 0)).into_iter().collect(),
        ..Default::default()
    }))
}

async fn mirroring_add(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 2)?;
    let id: u32 = int(args[0], "mirror_id")?;
    let port: u32 = int(args[1], "egress_port")?;
    // bmv2 replaces a session's configuration: INSERT, else MODIFY.
    match s
        .write(p4::update::Type::Insert, session_entity(id, Some(port)))
        .await
    {
        Err(r) if r.code == Code::AlreadyExists => s
            .write(p4::update::Type::Modify, session_entity(id, Some(port)))
            .await
            .map_err(|r| mirror_error(&r)),
        other => other.map_err(|r| mirror_error(&r)),
    }
}

async fn mirroring_delete(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let id: u32 = int(args[0], "mirror_id")?;
    s.write(p4::update::Type::Delete, session_entity(id, None))
        .await
        .map_err(|r| mirror_error(&r))
}

async fn mirroring_get(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let id: u32 = int(args[0], "mirror_id")?;
    let found = s
        .read_first(session_entity(id, None), |e| match e {
            p4::entity::Entity::PacketReplicationEngineEntry(p) => match p.r#type {
                Some(Pre_::CloneSessionEntry(c)) if c.session_id == id => Some(c),
                _ => None,
            },
            _ => None,
        })
        .await
        .map_err(|r| mirror_error(&r))?;
    let Some(c) = found else {
        return Err("Invalid mirroring operation (SESSION_NOT_FOUND)".into());
    };
    let line = match c.replicas.as_slice() {
        [r] => format!("MirroringSessionConfig(mgid=None, port={})", port_of(r)),
        rs => format!(
            "MirroringSessionConfig(mgid=None, port=None) replicas=[{}]",
            rs.iter()
                .map(|r| format!("(port={}, rid={})", port_of(r), r.instance))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    s.say(line);
    Ok(())
}

async fn mgrp_create(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let id = mgrp(args[0])?;
    s.say(format!("Creating multicast group {id}"));
    let e = pre_entity(Pre_::MulticastGroupEntry(p4::MulticastGroupEntry {
        multicast_group_id: id,
        ..Default::default()
    }));
    s.write(p4::update::Type::Insert, e)
        .await
        .map_err(|r| pre_error(&r))?;
    s.pre.groups.insert(id, Group::default());
    Ok(())
}

async fn mgrp_destroy(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let id = mgrp(args[0])?;
    s.say(format!("Destroying multicast group {id}"));
    let e = pre_entity(Pre_::MulticastGroupEntry(p4::MulticastGroupEntry {
        multicast_group_id: id,
        ..Default::default()
    }));
    s.write(p4::update::Type::Delete, e)
        .await
        .map_err(|r| pre_error(&r))?;
    if let Some(g) = s.pre.groups.remove(&id) {
        for n in g.nodes {
            if let Some(Some(node)) = s.pre.nodes.get_mut(n as usize) {
                node.group = None;
            }
        }
    }
    Ok(())
}

fn node_create(s: &mut Session, args: &[&str]) -> CmdResult {
    at_least(args, 1)?;
    let rid: u32 = args[0].parse().map_err(|_| uin("Bad format for rid"))?;
    let ports = parse_ports(&args[1..])?;
    // simple_switch_CLI runs with the LAG-capable PRE; its line.
    s.say(format!(
        "Creating node with rid {rid} , port map {} and lag map ",
        port_map(&ports)
    ));
    let n = Node {
        rid,
        ports,
        group: None,
    };
    let h = match s.pre.nodes.iter().position(Option::is_none) {
        Some(i) => {
            s.pre.nodes[i] = Some(n);
            i
        }
        None => {
            s.pre.nodes.push(Some(n));
            s.pre.nodes.len() - 1
        }
    };
    s.say(format!("node was created with handle {h}"));
    Ok(())
}

async fn node_update(s: &mut Session, args: &[&str]) -> CmdResult {
    at_least(args, 2)?;
    let h = node_handle(args[0])?;
    let ports = parse_ports(&args[1..])?;
    s.say(format!(
        "Updating node {h} with port map {} and lag map ",
        port_map(&ports)
    ));
    let n = node(s, h)?;
    n.ports = ports;
    match n.group {
        Some(g) => write_group(s, g).await,
        None => Ok(()),
    }
}

async fn associate(s: &mut Session, args: &[&str], on: bool) -> CmdResult {
    exactly(args, 2)?;
    let g = mgrp(args[0])?;
    let h = node_handle(args[1])?;
    if on {
        s.say(format!("Associating node {h} to multicast group {g}"));
    } else {
        s.say(format!("Dissociating node {h} from multicast group {g}"));
    }
    let current = node(s, h)?.group;
    known_group(s, g).await?;
    match (on, current) {
        (true, Some(_)) => {
            return Err(format!(
                "Invalid PRE operation (L1_HANDLE_ALREADY_ASSOCIATED) - node {h} is in a group"
            ));
        }
        (false, c) if c != Some(g) => {
            return Err(format!(
                "Invalid PRE operation (L1_HANDLE_NOT_ASSOCIATED) - node {h} is not in group {g}"
            ));
        }
        _ => {}
    }
    let group = s.pre.groups.get_mut(&g).expect("known group");
    if on {
        group.nodes.push(h);
    } else {
        group.nodes.retain(|n| *n != h);
    }
    let result = write_group(s, g).await;
    let group = s.pre.groups.get_mut(&g).expect("known group");
    match (&result, on) {
        (Ok(()), _) => node(s, h)?.group = on.then_some(g),
        // Not written: the session's view stays the device's.
        (Err(_), true) => group.nodes.retain(|n| *n != h),
        (Err(_), false) => group.nodes.push(h),
    }
    result
}

async fn node_destroy(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let h = node_handle(args[0])?;
    s.say(format!("Destroying node {h}"));
    let group = node(s, h)?.group;
    s.pre.nodes[h as usize] = None;
    if let Some(g) = group {
        if let Some(grp) = s.pre.groups.get_mut(&g) {
            grp.nodes.retain(|n| *n != h);
        }
        write_group(s, g).await?;
    }
    Ok(())
}

async fn mc_dump(s: &mut Session) -> CmdResult {
    let filter = pre_entity(Pre_::MulticastGroupEntry(p4::MulticastGroupEntry::default()));
    let mut groups: Vec<p4::MulticastGroupEntry> = s
        .read(filter)
        .await
        .map_err(|r| pre_error(&r))?
        .into_iter()
        .filter_map(|e| match e.entity {
            Some(p4::entity::Entity::PacketReplicationEngineEntry(p)) => match p.r#type {
                Some(Pre_::MulticastGroupEntry(g)) => Some(g),
                _ => None,
            },
            _ => None,
        })
        .collect();
    groups.sort_by_key(|g| g.multicast_group_id);
    let mut lines = vec!["==========".to_string(), "MC ENTRIES".to_string()];
    for g in &groups {
        lines.push("**********".to_string());
        lines.push(format!("mgrp({})", g.multicast_group_id));
        let known = s.pre.groups.get(&g.multicast_group_id);
        match known {
            Some(k) if k.base.is_empty() => {
                for h in &k.nodes {
                    if let Some(Some(n)) = s.pre.nodes.get(*h as usize) {
                        lines.push(node_line(&h.to_string(), n.rid, &n.ports));
                    }
                }
            }
            // Replicas no node of this session describes: by rid.
            _ => {
                let mut by_rid: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
                for r in &g.replicas {
                    by_rid.entry(r.instance).or_default().push(port_of(r));
                }
                for (rid, ports) in by_rid {
                    lines.push(node_line("?", rid, &ports));
                }
            }
        }
    }
    lines.extend(["==========".to_string(), "LAGS".to_string()]);
    lines.push("None for this PRE type".to_string());
    lines.push("==========".to_string());
    for l in lines {
        s.say(l);
    }
    Ok(())
}

fn node_line(handle: &str, rid: u32, ports: &[u32]) -> String {
    let ports: Vec<String> = ports.iter().map(u32::to_string).collect();
    format!(
        "  -> (L1h={handle}, rid={rid}) -> (ports=[{}], lags=[])",
        ports.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_maps_read_as_runtime_cli_prints_them() {
        assert_eq!(port_map(&[0, 3]), "1001");
        assert_eq!(port_map(&[7]), "10000000");
        assert_eq!(port_map(&[]), "");
        assert!(parse_ports(&["1", "1"]).is_err());
        assert_eq!(parse_ports(&["3", "1"]).unwrap(), vec![1, 3]);
    }
}
