//! Helpers shared by the end-to-end tests of `janus ctrl serve`
//! (`tests/p4runtime_clients.rs`, `tests/ctrl_isolation.rs`): the server
//! as a child process, bounded child runs, development certificates made
//! by `janus ctrl certs`, temporary directories, and the rule for tools
//! a test needs; simulated cards in [`card`], network namespaces in
//! [`netns`]. Every wait is bounded; children are killed on drop.

#![allow(dead_code)]

pub mod card;
pub mod netns;

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long the server may take to print its address (it may compile a
/// program first).
pub const SERVER_START: Duration = Duration::from_secs(60);

/// A path in the repository.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// `janus` (the binary under test) as a command.
pub fn janus() -> Command {
    Command::new(env!("CARGO_BIN_EXE_janus"))
}

/// Whether a missing tool fails the test (`JANUS_REQUIRE_TOOLS=1`, as
/// under `scripts/test`) rather than skipping it.
pub fn tools_required() -> bool {
    std::env::var("JANUS_REQUIRE_TOOLS").as_deref() == Ok("1")
}

/// Reports that `what` is missing: panics when tools are required, else
/// prints why the test is skipped.
pub fn missing_tool(what: &str) {
    if tools_required() {
        panic!("{what} (JANUS_REQUIRE_TOOLS=1)");
    }
    eprintln!("skipped: {what}");
}

/// The venv `var` names, or None when the test is to be skipped.
pub fn venv(var: &str) -> Option<PathBuf> {
    match std::env::var_os(var) {
        Some(v) => Some(PathBuf::from(v)),
        None => {
            missing_tool(&format!("{var} is not set; run scripts/test"));
            None
        }
    }
}

/// A directory of the test's own under the system temp dir, removed
/// when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh, empty `janus-<name>-<pid>`.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("janus-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What a bounded child run gave: its status (None when it was killed for
/// overrunning) and its output.
pub struct Finished {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
}

impl Finished {
    /// Whether the child ran to its end and exited 0.
    pub fn success(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }

    /// How it ended and what it printed, for an assertion message.
    pub fn describe(&self, limit: Duration) -> String {
        let how = match self.status {
            Some(s) => format!("exited ({s})"),
            None => format!("did not finish within {limit:?} and was killed"),
        };
        format!(
            "{how}\n--- stdout\n{}--- stderr\n{}",
            self.stdout, self.stderr
        )
    }
}

fn collect(mut r: impl Read + Send + 'static) -> JoinHandle<String> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    })
}

/// Runs `cmd` to its end or `limit`, whichever comes first (then kills it).
pub fn run_bounded(mut cmd: Command, limit: Duration) -> Finished {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let out = collect(child.stdout.take().expect("piped stdout"));
    let err = collect(child.stderr.take().expect("piped stderr"));
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait().expect("wait for the child") {
            Some(s) => break Some(s),
            None if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => thread::sleep(Duration::from_millis(20)),
        }
    };
    Finished {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

/// The address in `janus ctrl: P4Runtime (plaintext) on ADDR, device id ...`.
pub fn listen_addr(line: &str) -> Option<SocketAddr> {
    let rest = line.split(" on ").nth(1)?;
    rest.split(',').next()?.trim().parse().ok()
}

/// A running `janus ctrl serve`, killed when dropped (a failed assertion
/// included).
pub struct Server {
    child: Child,
    pub addr: SocketAddr,
    /// Every line the server printed on stderr so far.
    stderr: Arc<Mutex<Vec<String>>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// `janus ctrl serve ARGS` (with `--listen`), waiting for the address it
    /// prints.
    pub fn start<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Server {
        let mut cmd = janus();
        cmd.arg("ctrl").arg("serve").args(args);
        Server::spawn(cmd)
    }

    /// Runs `cmd` (a `janus ctrl serve`, perhaps wrapped, e.g. by `ip netns
    /// exec`) and waits at most [`SERVER_START`] for the address it prints;
    /// panics with its output when it exits or says nothing in time.
    pub fn spawn(mut cmd: Command) -> Server {
        let mut child = cmd
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
        let pipe = child.stderr.take().expect("piped stderr");
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::channel();
        let lines = Arc::clone(&stderr);
        // Reads every line (so the pipe never fills); sends the address.
        thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                // Kept before the address is sent, so the caller sees the
                // line that named it.
                let addr = listen_addr(&line);
                lines.lock().expect("lines").push(line);
                if let Some(addr) = addr {
                    let _ = tx.send(addr);
                }
            }
        });
        let mut server = Server {
            child,
            addr: "127.0.0.1:0".parse().expect("an address"),
            stderr,
        };
        let deadline = Instant::now() + SERVER_START;
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(addr) => {
                    server.addr = addr;
                    return server;
                }
                Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(_) => panic!(
                    "janus ctrl serve printed no address within {SERVER_START:?}:\n{}",
                    server.stderr_text()
                ),
            }
            if let Ok(Some(status)) = server.child.try_wait() {
                thread::sleep(Duration::from_millis(100));
                panic!(
                    "janus ctrl serve exited ({status}):\n{}",
                    server.stderr_text()
                );
            }
        }
    }

    /// What the server printed on stderr so far.
    pub fn stderr_text(&self) -> String {
        self.stderr.lock().expect("lines").join("\n")
    }
}

/// Development certificates made by `janus ctrl certs --out DIR`: a CA, the
/// server's, the operator's and the other clients'.
pub struct Pki {
    pub dir: PathBuf,
}

impl Pki {
    /// Runs `janus ctrl certs --out dir ARGS` (e.g. `--tenant 7`,
    /// `--client admin`, `--host 10.0.0.1`) and checks it succeeds.
    pub fn make(dir: &Path, args: &[&str]) -> Pki {
        let mut cmd = janus();
        cmd.args(["ctrl", "certs", "--out"]).arg(dir).args(args);
        let limit = Duration::from_secs(30);
        let done = run_bounded(cmd, limit);
        assert!(done.success(), "janus ctrl certs {}", done.describe(limit));
        Pki {
            dir: dir.to_path_buf(),
        }
    }

    /// `ca.pem`.
    pub fn ca(&self) -> PathBuf {
        self.dir.join("ca.pem")
    }

    /// The certificate and key of client `cn` (`tenant:7` is in
    /// `tenant-7.pem`, `tenant-7.key`).
    pub fn client(&self, cn: &str) -> (PathBuf, PathBuf) {
        let stem = cn.replace([':', '/'], "-");
        (
            self.dir.join(format!("{stem}.pem")),
            self.dir.join(format!("{stem}.key")),
        )
    }

    /// `serve` arguments for mTLS with these certificates.
    pub fn serve_args(&self) -> Vec<String> {
        let path = |name: &str| self.dir.join(name).display().to_string();
        vec![
            "--tls-cert".into(),
            path("server.pem"),
            "--tls-key".into(),
            path("server.key"),
            "--client-ca".into(),
            path("ca.pem"),
        ]
    }
}

/// Packets in the pcap file at `path` (0 while it is missing or not a
/// whole pcap yet, as when a switch is still writing it).
pub fn pcap_records(path: &Path) -> usize {
    let Ok(bytes) = std::fs::read(path) else {
        return 0;
    };
    let Ok(reader) = janus_pcap::open(&bytes) else {
        return 0;
    };
    reader.filter_map(Result::ok).count()
}
