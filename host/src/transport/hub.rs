//! The NIC process's data path over its VFs: a listening socket per VF,
//! the attached shims' [`NicEnd`]s, and one loop that takes the frames
//! each VF transmits, runs them through the [`Pipeline`] and delivers what
//! the pipeline sends to VF ports into their receive rings. Frames for a
//! VF with no shim attached, or whose receive ring is full, are dropped
//! and counted: nothing queues without bound.

use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use std::time::Duration;

use super::{NicEnd, Reception, Refusal, TransportError, socket_path};
use crate::ring::Armed;
use crate::sys::poll::{self, PollFd};

/// Longest the loop sleeps before looking at the stop condition.
const TICK: Duration = Duration::from_millis(100);

/// The packet pipeline behind the VFs (the NIC's P4 program).
pub trait Pipeline {
    /// Runs `frame`, arriving on `port`, through the pipeline and appends
    /// the frames it sends out, with their ports, to `out`.
    fn process(&mut self, port: u32, frame: &[u8], out: &mut Vec<(u32, Vec<u8>)>);

    /// Appends frames the pipeline sent on its own (not in answer to a VF's
    /// frame: the control plane's PacketOuts) to `out`. Polled every round
    /// (at least every 100 ms when idle).
    fn pending(&mut self, _out: &mut Vec<(u32, Vec<u8>)>) {}
}

/// How the hub serves.
#[derive(Debug, Clone)]
pub struct HubConfig {
    /// Directory of the VF sockets (`vf<PORT>.sock`).
    pub dir: PathBuf,
    /// The VF ports served.
    pub ports: Vec<u32>,
    /// Descriptors per ring of each VF.
    pub ring_size: u16,
    /// Most frames taken from one VF per round.
    pub batch: usize,
}

/// What the hub counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HubCounters {
    /// Frames taken from VFs into the pipeline.
    pub from_vfs: u64,
    /// Frames delivered into VFs' receive rings.
    pub to_vfs: u64,
    /// Frames for a VF with no shim attached (dropped).
    pub dropped_detached: u64,
    /// Frames for a VF whose receive ring was full or unusable (dropped).
    pub dropped_ring_full: u64,
    /// Frames the pipeline sent to ports that are not served VFs
    /// (uplinks: dropped, no uplink is bridged).
    pub to_other_ports: u64,
    /// Shims attached.
    pub attaches: u64,
    /// Shims detached (or dropped for breaking their rings).
    pub detaches: u64,
}

/// One served VF.
struct Slot {
    port: u32,
    listener: UnixListener,
    path: PathBuf,
    end: Option<NicEnd>,
}

/// The NIC's VF sockets and data path.
pub struct Hub {
    slots: Vec<Slot>,
    config: HubConfig,
    counters: HubCounters,
    inputs: Vec<(usize, Vec<u8>)>,
    outputs: Vec<(u32, Vec<u8>)>,
}

impl Hub {
    /// Binds a socket per VF port in `config.dir` (replacing stale
    /// sockets, refusing to replace other files).
    pub fn bind(config: HubConfig) -> Result<Self, TransportError> {
        let mut slots = Vec::with_capacity(config.ports.len());
        for &port in &config.ports {
            if !janus_nic::ports::is_vf(port) {
                return Err(TransportError::NotAVf(port));
            }
            let path = socket_path(&config.dir, port);
            if let Ok(meta) = std::fs::symlink_metadata(&path) {
                if !meta.file_type().is_socket() {
                    return Err(TransportError::Io {
                        what: format!("{} exists and is not a socket", path.display()),
                        source: io::ErrorKind::AlreadyExists.into(),
                    });
                }
                std::fs::remove_file(&path)
                    .map_err(TransportError::io(format!("removing {}", path.display())))?;
            }
            let listener = UnixListener::bind(&path)
                .map_err(TransportError::io(format!("binding {}", path.display())))?;
            listener
                .set_nonblocking(true)
                .map_err(TransportError::io("configuring a VF socket"))?;
            slots.push(Slot {
                port,
                listener,
                path,
                end: None,
            });
        }
        Ok(Self {
            slots,
            config,
            counters: HubCounters::default(),
            inputs: Vec::new(),
            outputs: Vec::new(),
        })
    }

    /// What the hub counted so far.
    pub fn counters(&self) -> HubCounters {
        self.counters
    }

    /// Serves until `stop` returns true (checked at least every 100 ms).
    pub fn run(
        &mut self,
        pipeline: &mut dyn Pipeline,
        stop: &dyn Fn() -> bool,
    ) -> Result<(), TransportError> {
        while !stop() {
            self.outputs.clear();
            pipeline.pending(&mut self.outputs);
            let outputs = std::mem::take(&mut self.outputs);
            for (port, out) in &outputs {
                self.deliver(*port, out);
            }
            self.outputs = outputs;
            if self.round(pipeline) > 0 {
                continue;
            }
            if self.arm_all() == Armed::WorkPending {
                continue;
            }
            self.sleep()?;
        }
        Ok(())
    }

