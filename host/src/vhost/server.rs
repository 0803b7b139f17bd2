//! The server side: a vhost-user socket for one VF. It attaches to the VF
//! once, then serves guests one at a time: it waits for the VMM to connect,
//! runs a rust-vmm daemon for the session (the protocol on one thread, the
//! data path of `backend` on another), and when the guest goes away
//! listens again. It stops when asked or when the NIC closes the VF.

use std::os::fd::{AsRawFd, RawFd};
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixListener, UnixStream};
use std::path::PathBuf;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use vhost::vhost_user::Listener;
use vhost_user_backend::VhostUserDaemon;
use vm_memory::{GuestMemoryAtomic, GuestMemoryMmap};
use vmm_sys_util::epoll::EventSet;

use super::VhostError;
use super::backend::{Memory, NIC_EVENT, NetBackend, VhostCounters};
use super::relay::Relay;
use crate::shim::Stopped;
use crate::sys::poll::{self, PollFd};
use crate::transport::{HostEnd, socket_path};

/// Longest the server sleeps before looking at its stop condition.
const TICK: Duration = Duration::from_millis(100);

/// How the vhost-user server runs.
#[derive(Debug, Clone)]
pub struct VhostUserConfig {
    /// The NIC process's runtime directory (its VF sockets).
    pub nic_dir: PathBuf,
    /// The VF's NIC port (2..=509).
    pub port: u32,
    /// The vhost-user socket to create for the VMM (replaced if present).
    pub socket: PathBuf,
    /// Most frames moved per direction per round.
    pub batch: usize,
}

/// A VF served to guests over a vhost-user socket.
pub struct VhostUser {
    config: VhostUserConfig,
    backend: NetBackend,
    listener: Listener,
    conn_fd: RawFd,
    guests: u64,
}

impl VhostUser {
    /// Attaches to the VF and creates the socket.
    pub fn attach(config: VhostUserConfig) -> Result<Self, VhostError> {
        let end = HostEnd::connect(&socket_path(&config.nic_dir, config.port), config.port)?;
        let conn_fd = end.conn_fd();
        let listener = Listener::new(&config.socket, true).map_err(|e| VhostError::Socket {
            path: config.socket.display().to_string(),
            reason: e.to_string(),
        })?;
        Ok(Self {
            backend: NetBackend::new(end, config.batch),
            config,
            listener,
            conn_fd,
            guests: 0,
        })
    }

    /// What was counted so far.
    pub fn counters(&self) -> VhostCounters {
        self.backend.counters()
    }

    /// The VF's counters kept by the NIC (`function::Counter` order).
    pub fn nic_counters(&self) -> [u64; 6] {
        self.backend.nic_counters()
    }

    /// Guest sessions served (connections accepted).
    pub fn guests(&self) -> u64 {
        self.guests
    }

    /// Serves guests until `stop` returns true (checked at least every
    /// 100 ms) or the NIC closes the VF.
    pub fn run(&mut self, stop: &dyn Fn() -> bool) -> Result<Stopped, VhostError> {
        loop {
            if let Some(stopped) = self.wait_for_guest(stop)? {
                return Ok(stopped);
            }
            if let Some(stopped) = self.serve_guest(stop)? {
                return Ok(stopped);
            }
        }
    }

    /// Waits for a connection on the socket; `Some` if the server must
    /// stop instead.
    fn wait_for_guest(&self, stop: &dyn Fn() -> bool) -> Result<Option<Stopped>, VhostError> {
        loop {
            if let Some(stopped) = self.should_stop(stop)? {
                return Ok(Some(stopped));
            }
            let mut fds = [PollFd::readable(self.listener.as_raw_fd())];
            poll::wait(&mut fds, TICK).map_err(VhostError::Poll)?;
            if fds[0].is_readable() {
                return Ok(None);
            }
        }
    }

