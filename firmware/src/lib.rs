//! Janus firmware, the std side: the simulated card that the firmware core
//! (`janus-firmware-core`, `no_std`) boots from, the Linux MTD backend for
//! real flash, fault injection for power-loss tests, and Ed25519 keys in
//! standard encodings.
//!
//! - [`card`]: a card in a directory (file-backed NOR flash, OTP, device
//!   key), implementing [`janus_firmware_core::flash::Flash`] and
//!   [`janus_firmware_core::flash::Otp`];
//! - [`fault`]: a [`Flash`](janus_firmware_core::flash::Flash) wrapper that
//!   cuts power after the k-th write or erase, optionally tearing it;
//! - [`mtd`]: `/dev/mtdN` as a `Flash`;
//! - [`keys`]: key generation, PKCS#8 / SPKI PEM files and their loaders;
//! - [`config`]: the firmware configuration file and its canonical form
//!   in images;
//! - [`tools`]: building, inspecting and verifying images, and flashing,
//!   booting, attesting and describing a card (`janus image`, `janus nic`);
//! - [`runtime`]: boot to service (`janus nic run CARD`): the pipeline and
//!   configuration of the booted image, the health check, the confirmation;
//! - [`slowpath`]: the agent answering ARP and neighbour solicitations for
//!   the tenants' gateways.

#![deny(unsafe_code)]

pub mod card;
pub mod config;
pub mod fault;
pub mod keys;
#[allow(unsafe_code)]
pub mod mtd;
mod nor_file;
pub mod runtime;
pub mod slowpath;
pub mod tools;
