//! Constructor arguments computed from the enclosing block's constructor
//! parameters (`Adder(step + 1) first;` inside `control Twice(...)(bit<8>
//! step)`): the P4 spec makes every constructor argument a compile-time
//! value, so each is folded once the enclosing instance's arguments are
//! known.
//!
//! The front end checks a block once, so such an argument stays an
//! expression over the parameter. Here every block instance whose own
//! arguments are constants, and whose nested instances (parsers, controls,
//! externs such as `counter(n * 2, ...)`) have arguments that are not, is
//! pointed at a copy of the block (one per block and argument values, made
//! as for a generic block's specialisation) whose nested instances have
//! those arguments substituted and folded, as are table sizes over them
//! (`size = n * 2;`). Copies' nested instances are met
//! later in the same walk, so chains of such arguments resolve level by
//! level.

use janus_p4::check::fold_const;
use janus_p4::ir::{BlockId, Expr, ExprKind, InstanceOf, Program, Value, VarId};
use janus_p4::types::TypeTable;
use std::collections::HashMap;

/// Binds every constructor argument that depends on the enclosing
/// instance's constructor parameters (see the module documentation).
pub(super) fn bind(p: &mut Program) {
    let mut made: HashMap<(BlockId, Vec<Option<Value>>), BlockId> = HashMap::new();
    let mut i = 0;
    while i < p.instances.len() {
        if let InstanceOf::Block(b) = p.instances[i].of
            && has_open_args(p, b)
        {
            let values: Vec<Option<Value>> = p.instances[i].args.iter().map(const_of).collect();
            if values.iter().any(Option::is_some) {
                let key = (b, values);
                let copy = match made.get(&key) {
                    Some(c) => *c,
                    None => {
                        let c = bound_copy(p, b, &key.1);
                        made.insert(key, c);
                        c
                    }
                };
                p.instances[i].of = InstanceOf::Block(copy);
            }
        }
        i += 1;
    }
}

fn const_of(e: &Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Const(v) => Some(v.clone()),
        _ => None,
    }
}

/// Whether some instance declared in block `b` has an argument that is not
/// a constant (nor an instance, which needs no value).
fn has_open_args(p: &Program, b: BlockId) -> bool {
    let block = &p.blocks[b.0 as usize];
    block.instances.iter().any(|n| {
        p.instances[n.0 as usize]
            .args
            .iter()
            .any(|a| !matches!(a.kind, ExprKind::Const(_) | ExprKind::Instance(_)))
    }) || block
        .tables
        .iter()
        .any(|t| p.tables[t.0 as usize].size_expr.is_some())
}

/// Appends a copy of block `b` whose constructor parameters are bound to
/// `values` in the arguments of its nested instances.
fn bound_copy(p: &mut Program, b: BlockId, values: &[Option<Value>]) -> BlockId {
    let bound: HashMap<VarId, Value> = p.blocks[b.0 as usize]
        .ctor_params
        .iter()
        .zip(values)
        .filter_map(|(param, v)| Some((param.var, v.clone()?)))
        .collect();
    super::generics::specialise_block(p, b, HashMap::new(), &bound)
}

/// Replaces the variables of `values` in `e` by their values, then folds
/// `e` to a constant where it became one.
pub(super) fn bind_values(types: &TypeTable, e: &mut Expr, values: &HashMap<VarId, Value>) {
    if values.is_empty() || matches!(e.kind, ExprKind::Const(_)) {
        return;
    }
    substitute(e, values);
    if let Some(v) = fold_const(types, e) {
        e.kind = ExprKind::Const(v);
    }
}

fn substitute(e: &mut Expr, values: &HashMap<VarId, Value>) {
    if let ExprKind::Var(v) = e.kind
        && let Some(value) = values.get(&v)
    {
        e.kind = ExprKind::Const(value.clone());
        return;
    }
    for child in e.operands_mut() {
        substitute(child, values);
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::program;
    use janus_p4::ir::{ExprKind, InstanceOf, Value};

    #[test]
    fn nested_arguments_are_folded_per_instance() {
        let mut p = program(
            r#"
            #include <core.p4>
            control Adder(inout bit<8> v)(bit<8> amount) { apply { v = v + amount; } }
            control Twice(inout bit<8> v)(bit<8> step) {
                Adder(step * 2 + 1) first;
                apply { first.apply(v); }
            }
            control C(inout bit<8> a) {
                Twice(8w3) t3;
                Twice(8w5) t5;
                apply { t3.apply(a); t5.apply(a); }
            }
            control Ct(inout bit<8> a);
            package Pkg(Ct c);
            Pkg(C()) main;
        "#,
        );
        super::super::lower_calls(&mut p);
        let amount = |outer: &str| {
            let inst = p.instances.iter().find(|i| i.name == outer).expect(outer);
            let InstanceOf::Block(b) = inst.of else {
                panic!("not a block")
            };
            let first = p.blocks[b.0 as usize].instances[0];
            match &p.instances[first.0 as usize].args[0].kind {
                ExprKind::Const(Value::Int(v)) => v.clone(),
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(amount("t3"), 7.into());
        assert_eq!(amount("t5"), 11.into());
    }
}
