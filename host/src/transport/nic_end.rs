//! The NIC's end of one attached VF: it creates the memory and event
//! counters, sends the handshake, then pops the frames the shim transmits
//! and fills the receive buffers the shim offers. It trusts nothing in the
//! memory: descriptors outside the packet buffers, or of the wrong
//! direction, drop the frame (counted); a ring the shim broke ends the
//! attachment.

use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::sync::Arc;

use super::{Handshake, Refusal, TransportError, VfMemory};
use crate::function::Counter;
use crate::ring::{Access, Armed, Chain, Device, Notify, SharedRegion};
use crate::sys::{eventfd::EventFd, fdpass, memfd};

/// Longest frame the NIC takes from a shim (one buffer; chains of several
/// are gathered up to this).
const MAX_FRAME: usize = 16 * 1024;

/// What became of a frame offered to the VF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reception {
    /// Written into a receive buffer.
    Delivered,
    /// Dropped: the shim offered no receive buffer (its ring is full).
    NoBuffer,
    /// Dropped: the buffer offered is unusable or too short.
    BadBuffer,
}

/// A VF's memory (layout, mapping, file) and event counters (kick, interrupt).
type Setup = (
    VfMemory,
    Arc<SharedRegion>,
    std::os::fd::OwnedFd,
    EventFd,
    EventFd,
);

/// The NIC's end of one VF's transport.
#[derive(Debug)]
pub struct NicEnd {
    memory: VfMemory,
    region: Arc<SharedRegion>,
    rx: Device,
    tx: Device,
    kick: EventFd,
    irq: EventFd,
    conn: UnixStream,
    chains: Vec<Chain>,
    frame: Vec<u8>,
}

impl NicEnd {
    /// Sets up the VF on `port` for the shim on `conn`: memory of
    /// `ring_size`-descriptor rings, event counters, the handshake. On a
    /// setup failure the shim is told ([`Refusal::NoMemory`]).
    pub fn accept(conn: UnixStream, port: u32, ring_size: u16) -> Result<Self, TransportError> {
        match Self::setup(port, ring_size) {
            Ok((memory, region, fd, kick, irq)) => {
                let hello = Handshake::accept(&memory).encode();
                fdpass::send(
                    &conn,
                    &hello,
                    &[fd.as_raw_fd(), kick.as_raw_fd(), irq.as_raw_fd()],
                )
                .map_err(TransportError::io("sending the handshake"))?;
                Ok(Self {
                    rx: Device::new(region.clone(), memory.rx())?,
                    tx: Device::new(region.clone(), memory.tx())?,
                    chains: vec![Chain::default(); usize::from(ring_size)],
                    frame: Vec::with_capacity(MAX_FRAME),
                    memory,
                    region,
                    kick,
                    irq,
                    conn,
                })
            }
            Err(e) => {
                Self::refuse(&conn, port, Refusal::NoMemory);
                Err(e)
            }
        }
    }

    fn setup(port: u32, ring_size: u16) -> Result<Setup, TransportError> {
        let memory = VfMemory::plan(port, ring_size)?;
        let len = usize::try_from(memory.len).map_err(|_| TransportError::NotAVf(port))?;
        let fd = memfd::create(&format!("janus-vf{port}"), len)
            .map_err(TransportError::io("creating the VF's memory"))?;
        let region = memfd::map(&fd, len).map_err(TransportError::io("mapping the VF's memory"))?;
        let kick = EventFd::new().map_err(TransportError::io("creating the kick counter"))?;
        let irq = EventFd::new().map_err(TransportError::io("creating the interrupt counter"))?;
        Ok((memory, region, fd, kick, irq))
    }

    /// Tells the shim on `conn` that the VF on `port` is refused (best
    /// effort: the connection is closed right after).
    pub fn refuse(conn: &UnixStream, port: u32, reason: Refusal) {
        let msg = Handshake::refuse(port, reason).encode();
        if let Err(e) = fdpass::send(conn, &msg, &[]) {
            tracing::debug!(port, "cannot send a refusal: {e}");
        }
    }

