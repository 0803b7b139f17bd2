//! A `for` loop whose condition calls something or applies a table
//! (`for (; i < 2 && t.apply().hit; i = i + 1)`) tests it as the first
//! statement of its body instead: `for (init; ; update) { if (!(cond))
//! { break; } body }`. The test is then an ordinary `if`, which the call
//! lowering splits like any other (calls first, `&&` and `||`
//! short-circuited, a table's computed keys assigned before its apply); it
//! runs before every iteration, after the update, as the loop's own test
//! would, and `continue` still runs the update first.

use janus_p4::ir::{Callee, Expr, ExprKind, Program, Stmt, StmtKind, UnOp};
use janus_p4::types::TypeTable;

use super::stmt;

/// Rewrites every such loop of `p`.
pub(super) fn rewrite(p: &mut Program) {
    let types = &p.types;
    for b in &mut p.blocks {
        stmts(types, &mut b.apply);
        b.states.iter_mut().for_each(|s| stmts(types, &mut s.body));
    }
    p.actions.iter_mut().for_each(|a| stmts(types, &mut a.body));
    p.functions
        .iter_mut()
        .for_each(|f| stmts(types, &mut f.body));
}

fn stmts(types: &TypeTable, stmts: &mut [Stmt]) {
    for s in stmts {
        for body in s.bodies_mut() {
            self::stmts(types, body);
        }
        let StmtKind::For { cond, body, .. } = &mut s.kind else {
            continue;
        };
        let Some(test) = cond.take_if(|c| needs_statements(types, c)) else {
            continue;
        };
        let span = test.span;
        let stop = Expr {
            ty: test.ty,
            kind: ExprKind::Unary(UnOp::Not, Box::new(test)),
            span,
        };
        let exit = stmt(
            StmtKind::If(stop, vec![stmt(StmtKind::Break, span)], Vec::new()),
            span,
        );
        body.insert(0, exit);
    }
}

/// Whether evaluating `e` calls something or applies a table.
fn needs_statements(types: &TypeTable, e: &Expr) -> bool {
    fn applies(e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Call(Callee::TableApply(_), _))
            || e.operands().into_iter().any(applies)
    }
    super::calls_something(types, e) || applies(e)
}
