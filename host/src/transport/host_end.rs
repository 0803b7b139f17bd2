//! The host's end of one VF (the shim's): connects to the NIC's VF socket,
//! maps the memory, offers every receive buffer, and moves frames in
//! batches. Transmit buffers are a fixed pool of one slot per descriptor:
//! when all are in flight, [`HostEnd::send`] refuses and the caller stops
//! reading its interface (back-pressure) instead of queueing.

use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::Arc;

use super::{BUF_SIZE, HANDSHAKE_LEN, Handshake, TransportError, VfMemory};
use crate::ring::{Access, Armed, Buffer, Completion, Driver, Notify, SharedRegion};
use crate::sys::{eventfd::EventFd, fdpass, memfd};

/// What the host end counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HostEndCounters {
    /// Frames handed to the NIC.
    pub tx_frames: u64,
    /// Bytes handed to the NIC.
    pub tx_bytes: u64,
    /// Frames refused because every transmit buffer was in flight.
    pub tx_ring_full: u64,
    /// Frames dropped because they exceed a buffer.
    pub tx_too_long: u64,
    /// Frames received from the NIC.
    pub rx_frames: u64,
    /// Bytes received from the NIC.
    pub rx_bytes: u64,
    /// Kicks sent to the NIC.
    pub kicks: u64,
}

/// The shim's end of one VF's transport.
#[derive(Debug)]
pub struct HostEnd {
    memory: VfMemory,
    region: Arc<SharedRegion>,
    rx: Driver,
    tx: Driver,
    kick: EventFd,
    irq: EventFd,
    conn: UnixStream,
    tx_free: Vec<u16>,
    done: Vec<Completion>,
    frame: Vec<u8>,
    counters: HostEndCounters,
}

impl HostEnd {
    /// Connects to the VF socket at `path` and sets up the rings; fails
    /// if the NIC refuses or serves another port than `port`.
    pub fn connect(path: &Path, port: u32) -> Result<Self, TransportError> {
        let conn = UnixStream::connect(path).map_err(TransportError::io(format!(
            "connecting to {}",
            path.display()
        )))?;
        let mut hello = [0u8; HANDSHAKE_LEN];
        let (n, fds) =
            fdpass::recv(&conn, &mut hello).map_err(TransportError::io("reading the handshake"))?;
        let hs = Handshake::decode(&hello[..n])?;
        if let Some(reason) = hs.refusal {
            return Err(TransportError::Refused { port, reason });
        }
        if hs.port != port {
            return Err(TransportError::BadHandshake(format!(
                "the socket serves port {}, not {port}",
                hs.port
            )));
        }
        let memory = VfMemory::plan(port, hs.ring_size)?;
        if memory.len != hs.len {
            return Err(TransportError::BadHandshake(
                "memory length disagrees with the layout".into(),
            ));
        }
        let [fd, kick, irq]: [_; 3] = fds
            .try_into()
            .map_err(|_| TransportError::BadHandshake("expected three descriptors".into()))?;
        let len = usize::try_from(memory.len)
            .map_err(|_| TransportError::BadHandshake("memory too large".into()))?;
        let region = memfd::map(&fd, len).map_err(TransportError::io("mapping the VF's memory"))?;
        let size = memory.ring_size();
        let mut end = Self {
            rx: Driver::new(region.clone(), memory.rx())?,
            tx: Driver::new(region.clone(), memory.tx())?,
            kick: EventFd::from_fd(kick),
            irq: EventFd::from_fd(irq),
            tx_free: (0..size).rev().collect(),
            done: vec![Completion::default(); usize::from(size)],
            frame: vec![0; BUF_SIZE as usize],
            counters: HostEndCounters::default(),
            memory,
            region,
            conn,
        };
        for i in 0..size {
            end.offer_rx(i)?;
        }
        let _ = end.rx.publish();
        Ok(end)
    }

    /// Offers receive buffer `i` to the NIC (published later).
    fn offer_rx(&mut self, i: u16) -> Result<(), TransportError> {
        let buf = Buffer {
            addr: self.memory.rx_buffer(i),
            len: BUF_SIZE,
            access: Access::DeviceWrites,
        };
        Ok(self.rx.add(&[buf], u64::from(i))?)
    }

    /// Whether a transmit buffer is free.
    pub fn can_send(&self) -> bool {
        !self.tx_free.is_empty()
    }

