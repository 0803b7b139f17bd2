//! All-or-nothing Write batches and state carried from one pipeline to
//! another.
//!
//! Before an update of a ROLLBACK_ON_ERROR or DATAPLANE_ATOMIC batch is
//! applied, [`ForwardingPipeline::capture`] reads what it is about to change (through
//! the same read functions the Read RPC uses) and builds the updates that
//! put it back: an INSERT is undone by a DELETE, a MODIFY by a MODIFY to the
//! old entity, a DELETE by an INSERT of the old entity. When an update
//! fails, [`apply_all_or_nothing`] applies the undo records of the updates
//! already applied, newest first. The server holds its state lock for the
//! whole batch, so no packet and no other RPC sees the batch half applied:
//! that is what makes the rollback mode DATAPLANE_ATOMIC too.
//!
//! [`ForwardingPipeline::snapshot`] lists every entity a client wrote as the updates
//! that recreate it, for RECONCILE_AND_COMMIT.

use crate::codec::RpcError;
use crate::device::ForwardingPipeline;
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::tables::key_of;
use p4::entity::Entity as E;
use p4::update::Type;
use tonic::Code;

/// A read of every translation mapping.
fn translations_filter() -> p4::ExternEntry {
    p4::ExternEntry {
        extern_type_id: crate::translation::TRANSLATION_EXTERN_TYPE,
        ..Default::default()
    }
}

fn update(kind: Type, entity: E) -> p4::Update {
    p4::Update {
        r#type: kind as i32,
        entity: Some(p4::Entity {
            entity: Some(entity),
        }),
    }
}

/// The undo of an update of an entity that exists or not (table entries,
/// PRE entries, members, groups, digest configs): `old` is the entity
/// before the update, `key` the update's own entity (enough to delete it).
fn keyed(kind: Type, old: Option<E>, key: E) -> Option<Vec<p4::Update>> {
    match (kind, old) {
        (Type::Insert, None) => Some(vec![update(Type::Delete, key)]),
        (Type::Modify, Some(old)) => Some(vec![update(Type::Modify, old)]),
        (Type::Delete, Some(old)) => Some(vec![update(Type::Insert, old)]),
        // The update will fail (a duplicate or a missing entity).
        _ => Some(Vec::new()),
    }
}

/// MODIFY updates setting each of `cells` back.
fn cells(cells: Vec<p4::Entity>) -> Option<Vec<p4::Update>> {
    Some(
        cells
            .into_iter()
            .filter_map(|e| e.entity)
            .map(|e| update(Type::Modify, e))
            .collect(),
    )
}

/// A table entry as read, made writable again.
fn writable(mut te: p4::TableEntry) -> p4::TableEntry {
    te.is_const = false;
    te.counter_data = None;
    te
}

impl ForwardingPipeline {
    /// What a read of `filter` gives ([`ForwardingPipeline::read_entity`]).
    fn read_one(&self, filter: E) -> Result<Vec<p4::Entity>, RpcError> {
        self.read_entity(&p4::Entity {
            entity: Some(filter),
        })
    }

    /// The entry of `te`'s table with `te`'s key and priority, if any, with
    /// its direct meter config. `None` when the key is malformed (the
    /// update will fail the same way).
    fn entry_like(&self, te: &p4::TableEntry) -> Option<Option<p4::TableEntry>> {
        let t = self.tables.get(te.table_id).ok()?;
        let key = match key_of(t, te, false) {
            Ok(key) => key,
            // A translated value with no mapping yet: no entry holds it.
            Err(e) if e.code == Code::NotFound => return Some(None),
            Err(_) => return None,
        };
        // One lookup in the table's index, not a scan: capturing stays
        // constant-time per update, so batches stay linear.
        let Ok(index) = t.entry_index(self.switch.as_ref(), &key, i64::from(te.priority)) else {
            return Some(None);
        };
        let mut old = self.entry_at(te.table_id, index)?;
        old.meter_config = self.meters.direct_config(te.table_id, index);
        Some(Some(writable(old)))
    }

