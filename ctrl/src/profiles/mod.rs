//! Action profiles and selectors (ActionProfileMember, ActionProfileGroup,
//! indirect table entries, one-shot action sets).
//!
//! Members and groups are written to the switch's profile
//! (`Target::profile_mut`) and kept here as written (canonical), which is
//! what reads return. A member's action must be one of the actions of the
//! tables using the profile (the P4Info's `table_ids`; checked against the
//! first), as an entry's would. Groups exist only in profiles with a
//! selector. A group member's weight is at least 1 (0 or negative:
//! INVALID_ARGUMENT; with the P4Info's `weights_disallowed`, 0 only, and
//! the model uses 1): the data plane picks among a group's members as if
//! each appeared `weight` times. Watch ports (`watch_port`, or the
//! deprecated `watch`) name a port of the switch (0..=511, else
//! INVALID_ARGUMENT) and are kept and read back; the model has no port
//! that goes down, so no member is ever left out for its watch port.
//! Deleting a member that a group or a table entry uses, or a group that an
//! entry uses, is FAILED_PRECONDITION.
//!
//! A group's size is counted as the selector's `selector_size_semantics`
//! says (the P4Info's, else the program's `@selector_size_semantics`,
//! default the sum of the weights): over its own `max_size` (or, with
//! `max_size` 0, the selector's `max_group_size`) RESOURCE_EXHAUSTED, and so
//! is the total over every group (one-shot groups included) beyond the
//! profile's `size`. A `max_size` above `max_group_size` is
//! INVALID_ARGUMENT, and so is a MODIFY that changes it.
//!
//! One-shot action sets (a table entry whose action is an
//! `ActionProfileActionSet`) become a group of the switch's profile with
//! members of its own ([`Target::OneShot`], ids apart from the members' and
//! groups', never seen by clients): the set is kept as written and is what
//! reads of the entry return; MODIFY replaces it, DELETE frees it. The
//! tables of one selector are programmed one way only (P4Runtime §9.2.3):
//! a one-shot set where entries point to members or groups, or the other
//! way round, is INVALID_ARGUMENT, and so is a member or group id in an
//! entry of a table annotated `@oneshot`.
//!
//! A one-shot set may name a group action (`group_action`, P4Runtime 1.6):
//! one of the table's actions whose P4Info scope is GROUP_ACTION, which
//! every hit of the set's group runs before the action the selector picks
//! (the engine's [`ActionProfile::group_action`]). It is kept and read
//! back with the set, and is no member (it takes no room, weighs nothing).
//! A GROUP_ACTION action is refused anywhere else (as a set's member
//! action, an ActionProfileMember's action: [`Profiles::refuse_group_action`]),
//! and any other action as a group action: INVALID_ARGUMENT.
//!

use crate::codec::RpcError;
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::tables::TableMap;
use janus_engine::profile::{ActionProfile, Member, ProfileError, Target};
use janus_engine::target;
use std::collections::{BTreeMap, BTreeSet};
use tonic::Code;

mod entities;
mod indirect;
mod rules;

use rules::*;

fn not_found(message: impl Into<String>) -> RpcError {
    RpcError::new(Code::NotFound, message)
}

fn exhausted(message: impl Into<String>) -> RpcError {
    RpcError::new(Code::ResourceExhausted, message)
}

/// The highest port a watch port may name (v1model's ports are 9 bits).
const MAX_PORT: u64 = 511;
#[derive(Clone, Debug)]
struct ProfileMap {
    name: String,
    /// The table whose action list members are checked against (0: no
    /// table uses the profile).
    table_id: u32,
    with_selector: bool,
    /// Switch slots of the tables using it.
    slots: Vec<usize>,
    /// The limits on its groups: what the program's P4Info states of
    /// `max_group_size`, `selector_size_semantics` and
    /// `weights_disallowed` (its fields, else its annotations), else what
    /// the pushed P4Info does, else none (sizes counted as the sum of the
    /// weights).
    rules: Rules,
}

/// The entries of one profile's tables, by how they are programmed.
#[derive(Clone, Copy, Debug, Default)]
struct Styles {
    /// Pointing to a member or a group.
    by_id: u64,
    /// Holding a one-shot action set.
    one_shot: u64,
}

