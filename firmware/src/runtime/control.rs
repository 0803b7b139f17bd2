//! The card process's control socket, `DIR/control.sock`: where `janus nic
//! swap DIR` asks the running process for a pipeline hot-swap
//! ([`super::swap`]; docs/firmware.md, "Hot-swap").
//!
//! The protocol is one line each way: the client sends [`SWAP_REQUEST`]
//! and a newline; the server runs the swap (one at a time) and answers
//! with its report, whose last line is `committed`, `reverted` or
//! `error: WHY`, then closes the connection. A request that does not
//! arrive within [`REQUEST_TIMEOUT`] is dropped unanswered.

use super::{
    HealthReport, LocalPlane, Recorder, Services, Swap, SwapConfig, SwapError, SwapOutcome,
};
use crate::config::FirmwareConfig;
use crate::slowpath::SlowPath;
use janus_ctrl::server::P4RuntimeService;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The control socket's name in the card's folder.
pub const CONTROL_SOCKET: &str = "control.sock";

/// The swap's request on the control socket.
pub const SWAP_REQUEST: &str = "swap";

/// How long the server waits for a request line.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// Frames queued from the port output for the swap's health check.
const PORT_OUT_QUEUE: usize = 1024;

/// A copy of the port output for the swap's health check, while it runs:
/// the process's packet path sends every frame it puts out here when set.
pub type PortTap = Arc<Mutex<Option<mpsc::Sender<(u32, Vec<u8>)>>>>;

/// The card's services beside the control plane, kept while serving.
pub struct Running {
    pub local: LocalPlane,
    pub slow_path: SlowPath,
    /// Entries the tenants bootstrap wrote.
    pub entries: usize,
}

/// What a swap ended with, for the process to report (it prints it).
pub type SwapResult = Result<SwapOutcome, SwapError>;

/// The control socket's server: what a swap needs.
pub struct ControlSocket {
    /// The card's folder (the socket is made here).
    pub dir: PathBuf,
    pub service: P4RuntimeService,
    pub config: FirmwareConfig,
    /// The management address (for the health check).
    pub management: SocketAddr,
    pub device_id: u64,
    pub recorder: Recorder,
    pub tap: PortTap,
    pub running: Arc<tokio::sync::Mutex<Running>>,
    /// Called with every swap's outcome before it is answered.
    pub on_swap: Box<dyn Fn(&SwapResult) + Send + Sync>,
}

impl ControlSocket {
    /// Binds `DIR/control.sock` (replacing a stale one) and serves it, one
    /// request at a time, on the current tokio runtime.
    pub fn listen(self) -> std::io::Result<()> {
        let path = self.dir.join(CONTROL_SOCKET);
        let _ = std::fs::remove_file(&path);
        let listener = tokio::net::UnixListener::bind(&path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                self.serve(stream).await;
            }
        });
        Ok(())
    }

    async fn serve(&self, stream: tokio::net::UnixStream) {
        let (read, mut write) = stream.into_split();
        let mut line = String::new();
        let mut read = BufReader::new(read);
        let read = read.read_line(&mut line);
        let reply = match tokio::time::timeout(REQUEST_TIMEOUT, read).await {
            Ok(Ok(_)) if line.trim() == SWAP_REQUEST => self.swap().await,
            Ok(Ok(_)) => format!("error: unknown request {:?}\n", line.trim()),
            _ => return,
        };
        let _ = write.write_all(reply.as_bytes()).await;
    }

    /// Runs a swap and gives its report.
    async fn swap(&self) -> String {
        let mut running = self.running.lock().await;
        let Running {
            local,
            slow_path,
            entries,
        } = &mut *running;
        let (tx, mut port_out) = mpsc::channel(PORT_OUT_QUEUE);
        *self.tap.lock().unwrap_or_else(PoisonError::into_inner) = Some(tx);
        let outcome = Swap {
            dir: &self.dir,
            service: &self.service,
            local,
            config: &self.config,
            management: self.management,
            device_id: self.device_id,
            bootstrap_entries: *entries,
            recorder: &self.recorder,
            policy: SwapConfig::default(),
        }
        .run(Services {
            slow_path,
            port_out: &mut port_out,
        })
        .await;
        *self.tap.lock().unwrap_or_else(PoisonError::into_inner) = None;
        (self.on_swap)(&outcome);
        swap_reply(&self.dir, &outcome)
    }
}

/// Asks the process serving the card in `dir` for a swap and gives its
/// report (see the module comment); `timeout` bounds the wait for it.
pub fn request_swap(dir: &Path, timeout: Duration) -> std::io::Result<String> {
    use std::io::{Read, Write};
    let mut stream = std::os::unix::net::UnixStream::connect(dir.join(CONTROL_SOCKET))?;
    stream.set_read_timeout(Some(timeout))?;
    stream.write_all(format!("{SWAP_REQUEST}\n").as_bytes())?;
    let mut reply = String::new();
    stream.read_to_string(&mut reply)?;
    Ok(reply)
}

/// One line per check: `health: NAME ok: WHAT` or `FAILED: WHY`.
pub fn health_lines(report: &HealthReport) -> String {
    let mut out = String::new();
    for c in &report.checks {
        match &c.outcome {
            Ok(what) => out.push_str(&format!("health: {:<26} ok: {what}\n", c.name)),
            Err(why) => out.push_str(&format!("health: {:<26} FAILED: {why}\n", c.name)),
        }
    }
    out
}

/// The report a swap's outcome is answered with.
fn swap_reply(dir: &Path, outcome: &SwapResult) -> String {
    match outcome {
        Ok(SwapOutcome::Committed {
            slot,
            comparison,
            health,
            confirmed,
        }) => format!(
            "replay: {}\n{}slot {slot} confirmed, anti-rollback counter {}\ncommitted\n",
            comparison.summary(),
            health_lines(health),
            confirmed.security_version
        ),
        Ok(SwapOutcome::Reverted {
            slot,
            comparison,
            health,
            after_revert,
        }) => format!(
            "replay: {}\n{}health check failed: the previous pipeline serves again; slot {slot} rejected, {} boots the previous image\nafter the revert:\n{}reverted\n",
            comparison.summary(),
            health_lines(health),
            dir.display(),
            health_lines(after_revert)
        ),
        Err(e) => format!("error: {e}\n"),
    }
}
