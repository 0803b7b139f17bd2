//! Structured annotations (`@A[x = 1, y = "s"]`, `@A[1, true]`): p4c's type
//! checker requires each value to be a compile-time constant of type `int`,
//! `string` or `bool` ("illegal type for structured annotation").
//!
//! Also the walk over every annotation list of a program, with the local
//! names (parameters, variables, constants, tables, ...) in scope at each,
//! that [`super::annotation_rules`] uses too.

use super::Checker;
use crate::ast::{self, AnnotationBody, DeclKind, StmtKind, TablePropKind};
use crate::diag::Code;
use crate::ir::ExprKind;
use crate::types::TypeTable;

/// Where an annotation list is attached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Site {
    /// A field of a struct, header or header union.
    Field,
    /// Any other element.
    Other,
}

/// What a local name declares, as far as an annotation value may use it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Local<'a> {
    /// A parameter (of a block, action, function or method).
    Param(ast::Direction, &'a ast::Type),
    Var,
    Const(&'a ast::Type),
    Instance,
    Table,
    Action,
    ValueSet,
    Function,
}

/// What [`walk`] meets, in source order.
pub(super) enum Event<'a> {
    /// The annotations of one program element.
    Annotations(&'a [ast::Annotation], Site),
    /// A name declared in the current local scope.
    Declare(&'a ast::Ident, Local<'a>),
    /// A local scope opens (a block, a parameter list, ...).
    Enter,
    /// The innermost local scope closes.
    Exit,
}

/// Visits every annotation list of `program` and the local declarations
/// around them. Top-level names are not reported: they are the checker's
/// global scope.
pub(super) fn walk<'a>(program: &'a ast::Program, f: &mut dyn FnMut(Event<'a>)) {
    let mut w = Walker { f };
    for d in &program.decls {
        w.decl(d, false);
    }
}

struct Walker<'f, 'a> {
    f: &'f mut dyn FnMut(Event<'a>),
}