    /// The updates that undo `u` if it is applied now, read before it is.
    /// `None` when the old state cannot be read although the update may
    /// succeed (the caller must not apply it then).
    pub fn capture(&self, u: &p4::Update) -> Option<Vec<p4::Update>> {
        let kind = Type::try_from(u.r#type).unwrap_or(Type::Unspecified);
        let Some(entity) = u.entity.as_ref().and_then(|e| e.entity.as_ref()) else {
            return Some(Vec::new());
        };
        let modify_only = |read: Result<Vec<p4::Entity>, RpcError>| match kind {
            Type::Modify => read.ok().and_then(cells),
            _ => Some(Vec::new()),
        };
        match entity {
            E::TableEntry(te) if te.is_default_action => {
                let filter = p4::TableEntry {
                    table_id: te.table_id,
                    is_default_action: true,
                    ..Default::default()
                };
                let old = self.read(&filter).unwrap_or_default();
                modify_only(Ok(old
                    .into_iter()
                    .map(|e| p4::Entity {
                        entity: Some(E::TableEntry(e)),
                    })
                    .collect()))
            }
            E::TableEntry(te) => {
                let Some(old) = self.entry_like(te) else {
                    return Some(Vec::new());
                };
                let mut undo = keyed(
                    kind,
                    old.clone().map(E::TableEntry),
                    E::TableEntry(te.clone()),
                )?;
                // A MODIFY that sets a direct meter config over none: reset
                // the cell too.
                if let (Type::Modify, Some(old), Some(_)) = (kind, &old, &te.meter_config)
                    && old.meter_config.is_none()
                {
                    undo.push(update(
                        Type::Modify,
                        E::DirectMeterEntry(p4::DirectMeterEntry {
                            table_entry: Some(p4::TableEntry {
                                meter_config: None,
                                ..old.clone()
                            }),
                            config: None,
                            counter_data: None,
                        }),
                    ));
                }
                Some(undo)
            }
            E::DirectMeterEntry(m) => match (kind, &m.table_entry) {
                (Type::Modify, Some(te)) if !te.is_default_action => {
                    let Some(Some(old)) = self.entry_like(te) else {
                        return Some(Vec::new());
                    };
                    Some(vec![update(
                        Type::Modify,
                        E::DirectMeterEntry(p4::DirectMeterEntry {
                            config: old.meter_config,
                            table_entry: Some(p4::TableEntry {
                                meter_config: None,
                                action: None,
                                ..old
                            }),
                            counter_data: None,
                        }),
                    )])
                }
                _ => Some(Vec::new()),
            },
            E::DirectCounterEntry(d) => match &d.table_entry {
                Some(te) if te.table_id != 0 && !te.is_default_action => {
                    modify_only(self.read_direct_counters(&p4::DirectCounterEntry {
                        table_entry: Some(p4::TableEntry {
                            table_id: te.table_id,
                            r#match: te.r#match.clone(),
                            priority: te.priority,
                            ..Default::default()
                        }),
                        data: None,
                    }))
                }
                _ => Some(Vec::new()),
            },
            // Id 0 reads every instance but cannot be written: the update
            // fails, there is nothing to undo.
            E::CounterEntry(c) if c.counter_id == 0 => Some(Vec::new()),
            E::CounterEntry(c) => modify_only(self.read_one(E::CounterEntry(p4::CounterEntry {
                counter_id: c.counter_id,
                index: c.index,
                data: None,
            }))),
            E::RegisterEntry(r) if r.register_id == 0 => Some(Vec::new()),
            E::RegisterEntry(r) => {
                modify_only(self.read_one(E::RegisterEntry(p4::RegisterEntry {
                    register_id: r.register_id,
                    index: r.index,
                    data: None,
                })))
            }
            E::MeterEntry(m) if m.meter_id == 0 => Some(Vec::new()),
            E::MeterEntry(m) => modify_only(self.read_one(E::MeterEntry(p4::MeterEntry {
                meter_id: m.meter_id,
                index: m.index,
                ..Default::default()
            }))),
            E::ValueSetEntry(v) if v.value_set_id == 0 => Some(Vec::new()),
            E::ValueSetEntry(v) => {
                modify_only(self.read_one(E::ValueSetEntry(p4::ValueSetEntry {
                    value_set_id: v.value_set_id,
                    members: Vec::new(),
                })))
            }
            E::PacketReplicationEngineEntry(p) => {
                use p4::packet_replication_engine_entry::Type as T;
                let zero = match &p.r#type {
                    Some(T::MulticastGroupEntry(g)) => g.multicast_group_id == 0,
                    Some(T::CloneSessionEntry(s)) => s.session_id == 0,
                    None => true,
                };
                if zero {
                    return Some(Vec::new());
                }
                let old = self
                    .read_one(E::PacketReplicationEngineEntry(p.clone()))
                    .ok()?
                    .into_iter()
                    .next();
                keyed(kind, old.and_then(|e| e.entity), entity.clone())
            }
            E::ActionProfileMember(m) if m.member_id == 0 || m.action_profile_id == 0 => {
                Some(Vec::new())
            }
            E::ActionProfileMember(m) => {
                let Ok(old) = self.read_one(E::ActionProfileMember(m.clone())) else {
                    return Some(Vec::new());
                };
                keyed(
                    kind,
                    old.into_iter().next().and_then(|e| e.entity),
                    entity.clone(),
                )
            }
            E::ActionProfileGroup(g) if g.group_id == 0 || g.action_profile_id == 0 => {
                Some(Vec::new())
            }
            E::ActionProfileGroup(g) => {
                let Ok(old) = self.read_one(E::ActionProfileGroup(g.clone())) else {
                    return Some(Vec::new());
                };
                keyed(
                    kind,
                    old.into_iter().next().and_then(|e| e.entity),
                    entity.clone(),
                )
            }
            E::DigestEntry(d) if d.digest_id == 0 => Some(Vec::new()),
            E::DigestEntry(d) => {
                let Ok(old) = self.read_one(E::DigestEntry(*d)) else {
                    return Some(Vec::new());
                };
                keyed(
                    kind,
                    old.into_iter().next().and_then(|e| e.entity),
                    entity.clone(),
                )
            }
            E::ExternEntry(x) => {
                let Some((table, q)) = crate::quotas::quota_of(&p4::Entity {
                    entity: Some(entity.clone()),
                }) else {
                    return Some(Vec::new());
                };
                let old = self.quotas.set_limit(table, q.tenant).map(|limit| {
                    crate::quotas::quota_entity(
                        table,
                        crate::proto::janus::TenantQuota {
                            tenant: q.tenant,
                            limit,
                            used: 0,
                        },
                    )
                });
                let set = |e: p4::Entity, kind: Type| e.entity.map(|e| update(kind, e));
                Some(match (kind, old) {
                    (Type::Insert | Type::Modify, Some(old)) => {
                        set(old, Type::Modify).into_iter().collect()
                    }
                    (Type::Insert | Type::Modify, None) => {
                        vec![update(Type::Delete, E::ExternEntry(x.clone()))]
                    }
                    (Type::Delete, Some(old)) => set(old, Type::Insert).into_iter().collect(),
                    _ => Vec::new(),
                })
            }
        }
    }

