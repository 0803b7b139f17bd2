//! A switch's ports on Linux interfaces: each port number bound to an
//! interface through an mmap'd-ring packet socket
//! ([`crate::sys::packet_ring`]), received in batches from whichever ports
//! have frames, sent in batches with one flush per port and round. An
//! interface that goes away (deleted, or its namespace gone) is reported
//! once and its port stops; the others go on.

use std::io;
use std::time::Duration;

use crate::sys::packet_ring::{RingConfig, RingPort, RingStats};
use crate::sys::poll::{PollFd, wait};

/// One port: its number, interface and ring (`None` once it failed).
struct Port {
    number: u32,
    iface: String,
    ring: Option<RingPort>,
    /// Frames queued since the last flush.
    queued: bool,
}

/// What happened to a port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortEvent {
    /// Its interface went away or failed: the port is stopped.
    Down {
        port: u32,
        iface: String,
        why: String,
    },
}

/// The ports of a switch.
pub struct PortSet {
    ports: Vec<Port>,
    /// Frames handed to each `poll` callback at most per port and round.
    batch: usize,
}

/// Checks a port list: port numbers and interface names unique.
fn check_unique(ports: &[(u32, String)]) -> io::Result<()> {
    for (i, (p, iface)) in ports.iter().enumerate() {
        for (q, other) in &ports[..i] {
            if p == q {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("port {p} is given twice ({other} and {iface})"),
                ));
            }
            if iface == other {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("interface {iface} is given twice (ports {q} and {p})"),
                ));
            }
        }
    }
    Ok(())
}

impl PortSet {
    /// Binds each (port number, interface) with rings of `config`; the
    /// first interface that cannot be opened is the error (naming it).
    pub fn open(ports: &[(u32, String)], config: RingConfig) -> io::Result<PortSet> {
        check_unique(ports)?;
        let mut out = Vec::with_capacity(ports.len());
        for (number, iface) in ports {
            let ring = RingPort::open(iface, config)
                .map_err(|e| io::Error::new(e.kind(), format!("port {number} ({iface}): {e}")))?;
            out.push(Port {
                number: *number,
                iface: iface.clone(),
                ring: Some(ring),
                queued: false,
            });
        }
        Ok(PortSet {
            ports: out,
            batch: 64,
        })
    }

    /// The port numbers and interfaces, in the order given.
    pub fn list(&self) -> impl Iterator<Item = (u32, &str)> {
        self.ports.iter().map(|p| (p.number, p.iface.as_str()))
    }

    /// Waits at most `timeout` for frames, then hands every frame waiting
    /// (at most a batch per port) to `f` with its port number. Ports whose
    /// interface failed are stopped and returned as events.
    pub fn poll(
        &mut self,
        timeout: Duration,
        mut f: impl FnMut(u32, &[u8]),
    ) -> io::Result<Vec<PortEvent>> {
        let mut fds: Vec<PollFd> = self
            .ports
            .iter()
            .filter_map(|p| p.ring.as_ref().map(|r| PollFd::readable(r.raw_fd())))
            .collect();
        if fds.is_empty() {
            std::thread::sleep(timeout);
            return Ok(Vec::new());
        }
        wait(&mut fds, timeout)?;
        let mut events = Vec::new();
        let mut ready = fds.iter();
        for p in &mut self.ports {
            let Some(ring) = p.ring.as_mut() else {
                continue;
            };
            let Some(fd) = ready.next() else { break };
            if fd.is_closed() {
                events.push(PortEvent::Down {
                    port: p.number,
                    iface: p.iface.clone(),
                    why: "the interface went away".into(),
                });
                p.ring = None;
                continue;
            }
            if fd.is_readable() {
                let number = p.number;
                ring.recv_batch(self.batch, |frame| f(number, frame));
            }
        }
        Ok(events)
    }

    /// Queues `frame` on port `number`; `false` when the port is unknown,
    /// stopped, or its ring is full (the frame is dropped).
    pub fn send(&mut self, number: u32, frame: &[u8]) -> bool {
        let Some(p) = self.ports.iter_mut().find(|p| p.number == number) else {
            return false;
        };
        let Some(ring) = p.ring.as_mut() else {
            return false;
        };
        let queued = ring.queue(frame);
        p.queued |= queued;
        queued
    }

    /// Sends what was queued, one system call per port that has frames.
    /// A port whose interface fails is stopped and returned as an event.
    pub fn flush(&mut self) -> Vec<PortEvent> {
        let mut events = Vec::new();
        for p in &mut self.ports {
            if !p.queued {
                continue;
            }
            p.queued = false;
            let Some(ring) = p.ring.as_mut() else {
                continue;
            };
            if let Err(e) = ring.flush() {
                events.push(PortEvent::Down {
                    port: p.number,
                    iface: p.iface.clone(),
                    why: e.to_string(),
                });
                p.ring = None;
            }
        }
        events
    }

    /// Each running port's counters.
    pub fn stats(&self) -> Vec<(u32, RingStats)> {
        self.ports
            .iter()
            .filter_map(|p| Some((p.number, p.ring.as_ref()?.stats())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_and_interfaces_are_unique() {
        let ok = [(1, "a".to_string()), (2, "b".to_string())];
        assert!(check_unique(&ok).is_ok());
        let twice = [(1, "a".to_string()), (1, "b".to_string())];
        assert!(
            check_unique(&twice)
                .unwrap_err()
                .to_string()
                .contains("port 1")
        );
        let shared = [(1, "a".to_string()), (2, "a".to_string())];
        assert!(
            check_unique(&shared)
                .unwrap_err()
                .to_string()
                .contains("interface a")
        );
        let missing = PortSet::open(&[(1, "janus-no-such0".into())], RingConfig::default());
        assert!(missing.is_err_and(|e| e.to_string().contains("janus-no-such0")));
    }
}
