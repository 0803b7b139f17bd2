//! The front end's P4Info (`janus_p4::p4info`) as the protobuf message
//! (`p4.config.v1.P4Info`), and the comparison the server makes between a
//! client's P4Info and the program's.
//!
//! The conversion covers what the server uses and clients look up: package
//! info, tables (with their `implementation_id`), actions, action profiles,
//! counters, direct counters, meters, direct meters (two-rate three-colour),
//! registers, controller packet metadata, value sets and digests (whose
//! `type_spec` names a struct of `type_info`, its members `bit<W>`).

use crate::proto::p4::config::v1 as cfg;
use janus_p4::p4info as fe;

fn preamble(p: &fe::Preamble) -> Option<cfg::Preamble> {
    Some(cfg::Preamble {
        id: p.id,
        name: p.name.clone(),
        alias: p.alias.clone(),
        annotations: p.annotations.clone(),
        doc: doc(&p.doc),
        structured_annotations: structured(&p.structured_annotations),
        ..Default::default()
    })
}

fn doc(d: &Option<fe::Doc>) -> Option<cfg::Documentation> {
    d.as_ref().map(|d| cfg::Documentation {
        brief: d.brief.clone(),
        description: d.description.clone(),
    })
}

fn structured(list: &[fe::Structured]) -> Vec<cfg::StructuredAnnotation> {
    use cfg::expression::Value;
    use cfg::structured_annotation::Body;
    let value = |v: &fe::StructuredValue| cfg::Expression {
        value: Some(match v {
            fe::StructuredValue::String(s) => Value::StringValue(s.clone()),
            fe::StructuredValue::Int(i) => Value::Int64Value(*i),
            fe::StructuredValue::Bool(b) => Value::BoolValue(*b),
        }),
    };
    list.iter()
        .map(|s| cfg::StructuredAnnotation {
            name: s.name.clone(),
            body: if !s.kv_pairs.is_empty() {
                Some(Body::KvPairList(cfg::KeyValuePairList {
                    kv_pairs: s
                        .kv_pairs
                        .iter()
                        .map(|(k, v)| cfg::KeyValuePair {
                            key: k.clone(),
                            value: Some(value(v)),
                        })
                        .collect(),
                }))
            } else if !s.expressions.is_empty() {
                Some(Body::ExpressionList(cfg::ExpressionList {
                    expressions: s.expressions.iter().map(value).collect(),
                }))
            } else {
                None
            },
            ..Default::default()
        })
        .collect()
}

fn named(t: &Option<String>) -> Option<cfg::P4NamedType> {
    t.as_ref()
        .map(|name| cfg::P4NamedType { name: name.clone() })
}

fn match_type(s: &str) -> cfg::match_field::Match {
    use cfg::match_field::{Match, MatchType};
    let t = match s {
        "EXACT" => MatchType::Exact,
        "LPM" => MatchType::Lpm,
        "TERNARY" => MatchType::Ternary,
        "RANGE" => MatchType::Range,
        "OPTIONAL" => MatchType::Optional,
        other => {
            return Match::OtherMatchType(
                other.strip_prefix("other:").unwrap_or(other).to_string(),
            );
        }
    };
    Match::MatchType(t as i32)
}

fn scope(s: &str) -> i32 {
    use cfg::action_ref::Scope;
    (match s {
        "TABLE_ONLY" => Scope::TableOnly,
        "DEFAULT_ONLY" => Scope::DefaultOnly,
        _ => Scope::TableAndDefault,
    }) as i32
}

fn meter_spec(s: &str) -> Option<cfg::MeterSpec> {
    use cfg::meter_spec::{Type, Unit};
    Some(cfg::MeterSpec {
        unit: (match s {
            "BYTES" => Unit::Bytes,
            "PACKETS" => Unit::Packets,
            _ => Unit::Unspecified,
        }) as i32,
        r#type: Type::TwoRateThreeColor as i32,
    })
}

