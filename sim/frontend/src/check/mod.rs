//! The type checker: resolves names, infers and checks types, evaluates
//! compile-time constants and elaborates the AST into the typed [`ir`].
//!
//! One pass over the declarations in order (P4 requires declaration before
//! use). Each check function returns the IR node it produced; an error is
//! reported once and the offending expression gets the `Unknown` type, which
//! is compatible with everything, so that one mistake gives one diagnostic.

mod abstract_methods;
mod aggregates;
mod annotation_rules;
mod annotation_values;
mod calls;
mod consts;
mod control_plane_names;
mod conversions;
mod decls;
mod exprs;
mod fold;
mod generic_recheck;
mod operators;
mod packet_methods;
mod scopes;
mod stmts;
mod table_rules;
mod tables;
mod unify;
mod uninit;
mod usage;
pub mod v1model_version;
mod validate;

pub use consts::{fits, wrap};
pub use fold::{fold_const, fold_with};

use crate::ast;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::ir::{self, ActionId, Direction, FunctionId, InstanceId, TableId, ValueSetId, VarId};
use crate::source::{OffsetMap, Span};
use crate::types::{Ty, TyId, TypeTable};
use std::collections::HashMap;

/// Checks a parsed program; diagnostics go to `diags`. Returns the IR (which
/// is only meaningful when no errors were reported).
pub fn check_program(
    program: &ast::Program,
    map: &OffsetMap,
    diags: &mut Diagnostics,
) -> ir::Program {
    let mut c = Checker::new(map, diags);
    for d in &program.decls {
        c.top_decl(d);
    }
    c.check_structured_annotations(program);
    c.check_annotation_rules(program);
    c.report_unused();
    c.check_control_plane_names(program);
    c.finish()
}

/// A parameter of a callable or constructible thing.
#[derive(Clone, Debug)]
pub(crate) struct ParamSig {
    pub name: String,
    pub dir: Direction,
    pub ty: TyId,
    pub has_default: bool,
    /// The default value written in the declaration (`bit<8> b = 0x10`),
    /// passed when a call leaves the argument out.
    pub default: Option<ast::Expr>,
}

/// The signature of a function, method, action, constructor or apply.
#[derive(Clone, Debug)]
pub(crate) struct Sig {
    /// Identifies this signature's own type parameters in [`Ty::Param`].
    pub owner: u32,
    pub type_params: Vec<String>,
    pub params: Vec<ParamSig>,
    pub ret: TyId,
}

impl Sig {
    /// How many arguments a call may pass.
    pub fn arity(&self) -> std::ops::RangeInclusive<usize> {
        let required = self.params.iter().filter(|p| !p.has_default).count();
        required..=self.params.len()
    }
}

#[derive(Clone, Debug)]
pub(crate) struct ExternMethod {
    pub name: String,
    pub sig: Sig,
    /// `abstract`: instances implement it in their initialiser block.
    pub is_abstract: bool,
    /// `@optional` on an abstract method: an instance may leave it out.
    pub optional: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct ExternInfo {
    pub name: String,
    pub owner: u32,
    pub type_params: Vec<String>,
    pub ctors: Vec<Sig>,
    pub methods: Vec<ExternMethod>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockKind {
    Parser,
    Control,
    Package,
}

impl BlockKind {
    pub fn as_str(self) -> &'static str {
        match self {
            BlockKind::Parser => "parser",
            BlockKind::Control => "control",
            BlockKind::Package => "package",
        }
    }
}

/// A parser, control or package type or declaration.
#[derive(Clone, Debug)]
pub(crate) struct BlockInfo {
    pub kind: BlockKind,
    pub name: String,
    pub owner: u32,
    pub type_params: Vec<String>,
    /// Apply parameters (for a package: its constructor parameters).
    pub params: Vec<ParamSig>,
    pub ctor_params: Vec<ParamSig>,
    /// The IR block, for declarations with a body.
    pub ir: Option<ir::BlockId>,
}

/// What a name in scope refers to.
#[derive(Clone, Debug)]
pub(crate) enum Binding {
    Type(TyId),
    GenericStruct(u32),
    Extern(u32),
    Block(u32),
    Var(VarId),
    Const {
        ty: TyId,
        value: ir::Value,
    },
    /// A constant holding headers (`const H h = { ... }` or `{#}`, spec
    /// 8.16): the expression, made of constants, list nodes and invalid
    /// headers, is substituted at each use, as validity is not a
    /// [`ir::Value`].
    HeaderConst(ir::Expr),
    Action(ActionId),
    Table(TableId),
    Functions(Vec<FunctionId>),
    ExternFunctions(Vec<u32>),
    Instance(InstanceId),
    ValueSet(ValueSetId),
    MatchKind(u32),
}

impl Binding {
    fn describe(&self) -> &'static str {
        match self {
            Binding::Type(_) | Binding::GenericStruct(_) => "a type",
            Binding::Extern(_) => "an extern type",
            Binding::Block(_) => "a parser, control or package",
            Binding::Var(_) => "a variable",
            Binding::Const { .. } | Binding::HeaderConst(_) => "a constant",
            Binding::Action(_) => "an action",
            Binding::Table(_) => "a table",
            Binding::Functions(_) => "a function",
            Binding::ExternFunctions(_) => "an extern function",
            Binding::Instance(_) => "an instance",
            Binding::ValueSet(_) => "a value set",
            Binding::MatchKind(_) => "a match kind",
        }
    }
}

