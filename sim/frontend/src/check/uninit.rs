//! Warning W0004, as p4c's `FindUninitialized` (simplifyDefUse.cpp) gives
//! it for the simple cases: a scalar local variable declared without an
//! initialiser, or a scalar `out` parameter, read where some path from its
//! declaration has not assigned it ("x may be uninitialized"), and a scalar
//! `out` parameter of an action or function that some path leaves
//! unassigned ("out parameter 'x' may be uninitialized when 'f'
//! terminates"). Only whole-variable scalars (`bit<W>`, `int<W>`, `bool`,
//! enums, `error`, new types) are tracked; a write to a part (a slice) or
//! through a call counts as an assignment, so the warning never fires where
//! p4c's finer analysis would not.

use super::Checker;
use crate::diag::Code;
use crate::ir::{self, Callee, Direction, ExprKind, StmtKind, VarId};
use crate::types::Ty;
use std::collections::HashSet;

/// The variables assigned on every path so far; `None` when the point is
/// unreachable (after `return`, `exit`, `break`, `continue`).
type Assigned = Option<HashSet<VarId>>;

struct Flow {
    /// The variables the analysis tracks.
    tracked: HashSet<VarId>,
    /// Variables already reported.
    reported: HashSet<VarId>,
    /// `out` parameters to check where the body ends.
    outs: Vec<VarId>,
    /// Points where the body ends: what is assigned there.
    ends: Vec<HashSet<VarId>>,
    warnings: Vec<(VarId, crate::source::Span)>,
}