impl<'a> Walker<'_, 'a> {
    fn annos(&mut self, a: &'a [ast::Annotation]) {
        (self.f)(Event::Annotations(a, Site::Other));
    }

    fn declare(&mut self, name: &'a ast::Ident, what: Local<'a>) {
        (self.f)(Event::Declare(name, what));
    }

    fn enter(&mut self) {
        (self.f)(Event::Enter);
    }

    fn exit(&mut self) {
        (self.f)(Event::Exit);
    }

    /// Declares the parameters and visits their annotations.
    fn params(&mut self, ps: &'a [ast::Param]) {
        for p in ps {
            self.declare(&p.name, Local::Param(p.direction, &p.ty));
        }
        for p in ps {
            self.annos(&p.annotations);
        }
    }

    /// Visits a declaration; `local` declares its name in the current scope
    /// once its own annotations are visited.
    fn decl(&mut self, d: &'a ast::Decl, local: bool) {
        let what = match &d.kind {
            DeclKind::Const(c) => {
                self.annos(&c.annotations);
                Local::Const(&c.ty)
            }
            DeclKind::Var(v) => {
                self.annos(&v.annotations);
                Local::Var
            }
            DeclKind::Typedef(t) => {
                self.annos(&t.annotations);
                return;
            }
            DeclKind::Header(s) | DeclKind::HeaderUnion(s) | DeclKind::Struct(s) => {
                self.annos(&s.annotations);
                for fd in &s.fields {
                    (self.f)(Event::Annotations(&fd.annotations, Site::Field));
                }
                return;
            }
            DeclKind::Enum(e) => {
                self.annos(&e.annotations);
                return;
            }
            DeclKind::Error(_) | DeclKind::MatchKind(_) => return,
            DeclKind::ExternObject(e) => {
                self.annos(&e.annotations);
                for m in &e.methods {
                    self.annos(&m.annotations);
                    self.enter();
                    self.params(&m.params);
                    self.exit();
                }
                return;
            }
            DeclKind::ExternFunction(fp) => {
                self.annos(&fp.annotations);
                self.enter();
                self.params(&fp.params);
                self.exit();
                return;
            }
            DeclKind::ParserType(p) | DeclKind::ControlType(p) | DeclKind::Package(p) => {
                self.annos(&p.annotations);
                self.enter();
                self.params(&p.params);
                self.exit();
                return;
            }
            DeclKind::Parser(p) => {
                self.annos(&p.proto.annotations);
                self.enter();
                self.params(&p.proto.params);
                self.params(&p.ctor_params);
                for l in &p.locals {
                    self.decl(l, true);
                }
                for s in &p.states {
                    self.annos(&s.annotations);
                    self.enter();
                    self.stmts(&s.body);
                    self.exit();
                }
                self.exit();
                return;
            }
            DeclKind::Control(c) => {
                self.annos(&c.proto.annotations);
                self.enter();
                self.params(&c.proto.params);
                self.params(&c.ctor_params);
                for l in &c.locals {
                    self.decl(l, true);
                }
                self.block(&c.apply);
                self.exit();
                return;
            }
            DeclKind::Action(a) => {
                self.annos(&a.annotations);
                self.enter();
                self.params(&a.params);
                self.block(&a.body);
                self.exit();
                Local::Action
            }
            DeclKind::Function(fd) => {
                self.annos(&fd.proto.annotations);
                self.enter();
                self.params(&fd.proto.params);
                self.block(&fd.body);
                self.exit();
                Local::Function
            }
            DeclKind::Instance(i) => {
                self.annos(&i.annotations);
                if let Some(init) = &i.init {
                    self.enter();
                    for d in init {
                        self.decl(d, true);
                    }
                    self.exit();
                }
                Local::Instance
            }
            DeclKind::Table(t) => {
                self.annos(&t.annotations);
                for p in &t.props {
                    self.annos(&p.annotations);
                    match &p.kind {
                        TablePropKind::Key(keys) => {
                            for k in keys {
                                self.annos(&k.annotations);
                            }
                        }
                        TablePropKind::Actions(refs) => {
                            for r in refs {
                                self.annos(&r.annotations);
                            }
                        }
                        TablePropKind::Entries(entries) => {
                            for e in entries {
                                self.annos(&e.annotations);
                                self.annos(&e.action.annotations);
                            }
                        }
                        TablePropKind::Other { .. } => {}
                    }
                }
                Local::Table
            }
            DeclKind::ValueSet(v) => {
                self.annos(&v.annotations);
                Local::ValueSet
            }
        };
        if local && let Some(name) = d.kind.name() {
            self.declare(name, what);
        }
    }

    fn block(&mut self, b: &'a ast::Block) {
        self.annos(&b.annotations);
        self.enter();
        self.stmts(&b.stmts);
        self.exit();
    }

    fn stmts(&mut self, list: &'a [ast::Stmt]) {
        for s in list {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &'a ast::Stmt) {
        match &s.kind {
            StmtKind::If {
                then, otherwise, ..
            } => {
                self.stmt(then);
                if let Some(o) = otherwise {
                    self.stmt(o);
                }
            }
            StmtKind::Block(b) => self.block(b),
            StmtKind::Switch { cases, .. } => {
                for c in cases {
                    if let Some(b) = &c.body {
                        self.block(b);
                    }
                }
            }
            StmtKind::Var(v) => {
                self.annos(&v.annotations);
                self.declare(&v.name, Local::Var);
            }
            StmtKind::Const(c) => {
                self.annos(&c.annotations);
                self.declare(&c.name, Local::Const(&c.ty));
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                self.enter();
                self.stmts(init);
                self.stmts(update);
                self.stmt(body);
                self.exit();
            }
            StmtKind::ForIn {
                annotations: a,
                var,
                body,
                ..
            } => {
                self.enter();
                self.declare(var, Local::Var);
                self.annos(a);
                self.stmt(body);
                self.exit();
            }
            _ => {}
        }
    }
}

/// The local scopes of a [`walk`], innermost last.
#[derive(Default)]
pub(super) struct LocalScopes<'a> {
    scopes: Vec<Vec<(&'a str, Local<'a>)>>,
}

impl<'a> LocalScopes<'a> {
    /// Follows one event ([`Event::Annotations`] is left to the caller).
    pub(super) fn follow(&mut self, e: &Event<'a>) {
        match e {
            Event::Enter => self.scopes.push(Vec::new()),
            Event::Exit => {
                self.scopes.pop();
            }
            Event::Declare(name, what) => {
                if let Some(s) = self.scopes.last_mut() {
                    s.push((name.name.as_str(), *what));
                }
            }
            Event::Annotations(..) => {}
        }
    }

    /// The innermost local declaration of `name`.
    pub(super) fn get(&self, name: &str) -> Option<Local<'a>> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| *n == name)
            .map(|(_, w)| *w)
    }
}