fn counter_unit(s: &str) -> i32 {
    use cfg::counter_spec::Unit;
    (match s {
        "BYTES" => Unit::Bytes,
        "PACKETS" => Unit::Packets,
        "BOTH" => Unit::Both,
        _ => Unit::Unspecified,
    }) as i32
}

/// `bit<width>` as a P4Info type.
fn bit_type(width: u32) -> cfg::P4DataTypeSpec {
    use cfg::p4_bitstring_like_type_spec::TypeSpec as B;
    use cfg::p4_data_type_spec::TypeSpec;
    cfg::P4DataTypeSpec {
        type_spec: Some(TypeSpec::Bitstring(cfg::P4BitstringLikeTypeSpec {
            type_spec: Some(B::Bit(cfg::P4BitTypeSpec {
                bitwidth: width as i32,
            })),
            ..Default::default()
        })),
    }
}

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

/// The protobuf P4Info of a program's P4Info (see the module comment for
/// what is covered).
pub fn to_proto(info: &fe::P4Info) -> cfg::P4Info {
    cfg::P4Info {
        pkg_info: Some(cfg::PkgInfo {
            name: info.pkg_info.name.clone(),
            version: info.pkg_info.version.clone(),
            doc: doc(&info.pkg_info.doc),
            annotations: info.pkg_info.annotations.clone(),
            arch: info.pkg_info.arch.clone(),
            organization: info.pkg_info.organization.clone(),
            contact: info.pkg_info.contact.clone(),
            url: info.pkg_info.url.clone(),
            structured_annotations: structured(&info.pkg_info.structured_annotations),
            ..Default::default()
        }),
        tables: info
            .tables
            .iter()
            .map(|t| cfg::Table {
                preamble: preamble(&t.preamble),
                match_fields: t
                    .match_fields
                    .iter()
                    .map(|m| cfg::MatchField {
                        id: m.id,
                        name: m.name.clone(),
                        annotations: m.annotations.unstructured.clone(),
                        bitwidth: m.bitwidth as i32,
                        r#match: Some(match_type(&m.match_type)),
                        doc: doc(&m.annotations.doc),
                        type_name: named(&m.type_name),
                        structured_annotations: structured(&m.annotations.structured),
                        ..Default::default()
                    })
                    .collect(),
                action_refs: t
                    .action_refs
                    .iter()
                    .map(|a| cfg::ActionRef {
                        id: a.id,
                        scope: scope(a.scope),
                        annotations: a.annotations.clone(),
                        structured_annotations: structured(&a.structured_annotations),
                        ..Default::default()
                    })
                    .collect(),
                const_default_action_id: t.const_default_action_id.unwrap_or(0),
                initial_default_action: t.initial_default_action.as_ref().map(|c| {
                    cfg::TableActionCall {
                        action_id: c.action_id,
                        arguments: c
                            .arguments
                            .iter()
                            .map(|(id, value)| cfg::table_action_call::Argument {
                                param_id: *id,
                                value: value.clone(),
                            })
                            .collect(),
                    }
                }),
                has_initial_entries: t.has_initial_entries,
                implementation_id: t.implementation_id.unwrap_or(0),
                direct_resource_ids: t.direct_resource_ids.clone(),
                size: t.size as i64,
                idle_timeout_behavior: if t.idle_timeout {
                    cfg::table::IdleTimeoutBehavior::NotifyControl as i32
                } else {
                    cfg::table::IdleTimeoutBehavior::NoTimeout as i32
                },
                is_const_table: t.is_const_table,
                ..Default::default()
            })
            .collect(),
        actions: info
            .actions
            .iter()
            .map(|a| cfg::Action {
                preamble: preamble(&a.preamble),
                params: a
                    .params
                    .iter()
                    .map(|p| cfg::action::Param {
                        id: p.id,
                        name: p.name.clone(),
                        annotations: p.annotations.unstructured.clone(),
                        bitwidth: p.bitwidth as i32,
                        doc: doc(&p.annotations.doc),
                        type_name: named(&p.type_name),
                        structured_annotations: structured(&p.annotations.structured),
                        ..Default::default()
                    })
                    .collect(),
            })
            .collect(),
        counters: info
            .counters
            .iter()
            .map(|c| cfg::Counter {
                preamble: preamble(&c.preamble),
                spec: Some(cfg::CounterSpec {
                    unit: counter_unit(c.unit),
                }),
                size: c.size as i64,
                index_type_name: None,
            })
            .collect(),
        registers: info
            .registers
            .iter()
            .map(|r| cfg::Register {
                preamble: preamble(&r.preamble),
                type_spec: Some(bit_type(r.bitwidth)),
                size: i32::try_from(r.size).unwrap_or(i32::MAX),
                index_type_name: None,
            })
            .collect(),
        direct_counters: info
            .direct_counters
            .iter()
            .map(|c| cfg::DirectCounter {
                preamble: preamble(&c.preamble),
                spec: Some(cfg::CounterSpec {
                    unit: counter_unit(c.unit),
                }),
                direct_table_id: c.direct_table_id.unwrap_or(0),
            })
            .collect(),
        action_profiles: info
            .action_profiles
            .iter()
            .map(|a| cfg::ActionProfile {
                preamble: preamble(&a.preamble),
                table_ids: a.table_ids.clone(),
                with_selector: a.with_selector,
                size: a.size as i64,
                max_group_size: a.max_group_size,
                ..Default::default()
            })
            .collect(),
        meters: info
            .meters
            .iter()
            .map(|m| cfg::Meter {
                preamble: preamble(&m.preamble),
                spec: meter_spec(m.unit),
                size: m.size as i64,
                index_type_name: None,
            })
            .collect(),
        direct_meters: info
            .direct_meters
            .iter()
            .map(|m| cfg::DirectMeter {
                preamble: preamble(&m.preamble),
                spec: meter_spec(m.unit),
                direct_table_id: m.direct_table_id.unwrap_or(0),
            })
            .collect(),
        value_sets: info
            .value_sets
            .iter()
            .map(|v| cfg::ValueSet {
                preamble: preamble(&v.preamble),
                r#match: v
                    .fields
                    .iter()
                    .map(|m| cfg::MatchField {
                        id: m.id,
                        name: m.name.clone(),
                        bitwidth: m.bitwidth as i32,
                        r#match: Some(match_type(&m.match_type)),
                        ..Default::default()
                    })
                    .collect(),
                size: i32::try_from(v.size).unwrap_or(i32::MAX),
            })
            .collect(),
        digests: info
            .digests
            .iter()
            .map(|d| cfg::Digest {
                preamble: preamble(&d.preamble),
                type_spec: Some(cfg::P4DataTypeSpec {
                    type_spec: Some(cfg::p4_data_type_spec::TypeSpec::Struct(cfg::P4NamedType {
                        name: d.preamble.name.clone(),
                    })),
                }),
            })
            .collect(),
        type_info: fe::has_type_info(info).then(|| cfg::P4TypeInfo {
            structs: info
                .digests
                .iter()
                .map(|d| {
                    let members = d
                        .fields
                        .iter()
                        .map(|(name, width)| cfg::p4_struct_type_spec::Member {
                            name: name.clone(),
                            type_spec: Some(bit_type(*width)),
                        })
                        .collect();
                    (
                        d.preamble.name.clone(),
                        cfg::P4StructTypeSpec {
                            members,
                            ..Default::default()
                        },
                    )
                })
                .collect(),
            ..Default::default()
        }),
        controller_packet_metadata: info
            .controller_packet_metadata
            .iter()
            .map(|h| cfg::ControllerPacketMetadata {
                preamble: preamble(&h.preamble),
                metadata: h
                    .metadata
                    .iter()
                    .map(|m| cfg::controller_packet_metadata::Metadata {
                        id: m.id,
                        name: m.name.clone(),
                        annotations: m.annotations.unstructured.clone(),
                        bitwidth: m.bitwidth as i32,
                        type_name: named(&m.type_name),
                        structured_annotations: structured(&m.annotations.structured),
                        ..Default::default()
                    })
                    .collect(),
            })
            .collect(),
        ..Default::default()
    }
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
