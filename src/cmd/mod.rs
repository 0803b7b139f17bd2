//! Subcommand implementations.

pub mod demo;
pub mod p4;