/// A structured annotation's value and the local names in scope there.
struct Value<'a> {
    expr: &'a ast::Expr,
    /// The first local name the value uses that is not a constant of an
    /// allowed type, with what it is.
    bad_local: Option<(&'a str, Local<'a>)>,
    /// The value uses a local name (so the checker, whose scope is the
    /// global one here, cannot evaluate it).
    uses_local: bool,
    /// The declared type of the local constant or directionless parameter
    /// the value consists of, if it is just that name.
    bare_local_type: Option<&'a ast::Type>,
}

impl Checker<'_> {
    /// Checks the values of every structured annotation in the program,
    /// once all top-level declarations are known. A value made only of
    /// top-level names is evaluated; one that uses a local name is refused
    /// if that name is a variable, a parameter with a direction, a table,
    /// an action, an instance or a value set (none is a constant `int`,
    /// `string` or `bool`), or if it is just a local constant or
    /// directionless parameter declared with another type (`bit<8>`).
    /// Other uses of local names are left alone.
    pub(crate) fn check_structured_annotations(&mut self, program: &ast::Program) {
        let mut found: Vec<Value<'_>> = Vec::new();
        let mut scopes = LocalScopes::default();
        walk(program, &mut |ev| {
            scopes.follow(&ev);
            let Event::Annotations(list, _) = ev else {
                return;
            };
            for a in list {
                let values: Vec<&ast::Expr> = match &a.body {
                    AnnotationBody::ExprList(list) => list.iter().collect(),
                    AnnotationBody::KeyValues(kvs) => kvs.iter().map(|(_, v)| v).collect(),
                    _ => continue,
                };
                for expr in values {
                    found.push(classify(expr, &scopes));
                }
            }
        });
        for v in found {
            if let Some((name, what)) = v.bad_local {
                let why = match what {
                    Local::Param(dir, _) => {
                        let dir = match dir {
                            ast::Direction::In => "in",
                            ast::Direction::Out => "out",
                            _ => "inout",
                        };
                        format!("`{name}` is an `{dir}` parameter, not a compile-time constant")
                    }
                    Local::Var => format!("`{name}` is a variable, not a compile-time constant"),
                    Local::Table => format!("`{name}` is a table, not a value"),
                    Local::Action => format!("`{name}` is an action, not a value"),
                    Local::Instance => format!("`{name}` is an extern instance, not a value"),
                    Local::ValueSet => format!("`{name}` is a value set, not a value"),
                    Local::Function => format!("`{name}` is a function, not a value"),
                    Local::Const(_) => format!("`{name}` is not a compile-time constant"),
                };
                self.error(
                    Code::BadAnnotationValue,
                    v.expr.span,
                    format!(
                        "a structured annotation's values must be compile-time constants of type `int`, `string` or `bool`, such as literals or constants declared with those types; {why}"
                    ),
                );
                continue;
            }
            if let Some(t) = v.bare_local_type {
                if !allowed_type_syntax(t) {
                    let shown = crate::pretty::ty(t);
                    self.error(
                        Code::BadAnnotationValue,
                        v.expr.span,
                        format!(
                            "a structured annotation's values must be compile-time constants of type `int`, `string` or `bool`; this one is of type `{shown}`"
                        ),
                    );
                }
                continue;
            }
            if v.uses_local {
                continue;
            }
            let e = v.expr;
            if !self.names_resolve_globally(e) {
                continue;
            }
            let v = self.expr(e, None);
            if self.is_unknown(v.ty) {
                continue;
            }
            let ok_type = matches!(
                v.ty,
                TypeTable::INF_INT | TypeTable::STRING | TypeTable::BOOL
            );
            let constant = matches!(v.kind, ExprKind::Const(_));
            if !ok_type || !constant {
                let shown = self.show(v.ty);
                let why = if ok_type {
                    "not a compile-time constant".to_string()
                } else {
                    format!("of type `{shown}`")
                };
                self.error(
                    Code::BadAnnotationValue,
                    e.span,
                    format!(
                        "a structured annotation's values must be compile-time constants of type `int`, `string` or `bool`; this one is {why}"
                    ),
                );
            }
        }
    }

    /// True if every name in `e` is a top-level declaration.
    fn names_resolve_globally(&self, e: &ast::Expr) -> bool {
        use ast::ExprKind as K;
        match &e.kind {
            K::Name(p) => p.name.name == "error" || self.lookup_global(&p.name.name).is_some(),
            K::Member(b, _) => self.names_resolve_globally(b),
            K::Index(a, b) | K::Binary(_, a, b) | K::Mask(a, b) | K::Range(a, b) => {
                self.names_resolve_globally(a) && self.names_resolve_globally(b)
            }
            K::Slice(a, b, c) | K::Ternary(a, b, c) => {
                self.names_resolve_globally(a)
                    && self.names_resolve_globally(b)
                    && self.names_resolve_globally(c)
            }
            K::Unary(_, a) | K::Cast(_, a) => self.names_resolve_globally(a),
            K::List(items) | K::KeysetTuple(items) => {
                items.iter().all(|i| self.names_resolve_globally(i))
            }
            K::StructInit { fields, .. } => {
                fields.iter().all(|(_, v)| self.names_resolve_globally(v))
            }
            K::Call { .. } | K::Construct { .. } => false,
            _ => true,
        }
    }
}

