//! E0408: two control-plane objects with one fully qualified name.
//!
//! p4c refuses such programs in two places, and this check follows both:
//!
//! * Actions: the front end's `DuplicateActionControlPlaneNameCheck`
//!   (frontends/p4/duplicateActionControlPlaneNameCheck.cpp), which runs
//!   late in the front end, after unused declarations are removed and
//!   before `LocalizeAllActions` copies top-level actions into the controls
//!   that use them. Every action is in one namespace, under its absolute
//!   name: an `@name` starting with `.` as written, anything else prefixed
//!   with the enclosing control (nothing at the top level). So a top-level
//!   `action a`, a top-level `@name("a")` and an `@name(".a")` in a control
//!   all name `a`. One declaration is one object however many controls use
//!   it. Janus also takes two empty, identically declared control-local
//!   actions with the same absolute `@name` as one (see [`copies`]): p4c
//!   writes such copies itself, and the corpus has programs in that shape.
//! * Tables and extern instances: the P4Info serializer's duplicate check
//!   (control-plane/p4RuntimeSerializer.cpp, `checkForDuplicates`), which
//!   compares the names of the objects of each P4Info type separately
//!   (tables with tables, counters with counters, ...), under their
//!   hierarchical names in the evaluated program: one object per instance
//!   of the block declaring it, so an `@name(".t")` table in a control
//!   instantiated twice is two tables named `t`.
//!
//! Only what p4c keeps is compared: actions that an applied table lists or
//! an apply block (or parser state) calls, applied tables, and the objects
//! of the parsers and controls reachable from `main` through applied
//! instances. `@hidden` tables and instances are not in P4Info. Without
//! `main` p4c removes every parser and control, so nothing is checked.

use super::Checker;
use crate::ast;
use crate::diag::{Code, Diagnostic};
use crate::ir::{self, ActionId, BlockId, Callee, ExprKind, InstanceId, InstanceOf, StmtKind};
use crate::source::Span;
use std::collections::{HashMap, HashSet};

/// A namespace: actions, tables, or one P4Info type of extern instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Action,
    Table,
    Extern(&'static str),
}

/// Which declaration an object comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Decl {
    Action(ActionId),
    Table(ir::TableId),
    Instance(InstanceId),
}

/// One control-plane object (a declaration in one block instance).
struct Object {
    kind: Kind,
    decl: Decl,
    /// The fully qualified name, without a leading `.`.
    name: String,
    /// How to call it in a message: "table `t1`".
    short: String,
    /// The instance path of the block it is in ("" at the top level);
    /// tables and instances in different copies are different objects.
    path: String,
    /// The block instances from the top down to that block.
    chain: Vec<InstanceId>,
    span: Span,
}

impl Object {
    /// "table `t` of `I`", or "action `a`" at the top level.
    fn what(&self) -> String {
        if self.path.is_empty() {
            self.short.clone()
        } else {
            format!("{} of `{}`", self.short, self.path)
        }
    }

    /// Tables and instances are one object per path; an action is one
    /// object wherever it is used.
    fn same_object(&self, other: &Object) -> bool {
        self.decl == other.decl && (self.kind == Kind::Action || self.path == other.path)
    }
}

/// Whether two actions are copies of one action as p4c writes them into
/// the controls that use it (`@name("._drop") action _drop_0() {...}` in
/// each control of p4c's own output, as of a translated P4_14 program): both
/// in controls, the same absolute `@name`, and declarations that read the
/// same but for the action's name and annotations (`shapes`). P4Info holds
/// such copies once, as one action.
fn copies(p: &ir::Program, shapes: &HashMap<Span, String>, a: &Object, b: &Object) -> bool {
    let (Decl::Action(x), Decl::Action(y)) = (a.decl, b.decl) else {
        return false;
    };
    let (x, y) = (&p.actions[x.0 as usize], &p.actions[y.0 as usize]);
    let absolute = |act: &ir::Action| {
        ast::annotation_str(&act.annotations, "name").filter(|n| n.starts_with('.'))
    };
    !a.path.is_empty()
        && !b.path.is_empty()
        && absolute(x).is_some()
        && absolute(x) == absolute(y)
        && shapes
            .get(&x.span)
            .is_some_and(|sx| shapes.get(&y.span) == Some(sx))
}

