//! P4Info (P4Runtime `p4.config.v1.P4Info`) from a checked program, as
//! p4c's `--p4runtime-files` writes it for the same program, and its
//! protobuf text format.
//!
//! The rules, each from p4c's control-plane sources (docs/control-plane.md
//! lists them): which objects appear and in which order ([`layout`]); ids
//! ([`ids`]: the resource prefix in the top byte, `@id` or the Jenkins hash
//! of the fully qualified name below it; members numbered by position
//! around their `@id`s); aliases (the shortest dotted suffix no other
//! symbol shares); annotations as p4c prints them ([`annotations`]); a
//! table's size 1024 when absent or 0; every table's initial default
//! action (`NoAction` where none is written, as p4c's front end adds it).

mod annotations;
mod entries;
mod ids;
mod layout;
mod message;
mod types;

pub use annotations::{Annotations, Doc, Structured, StructuredValue};
pub use ids::jenkins_one_at_a_time;
pub use message::{HEADER, to_binary, to_json, to_message, to_text};

/// The program's table entries (`--p4runtime-entries-files`) in text
/// format, header first.
pub fn entries_to_text(info: &P4Info) -> String {
    format!("{}{}", entries::HEADER, info.initial_entries.to_text())
}
pub use types::{NewType, NewTypeRepr, SerializableEnum, TypeInfo, TypeSpec};

use crate::ast::{self, find_annotation};
use crate::check::fold_with;
use crate::ir::{self, ExprKind, InstanceOf};
use crate::types::{Ty, TyId, TypeTable};
use ids::{Ids, Suffixes, member_ids};
use layout::Item;
use num_traits::ToPrimitive;
use std::collections::{HashMap, HashSet};

/// P4Runtime id prefixes.
pub mod prefix {
    pub const ACTION: u8 = 0x01;
    pub const TABLE: u8 = 0x02;
    pub const VALUE_SET: u8 = 0x03;
    pub const CONTROLLER_HEADER: u8 = 0x04;
    pub const ACTION_PROFILE: u8 = 0x11;
    pub const COUNTER: u8 = 0x12;
    pub const DIRECT_COUNTER: u8 = 0x13;
    pub const METER: u8 = 0x14;
    pub const DIRECT_METER: u8 = 0x15;
    pub const REGISTER: u8 = 0x16;
    pub const DIGEST: u8 = 0x17;
}

