//! The pretty-printer: an [`ast`](crate::ast) back to P4_16 source text.
//!
//! Output is formatted the way `janus p4 fmt` shows it: four-space
//! indentation, one statement per line, blank lines between declarations
//! (runs of one-line declarations of the same kind, such as constants or
//! typedefs, stay together). Comments and preprocessor directives are not in
//! the tree and so are not printed.
//!
//! Printing is faithful: lexing and parsing the output gives back the same
//! tree once positions are ignored (see [`strip_spans`]). The parser drops
//! parentheses, so the printer puts back exactly those that precedence,
//! associativity and the grammar's ambiguities need:
//! - binary operators are left-associative, `?:` is right-associative, unary
//!   operators and casts bind tighter than any binary operator, and
//!   member/index/slice/call apply only to primary expressions;
//! - `a < b > (c)` would read as a generic call `a<b>(c)`, so a `<`
//!   comparison left of a `>` (or in a list before one) is parenthesised;
//! - `- -x` and `+ +x` are printed `-(-x)` and `+(+x)` (`++` is an operator);
//! - entry annotations are printed after the action, where `@a (1, 2)`
//!   cannot be read as an annotation body.
//!
//! Long calls, lists and parameter lists are broken one item a line.
//!
//! A few trees the parser never builds have no faithful text; they are
//! printed as the nearest equivalent program: [`ExprKind::Construct`] as
//! `Type(args)`, an `if` whose then-branch ends in an `else`-less `if` gets
//! braces, and a compound assignment with an operator that has no `op=` form
//! is printed as `x = x op (e)`. Others print as written but parse back
//! differently: a one-item [`ExprKind::KeysetTuple`], `{...}` with no fields,
//! and annotations on the body blocks of actions, functions, `apply` and
//! switch cases (which are not printed).

use crate::ast::*;
use crate::lexer::{self, IntLit, Token, TokenKind};
use std::fmt::Write as _;

const INDENT: &str = "    ";
/// Lines longer than this get their parameter lists, call arguments and
/// list items broken one a line.
const MAX_WIDTH: usize = 100;

// ------------------------------------------------------------------ public API

/// A whole program, ending with a newline.
pub fn program(p: &Program) -> String {
    let mut pr = Printer::default();
    pr.decls(&p.decls);
    pr.out
}

/// One declaration, at indentation level zero, ending with a newline.
pub fn decl(d: &Decl) -> String {
    let mut pr = Printer::default();
    pr.decl(d);
    pr.out
}

/// One statement, at indentation level zero, ending with a newline.
pub fn stmt(s: &Stmt) -> String {
    let mut pr = Printer::default();
    pr.stmt(s);
    pr.out
}

/// One expression, without enclosing parentheses. Keyset forms (`a &&& b`,
/// `a .. b`, `default`, `(a, b)`) print as they are written in a `select`.
pub fn expr(e: &Expr) -> String {
    expr_at(e, L_KEYSET)
}

/// A type reference.
pub fn ty(t: &Type) -> String {
    match &t.kind {
        TypeKind::Bool => "bool".into(),
        TypeKind::Error => "error".into(),
        TypeKind::String => "string".into(),
        TypeKind::Void => "void".into(),
        TypeKind::MatchKind => "match_kind".into(),
        TypeKind::InfInt => "int".into(),
        TypeKind::Bit(w) => format!("bit<{}>", width(w)),
        TypeKind::Int(w) => format!("int<{}>", width(w)),
        TypeKind::Varbit(w) => format!("varbit<{}>", width(w)),
        TypeKind::Named { path: p, args } => format!("{}{}", path(p), type_args(args)),
        TypeKind::Stack { elem, size } => format!("{}[{}]", ty(elem), expr_at(size, L_TERNARY)),
        TypeKind::Tuple(args) => format!("tuple<{}>", types(args)),
        TypeKind::List(elem) => format!("list<{}>", ty(elem)),
        TypeKind::DontCare => "_".into(),
    }
}

/// One annotation. A `@pragma` runs to the end of its line, so whatever
/// follows it must start on a new line.
pub fn annotation(a: &Annotation) -> String {
    let name = &a.name.name;
    match &a.body {
        AnnotationBody::Empty => format!("@{name}"),
        AnnotationBody::Unstructured { tokens, .. } if is_pragma(a) => {
            let body = tokens_text(tokens);
            if body.is_empty() {
                "@pragma".into()
            } else {
                format!("@pragma {body}")
            }
        }
        AnnotationBody::Unstructured { tokens, .. } => format!("@{name}({})", tokens_text(tokens)),
        AnnotationBody::ExprList(list) => format!("@{name}[{}]", expr_list(list, L_TERNARY)),
        AnnotationBody::KeyValues(kvs) => {
            let kvs: Vec<String> = kvs
                .iter()
                .map(|(k, v)| format!("{} = {}", k.name, expr_at(v, L_TERNARY)))
                .collect();
            format!("@{name}[{}]", kvs.join(", "))
        }
    }
}

/// The source text of one token.
pub fn token(t: &TokenKind) -> String {
    match t {
        TokenKind::Ident(n) => n.clone(),
        TokenKind::Kw(k) => k.as_str().into(),
        TokenKind::Int(l) => int_lit(l),
        TokenKind::Str(s) => string_lit(s),
        TokenKind::Punct(p) => p.as_str().into(),
        TokenKind::DontCare => "_".into(),
        TokenKind::Eof => String::new(),
    }
}

