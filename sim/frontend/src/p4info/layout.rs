//! What p4c's front end leaves for its P4Info generator, and in which
//! order: nested parsers and controls inlined where they are declared
//! (`Inline`), declarations nothing uses removed (`RemoveAllUnusedDeclarations`:
//! tables never applied, actions no kept table lists and no apply block
//! calls, parser and control instances never applied, with all they hold;
//! an action called only from other actions is inlined into them and
//! removed), and the top-level actions a control uses copied to the front
//! of it in order of first use (`LocalizeAllActions`). The generator then
//! walks the evaluated blocks breadth first: the top-level extern
//! instances, then the package's parsers and controls (their actions and
//! digests, their value sets), then their tables and extern instances in
//! declaration order.

use crate::ir::{self, BlockId, Callee, ExprKind, InstanceId, InstanceOf, StmtKind};
use crate::types::TyId;
use std::collections::HashSet;

/// One parser or control of the package, as p4c sees it after inlining.
#[derive(Default)]
pub(super) struct Top {
    /// Its actions: the top-level ones it uses (instance path ""), then its
    /// own and those of the instances inlined into it, with the path of the
    /// instance that declares them.
    pub actions: Vec<(ir::ActionId, String)>,
    /// The `digest<T>` types its actions and apply block send, in order.
    pub digests: Vec<TyId>,
    /// Its tables and extern instances in declaration order.
    pub items: Vec<Item>,
    pub value_sets: Vec<(ir::ValueSetId, String)>,
}

pub(super) enum Item {
    Table(ir::TableId, String),
    Extern(InstanceId, String),
}

pub(super) struct Layout {
    /// Extern instances declared at the top level.
    pub globals: Vec<InstanceId>,
    pub tops: Vec<Top>,
}

/// Something an apply block does that matters here, in statement order.
enum Event {
    Table(ir::TableId),
    Block(InstanceId),
    Action(ir::ActionId),
    Digest(TyId),
}

pub(super) fn layout(p: &ir::Program) -> Layout {
    let declared: HashSet<u32> = p
        .blocks
        .iter()
        .flat_map(|b| b.instances.iter().map(|i| i.0))
        .collect();
    let globals = (0..p.instances.len() as u32)
        .filter(|i| !declared.contains(i))
        .map(InstanceId)
        .filter(|&i| matches!(p.instances[i.0 as usize].of, InstanceOf::Extern { .. }))
        .filter(|&i| !in_place(p, i))
        .collect();
    let global_action = |a: ir::ActionId| !p.blocks.iter().any(|b| b.actions.contains(&a));
    let mut tops = Vec::new();
    match p.main {
        Some(main) => {
            for child in p.child_instances(main) {
                let inst = &p.instances[child.0 as usize];
                if let InstanceOf::Block(b) = inst.of {
                    tops.push(top(p, b, child, inst.name.clone(), &global_action));
                }
            }
        }
        None => {
            for (i, b) in p.blocks.iter().enumerate() {
                let id = BlockId(i as u32);
                let as_top = p.blocks.iter().all(|o| {
                    !o.instances.iter().any(|&x| {
                        matches!(p.instances[x.0 as usize].of, InstanceOf::Block(bb) if bb == id)
                    })
                });
                if as_top {
                    // No instance: the block stands for itself, under its name.
                    tops.push(top_of_block(p, id, b.name.clone(), &global_action));
                }
            }
        }
    }
    Layout { globals, tops }
}

fn top(
    p: &ir::Program,
    b: BlockId,
    inst: InstanceId,
    path: String,
    global_action: &dyn Fn(ir::ActionId) -> bool,
) -> Top {
    let mut flat = Flat::default();
    flatten(p, b, Some(inst), &path, global_action, &mut flat);
    finish(p, flat)
}

fn top_of_block(
    p: &ir::Program,
    b: BlockId,
    path: String,
    global_action: &dyn Fn(ir::ActionId) -> bool,
) -> Top {
    let mut flat = Flat::default();
    flatten(p, b, None, &path, global_action, &mut flat);
    finish(p, flat)
}

#[derive(Default)]
struct Flat {
    items: Vec<Item>,
    value_sets: Vec<(ir::ValueSetId, String)>,
    locals: Vec<(ir::ActionId, String)>,
    /// Top-level actions in order of first use by the tables.
    global_uses: Vec<ir::ActionId>,
    /// The apply blocks' events, nested blocks' inlined where applied.
    body: Vec<(Event, String)>,
}

