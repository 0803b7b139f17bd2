//! P4Info (P4Runtime 1.5 `p4.config.v1.P4Info`) from a checked program,
//! and its protobuf text format.
//!
//! Ids follow P4Runtime and p4c: the top byte is the resource prefix (0x01
//! actions, 0x02 tables, ...), the low 24 bits come from `@id` when given,
//! else from the Jenkins one-at-a-time hash of the fully qualified name,
//! probing on collision in p4c's order (see [`Ids`]). Aliases are the shortest unique dotted suffix of each name.

use crate::ast::{self, find_annotation};
use crate::check::fold_with;
use crate::ir::{self, Callee, ExprKind, InstanceOf};
use crate::types::{Ty, TyId, TypeTable};
use num_traits::ToPrimitive;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write;

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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preamble {
    pub id: u32,
    pub name: String,
    pub alias: String,
    pub annotations: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchField {
    pub id: u32,
    pub name: String,
    pub bitwidth: u32,
    /// EXACT, LPM, TERNARY, RANGE, OPTIONAL, or `other:<name>`.
    pub match_type: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRef {
    pub id: u32,
    /// TABLE_AND_DEFAULT, TABLE_ONLY or DEFAULT_ONLY.
    pub scope: &'static str,
    pub annotations: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub preamble: Preamble,
    pub match_fields: Vec<MatchField>,
    pub action_refs: Vec<ActionRef>,
    pub const_default_action_id: Option<u32>,
    pub implementation_id: Option<u32>,
    pub direct_resource_ids: Vec<u32>,
    pub size: u64,
    pub idle_timeout: bool,
    pub is_const_table: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub id: u32,
    pub name: String,
    pub bitwidth: u32,
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
    /// Registers: element width.
    pub bitwidth: u32,
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
    /// The digested struct's fields: (name, width).
    pub fields: Vec<(String, u32)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct P4Info {
    pub arch: String,
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
}

/// Allocates ids as p4c does (its `P4RuntimeSymbolTable`): first every
/// `@id` (its resource prefix added when its top byte is 0); then, for the
/// objects without one, kind by kind in prefix order and by name in byte
/// order, the prefix in the top byte and the low 24 bits of the Jenkins
/// one-at-a-time hash of the fully qualified name, the hash incremented
/// while the id is taken. An id therefore depends on every name of the
/// program, so [`build`] runs twice: once recording what it asks for,
/// once handing out the ids worked out from that.
enum Ids {
    /// The first pass: the requests, each answered with a placeholder.
    Record(Vec<(u8, String, Option<u32>)>),
    /// The second pass: (prefix, name) -> id.
    Assigned(HashMap<(u8, String), u32>, HashSet<u32>),
}

impl Ids {
    fn alloc(&mut self, prefix: u8, name: &str, annotations: &[ast::Annotation]) -> u32 {
        match self {
            Ids::Record(requests) => {
                let explicit = annotation_int(annotations, "id");
                requests.push((prefix, name.to_string(), explicit));
                // Unique, so the first pass builds as the second does.
                (u32::from(prefix) << 24) | (requests.len() as u32 & 0x00FF_FFFF)
            }
            Ids::Assigned(ids, used) => match ids.get(&(prefix, name.to_string())) {
                Some(&id) => id,
                // Not asked for in the first pass: probe from the hash.
                None => {
                    let id = probe(used, prefix, jenkins_one_at_a_time(name.as_bytes()));
                    ids.insert((prefix, name.to_string()), id);
                    id
                }
            },
        }
    }

    /// What the first pass asked for.
    fn requests(self) -> Vec<(u8, String, Option<u32>)> {
        match self {
            Ids::Record(requests) => requests,
            Ids::Assigned(..) => Vec::new(),
        }
    }

    /// The ids for the requests the first pass recorded.
    fn assign(requests: Vec<(u8, String, Option<u32>)>) -> Ids {
        let mut used = HashSet::new();
        let mut ids: HashMap<(u8, String), u32> = HashMap::new();
        let mut pending: BTreeMap<(u8, String), ()> = BTreeMap::new();
        for (prefix, name, explicit) in requests {
            if ids.contains_key(&(prefix, name.clone())) {
                continue;
            }
            let base = u32::from(prefix) << 24;
            let wanted = explicit.map(|v| if v >> 24 == 0 { base | v } else { v });
            match wanted {
                Some(id) if used.insert(id) => {
                    ids.insert((prefix, name), id);
                }
                _ => {
                    pending.insert((prefix, name), ());
                }
            }
        }
        for (prefix, name) in pending.into_keys() {
            if ids.contains_key(&(prefix, name.clone())) {
                continue;
            }
            let id = probe(&mut used, prefix, jenkins_one_at_a_time(name.as_bytes()));
            ids.insert((prefix, name), id);
        }
        Ids::Assigned(ids, used)
    }
}

/// The first free id of kind `prefix` from `hash` on (the hash, not the id,
/// incremented), marked used.
fn probe(used: &mut HashSet<u32>, prefix: u8, hash: u32) -> u32 {
    let base = u32::from(prefix) << 24;
    let mut value = hash;
    loop {
        let id = base | (value & 0x00FF_FFFF);
        if used.insert(id) {
            return id;
        }
        value = value.wrapping_add(1);
    }
}

/// Bob Jenkins's one-at-a-time hash, the name hash of p4c's ids.
pub fn jenkins_one_at_a_time(key: &[u8]) -> u32 {
    let mut hash = 0u32;
    for &b in key {
        hash = hash.wrapping_add(u32::from(b));
        hash = hash.wrapping_add(hash << 10);
        hash ^= hash >> 6;
    }
    hash = hash.wrapping_add(hash << 3);
    hash ^= hash >> 11;
    hash.wrapping_add(hash << 15)
}

fn annotation_int(annos: &[ast::Annotation], name: &str) -> Option<u32> {
    let e = find_annotation(annos, name)?.single_expr()?;
    match &e.kind {
        ast::ExprKind::Int(lit) => u32::try_from(&lit.value).ok(),
        _ => None,
    }
}

fn annotation_strings(annos: &[ast::Annotation]) -> Vec<String> {
    const HIDDEN: &[&str] = &["name", "id", "defaultonly", "tableonly"];
    annos
        .iter()
        .filter(|a| !HIDDEN.contains(&a.name.name.as_str()))
        .map(|a| match &a.body {
            ast::AnnotationBody::Empty => format!("@{}", a.name.name),
            ast::AnnotationBody::Unstructured {
                exprs: Some(list), ..
            } => {
                let parts: Vec<String> = list.iter().map(crate::pretty::expr).collect();
                format!("@{}({})", a.name.name, parts.join(", "))
            }
            _ => format!("@{}", a.name.name),
        })
        .collect()
}

fn width(types: &TypeTable, ty: TyId) -> u32 {
    match types.get(ty) {
        Ty::Bits { width, .. } => *width,
        Ty::Bool => 1,
        Ty::Varbit { max } => *max,
        _ => types.underlying(ty).map_or(0, |u| width(types, u)),
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

/// Builds the P4Info of a checked program: the objects of every parser and
/// control instance (see [`ir::Program::instance_paths`]), named by instance
/// path as p4c names them, plus the program's global objects.
pub fn build(p: &ir::Program) -> P4Info {
    let (_, recorded) = build_with(p, Ids::Record(Vec::new()));
    build_with(p, Ids::assign(recorded.requests())).0
}

/// One pass of [`build`], with `ids` handing out the ids.
fn build_with(p: &ir::Program, ids: Ids) -> (P4Info, Ids) {
    let arch = p
        .main
        .map(|m| match &p.instances[m.0 as usize].of {
            InstanceOf::Package { name } if name == "V1Switch" => "v1model".to_string(),
            InstanceOf::Package { name } => name.clone(),
            _ => String::new(),
        })
        .unwrap_or_default();
    let mut b = Builder {
        p,
        ids,
        info: P4Info {
            arch,
            ..P4Info::default()
        },
        action_ids: BTreeMap::new(),
        emitted_actions: HashSet::new(),
        emitted_tables: Vec::new(),
        digest_types: Vec::new(),
    };
    let paths = p.instance_paths();
    for (block, path) in &paths {
        for &t in &p.blocks[block.0 as usize].tables {
            b.table(t, *block, path);
        }
    }
    for (block, path) in &paths {
        let blk = &p.blocks[block.0 as usize];
        let values = ctor_values(p, path);
        for &i in &blk.instances {
            b.extern_instance(i, Some(path), &values);
        }
        for &v in &blk.value_sets {
            b.value_set(v, path);
        }
    }
    // Extern instances declared at the top level.
    let local: HashSet<u32> = p
        .blocks
        .iter()
        .flat_map(|blk| blk.instances.iter().map(|i| i.0))
        .collect();
    for i in 0..p.instances.len() as u32 {
        if !local.contains(&i) {
            b.extern_instance(ir::InstanceId(i), None, &HashMap::new());
        }
    }
    let Builder {
        mut ids,
        mut info,
        digest_types,
        ..
    } = b;

    // Controller packet metadata.
    for (name, ty) in &p.controller_headers {
        let id = ids.alloc(prefix::CONTROLLER_HEADER, name, &[]);
        let metadata = p
            .types
            .struct_info(*ty)
            .map(|s| {
                s.fields
                    .iter()
                    .enumerate()
                    .map(|(i, f)| Param {
                        id: i as u32 + 1,
                        name: f.name.clone(),
                        bitwidth: width(&p.types, f.ty),
                    })
                    .collect()
            })
            .unwrap_or_default();
        info.controller_packet_metadata.push(ControllerHeader {
            preamble: preamble(id, name, &[]),
            metadata,
        });
    }

    // Digests: PSA/PNA `Digest` instances by name; v1model `digest<T>()`
    // calls, one per digested type, named after the type.
    for (name, t) in digest_types {
        let id = ids.alloc(prefix::DIGEST, &name, &[]);
        info.digests.push(Digest {
            preamble: preamble(id, &name, &[]),
            fields: struct_fields(&p.types, t),
        });
    }
    let mut digested: Vec<TyId> = Vec::new();
    visit_calls(p, &mut |callee| {
        if let Callee::ExternFunction { name, type_args } = callee
            && name == "digest"
            && let Some(&t) = type_args.first()
            && !digested.contains(&t)
        {
            digested.push(t);
        }
    });
    for t in digested {
        let name = p.types.display(t);
        let id = ids.alloc(prefix::DIGEST, &name, &[]);
        info.digests.push(Digest {
            preamble: preamble(id, &name, &[]),
            fields: struct_fields(&p.types, t),
        });
    }

    assign_aliases(&mut info);
    (info, ids)
}

/// State while building: ids handed out and the tables emitted so far.
struct Builder<'a> {
    p: &'a ir::Program,
    ids: Ids,
    info: P4Info,
    /// (action, instance path; empty for a top-level action) -> P4Info id.
    action_ids: BTreeMap<(u32, String), u32>,
    /// The ids of the actions in `info.actions`.
    emitted_actions: HashSet<u32>,
    /// (table, block, instance path) of each emitted table, in `info.tables` order.
    emitted_tables: Vec<(ir::TableId, ir::BlockId, String)>,
    /// PSA/PNA `Digest<T>` instances: (name, T).
    digest_types: Vec<(String, TyId)>,
}

impl Builder<'_> {
    /// The id of `action` as seen from the block instance at `path`,
    /// emitting the action on first use.
    fn action(&mut self, action: ir::ActionId, block: ir::BlockId, path: &str) -> u32 {
        let p = self.p;
        let local = p.blocks[block.0 as usize].actions.contains(&action);
        let key_path = if local {
            path.to_string()
        } else {
            String::new()
        };
        if let Some(&id) = self.action_ids.get(&(action.0, key_path.clone())) {
            return id;
        }
        let act = &p.actions[action.0 as usize];
        let name = act.cp_name.under(&key_path);
        let id = self.ids.alloc(prefix::ACTION, &name, &act.annotations);
        let params = act
            .params
            .iter()
            .filter(|x| x.direction == ir::Direction::None)
            .enumerate()
            .map(|(i, x)| Param {
                id: i as u32 + 1,
                name: x.name.clone(),
                bitwidth: width(&p.types, x.ty),
            })
            .collect();
        // One object per name, as in p4c (the same action reached from
        // two blocks, such as `NoAction`, is listed once).
        if self.emitted_actions.insert(id) {
            self.info.actions.push(Action {
                preamble: preamble(id, &name, &act.annotations),
                params,
            });
        }
        self.action_ids.insert((action.0, key_path), id);
        id
    }

    fn table(&mut self, table: ir::TableId, block: ir::BlockId, path: &str) {
        let p = self.p;
        let t = &p.tables[table.0 as usize];
        let name = t.cp_name.under(path);
        let id = self.ids.alloc(prefix::TABLE, &name, &t.annotations);
        let match_fields = t
            .keys
            .iter()
            .filter(|k| k.match_kind != "selector")
            .enumerate()
            .map(|(i, k)| MatchField {
                id: i as u32 + 1,
                name: k.name.clone(),
                bitwidth: width(&p.types, k.expr.ty),
                match_type: match_type(&k.match_kind),
            })
            .collect();
        let action_refs = t
            .actions
            .iter()
            .map(|a| {
                let (scope, annotations) = if a.default_only {
                    ("DEFAULT_ONLY", vec!["@defaultonly".to_string()])
                } else if a.table_only {
                    ("TABLE_ONLY", vec!["@tableonly".to_string()])
                } else {
                    ("TABLE_AND_DEFAULT", Vec::new())
                };
                ActionRef {
                    id: self.action(a.action, block, path),
                    scope,
                    annotations,
                }
            })
            .collect();
        let const_default_action_id = t
            .default_action
            .as_ref()
            .filter(|_| t.default_is_const)
            .map(|a| self.action(a.action, block, path));
        self.info.tables.push(Table {
            preamble: preamble(id, &name, &t.annotations),
            match_fields,
            action_refs,
            const_default_action_id,
            implementation_id: None,
            direct_resource_ids: Vec::new(),
            size: t.size.unwrap_or(1024),
            idle_timeout: t.support_timeout,
            is_const_table: t.entries_const && !t.entries.is_empty(),
        });
        self.emitted_tables.push((table, block, path.to_string()));
    }

    /// Indexes in `info.tables` of the emitted tables that `uses` the
    /// instance; for an instance of a block, only that block instance's tables.
    fn tables_using(
        &self,
        inst: ir::InstanceId,
        path: Option<&str>,
        uses: impl Fn(&ir::Table) -> Option<ir::InstanceId>,
    ) -> Vec<usize> {
        self.emitted_tables
            .iter()
            .enumerate()
            .filter(|(_, (t, _, tpath))| {
                uses(&self.p.tables[t.0 as usize]) == Some(inst)
                    && path.is_none_or(|pp| pp == tpath)
            })
            .map(|(k, _)| k)
            .collect()
    }

    /// An extern instance of a block instance at `path`, or a top-level one.
    /// An extern instance at `path` (`None` at the top level); `values`
    /// binds the enclosing block's constructor parameters, for sizes
    /// computed from them.
    fn extern_instance(
        &mut self,
        i: ir::InstanceId,
        path: Option<&str>,
        values: &HashMap<ir::VarId, ir::Value>,
    ) {
        let p = self.p;
        let inst = &p.instances[i.0 as usize];
        let InstanceOf::Extern { name: ext } = &inst.of else {
            return;
        };
        let cp = inst.cp_name.under(path.unwrap_or(""));
        let arg = |k: usize| {
            let e = inst.args.get(k)?;
            const_value(e).or_else(|| match fold_with(&p.types, e, values)? {
                ir::Value::Int(v) => v.to_u64(),
                _ => None,
            })
        };
        let unit_arg = |k: usize| match inst.args.get(k).map(|e| &e.kind) {
            Some(ExprKind::Const(ir::Value::Enum(v))) => *v,
            _ => 0,
        };
        let annos = &inst.annotations;
        match canonical_extern(ext) {
            "digest" => {
                if let Ty::Extern { args, .. } = p.types.get(inst.ty)
                    && let Some(&t) = args.first()
                {
                    self.digest_types.push((cp, t));
                }
            }
            kind @ ("counter" | "meter") => {
                let counter = kind == "counter";
                let id = self.ids.alloc(
                    if counter {
                        prefix::COUNTER
                    } else {
                        prefix::METER
                    },
                    &cp,
                    annos,
                );
                let r = Resource {
                    preamble: preamble(id, &cp, annos),
                    unit: unit_name(counter, unit_arg(1)),
                    size: arg(0).unwrap_or(0),
                    direct_table_id: None,
                    bitwidth: 0,
                };
                if counter {
                    self.info.counters.push(r)
                } else {
                    self.info.meters.push(r)
                }
            }
            kind @ ("direct_counter" | "direct_meter") => {
                let counter = kind == "direct_counter";
                let tables = self.tables_using(i, path, |t| {
                    if counter {
                        t.direct_counter
                    } else {
                        t.direct_meter
                    }
                });
                let id = self.ids.alloc(
                    if counter {
                        prefix::DIRECT_COUNTER
                    } else {
                        prefix::DIRECT_METER
                    },
                    &cp,
                    annos,
                );
                let first = tables.first().copied();
                if let Some(k) = first {
                    self.info.tables[k].direct_resource_ids.push(id);
                }
                let r = Resource {
                    preamble: preamble(id, &cp, annos),
                    unit: unit_name(counter, unit_arg(0)),
                    size: first.map_or(0, |k| self.info.tables[k].size),
                    direct_table_id: first.map(|k| self.info.tables[k].preamble.id),
                    bitwidth: 0,
                };
                if counter {
                    self.info.direct_counters.push(r)
                } else {
                    self.info.direct_meters.push(r)
                }
            }
            "register" => {
                let id = self.ids.alloc(prefix::REGISTER, &cp, annos);
                let elem = match p.types.get(inst.ty) {
                    Ty::Extern { args, .. } => args.first().map_or(0, |t| width(&p.types, *t)),
                    _ => 0,
                };
                self.info.registers.push(Resource {
                    preamble: preamble(id, &cp, annos),
                    unit: "",
                    size: arg(0).unwrap_or(0),
                    direct_table_id: None,
                    bitwidth: elem,
                });
            }
            kind @ ("action_profile" | "action_selector") => {
                let with_selector = kind == "action_selector";
                let id = self.ids.alloc(prefix::ACTION_PROFILE, &cp, annos);
                let tables = self.tables_using(i, path, |t| t.implementation);
                for &k in &tables {
                    self.info.tables[k].implementation_id = Some(id);
                }
                let table_ids = tables
                    .iter()
                    .map(|&k| self.info.tables[k].preamble.id)
                    .collect();
                self.info.action_profiles.push(ActionProfile {
                    preamble: preamble(id, &cp, annos),
                    table_ids,
                    with_selector,
                    size: arg(if with_selector { 1 } else { 0 }).unwrap_or(0),
                });
            }
            _ => {}
        }
    }

    fn value_set(&mut self, v: ir::ValueSetId, path: &str) {
        let p = self.p;
        let vs = &p.value_sets[v.0 as usize];
        let name = vs.cp_name.under(path);
        let id = self.ids.alloc(prefix::VALUE_SET, &name, &[]);
        let fields = match p.types.struct_info(vs.elem) {
            Some(s) => s
                .fields
                .iter()
                .enumerate()
                .map(|(i, f)| MatchField {
                    id: i as u32 + 1,
                    name: f.name.clone(),
                    bitwidth: width(&p.types, f.ty),
                    match_type: "EXACT".into(),
                })
                .collect(),
            None => vec![MatchField {
                id: 1,
                name: String::new(),
                bitwidth: width(&p.types, vs.elem),
                match_type: "EXACT".into(),
            }],
        };
        self.info.value_sets.push(ValueSet {
            preamble: preamble(id, &name, &[]),
            fields,
            size: vs.size,
        });
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

fn struct_fields(types: &TypeTable, t: TyId) -> Vec<(String, u32)> {
    types
        .struct_info(t)
        .map(|s| {
            s.fields
                .iter()
                .map(|f| (f.name.clone(), width(types, f.ty)))
                .collect()
        })
        .unwrap_or_default()
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

fn preamble(id: u32, name: &str, annos: &[ast::Annotation]) -> Preamble {
    Preamble {
        id,
        name: name.to_string(),
        alias: name.to_string(),
        annotations: annotation_strings(annos),
    }
}

/// Calls every callee in every statement of the program.
fn visit_calls(p: &ir::Program, f: &mut dyn FnMut(&Callee)) {
    fn expr(e: &ir::Expr, f: &mut dyn FnMut(&Callee)) {
        if let ExprKind::Call(c, args) = &e.kind {
            f(c);
            for a in args.iter().flatten() {
                expr(a, f);
            }
        }
    }
    fn stmts(list: &[ir::Stmt], f: &mut dyn FnMut(&Callee)) {
        for s in list {
            match &s.kind {
                ir::StmtKind::Call(e) | ir::StmtKind::Assign(_, e) => expr(e, f),
                ir::StmtKind::If(_, a, b) => {
                    stmts(a, f);
                    stmts(b, f);
                }
                ir::StmtKind::Block(b) => stmts(b, f),
                ir::StmtKind::Switch(_, cases) => cases.iter().for_each(|c| stmts(&c.body, f)),
                ir::StmtKind::For {
                    init, update, body, ..
                } => {
                    stmts(init, f);
                    stmts(update, f);
                    stmts(body, f);
                }
                ir::StmtKind::ForIn { body, .. } => stmts(body, f),
                _ => {}
            }
        }
    }
    for a in &p.actions {
        stmts(&a.body, f);
    }
    for func in &p.functions {
        stmts(&func.body, f);
    }
    for b in &p.blocks {
        stmts(&b.apply, f);
        for st in &b.states {
            stmts(&st.body, f);
        }
    }
}

/// Sets each alias to the shortest dotted suffix of its name that no other
/// object's name ends with.
fn assign_aliases(info: &mut P4Info) {
    let mut preambles: Vec<&mut Preamble> = Vec::new();
    preambles.extend(info.tables.iter_mut().map(|t| &mut t.preamble));
    preambles.extend(info.actions.iter_mut().map(|t| &mut t.preamble));
    preambles.extend(info.action_profiles.iter_mut().map(|t| &mut t.preamble));
    for list in [
        &mut info.counters,
        &mut info.direct_counters,
        &mut info.meters,
        &mut info.direct_meters,
        &mut info.registers,
    ] {
        preambles.extend(list.iter_mut().map(|t| &mut t.preamble));
    }
    preambles.extend(info.value_sets.iter_mut().map(|t| &mut t.preamble));
    let names: Vec<String> = preambles.iter().map(|p| p.name.clone()).collect();
    for p in preambles {
        let parts: Vec<&str> = p.name.split('.').collect();
        for k in 1..=parts.len() {
            let suffix = parts[parts.len() - k..].join(".");
            let clashes = names
                .iter()
                .filter(|n| **n == suffix || n.ends_with(&format!(".{suffix}")))
                .count();
            if clashes <= 1 {
                p.alias = suffix;
                break;
            }
        }
    }
}

/// Renders P4Info in protobuf text format.
pub fn to_text(info: &P4Info) -> String {
    let mut w = String::new();
    if !info.arch.is_empty() {
        let _ = writeln!(w, "pkg_info {{\n  arch: {}\n}}", quote(&info.arch));
    }
    for t in &info.tables {
        w.push_str("tables {\n");
        write_preamble(&mut w, &t.preamble);
        for m in &t.match_fields {
            let _ = write!(
                w,
                "  match_fields {{\n    id: {}\n    name: {}\n    bitwidth: {}\n",
                m.id,
                quote(&m.name),
                m.bitwidth
            );
            write_match_type(&mut w, &m.match_type, "    ");
            w.push_str("  }\n");
        }
        for a in &t.action_refs {
            let _ = writeln!(w, "  action_refs {{\n    id: {}", a.id);
            for an in &a.annotations {
                let _ = writeln!(w, "    annotations: {}", quote(an));
            }
            if a.scope != "TABLE_AND_DEFAULT" {
                let _ = writeln!(w, "    scope: {}", a.scope);
            }
            w.push_str("  }\n");
        }
        if let Some(id) = t.const_default_action_id {
            let _ = writeln!(w, "  const_default_action_id: {id}");
        }
        if let Some(id) = t.implementation_id {
            let _ = writeln!(w, "  implementation_id: {id}");
        }
        for id in &t.direct_resource_ids {
            let _ = writeln!(w, "  direct_resource_ids: {id}");
        }
        let _ = writeln!(w, "  size: {}", t.size);
        if t.idle_timeout {
            w.push_str("  idle_timeout_behavior: NOTIFY_CONTROL\n");
        }
        if t.is_const_table {
            w.push_str("  is_const_table: true\n");
        }
        w.push_str("}\n");
    }
    for a in &info.actions {
        w.push_str("actions {\n");
        write_preamble(&mut w, &a.preamble);
        for p in &a.params {
            let _ = writeln!(
                w,
                "  params {{\n    id: {}\n    name: {}\n    bitwidth: {}\n  }}",
                p.id,
                quote(&p.name),
                p.bitwidth
            );
        }
        w.push_str("}\n");
    }
    for ap in &info.action_profiles {
        w.push_str("action_profiles {\n");
        write_preamble(&mut w, &ap.preamble);
        for t in &ap.table_ids {
            let _ = writeln!(w, "  table_ids: {t}");
        }
        if ap.with_selector {
            w.push_str("  with_selector: true\n");
        }
        let _ = writeln!(w, "  size: {}\n}}", ap.size);
    }
    for (field, list) in [
        ("counters", &info.counters),
        ("direct_counters", &info.direct_counters),
    ] {
        for c in list {
            let _ = writeln!(w, "{field} {{");
            write_preamble(&mut w, &c.preamble);
            let _ = writeln!(w, "  spec {{\n    unit: {}\n  }}", c.unit);
            match c.direct_table_id {
                Some(t) => drop(writeln!(w, "  direct_table_id: {t}")),
                None => drop(writeln!(w, "  size: {}", c.size)),
            }
            w.push_str("}\n");
        }
    }
    for (field, list) in [
        ("meters", &info.meters),
        ("direct_meters", &info.direct_meters),
    ] {
        for m in list {
            let _ = writeln!(w, "{field} {{");
            write_preamble(&mut w, &m.preamble);
            let _ = writeln!(w, "  spec {{\n    unit: {}\n  }}", m.unit);
            match m.direct_table_id {
                Some(t) => drop(writeln!(w, "  direct_table_id: {t}")),
                None => drop(writeln!(w, "  size: {}", m.size)),
            }
            w.push_str("}\n");
        }
    }
    for h in &info.controller_packet_metadata {
        w.push_str("controller_packet_metadata {\n");
        write_preamble(&mut w, &h.preamble);
        for m in &h.metadata {
            let _ = writeln!(
                w,
                "  metadata {{\n    id: {}\n    name: {}\n    bitwidth: {}\n  }}",
                m.id,
                quote(&m.name),
                m.bitwidth
            );
        }
        w.push_str("}\n");
    }
    for v in &info.value_sets {
        w.push_str("value_sets {\n");
        write_preamble(&mut w, &v.preamble);
        for m in &v.fields {
            let _ = write!(
                w,
                "  match {{\n    id: {}\n    name: {}\n    bitwidth: {}\n",
                m.id,
                quote(&m.name),
                m.bitwidth
            );
            write_match_type(&mut w, &m.match_type, "    ");
            w.push_str("  }\n");
        }
        let _ = writeln!(w, "  size: {}\n}}", v.size);
    }
    for r in &info.registers {
        w.push_str("registers {\n");
        write_preamble(&mut w, &r.preamble);
        let _ = writeln!(
            w,
            "  type_spec {{\n    bitstring {{\n      bit {{\n        bitwidth: {}\n      }}\n    }}\n  }}\n  size: {}\n}}",
            r.bitwidth, r.size
        );
    }
    for d in &info.digests {
        w.push_str("digests {\n");
        write_preamble(&mut w, &d.preamble);
        let _ = writeln!(
            w,
            "  type_spec {{\n    struct {{\n      name: {}\n    }}\n  }}\n}}",
            quote(&d.preamble.name)
        );
    }
    w
}

fn write_preamble(w: &mut String, p: &Preamble) {
    let _ = writeln!(
        w,
        "  preamble {{\n    id: {}\n    name: {}\n    alias: {}",
        p.id,
        quote(&p.name),
        quote(&p.alias)
    );
    for a in &p.annotations {
        let _ = writeln!(w, "    annotations: {}", quote(a));
    }
    w.push_str("  }\n");
}

fn write_match_type(w: &mut String, mt: &str, indent: &str) {
    match mt.strip_prefix("other:") {
        Some(other) => drop(writeln!(w, "{indent}other_match_type: {}", quote(other))),
        None => drop(writeln!(w, "{indent}match_type: {mt}")),
    }
}

/// A protobuf text-format string literal (the same escapes as P4's).
fn quote(s: &str) -> String {
    crate::pretty::string_lit(s)
}
