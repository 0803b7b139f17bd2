//! A committed pipeline as the P4Runtime server sees it: the behavioural
//! model running the program, the P4Info the client pushed, and the maps
//! from P4Runtime ids to the switch's table slots, key positions and
//! action indexes, built once when the pipeline is loaded. Also the
//! translation of `p4.v1.TableEntry` to and from engine entries, with the
//! checks the P4Runtime specification asks for.

use crate::codec::{RpcError, from_bytes, invalid, to_bytes};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::translation::{Sdn, Tr};
use janus_engine::table::{Entry, FieldMatch, MatchKind, TableError};
use janus_engine::target::Target;
use janus_engine::value::Bits;
use std::collections::HashMap;
use std::sync::Arc;
use thiserror::Error;
use tonic::Code;

/// Why a device config cannot become a pipeline.
#[derive(Debug, Error)]
pub enum PipelineError {
    #[error("the device config is not a Janus pipeline file or P4 source: {0}")]
    BadDeviceConfig(String),
    #[error("the program does not compile:\n{0}")]
    DoesNotCompile(String),
    #[error("cannot load the program: {0}")]
    Load(#[from] janus_engine::pipeline::LoadError),
    #[error("the P4Info does not match the program: {0}")]
    P4InfoMismatch(String),
    #[error("the program's P4Info and the switch disagree: {0}")]
    Internal(String),
    #[error("the program's tenant annotations are wrong: {0}")]
    TenantPolicy(String),
    #[error("the translation mappings do not fit the program: {0}")]
    Translation(String),
}

impl PipelineError {
    pub fn code(&self) -> Code {
        match self {
            PipelineError::Internal(_) => Code::Internal,
            _ => Code::InvalidArgument,
        }
    }
}

/// A key field of a table: its P4Runtime id, match kind and width.
#[derive(Clone, Debug)]
pub(crate) struct FieldMap {
    id: u32,
    kind: MatchKind,
    width: u32,
    signed: bool,
    /// The field's translated type, if it has one.
    tr: Option<Tr>,
}

/// An action a table lists.
#[derive(Clone, Debug)]
pub(crate) struct ActionMap {
    /// Index in the switch table's action list.
    index: usize,
    /// (param id, width), in the action's parameter order.
    params: Vec<(u32, u32)>,
    /// Each parameter's translated type, if it has one (same order).
    param_tr: Vec<Option<Tr>>,
    /// `cfg::action_ref::Scope`.
    scope: i32,
    name: String,
}

/// A table: where it lives in the switch and how its ids map.
#[derive(Clone, Debug)]
pub(crate) struct TableMap {
    pub(crate) id: u32,
    pub(crate) slot: usize,
    pub(crate) name: String,
    /// The action profile or selector (P4Info id) its entries point into.
    pub(crate) profile: Option<u32>,
    /// In the switch's key order (the P4Info's order too).
    fields: Vec<FieldMap>,
    actions: HashMap<u32, ActionMap>,
    /// P4Runtime action id of each index of the switch table's list.
    action_ids: Vec<u32>,
    is_const: bool,
    const_default: bool,
    uses_priority: bool,
    /// The default action when the pipeline was loaded.
    initial_default: Option<(usize, Vec<Bits>)>,
}

impl TableMap {
    /// The position in the switch's key of the match field `id`.
    pub(crate) fn field_position(&self, id: u32) -> Option<usize> {
        self.fields.iter().position(|f| f.id == id)
    }

    /// The translated type of each key field (in the switch's key order).
    pub(crate) fn field_trs(&self) -> impl Iterator<Item = &Option<Tr>> {
        self.fields.iter().map(|f| &f.tr)
    }

    /// The translated type of each parameter of the action with P4Runtime
    /// id `id` (empty for an action the table does not list).
    pub(crate) fn param_trs_of(&self, id: u32) -> &[Option<Tr>] {
        self.actions.get(&id).map_or(&[], |a| &a.param_tr)
    }

