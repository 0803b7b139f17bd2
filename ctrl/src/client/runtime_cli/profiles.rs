//! Action profiles and selectors of `janus ctrl cli`: runtime_CLI's
//! `act_prof_*` commands over P4Runtime ActionProfileMember /
//! ActionProfileGroup entities, and the indirect-table commands
//! (`table_indirect_*`, `table_dump_member`, `table_dump_group`) over
//! TableEntry with `action_profile_member_id` / `action_profile_group_id`.
//!
//! Member and group handles are numbered as bmv2 numbers them
//! (`action_profile.cpp`: a handle manager per profile for members and
//! one for groups, the lowest free handle from 0, no version byte). The
//! session maps each handle to the P4Runtime id it wrote (the lowest id
//! from 1 that the profile does not use). When a session first touches a
//! profile it reads its members and groups and numbers those it does not
//! know in id order, so a later session finds the handles an earlier one
//! printed as long as that one only created.
//!
//! A group is written with `max_size` 0 (the selector's bound) and each
//! member with weight 1 (0 when the P4Info says `weights_disallowed`);
//! adding or removing a member is a MODIFY of the whole group.

use super::tables::{self, Key};
use super::{CmdResult, Refused, Session, at_least, bad_name, exactly, uin};
use crate::client::schema;
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use p4::entity::Entity as E;
use p4::update::Type as U;
use std::collections::HashMap;
use tonic::Code;

/// One kind of handle of one profile: handle -> P4Runtime id.
#[derive(Default)]
pub struct Ids {
    slots: Vec<Option<u32>>,
}

impl Ids {
    /// The lowest free handle, now naming `id`.
    pub fn alloc(&mut self, id: u32) -> u32 {
        let slot = match self.slots.iter().position(Option::is_none) {
            Some(i) => i,
            None => {
                self.slots.push(None);
                self.slots.len() - 1
            }
        };
        self.slots[slot] = Some(id);
        slot as u32
    }

    /// The P4Runtime id of `handle`.
    pub fn get(&self, handle: u32) -> Option<u32> {
        self.slots.get(handle as usize).copied().flatten()
    }

    pub fn release(&mut self, handle: u32) {
        if let Some(s) = self.slots.get_mut(handle as usize) {
            *s = None;
        }
    }

    /// The handle naming P4Runtime id `id`.
    pub fn handle_of(&self, id: u32) -> Option<u32> {
        self.slots
            .iter()
            .position(|s| *s == Some(id))
            .map(|i| i as u32)
    }

    /// The lowest P4Runtime id from 1 that no handle names.
    pub fn free_id(&self) -> u32 {
        (1..).find(|i| self.handle_of(*i).is_none()).unwrap_or(1)
    }
}

/// One profile's member and group handles.
#[derive(Default)]
pub struct Profile {
    pub members: Ids,
    pub groups: Ids,
}

/// Every profile's handles, by profile id; a profile is present once read.
pub type ProfileHandles = HashMap<u32, Profile>;

/// What an action profile error is about.
#[derive(Clone, Copy)]
enum Obj {
    Member,
    Group,
}

/// runtime_CLI's line for a refused action profile operation, with the
/// name bmv2 gives the error.
fn prof_error(r: &Refused, obj: Obj) -> String {
    let name = match (r.code, obj) {
        (Code::NotFound, Obj::Member) => "INVALID_MBR_HANDLE",
        (Code::NotFound, Obj::Group) => "INVALID_GRP_HANDLE",
        (Code::FailedPrecondition, Obj::Member) => "MBR_STILL_USED",
        (Code::FailedPrecondition, Obj::Group) => "GRP_STILL_USED",
        _ => "ERROR",
    };
    format!("Invalid action profile operation ({name}) - {}", r.message)
}

fn member_entity(m: p4::ActionProfileMember) -> p4::Entity {
    p4::Entity {
        entity: Some(E::ActionProfileMember(m)),
    }
}

