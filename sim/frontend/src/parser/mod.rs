//! The P4_16 parser: tokens to [`crate::ast`].
//!
//! Recursive descent with precedence climbing for expressions. Two P4
//! ambiguities are settled the way p4c settles them:
//! - `(T) e` is a cast only when `T` is a declared type name: the parser
//!   keeps the set of type names declared so far (P4 requires declaration
//!   before use), plus the type parameters in scope;
//! - a statement that starts with a name is tried first as a declaration
//!   (`T x;`, `T x = e;`) and otherwise read as an assignment or call;
//!   `f<T>(...)` is tried as a generic call before `<` is read as less-than.
//!   Both tries rewind the token cursor, which is cheap.

mod decl;
mod expr;
mod stmt;
mod types;

use crate::ast::Program;
use crate::lexer::{Kw, Punct, Token, TokenKind};
use crate::source::Span;
use std::collections::HashSet;

/// How deeply expressions and statements may nest (a chain `a + b + ...`
/// counts one level per operator). Far beyond any real program; it keeps
/// every later recursive pass within its stack.
pub const MAX_DEPTH: u32 = 500;

/// A syntax error at a span of the translation unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub message: String,
    pub span: Span,
}

/// Marker that an error was recorded; parsing of the construct stops.
#[derive(Debug)]
pub(crate) struct Failed;

pub(crate) type PResult<T> = Result<T, Failed>;

/// Parses a whole program. `text` is the translation unit the tokens came
/// from (used for `@pragma`, which runs to the end of its line).
///
/// The parser recurses up to [`MAX_DEPTH`] levels; in a debug build that
/// needs more than a test thread's 2 MiB of stack. [`crate::driver`] runs it
/// on a thread with a large stack.
pub fn parse_program(tokens: &[Token], text: &str) -> (Program, Vec<SyntaxError>) {
    let parsed = parse(tokens, text);
    (parsed.program, parsed.errors)
}

/// Everything the parser produces.
pub struct Parsed {
    pub program: Program,
    pub errors: Vec<SyntaxError>,
    /// The parenthesised bodies of unstructured annotations (from `(`
    /// through `)`) and the rest of each `@pragma` line: any tokens may
    /// appear there, so the driver does not report characters the lexer
    /// could not read inside them (p4c's lexer makes them
    /// UNEXPECTED_TOKENs, which only annotation bodies accept). The parser
    /// keeps those characters among the body's tokens, as identifiers.
    pub annotation_bodies: Vec<Span>,
}

/// Parses a whole program.
pub fn parse(tokens: &[Token], text: &str) -> Parsed {
    let mut p = Parser::new(tokens, text);
    let program = p.program();
    Parsed {
        program,
        errors: p.errors,
        annotation_bodies: p.annotation_bodies,
    }
}

/// Parses one expression (used for annotation bodies and by tests).
pub fn parse_expression(tokens: &[Token], text: &str) -> Result<crate::ast::Expr, SyntaxError> {
    let mut p = Parser::new(tokens, text);
    let result = p.expr();
    match result {
        Ok(e) if p.at_eof() => Ok(e),
        _ => {
            let span = p.peek().span;
            Err(p.errors.into_iter().next().unwrap_or(SyntaxError {
                message: "expected one expression".into(),
                span,
            }))
        }
    }
}

