//! Match-table commands of `janus ctrl cli` and bmv2's entry handles.
//!
//! Handles are numbered per table as bmv2 numbers them: the lowest free
//! slot, with an 8-bit version in the top byte that grows each time the
//! slot is freed (bmv2's `match_units.cpp`), so the first entries of a
//! table are 0, 1, 2... and an entry added where a deleted one was gets
//! `0x1000000 | slot`. A session keeps the map handle -> key; when it
//! first touches a table it numbers the entries the device already holds
//! in the server's read order, so a later session finds the handles an
//! earlier one printed as long as that one only added entries.
//!
//! Priorities: bmv2's smaller value wins, P4Runtime's larger. The CLI
//! maps them as bmv2's own P4Runtime server (PI, `pi_tables_imp.cpp`'s
//! `PriorityInverter`) does: P4Runtime priority = 2^31 - 1 - bmv2
//! priority, so bmv2 priority 0 is P4Runtime 2147483647 and the two
//! orders agree entry for entry.

use super::{CmdResult, Refused, Session, at_least, bad_name, exactly, profiles, uin};
use crate::client::entries::{self, ActionSpec, ArgText};
use crate::client::schema::{self, Schema};
use crate::client::values;
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use cfg::match_field::MatchType as M;
use p4::field_match::FieldMatchType as F;
use std::collections::HashMap;
use tonic::Code;

/// The P4Runtime priority of a bmv2 priority.
pub fn p4rt_priority(bmv2: i64) -> Option<i32> {
    (0..i64::from(i32::MAX))
        .contains(&bmv2)
        .then(|| (i64::from(i32::MAX) - bmv2) as i32)
}

/// The bmv2 priority of a P4Runtime priority.
pub fn bmv2_priority(p4rt: i32) -> i64 {
    i64::from(i32::MAX) - i64::from(p4rt)
}

/// An entry's identity on the device.
#[derive(Clone, PartialEq)]
pub struct Key {
    pub fields: Vec<p4::FieldMatch>,
    pub priority: i32,
}

/// One table's handles.
#[derive(Default)]
pub struct Handles {
    slots: Vec<Option<Key>>,
    versions: Vec<u8>,
}

impl Handles {
    pub fn alloc(&mut self, key: Key) -> u32 {
        let slot = match self.slots.iter().position(Option::is_none) {
            Some(i) => i,
            None => {
                self.slots.push(None);
                self.versions.push(0);
                self.slots.len() - 1
            }
        };
        self.slots[slot] = Some(key);
        (u32::from(self.versions[slot]) << 24) | slot as u32
    }

    /// The key of `handle`, or bmv2's error name.
    pub fn get(&self, handle: u32) -> Result<&Key, &'static str> {
        let slot = (handle & 0x00ff_ffff) as usize;
        match self.slots.get(slot) {
            Some(Some(k)) if self.versions[slot] == (handle >> 24) as u8 => Ok(k),
            Some(Some(_)) => Err("EXPIRED_HANDLE"),
            _ => Err("INVALID_HANDLE"),
        }
    }

    pub fn release(&mut self, handle: u32) {
        let slot = (handle & 0x00ff_ffff) as usize;
        if let Some(s) = self.slots.get_mut(slot) {
            *s = None;
            self.versions[slot] = self.versions[slot].wrapping_add(1);
        }
    }

    fn handle_of(&self, key: &Key) -> Option<u32> {
        self.slots
            .iter()
            .position(|s| s.as_ref() == Some(key))
            .map(|i| (u32::from(self.versions[i]) << 24) | i as u32)
    }
}

/// Every table's handles, by table id; a table is present once read.
pub type TableHandles = HashMap<u32, Handles>;

/// The table's key of a read entry.
fn key_of(e: &p4::TableEntry) -> Key {
    let mut fields = e.r#match.clone();
    fields.sort_by_key(|m| m.field_id);
    Key {
        fields,
        priority: e.priority,
    }
}

