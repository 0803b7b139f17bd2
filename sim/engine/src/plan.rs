//! The storage plan: where every variable of every block instance lives in
//! the per-packet arena, decided once when a pipeline is loaded.
//!
//! Each parser or control instance (an entry of
//! [`ir::Program::instance_paths`]) owns a frame holding its parameters,
//! its local variables and the parameters and locals of its actions.
//! Functions and top-level actions are shared by every instance; P4 has no
//! recursion, so each gets one frame of its own. Frames are laid out one
//! after the other; a variable's place is its frame's base plus its offset,
//! all byte-aligned (see [`crate::layout`]).

use crate::layout::{LayoutError, Layouts};
use janus_p4::ir::{self, BlockId, StmtKind, VarId};
use std::collections::HashMap;

/// Who owns a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameOwner {
    /// A parser or control instance, by index in the plan's instance list.
    Instance {
        block: BlockId,
        path: String,
    },
    Function(ir::FunctionId),
    /// An action declared at the top level (shared by all blocks).
    Action(ir::ActionId),
}

#[derive(Clone, Debug)]
pub struct Frame {
    pub owner: FrameOwner,
    /// Byte offset of the frame in the arena.
    pub base: u32,
    pub bytes: u32,
    /// Byte offset of each variable within the frame.
    pub vars: HashMap<VarId, u32>,
}

/// Where everything lives.
#[derive(Clone, Debug)]
pub struct StoragePlan {
    pub frames: Vec<Frame>,
    /// Size of a packet's arena in bytes.
    pub arena_bytes: u32,
}

impl StoragePlan {
    /// Plans storage for every block instance reachable from `main` (or
    /// every block, for a program without one), function and top-level
    /// action.
    pub fn new(p: &ir::Program) -> Result<StoragePlan, LayoutError> {
        let mut layouts = Layouts::new(&p.types);
        let mut frames = Vec::new();
        let mut base: u64 = 0;
        let block_actions: Vec<ir::ActionId> = p
            .blocks
            .iter()
            .flat_map(|b| b.actions.iter().copied())
            .collect();
        let mut owners: Vec<(FrameOwner, Vec<VarId>)> = Vec::new();
        for (block, path) in p.instance_paths() {
            owners.push((FrameOwner::Instance { block, path }, block_vars(p, block)));
        }
        for (i, f) in p.functions.iter().enumerate() {
            let mut vars: Vec<VarId> = f.params.iter().map(|x| x.var).collect();
            declared_in(&f.body, &mut vars);
            owners.push((FrameOwner::Function(ir::FunctionId(i as u32)), vars));
        }
        for i in 0..p.actions.len() as u32 {
            let id = ir::ActionId(i);
            if !block_actions.contains(&id) {
                owners.push((FrameOwner::Action(id), action_vars(p, id)));
            }
        }
        for (owner, vars) in owners {
            let mut offsets = HashMap::with_capacity(vars.len());
            let mut size: u64 = 0;
            for v in vars {
                if offsets.contains_key(&v) {
                    continue;
                }
                let ty = p.var(v).ty;
                // Parameters of extern or block types (a control passed to a
                // constructor, a packet_in) have no storage.
                let Ok(layout) = layouts.layout(ty) else {
                    continue;
                };
                offsets.insert(v, size as u32);
                size += layout.bytes as u64;
            }
            let bytes = u32::try_from(size).map_err(|_| LayoutError::TooLarge("a frame".into()))?;
            frames.push(Frame {
                owner,
                base: base as u32,
                bytes,
                vars: offsets,
            });
            base += size;
            if base > u32::MAX as u64 {
                return Err(LayoutError::TooLarge("the packet state".into()));
            }
        }
        Ok(StoragePlan {
            frames,
            arena_bytes: base as u32,
        })
    }

    /// Where the variables of functions and top-level actions live: every
    /// block may call them, so every block's compiler needs these.
    pub fn shared_vars(&self) -> HashMap<VarId, u32> {
        self.frames
            .iter()
            .filter(|f| matches!(f.owner, FrameOwner::Function(_) | FrameOwner::Action(_)))
            .flat_map(|f| f.vars.iter().map(move |(v, off)| (*v, f.base + off)))
            .collect()
    }