/// The text of each control-local action with an absolute `@name`, by
/// declaration span, without its name and annotations (for [`copies`]).
fn action_shapes(program: &ast::Program) -> HashMap<Span, String> {
    let mut out = HashMap::new();
    for d in &program.decls {
        let ast::DeclKind::Control(c) = &d.kind else {
            continue;
        };
        for l in &c.locals {
            let ast::DeclKind::Action(a) = &l.kind else {
                continue;
            };
            let absolute =
                ast::annotation_str(&a.annotations, "name").is_some_and(|n| n.starts_with('.'));
            if !absolute {
                continue;
            }
            let mut bare = a.clone();
            bare.name.name = String::new();
            bare.annotations = Vec::new();
            let text = crate::pretty::decl(&ast::Decl {
                kind: ast::DeclKind::Action(bare),
                span: l.span,
            });
            out.insert(l.span, text);
        }
    }
    out
}

/// The P4Info type of an extern instance, for the architectures p4c writes
/// P4Info for (other externs are not in P4Info).
fn extern_kind(name: &str) -> Option<&'static str> {
    Some(match name {
        "counter" | "Counter" => "counter",
        "direct_counter" | "DirectCounter" => "direct counter",
        "meter" | "Meter" => "meter",
        "direct_meter" | "DirectMeter" => "direct meter",
        "register" | "Register" => "register",
        "action_profile" | "ActionProfile" | "action_selector" | "ActionSelector" => {
            "action profile"
        }
        "Digest" => "digest",
        _ => return None,
    })
}

fn hidden(annotations: &[ast::Annotation]) -> bool {
    ast::find_annotation(annotations, "hidden").is_some()
}

impl Checker<'_> {
    /// Reports E0408 for each object whose name an earlier one (in source
    /// order) already has. Runs on a program without errors.
    pub(crate) fn check_control_plane_names(&mut self, program: &ast::Program) {
        if self.diags.has_errors() {
            return;
        }
        let mut objects = collect(&self.prog);
        if objects.is_empty() {
            return;
        }
        let shapes = action_shapes(program);
        objects.sort_by(|a, b| (a.span.lo, &a.path).cmp(&(b.span.lo, &b.path)));
        let mut first: HashMap<(Kind, &str), usize> = HashMap::new();
        let mut conflicts = Vec::new();
        // An action used in several places is one object: report it once.
        let mut reported = HashSet::new();
        for (k, o) in objects.iter().enumerate() {
            match first.get(&(o.kind, o.name.as_str())) {
                None => {
                    first.insert((o.kind, o.name.as_str()), k);
                }
                Some(&f)
                    if !objects[f].same_object(o)
                        && !copies(&self.prog, &shapes, &objects[f], o) =>
                {
                    let copy = if o.kind == Kind::Action {
                        ""
                    } else {
                        o.path.as_str()
                    };
                    if reported.insert((objects[f].decl, o.decl, copy)) {
                        conflicts.push((f, k))
                    }
                }
                Some(_) => {}
            }
        }
        for (f, k) in conflicts {
            let d = self.conflict(&objects[f], &objects[k]);
            self.diags.push(d);
        }
    }

    fn conflict(&self, first: &Object, second: &Object) -> Diagnostic {
        let name = &second.name;
        if first.decl == second.decl {
            // One declaration in two block instances: point at the instance
            // that makes the second copy.
            let depth = first
                .chain
                .iter()
                .zip(&second.chain)
                .take_while(|(a, b)| a == b)
                .count();
            let at = second
                .chain
                .get(depth)
                .map_or(second.span, |i| self.prog.instances[i.0 as usize].span);
            let mut d = Diagnostic::error(
                Code::ControlPlaneNameConflict,
                format!(
                    "conflicting control-plane name `{name}`: {} has it both in `{}` and in `{}`",
                    second.short, first.path, second.path
                ),
            );
            if let Some(fs) = self.map.resolve(at) {
                d = d.at(fs, format!("this instance makes a second `{name}`"));
            }
            if let Some(fs) = self.map.resolve(second.span) {
                d = d.also(fs, format!("{} is declared here", second.short));
            }
            return d.note("an `@name` starting with `.` names the same object in every instance");
        }
        let mut d = Diagnostic::error(
            Code::ControlPlaneNameConflict,
            format!(
                "conflicting control-plane name `{name}`: {} and {}, declared earlier, both have it",
                second.what(),
                first.what()
            ),
        );
        if let Some(fs) = self.map.resolve(second.span) {
            d = d.at(fs, format!("{} is `{name}`", second.short));
        }
        if let Some(fs) = self.map.resolve(first.span) {
            d = d.also(fs, format!("{} is `{name}` already", first.short));
        }
        d
    }
}

