//! Resetting every span in an AST, to compare trees by content (tests and
//! tools such as the round-trip check).

use crate::ast::*;
use crate::lexer::{IntLit, Token};
use crate::source::Span;

/// Resets every [`Span`] in the tree to [`Span::DUMMY`] and every annotation
/// token's `space_before` to `false`, so that trees parsed from different
/// texts compare equal when they differ only in layout. For tests and tools.
pub fn strip_spans(p: &mut Program) {
    p.strip_spans();
}

/// Span stripping for any AST node; see [`strip_spans`].
pub trait StripSpans {
    fn strip_spans(&mut self);
}

impl StripSpans for Span {
    fn strip_spans(&mut self) {
        *self = Span::DUMMY;
    }
}

impl StripSpans for Token {
    fn strip_spans(&mut self) {
        self.span = Span::DUMMY;
        self.space_before = false;
    }
}

impl<T: StripSpans> StripSpans for Vec<T> {
    fn strip_spans(&mut self) {
        self.iter_mut().for_each(T::strip_spans);
    }
}

impl<T: StripSpans> StripSpans for Option<T> {
    fn strip_spans(&mut self) {
        if let Some(x) = self {
            x.strip_spans();
        }
    }
}

impl<T: StripSpans> StripSpans for Box<T> {
    fn strip_spans(&mut self) {
        (**self).strip_spans();
    }
}

impl<A: StripSpans, B: StripSpans> StripSpans for (A, B) {
    fn strip_spans(&mut self) {
        self.0.strip_spans();
        self.1.strip_spans();
    }
}

macro_rules! strip_nothing {
    ($($t:ty),*) => {$(
        impl StripSpans for $t {
            fn strip_spans(&mut self) {}
        }
    )*};
}

strip_nothing!(bool, String, Direction, UnOp, BinOp, IntLit);

/// Structs: every field is listed (the destructuring fails to compile if a
/// field is added), and each is stripped.
macro_rules! strip_struct {
    ($($t:ident { $($f:ident),* })*) => {$(
        impl StripSpans for $t {
            fn strip_spans(&mut self) {
                let $t { $($f),* } = self;
                $($f.strip_spans();)*
            }
        }
    )*};
}

strip_struct! {
    Ident { name, span }
    Path { global, name }
    Program { decls }
    Annotation { name, body, span }
    Type { kind, span }
    Param { annotations, direction, ty, name, default, span }
    Arg { name, value }
    Expr { kind, span }
    Block { annotations, stmts, span }
    Stmt { kind, span }
    SwitchCase { label, body, span }
    VarDecl { annotations, ty, name, init, span }
    ConstDecl { annotations, ty, name, value, span }
    Decl { kind, span }
    TypedefDecl { annotations, new_type, ty, name }
    Field { annotations, ty, name, span }
    StructDecl { annotations, name, type_params, fields }
    EnumDecl { annotations, repr, name, members }
    MethodDecl { annotations, is_abstract, ret, name, type_params, params, span }
    ExternDecl { annotations, name, type_params, methods }
    FunctionProto { annotations, ret, name, type_params, params }
    BlockProto { annotations, name, type_params, params }
    ParserDecl { proto, ctor_params, locals, states }
    ParserState { annotations, name, body, transition, span }
    SelectCase { keyset, next, span }
    ControlDecl { proto, ctor_params, locals, apply }
    ActionDecl { annotations, name, params, body }
    FunctionDecl { proto, body }
    InstanceDecl { annotations, ty, args, name, init }
    ValueSetDecl { annotations, elem, size, name }
    TableDecl { annotations, name, props }
    TableProp { annotations, is_const, kind, span }
    KeyElement { annotations, expr, match_kind, span }
    ActionRef { annotations, name, args, span }
    Entry { annotations, is_const, priority, keyset, action, span }
}

impl StripSpans for AnnotationBody {
    fn strip_spans(&mut self) {
        match self {
            AnnotationBody::Empty => {}
            AnnotationBody::Unstructured { tokens, exprs } => {
                tokens.strip_spans();
                exprs.strip_spans();
            }
            AnnotationBody::ExprList(list) => list.strip_spans(),
            AnnotationBody::KeyValues(kvs) => kvs.strip_spans(),
        }
    }
}

impl StripSpans for TypeKind {
    fn strip_spans(&mut self) {
        match self {
            TypeKind::Bool
            | TypeKind::Error
            | TypeKind::String
            | TypeKind::Void
            | TypeKind::MatchKind
            | TypeKind::InfInt
            | TypeKind::DontCare => {}
            TypeKind::Bit(w) | TypeKind::Int(w) | TypeKind::Varbit(w) => w.strip_spans(),
            TypeKind::Named { path, args } => {
                path.strip_spans();
                args.strip_spans();
            }
            TypeKind::Stack { elem, size } => {
                elem.strip_spans();
                size.strip_spans();
            }
            TypeKind::Tuple(args) => args.strip_spans(),
            TypeKind::List(elem) => elem.strip_spans(),
        }
    }
}

