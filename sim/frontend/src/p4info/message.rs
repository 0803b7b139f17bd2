//! P4Info as a protobuf message ([`crate::proto::Message`], field numbers
//! of P4Runtime's `p4info.proto` and `p4types.proto`), written in the three
//! formats p4c writes: binary, text (after a two-line header naming the
//! proto file and message, as p4c's `writeTextTo` does) and JSON.

use super::annotations::{Annotations, Doc, Structured, StructuredValue};
use super::types::{NewTypeRepr, TypeInfo, TypeSpec};
use super::{ActionCall, P4Info, Param, Preamble};
use crate::proto::{Message, Value};
use std::collections::BTreeMap;

/// The header p4c writes before the text of a P4Info.
pub const HEADER: &str =
    "# proto-file: p4/config/v1/p4info.proto\n# proto-message: p4.config.v1.P4Info\n\n";

/// P4Info in protobuf text format, header first (p4c's `.txt`).
pub fn to_text(info: &P4Info) -> String {
    format!("{HEADER}{}", to_message(info).to_text())
}

/// P4Info in the protobuf binary format (p4c's `.bin`).
pub fn to_binary(info: &P4Info) -> Vec<u8> {
    to_message(info).to_binary()
}

/// P4Info in protobuf JSON (p4c's `.json`).
pub fn to_json(info: &P4Info) -> String {
    to_message(info).to_json()
}

