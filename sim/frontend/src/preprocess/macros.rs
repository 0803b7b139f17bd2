//! Macro definitions and expansion.
//!
//! Expansion follows Prosser's algorithm for the C standard: every token
//! carries a hide set of the macros it came out of, which are not expanded
//! again; arguments are fully expanded before substitution unless they are
//! operands of `#` or `##`; the result is rescanned together with the rest
//! of the input (which may supply the arguments of a function-like macro the
//! expansion ends with).

use super::Preprocessor;
use super::lex::{self, HideSet, Kind, Tok};
use crate::diag::Code;
use std::rc::Rc;

/// Tokens one top-level expansion may produce before it is cut off.
const WORK_LIMIT: usize = 200_000;
/// Tokens all expansions of a run may produce.
const TOTAL_WORK_LIMIT: usize = 20_000_000;
/// How deeply macro arguments may nest inside macro arguments.
const MAX_ARG_DEPTH: usize = 200;

/// A `#define`d macro.
#[derive(Debug)]
pub(crate) struct Macro {
    /// The macro's name as a number, for hide sets (set when it is
    /// defined; the same for every definition of one name).
    pub id: u32,
    /// The parameters of a function-like macro; `None` for object-like.
    /// A variadic macro's last parameter collects the extra arguments.
    pub params: Option<Vec<Rc<str>>>,
    pub variadic: bool,
    pub body: Vec<BodyTok>,
}

/// A token of a macro body.
#[derive(Debug)]
pub(crate) struct BodyTok {
    pub tok: Tok,
    /// The index of the parameter this token names, if any.
    pub param: Option<usize>,
}

/// Whether `name` is a predefined macro.
pub(crate) fn is_builtin(name: &str) -> bool {
    matches!(name, "__FILE__" | "__LINE__")
}

/// A malformed `#define`.
pub(crate) struct DefineError {
    pub msg: String,
    /// The offending token, if there is one.
    pub at: Option<(u32, u32)>,
}

fn define_error(msg: impl Into<String>, tok: Option<&Tok>) -> DefineError {
    DefineError {
        msg: msg.into(),
        at: tok.map(|t| (t.lo, t.hi)),
    }
}

/// Parses the tokens after `#define`.
pub(crate) fn parse_define(toks: &[Tok]) -> Result<(Rc<str>, Macro), DefineError> {
    let name = match toks.first() {
        Some(t) if t.kind == Kind::Ident => t,
        t => return Err(define_error("expected a macro name", t)),
    };
    if &*name.text == "defined" || is_builtin(&name.text) {
        return Err(define_error(
            format!("`{}` cannot be defined", name.text),
            Some(name),
        ));
    }
    let function_like = toks.get(1).is_some_and(|t| t.is_punct("(") && !t.space);
    let (params, variadic, body_start) = if function_like {
        let (params, variadic, next) = parse_params(toks, 2)?;
        (Some(params), variadic, next)
    } else {
        (None, false, 1)
    };
    let body = body_tokens(&toks[body_start.min(toks.len())..], params.as_deref())?;
    let m = Macro {
        id: 0,
        params,
        variadic,
        body,
    };
    Ok((name.text.clone(), m))
}

/// Parses a parameter list starting at `toks[i]` (after the `(`). Returns
/// the parameters, whether the macro is variadic and where the body starts.
fn parse_params(toks: &[Tok], mut i: usize) -> Result<(Vec<Rc<str>>, bool, usize), DefineError> {
    let mut params: Vec<Rc<str>> = Vec::new();
    let mut seen: std::collections::HashSet<Rc<str>> = std::collections::HashSet::new();
    if toks.get(i).is_some_and(|t| t.is_punct(")")) {
        return Ok((params, false, i + 1));
    }
    loop {
        let t = toks.get(i);
        let (name, variadic) = match t {
            Some(t) if t.is_punct("...") => (Rc::from("__VA_ARGS__"), true),
            Some(t) if t.kind == Kind::Ident => {
                let dots = toks.get(i + 1).is_some_and(|d| d.is_punct("..."));
                i += usize::from(dots);
                (t.text.clone(), dots)
            }
            _ => return Err(define_error("expected a parameter name", t)),
        };
        if !seen.insert(name.clone()) {
            return Err(define_error(format!("duplicate parameter `{name}`"), t));
        }
        params.push(name);
        i += 1;
        match toks.get(i) {
            Some(c) if c.is_punct(",") && !variadic => i += 1,
            Some(c) if c.is_punct(")") => return Ok((params, variadic, i + 1)),
            c => return Err(define_error("expected `,` or `)` in the parameter list", c)),
        }
    }
}