fn group_entity(g: p4::ActionProfileGroup) -> p4::Entity {
    p4::Entity {
        entity: Some(E::ActionProfileGroup(g)),
    }
}

/// Reads profile `id`'s members and groups, gives a handle to each the
/// session does not know (in id order); both with their handles, by
/// handle.
pub async fn sync(
    s: &mut Session,
    id: u32,
) -> Result<
    (
        Vec<(u32, p4::ActionProfileMember)>,
        Vec<(u32, p4::ActionProfileGroup)>,
    ),
    Refused,
> {
    let mut members: Vec<p4::ActionProfileMember> = s
        .read(member_entity(p4::ActionProfileMember {
            action_profile_id: id,
            ..Default::default()
        }))
        .await?
        .into_iter()
        .filter_map(|e| match e.entity {
            Some(E::ActionProfileMember(m)) => Some(m),
            _ => None,
        })
        .collect();
    let with_selector = s
        .schema()
        .action_profile_by_id(id)
        .is_some_and(|p| p.with_selector);
    let mut groups: Vec<p4::ActionProfileGroup> = if with_selector {
        s.read(group_entity(p4::ActionProfileGroup {
            action_profile_id: id,
            ..Default::default()
        }))
        .await?
        .into_iter()
        .filter_map(|e| match e.entity {
            Some(E::ActionProfileGroup(g)) => Some(g),
            _ => None,
        })
        .collect()
    } else {
        Vec::new()
    };
    members.sort_by_key(|m| m.member_id);
    groups.sort_by_key(|g| g.group_id);
    let p = s.profiles.entry(id).or_default();
    let mut ms: Vec<(u32, p4::ActionProfileMember)> = members
        .into_iter()
        .map(|m| {
            let h = match p.members.handle_of(m.member_id) {
                Some(h) => h,
                None => p.members.alloc(m.member_id),
            };
            (h, m)
        })
        .collect();
    let mut gs: Vec<(u32, p4::ActionProfileGroup)> = groups
        .into_iter()
        .map(|g| {
            let h = match p.groups.handle_of(g.group_id) {
                Some(h) => h,
                None => p.groups.alloc(g.group_id),
            };
            (h, g)
        })
        .collect();
    ms.sort_by_key(|(h, _)| *h);
    gs.sort_by_key(|(h, _)| *h);
    Ok((ms, gs))
}

async fn known(s: &mut Session, id: u32) -> Result<(), String> {
    if !s.profiles.contains_key(&id) {
        sync(s, id).await.map_err(|r| prof_error(&r, Obj::Member))?;
    }
    Ok(())
}

fn profile<'a>(s: &'a Session, name: &str) -> Result<&'a cfg::ActionProfile, String> {
    s.schema()
        .action_profile(name)
        .map_err(|_| bad_name("action profile", name))
}

fn profile_id(p: &cfg::ActionProfile) -> u32 {
    schema::id_of(p.preamble.as_ref())
}

fn check_ws(p: &cfg::ActionProfile) -> CmdResult {
    if !p.with_selector {
        return Err(uin(
            "Cannot run this command on an action profile without selector",
        ));
    }
    Ok(())
}

fn handle(text: &str, what: &str) -> Result<u32, String> {
    text.parse()
        .map_err(|_| uin(format!("Bad format for {what} handle")))
}

/// The P4Runtime id of member (or group) `h` of profile `id`, or bmv2's
/// error line.
fn id_of(s: &Session, id: u32, obj: Obj, h: u32, prof: &str) -> Result<u32, String> {
    let p = s.profiles.get(&id);
    let (found, name, what) = match obj {
        Obj::Member => (
            p.and_then(|p| p.members.get(h)),
            "INVALID_MBR_HANDLE",
            "member",
        ),
        Obj::Group => (
            p.and_then(|p| p.groups.get(h)),
            "INVALID_GRP_HANDLE",
            "group",
        ),
    };
    found.ok_or_else(|| {
        format!(
            "Invalid action profile operation ({name}) - this session knows no {what} {h} of \
             {prof} (handles are numbered per session, docs/control-plane.md)"
        )
    })
}

