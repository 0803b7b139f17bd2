//! The abstract syntax tree of a P4_16 program, as written.
//!
//! Every node keeps its [`Span`] in the preprocessed translation unit. Names
//! are not resolved here; the checker does that. Equality ignores nothing:
//! to compare trees without positions, use [`crate::pretty`] output or
//! [`crate::ast_eq`].

use crate::lexer::{IntLit, Token};
use crate::source::Span;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

impl Ident {
    pub fn new(name: impl Into<String>, span: Span) -> Ident {
        Ident {
            name: name.into(),
            span,
        }
    }
}

/// A possibly top-level-qualified name: `.x` refers to the global `x`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Path {
    pub global: bool,
    pub name: Ident,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub decls: Vec<Decl>,
}

// ---------------------------------------------------------------- annotations

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    pub name: Ident,
    pub body: AnnotationBody,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnnotationBody {
    /// `@name`
    Empty,
    /// `@name(...)`: the tokens as written, and the same parsed as a
    /// comma-separated expression list where that succeeds.
    Unstructured {
        tokens: Vec<Token>,
        exprs: Option<Vec<Expr>>,
    },
    /// `@name[e1, e2]`
    ExprList(Vec<Expr>),
    /// `@name[k1 = e1, k2 = e2]`
    KeyValues(Vec<(Ident, Expr)>),
}

pub type Annotations = Vec<Annotation>;

/// Finds annotation `name` in a list.
pub fn find_annotation<'a>(annos: &'a [Annotation], name: &str) -> Option<&'a Annotation> {
    annos.iter().find(|a| a.name.name == name)
}

/// The string of `@name("s")` among `annos` (`@name`, `@description`, ...),
/// if it is given one string.
pub fn annotation_str(annos: &[Annotation], name: &str) -> Option<String> {
    match find_annotation(annos, name)?.single_expr()? {
        Expr {
            kind: ExprKind::Str(s),
            ..
        } => Some(s.clone()),
        _ => None,
    }
}

