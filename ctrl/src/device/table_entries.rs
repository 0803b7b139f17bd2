//! Table entries on the device: TableEntry writes and reads, with what an
//! entry carries beside its key and action: its action profile target
//! ([`crate::profiles`]), direct counter and meter cells
//! ([`crate::counters`], [`crate::meters`]), tenant quota
//! ([`crate::quotas`]), metadata and idle timeout
//! ([`crate::entry_data`]); and the reads of direct resources, which are
//! reads of table entries.

use super::ForwardingPipeline;
use crate::codec::{RpcError, invalid};
use crate::counters::counter_data;
use crate::entry_data::EntryData;
use crate::profiles::EntrySlot;
use crate::proto::p4::v1 as p4;
use crate::tables::{TableMap, action_of, entry_to_proto, key_of, table_action};
use janus_engine::table::{Entry, FieldMatch, TableError};
use janus_engine::value::Bits;
use tonic::Code;

/// What a table entry written holds: a member, group or one-shot action
/// set of the table's action profile, or an action with its arguments.
enum EntryTarget {
    Indirect(crate::profiles::Indirect),
    Direct(usize, Vec<Bits>),
}

impl ForwardingPipeline {
    pub(super) fn write_table_entry(
        &mut self,
        kind: p4::update::Type,
        te: &p4::TableEntry,
    ) -> Result<(), RpcError> {
        use p4::update::Type;
        let t = self.tables.get(te.table_id)?.clone();
        if te.is_default_action {
            return self.write_default(&t, kind, te);
        }
        if t.is_const {
            return Err(RpcError::new(
                Code::PermissionDenied,
                format!("table {} is const: its entries cannot be changed", t.name),
            ));
        }
        let key = key_of(&t, te, kind == Type::Insert)?;
        let priority = i64::from(te.priority);
        let table_error = |e: TableError| match e {
            TableError::Duplicate => RpcError::new(
                Code::AlreadyExists,
                format!("{}: an entry with this key already exists", t.name),
            ),
            TableError::NotFound => RpcError::new(
                Code::NotFound,
                format!("{}: no entry with this key", t.name),
            ),
            TableError::Full(n) => RpcError::new(
                Code::ResourceExhausted,
                format!("{}: the table is full ({n} entries)", t.name),
            ),
            other => invalid(format!("{}: {other}", t.name)),
        };
        match kind {
            Type::Insert | Type::Modify => {
                // Everything is checked before the switch changes: an
                // update answered with an error leaves no trace.
                EntryData::check(self.switch.as_ref(), &t, te)?;
                self.check_entry_resources(&t, te)?;
                let inserted = kind == Type::Insert;
                let target = match t.profile {
                    Some(p) => {
                        let (exists, old) = match self.switch.table(t.slot) {
                            Some(s) => {
                                let at = s.index_of(&key, priority);
                                (at.is_some(), at.and_then(|i| s.target(i)))
                            }
                            None => (false, None),
                        };
                        let entry = EntrySlot {
                            table: &t,
                            exists,
                            old,
                        };
                        EntryTarget::Indirect(self.profiles.indirect_target(
                            self.switch.as_mut(),
                            p,
                            entry,
                            te.action.as_ref(),
                            inserted,
                        )?)
                    }
                    None => {
                        self.profiles.refuse_group_action(&t, te.action.as_ref())?;
                        let (action, args) = action_of(&t, te.action.as_ref(), false)?;
                        EntryTarget::Direct(action, args)
                    }
                };
                if inserted {
                    self.quotas.check(&t, &key)?;
                }
                let vanished = || RpcError::new(Code::Internal, "table slot vanished");
                match target {
                    EntryTarget::Indirect(plan) => {
                        // A one-shot set's group goes in last, and comes
                        // out again if the entry cannot change.
                        let x = self.profiles.install_indirect(self.switch.as_mut(), plan)?;
                        let done = match self.switch.table_mut(t.slot) {
                            Some(state) if inserted => state
                                .insert_indirect(key.clone(), priority, x.target())
                                .map_err(table_error),
                            Some(state) => state
                                .modify_indirect(&key, priority, x.target())
                                .map_err(table_error),
                            None => Err(vanished()),
                        };
                        match done {
                            Ok(()) => self.profiles.indirect_written(self.switch.as_mut(), x),
                            Err(e) => {
                                self.profiles.indirect_refused(self.switch.as_mut(), x);
                                return Err(e);
                            }
                        }
                    }
                    EntryTarget::Direct(action, args) => {
                        let state = self.switch.table_mut(t.slot).ok_or_else(vanished)?;
                        if inserted {
                            state.insert(Entry {
                                key: key.clone(),
                                priority,
                                action,
                                args,
                            })
                        } else {
                            state.modify(&key, priority, action, args)
                        }
                        .map_err(table_error)?;
                    }
                }
                if inserted {
                    self.quotas.count(&t, &key, true);
                }
                self.entry_data
                    .record(self.switch.as_ref(), &t, te, &key, inserted);
                self.entry_resources(&t, te, &key, priority)
            }
            Type::Delete => {
                let state = self
                    .switch
                    .table_mut(t.slot)
                    .ok_or_else(|| RpcError::new(Code::Internal, "table slot vanished"))?;
                let index = state.index_of(&key, priority);
                let old = index.and_then(|i| state.target(i));
                state.remove(&key, priority).map_err(table_error)?;
                self.quotas.count(&t, &key, false);
                if let Some(p) = t.profile {
                    self.profiles.indirect_deleted(self.switch.as_mut(), p, old);
                }
                if let Some(index) = index {
                    self.meters
                        .forget_direct(self.switch.as_mut(), te.table_id, index);
                    self.entry_data.forget(te.table_id, index);
                }
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    fn write_default(
        &mut self,
        t: &TableMap,
        kind: p4::update::Type,
        te: &p4::TableEntry,
    ) -> Result<(), RpcError> {
        use p4::update::Type;
        if !te.r#match.is_empty() || te.priority != 0 {
            return Err(invalid(
                "a default entry has no match fields and priority 0",
            ));
        }
        if kind != Type::Modify {
            return Err(invalid(
                "a default entry can only be modified (INSERT and DELETE are not allowed)",
            ));
        }
        if t.const_default {
            return Err(RpcError::new(
                Code::PermissionDenied,
                format!("table {}: the default action is const", t.name),
            ));
        }
        let default = match te.action.as_ref() {
            // MODIFY without an action restores the program's default.
            None => t.initial_default.clone(),
            Some(a) => {
                self.profiles.refuse_group_action(t, Some(a))?;
                Some(action_of(t, Some(a), true)?)
            }
        };
        let state = self
            .switch
            .table_mut(t.slot)
            .ok_or_else(|| RpcError::new(Code::Internal, "table slot vanished"))?;
        state.default = default;
        Ok(())
    }

    /// The table entries a Read entity asks for, in canonical form.
    pub fn read(&self, filter: &p4::TableEntry) -> Result<Vec<p4::TableEntry>, RpcError> {
        let mut out = Vec::new();
        self.read_each(filter, &mut |te| out.push(te))?;
        Ok(out)
    }

    /// [`ForwardingPipeline::read`], each entry handed to `each` as it is
    /// made.
    pub fn read_each(
        &self,
        filter: &p4::TableEntry,
        each: &mut dyn FnMut(p4::TableEntry),
    ) -> Result<(), RpcError> {
        for t in self.tables.selected(filter.table_id)? {
            let id = t.id;
            let Some(state) = self.switch.table(t.slot) else {
                continue;
            };
            if filter.is_default_action {
                if let Some((index, args)) = &state.default {
                    each(p4::TableEntry {
                        table_id: id,
                        action: Some(table_action(t, *index, args)),
                        is_default_action: true,
                        ..Default::default()
                    });
                }
                continue;
            }
            let wanted = if filter.r#match.is_empty() {
                None
            } else {
                match key_of(t, filter, false) {
                    Ok(key) => Some(key),
                    // A translated value with no mapping: no entry holds it.
                    Err(e) if e.code == Code::NotFound => continue,
                    Err(e) => return Err(e),
                }
            };
            // Direct counter data, when the filter asks for it and the
            // table has a direct counter.
            let unit = filter
                .counter_data
                .as_ref()
                .and_then(|_| self.counters.direct_of(id));
            let entry = |index: u32, e: &Entry| {
                let target = state.target(index);
                let mut te = entry_to_proto(id, t, e, target);
                if let (Some(p), Some(x)) = (t.profile, target) {
                    te.action = self.profiles.indirect_action(p, x);
                }
                self.entry_data.fill(
                    self.switch.as_ref(),
                    t,
                    index,
                    &mut te,
                    filter.time_since_last_hit.is_some(),
                );
                te.counter_data = unit.map(|u| counter_data(u, state.hit_counts(index)));
                if filter.meter_config.is_some() {
                    te.meter_config = self.meters.direct_config(id, index);
                }
                te
            };
            let priority = i64::from(filter.priority);
            match &wanted {
                // A whole key names at most one entry: found by its hash,
                // not a scan.
                Some(key) if !t.uses_priority || priority != 0 => {
                    if let Some(index) = state.index_of(key, priority)
                        && let Some(e) = state.entry(index)
                        && (priority == 0 || priority == e.priority)
                    {
                        each(entry(index, e));
                    }
                }
                _ => {
                    for (index, e) in state.indexed_entries() {
                        if wanted.as_ref().is_some_and(|k| *k != e.key)
                            || (priority != 0 && priority != e.priority)
                        {
                            continue;
                        }
                        each(entry(index, e));
                    }
                }
            }
        }
        Ok(())
    }

    /// The entry at `index` of table `table_id`, in canonical form with
    /// its metadata and idle timeout.
    pub(crate) fn entry_at(&self, table_id: u32, index: u32) -> Option<p4::TableEntry> {
        let t = self.tables.find(table_id)?;
        let state = self.switch.table(t.slot)?;
        let target = state.target(index);
        let mut te = entry_to_proto(table_id, t, state.entry(index)?, target);
        if let (Some(p), Some(x)) = (t.profile, target) {
            te.action = self.profiles.indirect_action(p, x);
        }
        self.entry_data
            .fill(self.switch.as_ref(), t, index, &mut te, false);
        Some(te)
    }

    /// The default entries a client changed (not const, and not the
    /// program's), in P4Info order, as MODIFY-able entries.
    pub(crate) fn written_defaults(&self) -> Vec<p4::TableEntry> {
        let mut out = Vec::new();
        for t in self.tables.in_order() {
            let Some(state) = self.switch.table(t.slot) else {
                continue;
            };
            if t.const_default || state.default == t.initial_default {
                continue;
            }
            out.push(p4::TableEntry {
                table_id: t.id,
                action: state
                    .default
                    .as_ref()
                    .map(|(index, args)| table_action(t, *index, args)),
                is_default_action: true,
                ..Default::default()
            });
        }
        out
    }

    /// Checks the direct resources an INSERT or MODIFY writes with the
    /// entry (`meter_config`, `counter_data`): the table must have them,
    /// and their values must be valid.
    fn check_entry_resources(&self, t: &TableMap, te: &p4::TableEntry) -> Result<(), RpcError> {
        self.meters.check_entry_config(t, te)?;
        if let Some(d) = &te.counter_data {
            if self.counters.direct_of(t.id).is_none() {
                return Err(invalid(format!("table {} has no direct counter", t.name)));
            }
            if d.packet_count < 0 || d.byte_count < 0 {
                return Err(invalid(format!("table {}: negative counts", t.name)));
            }
        }
        Ok(())
    }

    /// Writes the direct resources of the entry just inserted or modified
    /// (checked by [`ForwardingPipeline::check_entry_resources`]).
    fn entry_resources(
        &mut self,
        t: &TableMap,
        te: &p4::TableEntry,
        key: &[FieldMatch],
        priority: i64,
    ) -> Result<(), RpcError> {
        self.meters
            .write_entry_config(self.switch.as_mut(), t, te, key, priority)?;
        if let Some(d) = &te.counter_data {
            let index = t.entry_index(self.switch.as_ref(), key, priority)?;
            let set = self.switch.table(t.slot).is_some_and(|s| {
                s.set_hit_counts(index, d.packet_count as u64, d.byte_count as u64)
            });
            if !set {
                return Err(RpcError::new(
                    Code::Internal,
                    format!("{}: the entry's counter cell is missing", t.name),
                ));
            }
        }
        Ok(())
    }

    /// The entries whose idle timeout ran out since they were last hit and
    /// have not been reported yet ([`EntryData::expired`]); each is marked
    /// reported.
    pub(crate) fn idle_expired(&mut self) -> Vec<p4::TableEntry> {
        self.entry_data
            .expired(self.switch.as_ref(), &self.tables)
            .into_iter()
            .filter_map(|(table_id, index)| self.entry_at(table_id, index))
            .collect()
    }

    /// The direct counter cells a DirectCounterEntry read asks for: of one
    /// entry (its key), of every entry of a table, or of every table with
    /// a direct counter (no table entry, or table id 0).
    pub(crate) fn read_direct_counters(
        &self,
        f: &p4::DirectCounterEntry,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        let filter = f.table_entry.clone().unwrap_or_default();
        let mut out = Vec::new();
        for id in self.counters.direct_tables(&self.tables, filter.table_id)? {
            let mut one = filter.clone();
            one.table_id = id;
            for mut te in self.read_direct_cells(&one, filter.r#match.is_empty(), |f| {
                f.counter_data = Some(p4::CounterData::default());
            })? {
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

    /// The direct meter cells a DirectMeterEntry read asks for: of one
    /// entry, of every entry of a table, or of every table with a direct
    /// meter (no table entry or table id 0).
    pub(crate) fn read_direct_meters(
        &self,
        f: &p4::DirectMeterEntry,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        let filter = f.table_entry.clone().unwrap_or_default();
        let mut out = Vec::new();
        for id in self.meters.direct_tables(&self.tables, filter.table_id)? {
            let mut one = filter.clone();
            one.table_id = id;
            for mut te in self.read_direct_cells(&one, filter.r#match.is_empty(), |f| {
                f.meter_config = Some(p4::MeterConfig::default());
                f.counter_data = None;
            })? {
                let config = te.meter_config.take();
                out.push(p4::Entity {
                    entity: Some(p4::entity::Entity::DirectMeterEntry(p4::DirectMeterEntry {
                        table_entry: Some(te),
                        config,
                        counter_data: None,
                    })),
                });
            }
        }
        Ok(out)
    }

    /// The (non-default) entries of one table a direct resource read names,
    /// read with what `ask` sets in the filter; NOT_FOUND when the filter
    /// has a key (`any_key` false) and no entry holds it.
    fn read_direct_cells(
        &self,
        filter: &p4::TableEntry,
        any_key: bool,
        ask: impl FnOnce(&mut p4::TableEntry),
    ) -> Result<Vec<p4::TableEntry>, RpcError> {
        let mut f = filter.clone();
        f.is_default_action = false;
        ask(&mut f);
        let entries = self.read(&f)?;
        if entries.is_empty() && !any_key {
            return Err(RpcError::new(
                Code::NotFound,
                "no table entry with this key",
            ));
        }
        Ok(entries)
    }
}