/// The objects p4c keeps, walking the instances from `main`.
fn collect(p: &ir::Program) -> Vec<Object> {
    let Some(main) = p.main else {
        return Vec::new();
    };
    let mut w = Walk {
        p,
        global_actions: (0..p.actions.len() as u32)
            .map(ActionId)
            .filter(|a| !p.blocks.iter().any(|b| b.actions.contains(a)))
            .collect(),
        objects: Vec::new(),
    };
    w.top_level_instances();
    w.package(main, &mut Vec::new());
    w.objects
}

struct Walk<'p> {
    p: &'p ir::Program,
    global_actions: HashSet<ActionId>,
    objects: Vec<Object>,
}

/// What a block's apply code does that keeps declarations.
#[derive(Default)]
struct Uses {
    tables: HashSet<ir::TableId>,
    blocks: HashSet<InstanceId>,
    actions: HashSet<ActionId>,
}

impl Walk<'_> {
    /// Extern instances declared at the top level: those no block declares
    /// and no other instance or table is constructed around.
    fn top_level_instances(&mut self) {
        let p = self.p;
        let in_blocks: HashSet<InstanceId> = p
            .blocks
            .iter()
            .flat_map(|b| b.instances.iter().copied())
            .collect();
        let inside = |s: Span, outer: Span| outer.lo <= s.lo && s.hi <= outer.hi && outer != s;
        for (k, inst) in p.instances.iter().enumerate() {
            let id = InstanceId(k as u32);
            if in_blocks.contains(&id)
                || p.instances.iter().any(|o| inside(inst.span, o.span))
                || p.tables.iter().any(|t| inside(inst.span, t.span))
            {
                continue;
            }
            self.instance(id, "", &[]);
        }
    }

    /// The parsers and controls a package instance holds, each a top.
    fn package(&mut self, i: InstanceId, chain: &mut Vec<InstanceId>) {
        let p = self.p;
        for child in p.child_instances(i) {
            chain.push(child);
            match p.instances[child.0 as usize].of {
                // Named after its type, as p4c names a top-level block.
                InstanceOf::Block(b) => {
                    self.block(b, child, p.blocks[b.0 as usize].name.clone(), chain)
                }
                InstanceOf::Package { .. } => self.package(child, chain),
                InstanceOf::Extern { .. } => {}
            }
            chain.pop();
        }
    }

    fn block(&mut self, b: BlockId, inst: InstanceId, path: String, chain: &mut Vec<InstanceId>) {
        let p = self.p;
        let blk = &p.blocks[b.0 as usize];
        let mut uses = Uses::default();
        let mut functions = HashSet::new();
        stmts(p, &blk.locals, &mut uses, &mut functions);
        stmts(p, &blk.apply, &mut uses, &mut functions);
        for st in &blk.states {
            stmts(p, &st.body, &mut uses, &mut functions);
        }
        let mut actions = uses.actions.clone();
        for &t in &blk.tables {
            if !uses.tables.contains(&t) {
                continue;
            }
            let table = &p.tables[t.0 as usize];
            actions.extend(table.actions.iter().map(|a| a.action));
            if hidden(&table.annotations) {
                continue;
            }
            self.objects.push(Object {
                kind: Kind::Table,
                decl: Decl::Table(t),
                name: table.cp_name.under(&path),
                short: format!("table `{}`", table.name),
                path: path.clone(),
                chain: chain.clone(),
                span: table.span,
            });
        }
        let mut actions: Vec<ActionId> = actions.into_iter().collect();
        actions.sort_by_key(|a| a.0);
        for a in actions {
            let action = &p.actions[a.0 as usize];
            let global = self.global_actions.contains(&a);
            let name = if global {
                action.cp_name.local.clone()
            } else {
                action.cp_name.under(&path)
            };
            self.objects.push(Object {
                kind: Kind::Action,
                decl: Decl::Action(a),
                name,
                short: format!("action `{}`", action.name),
                path: if global { String::new() } else { path.clone() },
                chain: if global { Vec::new() } else { chain.clone() },
                span: action.span,
            });
        }
        for &i in &blk.instances {
            self.instance(i, &path, chain);
        }
        // Blocks created in the constructor call are applied through the
        // constructor parameters; declared ones must be applied.
        for child in p.child_instances(inst) {
            let InstanceOf::Block(cb) = p.instances[child.0 as usize].of else {
                continue;
            };
            if blk.instances.contains(&child) && !uses.blocks.contains(&child) {
                continue;
            }
            let child_path = format!("{path}.{}", p.instances[child.0 as usize].name);
            chain.push(child);
            self.block(cb, child, child_path, chain);
            chain.pop();
        }
    }

    /// An extern instance of a P4Info type, in the block instance at `path`.
    fn instance(&mut self, i: InstanceId, path: &str, chain: &[InstanceId]) {
        let inst = &self.p.instances[i.0 as usize];
        let InstanceOf::Extern { name: ext } = &inst.of else {
            return;
        };
        let Some(kind) = extern_kind(ext) else {
            return;
        };
        if hidden(&inst.annotations) {
            return;
        }
        self.objects.push(Object {
            kind: Kind::Extern(kind),
            decl: Decl::Instance(i),
            name: inst.cp_name.under(path),
            short: format!("{kind} `{}`", inst.name),
            path: path.to_string(),
            chain: chain.to_vec(),
            span: inst.span,
        });
    }
}

