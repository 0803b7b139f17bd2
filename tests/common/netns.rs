//! Real Linux interfaces for the root-only end-to-end tests
//! (`tests/host_e2e.rs`, `tests/vhost_qemu.rs`, `tests/demo_real.rs`):
//! the root and tool checks, network namespaces and links deleted when
//! dropped, TAP addressing, and background processes stopped when
//! dropped. Every command and every wait is bounded.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::{missing_tool, run_bounded};

/// How long one `ip`/`ping`/client command may take.
pub const STEP: Duration = Duration::from_secs(20);

/// Whether the test runs as root.
pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Whether `tool` is on the PATH (or in /usr/sbin).
pub fn installed(tool: &str) -> bool {
    Command::new("sh")
        .args([
            "-c",
            &format!("command -v {tool} || test -x /usr/sbin/{tool}"),
        ])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether the test can run here: root (`test` says what it needs it
/// for) and every one of `tools`; reports the first thing missing with
/// [`missing_tool`].
pub fn root_and_tools(test: &str, tools: &[&str]) -> bool {
    if !is_root() {
        missing_tool(&format!(
            "{test} needs root (network namespaces, TAP devices)"
        ));
        return false;
    }
    for tool in tools {
        if !installed(tool) {
            missing_tool(&format!(
                "{tool} is not installed (scripts/test installs it)"
            ));
            return false;
        }
    }
    true
}

/// `PROGRAM ARGS...` as a command.
pub fn cmd(program: &str, args: &[&str]) -> Command {
    let mut c = Command::new(program);
    c.args(args);
    c
}

/// `ip ARGS...` as a command.
pub fn ip(args: &[&str]) -> Command {
    cmd("ip", args)
}

/// Runs `cmd` (bounded by [`STEP`]), asserting success; returns stdout.
pub fn must(cmd: Command) -> String {
    let what = format!("{cmd:?}");
    let done = run_bounded(cmd, STEP);
    assert!(done.success(), "{what}: {}", done.describe(STEP));
    done.stdout
}

/// A network namespace `janus-<name>-<pid>` with its loopback up,
/// deleted when dropped.
pub struct Netns(pub String);

impl Netns {
    pub fn new(name: &str) -> Netns {
        let ns = Netns(format!("janus-{name}-{}", std::process::id()));
        let _ = run_bounded(ip(&["netns", "del", &ns.0]), STEP);
        must(ip(&["netns", "add", &ns.0]));
        ns.ip(&["link", "set", "lo", "up"]);
        ns
    }

    /// `ip netns exec NS PROGRAM ARGS...`.
    pub fn exec(&self, program: &str, args: &[&str]) -> Command {
        let mut c = Command::new("ip");
        c.args(["netns", "exec", &self.0, program]).args(args);
        c
    }

    /// `ip -n NS ARGS...`, asserting success.
    pub fn ip(&self, args: &[&str]) {
        let mut all = vec!["-n", self.0.as_str()];
        all.extend(args);
        must(ip(&all));
    }

    /// A permanent neighbour entry: `addr` is at `mac` on `dev`.
    pub fn neighbour(&self, dev: &str, addr: &str, mac: &str) {
        self.ip(&[
            "neigh",
            "replace",
            addr,
            "lladdr",
            mac,
            "dev",
            dev,
            "nud",
            "permanent",
        ]);
    }

    /// Addresses `tap` as `config` says: its MAC, no IPv6 (quiet links),
    /// a /24, up, static neighbours, and a default route when a gateway
    /// is given.
    pub fn configure_tap(&self, tap: &str, config: &TapConfig<'_>) {
        self.ip(&["link", "set", tap, "address", config.mac]);
        must(self.exec(
            "sysctl",
            &["-qw", &format!("net.ipv6.conf.{tap}.disable_ipv6=1")],
        ));
        self.ip(&["addr", "add", &format!("{}/24", config.ip), "dev", tap]);
        self.ip(&["link", "set", tap, "up"]);
        for (addr, mac) in config.neighbours {
            self.neighbour(tap, addr, mac);
        }
        if let Some(gateway) = config.default_via {
            self.ip(&["route", "add", "default", "via", gateway, "dev", tap]);
        }
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        let _ = run_bounded(ip(&["netns", "del", &self.0]), STEP);
    }
}

/// How a tenant's TAP is addressed.
pub struct TapConfig<'a> {
    pub mac: &'a str,
    /// Its IPv4 address (in a /24).
    pub ip: &'a str,
    /// Static neighbours: (IPv4 address, MAC).
    pub neighbours: &'a [(&'a str, &'a str)],
    /// The default route's gateway, if any.
    pub default_via: Option<&'a str>,
}

/// A root-namespace link, deleted when dropped.
pub struct Link(pub String);

impl Drop for Link {
    fn drop(&mut self) {
        let _ = run_bounded(ip(&["link", "del", &self.0]), STEP);
    }
}

/// Which stream of a daemon is read line by line (the other is kept
/// whole for [`Daemon::stop`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    Stderr,
    /// QEMU's serial console.
    Stdout,
}