/// Reads table `id`'s entries and gives each a handle if it has none (the
/// first time: in read order). The entries with their handles.
pub async fn sync(s: &mut Session, id: u32) -> Result<Vec<(u32, p4::TableEntry)>, Refused> {
    let filter = p4::Entity {
        entity: Some(p4::entity::Entity::TableEntry(p4::TableEntry {
            table_id: id,
            ..Default::default()
        })),
    };
    let entries: Vec<p4::TableEntry> = s
        .read(filter)
        .await?
        .into_iter()
        .filter_map(|e| match e.entity {
            Some(p4::entity::Entity::TableEntry(t)) => Some(t),
            _ => None,
        })
        .collect();
    let handles = s.tables.entry(id).or_default();
    let mut out = Vec::new();
    for e in entries {
        let key = key_of(&e);
        let h = match handles.handle_of(&key) {
            Some(h) => h,
            None => handles.alloc(key),
        };
        out.push((h, e));
    }
    out.sort_by_key(|(h, _)| *h & 0x00ff_ffff);
    Ok(out)
}

/// bmv2's name of a refused table operation.
pub fn table_error(r: &Refused, default: bool) -> String {
    let name = match r.code {
        Code::AlreadyExists => "DUPLICATE_ENTRY",
        Code::NotFound => "INVALID_HANDLE",
        Code::ResourceExhausted => "TABLE_FULL",
        Code::PermissionDenied if default => "DEFAULT_ACTION_IS_CONST",
        Code::PermissionDenied => "IMMUTABLE_TABLE_ENTRIES",
        Code::InvalidArgument => "BAD_MATCH_KEY",
        _ => "ERROR",
    };
    format!("Invalid table operation ({name}) - {}", r.message)
}

/// The match kind runtime_CLI shows for a field (`optional` is `ternary`
/// in bmv2's JSON).
fn kind_name(f: &cfg::MatchField) -> &'static str {
    match schema::match_type(f) {
        M::Exact => "exact",
        M::Lpm => "lpm",
        M::Ternary | M::Optional => "ternary",
        M::Range => "range",
        M::Unspecified => "unspecified",
    }
}

/// The table's match type as bmv2's JSON gives it: range over ternary over
/// lpm over exact.
fn table_kind(t: &cfg::Table) -> &'static str {
    let kinds: Vec<&str> = t.match_fields.iter().map(kind_name).collect();
    ["range", "ternary", "lpm"]
        .into_iter()
        .find(|k| kinds.contains(k))
        .unwrap_or("exact")
}

pub fn needs_priority(t: &cfg::Table) -> bool {
    matches!(table_kind(t), "range" | "ternary")
}

/// `v` as `width` bits in whole bytes (bmv2's byte strings).
pub fn full(v: &[u8], width: u32) -> Vec<u8> {
    let n = (width as usize).div_ceil(8).max(1);
    let c = values::canonical(v);
    let mut out = vec![0; n.saturating_sub(c.len())];
    out.extend_from_slice(&c[c.len().saturating_sub(n)..]);
    out
}

