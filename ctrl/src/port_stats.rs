//! Per-port packet and byte counts, kept by the P4Runtime server for every
//! packet that goes through the pipeline and read by gNMI.
//!
//! A fixed table of atomic counters indexed by port (v1model ports are
//! 9 bits wide): counting allocates nothing and takes no lock.

use std::sync::atomic::{AtomicU64, Ordering};

/// Ports that can be counted: 0..512 (9-bit v1model ports).
pub const COUNTED_PORTS: usize = 512;

/// The counts of one port, as read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortCounters {
    /// Frames that entered the pipeline on the port.
    pub in_pkts: u64,
    /// Their bytes.
    pub in_octets: u64,
    /// Frames the pipeline sent out of the port.
    pub out_pkts: u64,
    /// Their bytes.
    pub out_octets: u64,
    /// Frames that entered on the port and left by no port at all.
    pub in_discards: u64,
}

#[derive(Default)]
struct Cells {
    in_pkts: AtomicU64,
    in_octets: AtomicU64,
    out_pkts: AtomicU64,
    out_octets: AtomicU64,
    in_discards: AtomicU64,
}

/// The counts of every port. Ports from [`COUNTED_PORTS`] on are ignored.
pub struct PortStats {
    ports: Box<[Cells; COUNTED_PORTS]>,
}

impl Default for PortStats {
    fn default() -> Self {
        PortStats::new()
    }
}

impl PortStats {
    /// Every count at 0.
    pub fn new() -> PortStats {
        PortStats {
            ports: Box::new(std::array::from_fn(|_| Cells::default())),
        }
    }

    fn cells(&self, port: u32) -> Option<&Cells> {
        self.ports.get(usize::try_from(port).ok()?)
    }

    /// A frame of `len` bytes entered the pipeline on `port`.
    pub fn count_in(&self, port: u32, len: usize) {
        if let Some(c) = self.cells(port) {
            c.in_pkts.fetch_add(1, Ordering::Relaxed);
            c.in_octets.fetch_add(len as u64, Ordering::Relaxed);
        }
    }

    /// The pipeline sent a frame of `len` bytes out of `port`.
    pub fn count_out(&self, port: u32, len: usize) {
        if let Some(c) = self.cells(port) {
            c.out_pkts.fetch_add(1, Ordering::Relaxed);
            c.out_octets.fetch_add(len as u64, Ordering::Relaxed);
        }
    }

    /// A frame that entered on `port` left by no port.
    pub fn count_discard(&self, port: u32) {
        if let Some(c) = self.cells(port) {
            c.in_discards.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The counts of `port` (all 0 for a port beyond the table).
    pub fn get(&self, port: u32) -> PortCounters {
        self.cells(port)
            .map(|c| PortCounters {
                in_pkts: c.in_pkts.load(Ordering::Relaxed),
                in_octets: c.in_octets.load(Ordering::Relaxed),
                out_pkts: c.out_pkts.load(Ordering::Relaxed),
                out_octets: c.out_octets.load(Ordering::Relaxed),
                in_discards: c.in_discards.load(Ordering::Relaxed),
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_port_and_ignores_ports_beyond_the_table() {
        let s = PortStats::new();
        s.count_in(3, 60);
        s.count_in(3, 40);
        s.count_out(1, 60);
        s.count_discard(3);
        s.count_in(9999, 1);
        let three = s.get(3);
        assert_eq!(
            (three.in_pkts, three.in_octets, three.in_discards),
            (2, 100, 1)
        );
        assert_eq!((s.get(1).out_pkts, s.get(1).out_octets), (1, 60));
        assert_eq!(s.get(9999), PortCounters::default());
    }
}
