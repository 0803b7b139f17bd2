//! Parameters that stand for an instance: an extern passed to a control's
//! `apply` (`control Bump(register<bit<8>> r)` applied as
//! `bump.apply(seen)`), or a parser, control or extern passed to a block's
//! constructor (`Twice(one) twice;`).
//!
//! Such a parameter has no storage. While one call site is compiled, the
//! compiler maps it to the instance it names at that site
//! ([`crate::eval::Compiler::bound`]), so a method call or `apply` through
//! it compiles as one on the instance itself, at load time. The instance
//! is referenced, not copied: its state (a register, a counter, a table)
//! is the one of the block that declared it, whoever calls through it.

use janus_p4::ir::{self, ExprKind, InstanceId, InstanceOf, VarId};
use std::collections::HashMap;

/// The instance a parameter names at one call site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundInstance {
    pub instance: InstanceId,
    /// The path (see [`ir::Program::instance_paths`]) of the block
    /// instance that holds it: where it was declared, or for an instance
    /// created in a constructor call, the instance it was passed to; empty
    /// for an extern declared at the top level.
    pub owner: String,
}

impl BoundInstance {
    /// The instance's own path, for a parser or control instance.
    pub fn path(&self, program: &ir::Program) -> String {
        let name = &program.instances[self.instance.0 as usize].name;
        if self.owner.is_empty() {
            name.clone()
        } else {
            format!("{}.{name}", self.owner)
        }
    }
}

/// Parameters bound to instances, by variable.
pub type Bindings = HashMap<VarId, BoundInstance>;

/// The constructor parameters of the block instance at `path` that name
/// instances, bound to them, level by level down the instance tree (so a
/// parameter passed on to a nested block's constructor resolves). Empty
/// when `path` is not in the tree.
pub fn ctor_bindings(program: &ir::Program, path: &str) -> Bindings {
    let Some(mut current) = program.main else {
        return Bindings::new();
    };
    let mut parent_path = String::new();
    let mut bound = Bindings::new();
    for name in path.split('.') {
        let Some(child) = program.child_named(current, name) else {
            return Bindings::new();
        };
        let child_path = join(&parent_path, name);
        let inst = &program.instances[child.0 as usize];
        let params: &[ir::Param] = match inst.of {
            InstanceOf::Block(b) => &program.blocks[b.0 as usize].ctor_params,
            _ => &[],
        };
        let owner_of = |i: InstanceId| {
            if declared_in(program, current, i) {
                parent_path.clone()
            } else if matches!(
                program.instances[i.0 as usize].of,
                InstanceOf::Extern { .. }
            ) {
                String::new()
            } else {
                // Created in the constructor call: a child of `child`.
                child_path.clone()
            }
        };
        bound = params
            .iter()
            .zip(&inst.args)
            .filter_map(|(p, arg)| {
                let b = match arg.kind {
                    ExprKind::Instance(i) => BoundInstance {
                        instance: i,
                        owner: owner_of(i),
                    },
                    ExprKind::Var(v) => bound.get(&v)?.clone(),
                    _ => return None,
                };
                Some((p.var, b))
            })
            .collect();
        current = child;
        parent_path = child_path;
    }
    bound
}

/// The instance an argument names, given the bindings of the calling
/// frame (`caller`) and its path (`caller_path`): an instance by name
/// (declared in the caller, or an extern declared at the top level), or a
/// parameter of the caller bound to one. `None` for any other argument.
pub fn bound_arg(
    program: &ir::Program,
    caller: &Bindings,
    caller_path: &str,
    arg: &ir::Expr,
) -> Option<BoundInstance> {
    match arg.kind {
        ExprKind::Instance(i) => Some(BoundInstance {
            instance: i,
            owner: if program.declared_in_a_block(i) {
                caller_path.to_string()
            } else {
                String::new()
            },
        }),
        ExprKind::Var(v) => caller.get(&v).cloned(),
        _ => None,
    }
}

/// Whether the block instance `parent` declares instance `i`.
fn declared_in(program: &ir::Program, parent: InstanceId, i: InstanceId) -> bool {
    match program.instances[parent.0 as usize].of {
        InstanceOf::Block(b) => program.blocks[b.0 as usize].instances.contains(&i),
        _ => false,
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::{BoundInstance, ctor_bindings};
    use crate::test_support::program;
    use janus_p4::ir::{self, InstanceId};

    const SOURCE: &str = r#"
        #include <core.p4>
        extern Reg { Reg(); void bump(); }
        Reg() global;
        control Step(inout bit<8> x);
        control AddOne(inout bit<8> x) { apply { x = x + 1; } }
        control Use(inout bit<8> x)(Step f, Reg r) { apply { f.apply(x); r.bump(); } }
        control Fwd(inout bit<8> x)(Step f) {
            Reg() mine;
            Use(f, mine) use;
            apply { use.apply(x); }
        }
        control Ing(inout bit<8> x) {
            AddOne() one;
            Use(one, global) named;
            Use(AddOne(), global) made;
            Fwd(one) fwd;
            apply { named.apply(x); made.apply(x); fwd.apply(x); }
        }
        control Ct(inout bit<8> x);
        package Pkg(Ct c);
        Pkg(Ing()) main;
    "#;

    fn instance(p: &ir::Program, name: &str) -> InstanceId {
        let i = p.instances.iter().position(|i| i.name == name);
        InstanceId(i.expect(name) as u32)
    }

    /// What the parameters `f` and `r` of the instance at `path` name.
    fn bound(p: &ir::Program, path: &str) -> Vec<(String, BoundInstance)> {
        let mut out: Vec<(String, BoundInstance)> = ctor_bindings(p, path)
            .into_iter()
            .map(|(v, b)| (p.var(v).name.clone(), b))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    fn at(instance: InstanceId, owner: &str) -> BoundInstance {
        BoundInstance {
            instance,
            owner: owner.into(),
        }
    }

    #[test]
    fn parameters_name_the_instance_where_it_lives() {
        let p = program(SOURCE);
        let (one, global, mine) = (
            instance(&p, "one"),
            instance(&p, "global"),
            instance(&p, "mine"),
        );
        // Declared in Ing: Ing's; a top-level extern: no block's.
        assert_eq!(
            bound(&p, "Ing.named"),
            [("f".into(), at(one, "Ing")), ("r".into(), at(global, ""))]
        );
        assert_eq!(at(one, "Ing").path(&p), "Ing.one");
        // Created in the constructor call: a child of the receiver.
        let made = bound(&p, "Ing.made");
        assert_eq!(made[0].1.owner, "Ing.made");
        assert_eq!(made[0].1.path(&p), "Ing.made.AddOne");
        // Passed on by Fwd: still Ing's `one`; Fwd's own extern is Fwd's.
        assert_eq!(
            bound(&p, "Ing.fwd.use"),
            [
                ("f".into(), at(one, "Ing")),
                ("r".into(), at(mine, "Ing.fwd"))
            ]
        );
        assert!(bound(&p, "Ing.nowhere").is_empty());
    }

    #[test]
    fn a_shared_instance_has_one_path() {
        let p = program(SOURCE);
        let paths: Vec<String> = p.instance_paths().into_iter().map(|(_, s)| s).collect();
        assert_eq!(
            paths,
            [
                "Ing",
                "Ing.one",
                "Ing.named",
                "Ing.made",
                "Ing.made.AddOne",
                "Ing.fwd",
                "Ing.fwd.use"
            ]
        );
    }
}