pub(crate) struct Parser<'a> {
    toks: &'a [Token],
    text: &'a str,
    pos: usize,
    pub(crate) errors: Vec<SyntaxError>,
    type_names: HashSet<String>,
    type_params: Vec<String>,
    /// Declarations split off another one, emitted before it: the struct of
    /// `typedef struct S { ... } T;`.
    pub(crate) pending: Vec<crate::ast::Decl>,
    pub(crate) annotation_bodies: Vec<Span>,
    /// Current nesting of expressions and statements (see [`MAX_DEPTH`]).
    pub(crate) depth: u32,
    /// Inside the width of `bit<...>`, `int<...>` or `varbit<...>` (outside
    /// any brackets): `>` closes the type, so it is not an operator there
    /// (nor `>>` or `>=`); p4c's grammar asks for parentheses around those.
    pub(crate) in_width: bool,
    eof: Token,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(toks: &'a [Token], text: &'a str) -> Parser<'a> {
        let end = toks.last().map_or(0, |t| t.span.hi);
        Parser {
            toks,
            text,
            pos: 0,
            errors: Vec::new(),
            type_names: HashSet::new(),
            type_params: Vec::new(),
            pending: Vec::new(),
            annotation_bodies: Vec::new(),
            depth: 0,
            in_width: false,
            eof: Token {
                kind: TokenKind::Eof,
                span: Span::new(end, end),
                space_before: true,
            },
        }
    }

    // ------------------------------------------------------------ cursor

    pub(crate) fn peek(&self) -> &Token {
        self.toks.get(self.pos).unwrap_or(&self.eof)
    }

    pub(crate) fn peek_at(&self, n: usize) -> &Token {
        self.toks.get(self.pos + n).unwrap_or(&self.eof)
    }

    pub(crate) fn kind(&self) -> &TokenKind {
        &self.peek().kind
    }

    pub(crate) fn kind_at(&self, n: usize) -> &TokenKind {
        &self.peek_at(n).kind
    }

    pub(crate) fn at_eof(&self) -> bool {
        matches!(self.kind(), TokenKind::Eof)
    }

    pub(crate) fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    /// Span of the previous token.
    pub(crate) fn prev_span(&self) -> Span {
        if self.pos == 0 {
            return Span::DUMMY;
        }
        self.toks
            .get(self.pos - 1)
            .map_or(self.eof.span, |t| t.span)
    }

    pub(crate) fn start(&self) -> u32 {
        self.peek().span.lo
    }

    /// Span from `lo` to the end of the previous token.
    pub(crate) fn span_from(&self, lo: u32) -> Span {
        Span::new(lo, self.prev_span().hi.max(lo))
    }

    pub(crate) fn is_punct(&self, p: Punct) -> bool {
        matches!(self.kind(), TokenKind::Punct(q) if *q == p)
    }

    pub(crate) fn is_punct_at(&self, n: usize, p: Punct) -> bool {
        matches!(self.kind_at(n), TokenKind::Punct(q) if *q == p)
    }

    pub(crate) fn is_kw(&self, k: Kw) -> bool {
        matches!(self.kind(), TokenKind::Kw(q) if *q == k)
    }

    /// True if the next token is the identifier `word` (a contextual keyword).
    pub(crate) fn is_word(&self, word: &str) -> bool {
        matches!(self.kind(), TokenKind::Ident(n) if n == word)
    }

    pub(crate) fn eat_punct(&mut self, p: Punct) -> bool {
        if self.is_punct(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn eat_kw(&mut self, k: Kw) -> bool {
        if self.is_kw(k) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn expect_punct(&mut self, p: Punct) -> PResult<Span> {
        if self.is_punct(p) {
            Ok(self.bump().span)
        } else {
            self.fail(&format!("`{}`", p.as_str()))
        }
    }

    pub(crate) fn expect_kw(&mut self, k: Kw) -> PResult<Span> {
        if self.is_kw(k) {
            Ok(self.bump().span)
        } else {
            self.fail(&format!("`{}`", k.as_str()))
        }
    }

    pub(crate) fn expect_word(&mut self, word: &str) -> PResult<Span> {
        if self.is_word(word) {
            Ok(self.bump().span)
        } else {
            self.fail(&format!("`{word}`"))
        }
    }

    /// Consumes a `>` closing a type argument list. A `>>`, `>=` or `>>=`
    /// never appears as one token (the lexer splits `>`), except `>=`.
    pub(crate) fn expect_close_angle(&mut self) -> PResult<()> {
        self.expect_punct(Punct::Gt).map(|_| ())
    }

    /// Records "expected X, found Y" at the current token.
    pub(crate) fn fail<T>(&mut self, expected: &str) -> PResult<T> {
        let t = self.peek().clone();
        self.error(
            t.span,
            format!("expected {expected}, found {}", t.kind.describe()),
        );
        Err(Failed)
    }

    pub(crate) fn error(&mut self, span: Span, message: String) {
        self.errors.push(SyntaxError { message, span });
    }

    /// Runs `f` speculatively: on failure the cursor and the error list are
    /// restored and `None` is returned.
    pub(crate) fn attempt<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> Option<T> {
        let (pos, nerr) = (self.pos, self.errors.len());
        match f(self) {
            Ok(v) => Some(v),
            Err(Failed) => {
                self.pos = pos;
                self.errors.truncate(nerr);
                None
            }
        }
    }

    /// True if there is a line break between the previous token and the next.
    pub(crate) fn newline_before(&self) -> bool {
        let lo = self.prev_span().hi as usize;
        let hi = self.peek().span.lo as usize;
        self.text.get(lo..hi).is_some_and(|s| s.contains('\n'))
    }

    // ------------------------------------------------------------ nesting

    /// One level deeper; fails past [`MAX_DEPTH`].
    pub(crate) fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let span = self.peek().span;
            self.error(
                span,
                format!("expressions or statements nested more than {MAX_DEPTH} levels deep"),
            );
            return Err(Failed);
        }
        Ok(())
    }

    /// Runs `f` one nesting level deeper.
    pub(crate) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        let depth = self.depth;
        let result = self.enter().and_then(|()| f(self));
        self.depth = depth;
        result
    }

    /// Runs `f` with `>` an operator again (inside brackets nested in a
    /// width, see [`Parser::in_width`]).
    pub(crate) fn bracketed<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::replace(&mut self.in_width, false);
        let r = f(self);
        self.in_width = saved;
        r
    }

    // ------------------------------------------------------------ type names

    pub(crate) fn declare_type(&mut self, name: &str) {
        self.type_names.insert(name.to_string());
    }

    pub(crate) fn is_type_name(&self, name: &str) -> bool {
        self.type_names.contains(name) || self.type_params.iter().any(|p| p == name)
    }

    /// Runs `f` with `params` in scope as type names.
    pub(crate) fn with_type_params<T>(
        &mut self,
        params: &[crate::ast::Ident],
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let depth = self.type_params.len();
        self.type_params
            .extend(params.iter().map(|p| p.name.clone()));
        let r = f(self);
        self.type_params.truncate(depth);
        r
    }

    // ------------------------------------------------------------ recovery

    /// After a failed declaration that began at token `start`: skips from
    /// there past the declaration's end, a `;` outside brackets or the `}`
    /// that closes its body, so that the next declaration can be parsed.
    pub(crate) fn recover_decl(&mut self, start: usize) {
        self.pos = start;
        let mut depth = 0usize;
        loop {
            match self.kind() {
                TokenKind::Eof => return,
                TokenKind::Punct(Punct::LBrace | Punct::LParen | Punct::LBracket) => depth += 1,
                TokenKind::Punct(Punct::RParen | Punct::RBracket) => {
                    depth = depth.saturating_sub(1)
                }
                TokenKind::Punct(Punct::RBrace) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.bump();
                        self.eat_punct(Punct::Semi);
                        return;
                    }
                }
                TokenKind::Punct(Punct::Semi) if depth == 0 => {
                    self.bump();
                    return;
                }
                _ => {}
            }
            self.bump();
        }
    }

    pub(crate) fn cursor(&self) -> usize {
        self.pos
    }
}

#[cfg(test)]
mod tests;