/// runtime_CLI's `printable_byte_str`: `0a:00:00:01`.
fn colons(v: &[u8]) -> String {
    v.iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// runtime_CLI's `hexstr`: `0a000001`.
fn hex(v: &[u8]) -> String {
    v.iter().map(|b| format!("{b:02x}")).collect()
}

fn and(a: &[u8], b: &[u8], width: u32) -> Vec<u8> {
    let (a, b) = (full(a, width), full(b, width));
    values::canonical(&a.iter().zip(&b).map(|(x, y)| x & y).collect::<Vec<_>>())
}

/// One match field as bmv2 text, for the P4Runtime entry (None: a
/// don't-care, which P4Runtime leaves out) and runtime_CLI's echo.
pub fn parse_field(f: &cfg::MatchField, text: &str) -> Result<(Option<F>, String), String> {
    use p4::field_match as fm;
    let w = schema::width(f.bitwidth);
    let bad = |msg: String| format!("Invalid match key: {msg}");
    let num =
        |t: &str| values::parse(t, w).map_err(|e| bad(format!("Error while parsing {t} - {e}")));
    let kind = schema::match_type(f);
    Ok(match kind {
        M::Exact => {
            let v = num(text)?;
            let echo = format!("EXACT-{}", colons(&full(&v, w)));
            (Some(F::Exact(fm::Exact { value: v })), echo)
        }
        M::Lpm => {
            let Some((v, len)) = text.split_once('/') else {
                return Err(bad(format!(
                    "Invalid LPM value {text}, use '/' to separate prefix and length"
                )));
            };
            let v = num(v)?;
            let len: u32 = len
                .parse()
                .ok()
                .filter(|l| *l <= w)
                .ok_or_else(|| bad(format!("Invalid prefix length in {text}")))?;
            let echo = format!("LPM-{}/{len}", colons(&full(&v, w)));
            let mask = if len == 0 {
                vec![0]
            } else {
                let ones = values::ones(len);
                let mut m = full(&ones, w);
                shift_left(&mut m, w - len);
                values::canonical(&m)
            };
            let m = (len > 0).then(|| {
                F::Lpm(fm::Lpm {
                    value: and(&v, &mask, w),
                    prefix_len: len as i32,
                })
            });
            (m, echo)
        }
        M::Ternary | M::Optional => {
            let Some((v, m)) = text.split_once("&&&") else {
                return Err(bad(format!(
                    "Invalid ternary value {text}, use '&&&' to separate key and mask"
                )));
            };
            let (v, m) = (num(v)?, num(m)?);
            let echo = format!(
                "TERNARY-{} &&& {}",
                colons(&full(&v, w)),
                colons(&full(&m, w))
            );
            let zero = m.iter().all(|b| *b == 0);
            let field = if zero {
                None
            } else if kind == M::Optional {
                if m != values::ones(w) {
                    return Err(bad(format!(
                        "{text}: `{}` is an optional field, whose mask is all ones or 0",
                        f.name
                    )));
                }
                Some(F::Optional(fm::Optional { value: v }))
            } else {
                Some(F::Ternary(fm::Ternary {
                    value: and(&v, &m, w),
                    mask: m,
                }))
            };
            (field, echo)
        }
        M::Range => {
            let Some((lo, hi)) = text.split_once("->") else {
                return Err(bad(format!(
                    "Invalid range value {text}, use '->' to separate range start and range end"
                )));
            };
            let (lo, hi) = (num(lo)?, num(hi)?);
            if full(&lo, w) > full(&hi, w) {
                return Err(bad(format!("start is less than end in expression {text}")));
            }
            let echo = format!(
                "RANGE-{} -> {}",
                colons(&full(&lo, w)),
                colons(&full(&hi, w))
            );
            let all = lo == [0] && hi == values::ones(w);
            let field = (!all).then_some(F::Range(fm::Range { low: lo, high: hi }));
            (field, echo)
        }
        M::Unspecified => return Err(bad(format!("`{}` has no match kind", f.name))),
    })
}

/// Shifts a big-endian byte string left by `n` bits (within its length).
fn shift_left(v: &mut [u8], n: u32) {
    for _ in 0..n {
        let mut carry = 0;
        for b in v.iter_mut().rev() {
            let next = *b >> 7;
            *b = (*b << 1) | carry;
            carry = next;
        }
    }
}

/// An action and its positional parameters: the P4Runtime action and the
/// runtime data runtime_CLI echoes.
pub fn parse_action(
    schema: &Schema,
    table: &cfg::Table,
    table_name: &str,
    name: &str,
    params: &[&str],
) -> Result<(p4::TableAction, Vec<Vec<u8>>), String> {
    let action = schema
        .table_action(table, name)
        .map_err(|_| uin(format!("Table {table_name} has no action {name}")))?;
    if params.len() != action.params.len() {
        return Err(uin(format!(
            "Action {name} needs {} parameters",
            action.params.len()
        )));
    }
    let mut data = Vec::new();
    for (p, text) in action.params.iter().zip(params) {
        let w = schema::width(p.bitwidth);
        let v = values::parse(text, w)
            .map_err(|e| format!("Invalid runtime data: Error while parsing {text} - {e}"))?;
        data.push(full(&v, w));
    }
    let spec = ActionSpec {
        name: schema::shown(action.preamble.as_ref()).to_string(),
        args: action
            .params
            .iter()
            .zip(params)
            .map(|(p, t)| (p.name.clone(), ArgText::Cli(t.to_string())))
            .collect(),
    };
    let a = entries::resolve_action(schema, table, &spec).map_err(uin)?;
    Ok((a, data))
}

fn runtime_data(data: &[Vec<u8>]) -> String {
    data.iter()
        .map(|d| colons(d))
        .collect::<Vec<_>>()
        .join("\t")
}

pub fn table<'a>(s: &'a Session, name: &str) -> Result<&'a cfg::Table, String> {
    s.schema().table(name).map_err(|_| bad_name("table", name))
}

