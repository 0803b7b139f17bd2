//! The Janus behavioural model engine: executes the front end's IR,
//! independent of any architecture (v1model and others sit on top).
//!
//! An architecture uses [`pipeline`] to load a program, implements its
//! externs through [`externs`], runs blocks through [`env`] and [`exec`],
//! and offers the result as a [`target::Target`]. Modules only the
//! engine itself uses (`bind`, `lower`) are private.

mod bind;
pub mod env;
pub mod eval;
pub mod exec;
pub mod externs;
pub mod flow;
pub mod layout;
mod lower;
pub mod meter;
pub mod parser;
pub mod pipeline;
pub mod plan;
pub mod profile;
pub mod table;
pub mod target;
pub mod value;

#[cfg(test)]
mod test_support;
