//! Action profiles and selectors (ActionProfileMember, ActionProfileGroup,
//! indirect table entries) and parser value sets (ValueSetEntry).
//!
//! Members and groups are written to the switch's profile
//! (`V1Switch::profile_mut`) and kept here as written (canonical), which is
//! what reads return. A member's action must be one of the actions of the
//! tables using the profile (the P4Info's `table_ids`; checked against the
//! first), as an entry's would. Groups exist only in profiles with a
//! selector; every member of a group has weight 1 (the model picks among
//! members by hash, unweighted): any other weight is INVALID_ARGUMENT, a
//! watch port UNIMPLEMENTED. Deleting a member that a group or a table
//! entry uses, or a group that an entry uses, is FAILED_PRECONDITION.
//!
//! A value set's members replace the old ones at each MODIFY (the only
//! update a ValueSetEntry takes). The P4Info gives every field as EXACT;
//! as the model matches members ternary, a TERNARY field match (value and
//! mask) is accepted too. Reads return a member whose mask is all ones as
//! EXACT.

use crate::device::{Pipeline, RpcError, action_of, from_bytes, table_action, to_bytes};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use janus_engine::profile::{Member, ProfileError, Target};
use janus_engine::table::{Entry, FieldMatch, TableError};
use janus_engine::value::Bits;
use janus_v1model::V1Switch;
use prost::Message;
use std::collections::BTreeMap;
use tonic::Code;

fn invalid(message: impl Into<String>) -> RpcError {
    RpcError::new(Code::InvalidArgument, message)
}

fn not_found(message: impl Into<String>) -> RpcError {
    RpcError::new(Code::NotFound, message)
}

#[derive(Clone, Debug)]
struct ProfileMap {
    name: String,
    /// The table whose action list members are checked against (0: no
    /// table uses the profile).
    table_id: u32,
    with_selector: bool,
    /// Switch slots of the tables using it.
    slots: Vec<usize>,
}

#[derive(Clone, Debug)]
struct ValueSetMap {
    name: String,
    slot: usize,
    /// (field id, width, signed), in the switch's key order.
    fields: Vec<(u32, u32, bool)>,
    size: usize,
}

/// Action profiles and value sets of a pipeline, with what was written.
#[derive(Debug, Default)]
pub struct Profiles {
    profiles: BTreeMap<u32, ProfileMap>,
    members: BTreeMap<(u32, u32), p4::ActionProfileMember>,
    groups: BTreeMap<(u32, u32), p4::ActionProfileGroup>,
    value_sets: BTreeMap<u32, ValueSetMap>,
}

impl Profiles {
    /// Maps the P4Info's action profiles and value sets onto the switch's
    /// (by name).
    pub(crate) fn build(info: &cfg::P4Info, switch: &V1Switch) -> Profiles {
        let mut r = Profiles::default();
        for a in &info.action_profiles {
            let p = a.preamble.clone().unwrap_or_default();
            // By name, else by the tables using it: the front end names an
            // instance declared in a table's `implementation` property
            // without its control (`action_selector`), the switch with it.
            let slot_of = |table_id: u32| {
                let name = info
                    .tables
                    .iter()
                    .filter_map(|t| t.preamble.as_ref())
                    .find(|t| t.id == table_id)?
                    .name
                    .as_str();
                switch.tables().iter().position(|t| t.name == name)
            };
            let slots: Vec<usize> = a.table_ids.iter().filter_map(|&t| slot_of(t)).collect();
            let found = switch
                .profiles()
                .iter()
                .find(|x| x.name == p.name)
                .or_else(|| {
                    switch
                        .profiles()
                        .iter()
                        .find(|x| !slots.is_empty() && slots.iter().all(|s| x.tables.contains(s)))
                });
            let Some(sp) = found else {
                tracing::warn!(profile = %p.name, "no such action profile in the switch");
                continue;
            };
            r.profiles.insert(
                p.id,
                ProfileMap {
                    name: sp.name.clone(),
                    table_id: a.table_ids.first().copied().unwrap_or(0),
                    with_selector: a.with_selector,
                    slots: sp.tables.clone(),
                },
            );
        }
        for v in &info.value_sets {
            let p = v.preamble.clone().unwrap_or_default();
            let Some(slot) = switch
                .value_sets()
                .iter()
                .find(|x| x.name == p.name)
                .map(|x| x.slot)
            else {
                tracing::warn!(value_set = %p.name, "no such value set in the switch");
                continue;
            };
            let Some(state) = switch.table(slot) else {
                continue;
            };
            if state.keys.len() != v.r#match.len() {
                tracing::warn!(value_set = %p.name, "the P4Info's fields differ from the switch's");
                continue;
            }
            let fields = v
                .r#match
                .iter()
                .zip(&state.keys)
                .map(|(m, k)| (m.id, k.width, k.signed))
                .collect();
            r.value_sets.insert(
                p.id,
                ValueSetMap {
                    name: p.name,
                    slot,
                    fields,
                    size: state.max_size,
                },
            );
        }
        r
    }
}