pub fn table_id(t: &cfg::Table) -> u32 {
    schema::id_of(t.preamble.as_ref())
}

fn handle_arg(text: &str) -> Result<u32, String> {
    text.parse().map_err(|_| uin("Bad format for entry handle"))
}

pub fn entity(e: p4::TableEntry) -> p4::Entity {
    p4::Entity {
        entity: Some(p4::entity::Entity::TableEntry(e)),
    }
}

/// Runs a table command; None when `cmd` is not one.
pub async fn run(s: &mut Session, cmd: &str, args: &[&str]) -> Option<CmdResult> {
    Some(match cmd {
        "show_tables" => show_tables(s, args),
        "show_actions" => show_actions(s, args),
        "table_info" => table_info(s, args, true),
        "table_show_actions" => table_info(s, args, false),
        "table_add" => table_add(s, args).await,
        "table_set_default" => set_default(s, args).await,
        "table_reset_default" => reset_default(s, args).await,
        "table_modify" => table_modify(s, args).await,
        "table_delete" => table_delete(s, args).await,
        "table_num_entries" => num_entries(s, args).await,
        "table_clear" => table_clear(s, args).await,
        "table_dump" => table_dump(s, args).await,
        "table_dump_entry" => dump_entry(s, args).await,
        _ => return None,
    })
}

fn table_str(schema: &Schema, t: &cfg::Table) -> String {
    let implementation = match t.implementation_id {
        0 => "None".to_string(),
        id => schema
            .info()
            .action_profiles
            .iter()
            .find(|p| schema::id_of(p.preamble.as_ref()) == id)
            .map_or_else(
                || id.to_string(),
                |p| schema::shown(p.preamble.as_ref()).to_string(),
            ),
    };
    let keys: Vec<String> = t
        .match_fields
        .iter()
        .map(|f| format!("{}({}, {})", f.name, kind_name(f), f.bitwidth))
        .collect();
    let name = t.preamble.as_ref().map_or("", |p| p.name.as_str());
    format!(
        "{name:30} [implementation={implementation}, mk={}]",
        keys.join(",\t")
    )
}

fn action_str(a: &cfg::Action) -> String {
    let params: Vec<String> = a
        .params
        .iter()
        .map(|p| format!("{}({})", p.name, p.bitwidth))
        .collect();
    let name = a.preamble.as_ref().map_or("", |p| p.name.as_str());
    format!("{name:30} [{}]", params.join(",\t"))
}

fn show_tables(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 0)?;
    let mut lines: Vec<(String, String)> = s
        .schema()
        .info()
        .tables
        .iter()
        .map(|t| {
            let name = t.preamble.as_ref().map_or("", |p| p.name.as_str());
            (name.to_string(), table_str(s.schema(), t))
        })
        .collect();
    lines.sort();
    for (_, l) in lines {
        s.say(l);
    }
    Ok(())
}

fn show_actions(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 0)?;
    let mut lines: Vec<(String, String)> = s
        .schema()
        .info()
        .actions
        .iter()
        .map(|a| {
            let name = a.preamble.as_ref().map_or("", |p| p.name.as_str());
            (name.to_string(), action_str(a))
        })
        .collect();
    lines.sort();
    for (_, l) in lines {
        s.say(l);
    }
    Ok(())
}