impl StripSpans for ExprKind {
    fn strip_spans(&mut self) {
        match self {
            ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::Dots
            | ExprKind::Default
            | ExprKind::InvalidHeader
            | ExprKind::DontCare => {}
            ExprKind::Name(p) => p.strip_spans(),
            ExprKind::Member(e, m) => {
                e.strip_spans();
                m.strip_spans();
            }
            ExprKind::Index(a, b)
            | ExprKind::Binary(_, a, b)
            | ExprKind::Mask(a, b)
            | ExprKind::Range(a, b) => {
                a.strip_spans();
                b.strip_spans();
            }
            ExprKind::Slice(a, b, c) | ExprKind::Ternary(a, b, c) => {
                a.strip_spans();
                b.strip_spans();
                c.strip_spans();
            }
            ExprKind::PartSelect {
                base, start, width, ..
            } => {
                base.strip_spans();
                start.strip_spans();
                width.strip_spans();
            }
            ExprKind::Call {
                callee,
                type_args,
                args,
            } => {
                callee.strip_spans();
                type_args.strip_spans();
                args.strip_spans();
            }
            ExprKind::Construct { ty, args } => {
                ty.strip_spans();
                args.strip_spans();
            }
            ExprKind::Unary(_, e) => e.strip_spans(),
            ExprKind::Cast(t, e) => {
                t.strip_spans();
                e.strip_spans();
            }
            ExprKind::List(items) | ExprKind::KeysetTuple(items) => items.strip_spans(),
            ExprKind::StructInit { fields, .. } => fields.strip_spans(),
        }
    }
}

impl StripSpans for StmtKind {
    fn strip_spans(&mut self) {
        match self {
            StmtKind::Assign { lhs, rhs, .. } => {
                lhs.strip_spans();
                rhs.strip_spans();
            }
            StmtKind::Call(e) => e.strip_spans(),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                cond.strip_spans();
                then.strip_spans();
                otherwise.strip_spans();
            }
            StmtKind::Block(b) => b.strip_spans(),
            StmtKind::Return(e) => e.strip_spans(),
            StmtKind::Exit | StmtKind::Break | StmtKind::Continue | StmtKind::Empty => {}
            StmtKind::Switch { subject, cases } => {
                subject.strip_spans();
                cases.strip_spans();
            }
            StmtKind::Var(v) => v.strip_spans(),
            StmtKind::Const(c) => c.strip_spans(),
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                init.strip_spans();
                cond.strip_spans();
                update.strip_spans();
                body.strip_spans();
            }
            StmtKind::ForIn {
                annotations,
                ty,
                var,
                collection,
                body,
            } => {
                annotations.strip_spans();
                ty.strip_spans();
                var.strip_spans();
                collection.strip_spans();
                body.strip_spans();
            }
            StmtKind::Transition(t) => t.strip_spans(),
        }
    }
}

impl StripSpans for Transition {
    fn strip_spans(&mut self) {
        match self {
            Transition::Direct(p) => p.strip_spans(),
            Transition::Select { keys, cases, span } => {
                keys.strip_spans();
                cases.strip_spans();
                span.strip_spans();
            }
        }
    }
}

impl StripSpans for DeclKind {
    fn strip_spans(&mut self) {
        match self {
            DeclKind::Const(d) => d.strip_spans(),
            DeclKind::Var(d) => d.strip_spans(),
            DeclKind::Typedef(d) => d.strip_spans(),
            DeclKind::Header(d) | DeclKind::HeaderUnion(d) | DeclKind::Struct(d) => d.strip_spans(),
            DeclKind::Enum(d) => d.strip_spans(),
            DeclKind::Error(names) | DeclKind::MatchKind(names) => names.strip_spans(),
            DeclKind::ExternObject(d) => d.strip_spans(),
            DeclKind::ExternFunction(d) => d.strip_spans(),
            DeclKind::ParserType(d) | DeclKind::ControlType(d) | DeclKind::Package(d) => {
                d.strip_spans()
            }
            DeclKind::Parser(d) => d.strip_spans(),
            DeclKind::Control(d) => d.strip_spans(),
            DeclKind::Action(d) => d.strip_spans(),
            DeclKind::Function(d) => d.strip_spans(),
            DeclKind::Instance(d) => d.strip_spans(),
            DeclKind::Table(d) => d.strip_spans(),
            DeclKind::ValueSet(d) => d.strip_spans(),
        }
    }
}

impl StripSpans for TablePropKind {
    fn strip_spans(&mut self) {
        match self {
            TablePropKind::Key(keys) => keys.strip_spans(),
            TablePropKind::Actions(actions) => actions.strip_spans(),
            TablePropKind::Entries(entries) => entries.strip_spans(),
            TablePropKind::Other { name, value } => {
                name.strip_spans();
                value.strip_spans();
            }
        }
    }
}
