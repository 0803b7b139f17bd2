//! `for (T x in collection) body` (P4_16 1.2.5) as a C-style loop the
//! compiler runs:
//!
//! - over a range `lo .. hi` (both ends included, each evaluated once): `x`
//!   takes each value in turn; an empty range (`lo > hi`) runs nothing, and
//!   a range ending at the type's maximum does not wrap around;
//! - over a header stack: `x` is a copy of each element in turn, from
//!   index 0 to the stack's size.
//!
//! `break` and `continue` keep their meaning: the step to the next value
//! is the loop's update, which `continue` runs.

use janus_p4::ir::{
    BinOp, Expr, ExprKind, Program, Stmt, StmtKind, SwitchCase, SwitchLabel, Value, Var, VarId,
    VarKind,
};
use janus_p4::source::Span;
use janus_p4::types::{Ty, TyId, TypeTable};

use super::{stmt, take};

/// Rewrites every `for ... in` loop of `p` over a range or a header stack.
pub(super) fn rewrite(p: &mut Program) {
    let mut r = Rewriter {
        types: &mut p.types,
        vars: &mut p.vars,
    };
    for b in &mut p.blocks {
        r.stmts(&mut b.apply);
        b.states.iter_mut().for_each(|s| r.stmts(&mut s.body));
    }
    p.actions.iter_mut().for_each(|a| r.stmts(&mut a.body));
    p.functions.iter_mut().for_each(|f| r.stmts(&mut f.body));
}

struct Rewriter<'p> {
    types: &'p mut TypeTable,
    vars: &'p mut Vec<Var>,
}

impl Rewriter<'_> {
    fn stmts(&mut self, stmts: &mut [Stmt]) {
        for s in stmts {
            for body in s.bodies_mut() {
                self.stmts(body);
            }
            if matches!(s.kind, StmtKind::ForIn { .. })
                && let Some(kind) = self.for_in(s)
            {
                s.kind = kind;
            }
        }
    }

    /// The loop `s` (a `ForIn`) rewritten, if its collection is a range or
    /// a header stack.
    fn for_in(&mut self, s: &mut Stmt) -> Option<StmtKind> {
        let StmtKind::ForIn {
            var,
            collection,
            body,
        } = &mut s.kind
        else {
            return None;
        };
        let (var, span) = (*var, s.span);
        let ty = self.vars[var.0 as usize].ty;
        let x = expr(ty, ExprKind::Var(var), span);
        match &mut collection.kind {
            ExprKind::Range(lo, hi) => {
                let (lo, hi) = (take(lo), take(hi));
                let last = self.temp(ty, span);
                let go = self.temp(TypeTable::BOOL, span);
                let last_e = expr(ty, ExprKind::Var(last), span);
                let go_e = expr(TypeTable::BOOL, ExprKind::Var(go), span);
                let step = stmt(
                    StmtKind::If(
                        binary(BinOp::Eq, x.clone(), last_e.clone(), TypeTable::BOOL),
                        vec![stmt(
                            StmtKind::Assign(go_e.clone(), boolean(false, span)),
                            span,
                        )],
                        vec![stmt(
                            StmtKind::Assign(
                                x.clone(),
                                binary(BinOp::Add, x.clone(), one(ty, span), ty),
                            ),
                            span,
                        )],
                    ),
                    span,
                );
                Some(StmtKind::Block(vec![
                    stmt(StmtKind::Declare(var, Some(lo)), span),
                    stmt(StmtKind::Declare(last, Some(hi)), span),
                    stmt(
                        StmtKind::Declare(go, Some(binary(BinOp::Le, x, last_e, TypeTable::BOOL))),
                        span,
                    ),
                    stmt(
                        StmtKind::For {
                            init: Vec::new(),
                            cond: Some(go_e),
                            update: vec![step],
                            body: std::mem::take(body),
                        },
                        span,
                    ),
                ]))
            }
            ExprKind::List(_) | ExprKind::Const(Value::List(_)) => {
                // Each iteration picks its item by the index.
                let items: Vec<Expr> = match take(collection).kind {
                    ExprKind::List(items) => items,
                    ExprKind::Const(Value::List(values)) => values
                        .into_iter()
                        .map(|v| expr(ty, ExprKind::Const(v), span))
                        .collect(),
                    _ => unreachable!("matched above"),
                };
                let index = self.index(span);
                let index_e = index.expr();
                let cases = items
                    .into_iter()
                    .enumerate()
                    .map(|(i, item)| SwitchCase {
                        labels: vec![SwitchLabel::Value(Value::Int(i.into()))],
                        body: vec![stmt(StmtKind::Assign(x.clone(), item), span)],
                    })
                    .collect::<Vec<_>>();
                let count = cases.len() as u64;
                let pick = vec![
                    stmt(StmtKind::Declare(var, None), span),
                    stmt(StmtKind::Switch(index_e.clone(), cases), span),
                ];
                Some(counted(index, count, pick, std::mem::take(body)))
            }
            _ => {
                let Ty::Stack { size, .. } = self.types.get(collection.ty).clone() else {
                    return None;
                };
                let stack = take(collection);
                let index = self.index(span);
                let element = expr(
                    ty,
                    ExprKind::Index(Box::new(stack), Box::new(index.expr())),
                    span,
                );
                let pick = vec![stmt(StmtKind::Declare(var, Some(element)), span)];
                Some(counted(index, u64::from(size), pick, std::mem::take(body)))
            }
        }
    }

    /// A new hidden loop index, a `bit<32>` local.
    fn index(&mut self, span: Span) -> LoopIndex {
        let ty = self.types.intern(Ty::Bits {
            width: 32,
            signed: false,
        });
        LoopIndex {
            var: self.temp(ty, span),
            ty,
            span,
        }
    }

    fn temp(&mut self, ty: TyId, span: Span) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(Var {
            name: format!("$loop{}", id.0),
            ty,
            kind: VarKind::Local,
            span,
        });
        id
    }
}

