//! Janus host-NIC contract (docs/host-interface.md): the register space of
//! each PCIe function (`regs`), split-virtqueue descriptor rings in shared
//! memory (`ring`), the physical and virtual functions that own them
//! (`function`), the transport between the NIC process and host shims
//! (`transport`, over the system calls of `sys`), the shim that bridges
//! a VF to a Linux interface (`shim`), a switch's ports on Linux
//! interfaces through mmap'd packet rings (`ports`), and a nanomsg PAIR
//! endpoint carrying bmv2's packet-in protocol (`nanomsg`).
//!
//! This crate never depends on `janus-ctrl` or `janus-firmware`: a tenant's
//! side of the NIC has no path to tables, firmware, flash or the control
//! plane, and the code mirrors that isolation.

pub mod function;
pub mod nanomsg;
pub mod ports;
pub mod regs;
pub mod ring;
pub mod shim;
pub mod sys;
pub mod transport;
pub mod vhost;