/// An action of the profile (its tables' actions, as bmv2's JSON lists
/// them) with its parameters, as the P4Runtime action.
fn member_action(
    s: &Session,
    p: &cfg::ActionProfile,
    prof_name: &str,
    action_name: &str,
    params: &[&str],
) -> Result<p4::Action, String> {
    let no_action = || {
        uin(format!(
            "Action profile '{prof_name}' has no action '{action_name}'"
        ))
    };
    let t = p
        .table_ids
        .first()
        .and_then(|id| s.schema().table_by_id(*id))
        .ok_or_else(no_action)?;
    s.schema()
        .table_action(t, action_name)
        .map_err(|_| no_action())?;
    let (a, _) = tables::parse_action(s.schema(), t, prof_name, action_name, params)?;
    match a.r#type {
        Some(p4::table_action::Type::Action(a)) => Ok(a),
        _ => Err(no_action()),
    }
}

/// Runs an action profile or indirect table command; None when `cmd` is
/// not one.
pub async fn run(s: &mut Session, cmd: &str, args: &[&str]) -> Option<CmdResult> {
    Some(match cmd {
        "act_prof_create_member" => create_member(s, args).await,
        "act_prof_delete_member" => delete_member(s, args).await,
        "act_prof_modify_member" => modify_member(s, args).await,
        "act_prof_create_group" => create_group(s, args).await,
        "act_prof_delete_group" => delete_group(s, args).await,
        "act_prof_add_member_to_group" => change_group(s, args, true).await,
        "act_prof_remove_member_from_group" => change_group(s, args, false).await,
        "act_prof_dump" => dump(s, args).await,
        "act_prof_dump_member" => dump_member(s, args).await,
        "act_prof_dump_group" => dump_group(s, args).await,
        "table_indirect_add" => indirect_add(s, args, false).await,
        "table_indirect_add_with_group" => indirect_add(s, args, true).await,
        "table_indirect_delete" => indirect_delete(s, args).await,
        "table_indirect_set_default" => indirect_set_default(s, args, false).await,
        "table_indirect_set_default_with_group" => indirect_set_default(s, args, true).await,
        "table_indirect_reset_default" => indirect_reset_default(s, args).await,
        _ => match legacy(cmd) {
            Some((substitute, ws, strict)) => match legacy_args(s, args, ws, strict, substitute) {
                Ok(args) => {
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    Box::pin(run(s, substitute, &args)).await?
                }
                Err(e) => Err(e),
            },
            None => return None,
        },
    })
}

/// runtime_CLI's table forms of the action profile commands
/// (`deprecated_act_prof`): the command they stand for, whether the
/// table's profile must have a selector, and whether the form is strictly
/// deprecated (a warning on stderr; refused on a shared profile).
pub fn legacy(cmd: &str) -> Option<(&'static str, bool, bool)> {
    Some(match cmd {
        "table_indirect_create_member" => ("act_prof_create_member", false, true),
        "table_indirect_delete_member" => ("act_prof_delete_member", false, true),
        "table_indirect_modify_member" => ("act_prof_modify_member", false, true),
        "table_indirect_create_group" => ("act_prof_create_group", true, true),
        "table_indirect_delete_group" => ("act_prof_delete_group", true, true),
        "table_indirect_add_member_to_group" => ("act_prof_add_member_to_group", true, true),
        "table_indirect_remove_member_from_group" => {
            ("act_prof_remove_member_from_group", true, true)
        }
        "table_dump_member" => ("act_prof_dump_member", false, false),
        "table_dump_group" => ("act_prof_dump_group", false, false),
        _ => return None,
    })
}

