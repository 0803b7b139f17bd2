//! Janus host driver shim: queues between host and NIC, virtual functions and the
//! bridge to real Linux interfaces.
//!
//! Empty until the host issue lands. This crate must never depend on `janus-ctrl`
//! or `janus-firmware`: the isolation Janus enforces is mirrored in the code.