fn finish(p: &ir::Program, mut flat: Flat) -> Top {
    let mut globals = flat.global_uses;
    for (e, _) in &flat.body {
        if let Event::Action(a) = e
            && !p.blocks.iter().any(|b| b.actions.contains(a))
            && !globals.contains(a)
        {
            globals.push(*a);
        }
    }
    let mut actions: Vec<(ir::ActionId, String)> =
        globals.into_iter().map(|a| (a, String::new())).collect();
    actions.append(&mut flat.locals);
    let mut digests = Vec::new();
    let mut seen = HashSet::new();
    for (a, _) in &actions {
        action_digests(p, *a, &mut digests, &mut seen);
    }
    for (e, _) in &flat.body {
        if let Event::Digest(t) = e {
            digests.push(*t);
        }
    }
    Top {
        actions,
        digests,
        items: flat.items,
        value_sets: flat.value_sets,
    }
}

/// The digests an action sends, through the actions and functions it calls.
fn action_digests(p: &ir::Program, a: ir::ActionId, out: &mut Vec<TyId>, seen: &mut HashSet<u32>) {
    let mut events = Vec::new();
    stmt_events(
        p,
        &p.actions[a.0 as usize].body,
        &mut events,
        &mut HashSet::new(),
    );
    for e in events {
        match e {
            Event::Digest(t) => out.push(t),
            Event::Action(inner) if seen.insert(inner.0) => action_digests(p, inner, out, seen),
            _ => {}
        }
    }
}

/// Inlines the block `b` (its instance `inst`, at `path`) into `flat`.
fn flatten(
    p: &ir::Program,
    b: BlockId,
    inst: Option<InstanceId>,
    path: &str,
    global_action: &dyn Fn(ir::ActionId) -> bool,
    flat: &mut Flat,
) {
    let blk = &p.blocks[b.0 as usize];
    let mut events = Vec::new();
    let mut functions = HashSet::new();
    stmt_events(p, &blk.apply, &mut events, &mut functions);
    for st in &blk.states {
        stmt_events(p, &st.body, &mut events, &mut functions);
    }
    let applied_tables: HashSet<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::Table(t) => Some(t.0),
            _ => None,
        })
        .collect();
    let mut applied_blocks: HashSet<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::Block(i) => Some(i.0),
            _ => None,
        })
        .collect();
    if let Some(i) = inst {
        // Instances created in this instance's constructor call, applied
        // through its constructor parameters.
        for child in p.child_instances(i) {
            if !blk.instances.contains(&child) {
                applied_blocks.insert(child.0);
            }
        }
    }
    let mut used_actions: HashSet<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::Action(a) => Some(a.0),
            _ => None,
        })
        .collect();

    // Declarations in source order.
    enum Decl {
        Table(ir::TableId),
        Instance(InstanceId),
        Action(ir::ActionId),
    }
    let mut decls: Vec<(u32, Decl)> = Vec::new();
    decls.extend(
        blk.tables
            .iter()
            .map(|&t| (p.tables[t.0 as usize].span.lo, Decl::Table(t))),
    );
    decls.extend(
        blk.instances
            .iter()
            .map(|&i| (p.instances[i.0 as usize].span.lo, Decl::Instance(i))),
    );
    decls.extend(
        blk.actions
            .iter()
            .map(|&a| (p.actions[a.0 as usize].span.lo, Decl::Action(a))),
    );
    decls.sort_by_key(|(lo, _)| *lo);

    for t in blk.tables.iter().filter(|t| applied_tables.contains(&t.0)) {
        for a in table_actions(p, *t) {
            used_actions.insert(a.0);
        }
    }
    // Constructor-call children come first (they live in the call).
    if let Some(i) = inst {
        for child in p.child_instances(i) {
            if !blk.instances.contains(&child) {
                inline_child(p, child, path, global_action, flat);
            }
        }
    }
    for (_, d) in decls {
        match d {
            Decl::Table(t) if applied_tables.contains(&t.0) => {
                for a in table_actions(p, t) {
                    if global_action(a) && !flat.global_uses.contains(&a) {
                        flat.global_uses.push(a);
                    }
                }
                flat.items.push(Item::Table(t, path.to_string()));
            }
            Decl::Table(_) => {}
            Decl::Instance(i) => match p.instances[i.0 as usize].of {
                InstanceOf::Extern { .. } => flat.items.push(Item::Extern(i, path.to_string())),
                InstanceOf::Block(_) if applied_blocks.contains(&i.0) => {
                    inline_child(p, i, path, global_action, flat)
                }
                _ => {}
            },
            Decl::Action(a) if used_actions.contains(&a.0) => {
                flat.locals.push((a, path.to_string()))
            }
            Decl::Action(_) => {}
        }
    }
    flat.value_sets
        .extend(blk.value_sets.iter().map(|&v| (v, path.to_string())));
    // The apply block, with the bodies of the blocks it applies in place.
    for e in events {
        match e {
            Event::Block(i) => {
                let name = &p.instances[i.0 as usize].name;
                flat.body.push((Event::Block(i), format!("{path}.{name}")));
            }
            other => flat.body.push((other, path.to_string())),
        }
    }
}