/// Checks a macro body and marks its parameter names.
fn body_tokens(toks: &[Tok], params: Option<&[Rc<str>]>) -> Result<Vec<BodyTok>, DefineError> {
    let index: std::collections::HashMap<&str, usize> = params
        .unwrap_or(&[])
        .iter()
        .enumerate()
        .map(|(i, p)| (&**p, i))
        .collect();
    let param_of = |t: &Tok| {
        params?;
        (t.kind == Kind::Ident)
            .then(|| index.get(&*t.text).copied())
            .flatten()
    };
    let body: Vec<BodyTok> = toks
        .iter()
        .map(|t| BodyTok {
            tok: t.clone(),
            param: param_of(t),
        })
        .collect();
    if let Some(first) = body.first().filter(|b| b.tok.is_punct("##")) {
        return Err(define_error(
            "`##` cannot start a macro body",
            Some(&first.tok),
        ));
    }
    if let Some(last) = body.last().filter(|b| b.tok.is_punct("##")) {
        return Err(define_error(
            "`##` cannot end a macro body",
            Some(&last.tok),
        ));
    }
    if params.is_some() {
        for (i, b) in body.iter().enumerate() {
            let next_is_param = body.get(i + 1).is_some_and(|n| n.param.is_some());
            if b.tok.is_punct("#") && !next_is_param {
                return Err(define_error(
                    "`#` must be followed by a parameter",
                    Some(&b.tok),
                ));
            }
        }
    }
    Ok(body)
}

/// Reads tokens from the text of the current file after a macro name, for
/// the arguments of a function-like macro. Newlines are whitespace, but a
/// directive line ends the input.
pub(crate) struct FileReader<'t> {
    text: &'t str,
    pos: usize,
    /// The end of the last token read (0 if none).
    pub end: usize,
}

impl<'t> FileReader<'t> {
    pub fn new(text: &'t str, pos: usize) -> FileReader<'t> {
        FileReader { text, pos, end: 0 }
    }

    /// The start of the next token and whether whitespace comes before it.
    fn skip(&self) -> Option<(usize, bool)> {
        let b = self.text.as_bytes();
        let (mut i, mut space) = (self.pos, false);
        loop {
            let s = lex::skip_space(b, i, false);
            if s.unterminated.is_some() || s.pos >= b.len() {
                return None;
            }
            space |= s.space;
            i = s.pos;
            if b[i] != b'\n' {
                return Some((i, space));
            }
            i += 1;
            space = true;
            if b.get(lex::skip_hspace(b, i)) == Some(&b'#') {
                return None;
            }
        }
    }

    /// Whether the next token is `(`.
    pub fn peek_lparen(&self) -> bool {
        self.skip()
            .is_some_and(|(i, _)| self.text.as_bytes().get(i) == Some(&b'('))
    }

    fn next_tok(&mut self) -> Option<Tok> {
        let (i, space) = self.skip()?;
        let (kind, end) = lex::token_at(self.text.as_bytes(), i);
        self.pos = end;
        self.end = end;
        Some(Tok {
            kind,
            text: Rc::from(self.text.get(i..end).unwrap_or("")),
            space,
            hide: None,
            lo: i as u32,
            hi: end as u32,
        })
    }
}

/// The next token of the input: the rescan stack first, then the file.
fn next_input(stack: &mut Vec<Tok>, file: &mut Option<&mut FileReader<'_>>) -> Option<Tok> {
    stack
        .pop()
        .or_else(|| file.as_mut().and_then(|f| f.next_tok()))
}

/// The arguments of an invocation.
struct Args {
    args: Vec<Vec<Tok>>,
    rparen: Tok,
}

impl Preprocessor<'_> {
    /// Macro-expands `input`. With `file`, an invocation at the end of the
    /// input may take its arguments from the file.
    pub(super) fn expand(
        &mut self,
        input: Vec<Tok>,
        mut file: Option<&mut FileReader<'_>>,
        depth: usize,
    ) -> Vec<Tok> {
        let mut stack = input;
        stack.reverse();
        let mut out = Vec::with_capacity(stack.len());
        while let Some(tok) = stack.pop() {
            if !self.charge(1) || tok.kind != Kind::Ident {
                out.push(tok);
                continue;
            }
            let Some(m) = self.macros.get(&*tok.text).cloned() else {
                out.push(self.builtin(tok));
                continue;
            };
            if tok.is_hidden(m.id) {
                out.push(tok);
                continue;
            }
            let body = if m.params.is_none() {
                let hide = lex::hide_add(&tok.hide, m.id);
                self.subst(&m, &[], &hide, depth)
            } else {
                let paren_next = match stack.last() {
                    Some(t) => t.is_punct("("),
                    None => file.as_ref().is_some_and(|f| f.peek_lparen()),
                };
                if !paren_next {
                    out.push(tok);
                    continue;
                }
                match self.invocation(&m, &tok, &mut stack, &mut file, depth) {
                    Ok(body) => body,
                    Err(consumed) => {
                        out.push(tok);
                        out.extend(consumed);
                        continue;
                    }
                }
            };
            push_body(&mut stack, body, tok.space);
        }
        out
    }