/// The `p4.config.v1.P4Info` message.
pub fn to_message(info: &P4Info) -> Message {
    let mut m = Message::new();
    let pk = &info.pkg_info;
    if *pk != super::PkgInfo::default() {
        let mut p = Message::new();
        p.string(1, "name", pk.name.as_str());
        p.string(2, "version", pk.version.as_str());
        doc(&mut p, 3, &pk.doc);
        p.strings(4, "annotations", pk.annotations.iter().cloned());
        p.string(5, "arch", pk.arch.as_str());
        p.string(6, "organization", pk.organization.as_str());
        p.string(7, "contact", pk.contact.as_str());
        p.string(8, "url", pk.url.as_str());
        structured(&mut p, 9, &pk.structured_annotations);
        m.message(1, "pkg_info", p);
    }
    for t in &info.tables {
        let mut tm = Message::new();
        tm.message(1, "preamble", preamble(&t.preamble));
        for f in &t.match_fields {
            let mut fm = Message::new();
            fm.u32(1, "id", f.id);
            fm.string(2, "name", f.name.as_str());
            fm.strings(3, "annotations", f.annotations.unstructured.iter().cloned());
            fm.i32(4, "bitwidth", f.bitwidth as i32);
            match f.match_type.strip_prefix("other:") {
                Some(other) => {
                    fm.push(7, "other_match_type", Value::String(other.to_string()));
                }
                None => {
                    fm.push(5, "match_type", match_type(&f.match_type));
                }
            }
            doc(&mut fm, 6, &f.annotations.doc);
            type_name(&mut fm, 8, &f.type_name);
            structured(&mut fm, 9, &f.annotations.structured);
            tm.add_message(2, "match_fields", fm);
        }
        for a in &t.action_refs {
            let mut am = Message::new();
            am.u32(1, "id", a.id);
            am.strings(2, "annotations", a.annotations.iter().cloned());
            let (number, name) = match a.scope {
                "TABLE_ONLY" => (1, "TABLE_ONLY"),
                "DEFAULT_ONLY" => (2, "DEFAULT_ONLY"),
                _ => (0, "TABLE_AND_DEFAULT"),
            };
            am.enumeration(3, "scope", number, name);
            structured(&mut am, 4, &a.structured_annotations);
            tm.add_message(3, "action_refs", am);
        }
        tm.u32(
            4,
            "const_default_action_id",
            t.const_default_action_id.unwrap_or(0),
        );
        if let Some(call) = &t.initial_default_action {
            tm.message(5, "initial_default_action", action_call(call));
        }
        tm.u32(6, "implementation_id", t.implementation_id.unwrap_or(0));
        tm.packed_u32(7, "direct_resource_ids", t.direct_resource_ids.clone());
        tm.i64(8, "size", t.size as i64);
        if t.idle_timeout {
            tm.enumeration(9, "idle_timeout_behavior", 1, "NOTIFY_CONTROL");
        }
        tm.bool(10, "is_const_table", t.is_const_table);
        tm.bool(11, "has_initial_entries", t.has_initial_entries);
        m.add_message(2, "tables", tm);
    }
    for a in &info.actions {
        let mut am = Message::new();
        am.message(1, "preamble", preamble(&a.preamble));
        for p in &a.params {
            am.add_message(2, "params", param(p, true));
        }
        m.add_message(3, "actions", am);
    }
    for ap in &info.action_profiles {
        let mut pm = Message::new();
        pm.message(1, "preamble", preamble(&ap.preamble));
        pm.packed_u32(2, "table_ids", ap.table_ids.clone());
        pm.bool(3, "with_selector", ap.with_selector);
        pm.i64(4, "size", ap.size as i64);
        pm.i32(5, "max_group_size", ap.max_group_size);
        m.add_message(4, "action_profiles", pm);
    }
    for (number, field, list, counter) in [
        (5, "counters", &info.counters, true),
        (6, "direct_counters", &info.direct_counters, true),
        (7, "meters", &info.meters, false),
        (8, "direct_meters", &info.direct_meters, false),
    ] {
        for c in list {
            let mut cm = Message::new();
            cm.message(1, "preamble", preamble(&c.preamble));
            let mut spec = Message::new();
            let unit = match (counter, c.unit) {
                (_, "BYTES") => (1, "BYTES"),
                (_, "PACKETS") => (2, "PACKETS"),
                (true, "BOTH") => (3, "BOTH"),
                _ => (0, "UNSPECIFIED"),
            };
            spec.enumeration(1, "unit", unit.0, unit.1);
            cm.message(2, "spec", spec);
            match c.direct_table_id {
                Some(t) => cm.u32(3, "direct_table_id", t),
                None => cm.i64(3, "size", c.size as i64),
            };
            m.add_message(number, field, cm);
        }
    }
    for h in &info.controller_packet_metadata {
        let mut hm = Message::new();
        hm.message(1, "preamble", preamble(&h.preamble));
        for p in &h.metadata {
            hm.add_message(2, "metadata", param(p, false));
        }
        m.add_message(9, "controller_packet_metadata", hm);
    }
    for v in &info.value_sets {
        let mut vm = Message::new();
        vm.message(1, "preamble", preamble(&v.preamble));
        for f in &v.fields {
            let mut fm = Message::new();
            fm.u32(1, "id", f.id);
            fm.string(2, "name", f.name.as_str());
            fm.i32(4, "bitwidth", f.bitwidth as i32);
            fm.push(5, "match_type", match_type(&f.match_type));
            vm.add_message(2, "match", fm);
        }
        vm.i32(3, "size", i32::try_from(v.size).unwrap_or(i32::MAX));
        m.add_message(10, "value_sets", vm);
    }
    for r in &info.registers {
        let mut rm = Message::new();
        rm.message(1, "preamble", preamble(&r.preamble));
        if let Some(spec) = &r.type_spec {
            rm.message(2, "type_spec", type_spec(spec));
        }
        rm.i32(3, "size", i32::try_from(r.size).unwrap_or(i32::MAX));
        m.add_message(11, "registers", rm);
    }
    for d in &info.digests {
        let mut dm = Message::new();
        dm.message(1, "preamble", preamble(&d.preamble));
        dm.message(2, "type_spec", type_spec(&d.type_spec));
        m.add_message(12, "digests", dm);
    }
    if let Some(ti) = &info.type_info {
        m.message(200, "type_info", type_info(ti));
    }
    m
}

fn match_type(t: &str) -> Value {
    let (number, name) = match t {
        "EXACT" => (2, "EXACT"),
        "LPM" => (3, "LPM"),
        "TERNARY" => (4, "TERNARY"),
        "RANGE" => (5, "RANGE"),
        "OPTIONAL" => (6, "OPTIONAL"),
        _ => (0, "UNSPECIFIED"),
    };
    Value::Enum { number, name }
}

fn preamble(p: &Preamble) -> Message {
    let mut m = Message::new();
    m.u32(1, "id", p.id);
    m.string(2, "name", p.name.as_str());
    m.string(3, "alias", p.alias.as_str());
    m.strings(4, "annotations", p.annotations.iter().cloned());
    doc(&mut m, 5, &p.doc);
    structured(&mut m, 6, &p.structured_annotations);
    m
}

