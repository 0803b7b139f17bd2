//! Functions returning a header, struct or other composite value: the
//! value is passed out through a hidden last `out` parameter, so the
//! compiler only meets scalar returns.
//!
//! `T f(a) { ...; return e; }` becomes `void f(a, out T r) { ...; r = e;
//! return; }`, and each call `x = f(a)` (or `T x = f(a);`, which is what
//! calls inside expressions have become by then) becomes `f(a, x)`.

use crate::eval::scalar_shape;
use janus_p4::ir::{
    Callee, Direction, Expr, ExprKind, FunctionId, Param, Program, Stmt, StmtKind, Var, VarId,
    VarKind,
};
use janus_p4::types::TypeTable;

/// Rewrites every function returning a composite value, and its calls.
pub(super) fn pass_out(p: &mut Program) {
    let mut rewritten: Vec<FunctionId> = Vec::new();
    for i in 0..p.functions.len() {
        let ret = p.functions[i].ret;
        if ret == TypeTable::VOID || scalar_shape(&p.types, ret).is_some() {
            continue;
        }
        let var = VarId(p.vars.len() as u32);
        let span = p.functions[i].span;
        p.vars.push(Var {
            name: "$return".into(),
            ty: ret,
            kind: VarKind::Param(Direction::Out),
            span,
        });
        let f = &mut p.functions[i];
        f.params.push(Param {
            name: "$return".into(),
            ty: ret,
            direction: Direction::Out,
            var,
        });
        f.ret = TypeTable::VOID;
        let target = Expr {
            ty: ret,
            kind: ExprKind::Var(var),
            span,
        };
        returns_to(&mut f.body, &target);
        rewritten.push(FunctionId(i as u32));
    }
    if rewritten.is_empty() {
        return;
    }
    let calls = |stmts: &mut Vec<Stmt>| calls_pass_out(stmts, &rewritten);
    for b in &mut p.blocks {
        calls(&mut b.apply);
        b.states.iter_mut().for_each(|s| calls(&mut s.body));
    }
    p.actions.iter_mut().for_each(|a| calls(&mut a.body));
    p.functions.iter_mut().for_each(|f| calls(&mut f.body));
}

/// `return e;` becomes `{ r = e; return; }`.
fn returns_to(stmts: &mut [Stmt], target: &Expr) {
    for s in stmts {
        match &mut s.kind {
            StmtKind::Return(value @ Some(_)) => {
                let value = value.take().expect("matched Some");
                s.kind = StmtKind::Block(vec![
                    Stmt {
                        kind: StmtKind::Assign(target.clone(), value),
                        span: s.span,
                    },
                    Stmt {
                        kind: StmtKind::Return(None),
                        span: s.span,
                    },
                ]);
            }
            _ => s
                .bodies_mut()
                .into_iter()
                .for_each(|b| returns_to(b, target)),
        }
    }
}

/// `x = f(a)` and `T x = f(a);` for a rewritten `f` become `f(a, x)`.
fn calls_pass_out(stmts: &mut Vec<Stmt>, rewritten: &[FunctionId]) {
    let is_rewritten = |e: &Expr| matches!(&e.kind, ExprKind::Call(Callee::Function(f), _) if rewritten.contains(f));
    let mut out = Vec::with_capacity(stmts.len());
    for mut s in std::mem::take(stmts) {
        match &mut s.kind {
            StmtKind::Assign(lhs, rhs) if is_rewritten(rhs) => {
                let mut call = std::mem::replace(rhs, lhs.clone());
                if let ExprKind::Call(_, args) = &mut call.kind {
                    args.push(Some(lhs.clone()));
                }
                call.ty = TypeTable::VOID;
                s.kind = StmtKind::Call(call);
            }
            StmtKind::Declare(v, init) if init.as_ref().is_some_and(is_rewritten) => {
                let mut call = init.take().expect("matched Some");
                let target = Expr {
                    ty: call.ty,
                    kind: ExprKind::Var(*v),
                    span: call.span,
                };
                if let ExprKind::Call(_, args) = &mut call.kind {
                    args.push(Some(target));
                }
                call.ty = TypeTable::VOID;
                out.push(s.clone());
                s.kind = StmtKind::Call(call);
            }
            _ => s
                .bodies_mut()
                .into_iter()
                .for_each(|b| calls_pass_out(b, rewritten)),
        }
        out.push(s);
    }
    *stmts = out;
}
