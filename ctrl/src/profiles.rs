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

use crate::codec::{RpcError, from_bytes, invalid, to_bytes};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::tables::{TableMap, Tables, action_of, table_action};
use janus_engine::profile::{ActionProfile, Member, ProfileError, Target};
use janus_engine::target;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use tonic::Code;

fn not_found(message: impl Into<String>) -> RpcError {
    RpcError::new(Code::NotFound, message)
}

fn exhausted(message: impl Into<String>) -> RpcError {
    RpcError::new(Code::ResourceExhausted, message)
}

/// The highest port a watch port may name (v1model's ports are 9 bits).
const MAX_PORT: u64 = 511;

/// How a selector group's size is counted (`selector_size_semantics`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Semantics {
    SumOfWeights,
    /// The number of members; each weight at most this (0: any).
    SumOfMembers(i32),
}

/// A selector's limits on its groups.
#[derive(Clone, Copy, Debug)]
struct Rules {
    /// The largest group, as `semantics` counts (0: none stated).
    max_group_size: u64,
    semantics: Semantics,
    /// The target chooses the weights: clients leave them at 0.
    weights_disallowed: bool,
}

impl Rules {
    /// The limits a P4Info states on an action selector: its
    /// `max_group_size`, `selector_size_semantics` and
    /// `weights_disallowed`, else the annotations that set them,
    /// `@max_group_size(N)`, `@selector_size_semantics(sum_of_weights |
    /// sum_of_members)` and `@max_member_weight(N)` (P4Runtime §6.4.3).
    /// `None` where it states nothing.
    fn stated(a: &cfg::ActionProfile) -> (Option<u64>, Option<Semantics>, bool) {
        use cfg::action_profile::SelectorSizeSemantics as S;
        let annotations = a
            .preamble
            .as_ref()
            .map_or(&[][..], |p| p.annotations.as_slice());
        let int = |name: &str| {
            annotation_arg(annotations, name).and_then(|v| {
                let v = v.trim();
                match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
                    Some(hex) => u64::from_str_radix(hex, 16).ok(),
                    None => v.parse::<u64>().ok(),
                }
            })
        };
        let max_group_size = match a.max_group_size {
            n if n > 0 => Some(n as u64),
            _ => int("max_group_size").filter(|&n| n > 0),
        };
        let annotated_weight =
            || int("max_member_weight").map_or(0, |w| i32::try_from(w).unwrap_or(i32::MAX));
        let semantics = match a.selector_size_semantics {
            Some(S::SumOfWeights(_)) => Some(Semantics::SumOfWeights),
            Some(S::SumOfMembers(m)) if m.max_member_weight > 0 => {
                Some(Semantics::SumOfMembers(m.max_member_weight))
            }
            Some(S::SumOfMembers(_)) => Some(Semantics::SumOfMembers(annotated_weight())),
            None => match annotation_arg(annotations, "selector_size_semantics").as_deref() {
                Some("sum_of_members") => Some(Semantics::SumOfMembers(annotated_weight())),
                Some("sum_of_weights") => Some(Semantics::SumOfWeights),
                _ => None,
            },
        };
        (max_group_size, semantics, a.weights_disallowed)
    }

    /// The limits on the groups of profile `a`: what `a` states, else
    /// what the pushed P4Info states of the profile with its id.
    fn of(a: &cfg::ActionProfile, pushed: &cfg::P4Info) -> Rules {
        let (mut max_group_size, mut semantics, mut weights_disallowed) = Rules::stated(a);
        let id = a.preamble.as_ref().map_or(0, |p| p.id);
        let theirs = pushed
            .action_profiles
            .iter()
            .find(|x| x.preamble.as_ref().is_some_and(|p| p.id == id));
        if let Some(x) = theirs {
            let (m, s, w) = Rules::stated(x);
            max_group_size = max_group_size.or(m);
            semantics = semantics.or(s);
            weights_disallowed |= w;
        }
        Rules {
            max_group_size: max_group_size.unwrap_or(0),
            semantics: semantics.unwrap_or(Semantics::SumOfWeights),
            weights_disallowed,
        }
    }

    /// The size of a group of `members` members whose weights sum to
    /// `weight`, as `semantics` counts it.
    fn size(semantics: Semantics, members: u64, weight: u64) -> u64 {
        match semantics {
            Semantics::SumOfWeights => weight,
            Semantics::SumOfMembers(_) => members,
        }
    }

    /// What `semantics` counts, for messages.
    fn unit(semantics: Semantics) -> &'static str {
        match semantics {
            Semantics::SumOfWeights => "the sum of the weights",
            Semantics::SumOfMembers(_) => "members",
        }
    }

    /// The weight the model uses for a member written with `weight`.
    fn weight(&self, semantics: Semantics, weight: i32, what: &str) -> Result<u32, RpcError> {
        if self.weights_disallowed {
            return if weight == 0 {
                Ok(1)
            } else {
                Err(invalid(format!(
                    "{what}: weight {weight}; this selector's weights are the target's (weights_disallowed): leave it at 0"
                )))
            };
        }
        if weight <= 0 {
            return Err(invalid(format!(
                "{what}: weight {weight}; a weight is at least 1"
            )));
        }
        if let Semantics::SumOfMembers(max) = semantics
            && max > 0
            && weight > max
        {
            return Err(invalid(format!(
                "{what}: weight {weight} exceeds the selector's max_member_weight {max}"
            )));
        }
        Ok(weight as u32)
    }
}

