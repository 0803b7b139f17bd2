//! Mininet on `janus switch`: `tests/mininet/router_topology.py` builds a
//! real Mininet network (Debian's `mininet`, hosts in network namespaces,
//! veth links, no controller) with two `JanusSwitch`es
//! (`tests/mininet/janus_switch.py`) and four hosts, programs
//! `p4/examples/l3_router_acl.p4` over P4Runtime, and checks pingall (0%
//! loss), TTLs, the ACL, an iperf TCP stream and a switch that fails to
//! start (see the script).
//!
//! Root, Mininet, iperf, ethtool and the PTF venv (`JANUS_PTF_VENV`: grpcio
//! and p4runtime for the script's controller) are needed; without one the
//! test is skipped with a message, or fails under `JANUS_REQUIRE_TOOLS=1`
//! (as `scripts/test` runs it, after installing them). The script runs as
//! PID 1 of a PID namespace of its own (`unshare --pid --fork
//! --kill-child`): however it ends, even killed at the time limit, every
//! process it started (Mininet's host shells, the switches, iperf) dies
//! with it, and with them the hosts' namespaces and links; the links left
//! in the root namespace (between the switches) are deleted by name
//! afterwards, and the test checks that a run leaves none behind.

mod common;

use common::netns::{STEP, installed, ip, is_root};
use common::{Finished, TempDir, missing_tool, repo, run_bounded, venv};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What the script may take before it stops the network itself.
const SCRIPT_LIMIT: u64 = 150;
/// What the script may take at all (its clean-up included) before it is
/// killed.
const HARD_LIMIT: Duration = Duration::from_secs(SCRIPT_LIMIT + 60);

/// Whether everything the test needs is here; reports what is not.
fn ready() -> Option<PathBuf> {
    if !is_root() {
        missing_tool("tests/mininet.rs needs root (Mininet makes namespaces and veth pairs)");
        return None;
    }
    for tool in ["mn", "mnexec", "iperf", "ping", "ethtool", "unshare", "ss"] {
        if !installed(tool) {
            missing_tool(&format!(
                "{tool} is not installed (scripts/test installs mininet and ethtool)"
            ));
            return None;
        }
    }
    venv("JANUS_PTF_VENV")
}

/// The interfaces named in the script's state file, deleted (if still
/// there) when dropped, a failed assertion included.
struct Interfaces(PathBuf);

impl Interfaces {
    fn names(&self) -> Vec<String> {
        let Ok(text) = std::fs::read_to_string(&self.0) else {
            return Vec::new();
        };
        // {"interfaces": ["s1-eth1", ...]}: the names are all we read.
        let Some(list) = text.split('[').nth(1).and_then(|s| s.split(']').next()) else {
            return Vec::new();
        };
        list.split(',')
            .map(|s| s.trim().trim_matches('"').to_string())
            .filter(|s| !s.is_empty())
            .collect()
    }

    fn left(&self) -> Vec<String> {
        self.names()
            .into_iter()
            .filter(|n| Path::new("/sys/class/net").join(n).exists())
            .collect()
    }
}

impl Drop for Interfaces {
    fn drop(&mut self) {
        for name in self.left() {
            let _ = run_bounded(ip(&["link", "del", &name]), STEP);
        }
    }
}

/// The switches' logs, for a failure message.
fn logs(dir: &Path) -> String {
    let mut out = String::new();
    for sw in ["s1", "s2", "s9"] {
        let text = std::fs::read_to_string(dir.join(format!("{sw}.log"))).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        out += &format!("--- {sw}.log (end)\n");
        for line in tail.into_iter().rev() {
            out += line;
            out.push('\n');
        }
    }
    out
}

/// Mininet scripts run one at a time: they name their switches alike.
static ONE_NETWORK: Mutex<()> = Mutex::new(());

/// A script of tests/mininet run as PID 1 of its own PID namespace with
/// `args`, `--work`, `--state` and `--time-limit`, in a temporary
/// directory; its switch interfaces are deleted when the run is dropped.
struct ScriptRun {
    done: Finished,
    output: String,
    took: Duration,
    left: Vec<String>,
    work: PathBuf,
    // Dropped in this order: the interfaces (named in the state file),
    // then the directory holding it.
    _interfaces: Interfaces,
    _tmp: TempDir,
}

