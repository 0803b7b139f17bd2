//! Step 2: a pushed P4Info compared with the program's by names and
//! shapes, and the words its refusals use.

use super::*;

/// A match field as messages show it: `hdr.ipv4.dstAddr (32 bits, LPM)`.
fn show_field(m: &cfg::MatchField) -> String {
    format!(
        "{} ({}, {})",
        m.name,
        show_width(m.bitwidth, m.type_name.as_ref()),
        show_match(m.r#match.as_ref())
    )
}

fn show_width(bitwidth: i32, type_name: Option<&cfg::P4NamedType>) -> String {
    let bits = if bitwidth == 1 { "bit" } else { "bits" };
    match type_name.filter(|t| !t.name.is_empty()) {
        Some(t) => format!("type {}, {bitwidth} {bits}", t.name),
        None => format!("{bitwidth} {bits}"),
    }
}

fn show_match(m: Option<&cfg::match_field::Match>) -> String {
    use cfg::match_field::{Match, MatchType};
    match m {
        Some(Match::MatchType(t)) => MatchType::try_from(*t).map_or_else(
            |_| format!("match type {t}"),
            |t| t.as_str_name().to_string(),
        ),
        Some(Match::OtherMatchType(s)) => s.clone(),
        None => "no match type".to_string(),
    }
}

fn translated(t: Option<&cfg::P4NamedType>) -> bool {
    t.is_some_and(|t| !t.name.is_empty())
}

/// Whether a pushed width agrees with the program's: equal, or either
/// side has a translated type (an SDN width; see the module comment).
fn width_agrees(
    program: i32,
    pushed: i32,
    types: (Option<&cfg::P4NamedType>, Option<&cfg::P4NamedType>),
) -> bool {
    program == pushed || translated(types.0) || translated(types.1)
}

/// Compares sequences of fields (match fields, parameters, metadata) in
/// order: `Err` names the first position that differs.
fn compare_seq<T>(
    owner: &str,
    noun: &str,
    program: &[T],
    pushed: &[T],
    same: impl Fn(&T, &T) -> bool,
    show: impl Fn(&T) -> String,
) -> Result<(), String> {
    for (i, p) in program.iter().enumerate() {
        match pushed.get(i) {
            Some(c) if same(p, c) => {}
            Some(c) => {
                return Err(format!(
                    "{owner}: {noun} {} is {} in the program but {} in the P4Info",
                    i + 1,
                    show(p),
                    show(c)
                ));
            }
            None => {
                return Err(format!(
                    "{owner}: {noun} {} is {} in the program but the P4Info has only {} {noun}s",
                    i + 1,
                    show(p),
                    pushed.len()
                ));
            }
        }
    }
    if let Some(c) = pushed.get(program.len()) {
        return Err(format!(
            "{owner}: the P4Info has {noun} {}, {}, which the program does not have ({} {noun}s)",
            program.len() + 1,
            show(c),
            program.len()
        ));
    }
    Ok(())
}

fn same_match_field(p: &cfg::MatchField, c: &cfg::MatchField) -> bool {
    p.name == c.name
        && p.r#match == c.r#match
        && width_agrees(
            p.bitwidth,
            c.bitwidth,
            (p.type_name.as_ref(), c.type_name.as_ref()),
        )
}

fn show_param(p: &cfg::action::Param) -> String {
    format!(
        "{} ({})",
        p.name,
        show_width(p.bitwidth, p.type_name.as_ref())
    )
}

fn show_metadata(m: &cfg::controller_packet_metadata::Metadata) -> String {
    format!(
        "{} ({})",
        m.name,
        show_width(m.bitwidth, m.type_name.as_ref())
    )
}

/// Whether an action ref the program scopes `program` may be `pushed` in
/// the P4Info: GROUP_ACTION (P4Runtime 1.6, p4runtime#594 and #604: an
/// action usable only as a one-shot set's `group_action`) for an action
/// the program lets be used anywhere (TABLE_AND_DEFAULT). No P4 program
/// states that scope (p4c has no annotation for it, and neither does
/// Janus's front end), so it is the controller's P4Info that makes an
/// action a group action.
fn narrows_to_group_action(program: i32, pushed: i32) -> bool {
    use cfg::action_ref::Scope;
    program == Scope::TableAndDefault as i32 && pushed == Scope::GroupAction as i32
}

/// The actions (program ids) of the program's table `p` that the pushed
/// P4Info (its table's action scopes by name, `pushed`) makes
/// GROUP_ACTION. A group action cannot be the table's default action, so
/// one that the program makes the const or initial default is refused.
fn group_action_refs(
    owner: &str,
    p: &cfg::Table,
    pushed: &BTreeMap<String, i32>,
    name_of: impl Fn(u32) -> Option<String>,
) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    for a in &p.action_refs {
        let Some(name) = name_of(a.id) else { continue };
        let Some(&scope) = pushed.get(&name) else {
            continue;
        };
        if scope == a.scope || !narrows_to_group_action(a.scope, scope) {
            continue;
        }
        let initial = p.initial_default_action.as_ref().map(|c| c.action_id);
        if p.const_default_action_id == a.id || initial == Some(a.id) {
            return Err(format!(
                "{owner}: action {name} is GROUP_ACTION in the P4Info, but the program makes it the table's default action, which a group action cannot be"
            ));
        }
        out.push(a.id);
    }
    Ok(out)
}

