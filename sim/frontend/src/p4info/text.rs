//! P4Info in protobuf text format, as p4c writes it (`--p4runtime-files
//! x.txt`: the C++ library's `TextFormat::Printer`, after a two-line
//! header naming the proto file and message).

use super::annotations::{Annotations, Doc, Structured, StructuredValue};
use super::{ActionCall, P4Info, Param, Preamble};
use std::fmt::Write;

/// The header p4c writes before the message.
pub const HEADER: &str =
    "# proto-file: p4/config/v1/p4info.proto\n# proto-message: p4.config.v1.P4Info\n\n";

/// Renders P4Info in protobuf text format, header first.
pub fn to_text(info: &P4Info) -> String {
    let mut w = Writer::default();
    w.out.push_str(HEADER);
    let pk = &info.pkg_info;
    if *pk != super::PkgInfo::default() {
        w.open("pkg_info");
        w.string("name", &pk.name);
        w.string("version", &pk.version);
        w.doc(&pk.doc);
        for a in &pk.annotations {
            w.string("annotations", a);
        }
        w.string("arch", &pk.arch);
        w.string("organization", &pk.organization);
        w.string("contact", &pk.contact);
        w.string("url", &pk.url);
        w.structured(&pk.structured_annotations);
        w.close();
    }
    for t in &info.tables {
        w.open("tables");
        w.preamble(&t.preamble);
        for m in &t.match_fields {
            w.open("match_fields");
            w.uint("id", m.id as u64);
            w.string("name", &m.name);
            w.annotation_strings(&m.annotations);
            w.uint("bitwidth", m.bitwidth as u64);
            match m.match_type.strip_prefix("other:") {
                Some(other) => {
                    w.doc(&m.annotations.doc);
                    w.string("other_match_type", other);
                }
                None => {
                    w.raw("match_type", &m.match_type);
                    w.doc(&m.annotations.doc);
                }
            }
            w.type_name(&m.type_name);
            w.structured(&m.annotations.structured);
            w.close();
        }
        for a in &t.action_refs {
            w.open("action_refs");
            w.uint("id", a.id as u64);
            for an in &a.annotations {
                w.string("annotations", an);
            }
            if a.scope != "TABLE_AND_DEFAULT" {
                w.raw("scope", a.scope);
            }
            w.structured(&a.structured_annotations);
            w.close();
        }
        if let Some(id) = t.const_default_action_id {
            w.uint("const_default_action_id", id as u64);
        }
        if let Some(call) = &t.initial_default_action {
            w.action_call("initial_default_action", call);
        }
        if let Some(id) = t.implementation_id {
            w.uint("implementation_id", id as u64);
        }
        for id in &t.direct_resource_ids {
            w.uint("direct_resource_ids", *id as u64);
        }
        w.uint("size", t.size);
        if t.idle_timeout {
            w.raw("idle_timeout_behavior", "NOTIFY_CONTROL");
        }
        if t.is_const_table {
            w.raw("is_const_table", "true");
        }
        if t.has_initial_entries {
            w.raw("has_initial_entries", "true");
        }
        w.close();
    }
    for a in &info.actions {
        w.open("actions");
        w.preamble(&a.preamble);
        for p in &a.params {
            w.param("params", p, true);
        }
        w.close();
    }
    for ap in &info.action_profiles {
        w.open("action_profiles");
        w.preamble(&ap.preamble);
        for t in &ap.table_ids {
            w.uint("table_ids", *t as u64);
        }
        if ap.with_selector {
            w.raw("with_selector", "true");
        }
        w.uint("size", ap.size);
        if ap.max_group_size != 0 {
            w.raw("max_group_size", &ap.max_group_size.to_string());
        }
        w.close();
    }
    for (field, list) in [
        ("counters", &info.counters),
        ("direct_counters", &info.direct_counters),
        ("meters", &info.meters),
        ("direct_meters", &info.direct_meters),
    ] {
        for c in list {
            w.open(field);
            w.preamble(&c.preamble);
            w.open("spec");
            w.raw("unit", c.unit);
            w.close();
            match c.direct_table_id {
                Some(t) => w.uint("direct_table_id", t as u64),
                None => w.uint("size", c.size),
            }
            w.close();
        }
    }
    for h in &info.controller_packet_metadata {
        w.open("controller_packet_metadata");
        w.preamble(&h.preamble);
        for m in &h.metadata {
            w.param("metadata", m, false);
        }
        w.close();
    }
    for v in &info.value_sets {
        w.open("value_sets");
        w.preamble(&v.preamble);
        for m in &v.fields {
            w.open("match");
            w.uint("id", m.id as u64);
            w.string("name", &m.name);
            w.uint("bitwidth", m.bitwidth as u64);
            w.raw("match_type", &m.match_type);
            w.close();
        }
        w.uint("size", v.size);
        w.close();
    }
    for r in &info.registers {
        w.open("registers");
        w.preamble(&r.preamble);
        w.open("type_spec");
        w.open("bitstring");
        w.open("bit");
        w.uint("bitwidth", r.bitwidth as u64);
        w.close();
        w.close();
        w.close();
        w.uint("size", r.size);
        w.close();
    }
    for d in &info.digests {
        w.open("digests");
        w.preamble(&d.preamble);
        w.open("type_spec");
        w.open("struct");
        w.string("name", &d.preamble.name);
        w.close();
        w.close();
        w.close();
    }
    w.type_info(info);
    w.out
}

/// Text-format output with two-space indentation.
#[derive(Default)]
struct Writer {
    out: String,
    depth: usize,
}