/// An integer literal with its width (`8w255`, `4s3`) in the base it was
/// written in (`0x`, `0o`, `0b`, or decimal).
pub fn int_lit(l: &IntLit) -> String {
    let mut s = String::new();
    if let Some((w, signed)) = l.width {
        let _ = write!(s, "{w}{}", if signed { 's' } else { 'w' });
    }
    match l.base {
        16 => {
            s.push_str("0x");
            s.push_str(&l.value.to_str_radix(16).to_uppercase());
        }
        8 => {
            s.push_str("0o");
            s.push_str(&l.value.to_str_radix(8));
        }
        2 => {
            s.push_str("0b");
            s.push_str(&l.value.to_str_radix(2));
        }
        _ => s.push_str(&l.value.to_str_radix(10)),
    }
    s
}

/// An integer literal as p4c prints a constant (`Util::toString`): the
/// width when it has one, the base's prefix, lower-case hex digits.
pub fn int_lit_p4c(l: &IntLit) -> String {
    let s = int_lit(l);
    match l.base {
        16 => s.to_lowercase(),
        _ => s,
    }
}

/// A string literal, quoted and escaped.
pub fn string_lit(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

// ----------------------------------------------------------------- expressions

/// Printing levels: an expression printed where at least level `min` is
/// needed gets parentheses if its own level is lower.
const L_KEYSET: u8 = 0; // `a &&& b`, `a .. b`
const L_TERNARY: u8 = 1; // `c ? a : b`; binary operators are 1 + precedence (2..=11)
const L_UNARY: u8 = 12; // `-e`, `(T)e`
const L_POSTFIX: u8 = 13; // primaries and `e.f`, `e[i]`, `e[h:l]`, `e(args)`

fn level(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Mask(..) | ExprKind::Range(..) => L_KEYSET,
        ExprKind::Ternary(..) => L_TERNARY,
        ExprKind::Binary(op, ..) => bin_level(*op),
        ExprKind::Unary(..) | ExprKind::Cast(..) => L_UNARY,
        _ => L_POSTFIX,
    }
}

fn bin_level(op: BinOp) -> u8 {
    1 + op.precedence()
}

/// `e` where level `min` is required.
fn expr_at(e: &Expr, min: u8) -> String {
    let s = expr_bare(e);
    if level(e) < min { format!("({s})") } else { s }
}

fn expr_bare(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(l) => int_lit(l),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Str(s) => string_lit(s),
        ExprKind::Name(p) => path(p),
        ExprKind::Member(base, m) => format!("{}.{}", expr_at(base, L_POSTFIX), m.name),
        ExprKind::Index(base, i) => {
            format!("{}[{}]", expr_at(base, L_POSTFIX), expr_at(i, L_TERNARY))
        }
        ExprKind::Slice(base, hi, lo) => format!(
            "{}[{}:{}]",
            expr_at(base, L_POSTFIX),
            expr_at(hi, L_TERNARY),
            expr_at(lo, L_TERNARY)
        ),
        ExprKind::PartSelect {
            base,
            start,
            up,
            width,
        } => format!(
            "{}[{} {} {}]",
            expr_at(base, L_POSTFIX),
            expr_at(start, L_TERNARY),
            if *up { "+:" } else { "-:" },
            expr_at(width, L_TERNARY)
        ),
        ExprKind::Call {
            callee,
            type_args: targs,
            args: a,
        } => format!(
            "{}{}{}",
            expr_at(callee, L_POSTFIX),
            type_args(targs),
            args(a)
        ),
        ExprKind::Construct { ty: t, args: a } => format!("{}{}", ty(t), args(a)),
        ExprKind::Unary(op, x) => {
            let sym = match op {
                UnOp::Not => "!",
                UnOp::BitNot => "~",
                UnOp::Neg => "-",
                UnOp::Plus => "+",
            };
            let inner = expr_at(x, L_UNARY);
            if matches!(op, UnOp::Neg | UnOp::Plus) && inner.starts_with(sym) {
                format!("{sym}({inner})")
            } else {
                format!("{sym}{inner}")
            }
        }
        ExprKind::Binary(op, l, r) => {
            let lvl = bin_level(*op);
            // `a < b > (c)` would parse as the generic call `a<b>(c)`.
            let l = if level(l) < lvl || (*op == BinOp::Gt && bare_lt(l)) {
                format!("({})", expr_bare(l))
            } else {
                expr_bare(l)
            };
            format!("{l} {} {}", op.as_str(), expr_at(r, lvl + 1))
        }
        ExprKind::Ternary(c, t, f) => format!(
            "{} ? {} : {}",
            expr_at(c, L_TERNARY + 1),
            expr_at(t, L_TERNARY),
            expr_at(f, L_TERNARY)
        ),
        ExprKind::Cast(t, x) => format!("({}){}", ty(t), expr_at(x, L_UNARY)),
        ExprKind::List(items) if items.is_empty() => "{}".into(),
        ExprKind::List(items) => format!("{{ {} }}", expr_list(items, L_TERNARY)),
        ExprKind::StructInit { fields, dots } => {
            let mut parts: Vec<String> = fields
                .iter()
                .map(|(n, v)| format!("{} = {}", n.name, expr_at(v, L_TERNARY)))
                .collect();
            if *dots {
                parts.push("...".into());
            }
            if parts.is_empty() {
                "{}".into()
            } else {
                format!("{{ {} }}", parts.join(", "))
            }
        }
        ExprKind::Dots => "...".into(),
        ExprKind::Mask(a, b) => {
            format!("{} &&& {}", expr_at(a, L_TERNARY), expr_at(b, L_TERNARY))
        }
        ExprKind::Range(a, b) => format!("{} .. {}", expr_at(a, L_TERNARY), expr_at(b, L_TERNARY)),
        ExprKind::Default => "default".into(),
        ExprKind::InvalidHeader => "{#}".into(),
        ExprKind::DontCare => "_".into(),
        ExprKind::KeysetTuple(items) => format!("({})", expr_list(items, L_KEYSET)),
    }
}