fn doc(m: &mut Message, number: u32, doc: &Option<Doc>) {
    if let Some(d) = doc {
        let mut dm = Message::new();
        dm.string(1, "brief", d.brief.as_str());
        dm.string(2, "description", d.description.as_str());
        m.message(number, "doc", dm);
    }
}

fn type_name(m: &mut Message, number: u32, t: &Option<String>) {
    if let Some(name) = t {
        m.message(number, "type_name", named(name));
    }
}

fn named(name: &str) -> Message {
    let mut m = Message::new();
    m.string(1, "name", name);
    m
}

/// An action parameter (`Action.Param`, `with_doc`) or a packet metadata
/// field (`ControllerPacketMetadata.Metadata`): the same fields up to
/// `bitwidth`, numbered differently after it.
fn param(p: &Param, with_doc: bool) -> Message {
    let mut m = Message::new();
    m.u32(1, "id", p.id);
    m.string(2, "name", p.name.as_str());
    m.strings(3, "annotations", p.annotations.unstructured.iter().cloned());
    m.i32(4, "bitwidth", p.bitwidth as i32);
    if with_doc {
        doc(&mut m, 5, &p.annotations.doc);
        type_name(&mut m, 6, &p.type_name);
        structured(&mut m, 7, &p.annotations.structured);
    } else {
        type_name(&mut m, 5, &p.type_name);
        structured(&mut m, 6, &p.annotations.structured);
    }
    m
}

fn action_call(call: &ActionCall) -> Message {
    let mut m = Message::new();
    m.u32(1, "action_id", call.action_id);
    for (id, value) in &call.arguments {
        let mut a = Message::new();
        a.u32(2, "param_id", *id);
        a.bytes(3, "value", value.clone());
        m.add_message(4, "arguments", a);
    }
    m
}

fn structured(m: &mut Message, number: u32, list: &[Structured]) {
    for s in list {
        let mut sm = Message::new();
        sm.string(1, "name", s.name.as_str());
        if !s.kv_pairs.is_empty() {
            let mut kvl = Message::new();
            for (k, v) in &s.kv_pairs {
                let mut kv = Message::new();
                kv.string(1, "key", k.as_str());
                kv.message(2, "value", expression(v));
                kvl.add_message(1, "kv_pairs", kv);
            }
            sm.message(3, "kv_pair_list", kvl);
        } else if !s.expressions.is_empty() {
            let mut el = Message::new();
            for e in &s.expressions {
                el.add_message(1, "expressions", expression(e));
            }
            sm.message(2, "expression_list", el);
        }
        m.add_message(number, "structured_annotations", sm);
    }
}

/// A `p4.config.v1.Expression` (a oneof: written even when 0 or "").
fn expression(v: &StructuredValue) -> Message {
    let mut m = Message::new();
    match v {
        StructuredValue::String(s) => m.push(1, "string_value", Value::String(s.clone())),
        StructuredValue::Int(i) => m.push(2, "int64_value", Value::I64(*i)),
        StructuredValue::Bool(b) => m.push(3, "bool_value", Value::Bool(*b)),
    };
    m
}

fn annotations_fields(m: &mut Message, a: &Annotations, strings: u32, structured_number: u32) {
    m.strings(strings, "annotations", a.unstructured.iter().cloned());
    structured(m, structured_number, &a.structured);
}

/// A `P4DataTypeSpec` (its `type_spec` oneof).
pub(super) fn type_spec(t: &TypeSpec) -> Message {
    let mut m = Message::new();
    match t {
        TypeSpec::Bit(_) | TypeSpec::Int(_) | TypeSpec::Varbit(_) => {
            m.message(1, "bitstring", bitstring(t));
        }
        TypeSpec::Bool => {
            m.message(2, "bool", Message::new());
        }
        TypeSpec::Tuple(items) => {
            let mut tm = Message::new();
            for i in items {
                tm.add_message(1, "members", type_spec(i));
            }
            m.message(3, "tuple", tm);
        }
        TypeSpec::Struct(n) => {
            m.message(4, "struct", named(n));
        }
        TypeSpec::Header(n) => {
            m.message(5, "header", named(n));
        }
        TypeSpec::HeaderUnion(n) => {
            m.message(6, "header_union", named(n));
        }
        TypeSpec::HeaderStack(n, size) => {
            let mut s = Message::new();
            s.message(1, "header", named(n));
            s.i32(2, "size", *size as i32);
            m.message(7, "header_stack", s);
        }
        TypeSpec::HeaderUnionStack(n, size) => {
            let mut s = Message::new();
            s.message(1, "header_union", named(n));
            s.i32(2, "size", *size as i32);
            m.message(8, "header_union_stack", s);
        }
        TypeSpec::Enum(n) => {
            m.message(9, "enum", named(n));
        }
        TypeSpec::Error => {
            m.message(10, "error", Message::new());
        }
        TypeSpec::SerializableEnum(n) => {
            m.message(11, "serializable_enum", named(n));
        }
        TypeSpec::NewType(n) => {
            m.message(12, "new_type", named(n));
        }
    }
    m
}