/// Action profiles and selectors of a pipeline, with what was written.
#[derive(Debug, Default)]
pub struct Profiles {
    profiles: BTreeMap<u32, ProfileMap>,
    members: BTreeMap<(u32, u32), p4::ActionProfileMember>,
    groups: BTreeMap<(u32, u32), p4::ActionProfileGroup>,
    /// One-shot action sets as written (canonical), by profile and the
    /// switch's one-shot group id.
    one_shots: BTreeMap<(u32, u32), p4::ActionProfileActionSet>,
    /// The next one-shot group id to try.
    next_one_shot: u32,
    /// Per profile, its tables' entries by style.
    styles: BTreeMap<u32, Styles>,
    /// Tables annotated `@oneshot`: one-shot action sets only.
    oneshot_tables: BTreeSet<u32>,
    /// (table, action) of the action refs scoped GROUP_ACTION, with the
    /// action's name: one-shot sets' group actions, and nothing else.
    group_actions: BTreeMap<(u32, u32), String>,
}

impl Profiles {
    /// Every action the members and one-shot action sets hold, as written,
    /// with its profile's id.
    pub(crate) fn written_actions(&self) -> impl Iterator<Item = (u32, &p4::Action)> {
        let members = self
            .members
            .iter()
            .filter_map(|((p, _), m)| Some((*p, m.action.as_ref()?)));
        let one_shots = self.one_shots.iter().flat_map(|((p, _), set)| {
            set.action_profile_actions
                .iter()
                .filter_map(|a| a.action.as_ref())
                .chain(set.group_action.as_ref())
                .map(move |a| (*p, a))
        });
        members.chain(one_shots)
    }

    /// Maps the P4Info's action profiles onto the switch's (by name); `pushed` is the P4Info as the client pushed it, whose
    /// selector limits fill in what the program's leaves out.
    pub(crate) fn build(
        info: &cfg::P4Info,
        pushed: &cfg::P4Info,
        switch: &dyn target::Target,
    ) -> Profiles {
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
                    rules: Rules::of(a, pushed),
                },
            );
        }
        for t in &info.tables {
            let Some(pre) = &t.preamble else { continue };
            let oneshot = pre
                .annotations
                .iter()
                .any(|a| a == "@oneshot" || a.starts_with("@oneshot("));
            if oneshot {
                r.oneshot_tables.insert(pre.id);
            }
        }
        r.group_actions = group_actions_of(info);
        r
    }

    fn count_style(&mut self, profile: u32, target: Option<Target>, add: bool) {
        let Some(target) = target else { return };
        let s = self.styles.entry(profile).or_default();
        let n = match target {
            Target::OneShot(_) => &mut s.one_shot,
            Target::Member(_) | Target::Group(_) => &mut s.by_id,
        };
        *n = if add {
            n.saturating_add(1)
        } else {
            n.saturating_sub(1)
        };
    }
}

/// What [`Profiles::plan_one_shot`] gives: the members of the set's group,
/// its group action, and the set as it reads back.
type OneShotPlan = (
    Vec<(Member, u32)>,
    Option<Member>,
    p4::ActionProfileActionSet,
);

/// The action refs of `info` scoped GROUP_ACTION (P4Runtime 1.6), by
/// (table, action), with the action's name.
fn group_actions_of(info: &cfg::P4Info) -> BTreeMap<(u32, u32), String> {
    let group = cfg::action_ref::Scope::GroupAction as i32;
    let name = |id: u32| {
        info.actions
            .iter()
            .filter_map(|a| a.preamble.as_ref())
            .find(|p| p.id == id)
            .map_or_else(|| format!("action {id:#010x}"), |p| p.name.clone())
    };
    let mut out = BTreeMap::new();
    for t in &info.tables {
        let Some(pre) = &t.preamble else { continue };
        for r in t.action_refs.iter().filter(|r| r.scope == group) {
            out.insert((pre.id, r.id), name(r.id));
        }
    }
    out
}

fn profile_error(e: ProfileError, what: &str) -> RpcError {
    let code = match e {
        ProfileError::Full(_) => Code::ResourceExhausted,
        ProfileError::DuplicateMember(_)
        | ProfileError::DuplicateGroup(_)
        | ProfileError::DuplicateOneShot(_) => Code::AlreadyExists,
        ProfileError::NoMember(_) | ProfileError::NoGroup(_) | ProfileError::NoOneShot(_) => {
            Code::NotFound
        }
        ProfileError::MemberInUse(..) => Code::FailedPrecondition,
        ProfileError::NoSelector => Code::InvalidArgument,
    };
    RpcError::new(code, format!("{what}: {e}"))
}

/// The entry an update of a table using a profile writes: its table, and
/// whether it exists now, with the member, group or one-shot set it points
/// to.
pub(crate) struct EntrySlot<'a> {
    pub(crate) table: &'a TableMap,
    pub(crate) exists: bool,
    pub(crate) old: Option<Target>,
}

