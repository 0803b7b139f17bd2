//! The Janus behavioural model engine: executes the front end's IR,
//! independent of any architecture (v1model and others sit on top).

pub mod bind;
pub mod env;
pub mod eval;
pub mod exec;
pub mod externs;
pub mod layout;
pub mod lower;
pub mod parser;
pub mod plan;
pub mod profile;
pub mod table;
pub mod value;

#[cfg(test)]
mod test_support;
