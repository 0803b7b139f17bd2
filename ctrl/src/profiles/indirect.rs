//! Table entries that point into a profile: members, groups and one-shot
//! action sets, planned, installed and freed with the entry.

use super::*;
use crate::codec::{RpcError, invalid};
use crate::proto::p4::v1 as p4;
use crate::tables::{TableMap, action_of, table_action};
use janus_engine::profile::{Member, Target};
use janus_engine::target;
use tonic::Code;

impl Profiles {
    /// Refuses `action` where it is a direct action (of an entry, a
    /// member, a one-shot set's member or the default action) that table
    /// `t` scopes GROUP_ACTION: such an action is a one-shot set's
    /// `group_action` and nothing else (P4Runtime 1.6, p4runtime#604).
    /// Anything else passes (the other checks are [`action_of`]'s).
    pub(crate) fn refuse_group_action(
        &self,
        t: &TableMap,
        action: Option<&p4::TableAction>,
    ) -> Result<(), RpcError> {
        let Some(p4::table_action::Type::Action(a)) = action.and_then(|a| a.r#type.as_ref()) else {
            return Ok(());
        };
        match self.group_actions.get(&(t.id, a.action_id)) {
            Some(name) => Err(invalid(format!(
                "{}: {name} is a group action (scope GROUP_ACTION): it can only be the group_action of a one-shot action set",
                t.name
            ))),
            None => Ok(()),
        }
    }

