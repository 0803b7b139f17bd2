//! Expressions and keyset expressions.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Kw, Punct, TokenKind};

impl Parser<'_> {
    /// A full expression, including `?:`.
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.nested(|p| p.expr_inner())
    }

    fn expr_inner(&mut self) -> PResult<Expr> {
        let lo = self.start();
        let cond = self.binary(1)?;
        if !self.eat_punct(Punct::Question) {
            return Ok(cond);
        }
        let then = self.expr()?;
        self.expect_punct(Punct::Colon)?;
        let otherwise = self.expr()?;
        Ok(Expr::new(
            ExprKind::Ternary(Box::new(cond), Box::new(then), Box::new(otherwise)),
            self.span_from(lo),
        ))
    }

    /// The binary operator ahead and how many tokens it takes.
    fn peek_binop(&self) -> Option<(BinOp, usize)> {
        let TokenKind::Punct(p) = self.kind() else {
            return None;
        };
        if self.in_width && matches!(p, Punct::Gt | Punct::Ge) {
            // `bit<W + 1>`: this `>` closes the type.
            return None;
        }
        let op = match p {
            Punct::Star => BinOp::Mul,
            Punct::Slash => BinOp::Div,
            Punct::Percent => BinOp::Mod,
            Punct::Plus => BinOp::Add,
            Punct::Minus => BinOp::Sub,
            Punct::SatPlus => BinOp::SatAdd,
            Punct::SatMinus => BinOp::SatSub,
            Punct::Shl => BinOp::Shl,
            Punct::Gt => {
                let next = self.peek_at(1);
                if matches!(next.kind, TokenKind::Punct(Punct::Gt)) && !next.space_before {
                    return Some((BinOp::Shr, 2));
                }
                if matches!(next.kind, TokenKind::Punct(Punct::Ge)) && !next.space_before {
                    // `>>=` split as `>` `>=`: a shift-assign, not an operator here.
                    return None;
                }
                BinOp::Gt
            }
            Punct::Lt => BinOp::Lt,
            Punct::Le => BinOp::Le,
            Punct::Ge => BinOp::Ge,
            Punct::Eq => BinOp::Eq,
            Punct::Ne => BinOp::Ne,
            Punct::Amp => BinOp::BitAnd,
            Punct::Caret => BinOp::BitXor,
            Punct::Pipe => BinOp::BitOr,
            Punct::PlusPlus => BinOp::Concat,
            Punct::AndAnd => BinOp::And,
            Punct::OrOr => BinOp::Or,
            _ => return None,
        };
        Some((op, 1))
    }

    /// Precedence climbing over left-associative binary operators.
    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let depth = self.depth;
        let result = self.binary_links(min_prec);
        self.depth = depth;
        result
    }

    fn binary_links(&mut self, min_prec: u8) -> PResult<Expr> {
        let lo = self.start();
        let mut lhs = self.unary()?;
        while let Some((op, ntoks)) = self.peek_binop() {
            let prec = op.precedence();
            if prec < min_prec {
                break;
            }
            for _ in 0..ntoks {
                self.bump();
            }
            // `a + b + c ...` nests to the left: each link is one level.
            self.enter()?;
            let rhs = self.binary(prec + 1)?;
            lhs = Expr::new(
                ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                self.span_from(lo),
            );
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let lo = self.start();
        let op = match self.kind() {
            TokenKind::Punct(Punct::Not) => Some(UnOp::Not),
            TokenKind::Punct(Punct::Tilde) => Some(UnOp::BitNot),
            TokenKind::Punct(Punct::Minus) => Some(UnOp::Neg),
            TokenKind::Punct(Punct::Plus) => Some(UnOp::Plus),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let e = self.nested(|p| p.unary())?;
            return Ok(Expr::new(
                ExprKind::Unary(op, Box::new(e)),
                self.span_from(lo),
            ));
        }
        if self.is_punct(Punct::LParen)
            && let Some(ty) = self.attempt(|p| p.cast_prefix())
        {
            let e = self.nested(|p| p.unary())?;
            return Ok(Expr::new(
                ExprKind::Cast(ty, Box::new(e)),
                self.span_from(lo),
            ));
        }
        let primary = self.primary()?;
        self.postfix(primary, lo)
    }

    /// `( type )` when it is a cast: the type starts with a base-type
    /// keyword or a declared type name, and is followed by `)` and then by
    /// something that can start an expression.
    fn cast_prefix(&mut self) -> PResult<Type> {
        self.expect_punct(Punct::LParen)?;
        let is_type = match self.kind() {
            TokenKind::Kw(Kw::Bit | Kw::Int | Kw::Varbit | Kw::Bool | Kw::String | Kw::Tuple) => {
                true
            }
            TokenKind::Kw(Kw::Error) => !self.is_punct_at(1, Punct::Dot),
            TokenKind::Ident(n) if n == "list" => self.is_punct_at(1, Punct::Lt),
            TokenKind::Ident(n) => self.is_type_name(n),
            TokenKind::Punct(Punct::Dot) => {
                matches!(self.kind_at(1), TokenKind::Ident(n) if self.is_type_name(n))
            }
            _ => false,
        };
        if !is_type {
            return self.fail("a type");
        }
        let ty = self.ty()?;
        self.expect_punct(Punct::RParen)?;
        if !self.starts_expr() {
            return self.fail("an expression after a cast");
        }
        Ok(ty)
    }

    pub(crate) fn starts_expr(&self) -> bool {
        match self.kind() {
            TokenKind::Ident(_) | TokenKind::Int(_) | TokenKind::Str(_) | TokenKind::DontCare => {
                true
            }
            TokenKind::Kw(k) => matches!(k, Kw::True | Kw::False | Kw::This | Kw::Error),
            TokenKind::Punct(p) => matches!(
                p,
                Punct::LParen
                    | Punct::LBrace
                    | Punct::InvalidHeader
                    | Punct::Not
                    | Punct::Tilde
                    | Punct::Minus
                    | Punct::Plus
                    | Punct::Dot
            ),
            TokenKind::Eof => false,
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let lo = self.start();
        let kind = match self.kind().clone() {
            TokenKind::Int(lit) => {
                self.bump();
                ExprKind::Int(lit)
            }
            TokenKind::Str(s) => {
                self.bump();
                ExprKind::Str(s)
            }
            TokenKind::Kw(Kw::True) => {
                self.bump();
                ExprKind::Bool(true)
            }
            TokenKind::Kw(Kw::False) => {
                self.bump();
                ExprKind::Bool(false)
            }
            TokenKind::Kw(k @ (Kw::This | Kw::Error)) => {
                let span = self.bump().span;
                ExprKind::Name(Path {
                    global: false,
                    name: Ident::new(k.as_str(), span),
                })
            }
            TokenKind::DontCare => {
                self.bump();
                ExprKind::DontCare
            }
            TokenKind::Ident(_) | TokenKind::Punct(Punct::Dot) => {
                if self.is_punct(Punct::Dot) && self.is_punct_at(1, Punct::Dot) {
                    return self.fail("an expression");
                }
                ExprKind::Name(self.path()?)
            }
            TokenKind::Punct(Punct::Dots) => {
                self.bump();
                ExprKind::Dots
            }
            TokenKind::Punct(Punct::InvalidHeader) => {
                self.bump();
                ExprKind::InvalidHeader
            }
            TokenKind::Punct(Punct::LParen) => {
                self.bump();
                let e = self.bracketed(|p| p.expr())?;
                self.expect_punct(Punct::RParen)?;
                return Ok(Expr::new(e.kind, self.span_from(lo)));
            }
            TokenKind::Punct(Punct::LBrace) => self.bracketed(|p| p.brace_init())?,
            _ => return self.fail("an expression"),
        };
        Ok(Expr::new(kind, self.span_from(lo)))
    }

    /// `{ e, ... }` or `{ name = e, ... }`.
    fn brace_init(&mut self) -> PResult<ExprKind> {
        self.expect_punct(Punct::LBrace)?;
        if self.eat_punct(Punct::RBrace) {
            return Ok(ExprKind::List(Vec::new()));
        }
        let is_struct =
            matches!(self.kind(), TokenKind::Ident(_)) && self.is_punct_at(1, Punct::Assign);
        if is_struct {
            let mut fields = Vec::new();
            let mut dots = false;
            loop {
                if self.eat_punct(Punct::Dots) {
                    dots = true;
                    self.eat_punct(Punct::Comma);
                    self.expect_punct(Punct::RBrace)?;
                    break;
                }
                let name = self.name()?;
                self.expect_punct(Punct::Assign)?;
                let value = self.expr()?;
                fields.push((name, value));
                if self.eat_punct(Punct::Comma) {
                    if self.eat_punct(Punct::RBrace) {
                        break;
                    }
                    continue;
                }
                self.expect_punct(Punct::RBrace)?;
                break;
            }
            return Ok(ExprKind::StructInit { fields, dots });
        }
        let mut items = Vec::new();
        loop {
            items.push(self.expr()?);
            if self.eat_punct(Punct::Comma) {
                if self.eat_punct(Punct::RBrace) {
                    break;
                }
                continue;
            }
            self.expect_punct(Punct::RBrace)?;
            break;
        }
        Ok(ExprKind::List(items))
    }

    fn postfix(&mut self, mut e: Expr, lo: u32) -> PResult<Expr> {
        // `a.b[0].c ...` nests to the left: each link is one level (the
        // enclosing `binary` restores the depth).
        loop {
            match self.kind() {
                TokenKind::Punct(Punct::Dot) => {
                    self.enter()?;
                    self.bump();
                    let m = self.member_name()?;
                    e = Expr::new(ExprKind::Member(Box::new(e), m), self.span_from(lo));
                }
                TokenKind::Punct(Punct::LBracket) => {
                    self.enter()?;
                    self.bump();
                    let hi = self.bracketed(|p| p.expr())?;
                    let part = if self.eat_punct(Punct::PlusColon) {
                        Some(true)
                    } else if self.eat_punct(Punct::MinusColon) {
                        Some(false)
                    } else {
                        None
                    };
                    if let Some(up) = part {
                        // `e[start +: width]`, `e[start -: width]`.
                        let width = self.bracketed(|p| p.expr())?;
                        self.expect_punct(Punct::RBracket)?;
                        e = Expr::new(
                            ExprKind::PartSelect {
                                base: Box::new(e),
                                start: Box::new(hi),
                                up,
                                width: Box::new(width),
                            },
                            self.span_from(lo),
                        );
                    } else if self.eat_punct(Punct::Colon) {
                        let low = self.bracketed(|p| p.expr())?;
                        self.expect_punct(Punct::RBracket)?;
                        e = Expr::new(
                            ExprKind::Slice(Box::new(e), Box::new(hi), Box::new(low)),
                            self.span_from(lo),
                        );
                    } else {
                        self.expect_punct(Punct::RBracket)?;
                        e = Expr::new(
                            ExprKind::Index(Box::new(e), Box::new(hi)),
                            self.span_from(lo),
                        );
                    }
                }
                TokenKind::Punct(Punct::LParen) => {
                    self.enter()?;
                    let args = self.args()?;
                    e = Expr::new(
                        ExprKind::Call {
                            callee: Box::new(e),
                            type_args: Vec::new(),
                            args,
                        },
                        self.span_from(lo),
                    );
                }
                TokenKind::Punct(Punct::Lt)
                    if matches!(e.kind, ExprKind::Name(_) | ExprKind::Member(..)) =>
                {
                    let Some(type_args) = self.attempt(|p| {
                        p.bump();
                        let targs = p.type_args_rest()?;
                        if !p.is_punct(Punct::LParen) {
                            return p.fail("`(`");
                        }
                        Ok(targs)
                    }) else {
                        return Ok(e);
                    };
                    self.enter()?;
                    let args = self.args()?;
                    e = Expr::new(
                        ExprKind::Call {
                            callee: Box::new(e),
                            type_args,
                            args,
                        },
                        self.span_from(lo),
                    );
                }
                _ => return Ok(e),
            }
        }
    }

    /// `( args )`, arguments positional or named, `_` allowed.
    pub(crate) fn args(&mut self) -> PResult<Vec<Arg>> {
        self.bracketed(|p| p.args_inner())
    }

    fn args_inner(&mut self) -> PResult<Vec<Arg>> {
        self.expect_punct(Punct::LParen)?;
        let mut args = Vec::new();
        if self.eat_punct(Punct::RParen) {
            return Ok(args);
        }
        loop {
            let name = if matches!(self.kind(), TokenKind::Ident(_))
                && self.is_punct_at(1, Punct::Assign)
            {
                let n = self.name()?;
                self.bump();
                Some(n)
            } else {
                None
            };
            let value = self.expr()?;
            args.push(Arg { name, value });
            if self.eat_punct(Punct::Comma) {
                continue;
            }
            self.expect_punct(Punct::RParen)?;
            return Ok(args);
        }
    }

    /// A keyset in a `select` case or table entry: a tuple `(k1, k2)` or one
    /// simple keyset.
    pub(crate) fn keyset(&mut self) -> PResult<Expr> {
        if self.is_punct(Punct::LParen)
            && let Some(e) = self.attempt(|p| p.keyset_tuple())
        {
            return Ok(e);
        }
        self.simple_keyset()
    }

    fn keyset_tuple(&mut self) -> PResult<Expr> {
        let lo = self.start();
        self.expect_punct(Punct::LParen)?;
        let mut items = vec![self.simple_keyset()?];
        while self.eat_punct(Punct::Comma) {
            items.push(self.simple_keyset()?);
        }
        self.expect_punct(Punct::RParen)?;
        if !self.is_punct(Punct::Colon) {
            return self.fail("`:`");
        }
        if items.len() == 1 {
            let only = items.pop().expect("one item");
            return Ok(Expr::new(only.kind, self.span_from(lo)));
        }
        Ok(Expr::new(ExprKind::KeysetTuple(items), self.span_from(lo)))
    }

    /// `default`, `_`, `e`, `e &&& m`, or `lo .. hi`.
    pub(crate) fn simple_keyset(&mut self) -> PResult<Expr> {
        let lo = self.start();
        if self.eat_kw(Kw::Default) {
            return Ok(Expr::new(ExprKind::Default, self.span_from(lo)));
        }
        let e = self.expr()?;
        if self.eat_punct(Punct::Mask) {
            let m = self.expr()?;
            return Ok(Expr::new(
                ExprKind::Mask(Box::new(e), Box::new(m)),
                self.span_from(lo),
            ));
        }
        if self.eat_punct(Punct::DotDot) {
            let h = self.expr()?;
            return Ok(Expr::new(
                ExprKind::Range(Box::new(e), Box::new(h)),
                self.span_from(lo),
            ));
        }
        Ok(e)
    }
}