/// True if `e`, printed bare, has a `<` comparison outside any brackets:
/// the parser would try to read it as the start of type arguments.
fn bare_lt(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(op, l, r) => {
            let lvl = bin_level(*op);
            *op == BinOp::Lt
                || (*op != BinOp::Gt && level(l) >= lvl && bare_lt(l))
                || (level(r) > lvl && bare_lt(r))
        }
        ExprKind::Ternary(c, t, f) => {
            (level(c) > L_TERNARY && bare_lt(c))
                || (level(t) >= L_TERNARY && bare_lt(t))
                || (level(f) >= L_TERNARY && bare_lt(f))
        }
        ExprKind::Mask(a, b) | ExprKind::Range(a, b) => {
            (level(a) >= L_TERNARY && bare_lt(a)) || (level(b) >= L_TERNARY && bare_lt(b))
        }
        _ => false,
    }
}

/// True if `e` may print a `>` (conservatively: any `>`, `>>`, cast or
/// generic call anywhere inside).
fn has_gt(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(op, l, r) => {
            matches!(op, BinOp::Gt | BinOp::Shr) || has_gt(l) || has_gt(r)
        }
        ExprKind::Cast(..) | ExprKind::Construct { .. } => true,
        ExprKind::Call {
            callee,
            type_args,
            args,
        } => !type_args.is_empty() || has_gt(callee) || args.iter().any(|a| has_gt(&a.value)),
        ExprKind::Member(x, _) | ExprKind::Unary(_, x) => has_gt(x),
        ExprKind::Index(a, b) | ExprKind::Mask(a, b) | ExprKind::Range(a, b) => {
            has_gt(a) || has_gt(b)
        }
        ExprKind::Slice(a, b, c) | ExprKind::Ternary(a, b, c) => {
            has_gt(a) || has_gt(b) || has_gt(c)
        }
        ExprKind::PartSelect {
            base, start, width, ..
        } => has_gt(base) || has_gt(start) || has_gt(width),
        ExprKind::List(items) | ExprKind::KeysetTuple(items) => items.iter().any(has_gt),
        ExprKind::StructInit { fields, .. } => fields.iter().any(|(_, v)| has_gt(v)),
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Str(_)
        | ExprKind::Name(_)
        | ExprKind::Dots
        | ExprKind::Default
        | ExprKind::InvalidHeader
        | ExprKind::DontCare => false,
    }
}

/// A list item: `value` or `name = value`.
type Item<'a> = (Option<&'a Ident>, &'a Expr);

/// Comma-separated expressions at level `min`.
fn expr_list(items: &[Expr], min: u8) -> String {
    let items: Vec<Item> = items.iter().map(|e| (None, e)).collect();
    list_with(&items, min)
}

fn list_with(items: &[Item], min: u8) -> String {
    let texts: Vec<String> = (0..items.len())
        .map(|i| item_text(items, i, min, None))
        .collect();
    texts.join(", ")
}

/// Item `i` of a comma-separated list, laid out for `(depth, used)` when
/// `wrap` is given. An item with a bare `<` followed by an item that may
/// print `>` is parenthesised: `f(a < b, c > (d))` would read as
/// `f(a<b, c>(d))`.
fn item_text(items: &[Item], i: usize, min: u8, wrap: Option<(usize, usize)>) -> String {
    let (name, e) = items[i];
    let prefix = name.map(|n| format!("{} = ", n.name)).unwrap_or_default();
    let guard = bare_lt(e) && items[i + 1..].iter().any(|(_, later)| has_gt(later));
    let text = if guard && level(e) >= min {
        without_bare_lt(e)
    } else if let Some((depth, used)) = wrap {
        expr_wrapped(e, min, depth, used + prefix.len())
    } else {
        expr_at(e, min)
    };
    prefix + &text
}

/// `e` parenthesised so that no `<` is left bare; keysets (not expressions
/// themselves) get their operands parenthesised instead.
fn without_bare_lt(e: &Expr) -> String {
    let operand = |x: &Expr| {
        if bare_lt(x) {
            format!("({})", expr_bare(x))
        } else {
            expr_at(x, L_TERNARY)
        }
    };
    match &e.kind {
        ExprKind::Mask(a, b) => format!("{} &&& {}", operand(a), operand(b)),
        ExprKind::Range(a, b) => format!("{} .. {}", operand(a), operand(b)),
        _ => format!("({})", expr_bare(e)),
    }
}

/// `open`, the items one a line (indented one level deeper than `depth`),
/// `close`.
fn broken_list(open: &str, close: &str, items: &[Item], dots: bool, depth: usize) -> String {
    let mut texts: Vec<String> = (0..items.len())
        .map(|i| item_text(items, i, L_TERNARY, Some((depth + 1, 1))))
        .collect();
    if dots {
        texts.push("...".into());
    }
    let inner = INDENT.repeat(depth + 1);
    let mut s = format!("{open}\n");
    for (i, t) in texts.iter().enumerate() {
        let comma = if i + 1 < texts.len() { "," } else { "" };
        let _ = writeln!(s, "{inner}{t}{comma}");
    }
    s.push_str(&INDENT.repeat(depth));
    s.push_str(close);
    s
}

