//! The checked, typed program: every name resolved to an id, every type
//! interned, compile-time constants folded. The behavioural model executes
//! this; P4Info is generated from it.

use crate::source::Span;
use crate::types::{TyId, TypeTable};
use num_bigint::BigInt;

/// Index of a variable, parameter or constructor parameter in [`Program::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VarId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActionId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FunctionId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstanceId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValueSetId(pub u32);

/// A compile-time value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// An integer; for `bit<W>`/`int<W>` already reduced to the width.
    Int(BigInt),
    Bool(bool),
    Str(String),
    /// A member of `error`, by index in [`Program::errors`].
    Error(u32),
    /// A member of a (non-serializable) enum type, by index.
    Enum(u32),
    /// A member of `match_kind`, by index in [`Program::match_kinds`].
    MatchKind(u32),
    /// A list, tuple, struct or header value (fields in order).
    List(Vec<Value>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    None,
    In,
    Out,
    InOut,
}

impl Direction {
    pub fn from_ast(d: crate::ast::Direction) -> Direction {
        match d {
            crate::ast::Direction::None => Direction::None,
            crate::ast::Direction::In => Direction::In,
            crate::ast::Direction::Out => Direction::Out,
            crate::ast::Direction::InOut => Direction::InOut,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Direction::None => "",
            Direction::In => "in",
            Direction::Out => "out",
            Direction::InOut => "inout",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    Local,
    Param(Direction),
    /// A constructor parameter of a parser or control: bound per instance.
    CtorParam,
}

#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: TyId,
    pub kind: VarKind,
    pub span: Span,
}

/// The operators are the AST's; `UnOp::Plus` never reaches the IR.
pub use crate::ast::{BinOp, UnOp};

/// Methods that the language defines on headers, unions and stacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinMethod {
    IsValid,
    SetValid,
    SetInvalid,
    PushFront,
    PopFront,
}

/// What a call calls.
#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    Action(ActionId),
    Function(FunctionId),
    /// An extern function, by name and overload (parameter count).
    ExternFunction {
        name: String,
        type_args: Vec<TyId>,
    },
    /// A method of an extern instance: `receiver.name(...)`.
    ExternMethod {
        receiver: Box<Expr>,
        name: String,
        type_args: Vec<TyId>,
    },
    Builtin {
        receiver: Box<Expr>,
        method: BuiltinMethod,
    },
    /// `t.apply()`
    TableApply(TableId),
    /// `inst.apply(...)` of a parser or control instance (the receiver is
    /// an instance, or a constructor parameter holding one).
    BlockApply(Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub ty: TyId,
    pub kind: ExprKind,
    pub span: Span,
}

/// The operands of an expression kind, in evaluation order (see
/// [`Expr::operands`]).
macro_rules! operands {
    ($kind:expr, $as:ident, $iter:ident) => {
        match $kind {
            ExprKind::Field(a, _)
            | ExprKind::Slice(a, ..)
            | ExprKind::StackNext(a)
            | ExprKind::StackLast(a)
            | ExprKind::StackLastIndex(a)
            | ExprKind::Unary(_, a)
            | ExprKind::Cast(a)
            | ExprKind::TableHit(a)
            | ExprKind::TableMiss(a)
            | ExprKind::ActionRun(a) => vec![a.$as()],
            ExprKind::Index(a, b)
            | ExprKind::PartSelect {
                base: a, start: b, ..
            }
            | ExprKind::Binary(_, a, b)
            | ExprKind::Mask(a, b)
            | ExprKind::Range(a, b) => vec![a.$as(), b.$as()],
            ExprKind::Ternary(c, x, y) => vec![c.$as(), x.$as(), y.$as()],
            ExprKind::List(parts) => parts.$iter().collect(),
            // A built-in method's receiver (`f().isValid()`) is evaluated
            // before the arguments.
            ExprKind::Call(Callee::Builtin { receiver, .. }, args) => {
                std::iter::once(receiver.$as())
                    .chain(args.$iter().flatten())
                    .collect()
            }
            ExprKind::Call(_, args) => args.$iter().flatten().collect(),
            ExprKind::Const(_)
            | ExprKind::Var(_)
            | ExprKind::Instance(_)
            | ExprKind::ValueSet(_)
            | ExprKind::Default
            | ExprKind::DontCare
            | ExprKind::InvalidHeader => Vec::new(),
        }
    };
}

impl Expr {
    /// The expressions this one evaluates as its operands, in evaluation
    /// order: a built-in method's receiver (`f().isValid()`) before the
    /// arguments. Receivers of extern methods and block applies name
    /// instances, not values, and are not operands.
    pub fn operands(&self) -> Vec<&Expr> {
        operands!(&self.kind, as_ref, iter)
    }

