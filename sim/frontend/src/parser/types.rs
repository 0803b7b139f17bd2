//! Types, type parameters and parameter lists.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Kw, Punct, TokenKind};

impl Parser<'_> {
    /// A type reference: base types, named (possibly specialised) types,
    /// tuples, and array (header stack) suffixes `[N]`; `T[2][3]` is an
    /// array of 3 elements of type `T[2]`.
    pub(crate) fn ty(&mut self) -> PResult<Type> {
        // Type arguments nest (`tuple<tuple<...>>`): one level each.
        self.nested(|p| p.ty_inner())
    }

    fn ty_inner(&mut self) -> PResult<Type> {
        let lo = self.start();
        let mut ty = self.base_type()?;
        while self.is_punct(crate::lexer::Punct::LBracket) {
            // Each suffix is one more level of nesting.
            self.enter()?;
            self.bump();
            let size = self.bracketed(|p| p.expr())?;
            self.expect_punct(Punct::RBracket)?;
            ty = Type {
                kind: TypeKind::Stack {
                    elem: Box::new(ty),
                    size: Box::new(size),
                },
                span: self.span_from(lo),
            };
        }
        Ok(ty)
    }

    fn base_type(&mut self) -> PResult<Type> {
        let lo = self.start();
        let kind = match self.kind().clone() {
            TokenKind::Kw(Kw::Bool) => {
                self.bump();
                TypeKind::Bool
            }
            TokenKind::Kw(Kw::Error) => {
                self.bump();
                TypeKind::Error
            }
            TokenKind::Kw(Kw::String) => {
                self.bump();
                TypeKind::String
            }
            TokenKind::Kw(Kw::Void) => {
                self.bump();
                TypeKind::Void
            }
            TokenKind::Kw(Kw::MatchKind) => {
                self.bump();
                TypeKind::MatchKind
            }
            TokenKind::DontCare => {
                self.bump();
                TypeKind::DontCare
            }
            TokenKind::Kw(Kw::Bit) => {
                self.bump();
                match self.opt_width()? {
                    Some(w) => TypeKind::Bit(Box::new(w)),
                    None => TypeKind::Bit(Box::new(Expr::new(
                        ExprKind::Int(crate::lexer::IntLit {
                            value: 1u32.into(),
                            width: None,
                            base: 10,
                        }),
                        self.prev_span(),
                    ))),
                }
            }
            TokenKind::Kw(Kw::Int) => {
                self.bump();
                match self.opt_width()? {
                    Some(w) => TypeKind::Int(Box::new(w)),
                    None => TypeKind::InfInt,
                }
            }
            TokenKind::Kw(Kw::Varbit) => {
                self.bump();
                match self.opt_width()? {
                    Some(w) => TypeKind::Varbit(Box::new(w)),
                    None => return self.fail("`<` after `varbit`"),
                }
            }
            TokenKind::Kw(Kw::Tuple) => {
                self.bump();
                self.expect_punct(Punct::Lt)?;
                let args = self.type_args_rest()?;
                TypeKind::Tuple(args)
            }
            TokenKind::Ident(ref n) if n == "list" && self.is_punct_at(1, Punct::Lt) => {
                self.bump();
                self.bump();
                let elem = self.ty()?;
                self.expect_close_angle()?;
                TypeKind::List(Box::new(elem))
            }
            TokenKind::Ident(_) | TokenKind::Punct(Punct::Dot) => {
                let path = self.path()?;
                let args = if self.is_punct(Punct::Lt) {
                    self.bump();
                    self.type_args_rest()?
                } else {
                    Vec::new()
                };
                TypeKind::Named { path, args }
            }
            _ => return self.fail("a type"),
        };
        Ok(Type {
            kind,
            span: self.span_from(lo),
        })
    }

    /// `<8>`, `<(expr)>` or `<expr>` after `bit`, `int` or `varbit`. The
    /// width may be any expression (`bit<W>`, `bit<2 + 2>`), as in p4c
    /// since it allowed unparenthesised widths, except that a `>`, `>>` or
    /// `>=` outside brackets ends it: those need parentheses.
    fn opt_width(&mut self) -> PResult<Option<Expr>> {
        if !self.is_punct(Punct::Lt) {
            return Ok(None);
        }
        self.bump();
        if let TokenKind::Int(lit) = self.kind().clone()
            && self.is_punct_at(1, Punct::Gt)
        {
            // The usual `bit<8>`: a literal, read without nesting.
            let lo = self.start();
            self.bump();
            let w = Expr::new(ExprKind::Int(lit), self.span_from(lo));
            self.expect_close_angle()?;
            return Ok(Some(w));
        }
        if !self.starts_expr() {
            return self.fail("an integer width or `(expression)`");
        }
        let saved = std::mem::replace(&mut self.in_width, true);
        let w = self.expr();
        self.in_width = saved;
        let w = w?;
        self.expect_close_angle()?;
        Ok(Some(w))
    }

    /// Type arguments after the opening `<`, through the closing `>`.
    pub(crate) fn type_args_rest(&mut self) -> PResult<Vec<Type>> {
        let mut args = Vec::new();
        if self.is_punct(Punct::Gt) {
            self.bump();
            return Ok(args);
        }
        loop {
            args.push(self.ty()?);
            if self.eat_punct(Punct::Comma) {
                continue;
            }
            self.expect_close_angle()?;
            return Ok(args);
        }
    }

    /// `.name` or `name`.
    pub(crate) fn path(&mut self) -> PResult<Path> {
        let global = self.eat_punct(Punct::Dot);
        let name = self.name()?;
        Ok(Path { global, name })
    }

    /// An identifier (contextual keywords included).
    pub(crate) fn name(&mut self) -> PResult<Ident> {
        match self.kind().clone() {
            TokenKind::Ident(n) => {
                let span = self.bump().span;
                Ok(Ident::new(n, span))
            }
            _ => self.fail("a name"),
        }
    }

    /// A member name after `.`: any identifier or keyword.
    pub(crate) fn member_name(&mut self) -> PResult<Ident> {
        match self.kind().clone() {
            TokenKind::Ident(n) => {
                let span = self.bump().span;
                Ok(Ident::new(n, span))
            }
            TokenKind::Kw(k) => {
                let span = self.bump().span;
                Ok(Ident::new(k.as_str(), span))
            }
            _ => self.fail("a member name"),
        }
    }

    /// Optional `<T, U>` type parameters of a declaration.
    pub(crate) fn opt_type_params(&mut self) -> PResult<TypeParams> {
        let mut params = Vec::new();
        if !self.eat_punct(Punct::Lt) {
            return Ok(params);
        }
        loop {
            params.push(self.name()?);
            if self.eat_punct(Punct::Comma) {
                continue;
            }
            self.expect_close_angle()?;
            return Ok(params);
        }
    }

    /// `( params )`
    pub(crate) fn params(&mut self) -> PResult<Vec<Param>> {
        self.expect_punct(Punct::LParen)?;
        let mut params = Vec::new();
        if self.eat_punct(Punct::RParen) {
            return Ok(params);
        }
        loop {
            params.push(self.param()?);
            if self.eat_punct(Punct::Comma) {
                continue;
            }
            self.expect_punct(Punct::RParen)?;
            return Ok(params);
        }
    }

    fn param(&mut self) -> PResult<Param> {
        let lo = self.start();
        let annotations = self.annotations()?;
        let direction = if self.eat_kw(Kw::In) {
            Direction::In
        } else if self.eat_kw(Kw::Out) {
            Direction::Out
        } else if self.eat_kw(Kw::Inout) {
            Direction::InOut
        } else {
            Direction::None
        };
        let ty = self.ty()?;
        let name = self.name()?;
        let default = if self.eat_punct(Punct::Assign) {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(Param {
            annotations,
            direction,
            ty,
            name,
            default,
            span: self.span_from(lo),
        })
    }
}
