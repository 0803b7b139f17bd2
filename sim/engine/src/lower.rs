//! Moves calls out of expressions into statements before a program is
//! planned and compiled, so that the compiler only meets them where it runs
//! them: as a statement, or as the whole right side of an assignment.
//!
//! - A call of a function, or of an extern that returns a value, inside an
//!   expression is evaluated first into a new local:
//!   `if (f(x) > 1)` becomes `T t = f(x); if (t > 1)`.
//! - The right operand of `&&` and `||`, and the branches of `?:`, run only
//!   when chosen, as P4 requires: `a && t.apply().hit` becomes
//!   `bool c = a; if (c) { c = t.apply().hit; }`, so the table is applied
//!   only when `a` holds.
//!
//! - A function called as a statement, its result unused, returns it into
//!   a new local: `f(x);` becomes `T t = f(x);`.
//! - A compound assignment evaluates its target once: `a[f(x)] += y` (the
//!   checker's `a[f(x)] = a[f(x)] + y`) becomes `T t = f(x); a[t] = a[t] + y`.
//! - A call's value assigned to a part-select with a run-time start
//!   (`x[i +: 4] = f()`) goes through a new local, as such a part-select is
//!   no place to return into.
//!
//! Operands are evaluated left to right. Statements without such calls are
//! left exactly as they are.

use crate::eval::is_packet_in;
use janus_p4::ir::{
    self, BinOp, Callee, Direction, Expr, ExprKind, Program, Stmt, StmtKind, Transition, UnOp,
    VarId, VarKind,
};
use janus_p4::source::Span;
use janus_p4::types::{TyId, TypeTable};

mod ctor_args;
mod for_cond;
mod for_in;
mod generics;
mod returns;
mod table_keys;

/// Lowers every body of `p`: block states and apply blocks, actions and
/// functions; table keys that call something are first evaluated into
/// locals before each apply ([`table_keys`]). Calls of generic functions first go to an instance of the
/// function for their argument types, and constructor arguments computed
/// from an enclosing block's constructor parameters are folded per
/// instance; functions returning a composite
/// value finally pass it out through a hidden `out` parameter.
pub fn lower_calls(p: &mut Program) {
    generics::instantiate(p);
    ctor_args::bind(p);
    for_in::rewrite(p);
    for_cond::rewrite(p);
    lower_bodies(p);
    if table_keys::hoist(p) {
        lower_bodies(p);
    }
    returns::pass_out(p);
}

/// Lowers every body (block locals, states and apply blocks, actions,
/// functions).
/// Bodies already lowered are left as they are.
fn lower_bodies(p: &mut Program) {
    let reads_only = |params: &[ir::Param]| -> Vec<bool> {
        params
            .iter()
            .map(|x| matches!(x.direction, Direction::In | Direction::None))
            .collect()
    };
    let mut l = Lowerer {
        types: &p.types,
        function_ins: p.functions.iter().map(|f| reads_only(&f.params)).collect(),
        action_ins: p.actions.iter().map(|a| reads_only(&a.params)).collect(),
        vars: &mut p.vars,
    };
    for b in &mut p.blocks {
        l.stmts(&mut b.locals);
        l.stmts(&mut b.apply);
        for s in &mut b.states {
            l.stmts(&mut s.body);
            if let Transition::Select(keys, _) = &mut s.transition {
                for k in keys {
                    l.expr(k, &mut s.body);
                }
            }
        }
    }
    for a in &mut p.actions {
        l.stmts(&mut a.body);
    }
    for f in &mut p.functions {
        l.stmts(&mut f.body);
    }
}

/// Whether evaluating `e` calls a function or an extern method that
/// returns a value (what [`lower_calls`] moves out of expressions).
fn calls_something(types: &TypeTable, e: &Expr) -> bool {
    let call = match &e.kind {
        ExprKind::Call(Callee::Function(_) | Callee::ExternFunction { .. }, _) => true,
        ExprKind::Call(Callee::ExternMethod { receiver, .. }, _) => {
            !is_packet_in(types, receiver.ty)
        }
        _ => false,
    };
    call || e.operands().iter().any(|o| calls_something(types, o))
}