    /// The same, for the action at `index` of the switch table's list.
    pub(crate) fn param_trs(&self, index: usize) -> &[Option<Tr>] {
        self.action_ids
            .get(index)
            .map_or(&[], |id| self.param_trs_of(*id))
    }
}

/// What a table entry written holds: a member, group or one-shot action
/// set of the table's action profile, or an action with its arguments.
enum EntryTarget {
    Indirect(crate::profiles::Indirect),
    Direct(usize, Vec<Bits>),
}

/// A loaded pipeline.
pub struct ForwardingPipeline {
    /// The config as the client set it (P4Info, device config, cookie).
    pub config: p4::ForwardingPipelineConfig,
    pub switch: Box<dyn Target>,
    /// Shared, so an update holds its table's map without copying it.
    pub(crate) tables: HashMap<u32, Arc<TableMap>>,
    /// Table ids in P4Info order, for wildcard reads.
    order: Vec<u32>,
    /// Counters, registers, the replication engine, controller headers.
    pub(crate) res: crate::resources::Resources,
    /// Meters and direct meters with the configs written.
    pub(crate) meters: crate::meters::Meters,
    /// Action profiles, selectors and value sets.
    pub(crate) profiles: crate::profiles::Profiles,
    /// Digest configs and the lists sent and not yet acknowledged.
    pub(crate) digests: crate::digests::Digests,
    /// What tenant roles may touch (the program's tenant annotations).
    pub(crate) tenant_policy: crate::roles::TenantPolicy,
    /// Table entries' metadata and idle timeouts.
    pub(crate) entry_data: crate::entry_data::EntryData,
    /// Tenant quotas of the tables shared between tenants.
    pub(crate) quotas: crate::quotas::Quotas,
    /// The mappings of the translated types (`@p4runtime_translation`).
    pub(crate) translations: crate::translation::Shared,
}

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
fn data_plane_widths(info: &mut cfg::P4Info, program: &janus_p4::ir::Program) {
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
fn new_type_widths(program: &janus_p4::ir::Program) -> HashMap<String, u32> {
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

impl ForwardingPipeline {
    /// Builds a pipeline from a config: checks the config's P4Info on its
    /// own, compiles the device config, checks that the P4Info describes
    /// the program (by names and shapes, [`crate::p4info_check::check`]),
    /// loads the switch and maps the P4Info's ids. The pipeline then
    /// speaks in the pushed P4Info's ids (its `config` keeps the P4Info as
    /// pushed, for GetForwardingPipelineConfig and the journal); what the
    /// server reads besides ids (widths, sizes, tenant annotations) is the
    /// program's.
    pub fn build(
        config: p4::ForwardingPipelineConfig,
    ) -> Result<ForwardingPipeline, PipelineError> {
        ForwardingPipeline::build_with(config, &crate::translation::TranslationFile::default())
    }

    /// [`ForwardingPipeline::build`], with the operator's translation mappings
    /// (`janus ctrl serve --translations`) pinned before anything else.
    pub fn build_with(
        config: p4::ForwardingPipelineConfig,
        file: &crate::translation::TranslationFile,
    ) -> Result<ForwardingPipeline, PipelineError> {
        let pushed = config
            .p4info
            .as_ref()
            .ok_or_else(|| PipelineError::P4InfoMismatch("the config has no P4Info".into()))?;
        crate::p4info_check::validate(pushed)
            .map_err(|e| PipelineError::P4InfoMismatch(format!("it is not a valid P4Info: {e}")))?;
        let c = compile_device_config(&config.p4_device_config)?;
        let program =
            c.ir.ok_or_else(|| PipelineError::DoesNotCompile("no program".into()))?;
        let own = crate::p4info::to_proto(&janus_p4::p4info::build(&program));
        let mut info = crate::p4info_check::compare(pushed, &own)
            .map_err(PipelineError::P4InfoMismatch)?
            .apply(&own);
        data_plane_widths(&mut info, &program);
        let widths = new_type_widths(&program);
        let mut translations =
            crate::translation::Translations::build(&info, |name| widths.get(name).copied())
                .map_err(PipelineError::P4InfoMismatch)?;
        translations
            .pin_file(file)
            .map_err(PipelineError::Translation)?;
        let switch = janus_targets::load(program)?;
        ForwardingPipeline::map(config, switch, &info, translations)
    }

    /// Maps the P4Info's ids onto the switch's tables, counters, meters,
    /// profiles, digests, controller headers and tenant policy. `info` is
    /// the pushed P4Info as the server uses it: the program's P4Info with
    /// the pushed ids ([`crate::p4info_check::Renumbering::apply`]), so
    /// every id the pipeline answers to or reports is the client's.
    fn map(
        config: p4::ForwardingPipelineConfig,
        switch: Box<dyn Target>,
        info: &cfg::P4Info,
        translations: crate::translation::Translations,
    ) -> Result<ForwardingPipeline, PipelineError> {
        let internal = PipelineError::Internal;
        let translations = std::sync::Arc::new(std::sync::Mutex::new(translations));
        let tenant_policy =
            crate::roles::TenantPolicy::from_p4info(info).map_err(PipelineError::TenantPolicy)?;
        let actions: HashMap<u32, &cfg::Action> = info
            .actions
            .iter()
            .filter_map(|a| Some((a.preamble.as_ref()?.id, a)))
            .collect();
        let mut tables = HashMap::new();
        let mut order = Vec::new();
        for t in &info.tables {
            let pre = t.preamble.clone().unwrap_or_default();
            let slot = switch
                .tables()
                .iter()
                .position(|x| x.name == pre.name)
                .ok_or_else(|| internal(format!("no switch table {}", pre.name)))?;
            let tinfo = &switch.tables()[slot];
            let state = switch
                .table(slot)
                .ok_or_else(|| internal(format!("no state for table {}", pre.name)))?;
            if tinfo.keys.len() != t.match_fields.len() || state.keys.len() != t.match_fields.len()
            {
                return Err(internal(format!("{}: key count", pre.name)));
            }
            let mut fields = Vec::new();
            for ((m, k), spec) in t.match_fields.iter().zip(&tinfo.keys).zip(&state.keys) {
                // A translated field's P4Info width is its SDN width; its
                // values are mapped to the data plane's (`crate::translation`).
                let translated = m.type_name.as_ref().is_some_and(|t| !t.name.is_empty());
                if (!translated && m.bitwidth as u32 != spec.width) || k.width != spec.width {
                    return Err(internal(format!("{}: width of {}", pre.name, m.name)));
                }
                fields.push(FieldMap {
                    id: m.id,
                    kind: spec.kind,
                    width: spec.width,
                    signed: spec.signed,
                    tr: Tr::of(&translations, m.type_name.as_ref()),
                });
            }
            let mut amap = HashMap::new();
            let mut action_ids = vec![0; tinfo.actions.len()];
            for r in &t.action_refs {
                let a = actions
                    .get(&r.id)
                    .ok_or_else(|| internal(format!("{}: action id {}", pre.name, r.id)))?;
                let aname = a.preamble.as_ref().map_or("", |p| p.name.as_str());
                let index = tinfo
                    .actions
                    .iter()
                    .position(|x| x.name == aname)
                    .ok_or_else(|| internal(format!("{}: action {aname}", pre.name)))?;
                // The data plane's widths (a translated parameter's P4Info
                // width is its SDN width).
                let widths: Vec<u32> = tinfo.actions[index].params.iter().map(|p| p.1).collect();
                let agrees = widths.len() == a.params.len()
                    && a.params.iter().zip(&widths).all(|(p, w)| {
                        p.bitwidth as u32 == *w
                            || p.type_name.as_ref().is_some_and(|t| !t.name.is_empty())
                    });
                if !agrees {
                    return Err(internal(format!("{}: parameters of {aname}", pre.name)));
                }
                let params: Vec<(u32, u32)> = a
                    .params
                    .iter()
                    .zip(&widths)
                    .map(|(p, w)| (p.id, *w))
                    .collect();
                action_ids[index] = r.id;
                let param_tr = a
                    .params
                    .iter()
                    .map(|p| Tr::of(&translations, p.type_name.as_ref()))
                    .collect();
                amap.insert(
                    r.id,
                    ActionMap {
                        index,
                        params,
                        param_tr,
                        scope: r.scope,
                        name: aname.to_string(),
                    },
                );
            }
            let uses_priority = fields.iter().any(|f| {
                matches!(
                    f.kind,
                    MatchKind::Ternary | MatchKind::Range | MatchKind::Optional
                )
            });
            tables.insert(
                pre.id,
                Arc::new(TableMap {
                    id: pre.id,
                    slot,
                    name: pre.name.clone(),
                    profile: (t.implementation_id != 0).then_some(t.implementation_id),
                    fields,
                    actions: amap,
                    action_ids,
                    is_const: t.is_const_table,
                    const_default: t.const_default_action_id != 0,
                    uses_priority,
                    initial_default: state.default.clone(),
                }),
            );
            order.push(pre.id);
        }
        let res = crate::resources::Resources::build(info, switch.as_ref(), &translations);
        let meters = crate::meters::Meters::build(info);
        let profiles = crate::profiles::Profiles::build(info, switch.as_ref());
        let digests = crate::digests::Digests::build(info, &translations);
        let quotas = crate::quotas::Quotas::build(info, &tenant_policy, &tables)
            .map_err(PipelineError::TenantPolicy)?;
        Ok(ForwardingPipeline {
            config,
            switch,
            tables,
            order,
            res,
            meters,
            profiles,
            digests,
            tenant_policy,
            entry_data: Default::default(),
            quotas,
            translations,
        })
    }

    pub(crate) fn table(&self, id: u32) -> Result<&Arc<TableMap>, RpcError> {
        self.tables
            .get(&id)
            .ok_or_else(|| RpcError::new(Code::NotFound, format!("no table with id {id}")))
    }

    /// The name of table `id` (NOT_FOUND if there is none).
    pub(crate) fn table_name(&self, id: u32) -> Result<&str, RpcError> {
        self.table(id).map(|t| t.name.as_str())
    }

    /// Applies one update of a Write batch. An update that fails leaves
    /// no trace, translation mappings included.
    pub fn apply(&mut self, update: &p4::Update) -> Result<(), RpcError> {
        let mark = crate::translation::lock(&self.translations).begin();
        let mut result = self.apply_update(update);
        // A translated type found full: take back the values nothing
        // holds any more and try once more. Not inside an all-or-nothing
        // batch, whose rollback could not give back values taken so.
        let (full, nested) = {
            let mut tr = crate::translation::lock(&self.translations);
            (tr.take_exhausted(), tr.nested())
        };
        if let (Err(_), Some(ty), false) = (&result, full, nested)
            && self.reclaim(ty) > 0
        {
            result = self.apply_update(update);
            crate::translation::lock(&self.translations).take_exhausted();
        }
        crate::translation::lock(&self.translations).end(mark, result.is_ok());
        result
    }

    fn apply_update(&mut self, update: &p4::Update) -> Result<(), RpcError> {
        use p4::entity::Entity as E;
        use p4::update::Type;
        let kind = Type::try_from(update.r#type)
            .map_err(|_| invalid(format!("unknown update type {}", update.r#type)))?;
        if kind == Type::Unspecified {
            return Err(invalid("update type UNSPECIFIED"));
        }
        let entity = update
            .entity
            .as_ref()
            .and_then(|e| e.entity.as_ref())
            .ok_or_else(|| invalid("the update has no entity"))?;
        match entity {
            E::TableEntry(te) => self.write_table_entry(kind, te),
            E::CounterEntry(c) => self.write_counter(kind, c),
            E::RegisterEntry(r) => self.write_register(kind, r),
            E::PacketReplicationEngineEntry(p) => self.write_pre(kind, p),
            E::MeterEntry(m) => self.write_meter(kind, m),
            E::DirectMeterEntry(m) => self.write_direct_meter(kind, m),
            E::ActionProfileMember(m) => self.write_member(kind, m),
            E::ActionProfileGroup(g) => self.write_profile_group(kind, g),
            E::ValueSetEntry(v) => self.write_value_set(kind, v),
            E::DigestEntry(d) => self.write_digest(kind, d),
            E::DirectCounterEntry(d) => self.write_direct_counter(kind, d),
            E::ExternEntry(x)
                if x.extern_type_id == crate::translation::TRANSLATION_EXTERN_TYPE =>
            {
                self.write_translation(kind, x)
            }
            E::ExternEntry(x) => self.write_extern(kind, x),
        }
    }

    fn write_table_entry(
        &mut self,
        kind: p4::update::Type,
        te: &p4::TableEntry,
    ) -> Result<(), RpcError> {
        use p4::update::Type;
        let t = self.table(te.table_id)?.clone();
        if te.is_default_action {
            return self.write_default(&t, kind, te);
        }
        if t.is_const {
            return Err(RpcError::new(
                Code::PermissionDenied,
                format!("table {} is const: its entries cannot be changed", t.name),
            ));
        }
        let key = key_of(&t, te, kind == Type::Insert)?;
        let priority = i64::from(te.priority);
        let table_error = |e: TableError| match e {
            TableError::Duplicate => RpcError::new(
                Code::AlreadyExists,
                format!("{}: an entry with this key already exists", t.name),
            ),
            TableError::NotFound => RpcError::new(
                Code::NotFound,
                format!("{}: no entry with this key", t.name),
            ),
            TableError::Full(n) => RpcError::new(
                Code::ResourceExhausted,
                format!("{}: the table is full ({n} entries)", t.name),
            ),
            other => invalid(format!("{}: {other}", t.name)),
        };
        match kind {
            Type::Insert | Type::Modify => {
                // Everything is checked before the switch changes: an
                // update answered with an error leaves no trace.
                self.check_entry_data(&t, te)?;
                self.check_entry_resources(&t, te)?;
                let inserted = kind == Type::Insert;
                let target = match t.profile {
                    Some(p) => EntryTarget::Indirect(self.indirect_target(
                        p,
                        &t,
                        te.action.as_ref(),
                        inserted,
                        &key,
                        priority,
                    )?),
                    None => {
                        self.refuse_group_action(&t, te.action.as_ref())?;
                        let (action, args) = action_of(&t, te.action.as_ref(), false)?;
                        EntryTarget::Direct(action, args)
                    }
                };
                if inserted {
                    self.check_quota(&t, &key)?;
                }
                let vanished = || RpcError::new(Code::Internal, "table slot vanished");
                match target {
                    EntryTarget::Indirect(plan) => {
                        // A one-shot set's group goes in last, and comes
                        // out again if the entry cannot change.
                        let x = self.install_indirect(plan)?;
                        let done = match self.switch.table_mut(t.slot) {
                            Some(state) if inserted => state
                                .insert_indirect(key.clone(), priority, x.target())
                                .map_err(table_error),
                            Some(state) => state
                                .modify_indirect(&key, priority, x.target())
                                .map_err(table_error),
                            None => Err(vanished()),
                        };
                        match done {
                            Ok(()) => self.indirect_written(x),
                            Err(e) => {
                                self.indirect_refused(x);
                                return Err(e);
                            }
                        }
                    }
                    EntryTarget::Direct(action, args) => {
                        let state = self.switch.table_mut(t.slot).ok_or_else(vanished)?;
                        if inserted {
                            state.insert(Entry {
                                key: key.clone(),
                                priority,
                                action,
                                args,
                            })
                        } else {
                            state.modify(&key, priority, action, args)
                        }
                        .map_err(table_error)?;
                    }
                }
                if inserted {
                    self.count_quota(&t, &key, true);
                }
                self.record_entry_data(&t, te, &key, inserted);
                self.entry_resources(&t, te, &key, priority)
            }
            Type::Delete => {
                let state = self
                    .switch
                    .table_mut(t.slot)
                    .ok_or_else(|| RpcError::new(Code::Internal, "table slot vanished"))?;
                let index = state.index_of(&key, priority);
                let old = index.and_then(|i| state.target(i));
                state.remove(&key, priority).map_err(table_error)?;
                self.count_quota(&t, &key, false);
                if let Some(p) = t.profile {
                    self.indirect_deleted(p, old);
                }
                if let Some(index) = index {
                    self.forget_direct_meter(te.table_id, index);
                    self.forget_entry_data(te.table_id, index);
                }
                Ok(())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    fn write_default(
        &mut self,
        t: &TableMap,
        kind: p4::update::Type,
        te: &p4::TableEntry,
    ) -> Result<(), RpcError> {
        use p4::update::Type;
        if !te.r#match.is_empty() || te.priority != 0 {
            return Err(invalid(
                "a default entry has no match fields and priority 0",
            ));
        }
        if kind != Type::Modify {
            return Err(invalid(
                "a default entry can only be modified (INSERT and DELETE are not allowed)",
            ));
        }
        if t.const_default {
            return Err(RpcError::new(
                Code::PermissionDenied,
                format!("table {}: the default action is const", t.name),
            ));
        }
        let default = match te.action.as_ref() {
            // MODIFY without an action restores the program's default.
            None => t.initial_default.clone(),
            Some(a) => {
                self.refuse_group_action(t, Some(a))?;
                Some(action_of(t, Some(a), true)?)
            }
        };
        let state = self
            .switch
            .table_mut(t.slot)
            .ok_or_else(|| RpcError::new(Code::Internal, "table slot vanished"))?;
        state.default = default;
        Ok(())
    }

    /// The table entries a Read entity asks for, in canonical form.
    pub fn read(&self, filter: &p4::TableEntry) -> Result<Vec<p4::TableEntry>, RpcError> {
        let ids: Vec<u32> = if filter.table_id == 0 {
            self.order.clone()
        } else {
            self.table(filter.table_id)?;
            vec![filter.table_id]
        };
        let mut out = Vec::new();
        for id in ids {
            let t = &self.tables[&id];
            let Some(state) = self.switch.table(t.slot) else {
                continue;
            };
            if filter.is_default_action {
                if let Some((index, args)) = &state.default {
                    out.push(p4::TableEntry {
                        table_id: id,
                        action: Some(table_action(t, *index, args)),
                        is_default_action: true,
                        ..Default::default()
                    });
                }
                continue;
            }
            let wanted = if filter.r#match.is_empty() {
                None
            } else {
                match key_of(t, filter, false) {
                    Ok(key) => Some(key),
                    // A translated value with no mapping: no entry holds it.
                    Err(e) if e.code == Code::NotFound => continue,
                    Err(e) => return Err(e),
                }
            };
            // Direct counter data, when the filter asks for it and the
            // table has a direct counter.
            let unit = filter
                .counter_data
                .as_ref()
                .and_then(|_| self.res.direct_counter_of(id));
            let entries: Box<dyn Iterator<Item = (&Entry, (u64, u64))>> = if unit.is_some() {
                Box::new(state.counted_entries())
            } else {
                Box::new(state.entries().map(|e| (e, (0, 0))))
            };
            for (e, counts) in entries {
                if wanted.as_ref().is_some_and(|k| *k != e.key) {
                    continue;
                }
                if filter.priority != 0 && i64::from(filter.priority) != e.priority {
                    continue;
                }
                let index = state.index_of(&e.key, e.priority);
                let target = index.and_then(|i| state.target(i));
                let mut te = entry_to_proto(id, t, e, target);
                if let (Some(p), Some(x)) = (t.profile, target) {
                    te.action = self.indirect_action(p, x);
                }
                if let Some(i) = index {
                    self.fill_entry_data(t, i, &mut te, filter.time_since_last_hit.is_some());
                }
                te.counter_data = unit.map(|u| crate::resources::counter_data(u, counts));
                if filter.meter_config.is_some() {
                    te.meter_config = index.and_then(|i| self.direct_meter_config(id, i));
                }
                out.push(te);
            }
        }
        Ok(out)
    }
}

impl ForwardingPipeline {
    /// The switch's index of table `t`'s entry (`key`, `priority`), for the
    /// direct resources (counters, meters) that a table entry names;
    /// NOT_FOUND when there is none.
    pub(crate) fn entry_index(
        &self,
        t: &TableMap,
        key: &[FieldMatch],
        priority: i64,
    ) -> Result<u32, RpcError> {
        self.switch
            .table(t.slot)
            .and_then(|s| s.index_of(key, priority))
            .ok_or_else(|| {
                RpcError::new(
                    Code::NotFound,
                    format!("{}: no entry with this key", t.name),
                )
            })
    }

    /// The entities a Read request's entity asks for (its wildcards
    /// expanded), in canonical form.
    pub fn read_entity(&self, e: &p4::Entity) -> Result<Vec<p4::Entity>, RpcError> {
        use p4::entity::Entity as E;
        Ok(match &e.entity {
            Some(E::TableEntry(filter)) => self
                .read(filter)?
                .into_iter()
                .map(|te| p4::Entity {
                    entity: Some(E::TableEntry(te)),
                })
                .collect(),
            Some(E::CounterEntry(f)) => self.read_counters(f)?,
            Some(E::DirectCounterEntry(f)) => self.read_direct_counters(f)?,
            Some(E::RegisterEntry(f)) => self.read_registers(f)?,
            Some(E::PacketReplicationEngineEntry(f)) => self.read_pre(f)?,
            Some(E::MeterEntry(f)) => self.read_meters(f)?,
            Some(E::DirectMeterEntry(f)) => self.read_direct_meters(f)?,
            Some(E::ActionProfileMember(f)) => self.read_members(f)?,
            Some(E::ActionProfileGroup(f)) => self.read_profile_groups(f)?,
            Some(E::ValueSetEntry(f)) => self.read_value_sets(f)?,
            Some(E::DigestEntry(f)) => self.read_digests(f)?,
            Some(E::ExternEntry(f))
                if f.extern_type_id == crate::translation::TRANSLATION_EXTERN_TYPE =>
            {
                self.read_translations(f)?
            }
            Some(E::ExternEntry(f)) if f.extern_type_id == 0 => {
                let mut all = self.read_externs(f)?;
                all.extend(self.read_translations(f)?);
                all
            }
            Some(E::ExternEntry(f)) => self.read_externs(f)?,
            None => return Err(invalid("an empty entity")),
        })
    }

    /// The entry at `index` of table `table_id`, in canonical form with
    /// its metadata and idle timeout.
    pub(crate) fn entry_at(&self, table_id: u32, index: u32) -> Option<p4::TableEntry> {
        let t = self.tables.get(&table_id)?;
        let state = self.switch.table(t.slot)?;
        let target = state.target(index);
        let mut te = entry_to_proto(table_id, t, state.entry(index)?, target);
        if let (Some(p), Some(x)) = (t.profile, target) {
            te.action = self.indirect_action(p, x);
        }
        self.fill_entry_data(t, index, &mut te, false);
        Some(te)
    }

    /// The default entries a client changed (not const, and not the
    /// program's), in P4Info order, as MODIFY-able entries.
    pub(crate) fn written_defaults(&self) -> Vec<p4::TableEntry> {
        let mut out = Vec::new();
        for id in &self.order {
            let t = &self.tables[id];
            let Some(state) = self.switch.table(t.slot) else {
                continue;
            };
            if t.const_default || state.default == t.initial_default {
                continue;
            }
            out.push(p4::TableEntry {
                table_id: *id,
                action: state
                    .default
                    .as_ref()
                    .map(|(index, args)| table_action(t, *index, args)),
                is_default_action: true,
                ..Default::default()
            });
        }
        out
    }

    /// The entries a filter names, each with its direct counter data (the
    /// table must have a direct counter).
    pub(crate) fn read_with_counts(
        &self,
        filter: &p4::TableEntry,
    ) -> Result<Vec<p4::TableEntry>, RpcError> {
        let mut f = filter.clone();
        f.counter_data = Some(p4::CounterData::default());
        f.is_default_action = false;
        self.read(&f)
    }
}

/// A table entry in canonical form (`target`: the member or group an
/// indirect entry points to).
fn entry_to_proto(
    id: u32,
    t: &TableMap,
    e: &Entry,
    target: Option<janus_engine::profile::Target>,
) -> p4::TableEntry {
    use janus_engine::profile::Target;
    use p4::field_match::{Exact, FieldMatchType as F, Lpm, Optional, Range, Ternary};
    use p4::table_action::Type as A;
    let mut fields = Vec::new();
    for (f, m) in t.fields.iter().zip(&e.key) {
        if let Some(tr) = &f.tr
            && let Some(ty) = translated_proto(f, tr, m)
        {
            fields.push(p4::FieldMatch {
                field_id: f.id,
                field_match_type: Some(ty),
            });
            continue;
        }
        let ty = match m {
            FieldMatch::Exact(v) => Some(F::Exact(Exact { value: to_bytes(v) })),
            FieldMatch::Lpm { len: 0, .. } => None,
            FieldMatch::Lpm { value, len } => Some(F::Lpm(Lpm {
                value: to_bytes(value),
                prefix_len: *len as i32,
            })),
            FieldMatch::Ternary { mask, .. } if mask.is_zero() => None,
            FieldMatch::Ternary { value, mask } => Some(F::Ternary(Ternary {
                value: to_bytes(&value.and(mask)),
                mask: to_bytes(mask),
            })),
            FieldMatch::Range { lo, hi } if is_full_range(f, lo, hi) => None,
            FieldMatch::Range { lo, hi } => Some(F::Range(Range {
                low: to_bytes(lo),
                high: to_bytes(hi),
            })),
            FieldMatch::Optional(None) => None,
            FieldMatch::Optional(Some(v)) => Some(F::Optional(Optional { value: to_bytes(v) })),
        };
        if let Some(ty) = ty {
            fields.push(p4::FieldMatch {
                field_id: f.id,
                field_match_type: Some(ty),
            });
        }
    }
    p4::TableEntry {
        table_id: id,
        r#match: fields,
        action: match target {
            Some(Target::Member(m)) => Some(p4::TableAction {
                r#type: Some(A::ActionProfileMemberId(m)),
            }),
            Some(Target::Group(g)) => Some(p4::TableAction {
                r#type: Some(A::ActionProfileGroupId(g)),
            }),
            // The set as written: the caller fills it in from the profiles.
            Some(Target::OneShot(_)) => None,
            None => (e.action != usize::MAX).then(|| table_action(t, e.action, &e.args)),
        },
        priority: if t.uses_priority {
            e.priority.clamp(1, i64::from(i32::MAX)) as i32
        } else {
            0
        },
        is_const: t.is_const,
        ..Default::default()
    }
}

/// A match on a translated field as the controller wrote it (see
/// [`translated_match`]); `None` for a don't-care, or a match that is not
/// de facto exact (the program's own entries), which is written as it is.
fn translated_proto(
    f: &FieldMap,
    tr: &Tr,
    m: &FieldMatch,
) -> Option<p4::field_match::FieldMatchType> {
    use p4::field_match::{Exact, FieldMatchType as F, Lpm, Optional, Range, Ternary};
    let full = Bits::zero(f.width, f.signed).not();
    let sdn_ones = match tr.sdn() {
        Sdn::Bits(w) => to_bytes(&Bits::zero(w, false).not()),
        Sdn::String => Vec::new(),
    };
    match m {
        FieldMatch::Exact(v) => Some(F::Exact(Exact {
            value: tr.to_sdn(v),
        })),
        FieldMatch::Optional(Some(v)) => Some(F::Optional(Optional {
            value: tr.to_sdn(v),
        })),
        FieldMatch::Lpm { value, len } if *len == f.width => {
            let Sdn::Bits(w) = tr.sdn() else { return None };
            Some(F::Lpm(Lpm {
                value: tr.to_sdn(value),
                prefix_len: w as i32,
            }))
        }
        FieldMatch::Ternary { value, mask } if *mask == full && !sdn_ones.is_empty() => {
            Some(F::Ternary(Ternary {
                value: tr.to_sdn(value),
                mask: sdn_ones,
            }))
        }
        FieldMatch::Range { lo, hi } if lo == hi => {
            let v = tr.to_sdn(lo);
            Some(F::Range(Range {
                low: v.clone(),
                high: v,
            }))
        }
        _ => None,
    }
}

pub(crate) fn table_action(t: &TableMap, index: usize, args: &[Bits]) -> p4::TableAction {
    let id = t.action_ids.get(index).copied().unwrap_or(0);
    let (params, trs) = t
        .actions
        .get(&id)
        .map_or((&[][..], &[][..]), |a| (&a.params[..], &a.param_tr[..]));
    p4::TableAction {
        r#type: Some(p4::table_action::Type::Action(p4::Action {
            action_id: id,
            params: params
                .iter()
                .zip(args)
                .enumerate()
                .map(|(i, (&(pid, _), v))| p4::action::Param {
                    param_id: pid,
                    value: match trs.get(i).and_then(Option::as_ref) {
                        Some(tr) => tr.to_sdn(v),
                        None => to_bytes(v),
                    },
                })
                .collect(),
        })),
    }
}

fn is_full_range(f: &FieldMap, lo: &Bits, hi: &Bits) -> bool {
    lo.is_zero() && *hi == Bits::zero(f.width, f.signed).not()
}

/// The engine key of an entry: one field per key of the table, don't-care
/// for the omitted ternary, LPM, range and optional fields. Values of
/// translated fields are mapped to the data plane's; with `allocate` (an
/// INSERT) an SDN value without a mapping gets one, else it is NOT_FOUND
/// (no entry can hold it).
pub(crate) fn key_of(
    t: &TableMap,
    te: &p4::TableEntry,
    allocate: bool,
) -> Result<Vec<FieldMatch>, RpcError> {
    use p4::field_match::FieldMatchType as F;
    let mut key: Vec<Option<FieldMatch>> = vec![None; t.fields.len()];
    for m in &te.r#match {
        let pos = t
            .fields
            .iter()
            .position(|f| f.id == m.field_id)
            .ok_or_else(|| invalid(format!("{}: no match field with id {}", t.name, m.field_id)))?;
        if key[pos].is_some() {
            return Err(invalid(format!(
                "{}: match field {} given twice",
                t.name, m.field_id
            )));
        }
        let f = &t.fields[pos];
        let what = format!("{} field {}", t.name, f.id);
        if let Some(tr) = &f.tr {
            key[pos] = Some(translated_match(f, tr, m, allocate, &what)?);
            continue;
        }
        let val = |b: &[u8]| from_bytes(b, f.width, f.signed, &what);
        let fm = match (f.kind, m.field_match_type.as_ref()) {
            (MatchKind::Exact, Some(F::Exact(x))) => FieldMatch::Exact(val(&x.value)?),
            (MatchKind::Lpm, Some(F::Lpm(x))) => {
                let value = val(&x.value)?;
                if x.prefix_len <= 0 || x.prefix_len as u32 > f.width {
                    return Err(invalid(format!(
                        "{what}: prefix length {} outside 1..={} (omit the field for a don't-care)",
                        x.prefix_len, f.width
                    )));
                }
                let len = x.prefix_len as u32;
                let mask = Bits::zero(f.width, f.signed)
                    .not()
                    .shl(u64::from(f.width - len));
                if value.and(&mask) != value {
                    return Err(invalid(format!(
                        "{what}: bits beyond the /{len} prefix are set"
                    )));
                }
                FieldMatch::Lpm { value, len }
            }
            (MatchKind::Ternary, Some(F::Ternary(x))) => {
                let (value, mask) = (val(&x.value)?, val(&x.mask)?);
                if mask.is_zero() {
                    return Err(invalid(format!(
                        "{what}: a zero mask (omit the field for a don't-care)"
                    )));
                }
                if value.and(&mask) != value {
                    return Err(invalid(format!(
                        "{what}: value bits outside the mask are set"
                    )));
                }
                FieldMatch::Ternary { value, mask }
            }
            (MatchKind::Range, Some(F::Range(x))) => {
                let (lo, hi) = (val(&x.low)?, val(&x.high)?);
                if lo.compare(&hi) == std::cmp::Ordering::Greater {
                    return Err(invalid(format!("{what}: low > high")));
                }
                if is_full_range(f, &lo, &hi) {
                    return Err(invalid(format!(
                        "{what}: the full range (omit the field for a don't-care)"
                    )));
                }
                FieldMatch::Range { lo, hi }
            }
            (MatchKind::Optional, Some(F::Optional(x))) => {
                FieldMatch::Optional(Some(val(&x.value)?))
            }
            (kind, _) => {
                return Err(invalid(format!("{what}: not a {kind:?} match")));
            }
        };
        key[pos] = Some(fm);
    }
    t.fields
        .iter()
        .zip(key)
        .map(|(f, k)| match k {
            Some(k) => Ok(k),
            None => {
                let zero = Bits::zero(f.width, f.signed);
                Ok(match f.kind {
                    MatchKind::Exact => {
                        return Err(invalid(format!(
                            "{}: exact match field {} is missing",
                            t.name, f.id
                        )));
                    }
                    MatchKind::Lpm => FieldMatch::Lpm { value: zero, len: 0 },
                    MatchKind::Ternary => FieldMatch::Ternary {
                        value: zero.clone(),
                        mask: zero,
                    },
                    MatchKind::Range => FieldMatch::Range {
                        hi: zero.not(),
                        lo: zero,
                    },
                    MatchKind::Optional => FieldMatch::Optional(None),
                })
            }
        })
        .collect::<Result<Vec<_>, RpcError>>()
        .and_then(|key| {
            if t.uses_priority && te.priority <= 0 {
                Err(invalid(format!(
                    "{}: entries of a table with ternary, range or optional fields need a priority > 0",
                    t.name
                )))
            } else if !t.uses_priority && te.priority != 0 {
                Err(invalid(format!(
                    "{}: entries of this table take no priority",
                    t.name
                )))
            } else {
                Ok(key)
            }
        })
}

/// The match on a field of a translated type: exact and optional values
/// mapped, other kinds only when they are de facto exact (a full prefix,
/// an all-ones mask, a range of one value; P4Runtime 1.5 §17.1.3).
fn translated_match(
    f: &FieldMap,
    tr: &Tr,
    m: &p4::FieldMatch,
    allocate: bool,
    what: &str,
) -> Result<FieldMatch, RpcError> {
    use p4::field_match::FieldMatchType as F;
    let sdn_width = match tr.sdn() {
        Sdn::Bits(w) => Some(w),
        Sdn::String => None,
    };
    let all_ones = |mask: &[u8], w: u32| {
        from_bytes(mask, w, false, what).is_ok_and(|m| m == Bits::zero(w, false).not())
    };
    let canonical = |b: &[u8]| -> Vec<u8> {
        let first = b.iter().position(|&x| x != 0).unwrap_or(b.len());
        b[first..].to_vec()
    };
    let value: &[u8] = match (f.kind, m.field_match_type.as_ref()) {
        (MatchKind::Exact, Some(F::Exact(x))) => &x.value,
        (MatchKind::Optional, Some(F::Optional(x))) => &x.value,
        (MatchKind::Lpm, Some(F::Lpm(x)))
            if sdn_width.is_some_and(|w| x.prefix_len == w as i32) =>
        {
            &x.value
        }
        (MatchKind::Ternary, Some(F::Ternary(x)))
            if sdn_width.is_some_and(|w| all_ones(&x.mask, w)) =>
        {
            &x.value
        }
        (MatchKind::Range, Some(F::Range(x)))
            if !x.low.is_empty() && canonical(&x.low) == canonical(&x.high) =>
        {
            &x.low
        }
        (kind @ (MatchKind::Lpm | MatchKind::Ternary | MatchKind::Range), Some(_)) => {
            return Err(invalid(format!(
                "{what}: its type {} is translated, so a {kind:?} match on it must be exact \
                 (a full prefix, an all-ones mask or a one-value range of the SDN value), \
                 or omitted for a don't-care",
                tr.name()
            )));
        }
        (kind, _) => return Err(invalid(format!("{what}: not a {kind:?} match"))),
    };
    let v = tr.to_dp(value, allocate, what)?;
    Ok(match f.kind {
        MatchKind::Exact => FieldMatch::Exact(v),
        MatchKind::Optional => FieldMatch::Optional(Some(v)),
        MatchKind::Lpm => FieldMatch::Lpm {
            value: v,
            len: f.width,
        },
        MatchKind::Ternary => FieldMatch::Ternary {
            value: v,
            mask: Bits::zero(f.width, f.signed).not(),
        },
        MatchKind::Range => FieldMatch::Range {
            lo: v.clone(),
            hi: v,
        },
    })
}

/// The action index and arguments of a direct action.
pub(crate) fn action_of(
    t: &TableMap,
    action: Option<&p4::TableAction>,
    default: bool,
) -> Result<(usize, Vec<Bits>), RpcError> {
    use cfg::action_ref::Scope;
    let a = match action.and_then(|a| a.r#type.as_ref()) {
        Some(p4::table_action::Type::Action(a)) => a,
        Some(p4::table_action::Type::ActionProfileActionSet(_)) if t.profile.is_none() => {
            return Err(invalid(format!(
                "{}: the table has no action selector; a one-shot action set needs one",
                t.name
            )));
        }
        Some(p4::table_action::Type::ActionProfileActionSet(_)) => {
            return Err(RpcError::new(
                Code::Unimplemented,
                format!(
                    "{}: a one-shot action set as the default action is not supported",
                    t.name
                ),
            ));
        }
        Some(_) if t.profile.is_some() => {
            return Err(RpcError::new(
                Code::Unimplemented,
                format!(
                    "{}: a member or group as the default action is not supported",
                    t.name
                ),
            ));
        }
        Some(_) => {
            return Err(invalid(format!(
                "{}: the table has no action profile; its entries hold an action",
                t.name
            )));
        }
        None => return Err(invalid(format!("{}: the entry has no action", t.name))),
    };
    let m = t.actions.get(&a.action_id).ok_or_else(|| {
        invalid(format!(
            "{}: action id {} is not one of the table's actions",
            t.name, a.action_id
        ))
    })?;
    if !default && m.scope == Scope::DefaultOnly as i32 {
        return Err(invalid(format!(
            "{}: {} is a default-only action",
            t.name, m.name
        )));
    }
    if default && m.scope == Scope::TableOnly as i32 {
        return Err(invalid(format!(
            "{}: {} cannot be the default action",
            t.name, m.name
        )));
    }
    let mut args: Vec<Option<Bits>> = vec![None; m.params.len()];
    for p in &a.params {
        let pos = m
            .params
            .iter()
            .position(|x| x.0 == p.param_id)
            .ok_or_else(|| invalid(format!("{}: no parameter with id {}", m.name, p.param_id)))?;
        if args[pos].is_some() {
            return Err(invalid(format!(
                "{}: parameter {} given twice",
                m.name, p.param_id
            )));
        }
        let what = format!("{} parameter {}", m.name, p.param_id);
        args[pos] = Some(match &m.param_tr[pos] {
            Some(tr) => tr.to_dp(&p.value, true, &what)?,
            None => from_bytes(&p.value, m.params[pos].1, false, &what)?,
        });
    }
    let args = args
        .into_iter()
        .zip(&m.params)
        .map(|(v, (id, _))| {
            v.ok_or_else(|| invalid(format!("{}: parameter {id} is missing", m.name)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((m.index, args))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_strings_are_canonical_and_checked() {
        let v = from_bytes(&[0, 0, 0x01, 0x02], 9, false, "x").unwrap();
        assert_eq!(to_bytes(&v), vec![0x01, 0x02]);
        assert_eq!(to_bytes(&Bits::zero(32, false)), vec![0]);
        assert_eq!(
            from_bytes(&[0x02, 0x00], 9, false, "x").unwrap_err().code,
            Code::OutOfRange
        );
        assert_eq!(
            from_bytes(&[], 9, false, "x").unwrap_err().code,
            Code::InvalidArgument
        );
        let wide = from_bytes(&[0xff; 6], 48, false, "x").unwrap();
        assert_eq!(to_bytes(&wide), vec![0xff; 6]);
    }
}
