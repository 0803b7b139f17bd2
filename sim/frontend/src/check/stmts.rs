//! Statements: assignments, calls, conditionals, switch, loops, local
//! declarations, and the control-flow rules of the spec (where `exit`,
//! `return`, `break` may appear; functions must return a value).

use super::exprs::{is_constant_tree, unknown};
use super::{Binding, Checker, Context};
use crate::ast::{self, StmtKind};
use crate::diag::Code;
use crate::ir::{self, ExprKind, SwitchLabel, VarKind};
use crate::types::{Ty, TyId, TypeTable};

impl Checker<'_> {
    /// Checks a list of statements in a new scope.
    pub(crate) fn stmts(&mut self, stmts: &[ast::Stmt]) -> Vec<ir::Stmt> {
        self.scoped(|c| stmts.iter().filter_map(|s| c.stmt(s)).collect())
    }

    pub(crate) fn block_stmts(&mut self, b: &ast::Block) -> Vec<ir::Stmt> {
        self.stmts(&b.stmts)
    }

    /// A statement as a body (`if` branch, loop body): its own scope.
    fn body(&mut self, s: &ast::Stmt) -> Vec<ir::Stmt> {
        self.scoped(|c| c.stmt(s).into_iter().collect())
    }

    pub(crate) fn stmt(&mut self, s: &ast::Stmt) -> Option<ir::Stmt> {
        let span = s.span;
        let kind = match &s.kind {
            StmtKind::Assign { lhs, op, rhs } => {
                let l = self.expr(lhs, None);
                if let Some(why) = self.not_assignable(&l) {
                    self.error(
                        Code::NotAnLValue,
                        lhs.span,
                        format!("cannot assign here: {why}"),
                    );
                }
                let r = match op {
                    None => self.expr_as(rhs, l.ty),
                    Some(op) => {
                        // `a op= b` is `a = a op b`.
                        let combined = ast::Expr::new(
                            ast::ExprKind::Binary(
                                *op,
                                Box::new(lhs.clone()),
                                Box::new(rhs.clone()),
                            ),
                            span,
                        );
                        self.expr_as(&combined, l.ty)
                    }
                };
                if matches!(self.ty(l.ty), Ty::Varbit { .. })
                    && !self.is_unknown(r.ty)
                    && r.ty != l.ty
                {
                    let shown = self.show(l.ty);
                    self.error(
                        Code::TypeMismatch,
                        rhs.span,
                        format!("a `{shown}` can only be assigned another `{shown}`"),
                    );
                }
                ir::StmtKind::Assign(l, r)
            }
            StmtKind::Call(e) => {
                let v = self.expr(e, None);
                // A call the checker evaluated (`static_assert(...);`) has
                // no run-time effect: the statement is dropped.
                if matches!(v.kind, ExprKind::Const(_)) {
                    return None;
                }
                ir::StmtKind::Call(v)
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.condition(cond, "the condition of `if`");
                let t = self.body(then);
                let f = otherwise.as_ref().map(|o| self.body(o)).unwrap_or_default();
                ir::StmtKind::If(c, t, f)
            }
            StmtKind::Block(b) => ir::StmtKind::Block(self.block_stmts(b)),
            StmtKind::Return(value) => self.return_stmt(value.as_ref(), span),
            StmtKind::Exit => {
                if matches!(
                    self.ctx,
                    Context::Function | Context::ParserState | Context::ParserLocal
                ) {
                    self.error(
                        Code::NotAllowedHere,
                        span,
                        format!("`exit` is not allowed in {}", self.ctx_name()),
                    );
                }
                ir::StmtKind::Exit
            }
            StmtKind::Break | StmtKind::Continue => {
                if self.loop_depth == 0 {
                    let word = if matches!(s.kind, StmtKind::Break) {
                        "break"
                    } else {
                        "continue"
                    };
                    self.error(
                        Code::NotAllowedHere,
                        span,
                        format!("`{word}` outside a loop"),
                    );
                }
                if matches!(s.kind, StmtKind::Break) {
                    ir::StmtKind::Break
                } else {
                    ir::StmtKind::Continue
                }
            }
            StmtKind::Empty => return None,
            StmtKind::Switch { subject, cases } => self.switch_stmt(subject, cases, span),
            StmtKind::Var(v) => {
                let (id, init) = self.local_var(v);
                ir::StmtKind::Declare(id, init)
            }
            StmtKind::Const(c) => {
                self.const_decl(c);
                return None;
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => self.scoped(|c| {
                let init: Vec<ir::Stmt> = init.iter().filter_map(|s| c.stmt(s)).collect();
                let cond = cond.as_ref().map(|e| c.condition(e, "a `for` condition"));
                c.loop_depth += 1;
                let update: Vec<ir::Stmt> = update.iter().filter_map(|s| c.stmt(s)).collect();
                let body = c.body(body);
                c.loop_depth -= 1;
                ir::StmtKind::For {
                    init,
                    cond,
                    update,
                    body,
                }
            }),
            StmtKind::ForIn {
                ty,
                var,
                collection,
                body,
                ..
            } => self.for_in(ty.as_ref(), var, collection, body),
            StmtKind::Transition(_) => {
                self.error(
                    Code::NotAllowedHere,
                    span,
                    "`transition` is only allowed at the end of a parser state",
                );
                return None;
            }
        };
        Some(ir::Stmt { kind, span })
    }

    fn return_stmt(
        &mut self,
        value: Option<&ast::Expr>,
        span: crate::source::Span,
    ) -> ir::StmtKind {
        match (self.ctx, self.return_ty) {
            (Context::ParserState | Context::ParserLocal, _) => {
                self.error(
                    Code::NotAllowedHere,
                    span,
                    "`return` is not allowed in a parser",
                );
                ir::StmtKind::Return(None)
            }
            (Context::Function, Some(rt)) => match value {
                Some(v) if rt == TypeTable::VOID => {
                    let _ = self.expr(v, None);
                    self.error(
                        Code::TypeMismatch,
                        v.span,
                        "a `void` function cannot return a value",
                    );
                    ir::StmtKind::Return(None)
                }
                Some(v) => ir::StmtKind::Return(Some(self.expr_as(v, rt))),
                None if rt != TypeTable::VOID && !self.is_unknown(rt) => {
                    let shown = self.show(rt);
                    self.error(
                        Code::TypeMismatch,
                        span,
                        format!("this function must return a `{shown}` value"),
                    );
                    ir::StmtKind::Return(None)
                }
                None => ir::StmtKind::Return(None),
            },
            _ => {
                if let Some(v) = value {
                    let _ = self.expr(v, None);
                    self.error(
                        Code::TypeMismatch,
                        v.span,
                        format!("`return` in {} cannot have a value", self.ctx_name()),
                    );
                }
                ir::StmtKind::Return(None)
            }
        }
    }

    /// Declares a local variable; returns it with its converted initialiser.
    pub(crate) fn local_var(&mut self, v: &ast::VarDecl) -> (ir::VarId, Option<ir::Expr>) {
        let ty = self.resolve_type(&v.ty);
        self.check_value_type(ty, v.ty.span);
        let init = v.init.as_ref().map(|e| self.expr_as(e, ty));
        let id = self.new_var(&v.name.name, ty, VarKind::Local, v.name.span);
        self.declare(&v.name, Binding::Var(id));
        (id, init)
    }

    /// Types a variable may not have (p4c: "Cannot declare variables with
    /// type").
    pub(crate) fn check_value_type(&mut self, ty: TyId, span: crate::source::Span) {
        let bad = match self.ty(ty) {
            Ty::Void => Some("void"),
            Ty::InfInt => Some("int (infinite precision, compile-time only)"),
            Ty::String => Some("string (compile-time only)"),
            Ty::Extern { .. } | Ty::Block { .. } => {
                Some("an extern, parser, control or package type")
            }
            _ => None,
        };
        if let Some(what) = bad {
            self.error(
                Code::BadTypeArgument,
                span,
                format!("a variable cannot have type {what}"),
            );
        }
    }

    /// `const T x = e;`: the value must be a compile-time constant.
    pub(crate) fn const_decl(&mut self, c: &ast::ConstDecl) {
        self.check_no_dont_care(&c.ty);
        let ty = self.resolve_type(&c.ty);
        let v = self.expr_as(&c.value, ty);
        // `...` (alone or in an initialiser) is the type's default value.
        let v = self.fill_defaults(v, ty);
        let binding = match v.kind {
            ExprKind::Const(value) => Binding::Const { ty, value },
            ExprKind::InvalidHeader | ExprKind::List(_) if is_constant_tree(&v) => {
                Binding::HeaderConst(ir::Expr { ty, ..v })
            }
            // Already reported; later uses stay quiet.
            _ if self.is_unknown(v.ty) || self.is_unknown(ty) => Binding::Type(TypeTable::UNKNOWN),
            _ => {
                self.error(
                    Code::NotConstant,
                    c.value.span,
                    format!(
                        "the value of constant `{}` is not a compile-time constant",
                        c.name.name
                    ),
                );
                Binding::Type(TypeTable::UNKNOWN)
            }
        };
        self.declare(&c.name, binding);
    }

    fn for_in(
        &mut self,
        ty: Option<&ast::Type>,
        var: &ast::Ident,
        collection: &ast::Expr,
        body: &ast::Stmt,
    ) -> ir::StmtKind {
        self.scoped(|c| {
            let declared = ty.map(|t| c.resolve_type(t));
            let (coll, elem) = match &collection.kind {
                ast::ExprKind::Range(lo, hi) => {
                    let want = declared;
                    let l = c.expr(lo, want);
                    let h = c.expr(hi, want.or(Some(l.ty)));
                    let t = declared.unwrap_or(if l.ty == TypeTable::INF_INT {
                        h.ty
                    } else {
                        l.ty
                    });
                    let l = c.coerce(l, t);
                    let h = c.coerce(h, t);
                    let set = c.types().intern(Ty::Set(t));
                    let e = super::exprs::mk(
                        set,
                        ExprKind::Range(Box::new(l), Box::new(h)),
                        collection.span,
                    );
                    (e, t)
                }
                _ => {
                    let e = c.expr(collection, None);
                    let elem = match c.ty(e.ty).clone() {
                        Ty::Stack { elem, .. } | Ty::List(elem) => elem,
                        Ty::Tuple(items) => items.first().copied().unwrap_or(TypeTable::UNKNOWN),
                        Ty::Unknown => TypeTable::UNKNOWN,
                        _ => {
                            let shown = c.show(e.ty);
                            c.error(
                                Code::TypeMismatch,
                                collection.span,
                                format!("cannot iterate over `{shown}`"),
                            );
                            TypeTable::UNKNOWN
                        }
                    };
                    (e, elem)
                }
            };
            let vty = declared.unwrap_or(elem);
            let id = c.new_var(&var.name, vty, VarKind::Local, var.span);
            c.declare(var, Binding::Var(id));
            c.loop_depth += 1;
            let body = c.body(body);
            c.loop_depth -= 1;
            ir::StmtKind::ForIn {
                var: id,
                collection: coll,
                body,
            }
        })
    }

    fn switch_stmt(
        &mut self,
        subject: &ast::Expr,
        cases: &[ast::SwitchCase],
        span: crate::source::Span,
    ) -> ir::StmtKind {
        // `action_run` is allowed here, as the whole switch expression.
        self.allow_action_run = matches!(
            &subject.kind,
            ast::ExprKind::Member(_, m) if m.name == "action_run"
        );
        let subj = self.expr(subject, None);
        self.allow_action_run = false;
        let table = match self.ty(subj.ty) {
            Ty::ActionRun(t) => Some(ir::TableId(*t)),
            Ty::Bits { .. } | Ty::Enum(_) | Ty::Error | Ty::Unknown => None,
            _ => {
                let shown = self.show(subj.ty);
                self.error(
                    Code::BadSwitch,
                    subject.span,
                    format!("cannot switch on `{shown}`: use `t.apply().action_run` or a `bit<W>`, `int<W>`, enum or error value"),
                );
                return ir::StmtKind::Switch(unknown(span), Vec::new());
            }
        };
        let mut seen: Vec<SwitchLabel> = Vec::new();
        let mut out: Vec<ir::SwitchCase> = Vec::new();
        let mut pending: Vec<SwitchLabel> = Vec::new();
        // Set at `default`; true once a later label was warned about.
        let mut after_default: Option<bool> = None;
        for (i, case) in cases.iter().enumerate() {
            let label = self.switch_label(&case.label, table, subj.ty);
            if let Some(l) = &label {
                if seen.contains(l) {
                    self.error(
                        Code::DuplicateLabel,
                        case.label.span,
                        "this label appears twice in the switch",
                    );
                } else {
                    seen.push(l.clone());
                }
                if after_default == Some(false) {
                    // p4c: a warning, and `default` takes every value left.
                    self.warning(
                        Code::UnreachableCode,
                        case.label.span,
                        "label following the `default` label: `default` matches first, so this case never runs",
                    );
                    after_default = Some(true);
                }
                if after_default.is_none() {
                    if *l == SwitchLabel::Default {
                        after_default = Some(false);
                    }
                    pending.push(l.clone());
                }
            }
            match &case.body {
                Some(b) => {
                    let body = self.block_stmts(b);
                    out.push(ir::SwitchCase {
                        labels: std::mem::take(&mut pending),
                        body,
                    });
                }
                None if i + 1 == cases.len() => {
                    // As p4c: a warning ("fallthrough with no statement"),
                    // and the labels run an empty block.
                    self.warning(
                        Code::SwitchFallthroughAtEnd,
                        case.span,
                        "fallthrough with no statement: the last label of this switch has no \
                         block, so it does nothing",
                    );
                    out.push(ir::SwitchCase {
                        labels: std::mem::take(&mut pending),
                        body: Vec::new(),
                    });
                }
                None => {}
            }
        }
        ir::StmtKind::Switch(subj, out)
    }

    fn switch_label(
        &mut self,
        label: &ast::Expr,
        table: Option<ir::TableId>,
        subj_ty: TyId,
    ) -> Option<SwitchLabel> {
        if matches!(label.kind, ast::ExprKind::Default) {
            return Some(SwitchLabel::Default);
        }
        if let Some(t) = table {
            let ast::ExprKind::Name(path) = &label.kind else {
                self.error(
                    Code::BadSwitch,
                    label.span,
                    "labels of a switch on `action_run` must be action names",
                );
                return None;
            };
            let actions: Vec<ir::ActionId> = self.prog.tables[t.0 as usize]
                .actions
                .iter()
                .map(|a| a.action)
                .collect();
            let found = match self.lookup_path(path) {
                Some(Binding::Action(id)) => Some(*id),
                _ => None,
            };
            return match found {
                Some(id) if actions.contains(&id) => Some(SwitchLabel::Action(id)),
                _ => {
                    let tname = self.prog.tables[t.0 as usize].name.clone();
                    self.error(
                        Code::ActionNotInTable,
                        label.span,
                        format!("`{}` is not an action of table `{tname}`", path.name.name),
                    );
                    None
                }
            };
        }
        let v = self.expr_as(label, subj_ty);
        match v.kind {
            ExprKind::Const(c) => Some(SwitchLabel::Value(c)),
            _ if self.is_unknown(v.ty) => None,
            _ => {
                self.error(
                    Code::NotConstant,
                    label.span,
                    "a switch label must be a compile-time constant",
                );
                None
            }
        }
    }

    /// True if running `stmts` always ends in `return` or `exit`.
    pub(crate) fn always_returns(stmts: &[ir::Stmt]) -> bool {
        stmts.iter().any(|s| match &s.kind {
            ir::StmtKind::Return(_) | ir::StmtKind::Exit => true,
            ir::StmtKind::Block(b) => Self::always_returns(b),
            ir::StmtKind::If(_, t, f) => Self::always_returns(t) && Self::always_returns(f),
            ir::StmtKind::Switch(_, cases) => {
                cases
                    .iter()
                    .any(|c| c.labels.contains(&SwitchLabel::Default))
                    && cases.iter().all(|c| Self::always_returns(&c.body))
            }
            _ => false,
        })
    }
}