/// A background process: SIGTERM then (after 3 s) SIGKILL when dropped.
/// The lines of one of its streams arrive on a channel (and are echoed
/// to the test's stderr).
pub struct Daemon {
    name: &'static str,
    child: Child,
    lines: mpsc::Receiver<String>,
    rest: Option<thread::JoinHandle<String>>,
}

impl Daemon {
    pub fn start(name: &'static str, mut cmd: Command, lines: Lines) -> Daemon {
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let err = child.stderr.take().expect("piped stderr");
        let out = child.stdout.take().expect("piped stdout");
        let (streamed, whole): (Box<dyn Read + Send>, Box<dyn Read + Send>) = match lines {
            Lines::Stderr => (Box::new(err), Box::new(out)),
            Lines::Stdout => (Box::new(out), Box::new(err)),
        };
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(streamed).lines().map_while(Result::ok) {
                eprintln!("[{name}] {line}");
                let _ = tx.send(line);
            }
        });
        let rest = thread::spawn(move || {
            let mut s = String::new();
            let mut whole = whole;
            let _ = whole.read_to_string(&mut s);
            s
        });
        Daemon {
            name,
            child,
            lines: rx,
            rest: Some(rest),
        }
    }

    /// Waits (at most `limit`) for a line containing one of `wants`;
    /// returns that line, or why there is none.
    pub fn try_wait_for(&mut self, wants: &[&str], limit: Duration) -> Result<String, String> {
        let deadline = Instant::now() + limit;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) if wants.iter().any(|w| line.contains(w)) => return Ok(line),
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(format!(
                        "{} exited before printing any of {wants:?}",
                        self.name
                    ));
                }
            }
        }
        Err(format!(
            "{} did not print any of {wants:?} within {limit:?}",
            self.name
        ))
    }

    /// As [`Daemon::try_wait_for`], failing the test without the line.
    pub fn wait_for(&mut self, wants: &[&str], limit: Duration) -> String {
        self.try_wait_for(wants, limit)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Stops it (SIGTERM, bounded) and returns the stream not read line by
    /// line.
    pub fn stop(mut self) -> String {
        self.terminate();
        self.rest
            .take()
            .map(|h| h.join().unwrap_or_default())
            .unwrap_or_default()
    }

    fn terminate(&mut self) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.terminate();
        }
    }
}

/// `janus host attach --nic DIR --vf PORT --tap TAP` inside `ns`, once it
/// says it is attached.
pub fn attach_tap(ns: &Netns, nic_dir: &str, port: u32, tap: &str) -> Daemon {
    let port = port.to_string();
    let mut shim = Daemon::start(
        "shim",
        ns.exec(
            env!("CARGO_BIN_EXE_janus"),
            &[
                "host", "attach", "--nic", nic_dir, "--vf", &port, "--tap", tap,
            ],
        ),
        Lines::Stderr,
    );
    shim.wait_for(&["attached to VF"], STEP);
    shim
}