    /// [`Expr::operands`], mutable.
    pub fn operands_mut(&mut self) -> Vec<&mut Expr> {
        operands!(&mut self.kind, as_mut, iter_mut)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Const(Value),
    Var(VarId),
    /// An extern, parser or control instance used as a value (a receiver).
    Instance(InstanceId),
    Field(Box<Expr>, u32),
    Index(Box<Expr>, Box<Expr>),
    /// `e[hi:lo]`
    Slice(Box<Expr>, u32, u32),
    /// `e[start +: width]` (`up`: bits `start` to `start + width - 1`) or
    /// `e[start -: width]` (bits `start - width + 1` to `start`) of a
    /// `bit<W>`/`int<W>` value, `start` a run-time value; `bit<width>`.
    /// Bits outside `e` read as 0 and are not written.
    PartSelect {
        base: Box<Expr>,
        start: Box<Expr>,
        width: u32,
        up: bool,
    },
    /// `stack.next`, `stack.last` (parsers), `stack.lastIndex`.
    StackNext(Box<Expr>),
    StackLast(Box<Expr>),
    StackLastIndex(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(Box<Expr>),
    /// A list, tuple, struct or header value built from parts, in field order.
    List(Vec<Expr>),
    Call(Callee, Vec<Option<Expr>>),
    /// `t.apply().hit` / `.miss` / `.action_run`
    /// `.hit`, `.miss` and `.action_run` of the table apply in the box
    /// (a `Call` of [`Callee::TableApply`]), which is evaluated first.
    TableHit(Box<Expr>),
    TableMiss(Box<Expr>),
    ActionRun(Box<Expr>),
    /// Keysets.
    Mask(Box<Expr>, Box<Expr>),
    Range(Box<Expr>, Box<Expr>),
    ValueSet(ValueSetId),
    Default,
    DontCare,
    /// `{#}`: an invalid header or header union of the expression's type.
    InvalidHeader,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

impl Stmt {
    /// The statement lists nested in this one (branches, block, switch
    /// cases, loop parts), in source order.
    pub fn bodies(&self) -> Vec<&Vec<Stmt>> {
        match &self.kind {
            StmtKind::If(_, a, b) => vec![a, b],
            StmtKind::Block(b) | StmtKind::ForIn { body: b, .. } => vec![b],
            StmtKind::Switch(_, cases) => cases.iter().map(|c| &c.body).collect(),
            StmtKind::For {
                init, update, body, ..
            } => vec![init, update, body],
            _ => Vec::new(),
        }
    }

    /// As [`Stmt::bodies`], mutable.
    pub fn bodies_mut(&mut self) -> Vec<&mut Vec<Stmt>> {
        match &mut self.kind {
            StmtKind::If(_, a, b) => vec![a, b],
            StmtKind::Block(b) | StmtKind::ForIn { body: b, .. } => vec![b],
            StmtKind::Switch(_, cases) => cases.iter_mut().map(|c| &mut c.body).collect(),
            StmtKind::For {
                init, update, body, ..
            } => vec![init, update, body],
            _ => Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Assign(Expr, Expr),
    Call(Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    Block(Vec<Stmt>),
    Return(Option<Expr>),
    Exit,
    Break,
    Continue,
    /// Declares (and for locals, initialises) a variable.
    Declare(VarId, Option<Expr>),
    /// Switch on `t.apply().action_run` (labels are actions) or on a value
    /// (labels are constants). `None` label = `default`. Fall-through labels
    /// share the next body.
    Switch(Expr, Vec<SwitchCase>),
    /// `for (init; cond; update) body`
    For {
        init: Vec<Stmt>,
        cond: Option<Expr>,
        update: Vec<Stmt>,
        body: Vec<Stmt>,
    },
    /// `for (x in collection) body`
    ForIn {
        var: VarId,
        collection: Expr,
        body: Vec<Stmt>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum SwitchLabel {
    Action(ActionId),
    Value(Value),
    Default,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    pub labels: Vec<SwitchLabel>,
    pub body: Vec<Stmt>,
}

/// How an object is named for the control plane, relative to the parser or
/// control it is declared in (p4c's convention): the full name is
/// `<instance path>.<local>`; `@name("x")` replaces the local part;
/// `@name(".x")`, and any top-level declaration, is global: just `x`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpName {
    pub local: String,
    pub global: bool,
}

impl CpName {
    /// The full name of the object in the block instance at `path`.
    pub fn under(&self, path: &str) -> String {
        if self.global || path.is_empty() {
            self.local.clone()
        } else {
            format!("{path}.{}", self.local)
        }
    }
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: TyId,
    pub direction: Direction,
    pub var: VarId,
}

#[derive(Clone, Debug)]
pub struct Action {
    pub name: String,
    pub cp_name: CpName,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    pub annotations: Vec<crate::ast::Annotation>,
    /// The annotations of each parameter, in parameter order.
    pub param_annotations: Vec<Vec<crate::ast::Annotation>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub params: Vec<Param>,
    pub ret: TyId,
    pub body: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TableKey {
    pub expr: Expr,
    pub match_kind: String,
    /// The key's control-plane name: its `@name`, else the expression as
    /// p4c's TableKeyNames names it (fields by their declarations' `@name`).
    pub name: String,
    /// The expression as written (fields by their own names), where that
    /// differs from `name`: STF files may spell a key either way.
    pub written: Option<String>,
    pub annotations: Vec<crate::ast::Annotation>,
}

#[derive(Clone, Debug)]
pub struct ActionCall {
    pub action: ActionId,
    /// Arguments for every parameter, in order (`None` where an argument is
    /// left for the control plane).
    pub args: Vec<Option<Expr>>,
    /// `@defaultonly` / `@tableonly` annotations on the reference.
    pub default_only: bool,
    pub table_only: bool,
    /// The annotations on the reference in the `actions` list.
    pub annotations: Vec<crate::ast::Annotation>,
}

#[derive(Clone, Debug)]
pub struct TableEntry {
    pub keys: Vec<Expr>,
    pub action: ActionCall,
    /// `priority = N:` (P4_16 "entry priorities").
    pub priority: Option<BigInt>,
    /// `@priority(N)` on the entry: bmv2's own priority of an entry p4c
    /// writes into its JSON, where the smaller number wins.
    pub priority_annotation: Option<BigInt>,
    pub is_const: bool,
}

#[derive(Clone, Debug)]
pub struct Table {
    pub name: String,
    pub cp_name: CpName,
    pub keys: Vec<TableKey>,
    pub actions: Vec<ActionCall>,
    pub default_action: Option<ActionCall>,
    pub default_is_const: bool,
    pub entries: Vec<TableEntry>,
    pub entries_const: bool,
    pub size: Option<u64>,
    /// A `size` computed from the enclosing block's constructor parameters
    /// (`size = n * 2;` in `control C(...)(bit<32> n)`): a constant only per
    /// instance, folded there (P4Info); `size` is then `None`.
    pub size_expr: Option<Expr>,
    /// `implementation = ...`: an action profile or selector instance.
    pub implementation: Option<InstanceId>,
    pub direct_counter: Option<InstanceId>,
    pub direct_meter: Option<InstanceId>,
    pub support_timeout: bool,
    /// `largest_priority_wins` (default true): whether the larger or the
    /// smaller priority of the program's `entries` wins.
    pub largest_priority_wins: bool,
    /// `priority_delta` (default 1): the step between the priorities of
    /// consecutive entries that do not write one.
    pub priority_delta: u64,
    pub annotations: Vec<crate::ast::Annotation>,
    pub span: Span,
}

/// What an instance instantiates.
#[derive(Clone, Debug)]
pub enum InstanceOf {
    Extern { name: String },
    Block(BlockId),
    Package { name: String },
}

#[derive(Clone, Debug)]
pub struct Instance {
    pub name: String,
    pub cp_name: CpName,
    pub ty: TyId,
    pub of: InstanceOf,
    /// Constructor arguments (constant-folded where possible).
    pub args: Vec<Expr>,
    pub annotations: Vec<crate::ast::Annotation>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ValueSet {
    pub name: String,
    pub cp_name: CpName,
    pub elem: TyId,
    pub size: u64,
}

#[derive(Clone, Debug)]
pub struct SelectCase {
    pub keyset: Expr,
    /// Target state index; `ACCEPT`/`REJECT` for the final states.
    pub next: u32,
}

#[derive(Clone, Debug)]
pub enum Transition {
    Direct(u32),
    Select(Vec<Expr>, Vec<SelectCase>),
}

#[derive(Clone, Debug)]
pub struct ParserState {
    pub name: String,
    pub body: Vec<Stmt>,
    pub transition: Transition,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Parser,
    Control,
}

/// A parser or control declaration.
#[derive(Clone, Debug)]
pub struct Block {
    pub kind: BlockKind,
    pub name: String,
    pub params: Vec<Param>,
    pub ctor_params: Vec<Param>,
    /// Local variable declarations (in order; initialisers run on apply).
    pub locals: Vec<Stmt>,
    pub instances: Vec<InstanceId>,
    pub actions: Vec<ActionId>,
    pub tables: Vec<TableId>,
    pub value_sets: Vec<ValueSetId>,
    /// Parser states; the start state is `states[0]`.
    pub states: Vec<ParserState>,
    /// The control's apply block.
    pub apply: Vec<Stmt>,
    pub span: Span,
}

impl ParserState {
    pub const ACCEPT: u32 = u32::MAX;
    pub const REJECT: u32 = u32::MAX - 1;
}

/// The checked program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub types: TypeTable,
    pub errors: Vec<String>,
    pub match_kinds: Vec<String>,
    pub vars: Vec<Var>,
    pub actions: Vec<Action>,
    pub functions: Vec<Function>,
    pub tables: Vec<Table>,
    pub instances: Vec<Instance>,
    pub blocks: Vec<Block>,
    pub value_sets: Vec<ValueSet>,
    /// The top-level `main` package instance, if the program has one.
    pub main: Option<InstanceId>,
    /// Headers marked `@controller_header("...")`: (annotation value, type).
    pub controller_headers: Vec<(String, TyId)>,
    /// The annotations written on named type declarations (headers,
    /// structs, `type`, enums) and on their fields.
    pub type_annotations: std::collections::HashMap<TyId, TypeAnnotations>,
    /// Where spans of this program are in its source files (set by the
    /// driver), so that later stages can name `file:line:col`.
    pub locator: crate::source::Locator,
}

/// Annotations of a type declaration, for the control plane's view of it.
#[derive(Clone, Debug, Default)]
pub struct TypeAnnotations {
    pub decl: Vec<crate::ast::Annotation>,
    /// Per field, in field order (headers and structs).
    pub fields: Vec<Vec<crate::ast::Annotation>>,
}

impl Program {
    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id.0 as usize]
    }

    /// Every parser and control instance reachable from `main`, outermost
    /// first, with its control-plane path: `MyIngress` for a package
    /// argument, `MyIngress.inner` for `Inner() inner;` inside it. A block
    /// instantiated twice appears twice. Without `main`, every block once,
    /// under its own name.
    pub fn instance_paths(&self) -> Vec<(BlockId, String)> {
        let mut out = Vec::new();
        match self.main {
            Some(main) => self.visit_instance(main, String::new(), &mut out),
            None => out.extend(
                self.blocks
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (BlockId(i as u32), b.name.clone())),
            ),
        }
        out
    }

    fn visit_instance(&self, id: InstanceId, path: String, out: &mut Vec<(BlockId, String)>) {
        let child_path = |name: &str| {
            if path.is_empty() {
                name.to_string()
            } else {
                format!("{path}.{name}")
            }
        };
        match self.instances[id.0 as usize].of {
            InstanceOf::Block(b) => out.push((b, path.clone())),
            InstanceOf::Extern { .. } => return,
            InstanceOf::Package { .. } => {}
        }
        for child in self.child_instances(id) {
            let name = &self.instances[child.0 as usize].name;
            self.visit_instance(child, child_path(name), out);
        }
    }

    /// The instances that `parent` holds, in instance-tree order: those
    /// created in its constructor call (`Twice(AddOne()) t;`), then, for a
    /// block, those it declares. An instance declared in a block and passed
    /// by name (`Twice(one) t;`) belongs to the block that declares it, so
    /// it is not a child of the instance it is passed to: one instance, one
    /// path, one copy of its state.
    pub fn child_instances(&self, parent: InstanceId) -> Vec<InstanceId> {
        let inst = &self.instances[parent.0 as usize];
        let declared: &[InstanceId] = match inst.of {
            InstanceOf::Block(b) => &self.blocks[b.0 as usize].instances,
            _ => &[],
        };
        let passed = inst.args.iter().filter_map(|a| match a.kind {
            ExprKind::Instance(child) if !self.declared_in_a_block(child) => Some(child),
            _ => None,
        });
        passed.chain(declared.iter().copied()).collect()
    }

    /// The child of `parent` (see [`Self::child_instances`]) named `name`.
    pub fn child_named(&self, parent: InstanceId, name: &str) -> Option<InstanceId> {
        self.child_instances(parent)
            .into_iter()
            .find(|i| self.instances[i.0 as usize].name == name)
    }

    /// Whether instance `i` is declared in (owned by) a parser or control.
    pub fn declared_in_a_block(&self, i: InstanceId) -> bool {
        self.blocks.iter().any(|b| b.instances.contains(&i))
    }
}
