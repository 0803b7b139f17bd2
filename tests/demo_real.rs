//! `janus demo --real` (docs/host-interface.md, "The real demo"): as root
//! it runs the tenant scenario over real network namespaces and exits 0
//! with every fate as expected, leaving no namespace behind; without the
//! privileges it exits 2 and says what it needs.
//!
//! The first test needs root, `ip` and `ping` (skipped with a message
//! without them, failed under JANUS_REQUIRE_TOOLS=1); the second runs the
//! demo as `nobody` when the test runs as root (through `setpriv` or
//! `runuser`), or as the test's own user otherwise. Every run is bounded.

mod common;

use common::netns::{installed, is_root, root_and_tools};
use common::{janus, missing_tool, run_bounded};
use std::process::Command;
use std::time::Duration;

/// How long the whole real demo may take (a debug build compiles the
/// program in the NIC process and runs iperf3 for 3 s).
const DEMO: Duration = Duration::from_secs(300);

/// How long a command that only checks its preconditions may take.
const QUICK: Duration = Duration::from_secs(30);

/// The network namespaces the demo names (`janus-demo-<run>-<name>`).
fn demo_namespaces() -> Vec<String> {
    let out = Command::new("ip").args(["netns", "list"]).output();
    out.map(|o| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|n| n.starts_with("janus-demo-"))
            .map(str::to_string)
            .collect()
    })
    .unwrap_or_default()
}

#[test]
fn the_real_demo_runs_the_tenant_scenario_over_namespaces() {
    if !root_and_tools("tests/demo_real.rs", &["ip", "ping"]) {
        return;
    }
    let before = demo_namespaces();
    let mut cmd = janus();
    cmd.args(["demo", "--real"]);
    let run = run_bounded(cmd, DEMO);
    assert!(run.success(), "janus demo --real: {}", run.describe(DEMO));
    let out = &run.stdout;
    let scenarios = [
        "a1 -> a2: ping inside tenant A",
        "a1 -> b1: ping from tenant A to tenant B",
        "b1 -> a2: ping from tenant B to tenant A",
        "a1 -> the management address",
        "management namespace -> ",
        "P4Runtime Capabilities",
        "SdnIngress.tenant_packets: both tenants",
    ];
    for s in scenarios {
        assert!(out.contains(s), "no scenario `{s}`:\n{out}");
    }
    let iperf3 = installed("iperf3");
    let run_count = scenarios.len() + usize::from(iperf3);
    if iperf3 {
        assert!(out.contains("Mbit/s received over 3 s"), "{out}");
    }
    assert_eq!(
        out.matches("check      as expected").count(),
        run_count,
        "{out}"
    );
    assert!(!out.contains("NOT AS EXPECTED"), "{out}");
    // Each fate is observed, not assumed: the pings' replies, the NIC's
    // drop reason for crossing tenants, the server's API version.
    assert!(out.contains("3 of 3 echo requests answered"), "{out}");
    assert!(out.contains("0 of 2 echo requests answered"), "{out}");
    assert!(out.contains("reason 10 (l2 miss)"), "{out}");
    assert!(out.contains("P4Runtime API version 1."), "{out}");
    assert!(
        out.contains(&format!("All {run_count} scenarios behaved as expected")),
        "{out}"
    );
    // The guards removed what the run created (its names carry the run's
    // id, printed with its runtime directory; other runs may be going on).
    let run_id = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("runtime directory"))
        .and_then(|dir| dir.trim().rsplit('-').next())
        .expect("the runtime directory line");
    let prefix = format!("janus-demo-{run_id}-");
    let after = demo_namespaces();
    let left: Vec<&String> = after
        .iter()
        .filter(|n| n.starts_with(&prefix) && !before.contains(n))
        .collect();
    assert!(left.is_empty(), "namespaces left behind: {left:?}");
}

/// How to run a program as an unprivileged user: a prefix (empty when
/// the test is not root), or None when no tool for it is installed.
fn unprivileged_prefix() -> Option<Vec<&'static str>> {
    if !is_root() {
        Some(Vec::new())
    } else if installed("setpriv") {
        Some(vec![
            "setpriv",
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
        ])
    } else if installed("runuser") {
        Some(vec!["runuser", "-u", "nobody", "--"])
    } else {
        None
    }
}

#[test]
fn without_privileges_the_real_demo_explains_what_it_needs() {
    let bin = env!("CARGO_BIN_EXE_janus");
    let Some(prefix) = unprivileged_prefix() else {
        missing_tool("neither setpriv nor runuser is installed (util-linux)");
        return;
    };
    let command = |args: &[&str]| {
        let mut words = prefix.clone();
        words.push(bin);
        words.extend(args);
        let mut c = Command::new(words[0]);
        c.args(&words[1..]);
        c
    };
    if !run_bounded(command(&["--version"]), QUICK).success() {
        missing_tool(&format!("an unprivileged user cannot run {bin}"));
        return;
    }
    let run = run_bounded(command(&["demo", "--real"]), QUICK);
    assert_eq!(
        run.status.and_then(|s| s.code()),
        Some(2),
        "{}",
        run.describe(QUICK)
    );
    let err = &run.stderr;
    assert!(err.contains("root privileges"), "{err}");
    assert!(err.contains("CAP_NET_ADMIN"), "{err}");
    assert!(
        err.contains("sudo cargo run --release -- demo --real"),
        "{err}"
    );
    assert!(
        run.stdout.is_empty(),
        "nothing runs before the check: {}",
        run.stdout
    );
}
