//! Subcommand implementations.

pub mod ctrl;
pub mod ctrl_client;
pub mod demo;
pub mod p4;
pub mod sim;
pub mod sim_run;
