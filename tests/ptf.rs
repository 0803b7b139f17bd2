//! PTF against `janus switch`, in both ways PTF reaches a switch: the
//! suite of `tests/ptf/` (a P4Runtime base test, tests of
//! `p4/examples/l3_router_acl.p4` and `p4/sdn.p4`) run by the `ptf` of
//! the venv `scripts/test` makes (`JANUS_PTF_VENV`):
//!
//! - over veth pairs (root): the switch's ends bound with `-i N@...`,
//!   PTF's ends given to `ptf --interface 0-N@...`;
//! - over nanomsg (no root needed): `janus switch --packet-in ipc://...`
//!   with `ptf --platform nn --device-socket 0-{0-5}@ipc://...`, as p4c's
//!   PTF runner drives simple_switch_grpc, and once over `tcp://`.
//!
//! Each test pushes its pipeline over P4Runtime (SetForwardingPipelineConfig
//! with the P4Info text and the `.pipeline` file `janus p4 compile`
//! writes). Without the venv (or root, for veth pairs) a test is skipped
//! with a message, or fails under `JANUS_REQUIRE_TOOLS=1`. Every link is
//! deleted when the test ends, a failure included; every wait is bounded
//! (ptf runs under a limit, each of its tests under `--test-case-timeout`).

mod common;

use common::netns::{Link, STEP, ip, must, root_and_tools};
use common::{Server, TempDir, janus, repo, run_bounded, venv};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// How long `janus p4 compile` may take.
const COMPILE: Duration = Duration::from_secs(120);
/// How long one ptf run may take (each of its tests: 60 s at most).
const PTF_RUN: Duration = Duration::from_secs(600);
/// The PTF ports: sdn.p4's uplinks 0 and 1 and VFs 2 to 5; the router
/// uses 1 to 3.
const PORTS: std::ops::RangeInclusive<u32> = 0..=5;
/// sdn.p4's CPU port.
const CPU_PORT: &str = "510";
/// The programs of the suite: `tests/ptf/tests/<name>.py` tests `path`.
const PROGRAMS: [(&str, &str); 2] = [
    ("l3_router_acl", "p4/examples/l3_router_acl.p4"),
    ("sdn", "p4/sdn.p4"),
];
/// The number of tests in the suite.
const TESTS: usize = 11;

/// Compiles every program of the suite into `dir` as the base test reads
/// them: `<name>.p4info.txt` and `<name>.pipeline`.
fn compile_programs(dir: &Path) {
    for (name, path) in PROGRAMS {
        let mut cmd = janus();
        cmd.args(["p4", "compile"])
            .arg(repo(path))
            .arg("--p4runtime-files")
            .arg(dir.join(format!("{name}.p4info.txt")))
            .arg("-o")
            .arg(dir.join(format!("{name}.pipeline")));
        let done = run_bounded(cmd, COMPILE);
        assert!(
            done.success(),
            "janus p4 compile {path}: {}",
            done.describe(COMPILE)
        );
    }
}

/// The venv's `ptf`, or None when the test is to be skipped.
fn ptf_command() -> Option<Command> {
    let venv = venv("JANUS_PTF_VENV")?;
    let ptf = venv.join("bin/ptf");
    assert!(
        ptf.exists(),
        "JANUS_PTF_VENV names {}, which has no bin/ptf: run scripts/test",
        venv.display()
    );
    let mut cmd = Command::new(venv.join("bin/python"));
    cmd.arg(ptf);
    Some(cmd)
}