    /// Every entity a client has written, as the updates that recreate it
    /// in a fresh pipeline of the same program, in dependency order
    /// (members before the groups and entries using them). Counter and
    /// register cells are listed when not zero, meter cells when
    /// configured, default entries when changed, table entries with their
    /// direct counter data when not zero.
    pub fn snapshot(&self) -> Result<Vec<p4::Update>, RpcError> {
        let mut out = Vec::new();
        let mut add = |kind: Type, entities: Vec<p4::Entity>| {
            out.extend(
                entities
                    .into_iter()
                    .filter_map(|e| e.entity)
                    .map(|e| update(kind, e)),
            );
        };
        // Translation mappings first, so the entities below find the
        // data-plane values they had.
        add(
            Type::Insert,
            self.read_one(E::ExternEntry(translations_filter()))?,
        );
        add(
            Type::Insert,
            self.read_one(E::DigestEntry(p4::DigestEntry::default()))?,
        );
        add(
            Type::Modify,
            self.read_one(E::ValueSetEntry(p4::ValueSetEntry::default()))?
                .into_iter()
                .filter(|e| matches!(&e.entity, Some(E::ValueSetEntry(v)) if !v.members.is_empty()))
                .collect(),
        );
        add(
            Type::Insert,
            self.read_one(E::PacketReplicationEngineEntry(
                p4::PacketReplicationEngineEntry::default(),
            ))?,
        );
        add(
            Type::Insert,
            self.read_one(E::ActionProfileMember(p4::ActionProfileMember::default()))?,
        );
        add(
            Type::Insert,
            self.read_one(E::ActionProfileGroup(p4::ActionProfileGroup::default()))?,
        );
        let (quotas_before, quotas_after) = self.quotas.written();
        add(Type::Insert, quotas_before);
        let entries = self.read(&p4::TableEntry {
            meter_config: Some(p4::MeterConfig::default()),
            counter_data: Some(p4::CounterData::default()),
            ..Default::default()
        })?;
        add(
            Type::Insert,
            entries
                .into_iter()
                .filter(|e| !e.is_const)
                .map(|e| {
                    let counts = e
                        .counter_data
                        .filter(|d| d.packet_count != 0 || d.byte_count != 0);
                    let mut e = writable(e);
                    e.counter_data = counts;
                    p4::Entity {
                        entity: Some(E::TableEntry(e)),
                    }
                })
                .collect(),
        );
        add(Type::Modify, quotas_after);
        add(
            Type::Modify,
            self.written_defaults()
                .into_iter()
                .map(|e| p4::Entity {
                    entity: Some(E::TableEntry(e)),
                })
                .collect(),
        );
        add(
            Type::Modify,
            self.read_one(E::CounterEntry(p4::CounterEntry::default()))?
                .into_iter()
                .filter(|e| {
                    matches!(&e.entity, Some(E::CounterEntry(c))
                        if c.data.is_some_and(|d| d.packet_count != 0 || d.byte_count != 0))
                })
                .collect(),
        );
        add(
            Type::Modify,
            self.read_one(E::RegisterEntry(p4::RegisterEntry::default()))?
                .into_iter()
                .filter(|e| {
                    use p4::p4_data::Data;
                    matches!(&e.entity, Some(E::RegisterEntry(r))
                        if r.data.as_ref().and_then(|d| d.data.as_ref())
                            .is_some_and(|d| !matches!(d, Data::Bitstring(b) if b.iter().all(|&x| x == 0))))
                })
                .collect(),
        );
        add(
            Type::Modify,
            self.read_one(E::MeterEntry(p4::MeterEntry::default()))?
                .into_iter()
                .filter(|e| matches!(&e.entity, Some(E::MeterEntry(m)) if m.config.is_some()))
                .collect(),
        );
        Ok(out)
    }
}

