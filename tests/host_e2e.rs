//! End to end through real Linux interfaces (docs/host-interface.md, "The
//! end-to-end topology"): `janus nic run --p4 p4/sdn.p4` in a management
//! namespace, three tenant namespaces (a1, a2 of tenant A on VFs 2 and 3,
//! b1 of tenant B on VF 4), each with a TAP bridged by `janus host attach`,
//! the tenants configured over P4Runtime by `janus ctrl tenant add`. Real
//! `ping` crosses from a1 to a2 and not from a1 to b1; a tenant cannot
//! reach the management address; iperf3 runs a1 to a2 and its throughput
//! is printed.
//!
//! Needs root, `ip`, `ping`, `iperf3` and `bash`: skipped with a message
//! without them, failed under JANUS_REQUIRE_TOOLS=1 (scripts/test). Every
//! wait is bounded; guards delete the namespaces and stop the processes
//! even when an assertion fails.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use common::{missing_tool, repo, run_bounded};

/// How long one `ip`/`ping`/client command may take.
const STEP: Duration = Duration::from_secs(20);

/// A network namespace, deleted when dropped.
struct Netns(String);

impl Netns {
    fn new(name: &str) -> Netns {
        let ns = Netns(format!("janus-{name}-{}", std::process::id()));
        let _ = run_bounded(ip(&["netns", "del", &ns.0]), STEP);
        must(ip(&["netns", "add", &ns.0]));
        must(ip(&["-n", &ns.0, "link", "set", "lo", "up"]));
        ns
    }

    /// `ip netns exec NS PROGRAM ARGS...`.
    fn exec(&self, program: &str, args: &[&str]) -> Command {
        let mut c = Command::new("ip");
        c.args(["netns", "exec", &self.0, program]).args(args);
        c
    }

    /// `ip -n NS ARGS...`, asserting success.
    fn ip(&self, args: &[&str]) {
        let mut all = vec!["-n", self.0.as_str()];
        all.extend(args);
        must(ip(&all));
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        let _ = run_bounded(ip(&["netns", "del", &self.0]), STEP);
    }
}

/// A root-namespace link, deleted when dropped.
struct Link(String);

impl Drop for Link {
    fn drop(&mut self) {
        let _ = run_bounded(ip(&["link", "del", &self.0]), STEP);
    }
}

/// A background process: SIGTERM then (after 3 s) SIGKILL when dropped.
/// Its stderr lines arrive on a channel.
struct Daemon {
    name: &'static str,
    child: Child,
    lines: mpsc::Receiver<String>,
    stdout: Option<thread::JoinHandle<String>>,
}

impl Daemon {
    fn start(name: &'static str, mut cmd: Command) -> Daemon {
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let (tx, lines) = mpsc::channel();
        let err = child.stderr.take().expect("piped stderr");
        thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                eprintln!("[{name}] {line}");
                let _ = tx.send(line);
            }
        });
        let mut out = child.stdout.take().expect("piped stdout");
        let stdout = thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut out, &mut s);
            s
        });
        Daemon {
            name,
            child,
            lines,
            stdout: Some(stdout),
        }
    }

    /// Waits (at most `limit`) for a stderr line containing `want`.
    fn wait_for(&mut self, want: &str, limit: Duration) {
        let deadline = Instant::now() + limit;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) if line.contains(want) => return,
                Ok(_) => {}
                Err(_) => break,
            }
        }
        panic!("{} did not print `{want}` within {limit:?}", self.name);
    }

    /// Stops it (SIGTERM, bounded) and returns its stdout.
    fn stop(mut self) -> String {
        self.terminate();
        self.stdout
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

fn ip(args: &[&str]) -> Command {
    let mut c = Command::new("ip");
    c.args(args);
    c
}

/// Runs `cmd` (bounded), asserting success; returns stdout.
fn must(cmd: Command) -> String {
    let what = format!("{cmd:?}");
    let done = run_bounded(cmd, STEP);
    assert!(done.success(), "{what}: {}", done.describe(STEP));
    done.stdout
}

/// Whether the test can run here; prints (or, under JANUS_REQUIRE_TOOLS=1,
/// fails with) what is missing.
fn prerequisites() -> bool {
    let uid = Command::new("id").arg("-u").output();
    if !uid.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0") {
        missing_tool("tests/host_e2e.rs needs root (network namespaces, TAP devices)");
        return false;
    }
    for tool in ["ip", "ping", "iperf3", "bash"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            missing_tool(&format!(
                "{tool} is not installed (scripts/test installs it)"
            ));
            return false;
        }
    }
    true
}

/// One tenant VF as the test sets it up.
struct Vf {
    port: u32,
    mac: &'static str,
    ip: &'static str,
    gateway: &'static str,
    gateway_mac: &'static str,
}