fn profile_error(e: ProfileError, what: &str) -> RpcError {
    let code = match e {
        ProfileError::Full(_) => Code::ResourceExhausted,
        ProfileError::DuplicateMember(_) | ProfileError::DuplicateGroup(_) => Code::AlreadyExists,
        ProfileError::NoMember(_) | ProfileError::NoGroup(_) => Code::NotFound,
        ProfileError::MemberInUse(..) => Code::FailedPrecondition,
        ProfileError::NoSelector => Code::InvalidArgument,
    };
    RpcError::new(code, format!("{what}: {e}"))
}

impl Pipeline {
    fn profile_map(&self, id: u32) -> Result<ProfileMap, RpcError> {
        self.profiles
            .profiles
            .get(&id)
            .cloned()
            .ok_or_else(|| not_found(format!("no action profile with id {id}")))
    }

    fn profile_mut(
        &mut self,
        p: &ProfileMap,
    ) -> Result<&mut janus_engine::profile::ActionProfile, RpcError> {
        self.switch.profile_mut(&p.name).ok_or_else(|| {
            RpcError::new(
                Code::Internal,
                format!("{}: no such profile in the switch", p.name),
            )
        })
    }

    /// The name of a table with an entry pointing to `target` in `p`.
    fn used_by(&self, p: &ProfileMap, target: Target) -> Option<String> {
        for &slot in &p.slots {
            let Some(state) = self.switch.table(slot) else {
                continue;
            };
            let used = state.entries().any(|e| {
                state
                    .index_of(&e.key, e.priority)
                    .and_then(|i| state.target(i))
                    == Some(target)
            });
            if used {
                return Some(
                    self.switch
                        .tables()
                        .get(slot)
                        .map_or_else(String::new, |t| t.name.clone()),
                );
            }
        }
        None
    }

    /// What an entry of a table using profile `profile` points to: its
    /// `action_profile_member_id` or `action_profile_group_id`.
    pub(crate) fn indirect_target(
        &self,
        profile: u32,
        table: &str,
        action: Option<&p4::TableAction>,
    ) -> Result<Target, RpcError> {
        use p4::table_action::Type as A;
        match action.and_then(|a| a.r#type.as_ref()) {
            Some(A::ActionProfileMemberId(m)) => {
                if self.profiles.members.contains_key(&(profile, *m)) {
                    Ok(Target::Member(*m))
                } else {
                    Err(not_found(format!("{table}: no action profile member {m}")))
                }
            }
            Some(A::ActionProfileGroupId(g)) => {
                if self.profiles.groups.contains_key(&(profile, *g)) {
                    Ok(Target::Group(*g))
                } else {
                    Err(not_found(format!("{table}: no action profile group {g}")))
                }
            }
            Some(A::Action(_)) => Err(invalid(format!(
                "{table} uses an action profile: its entries point to a member or a group"
            ))),
            Some(A::ActionProfileActionSet(_)) => Err(RpcError::new(
                Code::Unimplemented,
                "one-shot action sets are not supported yet (insert members and a group)",
            )),
            None => Err(invalid(format!("{table}: the entry has no action"))),
        }
    }

