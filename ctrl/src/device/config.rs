//! The device config a client pushes with SetForwardingPipelineConfig: a
//! Janus pipeline file or P4 source, perhaps wrapped in PI's
//! `P4DeviceConfig`, compiled in the front end's sandbox; a bmv2 JSON file
//! is refused with a message saying what to push. Also the widths the
//! server takes from the program rather than the P4Info.

use super::PipelineError;
use crate::proto::p4::config::v1 as cfg;
use std::collections::HashMap;

/// The first line of a Janus pipeline file.
const PIPELINE_MAGIC: &[u8] = b"janus-pipeline ";

/// Compiles a device config: a Janus pipeline file (`janus p4 compile -o`),
/// or else P4 source text; either may come wrapped in PI's
/// `p4.tmp.P4DeviceConfig` (as the P4 tutorials' `p4runtime_lib` sends
/// it), whose `device_data` is then the config. Both are compiled in the
/// front end's sandbox ([`janus_p4::driver::IncludeAccess::BuiltinOnly`]):
/// `#include` reaches only the built-in architecture files, nothing on the
/// server's disk is opened, and no diagnostic quotes text from outside the
/// pushed config. (A pipeline file carries no include directories; its
/// preprocessed program is compiled in the sandbox by `Pipeline::compile`.)
///
/// A bmv2 JSON file (p4c's output for bmv2, which controllers written for
/// bmv2 push) is refused with a message saying what to push instead.
pub fn compile_device_config(bytes: &[u8]) -> Result<janus_p4::driver::Compilation, PipelineError> {
    match pi_device_data(bytes) {
        Some(inner) => compile_config_bytes(&inner, "the P4DeviceConfig's device_data"),
        None => compile_config_bytes(bytes, "it"),
    }
}

/// The `device_data` of PI's `P4DeviceConfig` wrapper, when `bytes` are
/// one: neither a pipeline file nor plausible text, a well-formed
/// `P4DeviceConfig`, and its `device_data` not empty.
fn pi_device_data(bytes: &[u8]) -> Option<Vec<u8>> {
    use prost::Message;
    if bytes.starts_with(PIPELINE_MAGIC) || plausible_text(bytes) {
        return None;
    }
    let wrapper = crate::proto::p4::tmp::P4DeviceConfig::decode(bytes).ok()?;
    (!wrapper.device_data.is_empty()).then_some(wrapper.device_data)
}

/// Whether `bytes` could be P4 source (or JSON): UTF-8 without control
/// characters other than white space. A protobuf message starts with a
/// field tag (0x08, 0x12, 0x1a for `P4DeviceConfig`), which is not.
fn plausible_text(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|text| {
        text.chars()
            .all(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r' | '\x0b' | '\x0c'))
    })
}

/// Compiles an unwrapped device config (`what` names it in messages,
/// after "the device config is not a Janus pipeline file or P4 source: ").
fn compile_config_bytes(
    bytes: &[u8],
    what: &str,
) -> Result<janus_p4::driver::Compilation, PipelineError> {
    use janus_p4::driver::{IncludeAccess, Options};
    use janus_p4::pipeline::Pipeline as File;
    if bytes.starts_with(PIPELINE_MAGIC) {
        let file = File::from_bytes(bytes).map_err(|e| {
            PipelineError::BadDeviceConfig(if what == "it" {
                e.to_string()
            } else {
                format!("{what}: {e}")
            })
        })?;
        return file
            .compile()
            .map_err(|e| PipelineError::DoesNotCompile(e.to_string()));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| PipelineError::BadDeviceConfig(format!("{what} is not UTF-8")))?;
    if let Some(keys) = json_object_keys(text) {
        return Err(PipelineError::BadDeviceConfig(json_refusal(what, &keys)));
    }
    let sandbox = Options {
        include_access: IncludeAccess::BuiltinOnly,
        ..Options::default()
    };
    let c = janus_p4::driver::compile_source("device_config.p4", text.to_string(), &sandbox);
    if c.has_errors() {
        return Err(PipelineError::DoesNotCompile(c.render(false)));
    }
    Ok(c)
}

/// Keys only bmv2's JSON format has at its top level.
const BMV2_KEYS: &[&str] = &[
    "header_types",
    "headers",
    "header_stacks",
    "parsers",
    "deparsers",
    "pipelines",
    "actions",
    "calculations",
    "checksums",
    "learn_lists",
    "field_lists",
    "meter_arrays",
    "counter_arrays",
    "register_arrays",
    "extern_instances",
    "__meta__",
];

