//! The C preprocessor for P4 source, as p4c users expect it (p4c runs `cpp`).
//!
//! [`preprocess`] turns a root file and everything it includes into one
//! translation unit and an [`OffsetMap`] that maps every offset of the unit
//! back to an original file, so later stages report errors at the right
//! `file:line:col`.
//!
//! Supported: `#include` (`"..."` and `<...>`, computed includes), object-
//! and function-like `#define` (variadic too), `#undef`, `#if`/`#ifdef`/
//! `#ifndef`/`#elif`/`#elifdef`/`#elifndef`/`#else`/`#endif`, `#error`,
//! `#warning`, `#pragma once`; other pragmas, `#line` and line markers are
//! dropped. Macro expansion follows the C rules (hide sets, argument
//! pre-expansion, rescanning, `#` and `##`), with `__FILE__` and `__LINE__`
//! predefined.
//!
//! The output keeps the line structure of each file: directive and skipped
//! lines become empty lines, and where a macro invocation or a line
//! continuation swallowed newlines, the missing ones are added at the end of
//! the line.

mod cond_expr;
mod directive;
mod include;
mod lex;
mod macros;
#[cfg(test)]
mod tests;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::source::{FileId, FileSpan, OffsetMap, Segment, SourceMap};
use lex::Kind;
use macros::{FileReader, Macro};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;

/// Options of a preprocessor run (the `-I` and `-D` command-line flags).
#[derive(Clone, Debug, Default)]
pub struct PreprocessConfig {
    /// `-I` directories, searched in order (not with
    /// [`IncludeAccess::BuiltinOnly`]).
    pub include_dirs: Vec<std::path::PathBuf>,
    /// `-D NAME[=VALUE]` definitions (value None means "1").
    pub defines: Vec<(String, Option<String>)>,
    /// Where `#include` may look.
    pub include_access: IncludeAccess,
}

pub use crate::driver::IncludeAccess;

/// The result of preprocessing: the translation unit and its origin map.
pub struct Preprocessed {
    /// The preprocessed text, which the lexer reads.
    pub text: String,
    /// Maps offsets of `text` back to original files.
    pub map: OffsetMap,
    /// A size limit stopped the run (an E0005 error was reported) and
    /// `text` is incomplete.
    pub stopped: bool,
}

/// Preprocesses `root` (already added to `sources`); files it includes are added to `sources`.
pub fn preprocess(
    sources: &mut SourceMap,
    root: FileId,
    config: &PreprocessConfig,
    diags: &mut Diagnostics,
) -> Preprocessed {
    preprocess_limited(sources, root, config, diags, Limits::DEFAULT)
}

/// The size limits of a run.
#[derive(Clone, Copy, Debug)]
struct Limits {
    /// [`MAX_OUTPUT_BYTES`].
    output: usize,
    /// [`MAX_SCANNED_BYTES`].
    scanned: usize,
}

impl Limits {
    const DEFAULT: Limits = Limits {
        output: MAX_OUTPUT_BYTES,
        scanned: MAX_SCANNED_BYTES,
    };
}

/// `n` bytes, as a limit is shown in messages.
fn shown_size(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else {
        format!("{n} bytes")
    }
}

fn preprocess_limited(
    sources: &mut SourceMap,
    root: FileId,
    config: &PreprocessConfig,
    diags: &mut Diagnostics,
    limits: Limits,
) -> Preprocessed {
    let mut pp = Preprocessor::new(sources, config, diags);
    pp.limits = limits;
    pp.command_line_defines();
    pp.run_file(root);
    Preprocessed {
        text: pp.out,
        map: pp.map,
        stopped: pp.stopped,
    }
}

/// Includes may nest at most this deep.
const MAX_INCLUDE_DEPTH: usize = 200;

/// The preprocessed program may be at most this long (64 MiB); the
/// preprocessor stops, with an error, when it would grow longer.
pub const MAX_OUTPUT_BYTES: usize = 64 << 20;