    /// The frame of the block instance at `path`.
    pub fn instance_frame(&self, path: &str) -> Option<&Frame> {
        self.frames
            .iter()
            .find(|f| matches!(&f.owner, FrameOwner::Instance { path: p, .. } if p == path))
    }
}

/// Variables a block instance owns: its parameters, locals, state and
/// apply-body declarations, and its actions' parameters and locals.
fn block_vars(p: &ir::Program, block: BlockId) -> Vec<VarId> {
    let b = &p.blocks[block.0 as usize];
    let mut vars: Vec<VarId> = b
        .params
        .iter()
        .chain(&b.ctor_params)
        .map(|x| x.var)
        .collect();
    declared_in(&b.locals, &mut vars);
    for s in &b.states {
        declared_in(&s.body, &mut vars);
    }
    declared_in(&b.apply, &mut vars);
    for &a in &b.actions {
        vars.extend(action_vars(p, a));
    }
    vars
}

fn action_vars(p: &ir::Program, a: ir::ActionId) -> Vec<VarId> {
    let act = &p.actions[a.0 as usize];
    let mut vars: Vec<VarId> = act.params.iter().map(|x| x.var).collect();
    declared_in(&act.body, &mut vars);
    vars
}

/// Every variable declared in `stmts`, nested blocks included.
fn declared_in(stmts: &[ir::Stmt], out: &mut Vec<VarId>) {
    for s in stmts {
        if let StmtKind::Declare(v, _) | StmtKind::ForIn { var: v, .. } = &s.kind {
            out.push(*v);
        }
        for body in s.bodies() {
            declared_in(body, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janus_p4::driver::{Options, compile_source};

    const PROGRAM: &str = r#"
        #include <core.p4>
        header h_t { bit<8> a; bit<16> b; }
        struct s_t { h_t h; bit<9> port; }
        control Inner(inout s_t s) {
            bit<32> scratch;
            action set(bit<9> p) { bit<4> tmp = 1; s.port = p; }
            apply { if (s.h.isValid()) { bit<8> x = s.h.a; s.h.a = x + 1; } }
        }
        control Outer(inout s_t s) {
            Inner() one;
            Inner() two;
            apply { one.apply(s); two.apply(s); }
        }
        control Pt(inout s_t s);
        package Pkg(Pt p);
        Pkg(Outer()) main;
    "#;

    fn plan() -> (ir::Program, StoragePlan) {
        let c = compile_source("plan.p4", PROGRAM.into(), &Options::default());
        assert!(!c.has_errors(), "{}", c.render(false));
        let p = c.ir.expect("ir");
        let plan = StoragePlan::new(&p).expect("plan");
        (p, plan)
    }

    #[test]
    fn each_instance_owns_a_frame_of_its_variables() {
        let (p, plan) = plan();
        let paths: Vec<String> = plan
            .frames
            .iter()
            .filter_map(|f| match &f.owner {
                FrameOwner::Instance { path, .. } => Some(path.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(paths, ["Outer", "Outer.one", "Outer.two"]);
        let one = plan.instance_frame("Outer.one").expect("frame");
        let names: std::collections::BTreeSet<&str> =
            one.vars.keys().map(|v| p.var(*v).name.as_str()).collect();
        assert_eq!(
            names,
            ["p", "s", "scratch", "tmp", "x"].into_iter().collect()
        );
        // s_t = header (3 wire bytes + validity) + bit<9> (2 bytes) = 6;
        // scratch 4, p 2, tmp 1, x 1.
        assert_eq!(one.bytes, 6 + 4 + 2 + 1 + 1);
    }

    #[test]
    fn frames_do_not_overlap_and_fill_the_arena() {
        let (_, plan) = plan();
        let mut end = 0;
        for f in &plan.frames {
            assert_eq!(f.base, end, "{:?}", f.owner);
            let mut slots: Vec<u32> = f.vars.values().copied().collect();
            slots.sort();
            slots.dedup();
            assert_eq!(slots.len(), f.vars.len(), "two variables share a slot");
            end += f.bytes;
        }
        assert_eq!(end, plan.arena_bytes);
        // The top-level NoAction-free program has only instance frames and
        // no shared action frames besides those declared at top level.
        assert!(
            plan.frames
                .iter()
                .all(|f| !matches!(f.owner, FrameOwner::Function(_)))
        );
    }
}