/// True if `text`, on a line indented `depth` levels after `used` other
/// characters, fits the width.
fn fits(text: &str, depth: usize, used: usize) -> bool {
    depth * INDENT.len() + used + text.len() <= MAX_WIDTH
}

/// `e` at level `min` on a line indented `depth` levels with `used`
/// characters before it and after it (such as a closing `;`): if it does
/// not fit, a call's arguments and a list's items are put one a line.
fn expr_wrapped(e: &Expr, min: u8, depth: usize, used: usize) -> String {
    let flat = expr_at(e, min);
    if fits(&flat, depth, used) || level(e) < min {
        return flat;
    }
    match &e.kind {
        ExprKind::Call {
            callee,
            type_args: targs,
            args: a,
        } if !a.is_empty() => {
            let head = format!("{}{}", expr_at(callee, L_POSTFIX), type_args(targs));
            format!("{head}{}", args_wrapped(a, depth, used + head.len()))
        }
        ExprKind::List(items) if !items.is_empty() => {
            let items: Vec<Item> = items.iter().map(|e| (None, e)).collect();
            broken_list("{", "}", &items, false, depth)
        }
        ExprKind::StructInit { fields, dots } if !fields.is_empty() => {
            let items: Vec<Item> = fields.iter().map(|(n, e)| (Some(n), e)).collect();
            broken_list("{", "}", &items, *dots, depth)
        }
        _ => flat,
    }
}

/// `(args)`, one a line if they do not fit.
fn args_wrapped(a: &[Arg], depth: usize, used: usize) -> String {
    let flat = args(a);
    if a.is_empty() || fits(&flat, depth, used) {
        return flat;
    }
    let items: Vec<Item> = a.iter().map(|a| (a.name.as_ref(), &a.value)).collect();
    broken_list("(", ")", &items, false, depth)
}

/// `(a, name = b)`
fn args(args: &[Arg]) -> String {
    let items: Vec<Item> = args.iter().map(|a| (a.name.as_ref(), &a.value)).collect();
    format!("({})", list_with(&items, L_TERNARY))
}

fn path(p: &Path) -> String {
    if p.global {
        format!(".{}", p.name.name)
    } else {
        p.name.name.clone()
    }
}

/// The width of `bit<W>`: a literal as is, anything else in parentheses.
fn width(w: &Expr) -> String {
    match &w.kind {
        ExprKind::Int(l) => int_lit(l),
        _ => format!("({})", expr_at(w, L_TERNARY)),
    }
}

fn types(ts: &[Type]) -> String {
    ts.iter().map(ty).collect::<Vec<_>>().join(", ")
}

/// `<A, B>`, or nothing when empty.
fn type_args(ts: &[Type]) -> String {
    if ts.is_empty() {
        String::new()
    } else {
        format!("<{}>", types(ts))
    }
}

fn type_params(ps: &[Ident]) -> String {
    if ps.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
        format!("<{}>", names.join(", "))
    }
}

// ----------------------------------------------------------------- annotations

fn is_pragma(a: &Annotation) -> bool {
    a.name.name == "pragma" && matches!(a.body, AnnotationBody::Unstructured { .. })
}

/// Annotation tokens as text: spaced as they were written, and spaced
/// wherever two tokens would otherwise lex differently.
fn tokens_text(tokens: &[Token]) -> String {
    let mut out = String::new();
    let mut prev: Option<(&TokenKind, String)> = None;
    for t in tokens {
        let text = token(&t.kind);
        if let Some((pk, ptext)) = &prev
            && (t.space_before || !glues(pk, ptext, &t.kind, &text))
        {
            out.push(' ');
        }
        out.push_str(&text);
        prev = Some((&t.kind, text));
    }
    out
}

/// True if `a` and `b` written with nothing between them lex as the same two
/// tokens.
fn glues(ka: &TokenKind, a: &str, kb: &TokenKind, b: &str) -> bool {
    let joined = format!("{a}{b}");
    let (toks, errs) = lexer::lex(&joined);
    errs.is_empty() && toks.len() == 3 && toks[0].kind == *ka && toks[1].kind == *kb
}

/// Annotations written before a construct: each followed by a space, or by a
/// line break and `indent` after a `@pragma`.
fn annos_before(annos: &[Annotation], indent: &str) -> String {
    let mut s = String::new();
    for a in annos {
        s.push_str(&annotation(a));
        if is_pragma(a) {
            s.push('\n');
            s.push_str(indent);
        } else {
            s.push(' ');
        }
    }
    s
}

/// Annotations written after a construct (before its `;`).
fn annos_after(annos: &[Annotation], indent: &str) -> String {
    let mut s = String::new();
    for a in annos {
        s.push(' ');
        s.push_str(&annotation(a));
        if is_pragma(a) {
            s.push('\n');
            s.push_str(indent);
        }
    }
    s
}

// ------------------------------------------------------------------ statements

#[derive(Default)]
struct Printer {
    out: String,
    depth: usize,
}

impl Printer {
    fn indent(&self) -> String {
        INDENT.repeat(self.depth)
    }

    fn start_line(&mut self) {
        for _ in 0..self.depth {
            self.out.push_str(INDENT);
        }
    }