/// Why an all-or-nothing batch was not applied.
#[derive(Debug)]
pub struct BatchFailed {
    /// The update that failed (its index in the batch).
    pub index: usize,
    pub error: RpcError,
    /// Set when undoing the updates applied before failed too (the state
    /// may then hold part of the batch; logged as an error).
    pub rollback: Option<RpcError>,
}

/// The undo records of the updates of a batch, in batch order.
pub type UndoLog = Vec<Vec<p4::Update>>;

/// Applies `updates` in order, all or nothing: at the first failure the
/// updates applied so far are undone, newest first. On success returns the
/// undo records (to undo the batch later with [`roll_back`]).
/// `apply` applies one update (the server checks the role's rights in it
/// too); the undo records are applied with [`ForwardingPipeline::apply`] itself.
pub fn apply_all_or_nothing(
    pipeline: &mut ForwardingPipeline,
    updates: &[p4::Update],
    mut apply: impl FnMut(&mut ForwardingPipeline, &p4::Update) -> Result<(), RpcError>,
) -> Result<UndoLog, BatchFailed> {
    let mut undo: UndoLog = Vec::with_capacity(updates.len());
    // Translation mappings the batch makes go with it if it is undone.
    let mark = crate::translation::lock(&pipeline.translations).begin();
    let end = |pipeline: &ForwardingPipeline, keep: bool| {
        crate::translation::lock(&pipeline.translations).end(mark, keep)
    };
    for (index, u) in updates.iter().enumerate() {
        let result = match pipeline.capture(u) {
            Some(inverse) => apply(pipeline, u).map(|()| inverse),
            None => Err(RpcError::new(
                Code::Internal,
                "the state this update changes cannot be read, so it could not be undone",
            )),
        };
        match result {
            Ok(inverse) => undo.push(inverse),
            Err(error) => {
                let rollback = roll_back(pipeline, undo).err();
                end(pipeline, false);
                return Err(BatchFailed {
                    index,
                    error,
                    rollback,
                });
            }
        }
    }
    end(pipeline, true);
    Ok(undo)
}