    /// Reads the arguments of function-like macro `m` (named by `tok`) and
    /// substitutes them. On error, returns the tokens read.
    fn invocation(
        &mut self,
        m: &Macro,
        tok: &Tok,
        stack: &mut Vec<Tok>,
        file: &mut Option<&mut FileReader<'_>>,
        depth: usize,
    ) -> Result<Vec<Tok>, Vec<Tok>> {
        let mut consumed = Vec::new();
        let Some(mut args) = collect_args(m, stack, file, &mut consumed) else {
            let msg = format!("unterminated argument list invoking macro `{}`", tok.text);
            self.macro_error(msg);
            return Err(consumed);
        };
        if let Err(msg) = check_arg_count(m, &tok.text, &mut args.args) {
            self.macro_error(msg);
            return Err(consumed);
        }
        // Arguments are copied and expanded once per nesting level: their
        // length counts, or `F(F(F(...)))` would copy the rest of a long
        // line at every level.
        // So do the hide sets intersected.
        let sets = lex::hide_len(&tok.hide) + lex::hide_len(&args.rparen.hide);
        if !self.charge(consumed.len() + sets) {
            return Err(consumed);
        }
        let hide = lex::hide_intersect(&tok.hide, &args.rparen.hide);
        let hide = lex::hide_add(&hide, m.id);
        Ok(self.subst(m, &args.args, &hide, depth))
    }

    fn macro_error(&mut self, msg: String) {
        let span = self.exp.span;
        self.error(Code::MacroArguments, span, msg, "in this macro invocation");
    }

    /// `__FILE__` and `__LINE__`; any other token unchanged.
    fn builtin(&self, tok: Tok) -> Tok {
        match &*tok.text {
            "__LINE__" => Tok::synthetic(Kind::Number, &self.exp.line.to_string(), tok.space),
            "__FILE__" => {
                // Stringizing a string token quotes and escapes its text.
                let name = Tok::synthetic(Kind::Str, &self.exp.file_name, false);
                Tok::synthetic(Kind::Str, &lex::stringize(&[name]), tok.space)
            }
            _ => tok,
        }
    }

    /// Accounts for `n` more tokens of expansion; false once the budget is
    /// spent (the error is reported once).
    fn charge(&mut self, n: usize) -> bool {
        if self.exp.failed {
            return false;
        }
        self.exp.work += n;
        self.total_work += n;
        if self.exp.work <= WORK_LIMIT && self.total_work <= TOTAL_WORK_LIMIT {
            return true;
        }
        self.exp.failed = true;
        if self.exp.work > WORK_LIMIT {
            self.macro_error("macro expansion is too large (runaway recursion?)".into());
        } else if !self.total_work_reported {
            self.total_work_reported = true;
            self.macro_error(
                "macro expansions are too large in total; expansion stops here".into(),
            );
        }
        false
    }

