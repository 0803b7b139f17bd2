//! Generic functions and blocks: every use gets a copy specialised to its
//! type arguments, with its own variables, so that every value has a
//! concrete type and storage.
//!
//! - A call of a generic function (`T pick<T>(in bool c, in T a, in T b)`,
//!   `T first_of<T, U>(in Pair<T, U> p)`) is pointed at a copy of the
//!   function for its argument types. Type parameters are inferred by
//!   matching each parameter's type against its argument's, inside generic
//!   structs, stacks and tuples too.
//! - An instance of a generic parser or control (`Sub<in_t>() sp`) is
//!   pointed at a copy of the block for its type arguments: parameters,
//!   locals, states, actions, tables and nested instances, each with the
//!   type parameters replaced.
//!
//! Type parameters are replaced deeply: a struct whose fields mention one
//! becomes the program's specialisation with the same fields (made if the
//! program has none).

use janus_p4::ir::{
    ActionCall, ActionId, BlockId, Callee, Expr, ExprKind, Function, FunctionId, InstanceId,
    InstanceOf, Program, Stmt, StmtKind, TableId, Transition, Value, ValueSetId, Var, VarId,
};
use janus_p4::types::{FieldInfo, StructInfo, Ty, TyId, TypeTable};
use std::collections::HashMap;

/// Specialises every instance of a generic block, then points every call
/// of a generic function at its instance for the call's argument types.
pub(super) fn instantiate(p: &mut Program) {
    specialise_blocks(p);
    instantiate_functions(p);
}