/// What the local names `e` uses are. A value with a call in it is left
/// to the global evaluation (which skips it).
fn classify<'a>(e: &'a ast::Expr, scopes: &LocalScopes<'a>) -> Value<'a> {
    let mut v = Value {
        expr: e,
        bad_local: None,
        uses_local: false,
        bare_local_type: None,
    };
    if has_call(e) {
        return v;
    }
    let mut names = Vec::new();
    local_names(e, &mut names);
    for p in names {
        if p.global {
            continue;
        }
        let Some(what) = scopes.get(&p.name.name) else {
            continue;
        };
        v.uses_local = true;
        let constant = matches!(
            what,
            Local::Const(_) | Local::Param(ast::Direction::None, _)
        );
        if !constant && v.bad_local.is_none() {
            v.bad_local = Some((p.name.name.as_str(), what));
        }
    }
    if v.bad_local.is_none()
        && let ast::ExprKind::Name(p) = &e.kind
        && !p.global
    {
        v.bare_local_type = match scopes.get(&p.name.name) {
            Some(Local::Const(t)) | Some(Local::Param(ast::Direction::None, t)) => Some(t),
            _ => None,
        };
    }
    v
}

/// True if `e` contains a call or constructor call.
fn has_call(e: &ast::Expr) -> bool {
    use ast::ExprKind as K;
    match &e.kind {
        K::Call { .. } | K::Construct { .. } => true,
        K::Member(b, _) | K::Unary(_, b) | K::Cast(_, b) => has_call(b),
        K::Index(a, b) | K::Binary(_, a, b) | K::Mask(a, b) | K::Range(a, b) => {
            has_call(a) || has_call(b)
        }
        K::Slice(a, b, c) | K::Ternary(a, b, c) => has_call(a) || has_call(b) || has_call(c),
        K::PartSelect {
            base, start, width, ..
        } => has_call(base) || has_call(start) || has_call(width),
        K::List(items) | K::KeysetTuple(items) => items.iter().any(has_call),
        K::StructInit { fields, .. } => fields.iter().any(|(_, v)| has_call(v)),
        _ => false,
    }
}

/// The names `e` refers to (not member names).
fn local_names<'a>(e: &'a ast::Expr, out: &mut Vec<&'a ast::Path>) {
    use ast::ExprKind as K;
    match &e.kind {
        K::Name(p) => out.push(p),
        K::Member(b, _) | K::Unary(_, b) | K::Cast(_, b) => local_names(b, out),
        K::Index(a, b) | K::Binary(_, a, b) | K::Mask(a, b) | K::Range(a, b) => {
            local_names(a, out);
            local_names(b, out);
        }
        K::Slice(a, b, c) | K::Ternary(a, b, c) => {
            local_names(a, out);
            local_names(b, out);
            local_names(c, out);
        }
        K::PartSelect {
            base, start, width, ..
        } => {
            local_names(base, out);
            local_names(start, out);
            local_names(width, out);
        }
        K::List(items) | K::KeysetTuple(items) => {
            for i in items {
                local_names(i, out);
            }
        }
        K::StructInit { fields, .. } => {
            for (_, v) in fields {
                local_names(v, out);
            }
        }
        _ => {}
    }
}

/// True unless `t` is written as a type a structured annotation's value
/// cannot have: `bit<W>`, `int<W>`, `varbit<W>`, `error`, `match_kind`,
/// a tuple, a list or an array. Named types (typedefs) are given the
/// benefit of the doubt.
fn allowed_type_syntax(t: &ast::Type) -> bool {
    use ast::TypeKind as T;
    !matches!(
        t.kind,
        T::Bit(_)
            | T::Int(_)
            | T::Varbit(_)
            | T::Error
            | T::MatchKind
            | T::Tuple(_)
            | T::List(_)
            | T::Stack { .. }
    )
}
