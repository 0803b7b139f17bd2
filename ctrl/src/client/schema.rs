//! The server's P4Info, looked up by name: operators type names, the
//! wire carries ids.
//!
//! A name matches an object's full name, its alias, or a unique suffix of
//! the full name on a `.` boundary (`tenant_macs` for
//! `SdnIngress.forwarding.tenant_macs`), as `janus sim` resolves the
//! names of an entries file.

use super::InputError;
use crate::proto::p4::config::v1 as cfg;

/// A P4Info with name look-ups.
pub struct Schema {
    info: cfg::P4Info,
}

/// `name` is `full`, or a suffix of it starting after a `.`.
fn suffix_of(name: &str, full: &str) -> bool {
    full == name
        || full
            .strip_suffix(name)
            .is_some_and(|rest| rest.ends_with('.'))
}

/// The one candidate `(full name, alias, item)` that `name` designates.
fn find<'a, T>(
    candidates: impl Iterator<Item = (&'a str, &'a str, T)>,
    name: &str,
    what: &str,
) -> Result<T, InputError> {
    let mut all: Vec<(&str, &str, T)> = candidates.collect();
    if let Some(i) = all.iter().position(|(n, _, _)| *n == name) {
        return Ok(all.swap_remove(i).2);
    }
    if let Some(i) = all.iter().position(|(_, a, _)| *a == name) {
        return Ok(all.swap_remove(i).2);
    }
    let names: Vec<&str> = all.iter().map(|(n, _, _)| *n).collect();
    let hits: Vec<usize> = (0..all.len())
        .filter(|&i| suffix_of(name, all[i].0))
        .collect();
    match hits.as_slice() {
        [i] => Ok(all.swap_remove(*i).2),
        [] => Err(InputError(format!(
            "no {what} `{name}`; {}",
            if names.is_empty() {
                "there are none".to_string()
            } else {
                format!("known: {}", names.join(", "))
            }
        ))),
        many => Err(InputError(format!(
            "{what} `{name}` is ambiguous: {}",
            many.iter()
                .map(|&i| names[i])
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

fn preamble_names(p: Option<&cfg::Preamble>) -> (&str, &str) {
    p.map_or(("", ""), |p| (p.name.as_str(), p.alias.as_str()))
}

/// The id of a P4Info object (0 without a preamble).
pub fn id_of(p: Option<&cfg::Preamble>) -> u32 {
    p.map_or(0, |p| p.id)
}

/// The short name shown to operators: the alias, else the full name.
pub fn shown(p: Option<&cfg::Preamble>) -> &str {
    match p {
        Some(p) if !p.alias.is_empty() => &p.alias,
        Some(p) => &p.name,
        None => "?",
    }
}

/// The match type of a field.
pub fn match_type(f: &cfg::MatchField) -> cfg::match_field::MatchType {
    match f.r#match {
        Some(cfg::match_field::Match::MatchType(t)) => {
            cfg::match_field::MatchType::try_from(t).unwrap_or_default()
        }
        _ => cfg::match_field::MatchType::Unspecified,
    }
}

/// A width from the P4Info (negative widths, which a valid P4Info does
/// not have, read as 0).
pub fn width(bitwidth: i32) -> u32 {
    u32::try_from(bitwidth).unwrap_or(0)
}

impl Schema {
    pub fn new(info: cfg::P4Info) -> Schema {
        Schema { info }
    }

    /// The table `name` designates.
    pub fn table(&self, name: &str) -> Result<&cfg::Table, InputError> {
        find(
            self.info.tables.iter().map(|t| {
                let (n, a) = preamble_names(t.preamble.as_ref());
                (n, a, t)
            }),
            name,
            "table",
        )
    }

    /// The name of table `id` (its id when the P4Info has no such table).
    pub fn table_name(&self, id: u32) -> String {
        self.table_by_id(id)
            .and_then(|t| t.preamble.as_ref())
            .map_or_else(|| format!("table {id}"), |p| p.name.clone())
    }

    pub fn table_by_id(&self, id: u32) -> Option<&cfg::Table> {
        self.info
            .tables
            .iter()
            .find(|t| id_of(t.preamble.as_ref()) == id)
    }

    pub fn action_by_id(&self, id: u32) -> Option<&cfg::Action> {
        self.info
            .actions
            .iter()
            .find(|a| id_of(a.preamble.as_ref()) == id)
    }

    /// The action `name` designates among those `table` lists.
    pub fn table_action(&self, table: &cfg::Table, name: &str) -> Result<&cfg::Action, InputError> {
        find(
            table
                .action_refs
                .iter()
                .filter_map(|r| self.action_by_id(r.id))
                .map(|a| {
                    let (n, al) = preamble_names(a.preamble.as_ref());
                    (n, al, a)
                }),
            name,
            &format!("action of table `{}`", shown(table.preamble.as_ref())),
        )
    }

    /// The match field `name` designates in `table`.
    pub fn field<'a>(
        &self,
        table: &'a cfg::Table,
        name: &str,
    ) -> Result<&'a cfg::MatchField, InputError> {
        find(
            table.match_fields.iter().map(|f| (f.name.as_str(), "", f)),
            name,
            &format!("match field of table `{}`", shown(table.preamble.as_ref())),
        )
    }

    /// The P4Info itself.
    pub fn info(&self) -> &cfg::P4Info {
        &self.info
    }

    /// The register `name` designates.
    pub fn register(&self, name: &str) -> Result<&cfg::Register, InputError> {
        find(
            self.info.registers.iter().map(|r| {
                let (n, a) = preamble_names(r.preamble.as_ref());
                (n, a, r)
            }),
            name,
            "register",
        )
    }

    /// The meter (indexed, not direct) `name` designates.
    pub fn meter(&self, name: &str) -> Result<&cfg::Meter, InputError> {
        find(
            self.info.meters.iter().map(|m| {
                let (n, a) = preamble_names(m.preamble.as_ref());
                (n, a, m)
            }),
            name,
            "meter",
        )
    }

    /// The direct counter `name` designates.
    pub fn direct_counter(&self, name: &str) -> Result<&cfg::DirectCounter, InputError> {
        find(
            self.info.direct_counters.iter().map(|c| {
                let (n, a) = preamble_names(c.preamble.as_ref());
                (n, a, c)
            }),
            name,
            "direct counter",
        )
    }

    /// The direct meter `name` designates.
    pub fn direct_meter(&self, name: &str) -> Result<&cfg::DirectMeter, InputError> {
        find(
            self.info.direct_meters.iter().map(|m| {
                let (n, a) = preamble_names(m.preamble.as_ref());
                (n, a, m)
            }),
            name,
            "direct meter",
        )
    }

    /// The action profile (or selector) `name` designates.
    pub fn action_profile(&self, name: &str) -> Result<&cfg::ActionProfile, InputError> {
        find(
            self.info.action_profiles.iter().map(|p| {
                let (n, a) = preamble_names(p.preamble.as_ref());
                (n, a, p)
            }),
            name,
            "action profile",
        )
    }

    /// Action profile `id`.
    pub fn action_profile_by_id(&self, id: u32) -> Option<&cfg::ActionProfile> {
        self.info
            .action_profiles
            .iter()
            .find(|p| id_of(p.preamble.as_ref()) == id)
    }

    /// The counter (indexed, not direct) `name` designates.
    pub fn counter(&self, name: &str) -> Result<&cfg::Counter, InputError> {
        find(
            self.info.counters.iter().map(|c| {
                let (n, a) = preamble_names(c.preamble.as_ref());
                (n, a, c)
            }),
            name,
            "counter",
        )
    }
}