    fn push(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn line(&mut self, s: &str) {
        self.start_line();
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn annos(&self, annos: &[Annotation]) -> String {
        annos_before(annos, &self.indent())
    }

    fn nested(&mut self, f: impl FnOnce(&mut Self)) {
        self.depth += 1;
        f(self);
        self.depth -= 1;
    }

    /// `{`, the statements one a line, `}` (no line break after); `{}` if empty.
    fn block_inline(&mut self, b: &Block) {
        if b.stmts.is_empty() {
            self.push("{}");
            return;
        }
        self.push("{\n");
        self.nested(|p| {
            for s in &b.stmts {
                p.stmt(s);
            }
        });
        self.start_line();
        self.push("}");
    }

    /// A statement that is one line (or a block) starting at the line start.
    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(b) => {
                self.start_line();
                let a = self.annos(&b.annotations);
                self.push(&a);
                self.block_inline(b);
                self.push("\n");
            }
            StmtKind::If { .. } => {
                self.start_line();
                self.if_rest(s);
            }
            StmtKind::Switch { subject, cases } => {
                self.braced(
                    &format!("switch ({}) ", expr_at(subject, L_TERNARY)),
                    cases.is_empty(),
                    |p| {
                        for c in cases {
                            p.start_line();
                            p.push(&format!("{}:", expr_at(&c.label, L_TERNARY)));
                            if let Some(b) = &c.body {
                                p.push(" ");
                                let a = p.annos(&b.annotations);
                                p.push(&a);
                                p.block_inline(b);
                            }
                            p.push("\n");
                        }
                    },
                );
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                let init: Vec<String> = init.iter().map(|s| simple_stmt(s, None)).collect();
                let update: Vec<String> = update.iter().map(|s| simple_stmt(s, None)).collect();
                let mut head = format!("for ({};", init.join(", "));
                if let Some(c) = cond {
                    head.push(' ');
                    head.push_str(&expr_at(c, L_TERNARY));
                }
                head.push(';');
                if !update.is_empty() {
                    head.push(' ');
                    head.push_str(&update.join(", "));
                }
                head.push(')');
                self.start_line();
                self.push(&head);
                self.body_end(body);
            }
            StmtKind::ForIn {
                annotations,
                ty: t,
                var,
                collection,
                body,
            } => {
                self.start_line();
                let a = self.annos(annotations);
                self.push(&a);
                let t = t
                    .as_ref()
                    .map(|t| format!("{} ", ty(t)))
                    .unwrap_or_default();
                self.push(&format!(
                    "for ({t}{} in {})",
                    var.name,
                    expr_at(collection, L_KEYSET)
                ));
                self.body_end(body);
            }
            StmtKind::Transition(t) => self.transition(t),
            StmtKind::Var(v) => {
                let a = self.annos(&v.annotations);
                self.line(&format!("{a}{};", var_text(v, Some(self.depth))));
            }
            StmtKind::Const(c) => {
                let a = self.annos(&c.annotations);
                self.line(&format!("{a}{};", const_text(c, self.depth)));
            }
            StmtKind::Return(Some(e)) => {
                let e = expr_wrapped(e, L_TERNARY, self.depth, 8);
                self.line(&format!("return {e};"));
            }
            StmtKind::Return(None) => self.line("return;"),
            StmtKind::Exit => self.line("exit;"),
            StmtKind::Break => self.line("break;"),
            StmtKind::Continue => self.line("continue;"),
            StmtKind::Empty => self.line(";"),
            StmtKind::Assign { .. } | StmtKind::Call(_) => {
                self.line(&format!("{};", simple_stmt(s, Some(self.depth))));
            }
        }
    }

    /// After a head like `if (c)`: the body on the same line if a block,
    /// else indented on the next. Returns true if the line is still open
    /// (it ended with `}`).
    fn body(&mut self, s: &Stmt) -> bool {
        if let StmtKind::Block(b) = &s.kind {
            self.push(" ");
            let a = annos_before(&b.annotations, &self.indent());
            self.push(&a);
            self.block_inline(b);
            true
        } else {
            self.push("\n");
            self.nested(|p| p.stmt(s));
            false
        }
    }

    /// A body that ends the statement.
    fn body_end(&mut self, s: &Stmt) {
        if self.body(s) {
            self.push("\n");
        }
    }

    /// `if (...) ... else ...` from the current position to the end of line.
    fn if_rest(&mut self, s: &Stmt) {
        let StmtKind::If {
            cond,
            then,
            otherwise,
        } = &s.kind
        else {
            self.stmt(s);
            return;
        };
        self.push(&format!("if ({})", expr_at(cond, L_TERNARY)));
        let Some(otherwise) = otherwise else {
            self.body_end(then);
            return;
        };
        let open = if ends_in_open_if(then) {
            // `if (a) if (b) x; else y;` gives the `else` to the inner `if`.
            let wrapped = Block {
                annotations: Vec::new(),
                stmts: vec![(**then).clone()],
                span: then.span,
            };
            self.push(" ");
            self.block_inline(&wrapped);
            true
        } else {
            self.body(then)
        };
        if open {
            self.push(" else");
        } else {
            self.start_line();
            self.push("else");
        }
        if matches!(otherwise.kind, StmtKind::If { .. }) {
            self.push(" ");
            self.if_rest(otherwise);
        } else {
            self.body_end(otherwise);
        }
    }

    fn transition(&mut self, t: &Transition) {
        match t {
            Transition::Direct(p) => self.line(&format!("transition {};", path(p))),
            Transition::Select { keys, cases, .. } => {
                self.braced(
                    &format!("transition select({}) ", expr_list(keys, L_TERNARY)),
                    cases.is_empty(),
                    |p| {
                        for c in cases {
                            p.line(&format!("{}: {};", keyset(&c.keyset), path(&c.next)));
                        }
                    },
                );
            }
        }
    }

    // -------------------------------------------------------------- declarations