/// The preprocessor reads at most this much source in all (256 MiB),
/// counting a file as often as it is included; it stops, with an error,
/// at an include that would go over. (A file with an include guard
/// whose macro is defined is not read again.)
pub const MAX_SCANNED_BYTES: usize = 256 << 20;

/// A line continuation removed from a file's text.
#[derive(Clone, Copy, Debug)]
struct Splice {
    /// Offset in the spliced text where the removed bytes were.
    clean: u32,
    /// Bytes removed up to and including this continuation.
    removed: u32,
}

/// One open `#if` group.
#[derive(Clone, Copy, Debug)]
struct Cond {
    /// The `#if` (or `#ifdef`, `#ifndef`) that opened the group.
    span: FileSpan,
    /// Whether the text around the group is active.
    parent_active: bool,
    /// Whether some branch was already taken (or none may be).
    taken: bool,
    /// Whether the current branch is active.
    active: bool,
    seen_else: bool,
}

/// The state of one file being preprocessed.
struct FileCtx {
    id: FileId,
    /// The directory of the file, for `#include "..."`.
    dir: Option<PathBuf>,
    /// The file text with line continuations removed.
    text: Rc<str>,
    splices: Vec<Splice>,
    conds: Vec<Cond>,
    /// Newlines emitted for this file so far.
    emitted_nl: usize,
    /// Whether the file is wrapped in an include guard, as far as read.
    guard: Guard,
}

/// Whether a file is `#ifndef NAME ... #endif` with only whitespace and
/// comments outside: then including it again while `NAME` is defined
/// cannot add anything, and it is not read again (as cpp does).
#[derive(Clone, Debug)]
enum Guard {
    /// Nothing but whitespace and comments so far.
    Start,
    /// Inside the `#ifndef NAME` that opened the file.
    Open(Rc<str>),
    /// After its `#endif`, nothing but whitespace and comments.
    Closed(Rc<str>),
    /// Not a guarded file.
    No,
}

impl FileCtx {
    fn new(id: FileId, dir: Option<PathBuf>, original: &str) -> FileCtx {
        let (text, splices) = splice_lines(original);
        FileCtx {
            id,
            dir,
            text: Rc::from(text),
            splices,
            conds: Vec::new(),
            emitted_nl: 0,
            guard: Guard::Start,
        }
    }

    /// Text other than whitespace, comments and directives was read.
    fn saw_text(&mut self) {
        if self.conds.is_empty() {
            self.guard = Guard::No;
        }
    }

    /// The directive `name` (with its first token `first`) was read.
    fn saw_directive(&mut self, name: &str, first: Option<&lex::Tok>) {
        let depth = self.conds.len();
        self.guard = match std::mem::replace(&mut self.guard, Guard::No) {
            Guard::Start if depth == 0 && name == "ifndef" => match first {
                Some(t) if t.kind == Kind::Ident => Guard::Open(t.text.clone()),
                _ => Guard::No,
            },
            Guard::Open(m) if depth == 1 && name == "endif" => Guard::Closed(m),
            Guard::Open(_) if depth == 1 && (name == "else" || name.starts_with("elif")) => {
                Guard::No
            }
            Guard::Open(m) => Guard::Open(m),
            _ => Guard::No,
        };
    }

    /// Whether text at the current point is kept (not in a false `#if`).
    fn active(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }

    /// The offset in the original file of offset `c` of the spliced text.
    fn orig(&self, c: usize) -> u32 {
        let c = c as u32;
        let i = self.splices.partition_point(|s| s.clean <= c);
        match i {
            0 => c,
            _ => c + self.splices[i - 1].removed,
        }
    }

    /// The original offset just past spliced offset `c - 1`.
    fn orig_end(&self, c: usize) -> u32 {
        if c == 0 { 0 } else { self.orig(c - 1) + 1 }
    }

