//! Generic functions (`T pick<T>(in bool c, in T a, in T b)`): each call is
//! pointed at a copy of the function for its argument types, with its own
//! variables, so that every value has a concrete type and storage.
//!
//! Type parameters are inferred from the arguments whose parameter type is
//! the parameter itself (`in T a`); a function whose parameters use a type
//! parameter only inside another type (`S<T>`) stays as it is, and loading
//! it reports the engine's limit.

use janus_p4::ir::{
    Callee, Expr, ExprKind, Function, FunctionId, Program, Stmt, StmtKind, Transition, Var, VarId,
};
use janus_p4::types::{Ty, TyId};
use std::collections::HashMap;

/// Replaces every call of a generic function by a call of its instance for
/// the call's argument types.
pub(super) fn instantiate(p: &mut Program) {
    let generic: Vec<bool> = p
        .functions
        .iter()
        .map(|f| {
            std::iter::once(f.ret)
                .chain(f.params.iter().map(|x| x.ty))
                .any(|t| matches!(p.types.get(t), Ty::Param { .. }))
        })
        .collect();
    if !generic.contains(&true) {
        return;
    }
    let mut inst = Instantiator {
        generic,
        instances: HashMap::new(),
    };
    // Bodies are taken out while they are rewritten; new instances are
    // appended to `p.functions` and rewritten in turn.
    for b in 0..p.blocks.len() {
        let mut apply = std::mem::take(&mut p.blocks[b].apply);
        inst.stmts(p, &mut apply);
        p.blocks[b].apply = apply;
        for s in 0..p.blocks[b].states.len() {
            let mut body = std::mem::take(&mut p.blocks[b].states[s].body);
            inst.stmts(p, &mut body);
            let mut transition =
                std::mem::replace(&mut p.blocks[b].states[s].transition, Transition::Direct(0));
            if let Transition::Select(keys, _) = &mut transition {
                keys.iter_mut().for_each(|k| inst.expr(p, k));
            }
            let state = &mut p.blocks[b].states[s];
            state.body = body;
            state.transition = transition;
        }
    }
    for a in 0..p.actions.len() {
        let mut body = std::mem::take(&mut p.actions[a].body);
        inst.stmts(p, &mut body);
        p.actions[a].body = body;
    }
    let mut f = 0;
    while f < p.functions.len() {
        if !inst.generic.get(f).copied().unwrap_or(false) {
            let mut body = std::mem::take(&mut p.functions[f].body);
            inst.stmts(p, &mut body);
            p.functions[f].body = body;
        }
        f += 1;
    }
}

struct Instantiator {
    /// Whether each function (by id) is generic.
    generic: Vec<bool>,
    /// (generic function, its type arguments) -> instance.
    instances: HashMap<(u32, Vec<(TyId, TyId)>), FunctionId>,
}

impl Instantiator {
    fn stmts(&mut self, p: &mut Program, stmts: &mut [Stmt]) {
        for s in stmts {
            for_each_part(s, &mut |part| match part {
                Part::Expr(e) => self.expr(p, e),
                Part::Body(b) => self.stmts(p, b),
                Part::Var(_) => {}
            });
        }
    }

    fn expr(&mut self, p: &mut Program, e: &mut Expr) {
        for child in super::children(e) {
            self.expr(p, child);
        }
        if let ExprKind::Call(Callee::Function(f), args) = &mut e.kind
            && self.generic.get(f.0 as usize).copied().unwrap_or(false)
        {
            *f = self.instance(p, *f, args);
        }
    }