    /// Whether to stop: asked to, or the NIC closed the VF (its connection
    /// carries nothing after the handshake, so readable means closed).
    fn should_stop(&self, stop: &dyn Fn() -> bool) -> Result<Option<Stopped>, VhostError> {
        if stop() {
            return Ok(Some(Stopped::Requested));
        }
        let mut fds = [PollFd::readable(self.conn_fd)];
        poll::wait(&mut fds, Duration::ZERO).map_err(VhostError::Poll)?;
        if fds[0].is_readable() || fds[0].is_closed() {
            return Ok(Some(Stopped::NicClosed));
        }
        Ok(None)
    }

    /// Accepts the VMM's connection and starts `daemon` on a private one,
    /// with the relay between them (see `relay`).
    fn connect_through_relay(
        &self,
        daemon: &mut VhostUserDaemon<NetBackend>,
    ) -> Result<Relay, VhostError> {
        let socket = |reason: std::io::Error| VhostError::Socket {
            path: self.config.socket.display().to_string(),
            reason: reason.to_string(),
        };
        let Some(frontend) = self.listener.accept().map_err(|e| VhostError::Socket {
            path: self.config.socket.display().to_string(),
            reason: e.to_string(),
        })?
        else {
            return Err(VhostError::Session("the VMM's connection went away".into()));
        };
        // An abstract address: no file, gone with its listener.
        let name = format!(
            "janus-vhost-{}-{}-{}",
            std::process::id(),
            self.config.port,
            self.guests
        );
        let addr = SocketAddr::from_abstract_name(name.as_bytes()).map_err(socket)?;
        let private = UnixListener::bind_addr(&addr).map_err(socket)?;
        let backend = UnixStream::connect_addr(&addr).map_err(socket)?;
        daemon
            .start(&mut Listener::from(private))
            .map_err(|e| VhostError::Session(e.to_string()))?;
        Relay::start(frontend, backend).map_err(socket)
    }

    /// Serves the connecting guest until it leaves (`None`) or the server
    /// must stop.
    fn serve_guest(&mut self, stop: &dyn Fn() -> bool) -> Result<Option<Stopped>, VhostError> {
        let session = |e: vhost_user_backend::Error| VhostError::Session(e.to_string());
        let mem: Memory = GuestMemoryAtomic::new(GuestMemoryMmap::new());
        let mut daemon = VhostUserDaemon::new("janus-vhost".into(), self.backend.clone(), mem)
            .map_err(session)?;
        for handler in daemon.get_epoll_handlers() {
            handler
                .register_listener(self.backend.irq_fd(), EventSet::IN, NIC_EVENT)
                .map_err(VhostError::Poll)?;
        }
        let relay = self.connect_through_relay(&mut daemon)?;
        self.guests += 1;
        tracing::info!(port = self.config.port, "vhost-user: a guest connected");
        let shutdown = daemon.shutdown_handle();
        let (done_tx, done_rx) = mpsc::channel();
        let waiter = thread::spawn(move || {
            let result = daemon.wait();
            let _ = done_tx.send(());
            (daemon, result)
        });
        let outcome = loop {
            if let Some(stopped) = self.should_stop(stop)? {
                if let Some(h) = &shutdown {
                    h.shutdown();
                }
                break Some(stopped);
            }
            match done_rx.recv_timeout(TICK) {
                Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break None,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        };
        let (daemon, result) = waiter
            .join()
            .map_err(|_| VhostError::Session("the session's thread panicked".into()))?;
        // Dropping the daemon stops and joins its data-path thread.
        drop(daemon);
        relay.finish();
        self.backend.end_session();
        match result {
            Ok(()) => tracing::info!(port = self.config.port, "vhost-user: the guest left"),
            // A VMM that quits mid-message ends its session, not the server.
            Err(e) => tracing::info!(port = self.config.port, "vhost-user: session ended: {e}"),
        }
        Ok(outcome)
    }
}
