//! The P4Runtime entities beside table entries, on a committed pipeline:
//! indexed counters, direct counters, registers, the packet replication
//! engine (multicast groups, clone sessions), and the controller headers
//! that PacketOut and PacketIn metadata are packed into and out of.
//!
//! P4Info ids are mapped to the switch's extern names once, when the
//! pipeline is built.

use crate::codec::{RpcError, from_bytes, invalid, to_bytes};
use crate::device::ForwardingPipeline;
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::translation::Tr;
use cfg::counter_spec::Unit;
use janus_engine::target::MirrorTarget;
use janus_engine::target::Target;
use janus_engine::value::Bits;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use tonic::Code;

/// The largest port number of the v1model pipeline (9 bits).
const MAX_PORT: u32 = 511;

/// An indexed counter or a register: the switch's name for it, its size
/// and its cells' shape: a counter's [`Unit`], a register's cell width.
#[derive(Clone, Debug)]
struct Indexed<Shape> {
    name: String,
    size: u64,
    shape: Shape,
}

/// A controller header's fields: (metadata id, width, translated type),
/// in P4Info order.
pub(crate) type HeaderFormat = Vec<(u32, u32, Option<Tr>)>;

/// What the server keeps beside the switch for the entities of this module.
#[derive(Debug, Default)]
pub struct Resources {
    counters: BTreeMap<u32, Indexed<Unit>>,
    /// Registers, with the width of their cells.
    registers: BTreeMap<u32, Indexed<u32>>,
    /// Direct counter id -> (table id, unit).
    direct_counters: BTreeMap<u32, (u32, Unit)>,
    pub(crate) packet_in: Option<HeaderFormat>,
    pub(crate) packet_out: Option<HeaderFormat>,
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

impl Resources {
    /// Maps the P4Info's counters, direct counters, registers and
    /// controller headers onto the switch.
    pub(crate) fn build(
        info: &cfg::P4Info,
        switch: &dyn Target,
        translations: &crate::translation::Shared,
    ) -> Resources {
        let mut r = Resources {
            free_groups: (1..=u16::MAX).collect(),
            ..Resources::default()
        };
        // An unknown unit counts both, as UNSPECIFIED does.
        let unit = |s: &Option<cfg::CounterSpec>| {
            s.as_ref()
                .and_then(|s| Unit::try_from(s.unit).ok())
                .unwrap_or(Unit::Unspecified)
        };
        for c in &info.counters {
            let p = c.preamble.clone().unwrap_or_default();
            if c.size > 0 && switch.counter(&p.name, 0).is_none() {
                tracing::warn!(counter = %p.name, "no such counter in the switch");
                continue;
            }
            r.counters.insert(
                p.id,
                Indexed {
                    name: p.name,
                    size: c.size.max(0) as u64,
                    shape: unit(&c.spec),
                },
            );
        }
        for c in &info.direct_counters {
            let p = c.preamble.clone().unwrap_or_default();
            if c.direct_table_id == 0 {
                continue;
            }
            r.direct_counters
                .insert(p.id, (c.direct_table_id, unit(&c.spec)));
        }
        for g in &info.registers {
            let p = g.preamble.clone().unwrap_or_default();
            let Some(width) = crate::p4info::register_width(g) else {
                continue;
            };
            if g.size > 0 && switch.register(&p.name, 0).is_none() {
                tracing::warn!(register = %p.name, "no such register in the switch");
                continue;
            }
            r.registers.insert(
                p.id,
                Indexed {
                    name: p.name,
                    size: g.size.max(0) as u64,
                    shape: width,
                },
            );
        }
        for h in &info.controller_packet_metadata {
            let name = h.preamble.as_ref().map_or("", |p| p.name.as_str());
            let format: HeaderFormat = h
                .metadata
                .iter()
                .map(|m| {
                    let tr = Tr::of(translations, m.type_name.as_ref());
                    (m.id, m.bitwidth.max(0) as u32, tr)
                })
                .collect();
            match name {
                "packet_in" => r.packet_in = Some(format),
                "packet_out" => r.packet_out = Some(format),
                _ => {}
            }
        }
        r
    }