/// Runs `ptf` (already given its platform options) on the suite against
/// the switch, and asserts that `expect` tests ran and passed.
fn run_suite(
    mut ptf: Command,
    tmp: &TempDir,
    switch: &Server,
    mode: &str,
    tests: &[&str],
    expect: usize,
) {
    let logs = tmp.join(&format!("ptf-{mode}"));
    std::fs::create_dir_all(&logs).unwrap();
    let params = format!(
        "grpcaddr='{}';program_dir='{}';device_id=0",
        switch.addr,
        tmp.path().display()
    );
    // No __pycache__ in the source tree.
    ptf.env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(tmp.path())
        .arg("--pypath")
        .arg(repo("tests/ptf"))
        .arg("--test-dir")
        .arg(repo("tests/ptf/tests"))
        .arg("--test-params")
        .arg(params)
        .args([
            "--default-timeout",
            "5",
            "--default-negative-timeout",
            "0.5",
            "--test-case-timeout",
            "60",
            "--allow-user",
        ])
        .arg("--log-dir")
        .arg(&logs)
        .args(tests);
    let done = run_bounded(ptf, PTF_RUN);
    let output = format!("{}{}", done.stdout, done.stderr);
    let ran = format!("Ran {expect} test");
    assert!(
        done.success() && output.contains(&ran) && output.contains("\nOK"),
        "ptf ({mode}) {}\n--- the switch\n{}",
        done.describe(PTF_RUN),
        switch.stderr_text()
    );
}

/// `janus switch ARGS -- --grpc-server-addr 127.0.0.1:0 --cpu-port 510`,
/// once it prints its address.
fn start_switch(args: &[String]) -> Server {
    let mut cmd = janus();
    cmd.arg("switch").args(args).args([
        "--",
        "--grpc-server-addr",
        "127.0.0.1:0",
        "--cpu-port",
        CPU_PORT,
    ]);
    Server::spawn(cmd)
}