fn scope_name(s: i32) -> String {
    cfg::action_ref::Scope::try_from(s)
        .map_or_else(|_| format!("scope {s}"), |s| s.as_str_name().to_string())
}

fn counter_unit(spec: &Option<cfg::CounterSpec>) -> String {
    let u = spec.as_ref().map_or(0, |s| s.unit);
    cfg::counter_spec::Unit::try_from(u)
        .map_or_else(|_| format!("unit {u}"), |u| u.as_str_name().to_string())
}

fn meter_spec(spec: &Option<cfg::MeterSpec>) -> String {
    let (u, t) = spec.as_ref().map_or((0, 0), |s| (s.unit, s.r#type));
    let unit = cfg::meter_spec::Unit::try_from(u)
        .map_or_else(|_| format!("unit {u}"), |u| u.as_str_name().to_string());
    let ty = cfg::meter_spec::Type::try_from(t)
        .map_or_else(|_| format!("type {t}"), |t| t.as_str_name().to_string());
    format!("{unit}, {ty}")
}

fn show_opt(name: Option<&str>) -> String {
    name.map_or_else(|| "none".to_string(), str::to_string)
}

fn show_set(names: &BTreeSet<String>) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.iter().cloned().collect::<Vec<_>>().join(", ")
    }
}

/// Pairs the program's objects of one kind, in order, with the pushed
/// ones of the same name (`None`: the P4Info lacks it). Extra pushed
/// objects are reported by [`extra`] after the shapes.
fn pairs<'a, T>(
    program: &'a [T],
    pushed: &'a [T],
    p: impl Fn(&T) -> &Option<cfg::Preamble>,
) -> Vec<(&'a T, Option<&'a T>)> {
    let by_name: HashMap<&str, &T> = pushed
        .iter()
        .map(|x| (pre(p(x)).name.as_str(), x))
        .collect();
    program
        .iter()
        .map(|x| (x, by_name.get(pre(p(x)).name.as_str()).copied()))
        .collect()
}

fn missing(kind: Kind, name: &str) -> String {
    format!(
        "{} {name} of the program is missing from the P4Info",
        kind.noun()
    )
}

/// Pairs each program object of `kind` with the pushed one of its name
/// (refusing a missing one), checks each pair with `same` (given the
/// object's name for messages), records the ids, then refuses a pushed
/// object the program does not have.
fn match_each<T>(
    r: &mut Renumbering,
    kind: Kind,
    program: &[T],
    pushed: &[T],
    p: impl Fn(&T) -> &Option<cfg::Preamble> + Copy,
    mut same: impl FnMut(&str, &T, &T) -> Result<(), String>,
) -> Result<(), String> {
    for (a, b) in pairs(program, pushed, p) {
        let name = &pre(p(a)).name;
        let b = b.ok_or_else(|| missing(kind, name))?;
        same(&format!("{} {name}", kind.noun()), a, b)?;
        r.pair(kind, p(a), p(b));
    }
    extra(kind, program, pushed, p)
}

