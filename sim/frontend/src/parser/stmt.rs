//! Statements, blocks, and parser-state transitions.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Kw, Punct, TokenKind};
use crate::source::Span;

impl Parser<'_> {
    /// `{ stmt* }`, with annotations already read by the caller.
    pub(crate) fn block(&mut self, annotations: Annotations) -> PResult<Block> {
        let lo = self.start();
        self.expect_punct(Punct::LBrace)?;
        let mut stmts = Vec::new();
        while !self.is_punct(Punct::RBrace) {
            if self.at_eof() {
                return self.fail("`}`");
            }
            stmts.push(self.stmt()?);
        }
        self.bump();
        Ok(Block {
            annotations,
            stmts,
            span: self.span_from(lo),
        })
    }

    /// A block statement with its annotations (`@atomic { ... }`): the body
    /// of an action, a function or a control's `apply`, which p4c's grammar
    /// reads as a blockStatement.
    pub(crate) fn annotated_block(&mut self) -> PResult<Block> {
        let annotations = self.annotations()?;
        self.block(annotations)
    }

    pub(crate) fn stmt(&mut self) -> PResult<Stmt> {
        self.nested(|p| p.stmt_inner())
    }

    fn stmt_inner(&mut self) -> PResult<Stmt> {
        let lo = self.start();
        let annotations = self.annotations()?;
        let annotated = !annotations.is_empty();
        let wrap = annotations.clone();
        let body_lo = self.start();
        let kind = match self.kind().clone() {
            TokenKind::Punct(Punct::LBrace) => StmtKind::Block(self.block(annotations)?),
            TokenKind::Punct(Punct::Semi) => {
                self.bump();
                StmtKind::Empty
            }
            TokenKind::Kw(Kw::If) => self.if_stmt()?,
            TokenKind::Kw(Kw::Switch) => self.switch_stmt()?,
            TokenKind::Kw(Kw::Return) => {
                self.bump();
                let value = if self.is_punct(Punct::Semi) {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect_punct(Punct::Semi)?;
                StmtKind::Return(value)
            }
            TokenKind::Kw(Kw::Exit) => self.keyword_stmt(StmtKind::Exit)?,
            TokenKind::Kw(Kw::Break) => self.keyword_stmt(StmtKind::Break)?,
            TokenKind::Kw(Kw::Continue) => self.keyword_stmt(StmtKind::Continue)?,
            TokenKind::Kw(Kw::For) => self.for_stmt(annotations)?,
            TokenKind::Kw(Kw::Const) => StmtKind::Const(self.const_decl(annotations)?),
            TokenKind::Kw(Kw::Transition) => StmtKind::Transition(self.transition()?),
            _ => {
                if let Some(v) = self.attempt(|p| p.var_decl(annotations.clone())) {
                    StmtKind::Var(v)
                } else {
                    let s = self.simple_stmt()?;
                    self.expect_punct(Punct::Semi)?;
                    s
                }
            }
        };
        let keeps_annotations = matches!(
            kind,
            StmtKind::Block(_) | StmtKind::Var(_) | StmtKind::Const(_) | StmtKind::ForIn { .. }
        );
        if annotated && matches!(kind, StmtKind::Transition(_)) {
            self.error(
                crate::source::Span::new(lo, lo + 1),
                "a `transition` cannot be annotated".into(),
            );
            return Err(super::Failed);
        }
        let span = self.span_from(lo);
        if annotated && !keeps_annotations {
            // Any other statement may be annotated too (`@atomic x = y;`,
            // `@likely if (...)`, an annotated three-clause `for`): it is
            // kept as an annotated block of that one statement, which
            // means the same, since it declares nothing.
            let inner = Stmt {
                kind,
                span: Span::new(body_lo, span.hi),
            };
            return Ok(Stmt {
                kind: StmtKind::Block(Block {
                    annotations: wrap,
                    stmts: vec![inner],
                    span,
                }),
                span,
            });
        }
        Ok(Stmt { kind, span })
    }

    fn keyword_stmt(&mut self, kind: StmtKind) -> PResult<StmtKind> {
        self.bump();
        self.expect_punct(Punct::Semi)?;
        Ok(kind)
    }

    /// An assignment (plain or compound) or a call, without the `;`.
    fn simple_stmt(&mut self) -> PResult<StmtKind> {
        let lhs = self.expr()?;
        if let Some(op) = self.assign_op() {
            let rhs = self.expr()?;
            return Ok(StmtKind::Assign { lhs, op, rhs });
        }
        if matches!(lhs.kind, ExprKind::Call { .. }) {
            return Ok(StmtKind::Call(lhs));
        }
        self.fail("`=` or a method call")
    }

    /// Consumes `=` or a compound assignment; `Some(None)` for plain `=`.
    fn assign_op(&mut self) -> Option<Option<BinOp>> {
        let TokenKind::Punct(p) = self.kind() else {
            return None;
        };
        let op = match p {
            Punct::Assign => None,
            Punct::PlusAssign => Some(BinOp::Add),
            Punct::MinusAssign => Some(BinOp::Sub),
            Punct::StarAssign => Some(BinOp::Mul),
            Punct::SlashAssign => Some(BinOp::Div),
            Punct::PercentAssign => Some(BinOp::Mod),
            Punct::ShlAssign => Some(BinOp::Shl),
            Punct::ShrAssign => Some(BinOp::Shr),
            Punct::AmpAssign => Some(BinOp::BitAnd),
            Punct::PipeAssign => Some(BinOp::BitOr),
            Punct::CaretAssign => Some(BinOp::BitXor),
            Punct::SatPlusAssign => Some(BinOp::SatAdd),
            Punct::SatMinusAssign => Some(BinOp::SatSub),
            // `>>=` arrives as `>` followed by a touching `>=`.
            Punct::Gt if self.is_punct_at(1, Punct::Ge) && !self.peek_at(1).space_before => {
                self.bump();
                Some(BinOp::Shr)
            }
            _ => return None,
        };
        self.bump();
        Some(op)
    }

    /// `T x;` or `T x = e;` (annotations already read).
    pub(crate) fn var_decl(&mut self, annotations: Annotations) -> PResult<VarDecl> {
        let lo = self.start();
        let ty = self.ty()?;
        let name = self.name()?;
        let init = if self.eat_punct(Punct::Assign) {
            Some(self.expr()?)
        } else {
            None
        };
        self.expect_punct(Punct::Semi)?;
        Ok(VarDecl {
            annotations,
            ty,
            name,
            init,
            span: self.span_from(lo),
        })
    }

    /// `const T x = e;` (annotations already read).
    pub(crate) fn const_decl(&mut self, annotations: Annotations) -> PResult<ConstDecl> {
        let lo = self.start();
        self.expect_kw(Kw::Const)?;
        let ty = self.ty()?;
        let name = self.name()?;
        self.expect_punct(Punct::Assign)?;
        let value = self.expr()?;
        self.expect_punct(Punct::Semi)?;
        Ok(ConstDecl {
            annotations,
            ty,
            name,
            value,
            span: self.span_from(lo),
        })
    }

    fn if_stmt(&mut self) -> PResult<StmtKind> {
        self.expect_kw(Kw::If)?;
        self.expect_punct(Punct::LParen)?;
        let cond = self.expr()?;
        self.expect_punct(Punct::RParen)?;
        let then = Box::new(self.stmt()?);
        let otherwise = if self.eat_kw(Kw::Else) {
            Some(Box::new(self.stmt()?))
        } else {
            None
        };
        Ok(StmtKind::If {
            cond,
            then,
            otherwise,
        })
    }

    fn switch_stmt(&mut self) -> PResult<StmtKind> {
        self.expect_kw(Kw::Switch)?;
        self.expect_punct(Punct::LParen)?;
        let subject = self.expr()?;
        self.expect_punct(Punct::RParen)?;
        self.expect_punct(Punct::LBrace)?;
        let mut cases = Vec::new();
        while !self.eat_punct(Punct::RBrace) {
            let lo = self.start();
            let label = if self.is_kw(Kw::Default) {
                let span = self.bump().span;
                Expr::new(ExprKind::Default, span)
            } else {
                self.expr()?
            };
            self.expect_punct(Punct::Colon)?;
            // A case's body is a block statement, which may be annotated
            // (`1: @likely { ... }`).
            let annotations = self.annotations()?;
            let body = if self.is_punct(Punct::LBrace) || !annotations.is_empty() {
                Some(self.block(annotations)?)
            } else {
                None
            };
            cases.push(SwitchCase {
                label,
                body,
                span: self.span_from(lo),
            });
        }
        Ok(StmtKind::Switch { subject, cases })
    }

    /// `for (init; cond; update) body` or `for (T x in e) body`.
    fn for_stmt(&mut self, annotations: Annotations) -> PResult<StmtKind> {
        self.expect_kw(Kw::For)?;
        self.expect_punct(Punct::LParen)?;
        if let Some((inner, ty, var)) = self.attempt(|p| {
            // `for (@a T x in ...)`: annotations of the loop variable.
            let inner = p.annotations()?;
            let ty = if matches!(p.kind(), TokenKind::Ident(_))
                && matches!(p.kind_at(1), TokenKind::Kw(Kw::In))
            {
                None
            } else {
                Some(p.ty()?)
            };
            let var = p.name()?;
            p.expect_kw(Kw::In)?;
            Ok((inner, ty, var))
        }) {
            let collection = self.for_collection()?;
            self.expect_punct(Punct::RParen)?;
            let body = Box::new(self.stmt()?);
            let mut annotations = annotations;
            annotations.extend(inner);
            return Ok(StmtKind::ForIn {
                annotations,
                ty,
                var,
                collection,
                body,
            });
        }
        let mut init = Vec::new();
        while !self.eat_punct(Punct::Semi) {
            let lo = self.start();
            let kind = if let Some(v) = self.attempt(|p| p.var_decl_no_semi()) {
                StmtKind::Var(v)
            } else {
                self.simple_stmt()?
            };
            init.push(Stmt {
                kind,
                span: self.span_from(lo),
            });
            if !self.eat_punct(Punct::Comma) {
                self.expect_punct(Punct::Semi)?;
                break;
            }
        }
        let cond = if self.is_punct(Punct::Semi) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect_punct(Punct::Semi)?;
        let mut update = Vec::new();
        while !self.eat_punct(Punct::RParen) {
            let lo = self.start();
            let kind = self.simple_stmt()?;
            update.push(Stmt {
                kind,
                span: self.span_from(lo),
            });
            if !self.eat_punct(Punct::Comma) {
                self.expect_punct(Punct::RParen)?;
                break;
            }
        }
        let body = Box::new(self.stmt()?);
        Ok(StmtKind::For {
            init,
            cond,
            update,
            body,
        })
    }

    /// The collection of `for (x in ...)`: an expression or a range `a .. b`.
    fn for_collection(&mut self) -> PResult<Expr> {
        let lo = self.start();
        let e = self.expr()?;
        if self.eat_punct(Punct::DotDot) {
            let hi = self.expr()?;
            return Ok(Expr::new(
                ExprKind::Range(Box::new(e), Box::new(hi)),
                self.span_from(lo),
            ));
        }
        Ok(e)
    }

    fn var_decl_no_semi(&mut self) -> PResult<VarDecl> {
        let lo = self.start();
        let annotations = self.annotations()?;
        let ty = self.ty()?;
        let name = self.name()?;
        self.expect_punct(Punct::Assign)?;
        let init = Some(self.expr()?);
        Ok(VarDecl {
            annotations,
            ty,
            name,
            init,
            span: self.span_from(lo),
        })
    }

    /// `transition name;` or `transition select (...) { ... }`.
    pub(crate) fn transition(&mut self) -> PResult<Transition> {
        self.expect_kw(Kw::Transition)?;
        if !self.is_kw(Kw::Select) {
            let path = self.path()?;
            self.expect_punct(Punct::Semi)?;
            return Ok(Transition::Direct(path));
        }
        let lo = self.start();
        self.bump();
        self.expect_punct(Punct::LParen)?;
        let mut keys = Vec::new();
        if !self.is_punct(Punct::RParen) {
            loop {
                keys.push(self.expr()?);
                if !self.eat_punct(Punct::Comma) {
                    break;
                }
            }
        }
        self.expect_punct(Punct::RParen)?;
        self.expect_punct(Punct::LBrace)?;
        let mut cases = Vec::new();
        while !self.eat_punct(Punct::RBrace) {
            let clo = self.start();
            let keyset = self.keyset()?;
            self.expect_punct(Punct::Colon)?;
            let next = self.path()?;
            self.expect_punct(Punct::Semi)?;
            cases.push(SelectCase {
                keyset,
                next,
                span: self.span_from(clo),
            });
        }
        Ok(Transition::Select {
            keys,
            cases,
            span: self.span_from(lo),
        })
    }
}
