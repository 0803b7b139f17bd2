//! Step 1: a P4Info checked on its own (see the module comment of
//! [`super`]).

use super::*;

/// Checks a P4Info on its own (see the module comment): `Err` says what is
/// wrong with it, naming the object.
pub fn validate(info: &cfg::P4Info) -> Result<(), String> {
    let mut by_id: HashMap<u32, (Kind, &str)> = HashMap::new();
    for kind in Kind::ALL {
        let mut names: HashMap<&str, u32> = HashMap::new();
        for (i, p) in preambles(info, kind).into_iter().enumerate() {
            let p = p.ok_or_else(|| {
                format!(
                    "the {} {} of the P4Info has no preamble",
                    ordinal(i + 1),
                    kind.noun()
                )
            })?;
            let (id, name) = (p.id, p.name.as_str());
            if name.is_empty() {
                return Err(format!("{} id {id:#010x} has no name", kind.noun()));
            }
            if id == 0 {
                return Err(format!("{} {name} has id 0", kind.noun()));
            }
            let top = (id >> 24) as u8;
            if top != kind.prefix() {
                let other = match Kind::of_prefix(top) {
                    Some(k) => format!("the prefix of {}s", k.noun()),
                    None => "no P4Info kind's prefix".to_string(),
                };
                return Err(format!(
                    "{} {name} has id {id:#010x}, whose top byte 0x{top:02x} is {other}; {} ids start with 0x{:02x}",
                    kind.noun(),
                    kind.noun(),
                    kind.prefix()
                ));
            }
            if let Some((k, n)) = by_id.insert(id, (kind, name)) {
                return Err(format!(
                    "id {id:#010x} is used twice: by {} {n} and by {} {name}",
                    k.noun(),
                    kind.noun()
                ));
            }
            if let Some(other) = names.insert(name, id) {
                return Err(format!(
                    "two {}s are named {name} (ids {other:#010x} and {id:#010x})",
                    kind.noun()
                ));
            }
        }
    }
    let mut instances: HashMap<u32, &str> = HashMap::new();
    for x in &info.externs {
        for inst in &x.instances {
            let Some(p) = inst.preamble.as_ref() else {
                continue;
            };
            let other = by_id
                .get(&p.id)
                .map(|(k, n)| format!("{} {n}", k.noun()))
                .or_else(|| instances.get(&p.id).map(|n| format!("extern instance {n}")));
            if let Some(other) = other {
                return Err(format!(
                    "id {:#010x} is used twice: by {other} and by extern instance {}",
                    p.id, p.name
                ));
            }
            instances.insert(p.id, &p.name);
        }
    }
    let index = Index::build(info);
    let actions: HashMap<u32, &cfg::Action> = info
        .actions
        .iter()
        .map(|a| (pre(&a.preamble).id, a))
        .collect();
    for t in &info.tables {
        let tname = &pre(&t.preamble).name;
        unique_sub_ids(
            &format!("table {tname}"),
            "match field",
            t.match_fields.iter().map(|m| (m.id, m.name.as_str())),
        )?;
        let mut refs = BTreeSet::new();
        for r in &t.action_refs {
            let (_, aname) = index.expect(
                r.id,
                &[Kind::Action],
                &format!("table {tname}: an action ref"),
            )?;
            if !refs.insert(r.id) {
                return Err(format!("table {tname} lists action {aname} twice"));
            }
        }
        if t.const_default_action_id != 0 {
            let (_, aname) = index.expect(
                t.const_default_action_id,
                &[Kind::Action],
                &format!("table {tname}: the const default action"),
            )?;
            if !refs.contains(&t.const_default_action_id) {
                return Err(format!(
                    "table {tname}: the const default action {aname} is not one of the table's actions"
                ));
            }
        }
        if let Some(call) = t
            .initial_default_action
            .as_ref()
            .filter(|c| c.action_id != 0)
        {
            let (_, aname) = index.expect(
                call.action_id,
                &[Kind::Action],
                &format!("table {tname}: the initial default action"),
            )?;
            let params: BTreeSet<u32> = actions
                .get(&call.action_id)
                .map(|a| a.params.iter().map(|p| p.id).collect())
                .unwrap_or_default();
            for arg in &call.arguments {
                if !params.contains(&arg.param_id) {
                    return Err(format!(
                        "table {tname}: the initial default action {aname} has an argument for parameter id {}, which {aname} does not have",
                        arg.param_id
                    ));
                }
            }
        }
        if t.implementation_id != 0 {
            index.expect(
                t.implementation_id,
                &[Kind::ActionProfile],
                &format!("table {tname}: the implementation"),
            )?;
        }
        for &d in &t.direct_resource_ids {
            index.expect(
                d,
                &[Kind::DirectCounter, Kind::DirectMeter],
                &format!("table {tname}: a direct resource"),
            )?;
        }
    }
    for a in &info.actions {
        unique_sub_ids(
            &format!("action {}", pre(&a.preamble).name),
            "parameter",
            a.params.iter().map(|p| (p.id, p.name.as_str())),
        )?;
    }
    for a in &info.action_profiles {
        let name = &pre(&a.preamble).name;
        for &t in &a.table_ids {
            index.expect(
                t,
                &[Kind::Table],
                &format!("action profile {name}: a table"),
            )?;
        }
    }
    for (kind, name, table) in info
        .direct_counters
        .iter()
        .map(|c| {
            (
                Kind::DirectCounter,
                &pre(&c.preamble).name,
                c.direct_table_id,
            )
        })
        .chain(
            info.direct_meters
                .iter()
                .map(|m| (Kind::DirectMeter, &pre(&m.preamble).name, m.direct_table_id)),
        )
    {
        if table != 0 {
            index.expect(
                table,
                &[Kind::Table],
                &format!("{} {name}: its table", kind.noun()),
            )?;
        }
    }
    for v in &info.value_sets {
        unique_sub_ids(
            &format!("value set {}", pre(&v.preamble).name),
            "match field",
            v.r#match.iter().map(|m| (m.id, m.name.as_str())),
        )?;
    }
    for h in &info.controller_packet_metadata {
        unique_sub_ids(
            &format!("controller header {}", pre(&h.preamble).name),
            "metadata field",
            h.metadata.iter().map(|m| (m.id, m.name.as_str())),
        )?;
    }
    Ok(())
}

/// Match field, parameter or metadata ids: non-zero, unique in `owner`.
fn unique_sub_ids<'a>(
    owner: &str,
    noun: &str,
    ids: impl Iterator<Item = (u32, &'a str)>,
) -> Result<(), String> {
    let mut seen: HashMap<u32, &str> = HashMap::new();
    for (id, name) in ids {
        if id == 0 {
            return Err(format!("{owner}: {noun} {name} has id 0 (ids start at 1)"));
        }
        if let Some(other) = seen.insert(id, name) {
            return Err(format!(
                "{owner}: {noun} id {id} is used twice ({other} and {name})"
            ));
        }
    }
    Ok(())
}