/// The first pushed object of `kind` the program does not have.
fn extra<T>(
    kind: Kind,
    program: &[T],
    pushed: &[T],
    p: impl Fn(&T) -> &Option<cfg::Preamble>,
) -> Result<(), String> {
    let names: BTreeSet<&str> = program.iter().map(|x| pre(p(x)).name.as_str()).collect();
    match pushed
        .iter()
        .map(|x| pre(p(x)))
        .find(|x| !names.contains(x.name.as_str()))
    {
        Some(x) => Err(format!(
            "the P4Info has {} {} (id {:#010x}), which is not in the program",
            article(kind.noun()),
            x.name,
            x.id
        )),
        None => Ok(()),
    }
}

/// Sizes are compared where the program fixes them (not 0).
fn compare_size(owner: &str, program: i64, pushed: i64) -> Result<(), String> {
    if program != 0 && program != pushed {
        return Err(format!(
            "{owner}: size {program} in the program but {pushed} in the P4Info"
        ));
    }
    Ok(())
}

/// A field of an object whose pushed form is compared by name and width:
/// an action's parameter, a controller header's metadata field.
trait SizedField {
    fn id(&self) -> u32;
    fn name(&self) -> &str;
    fn bitwidth(&self) -> i32;
    fn type_name(&self) -> Option<&cfg::P4NamedType>;
}

/// The protobuf messages that are [`SizedField`]s (same field names).
macro_rules! sized_field {
    ($($t:ty),*) => {$(
        impl SizedField for $t {
            fn id(&self) -> u32 {
                self.id
            }
            fn name(&self) -> &str {
                &self.name
            }
            fn bitwidth(&self) -> i32 {
                self.bitwidth
            }
            fn type_name(&self) -> Option<&cfg::P4NamedType> {
                self.type_name.as_ref()
            }
        }
    )*};
}

sized_field!(
    cfg::action::Param,
    cfg::controller_packet_metadata::Metadata
);

/// Compares the fields of an object the program and the pushed P4Info
/// both have (same names, widths that agree, in order), then pairs the
/// object's and its fields' ids.
fn compare_fields<F: SizedField>(
    r: &mut Renumbering,
    kind: Kind,
    (program, pushed): (&Option<cfg::Preamble>, &Option<cfg::Preamble>),
    noun: &str,
    (p, c): (&[F], &[F]),
    show: fn(&F) -> String,
) -> Result<(), String> {
    compare_seq(
        &format!("{} {}", kind.noun(), pre(program).name),
        noun,
        p,
        c,
        |p, c| {
            p.name() == c.name()
                && width_agrees(p.bitwidth(), c.bitwidth(), (p.type_name(), c.type_name()))
        },
        show,
    )?;
    r.pair(kind, program, pushed);
    r.pair_fields(
        kind,
        pre(program).id,
        p.iter().map(SizedField::id),
        c.iter().map(SizedField::id),
    );
    Ok(())
}