    /// The VF's port.
    pub fn port(&self) -> u32 {
        self.memory.function.shape.port
    }

    /// Pops up to `max` frames the shim transmitted and hands each to `f`
    /// (unusable chains are dropped and counted); returns how many chains
    /// were popped. Completions are published by [`NicEnd::flush`].
    pub fn receive(
        &mut self,
        max: usize,
        mut f: impl FnMut(&[u8]),
    ) -> Result<usize, TransportError> {
        let max = max.min(self.chains.len());
        let n = self.tx.pop_batch(&mut self.chains[..max])?;
        for i in 0..n {
            let chain = self.chains[i];
            self.frame.clear();
            let mut ok = true;
            for d in self.tx.chain(&chain) {
                let d = d?;
                let fits = self.frame.len() + d.len as usize <= MAX_FRAME;
                if d.access != Access::DeviceReads
                    || !self.memory.in_buffers(d.addr, d.len)
                    || !fits
                {
                    ok = false;
                    break;
                }
                let start = self.frame.len();
                self.frame.resize(start + d.len as usize, 0);
                self.region.read_bytes(d.addr, &mut self.frame[start..])?;
            }
            self.tx.push_used(chain.head, 0)?;
            if ok && !self.frame.is_empty() {
                self.count(Counter::TxPackets, 1);
                self.count(Counter::TxBytes, self.frame.len() as u64);
                f(&self.frame);
            } else {
                self.count(Counter::TxDropped, 1);
            }
        }
        Ok(n)
    }

    /// Writes `frame` into the next receive buffer the shim offered.
    pub fn deliver(&mut self, frame: &[u8]) -> Result<Reception, TransportError> {
        let Some(chain) = self.rx.pop()? else {
            self.count(Counter::RxDropped, 1);
            return Ok(Reception::NoBuffer);
        };
        let first = self.rx.chain(&chain).next().transpose()?;
        let usable = first.filter(|d| {
            d.access == Access::DeviceWrites
                && self.memory.in_buffers(d.addr, d.len)
                && frame.len() <= d.len as usize
        });
        let Some(d) = usable else {
            self.rx.push_used(chain.head, 0)?;
            self.count(Counter::RxDropped, 1);
            return Ok(Reception::BadBuffer);
        };
        self.region.write_bytes(d.addr, frame)?;
        // `frame.len()` is at most `d.len`, a u32.
        self.rx.push_used(chain.head, frame.len() as u32)?;
        self.count(Counter::RxPackets, 1);
        self.count(Counter::RxBytes, frame.len() as u64);
        Ok(Reception::Delivered)
    }

    /// Publishes the completions of both rings and interrupts the shim if
    /// it asked to be.
    pub fn flush(&mut self) -> Result<(), TransportError> {
        let rx = self.rx.publish_used();
        let tx = self.tx.publish_used();
        if rx == Notify::Required || tx == Notify::Required {
            self.irq
                .signal()
                .map_err(TransportError::io("interrupting the shim"))?;
        }
        Ok(())
    }

    /// Asks for a kick on the next transmitted frame before the NIC
    /// sleeps; `WorkPending` if frames arrived meanwhile.
    pub fn arm(&mut self) -> Armed {
        self.tx.arm_kicks()
    }

    /// Consumes pending kicks.
    pub fn drain_kicks(&self) -> Result<(), TransportError> {
        self.kick
            .drain()
            .map(drop)
            .map_err(TransportError::io("reading kicks"))
    }

    /// The kick counter, to poll.
    pub fn kick_fd(&self) -> RawFd {
        self.kick.as_raw_fd()
    }

    /// The connection, to poll for the shim hanging up.
    pub fn conn_fd(&self) -> RawFd {
        self.conn.as_raw_fd()
    }

    fn count(&self, counter: Counter, n: u64) {
        // The counters' offsets come from the plan, inside the memory.
        let _ = self
            .region
            .fetch_add_u64(self.memory.counter(counter.index()), n);
    }
}