/// What an entry of an indirect table is to point to, checked but not yet
/// in the switch ([`Profiles::install_indirect`] puts it there).
pub(crate) struct Indirect {
    profile: u32,
    /// What the entry points to now (a MODIFY), if it exists.
    old: Option<Target>,
    to: Planned,
}

enum Planned {
    /// A member or group the client wrote.
    Existing(Target),
    /// A one-shot action set: the members of its group, its group action,
    /// and the set as it reads back.
    OneShot(
        Vec<(Member, u32)>,
        Option<Member>,
        p4::ActionProfileActionSet,
    ),
}

/// An [`Indirect`] installed: the entry is to point to `target`.
pub(crate) struct Installed {
    profile: u32,
    old: Option<Target>,
    target: Target,
    /// The one-shot set the entry holds from now on.
    set: Option<p4::ActionProfileActionSet>,
    /// The old members of the entry's own one-shot group, which the new
    /// set replaced in place (to put back should the entry not change).
    replaced: Option<Vec<(Member, u32)>>,
    /// With `replaced`: the group action the new set replaced.
    replaced_group_action: Option<Member>,
}

impl Installed {
    pub(crate) fn target(&self) -> Target {
        self.target
    }
}

impl Profiles {
    fn profile_map(&self, id: u32) -> Result<ProfileMap, RpcError> {
        self.profiles
            .get(&id)
            .cloned()
            .ok_or_else(|| not_found(format!("no action profile with id {id}")))
    }

    /// Refuses a group of `size` (as `semantics` counts) that would take
    /// the total over the profile's groups past its size; `old` is the
    /// (members, weight) of the group it replaces.
    fn check_profile_total(
        &mut self,
        switch: &mut dyn target::Target,
        p: &ProfileMap,
        semantics: Semantics,
        old: Option<(u64, u64)>,
        new: (u64, u64),
    ) -> Result<(), RpcError> {
        let prof = profile_mut(switch, p)?;
        let (members, weight) = prof.group_totals();
        let (old_members, old_weight) = old.unwrap_or((0, 0));
        let used = Rules::size(
            semantics,
            members.saturating_sub(old_members),
            weight.saturating_sub(old_weight),
        );
        let add = Rules::size(semantics, new.0, new.1);
        let max = prof.max_size as u64;
        if used.saturating_add(add) > max {
            return Err(exhausted(format!(
                "{}: its groups would hold {} ({} over every group); its size is {max}",
                p.name,
                used.saturating_add(add),
                Rules::unit(semantics)
            )));
        }
        Ok(())
    }

    /// FAILED_PRECONDITION when an entry of a table still uses `target`
    /// (`what` names it), which a DELETE may then not remove.
    fn refuse_if_used(
        &self,
        switch: &dyn target::Target,
        p: &ProfileMap,
        target: Target,
        what: &str,
    ) -> Result<(), RpcError> {
        match self.used_by(switch, p, target) {
            Some(t) => Err(RpcError::new(
                Code::FailedPrecondition,
                format!("{what} is used by an entry of {t}"),
            )),
            None => Ok(()),
        }
    }

    /// The name of a table with an entry pointing to `target` in `p`.
    fn used_by(
        &self,
        switch: &dyn target::Target,
        p: &ProfileMap,
        target: Target,
    ) -> Option<String> {
        for &slot in &p.slots {
            let Some(state) = switch.table(slot) else {
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
                    switch
                        .tables()
                        .get(slot)
                        .map_or_else(String::new, |t| t.name.clone()),
                );
            }
        }
        None
    }
}

/// The entries of `written` a read of (profile, id) names, 0 a wildcard
/// for either; one lookup when both are given (an update's capture reads
/// one member or group).
fn read_keyed<T: Clone>(
    written: &BTreeMap<(u32, u32), T>,
    (profile, id): (u32, u32),
    wrap: impl Fn(T) -> p4::entity::Entity,
) -> Vec<p4::Entity> {
    let entity = |x: &T| p4::Entity {
        entity: Some(wrap(x.clone())),
    };
    if profile != 0 && id != 0 {
        return written
            .get(&(profile, id))
            .map(entity)
            .into_iter()
            .collect();
    }
    written
        .iter()
        .filter(|((p, i), _)| (profile == 0 || *p == profile) && (id == 0 || *i == id))
        .map(|(_, x)| entity(x))
        .collect()
}

fn profile_mut<'a>(
    switch: &'a mut dyn target::Target,
    p: &ProfileMap,
) -> Result<&'a mut ActionProfile, RpcError> {
    switch.profile_mut(&p.name).ok_or_else(|| {
        RpcError::new(
            Code::Internal,
            format!("{}: no such profile in the switch", p.name),
        )
    })
}