/// The arguments of a legacy form with the table replaced by its profile.
fn legacy_args(
    s: &Session,
    args: &[&str],
    ws: bool,
    strict: bool,
    substitute: &str,
) -> Result<Vec<String>, String> {
    at_least(args, 1)?;
    let t = tables::table(s, args[0])?;
    let p = indirect_profile(s, t, ws)?;
    if strict && p.table_ids.len() > 1 {
        return Err(uin(
            "Legacy command does not work with shared action profiles",
        ));
    }
    if strict {
        // On stderr, as runtime_CLI, for whoever parses stdout.
        eprintln!("This is a deprecated command, use '{substitute}' instead");
    }
    let mut out: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    out[0] = p
        .preamble
        .as_ref()
        .map_or("", |p| p.name.as_str())
        .to_string();
    Ok(out)
}

/// The profile of indirect table `t` (with a selector when `ws`), or
/// runtime_CLI's `check_indirect` / `check_indirect_ws` error.
fn indirect_profile<'a>(
    s: &'a Session,
    t: &cfg::Table,
    ws: bool,
) -> Result<&'a cfg::ActionProfile, String> {
    let p = s.schema().action_profile_by_id(t.implementation_id);
    match p {
        Some(p) if !ws || p.with_selector => Ok(p),
        Some(_) | None if ws => Err(uin(
            "Cannot run this command on non-indirect table, or on indirect table with no selector",
        )),
        _ => Err(uin("Cannot run this command on non-indirect table")),
    }
}

async fn create_member(s: &mut Session, args: &[&str]) -> CmdResult {
    at_least(args, 2)?;
    let (prof_name, action_name) = (args[0], args[1]);
    let p = profile(s, prof_name)?.clone();
    let action = member_action(s, &p, prof_name, action_name, &args[2..])?;
    let id = profile_id(&p);
    known(s, id).await?;
    let member_id = s.profiles[&id].members.free_id();
    let m = p4::ActionProfileMember {
        action_profile_id: id,
        member_id,
        action: Some(action),
    };
    s.write(U::Insert, member_entity(m))
        .await
        .map_err(|r| prof_error(&r, Obj::Member))?;
    let h = s.profiles.entry(id).or_default().members.alloc(member_id);
    s.say(format!("Member has been created with handle {h}"));
    Ok(())
}

async fn delete_member(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 2)?;
    let p = profile(s, args[0])?.clone();
    let h = handle(args[1], "member")?;
    let id = profile_id(&p);
    known(s, id).await?;
    let member_id = id_of(s, id, Obj::Member, h, args[0])?;
    let m = p4::ActionProfileMember {
        action_profile_id: id,
        member_id,
        action: None,
    };
    s.write(U::Delete, member_entity(m))
        .await
        .map_err(|r| prof_error(&r, Obj::Member))?;
    if let Some(p) = s.profiles.get_mut(&id) {
        p.members.release(h);
    }
    Ok(())
}

async fn modify_member(s: &mut Session, args: &[&str]) -> CmdResult {
    at_least(args, 3)?;
    let (prof_name, action_name) = (args[0], args[1]);
    let p = profile(s, prof_name)?.clone();
    // Checked before the handle, as runtime_CLI.
    let t = p.table_ids.first().and_then(|t| s.schema().table_by_id(*t));
    if t.is_none_or(|t| s.schema().table_action(t, action_name).is_err()) {
        return Err(uin(format!(
            "Action profile '{prof_name}' has no action '{action_name}'"
        )));
    }
    let h = handle(args[2], "member")?;
    let params = match args.get(3) {
        Some(&"=>") => &args[4..],
        _ => &args[3..],
    };
    let action = member_action(s, &p, prof_name, action_name, params)?;
    let id = profile_id(&p);
    known(s, id).await?;
    let member_id = id_of(s, id, Obj::Member, h, prof_name)?;
    let m = p4::ActionProfileMember {
        action_profile_id: id,
        member_id,
        action: Some(action),
    };
    s.write(U::Modify, member_entity(m))
        .await
        .map_err(|r| prof_error(&r, Obj::Member))
}

