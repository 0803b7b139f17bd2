//! Helpers for the engine's tests: checked programs and hand-built
//! expressions over their variables.

use janus_p4::ir::{self, BuiltinMethod, Callee, ExprKind, Value};
use janus_p4::types::{Ty, TyId, TypeTable};

/// Checks `source` and returns its IR; panics with the diagnostics if it
/// does not compile.
pub fn program(source: &str) -> ir::Program {
    let c = janus_p4::driver::compile_source("test.p4", source.into(), &Default::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    c.ir.expect("ir")
}

/// The expression `var.path...`, where a numeric path element indexes a
/// header stack (`["stk", "2", "ttl"]` is `var.stk[2].ttl`).
pub fn path_expr(p: &ir::Program, var: &str, path: &[&str]) -> ir::Expr {
    let v = p.vars.iter().position(|x| x.name == var).expect("variable");
    let mut e = ir::Expr {
        ty: p.vars[v].ty,
        kind: ExprKind::Var(ir::VarId(v as u32)),
        span: Default::default(),
    };
    for name in path {
        e = match name.parse::<u32>() {
            Ok(i) => {
                let Ty::Stack { elem, .. } = p.types.get(e.ty) else {
                    panic!("{name}: not a stack")
                };
                let elem = *elem;
                let b32 = (0..)
                    .map(TyId)
                    .find(|t| p.types.int_width(*t) == Some((32, false)))
                    .expect("bit<32>");
                let idx = ir::Expr {
                    ty: b32,
                    kind: ExprKind::Const(Value::Int(i.into())),
                    span: Default::default(),
                };
                ir::Expr {
                    ty: elem,
                    kind: ExprKind::Index(Box::new(e), Box::new(idx)),
                    span: Default::default(),
                }
            }
            Err(_) => {
                let info = p.types.struct_info(e.ty).expect("struct");
                let k = info
                    .fields
                    .iter()
                    .position(|f| f.name == *name)
                    .expect("field");
                ir::Expr {
                    ty: info.fields[k].ty,
                    kind: ExprKind::Field(Box::new(e), k as u32),
                    span: Default::default(),
                }
            }
        };
    }
    e
}

/// `e.isValid()`.
pub fn is_valid(e: ir::Expr) -> ir::Expr {
    ir::Expr {
        ty: TypeTable::BOOL,
        kind: ExprKind::Call(
            Callee::Builtin {
                receiver: Box::new(e),
                method: BuiltinMethod::IsValid,
            },
            vec![],
        ),
        span: Default::default(),
    }
}
