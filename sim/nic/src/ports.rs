//! The port map of the Janus SmartNIC (docs/nic-model.md): the Rust side of
//! `p4/include/janus_nic.p4`, for the control plane, firmware and host
//! shim. A test (`tests/nic_ports.rs`) checks that both say the same.
//!
//! ```
//! use janus_nic::ports;
//! assert!(ports::is_uplink(1) && ports::is_vf(2) && !ports::is_vf(ports::CPU_PORT));
//! ```

/// The network uplinks (toward the top-of-rack switches).
pub const UPLINKS: [u32; 2] = [0, 1];
/// The first and last host virtual function ports.
pub const FIRST_VF: u32 = 2;
pub const LAST_VF: u32 = 509;
/// The port to the NIC's embedded cores (firmware slow path, control plane).
pub const CPU_PORT: u32 = 510;
/// v1model's drop port (`janus_v1model::DROP_PORT`).
pub const DROP_PORT: u32 = 511;

/// Reason codes of the `packet_in` header sent to the CPU port.
pub mod punt {
    /// ARP for a tenant's gateway IPv4 address.
    pub const ARP_GATEWAY: u8 = 1;
    /// IPv6 neighbour solicitation/advertisement for a tenant's gateway.
    pub const ND_GATEWAY: u8 = 2;
    /// Management traffic from an uplink.
    pub const MANAGEMENT: u8 = 3;
}

/// Whether `port` is a network uplink.
pub fn is_uplink(port: u32) -> bool {
    UPLINKS.contains(&port)
}

/// Whether `port` is a host virtual function.
pub fn is_vf(port: u32) -> bool {
    (FIRST_VF..=LAST_VF).contains(&port)
}
