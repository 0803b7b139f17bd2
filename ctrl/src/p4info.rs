//! The front end's P4Info (`janus_p4::p4info`) as the protobuf message
//! (`p4.config.v1.P4Info`), and the comparison the server makes between a
//! client's P4Info and the program's.
//!
//! The conversion is the front end's binary encoding decoded: every field
//! p4c writes, `type_info` included.

use crate::proto::p4::config::v1 as cfg;
use janus_p4::p4info as fe;

/// The width of a register cell as its P4Info type says (`bit<W>` or
/// `int<W>`).
pub fn register_width(r: &cfg::Register) -> Option<u32> {
    use cfg::p4_bitstring_like_type_spec::TypeSpec as B;
    use cfg::p4_data_type_spec::TypeSpec;
    match r.type_spec.as_ref()?.type_spec.as_ref()? {
        TypeSpec::Bitstring(b) => match b.type_spec.as_ref()? {
            B::Bit(x) => u32::try_from(x.bitwidth).ok(),
            B::Int(x) => u32::try_from(x.bitwidth).ok(),
            B::Varbit(_) => None,
        },
        _ => None,
    }
}

/// The widths of a digest's fields, from the struct its `type_spec`
/// names in the P4Info's `type_info` (members `bit<W>` or `int<W>`);
/// `None` when the P4Info does not describe it so.
pub fn digest_fields(info: &cfg::P4Info, d: &cfg::Digest) -> Option<Vec<u32>> {
    use cfg::p4_bitstring_like_type_spec::TypeSpec as B;
    use cfg::p4_data_type_spec::TypeSpec;
    let TypeSpec::Struct(named) = d.type_spec.as_ref()?.type_spec.as_ref()? else {
        return None;
    };
    let s = info.type_info.as_ref()?.structs.get(&named.name)?;
    s.members
        .iter()
        .map(|m| match m.type_spec.as_ref()?.type_spec.as_ref()? {
            TypeSpec::Bitstring(b) => match b.type_spec.as_ref()? {
                B::Bit(x) => u32::try_from(x.bitwidth).ok(),
                B::Int(x) => u32::try_from(x.bitwidth).ok(),
                B::Varbit(_) => None,
            },
            TypeSpec::Bool(_) => Some(1),
            _ => None,
        })
        .collect()
}

/// The protobuf P4Info of a program's P4Info: its binary form
/// ([`janus_p4::p4info::to_binary`]) decoded, so what controllers get is
/// exactly what `janus p4 compile` writes.
pub fn to_proto(info: &fe::P4Info) -> cfg::P4Info {
    use prost::Message;
    cfg::P4Info::decode(fe::to_binary(info).as_slice()).unwrap_or_default()
}