    /// Declarations one after another: a blank line between two, except
    /// between one-line declarations of the same kind.
    fn decls(&mut self, ds: &[Decl]) {
        let mut prev: Option<(std::mem::Discriminant<DeclKind>, bool)> = None;
        for d in ds {
            let mut sub = Printer {
                out: String::new(),
                depth: self.depth,
            };
            sub.decl(d);
            let one_line = sub.out.trim_end().lines().count() == 1;
            let kind = std::mem::discriminant(&d.kind);
            if let Some((pk, p_one)) = prev
                && !(p_one && one_line && pk == kind)
            {
                self.out.push('\n');
            }
            self.out.push_str(&sub.out);
            prev = Some((kind, one_line));
        }
    }

    fn decl(&mut self, d: &Decl) {
        match &d.kind {
            DeclKind::Const(c) => {
                let a = self.annos(&c.annotations);
                self.line(&format!("{a}{};", const_text(c, self.depth)));
            }
            DeclKind::Var(v) => {
                let a = self.annos(&v.annotations);
                self.line(&format!("{a}{};", var_text(v, Some(self.depth))));
            }
            DeclKind::Typedef(t) => {
                let a = self.annos(&t.annotations);
                let kw = if t.new_type { "type" } else { "typedef" };
                self.line(&format!("{a}{kw} {} {};", ty(&t.ty), t.name.name));
            }
            DeclKind::Header(s) => self.struct_like("header", s),
            DeclKind::HeaderUnion(s) => self.struct_like("header_union", s),
            DeclKind::Struct(s) => self.struct_like("struct", s),
            DeclKind::Enum(e) => {
                let a = self.annos(&e.annotations);
                let repr = e
                    .repr
                    .as_ref()
                    .map(|t| format!("{} ", ty(t)))
                    .unwrap_or_default();
                let members: Vec<String> = e
                    .members
                    .iter()
                    .map(|(n, v)| match v {
                        Some(v) => format!("{} = {}", n.name, expr_at(v, L_TERNARY)),
                        None => n.name.clone(),
                    })
                    .collect();
                let head = format!("{a}enum {repr}{}", e.name.name);
                let inline = e.members.iter().all(|(_, v)| v.is_none());
                self.name_list(&head, &members, inline);
            }
            DeclKind::Error(names) => {
                let names: Vec<String> = names.iter().map(|n| n.name.clone()).collect();
                self.name_list("error", &names, true);
            }
            DeclKind::MatchKind(names) => {
                let names: Vec<String> = names.iter().map(|n| n.name.clone()).collect();
                self.name_list("match_kind", &names, true);
            }
            DeclKind::ExternObject(e) => {
                let a = self.annos(&e.annotations);
                self.braced(
                    &format!("{a}extern {}{} ", e.name.name, type_params(&e.type_params)),
                    e.methods.is_empty(),
                    |p| {
                        for m in &e.methods {
                            let a = p.annos(&m.annotations);
                            let abs = if m.is_abstract { "abstract " } else { "" };
                            let ret = m
                                .ret
                                .as_ref()
                                .map(|t| format!("{} ", ty(t)))
                                .unwrap_or_default();
                            let head = format!(
                                "{a}{abs}{ret}{}{}",
                                m.name.name,
                                type_params(&m.type_params)
                            );
                            let params = p.params(&head, &m.params);
                            p.line(&format!("{head}{params};"));
                        }
                    },
                );
            }
            DeclKind::ExternFunction(f) => {
                let a = self.annos(&f.annotations);
                let head = format!(
                    "{a}extern {} {}{}",
                    ty(&f.ret),
                    f.name.name,
                    type_params(&f.type_params)
                );
                let params = self.params(&head, &f.params);
                self.line(&format!("{head}{params};"));
            }
            DeclKind::ParserType(p) => self.block_type("parser", p),
            DeclKind::ControlType(p) => self.block_type("control", p),
            DeclKind::Package(p) => self.block_type("package", p),
            DeclKind::Parser(pd) => {
                self.start_line();
                let head = self.block_head("parser", &pd.proto, &pd.ctor_params);
                self.push(&head);
                if pd.locals.is_empty() && pd.states.is_empty() {
                    self.push(" {}\n");
                    return;
                }
                self.push(" {\n");
                self.nested(|p| {
                    p.decls(&pd.locals);
                    for (i, s) in pd.states.iter().enumerate() {
                        if i > 0 || !pd.locals.is_empty() {
                            p.push("\n");
                        }
                        p.state(s);
                    }
                });
                self.line("}");
            }
            DeclKind::Control(cd) => {
                self.start_line();
                let head = self.block_head("control", &cd.proto, &cd.ctor_params);
                self.push(&head);
                self.push(" {\n");
                self.nested(|p| {
                    p.decls(&cd.locals);
                    if !cd.locals.is_empty() {
                        p.push("\n");
                    }
                    p.start_line();
                    p.push("apply ");
                    let a = p.annos(&cd.apply.annotations);
                    p.push(&a);
                    p.block_inline(&cd.apply);
                    p.push("\n");
                });
                self.line("}");
            }
            DeclKind::Action(ad) => {
                let a = self.annos(&ad.annotations);
                let head = format!("{a}action {}", ad.name.name);
                let params = self.params(&head, &ad.params);
                self.start_line();
                self.push(&format!("{head}{params} "));
                let a = self.annos(&ad.body.annotations);
                self.push(&a);
                self.block_inline(&ad.body);
                self.push("\n");
            }
            DeclKind::Function(f) => {
                let pr = &f.proto;
                let a = self.annos(&pr.annotations);
                let head = format!(
                    "{a}{} {}{}",
                    ty(&pr.ret),
                    pr.name.name,
                    type_params(&pr.type_params)
                );
                let params = self.params(&head, &pr.params);
                self.start_line();
                self.push(&format!("{head}{params} "));
                let a = self.annos(&f.body.annotations);
                self.push(&a);
                self.block_inline(&f.body);
                self.push("\n");
            }
            DeclKind::Instance(i) => {
                let a = self.annos(&i.annotations);
                let head = format!("{a}{}", ty(&i.ty));
                let used = head.len() + i.name.name.len() + 2;
                let text = format!(
                    "{head}{} {}",
                    args_wrapped(&i.args, self.depth, used),
                    i.name.name
                );
                match &i.init {
                    None => self.line(&format!("{text};")),
                    Some(ds) => {
                        self.start_line();
                        self.push(&text);
                        if ds.is_empty() {
                            self.push(" = {};\n");
                            return;
                        }
                        self.push(" = {\n");
                        self.nested(|p| p.decls(ds));
                        self.line("};");
                    }
                }
            }
            DeclKind::Table(t) => self.table(t),
            DeclKind::ValueSet(v) => {
                let a = self.annos(&v.annotations);
                self.line(&format!(
                    "{a}value_set<{}>({}) {};",
                    ty(&v.elem),
                    expr_at(&v.size, L_TERNARY),
                    v.name.name
                ));
            }
        }
    }