const A1: Vf = Vf {
    port: 2,
    mac: "02:00:00:00:01:02",
    ip: "10.1.0.2",
    gateway: "10.1.0.1",
    gateway_mac: "02:00:00:00:01:01",
};
const A2: Vf = Vf {
    port: 3,
    mac: "02:00:00:00:01:03",
    ip: "10.1.0.3",
    ..A1
};
const B1: Vf = Vf {
    port: 4,
    mac: "02:00:00:00:02:04",
    ip: "10.2.0.4",
    gateway: "10.2.0.1",
    gateway_mac: "02:00:00:00:02:01",
};

impl Vf {
    fn spec(&self) -> String {
        format!("port={},mac={},ip={}", self.port, self.mac, self.ip)
    }

    /// Addresses the VF's TAP in `ns`: the VF's MAC (the pipeline checks
    /// sources), a /24, static neighbours (the gateway's and `peers`), a
    /// default route through the gateway, no IPv6 (quiet links).
    fn configure(&self, ns: &Netns, tap: &str, peers: &[&Vf]) {
        ns.ip(&["link", "set", tap, "address", self.mac]);
        must(ns.exec(
            "sysctl",
            &["-qw", &format!("net.ipv6.conf.{tap}.disable_ipv6=1")],
        ));
        ns.ip(&["addr", "add", &format!("{}/24", self.ip), "dev", tap]);
        ns.ip(&["link", "set", tap, "up"]);
        let mut neighbours = vec![(self.gateway, self.gateway_mac)];
        neighbours.extend(peers.iter().map(|p| (p.ip, p.mac)));
        for (addr, mac) in neighbours {
            ns.ip(&[
                "neigh",
                "replace",
                addr,
                "lladdr",
                mac,
                "dev",
                tap,
                "nud",
                "permanent",
            ]);
        }
        ns.ip(&["route", "add", "default", "via", self.gateway, "dev", tap]);
    }
}

