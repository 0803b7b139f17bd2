//! Table keys that call something (`key = { hash(hdr.a) : exact @name("h"); }`):
//! each such key is evaluated into a new local of the table's block right
//! before every statement that applies the table, as p4c's `SimplifyKey`
//! does, and the key reads that local. The assignment is an ordinary
//! statement, so the call lowering that follows moves the calls out of it
//! like any other.
//!
//! The assignment goes before the statement holding the apply (after the
//! call lowering has given a short-circuited apply, `a && t.apply().hit`,
//! a statement of its own; a `for` loop's condition is tested by an `if`
//! in its body, `for_cond`).

use janus_p4::ir::{Callee, Expr, ExprKind, Program, Stmt, StmtKind, TableId, VarId, VarKind};
use std::collections::HashMap;

/// The keys moved into locals, by table: (local, the key's expression).
type Moved = HashMap<TableId, Vec<(VarId, Expr)>>;

/// Moves the keys that call something (see the module comment); returns
/// whether any moved.
pub(super) fn hoist(p: &mut Program) -> bool {
    let mut moved = Moved::new();
    for b in 0..p.blocks.len() {
        let tables = p.blocks[b].tables.clone();
        for t in tables {
            let calling: Vec<usize> = p.tables[t.0 as usize]
                .keys
                .iter()
                .enumerate()
                .filter(|(_, k)| super::calls_something(&p.types, &k.expr))
                .map(|(i, _)| i)
                .collect();
            if calling.is_empty() {
                continue;
            }
            for i in calling {
                let key = &mut p.tables[t.0 as usize].keys[i];
                let var = VarId(p.vars.len() as u32);
                p.vars.push(janus_p4::ir::Var {
                    name: format!("$key{}", var.0),
                    ty: key.expr.ty,
                    kind: VarKind::Local,
                    span: key.expr.span,
                });
                let read = Expr {
                    ty: key.expr.ty,
                    kind: ExprKind::Var(var),
                    span: key.expr.span,
                };
                let expr = std::mem::replace(&mut key.expr, read);
                p.blocks[b].locals.insert(
                    0,
                    Stmt {
                        kind: StmtKind::Declare(var, None),
                        span: expr.span,
                    },
                );
                moved.entry(t).or_default().push((var, expr));
            }
        }
    }
    if moved.is_empty() {
        return false;
    }
    for b in &mut p.blocks {
        // The locals run before the apply block: a key's local is
        // declared first of them, and assigned before an initialiser that
        // applies its table.
        assign_before_applies(&mut b.locals, &moved);
        assign_before_applies(&mut b.apply, &moved);
    }
    true
}

/// The tables a statement applies in its own expressions (not in the
/// statement lists nested in it).
fn applied_by(s: &Stmt) -> Vec<TableId> {
    let mut out = Vec::new();
    let own: Vec<&Expr> = match &s.kind {
        StmtKind::Assign(l, r) => vec![l, r],
        StmtKind::Call(e)
        | StmtKind::If(e, ..)
        | StmtKind::Switch(e, _)
        | StmtKind::Return(Some(e))
        | StmtKind::Declare(_, Some(e))
        | StmtKind::ForIn { collection: e, .. } => vec![e],
        _ => Vec::new(),
    };
    for e in own {
        tables_in(e, &mut out);
    }
    out
}

fn tables_in(e: &Expr, out: &mut Vec<TableId>) {
    if let ExprKind::Call(Callee::TableApply(t), _) = &e.kind {
        out.push(*t);
    }
    for o in e.operands() {
        tables_in(o, out);
    }
}

/// Puts `local = key` before every statement of `stmts` (nested lists
/// included) that applies a table whose keys moved (at load time: the
/// lists are rebuilt whole).
fn assign_before_applies(stmts: &mut Vec<Stmt>, moved: &Moved) {
    let mut out = Vec::with_capacity(stmts.len());
    for mut s in std::mem::take(stmts) {
        for t in applied_by(&s) {
            for (var, key) in moved.get(&t).into_iter().flatten() {
                let target = Expr {
                    ty: key.ty,
                    kind: ExprKind::Var(*var),
                    span: key.span,
                };
                out.push(Stmt {
                    kind: StmtKind::Assign(target, key.clone()),
                    span: s.span,
                });
            }
        }
        for body in s.bodies_mut() {
            assign_before_applies(body, moved);
        }
        out.push(s);
    }
    *stmts = out;
}