    fn struct_like(&mut self, kw: &str, s: &StructDecl) {
        let a = self.annos(&s.annotations);
        self.braced(
            &format!("{a}{kw} {}{} ", s.name.name, type_params(&s.type_params)),
            s.fields.is_empty(),
            |p| {
                for f in &s.fields {
                    let a = p.annos(&f.annotations);
                    p.line(&format!("{a}{} {};", ty(&f.ty), f.name.name));
                }
            },
        );
    }

    /// `head { a, b }` on one line if `inline` and short, else one a line.
    fn name_list(&mut self, head: &str, items: &[String], inline: bool) {
        if items.is_empty() {
            self.line(&format!("{head} {{}}"));
            return;
        }
        let one = format!("{head} {{ {} }}", items.join(", "));
        if inline && one.len() + self.depth * INDENT.len() <= MAX_WIDTH && !one.contains('\n') {
            self.line(&one);
            return;
        }
        self.start_line();
        self.push(head);
        self.push(" {\n");
        self.nested(|p| {
            for (i, item) in items.iter().enumerate() {
                let comma = if i + 1 < items.len() { "," } else { "" };
                p.line(&format!("{item}{comma}"));
            }
        });
        self.line("}");
    }

    /// `(params)`: on one line, or one a line if `head(params)` is too long.
    fn params(&self, head: &str, params: &[Param]) -> String {
        let inner = self.indent() + INDENT;
        let texts: Vec<String> = params.iter().map(|p| param(p, &inner)).collect();
        let one = format!("({})", texts.join(", "));
        let last_line = head.rsplit('\n').next().unwrap_or(head);
        if self.depth * INDENT.len() + last_line.len() + one.len() <= MAX_WIDTH || texts.len() < 2 {
            return one;
        }
        let mut s = String::from("(\n");
        for (i, t) in texts.iter().enumerate() {
            let comma = if i + 1 < texts.len() { "," } else { "" };
            let _ = writeln!(s, "{inner}{t}{comma}");
        }
        s.push_str(&self.indent());
        s.push(')');
        s
    }

    fn block_type(&mut self, kw: &str, p: &BlockProto) {
        let head = self.block_head(kw, p, &[]);
        self.line(&format!("{head};"));
    }

    /// `@a parser P<T>(params)(ctor params)`
    fn block_head(&self, kw: &str, p: &BlockProto, ctor: &[Param]) -> String {
        let a = self.annos(&p.annotations);
        let mut head = format!("{a}{kw} {}{}", p.name.name, type_params(&p.type_params));
        let params = self.params(&head, &p.params);
        head.push_str(&params);
        if !ctor.is_empty() {
            let params = self.params(&head, ctor);
            head.push_str(&params);
        }
        head
    }

    /// `head {` + the body, indented + `}`; `head {}` when `empty`.
    fn braced(&mut self, head: &str, empty: bool, body: impl FnOnce(&mut Self)) {
        self.start_line();
        self.push(head);
        if empty {
            self.push("{}\n");
            return;
        }
        self.push("{\n");
        self.nested(body);
        self.line("}");
    }

    fn state(&mut self, s: &ParserState) {
        let a = self.annos(&s.annotations);
        self.braced(
            &format!("{a}state {} ", s.name.name),
            s.body.is_empty() && s.transition.is_none(),
            |p| {
                for st in &s.body {
                    p.stmt(st);
                }
                if let Some(t) = &s.transition {
                    p.transition(t);
                }
            },
        );
    }

    fn table(&mut self, t: &TableDecl) {
        let a = self.annos(&t.annotations);
        self.braced(
            &format!("{a}table {} ", t.name.name),
            t.props.is_empty(),
            |p| {
                for prop in &t.props {
                    p.table_prop(prop);
                }
            },
        );
    }