    /// The direct counter of table `table_id`, with its unit.
    pub(crate) fn direct_counter_of(&self, table_id: u32) -> Option<Unit> {
        self.direct_counters
            .values()
            .find(|(t, _)| *t == table_id)
            .map(|(_, u)| *u)
    }
}

/// Counts as the counter's unit keeps them.
pub(crate) fn counter_data(unit: Unit, (packets, bytes): (u64, u64)) -> p4::CounterData {
    let clamp = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    p4::CounterData {
        byte_count: if matches!(unit, Unit::Packets) {
            0
        } else {
            clamp(bytes)
        },
        packet_count: if matches!(unit, Unit::Bytes) {
            0
        } else {
            clamp(packets)
        },
    }
}

/// The cells an `Index` names: one (checked against `size`), or all.
pub(crate) fn cells(
    index: Option<&p4::Index>,
    size: u64,
    what: &str,
) -> Result<std::ops::Range<u64>, RpcError> {
    match index {
        None => Ok(0..size),
        Some(i) if i.index < 0 => Err(invalid(format!("{what}: negative index {}", i.index))),
        Some(i) if i.index as u64 >= size => Err(RpcError::new(
            Code::OutOfRange,
            format!("{what}: index {} beyond the size {size}", i.index),
        )),
        Some(i) => Ok(i.index as u64..i.index as u64 + 1),
    }
}

pub(crate) fn only_modify(kind: p4::update::Type, what: &str) -> Result<(), RpcError> {
    if kind == p4::update::Type::Modify {
        Ok(())
    } else {
        Err(invalid(format!("{what} can only be modified (MODIFY)")))
    }
}

impl ForwardingPipeline {
    fn counter_map(&self, id: u32) -> Result<&Indexed<Unit>, RpcError> {
        self.res
            .counters
            .get(&id)
            .ok_or_else(|| RpcError::new(Code::NotFound, format!("no counter with id {id}")))
    }

    fn register_map(&self, id: u32) -> Result<&Indexed<u32>, RpcError> {
        self.res
            .registers
            .get(&id)
            .ok_or_else(|| RpcError::new(Code::NotFound, format!("no register with id {id}")))
    }

    /// A CounterEntry update (MODIFY only; no index: every cell).
    pub(crate) fn write_counter(
        &mut self,
        kind: p4::update::Type,
        e: &p4::CounterEntry,
    ) -> Result<(), RpcError> {
        only_modify(kind, "a counter entry")?;
        let c = self.counter_map(e.counter_id)?.clone();
        let range = cells(e.index.as_ref(), c.size, &c.name)?;
        let Some(data) = &e.data else {
            return Ok(());
        };
        if data.packet_count < 0 || data.byte_count < 0 {
            return Err(invalid(format!("{}: negative counts", c.name)));
        }
        for i in range {
            self.switch
                .counter_write(
                    &c.name,
                    i as usize,
                    data.packet_count as u64,
                    data.byte_count as u64,
                )
                .map_err(|_| {
                    RpcError::new(Code::Internal, format!("{}: cell {i} is missing", c.name))
                })?;
        }
        Ok(())
    }

    /// A DirectCounterEntry MODIFY: sets one table entry's counts (its
    /// key names it; no data: nothing changes).
    pub(crate) fn write_direct_counter(
        &mut self,
        kind: p4::update::Type,
        d: &p4::DirectCounterEntry,
    ) -> Result<(), RpcError> {
        only_modify(kind, "a direct counter entry")?;
        let te = d
            .table_entry
            .as_ref()
            .ok_or_else(|| invalid("the direct counter entry names no table entry"))?;
        if self.res.direct_counter_of(te.table_id).is_none() {
            self.table_name(te.table_id)?;
            return Err(invalid(format!(
                "table {} has no direct counter",
                te.table_id
            )));
        }
        if te.is_default_action {
            return Err(invalid(
                "default entries have no direct counter cell in v1model",
            ));
        }
        let t = self.table(te.table_id)?;
        let key = crate::device::key_of(t, te, false)?;
        let index = self.entry_index(t, &key, i64::from(te.priority))?;
        let state = self
            .switch
            .table(t.slot)
            .ok_or_else(|| RpcError::new(Code::Internal, "table slot vanished"))?;
        let Some(data) = &d.data else {
            return Ok(());
        };
        if data.packet_count < 0 || data.byte_count < 0 {
            return Err(invalid("negative counts"));
        }
        if !state.set_hit_counts(index, data.packet_count as u64, data.byte_count as u64) {
            return Err(RpcError::new(
                Code::Internal,
                "the entry's counter cell is missing",
            ));
        }
        Ok(())
    }