    /// The original span of spliced range `lo..hi`.
    fn span(&self, lo: usize, hi: usize) -> FileSpan {
        let lo32 = self.orig(lo);
        FileSpan {
            file: self.id,
            lo: lo32,
            hi: self.orig_end(hi).max(lo32),
        }
    }

    /// Splits `lo..hi` at line continuations into pieces that map one to
    /// one onto the original text.
    fn pieces(&self, lo: usize, hi: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut start = lo;
        let first = self.splices.partition_point(|s| (s.clean as usize) <= lo);
        for s in &self.splices[first..] {
            let at = s.clean as usize;
            if at >= hi {
                break;
            }
            out.push((start, at));
            start = at;
        }
        out.push((start, hi));
        out
    }
}

/// Removes backslash-newline pairs, recording where they were.
fn splice_lines(text: &str) -> (String, Vec<Splice>) {
    if !text.contains('\\') {
        return (text.to_string(), Vec::new());
    }
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut splices = Vec::new();
    let mut removed = 0u32;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            let n = match (b.get(i + 1), b.get(i + 2)) {
                (Some(b'\n'), _) => 2,
                (Some(b'\r'), Some(b'\n')) => 3,
                _ => 0,
            };
            if n > 0 {
                i += n;
                removed += n as u32;
                splices.push(Splice {
                    clean: out.len() as u32,
                    removed,
                });
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    // Only ASCII bytes were removed, so the text is still UTF-8.
    let text = String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (text, splices)
}

/// Where the macro expansion being done comes from, and its budget.
#[derive(Clone, Debug)]
struct ExpansionCtx {
    /// The invocation (or directive) being expanded, for diagnostics.
    span: FileSpan,
    /// `__LINE__` here.
    line: u32,
    /// `__FILE__` here.
    file_name: Rc<str>,
    /// Tokens produced by this expansion so far.
    work: usize,
    /// The expansion was cut off (an error was reported).
    failed: bool,
}

/// The preprocessor's state across all files of one run.
struct Preprocessor<'a> {
    sources: &'a mut SourceMap,
    config: &'a PreprocessConfig,
    diags: &'a mut Diagnostics,
    macros: HashMap<Rc<str>, Rc<Macro>>,
    /// The number of each macro name ever defined ([`Macro::id`]).
    macro_ids: HashMap<Rc<str>, u32>,
    /// Files wrapped in an include guard, and the guard's macro.
    guards: HashMap<FileId, Rc<str>>,
    /// Source bytes read so far (a file counts each time it is read).
    scanned: usize,
    /// A limit was reached (and reported): the run stops.
    stopped: bool,
    limits: Limits,
    out: String,
    map: OffsetMap,
    /// Files that said `#pragma once`.
    once: HashSet<FileId>,
    /// Files open right now (the root is 1).
    depth: usize,
    /// Files on disk already in the source map, by canonical path.
    by_path: HashMap<PathBuf, FileId>,
    /// Built-in files already in the source map, by name (`<core.p4>`).
    by_builtin: HashMap<String, FileId>,
    exp: ExpansionCtx,
    /// Tokens produced by all expansions of the run.
    total_work: usize,
    /// The run's expansion budget ran out (and that was reported).
    total_work_reported: bool,
}