async fn create_group(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let p = profile(s, args[0])?.clone();
    check_ws(&p)?;
    let id = profile_id(&p);
    known(s, id).await?;
    let group_id = s.profiles[&id].groups.free_id();
    let g = p4::ActionProfileGroup {
        action_profile_id: id,
        group_id,
        members: Vec::new(),
        max_size: 0,
    };
    s.write(U::Insert, group_entity(g))
        .await
        .map_err(|r| prof_error(&r, Obj::Group))?;
    let h = s.profiles.entry(id).or_default().groups.alloc(group_id);
    s.say(format!("Group has been created with handle {h}"));
    Ok(())
}

async fn delete_group(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 2)?;
    let p = profile(s, args[0])?.clone();
    check_ws(&p)?;
    let h = handle(args[1], "group")?;
    let id = profile_id(&p);
    known(s, id).await?;
    let group_id = id_of(s, id, Obj::Group, h, args[0])?;
    let g = p4::ActionProfileGroup {
        action_profile_id: id,
        group_id,
        ..Default::default()
    };
    s.write(U::Delete, group_entity(g))
        .await
        .map_err(|r| prof_error(&r, Obj::Group))?;
    if let Some(p) = s.profiles.get_mut(&id) {
        p.groups.release(h);
    }
    Ok(())
}

/// `act_prof_add_member_to_group` (`add`) and
/// `act_prof_remove_member_from_group`: the group read, changed and
/// written back whole.
async fn change_group(s: &mut Session, args: &[&str], add: bool) -> CmdResult {
    exactly(args, 3)?;
    let p = profile(s, args[0])?.clone();
    check_ws(&p)?;
    let mh = handle(args[1], "member")?;
    let gh = handle(args[2], "group")?;
    let id = profile_id(&p);
    known(s, id).await?;
    let member_id = id_of(s, id, Obj::Member, mh, args[0])?;
    let group_id = id_of(s, id, Obj::Group, gh, args[0])?;
    let filter = p4::ActionProfileGroup {
        action_profile_id: id,
        group_id,
        ..Default::default()
    };
    let mut g = s
        .read_first(group_entity(filter), |e| match e {
            E::ActionProfileGroup(g) => Some(g),
            _ => None,
        })
        .await
        .map_err(|r| prof_error(&r, Obj::Group))?
        .ok_or_else(|| {
            format!(
                "Invalid action profile operation (INVALID_GRP_HANDLE) - group {gh} is no longer \
                 on the device"
            )
        })?;
    let at = g.members.iter().position(|m| m.member_id == member_id);
    match (add, at) {
        (true, Some(_)) => {
            return Err(format!(
                "Invalid action profile operation (MBR_ALREADY_IN_GRP) - member {mh} is in \
                 group {gh}"
            ));
        }
        (true, None) => g.members.push(p4::action_profile_group::Member {
            member_id,
            weight: if p.weights_disallowed { 0 } else { 1 },
            watch_kind: None,
        }),
        (false, None) => {
            return Err(format!(
                "Invalid action profile operation (MBR_NOT_IN_GRP) - member {mh} is not in \
                 group {gh}"
            ));
        }
        (false, Some(i)) => {
            g.members.remove(i);
        }
    }
    s.write(U::Modify, group_entity(g))
        .await
        .map_err(|r| prof_error(&r, Obj::Member))
}

/// runtime_CLI's `dump_one_member` lines.
fn member_lines(s: &Session, h: u32, m: &p4::ActionProfileMember) -> Vec<String> {
    let a = m.action.clone().map(|a| p4::TableAction {
        r#type: Some(p4::table_action::Type::Action(a)),
    });
    vec![
        format!("Dumping member {h}"),
        tables::action_entry(s.schema(), a.as_ref(), None),
    ]
}

