//! What the real demo creates, each undone when dropped: network
//! namespaces, a root-namespace link, background processes and the
//! runtime directory; and bounded runs of short commands. Every wait polls
//! with a deadline and gives up early when SIGINT or SIGTERM arrived
//! ([`RealError::Interrupted`]); the clean-up in `Drop` is bounded too but
//! never interrupted.

use super::RealError;
use janus_host::sys::signal;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long one `ip` command may take.
pub const STEP: Duration = Duration::from_secs(20);

/// How often bounded waits look at the child and the stop flag.
const POLL: Duration = Duration::from_millis(20);

/// How long a background process has to stop after SIGTERM before it is
/// killed.
const GRACE: Duration = Duration::from_secs(3);

/// Whether a wait ends early on SIGINT/SIGTERM.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Interrupt {
    /// The demo's own steps: stop waiting, the guards clean up.
    OnStop,
    /// The clean-up itself: run to the end (bounded).
    Never,
}

/// What a bounded run of a command gave.
pub struct Finished {
    /// None when it overran its limit and was killed.
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
}

impl Finished {
    /// Whether it ran to its end and exited 0.
    pub fn success(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }

    /// The last non-empty line of its stderr (else stdout), for a short
    /// explanation.
    pub fn last_line(&self) -> &str {
        [&self.stderr, &self.stdout]
            .into_iter()
            .find_map(|s| s.lines().rev().find(|l| !l.trim().is_empty()))
            .unwrap_or("")
            .trim()
    }
}

/// Reads `r` to its end on a thread.
fn collect(mut r: impl Read + Send + 'static) -> JoinHandle<String> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    })
}

/// `cmd` as text, for error messages.
fn shown(cmd: &Command) -> String {
    let mut words = vec![cmd.get_program().to_string_lossy().into_owned()];
    words.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    words.join(" ")
}

fn run_until(
    mut cmd: Command,
    limit: Duration,
    interrupt: Interrupt,
) -> Result<Finished, RealError> {
    let what = shown(&cmd);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| RealError::step(&what, e))?;
    let out = child.stdout.take().map(collect);
    let err = child.stderr.take().map(collect);
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if interrupt == Interrupt::OnStop && signal::stop_requested() => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(RealError::Interrupted);
            }
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => thread::sleep(POLL),
            Err(e) => return Err(RealError::step(&what, e)),
        }
    };
    let text = |h: Option<JoinHandle<String>>| h.and_then(|h| h.join().ok()).unwrap_or_default();
    Ok(Finished {
        status,
        stdout: text(out),
        stderr: text(err),
    })
}

/// Runs `cmd` to its end or `limit` (then kills it); stops early on
/// SIGINT/SIGTERM.
pub fn run_bounded(cmd: Command, limit: Duration) -> Result<Finished, RealError> {
    run_until(cmd, limit, Interrupt::OnStop)
}

/// Runs `cmd` (bounded by [`STEP`]); an error unless it exits 0.
pub fn must(cmd: Command) -> Result<String, RealError> {
    let what = shown(&cmd);
    let done = run_bounded(cmd, STEP)?;
    if done.success() {
        return Ok(done.stdout);
    }
    let why = match done.status {
        None => format!("did not finish within {} s", STEP.as_secs()),
        Some(s) => format!("{s}: {}", done.last_line()),
    };
    Err(RealError::step(&what, why))
}

/// The clean-up's run: bounded, never interrupted, errors ignored (the
/// object may be gone already).
fn undo(cmd: Command) {
    let _ = run_until(cmd, STEP, Interrupt::Never);
}

/// `ip ARGS...`.
pub fn ip(ip: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(ip);
    c.args(args);
    c
}

/// A network namespace, deleted when dropped.
pub struct Netns {
    name: String,
    ip: PathBuf,
}