/// Where the statements being checked are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Context {
    TopLevel,
    ParserLocal,
    ParserState,
    ControlLocal,
    ControlApply,
    Action,
    Function,
}

pub(crate) struct Checker<'a> {
    map: &'a OffsetMap,
    diags: &'a mut Diagnostics,
    pub(crate) prog: ir::Program,
    scopes: scopes::Scopes,
    pub(crate) externs: Vec<ExternInfo>,
    pub(crate) ext_functions: Vec<(String, Sig)>,
    pub(crate) blocks: Vec<BlockInfo>,
    /// The parser or control whose body is being checked.
    pub(crate) current_block: Option<ir::BlockId>,
    pub(crate) fn_sigs: Vec<Sig>,
    pub(crate) action_sigs: Vec<Vec<ParamSig>>,
    pub(crate) generic_structs: Vec<ast::StructDecl>,
    pub(crate) generic_kinds: Vec<crate::types::StructKind>,
    generic_struct_cache: HashMap<(u32, Vec<TyId>), TyId>,
    /// The other way: a specialisation's generic declaration and arguments,
    /// so that inference can see through `S<T>` to `T`.
    pub(crate) generic_struct_origin: HashMap<TyId, (u32, Vec<TyId>)>,
    pub(crate) ctx: Context,
    pub(crate) return_ty: Option<TyId>,
    pub(crate) loop_depth: u32,
    next_owner: u32,
    /// (code, span) of errors already reported, to avoid repeats.
    reported: std::collections::HashSet<(Code, Span)>,
    /// `prog.errors` by name: each member's number.
    pub(crate) error_numbers: HashMap<String, u32>,
    /// The names in `prog.match_kinds`.
    pub(crate) match_kind_names: std::collections::HashSet<String>,
    /// The type declaration whose definition is being checked (a struct,
    /// header, union or typedef), to tell a self-reference from an
    /// undeclared name.
    pub(crate) declaring_type: Option<String>,
    /// Type parameters `(owner, index)` whose values some `==` or `!=`
    /// compares: they cannot be bound to extern types.
    pub(crate) compared_params: std::collections::HashSet<(u32, u32)>,
    /// Set while the expression of a `switch` is `... .action_run`, the one
    /// place `action_run` may appear.
    pub(crate) allow_action_run: bool,
    /// Uses of declarations, for the unused-declaration warnings.
    pub(crate) usage: usage::Usage,
    /// Checking an instance's initialiser block (where `this` is allowed).
    pub(crate) in_initializer: bool,
    /// Parsers, controls and packages declared more than once under one
    /// name with different parameter counts (p4c accepts them and picks
    /// one by the constructor arguments of each instantiation): the first
    /// declaration's index, bound to the name, to all of them.
    pub(crate) block_overloads: HashMap<u32, Vec<u32>>,
    /// Set for one [`Checker::instantiate`] whose block type names the
    /// overload already chosen (a direct `C.apply(...)`).
    pub(crate) overload_chosen: bool,
    /// Checking the initialiser of a control-local variable, which runs
    /// at each apply before the apply block: it may apply a table
    /// (`bool hit = t.apply().hit;`), as p4c allows.
    pub(crate) in_control_var_init: bool,
    /// Generic parsers and controls, checked again per use.
    pub(crate) recheck: generic_recheck::RecheckState,
}