fn table_info(s: &mut Session, args: &[&str], header: bool) -> CmdResult {
    exactly(args, 1)?;
    let t = table(s, args[0])?;
    let mut lines = Vec::new();
    if header {
        lines.push(table_str(s.schema(), t));
        lines.push("*".repeat(80));
    }
    let mut actions: Vec<(String, String)> = t
        .action_refs
        .iter()
        .filter_map(|r| s.schema().action_by_id(r.id))
        .map(|a| {
            let name = a.preamble.as_ref().map_or("", |p| p.name.as_str());
            (name.to_string(), action_str(a))
        })
        .collect();
    actions.sort();
    lines.extend(actions.into_iter().map(|(_, l)| l));
    for l in lines {
        s.say(l);
    }
    Ok(())
}

async fn table_add(s: &mut Session, args: &[&str]) -> CmdResult {
    at_least(args, 3)?;
    let (table_name, action_name) = (args[0], args[1]);
    let t = table(s, table_name)?.clone();
    let mut rest: Vec<&str> = args[2..].to_vec();
    s.schema()
        .table_action(&t, action_name)
        .map_err(|_| uin(format!("Table {table_name} has no action {action_name}")))?;
    let priority = if needs_priority(&t) {
        let p: i64 = rest.pop().and_then(|p| p.parse().ok()).ok_or_else(|| {
            uin("Table is ternary, but could not extract a valid priority from args")
        })?;
        Some(p4rt_priority(p).ok_or_else(|| {
            uin(format!(
                "priority {p} is outside 0..=2147483646 (a bmv2 priority; P4Runtime's is \
                 2147483647 minus it)"
            ))
        })?)
    } else {
        None
    };
    let split = rest.iter().position(|a| *a == "=>").unwrap_or(rest.len());
    let (keys, params) = (&rest[..split], rest.get(split + 1..).unwrap_or(&[]));
    if keys.len() != t.match_fields.len() {
        return Err(uin(format!(
            "Table {table_name} needs {} key fields",
            t.match_fields.len()
        )));
    }
    let (action, data) = parse_action(s.schema(), &t, table_name, action_name, params)?;
    let mut fields = Vec::new();
    let mut echo = Vec::new();
    for (f, text) in t.match_fields.iter().zip(keys) {
        let (m, e) = parse_field(f, text)?;
        echo.push(e);
        if let Some(m) = m {
            fields.push(p4::FieldMatch {
                field_id: f.id,
                field_match_type: Some(m),
            });
        }
    }
    s.say(format!(
        "Adding entry to {} match table {table_name}",
        table_kind(&t)
    ));
    s.say(format!("{:20} {}", "match key:", echo.join("\t")));
    s.say(format!("{:20} {action_name}", "action:"));
    s.say(format!("{:20} {}", "runtime data:", runtime_data(&data)));
    let id = table_id(&t);
    if !s.tables.contains_key(&id) {
        sync(s, id).await.map_err(|r| table_error(&r, false))?;
    }
    let key = Key {
        fields: fields.clone(),
        priority: priority.unwrap_or(0),
    };
    let e = p4::TableEntry {
        table_id: id,
        r#match: fields,
        action: Some(action),
        priority: key.priority,
        ..Default::default()
    };
    s.write(p4::update::Type::Insert, entity(e))
        .await
        .map_err(|r| table_error(&r, false))?;
    let h = s.tables.entry(id).or_default().alloc(key);
    s.say(format!("Entry has been added with handle {h}"));
    Ok(())
}

async fn set_default(s: &mut Session, args: &[&str]) -> CmdResult {
    at_least(args, 2)?;
    let (table_name, action_name) = (args[0], args[1]);
    let t = table(s, table_name)?.clone();
    let (action, data) = parse_action(s.schema(), &t, table_name, action_name, &args[2..])?;
    s.say(format!("Setting default action of {table_name}"));
    s.say(format!("{:20} {action_name}", "action:"));
    s.say(format!("{:20} {}", "runtime data:", runtime_data(&data)));
    let e = p4::TableEntry {
        table_id: table_id(&t),
        action: Some(action),
        is_default_action: true,
        ..Default::default()
    };
    s.write(p4::update::Type::Modify, entity(e))
        .await
        .map_err(|r| table_error(&r, true))
}

pub async fn reset_default(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let t = table(s, args[0])?;
    let e = p4::TableEntry {
        table_id: table_id(t),
        is_default_action: true,
        ..Default::default()
    };
    s.write(p4::update::Type::Modify, entity(e))
        .await
        .map_err(|r| table_error(&r, true))
}