fn run_script(python: &Path, script: &str, args: &[&std::ffi::OsStr]) -> ScriptRun {
    let tmp = TempDir::new("mininet");
    let work = tmp.join("work");
    let state = tmp.join("state.json");
    let interfaces = Interfaces(state.clone());
    let mut cmd = Command::new("unshare");
    cmd.args(["--pid", "--fork", "--kill-child", "--mount-proc"])
        .arg(python)
        .arg(repo(&format!("tests/mininet/{script}")))
        .args(args)
        .arg("--work")
        .arg(&work)
        .arg("--state")
        .arg(&state)
        .args(["--time-limit", &SCRIPT_LIMIT.to_string()])
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(tmp.path());
    // Mininet looks for ifconfig, mnexec and ethtool on the PATH.
    let path = std::env::var("PATH").unwrap_or_default();
    cmd.env("PATH", format!("{path}:/usr/sbin:/sbin"));
    let started = Instant::now();
    let done = run_bounded(cmd, HARD_LIMIT);
    let took = started.elapsed();
    let output = format!("{}{}", done.stdout, done.stderr);
    let left = interfaces.left();
    ScriptRun {
        done,
        output,
        took,
        left,
        work,
        _interfaces: interfaces,
        _tmp: tmp,
    }
}

impl ScriptRun {
    /// Asserts the script passed, reported each of `checks`, and left no
    /// interface behind.
    fn assert_passed(&self, checks: &[&str]) {
        assert!(
            self.done.success() && self.output.contains("every check passed"),
            "the Mininet script {}\n{}",
            self.done.describe(HARD_LIMIT),
            logs(&self.work)
        );
        for want in checks {
            assert!(
                self.output.contains(want),
                "no {want:?} in:\n{}",
                self.output
            );
        }
        assert!(
            self.left.is_empty(),
            "interfaces left behind: {:?}\n{}",
            self.left,
            self.output
        );
    }
}

/// The PTF venv's python (grpcio, p4runtime), when everything is here.
fn python() -> Option<PathBuf> {
    let venv = ready()?;
    let python = venv.join("bin/python");
    assert!(
        python.exists(),
        "JANUS_PTF_VENV names {}, which has no bin/python: run scripts/test",
        venv.display()
    );
    Some(python)
}

#[test]
fn a_mininet_topology_of_janus_switches_pings_and_streams() {
    let Some(python) = python() else { return };
    let _one = ONE_NETWORK.lock().unwrap_or_else(|e| e.into_inner());
    let results_dir = TempDir::new("mininet-results");
    let results = results_dir.join("results.json");
    let run = run_script(
        &python,
        "router_topology.py",
        &[
            "--janus".as_ref(),
            env!("CARGO_BIN_EXE_janus").as_ref(),
            "--results".as_ref(),
            results.as_os_str(),
        ],
    );
    // What the script checked, as it reported it; 12 pings: every
    // ordered pair of the 4 hosts.
    run.assert_passed(&[
        "ok: pingall: 0% loss",
        "ok: h1 -> h4: ttl=62",
        "ok: TCP h1 -> h4:22 dropped by the ACL",
        "ok: iperf TCP h1 -> h4",
        "ok: a switch whose program does not compile fails to start",
        "ok: every janus switch is stopped and reaped",
        "Results: 0% dropped (12/12 received)",
    ]);
    let figures = std::fs::read_to_string(&results).unwrap_or_default();
    let mbits: f64 = figures
        .split("\"iperf_mbits\":")
        .nth(1)
        .and_then(|s| s.trim().trim_end_matches('}').split(',').next())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0.0);
    assert!(mbits > 0.0, "no throughput in {figures:?}");
    eprintln!(
        "mininet: pingall 0% loss, iperf h1 -> h4 {mbits:.1} Mbit/s; the run took {:.1?}",
        run.took
    );
}

/// A p4lang-tutorials-style exercise (tests/mininet/tutorial_exercise.py):
/// the compile step with p4c-bm2-ss's arguments, `janus-switch` started
/// with the tutorials' command line (`--nanolog`, `--thrift-port`,
/// `-- --grpc-server-addr 0.0.0.0:PORT --cpu-port`), the pipeline pushed
/// from the "JSON" file and entries from `sN-runtime.json`.
#[test]
fn a_tutorials_style_exercise_runs_on_janus_switch() {
    let Some(python) = python() else { return };
    let _one = ONE_NETWORK.lock().unwrap_or_else(|e| e.into_inner());
    let run = run_script(
        &python,
        "tutorial_exercise.py",
        &[
            "--janus".as_ref(),
            env!("CARGO_BIN_EXE_janus").as_ref(),
            "--janus-switch".as_ref(),
            env!("CARGO_BIN_EXE_janus-switch").as_ref(),
        ],
    );
    run.assert_passed(&[
        "ok: pingall: 0% loss",
        "ok: h1 -> h2: ttl=63",
        "ok: h1 -> h3: ttl=62",
        "ok: h3 -> h2: ttl=62",
        "ok: s2's --nanolog events: PACKET_IN on ports [1, 2], PACKET_OUT on ports [1, 2]",
        "ok: --pcap wrote",
        "ok: every janus switch is stopped and reaped",
        "Results: 0% dropped (6/6 received)",
    ]);
    eprintln!("tutorial exercise: the run took {:.1?}", run.took);
}