    /// One pass over every attached VF; returns the frames taken.
    fn round(&mut self, pipeline: &mut dyn Pipeline) -> usize {
        self.inputs.clear();
        let batch = self.config.batch;
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let Some(end) = slot.end.as_mut() else {
                continue;
            };
            let inputs = &mut self.inputs;
            if let Err(e) = end.receive(batch, |f| inputs.push((i, f.to_vec()))) {
                tracing::warn!(port = slot.port, "detaching the VF's shim: {e}");
                slot.end = None;
                self.counters.detaches += 1;
            }
        }
        let taken = self.inputs.len();
        self.counters.from_vfs += taken as u64;
        let inputs = std::mem::take(&mut self.inputs);
        for (i, frame) in &inputs {
            self.outputs.clear();
            pipeline.process(self.slots[*i].port, frame, &mut self.outputs);
            let outputs = std::mem::take(&mut self.outputs);
            for (port, out) in &outputs {
                self.deliver(*port, out);
            }
            self.outputs = outputs;
        }
        self.inputs = inputs;
        for slot in &mut self.slots {
            if let Some(end) = slot.end.as_mut()
                && let Err(e) = end.flush()
            {
                tracing::warn!(port = slot.port, "detaching the VF's shim: {e}");
                slot.end = None;
                self.counters.detaches += 1;
            }
        }
        taken
    }

    /// Sends one pipeline output to its VF, or counts why not.
    fn deliver(&mut self, port: u32, frame: &[u8]) {
        let Some(slot) = self.slots.iter_mut().find(|s| s.port == port) else {
            self.counters.to_other_ports += 1;
            return;
        };
        let Some(end) = slot.end.as_mut() else {
            self.counters.dropped_detached += 1;
            return;
        };
        match end.deliver(frame) {
            Ok(Reception::Delivered) => self.counters.to_vfs += 1,
            Ok(Reception::NoBuffer | Reception::BadBuffer) => self.counters.dropped_ring_full += 1,
            Err(e) => {
                tracing::warn!(port, "detaching the VF's shim: {e}");
                slot.end = None;
                self.counters.detaches += 1;
                self.counters.dropped_detached += 1;
            }
        }
    }

    /// Re-arms kicks on every attached VF.
    fn arm_all(&mut self) -> Armed {
        let mut armed = Armed::Idle;
        for end in self.slots.iter_mut().filter_map(|s| s.end.as_mut()) {
            if end.arm() == Armed::WorkPending {
                armed = Armed::WorkPending;
            }
        }
        armed
    }

    /// Sleeps until a kick, a connection, a hang-up or the tick.
    fn sleep(&mut self) -> Result<(), TransportError> {
        // Per slot: the listener, then (if attached) the kick counter and
        // the connection.
        let mut fds = Vec::with_capacity(3 * self.slots.len());
        for slot in &self.slots {
            fds.push(PollFd::readable(slot.listener.as_raw_fd()));
            if let Some(end) = &slot.end {
                fds.push(PollFd::readable(end.kick_fd()));
                fds.push(PollFd::readable(end.conn_fd()));
            }
        }
        poll::wait(&mut fds, TICK).map_err(TransportError::io("waiting for the VFs"))?;
        let mut at = 0;
        for slot in &mut self.slots {
            let accept = fds[at].is_readable();
            at += 1;
            if let Some(end) = &slot.end {
                let (kick, conn) = (fds[at], fds[at + 1]);
                at += 2;
                // A shim sends nothing after the handshake: readable means
                // end-of-file, that is, it went away.
                if conn.is_readable() || conn.is_closed() {
                    tracing::info!(port = slot.port, "shim detached");
                    slot.end = None;
                    self.counters.detaches += 1;
                } else if kick.is_readable() {
                    end.drain_kicks()?;
                }
            }
            if accept {
                Self::accept(slot, self.config.ring_size, &mut self.counters);
            }
        }
        Ok(())
    }

    /// Takes a pending connection on `slot`'s socket.
    fn accept(slot: &mut Slot, ring_size: u16, counters: &mut HubCounters) {
        let conn = match slot.listener.accept() {
            Ok((conn, _)) => conn,
            Err(e) => {
                if e.kind() != io::ErrorKind::WouldBlock {
                    tracing::warn!(port = slot.port, "accept failed: {e}");
                }
                return;
            }
        };
        if slot.end.is_some() {
            NicEnd::refuse(&conn, slot.port, Refusal::Busy);
            return;
        }
        if let Err(e) = conn.set_nonblocking(false) {
            tracing::warn!(port = slot.port, "cannot configure the connection: {e}");
            return;
        }
        match NicEnd::accept(conn, slot.port, ring_size) {
            Ok(end) => {
                tracing::info!(port = slot.port, "shim attached");
                slot.end = Some(end);
                counters.attaches += 1;
            }
            Err(e) => tracing::warn!(port = slot.port, "cannot attach a shim: {e}"),
        }
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        for slot in &self.slots {
            let _ = std::fs::remove_file(&slot.path);
        }
    }
}