impl<'a> Preprocessor<'a> {
    fn new(
        sources: &'a mut SourceMap,
        config: &'a PreprocessConfig,
        diags: &'a mut Diagnostics,
    ) -> Preprocessor<'a> {
        let (by_path, by_builtin) = include::known_files(sources, config.include_access);
        Preprocessor {
            sources,
            config,
            diags,
            macros: HashMap::new(),
            macro_ids: HashMap::new(),
            guards: HashMap::new(),
            scanned: 0,
            stopped: false,
            limits: Limits::DEFAULT,
            out: String::new(),
            map: OffsetMap::new(),
            once: HashSet::new(),
            depth: 0,
            by_path,
            by_builtin,
            exp: ExpansionCtx {
                span: FileSpan {
                    file: FileId(0),
                    lo: 0,
                    hi: 0,
                },
                line: 0,
                file_name: Rc::from(""),
                work: 0,
                failed: false,
            },
            total_work: 0,
            total_work_reported: false,
        }
    }

    fn error(&mut self, code: Code, span: FileSpan, msg: impl Into<String>, label: &str) {
        self.diags
            .push(Diagnostic::error(code, msg).at(span, label));
    }

    /// Defines (or redefines) macro `name`.
    fn define(&mut self, name: Rc<str>, mut m: Macro) {
        let next = self.macro_ids.len() as u32;
        m.id = *self.macro_ids.entry(name.clone()).or_insert(next);
        self.macros.insert(name, Rc::new(m));
    }

    /// Whether file `id` has an include guard whose macro is defined.
    fn guarded(&self, id: FileId) -> bool {
        self.guards
            .get(&id)
            .is_some_and(|m| self.macros.contains_key(m))
    }

    /// Reports that a limit was reached and stops the run.
    fn stop(&mut self, span: FileSpan, msg: String, label: &str) {
        if !self.stopped {
            self.stopped = true;
            self.error(Code::InputTooLarge, span, msg, label);
        }
    }

    /// Preprocesses one file (the root or an included one) into the output.
    fn run_file(&mut self, id: FileId) {
        let file = self.sources.file(id);
        let dir = file
            .path
            .as_ref()
            .and_then(|p| p.parent())
            .map(PathBuf::from);
        self.scanned += file.text.len();
        let mut ctx = FileCtx::new(id, dir, &file.text);
        self.depth += 1;
        self.scan(&mut ctx);
        self.depth -= 1;
        if let Guard::Closed(m) = &ctx.guard {
            self.guards.insert(id, m.clone());
        }
        if self.stopped {
            return;
        }
        for c in std::mem::take(&mut ctx.conds) {
            self.error(
                Code::BadDirective,
                c.span,
                "unterminated conditional directive",
                "this `#if` has no `#endif`",
            );
        }
    }

    /// Scans a file: directives, comments, strings and macro invocations;
    /// everything else is copied.
    fn scan(&mut self, ctx: &mut FileCtx) {
        let text = Rc::clone(&ctx.text);
        let b = text.as_bytes();
        let (mut pos, mut copy, mut bol) = (0, 0, true);
        while pos < b.len() && !self.stopped {
            if bol {
                bol = false;
                let p = lex::skip_hspace(b, pos);
                if b.get(p) == Some(&b'#') {
                    if ctx.active() {
                        self.copy(ctx, copy, pos);
                    }
                    pos = self.directive_line(ctx, &text, p);
                    copy = pos;
                    bol = true;
                    continue;
                }
            }
            let active = ctx.active();
            let c = b[pos];
            let next = b.get(pos + 1).copied();
            let comment = c == b'/' && matches!(next, Some(b'/' | b'*'));
            if !c.is_ascii_whitespace() && !comment {
                ctx.saw_text();
            }
            if c == b'\n' {
                if !active {
                    self.newlines(ctx, pos, pos + 1);
                }
                pos += 1;
                bol = true;
            } else if c == b'/' && next == Some(b'/') {
                pos = lex::line_end(b, pos);
            } else if c == b'/' && next == Some(b'*') {
                let (end, terminated) = self.block_comment(ctx, pos, active);
                if !terminated && active {
                    // Unterminated: reported here; keep it from the lexer.
                    self.copy(ctx, copy, pos);
                    copy = end;
                }
                pos = end;
            } else if c == b'"' {
                pos = lex::string_end(b, pos);
            } else if lex::is_ident_start(c) {
                let mut end = lex::ident_end(b, pos);
                if active && let Some(after) = self.try_expand(ctx, &text, pos, end, copy) {
                    copy = after;
                    end = after;
                }
                pos = end;
            } else if lex::number_starts(b, pos) {
                pos = lex::number_end(b, pos);
            } else {
                pos += 1;
            }
        }
        if ctx.active() && !self.stopped {
            self.copy(ctx, copy, b.len());
        }
    }

    /// Skips the block comment at `pos` and returns its end and whether it
    /// is terminated (it is reported if not). In skipped text, its newlines
    /// are emitted.
    fn block_comment(&mut self, ctx: &mut FileCtx, pos: usize, active: bool) -> (usize, bool) {
        let found = lex::block_comment_end(ctx.text.as_bytes(), pos);
        if found.is_none() {
            self.unterminated_comment(ctx, pos);
        }
        let end = found.unwrap_or(ctx.text.len());
        if !active {
            self.newlines(ctx, pos, end);
        }
        (end, found.is_some())
    }

    fn unterminated_comment(&mut self, ctx: &FileCtx, pos: usize) {
        let span = ctx.span(pos, pos + 2);
        self.error(
            Code::UnterminatedComment,
            span,
            "unterminated block comment",
            "this comment has no `*/`",
        );
    }

    /// Handles the directive line whose `#` is at `hash`; returns the
    /// position after the line.
    fn directive_line(&mut self, ctx: &mut FileCtx, text: &str, hash: usize) -> usize {
        let b = text.as_bytes();
        let (end, unterminated) = directive_end(b, hash);
        if let Some(at) = unterminated {
            self.unterminated_comment(ctx, at);
        }
        self.directive(ctx, text, hash, end);
        let after = (end + 1).min(b.len());
        self.newlines(ctx, hash, after);
        after
    }

    /// Expands the macro invocation whose name is at `lo..hi`, if it is one.
    /// Returns the position after the invocation.
    fn try_expand(
        &mut self,
        ctx: &mut FileCtx,
        text: &str,
        lo: usize,
        hi: usize,
        copy: usize,
    ) -> Option<usize> {
        let name = text.get(lo..hi)?;
        match self.macros.get(name) {
            Some(m) if m.params.is_some() && !FileReader::new(text, hi).peek_lparen() => {
                return None;
            }
            None if !macros::is_builtin(name) => return None,
            _ => {}
        }
        self.begin_expansion(ctx, lo, hi);
        let tok = lex::Tok {
            kind: Kind::Ident,
            text: Rc::from(name),
            space: false,
            hide: None,
            lo: lo as u32,
            hi: hi as u32,
        };
        let mut reader = FileReader::new(text, hi);
        let toks = self.expand(vec![tok], Some(&mut reader), 0);
        let end = reader.end.max(hi);
        let mut spelled = lex::spell(&toks);
        let word_after = text
            .as_bytes()
            .get(end)
            .is_some_and(|&c| lex::is_ident_char(c));
        if word_after && spelled.bytes().last().is_some_and(lex::is_ident_char) {
            spelled.push(' ');
        }
        self.copy(ctx, copy, lo);
        self.push_expansion(ctx, lo, end, &spelled);
        Some(end)
    }

    /// Starts a new expansion at `lo..hi` of the current file.
    fn begin_expansion(&mut self, ctx: &FileCtx, lo: usize, hi: usize) {
        let span = ctx.span(lo, hi);
        let file = self.sources.file(ctx.id);
        self.exp = ExpansionCtx {
            span,
            line: file.line_index(span.lo) as u32 + 1,
            file_name: Rc::from(file.name.as_str()),
            work: 0,
            failed: false,
        };
    }

    /// Appends text copied verbatim from `ctx.text[lo..hi]`.
    fn copy(&mut self, ctx: &mut FileCtx, lo: usize, hi: usize) {
        if lo >= hi {
            return;
        }
        for (a, b) in ctx.pieces(lo, hi) {
            self.copy_piece(ctx, a, b);
        }
    }

    /// Emits the newlines in `ctx.text[lo..hi]` (and nothing else).
    fn newlines(&mut self, ctx: &mut FileCtx, lo: usize, hi: usize) {
        let text = Rc::clone(&ctx.text);
        let Some(slice) = text.as_bytes().get(lo..hi) else {
            return;
        };
        for (i, _) in slice.iter().enumerate().filter(|&(_, &c)| c == b'\n') {
            self.copy_piece(ctx, lo + i, lo + i + 1);
        }
    }

    /// Appends `ctx.text[lo..hi]`, which has no line continuation inside.
    /// At its first newline, newlines the file's earlier macro invocations
    /// and continuations swallowed are made up.
    fn copy_piece(&mut self, ctx: &mut FileCtx, lo: usize, hi: usize) {
        let text = Rc::clone(&ctx.text);
        let Some(piece) = text.get(lo..hi) else {
            return;
        };
        match piece.find('\n') {
            None => self.push_verbatim(ctx, lo, piece),
            Some(k) => {
                self.push_verbatim(ctx, lo, &piece[..=k]);
                ctx.emitted_nl += 1;
                self.sync_lines(ctx, lo + k);
                let rest = &piece[k + 1..];
                self.push_verbatim(ctx, lo + k + 1, rest);
                ctx.emitted_nl += rest.bytes().filter(|&c| c == b'\n').count();
            }
        }
    }

    /// Whether `n` more bytes fit in the output; if not, the run stops.
    fn room(&mut self, ctx: &FileCtx, lo: usize, n: usize) -> bool {
        if self.stopped {
            return false;
        }
        if self.out.len() + n <= self.limits.output {
            return true;
        }
        let span = ctx.span(lo, lo);
        self.stop(
            span,
            format!(
                "the preprocessed program would be larger than {}",
                shown_size(self.limits.output)
            ),
            "preprocessing stopped here",
        );
        false
    }

    fn push_verbatim(&mut self, ctx: &FileCtx, lo: usize, s: &str) {
        if !self.room(ctx, lo, s.len()) {
            return;
        }
        let len = s.len() as u32;
        self.map.push(Segment {
            out_lo: self.out.len() as u32,
            out_len: len,
            file: ctx.id,
            src_lo: ctx.orig(lo),
            src_len: len,
        });
        self.out.push_str(s);
    }

    /// After the newline at `nl`, adds newlines until the output has as
    /// many lines from this file as the original has up to there.
    fn sync_lines(&mut self, ctx: &mut FileCtx, nl: usize) {
        if self.stopped {
            return;
        }
        let line = self.sources.file(ctx.id).line_index(ctx.orig(nl));
        while ctx.emitted_nl < line + 1 {
            self.out.push('\n');
            ctx.emitted_nl += 1;
        }
    }

    /// Appends the expansion of the invocation at `lo..hi`.
    fn push_expansion(&mut self, ctx: &FileCtx, lo: usize, hi: usize, s: &str) {
        if !self.room(ctx, lo, s.len()) {
            return;
        }
        let span = ctx.span(lo, hi);
        self.map.push(Segment {
            out_lo: self.out.len() as u32,
            out_len: s.len() as u32,
            file: ctx.id,
            src_lo: span.lo,
            src_len: span.hi - span.lo,
        });
        self.out.push_str(s);
    }
}

/// The end (the `\n` or the end of text) of the directive line starting at
/// `i`, and the start of a `/*` comment in it that never ends. A block
/// comment in the line may span lines; the directive goes on after it.
fn directive_end(b: &[u8], mut i: usize) -> (usize, Option<usize>) {
    while i < b.len() {
        match b[i] {
            b'\n' => return (i, None),
            b'/' if b.get(i + 1) == Some(&b'/') => return (lex::line_end(b, i), None),
            b'/' if b.get(i + 1) == Some(&b'*') => match lex::block_comment_end(b, i) {
                Some(e) => i = e,
                None => return (b.len(), Some(i)),
            },
            b'"' => i = lex::string_end(b, i),
            _ => i += 1,
        }
    }
    (b.len(), None)
}
