//! The Janus P4_16 front end.
//!
//! Source text goes through the [`preprocess`]or, the [`lexer`] and the
//! [`parser`] into an [`ast`]; the checker resolves names and types and lowers
//! the program to an IR the behavioural model executes.

pub mod ast;
pub mod check;
pub mod diag;
pub mod driver;
pub mod includes;
pub mod ir;
pub mod lexer;
pub mod p4info;
pub mod parser;
pub mod pipeline;
pub mod preprocess;
pub mod pretty;
pub mod proto;
pub mod source;
pub mod types;