/// The key of `handle` in table `t` (reading the table the first time).
pub async fn key_of_handle(s: &mut Session, t: &cfg::Table, handle: u32) -> Result<Key, String> {
    let id = table_id(t);
    if !s.tables.contains_key(&id) {
        sync(s, id).await.map_err(|r| table_error(&r, false))?;
    }
    s.tables[&id].get(handle).cloned().map_err(|name| {
        format!(
            "Invalid table operation ({name}) - this session knows no entry {handle} of {} \
                 (handles are numbered per session, docs/control-plane.md)",
            schema::shown(t.preamble.as_ref())
        )
    })
}

async fn table_modify(s: &mut Session, args: &[&str]) -> CmdResult {
    at_least(args, 3)?;
    let (table_name, action_name) = (args[0], args[1]);
    let t = table(s, table_name)?.clone();
    s.schema()
        .table_action(&t, action_name)
        .map_err(|_| uin(format!("Table {table_name} has no action {action_name}")))?;
    let handle = handle_arg(args[2])?;
    let params = match args.get(3) {
        Some(&"=>") => &args[4..],
        _ => &args[3..],
    };
    let (action, _) = parse_action(s.schema(), &t, table_name, action_name, params)?;
    s.say(format!(
        "Modifying entry {handle} for {} match table {table_name}",
        table_kind(&t)
    ));
    let key = key_of_handle(s, &t, handle).await?;
    let e = p4::TableEntry {
        table_id: table_id(&t),
        r#match: key.fields,
        priority: key.priority,
        action: Some(action),
        ..Default::default()
    };
    s.write(p4::update::Type::Modify, entity(e))
        .await
        .map_err(|r| table_error(&r, false))
}

pub async fn table_delete(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 2)?;
    let table_name = args[0];
    let t = table(s, table_name)?.clone();
    let handle = handle_arg(args[1])?;
    s.say(format!("Deleting entry {handle} from {table_name}"));
    let key = key_of_handle(s, &t, handle).await?;
    let id = table_id(&t);
    let e = p4::TableEntry {
        table_id: id,
        r#match: key.fields,
        priority: key.priority,
        ..Default::default()
    };
    s.write(p4::update::Type::Delete, entity(e))
        .await
        .map_err(|r| table_error(&r, false))?;
    if let Some(h) = s.tables.get_mut(&id) {
        h.release(handle);
    }
    Ok(())
}

async fn num_entries(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let id = table_id(table(s, args[0])?);
    let n = sync(s, id).await.map_err(|r| table_error(&r, false))?.len();
    s.say(n);
    Ok(())
}

async fn table_clear(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let id = table_id(table(s, args[0])?);
    let entries = sync(s, id).await.map_err(|r| table_error(&r, false))?;
    for (h, e) in entries {
        if e.is_const {
            continue;
        }
        let e = p4::TableEntry {
            table_id: id,
            r#match: e.r#match,
            priority: e.priority,
            ..Default::default()
        };
        s.write(p4::update::Type::Delete, entity(e))
            .await
            .map_err(|r| table_error(&r, false))?;
        if let Some(t) = s.tables.get_mut(&id) {
            t.release(h);
        }
    }
    Ok(())
}

