//! Crate-level tests over the RAM flash and OTP doubles.

mod attest;
mod boot;
pub(crate) mod fixtures;
mod power_loss;