impl BatchFailed {
    /// The per-update results to report for a batch of `n` updates: the
    /// failed update's error, ABORTED for the others (rolled back, or not
    /// attempted), or INTERNAL for all of them when the rollback failed.
    pub fn results(&self, n: usize) -> Vec<Result<(), RpcError>> {
        (0..n)
            .map(|i| {
                Err(if i == self.index {
                    self.error.clone()
                } else if let Some(r) = &self.rollback {
                    RpcError::new(
                        Code::Internal,
                        format!(
                            "update {} failed and undoing the batch failed too: {}",
                            self.index, r.message
                        ),
                    )
                } else if i < self.index {
                    RpcError::new(
                        Code::Aborted,
                        format!("rolled back: update {} of the batch failed", self.index),
                    )
                } else {
                    RpcError::new(
                        Code::Aborted,
                        format!("not attempted: update {} of the batch failed", self.index),
                    )
                })
            })
            .collect()
    }
}

/// Applies undo records, newest first. Every record is tried; the first
/// error is returned.
pub fn roll_back(pipeline: &mut ForwardingPipeline, undo: UndoLog) -> Result<(), RpcError> {
    let mut first = None;
    for u in undo.into_iter().rev().flatten() {
        if let Err(e) = pipeline.apply(&u) {
            tracing::error!("rollback: an undo update failed: {e}");
            first.get_or_insert(e);
        }
    }
    first.map_or(Ok(()), Err)
}

/// The name of the P4Info object with `id` (tables, actions, externs of
/// every kind), if any.
fn name_of(info: &cfg::P4Info, id: u32) -> Option<&str> {
    let preambles = info
        .tables
        .iter()
        .filter_map(|t| t.preamble.as_ref())
        .chain(info.actions.iter().filter_map(|x| x.preamble.as_ref()))
        .chain(
            info.action_profiles
                .iter()
                .filter_map(|x| x.preamble.as_ref()),
        )
        .chain(info.counters.iter().filter_map(|x| x.preamble.as_ref()))
        .chain(info.meters.iter().filter_map(|x| x.preamble.as_ref()))
        .chain(info.registers.iter().filter_map(|x| x.preamble.as_ref()))
        .chain(info.value_sets.iter().filter_map(|x| x.preamble.as_ref()))
        .chain(info.digests.iter().filter_map(|x| x.preamble.as_ref()));
    let mut all = preambles;
    all.find(|p| p.id == id).map(|p| p.name.as_str())
}