    /// The instance of `f` for the types of `args`, made on first use.
    fn instance(&mut self, p: &mut Program, f: FunctionId, args: &[Option<Expr>]) -> FunctionId {
        let func = &p.functions[f.0 as usize];
        let mut subst: Vec<(TyId, TyId)> = Vec::new();
        for (param, arg) in func.params.iter().zip(args) {
            if let (Ty::Param { .. }, Some(arg)) = (p.types.get(param.ty), arg)
                && !subst.iter().any(|(t, _)| *t == param.ty)
            {
                subst.push((param.ty, arg.ty));
            }
        }
        subst.sort();
        let key = (f.0, subst);
        if let Some(id) = self.instances.get(&key) {
            return *id;
        }
        let map: HashMap<TyId, TyId> = key.1.iter().copied().collect();
        let mut copy = Copier {
            types: &map,
            vars: HashMap::new(),
            new_vars: Vec::new(),
            first_var: p.vars.len() as u32,
            old_vars: &p.vars,
        };
        let func = &p.functions[f.0 as usize];
        let params = func
            .params
            .iter()
            .map(|x| {
                let mut x = x.clone();
                x.ty = copy.ty(x.ty);
                x.var = copy.var(x.var);
                x
            })
            .collect();
        let mut body = func.body.clone();
        copy.stmts(&mut body);
        let instance = Function {
            name: func.name.clone(),
            params,
            ret: copy.ty(func.ret),
            body,
            span: func.span,
        };
        let new_vars = copy.new_vars;
        p.vars.extend(new_vars);
        let id = FunctionId(p.functions.len() as u32);
        p.functions.push(instance);
        self.generic.push(false);
        self.instances.insert(key, id);
        id
    }
}

/// A part of a statement: an expression, a nested body, or a variable it
/// declares.
enum Part<'s> {
    Expr(&'s mut Expr),
    Body(&'s mut Vec<Stmt>),
    Var(&'s mut VarId),
}

/// Calls `f` on each part of `s`, in order.
fn for_each_part(s: &mut Stmt, f: &mut dyn FnMut(Part<'_>)) {
    match &mut s.kind {
        StmtKind::Assign(a, b) => {
            f(Part::Expr(a));
            f(Part::Expr(b));
        }
        StmtKind::Call(e) | StmtKind::Return(Some(e)) => f(Part::Expr(e)),
        StmtKind::Declare(v, init) => {
            f(Part::Var(v));
            if let Some(e) = init {
                f(Part::Expr(e));
            }
        }
        StmtKind::If(c, a, b) => {
            f(Part::Expr(c));
            f(Part::Body(a));
            f(Part::Body(b));
        }
        StmtKind::Block(b) => f(Part::Body(b)),
        StmtKind::Switch(e, cases) => {
            f(Part::Expr(e));
            cases.iter_mut().for_each(|c| f(Part::Body(&mut c.body)));
        }
        StmtKind::For {
            init,
            cond,
            update,
            body,
        } => {
            f(Part::Body(init));
            if let Some(c) = cond {
                f(Part::Expr(c));
            }
            f(Part::Body(update));
            f(Part::Body(body));
        }
        StmtKind::ForIn {
            var,
            collection,
            body,
        } => {
            f(Part::Var(var));
            f(Part::Expr(collection));
            f(Part::Body(body));
        }
        StmtKind::Return(None) | StmtKind::Exit | StmtKind::Break | StmtKind::Continue => {}
    }
}

/// Copies a generic function's body with its type parameters replaced and
/// every variable it declares renamed to a fresh one.
struct Copier<'a> {
    types: &'a HashMap<TyId, TyId>,
    vars: HashMap<VarId, VarId>,
    new_vars: Vec<Var>,
    first_var: u32,
    old_vars: &'a [Var],
}

impl Copier<'_> {
    fn ty(&self, t: TyId) -> TyId {
        self.types.get(&t).copied().unwrap_or(t)
    }

    fn var(&mut self, v: VarId) -> VarId {
        if let Some(n) = self.vars.get(&v) {
            return *n;
        }
        let mut var = self.old_vars[v.0 as usize].clone();
        var.ty = self.ty(var.ty);
        let n = VarId(self.first_var + self.new_vars.len() as u32);
        self.new_vars.push(var);
        self.vars.insert(v, n);
        n
    }

    fn stmts(&mut self, stmts: &mut [Stmt]) {
        for s in stmts {
            for_each_part(s, &mut |part| match part {
                Part::Expr(e) => self.expr(e),
                Part::Body(b) => self.stmts(b),
                Part::Var(v) => *v = self.var(*v),
            });
        }
    }

    fn expr(&mut self, e: &mut Expr) {
        e.ty = self.ty(e.ty);
        if let ExprKind::Var(v) = &mut e.kind
            && let Some(n) = self.vars.get(v)
        {
            *v = *n;
        }
        for child in super::children(e) {
            self.expr(child);
        }
    }
}