/// Why a client's P4Info does not describe the program: the first
/// difference found, in words (for an INVALID_ARGUMENT status).
///
/// Tables and actions are compared by id: the same set of ids, and for
/// each its name, match fields (id, name, bitwidth, match type), action
/// references, parameters (id, name, bitwidth). Aliases, annotations and
/// documentation may differ.
pub fn mismatch(client: &cfg::P4Info, program: &cfg::P4Info) -> Option<String> {
    use std::collections::BTreeMap;
    let name = |p: &Option<cfg::Preamble>| p.as_ref().map(|p| (p.id, p.name.clone()));
    let tables = |i: &cfg::P4Info| -> BTreeMap<u32, cfg::Table> {
        i.tables
            .iter()
            .map(|t| (t.preamble.as_ref().map_or(0, |p| p.id), t.clone()))
            .collect()
    };
    let (ct, pt) = (tables(client), tables(program));
    for (id, t) in &pt {
        let Some(c) = ct.get(id) else {
            return Some(format!(
                "table {} (id {id}) of the program is missing from the P4Info",
                t.preamble.as_ref().map_or("?", |p| p.name.as_str())
            ));
        };
        let tname = t.preamble.as_ref().map_or("?", |p| p.name.as_str());
        if name(&c.preamble) != name(&t.preamble) {
            return Some(format!("table id {id}: the program's is named {tname}"));
        }
        let fields = |t: &cfg::Table| -> Vec<(u32, String, i32, Option<cfg::match_field::Match>)> {
            t.match_fields
                .iter()
                .map(|m| (m.id, m.name.clone(), m.bitwidth, m.r#match.clone()))
                .collect()
        };
        if fields(c) != fields(t) {
            return Some(format!(
                "table {tname}: match fields differ from the program's"
            ));
        }
        if c.implementation_id != t.implementation_id {
            return Some(format!(
                "table {tname}: implementation_id differs from the program's"
            ));
        }
        let refs = |t: &cfg::Table| -> Vec<u32> { t.action_refs.iter().map(|a| a.id).collect() };
        if refs(c) != refs(t) {
            return Some(format!(
                "table {tname}: action references differ from the program's"
            ));
        }
    }
    if let Some((id, t)) = ct.iter().find(|(id, _)| !pt.contains_key(id)) {
        return Some(format!(
            "table {} (id {id}) is not in the program",
            t.preamble.as_ref().map_or("?", |p| p.name.as_str())
        ));
    }
    let actions = |i: &cfg::P4Info| -> BTreeMap<u32, cfg::Action> {
        i.actions
            .iter()
            .map(|a| (a.preamble.as_ref().map_or(0, |p| p.id), a.clone()))
            .collect()
    };
    let (ca, pa) = (actions(client), actions(program));
    for (id, a) in &pa {
        let aname = a.preamble.as_ref().map_or("?", |p| p.name.as_str());
        let Some(c) = ca.get(id) else {
            return Some(format!(
                "action {aname} (id {id}) of the program is missing from the P4Info"
            ));
        };
        if name(&c.preamble) != name(&a.preamble) {
            return Some(format!("action id {id}: the program's is named {aname}"));
        }
        let params = |a: &cfg::Action| -> Vec<(u32, String, i32)> {
            a.params
                .iter()
                .map(|p| (p.id, p.name.clone(), p.bitwidth))
                .collect()
        };
        if params(c) != params(a) {
            return Some(format!(
                "action {aname}: parameters differ from the program's"
            ));
        }
    }
    if let Some((id, a)) = ca.iter().find(|(id, _)| !pa.contains_key(id)) {
        return Some(format!(
            "action {} (id {id}) is not in the program",
            a.preamble.as_ref().map_or("?", |p| p.name.as_str())
        ));
    }
    // Counters, registers and controller headers: the same ids, names,
    // sizes and widths (what the server maps and packs by).
    type Shape = BTreeMap<u32, (String, i64, Vec<(u32, i32)>)>;
    let shape = |pre: &Option<cfg::Preamble>, size: i64, fields: Vec<(u32, i32)>| {
        let p = pre.clone().unwrap_or_default();
        (p.id, (p.name, size, fields))
    };
    let resources = |i: &cfg::P4Info| -> [(&'static str, Shape); 9] {
        let unit = |s: &Option<cfg::MeterSpec>| s.as_ref().map_or(0, |s| s.unit);
        [
            (
                "counter",
                i.counters
                    .iter()
                    .map(|c| shape(&c.preamble, c.size, Vec::new()))
                    .collect(),
            ),
            (
                "direct counter",
                i.direct_counters
                    .iter()
                    .map(|c| shape(&c.preamble, 0, vec![(c.direct_table_id, 0)]))
                    .collect(),
            ),
            (
                "register",
                i.registers
                    .iter()
                    .map(|r| {
                        let w = register_width(r).map_or(-1, |w| w as i32);
                        shape(&r.preamble, i64::from(r.size), vec![(0, w)])
                    })
                    .collect(),
            ),
            (
                "meter",
                i.meters
                    .iter()
                    .map(|m| shape(&m.preamble, m.size, vec![(0, unit(&m.spec))]))
                    .collect(),
            ),
            (
                "direct meter",
                i.direct_meters
                    .iter()
                    .map(|m| shape(&m.preamble, 0, vec![(m.direct_table_id, unit(&m.spec))]))
                    .collect(),
            ),
            (
                "action profile",
                i.action_profiles
                    .iter()
                    .map(|a| {
                        let mut f: Vec<(u32, i32)> = a.table_ids.iter().map(|t| (*t, 0)).collect();
                        f.push((0, i32::from(a.with_selector)));
                        shape(&a.preamble, a.size, f)
                    })
                    .collect(),
            ),
            (
                "value set",
                i.value_sets
                    .iter()
                    .map(|v| {
                        let f = v.r#match.iter().map(|m| (m.id, m.bitwidth)).collect();
                        shape(&v.preamble, i64::from(v.size), f)
                    })
                    .collect(),
            ),
            (
                "digest",
                i.digests
                    .iter()
                    .map(|d| {
                        let widths = digest_fields(i, d).unwrap_or_default();
                        let f = widths.iter().map(|w| (0, *w as i32)).collect();
                        shape(&d.preamble, 0, f)
                    })
                    .collect(),
            ),
            (
                "controller header",
                i.controller_packet_metadata
                    .iter()
                    .map(|h| {
                        let fields = h.metadata.iter().map(|m| (m.id, m.bitwidth)).collect();
                        shape(&h.preamble, 0, fields)
                    })
                    .collect(),
            ),
        ]
    };
    for ((kind, c), (_, p)) in resources(client).into_iter().zip(resources(program)) {
        if c != p {
            let why = p
                .iter()
                .find(|(id, x)| c.get(id) != Some(x))
                .map(|(id, x)| format!("{kind} {} (id {id}) differs or is missing", x.0))
                .or_else(|| {
                    c.iter()
                        .find(|(id, _)| !p.contains_key(id))
                        .map(|(id, x)| format!("{kind} {} (id {id}) is not in the program", x.0))
                })
                .unwrap_or_else(|| format!("the {kind}s differ"));
            return Some(why);
        }
    }
    None
}