impl Annotation {
    /// The single expression of `@name(expr)`, if that is the body's form.
    pub fn single_expr(&self) -> Option<&Expr> {
        match &self.body {
            AnnotationBody::Unstructured {
                exprs: Some(list), ..
            }
            | AnnotationBody::ExprList(list)
                if list.len() == 1 =>
            {
                list.first()
            }
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------- types

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Type {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeKind {
    Bool,
    Error,
    String,
    Void,
    MatchKind,
    /// `int` (infinite precision).
    InfInt,
    /// `bit<W>`, or plain `bit` (W = 1).
    Bit(Box<Expr>),
    /// `int<W>`
    Int(Box<Expr>),
    Varbit(Box<Expr>),
    /// A named type, possibly specialised: `T`, `.T`, `register<bit<8>, bit<32>>`.
    Named {
        path: Path,
        args: Vec<Type>,
    },
    /// `T[N]`
    Stack {
        elem: Box<Type>,
        size: Box<Expr>,
    },
    Tuple(Vec<Type>),
    /// `list<T>`
    List(Box<Type>),
    /// `_` as a type argument.
    DontCare,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    None,
    In,
    Out,
    InOut,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub annotations: Annotations,
    pub direction: Direction,
    pub ty: Type,
    pub name: Ident,
    pub default: Option<Expr>,
    pub span: Span,
}

/// `<T, U>`
pub type TypeParams = Vec<Ident>;

// ---------------------------------------------------------------- expressions

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `!`
    Not,
    /// `~`
    BitNot,
    /// `-`
    Neg,
    /// `+`
    Plus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    SatAdd,
    SatSub,
    Shl,
    Shr,
    Le,
    Ge,
    Lt,
    Gt,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    Concat,
    And,
    Or,
}

impl BinOp {
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::SatAdd => "|+|",
            BinOp::SatSub => "|-|",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::BitAnd => "&",
            BinOp::BitXor => "^",
            BinOp::BitOr => "|",
            BinOp::Concat => "++",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// Binding strength; larger binds tighter. P4 differs from C here: the
    /// bitwise operators `|`, `^`, `&` bind tighter than comparisons, so
    /// `a & m == v` means `(a & m) == v` (p4c's grammar has the same order).
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne => 3,
            BinOp::Le | BinOp::Ge | BinOp::Lt | BinOp::Gt => 4,
            BinOp::BitOr => 5,
            BinOp::BitXor => 6,
            BinOp::BitAnd => 7,
            BinOp::Shl | BinOp::Shr => 8,
            BinOp::Add | BinOp::Sub | BinOp::SatAdd | BinOp::SatSub | BinOp::Concat => 9,
            BinOp::Mul | BinOp::Div | BinOp::Mod => 10,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// `name = value` for named arguments.
    pub name: Option<Ident>,
    /// `_` as an argument is [`ExprKind::DontCare`].
    pub value: Expr,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Int(IntLit),
    Bool(bool),
    Str(String),
    /// A name; also `error`, `this`, and type names used as values
    /// (`MyEnum` in `MyEnum.A`).
    Name(Path),
    Member(Box<Expr>, Ident),
    Index(Box<Expr>, Box<Expr>),
    /// `e[hi:lo]`
    Slice(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `e[start +: width]` (`up`) or `e[start -: width]`: an indexed
    /// part-select (P4_16 1.2.4), whose start may be a run-time value.
    PartSelect {
        base: Box<Expr>,
        start: Box<Expr>,
        up: bool,
        width: Box<Expr>,
    },
    Call {
        callee: Box<Expr>,
        type_args: Vec<Type>,
        args: Vec<Arg>,
    },
    /// A constructor call used as a value: `MyParser()` or `register<bit<8>, bit<32>>(16)`
    /// written where the callee is a type. The parser produces `Call` with a
    /// `Name` callee when it cannot tell; the checker decides.
    Construct {
        ty: Type,
        args: Vec<Arg>,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(Type, Box<Expr>),
    /// `{ e1, e2 }`
    List(Vec<Expr>),
    /// `{ f1 = e1, f2 = e2 }`, with a trailing `...` when `dots`.
    StructInit {
        fields: Vec<(Ident, Expr)>,
        dots: bool,
    },
    /// `...` as a list element.
    Dots,
    /// `a &&& b` (keysets only)
    Mask(Box<Expr>, Box<Expr>),
    /// `a .. b` (keysets only)
    Range(Box<Expr>, Box<Expr>),
    /// `default` (keysets only)
    Default,
    /// `_`
    DontCare,
    /// `(k1, k2)` in a select case or table entry.
    KeysetTuple(Vec<Expr>),
    /// `{#}`: an invalid header or header union, typed by its context.
    InvalidHeader,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

// ----------------------------------------------------------------- statements

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub annotations: Annotations,
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// `lhs = rhs;`, or `lhs op= rhs;` when `op` is set.
    Assign {
        lhs: Expr,
        op: Option<BinOp>,
        rhs: Expr,
    },
    /// A call used as a statement, e.g. `t.apply();`.
    Call(Expr),
    If {
        cond: Expr,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    Block(Block),
    Return(Option<Expr>),
    Exit,
    Break,
    Continue,
    Empty,
    Switch {
        subject: Expr,
        cases: Vec<SwitchCase>,
    },
    Var(VarDecl),
    Const(ConstDecl),
    For {
        init: Vec<Stmt>,
        cond: Option<Expr>,
        update: Vec<Stmt>,
        body: Box<Stmt>,
    },
    ForIn {
        annotations: Annotations,
        ty: Option<Type>,
        var: Ident,
        collection: Expr,
        body: Box<Stmt>,
    },
    /// `transition ...;` (parser states only; kept as a statement so that
    /// misplaced ones can be reported).
    Transition(Transition),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchCase {
    pub label: Expr,
    /// `None` for a fall-through label (`a:` with no block).
    pub body: Option<Block>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    pub annotations: Annotations,
    pub ty: Type,
    pub name: Ident,
    pub init: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstDecl {
    pub annotations: Annotations,
    pub ty: Type,
    pub name: Ident,
    pub value: Expr,
    pub span: Span,
}

// ---------------------------------------------------------------- declarations

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decl {
    pub kind: DeclKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeclKind {
    Const(ConstDecl),
    Var(VarDecl),
    Typedef(TypedefDecl),
    Header(StructDecl),
    HeaderUnion(StructDecl),
    Struct(StructDecl),
    Enum(EnumDecl),
    /// `error { A, B }`: adds members to `error`.
    Error(Vec<Ident>),
    /// `match_kind { a, b }`
    MatchKind(Vec<Ident>),
    ExternObject(ExternDecl),
    ExternFunction(FunctionProto),
    ParserType(BlockProto),
    ControlType(BlockProto),
    Package(BlockProto),
    Parser(ParserDecl),
    Control(ControlDecl),
    Action(ActionDecl),
    Function(FunctionDecl),
    Instance(InstanceDecl),
    Table(TableDecl),
    ValueSet(ValueSetDecl),
}

impl DeclKind {
    /// The declared name, if the declaration has one.
    pub fn name(&self) -> Option<&Ident> {
        Some(match self {
            DeclKind::Const(d) => &d.name,
            DeclKind::Var(d) => &d.name,
            DeclKind::Typedef(d) => &d.name,
            DeclKind::Header(d) | DeclKind::HeaderUnion(d) | DeclKind::Struct(d) => &d.name,
            DeclKind::Enum(d) => &d.name,
            DeclKind::Error(_) | DeclKind::MatchKind(_) => return None,
            DeclKind::ExternObject(d) => &d.name,
            DeclKind::ExternFunction(d) => &d.name,
            DeclKind::ParserType(d) | DeclKind::ControlType(d) | DeclKind::Package(d) => &d.name,
            DeclKind::Parser(d) => &d.proto.name,
            DeclKind::Control(d) => &d.proto.name,
            DeclKind::Action(d) => &d.name,
            DeclKind::Function(d) => &d.proto.name,
            DeclKind::Instance(d) => &d.name,
            DeclKind::Table(d) => &d.name,
            DeclKind::ValueSet(d) => &d.name,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedefDecl {
    pub annotations: Annotations,
    /// `type T' ...` (a new type) rather than `typedef`.
    pub new_type: bool,
    pub ty: Type,
    pub name: Ident,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub annotations: Annotations,
    pub ty: Type,
    pub name: Ident,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructDecl {
    pub annotations: Annotations,
    pub name: Ident,
    pub type_params: TypeParams,
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumDecl {
    pub annotations: Annotations,
    /// `enum bit<8> E { ... }`: the underlying type of a serializable enum.
    pub repr: Option<Type>,
    pub name: Ident,
    pub members: Vec<(Ident, Option<Expr>)>,
}

/// A method of an extern object: a constructor has no return type and the
/// extern's own name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodDecl {
    pub annotations: Annotations,
    pub is_abstract: bool,
    pub ret: Option<Type>,
    pub name: Ident,
    pub type_params: TypeParams,
    pub params: Vec<Param>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternDecl {
    pub annotations: Annotations,
    pub name: Ident,
    pub type_params: TypeParams,
    pub methods: Vec<MethodDecl>,
}

/// A function or extern function signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionProto {
    pub annotations: Annotations,
    pub ret: Type,
    pub name: Ident,
    pub type_params: TypeParams,
    pub params: Vec<Param>,
}

/// The signature of a parser, control or package type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockProto {
    pub annotations: Annotations,
    pub name: Ident,
    pub type_params: TypeParams,
    pub params: Vec<Param>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParserDecl {
    pub proto: BlockProto,
    pub ctor_params: Vec<Param>,
    pub locals: Vec<Decl>,
    pub states: Vec<ParserState>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParserState {
    pub annotations: Annotations,
    pub name: Ident,
    pub body: Vec<Stmt>,
    pub transition: Option<Transition>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Transition {
    /// `transition next;`
    Direct(Path),
    /// `transition select(keys) { cases }`
    Select {
        keys: Vec<Expr>,
        cases: Vec<SelectCase>,
        span: Span,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectCase {
    pub keyset: Expr,
    pub next: Path,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControlDecl {
    pub proto: BlockProto,
    pub ctor_params: Vec<Param>,
    pub locals: Vec<Decl>,
    pub apply: Block,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionDecl {
    pub annotations: Annotations,
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: Block,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionDecl {
    pub proto: FunctionProto,
    pub body: Block,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceDecl {
    pub annotations: Annotations,
    pub ty: Type,
    pub args: Vec<Arg>,
    pub name: Ident,
    /// `= { ... }`: implementations of abstract methods.
    pub init: Option<Vec<Decl>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueSetDecl {
    pub annotations: Annotations,
    pub elem: Type,
    pub size: Expr,
    pub name: Ident,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDecl {
    pub annotations: Annotations,
    pub name: Ident,
    pub props: Vec<TableProp>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableProp {
    pub annotations: Annotations,
    pub is_const: bool,
    pub kind: TablePropKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablePropKind {
    Key(Vec<KeyElement>),
    Actions(Vec<ActionRef>),
    Entries(Vec<Entry>),
    /// Any other `name = value;`, e.g. `default_action`, `size`,
    /// `implementation`, `counters`.
    Other {
        name: Ident,
        value: Expr,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyElement {
    pub annotations: Annotations,
    pub expr: Expr,
    pub match_kind: Ident,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRef {
    pub annotations: Annotations,
    pub name: Path,
    /// `None` when written without parentheses.
    pub args: Option<Vec<Arg>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub annotations: Annotations,
    pub is_const: bool,
    pub priority: Option<Expr>,
    pub keyset: Expr,
    pub action: ActionRef,
    pub span: Span,
}
