//! Directive lines: `#define`, `#include`, conditionals and the rest.

use super::lex::{self, Kind, Tok};
use super::macros::{self, parse_define};
use super::{Cond, FileCtx, Preprocessor, cond_expr};
use crate::diag::{Code, Diagnostic};

/// One directive line, split into its name and the rest.
struct Line<'t> {
    text: &'t str,
    /// The `#`.
    hash: usize,
    /// The end of the directive name.
    name_end: usize,
    /// The end of the line (its `\n`, not included).
    end: usize,
}

impl Line<'_> {
    /// The tokens after the directive name.
    fn tokens(&self) -> Vec<Tok> {
        lex::tokenize(self.text, self.name_end, self.end).0
    }

    /// The text after the directive name, trimmed.
    fn rest(&self) -> &str {
        self.text.get(self.name_end..self.end).unwrap_or("").trim()
    }
}

impl Preprocessor<'_> {
    /// Handles the directive `text[hash..end]`.
    pub(super) fn directive(&mut self, ctx: &mut FileCtx, text: &str, hash: usize, end: usize) {
        let b = &text.as_bytes()[..end];
        let start = lex::skip_space(b, hash + 1, false).pos;
        if start >= end {
            return; // The null directive.
        }
        let (kind, name_end) = lex::token_at(b, start);
        let name = text.get(start..name_end).unwrap_or("");
        let line = Line {
            text,
            hash,
            name_end,
            end,
        };
        let name_for_guard = if kind == Kind::Ident { name } else { "" };
        let may_open_guard = name_for_guard == "ifndef"
            && ctx.conds.is_empty()
            && matches!(ctx.guard, super::Guard::Start);
        let first = may_open_guard
            .then(|| line.tokens().into_iter().next())
            .flatten();
        ctx.saw_directive(name_for_guard, first.as_ref());
        let active = ctx.active();
        match (kind, name) {
            (Kind::Ident, "if") => self.dir_if(ctx, &line, IfKind::If),
            (Kind::Ident, "ifdef") => self.dir_if(ctx, &line, IfKind::Ifdef),
            (Kind::Ident, "ifndef") => self.dir_if(ctx, &line, IfKind::Ifndef),
            (Kind::Ident, "elif") => self.dir_elif(ctx, &line, IfKind::If),
            (Kind::Ident, "elifdef") => self.dir_elif(ctx, &line, IfKind::Ifdef),
            (Kind::Ident, "elifndef") => self.dir_elif(ctx, &line, IfKind::Ifndef),
            (Kind::Ident, "else") => self.dir_else(ctx, &line),
            (Kind::Ident, "endif") => self.dir_endif(ctx, &line),
            _ if !active => {}
            (Kind::Ident, "define") => self.dir_define(ctx, &line),
            (Kind::Ident, "undef") => self.dir_undef(ctx, &line),
            (Kind::Ident, "include") => self.dir_include(ctx, &line),
            (Kind::Ident, "error") => self.dir_error(ctx, &line),
            (Kind::Ident, "warning") => self.dir_warning(ctx, &line),
            (Kind::Ident, "pragma") => self.dir_pragma(ctx, &line),
            (Kind::Ident, "line") | (Kind::Number, _) => {}
            _ => {
                let span = ctx.span(start, name_end);
                let msg = format!("unknown preprocessor directive `#{name}`");
                self.error(Code::BadDirective, span, msg, "unknown directive");
            }
        }
    }

    fn dir_if(&mut self, ctx: &mut FileCtx, line: &Line, kind: IfKind) {
        let span = ctx.span(line.hash, line.name_end);
        let parent_active = ctx.active();
        let value = parent_active && self.condition(ctx, line, kind);
        ctx.conds.push(Cond {
            span,
            parent_active,
            taken: value || !parent_active,
            active: value,
            seen_else: false,
        });
    }

    fn dir_elif(&mut self, ctx: &mut FileCtx, line: &Line, kind: IfKind) {
        let Some(cond) = ctx.conds.last().copied() else {
            return self.unmatched(ctx, line, "`#elif` without `#if`");
        };
        if cond.seen_else {
            close_branch(ctx);
            return self.unmatched(ctx, line, "`#elif` after `#else`");
        }
        let value = !cond.taken && self.condition(ctx, line, kind);
        if let Some(c) = ctx.conds.last_mut() {
            c.active = value;
            c.taken |= value;
        }
    }

    fn dir_else(&mut self, ctx: &mut FileCtx, line: &Line) {
        let Some(c) = ctx.conds.last_mut() else {
            return self.unmatched(ctx, line, "`#else` without `#if`");
        };
        if c.seen_else {
            close_branch(ctx);
            return self.unmatched(ctx, line, "`#else` after `#else`");
        }
        c.seen_else = true;
        c.active = c.parent_active && !c.taken;
        c.taken = true;
    }

    fn dir_endif(&mut self, ctx: &mut FileCtx, line: &Line) {
        if ctx.conds.pop().is_none() {
            self.unmatched(ctx, line, "`#endif` without `#if`");
        }
    }

    fn unmatched(&mut self, ctx: &FileCtx, line: &Line, msg: &str) {
        let span = ctx.span(line.hash, line.name_end);
        self.error(Code::BadDirective, span, msg, "no matching `#if`");
    }

    /// Evaluates the condition of `#if`, `#ifdef` or `#ifndef` (or their
    /// `#elif` forms).
    fn condition(&mut self, ctx: &FileCtx, line: &Line, kind: IfKind) -> bool {
        let toks = line.tokens();
        match kind {
            IfKind::If => self.eval_if(ctx, line, toks),
            IfKind::Ifdef | IfKind::Ifndef => {
                let Some(name) = toks.first().filter(|t| t.kind == Kind::Ident) else {
                    let span = ctx.span(line.hash, line.end);
                    self.error(Code::BadDirective, span, "expected a macro name", "here");
                    return false;
                };
                let defined = self.is_defined(&name.text);
                defined == (kind == IfKind::Ifdef)
            }
        }
    }

    fn is_defined(&self, name: &str) -> bool {
        self.macros.contains_key(name) || macros::is_builtin(name)
    }

    /// Evaluates an `#if` expression: `defined`, then macro expansion, then
    /// C integer arithmetic with unknown identifiers as 0.
    fn eval_if(&mut self, ctx: &FileCtx, line: &Line, toks: Vec<Tok>) -> bool {
        let span = ctx.span(line.hash, line.end);
        if toks.is_empty() {
            self.error(Code::BadDirective, span, "`#if` with no expression", "here");
            return false;
        }
        self.begin_expansion(ctx, line.hash, line.end);
        let result = self
            .replace_defined(toks)
            .map(|toks| self.expand(toks, None, 0))
            .and_then(|toks| self.replace_defined(toks))
            .and_then(|toks| cond_expr::eval(&toks));
        match result {
            Ok(v) => v != 0,
            Err(msg) => {
                let msg = format!("invalid `#if` expression: {msg}");
                self.error(Code::BadDirective, span, msg, "in this directive");
                false
            }
        }
    }

    /// Replaces `defined X` and `defined(X)` with `1` or `0`.
    fn replace_defined(&self, toks: Vec<Tok>) -> Result<Vec<Tok>, String> {
        let mut out = Vec::with_capacity(toks.len());
        let mut it = toks.into_iter();
        while let Some(t) = it.next() {
            if t.kind != Kind::Ident || &*t.text != "defined" {
                out.push(t);
                continue;
            }
            let mut next = it.next();
            let paren = next.as_ref().is_some_and(|n| n.is_punct("("));
            if paren {
                next = it.next();
            }
            let name = next
                .filter(|n| n.kind == Kind::Ident)
                .ok_or("`defined` needs a macro name")?;
            if paren && !it.next().is_some_and(|n| n.is_punct(")")) {
                return Err("missing `)` after `defined(`".into());
            }
            let value = if self.is_defined(&name.text) {
                "1"
            } else {
                "0"
            };
            out.push(Tok::synthetic(Kind::Number, value, t.space));
        }
        Ok(out)
    }

    /// Defines the `-D` macros of the configuration.
    pub(super) fn command_line_defines(&mut self) {
        let config = self.config;
        for (name, value) in &config.defines {
            let line = format!("{name} {}", value.as_deref().unwrap_or("1"));
            let (toks, _) = lex::tokenize(&line, 0, line.len());
            match parse_define(&toks) {
                Ok((name, m)) => self.define(name, m),
                Err(e) => {
                    let msg = format!("invalid `-D {name}`: {}", e.msg);
                    self.diags.push(Diagnostic::error(Code::BadDirective, msg));
                }
            }
        }
    }

    fn dir_define(&mut self, ctx: &FileCtx, line: &Line) {
        match parse_define(&line.tokens()) {
            Ok((name, m)) => self.define(name, m),
            Err(e) => {
                let span = match e.at {
                    Some((lo, hi)) => ctx.span(lo as usize, hi as usize),
                    None => ctx.span(line.hash, line.end),
                };
                self.error(Code::BadDirective, span, e.msg, "in this `#define`");
            }
        }
    }

    fn dir_undef(&mut self, ctx: &FileCtx, line: &Line) {
        match line.tokens().first() {
            Some(t) if t.kind == Kind::Ident => {
                self.macros.remove(&*t.text);
            }
            _ => {
                let span = ctx.span(line.hash, line.end);
                self.error(Code::BadDirective, span, "expected a macro name", "here");
            }
        }
    }

    fn dir_error(&mut self, ctx: &FileCtx, line: &Line) {
        let span = ctx.span(line.hash, line.end);
        let msg = format!("#error {}", line.rest());
        self.error(Code::ErrorDirective, span, msg, "reached this `#error`");
    }

    fn dir_warning(&mut self, ctx: &FileCtx, line: &Line) {
        let span = ctx.span(line.hash, line.end);
        let msg = format!("#warning {}", line.rest());
        let d = Diagnostic::warning(Code::ErrorDirective, msg).at(span, "reached this `#warning`");
        self.diags.push(d);
    }

    fn dir_pragma(&mut self, ctx: &FileCtx, line: &Line) {
        let toks = line.tokens();
        if toks.len() == 1 && &*toks[0].text == "once" {
            self.once.insert(ctx.id);
        }
    }

    fn dir_include(&mut self, ctx: &mut FileCtx, line: &Line) {
        let Some((name, angled, at)) = self.header_name(ctx, line) else {
            let span = ctx.span(line.hash, line.end);
            let msg = "`#include` expects \"FILE\" or <FILE>";
            return self.error(Code::BadDirective, span, msg, "here");
        };
        let span = ctx.span(at.0, at.1);
        if self.depth >= super::MAX_INCLUDE_DEPTH {
            let msg = format!(
                "`#include` nested more than {} levels deep",
                super::MAX_INCLUDE_DEPTH
            );
            return self.error(Code::IncludeDepth, span, msg, "included here");
        }
        match self.resolve_include(ctx, &name, angled) {
            Ok(id) if self.once.contains(&id) || self.guarded(id) => {}
            Ok(id) => {
                let len = self.sources.file(id).text.len();
                if self.scanned + len > self.limits.scanned {
                    let msg = format!(
                        "the preprocessor would read more than {} of source in all \
                         (is a file without an include guard included over and over?)",
                        super::shown_size(self.limits.scanned)
                    );
                    return self.stop(span, msg, "preprocessing stopped here");
                }
                self.run_file(id)
            }
            Err((code, msg)) => self.error(code, span, msg, "included here"),
        }
    }

    /// The file name of an `#include`: the name, whether it was in `<>`,
    /// and where it is in the line (for a computed include, the whole rest).
    fn header_name(
        &mut self,
        ctx: &FileCtx,
        line: &Line,
    ) -> Option<(String, bool, (usize, usize))> {
        let b = &line.text.as_bytes()[..line.end];
        let p = lex::skip_space(b, line.name_end, false).pos;
        let close = match b.get(p) {
            Some(b'"') => b'"',
            Some(b'<') => b'>',
            _ => return self.computed_header(ctx, line, p),
        };
        let q = b[p + 1..].iter().position(|&c| c == close)? + p + 1;
        let name = line.text.get(p + 1..q)?.to_string();
        Some((name, close == b'>', (p, q + 1)))
    }

    /// `#include MACRO`: the macro must expand to `"file"` or `<file>`.
    fn computed_header(
        &mut self,
        ctx: &FileCtx,
        line: &Line,
        p: usize,
    ) -> Option<(String, bool, (usize, usize))> {
        let toks = line.tokens();
        if toks.is_empty() {
            return None;
        }
        self.begin_expansion(ctx, p, line.end);
        let spelled = lex::spell(&self.expand(toks, None, 0));
        let s = spelled.trim();
        let (name, angled) = if let Some(n) = s.strip_prefix('"').and_then(|s| s.strip_suffix('"'))
        {
            (n, false)
        } else {
            (s.strip_prefix('<')?.strip_suffix('>')?, true)
        };
        Some((name.trim().to_string(), angled, (p, line.end)))
    }
}

/// Which conditional directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IfKind {
    If,
    Ifdef,
    Ifndef,
}

/// After a misplaced `#else` or `#elif`, skips to the `#endif`.
fn close_branch(ctx: &mut FileCtx) {
    if let Some(c) = ctx.conds.last_mut() {
        c.active = false;
    }
}