/// The tables applied, blocks applied and actions called in `list`;
/// called functions are followed into their bodies.
fn stmts(p: &ir::Program, list: &[ir::Stmt], uses: &mut Uses, functions: &mut HashSet<u32>) {
    for s in list {
        match &s.kind {
            StmtKind::Assign(a, b) => {
                expr(p, a, uses, functions);
                expr(p, b, uses, functions);
            }
            StmtKind::Call(e) | StmtKind::Declare(_, Some(e)) | StmtKind::Return(Some(e)) => {
                expr(p, e, uses, functions)
            }
            StmtKind::If(c, a, b) => {
                expr(p, c, uses, functions);
                stmts(p, a, uses, functions);
                stmts(p, b, uses, functions);
            }
            StmtKind::Block(b) => stmts(p, b, uses, functions),
            StmtKind::Switch(e, cases) => {
                expr(p, e, uses, functions);
                for c in cases {
                    stmts(p, &c.body, uses, functions);
                }
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                stmts(p, init, uses, functions);
                if let Some(c) = cond {
                    expr(p, c, uses, functions);
                }
                stmts(p, update, uses, functions);
                stmts(p, body, uses, functions);
            }
            StmtKind::ForIn {
                collection, body, ..
            } => {
                expr(p, collection, uses, functions);
                stmts(p, body, uses, functions);
            }
            _ => {}
        }
    }
}

fn expr(p: &ir::Program, e: &ir::Expr, uses: &mut Uses, functions: &mut HashSet<u32>) {
    for o in e.operands() {
        expr(p, o, uses, functions);
    }
    if let ExprKind::Call(callee, _) = &e.kind {
        match callee {
            Callee::TableApply(t) => {
                uses.tables.insert(*t);
            }
            Callee::Action(a) => {
                uses.actions.insert(*a);
            }
            Callee::BlockApply(recv) => {
                if let ExprKind::Instance(i) = recv.kind {
                    uses.blocks.insert(i);
                }
            }
            Callee::Function(f) if functions.insert(f.0) => {
                stmts(p, &p.functions[f.0 as usize].body, uses, functions);
            }
            _ => {}
        }
    }
}