/// The P4Info ids an update refers to (its object and action ids).
fn ids_of(u: &p4::Update) -> Vec<u32> {
    // A direct action's id, or those of a one-shot action set.
    fn action_ids(a: &Option<p4::TableAction>) -> Vec<u32> {
        use p4::table_action::Type as A;
        match a.as_ref().and_then(|a| a.r#type.as_ref()) {
            Some(A::Action(a)) => vec![a.action_id],
            Some(A::ActionProfileActionSet(set)) => set
                .action_profile_actions
                .iter()
                .filter_map(|a| a.action.as_ref())
                .chain(set.group_action.as_ref())
                .map(|a| a.action_id)
                .collect(),
            _ => Vec::new(),
        }
    }
    match u.entity.as_ref().and_then(|e| e.entity.as_ref()) {
        Some(E::TableEntry(t)) => std::iter::once(t.table_id)
            .chain(action_ids(&t.action))
            .collect(),
        Some(E::CounterEntry(c)) => vec![c.counter_id],
        Some(E::RegisterEntry(r)) => vec![r.register_id],
        Some(E::MeterEntry(m)) => vec![m.meter_id],
        Some(E::ValueSetEntry(v)) => vec![v.value_set_id],
        Some(E::DigestEntry(d)) => vec![d.digest_id],
        Some(E::ActionProfileMember(m)) => [
            Some(m.action_profile_id),
            m.action.as_ref().map(|a| a.action_id),
        ]
        .into_iter()
        .flatten()
        .collect(),
        Some(E::ActionProfileGroup(g)) => vec![g.action_profile_id],
        // A translation names no P4 object.
        Some(E::ExternEntry(x))
            if x.extern_type_id == crate::translation::TRANSLATION_EXTERN_TYPE =>
        {
            Vec::new()
        }
        // A tenant quota names its table.
        Some(E::ExternEntry(x)) => vec![x.extern_id],
        _ => Vec::new(),
    }
}

/// Writes the state of `old` into `new` (RECONCILE_AND_COMMIT). Ids are
/// carried as they are: each id the state uses must name the same object
/// in both P4Infos, and every update must succeed in the new pipeline;
/// otherwise INVALID_ARGUMENT (the spec's code when the forwarding state
/// cannot be preserved) and `new` must be dropped. Returns the updates
/// written.
pub fn carry_over(
    old: &ForwardingPipeline,
    new: &mut ForwardingPipeline,
) -> Result<Vec<p4::Update>, RpcError> {
    // Mappings of translated types the new program does not have are
    // dropped: nothing in it can hold their values.
    let updates: Vec<p4::Update> = old
        .snapshot()?
        .into_iter()
        .filter(|u| new.takes_translation(u))
        .collect();
    let after = new.config.p4info.clone();
    let (Some(before), Some(after)) = (old.config.p4info.as_ref(), after.as_ref()) else {
        return Err(RpcError::new(Code::Internal, "a pipeline without a P4Info"));
    };
    let cannot = |why: String| {
        RpcError::new(
            Code::InvalidArgument,
            format!("RECONCILE_AND_COMMIT: the forwarding state cannot be preserved: {why}"),
        )
    };
    for u in &updates {
        for id in ids_of(u) {
            let name = name_of(before, id).unwrap_or("?");
            match name_of(after, id) {
                Some(n) if n == name => {}
                Some(n) => {
                    return Err(cannot(format!(
                        "id {id} is {name} in the running program but {n} in the new one"
                    )));
                }
                None => {
                    return Err(cannot(format!(
                        "the new program has no {name} (id {id}), which holds state"
                    )));
                }
            }
        }
        new.apply(u).map_err(|e| cannot(e.message))?;
    }
    Ok(updates)
}