#[test]
fn tenants_ping_through_the_nic_and_cannot_reach_management() {
    if !prerequisites() {
        return;
    }
    let pid = std::process::id();
    let dir = common::TempDir::new("host-e2e");
    let mgmt = Netns::new("mgmt");
    let (a1, a2, b1) = (Netns::new("a1"), Netns::new("a2"), Netns::new("b1"));

    // The management network: a veth, the NIC's end in the management
    // namespace, the operator's end in the root namespace.
    let subnet = format!("172.31.{}", pid % 250);
    let (nic_end, op_end) = (format!("jm0-{pid}"), format!("jm1-{pid}"));
    must(ip(&[
        "link", "add", &nic_end, "type", "veth", "peer", "name", &op_end,
    ]));
    let _link = Link(op_end.clone());
    must(ip(&["link", "set", &nic_end, "netns", &mgmt.0]));
    mgmt.ip(&["addr", "add", &format!("{subnet}.1/24"), "dev", &nic_end]);
    mgmt.ip(&["link", "set", &nic_end, "up"]);
    must(ip(&[
        "addr",
        "add",
        &format!("{subnet}.2/24"),
        "dev",
        &op_end,
    ]));
    must(ip(&["link", "set", &op_end, "up"]));
    let mgmt_addr = format!("{subnet}.1:9559");

    let bin = env!("CARGO_BIN_EXE_janus");
    let sdn = repo("p4/sdn.p4");
    let dir_s = dir.path().to_string_lossy().into_owned();
    let mut nic = Daemon::start(
        "nic",
        mgmt.exec(
            bin,
            &[
                "nic",
                "run",
                &dir_s,
                "--p4",
                &sdn.to_string_lossy(),
                "--listen",
                &mgmt_addr,
                "--insecure",
                "--vfs",
                "4",
            ],
        ),
    );
    nic.wait_for("janus nic: P4Runtime", common::SERVER_START);

    // A shim per tenant namespace: the TAP is created in the namespace.
    let mut shims = Vec::new();
    for (ns, vf) in [(&a1, &A1), (&a2, &A2), (&b1, &B1)] {
        let tap = format!("t{}", vf.port);
        let port = vf.port.to_string();
        let mut shim = Daemon::start(
            "shim",
            ns.exec(
                bin,
                &[
                    "host", "attach", "--nic", &dir_s, "--vf", &port, "--tap", &tap,
                ],
            ),
        );
        shim.wait_for("attached to VF", STEP);
        shims.push(shim);
    }
    A1.configure(&a1, "t2", &[&A2, &B1]);
    A2.configure(&a2, "t3", &[&A1]);
    B1.configure(&b1, "t4", &[]);
    // a1 reaches b1's subnet directly (a static neighbour): the frames do
    // reach the NIC, whose pipeline must drop them.
    a1.ip(&["route", "add", "10.2.0.0/24", "dev", "t2"]);
    a1.ip(&[
        "neigh",
        "replace",
        B1.ip,
        "lladdr",
        B1.mac,
        "dev",
        "t2",
        "nud",
        "permanent",
    ]);

    // The operator configures the tenants over P4Runtime, from the
    // management namespace.
    for (id, vni, vfs, gw) in [
        (
            "1",
            "1001",
            vec![&A1, &A2],
            "mac=02:00:00:00:01:01,ip=10.1.0.1",
        ),
        ("2", "2002", vec![&B1], "mac=02:00:00:00:02:01,ip=10.2.0.1"),
    ] {
        let mut args = vec!["ctrl".to_string(), "tenant".into(), "add".into(), id.into()];
        args.extend(["--vni".into(), vni.into(), "--gateway".into(), gw.into()]);
        for vf in vfs {
            args.extend(["--vf".into(), vf.spec()]);
        }
        args.extend(["--server".into(), mgmt_addr.clone()]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = must(mgmt.exec(bin, &refs));
        assert!(out.contains("entries written"), "{out}");
    }

    // Tenant A: a1 to a2 through the NIC.
    let ping = run_bounded(
        a1.exec("ping", &["-c", "3", "-i", "0.2", "-W", "2", A2.ip]),
        STEP,
    );
    assert!(ping.success(), "ping a1 -> a2: {}", ping.describe(STEP));
    eprintln!("{}", ping.stdout);
    // Tenant A to tenant B: dropped by the pipeline.
    let ping = run_bounded(
        a1.exec("ping", &["-c", "2", "-i", "0.2", "-W", "1", B1.ip]),
        STEP,
    );
    assert!(
        !ping.success(),
        "ping a1 -> b1 must fail: {}",
        ping.describe(STEP)
    );
    assert!(ping.stdout.contains("0 received"), "{}", ping.stdout);

    // The management address: unreachable from a tenant...
    let (host, port) = mgmt_addr.split_once(':').unwrap();
    let probe = format!("exec 3<>/dev/tcp/{host}/{port}");
    let tcp = run_bounded(a1.exec("timeout", &["3", "bash", "-c", &probe]), STEP);
    assert!(
        !tcp.success(),
        "a tenant connected to the management address"
    );
    // ...reachable from the management namespace (a P4Runtime client)...
    let list = must(mgmt.exec(
        bin,
        &[
            "ctrl",
            "table",
            "list",
            "vf_tenants",
            "--server",
            &mgmt_addr,
        ],
    ));
    assert!(list.contains("3 entries"), "{list}");
    // ...and from the operator's end of the management network
    // (P4Runtime Capabilities).
    capabilities(&mgmt_addr);

    // iperf3 a1 -> a2.
    let server = Daemon::start("iperf3 -s", a2.exec("iperf3", &["-s", "-1", "-B", A2.ip]));
    // The server prints nothing on stderr when ready: retry the client
    // while it starts (a refused attempt exits non-zero or reports an
    // error without a received rate).
    let limit = Duration::from_secs(30);
    let mut last = String::new();
    let mut rate = None;
    for _ in 0..10 {
        let run = run_bounded(a1.exec("iperf3", &["-c", A2.ip, "-t", "3", "-J"]), limit);
        rate = serde_json::from_str::<serde_json::Value>(&run.stdout)
            .ok()
            .and_then(|r| r["end"]["sum_received"]["bits_per_second"].as_f64());
        if rate.is_some() {
            break;
        }
        last = run.describe(limit);
        thread::sleep(Duration::from_millis(300));
    }
    let bps = rate.unwrap_or_else(|| panic!("iperf3 a1 -> a2 gave no rate: {last}"));
    eprintln!("iperf3 a1 -> a2 through the NIC: {:.1} Mbit/s", bps / 1e6);
    assert!(bps > 1e6, "iperf3 throughput {bps} bit/s");
    drop(server);

    // Both sides stop on SIGTERM and print their counters.
    for shim in shims {
        let out = shim.stop();
        assert!(out.contains("to the NIC:"), "{out}");
    }
    let out = nic.stop();
    eprintln!("{out}");
    assert!(out.contains("3 attaches"), "{out}");
}

/// P4Runtime Capabilities against `addr` (bounded).
fn capabilities(addr: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let config = janus_ctrl::client::ClientConfig::new(addr);
    let answer = runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(10), async {
            let mut client = janus_ctrl::client::Client::connect(config).await?;
            client.capabilities().await
        })
        .await
    });
    match answer {
        Ok(Ok(c)) => assert!(!c.p4runtime_api_version.is_empty()),
        Ok(Err(e)) => panic!("Capabilities: {e}"),
        Err(_) => panic!("Capabilities did not answer within 10 s"),
    }
}
