//! Janus firmware for the NIC's embedded cores: signed images, secure and measured
//! boot, A/B slots and the slow-path agent.
//!
//! Empty until the firmware issue lands.