/// The nanomsg address the switch prints at start-up (on the line whose
/// address `Server::spawn` read; the line itself is stored just after).
fn packet_socket(switch: &Server) -> String {
    let marker = "nanomsg PAIR socket ";
    let until = std::time::Instant::now() + STEP;
    let text = loop {
        let text = switch.stderr_text();
        if text.contains(marker) {
            break text;
        }
        assert!(
            std::time::Instant::now() < until,
            "no packet socket in:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let at = text.find(marker).expect("the marker");
    text[at + marker.len()..]
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// `0-{0-5}@ADDR`, PTF's `--device-socket`.
fn device_socket(addr: &str) -> String {
    format!("0-{{{}-{}}}@{addr}", PORTS.start(), PORTS.end())
}

#[test]
fn ptf_suite_over_nanomsg_ipc() {
    let Some(mut ptf) = ptf_command() else { return };
    let tmp = TempDir::new("ptf-nn");
    compile_programs(tmp.path());
    let addr = format!("ipc://{}", tmp.join("bmv2-0-dataplane.ipc").display());
    let switch = start_switch(&["--no-p4".into(), "--packet-in".into(), addr.clone()]);
    assert_eq!(packet_socket(&switch), addr);
    ptf.args(["--platform", "nn", "--device-socket", &device_socket(&addr)]);
    run_suite(ptf, &tmp, &switch, "nn-ipc", &[], TESTS);
    // The peer went away with ptf; the switch saw it come and go.
    let text = switch.stderr_text();
    assert!(text.contains("nanomsg peer connected"), "{text}");
}

#[test]
fn ptf_over_nanomsg_tcp() {
    let Some(mut ptf) = ptf_command() else { return };
    let tmp = TempDir::new("ptf-tcp");
    compile_programs(tmp.path());
    // The router is loaded at start-up; the tests push it (and sdn.p4)
    // again. Captures per port, made as packets come.
    let pcaps = tmp.join("pcap");
    std::fs::create_dir_all(&pcaps).unwrap();
    let switch = start_switch(&[
        "--pcap".into(),
        pcaps.display().to_string(),
        "--packet-in".into(),
        "tcp://127.0.0.1:0".into(),
        tmp.join("l3_router_acl.pipeline").display().to_string(),
    ]);
    let addr = packet_socket(&switch);
    assert!(addr.starts_with("tcp://127.0.0.1:"), "{addr}");
    assert!(!addr.ends_with(":0"), "{addr}");
    ptf.args(["--platform", "nn", "--device-socket", &device_socket(&addr)]);
    run_suite(
        ptf,
        &tmp,
        &switch,
        "nn-tcp",
        &[
            "l3_router_acl.RouteLpm",
            "sdn.PacketOutLeavesByItsPort",
            "sdn.ArpForTheGatewayIsAPacketIn",
        ],
        3,
    );
    // RouteLpm sent one packet on port 1 and one on 3, both routed out
    // of port 2; the PacketOut left by port 3.
    for (file, at_least) in [
        ("port1_in.pcap", 1),
        ("port3_in.pcap", 1),
        ("port2_out.pcap", 2),
        ("port3_out.pcap", 1),
    ] {
        let got = common::pcap_records(&pcaps.join(file));
        assert!(
            got >= at_least,
            "{file}: {got} packets\n{}",
            switch.stderr_text()
        );
    }
}

#[test]
fn ptf_suite_over_veth_pairs() {
    if !root_and_tools("tests/ptf.rs", &["ip", "sysctl"]) {
        return;
    }
    let Some(mut ptf) = ptf_command() else { return };
    let tmp = TempDir::new("ptf-veth");
    compile_programs(tmp.path());
    let pid = std::process::id();
    let mut links = Vec::new();
    let mut switch_args = Vec::new();
    for port in PORTS {
        let (sw, peer) = (format!("jpS{pid}_{port}"), format!("jpP{pid}_{port}"));
        let _ = run_bounded(ip(&["link", "del", &sw]), STEP);
        must(ip(&[
            "link", "add", &sw, "type", "veth", "peer", "name", &peer,
        ]));
        links.push(Link(sw.clone()));
        for end in [&sw, &peer] {
            // No IPv6: the kernel would send router solicitations and MLD
            // reports into the tests.
            let _ = run_bounded(
                common::netns::cmd(
                    "sysctl",
                    &["-qw", &format!("net.ipv6.conf.{end}.disable_ipv6=1")],
                ),
                STEP,
            );
            must(ip(&["link", "set", end, "up"]));
        }
        switch_args.push("-i".to_string());
        switch_args.push(format!("{port}@{sw}"));
        ptf.arg("--interface").arg(format!("0-{port}@{peer}"));
    }
    switch_args.push(tmp.join("sdn.pipeline").display().to_string());
    let switch = start_switch(&switch_args);
    run_suite(ptf, &tmp, &switch, "veth", &[], TESTS);
    drop(switch);
    drop(links);
}

/// The refusals of `--packet-in` (no venv, no root needed).
#[test]
fn packet_in_is_checked_and_replaces_the_interfaces() {
    let tmp = TempDir::new("ptf-cli");
    let prog = tmp.join("router.p4");
    std::fs::copy(repo("p4/examples/l3_router_acl.p4"), &prog).unwrap();
    let p = prog.display().to_string();
    let run = |args: &[&str]| {
        let mut cmd = janus();
        cmd.arg("switch").args(args);
        let done = run_bounded(cmd, Duration::from_secs(60));
        (done.status.and_then(|s| s.code()), done.stderr)
    };
    for (args, code, want) in [
        (
            vec!["--packet-in", "inproc://x", &p],
            2,
            "expected ipc://PATH",
        ),
        (
            vec!["--packet-in", "tcp://127.0.0.1", &p],
            2,
            "tcp://HOST:PORT",
        ),
        (vec!["--packet-in", "ipc://", &p], 2, "no path"),
        (
            vec!["--packet-in", "ipc:///nonexistent-janus-dir/x.ipc", &p],
            1,
            "cannot listen on ipc:///nonexistent-janus-dir/x.ipc",
        ),
    ] {
        let (got, stderr) = run(&args);
        assert_eq!(got, Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    }
    // A file that is not a socket is left alone.
    let plain = tmp.join("plain");
    std::fs::write(&plain, b"keep").unwrap();
    let addr = format!("ipc://{}", plain.display());
    let (got, stderr) = run(&["--packet-in", &addr, &p]);
    assert_eq!(got, Some(1), "{stderr}");
    assert!(stderr.contains("not a socket"), "{stderr}");
    assert_eq!(std::fs::read(&plain).unwrap(), b"keep");
    // With --packet-in, -i is ignored (bmv2 clears its interface list):
    // an interface that does not exist does not stop the switch.
    let addr = format!("ipc://{}", tmp.join("dp.ipc").display());
    let switch = start_switch(&[
        "-i".into(),
        "1@janus-nosuch0".into(),
        "--packet-in".into(),
        addr.clone(),
        p,
    ]);
    let text = switch.stderr_text();
    assert!(text.contains("ignoring the -i options"), "{text}");
    assert_eq!(packet_socket(&switch), addr);
}
