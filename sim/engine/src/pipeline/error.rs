//! Why a program's pipeline did not load, and where.

use crate::eval::CompileError;
use crate::layout::LayoutError;
use janus_p4::source::{Locator, Span};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum LoadError {
    /// `main` is not an instance of the architecture's package.
    #[error("the program has no `main` {0} package")]
    NoPackage(&'static str),
    #[error("{package} argument {index} is not a parser or control instance")]
    BadArgument { package: &'static str, index: usize },
    #[error("cannot lay out the program: {0}")]
    Layout(#[from] LayoutError),
    #[error("{block}: {error}")]
    Compile { block: String, error: CompileError },
    /// A refusal of the architecture's own (an extern's size, ...).
    #[error("{0}")]
    Target(Box<dyn std::error::Error + Send + Sync>),
    /// A refusal at a place in the program: `file:line:col: ...`.
    #[error("{at}: {error}")]
    At { at: String, error: Box<LoadError> },
}

impl LoadError {
    /// `error` while compiling the block instance at `block`.
    pub fn compile(block: &str, error: CompileError) -> LoadError {
        LoadError::Compile {
            block: block.to_string(),
            error,
        }
    }

    /// `self` at `span` (through `locator`), unless it names a place
    /// already (a compile error found inside a statement names its own)
    /// or the program has no source locations.
    pub fn at(self, locator: &Locator, span: Span) -> LoadError {
        match self {
            LoadError::At { .. } => self,
            LoadError::Compile {
                block,
                error: CompileError::At { at, error },
            } => LoadError::At {
                at,
                error: Box::new(LoadError::Compile {
                    block,
                    error: *error,
                }),
            },
            other => match locator.locate(span) {
                Some(at) => LoadError::At {
                    at,
                    error: Box::new(other),
                },
                None => other,
            },
        }
    }

    /// The `file:line:col` the error names, if any.
    pub fn location(&self) -> Option<&str> {
        match self {
            LoadError::At { at, .. } => Some(at),
            _ => None,
        }
    }
}