/// Replaces every call of a generic function by a call of its instance for
/// the call's argument types.
fn instantiate_functions(p: &mut Program) {
    let generic: Vec<bool> = p
        .functions
        .iter()
        .map(|f| {
            std::iter::once(f.ret)
                .chain(f.params.iter().map(|x| x.ty))
                .any(|t| mentions_param(&p.types, t))
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

/// Whether `t` mentions a type parameter, at any depth.
fn mentions_param(types: &TypeTable, t: TyId) -> bool {
    match types.get(t) {
        Ty::Param { .. } => true,
        Ty::Stack { elem, .. } | Ty::List(elem) | Ty::Set(elem) => mentions_param(types, *elem),
        Ty::Tuple(items) => items.iter().any(|t| mentions_param(types, *t)),
        Ty::Extern { args, .. } | Ty::Block { args, .. } => {
            args.iter().any(|t| mentions_param(types, *t))
        }
        Ty::Struct(_) => types
            .struct_info(t)
            .is_some_and(|s| s.fields.iter().any(|f| mentions_param(types, f.ty))),
        _ => false,
    }
}

/// Binds the type parameters in `param` to the parts of `arg` at the same
/// places (first binding wins).
fn infer(types: &TypeTable, param: TyId, arg: TyId, out: &mut Vec<(TyId, TyId)>) {
    if param == arg {
        return;
    }
    match (types.get(param), types.get(arg)) {
        (Ty::Param { .. }, _) if !out.iter().any(|(t, _)| *t == param) => out.push((param, arg)),
        (Ty::Stack { elem: a, .. }, Ty::Stack { elem: b, .. })
        | (Ty::List(a), Ty::List(b))
        | (Ty::Set(a), Ty::Set(b)) => infer(types, *a, *b, out),
        (Ty::Tuple(a), Ty::Tuple(b)) => {
            for (x, y) in a.iter().zip(b) {
                infer(types, *x, *y, out);
            }
        }
        (Ty::Struct(_), Ty::Struct(_)) => {
            if let (Some(a), Some(b)) = (types.struct_info(param), types.struct_info(arg)) {
                for (x, y) in a.fields.iter().zip(&b.fields) {
                    infer(types, x.ty, y.ty, out);
                }
            }
        }
        _ => {}
    }
}

/// Type parameters replaced by concrete types, at any depth, each type
/// rewritten once.
struct TypeSubst {
    params: HashMap<TyId, TyId>,
    done: HashMap<TyId, TyId>,
}

impl TypeSubst {
    fn new(params: HashMap<TyId, TyId>) -> TypeSubst {
        TypeSubst {
            params,
            done: HashMap::new(),
        }
    }

    fn apply(&mut self, types: &mut TypeTable, t: TyId) -> TyId {
        if self.params.is_empty() {
            return t;
        }
        if let Some(&d) = self.params.get(&t).or_else(|| self.done.get(&t)) {
            return d;
        }
        let out = match types.get(t).clone() {
            Ty::Struct(_) => self.structure(types, t),
            Ty::Stack { elem, size } => {
                let elem = self.apply(types, elem);
                types.intern(Ty::Stack { elem, size })
            }
            Ty::Tuple(items) => {
                let items = items.into_iter().map(|i| self.apply(types, i)).collect();
                types.intern(Ty::Tuple(items))
            }
            Ty::List(e) => {
                let e = self.apply(types, e);
                types.intern(Ty::List(e))
            }
            Ty::Set(e) => {
                let e = self.apply(types, e);
                types.intern(Ty::Set(e))
            }
            Ty::Extern { decl, name, args } => {
                let args = args.into_iter().map(|a| self.apply(types, a)).collect();
                types.intern(Ty::Extern { decl, name, args })
            }
            Ty::Block { decl, name, args } => {
                let args = args.into_iter().map(|a| self.apply(types, a)).collect();
                types.intern(Ty::Block { decl, name, args })
            }
            _ => t,
        };
        self.done.insert(t, out);
        out
    }

    /// A struct-like type with its fields' types replaced: the program's
    /// specialisation of the same declaration with those fields, else a
    /// new one.
    fn structure(&mut self, types: &mut TypeTable, t: TyId) -> TyId {
        let Some(info) = types.struct_info(t).cloned() else {
            return t;
        };
        let fields: Vec<FieldInfo> = info
            .fields
            .iter()
            .map(|f| FieldInfo {
                ty: self.apply(types, f.ty),
                ..f.clone()
            })
            .collect();
        if fields == info.fields {
            return t;
        }
        let base = |name: &str| name.split('<').next().unwrap_or_default().to_string();
        let decl = base(&info.name);
        let existing = types
            .structs
            .iter()
            .position(|s| s.kind == info.kind && s.fields == fields && base(&s.name) == decl);
        match existing {
            Some(i) => types.intern(Ty::Struct(i as u32)),
            None => types.add_struct(StructInfo { fields, ..info }),
        }
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
        for child in e.operands_mut() {
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
            if let Some(arg) = arg {
                infer(&p.types, param.ty, arg.ty, &mut subst);
            }
        }
        subst.sort();
        let key = (f.0, subst);
        if let Some(id) = self.instances.get(&key) {
            return *id;
        }
        let first_var = p.vars.len() as u32;
        let mut copy = Copier::new(
            &mut p.types,
            &p.vars,
            first_var,
            key.1.iter().copied().collect(),
        );
        let func = &p.functions[f.0 as usize];
        let params = func.params.iter().map(|x| copy.param(x)).collect();
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

/// Points every instance of a generic parser or control that names its
/// type arguments at a copy of the block specialised to them (one copy per
/// block and arguments). Copies of nested generic instances are met later
/// in the same walk and specialised in turn.
fn specialise_blocks(p: &mut Program) {
    let mut made: HashMap<(BlockId, Vec<TyId>), BlockId> = HashMap::new();
    let mut i = 0;
    while i < p.instances.len() {
        if let InstanceOf::Block(b) = p.instances[i].of
            && let Ty::Block { args, .. } = p.types.get(p.instances[i].ty)
            && !args.is_empty()
            && !args.iter().any(|a| mentions_param(&p.types, *a))
        {
            let key = (b, args.clone());
            let special = match made.get(&key) {
                Some(s) => *s,
                None => match block_params(p, b, &key.1) {
                    Some(params) => {
                        let s = specialise_block(p, b, params, &HashMap::new());
                        made.insert(key, s);
                        s
                    }
                    None => b,
                },
            };
            p.instances[i].of = InstanceOf::Block(special);
        }
        i += 1;
    }
}

/// The type parameters of block `b` bound to `args`, or `None` when the
/// block mentions no type parameter.
fn block_params(p: &Program, b: BlockId, args: &[TyId]) -> Option<HashMap<TyId, TyId>> {
    let block = &p.blocks[b.0 as usize];
    let mut vars: Vec<VarId> = block
        .params
        .iter()
        .chain(&block.ctor_params)
        .map(|x| x.var)
        .collect();
    for body in std::iter::once(&block.locals)
        .chain(block.states.iter().map(|s| &s.body))
        .chain(std::iter::once(&block.apply))
    {
        declared_in(body, &mut vars);
    }
    // Where else a type parameter may show: a value set's elements, a
    // select key (`select(pkt.lookahead<T>())`).
    let value_sets = block
        .value_sets
        .iter()
        .map(|v| p.value_sets[v.0 as usize].elem);
    let select_keys = block.states.iter().flat_map(|s| match &s.transition {
        Transition::Select(keys, _) => keys.iter().map(|k| k.ty).collect(),
        _ => Vec::new(),
    });
    let owner = vars
        .iter()
        .map(|v| p.var(*v).ty)
        .chain(value_sets)
        .chain(select_keys)
        .find_map(|t| param_owner(&p.types, t))?;
    let map = (0..p.types.len() as u32)
        .map(TyId)
        .filter_map(|t| match p.types.get(t) {
            Ty::Param {
                owner: o, index, ..
            } if *o == owner => Some((t, *args.get(*index as usize)?)),
            _ => None,
        })
        .collect();
    Some(map)
}

/// The owner of the first type parameter `t` mentions.
fn param_owner(types: &TypeTable, t: TyId) -> Option<u32> {
    match types.get(t) {
        Ty::Param { owner, .. } => Some(*owner),
        Ty::Stack { elem, .. } | Ty::List(elem) | Ty::Set(elem) => param_owner(types, *elem),
        Ty::Tuple(items) => items.iter().find_map(|t| param_owner(types, *t)),
        Ty::Extern { args, .. } | Ty::Block { args, .. } => {
            args.iter().find_map(|t| param_owner(types, *t))
        }
        Ty::Struct(_) => types
            .struct_info(t)?
            .fields
            .iter()
            .find_map(|f| param_owner(types, f.ty)),
        _ => None,
    }
}

/// Every variable declared in `stmts`, nested blocks included.
fn declared_in(stmts: &[Stmt], out: &mut Vec<VarId>) {
    for s in stmts {
        if let StmtKind::Declare(v, _) | StmtKind::ForIn { var: v, .. } = &s.kind {
            out.push(*v);
        }
        for body in s.bodies() {
            declared_in(body, out);
        }
    }
}

/// Maps each of `ids` to the id its copy gets when the copies are
/// appended, in order, to a list now `len` long.
fn renumbered<I, J>(ids: &[I], len: usize, id: fn(u32) -> J) -> HashMap<I, J>
where
    I: Copy + Eq + std::hash::Hash,
{
    ids.iter()
        .enumerate()
        .map(|(k, old)| (*old, id((len + k) as u32)))
        .collect()
}

/// Appends a copy of block `b` with its type parameters replaced by
/// `params`: new variables, actions, tables, value sets and (where their types change
/// or their arguments may name the block's variables) nested instances.
///
/// `values` binds constructor parameters (by the block's own variables) to
/// constants in its nested instances' arguments, which are then folded
/// (see `ctor_args.rs`).
pub(super) fn specialise_block(
    p: &mut Program,
    b: BlockId,
    params: HashMap<TyId, TyId>,
    values: &HashMap<VarId, Value>,
) -> BlockId {
    let block = p.blocks[b.0 as usize].clone();
    let first_var = p.vars.len() as u32;
    let mut copy = Copier::new(&mut p.types, &p.vars, first_var, params);
    copy.actions = renumbered(&block.actions, p.actions.len(), ActionId);
    copy.tables = renumbered(&block.tables, p.tables.len(), TableId);
    copy.value_sets = renumbered(&block.value_sets, p.value_sets.len(), ValueSetId);
    let mut nested = Vec::new();
    for &inst in &block.instances {
        let ty = p.instances[inst.0 as usize].ty;
        // An argument that is not a constant may name a constructor
        // parameter, which the copy renames.
        let open_args = p.instances[inst.0 as usize]
            .args
            .iter()
            .any(|a| !matches!(a.kind, ExprKind::Const(_) | ExprKind::Instance(_)));
        if copy.ty(ty) != ty || open_args {
            let id = InstanceId((p.instances.len() + nested.len()) as u32);
            copy.instances.insert(inst, id);
            nested.push(inst);
        }
    }
    let mut out = block.clone();
    out.params = block.params.iter().map(|x| copy.param(x)).collect();
    out.ctor_params = block.ctor_params.iter().map(|x| copy.param(x)).collect();
    copy.stmts(&mut out.locals);
    for s in &mut out.states {
        copy.stmts(&mut s.body);
        if let Transition::Select(keys, cases) = &mut s.transition {
            keys.iter_mut().for_each(|k| copy.expr(k));
            cases.iter_mut().for_each(|c| copy.expr(&mut c.keyset));
        }
    }
    copy.stmts(&mut out.apply);
    let actions: Vec<_> = block
        .actions
        .iter()
        .map(|a| {
            let mut action = p.actions[a.0 as usize].clone();
            action.params = action.params.iter().map(|x| copy.param(x)).collect();
            copy.stmts(&mut action.body);
            action
        })
        .collect();
    let tables: Vec<_> = block
        .tables
        .iter()
        .map(|t| {
            let mut table = p.tables[t.0 as usize].clone();
            // A `size` over constructor parameters: folded once they are
            // bound.
            if let Some(e) = &mut table.size_expr {
                super::ctor_args::bind_values(copy.types, e, values);
                match &e.kind {
                    ExprKind::Const(Value::Int(n)) => {
                        table.size = u64::try_from(n).ok();
                        table.size_expr = None;
                    }
                    _ => copy.expr(e),
                }
            }
            table.keys.iter_mut().for_each(|k| copy.expr(&mut k.expr));
            table.actions.iter_mut().for_each(|a| copy.action_call(a));
            if let Some(a) = &mut table.default_action {
                copy.action_call(a);
            }
            for e in &mut table.entries {
                e.keys.iter_mut().for_each(|k| copy.expr(k));
                copy.action_call(&mut e.action);
            }
            for inst in [
                &mut table.implementation,
                &mut table.direct_counter,
                &mut table.direct_meter,
            ]
            .into_iter()
            .flatten()
            {
                *inst = copy.instance(*inst);
            }
            table
        })
        .collect();
    let instances: Vec<_> = nested
        .iter()
        .map(|i| {
            let mut inst = p.instances[i.0 as usize].clone();
            inst.ty = copy.ty(inst.ty);
            for a in &mut inst.args {
                super::ctor_args::bind_values(copy.types, a, values);
                copy.expr(a);
            }
            inst
        })
        .collect();
    let value_sets: Vec<_> = block
        .value_sets
        .iter()
        .map(|v| {
            let mut vs = p.value_sets[v.0 as usize].clone();
            vs.elem = copy.ty(vs.elem);
            vs
        })
        .collect();
    out.value_sets = block
        .value_sets
        .iter()
        .map(|v| copy.value_sets[v])
        .collect();
    out.actions = block.actions.iter().map(|a| copy.actions[a]).collect();
    out.tables = block.tables.iter().map(|t| copy.tables[t]).collect();
    out.instances = block.instances.iter().map(|i| copy.instance(*i)).collect();
    let new_vars = copy.new_vars;
    p.vars.extend(new_vars);
    p.actions.extend(actions);
    p.tables.extend(tables);
    p.value_sets.extend(value_sets);
    p.instances.extend(instances);
    let id = BlockId(p.blocks.len() as u32);
    p.blocks.push(out);
    id
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

/// Copies a generic function's or block's code with its type parameters
/// replaced and every variable it declares renamed to a fresh one (and,
/// for a block, its actions, tables and changed instances renamed).
struct Copier<'a> {
    types: &'a mut TypeTable,
    subst: TypeSubst,
    vars: HashMap<VarId, VarId>,
    new_vars: Vec<Var>,
    first_var: u32,
    old_vars: &'a [Var],
    actions: HashMap<ActionId, ActionId>,
    tables: HashMap<TableId, TableId>,
    instances: HashMap<InstanceId, InstanceId>,
    value_sets: HashMap<ValueSetId, ValueSetId>,
}

impl<'a> Copier<'a> {
    fn new(
        types: &'a mut TypeTable,
        old_vars: &'a [Var],
        first_var: u32,
        params: HashMap<TyId, TyId>,
    ) -> Copier<'a> {
        Copier {
            types,
            subst: TypeSubst::new(params),
            vars: HashMap::new(),
            new_vars: Vec::new(),
            first_var,
            old_vars,
            actions: HashMap::new(),
            tables: HashMap::new(),
            instances: HashMap::new(),
            value_sets: HashMap::new(),
        }
    }

    fn ty(&mut self, t: TyId) -> TyId {
        self.subst.apply(self.types, t)
    }

    fn instance(&self, i: InstanceId) -> InstanceId {
        self.instances.get(&i).copied().unwrap_or(i)
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

    fn param(&mut self, x: &janus_p4::ir::Param) -> janus_p4::ir::Param {
        let mut x = x.clone();
        x.ty = self.ty(x.ty);
        x.var = self.var(x.var);
        x
    }

    fn action_call(&mut self, a: &mut ActionCall) {
        if let Some(n) = self.actions.get(&a.action) {
            a.action = *n;
        }
        a.args.iter_mut().flatten().for_each(|e| self.expr(e));
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
        match &mut e.kind {
            ExprKind::Var(v) => {
                if let Some(n) = self.vars.get(v) {
                    *v = *n;
                }
            }
            ExprKind::Instance(i) => *i = self.instance(*i),
            ExprKind::ValueSet(v) => {
                if let Some(n) = self.value_sets.get(v) {
                    *v = *n;
                }
            }
            ExprKind::Call(callee, _) => self.callee(callee),
            _ => {}
        }
        for child in e.operands_mut() {
            self.expr(child);
        }
    }

    /// The callee's receiver, type arguments, action or table.
    fn callee(&mut self, callee: &mut Callee) {
        match callee {
            Callee::Action(a) => {
                if let Some(n) = self.actions.get(a) {
                    *a = *n;
                }
            }
            Callee::TableApply(t) => {
                if let Some(n) = self.tables.get(t) {
                    *t = *n;
                }
            }
            Callee::ExternFunction { type_args, .. } => {
                type_args.iter_mut().for_each(|t| *t = self.ty(*t));
            }
            Callee::ExternMethod {
                receiver,
                type_args,
                ..
            } => {
                self.expr(receiver);
                type_args.iter_mut().for_each(|t| *t = self.ty(*t));
            }
            Callee::Builtin { receiver, .. } | Callee::BlockApply(receiver) => self.expr(receiver),
            Callee::Function(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::program;

    const PROGRAM: &str = r#"
        #include <core.p4>
        struct Pair<A, B> { A first; B second; }
        T first_of<T, U>(in Pair<T, U> p) { return p.first; }
        control Inc<T>(inout T v) {
            T seen;
            action keep() { v = seen; }
            apply { seen = v; keep(); }
        }
        control C(inout bit<8> a, inout bit<16> b) {
            Inc<bit<8>>() i8;
            Inc<bit<16>>() i16;
            Inc<bit<8>>() again;
            apply {
                Pair<bit<8>, bool> pair = { first = a, second = true };
                a = first_of(pair);
                i8.apply(a);
                i16.apply(b);
                again.apply(a);
            }
        }
        control Ct(inout bit<8> a, inout bit<16> b);
        package Pkg(Ct c);
        Pkg(C()) main;
    "#;

    fn instantiated() -> Program {
        let mut p = program(PROGRAM);
        instantiate(&mut p);
        p
    }

    fn block_of<'p>(p: &'p Program, name: &str) -> (BlockId, &'p janus_p4::ir::Block) {
        let inst = p.instances.iter().find(|i| i.name == name).expect(name);
        let InstanceOf::Block(b) = inst.of else {
            panic!("{name}: not a block instance")
        };
        (b, &p.blocks[b.0 as usize])
    }

    #[test]
    fn a_generic_struct_parameter_takes_the_argument_s_specialisation() {
        let p = instantiated();
        let f = p
            .functions
            .iter()
            .rev()
            .find(|f| f.name == "first_of")
            .expect("instance");
        let pair = p.vars.iter().find(|v| v.name == "pair").expect("pair").ty;
        assert_eq!(f.params[0].ty, pair, "the caller's Pair<bit<8>, bool>");
        assert_eq!(p.types.int_width(f.ret), Some((8, false)));
        assert!(!mentions_param(&p.types, p.var(f.params[0].var).ty));
    }

    #[test]
    fn each_generic_block_instance_runs_a_copy_at_its_type_arguments() {
        let p = instantiated();
        let (b8, inc8) = block_of(&p, "i8");
        let (b16, inc16) = block_of(&p, "i16");
        let (again, _) = block_of(&p, "again");
        assert_ne!(b8, b16);
        assert_eq!(b8, again, "one copy per type arguments");
        for (block, width) in [(inc8, 8), (inc16, 16)] {
            let v = block.params[0].var;
            assert_eq!(p.types.int_width(p.var(v).ty), Some((width, false)));
            // The action is the copy's own, over the copy's variables.
            let action = &p.actions[block.actions[0].0 as usize];
            let StmtKind::Assign(lhs, _) = &action.body[0].kind else {
                panic!("assignment")
            };
            assert_eq!(lhs.kind, ExprKind::Var(v));
        }
        let plan = crate::plan::StoragePlan::new(&p).expect("plan");
        let frame = plan.instance_frame("C.i16").expect("frame");
        assert!(frame.vars.contains_key(&inc16.params[0].var));
        assert_eq!(frame.bytes, 2 + 2, "v and seen at bit<16>");
    }
}