impl Netns {
    /// Creates `name` (deleting a stale one of that name first) with its
    /// loopback up.
    pub fn create(ip_path: &Path, name: String) -> Result<Netns, RealError> {
        undo(ip(ip_path, &["netns", "del", &name]));
        must(ip(ip_path, &["netns", "add", &name]))?;
        let ns = Netns {
            name,
            ip: ip_path.to_path_buf(),
        };
        ns.ip(&["link", "set", "lo", "up"])?;
        Ok(ns)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// `ip netns exec NS PROGRAM ARGS...`.
    pub fn exec(&self, program: &Path, args: &[&str]) -> Command {
        let mut c = Command::new(&self.ip);
        c.args(["netns", "exec", &self.name])
            .arg(program)
            .args(args);
        c
    }

    /// `ip -n NS ARGS...`, which must succeed.
    pub fn ip(&self, args: &[&str]) -> Result<(), RealError> {
        let mut all = vec!["-n", self.name.as_str()];
        all.extend(args);
        must(ip(&self.ip, &all)).map(|_| ())
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        undo(ip(&self.ip, &["netns", "del", &self.name]));
    }
}

/// A link of the root namespace, deleted when dropped.
pub struct Link {
    name: String,
    ip: PathBuf,
}

impl Link {
    /// Owns `name` (already created).
    pub fn owned(ip: &Path, name: String) -> Link {
        Link {
            name,
            ip: ip.to_path_buf(),
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        undo(ip(&self.ip, &["link", "del", &self.name]));
    }
}

/// The runtime directory (the NIC's VF sockets), removed when dropped.
pub struct RuntimeDir(PathBuf);

impl RuntimeDir {
    /// A fresh `janus-demo-real-<run>` under the system temp dir.
    pub fn create(run: &str) -> Result<RuntimeDir, RealError> {
        let dir = std::env::temp_dir().join(format!("janus-demo-real-{run}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| RealError::step(&dir.display(), e))?;
        Ok(RuntimeDir(dir))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for RuntimeDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A background process: SIGTERM, then SIGKILL after [`GRACE`], when
/// dropped. Its stderr lines arrive on a channel; stdout is collected.
pub struct Daemon {
    name: String,
    child: Child,
    lines: mpsc::Receiver<String>,
    /// The stderr lines seen so far (for an error message).
    seen: Vec<String>,
    stdout: Option<JoinHandle<String>>,
}

impl Daemon {
    /// Starts `cmd` as `name`.
    pub fn start(name: &str, mut cmd: Command) -> Result<Daemon, RealError> {
        let what = shown(&cmd);
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| RealError::step(&what, e))?;
        let (tx, lines) = mpsc::channel();
        if let Some(err) = child.stderr.take() {
            thread::spawn(move || {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    let _ = tx.send(line);
                }
            });
        }
        let stdout = child.stdout.take().map(collect);
        Ok(Daemon {
            name: name.to_string(),
            child,
            lines,
            seen: Vec::new(),
            stdout,
        })
    }

    /// Waits (at most `limit`) for a stderr line containing `want`; an
    /// error when the process exits first.
    pub fn wait_for(&mut self, want: &str, limit: Duration) -> Result<(), RealError> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if signal::stop_requested() {
                return Err(RealError::Interrupted);
            }
            match self.lines.recv_timeout(Duration::from_millis(100)) {
                Ok(line) if line.contains(want) => return Ok(()),
                Ok(line) => self.seen.push(line),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(self.died()),
            }
        }
        Err(RealError::step(
            &self.name,
            format!("did not print `{want}` within {} s", limit.as_secs()),
        ))
    }

    fn died(&mut self) -> RealError {
        let _ = self.child.wait();
        self.seen.extend(self.lines.try_iter());
        let tail: Vec<&str> = self
            .seen
            .iter()
            .rev()
            .take(5)
            .rev()
            .map(String::as_str)
            .collect();
        RealError::step(&self.name, format!("exited: {}", tail.join(" / ")))
    }

    /// Stops it (SIGTERM, bounded) and returns its stdout.
    pub fn stop(mut self) -> String {
        self.terminate();
        self.stdout
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default()
    }

    fn terminate(&mut self) {
        if !matches!(self.child.try_wait(), Ok(None)) {
            return;
        }
        let pid = self.child.id().to_string();
        let mut term = Command::new("kill");
        term.args(["-TERM", &pid]);
        undo(term);
        let deadline = Instant::now() + GRACE;
        while Instant::now() < deadline {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            thread::sleep(POLL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        self.terminate();
    }
}