    /// The cells a CounterEntry read asks for (counter id 0: every
    /// counter; no index: every cell).
    pub(crate) fn read_counters(&self, f: &p4::CounterEntry) -> Result<Vec<p4::Entity>, RpcError> {
        let ids: Vec<u32> = if f.counter_id == 0 {
            self.res.counters.keys().copied().collect()
        } else {
            self.counter_map(f.counter_id)?;
            vec![f.counter_id]
        };
        let mut out = Vec::new();
        for id in ids {
            let c = &self.res.counters[&id];
            let index = if f.counter_id == 0 {
                None
            } else {
                f.index.as_ref()
            };
            for i in cells(index, c.size, &c.name)? {
                let counts = self.switch.counter(&c.name, i as usize).unwrap_or((0, 0));
                out.push(p4::Entity {
                    entity: Some(p4::entity::Entity::CounterEntry(p4::CounterEntry {
                        counter_id: id,
                        index: Some(p4::Index { index: i as i64 }),
                        data: Some(counter_data(c.shape, counts)),
                    })),
                });
            }
        }
        Ok(out)
    }

    /// The direct counter cells a DirectCounterEntry read asks for: of one
    /// entry (its key), of every entry of a table, or of every table with
    /// a direct counter (no table entry, or table id 0).
    pub(crate) fn read_direct_counters(
        &self,
        f: &p4::DirectCounterEntry,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        let filter = f.table_entry.clone().unwrap_or_default();
        let ids: Vec<u32> = if filter.table_id == 0 {
            self.res.direct_counters.values().map(|(t, _)| *t).collect()
        } else {
            if self.res.direct_counter_of(filter.table_id).is_none() {
                self.table_name(filter.table_id)?;
                return Err(invalid(format!(
                    "table {} has no direct counter",
                    filter.table_id
                )));
            }
            vec![filter.table_id]
        };
        let mut out = Vec::new();
        for id in ids {
            let mut one = filter.clone();
            one.table_id = id;
            let entries = self.read_with_counts(&one)?;
            if entries.is_empty() && !filter.r#match.is_empty() {
                return Err(RpcError::new(
                    Code::NotFound,
                    "no table entry with this key",
                ));
            }
            for mut te in entries {
                let data = te.counter_data.take();
                out.push(p4::Entity {
                    entity: Some(p4::entity::Entity::DirectCounterEntry(
                        p4::DirectCounterEntry {
                            table_entry: Some(te),
                            data,
                        },
                    )),
                });
            }
        }
        Ok(out)
    }

    /// A RegisterEntry update (MODIFY only; no index: every cell).
    pub(crate) fn write_register(
        &mut self,
        kind: p4::update::Type,
        e: &p4::RegisterEntry,
    ) -> Result<(), RpcError> {
        use p4::p4_data::Data;
        only_modify(kind, "a register entry")?;
        let r = self.register_map(e.register_id)?.clone();
        let range = cells(e.index.as_ref(), r.size, &r.name)?;
        let width = r.shape;
        let bytes = match e.data.as_ref().and_then(|d| d.data.as_ref()) {
            Some(Data::Bitstring(b)) => b,
            Some(_) => {
                return Err(invalid(format!(
                    "{}: the data must be a bitstring (bit<{width}>)",
                    r.name
                )));
            }
            None => return Err(invalid(format!("{}: no data", r.name))),
        };
        let value = from_bytes(bytes, width, false, &r.name)?;
        let Some(v) = u64_of(&value) else {
            return Err(RpcError::new(
                Code::Unimplemented,
                format!("{}: values of 2^64 or more cannot be written yet", r.name),
            ));
        };
        for i in range {
            self.switch
                .register_write(&r.name, i as usize, v)
                .map_err(|_| {
                    RpcError::new(Code::Internal, format!("{}: cell {i} is missing", r.name))
                })?;
        }
        Ok(())
    }