/// A `P4BitstringLikeTypeSpec`.
fn bitstring(t: &TypeSpec) -> Message {
    let mut m = Message::new();
    let (number, name, field, width) = match t {
        TypeSpec::Int(w) => (2, "int", "bitwidth", *w),
        TypeSpec::Varbit(w) => (3, "varbit", "max_bitwidth", *w),
        TypeSpec::Bit(w) => (1, "bit", "bitwidth", *w),
        _ => (1, "bit", "bitwidth", 0),
    };
    let mut w = Message::new();
    w.i32(1, field, width as i32);
    m.message(number, name, w);
    m
}

/// A map of named types whose entries are a list of `members` (field 1).
fn members_map<T>(
    types: &BTreeMap<String, Vec<T>>,
    member: impl Fn(&T) -> Message,
) -> Vec<(String, Message)> {
    types
        .iter()
        .map(|(name, members)| {
            let mut s = Message::new();
            for m in members {
                s.add_message(1, "members", member(m));
            }
            (name.clone(), s)
        })
        .collect()
}

/// A member named `name` with `value` (if any) as field 2.
fn member(name: &str, value: Option<(&'static str, Message)>) -> Message {
    let mut m = Message::new();
    m.string(1, "name", name);
    if let Some((field, v)) = value {
        m.message(2, field, v);
    }
    m
}

fn type_info(ti: &TypeInfo) -> Message {
    let mut m = Message::new();
    m.string_map(
        1,
        "structs",
        members_map(&ti.structs, |(f, spec)| {
            member(f, Some(("type_spec", type_spec(spec))))
        }),
    );
    m.string_map(
        2,
        "headers",
        members_map(&ti.headers, |(f, spec)| {
            member(f, Some(("type_spec", bitstring(spec))))
        }),
    );
    m.string_map(
        3,
        "header_unions",
        members_map(&ti.header_unions, |(f, header)| {
            member(f, Some(("header", named(header))))
        }),
    );
    m.string_map(4, "enums", members_map(&ti.enums, |e| member(e, None)));
    if let Some(errors) = &ti.error {
        let mut e = Message::new();
        e.strings(1, "members", errors.iter().cloned());
        m.message(5, "error", e);
    }
    let ser = ti
        .serializable_enums
        .iter()
        .map(|(name, e)| {
            let mut s = Message::new();
            let mut u = Message::new();
            u.i32(1, "bitwidth", e.width as i32);
            s.message(1, "underlying_type", u);
            for (member, value) in &e.members {
                let mut mm = Message::new();
                mm.string(1, "name", member.as_str());
                mm.bytes(2, "value", value.clone());
                s.add_message(2, "members", mm);
            }
            (name.clone(), s)
        })
        .collect();
    m.string_map(6, "serializable_enums", ser);
    let new_types = ti
        .new_types
        .iter()
        .map(|(name, t)| {
            let mut s = Message::new();
            match &t.repr {
                NewTypeRepr::Original(spec) => {
                    s.message(1, "original_type", type_spec(spec));
                }
                NewTypeRepr::Translated(uri, sdn) => {
                    let mut tr = Message::new();
                    tr.string(1, "uri", uri.as_str());
                    match sdn {
                        Some(w) => tr.push(2, "sdn_bitwidth", Value::I32(*w as i32)),
                        None => tr.message(3, "sdn_string", Message::new()),
                    };
                    s.message(2, "translated_type", tr);
                }
            }
            annotations_fields(&mut s, &t.annotations, 3, 4);
            (name.clone(), s)
        })
        .collect();
    m.string_map(7, "new_types", new_types);
    m
}