impl<'a> Checker<'a> {
    fn new(map: &'a OffsetMap, diags: &'a mut Diagnostics) -> Checker<'a> {
        Checker {
            map,
            diags,
            prog: ir::Program::default(),
            scopes: scopes::Scopes::default(),
            externs: Vec::new(),
            ext_functions: Vec::new(),
            blocks: Vec::new(),
            current_block: None,
            fn_sigs: Vec::new(),
            action_sigs: Vec::new(),
            generic_structs: Vec::new(),
            generic_kinds: Vec::new(),
            generic_struct_cache: HashMap::new(),
            generic_struct_origin: HashMap::new(),
            ctx: Context::TopLevel,
            return_ty: None,
            loop_depth: 0,
            next_owner: 1,
            reported: Default::default(),
            error_numbers: HashMap::new(),
            match_kind_names: Default::default(),
            declaring_type: None,
            compared_params: Default::default(),
            allow_action_run: false,
            usage: Default::default(),
            in_initializer: false,
            block_overloads: HashMap::new(),
            overload_chosen: false,
            in_control_var_init: false,
            recheck: Default::default(),
        }
    }

    fn finish(self) -> ir::Program {
        self.prog
    }

    pub(crate) fn types(&mut self) -> &mut TypeTable {
        &mut self.prog.types
    }

    pub(crate) fn ty(&self, id: TyId) -> &Ty {
        self.prog.types.get(id)
    }

    pub(crate) fn show(&self, id: TyId) -> String {
        self.prog.types.display(id)
    }

    pub(crate) fn fresh_owner(&mut self) -> u32 {
        self.next_owner += 1;
        self.next_owner
    }

    // ------------------------------------------------------------ diagnostics

    pub(crate) fn error(&mut self, code: Code, span: Span, message: impl Into<String>) {
        if !self.reported.insert((code, span)) {
            return;
        }
        let mut d = Diagnostic::error(code, message);
        if let Some(fs) = self.map.resolve(span) {
            d = d.at(fs, "");
        }
        let d = self.recheck_note(d);
        self.diags.push(d);
    }

    pub(crate) fn error_with_note(
        &mut self,
        code: Code,
        span: Span,
        message: impl Into<String>,
        note: impl Into<String>,
    ) {
        if !self.reported.insert((code, span)) {
            return;
        }
        let mut d = Diagnostic::error(code, message).note(note);
        if let Some(fs) = self.map.resolve(span) {
            d = d.at(fs, "");
        }
        let d = self.recheck_note(d);
        self.diags.push(d);
    }

    pub(crate) fn warning(&mut self, code: Code, span: Span, message: impl Into<String>) {
        if self.rechecking() || !self.reported.insert((code, span)) {
            return;
        }
        let mut d = Diagnostic::warning(code, message);
        if let Some(fs) = self.map.resolve(span) {
            d = d.at(fs, "");
        }
        self.diags.push(d);
    }

    // ------------------------------------------------------------ scopes

    pub(crate) fn push_scope(&mut self) {
        self.scopes.push();
    }

    pub(crate) fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    /// Runs `f` in a new scope.
    pub(crate) fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.push_scope();
        let r = f(self);
        self.pop_scope();
        r
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.lookup(name)
    }

    pub(crate) fn lookup_global(&self, name: &str) -> Option<&Binding> {
        self.scopes.global().get(name)
    }

    pub(crate) fn lookup_path(&self, path: &ast::Path) -> Option<&Binding> {
        if path.global {
            self.lookup_global(&path.name.name)
        } else {
            self.lookup(&path.name.name)
        }
    }

    /// Declares `name` in the innermost scope; reports a duplicate.
    pub(crate) fn declare(&mut self, name: &ast::Ident, binding: Binding) {
        if !self.scopes.at_top_level()
            && !self.scopes.innermost().contains_key(&name.name)
            && self.scopes.enclosing().any(|s| s.contains_key(&name.name))
        {
            if self.shadows_parameter(name, &binding) {
                return;
            }
            self.warning(
                Code::Shadowing,
                name.span,
                format!(
                    "`{}` hides a declaration of the same name in an enclosing scope",
                    name.name
                ),
            );
        }
        let scope = self.scopes.innermost_mut();
        if let Some(old) = scope.get_mut(&name.name) {
            match (old, binding) {
                (Binding::Functions(a), Binding::Functions(b)) => a.extend(b),
                (Binding::ExternFunctions(a), Binding::ExternFunctions(b)) => a.extend(b),
                (old, _) => {
                    let what = old.describe();
                    self.error(
                        Code::DuplicateDeclaration,
                        name.span,
                        format!(
                            "`{}` is already declared in this scope as {what}",
                            name.name
                        ),
                    );
                }
            }
            return;
        }
        scope.insert(name.name.clone(), binding);
    }

    /// Declares parser, control or package `idx`. A second declaration of
    /// the same kind under a name already bound to one in this scope is an
    /// overload when the parameter counts differ (constructor and apply
    /// parameters; a package's parameters): p4c accepts those and chooses
    /// among them where the name is instantiated
    /// ([`Checker::pick_block_overload`]).
    pub(crate) fn declare_block(&mut self, name: &ast::Ident, idx: u32) {
        let existing = self.scopes.innermost().get(&name.name).cloned();
        if let Some(Binding::Block(first)) = existing {
            let alts = self
                .block_overloads
                .get(&first)
                .cloned()
                .unwrap_or_else(|| vec![first]);
            let shape = |b: &BlockInfo| (b.kind, b.ir.is_some());
            let counts = |b: &BlockInfo| (b.ctor_params.len(), b.params.len());
            let new = &self.blocks[idx as usize];
            let overloads = alts.iter().all(|a| {
                let old = &self.blocks[*a as usize];
                shape(old) == shape(new) && counts(old) != counts(new)
            });
            if overloads {
                let mut all = alts;
                all.push(idx);
                self.block_overloads.insert(first, all);
                return;
            }
        }
        self.declare(name, Binding::Block(idx));
    }

    /// The declaration among the overloads of block `decl` whose
    /// constructor parameters (a package's parameters) take `nargs`
    /// arguments; `decl` itself when it is not overloaded or none fits (the
    /// argument count is then reported as usual). Several that fit are an
    /// error, as in p4c ("multiple matching declarations").
    pub(crate) fn pick_block_overload(
        &mut self,
        decl: u32,
        nargs: usize,
        apply_args: Option<usize>,
        span: Span,
    ) -> Option<u32> {
        let Some(alts) = self.block_overloads.get(&decl).cloned() else {
            return Some(decl);
        };
        let arity = |ps: &[ParamSig]| {
            let required = ps.iter().filter(|p| !p.has_default).count();
            required..=ps.len()
        };
        let fits: Vec<u32> = alts
            .iter()
            .copied()
            .filter(|a| {
                let b = &self.blocks[*a as usize];
                let ctor = if b.kind == BlockKind::Package {
                    &b.params
                } else {
                    &b.ctor_params
                };
                arity(ctor).contains(&nargs)
                    && apply_args.is_none_or(|n| arity(&b.params).contains(&n))
            })
            .collect();
        match fits.as_slice() {
            [] => Some(decl),
            [one] => Some(*one),
            _ => {
                let name = self.blocks[decl as usize].name.clone();
                self.error(
                    Code::AmbiguousCall,
                    span,
                    format!(
                        "{} declarations of `{name}` take {nargs} constructor argument(s); \
                         this use matches more than one of them",
                        fits.len()
                    ),
                );
                None
            }
        }
    }

    pub(crate) fn declare_str(&mut self, name: &str, binding: Binding) {
        self.scopes
            .innermost_mut()
            .insert(name.to_string(), binding);
    }

    pub(crate) fn new_var(&mut self, name: &str, ty: TyId, kind: ir::VarKind, span: Span) -> VarId {
        let id = VarId(self.prog.vars.len() as u32);
        self.prog.vars.push(ir::Var {
            name: name.to_string(),
            ty,
            kind,
            span,
        });
        id
    }

    // ------------------------------------------------------------ types

    /// Resolves a written type.
    pub(crate) fn resolve_type(&mut self, t: &ast::Type) -> TyId {
        use ast::TypeKind as K;
        match &t.kind {
            K::Bool => TypeTable::BOOL,
            K::Error => TypeTable::ERROR,
            K::String => TypeTable::STRING,
            K::Void => TypeTable::VOID,
            K::MatchKind => TypeTable::MATCH_KIND,
            K::InfInt => TypeTable::INF_INT,
            K::DontCare => TypeTable::DONT_CARE,
            K::Bit(w) => match self.width(w, WidthOf::Bit) {
                Some(w) => self.types().bits(w, false),
                None => TypeTable::UNKNOWN,
            },
            K::Int(w) => match self.width(w, WidthOf::Int) {
                Some(w) => self.types().bits(w, true),
                None => TypeTable::UNKNOWN,
            },
            K::Varbit(w) => match self.width(w, WidthOf::Varbit) {
                Some(max) => self.types().intern(Ty::Varbit { max }),
                None => TypeTable::UNKNOWN,
            },
            K::Stack { elem, size } => {
                let elem_ty = self.resolve_type(elem);
                let size = self.const_u64(size, "an array size");
                // Arrays (P4_16 1.2.5; header stacks when the elements are
                // headers or unions) hold any type with run-time values.
                let storable = matches!(
                    self.ty(elem_ty),
                    Ty::Unknown
                        | Ty::Bool
                        | Ty::Error
                        | Ty::Bits { .. }
                        | Ty::Varbit { .. }
                        | Ty::Struct(_)
                        | Ty::Enum(_)
                        | Ty::NewType { .. }
                        | Ty::Stack { .. }
                        | Ty::Tuple(_)
                        | Ty::Param { .. }
                );
                if !storable {
                    let shown = self.show(elem_ty);
                    self.error(
                        Code::BadTypeArgument,
                        elem.span,
                        format!("an array's elements must be values with run-time storage (bits, integers of a fixed width, `bool`, `error`, enums, structs, headers, header unions, arrays), not `{shown}`"),
                    );
                }
                match size {
                    Some(_) if self.is_unknown(elem_ty) => TypeTable::UNKNOWN,
                    Some(size) => self.types().intern(Ty::Stack {
                        elem: elem_ty,
                        size: size as u32,
                    }),
                    None => TypeTable::UNKNOWN,
                }
            }
            K::Tuple(items) => {
                let tys: Vec<TyId> = items.iter().map(|i| self.resolve_type(i)).collect();
                self.check_tuple_elements(items, &tys);
                self.types().intern(Ty::Tuple(tys))
            }
            K::List(elem) => {
                let e = self.resolve_type(elem);
                self.types().intern(Ty::List(e))
            }
            K::Named { path, args } => self.resolve_named_type(path, args, t.span),
        }
    }

    fn resolve_named_type(&mut self, path: &ast::Path, args: &[ast::Type], span: Span) -> TyId {
        let Some(binding) = self.lookup_path(path).cloned() else {
            if !self.self_reference(path) {
                self.error(
                    Code::UndeclaredName,
                    path.name.span,
                    format!("type `{}` is not declared", path.name.name),
                );
            }
            return TypeTable::UNKNOWN;
        };
        let arg_tys: Vec<TyId> = args.iter().map(|a| self.resolve_type(a)).collect();
        self.check_type_args(args, &arg_tys);
        match binding {
            Binding::Type(ty) => {
                if !arg_tys.is_empty() {
                    self.error(
                        Code::ArgumentCount,
                        span,
                        format!("type `{}` takes no type arguments", path.name.name),
                    );
                }
                ty
            }
            Binding::GenericStruct(idx) => self.specialize_struct(idx, &arg_tys, span),
            Binding::Extern(idx) => {
                let (name, n) = {
                    let e = &self.externs[idx as usize];
                    (e.name.clone(), e.type_params.len())
                };
                if arg_tys.iter().any(|t| self.mentions_extern(*t, idx)) {
                    self.error(
                        Code::SelfReferencingType,
                        span,
                        format!("`{name}` cannot be given itself as a type argument"),
                    );
                    return TypeTable::UNKNOWN;
                }
                let args = self.check_type_arg_count(&name, n, arg_tys, span);
                self.types().intern(Ty::Extern {
                    decl: idx,
                    name,
                    args,
                })
            }
            Binding::Block(idx) => {
                let (name, n) = {
                    let b = &self.blocks[idx as usize];
                    (b.name.clone(), b.type_params.len())
                };
                let args = self.check_type_arg_count(&name, n, arg_tys, span);
                self.types().intern(Ty::Block {
                    decl: idx,
                    name,
                    args,
                })
            }
            other => {
                self.error(
                    Code::NotAType,
                    path.name.span,
                    format!("`{}` is {}, not a type", path.name.name, other.describe()),
                );
                TypeTable::UNKNOWN
            }
        }
    }

    /// Type arguments of a generic extern or block used as a type: either
    /// all given, or none (to be inferred where it is constructed).
    fn check_type_arg_count(
        &mut self,
        name: &str,
        expected: usize,
        args: Vec<TyId>,
        span: Span,
    ) -> Vec<TyId> {
        if args.is_empty() || args.len() == expected {
            return args;
        }
        self.error(
            Code::ArgumentCount,
            span,
            format!(
                "`{name}` takes {expected} type argument(s), {} given",
                args.len()
            ),
        );
        Vec::new()
    }

    /// A width `W` in `bit<W>`: a compile-time non-negative integer
    /// (`int<W>` needs at least 1).
    fn width(&mut self, w: &ast::Expr, kind: WidthOf) -> Option<u32> {
        let v = self.const_u64(w, "a width")?;
        if kind == WidthOf::Int && v == 0 {
            self.error(
                Code::BadTypeArgument,
                w.span,
                "`int<0>` is not a type: a signed integer needs at least 1 bit",
            );
            return None;
        }
        // p4c's widest `bit<W>`/`int<W>` (its `maxWidth`).
        const MAX_WIDTH: u64 = 2048;
        let max = if kind == WidthOf::Varbit {
            1 << 24
        } else {
            MAX_WIDTH
        };
        if v > max {
            self.error(
                Code::BadTypeArgument,
                w.span,
                format!("width {v} is too large: at most {max} bits"),
            );
            return None;
        }
        Some(v as u32)
    }

    /// Evaluates `e` as a compile-time non-negative integer.
    pub(crate) fn const_u64(&mut self, e: &ast::Expr, what: &str) -> Option<u64> {
        let t = self.expr(e, None);
        match &t.kind {
            ir::ExprKind::Const(ir::Value::Int(v)) => {
                use num_traits::ToPrimitive;
                match v.to_u64() {
                    Some(x) => Some(x),
                    None => {
                        self.error(
                            Code::BadTypeArgument,
                            e.span,
                            format!("{what} must be a non-negative integer"),
                        );
                        None
                    }
                }
            }
            _ if t.ty == TypeTable::UNKNOWN => None,
            _ => {
                self.error(
                    Code::NotConstant,
                    e.span,
                    format!("{what} must be a compile-time constant"),
                );
                None
            }
        }
    }

    /// True if `e` is built from constants and the enclosing block's
    /// constructor parameters with operators the folder knows: a
    /// compile-time value once the instance is known (spec 7.1.6.5).
    pub(crate) fn over_ctor_params(&self, e: &ir::Expr) -> bool {
        use ir::ExprKind as K;
        match &e.kind {
            K::Const(_) => true,
            K::Var(id) => matches!(self.prog.var(*id).kind, ir::VarKind::CtorParam),
            K::Unary(_, a) | K::Cast(a) | K::Slice(a, ..) => self.over_ctor_params(a),
            K::Binary(_, a, b) => self.over_ctor_params(a) && self.over_ctor_params(b),
            K::Ternary(c, a, b) => {
                self.over_ctor_params(c) && self.over_ctor_params(a) && self.over_ctor_params(b)
            }
            _ => false,
        }
    }

    /// A specialisation of a generic struct, header or union.
    pub(crate) fn specialize_struct(&mut self, idx: u32, args: &[TyId], span: Span) -> TyId {
        let decl = self.generic_structs[idx as usize].clone();
        if args.len() != decl.type_params.len() {
            self.error(
                Code::ArgumentCount,
                span,
                format!(
                    "`{}` takes {} type argument(s), {} given",
                    decl.name.name,
                    decl.type_params.len(),
                    args.len()
                ),
            );
            return TypeTable::UNKNOWN;
        }
        if let Some(&t) = self.generic_struct_cache.get(&(idx, args.to_vec())) {
            return t;
        }
        let kind = self.generic_struct_kind(idx);
        let shown: Vec<String> = args.iter().map(|a| self.show(*a)).collect();
        let name = format!("{}<{}>", decl.name.name, shown.join(", "));
        let ty = self.scoped(|c| {
            for (p, a) in decl.type_params.iter().zip(args) {
                c.declare_str(&p.name, Binding::Type(*a));
            }
            c.struct_type(kind, &name, &decl)
        });
        self.generic_struct_cache.insert((idx, args.to_vec()), ty);
        self.generic_struct_origin.insert(ty, (idx, args.to_vec()));
        ty
    }

    /// True if `ty` is the `Unknown` type (an error was already reported).
    pub(crate) fn is_unknown(&self, ty: TyId) -> bool {
        ty == TypeTable::UNKNOWN
    }
}

/// The type whose width [`Checker::width`] reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WidthOf {
    Bit,
    Int,
    Varbit,
}
