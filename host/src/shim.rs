//! The host shim: moves Ethernet frames between a Linux interface (a TAP
//! device or, through a packet socket, a veth end) and one VF of the NIC
//! process, in batches. Nothing queues without bound: a frame read from
//! the interface waits in a transmit buffer of the VF's ring, and when all
//! are in flight the shim stops reading the interface (the kernel's queue
//! then fills and drops, as a congested link would); a frame from the NIC
//! that the interface will not take is dropped and counted.

use std::path::PathBuf;
use std::time::Duration;

use crate::ring::Armed;
use crate::sys::iface::Iface;
use crate::sys::poll::{self, PollFd};
use crate::transport::{HostEnd, HostEndCounters, TransportError, socket_path};

/// Longest the shim sleeps before looking at its stop condition.
const TICK: Duration = Duration::from_millis(100);

/// Bytes read from the interface at once: any frame it can carry, so that
/// an oversized one is seen whole and counted, never truncated.
const READ_BUF: usize = 64 * 1024;

/// The Linux side of the shim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Interface {
    /// A TAP device, created if it does not exist.
    Tap(String),
    /// An existing interface (a veth end), through a packet socket.
    Veth(String),
}

/// How the shim runs.
#[derive(Debug, Clone)]
pub struct ShimConfig {
    /// The NIC process's runtime directory (its VF sockets).
    pub nic_dir: PathBuf,
    /// The VF's NIC port (2..=509).
    pub port: u32,
    /// The interface to bridge.
    pub interface: Interface,
    /// Most frames moved per direction per round.
    pub batch: usize,
}

/// What the shim counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ShimCounters {
    /// The transport's own counts (frames to and from the NIC, ring full).
    pub transport: HostEndCounters,
    /// Frames read from the interface.
    pub from_interface: u64,
    /// Frames written to the interface.
    pub to_interface: u64,
    /// Frames from the NIC dropped: the interface's queue was full or it
    /// refused the write (down).
    pub interface_drops: u64,
    /// Frames read from the interface that exceed a VF buffer (dropped).
    pub oversized: u64,
}

/// Why the shim stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The stop condition became true (SIGINT/SIGTERM).
    Requested,
    /// The NIC process closed the VF's connection.
    NicClosed,
}

/// Why the shim failed.
#[derive(Debug, thiserror::Error)]
pub enum ShimError {
    /// The interface could not be opened or failed.
    #[error("interface {name}: {source}")]
    Interface {
        /// The interface's name.
        name: String,
        /// The error.
        source: std::io::Error,
    },
    /// The transport to the NIC failed.
    #[error(transparent)]
    Transport(#[from] TransportError),
}

/// The shim attached to its interface and VF.
pub struct Shim {
    config: ShimConfig,
    iface: Iface,
    end: HostEnd,
    counters: ShimCounters,
    buf: Vec<u8>,
}

impl Shim {
    /// Opens the interface and attaches to the VF.
    pub fn attach(config: ShimConfig) -> Result<Self, ShimError> {
        let (name, opened) = match &config.interface {
            Interface::Tap(name) => (name, Iface::tap(name)),
            Interface::Veth(name) => (name, Iface::packet(name)),
        };
        let iface = opened.map_err(|source| ShimError::Interface {
            name: name.clone(),
            source,
        })?;
        let end = HostEnd::connect(&socket_path(&config.nic_dir, config.port), config.port)?;
        Ok(Self {
            config,
            iface,
            end,
            counters: ShimCounters::default(),
            buf: vec![0; READ_BUF],
        })
    }

    /// What the shim counted so far.
    pub fn counters(&self) -> ShimCounters {
        ShimCounters {
            transport: self.end.counters(),
            ..self.counters
        }
    }

    /// The VF's counters kept by the NIC (`function::Counter` order).
    pub fn nic_counters(&self) -> [u64; 6] {
        self.end.nic_counters()
    }

    /// Moves frames until `stop` returns true (checked at least every
    /// 100 ms) or the NIC goes away.
    pub fn run(&mut self, stop: &dyn Fn() -> bool) -> Result<Stopped, ShimError> {
        while !stop() {
            if self.round()? > 0 {
                continue;
            }
            if self.end.arm() == Armed::WorkPending {
                continue;
            }
            let mut fds = [
                PollFd::readable(self.end.irq_fd()),
                PollFd::readable(self.end.conn_fd()),
                PollFd::readable(self.iface.raw_fd()),
            ];
            // Back-pressure: with every transmit buffer in flight, do not
            // wait on the interface (it would wake us for nothing).
            let n = if self.end.can_send() { 3 } else { 2 };
            poll::wait(&mut fds[..n], TICK).map_err(|source| self.iface_error(source))?;
            let conn = fds[1];
            // The NIC sends nothing after the handshake: readable means
            // end-of-file.
            if conn.is_readable() || conn.is_closed() {
                return Ok(Stopped::NicClosed);
            }
            if fds[0].is_readable() {
                self.end.drain_interrupts()?;
            }
        }
        Ok(Stopped::Requested)
    }

    /// One batch each way; returns how much was done.
    fn round(&mut self) -> Result<usize, ShimError> {
        let batch = self.config.batch;
        let (iface, counters) = (&self.iface, &mut self.counters);
        let mut work = self.end.receive(batch, |frame| match iface.send(frame) {
            Ok(true) => counters.to_interface += 1,
            Ok(false) | Err(_) => counters.interface_drops += 1,
        })?;
        work += self.end.reclaim()?;
        let mut queued = 0;
        while queued < batch && self.end.can_send() {
            let n = match self.iface.recv(&mut self.buf) {
                Ok(Some(n)) => n,
                Ok(None) => break,
                Err(source) => return Err(self.iface_error(source)),
            };
            self.counters.from_interface += 1;
            if n > self.buf.len() || !self.end.send(&self.buf[..n])? {
                self.counters.oversized += 1;
                continue;
            }
            queued += 1;
        }
        if queued > 0 {
            self.end.flush()?;
        }
        Ok(work + queued)
    }

    fn iface_error(&self, source: std::io::Error) -> ShimError {
        let name = match &self.config.interface {
            Interface::Tap(n) | Interface::Veth(n) => n.clone(),
        };
        ShimError::Interface { name, source }
    }
}
