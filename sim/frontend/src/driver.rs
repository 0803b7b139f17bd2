//! The front end as one call: preprocess, lex, parse, check.
//!
//! ```
//! use janus_p4::driver::{compile_source, Options};
//! let c = compile_source("t.p4", "const bit<8> X = 1;".into(), &Options::default());
//! assert!(!c.has_errors());
//! ```

use crate::ast;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::ir;
use crate::preprocess::{self, PreprocessConfig};
use crate::source::{FileId, SourceMap};
use std::path::{Path, PathBuf};

pub use crate::source::MAX_SOURCE_BYTES;

/// Front-end options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-I` include directories.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]` macro definitions.
    pub defines: Vec<(String, Option<String>)>,
    /// Where `#include` may look: the file system (the default, for the
    /// command line) or only the built-in architecture files (for
    /// programs from untrusted sources, such as P4Runtime device configs).
    pub include_access: IncludeAccess,
}

/// Where the preprocessor may look for `#include`d files.
///
/// ```
/// use janus_p4::driver::{compile_source, IncludeAccess, Options};
/// let sandbox = Options { include_access: IncludeAccess::BuiltinOnly, ..Options::default() };
/// let c = compile_source("t.p4", "#include \"/etc/passwd\"\n".into(), &sandbox);
/// assert!(c.has_errors());
/// let c = compile_source("t.p4", "#include <core.p4>\n".into(), &sandbox);
/// assert!(!c.has_errors());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IncludeAccess {
    /// `"file"` next to the including file, then the `-I` directories,
    /// then the built-in files (cpp's rules).
    #[default]
    FileSystem,
    /// The sandbox: only the built-in architecture files
    /// ([`crate::includes::BUILTIN`]) resolve, by the name written in
    /// `<...>` or `"..."`; any other `#include` is an error (E0025). No
    /// file is opened, stat'ed or canonicalised, the `-I` directories are
    /// not searched, and so no diagnostic can quote a file from disk.
    BuiltinOnly,
}

/// Everything one run of the front end produced.
#[derive(Debug)]
pub struct Compilation {
    pub sources: SourceMap,
    pub root: FileId,
    pub diagnostics: Diagnostics,
    /// The preprocessed translation unit.
    pub preprocessed: String,
    /// The parsed program (present even with errors, as far as it parsed).
    pub ast: Option<ast::Program>,
    /// The checked program; only present when parsing succeeded.
    pub ir: Option<ir::Program>,
}

impl Compilation {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.has_errors()
    }

    /// All diagnostics rendered with source snippets.
    pub fn render(&self, color: bool) -> String {
        self.diagnostics.render(&self.sources, color)
    }

    /// The IR if the program is free of errors.
    pub fn program(&self) -> Option<&ir::Program> {
        if self.has_errors() {
            None
        } else {
            self.ir.as_ref()
        }
    }
}

/// Compiles the file at `path`. A file larger than [`MAX_SOURCE_BYTES`]
/// is not read: the compilation has one error (E0005).
pub fn compile_file(path: &Path, opts: &Options) -> std::io::Result<Compilation> {
    let mut sources = SourceMap::new();
    let root = match sources.load(path) {
        Ok(root) => root,
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => {
            return Ok(too_large(&path.display().to_string(), &e.to_string()));
        }
        Err(e) => return Err(e),
    };
    Ok(run(sources, root, opts))
}

/// Compiles source text given in memory (`name` is used in messages and,
/// with [`IncludeAccess::FileSystem`], to resolve relative includes when
/// it is a path). Text longer than [`MAX_SOURCE_BYTES`] is not looked
/// at: the compilation has one error (E0005).
pub fn compile_source(name: &str, text: String, opts: &Options) -> Compilation {
    if text.len() > MAX_SOURCE_BYTES {
        let why = format!(
            "{name} is {} bytes; the limit is {} MiB",
            text.len(),
            MAX_SOURCE_BYTES >> 20
        );
        return too_large(name, &why);
    }
    let mut sources = SourceMap::new();
    let path = Path::new(name);
    let root = sources.add(name, path.parent().map(|_| path.to_path_buf()), text);
    run(sources, root, opts)
}

/// The compilation of a source too large to read: no text, one error.
fn too_large(name: &str, why: &str) -> Compilation {
    let mut sources = SourceMap::new();
    let root = sources.add(name, None, String::new());
    let mut diagnostics = Diagnostics::new();
    diagnostics.push(Diagnostic::error(
        Code::InputTooLarge,
        format!("the program is too large to compile: {why}"),
    ));
    not_parsed(sources, root, diagnostics)
}

/// A compilation that stopped before parsing (its input too large).
fn not_parsed(sources: SourceMap, root: FileId, diagnostics: Diagnostics) -> Compilation {
    Compilation {
        sources,
        root,
        diagnostics,
        preprocessed: String::new(),
        ast: None,
        ir: None,
    }
}

/// Stack for the front end's thread: its passes recurse over the program's
/// nesting (bounded by [`crate::parser::MAX_DEPTH`]); this keeps them safe
/// whatever thread the caller runs on. Only touched pages are committed.
const STACK_SIZE: usize = 256 << 20;

fn run(sources: SourceMap, root: FileId, opts: &Options) -> Compilation {
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .name("janus-p4".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(s, || run_here(sources, root, opts))
        {
            Ok(handle) => match handle.join() {
                Ok(c) => c,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(e) => panic!("cannot start the front end's thread: {e}"),
        }
    })
}

fn run_here(mut sources: SourceMap, root: FileId, opts: &Options) -> Compilation {
    let mut diagnostics = Diagnostics::new();
    let config = PreprocessConfig {
        include_dirs: opts.include_dirs.clone(),
        defines: opts.defines.clone(),
        include_access: opts.include_access,
    };
    let pp = preprocess::preprocess(&mut sources, root, &config, &mut diagnostics);
    if pp.stopped {
        // Too large: what was preprocessed is not parsed.
        return not_parsed(sources, root, diagnostics);
    }
    let (tokens, lex_errors) = crate::lexer::lex(&pp.text);
    let crate::parser::Parsed {
        program,
        errors: syntax_errors,
        annotation_bodies,
    } = crate::parser::parse(&tokens, &pp.text);
    for e in lex_errors {
        // Any character may appear in an annotation's body.
        let in_annotation = e.code == Code::BadCharacter
            && annotation_bodies
                .iter()
                .any(|b| b.lo <= e.span.lo && e.span.hi <= b.hi);
        if in_annotation {
            continue;
        }
        if let Some(at) = pp.map.resolve(e.span) {
            diagnostics.push(e.into_diagnostic(at));
        }
    }
    for e in &syntax_errors {
        let mut d = Diagnostic::error(Code::Syntax, e.message.clone());
        if let Some(at) = pp.map.resolve(e.span) {
            d = d.at(at, "");
        }
        diagnostics.push(d);
    }
    let ir = if diagnostics.has_errors() {
        None
    } else {
        let mut ir = crate::check::check_program(&program, &pp.map, &mut diagnostics);
        ir.locator = crate::source::Locator::new(&pp.map, &sources);
        Some(ir)
    };
    if let Some(d) = crate::check::v1model_version::check(&program, &pp.map, &sources) {
        diagnostics.push(d);
    }
    Compilation {
        sources,
        root,
        diagnostics,
        preprocessed: pp.text,
        ast: Some(program),
        ir,
    }
}
