//! The packet replication engine: multicast groups and clone sessions
//! (P4Runtime 1.5 §9.5), kept as the client wrote them (canonical) and
//! programmed into the switch's groups and mirroring sessions. A clone
//! session of several replicas takes a switch group of its own, from the
//! top of the 16-bit group space, which no client group then may use.

use crate::codec::{RpcError, from_bytes, invalid, to_bytes, u64_of};
use crate::proto::p4::v1 as p4;
use janus_engine::target::{MirrorTarget, Target};
use janus_engine::value::Bits;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use tonic::Code;

/// The largest port number of the v1model pipeline (9 bits).
const MAX_PORT: u32 = 511;

/// The multicast groups and clone sessions of a pipeline.
#[derive(Debug)]
pub(crate) struct Replication {
    /// Multicast groups as the client wrote them (canonical).
    groups: BTreeMap<u32, p4::MulticastGroupEntry>,
    /// Clone sessions as the client wrote them (canonical), with the
    /// multicast group made for a session of several replicas.
    sessions: BTreeMap<u32, (p4::CloneSessionEntry, Option<u16>)>,
    /// The switch group of each clone session of several replicas, by
    /// group: which session uses it.
    session_groups: HashMap<u16, u32>,
    /// Switch groups neither a client's group nor a session uses (a
    /// session takes the highest).
    free_groups: BTreeSet<u16>,
}

impl Default for Replication {
    fn default() -> Replication {
        Replication {
            groups: BTreeMap::new(),
            sessions: BTreeMap::new(),
            session_groups: HashMap::new(),
            free_groups: (1..=u16::MAX).collect(),
        }
    }
}