struct Lowerer<'p> {
    types: &'p TypeTable,
    /// Which parameters of each function and action only read their
    /// argument (`in` or directionless): those arguments may be copied
    /// early into a new local.
    function_ins: Vec<Vec<bool>>,
    action_ins: Vec<Vec<bool>>,
    vars: &'p mut Vec<ir::Var>,
}

impl Lowerer<'_> {
    fn stmts(&mut self, stmts: &mut Vec<Stmt>) {
        if !stmts.iter().any(|s| self.stmt_has_calls(s)) {
            return;
        }
        let mut out = Vec::with_capacity(stmts.len());
        for mut s in std::mem::take(stmts) {
            self.stmt(&mut s, &mut out);
            out.push(s);
        }
        *stmts = out;
    }

    /// Lowers the expressions of `s`, appending what must run first to `pre`.
    fn stmt(&mut self, s: &mut Stmt, pre: &mut Vec<Stmt>) {
        match &mut s.kind {
            StmtKind::Assign(lhs, rhs) => {
                // `a op= b` reaches the IR as `a = a op b` with `a` as
                // written (the same expression, span included): `a` is
                // evaluated once, so a call in its indexes runs once.
                let compound = matches!(&rhs.kind, ExprKind::Binary(_, read, _) if **read == *lhs);
                // The target is evaluated before the value: its calls
                // first, and its indexes are fixed before the value's
                // calls run.
                self.expr(lhs, pre);
                if compound && let ExprKind::Binary(_, read, _) = &mut rhs.kind {
                    **read = lhs.clone();
                }
                if self.has_calls(rhs) {
                    self.freeze_indexes(lhs, pre);
                    if compound && let ExprKind::Binary(_, read, _) = &mut rhs.kind {
                        **read = lhs.clone();
                    }
                }
                self.whole_call(rhs, pre);
                if writes_part_select(lhs) && self.is_value_call(rhs) {
                    // A call's result goes to a place; a part-select with
                    // a run-time start is none: a new local takes it.
                    self.snapshot(rhs, pre);
                }
            }
            StmtKind::Declare(_, Some(rhs)) => self.whole_call(rhs, pre),
            StmtKind::Call(call) => {
                self.whole_call(call, pre);
                if discards_result(call) {
                    // `f(x);` of a function returning a value: its
                    // `return e` needs a place, a new local.
                    let t = self.temp(call.ty, call.span);
                    s.kind = StmtKind::Declare(t, Some(take(call)));
                }
            }
            StmtKind::If(e, ..) | StmtKind::Switch(e, _) | StmtKind::Return(Some(e)) => {
                self.expr(e, pre)
            }
            _ => {}
        }
        for body in s.bodies_mut() {
            self.stmts(body);
        }
    }

    /// An expression the compiler runs as a call when it is one (a
    /// statement, the right side of an assignment): only its arguments are
    /// lowered.
    fn whole_call(&mut self, e: &mut Expr, pre: &mut Vec<Stmt>) {
        match &mut e.kind {
            ExprKind::Call(callee, args) => {
                let ins = self.reads_only(callee, args.len());
                let args = args
                    .iter_mut()
                    .zip(ins)
                    .filter_map(|(a, i)| Some((a.as_mut()?, i)));
                self.operands(args.collect(), pre);
            }
            _ => self.expr(e, pre),
        }
    }

    /// Which arguments of a call to `callee` may be copied early.
    fn reads_only(&self, callee: &Callee, n: usize) -> Vec<bool> {
        match callee {
            Callee::Function(f) => self.function_ins[f.0 as usize].clone(),
            Callee::Action(a) => self.action_ins[a.0 as usize].clone(),
            _ => vec![false; n],
        }
    }

    /// Lowers operands evaluated left to right: when a later operand has a
    /// call (which may change what an earlier one reads), each earlier
    /// operand marked copyable is first copied into a new local.
    fn operands(&mut self, ops: Vec<(&mut Expr, bool)>, pre: &mut Vec<Stmt>) {
        let Some(last) = ops.iter().rposition(|(e, _)| self.has_calls(e)) else {
            return;
        };
        for (i, (e, copyable)) in ops.into_iter().enumerate() {
            let reads_state = !matches!(e.kind, ExprKind::Const(_));
            if i < last && copyable && reads_state && !self.has_calls(e) {
                self.snapshot(e, pre);
            } else if i < last && !copyable {
                // An l-value: which element it names is fixed now.
                self.expr(e, pre);
                self.freeze_indexes(e, pre);
            } else {
                self.expr(e, pre);
            }
        }
    }

    fn expr(&mut self, e: &mut Expr, pre: &mut Vec<Stmt>) {
        if !self.has_calls(e) {
            return;
        }
        let span = e.span;
        let value_call = self.is_value_call(e);
        match &mut e.kind {
            ExprKind::Call(callee, args) if value_call => {
                let ins = self.reads_only(callee, args.len());
                let args = args
                    .iter_mut()
                    .zip(ins)
                    .filter_map(|(a, i)| Some((a.as_mut()?, i)));
                self.operands(args.collect(), pre);
                let t = self.temp(e.ty, span);
                let call = std::mem::replace(e, var(t, e.ty, span));
                pre.push(stmt(StmtKind::Declare(t, Some(call)), span));
            }
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) if self.has_effects(b) => {
                let and = *op == BinOp::And;
                self.expr(a, pre);
                let t = self.temp(TypeTable::BOOL, span);
                pre.push(stmt(StmtKind::Declare(t, Some(take(a))), span));
                let mut when = Vec::new();
                self.expr(b, &mut when);
                when.push(stmt(
                    StmtKind::Assign(var(t, TypeTable::BOOL, span), take(b)),
                    span,
                ));
                let mut cond = var(t, TypeTable::BOOL, span);
                if !and {
                    cond = Expr {
                        ty: TypeTable::BOOL,
                        kind: ExprKind::Unary(UnOp::Not, Box::new(cond)),
                        span,
                    };
                }
                pre.push(stmt(StmtKind::If(cond, when, Vec::new()), span));
                *e = var(t, TypeTable::BOOL, span);
            }
            ExprKind::Ternary(c, x, y) if self.has_effects(x) || self.has_effects(y) => {
                self.expr(c, pre);
                let t = self.temp(e.ty, span);
                let mut branches = [Vec::new(), Vec::new()];
                for (branch, value) in branches.iter_mut().zip([x, y]) {
                    self.expr(value, branch);
                    branch.push(stmt(
                        StmtKind::Assign(var(t, e.ty, span), take(value)),
                        span,
                    ));
                }
                let [when, otherwise] = branches;
                pre.push(stmt(StmtKind::Declare(t, None), span));
                pre.push(stmt(StmtKind::If(take(c), when, otherwise), span));
                *e = var(t, e.ty, span);
            }
            // Operands of an operator or a list are values: copyable.
            ExprKind::Binary(..) | ExprKind::List(_) => {
                let ops = e.operands_mut().into_iter().map(|c| (c, true)).collect();
                self.operands(ops, pre);
            }
            _ => {
                for child in e.operands_mut() {
                    self.expr(child, pre);
                }
            }
        }
    }

    /// A call whose value the compiler cannot compute inside an
    /// expression: a function, or an extern returning a value (not
    /// `packet_in`'s `lookahead` and `length`).
    fn is_value_call(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Call(Callee::Function(_) | Callee::ExternFunction { .. }, _) => true,
            ExprKind::Call(Callee::ExternMethod { receiver, .. }, _) => {
                !is_packet_in(self.types, receiver.ty)
            }
            _ => false,
        }
    }

    /// Replaces `e` by a new local holding its current value.
    fn snapshot(&mut self, e: &mut Expr, pre: &mut Vec<Stmt>) {
        let (ty, span) = (e.ty, e.span);
        let t = self.temp(ty, span);
        let value = std::mem::replace(e, var(t, ty, span));
        pre.push(stmt(StmtKind::Declare(t, Some(value)), span));
    }

    /// Copies the run-time indexes of the l-value `e` into new locals, so
    /// that later calls cannot move it to another element.
    fn freeze_indexes(&mut self, e: &mut Expr, pre: &mut Vec<Stmt>) {
        match &mut e.kind {
            ExprKind::Index(base, index) => {
                self.freeze_indexes(base, pre);
                if !matches!(index.kind, ExprKind::Const(_)) {
                    self.snapshot(index, pre);
                }
            }
            ExprKind::PartSelect { base, start, .. } => {
                self.freeze_indexes(base, pre);
                if !matches!(start.kind, ExprKind::Const(_)) {
                    self.snapshot(start, pre);
                }
            }
            ExprKind::Field(base, _) | ExprKind::Slice(base, ..) => self.freeze_indexes(base, pre),
            _ => {}
        }
    }

    /// Whether `e` holds a call to move out.
    fn has_calls(&self, e: &Expr) -> bool {
        self.is_value_call(e)
            || match &e.kind {
                ExprKind::Binary(BinOp::And | BinOp::Or, _, b) if self.has_effects(b) => true,
                ExprKind::Ternary(_, x, y) if self.has_effects(x) || self.has_effects(y) => true,
                _ => e.operands().iter().any(|c| self.has_calls(c)),
            }
    }

    /// Whether evaluating `e` does more than read: a call, or a table apply.
    fn has_effects(&self, e: &Expr) -> bool {
        matches!(
            e.kind,
            ExprKind::TableHit(_) | ExprKind::TableMiss(_) | ExprKind::ActionRun(_)
        ) || self.is_value_call(e)
            || e.operands().iter().any(|c| self.has_effects(c))
    }

    fn stmt_has_calls(&self, s: &Stmt) -> bool {
        let own = match &s.kind {
            StmtKind::Call(e) if discards_result(e) => true,
            StmtKind::Assign(lhs, _) if self.has_calls(lhs) => true,
            StmtKind::Assign(lhs, rhs) if writes_part_select(lhs) && self.is_value_call(rhs) => {
                true
            }
            StmtKind::Assign(_, e) | StmtKind::Declare(_, Some(e)) | StmtKind::Call(e) => {
                match &e.kind {
                    ExprKind::Call(_, args) => args.iter().flatten().any(|a| self.has_calls(a)),
                    _ => self.has_calls(e),
                }
            }
            StmtKind::If(e, ..) | StmtKind::Switch(e, _) | StmtKind::Return(Some(e)) => {
                self.has_calls(e)
            }
            _ => false,
        };
        own || s
            .bodies()
            .into_iter()
            .any(|b| b.iter().any(|s| self.stmt_has_calls(s)))
    }

    /// A new local of type `ty`.
    fn temp(&mut self, ty: TyId, span: Span) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(ir::Var {
            name: format!("$value{}", id.0),
            ty,
            kind: VarKind::Local,
            span,
        });
        id
    }
}

/// Whether the l-value `e` writes through a part-select with a run-time
/// start (`x[i +: 4]`, also under a slice).
fn writes_part_select(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::PartSelect { .. } => true,
        ExprKind::Slice(inner, ..) => writes_part_select(inner),
        _ => false,
    }
}

/// Whether the call statement `e` calls a function that returns a value.
fn discards_result(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Call(Callee::Function(_), _)) && e.ty != TypeTable::VOID
}

fn var(v: VarId, ty: TyId, span: Span) -> Expr {
    Expr {
        ty,
        kind: ExprKind::Var(v),
        span,
    }
}

fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

/// Moves an expression out, leaving a placeholder.
fn take(e: &mut Expr) -> Expr {
    let placeholder = Expr {
        ty: e.ty,
        kind: ExprKind::DontCare,
        span: e.span,
    };
    std::mem::replace(e, placeholder)
}