/// runtime_CLI's `dump_one_entry` lines.
fn dump_one(
    schema: &Schema,
    t: &cfg::Table,
    handle: u32,
    e: &p4::TableEntry,
    ids: Option<&profiles::Profile>,
) -> Vec<String> {
    let w = t
        .match_fields
        .iter()
        .map(|f| f.name.len())
        .max()
        .unwrap_or(0)
        .max(20);
    let mut lines = vec![
        format!("Dumping entry {handle:#x}"),
        "Match key:".to_string(),
    ];
    for f in &t.match_fields {
        let bw = schema::width(f.bitwidth);
        let m = e.r#match.iter().find(|m| m.field_id == f.id);
        let kind = kind_name(f).to_uppercase();
        let text = match (
            m.and_then(|m| m.field_match_type.as_ref()),
            schema::match_type(f),
        ) {
            (Some(F::Exact(x)), _) => hex(&full(&x.value, bw)),
            (Some(F::Lpm(x)), _) => format!("{}/{}", hex(&full(&x.value, bw)), x.prefix_len),
            (Some(F::Ternary(x)), _) => {
                format!(
                    "{} &&& {}",
                    hex(&full(&x.value, bw)),
                    hex(&full(&x.mask, bw))
                )
            }
            (Some(F::Optional(x)), _) => {
                format!(
                    "{} &&& {}",
                    hex(&full(&x.value, bw)),
                    hex(&full(&values::ones(bw), bw))
                )
            }
            (Some(F::Range(x)), _) => {
                format!("{} -> {}", hex(&full(&x.low, bw)), hex(&full(&x.high, bw)))
            }
            (_, M::Lpm) => format!("{}/0", hex(&full(&[0], bw))),
            (_, M::Range) => {
                format!(
                    "{} -> {}",
                    hex(&full(&[0], bw)),
                    hex(&full(&values::ones(bw), bw))
                )
            }
            _ => format!("{} &&& {}", hex(&full(&[0], bw)), hex(&full(&[0], bw))),
        };
        lines.push(format!("* {:w$}: {kind:10}{text}", f.name));
    }
    if needs_priority(t) {
        lines.push(format!("Priority: {}", bmv2_priority(e.priority)));
    }
    lines.push(action_entry(schema, e.action.as_ref(), ids));
    lines
}

/// runtime_CLI's `dump_action_entry` line; member and group ids as the
/// session's handles (`ids`, the table's profile) when it has them.
pub fn action_entry(
    schema: &Schema,
    a: Option<&p4::TableAction>,
    ids: Option<&profiles::Profile>,
) -> String {
    match a.and_then(|a| a.r#type.as_ref()) {
        Some(p4::table_action::Type::Action(a)) => {
            let info = schema.action_by_id(a.action_id);
            let name = info
                .and_then(|i| i.preamble.as_ref())
                .map_or_else(|| a.action_id.to_string(), |p| p.name.clone());
            let params: Vec<String> = a
                .params
                .iter()
                .map(|p| {
                    let w = info
                        .and_then(|i| i.params.iter().find(|q| q.id == p.param_id))
                        .map_or(8, |q| schema::width(q.bitwidth));
                    hex(&full(&p.value, w))
                })
                .collect();
            format!("Action entry: {name} - {}", params.join(", "))
        }
        Some(p4::table_action::Type::ActionProfileMemberId(m)) => {
            let h = ids.and_then(|p| p.members.handle_of(*m)).unwrap_or(*m);
            format!("Index: member({h})")
        }
        Some(p4::table_action::Type::ActionProfileGroupId(g)) => {
            let h = ids.and_then(|p| p.groups.handle_of(*g)).unwrap_or(*g);
            format!("Index: group({h})")
        }
        _ => "EMPTY".to_string(),
    }
}

async fn table_dump(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 1)?;
    let t = table(s, args[0])?.clone();
    let id = table_id(&t);
    let entries = sync(s, id).await.map_err(|r| table_error(&r, false))?;
    let filter = p4::TableEntry {
        table_id: id,
        is_default_action: true,
        ..Default::default()
    };
    let default = s
        .read_first(entity(filter), |e| match e {
            p4::entity::Entity::TableEntry(t) => Some(t),
            _ => None,
        })
        .await
        .map_err(|r| table_error(&r, true))?;
    // An indirect table's dump shows its action profile too, as bmv2's.
    let profile = match t.implementation_id {
        0 => Vec::new(),
        p => profiles::dump_lines(s, p).await?,
    };
    let ids = s.profiles.get(&t.implementation_id);
    let mut lines = vec!["==========".to_string(), "TABLE ENTRIES".to_string()];
    for (h, e) in &entries {
        lines.push("**********".to_string());
        lines.extend(dump_one(s.schema(), &t, *h, e, ids));
    }
    lines.extend(profile);
    lines.push("==========".to_string());
    lines.push("Dumping default entry".to_string());
    lines.push(action_entry(
        s.schema(),
        default.as_ref().and_then(|d| d.action.as_ref()),
        ids,
    ));
    lines.push("==========".to_string());
    for l in lines {
        s.say(l);
    }
    Ok(())
}