/// The text inside `@name(...)` among `annotations`, unquoted.
fn annotation_arg(annotations: &[String], name: &str) -> Option<String> {
    annotations.iter().find_map(|a| {
        let rest = a.strip_prefix('@')?.strip_prefix(name)?;
        let inner = rest.trim().strip_prefix('(')?.strip_suffix(')')?.trim();
        Some(inner.trim_matches('"').to_string())
    })
}

/// A watch port as written, checked and canonical: `None` when there is
/// none; the port (0..=511) otherwise. An empty `watch_port` is no watch
/// port and is kept as written.
fn watch_port(watch: Option<i32>, port: Option<&[u8]>, what: &str) -> Result<(), RpcError> {
    let value = match (watch, port) {
        (Some(w), _) => u64::try_from(w).unwrap_or(u64::MAX),
        (None, Some([])) | (None, None) => return Ok(()),
        (None, Some(b)) => {
            let v = from_bytes(b, 64, false, &format!("{what}: watch_port"))
                .map_err(|e| invalid(e.message))?;
            v.to_u64().unwrap_or(u64::MAX)
        }
    };
    if value > MAX_PORT {
        return Err(invalid(format!(
            "{what}: watch port {value} is not a port of the switch (0..={MAX_PORT})"
        )));
    }
    Ok(())
}

/// The canonical `watch_port` bytes of a non-empty, checked one.
fn canonical_port(b: &[u8]) -> Vec<u8> {
    from_bytes(b, 64, false, "watch_port").map_or_else(|_| b.to_vec(), |v| to_bytes(&v))
}

fn group_watch(
    w: &Option<p4::action_profile_group::member::WatchKind>,
    what: &str,
) -> Result<Option<p4::action_profile_group::member::WatchKind>, RpcError> {
    use p4::action_profile_group::member::WatchKind as W;
    #[allow(deprecated)]
    match w {
        None => Ok(None),
        Some(W::Watch(x)) => watch_port(Some(*x), None, what).map(|()| Some(W::Watch(*x))),
        Some(W::WatchPort(b)) if b.is_empty() => Ok(Some(W::WatchPort(Vec::new()))),
        Some(W::WatchPort(b)) => {
            watch_port(None, Some(b), what).map(|()| Some(W::WatchPort(canonical_port(b))))
        }
    }
}

fn action_watch(
    w: &Option<p4::action_profile_action::WatchKind>,
    what: &str,
) -> Result<Option<p4::action_profile_action::WatchKind>, RpcError> {
    use p4::action_profile_action::WatchKind as W;
    #[allow(deprecated)]
    match w {
        None => Ok(None),
        Some(W::Watch(x)) => watch_port(Some(*x), None, what).map(|()| Some(W::Watch(*x))),
        Some(W::WatchPort(b)) if b.is_empty() => Ok(Some(W::WatchPort(Vec::new()))),
        Some(W::WatchPort(b)) => {
            watch_port(None, Some(b), what).map(|()| Some(W::WatchPort(canonical_port(b))))
        }
    }
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
    fn plan_group_action(
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
    fn plan_one_shot(
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

    fn free_one_shot(&mut self, switch: &mut dyn target::Target, profile: u32, target: Target) {
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
