//! Subcommand implementations.

pub mod ctrl;
pub mod ctrl_client;
pub mod ctrl_journal;
pub mod demo;
pub mod demo_real;
pub mod fabric;
pub mod host;
pub mod image;
pub mod keys;
pub mod nic;
pub mod nic_run;
pub mod p4;
mod program_codes;
pub mod sim;
pub mod sim_run;
pub mod switch;