/// Why a JSON device config is refused, by its top-level keys.
fn json_refusal(what: &str, keys: &[&str]) -> String {
    let push = "push the pipeline file `janus p4 compile PROG.p4 -o PROG.pipeline` writes, or \
                the P4 source, as the device config, with the P4Info of the same program \
                (`janus p4 compile --p4info` writes one; p4c's will do)";
    let bmv2: Vec<&str> = keys
        .iter()
        .copied()
        .filter(|k| BMV2_KEYS.contains(k))
        .take(3)
        .collect();
    if bmv2.is_empty() {
        format!("{what} is a JSON document; {push}")
    } else {
        format!(
            "{what} is a bmv2 JSON file (p4c's output for simple_switch: {}, ...): Janus runs \
             P4 programs, not bmv2 JSON; {push}",
            bmv2.join(", ")
        )
    }
}

/// The top-level keys of `text` when it is one JSON object (RFC 8259),
/// else `None`. Linear in the text and without recursion (a hostile
/// config may nest deeply); keys are returned as written (escapes left in).
fn json_object_keys(text: &str) -> Option<Vec<&str>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Want {
        Value,
        /// After `[`: a value or `]`.
        ValueOrEnd,
        /// After `{`: a key or `}`.
        KeyOrEnd,
        Key,
        Colon,
        CommaOrEnd,
    }
    let b = text.as_bytes();
    let ws = |i: &mut usize| {
        while *i < b.len() && matches!(b[*i], b' ' | b'\t' | b'\n' | b'\r') {
            *i += 1;
        }
    };
    // The end of the string starting at `i` (a `"`), past its closing quote.
    let string_end = |mut i: usize| -> Option<usize> {
        i += 1;
        while i < b.len() {
            match b[i] {
                b'"' => return Some(i + 1),
                b'\\' => match b.get(i + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                    b'u' => {
                        let hex = b.get(i + 2..i + 6)?;
                        if !hex.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        i += 6;
                    }
                    _ => return None,
                },
                0..=0x1f => return None,
                _ => i += 1,
            }
        }
        None
    };
    let mut i = 0;
    ws(&mut i);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    let mut stack: Vec<u8> = Vec::new();
    let mut keys = Vec::new();
    let mut want = Want::Value;
    loop {
        ws(&mut i);
        if want == Want::CommaOrEnd && stack.is_empty() {
            return (i == b.len()).then_some(keys);
        }
        let c = *b.get(i)?;
        want = match want {
            Want::Value | Want::ValueOrEnd => match c {
                b']' if want == Want::ValueOrEnd => {
                    stack.pop();
                    i += 1;
                    Want::CommaOrEnd
                }
                b'{' => {
                    stack.push(b'{');
                    i += 1;
                    Want::KeyOrEnd
                }
                b'[' => {
                    stack.push(b'[');
                    i += 1;
                    Want::ValueOrEnd
                }
                b'"' => {
                    i = string_end(i)?;
                    Want::CommaOrEnd
                }
                b't' | b'f' | b'n' => {
                    let word: &[u8] = match c {
                        b't' => b"true",
                        b'f' => b"false",
                        _ => b"null",
                    };
                    if !b[i..].starts_with(word) {
                        return None;
                    }
                    i += word.len();
                    Want::CommaOrEnd
                }
                b'-' | b'0'..=b'9' => {
                    let start = i;
                    while i < b.len()
                        && matches!(b[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                    {
                        i += 1;
                    }
                    if !b[start..i].iter().any(u8::is_ascii_digit) {
                        return None;
                    }
                    Want::CommaOrEnd
                }
                _ => return None,
            },
            Want::KeyOrEnd | Want::Key => match c {
                b'}' if want == Want::KeyOrEnd => {
                    stack.pop();
                    i += 1;
                    Want::CommaOrEnd
                }
                b'"' => {
                    let end = string_end(i)?;
                    if stack.len() == 1 {
                        keys.push(&text[i + 1..end - 1]);
                    }
                    i = end;
                    Want::Colon
                }
                _ => return None,
            },
            Want::Colon if c == b':' => {
                i += 1;
                Want::Value
            }
            Want::Colon => return None,
            Want::CommaOrEnd => match (stack.last(), c) {
                (Some(b'{'), b',') => {
                    i += 1;
                    Want::Key
                }
                (Some(b'['), b',') => {
                    i += 1;
                    Want::Value
                }
                (Some(b'{'), b'}') | (Some(b'['), b']') => {
                    stack.pop();
                    i += 1;
                    Want::CommaOrEnd
                }
                _ => return None,
            },
        };
    }
}

/// Gives the controller header fields of `info` that have a `type_name`
/// (translated types: the P4Info says their SDN width) the width they
/// have in the program's header, which PacketOut and PacketIn metadata
/// are packed by (their values are mapped, `crate::translation`).
pub(super) fn data_plane_widths(info: &mut cfg::P4Info, program: &janus_p4::ir::Program) {
    for h in &mut info.controller_packet_metadata {
        let name = h.preamble.as_ref().map_or("", |p| p.name.as_str());
        let Some(fields) = program
            .controller_headers
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, ty)| program.types.struct_info(*ty))
            .map(|s| &s.fields)
        else {
            continue;
        };
        for m in &mut h.metadata {
            if m.type_name.as_ref().is_none_or(|t| t.name.is_empty()) {
                continue;
            }
            if let Some(f) = fields.iter().find(|f| f.name == m.name) {
                m.bitwidth = width(&program.types, f.ty, 0) as i32;
            }
        }
    }
}