/// runtime_CLI's `dump_one_group` lines (members by handle).
fn group_lines(s: &Session, prof: u32, h: u32, g: &p4::ActionProfileGroup) -> Vec<String> {
    let ids = s.profiles.get(&prof);
    let members: Vec<String> = g
        .members
        .iter()
        .map(|m| {
            ids.and_then(|p| p.members.handle_of(m.member_id))
                .unwrap_or(m.member_id)
                .to_string()
        })
        .collect();
    vec![
        format!("Dumping group {h}"),
        format!("Members: [{}]", members.join(", ")),
    ]
}

/// runtime_CLI's `_dump_act_prof` lines for profile `id` (also part of an
/// indirect table's `table_dump`).
pub async fn dump_lines(s: &mut Session, id: u32) -> Result<Vec<String>, String> {
    let (members, groups) = sync(s, id).await.map_err(|r| prof_error(&r, Obj::Member))?;
    let mut lines = vec!["==========".to_string(), "MEMBERS".to_string()];
    for (h, m) in &members {
        lines.push("**********".to_string());
        lines.extend(member_lines(s, *h, m));
    }
    if s.schema()
        .action_profile_by_id(id)
        .is_some_and(|p| p.with_selector)
    {
        lines.push("==========".to_string());
        lines.push("GROUPS".to_string());
        for (h, g) in &groups {
            lines.push("**********".to_string());
            lines.extend(group_lines(s, id, *h, g));
        }
    }
    Ok(lines)
}

async fn dump(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let id = profile_id(profile(s, args[0])?);
    for l in dump_lines(s, id).await? {
        s.say(l);
    }
    Ok(())
}

async fn dump_member(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 2)?;
    let id = profile_id(profile(s, args[0])?);
    let h = handle(args[1], "member")?;
    let (members, _) = sync(s, id).await.map_err(|r| prof_error(&r, Obj::Member))?;
    id_of(s, id, Obj::Member, h, args[0])?;
    let Some((_, m)) = members.iter().find(|(mh, _)| *mh == h) else {
        return Err(format!(
            "Invalid action profile operation (INVALID_MBR_HANDLE) - member {h} is no longer on \
             the device"
        ));
    };
    for l in member_lines(s, h, m) {
        s.say(l);
    }
    Ok(())
}

async fn dump_group(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 2)?;
    let p = profile(s, args[0])?.clone();
    let id = profile_id(&p);
    let h = handle(args[1], "group")?;
    let (_, groups) = sync(s, id).await.map_err(|r| prof_error(&r, Obj::Group))?;
    id_of(s, id, Obj::Group, h, args[0])?;
    let Some((_, g)) = groups.iter().find(|(gh, _)| *gh == h) else {
        return Err(format!(
            "Invalid action profile operation (INVALID_GRP_HANDLE) - group {h} is no longer on \
             the device"
        ));
    };
    for l in group_lines(s, id, h, g) {
        s.say(l);
    }
    Ok(())
}

/// The key, priority and handle of `table_indirect_add`'s arguments
/// (runtime_CLI's `indirect_add_common`): `TABLE KEY... => HANDLE
/// [PRIORITY]`.
pub fn parse_indirect_add(
    t: &cfg::Table,
    table_name: &str,
    args: &[&str],
) -> Result<(Key, u32), String> {
    let mut rest: Vec<&str> = args[1..].to_vec();
    let priority = if tables::needs_priority(t) {
        let p: i64 = rest.pop().and_then(|p| p.parse().ok()).ok_or_else(|| {
            uin("Table is ternary, but could not extract a valid priority from args")
        })?;
        tables::p4rt_priority(p).ok_or_else(|| {
            uin(format!(
                "priority {p} is outside 0..=2147483646 (a bmv2 priority; P4Runtime's is \
                 2147483647 minus it)"
            ))
        })?
    } else {
        0
    };
    let split = rest.iter().position(|a| *a == "=>").unwrap_or(rest.len());
    if rest.len() != split + 2 {
        return Err(uin("Invalid arguments, could not find handle"));
    }
    let h: u32 = rest[split + 1]
        .parse()
        .map_err(|_| uin("Bad format for handle"))?;
    let keys = &rest[..split];
    if keys.len() != t.match_fields.len() {
        return Err(uin(format!(
            "Table {table_name} needs {} key fields",
            t.match_fields.len()
        )));
    }
    let mut fields = Vec::new();
    for (f, text) in t.match_fields.iter().zip(keys) {
        if let (Some(m), _) = tables::parse_field(f, text)? {
            fields.push(p4::FieldMatch {
                field_id: f.id,
                field_match_type: Some(m),
            });
        }
    }
    Ok((Key { fields, priority }, h))
}

