//! The ActionProfileMember and ActionProfileGroup entities: writes and
//! reads.

use super::*;
use crate::codec::{RpcError, invalid};
use crate::proto::p4::v1 as p4;
use crate::tables::{Tables, action_of, table_action};
use janus_engine::profile::{Member, Target};
use janus_engine::target;
use std::collections::HashSet;
use tonic::Code;

impl Profiles {
    /// An ActionProfileMember update.
    pub(crate) fn write_member(
        &mut self,
        switch: &mut dyn target::Target,
        tables: &Tables,
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
        let exists = self.members.contains_key(&key);
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
                let t = tables.get(p.table_id)?.clone();
                let action = m
                    .action
                    .clone()
                    .ok_or_else(|| invalid(format!("{what}: no action")))?;
                let ta = p4::TableAction {
                    r#type: Some(p4::table_action::Type::Action(action)),
                };
                self.refuse_group_action(&t, Some(&ta))?;
                let (index, args) = action_of(&t, Some(&ta), false)?;
                let canonical = match table_action(&t, index, &args).r#type {
                    Some(p4::table_action::Type::Action(a)) => a,
                    _ => return Err(RpcError::new(Code::Internal, "not a direct action")),
                };
                let member = Member {
                    action: index,
                    args,
                };
                let prof = profile_mut(switch, &p)?;
                if kind == Type::Insert {
                    prof.add_member(id, member)
                } else {
                    prof.modify_member(id, member)
                }
                .map_err(|e| profile_error(e, &p.name))?;
                self.members.insert(
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
                self.refuse_if_used(switch, &p, Target::Member(id), &what)?;
                profile_mut(switch, &p)?
                    .remove_member(id)
                    .map_err(|e| profile_error(e, &p.name))?;
                self.members.remove(&key);
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    /// An ActionProfileGroup update.
    pub(crate) fn write_profile_group(
        &mut self,
        switch: &mut dyn target::Target,
        kind: p4::update::Type,
        g: &p4::ActionProfileGroup,
    ) -> Result<(), RpcError> {
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
        let old_max_size = self.groups.get(&key).map(|x| x.max_size);
        match kind {
            Type::Insert if old_max_size.is_some() => {
                Err(RpcError::new(Code::AlreadyExists, format!("{what} exists")))
            }
            Type::Modify | Type::Delete if old_max_size.is_none() => {
                Err(not_found(format!("no {what}")))
            }
            Type::Insert | Type::Modify => {
                let rules = p.rules;
                let mut pairs = Vec::with_capacity(g.members.len());
                let mut written = Vec::with_capacity(g.members.len());
                let mut seen = HashSet::with_capacity(g.members.len());
                let mut weight = 0u64;
                for gm in &g.members {
                    let at = format!("{what}: member {}", gm.member_id);
                    let w = rules.weight(rules.semantics, gm.weight, &at)?;
                    let watch_kind = group_watch(&gm.watch_kind, &at)?;
                    if !seen.insert(gm.member_id) {
                        return Err(invalid(format!(
                            "{what}: member {} given twice (a weight repeats a member)",
                            gm.member_id
                        )));
                    }
                    if !self
                        .members
                        .contains_key(&(g.action_profile_id, gm.member_id))
                    {
                        return Err(not_found(format!("{what}: no member {}", gm.member_id)));
                    }
                    weight += u64::from(w);
                    pairs.push((gm.member_id, w));
                    written.push(p4::action_profile_group::Member {
                        member_id: gm.member_id,
                        weight: gm.weight,
                        watch_kind,
                    });
                }
                if g.max_size < 0 {
                    return Err(invalid(format!("{what}: negative max_size")));
                }
                let max_size = g.max_size as u64;
                if rules.max_group_size > 0 && max_size > rules.max_group_size {
                    return Err(invalid(format!(
                        "{what}: max_size {max_size} exceeds the selector's max_group_size {}",
                        rules.max_group_size
                    )));
                }
                if let Some(old) = old_max_size
                    && old != g.max_size
                {
                    return Err(invalid(format!(
                        "{what}: max_size is set when the group is inserted ({old}); a MODIFY cannot change it to {}",
                        g.max_size
                    )));
                }
                let size = Rules::size(rules.semantics, pairs.len() as u64, weight);
                let (bound, which) = if max_size > 0 {
                    (max_size, "its max_size")
                } else {
                    (rules.max_group_size, "the selector's max_group_size")
                };
                if bound > 0 && size > bound {
                    return Err(exhausted(format!(
                        "{what}: {size} ({}) exceed {which} {bound}",
                        Rules::unit(rules.semantics)
                    )));
                }
                let old_size = if kind == Type::Modify {
                    profile_mut(switch, &p)?.group_size(Target::Group(id))
                } else {
                    None
                };
                self.check_profile_total(
                    switch,
                    &p,
                    rules.semantics,
                    old_size,
                    (pairs.len() as u64, weight),
                )?;
                let prof = profile_mut(switch, &p)?;
                if kind == Type::Insert {
                    prof.add_weighted_group(id, &pairs)
                } else {
                    prof.set_weighted_group(id, &pairs)
                }
                .map_err(|e| profile_error(e, &p.name))?;
                self.groups.insert(
                    key,
                    p4::ActionProfileGroup {
                        action_profile_id: g.action_profile_id,
                        group_id: id,
                        members: written,
                        max_size: g.max_size,
                    },
                );
                Ok(())
            }
            Type::Delete => {
                self.refuse_if_used(switch, &p, Target::Group(id), &what)?;
                profile_mut(switch, &p)?
                    .remove_group(id)
                    .map_err(|e| profile_error(e, &p.name))?;
                self.groups.remove(&key);
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    /// The members a read asks for (profile id 0: every profile; member
    /// id 0: every member). One-shot sets' members are not members.
    pub(crate) fn read_members(
        &self,
        f: &p4::ActionProfileMember,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        if f.action_profile_id != 0 {
            self.profile_map(f.action_profile_id)?;
        }
        Ok(read_keyed(
            &self.members,
            (f.action_profile_id, f.member_id),
            p4::entity::Entity::ActionProfileMember,
        ))
    }

    /// The groups a read asks for (profile id 0: every profile; group id
    /// 0: every group). One-shot sets' groups are not groups.
    pub(crate) fn read_profile_groups(
        &self,
        f: &p4::ActionProfileGroup,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        if f.action_profile_id != 0 {
            self.profile_map(f.action_profile_id)?;
        }
        Ok(read_keyed(
            &self.groups,
            (f.action_profile_id, f.group_id),
            p4::entity::Entity::ActionProfileGroup,
        ))
    }
}