    /// The replacement of `m` with `args` substituted, `#` and `##` applied
    /// and `hide` added to every token's hide set.
    fn subst(&mut self, m: &Macro, args: &[Vec<Tok>], hide: &HideSet, depth: usize) -> Vec<Tok> {
        let function_like = m.params.is_some();
        let mut expanded: Vec<Option<Vec<Tok>>> = vec![None; args.len()];
        let mut out: Vec<Tok> = Vec::with_capacity(m.body.len());
        // Whether the last operand pushed was an empty argument (a
        // placemarker), so a following `##` has nothing to paste onto.
        let mut placemarker = false;
        let body = &m.body;
        let mut i = 0;
        while i < body.len() {
            let b = &body[i];
            let next = body.get(i + 1);
            if function_like
                && b.tok.is_punct("#")
                && let Some(p) = next.and_then(|n| n.param)
            {
                // The text `#` and `##` make counts (a byte a unit): else
                // nesting them doubles a token's length at every level.
                if !self.charge(lex::stringize_len(arg(args, p))) {
                    return Vec::new();
                }
                out.push(stringized(args, p, b.tok.space));
                placemarker = false;
                i += 2;
                continue;
            }
            if b.tok.is_punct("##") && next.is_some() {
                let cost = paste_cost(body, i + 1, args, function_like)
                    + out.last().map_or(0, |t| t.text.len());
                if !self.charge(cost) {
                    return Vec::new();
                }
                let (rhs, used) = paste_operand(body, i + 1, args, function_like);
                paste(&mut out, &mut placemarker, rhs);
                i += 1 + used;
                continue;
            }
            match b.param {
                Some(p) => {
                    let pasted = next.is_some_and(|n| n.tok.is_punct("##"));
                    let mut seq = if pasted {
                        arg(args, p).to_vec()
                    } else {
                        self.expanded_arg(&mut expanded, args, p, depth)
                    };
                    if self.exp.failed {
                        // Cut off (and reported): give up on this
                        // replacement rather than copy what was left.
                        return Vec::new();
                    }
                    if let Some(first) = seq.first_mut() {
                        first.space = b.tok.space;
                    }
                    placemarker = seq.is_empty();
                    out.extend(seq);
                }
                None => {
                    out.push(b.tok.clone());
                    placemarker = false;
                }
            }
            i += 1;
        }
        // Tokens from one place share a hide set: each distinct set is
        // merged once, and the merging counts as work.
        let mut cost = out.len();
        let mut last: Option<(HideSet, HideSet)> = None;
        for t in &mut out {
            if let Some((from, to)) = &last
                && lex::hide_same(from, &t.hide)
            {
                t.hide = to.clone();
                continue;
            }
            cost += lex::hide_len(&t.hide) + lex::hide_len(hide);
            let merged = lex::hide_union(&t.hide, hide);
            last = Some((std::mem::replace(&mut t.hide, merged.clone()), merged));
        }
        if !self.charge(cost) {
            return Vec::new();
        }
        out
    }

    /// Argument `p`, fully macro-expanded (computed once per invocation).
    fn expanded_arg(
        &mut self,
        cache: &mut [Option<Vec<Tok>>],
        args: &[Vec<Tok>],
        p: usize,
        depth: usize,
    ) -> Vec<Tok> {
        if let Some(Some(done)) = cache.get(p) {
            return done.clone();
        }
        let raw = arg(args, p).to_vec();
        let result = if depth >= MAX_ARG_DEPTH {
            if !self.exp.failed {
                self.exp.failed = true;
                self.macro_error("macro arguments nest too deeply".into());
            }
            raw
        } else {
            self.expand(raw, None, depth + 1)
        };
        if let Some(slot) = cache.get_mut(p) {
            *slot = Some(result.clone());
        }
        result
    }
}

/// Argument `p`, or nothing.
fn arg(args: &[Vec<Tok>], p: usize) -> &[Tok] {
    args.get(p).map_or(&[], Vec::as_slice)
}

/// `#arg` as a string literal token.
fn stringized(args: &[Vec<Tok>], p: usize, space: bool) -> Tok {
    Tok::synthetic(Kind::Str, &lex::stringize(arg(args, p)), space)
}

/// The right operand of the `##` before `body[i]`: the tokens and how many
/// body tokens it used.
fn paste_operand(
    body: &[BodyTok],
    i: usize,
    args: &[Vec<Tok>],
    function_like: bool,
) -> (Vec<Tok>, usize) {
    let b = &body[i];
    if let Some(p) = b.param {
        return (arg(args, p).to_vec(), 1);
    }
    if function_like
        && b.tok.is_punct("#")
        && let Some(p) = body.get(i + 1).and_then(|n| n.param)
    {
        return (vec![stringized(args, p, false)], 2);
    }
    (vec![b.tok.clone()], 1)
}