    fn table_prop(&mut self, prop: &TableProp) {
        let mut prefix = self.annos(&prop.annotations);
        if prop.is_const {
            prefix.push_str("const ");
        }
        let (name, items): (&str, Vec<String>) = match &prop.kind {
            TablePropKind::Other { name, value } => {
                let head = format!("{prefix}{} = ", name.name);
                let value = expr_wrapped(value, L_TERNARY, self.depth, head.len() + 1);
                self.line(&format!("{head}{value};"));
                return;
            }
            TablePropKind::Key(keys) => {
                let inner = self.indent() + INDENT;
                let items = keys
                    .iter()
                    .map(|k| {
                        format!(
                            "{}: {}{};",
                            expr_at(&k.expr, L_TERNARY),
                            k.match_kind.name,
                            annos_after(&k.annotations, &inner)
                        )
                    })
                    .collect();
                ("key", items)
            }
            TablePropKind::Actions(actions) => {
                let inner = self.indent() + INDENT;
                let items = actions
                    .iter()
                    .map(|a| format!("{};", action_ref(a, &inner)))
                    .collect();
                ("actions", items)
            }
            TablePropKind::Entries(entries) => {
                let inner = self.indent() + INDENT;
                let items = entries.iter().map(|e| entry(e, &inner)).collect();
                ("entries", items)
            }
        };
        self.braced(&format!("{prefix}{name} = "), items.is_empty(), |p| {
            for item in &items {
                p.line(item);
            }
        });
    }
}

/// `e` at level `min`, wrapped for a statement line at `depth` if given.
fn wrap(e: &Expr, min: u8, depth: Option<usize>, used: usize) -> String {
    match depth {
        Some(d) => expr_wrapped(e, min, d, used),
        None => expr_at(e, min),
    }
}

/// An assignment, call or variable declaration without its `;`: laid out
/// for a statement line at `depth`, or flat (for `for (...)` headers).
fn simple_stmt(s: &Stmt, depth: Option<usize>) -> String {
    match &s.kind {
        StmtKind::Assign { lhs, op, rhs } => {
            let l = expr_at(lhs, L_TERNARY);
            match op.map(|op| (op, compound(op))) {
                None => format!("{l} = {}", wrap(rhs, L_TERNARY, depth, l.len() + 4)),
                Some((_, Some(sym))) => {
                    let used = l.len() + sym.len() + 3;
                    format!("{l} {sym} {}", wrap(rhs, L_TERNARY, depth, used))
                }
                Some((op, None)) => {
                    format!("{l} = {l} {} ({})", op.as_str(), expr_at(rhs, L_TERNARY))
                }
            }
        }
        StmtKind::Call(e) => wrap(e, L_TERNARY, depth, 1),
        StmtKind::Var(v) => format!("{}{}", annos_before(&v.annotations, ""), var_text(v, depth)),
        _ => stmt(s).trim().trim_end_matches(';').to_string(),
    }
}

/// The `op=` form of a binary operator, if it has one.
fn compound(op: BinOp) -> Option<&'static str> {
    Some(match op {
        BinOp::Add => "+=",
        BinOp::Sub => "-=",
        BinOp::Mul => "*=",
        BinOp::Div => "/=",
        BinOp::Mod => "%=",
        BinOp::Shl => "<<=",
        BinOp::Shr => ">>=",
        BinOp::BitAnd => "&=",
        BinOp::BitOr => "|=",
        BinOp::BitXor => "^=",
        BinOp::SatAdd => "|+|=",
        BinOp::SatSub => "|-|=",
        _ => return None,
    })
}

/// True if `s` ends with an `if` without `else`, which would capture an
/// `else` written after `s`.
fn ends_in_open_if(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::If {
            otherwise: None, ..
        } => true,
        StmtKind::If {
            otherwise: Some(e), ..
        } => ends_in_open_if(e),
        StmtKind::For { body, .. } | StmtKind::ForIn { body, .. } => ends_in_open_if(body),
        _ => false,
    }
}

fn var_text(v: &VarDecl, depth: Option<usize>) -> String {
    let mut s = format!("{} {}", ty(&v.ty), v.name.name);
    if let Some(init) = &v.init {
        s.push_str(" = ");
        let init = wrap(init, L_TERNARY, depth, s.len() + 1);
        s.push_str(&init);
    }
    s
}

fn const_text(c: &ConstDecl, depth: usize) -> String {
    let head = format!("const {} {} = ", ty(&c.ty), c.name.name);
    let value = expr_wrapped(&c.value, L_TERNARY, depth, head.len() + 1);
    head + &value
}

fn param(p: &Param, indent: &str) -> String {
    let dir = match p.direction {
        Direction::None => "",
        Direction::In => "in ",
        Direction::Out => "out ",
        Direction::InOut => "inout ",
    };
    let mut s = format!(
        "{}{dir}{} {}",
        annos_before(&p.annotations, indent),
        ty(&p.ty),
        p.name.name
    );
    if let Some(d) = &p.default {
        s.push_str(" = ");
        s.push_str(&expr_at(d, L_TERNARY));
    }
    s
}

/// A select or entry keyset: a tuple, or one simple keyset.
fn keyset(e: &Expr) -> String {
    expr_at(e, L_KEYSET)
}

fn action_ref(a: &ActionRef, indent: &str) -> String {
    let mut s = annos_before(&a.annotations, indent);
    s.push_str(&path(&a.name));
    if let Some(a) = &a.args {
        s.push_str(&args(a));
    }
    s
}

/// `const priority = p: keyset: action @annotations;`. Annotations go after
/// the action, where `@a (1, 2)` cannot be taken for an annotation body.
fn entry(e: &Entry, indent: &str) -> String {
    let mut s = String::new();
    if e.is_const {
        s.push_str("const ");
    }
    if let Some(p) = &e.priority {
        let _ = write!(s, "priority = {}: ", expr_at(p, L_TERNARY));
    }
    let _ = write!(
        s,
        "{}: {}{};",
        keyset(&e.keyset),
        action_ref(&e.action, indent),
        annos_after(&e.annotations, indent)
    );
    s
}

mod strip;
pub use strip::{StripSpans, strip_spans};

#[cfg(test)]
mod tests;