/// v1model's default table size (p4c's `defaultTableSize`), also used for
/// `size = 0`.
pub const DEFAULT_TABLE_SIZE: u64 = 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preamble {
    pub id: u32,
    pub name: String,
    pub alias: String,
    pub annotations: Vec<String>,
    pub structured_annotations: Vec<Structured>,
    pub doc: Option<Doc>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchField {
    pub id: u32,
    pub name: String,
    pub annotations: Annotations,
    pub bitwidth: u32,
    /// EXACT, LPM, TERNARY, RANGE, OPTIONAL, or `other:<name>`.
    pub match_type: String,
    /// A `type` (new type) the field is declared with.
    pub type_name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRef {
    pub id: u32,
    /// TABLE_AND_DEFAULT, TABLE_ONLY or DEFAULT_ONLY.
    pub scope: &'static str,
    pub annotations: Vec<String>,
    pub structured_annotations: Vec<Structured>,
}

/// `p4.config.v1.TableActionCall`: an action and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionCall {
    pub action_id: u32,
    /// (parameter id, value as P4Runtime bytes of the parameter's width).
    pub arguments: Vec<(u32, Vec<u8>)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub preamble: Preamble,
    pub match_fields: Vec<MatchField>,
    pub action_refs: Vec<ActionRef>,
    pub const_default_action_id: Option<u32>,
    pub initial_default_action: Option<ActionCall>,
    pub implementation_id: Option<u32>,
    pub direct_resource_ids: Vec<u32>,
    pub size: u64,
    pub idle_timeout: bool,
    pub is_const_table: bool,
    pub has_initial_entries: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub id: u32,
    pub name: String,
    pub annotations: Annotations,
    pub bitwidth: u32,
    pub type_name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub preamble: Preamble,
    pub params: Vec<Param>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionProfile {
    pub preamble: Preamble,
    pub table_ids: Vec<u32>,
    pub with_selector: bool,
    pub size: u64,
    /// `@max_group_size(N)` of a selector; 0 when absent.
    pub max_group_size: i32,
}

/// Counters, meters and registers: indexed arrays (or direct resources).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    pub preamble: Preamble,
    /// BYTES, PACKETS, BOTH (counters) or BYTES, PACKETS (meters); empty for registers.
    pub unit: &'static str,
    pub size: u64,
    /// The table of a direct counter or meter.
    pub direct_table_id: Option<u32>,
    /// Registers: the cell type.
    pub type_spec: Option<TypeSpec>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControllerHeader {
    pub preamble: Preamble,
    pub metadata: Vec<Param>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueSet {
    pub preamble: Preamble,
    pub fields: Vec<MatchField>,
    pub size: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digest {
    pub preamble: Preamble,
    /// The digested data's type (a struct, described in `type_info`).
    pub type_spec: TypeSpec,
}

/// `p4.config.v1.PkgInfo`: the architecture and the main package's
/// `@pkginfo(name=..., version=..., ...)`, annotations and doc.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PkgInfo {
    pub name: String,
    pub version: String,
    pub doc: Option<Doc>,
    pub annotations: Vec<String>,
    pub structured_annotations: Vec<Structured>,
    pub arch: String,
    pub organization: String,
    pub contact: String,
    pub url: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct P4Info {
    pub pkg_info: PkgInfo,
    pub tables: Vec<Table>,
    pub actions: Vec<Action>,
    pub action_profiles: Vec<ActionProfile>,
    pub counters: Vec<Resource>,
    pub direct_counters: Vec<Resource>,
    pub meters: Vec<Resource>,
    pub direct_meters: Vec<Resource>,
    pub registers: Vec<Resource>,
    pub controller_packet_metadata: Vec<ControllerHeader>,
    pub value_sets: Vec<ValueSet>,
    pub digests: Vec<Digest>,
    /// `type_info`, present whenever p4c creates it (see [`has_type_info`]).
    pub type_info: Option<TypeInfo>,
    /// Not part of P4Info: the programs' table entries as the
    /// `p4.v1.WriteRequest` p4c writes for `--p4runtime-entries-files`.
    pub initial_entries: crate::proto::Message,
}

impl P4Info {
    /// The architecture (`pkg_info.arch`).
    pub fn arch(&self) -> &str {
        &self.pkg_info.arch
    }
}

/// Builds the P4Info of a checked program (see the module docs).
pub fn build(p: &ir::Program) -> P4Info {
    let (_, recorded) = build_with(p, Ids::Record(Vec::new()));
    build_with(p, Ids::assign(recorded.requests())).0
}

/// One pass of [`build`], with `ids` handing out the ids.
fn build_with(p: &ir::Program, ids: Ids) -> (P4Info, Ids) {
    let layout = layout::layout(p);
    let mut b = Builder {
        p,
        ids,
        info: P4Info {
            pkg_info: pkg_info(p),
            ..P4Info::default()
        },
        emitted_actions: HashSet::new(),
        table_ids: HashMap::new(),
        symbols: Vec::new(),
        profile_tables: HashMap::new(),
        types: types::Converter {
            p,
            info: TypeInfo::default(),
        },
    };
    // Breadth first, as p4c walks the evaluated blocks: top-level externs,
    // then each parser's and control's actions, digests and value sets,
    // then their tables and extern instances.
    for &i in &layout.globals {
        b.extern_instance(i, None);
    }
    let mut digested: Vec<TyId> = Vec::new();
    for top in &layout.tops {
        for (a, path) in &top.actions {
            b.action(*a, path);
        }
        for &t in &top.digests {
            if !digested.contains(&t) {
                digested.push(t);
                b.digest(t);
            }
        }
        for (v, path) in &top.value_sets {
            b.value_set(*v, path);
        }
    }
    for top in &layout.tops {
        for item in &top.items {
            match item {
                Item::Table(t, path) => b.table(*t, path),
                Item::Extern(i, path) => b.extern_instance(*i, Some(path)),
            }
        }
    }
    b.link_profiles();
    b.controller_headers();
    let Builder {
        ids,
        mut info,
        symbols,
        types,
        ..
    } = b;
    info.type_info = has_type_info(&info).then_some(types.info);
    let suffixes = Suffixes::new(symbols.iter().map(String::as_str));
    for pre in preambles(&mut info) {
        pre.alias = suffixes.alias(&pre.name);
    }
    (info, ids)
}

/// Whether p4c writes `type_info` (empty unless a struct, enum or new
/// type needs describing): it creates it while converting the type of any
/// match field, action parameter, extern or packet metadata field.
pub fn has_type_info(info: &P4Info) -> bool {
    !info.tables.is_empty()
        || info.actions.iter().any(|a| !a.params.is_empty())
        || !info.counters.is_empty()
        || !info.meters.is_empty()
        || !info.registers.is_empty()
        || !info.action_profiles.is_empty()
        || !info.digests.is_empty()
        || info
            .controller_packet_metadata
            .iter()
            .any(|h| !h.metadata.is_empty())
}

/// The preambles that take an alias (controller headers keep their name).
fn preambles(info: &mut P4Info) -> Vec<&mut Preamble> {
    let mut out: Vec<&mut Preamble> = Vec::new();
    out.extend(info.tables.iter_mut().map(|t| &mut t.preamble));
    out.extend(info.actions.iter_mut().map(|t| &mut t.preamble));
    out.extend(info.action_profiles.iter_mut().map(|t| &mut t.preamble));
    for list in [
        &mut info.counters,
        &mut info.direct_counters,
        &mut info.meters,
        &mut info.direct_meters,
        &mut info.registers,
    ] {
        out.extend(list.iter_mut().map(|t| &mut t.preamble));
    }
    out.extend(info.value_sets.iter_mut().map(|t| &mut t.preamble));
    out.extend(info.digests.iter_mut().map(|t| &mut t.preamble));
    out
}

/// `pkg_info`: the architecture, and the main instance's `@pkginfo`,
/// other annotations and doc.
fn pkg_info(p: &ir::Program) -> PkgInfo {
    let Some(main) = p.main else {
        return PkgInfo::default();
    };
    let inst = &p.instances[main.0 as usize];
    let arch = match &inst.of {
        InstanceOf::Package { name } if name == "V1Switch" => "v1model".to_string(),
        InstanceOf::Package { name } if name.starts_with("PSA_") => "psa".to_string(),
        InstanceOf::Package { name } if name.starts_with("PNA_") => "pna".to_string(),
        InstanceOf::Package { name } => name.clone(),
        _ => String::new(),
    };
    let annos = annotations::collect(&inst.annotations, &["pkginfo"]);
    let mut info = PkgInfo {
        doc: annos.doc,
        annotations: annos.unstructured,
        structured_annotations: annos.structured,
        arch,
        ..PkgInfo::default()
    };
    for a in inst.annotations.iter().filter(|a| a.name.name == "pkginfo") {
        for (key, value) in pkginfo_pairs(a) {
            let slot = match key.as_str() {
                "name" => &mut info.name,
                "version" => &mut info.version,
                "organization" => &mut info.organization,
                "contact" => &mut info.contact,
                "url" => &mut info.url,
                "arch" => &mut info.arch,
                _ => continue,
            };
            *slot = value;
        }
    }
    info
}

/// The `key = "value"` pairs of `@pkginfo(...)`.
fn pkginfo_pairs(a: &ast::Annotation) -> Vec<(String, String)> {
    use crate::lexer::TokenKind;
    let ast::AnnotationBody::Unstructured { tokens, .. } = &a.body else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if let (Some(TokenKind::Ident(k)), Some(TokenKind::Punct(eq)), Some(TokenKind::Str(v))) = (
            tokens.get(i).map(|t| &t.kind),
            tokens.get(i + 1).map(|t| &t.kind),
            tokens.get(i + 2).map(|t| &t.kind),
        ) && eq.as_str() == "="
        {
            out.push((k.clone(), annotations::source_text(v)));
            i += 3;
        } else {
            i += 1;
        }
    }
    out
}

/// State while building.
struct Builder<'a> {
    p: &'a ir::Program,
    ids: Ids,
    info: P4Info,
    /// The ids of the actions in `info.actions`.
    emitted_actions: HashSet<u32>,
    /// (table, instance path) -> P4Info id.
    table_ids: HashMap<(u32, String), u32>,
    /// Every control-plane name p4c's symbol table holds (for aliases).
    symbols: Vec<String>,
    /// Action profile id -> the names and ids of the tables using it.
    profile_tables: HashMap<u32, Vec<(String, u32)>>,
    /// The types P4Info refers to, for `type_info`.
    types: types::Converter<'a>,
}

impl Builder<'_> {
    fn alloc(&mut self, prefix: u8, name: &str, annos: &[ast::Annotation]) -> u32 {
        self.symbols.push(name.to_string());
        self.ids.alloc(prefix, name, annos)
    }

    /// The name and id of `action` as seen from the block instance at
    /// `path` ("" for a top-level action).
    fn action_name(&self, action: ir::ActionId, path: &str) -> String {
        self.p.actions[action.0 as usize].cp_name.under(path)
    }

    /// The key path of an action referred to from the instance at `path`.
    fn action_path(&self, action: ir::ActionId, path: &str) -> String {
        let local = self.p.blocks.iter().any(|b| b.actions.contains(&action));
        if local {
            path.to_string()
        } else {
            String::new()
        }
    }

    fn action_id(&mut self, action: ir::ActionId, path: &str) -> u32 {
        let name = self.action_name(action, &self.action_path(action, path));
        let annos = self.p.actions[action.0 as usize].annotations.clone();
        self.alloc(prefix::ACTION, &name, &annos)
    }

    /// Emits `action` of the instance at `path` (once per name).
    fn action(&mut self, action: ir::ActionId, path: &str) {
        let p = self.p;
        let act = &p.actions[action.0 as usize];
        let name = self.action_name(action, path);
        let id = self.alloc(prefix::ACTION, &name, &act.annotations);
        if find_annotation(&act.annotations, "hidden").is_some() || !self.emitted_actions.insert(id)
        {
            return;
        }
        let no_annos: Vec<ast::Annotation> = Vec::new();
        let param_annos: Vec<&[ast::Annotation]> = (0..act.params.len())
            .map(|i| {
                act.param_annotations
                    .get(i)
                    .map_or(&no_annos[..], |a| &a[..])
            })
            .collect();
        let member = member_ids(param_annos.iter().copied());
        let params = act
            .params
            .iter()
            .zip(&member)
            .zip(&param_annos)
            .map(|((x, &id), annos)| {
                self.types.convert(x.ty);
                Param {
                    id,
                    name: x.name.clone(),
                    annotations: annotations::collect(annos, &[]),
                    bitwidth: control_width(p, x.ty),
                    type_name: type_name(&p.types, x.ty),
                }
            })
            .collect();
        self.info.actions.push(Action {
            preamble: preamble(id, &name, &act.annotations, &[]),
            params,
        });
    }

    fn table(&mut self, table: ir::TableId, path: &str) {
        let p = self.p;
        let t = &p.tables[table.0 as usize];
        let name = t.cp_name.under(path);
        let id = self.alloc(prefix::TABLE, &name, &t.annotations);
        self.table_ids.insert((table.0, path.to_string()), id);
        if !t.entries.is_empty() {
            let mut ids = HashMap::new();
            for e in &t.entries {
                let aid = self.action_id(e.action.action, path);
                ids.insert(e.action.action.0, aid);
            }
            let action_id = |a: ir::ActionId| ids.get(&a.0).copied().unwrap_or(0);
            for u in entries::table_updates(p, t, id, &action_id) {
                self.info.initial_entries.add_message(4, "updates", u);
            }
        }
        if find_annotation(&t.annotations, "hidden").is_some() {
            return;
        }
        let member = member_ids(t.keys.iter().map(|k| &k.annotations[..]));
        let match_fields = t
            .keys
            .iter()
            .zip(member)
            .filter(|(k, _)| k.match_kind != "selector")
            .map(|(k, id)| {
                self.types.convert(k.expr.ty);
                MatchField {
                    id,
                    name: k.name.clone(),
                    annotations: annotations::collect(&k.annotations, &[]),
                    bitwidth: control_width(p, k.expr.ty),
                    match_type: match_type(&k.match_kind),
                    type_name: type_name(&p.types, k.expr.ty),
                }
            })
            .collect();
        let mut action_refs = Vec::new();
        for a in &t.actions {
            let collected = annotations::collect(&a.annotations, &[]);
            let scope = if a.table_only {
                "TABLE_ONLY"
            } else if a.default_only {
                "DEFAULT_ONLY"
            } else {
                "TABLE_AND_DEFAULT"
            };
            action_refs.push(ActionRef {
                id: self.action_id(a.action, path),
                scope,
                annotations: collected.unstructured,
                structured_annotations: collected.structured,
            });
        }
        let initial_default_action = match &t.default_action {
            Some(call) => Some(self.action_call(call, path)),
            None => layout::no_action(p).map(|na| ActionCall {
                action_id: self.action_id(na, path),
                arguments: Vec::new(),
            }),
        };
        let const_default_action_id = initial_default_action
            .as_ref()
            .filter(|_| t.default_is_const)
            .map(|c| c.action_id);
        // A size computed from constructor parameters is folded for this
        // instance.
        let size = t.size.or_else(|| {
            let e = t.size_expr.as_ref()?;
            match fold_with(&p.types, e, &ctor_values(p, path))? {
                ir::Value::Int(v) => v.to_u64(),
                _ => None,
            }
        });
        let size = match size {
            None | Some(0) => DEFAULT_TABLE_SIZE,
            Some(n) => n,
        };
        self.info.tables.push(Table {
            preamble: preamble(id, &name, &t.annotations, &[]),
            match_fields,
            action_refs,
            const_default_action_id,
            initial_default_action,
            implementation_id: None,
            direct_resource_ids: Vec::new(),
            size,
            idle_timeout: t.support_timeout,
            is_const_table: t.entries_const,
            has_initial_entries: !t.entries.is_empty(),
        });
        let k = self.info.tables.len() - 1;
        if let Some(i) = t.implementation
            && let InstanceOf::Extern { name: ext } = &p.instances[i.0 as usize].of
            && matches!(canonical_extern(ext), "action_profile" | "action_selector")
        {
            // Built in place: named as Janus names such an instance (p4c
            // asks for an `@name` on the property); listed with the table.
            let in_place = layout::in_place(p, i);
            if in_place {
                self.extern_instance(i, None);
            }
            let inst = &p.instances[i.0 as usize];
            let pid = self.alloc(
                prefix::ACTION_PROFILE,
                &inst.cp_name.under(if in_place { "" } else { path }),
                &inst.annotations,
            );
            self.info.tables[k].implementation_id = Some(pid);
            self.profile_tables
                .entry(pid)
                .or_default()
                .push((name.clone(), id));
        }
        for (inst, counter) in [(t.direct_counter, true), (t.direct_meter, false)] {
            if let Some(i) = inst {
                self.direct_resource(i, path, k, counter);
            }
        }
    }

    /// The `TableActionCall` of a default action.
    fn action_call(&mut self, call: &ir::ActionCall, path: &str) -> ActionCall {
        let p = self.p;
        let act = &p.actions[call.action.0 as usize];
        let no_annos: Vec<ast::Annotation> = Vec::new();
        let member = member_ids((0..act.params.len()).map(|i| {
            act.param_annotations
                .get(i)
                .map_or(&no_annos[..], |a| &a[..])
        }));
        let arguments = act
            .params
            .iter()
            .zip(&call.args)
            .zip(member)
            .filter(|((param, _), _)| param.direction == ir::Direction::None)
            .filter_map(|((param, arg), id)| {
                let bytes = const_bytes(arg.as_ref()?, control_width(p, param.ty))?;
                Some((id, bytes))
            })
            .collect();
        ActionCall {
            action_id: self.action_id(call.action, path),
            arguments,
        }
    }

    /// A direct counter or meter, emitted with its table (the `k`th).
    fn direct_resource(&mut self, i: ir::InstanceId, path: &str, k: usize, counter: bool) {
        let p = self.p;
        let inst = &p.instances[i.0 as usize];
        let cp = inst
            .cp_name
            .under(if layout::in_place(p, i) { "" } else { path });
        let annos = &inst.annotations;
        let id = self.alloc(
            if counter {
                prefix::DIRECT_COUNTER
            } else {
                prefix::DIRECT_METER
            },
            &cp,
            annos,
        );
        self.info.tables[k].direct_resource_ids.push(id);
        let r = Resource {
            preamble: preamble(id, &cp, annos, &[]),
            unit: unit_name(counter, unit_arg(inst, 0)),
            size: self.info.tables[k].size,
            direct_table_id: Some(self.info.tables[k].preamble.id),
            type_spec: None,
        };
        if counter {
            self.info.direct_counters.push(r)
        } else {
            self.info.direct_meters.push(r)
        }
    }

    /// An extern instance at `path` (`None` at the top level).
    fn extern_instance(&mut self, i: ir::InstanceId, path: Option<&str>) {
        let p = self.p;
        let inst = &p.instances[i.0 as usize];
        let InstanceOf::Extern { name: ext } = &inst.of else {
            return;
        };
        let values = path.map(|pp| ctor_values(p, pp)).unwrap_or_default();
        let cp = inst.cp_name.under(path.unwrap_or(""));
        let arg = |k: usize| {
            let e = inst.args.get(k)?;
            const_value(e).or_else(|| match fold_with(&p.types, e, &values)? {
                ir::Value::Int(v) => v.to_u64(),
                _ => None,
            })
        };
        let annos = &inst.annotations;
        match canonical_extern(ext) {
            "digest" => {
                // PSA / PNA `Digest<T>` instances: named by instance.
                if let Ty::Extern { args, .. } = p.types.get(inst.ty)
                    && let Some(&t) = args.first()
                {
                    let id = self.alloc(prefix::DIGEST, &cp, annos);
                    let type_spec = self.types.convert(t);
                    self.info.digests.push(Digest {
                        preamble: preamble(id, &cp, annos, &[]),
                        type_spec,
                    });
                }
            }
            kind @ ("counter" | "meter") => {
                let counter = kind == "counter";
                let id = self.alloc(
                    if counter {
                        prefix::COUNTER
                    } else {
                        prefix::METER
                    },
                    &cp,
                    annos,
                );
                let r = Resource {
                    preamble: preamble(id, &cp, annos, &[]),
                    unit: unit_name(counter, unit_arg(inst, 1)),
                    size: arg(0).unwrap_or(0),
                    direct_table_id: None,
                    type_spec: None,
                };
                if counter {
                    self.info.counters.push(r)
                } else {
                    self.info.meters.push(r)
                }
            }
            kind @ ("direct_counter" | "direct_meter") => {
                // Emitted with their tables; a symbol all the same.
                let id_prefix = if kind == "direct_counter" {
                    prefix::DIRECT_COUNTER
                } else {
                    prefix::DIRECT_METER
                };
                self.alloc(id_prefix, &cp, annos);
            }
            "register" => {
                let id = self.alloc(prefix::REGISTER, &cp, annos);
                let type_spec = match p.types.get(inst.ty) {
                    Ty::Extern { args, .. } => args.first().map(|&t| self.types.convert(t)),
                    _ => None,
                };
                self.info.registers.push(Resource {
                    preamble: preamble(id, &cp, annos, &[]),
                    unit: "",
                    size: arg(0).unwrap_or(0),
                    direct_table_id: None,
                    type_spec,
                });
            }
            kind @ ("action_profile" | "action_selector") => {
                let with_selector = kind == "action_selector";
                let id = self.alloc(prefix::ACTION_PROFILE, &cp, annos);
                let max_group_size = if with_selector {
                    ids::annotation_int(annos, "max_group_size").map_or(0, |v| v as i32)
                } else {
                    0
                };
                self.info.action_profiles.push(ActionProfile {
                    preamble: preamble(id, &cp, annos, &["max_group_size"]),
                    table_ids: Vec::new(),
                    with_selector,
                    size: arg(if with_selector { 1 } else { 0 }).unwrap_or(0),
                    max_group_size,
                });
            }
            _ => {}
        }
    }

    /// Each action profile's tables, by table name (p4c keeps them in a
    /// sorted set).
    fn link_profiles(&mut self) {
        for ap in &mut self.info.action_profiles {
            if let Some(tables) = self.profile_tables.get(&ap.preamble.id) {
                let mut tables = tables.clone();
                tables.sort();
                tables.dedup();
                ap.table_ids = tables.into_iter().map(|(_, id)| id).collect();
            }
        }
    }

    fn digest(&mut self, t: TyId) {
        let p = self.p;
        let name = p
            .types
            .struct_info(t)
            .map_or_else(|| p.types.display(t), |s| s.name.clone());
        let id = self.alloc(prefix::DIGEST, &name, &[]);
        let type_spec = self.types.convert(t);
        self.info.digests.push(Digest {
            preamble: preamble(id, &name, &[], &[]),
            type_spec,
        });
    }

    fn value_set(&mut self, v: ir::ValueSetId, path: &str) {
        let p = self.p;
        let vs = &p.value_sets[v.0 as usize];
        let name = vs.cp_name.under(path);
        let id = self.alloc(prefix::VALUE_SET, &name, &[]);
        let fields = match p.types.struct_info(vs.elem) {
            Some(s) => s
                .fields
                .iter()
                .enumerate()
                .map(|(i, f)| MatchField {
                    id: i as u32 + 1,
                    name: f.name.clone(),
                    annotations: Annotations::default(),
                    bitwidth: width(&p.types, f.ty),
                    match_type: "EXACT".into(),
                    type_name: None,
                })
                .collect(),
            None => vec![MatchField {
                id: 1,
                name: String::new(),
                annotations: Annotations::default(),
                bitwidth: width(&p.types, vs.elem),
                match_type: "EXACT".into(),
                type_name: None,
            }],
        };
        self.info.value_sets.push(ValueSet {
            preamble: preamble(id, &name, &[], &[]),
            fields,
            size: vs.size,
        });
    }

    /// `controller_packet_metadata`, in declaration order: the preamble
    /// named by `@controller_header`, the id from the header type's name.
    fn controller_headers(&mut self) {
        let p = self.p;
        for (name, ty) in &p.controller_headers {
            let annos = p.type_annotations.get(ty).cloned().unwrap_or_default();
            if find_annotation(&annos.decl, "hidden").is_some() {
                continue;
            }
            let header_type = p
                .types
                .struct_info(*ty)
                .map_or(name.clone(), |s| s.name.clone());
            let id = self.alloc(prefix::CONTROLLER_HEADER, &header_type, &annos.decl);
            let no_annos: Vec<ast::Annotation> = Vec::new();
            let fields = p
                .types
                .struct_info(*ty)
                .map(|s| s.fields.clone())
                .unwrap_or_default();
            let field_annos: Vec<&[ast::Annotation]> = (0..fields.len())
                .map(|i| annos.fields.get(i).map_or(&no_annos[..], |a| &a[..]))
                .collect();
            let member = member_ids(field_annos.iter().copied());
            let metadata = fields
                .iter()
                .zip(member)
                .zip(&field_annos)
                .filter(|(_, a)| find_annotation(a, "hidden").is_none())
                .map(|((f, id), a)| {
                    self.types.convert(f.ty);
                    Param {
                        id,
                        name: f.name.clone(),
                        annotations: annotations::collect(a, &[]),
                        bitwidth: control_width(p, f.ty),
                        type_name: type_name(&p.types, f.ty),
                    }
                })
                .collect();
            let mut pre = preamble(id, name, &annos.decl, &[]);
            pre.alias = name.clone();
            self.info.controller_packet_metadata.push(ControllerHeader {
                preamble: pre,
                metadata,
            });
        }
    }
}

/// The `type_name` P4Info gives a field of a `type` (new type).
fn type_name(types: &TypeTable, ty: TyId) -> Option<String> {
    match types.get(ty) {
        Ty::NewType { name, .. } => Some(name.clone()),
        _ => None,
    }
}

/// A field's width as the control plane sees it: the SDN width of a type
/// with `@p4runtime_translation` (0 for an SDN string), else the width.
fn control_width(p: &ir::Program, ty: TyId) -> u32 {
    if let Some(annos) = p.type_annotations.get(&ty)
        && let Some((_, sdn)) = annotations::translation(&annos.decl)
    {
        return sdn.unwrap_or(0);
    }
    width(&p.types, ty)
}

fn width(types: &TypeTable, ty: TyId) -> u32 {
    match types.get(ty) {
        Ty::Bits { width, .. } => *width,
        Ty::Bool => 1,
        Ty::Varbit { max } => *max,
        _ => types.underlying(ty).map_or(0, |u| width(types, u)),
    }
}

/// A constant argument as P4Runtime bytes: big-endian, padded to the
/// parameter's width in whole bytes (as p4c's `stringReprConstant`).
fn const_bytes(e: &ir::Expr, width: u32) -> Option<Vec<u8>> {
    match &e.kind {
        ExprKind::Const(ir::Value::Int(v)) => Some(int_bytes(v, width)),
        ExprKind::Const(ir::Value::Bool(b)) => {
            Some(int_bytes(&num_bigint::BigInt::from(u8::from(*b)), width))
        }
        _ => None,
    }
}

/// An integer as P4Runtime bytes of `width` bits: big-endian, padded to
/// whole bytes (negative values as two's complement of the width).
fn int_bytes(v: &num_bigint::BigInt, width: u32) -> Vec<u8> {
    let n = (width.max(1) as usize).div_ceil(8);
    let modulus = num_bigint::BigInt::from(1u8) << (n * 8);
    let v = ((v % &modulus) + &modulus) % &modulus;
    let (_, mut bytes) = v.to_bytes_be();
    if bytes.len() > n {
        bytes.drain(..bytes.len() - n);
    }
    let mut out = vec![0u8; n - bytes.len()];
    out.extend(bytes);
    out
}

fn unit_arg(inst: &ir::Instance, k: usize) -> u32 {
    match inst.args.get(k).map(|e| &e.kind) {
        Some(ExprKind::Const(ir::Value::Enum(v))) => *v,
        _ => 0,
    }
}

fn match_type(kind: &str) -> String {
    match kind {
        "exact" => "EXACT".into(),
        "lpm" => "LPM".into(),
        "ternary" => "TERNARY".into(),
        "range" => "RANGE".into(),
        "optional" => "OPTIONAL".into(),
        other => format!("other:{other}"),
    }
}

fn preamble(id: u32, name: &str, annos: &[ast::Annotation], skip: &[&str]) -> Preamble {
    let a = annotations::collect(annos, skip);
    Preamble {
        id,
        name: name.to_string(),
        alias: name.to_string(),
        annotations: a.unstructured,
        structured_annotations: a.structured,
        doc: a.doc,
    }
}

/// v1model, PSA and PNA spell the same externs differently.
fn canonical_extern(name: &str) -> &str {
    match name {
        "Counter" => "counter",
        "DirectCounter" => "direct_counter",
        "Meter" => "meter",
        "DirectMeter" => "direct_meter",
        "Register" => "register",
        "ActionProfile" => "action_profile",
        "ActionSelector" => "action_selector",
        "Digest" => "digest",
        other => other,
    }
}

fn unit_name(counter: bool, unit: u32) -> &'static str {
    // CounterType { packets, bytes, packets_and_bytes }, MeterType { packets, bytes }.
    match (counter, unit) {
        (_, 0) => "PACKETS",
        (_, 1) => "BYTES",
        (true, _) => "BOTH",
        (false, _) => "PACKETS",
    }
}

/// The constructor parameters of the block instance at `path` (a path of
/// [`ir::Program::instance_paths`]) bound to their constant arguments,
/// arguments computed from the enclosing instance's parameters folded
/// level by level.
fn ctor_values(p: &ir::Program, path: &str) -> HashMap<ir::VarId, ir::Value> {
    let mut values = HashMap::new();
    let Some(mut current) = p.main else {
        return values;
    };
    for name in path.split('.') {
        let Some(child) = p.child_named(current, name) else {
            return HashMap::new();
        };
        let inst = &p.instances[child.0 as usize];
        let InstanceOf::Block(b) = inst.of else {
            return HashMap::new();
        };
        values = p.blocks[b.0 as usize]
            .ctor_params
            .iter()
            .zip(&inst.args)
            .filter_map(|(param, a)| Some((param.var, fold_with(&p.types, a, &values)?)))
            .collect();
        current = child;
    }
    values
}

fn const_value(e: &ir::Expr) -> Option<u64> {
    match &e.kind {
        ExprKind::Const(ir::Value::Int(v)) => u64::try_from(v).ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