/// Compares a (valid) pushed P4Info with the program's by names and
/// shapes; on success, how the program's ids map to the pushed ones.
///
/// For each object of the program there must be one of the same kind and
/// name in the P4Info, and none more, of the same shape:
///
/// - tables: match fields (name, bitwidth, match type, in order), the
///   actions (by name, with their scope; one the program scopes
///   TABLE_AND_DEFAULT may be GROUP_ACTION in the P4Info, unless the
///   program makes it the table's default), the implementation (by action
///   profile name), the direct resources (by name), the const default
///   action (by name), the size, `is_const_table` and
///   `idle_timeout_behavior`;
/// - actions: parameters (name, bitwidth, in order);
/// - action profiles: the tables (by name), `with_selector`, the size;
/// - counters and meters: the unit (meters: and type), the size; direct
///   counters and meters: the unit (type) and the table (by name);
/// - registers: the size and the cell's width; digests: the widths of the
///   struct's members; value sets: match fields and size;
/// - controller headers: metadata (name, bitwidth, in order).
///
/// Sizes are compared where the program's is not 0; widths of fields,
/// parameters and metadata with a `type_name` are not compared. Ids,
/// annotations, aliases and documentation may differ.
pub fn compare(pushed: &cfg::P4Info, program: &cfg::P4Info) -> Result<Renumbering, String> {
    let (pi, ci) = (Index::build(program), Index::build(pushed));
    let name_in = |index: &Index, kind: Kind, id: u32| -> Option<String> {
        match index.by_id.get(&id) {
            Some((k, n)) if *k == kind => Some(n.to_string()),
            _ => None,
        }
    };
    let mut r = Renumbering::default();

    for (p, c) in pairs(&program.tables, &pushed.tables, |t| &t.preamble) {
        let name = &pre(&p.preamble).name;
        let c = c.ok_or_else(|| missing(Kind::Table, name))?;
        let owner = format!("table {name}");
        compare_seq(
            &owner,
            "match field",
            &p.match_fields,
            &c.match_fields,
            same_match_field,
            show_field,
        )?;
        // Actions, by name.
        let refs = |index: &Index, t: &cfg::Table| -> BTreeMap<String, i32> {
            t.action_refs
                .iter()
                .map(|a| {
                    let n = name_in(index, Kind::Action, a.id).unwrap_or_else(|| "?".into());
                    (n, a.scope)
                })
                .collect()
        };
        let (pr, cr) = (refs(&pi, p), refs(&ci, c));
        for (a, scope) in &pr {
            match cr.get(a) {
                None => {
                    return Err(format!(
                        "{owner}: the program's table can run action {a}, the P4Info's does not list it"
                    ));
                }
                Some(s) if s != scope && !narrows_to_group_action(*scope, *s) => {
                    return Err(format!(
                        "{owner}: action {a} is {} in the program but {} in the P4Info",
                        scope_name(*scope),
                        scope_name(*s)
                    ));
                }
                Some(_) => {}
            }
        }
        if let Some(a) = cr.keys().find(|n| !pr.contains_key(*n)) {
            return Err(format!(
                "{owner}: the P4Info lists action {a}, which the program's table cannot run"
            ));
        }
        for action in group_action_refs(&owner, p, &cr, |id| name_in(&pi, Kind::Action, id))? {
            r.group_actions.insert((pre(&p.preamble).id, action));
        }
        let opt = |index: &Index, kind: Kind, id: u32| {
            (id != 0).then(|| name_in(index, kind, id).unwrap_or_else(|| "?".into()))
        };
        let (pd, cd) = (
            opt(&pi, Kind::Action, p.const_default_action_id),
            opt(&ci, Kind::Action, c.const_default_action_id),
        );
        if pd != cd {
            return Err(format!(
                "{owner}: the const default action is {} in the program but {} in the P4Info",
                show_opt(pd.as_deref()),
                show_opt(cd.as_deref())
            ));
        }
        let (pm, cm) = (
            opt(&pi, Kind::ActionProfile, p.implementation_id),
            opt(&ci, Kind::ActionProfile, c.implementation_id),
        );
        if pm != cm {
            return Err(format!(
                "{owner}: the implementation is {} in the program but {} in the P4Info",
                show_opt(pm.as_deref()),
                show_opt(cm.as_deref())
            ));
        }
        let directs = |index: &Index, t: &cfg::Table| -> BTreeSet<String> {
            t.direct_resource_ids
                .iter()
                .map(|id| match index.by_id.get(id) {
                    Some((k, n)) => format!("{} {n}", k.noun()),
                    None => format!("{id:#010x}"),
                })
                .collect()
        };
        let (pdr, cdr) = (directs(&pi, p), directs(&ci, c));
        if pdr != cdr {
            return Err(format!(
                "{owner}: the direct resources are {} in the program but {} in the P4Info",
                show_set(&pdr),
                show_set(&cdr)
            ));
        }
        compare_size(&owner, p.size, c.size)?;
        if p.is_const_table != c.is_const_table {
            let word = |b: bool| if b { "const" } else { "not const" };
            return Err(format!(
                "{owner}: the table is {} in the program but {} in the P4Info",
                word(p.is_const_table),
                word(c.is_const_table)
            ));
        }
        if p.idle_timeout_behavior != c.idle_timeout_behavior {
            let word = |b: i32| {
                cfg::table::IdleTimeoutBehavior::try_from(b)
                    .map_or_else(|_| format!("{b}"), |b| b.as_str_name().to_string())
            };
            return Err(format!(
                "{owner}: idle_timeout_behavior is {} in the program but {} in the P4Info",
                word(p.idle_timeout_behavior),
                word(c.idle_timeout_behavior)
            ));
        }
        r.pair(Kind::Table, &p.preamble, &c.preamble);
        r.pair_fields(
            Kind::Table,
            pre(&p.preamble).id,
            p.match_fields.iter().map(|m| m.id),
            c.match_fields.iter().map(|m| m.id),
        );
    }
    extra(Kind::Table, &program.tables, &pushed.tables, |t| {
        &t.preamble
    })?;

    for (p, c) in pairs(&program.actions, &pushed.actions, |a| &a.preamble) {
        let name = &pre(&p.preamble).name;
        let c = c.ok_or_else(|| missing(Kind::Action, name))?;
        compare_fields(
            &mut r,
            Kind::Action,
            (&p.preamble, &c.preamble),
            "parameter",
            (&p.params, &c.params),
            show_param,
        )?;
    }
    extra(Kind::Action, &program.actions, &pushed.actions, |a| {
        &a.preamble
    })?;

    for (p, c) in pairs(&program.action_profiles, &pushed.action_profiles, |a| {
        &a.preamble
    }) {
        let name = &pre(&p.preamble).name;
        let c = c.ok_or_else(|| missing(Kind::ActionProfile, name))?;
        let owner = format!("action profile {name}");
        let tables = |index: &Index, a: &cfg::ActionProfile| -> BTreeSet<String> {
            a.table_ids
                .iter()
                .map(|&t| name_in(index, Kind::Table, t).unwrap_or_else(|| format!("{t:#010x}")))
                .collect()
        };
        let (pt, ct) = (tables(&pi, p), tables(&ci, c));
        if pt != ct {
            return Err(format!(
                "{owner}: its tables are {} in the program but {} in the P4Info",
                show_set(&pt),
                show_set(&ct)
            ));
        }
        if p.with_selector != c.with_selector {
            let word = |b: bool| if b { "a selector" } else { "not a selector" };
            return Err(format!(
                "{owner}: it is {} in the program but {} in the P4Info",
                word(p.with_selector),
                word(c.with_selector)
            ));
        }
        compare_size(&owner, p.size, c.size)?;
        r.pair(Kind::ActionProfile, &p.preamble, &c.preamble);
    }
    extra(
        Kind::ActionProfile,
        &program.action_profiles,
        &pushed.action_profiles,
        |a| &a.preamble,
    )?;

    let same_unit = |owner: &str, p: String, c: String, verb: &str| {
        if p == c {
            Ok(())
        } else {
            Err(format!(
                "{owner}: it {verb} {p} in the program but {c} in the P4Info"
            ))
        }
    };
    match_each(
        &mut r,
        Kind::Counter,
        &program.counters,
        &pushed.counters,
        |x| &x.preamble,
        |owner, p, c| {
            same_unit(
                owner,
                counter_unit(&p.spec),
                counter_unit(&c.spec),
                "counts",
            )?;
            compare_size(owner, p.size, c.size)
        },
    )?;
    let table_of = |index: &Index, id: u32| {
        (id != 0).then(|| name_in(index, Kind::Table, id).unwrap_or_else(|| format!("{id:#010x}")))
    };
    match_each(
        &mut r,
        Kind::DirectCounter,
        &program.direct_counters,
        &pushed.direct_counters,
        |x| &x.preamble,
        |owner, p, c| {
            same_unit(
                owner,
                counter_unit(&p.spec),
                counter_unit(&c.spec),
                "counts",
            )?;
            same_table(
                owner,
                table_of(&pi, p.direct_table_id),
                table_of(&ci, c.direct_table_id),
            )
        },
    )?;
    match_each(
        &mut r,
        Kind::Meter,
        &program.meters,
        &pushed.meters,
        |x| &x.preamble,
        |owner, p, c| {
            same_unit(owner, meter_spec(&p.spec), meter_spec(&c.spec), "is")?;
            compare_size(owner, p.size, c.size)
        },
    )?;
    match_each(
        &mut r,
        Kind::DirectMeter,
        &program.direct_meters,
        &pushed.direct_meters,
        |x| &x.preamble,
        |owner, p, c| {
            same_unit(owner, meter_spec(&p.spec), meter_spec(&c.spec), "is")?;
            same_table(
                owner,
                table_of(&pi, p.direct_table_id),
                table_of(&ci, c.direct_table_id),
            )
        },
    )?;

    for (p, c) in pairs(&program.registers, &pushed.registers, |x| &x.preamble) {
        let name = &pre(&p.preamble).name;
        let c = c.ok_or_else(|| missing(Kind::Register, name))?;
        let owner = format!("register {name}");
        let width = |r: &cfg::Register| {
            crate::p4info::register_width(r)
                .map_or_else(|| "no bit<W> type".to_string(), |w| format!("bit<{w}>"))
        };
        let (pw, cw) = (width(p), width(c));
        if pw != cw {
            return Err(format!(
                "{owner}: its cells are {pw} in the program but {cw} in the P4Info"
            ));
        }
        compare_size(&owner, i64::from(p.size), i64::from(c.size))?;
        r.pair(Kind::Register, &p.preamble, &c.preamble);
    }
    extra(Kind::Register, &program.registers, &pushed.registers, |x| {
        &x.preamble
    })?;

    for (p, c) in pairs(&program.value_sets, &pushed.value_sets, |x| &x.preamble) {
        let name = &pre(&p.preamble).name;
        let c = c.ok_or_else(|| missing(Kind::ValueSet, name))?;
        let owner = format!("value set {name}");
        compare_seq(
            &owner,
            "match field",
            &p.r#match,
            &c.r#match,
            same_match_field,
            show_field,
        )?;
        compare_size(&owner, i64::from(p.size), i64::from(c.size))?;
        r.pair(Kind::ValueSet, &p.preamble, &c.preamble);
        r.pair_fields(
            Kind::ValueSet,
            pre(&p.preamble).id,
            p.r#match.iter().map(|m| m.id),
            c.r#match.iter().map(|m| m.id),
        );
    }
    extra(
        Kind::ValueSet,
        &program.value_sets,
        &pushed.value_sets,
        |x| &x.preamble,
    )?;

    for (p, c) in pairs(&program.digests, &pushed.digests, |x| &x.preamble) {
        let name = &pre(&p.preamble).name;
        let c = c.ok_or_else(|| missing(Kind::Digest, name))?;
        let widths =
            |info: &cfg::P4Info, d: &cfg::Digest| match crate::p4info::digest_fields(info, d) {
                Some(w) => format!(
                    "a struct of {}",
                    w.iter()
                        .map(|w| w.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None => "not described as a struct of fixed-width members".to_string(),
            };
        let (pw, cw) = (widths(program, p), widths(pushed, c));
        if pw != cw {
            return Err(format!(
                "digest {name}: its data is {pw} in the program but {cw} in the P4Info"
            ));
        }
        r.pair(Kind::Digest, &p.preamble, &c.preamble);
    }
    extra(Kind::Digest, &program.digests, &pushed.digests, |x| {
        &x.preamble
    })?;

    for (p, c) in pairs(
        &program.controller_packet_metadata,
        &pushed.controller_packet_metadata,
        |x| &x.preamble,
    ) {
        let name = &pre(&p.preamble).name;
        let c = c.ok_or_else(|| missing(Kind::ControllerHeader, name))?;
        compare_fields(
            &mut r,
            Kind::ControllerHeader,
            (&p.preamble, &c.preamble),
            "metadata field",
            (&p.metadata, &c.metadata),
            show_metadata,
        )?;
    }
    extra(
        Kind::ControllerHeader,
        &program.controller_packet_metadata,
        &pushed.controller_packet_metadata,
        |x| &x.preamble,
    )?;
    Ok(r)
}

/// A direct resource's table must be the same, by name, in both.
fn same_table(owner: &str, program: Option<String>, pushed: Option<String>) -> Result<(), String> {
    if program == pushed {
        return Ok(());
    }
    Err(format!(
        "{owner}: its table is {} in the program but {} in the P4Info",
        show_opt(program.as_deref()),
        show_opt(pushed.as_deref())
    ))
}
