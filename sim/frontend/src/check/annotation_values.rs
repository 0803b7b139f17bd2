//! Structured annotations (`@A[x = 1, y = "s"]`, `@A[1, true]`): p4c's type
//! checker requires each value to be a compile-time constant of type `int`,
//! `string` or `bool` ("illegal type for structured annotation").

use super::Checker;
use crate::ast::{self, AnnotationBody, DeclKind, StmtKind, TablePropKind};
use crate::diag::Code;
use crate::ir::ExprKind;
use crate::types::TypeTable;

impl Checker<'_> {
    /// Checks the values of every structured annotation in the program,
    /// once all top-level declarations are known. A value naming anything
    /// that is not a top-level declaration is left alone (it may name a
    /// local of its scope).
    pub(crate) fn check_structured_annotations(&mut self, program: &ast::Program) {
        let mut found: Vec<&ast::Expr> = Vec::new();
        for d in &program.decls {
            decl_annotations(d, &mut found);
        }
        for e in found {
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

fn annotations<'a>(annos: &'a [ast::Annotation], out: &mut Vec<&'a ast::Expr>) {
    for a in annos {
        match &a.body {
            AnnotationBody::ExprList(list) => out.extend(list.iter()),
            AnnotationBody::KeyValues(kvs) => out.extend(kvs.iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

fn params<'a>(ps: &'a [ast::Param], out: &mut Vec<&'a ast::Expr>) {
    for p in ps {
        annotations(&p.annotations, out);
    }
}

fn decl_annotations<'a>(d: &'a ast::Decl, out: &mut Vec<&'a ast::Expr>) {
    match &d.kind {
        DeclKind::Const(c) => annotations(&c.annotations, out),
        DeclKind::Var(v) => annotations(&v.annotations, out),
        DeclKind::Typedef(t) => annotations(&t.annotations, out),
        DeclKind::Header(s) | DeclKind::HeaderUnion(s) | DeclKind::Struct(s) => {
            annotations(&s.annotations, out);
            for f in &s.fields {
                annotations(&f.annotations, out);
            }
        }
        DeclKind::Enum(e) => annotations(&e.annotations, out),
        DeclKind::Error(_) | DeclKind::MatchKind(_) => {}
        DeclKind::ExternObject(e) => {
            annotations(&e.annotations, out);
            for m in &e.methods {
                annotations(&m.annotations, out);
                params(&m.params, out);
            }
        }
        DeclKind::ExternFunction(f) => {
            annotations(&f.annotations, out);
            params(&f.params, out);
        }
        DeclKind::ParserType(p) | DeclKind::ControlType(p) | DeclKind::Package(p) => {
            annotations(&p.annotations, out);
            params(&p.params, out);
        }
        DeclKind::Parser(p) => {
            annotations(&p.proto.annotations, out);
            params(&p.proto.params, out);
            params(&p.ctor_params, out);
            for l in &p.locals {
                decl_annotations(l, out);
            }
            for s in &p.states {
                annotations(&s.annotations, out);
                stmts(&s.body, out);
            }
        }
        DeclKind::Control(c) => {
            annotations(&c.proto.annotations, out);
            params(&c.proto.params, out);
            params(&c.ctor_params, out);
            for l in &c.locals {
                decl_annotations(l, out);
            }
            block(&c.apply, out);
        }
        DeclKind::Action(a) => {
            annotations(&a.annotations, out);
            params(&a.params, out);
            block(&a.body, out);
        }
        DeclKind::Function(f) => {
            annotations(&f.proto.annotations, out);
            params(&f.proto.params, out);
            block(&f.body, out);
        }
        DeclKind::Instance(i) => {
            annotations(&i.annotations, out);
            for d in i.init.iter().flatten() {
                decl_annotations(d, out);
            }
        }
        DeclKind::Table(t) => {
            annotations(&t.annotations, out);
            for p in &t.props {
                annotations(&p.annotations, out);
                match &p.kind {
                    TablePropKind::Key(keys) => {
                        for k in keys {
                            annotations(&k.annotations, out);
                        }
                    }
                    TablePropKind::Actions(refs) => {
                        for r in refs {
                            annotations(&r.annotations, out);
                        }
                    }
                    TablePropKind::Entries(entries) => {
                        for e in entries {
                            annotations(&e.annotations, out);
                            annotations(&e.action.annotations, out);
                        }
                    }
                    TablePropKind::Other { .. } => {}
                }
            }
        }
        DeclKind::ValueSet(v) => annotations(&v.annotations, out),
    }
}

fn block<'a>(b: &'a ast::Block, out: &mut Vec<&'a ast::Expr>) {
    annotations(&b.annotations, out);
    stmts(&b.stmts, out);
}

fn stmts<'a>(list: &'a [ast::Stmt], out: &mut Vec<&'a ast::Expr>) {
    for s in list {
        stmt(s, out);
    }
}

fn stmt<'a>(s: &'a ast::Stmt, out: &mut Vec<&'a ast::Expr>) {
    match &s.kind {
        StmtKind::If {
            then, otherwise, ..
        } => {
            stmt(then, out);
            if let Some(o) = otherwise {
                stmt(o, out);
            }
        }
        StmtKind::Block(b) => block(b, out),
        StmtKind::Switch { cases, .. } => {
            for c in cases {
                if let Some(b) = &c.body {
                    block(b, out);
                }
            }
        }
        StmtKind::Var(v) => annotations(&v.annotations, out),
        StmtKind::Const(c) => annotations(&c.annotations, out),
        StmtKind::For {
            init, update, body, ..
        } => {
            stmts(init, out);
            stmts(update, out);
            stmt(body, out);
        }
        StmtKind::ForIn {
            annotations: a,
            body,
            ..
        } => {
            annotations(a, out);
            stmt(body, out);
        }
        _ => {}
    }
}