    /// Checks the `group_action` of a one-shot set for an entry of table
    /// `t` (P4Runtime 1.6, p4runtime#594): one of the table's actions,
    /// scoped GROUP_ACTION, with its parameters as an entry's action has
    /// them. Gives it as the switch runs it and as it reads back
    /// (canonical); `None` when the set has none.
    pub(super) fn plan_group_action(
        &self,
        t: &TableMap,
        action: Option<&p4::Action>,
        what: &str,
    ) -> Result<Option<(Member, p4::Action)>, RpcError> {
        let Some(action) = action else {
            return Ok(None);
        };
        let ta = p4::TableAction {
            r#type: Some(p4::table_action::Type::Action(action.clone())),
        };
        let (index, args) = action_of(t, Some(&ta), false)
            .map_err(|e| RpcError::new(e.code, format!("{what}, group action: {}", e.message)))?;
        if !self.group_actions.contains_key(&(t.id, action.action_id)) {
            return Err(invalid(format!(
                "{what}: the group action (action id {}) is not scoped GROUP_ACTION in {}; only GROUP_ACTION actions can be group actions",
                action.action_id, t.name
            )));
        }
        let canon = match table_action(t, index, &args).r#type {
            Some(p4::table_action::Type::Action(a)) => a,
            _ => return Err(RpcError::new(Code::Internal, "not a direct action")),
        };
        Ok(Some((
            Member {
                action: index,
                args,
            },
            canon,
        )))
    }

    /// What an INSERT (`inserted`) or MODIFY of the entry (`key`,
    /// `priority`) of table `t`, which uses profile `profile`, is to point
    /// to: its `action_profile_member_id`, `action_profile_group_id` or
    /// one-shot `action_profile_action_set`, checked in full; nothing
    /// changes yet.
    pub(crate) fn indirect_target(
        &mut self,
        switch: &mut dyn target::Target,
        profile: u32,
        entry: EntrySlot<'_>,
        action: Option<&p4::TableAction>,
        inserted: bool,
    ) -> Result<Indirect, RpcError> {
        use p4::table_action::Type as A;
        let EntrySlot {
            table: t,
            exists,
            old,
        } = entry;
        let table = t.name.as_str();
        let style = self.styles.get(&profile).copied().unwrap_or_default();
        let existing = |this: &Profiles, target: Target| {
            if this.oneshot_tables.contains(&t.id) {
                return Err(invalid(format!(
                    "{table} is annotated @oneshot: its entries take one-shot action sets only, not member or group ids"
                )));
            }
            let others = style
                .one_shot
                .saturating_sub(u64::from(matches!(old, Some(Target::OneShot(_)))));
            if others > 0 {
                return Err(invalid(format!(
                    "{table}: the tables of its action selector hold {others} entries with one-shot action sets; one selector's tables are programmed one way only (one-shot action sets, or members and groups)"
                )));
            }
            Ok(Indirect {
                profile,
                old,
                to: Planned::Existing(target),
            })
        };
        match action.and_then(|a| a.r#type.as_ref()) {
            Some(A::ActionProfileMemberId(m)) => {
                if self.members.contains_key(&(profile, *m)) {
                    existing(self, Target::Member(*m))
                } else {
                    Err(not_found(format!("{table}: no action profile member {m}")))
                }
            }
            Some(A::ActionProfileGroupId(g)) => {
                if self.groups.contains_key(&(profile, *g)) {
                    existing(self, Target::Group(*g))
                } else {
                    Err(not_found(format!("{table}: no action profile group {g}")))
                }
            }
            Some(A::Action(_)) => Err(invalid(format!(
                "{table} uses an action profile: its entries point to a member or a group"
            ))),
            Some(A::ActionProfileActionSet(set)) => {
                let others = style.by_id.saturating_sub(u64::from(matches!(
                    old,
                    Some(Target::Member(_) | Target::Group(_))
                )));
                let (members, group, set) =
                    self.plan_one_shot(switch, profile, t, set, old, others)?;
                if inserted && exists {
                    return Err(RpcError::new(
                        Code::AlreadyExists,
                        format!("{table}: an entry with this key already exists"),
                    ));
                }
                if !inserted && !exists {
                    return Err(not_found(format!("{table}: no entry with this key")));
                }
                Ok(Indirect {
                    profile,
                    old,
                    to: Planned::OneShot(members, group, set),
                })
            }
            None => Err(invalid(format!("{table}: the entry has no action"))),
        }
    }

    /// Checks a one-shot action set for an entry of table `t` (which now
    /// points to `old`, if it exists; `by_id`: the other entries of the
    /// profile's tables that point to members or groups) and gives the
    /// members of its group, its group action and the set as it reads back.
    pub(super) fn plan_one_shot(
        &mut self,
        switch: &mut dyn target::Target,
        profile: u32,
        t: &TableMap,
        set: &p4::ActionProfileActionSet,
        old: Option<Target>,
        by_id: u64,
    ) -> Result<OneShotPlan, RpcError> {
        use p4::action_profile_action_set::{ActionSelectionMode as Mode, SizeSemantics as Sizes};
        let what = format!("{}: the one-shot action set", t.name);
        let p = self.profile_map(profile)?;
        if !p.with_selector {
            return Err(invalid(format!(
                "{}: its action profile {} has no selector; one-shot action sets need an action selector",
                t.name, p.name
            )));
        }
        if by_id > 0 {
            return Err(invalid(format!(
                "{what}: the tables of {} hold {by_id} entries pointing to members or groups; one selector's tables are programmed one way only (one-shot action sets, or members and groups)",
                p.name
            )));
        }
        let actions = &set.action_profile_actions;
        if actions.is_empty() {
            return Err(invalid(format!("{what} is empty")));
        }
        match Mode::try_from(set.action_selection_mode) {
            Ok(Mode::DefaultModeDeterminedByActionSelector | Mode::Hash) => {}
            Ok(Mode::Random) => {
                return Err(RpcError::new(
                    Code::Unimplemented,
                    format!(
                        "{what}: RANDOM selection is not supported (the model picks by the selector's hash)"
                    ),
                ));
            }
            Err(_) => {
                return Err(invalid(format!(
                    "{what}: unknown action_selection_mode {}",
                    set.action_selection_mode
                )));
            }
        }
        let rules = p.rules;
        let semantics = match Sizes::try_from(set.size_semantics) {
            Ok(Sizes::DefaultSizeDeterminedByActionSelector) => rules.semantics,
            Ok(Sizes::SumOfWeights) => Semantics::SumOfWeights,
            Ok(Sizes::SumOfMembers) => match rules.semantics {
                Semantics::SumOfMembers(max) => Semantics::SumOfMembers(max),
                Semantics::SumOfWeights => Semantics::SumOfMembers(0),
            },
            Err(_) => {
                return Err(invalid(format!(
                    "{what}: unknown size_semantics {}",
                    set.size_semantics
                )));
            }
        };
        // Room first, so a set too large for the profile costs no more
        // than its length.
        let own = match old {
            Some(t @ Target::OneShot(_)) => Some(t),
            _ => None,
        };
        let (max, members, groups, old_size) = {
            let prof = profile_mut(switch, &p)?;
            (
                prof.max_size,
                prof.member_count(),
                prof.group_count(),
                own.and_then(|t| prof.group_size(t)),
            )
        };
        let freed = old_size.map_or(0, |(m, _)| m as usize);
        if members - freed.min(members) + actions.len() > max {
            return Err(exhausted(format!(
                "{what}: {} actions; {} holds {} of its {max} members",
                actions.len(),
                p.name,
                members - freed.min(members)
            )));
        }
        if own.is_none() && groups >= max {
            return Err(exhausted(format!("{}: full ({max} groups)", p.name)));
        }
        if let (Semantics::SumOfMembers(_), n) = (semantics, rules.max_group_size)
            && n > 0
            && actions.len() as u64 > n
        {
            return Err(invalid(format!(
                "{what}: {} actions exceed the selector's max_group_size {n}",
                actions.len()
            )));
        }
        let mut planned = Vec::with_capacity(actions.len());
        let mut canonical = Vec::with_capacity(actions.len());
        let mut weight = 0u64;
        for (i, a) in actions.iter().enumerate() {
            let at = format!("{what}, action {i}");
            let action = a
                .action
                .clone()
                .ok_or_else(|| invalid(format!("{at}: no action")))?;
            let ta = p4::TableAction {
                r#type: Some(p4::table_action::Type::Action(action)),
            };
            self.refuse_group_action(t, Some(&ta))?;
            let (index, args) = action_of(t, Some(&ta), false)?;
            let canon = match table_action(t, index, &args).r#type {
                Some(p4::table_action::Type::Action(a)) => a,
                _ => return Err(RpcError::new(Code::Internal, "not a direct action")),
            };
            let w = rules.weight(semantics, a.weight, &at)?;
            let watch_kind = action_watch(&a.watch_kind, &at)?;
            weight += u64::from(w);
            planned.push((
                Member {
                    action: index,
                    args,
                },
                w,
            ));
            canonical.push(p4::ActionProfileAction {
                action: Some(canon),
                weight: a.weight,
                watch_kind,
            });
        }
        if semantics == Semantics::SumOfWeights
            && rules.max_group_size > 0
            && weight > rules.max_group_size
        {
            return Err(invalid(format!(
                "{what}: its weights sum to {weight}, over the selector's max_group_size {}",
                rules.max_group_size
            )));
        }
        let group = self.plan_group_action(t, set.group_action.as_ref(), &what)?;
        self.check_profile_total(
            switch,
            &p,
            semantics,
            old_size,
            (actions.len() as u64, weight),
        )?;
        let (group, group_action) = group.unzip();
        Ok((
            planned,
            group,
            p4::ActionProfileActionSet {
                action_profile_actions: canonical,
                action_selection_mode: set.action_selection_mode,
                size_semantics: set.size_semantics,
                group_action,
            },
        ))
    }

    /// Puts what `ind` plans into the switch's profile (a one-shot set's
    /// group; nothing for a member or group id): the last step before the
    /// entry changes. Then [`Profiles::indirect_written`] once the entry
    /// changed, or [`Profiles::indirect_refused`] if it could not.
    pub(crate) fn install_indirect(
        &mut self,
        switch: &mut dyn target::Target,
        ind: Indirect,
    ) -> Result<Installed, RpcError> {
        let Indirect { profile, old, to } = ind;
        let (members, group, set) = match to {
            Planned::Existing(target) => {
                return Ok(Installed {
                    profile,
                    old,
                    target,
                    set: None,
                    replaced: None,
                    replaced_group_action: None,
                });
            }
            Planned::OneShot(members, group, set) => (members, group, set),
        };
        let p = self.profile_map(profile)?;
        if let Some(Target::OneShot(id)) = old {
            // The entry's own group takes the new set in place.
            let prof = profile_mut(switch, &p)?;
            let replaced: Vec<(Member, u32)> = prof
                .one_shot(id)
                .map(|m| m.map(|(m, w)| (m.clone(), w)).collect())
                .unwrap_or_default();
            prof.set_one_shot(id, members)
                .map_err(|e| profile_error(e, &p.name))?;
            let replaced_group_action = prof
                .set_one_shot_group_action(id, group)
                .map_err(|e| profile_error(e, &p.name))?;
            return Ok(Installed {
                profile,
                old,
                target: Target::OneShot(id),
                set: Some(set),
                replaced: Some(replaced),
                replaced_group_action,
            });
        }
        // A fresh id: the switch's one-shot ids are the server's alone.
        let mut id = self.next_one_shot.max(1);
        while self.one_shots.contains_key(&(profile, id)) {
            id = id.checked_add(1).unwrap_or(1);
        }
        self.next_one_shot = id.checked_add(1).unwrap_or(1);
        let prof = profile_mut(switch, &p)?;
        prof.add_one_shot(id, members)
            .map_err(|e| profile_error(e, &p.name))?;
        if group.is_some() {
            prof.set_one_shot_group_action(id, group)
                .map_err(|e| profile_error(e, &p.name))?;
        }
        Ok(Installed {
            profile,
            old,
            target: Target::OneShot(id),
            set: Some(set),
            replaced: None,
            replaced_group_action: None,
        })
    }

    /// The entry now points to `x`'s target: counts it, keeps its one-shot
    /// set, frees the one-shot group it pointed to before.
    pub(crate) fn indirect_written(&mut self, switch: &mut dyn target::Target, x: Installed) {
        let Installed {
            profile,
            old,
            target,
            set,
            ..
        } = x;
        self.count_style(profile, old, false);
        self.count_style(profile, Some(target), true);
        if let (Target::OneShot(id), Some(set)) = (target, set) {
            self.one_shots.insert((profile, id), set);
        }
        if let Some(o @ Target::OneShot(_)) = old
            && o != target
        {
            self.free_one_shot(switch, profile, o);
        }
    }

    /// The entry did not change: takes back what [`Profiles::install_indirect`] put in.
    pub(crate) fn indirect_refused(&mut self, switch: &mut dyn target::Target, x: Installed) {
        let Target::OneShot(id) = x.target else {
            return;
        };
        let Ok(p) = self.profile_map(x.profile) else {
            return;
        };
        let Ok(prof) = profile_mut(switch, &p) else {
            return;
        };
        let undone = match x.replaced {
            Some(old) => prof.set_one_shot(id, old).and_then(|()| {
                prof.set_one_shot_group_action(id, x.replaced_group_action)
                    .map(|_| ())
            }),
            None => prof.remove_one_shot(id),
        };
        if let Err(e) = undone {
            tracing::error!(profile = %p.name, "a refused entry's one-shot group could not be taken back: {e}");
        }
    }

    /// An entry of a table using `profile` that pointed to `old` was
    /// deleted.
    pub(crate) fn indirect_deleted(
        &mut self,
        switch: &mut dyn target::Target,
        profile: u32,
        old: Option<Target>,
    ) {
        self.count_style(profile, old, false);
        if let Some(o @ Target::OneShot(_)) = old {
            self.free_one_shot(switch, profile, o);
        }
    }

    pub(super) fn free_one_shot(
        &mut self,
        switch: &mut dyn target::Target,
        profile: u32,
        target: Target,
    ) {
        let Target::OneShot(id) = target else { return };
        self.one_shots.remove(&(profile, id));
        let Ok(p) = self.profile_map(profile) else {
            return;
        };
        if let Ok(prof) = profile_mut(switch, &p)
            && let Err(e) = prof.remove_one_shot(id)
        {
            tracing::error!(profile = %p.name, "freeing one-shot group {id}: {e}");
        }
    }

    /// The action of an entry of a table using `profile` that points to
    /// `target`, as it reads back: the one-shot set as written, or the
    /// member or group id.
    pub(crate) fn indirect_action(&self, profile: u32, target: Target) -> Option<p4::TableAction> {
        use p4::table_action::Type as A;
        Some(p4::TableAction {
            r#type: Some(match target {
                Target::Member(m) => A::ActionProfileMemberId(m),
                Target::Group(g) => A::ActionProfileGroupId(g),
                Target::OneShot(id) => {
                    A::ActionProfileActionSet(self.one_shots.get(&(profile, id))?.clone())
                }
            }),
        })
    }
}