/// An upper bound of the text length of the right operand of the `##`
/// before `body[i]`.
fn paste_cost(body: &[BodyTok], i: usize, args: &[Vec<Tok>], function_like: bool) -> usize {
    let b = &body[i];
    if let Some(p) = b.param {
        return arg(args, p).first().map_or(0, |t| t.text.len());
    }
    if function_like
        && b.tok.is_punct("#")
        && let Some(p) = body.get(i + 1).and_then(|n| n.param)
    {
        return lex::stringize_len(arg(args, p));
    }
    b.tok.text.len()
}

/// Applies `##`: glues the last token of `out` to the first of `rhs`.
fn paste(out: &mut Vec<Tok>, placemarker: &mut bool, rhs: Vec<Tok>) {
    if rhs.is_empty() {
        return;
    }
    let mut rhs = rhs.into_iter();
    let left = if *placemarker { None } else { out.pop() };
    *placemarker = false;
    let Some(first) = rhs.next() else {
        return;
    };
    match left {
        None => out.push(first),
        Some(l) => out.extend(glue(l, first)),
    }
    out.extend(rhs);
}

/// The token `a ## b` makes, or both tokens if they do not form one.
fn glue(a: Tok, b: Tok) -> Vec<Tok> {
    let text = format!("{}{}", a.text, b.text);
    let (toks, _) = lex::tokenize(&text, 0, text.len());
    match toks.as_slice() {
        [one] if one.text.len() == text.len() => vec![Tok {
            space: a.space,
            hide: None,
            ..one.clone()
        }],
        _ => {
            let b = Tok { space: false, ..b };
            vec![a, b]
        }
    }
}

/// Pushes a macro's replacement onto the rescan stack.
fn push_body(stack: &mut Vec<Tok>, mut body: Vec<Tok>, space: bool) {
    if let Some(first) = body.first_mut() {
        first.space = space;
    }
    stack.extend(body.into_iter().rev());
}

/// Reads a parenthesized argument list. `None` if it never closes.
fn collect_args(
    m: &Macro,
    stack: &mut Vec<Tok>,
    file: &mut Option<&mut FileReader<'_>>,
    consumed: &mut Vec<Tok>,
) -> Option<Args> {
    let lparen = next_input(stack, file)?;
    consumed.push(lparen);
    let nparams = m.params.as_ref().map_or(0, Vec::len);
    // A variadic macro's last argument takes the remaining commas.
    let split_limit = if m.variadic {
        nparams.saturating_sub(1)
    } else {
        usize::MAX
    };
    let (mut args, mut cur, mut depth) = (Vec::new(), Vec::new(), 0usize);
    loop {
        let t = next_input(stack, file)?;
        consumed.push(t.clone());
        if t.is_punct("(") {
            depth += 1;
        } else if t.is_punct(")") {
            if depth == 0 {
                args.push(cur);
                return Some(Args { args, rparen: t });
            }
            depth -= 1;
        } else if t.is_punct(",") && depth == 0 && args.len() < split_limit {
            args.push(std::mem::take(&mut cur));
            continue;
        }
        cur.push(t);
    }
}

/// Checks the number of arguments; fills in an empty variadic part.
fn check_arg_count(m: &Macro, name: &str, args: &mut Vec<Vec<Tok>>) -> Result<(), String> {
    let n = m.params.as_ref().map_or(0, Vec::len);
    let empty_call = args.len() == 1 && args[0].is_empty();
    if n == 0 && empty_call {
        args.clear();
        return Ok(());
    }
    if m.variadic && args.len() + 1 == n {
        args.push(Vec::new());
    }
    if args.len() == n {
        return Ok(());
    }
    let given = if empty_call { 0 } else { args.len() };
    let at_least = if m.variadic { "at least " } else { "" };
    let expected = if m.variadic { n - 1 } else { n };
    Err(format!(
        "macro `{name}` takes {at_least}{expected} argument{} but {given} {} given",
        if expected == 1 { "" } else { "s" },
        if given == 1 { "was" } else { "were" },
    ))
}