/// The width of a type on the wire (through serializable enums and new
/// types); 0 for one without a fixed width.
fn width(types: &janus_p4::types::TypeTable, ty: janus_p4::types::TyId, depth: u32) -> u32 {
    use janus_p4::types::Ty;
    match types.get(ty) {
        Ty::Bits { width, .. } => *width,
        Ty::Bool => 1,
        _ if depth < 16 => types
            .underlying(ty)
            .map_or(0, |u| width(types, u, depth + 1)),
        _ => 0,
    }
}

/// The width of each new type (`type bit<W> T`) of the program, by name.
pub(super) fn new_type_widths(program: &janus_p4::ir::Program) -> HashMap<String, u32> {
    use janus_p4::types::{Ty, TyId};
    let types = &program.types;
    (0..types.len() as u32)
        .filter_map(|i| match types.get(TyId(i)) {
            Ty::NewType { name, .. } => Some((name.clone(), width(types, TyId(i), 0))),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod device_config_tests {
    use super::*;

    #[test]
    fn json_objects_are_recognised_by_their_top_level_keys() {
        let keys = json_object_keys(
            r#" { "a": {"inner": [1, -2.5e3, true, null, "x\"y\u00e9"]}, "b" : [], "c":{} } "#,
        );
        assert_eq!(keys, Some(vec!["a", "b", "c"]));
        assert_eq!(json_object_keys("{}"), Some(vec![]));
        for bad in [
            "",
            "[]",
            "{",
            "{\"a\"}",
            "{\"a\": }",
            "{\"a\": 1,}",
            "{\"a\": 1} x",
            "{\"a\": [1 2]}",
            "{\"a\": \"\\q\"}",
            "{\"a\": tru}",
            "{ not json",
        ] {
            assert_eq!(json_object_keys(bad), None, "{bad}");
        }
        // Deep nesting costs no stack.
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(1 << 20), "]".repeat(1 << 20));
        assert_eq!(json_object_keys(&deep), Some(vec!["a"]));
        assert_eq!(json_object_keys(&"[".repeat(1 << 20)), None);
    }

    #[test]
    fn only_a_binary_p4_device_config_is_unwrapped() {
        use prost::Message;
        let wrap = |data: &[u8]| {
            crate::proto::p4::tmp::P4DeviceConfig {
                reassign: true,
                extras: None,
                device_data: data.to_vec(),
            }
            .encode_to_vec()
        };
        let inner = b"janus-pipeline 1\n...".to_vec();
        assert_eq!(pi_device_data(&wrap(&inner)), Some(inner.clone()));
        // No device_data: not a wrapper.
        assert_eq!(pi_device_data(&wrap(b"")), None);
        // Text and pipeline files are never taken for one, even when they
        // would decode as protobuf.
        assert_eq!(pi_device_data(b"control C() { apply { } }"), None);
        assert_eq!(pi_device_data(&inner), None);
        assert_eq!(pi_device_data(b"\x1a\x02ab"), Some(b"ab".to_vec()));
        assert!(plausible_text(b"\t\r\n\x0c text"));
        assert!(!plausible_text(b"\x1a\x02ab"));
    }
}
