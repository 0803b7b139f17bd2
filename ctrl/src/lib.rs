//! Janus control plane: P4Runtime over gRPC, tenants, authentication and isolation.
//!
//! Empty until the control-plane issue lands; the crate exists so the workspace
//! layout (and its one-way dependency rule) is fixed from the start.