/// bmv2's table error for a handle the session does not know.
fn unknown_target(ws: bool, h: u32, prof: &str) -> String {
    let (name, what) = if ws {
        ("INVALID_GRP_HANDLE", "group")
    } else {
        ("INVALID_MBR_HANDLE", "member")
    };
    format!(
        "Invalid table operation ({name}) - this session knows no {what} {h} of {prof} \
         (handles are numbered per session, docs/control-plane.md)"
    )
}

/// The entry's action: member or group `h` of profile `prof`.
async fn target(
    s: &mut Session,
    p: &cfg::ActionProfile,
    ws: bool,
    h: u32,
) -> Result<p4::TableAction, String> {
    let id = profile_id(p);
    if !s.profiles.contains_key(&id) {
        sync(s, id)
            .await
            .map_err(|r| tables::table_error(&r, false))?;
    }
    let ids = s.profiles.get(&id);
    let name = schema::shown(p.preamble.as_ref());
    let t = if ws {
        ids.and_then(|i| i.groups.get(h))
            .map(p4::table_action::Type::ActionProfileGroupId)
    } else {
        ids.and_then(|i| i.members.get(h))
            .map(p4::table_action::Type::ActionProfileMemberId)
    };
    let t = t.ok_or_else(|| unknown_target(ws, h, name))?;
    Ok(p4::TableAction { r#type: Some(t) })
}

async fn indirect_add(s: &mut Session, args: &[&str], ws: bool) -> CmdResult {
    at_least(args, 2)?;
    let table_name = args[0];
    let t = tables::table(s, table_name)?.clone();
    let p = indirect_profile(s, &t, ws)?.clone();
    let (key, h) = parse_indirect_add(&t, table_name, args)?;
    s.say(format!("Adding entry to indirect match table {table_name}"));
    let action = target(s, &p, ws, h).await?;
    let id = tables::table_id(&t);
    if !s.tables.contains_key(&id) {
        tables::sync(s, id)
            .await
            .map_err(|r| tables::table_error(&r, false))?;
    }
    let e = p4::TableEntry {
        table_id: id,
        r#match: key.fields.clone(),
        action: Some(action),
        priority: key.priority,
        ..Default::default()
    };
    s.write(U::Insert, tables::entity(e))
        .await
        .map_err(|r| tables::table_error(&r, false))?;
    let eh = s.tables.entry(id).or_default().alloc(key);
    s.say(format!("Entry has been added with handle {eh}"));
    Ok(())
}

async fn indirect_delete(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 2)?;
    let t = tables::table(s, args[0])?;
    indirect_profile(s, t, false)?;
    tables::table_delete(s, args).await
}

async fn indirect_set_default(s: &mut Session, args: &[&str], ws: bool) -> CmdResult {
    exactly(args, 2)?;
    let t = tables::table(s, args[0])?.clone();
    let p = indirect_profile(s, &t, ws)?.clone();
    let h: u32 = args[1].parse().map_err(|_| uin("Bad format for handle"))?;
    let action = target(s, &p, ws, h).await?;
    let e = p4::TableEntry {
        table_id: tables::table_id(&t),
        action: Some(action),
        is_default_action: true,
        ..Default::default()
    };
    s.write(U::Modify, tables::entity(e))
        .await
        .map_err(|r| tables::table_error(&r, true))
}

async fn indirect_reset_default(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let t = tables::table(s, args[0])?;
    indirect_profile(s, t, false)?;
    tables::reset_default(s, args).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use cfg::match_field::MatchType as M;

    #[test]
    fn member_and_group_handles_are_the_lowest_free_from_0() {
        let mut ids = Ids::default();
        assert_eq!(ids.free_id(), 1);
        assert_eq!(ids.alloc(1), 0);
        assert_eq!(ids.alloc(2), 1);
        assert_eq!(ids.alloc(7), 2);
        assert_eq!(ids.free_id(), 3);
        ids.release(1);
        assert_eq!(ids.get(1), None);
        // No version byte, unlike entry handles: the freed handle again.
        assert_eq!(ids.free_id(), 2);
        assert_eq!(ids.alloc(2), 1);
        assert_eq!(ids.handle_of(7), Some(2));
        assert_eq!(ids.alloc(3), 3);
        assert_eq!(ids.get(3), Some(3));
        assert_eq!(ids.get(9), None);
    }

    #[test]
    fn legacy_forms_name_their_substitutes() {
        assert_eq!(
            legacy("table_indirect_create_member"),
            Some(("act_prof_create_member", false, true))
        );
        assert_eq!(
            legacy("table_indirect_add_member_to_group"),
            Some(("act_prof_add_member_to_group", true, true))
        );
        assert_eq!(
            legacy("table_dump_group"),
            Some(("act_prof_dump_group", false, false))
        );
        assert_eq!(legacy("table_indirect_add"), None);
    }

    fn table(kind: M) -> cfg::Table {
        cfg::Table {
            match_fields: vec![cfg::MatchField {
                id: 1,
                name: "dst".into(),
                bitwidth: 32,
                r#match: Some(cfg::match_field::Match::MatchType(kind as i32)),
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn indirect_add_takes_key_handle_and_priority() {
        let t = table(M::Exact);
        let (key, h) = parse_indirect_add(&t, "t", &["t", "10.0.0.1", "=>", "3"]).unwrap();
        assert_eq!(h, 3);
        assert_eq!(key.priority, 0);
        assert_eq!(key.fields.len(), 1);
        assert_eq!(
            parse_indirect_add(&t, "t", &["t", "10.0.0.1", "=>"]).err(),
            Some("Error: Invalid arguments, could not find handle".to_string())
        );
        assert_eq!(
            parse_indirect_add(&t, "t", &["t", "10.0.0.1", "=>", "x"]).err(),
            Some("Error: Bad format for handle".to_string())
        );
        assert!(
            parse_indirect_add(&t, "t", &["t", "=>", "1"])
                .err()
                .unwrap()
                .contains("needs 1 key fields")
        );
        let t = table(M::Ternary);
        let (key, h) =
            parse_indirect_add(&t, "t", &["t", "10.0.0.0&&&255.0.0.0", "=>", "2", "10"]).unwrap();
        assert_eq!((h, key.priority), (2, i32::MAX - 10));
        assert!(
            parse_indirect_add(&t, "t", &["t", "1&&&1", "=>", "x"])
                .err()
                .unwrap()
                .contains("could not extract a valid priority")
        );
        // The last word is the priority: without it the handle is missing.
        assert_eq!(
            parse_indirect_add(&t, "t", &["t", "1&&&1", "=>", "2"]).err(),
            Some("Error: Invalid arguments, could not find handle".to_string())
        );
    }

    #[test]
    fn refusals_carry_bmv2_error_names() {
        let r = |code| Refused {
            code,
            message: "m".into(),
        };
        assert_eq!(
            prof_error(&r(Code::FailedPrecondition), Obj::Member),
            "Invalid action profile operation (MBR_STILL_USED) - m"
        );
        assert_eq!(
            prof_error(&r(Code::NotFound), Obj::Group),
            "Invalid action profile operation (INVALID_GRP_HANDLE) - m"
        );
        assert_eq!(
            prof_error(&r(Code::InvalidArgument), Obj::Group),
            "Invalid action profile operation (ERROR) - m"
        );
    }
}