    /// The cells a RegisterEntry read asks for (register id 0: every
    /// register; no index: every cell).
    pub(crate) fn read_registers(
        &self,
        f: &p4::RegisterEntry,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        let ids: Vec<u32> = if f.register_id == 0 {
            self.res.registers.keys().copied().collect()
        } else {
            self.register_map(f.register_id)?;
            vec![f.register_id]
        };
        let mut out = Vec::new();
        for id in ids {
            let r = &self.res.registers[&id];
            let index = if f.register_id == 0 {
                None
            } else {
                f.index.as_ref()
            };
            for i in cells(index, r.size, &r.name)? {
                let value = self
                    .switch
                    .register(&r.name, i as usize)
                    .map_or_else(|| vec![0], to_bytes);
                out.push(p4::Entity {
                    entity: Some(p4::entity::Entity::RegisterEntry(p4::RegisterEntry {
                        register_id: id,
                        index: Some(p4::Index { index: i as i64 }),
                        data: Some(p4::P4Data {
                            data: Some(p4::p4_data::Data::Bitstring(value)),
                        }),
                    })),
                });
            }
        }
        Ok(out)
    }

    /// A PacketReplicationEngineEntry update.
    pub(crate) fn write_pre(
        &mut self,
        kind: p4::update::Type,
        e: &p4::PacketReplicationEngineEntry,
    ) -> Result<(), RpcError> {
        use p4::packet_replication_engine_entry::Type as T;
        match e.r#type.as_ref() {
            Some(T::MulticastGroupEntry(g)) => self.write_group(kind, g),
            Some(T::CloneSessionEntry(c)) => self.write_session(kind, c),
            None => Err(invalid("an empty packet replication engine entry")),
        }
    }

    fn write_group(
        &mut self,
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
        if let Some(s) = self.res.session_groups.get(&switch_id) {
            return Err(RpcError::new(
                Code::ResourceExhausted,
                format!("multicast group {id} is in use by clone session {s}"),
            ));
        }
        let exists = self.res.groups.contains_key(&id);
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
                self.set_switch_group(switch_id, &replicas);
                self.res.free_groups.remove(&switch_id);
                self.res.groups.insert(
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
                self.set_switch_group(switch_id, &[]);
                self.res.groups.remove(&id);
                self.res.free_groups.insert(switch_id);
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    fn write_session(
        &mut self,
        kind: p4::update::Type,
        c: &p4::CloneSessionEntry,
    ) -> Result<(), RpcError> {
        use p4::update::Type;
        let id = c.session_id;
        if id == 0 {
            return Err(invalid("clone session id 0 is reserved (wildcard reads)"));
        }
        let what = format!("clone session {id}");
        let exists = self.res.sessions.contains_key(&id);
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
                let old_group = self.res.sessions.get(&id).and_then(|(_, g)| *g);
                let group = match replicas.as_slice() {
                    [] => None,
                    [(port, 0)] => {
                        self.switch.mirroring_add(id, MirrorTarget::Port(*port));
                        None
                    }
                    _ => {
                        let g = match old_group {
                            Some(g) => g,
                            None => self.res.free_groups.pop_last().ok_or_else(|| {
                                RpcError::new(
                                    Code::ResourceExhausted,
                                    format!("{what}: no multicast group left for its replicas"),
                                )
                            })?,
                        };
                        self.res.session_groups.insert(g, id);
                        self.set_switch_group(g, &replicas);
                        self.switch.mirroring_add(id, MirrorTarget::Group(g));
                        Some(g)
                    }
                };
                if replicas.is_empty() {
                    // A session never programmed has nothing to remove.
                    let _ = self.switch.mirroring_delete(id);
                }
                if let Some(g) = old_group.filter(|g| Some(*g) != group) {
                    self.release_session_group(g);
                }
                self.res.sessions.insert(
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
                let _ = self.switch.mirroring_delete(id);
                if let Some((_, Some(g))) = self.res.sessions.remove(&id) {
                    self.release_session_group(g);
                }
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    /// Gives a clone session's switch group back to the free pool.
    fn release_session_group(&mut self, group: u16) {
        self.set_switch_group(group, &[]);
        self.res.session_groups.remove(&group);
        self.res.free_groups.insert(group);
    }

    /// Makes switch group `group` copy to `replicas` (none: no copies), in
    /// replication id order, each id's ports as given: one step, whatever
    /// the group held before.
    fn set_switch_group(&mut self, group: u16, replicas: &[(u32, u16)]) {
        let mut copies: Vec<(u16, u32)> = replicas.iter().map(|&(port, rid)| (rid, port)).collect();
        copies.sort_by_key(|&(rid, _)| rid);
        self.switch.mc_group_set(group, copies);
    }

    /// The PRE entries a read asks for (id 0: all of that kind).
    pub(crate) fn read_pre(
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
                .res
                .groups
                .get(&g.multicast_group_id)
                .map(|e| wrap(T::MulticastGroupEntry(e.clone())))
                .into_iter()
                .collect(),
            Some(T::MulticastGroupEntry(_)) => self
                .res
                .groups
                .values()
                .map(|e| wrap(T::MulticastGroupEntry(e.clone())))
                .collect(),
            Some(T::CloneSessionEntry(c)) if c.session_id != 0 => self
                .res
                .sessions
                .get(&c.session_id)
                .map(|(e, _)| wrap(T::CloneSessionEntry(e.clone())))
                .into_iter()
                .collect(),
            Some(T::CloneSessionEntry(_)) => self
                .res
                .sessions
                .values()
                .map(|(e, _)| wrap(T::CloneSessionEntry(e.clone())))
                .collect(),
            None => {
                let mut all: Vec<p4::Entity> = self
                    .res
                    .groups
                    .values()
                    .map(|e| wrap(T::MulticastGroupEntry(e.clone())))
                    .collect();
                all.extend(
                    self.res
                        .sessions
                        .values()
                        .map(|(e, _)| wrap(T::CloneSessionEntry(e.clone()))),
                );
                all
            }
        })
    }

    /// The frame a PacketOut enters the pipeline with: the `packet_out`
    /// header (its metadata packed by width, in P4Info order) and the
    /// payload. Metadata that does not match the P4Info is
    /// INVALID_ARGUMENT.
    pub fn packet_out_frame(&self, po: &p4::PacketOut) -> Result<Vec<u8>, RpcError> {
        let Some(format) = &self.res.packet_out else {
            if po.metadata.is_empty() {
                return Ok(po.payload.clone());
            }
            return Err(invalid(
                "the pipeline has no packet_out controller header: a PacketOut carries no metadata",
            ));
        };
        let mut values: Vec<Option<Bits>> = vec![None; format.len()];
        for m in &po.metadata {
            let pos = format
                .iter()
                .position(|(id, _, _)| *id == m.metadata_id)
                .ok_or_else(|| {
                    invalid(format!("packet_out: no metadata with id {}", m.metadata_id))
                })?;
            if values[pos].is_some() {
                return Err(invalid(format!(
                    "packet_out: metadata {} given twice",
                    m.metadata_id
                )));
            }
            let what = format!("packet_out metadata {}", m.metadata_id);
            // A translated value is looked up, not allocated: a PacketOut
            // is not journaled.
            let value = match &format[pos].2 {
                Some(tr) => tr.to_dp(&m.value, false, &what),
                None => from_bytes(&m.value, format[pos].1, false, &what),
            };
            values[pos] = Some(value.map_err(|e| invalid(e.message))?);
        }
        let mut fields = Vec::with_capacity(format.len());
        for ((id, width, _), v) in format.iter().zip(values) {
            let v = v.ok_or_else(|| invalid(format!("packet_out: metadata {id} is missing")))?;
            fields.push((*width, v));
        }
        let mut frame = pack(&fields);
        frame.extend_from_slice(&po.payload);
        Ok(frame)
    }

    /// A packet the pipeline sent to the CPU port as a PacketIn: the
    /// `packet_in` header's fields as metadata, the rest as payload.
    /// `None` when the packet is shorter than the header.
    pub fn packet_in(&self, bytes: &[u8]) -> Option<p4::PacketIn> {
        let Some(format) = &self.res.packet_in else {
            return Some(p4::PacketIn {
                payload: bytes.to_vec(),
                metadata: Vec::new(),
            });
        };
        let bits: u32 = format.iter().map(|(_, w, _)| w).sum();
        let len = bits.div_ceil(8) as usize;
        if bytes.len() < len {
            return None;
        }
        let mut at = 0;
        let metadata = format
            .iter()
            .map(|(id, width, tr)| {
                let v = unpack(&bytes[..len], at, *width);
                at += width;
                p4::PacketMetadata {
                    metadata_id: *id,
                    value: match tr {
                        Some(tr) => tr.to_sdn(&v),
                        None => to_bytes(&v),
                    },
                }
            })
            .collect();
        Some(p4::PacketIn {
            payload: bytes[len..].to_vec(),
            metadata,
        })
    }
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

/// The value as a u64, if it fits.
fn u64_of(v: &Bits) -> Option<u64> {
    let b = to_bytes(v);
    if b.len() > 8 {
        return None;
    }
    Some(b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
}

/// Packs (width, value) fields most significant bit first, as a header
/// is laid out on the wire; the last byte is zero-padded.
fn pack(fields: &[(u32, Bits)]) -> Vec<u8> {
    let total: u32 = fields.iter().map(|(w, _)| w).sum();
    let mut out = vec![0u8; total.div_ceil(8) as usize];
    let mut at = 0usize;
    for (width, v) in fields {
        let bytes = to_bytes(v);
        let vbits = bytes.len() * 8;
        for i in 0..*width as usize {
            // Bit i of the field (from its most significant bit).
            let from_lsb = *width as usize - 1 - i;
            let bit = from_lsb < vbits && {
                let byte = bytes[bytes.len() - 1 - from_lsb / 8];
                byte >> (from_lsb % 8) & 1 == 1
            };
            if bit {
                out[(at + i) / 8] |= 0x80 >> ((at + i) % 8);
            }
        }
        at += *width as usize;
    }
    out
}

/// The `width`-bit field at bit `at` of `bytes` (most significant bit first).
pub(crate) fn unpack(bytes: &[u8], at: u32, width: u32) -> Bits {
    let mut out = vec![0u8; width.div_ceil(8) as usize];
    let n = out.len();
    for i in 0..width as usize {
        let pos = at as usize + i;
        if bytes[pos / 8] & (0x80 >> (pos % 8)) != 0 {
            let from_lsb = width as usize - 1 - i;
            out[n - 1 - from_lsb / 8] |= 1 << (from_lsb % 8);
        }
    }
    Bits::from_be_bytes(width.max(1), false, &out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_pack_and_unpack_by_width() {
        let f = |w, v| (w, Bits::from_u64(w, false, v));
        let packed = pack(&[f(9, 510), f(7, 0), f(8, 3)]);
        assert_eq!(packed, vec![0xff, 0x00, 0x03]);
        assert_eq!(to_bytes(&unpack(&packed, 0, 9)), vec![0x01, 0xfe]);
        assert_eq!(to_bytes(&unpack(&packed, 16, 8)), vec![3]);
        let odd = pack(&[f(3, 5), f(2, 1)]);
        assert_eq!(odd, vec![0b1010_1000]);
        assert_eq!(to_bytes(&unpack(&odd, 3, 2)), vec![1]);
    }
}