    /// Queues `frame` for the NIC (sent at the next [`HostEnd::flush`]):
    /// `false` when every buffer is in flight (back-pressure: retry after
    /// [`HostEnd::reclaim`]) or the frame exceeds a buffer (dropped,
    /// counted).
    pub fn send(&mut self, frame: &[u8]) -> Result<bool, TransportError> {
        if frame.len() > BUF_SIZE as usize || frame.is_empty() {
            self.counters.tx_too_long += 1;
            return Ok(false);
        }
        let Some(slot) = self.tx_free.pop() else {
            self.counters.tx_ring_full += 1;
            return Ok(false);
        };
        let addr = self.memory.tx_buffer(slot);
        self.region.write_bytes(addr, frame)?;
        let buf = Buffer {
            addr,
            // At most BUF_SIZE, checked above.
            len: frame.len() as u32,
            access: Access::DeviceReads,
        };
        self.tx.add(&[buf], u64::from(slot))?;
        self.counters.tx_frames += 1;
        self.counters.tx_bytes += frame.len() as u64;
        Ok(true)
    }

    /// Publishes the frames queued since the last flush, kicking the NIC
    /// if it asked to be.
    pub fn flush(&mut self) -> Result<(), TransportError> {
        if self.tx.publish() == Notify::Required {
            self.counters.kicks += 1;
            self.kick
                .signal()
                .map_err(TransportError::io("kicking the NIC"))?;
        }
        Ok(())
    }

    /// Takes back the transmit buffers the NIC finished; returns how many.
    pub fn reclaim(&mut self) -> Result<usize, TransportError> {
        let n = self.tx.reap(&mut self.done)?;
        for c in &self.done[..n] {
            // Tokens are the slot numbers this end gave, below the ring size.
            self.tx_free.push(c.token as u16);
        }
        Ok(n)
    }

    /// Hands up to `max` received frames to `f`, then offers their buffers
    /// again; returns how many frames there were.
    pub fn receive(
        &mut self,
        max: usize,
        mut f: impl FnMut(&[u8]),
    ) -> Result<usize, TransportError> {
        let max = max.min(self.done.len());
        let n = self.rx.reap(&mut self.done[..max])?;
        for i in 0..n {
            let Completion { token, written } = self.done[i];
            let slot = token as u16;
            let len = (written as usize).min(BUF_SIZE as usize);
            if len > 0 {
                self.region
                    .read_bytes(self.memory.rx_buffer(slot), &mut self.frame[..len])?;
                self.counters.rx_frames += 1;
                self.counters.rx_bytes += len as u64;
                f(&self.frame[..len]);
            }
            self.offer_rx(slot)?;
        }
        if n > 0 {
            // The NIC looks at the receive ring whenever it has a frame for
            // this VF and never sleeps on it: no kick needed.
            let _ = self.rx.publish();
        }
        Ok(n)
    }

    /// Asks for an interrupt on the next completion of either ring before
    /// the shim sleeps; `WorkPending` if some arrived meanwhile.
    pub fn arm(&mut self) -> Armed {
        match (self.rx.arm_interrupts(), self.tx.arm_interrupts()) {
            (Armed::Idle, Armed::Idle) => Armed::Idle,
            _ => Armed::WorkPending,
        }
    }

    /// Consumes pending interrupts.
    pub fn drain_interrupts(&self) -> Result<(), TransportError> {
        self.irq
            .drain()
            .map(drop)
            .map_err(TransportError::io("reading interrupts"))
    }

    /// The interrupt counter, to poll.
    pub fn irq_fd(&self) -> RawFd {
        self.irq.as_raw_fd()
    }

    /// The connection, to poll for the NIC going away.
    pub fn conn_fd(&self) -> RawFd {
        self.conn.as_raw_fd()
    }

    /// What this end counted.
    pub fn counters(&self) -> HostEndCounters {
        self.counters
    }

    /// The VF's own counters in its memory (kept by the NIC), in the
    /// order of `function::Counter`.
    pub fn nic_counters(&self) -> [u64; 6] {
        let mut out = [0; 6];
        for (i, c) in out.iter_mut().enumerate() {
            *c = self
                .region
                .load_u64(self.memory.counter(i as u64))
                .unwrap_or(0);
        }
        out
    }
}