impl Writer {
    /// `type_info`: the structs digests carry (a map, printed by key).
    fn type_info(&mut self, info: &P4Info) {
        let mut structs: Vec<(&str, &Vec<(String, u32)>)> = info
            .digests
            .iter()
            .map(|d| (d.preamble.name.as_str(), &d.fields))
            .collect();
        if structs.is_empty() {
            // p4c creates `type_info` whenever it converts a type: for
            // any table, action parameter, extern or packet metadata.
            if super::has_type_info(info) {
                self.open("type_info");
                self.close();
            }
            return;
        }
        structs.sort_by(|a, b| a.0.cmp(b.0));
        structs.dedup_by(|a, b| a.0 == b.0);
        self.open("type_info");
        for (name, fields) in structs {
            self.open("structs");
            self.string("key", name);
            self.open("value");
            for (f, width) in fields {
                self.open("members");
                self.string("name", f);
                self.open("type_spec");
                self.open("bitstring");
                self.open("bit");
                self.uint("bitwidth", u64::from(*width));
                self.close();
                self.close();
                self.close();
                self.close();
            }
            self.close();
            self.close();
        }
        self.close();
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    fn open(&mut self, name: &str) {
        self.indent();
        let _ = writeln!(self.out, "{name} {{");
        self.depth += 1;
    }

    fn close(&mut self) {
        self.depth -= 1;
        self.indent();
        self.out.push_str("}\n");
    }

    /// `name: value` as given (numbers, enums, booleans).
    fn raw(&mut self, name: &str, value: &str) {
        self.indent();
        let _ = writeln!(self.out, "{name}: {value}");
    }

    /// A proto3 integer: left out when 0.
    fn uint(&mut self, name: &str, value: u64) {
        if value != 0 {
            self.raw(name, &value.to_string());
        }
    }

    /// A proto3 string: left out when empty.
    fn string(&mut self, name: &str, value: &str) {
        if !value.is_empty() {
            self.raw(name, &quote(value.as_bytes()));
        }
    }

    fn bytes(&mut self, name: &str, value: &[u8]) {
        if !value.is_empty() {
            self.raw(name, &quote(value));
        }
    }

    fn doc(&mut self, doc: &Option<Doc>) {
        if let Some(d) = doc {
            self.open("doc");
            self.string("brief", &d.brief);
            self.string("description", &d.description);
            self.close();
        }
    }

    fn preamble(&mut self, p: &Preamble) {
        self.open("preamble");
        self.uint("id", p.id as u64);
        self.string("name", &p.name);
        self.string("alias", &p.alias);
        for a in &p.annotations {
            self.string("annotations", a);
        }
        self.doc(&p.doc);
        self.structured(&p.structured_annotations);
        self.close();
    }

    fn annotation_strings(&mut self, a: &Annotations) {
        for s in &a.unstructured {
            self.string("annotations", s);
        }
    }

    fn type_name(&mut self, t: &Option<String>) {
        if let Some(name) = t {
            self.open("type_name");
            self.string("name", name);
            self.close();
        }
    }

    /// An action parameter (`with_doc`) or a packet metadata field.
    fn param(&mut self, field: &str, p: &Param, with_doc: bool) {
        self.open(field);
        self.uint("id", p.id as u64);
        self.string("name", &p.name);
        self.annotation_strings(&p.annotations);
        self.uint("bitwidth", p.bitwidth as u64);
        if with_doc {
            self.doc(&p.annotations.doc);
        }
        self.type_name(&p.type_name);
        self.structured(&p.annotations.structured);
        self.close();
    }

    fn action_call(&mut self, field: &str, call: &ActionCall) {
        self.open(field);
        self.uint("action_id", call.action_id as u64);
        for (id, value) in &call.arguments {
            self.open("arguments");
            self.uint("param_id", *id as u64);
            self.bytes("value", value);
            self.close();
        }
        self.close();
    }

    fn structured(&mut self, list: &[Structured]) {
        for s in list {
            self.open("structured_annotations");
            self.string("name", &s.name);
            if !s.expressions.is_empty() {
                self.open("expression_list");
                for e in &s.expressions {
                    self.open("expressions");
                    self.value(e);
                    self.close();
                }
                self.close();
            }
            if !s.kv_pairs.is_empty() {
                self.open("kv_pair_list");
                for (k, v) in &s.kv_pairs {
                    self.open("kv_pairs");
                    self.string("key", k);
                    self.open("value");
                    self.value(v);
                    self.close();
                    self.close();
                }
                self.close();
            }
            self.close();
        }
    }

    /// A `p4.config.v1.Expression` (a oneof: printed even when 0 or "").
    fn value(&mut self, v: &StructuredValue) {
        match v {
            StructuredValue::String(s) => self.raw("string_value", &quote(s.as_bytes())),
            StructuredValue::Int(i) => self.raw("int64_value", &i.to_string()),
            StructuredValue::Bool(b) => self.raw("bool_value", if *b { "true" } else { "false" }),
        }
    }
}

/// A text-format string literal, escaped as the C++ library's `CEscape`:
/// `\n \r \t \" \' \\`, other control bytes and every byte from 0x7f up
/// in three-digit octal.
pub fn quote(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 2);
    s.push('"');
    for &b in bytes {
        match b {
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            b'\t' => s.push_str("\\t"),
            b'"' => s.push_str("\\\""),
            b'\'' => s.push_str("\\'"),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\{b:03o}");
            }
        }
    }
    s.push('"');
    s
}
