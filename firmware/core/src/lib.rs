//! The part of Janus's NIC firmware that runs on the card's embedded cores:
//! `no_std` + `alloc`, every access to storage behind the [`flash::Flash`]
//! and [`flash::Otp`] traits, so the same code runs on the simulated card
//! (crate `janus-firmware`) and on hardware.
//!
//! - [`image`]: the signed image format (docs/image-format.md), builder,
//!   parser, verifier.
//! - [`layout`], [`slots`]: the flash layout (boot-record sectors, slots A
//!   and B) and the torn-write-safe boot record.
//! - [`flasher`]: crash-safe flashing of the inactive slot.
//! - [`boot`], [`measure`]: the boot ROM (trial boots, fallback) and the
//!   measurement chain; [`attest`]: quotes.

#![no_std]

extern crate alloc;

pub mod attest;
pub mod boot;
pub mod flash;
pub mod flasher;
pub mod image;
pub mod layout;
pub mod measure;
pub mod slots;

#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;
