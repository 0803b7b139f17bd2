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
    /// The descriptors polled, reused.
    fds: Vec<PollFd>,
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
            fds: Vec::new(),
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
        f: impl FnMut(u32, &[u8]),
    ) -> io::Result<Vec<PortEvent>> {
        let events = self.wait(timeout)?;
        self.drain(f);
        Ok(events)
    }

    /// Waits at most `timeout` until a port has frames (or fails). Ports
    /// whose interface failed are stopped and returned as events.
    pub fn wait(&mut self, timeout: Duration) -> io::Result<Vec<PortEvent>> {
        self.fds.clear();
        self.fds.extend(
            self.ports
                .iter()
                .filter_map(|p| p.ring.as_ref().map(|r| PollFd::readable(r.raw_fd()))),
        );
        if self.fds.is_empty() {
            std::thread::sleep(timeout);
            return Ok(Vec::new());
        }
        wait(&mut self.fds, timeout)?;
        let mut events = Vec::new();
        let mut ready = self.fds.iter();
        for p in &mut self.ports {
            if p.ring.is_none() {
                continue;
            }
            let Some(fd) = ready.next() else { break };
            if fd.is_closed() {
                events.push(PortEvent::Down {
                    port: p.number,
                    iface: p.iface.clone(),
                    why: "the interface went away".into(),
                });
                p.ring = None;
            }
        }
        Ok(events)
    }

    /// Hands the frames waiting (at most a batch per port) to `f` with
    /// their port number, without blocking; returns how many.
    pub fn drain(&mut self, mut f: impl FnMut(u32, &[u8])) -> usize {
        let mut n = 0;
        for p in &mut self.ports {
            if let Some(ring) = p.ring.as_mut() {
                let number = p.number;
                n += ring.recv_batch(self.batch, |frame| f(number, frame));
            }
        }
        n
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

/// Frames waiting to be sent, in order, kept in one buffer that is
/// reused: no allocation per frame once it has grown.
#[derive(Debug, Default)]
pub struct FrameQueue {
    bytes: Vec<u8>,
    /// (port, end of the frame in `bytes`).
    frames: Vec<(u32, usize)>,
}

impl FrameQueue {
    /// Queues a copy of `frame` for port `port`.
    pub fn push(&mut self, port: u32, frame: &[u8]) {
        self.bytes.extend_from_slice(frame);
        self.frames.push((port, self.bytes.len()));
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The frames queued, oldest first, as (port, bytes).
    pub fn iter(&self) -> impl Iterator<Item = (u32, &[u8])> {
        let mut start = 0;
        self.frames.iter().map(move |&(port, end)| {
            let frame = &self.bytes[start..end];
            start = end;
            (port, frame)
        })
    }

    /// Forgets the frames queued, keeping the buffer.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.frames.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_queue_keeps_frames_in_order() {
        let mut q = FrameQueue::default();
        q.push(2, b"ab");
        q.push(1, b"");
        q.push(7, b"cde");
        let got: Vec<(u32, &[u8])> = q.iter().collect();
        assert_eq!(got, [(2, &b"ab"[..]), (1, &b""[..]), (7, &b"cde"[..])]);
        q.clear();
        assert!(q.is_empty());
        assert_eq!(q.iter().count(), 0);
    }

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