fn inline_child(
    p: &ir::Program,
    child: InstanceId,
    path: &str,
    global_action: &dyn Fn(ir::ActionId) -> bool,
    flat: &mut Flat,
) {
    let inst = &p.instances[child.0 as usize];
    if let InstanceOf::Block(cb) = inst.of {
        let child_path = if path.is_empty() {
            inst.name.clone()
        } else {
            format!("{path}.{}", inst.name)
        };
        flatten(p, cb, Some(child), &child_path, global_action, flat);
    }
}

/// The actions a table refers to: its list, in order (its default, its
/// entries' actions and the implicit `NoAction` are in the list).
fn table_actions(p: &ir::Program, t: ir::TableId) -> Vec<ir::ActionId> {
    let table = &p.tables[t.0 as usize];
    table.actions.iter().map(|a| a.action).collect()
}

/// The top-level `NoAction` of core.p4, which p4c adds to a table without
/// a default action.
pub(super) fn no_action(p: &ir::Program) -> Option<ir::ActionId> {
    (0..p.actions.len() as u32).map(ir::ActionId).find(|a| {
        p.actions[a.0 as usize].name == "NoAction"
            && !p.blocks.iter().any(|b| b.actions.contains(a))
    })
}

/// The events of a statement list in order; calls of functions are
/// followed into their bodies (p4c inlines functions).
fn stmt_events(
    p: &ir::Program,
    list: &[ir::Stmt],
    out: &mut Vec<Event>,
    functions: &mut HashSet<u32>,
) {
    for s in list {
        match &s.kind {
            StmtKind::Call(e) | StmtKind::Assign(_, e) => expr_events(p, e, out, functions),
            StmtKind::If(c, a, b) => {
                expr_events(p, c, out, functions);
                stmt_events(p, a, out, functions);
                stmt_events(p, b, out, functions);
            }
            StmtKind::Block(b) => stmt_events(p, b, out, functions),
            StmtKind::Switch(e, cases) => {
                expr_events(p, e, out, functions);
                for c in cases {
                    stmt_events(p, &c.body, out, functions);
                }
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                stmt_events(p, init, out, functions);
                if let Some(c) = cond {
                    expr_events(p, c, out, functions);
                }
                stmt_events(p, body, out, functions);
                stmt_events(p, update, out, functions);
            }
            StmtKind::ForIn {
                collection, body, ..
            } => {
                expr_events(p, collection, out, functions);
                stmt_events(p, body, out, functions);
            }
            StmtKind::Declare(_, Some(e)) | StmtKind::Return(Some(e)) => {
                expr_events(p, e, out, functions)
            }
            _ => {}
        }
    }
}

fn expr_events(p: &ir::Program, e: &ir::Expr, out: &mut Vec<Event>, functions: &mut HashSet<u32>) {
    for o in e.operands() {
        expr_events(p, o, out, functions);
    }
    if let ExprKind::Call(callee, _) = &e.kind {
        match callee {
            Callee::TableApply(t) => out.push(Event::Table(*t)),
            Callee::Action(a) => out.push(Event::Action(*a)),
            Callee::BlockApply(recv) => {
                if let ExprKind::Instance(i) = recv.kind {
                    out.push(Event::Block(i));
                }
            }
            Callee::ExternFunction { name, type_args } if name == "digest" => {
                if let Some(&t) = type_args.first() {
                    out.push(Event::Digest(t));
                }
            }
            Callee::Function(f) if functions.insert(f.0) => {
                let body = &p.functions[f.0 as usize].body;
                stmt_events(p, body, out, functions);
                functions.remove(&f.0);
            }
            _ => {}
        }
    }
}

/// Whether instance `i` is constructed in a table property
/// (`implementation = action_selector(...)`): p4c adds it with its table.
pub(super) fn in_place(p: &ir::Program, i: InstanceId) -> bool {
    let span = p.instances[i.0 as usize].span;
    p.tables.iter().any(|t| {
        [t.implementation, t.direct_counter, t.direct_meter].contains(&Some(i))
            && t.span.lo <= span.lo
            && span.hi <= t.span.hi
    })
}