    /// An ActionProfileMember update.
    pub(crate) fn write_member(
        &mut self,
        kind: p4::update::Type,
        m: &p4::ActionProfileMember,
    ) -> Result<(), RpcError> {
        use p4::update::Type;
        let p = self.profile_map(m.action_profile_id)?;
        let id = m.member_id;
        if id == 0 {
            return Err(invalid("member id 0 is reserved (wildcard reads)"));
        }
        let what = format!("{} member {id}", p.name);
        let key = (m.action_profile_id, id);
        let exists = self.profiles.members.contains_key(&key);
        match kind {
            Type::Insert if exists => {
                Err(RpcError::new(Code::AlreadyExists, format!("{what} exists")))
            }
            Type::Modify | Type::Delete if !exists => Err(not_found(format!("no {what}"))),
            Type::Insert | Type::Modify => {
                if p.table_id == 0 {
                    return Err(RpcError::new(
                        Code::FailedPrecondition,
                        format!("{}: no table uses this profile", p.name),
                    ));
                }
                let t = self.table(p.table_id)?.clone();
                let action = m
                    .action
                    .clone()
                    .ok_or_else(|| invalid(format!("{what}: no action")))?;
                let ta = p4::TableAction {
                    r#type: Some(p4::table_action::Type::Action(action)),
                };
                let (index, args) = action_of(&t, Some(&ta), false)?;
                let canonical = match table_action(&t, index, &args).r#type {
                    Some(p4::table_action::Type::Action(a)) => a,
                    _ => return Err(RpcError::new(Code::Internal, "not a direct action")),
                };
                let member = Member {
                    action: index,
                    args,
                };
                let prof = self.profile_mut(&p)?;
                if kind == Type::Insert {
                    prof.add_member(id, member)
                } else {
                    prof.modify_member(id, member)
                }
                .map_err(|e| profile_error(e, &p.name))?;
                self.profiles.members.insert(
                    key,
                    p4::ActionProfileMember {
                        action_profile_id: m.action_profile_id,
                        member_id: id,
                        action: Some(canonical),
                    },
                );
                Ok(())
            }
            Type::Delete => {
                if let Some(t) = self.used_by(&p, Target::Member(id)) {
                    return Err(RpcError::new(
                        Code::FailedPrecondition,
                        format!("{what} is used by an entry of {t}"),
                    ));
                }
                self.profile_mut(&p)?
                    .remove_member(id)
                    .map_err(|e| profile_error(e, &p.name))?;
                self.profiles.members.remove(&key);
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    /// An ActionProfileGroup update.
    pub(crate) fn write_profile_group(
        &mut self,
        kind: p4::update::Type,
        g: &p4::ActionProfileGroup,
    ) -> Result<(), RpcError> {
        use p4::action_profile_group::member::WatchKind;
        use p4::update::Type;
        let p = self.profile_map(g.action_profile_id)?;
        let id = g.group_id;
        if id == 0 {
            return Err(invalid("group id 0 is reserved (wildcard reads)"));
        }
        if !p.with_selector {
            return Err(invalid(format!(
                "{} is an action profile without a selector: it has no groups",
                p.name
            )));
        }
        let what = format!("{} group {id}", p.name);
        let key = (g.action_profile_id, id);
        let exists = self.profiles.groups.contains_key(&key);
        match kind {
            Type::Insert if exists => {
                Err(RpcError::new(Code::AlreadyExists, format!("{what} exists")))
            }
            Type::Modify | Type::Delete if !exists => Err(not_found(format!("no {what}"))),
            Type::Insert | Type::Modify => {
                let mut ids = Vec::with_capacity(g.members.len());
                for gm in &g.members {
                    if gm.weight != 1 {
                        return Err(invalid(format!(
                            "{what}: member {} has weight {}; only weight 1 is supported",
                            gm.member_id, gm.weight
                        )));
                    }
                    #[allow(deprecated)]
                    let watched = match &gm.watch_kind {
                        Some(WatchKind::Watch(w)) => *w != 0,
                        Some(WatchKind::WatchPort(b)) => !b.is_empty(),
                        None => false,
                    };
                    if watched {
                        return Err(RpcError::new(
                            Code::Unimplemented,
                            format!("{what}: watch ports are not supported"),
                        ));
                    }
                    if ids.contains(&gm.member_id) {
                        return Err(invalid(format!(
                            "{what}: member {} given twice",
                            gm.member_id
                        )));
                    }
                    if !self
                        .profiles
                        .members
                        .contains_key(&(g.action_profile_id, gm.member_id))
                    {
                        return Err(not_found(format!("{what}: no member {}", gm.member_id)));
                    }
                    ids.push(gm.member_id);
                }
                if g.max_size < 0 {
                    return Err(invalid(format!("{what}: negative max_size")));
                }
                if g.max_size > 0 && ids.len() > g.max_size as usize {
                    return Err(RpcError::new(
                        Code::ResourceExhausted,
                        format!(
                            "{what}: {} members exceed max_size {}",
                            ids.len(),
                            g.max_size
                        ),
                    ));
                }
                let prof = self.profile_mut(&p)?;
                if kind == Type::Insert {
                    prof.add_group(id, &ids)
                } else {
                    prof.set_group(id, &ids)
                }
                .map_err(|e| profile_error(e, &p.name))?;
                let members = ids
                    .iter()
                    .map(|&member_id| p4::action_profile_group::Member {
                        member_id,
                        weight: 1,
                        watch_kind: None,
                    })
                    .collect();
                self.profiles.groups.insert(
                    key,
                    p4::ActionProfileGroup {
                        action_profile_id: g.action_profile_id,
                        group_id: id,
                        members,
                        max_size: g.max_size,
                    },
                );
                Ok(())
            }
            Type::Delete => {
                if let Some(t) = self.used_by(&p, Target::Group(id)) {
                    return Err(RpcError::new(
                        Code::FailedPrecondition,
                        format!("{what} is used by an entry of {t}"),
                    ));
                }
                self.profile_mut(&p)?
                    .remove_group(id)
                    .map_err(|e| profile_error(e, &p.name))?;
                self.profiles.groups.remove(&key);
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    /// The members a read asks for (profile id 0: every profile; member
    /// id 0: every member).
    pub(crate) fn read_members(
        &self,
        f: &p4::ActionProfileMember,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        if f.action_profile_id != 0 {
            self.profile_map(f.action_profile_id)?;
        }
        if f.action_profile_id != 0 && f.member_id != 0 {
            // One lookup: an update's capture reads one member.
            let key = (f.action_profile_id, f.member_id);
            return Ok(self
                .profiles
                .members
                .get(&key)
                .map(|m| p4::Entity {
                    entity: Some(p4::entity::Entity::ActionProfileMember(m.clone())),
                })
                .into_iter()
                .collect());
        }
        Ok(self
            .profiles
            .members
            .iter()
            .filter(|((p, m), _)| {
                (f.action_profile_id == 0 || *p == f.action_profile_id)
                    && (f.member_id == 0 || *m == f.member_id)
            })
            .map(|(_, m)| p4::Entity {
                entity: Some(p4::entity::Entity::ActionProfileMember(m.clone())),
            })
            .collect())
    }

    /// The groups a read asks for (profile id 0: every profile; group id
    /// 0: every group).
    pub(crate) fn read_profile_groups(
        &self,
        f: &p4::ActionProfileGroup,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        if f.action_profile_id != 0 {
            self.profile_map(f.action_profile_id)?;
        }
        if f.action_profile_id != 0 && f.group_id != 0 {
            let key = (f.action_profile_id, f.group_id);
            return Ok(self
                .profiles
                .groups
                .get(&key)
                .map(|g| p4::Entity {
                    entity: Some(p4::entity::Entity::ActionProfileGroup(g.clone())),
                })
                .into_iter()
                .collect());
        }
        Ok(self
            .profiles
            .groups
            .iter()
            .filter(|((p, g), _)| {
                (f.action_profile_id == 0 || *p == f.action_profile_id)
                    && (f.group_id == 0 || *g == f.group_id)
            })
            .map(|(_, g)| p4::Entity {
                entity: Some(p4::entity::Entity::ActionProfileGroup(g.clone())),
            })
            .collect())
    }

    /// A ValueSetEntry update (MODIFY only): the members replace the old.
    pub(crate) fn write_value_set(
        &mut self,
        kind: p4::update::Type,
        e: &p4::ValueSetEntry,
    ) -> Result<(), RpcError> {
        use p4::field_match::FieldMatchType as F;
        crate::resources::only_modify(kind, "a value set entry")?;
        let v = self
            .profiles
            .value_sets
            .get(&e.value_set_id)
            .cloned()
            .ok_or_else(|| not_found(format!("no value set with id {}", e.value_set_id)))?;
        let mut keys: Vec<Vec<FieldMatch>> = Vec::with_capacity(e.members.len());
        for member in &e.members {
            let mut key: Vec<Option<FieldMatch>> = vec![None; v.fields.len()];
            for m in &member.r#match {
                let pos = v
                    .fields
                    .iter()
                    .position(|f| f.0 == m.field_id)
                    .ok_or_else(|| {
                        invalid(format!("{}: no field with id {}", v.name, m.field_id))
                    })?;
                if key[pos].is_some() {
                    return Err(invalid(format!(
                        "{}: field {} given twice",
                        v.name, m.field_id
                    )));
                }
                let (_, width, signed) = v.fields[pos];
                let what = format!("{} field {}", v.name, m.field_id);
                let val = |b: &[u8]| from_bytes(b, width, signed, &what);
                key[pos] = Some(match m.field_match_type.as_ref() {
                    Some(F::Exact(x)) => FieldMatch::Ternary {
                        value: val(&x.value)?,
                        mask: Bits::zero(width, signed).not(),
                    },
                    Some(F::Ternary(x)) => {
                        let (value, mask) = (val(&x.value)?, val(&x.mask)?);
                        if value.and(&mask) != value {
                            return Err(invalid(format!(
                                "{what}: value bits outside the mask are set"
                            )));
                        }
                        FieldMatch::Ternary { value, mask }
                    }
                    _ => return Err(invalid(format!("{what}: not an exact or ternary match"))),
                });
            }
            let key = key
                .into_iter()
                .zip(&v.fields)
                .map(|(k, f)| {
                    k.ok_or_else(|| invalid(format!("{}: field {} is missing", v.name, f.0)))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if keys.contains(&key) {
                return Err(invalid(format!("{}: a member is given twice", v.name)));
            }
            keys.push(key);
        }
        if keys.len() > v.size {
            return Err(RpcError::new(
                Code::ResourceExhausted,
                format!(
                    "{}: {} members exceed its size {}",
                    v.name,
                    keys.len(),
                    v.size
                ),
            ));
        }
        let state = self.switch.value_set_mut(&v.name).ok_or_else(|| {
            RpcError::new(Code::Internal, format!("{}: no such value set", v.name))
        })?;
        let old: Vec<(Vec<FieldMatch>, i64)> = state
            .entries()
            .map(|e| (e.key.clone(), e.priority))
            .collect();
        for (key, priority) in old {
            let _ = state.remove(&key, priority);
        }
        for key in keys {
            state
                .insert(Entry {
                    key,
                    priority: 1,
                    action: 0,
                    args: Vec::new(),
                })
                .map_err(|e| match e {
                    TableError::Full(n) => RpcError::new(
                        Code::ResourceExhausted,
                        format!("{}: full ({n} members)", v.name),
                    ),
                    other => RpcError::new(Code::Internal, format!("{}: {other}", v.name)),
                })?;
        }
        Ok(())
    }

    /// The value sets a read asks for (id 0: every value set).
    pub(crate) fn read_value_sets(
        &self,
        f: &p4::ValueSetEntry,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        use p4::field_match::{Exact, FieldMatchType as F, Ternary};
        if f.value_set_id != 0 && !self.profiles.value_sets.contains_key(&f.value_set_id) {
            return Err(not_found(format!(
                "no value set with id {}",
                f.value_set_id
            )));
        }
        let mut out = Vec::new();
        for (id, v) in &self.profiles.value_sets {
            if f.value_set_id != 0 && *id != f.value_set_id {
                continue;
            }
            let Some(state) = self.switch.table(v.slot) else {
                continue;
            };
            let members = state
                .entries()
                .map(|e| p4::ValueSetMember {
                    r#match: e
                        .key
                        .iter()
                        .zip(&v.fields)
                        .filter_map(|(k, &(field_id, width, signed))| {
                            let FieldMatch::Ternary { value, mask } = k else {
                                return None;
                            };
                            let ty = if *mask == Bits::zero(width, signed).not() {
                                F::Exact(Exact {
                                    value: to_bytes(value),
                                })
                            } else {
                                F::Ternary(Ternary {
                                    value: to_bytes(&value.and(mask)),
                                    mask: to_bytes(mask),
                                })
                            };
                            Some(p4::FieldMatch {
                                field_id,
                                field_match_type: Some(ty),
                            })
                        })
                        .collect(),
                })
                .collect::<Vec<_>>();
            // A set: read in one canonical order, whatever order the
            // members were written in.
            let mut members = members;
            members.sort_by_cached_key(|m| m.encode_to_vec());
            out.push(p4::Entity {
                entity: Some(p4::entity::Entity::ValueSetEntry(p4::ValueSetEntry {
                    value_set_id: *id,
                    members,
                })),
            });
        }
        Ok(out)
    }
}