/// The hidden counter of a rewritten loop: a variable, so that it can be
/// declared, compared and stepped.
#[derive(Clone, Copy)]
struct LoopIndex {
    var: VarId,
    ty: TyId,
    span: Span,
}

impl LoopIndex {
    fn expr(self) -> Expr {
        expr(self.ty, ExprKind::Var(self.var), self.span)
    }
}

/// `index = 0; for (; index < count; index = index + 1) { pick; body }`:
/// `pick` sets the loop variable for the iteration.
fn counted(index: LoopIndex, count: u64, pick: Vec<Stmt>, body: Vec<Stmt>) -> StmtKind {
    let LoopIndex { var, ty, span } = index;
    let index = index.expr();
    let count = expr(ty, ExprKind::Const(Value::Int(count.into())), span);
    let zero = expr(ty, ExprKind::Const(Value::Int(0.into())), span);
    let mut each = pick;
    each.extend(body);
    StmtKind::Block(vec![
        stmt(StmtKind::Declare(var, Some(zero)), span),
        stmt(
            StmtKind::For {
                init: Vec::new(),
                cond: Some(binary(BinOp::Lt, index.clone(), count, TypeTable::BOOL)),
                update: vec![stmt(
                    StmtKind::Assign(index.clone(), binary(BinOp::Add, index, one(ty, span), ty)),
                    span,
                )],
                body: each,
            },
            span,
        ),
    ])
}

fn expr(ty: TyId, kind: ExprKind, span: Span) -> Expr {
    Expr { ty, kind, span }
}

fn binary(op: BinOp, a: Expr, b: Expr, ty: TyId) -> Expr {
    let span = a.span;
    expr(ty, ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
}

fn one(ty: TyId, span: Span) -> Expr {
    expr(ty, ExprKind::Const(Value::Int(1.into())), span)
}

fn boolean(b: bool, span: Span) -> Expr {
    expr(TypeTable::BOOL, ExprKind::Const(Value::Bool(b)), span)
}