impl Replication {
    /// A PacketReplicationEngineEntry update.
    pub(crate) fn write(
        &mut self,
        switch: &mut dyn Target,
        kind: p4::update::Type,
        e: &p4::PacketReplicationEngineEntry,
    ) -> Result<(), RpcError> {
        use p4::packet_replication_engine_entry::Type as T;
        match e.r#type.as_ref() {
            Some(T::MulticastGroupEntry(g)) => self.write_group(switch, kind, g),
            Some(T::CloneSessionEntry(c)) => self.write_session(switch, kind, c),
            None => Err(invalid("an empty packet replication engine entry")),
        }
    }

    fn write_group(
        &mut self,
        switch: &mut dyn Target,
        kind: p4::update::Type,
        g: &p4::MulticastGroupEntry,
    ) -> Result<(), RpcError> {
        use p4::update::Type;
        let id = g.multicast_group_id;
        if id == 0 {
            return Err(invalid("multicast group id 0 is reserved (wildcard reads)"));
        }
        let Ok(switch_id) = u16::try_from(id) else {
            return Err(invalid(format!(
                "multicast group {id}: v1model group ids are 16 bits"
            )));
        };
        if let Some(s) = self.session_groups.get(&switch_id) {
            return Err(RpcError::new(
                Code::ResourceExhausted,
                format!("multicast group {id} is in use by clone session {s}"),
            ));
        }
        let exists = self.groups.contains_key(&id);
        match kind {
            Type::Insert if exists => Err(RpcError::new(
                Code::AlreadyExists,
                format!("multicast group {id} exists"),
            )),
            Type::Modify | Type::Delete if !exists => Err(RpcError::new(
                Code::NotFound,
                format!("no multicast group {id}"),
            )),
            Type::Insert | Type::Modify => {
                let replicas = replicas(&g.replicas, &format!("multicast group {id}"))?;
                set_switch_group(switch, switch_id, &replicas);
                self.free_groups.remove(&switch_id);
                self.groups.insert(
                    id,
                    p4::MulticastGroupEntry {
                        multicast_group_id: id,
                        replicas: replicas.iter().map(|&r| replica_proto(r)).collect(),
                        metadata: g.metadata.clone(),
                    },
                );
                Ok(())
            }
            Type::Delete => {
                set_switch_group(switch, switch_id, &[]);
                self.groups.remove(&id);
                self.free_groups.insert(switch_id);
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    fn write_session(
        &mut self,
        switch: &mut dyn Target,
        kind: p4::update::Type,
        c: &p4::CloneSessionEntry,
    ) -> Result<(), RpcError> {
        use p4::update::Type;
        let id = c.session_id;
        if id == 0 {
            return Err(invalid("clone session id 0 is reserved (wildcard reads)"));
        }
        let what = format!("clone session {id}");
        let exists = self.sessions.contains_key(&id);
        match kind {
            Type::Insert if exists => {
                Err(RpcError::new(Code::AlreadyExists, format!("{what} exists")))
            }
            Type::Modify | Type::Delete if !exists => {
                Err(RpcError::new(Code::NotFound, format!("no {what}")))
            }
            Type::Insert | Type::Modify => {
                if c.packet_length_bytes < 0 {
                    return Err(invalid(format!("{what}: negative packet_length_bytes")));
                }
                if c.packet_length_bytes > 0 {
                    return Err(RpcError::new(
                        Code::Unimplemented,
                        format!("{what}: truncating clones (packet_length_bytes) is not supported"),
                    ));
                }
                let replicas = replicas(&c.replicas, &what)?;
                let old_group = self.sessions.get(&id).and_then(|(_, g)| *g);
                let group = match replicas.as_slice() {
                    [] => None,
                    [(port, 0)] => {
                        switch.mirroring_add(id, MirrorTarget::Port(*port));
                        None
                    }
                    _ => {
                        let g = match old_group {
                            Some(g) => g,
                            None => self.free_groups.pop_last().ok_or_else(|| {
                                RpcError::new(
                                    Code::ResourceExhausted,
                                    format!("{what}: no multicast group left for its replicas"),
                                )
                            })?,
                        };
                        self.session_groups.insert(g, id);
                        set_switch_group(switch, g, &replicas);
                        switch.mirroring_add(id, MirrorTarget::Group(g));
                        Some(g)
                    }
                };
                if replicas.is_empty() {
                    // A session never programmed has nothing to remove.
                    let _ = switch.mirroring_delete(id);
                }
                if let Some(g) = old_group.filter(|g| Some(*g) != group) {
                    self.release_session_group(switch, g);
                }
                self.sessions.insert(
                    id,
                    (
                        p4::CloneSessionEntry {
                            session_id: id,
                            replicas: replicas.iter().map(|&r| replica_proto(r)).collect(),
                            class_of_service: c.class_of_service,
                            packet_length_bytes: 0,
                        },
                        group,
                    ),
                );
                Ok(())
            }
            Type::Delete => {
                let _ = switch.mirroring_delete(id);
                if let Some((_, Some(g))) = self.sessions.remove(&id) {
                    self.release_session_group(switch, g);
                }
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    /// Gives a clone session's switch group back to the free pool.
    fn release_session_group(&mut self, switch: &mut dyn Target, group: u16) {
        set_switch_group(switch, group, &[]);
        self.session_groups.remove(&group);
        self.free_groups.insert(group);
    }

    /// The PRE entries a read asks for (id 0: all of that kind).
    pub(crate) fn read(
        &self,
        f: &p4::PacketReplicationEngineEntry,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        use p4::packet_replication_engine_entry::Type as T;
        let wrap = |t: T| p4::Entity {
            entity: Some(p4::entity::Entity::PacketReplicationEngineEntry(
                p4::PacketReplicationEngineEntry { r#type: Some(t) },
            )),
        };
        Ok(match f.r#type.as_ref() {
            Some(T::MulticastGroupEntry(g)) if g.multicast_group_id != 0 => self
                .groups
                .get(&g.multicast_group_id)
                .map(|e| wrap(T::MulticastGroupEntry(e.clone())))
                .into_iter()
                .collect(),
            Some(T::MulticastGroupEntry(_)) => self
                .groups
                .values()
                .map(|e| wrap(T::MulticastGroupEntry(e.clone())))
                .collect(),
            Some(T::CloneSessionEntry(c)) if c.session_id != 0 => self
                .sessions
                .get(&c.session_id)
                .map(|(e, _)| wrap(T::CloneSessionEntry(e.clone())))
                .into_iter()
                .collect(),
            Some(T::CloneSessionEntry(_)) => self
                .sessions
                .values()
                .map(|(e, _)| wrap(T::CloneSessionEntry(e.clone())))
                .collect(),
            None => {
                let mut all: Vec<p4::Entity> = self
                    .groups
                    .values()
                    .map(|e| wrap(T::MulticastGroupEntry(e.clone())))
                    .collect();
                all.extend(
                    self.sessions
                        .values()
                        .map(|(e, _)| wrap(T::CloneSessionEntry(e.clone()))),
                );
                all
            }
        })
    }
}

/// Makes switch group `group` copy to `replicas` (none: no copies), in
/// replication id order, each id's ports as given: one step, whatever
/// the group held before.
fn set_switch_group(switch: &mut dyn Target, group: u16, replicas: &[(u32, u16)]) {
    let mut copies: Vec<(u16, u32)> = replicas.iter().map(|&(port, rid)| (rid, port)).collect();
    copies.sort_by_key(|&(rid, _)| rid);
    switch.mc_group_set(group, copies);
}

/// Replicas as (port, instance), checked: a port of at most 9 bits, an
/// instance of at most 16 bits (v1model's egress_rid), no duplicates, no
/// backup replicas.
fn replicas(rs: &[p4::Replica], what: &str) -> Result<Vec<(u32, u16)>, RpcError> {
    use p4::replica::PortKind;
    let mut out = Vec::with_capacity(rs.len());
    for r in rs {
        let port = match &r.port_kind {
            Some(PortKind::Port(b)) => {
                let v = from_bytes(b, 32, false, &format!("{what}: port"))
                    .map_err(|e| invalid(e.message))?;
                u64_of(&v).unwrap_or(u64::MAX)
            }
            #[allow(deprecated)]
            Some(PortKind::EgressPort(p)) => u64::from(*p),
            None => return Err(invalid(format!("{what}: a replica without a port"))),
        };
        if port > u64::from(MAX_PORT) {
            return Err(invalid(format!(
                "{what}: port {port} is not a port of the switch (0..={MAX_PORT})"
            )));
        }
        let Ok(instance) = u16::try_from(r.instance) else {
            return Err(invalid(format!(
                "{what}: instance {} does not fit v1model's 16-bit egress_rid",
                r.instance
            )));
        };
        if !r.backup_replicas.is_empty() {
            return Err(RpcError::new(
                Code::Unimplemented,
                format!("{what}: backup replicas are not supported"),
            ));
        }
        let pair = (port as u32, instance);
        if out.contains(&pair) {
            return Err(invalid(format!(
                "{what}: replica (port {port}, instance {instance}) given twice"
            )));
        }
        out.push(pair);
    }
    Ok(out)
}

fn replica_proto((port, instance): (u32, u16)) -> p4::Replica {
    p4::Replica {
        port_kind: Some(p4::replica::PortKind::Port(to_bytes(&Bits::from_u64(
            32,
            false,
            u64::from(port),
        )))),
        instance: u32::from(instance),
        backup_replicas: Vec::new(),
    }
}