async fn dump_entry(s: &mut Session, args: &[&str]) -> CmdResult {
    exactly(args, 2)?;
    let t = table(s, args[0])?.clone();
    let handle = handle_arg(args[1])?;
    let key = key_of_handle(s, &t, handle).await?;
    let id = table_id(&t);
    let entries = sync(s, id).await.map_err(|r| table_error(&r, false))?;
    let Some((_, e)) = entries.iter().find(|(_, e)| key_of(e) == key) else {
        return Err(format!(
            "Invalid table operation (INVALID_HANDLE) - entry {handle} is no longer on the device"
        ));
    };
    if t.implementation_id != 0 {
        profiles::sync(s, t.implementation_id)
            .await
            .map_err(|r| table_error(&r, false))?;
    }
    let ids = s.profiles.get(&t.implementation_id);
    for l in dump_one(s.schema(), &t, handle, e, ids) {
        s.say(l);
    }
    Ok(())
}

/// The table entry (key only) of `handle` in the table a direct resource
/// is bound to, for the direct counter and meter commands.
pub async fn direct_entry(
    s: &mut Session,
    table_id: u32,
    handle: u32,
) -> Result<p4::TableEntry, String> {
    let t = s
        .schema()
        .table_by_id(table_id)
        .cloned()
        .ok_or_else(|| uin(format!("no table {table_id} in the P4Info")))?;
    let key = key_of_handle(s, &t, handle).await?;
    Ok(p4::TableEntry {
        table_id,
        r#match: key.fields,
        priority: key.priority,
        ..Default::default()
    })
}

/// Every entry of table `id` (for direct resets).
pub async fn entries(s: &mut Session, id: u32) -> Result<Vec<p4::TableEntry>, String> {
    Ok(sync(s, id)
        .await
        .map_err(|r| table_error(&r, false))?
        .into_iter()
        .map(|(_, e)| p4::TableEntry {
            table_id: id,
            r#match: e.r#match,
            priority: e.priority,
            ..Default::default()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_numbered_as_bmv2_numbers_them() {
        let k = |p| Key {
            fields: vec![],
            priority: p,
        };
        let mut h = Handles::default();
        assert_eq!(h.alloc(k(1)), 0);
        assert_eq!(h.alloc(k(2)), 1);
        assert_eq!(h.alloc(k(3)), 2);
        h.release(1);
        assert_eq!(h.get(1).err(), Some("INVALID_HANDLE"));
        // The freed slot again, one version up.
        assert_eq!(h.alloc(k(4)), 0x0100_0001);
        assert_eq!(h.get(1).err(), Some("EXPIRED_HANDLE"));
        assert!(h.get(0x0100_0001).is_ok());
        assert_eq!(h.alloc(k(5)), 3);
    }

    #[test]
    fn priorities_are_inverted_as_pi_inverts_them() {
        assert_eq!(p4rt_priority(0), Some(i32::MAX));
        assert_eq!(p4rt_priority(10), Some(i32::MAX - 10));
        assert_eq!(p4rt_priority(-1), None);
        assert_eq!(p4rt_priority(i64::from(i32::MAX)), None);
        assert_eq!(bmv2_priority(i32::MAX - 7), 7);
    }

    #[test]
    fn lpm_values_are_masked_to_the_prefix() {
        let f = cfg::MatchField {
            id: 1,
            name: "dst".into(),
            bitwidth: 32,
            r#match: Some(cfg::match_field::Match::MatchType(M::Lpm as i32)),
            ..Default::default()
        };
        let (m, echo) = parse_field(&f, "10.1.2.3/16").unwrap();
        assert_eq!(echo, "LPM-0a:01:02:03/16");
        match m {
            Some(F::Lpm(l)) => {
                assert_eq!(l.value, vec![10, 1, 0, 0]);
                assert_eq!(l.prefix_len, 16);
            }
            _ => panic!("not an lpm match"),
        }
        assert!(parse_field(&f, "0.0.0.0/0").unwrap().0.is_none());
        assert!(parse_field(&f, "10.0.0.1").is_err());
    }
}