impl Checker<'_> {
    /// Runs the analysis on one body: an action's or function's
    /// (`params` are its parameters), a control's `apply` or a parser
    /// state's statements. `owner` names it in the `out` parameter warning,
    /// which only actions and functions get.
    pub(crate) fn check_uninitialized(
        &mut self,
        body: &[ir::Stmt],
        params: &[ir::Param],
        owner: Option<&str>,
        annotations: &[crate::ast::Annotation],
    ) {
        // `@noWarn("uninitialized_use")` / `("uninitialized_out_param")` on
        // the enclosing declaration, as p4c's warning names.
        let reads_on = !no_warn(annotations, "uninitialized_use");
        let outs_on = !no_warn(annotations, "uninitialized_out_param");
        let mut flow = Flow {
            tracked: HashSet::new(),
            reported: HashSet::new(),
            outs: Vec::new(),
            ends: Vec::new(),
            warnings: Vec::new(),
        };
        let mut start = HashSet::new();
        for p in params {
            if p.direction == Direction::Out && self.is_scalar(p.ty) {
                flow.tracked.insert(p.var);
                flow.outs.push(p.var);
            }
        }
        for p in params {
            if !flow.tracked.contains(&p.var) {
                start.insert(p.var);
            }
        }
        let end = self.flow_stmts(body, Some(start), &mut flow);
        if let Some(end) = end {
            flow.ends.push(end);
        }
        for (var, span) in std::mem::take(&mut flow.warnings) {
            if !reads_on {
                break;
            }
            let name = self.prog.var(var).name.clone();
            self.warning(
                Code::UninitializedRead,
                span,
                format!("`{name}` may be read before it is assigned a value (it may be uninitialized here)"),
            );
        }
        let Some(owner) = owner.filter(|_| outs_on) else {
            return;
        };
        for out in &flow.outs {
            if flow.ends.iter().any(|a| !a.contains(out)) {
                // p4c reports at the parameter.
                let v = self.prog.var(*out);
                let (name, span) = (v.name.clone(), v.span);
                self.warning(
                    Code::UninitializedRead,
                    span,
                    format!(
                        "out parameter `{name}` may be uninitialized when `{owner}` terminates: some path does not assign it"
                    ),
                );
            }
        }
    }

    fn is_scalar(&self, ty: crate::types::TyId) -> bool {
        match self.ty(ty) {
            Ty::Bits { .. } | Ty::Bool | Ty::Error => true,
            Ty::Enum(_) => true,
            Ty::NewType { of, .. } => self.is_scalar(*of),
            _ => false,
        }
    }

    fn flow_stmts(&self, stmts: &[ir::Stmt], mut a: Assigned, flow: &mut Flow) -> Assigned {
        for s in stmts {
            a = self.flow_stmt(s, a, flow);
        }
        a
    }

    fn flow_stmt(&self, s: &ir::Stmt, a: Assigned, flow: &mut Flow) -> Assigned {
        let mut a = a?;
        match &s.kind {
            StmtKind::Assign(l, r) => {
                self.reads(r, &mut a, flow);
                match &l.kind {
                    ExprKind::Var(v) => {
                        a.insert(*v);
                    }
                    _ => self.writes(l, &mut a, flow),
                }
                Some(a)
            }
            StmtKind::Call(e) => {
                self.reads(e, &mut a, flow);
                Some(a)
            }
            StmtKind::If(c, t, f) => {
                self.reads(c, &mut a, flow);
                let x = self.flow_stmts(t, Some(a.clone()), flow);
                let y = self.flow_stmts(f, Some(a), flow);
                meet(x, y)
            }
            StmtKind::Block(b) => self.flow_stmts(b, Some(a), flow),
            StmtKind::Return(v) => {
                if let Some(v) = v {
                    self.reads(v, &mut a, flow);
                }
                flow.ends.push(a);
                None
            }
            StmtKind::Exit | StmtKind::Break | StmtKind::Continue => None,
            StmtKind::Declare(v, init) => {
                match init {
                    Some(e) => {
                        self.reads(e, &mut a, flow);
                        a.insert(*v);
                    }
                    None if self.is_scalar(self.prog.var(*v).ty) => {
                        flow.tracked.insert(*v);
                        a.remove(v);
                    }
                    None => {
                        a.insert(*v);
                    }
                }
                Some(a)
            }
            StmtKind::Switch(e, cases) => {
                self.reads(e, &mut a, flow);
                let has_default = cases
                    .iter()
                    .any(|c| c.labels.contains(&ir::SwitchLabel::Default));
                let mut out: Assigned = if has_default { None } else { Some(a.clone()) };
                for c in cases {
                    let x = self.flow_stmts(&c.body, Some(a.clone()), flow);
                    out = match out {
                        None => x,
                        Some(o) => meet(Some(o), x),
                    };
                }
                out
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                let mut a = self.flow_stmts(init, Some(a), flow)?;
                if let Some(c) = cond {
                    self.reads(c, &mut a, flow);
                }
                // The body may run no time: what it assigns does not flow on.
                let after_body = self.flow_stmts(body, Some(a.clone()), flow);
                if let Some(b) = after_body {
                    let _ = self.flow_stmts(update, Some(b), flow);
                }
                Some(a)
            }
            StmtKind::ForIn {
                var,
                collection,
                body,
            } => {
                self.reads(collection, &mut a, flow);
                let mut inner = a.clone();
                inner.insert(*var);
                let _ = self.flow_stmts(body, Some(inner), flow);
                Some(a)
            }
        }
    }

    /// An l-value written in part (a field, element or slice): its base is
    /// not read; index expressions are.
    fn writes(&self, l: &ir::Expr, a: &mut HashSet<VarId>, flow: &mut Flow) {
        match &l.kind {
            ExprKind::Var(v) => {
                a.insert(*v);
            }
            ExprKind::Field(b, _)
            | ExprKind::Slice(b, ..)
            | ExprKind::StackNext(b)
            | ExprKind::StackLast(b) => self.writes(b, a, flow),
            ExprKind::Index(b, i) => {
                self.reads(i, a, flow);
                self.writes(b, a, flow);
            }
            ExprKind::PartSelect { base, start, .. } => {
                self.reads(start, a, flow);
                self.writes(base, a, flow);
            }
            _ => self.reads(l, a, flow),
        }
    }

    fn reads(&self, e: &ir::Expr, a: &mut HashSet<VarId>, flow: &mut Flow) {
        match &e.kind {
            ExprKind::Var(v) => {
                if flow.tracked.contains(v) && !a.contains(v) && flow.reported.insert(*v) {
                    flow.warnings.push((*v, e.span));
                }
            }
            ExprKind::Call(callee, args) => {
                if let Callee::Builtin { receiver, .. } = callee {
                    self.reads(receiver, a, flow);
                }
                let dirs = self.arg_directions(callee, args.len());
                let mut assigned = Vec::new();
                for (i, arg) in args.iter().enumerate() {
                    let Some(arg) = arg else { continue };
                    match dirs.as_ref().and_then(|d| d.get(i)).copied() {
                        Some(Direction::In | Direction::None) => self.reads(arg, a, flow),
                        Some(Direction::InOut) => {
                            self.reads(arg, a, flow);
                            assigned.push(arg);
                        }
                        // `out`, or a callee whose parameters are not known:
                        // the argument is written (never a false alarm).
                        _ => assigned.push(arg),
                    }
                }
                for arg in assigned {
                    self.writes(arg, a, flow);
                }
            }
            _ => {
                for o in e.operands() {
                    self.reads(o, a, flow);
                }
            }
        }
    }

    /// The directions of a call's parameters, when the callee is known.
    fn arg_directions(&self, callee: &Callee, nargs: usize) -> Option<Vec<Direction>> {
        let dirs = |ps: &[super::ParamSig]| ps.iter().map(|p| p.dir).collect::<Vec<_>>();
        match callee {
            Callee::Action(id) => Some(dirs(self.action_sigs.get(id.0 as usize)?)),
            Callee::Function(id) => Some(dirs(&self.fn_sigs.get(id.0 as usize)?.params)),
            Callee::ExternFunction { name, .. } => {
                let mut it = self
                    .ext_functions
                    .iter()
                    .filter(|(n, s)| n == name && s.params.len() == nargs);
                let (_, sig) = it.next()?;
                if it.next().is_some() {
                    return None;
                }
                Some(dirs(&sig.params))
            }
            Callee::ExternMethod { receiver, name, .. } => {
                let Ty::Extern { decl, .. } = self.ty(receiver.ty) else {
                    return None;
                };
                let info = self.externs.get(*decl as usize)?;
                let mut it = info
                    .methods
                    .iter()
                    .filter(|m| m.name == *name && m.sig.params.len() == nargs);
                let m = it.next()?;
                if it.next().is_some() {
                    return None;
                }
                Some(dirs(&m.sig.params))
            }
            Callee::BlockApply(recv) => {
                let Ty::Block { decl, .. } = self.ty(recv.ty) else {
                    return None;
                };
                Some(dirs(&self.blocks.get(*decl as usize)?.params))
            }
            Callee::Builtin { .. } | Callee::TableApply(_) => Some(Vec::new()),
        }
    }
}

/// The variables assigned on both paths (an unreachable path assigns all).
fn meet(x: Assigned, y: Assigned) -> Assigned {
    match (x, y) {
        (None, y) => y,
        (x, None) => x,
        (Some(x), Some(y)) => Some(x.intersection(&y).copied().collect()),
    }
}

/// `@noWarn("kind")` among `annotations` (p4c's warning suppression).
pub(crate) fn no_warn(annotations: &[crate::ast::Annotation], kind: &str) -> bool {
    annotations.iter().any(|a| {
        a.name.name == "noWarn"
            && matches!(
                a.single_expr(),
                Some(crate::ast::Expr { kind: crate::ast::ExprKind::Str(s), .. }) if s == kind
            )
    })
}
