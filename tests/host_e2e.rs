//! End to end through real Linux interfaces (docs/host-interface.md, "The
//! end-to-end topology"): `janus nic run --p4 p4/sdn.p4` in a management
//! namespace, three tenant namespaces (a1, a2 of tenant A on VFs 2 and 3,
//! b1 of tenant B on VF 4), each with a TAP bridged by `janus host attach`,
//! the tenants configured over P4Runtime by `janus ctrl tenant add`. Real
//! `ping` crosses from a1 to a2 and not from a1 to b1; a tenant cannot
//! reach the management address; iperf3 runs a1 to a2 and its throughput
//! is printed.
//!
//! The same topology on a booted card: `janus nic run CARD` of a signed
//! image whose configuration holds both tenants (no `janus ctrl tenant
//! add`), mTLS with the image's certificates; a1 resolves its gateway by
//! ARP (answered by the card's slow path), pings a2 bridged and routed,
//! not b1, and the card's boot is confirmed.
//!
//! Needs root, `ip`, `ping`, `iperf3` and `bash`: skipped with a message
//! without them, failed under JANUS_REQUIRE_TOOLS=1 (scripts/test). Every
//! wait is bounded; guards delete the namespaces and stop the processes
//! even when an assertion fails.

mod common;

use std::thread;
use std::time::Duration;

use common::netns::{Daemon, Lines, Link, Netns, STEP, TapConfig, attach_tap, ip, must};
use common::{card, repo, run_bounded};

/// Whether the test can run here; prints (or, under JANUS_REQUIRE_TOOLS=1,
/// fails with) what is missing.
fn prerequisites() -> bool {
    common::netns::root_and_tools("tests/host_e2e.rs", &["ip", "ping", "iperf3", "bash"])
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
        let mut neighbours = vec![(self.gateway, self.gateway_mac)];
        neighbours.extend(peers.iter().map(|p| (p.ip, p.mac)));
        self.address(ns, tap, &neighbours);
    }

    /// As [`Vf::configure`] with only `peers` as static neighbours: the
    /// gateway is resolved by ARP (the card's slow path answers it), the
    /// peers cannot be (sdn.p4 does not flood broadcasts).
    fn configure_resolving_gateway(&self, ns: &Netns, tap: &str, peers: &[&Vf]) {
        let neighbours: Vec<_> = peers.iter().map(|p| (p.ip, p.mac)).collect();
        self.address(ns, tap, &neighbours);
    }

    fn address(&self, ns: &Netns, tap: &str, neighbours: &[(&str, &str)]) {
        ns.configure_tap(
            tap,
            &TapConfig {
                mac: self.mac,
                ip: self.ip,
                neighbours,
                default_via: Some(self.gateway),
            },
        );
    }
}

/// A management network: a veth whose end `<tag>0-PID` is in `mgmt`,
/// addressed `<prefix>.1/24`, and whose end `<tag>1-PID` (the operator's)
/// stays in the root namespace, addressed `<prefix>.2/24`. Returns the
/// operator's end (deleted when dropped) and the NIC's address.
fn management_network(mgmt: &Netns, tag: &str, prefix: &str) -> (Link, String) {
    let pid = std::process::id();
    let (nic_end, op_end) = (format!("{tag}0-{pid}"), format!("{tag}1-{pid}"));
    must(ip(&[
        "link", "add", &nic_end, "type", "veth", "peer", "name", &op_end,
    ]));
    let link = Link(op_end.clone());
    must(ip(&["link", "set", &nic_end, "netns", &mgmt.0]));
    mgmt.ip(&["addr", "add", &format!("{prefix}.1/24"), "dev", &nic_end]);
    mgmt.ip(&["link", "set", &nic_end, "up"]);
    must(ip(&[
        "addr",
        "add",
        &format!("{prefix}.2/24"),
        "dev",
        &op_end,
    ]));
    must(ip(&["link", "set", &op_end, "up"]));
    (link, format!("{prefix}.1"))
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
    let (_link, nic_ip) = management_network(&mgmt, "jm", &format!("172.31.{}", pid % 250));
    let mgmt_addr = format!("{nic_ip}:9559");

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
        Lines::Stderr,
    );
    nic.wait_for(&["janus nic: P4Runtime"], common::SERVER_START);

    // A shim per tenant namespace: the TAP is created in the namespace.
    let shims: Vec<Daemon> = [(&a1, &A1), (&a2, &A2), (&b1, &B1)]
        .into_iter()
        .map(|(ns, vf)| attach_tap(ns, &dir_s, vf.port, &format!("t{}", vf.port)))
        .collect();
    A1.configure(&a1, "t2", &[&A2, &B1]);
    A2.configure(&a2, "t3", &[&A1]);
    B1.configure(&b1, "t4", &[]);
    // a1 reaches b1's subnet directly (a static neighbour): the frames do
    // reach the NIC, whose pipeline must drop them.
    a1.ip(&["route", "add", "10.2.0.0/24", "dev", "t2"]);
    a1.neighbour("t2", B1.ip, B1.mac);

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
    // ...by p4runtime-shell too, which fetches the pipeline from the NIC
    // and reads the same table.
    p4runtime_shell_reads_vf_tenants(&mgmt, &mgmt_addr);
    // ...and from the operator's end of the management network
    // (P4Runtime Capabilities).
    capabilities(&mgmt_addr);

    // iperf3 a1 -> a2.
    let server = Daemon::start(
        "iperf3 -s",
        a2.exec("iperf3", &["-s", "-1", "-B", A2.ip]),
        Lines::Stderr,
    );
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

/// p4runtime-shell (the venv scripts/test installs) connects from the
/// management namespace, takes the P4Info from the NIC and reads
/// `vf_tenants`: the three VFs configured.
fn p4runtime_shell_reads_vf_tenants(mgmt: &Netns, addr: &str) {
    let Some(venv) = common::venv("JANUS_P4RT_SHELL_VENV") else {
        return;
    };
    let python = venv.join("bin/python").display().to_string();
    let script = format!(
        "import p4runtime_sh.shell as sh\n\
         sh.setup(device_id=1, grpc_addr='{addr}', election_id=(1, 0))\n\
         print('entries', len(list(sh.TableEntry('vf_tenants').read())))\n\
         sh.teardown()\n"
    );
    let out = must(mgmt.exec(&python, &["-c", &script]));
    assert!(out.contains("entries 3"), "p4runtime-shell read: {out}");
}

/// The card's firmware configuration: tenant A (VNI 1001, VFs 2 and 3)
/// and tenant B (VNI 2002, VF 4) with their gateways; the control plane
/// on `listen` with the certificates `janus ctrl certs` made in `certs/`.
fn card_config(listen: &str) -> String {
    let vf = |v: &Vf| {
        format!(
            "{{ port = {}, mac = \"{}\", ipv4 = \"{}\" }}",
            v.port, v.mac, v.ip
        )
    };
    let gateway = |v: &Vf| {
        format!(
            "{{ mac = \"{}\", ipv4 = \"{}\" }}",
            v.gateway_mac, v.gateway
        )
    };
    format!(
        r#"
[management]
listen = "{listen}"

[certificates]
server_cert = "certs/server.pem"
server_key = "certs/server.key"
client_ca = "certs/ca.pem"

[[tenants]]
id = 1
vni = 1001
gateway = {gw_a}
vfs = [{a1}, {a2}]

[[tenants]]
id = 2
vni = 2002
gateway = {gw_b}
vfs = [{b1}]
"#,
        gw_a = gateway(&A1),
        a1 = vf(&A1),
        a2 = vf(&A2),
        gw_b = gateway(&B1),
        b1 = vf(&B1),
    )
}

/// `janus nic status card` in `dir` until it says the running slot is
/// confirmed (at most `limit`); returns the last status.
fn wait_confirmed(dir: &std::path::Path, limit: Duration) -> String {
    let deadline = std::time::Instant::now() + limit;
    loop {
        let (status, _) = card::janus_code(dir, &["nic", "status", "card"], 0);
        if status.contains("running: slot A, security version 1, confirmed") {
            return status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the boot was not confirmed within {limit:?}:\n{status}"
        );
        thread::sleep(Duration::from_millis(200));
    }
}

/// `ip neigh show ADDR dev TAP` in `ns`.
fn neighbour_of(ns: &Netns, tap: &str, addr: &str) -> String {
    must(ns.exec("ip", &["neigh", "show", addr, "dev", tap]))
}

#[test]
fn a_booted_card_serves_the_image_tenants_and_answers_arp_for_their_gateways() {
    if !prerequisites() {
        return;
    }
    let pid = std::process::id();
    let dir = common::TempDir::new("host-e2e-card");
    let mgmt = Netns::new("cmgmt");
    let (a1, a2, b1) = (Netns::new("ca1"), Netns::new("ca2"), Netns::new("cb1"));
    let (_link, nic_ip) = management_network(&mgmt, "jc", &format!("172.30.{}", pid % 250));
    let mgmt_addr = format!("{nic_ip}:9559");

    // A signed image of sdn.p4 whose configuration holds both tenants and
    // the management address, flashed into a new card; the server
    // certificate names the management address.
    let config = card_config(&mgmt_addr);
    card::flashed_card(
        dir.path(),
        &card::Workshop {
            config: &config,
            server_hosts: &[&nic_ip],
        },
    );
    let card_dir = dir.join("card").to_string_lossy().into_owned();

    // The card boots and serves (mTLS, the image's certificates) in the
    // management namespace; its health check confirms the boot.
    let bin = env!("CARGO_BIN_EXE_janus");
    let mut nic = Daemon::start(
        "card",
        mgmt.exec(bin, &["nic", "run", &card_dir, "--vfs", "4"]),
        Lines::Stderr,
    );
    nic.wait_for(&["janus nic: P4Runtime (mTLS)"], Duration::from_secs(120));
    let status = wait_confirmed(dir.path(), Duration::from_secs(60));
    eprintln!("{status}");

    // The tenants came from the image: the operator (its certificate from
    // `janus ctrl certs`) reads them over the management network.
    for (table, count) in [
        ("vf_tenants", "3 entries"),
        ("tenant_gateways", "2 entries"),
    ] {
        let (list, _) = card::janus_code(
            dir.path(),
            &[
                "ctrl",
                "table",
                "list",
                table,
                "--server",
                &mgmt_addr,
                "--ca",
                "certs/ca.pem",
                "--cert",
                "certs/operator.pem",
                "--key",
                "certs/operator.key",
            ],
            0,
        );
        assert!(list.contains(count), "{table}: {list}");
    }

    // The VMs: static entries for their peers only (sdn.p4 does not flood
    // ARP between VMs); the gateway is left to ARP.
    let shims: Vec<Daemon> = [(&a1, &A1), (&a2, &A2), (&b1, &B1)]
        .into_iter()
        .map(|(ns, vf)| attach_tap(ns, &card_dir, vf.port, &format!("t{}", vf.port)))
        .collect();
    A1.configure_resolving_gateway(&a1, "t2", &[&A2]);
    A2.configure_resolving_gateway(&a2, "t3", &[&A1]);
    B1.configure_resolving_gateway(&b1, "t4", &[]);

    // a1 resolves its gateway: the ARP request is punted, the slow path
    // answers with a PacketOut into VF 2. (The gateway routes but does not
    // answer pings itself, so the ping's own result does not matter.)
    let before = neighbour_of(&a1, "t2", A1.gateway);
    assert!(
        before.trim().is_empty(),
        "a neighbour entry already: {before}"
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    let resolved = loop {
        let _ = run_bounded(a1.exec("ping", &["-c", "1", "-W", "1", A1.gateway]), STEP);
        let entry = neighbour_of(&a1, "t2", A1.gateway);
        if entry.contains(A1.gateway_mac)
            && ["REACHABLE", "STALE", "DELAY"]
                .iter()
                .any(|s| entry.contains(s))
        {
            break entry;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "a1 did not resolve its gateway {}: {entry:?}",
            A1.gateway
        );
    };
    eprintln!("a1's gateway: {}", resolved.trim());

    // Tenant A: a1 to a2, bridged...
    let ping = run_bounded(
        a1.exec("ping", &["-c", "3", "-i", "0.2", "-W", "2", A2.ip]),
        STEP,
    );
    assert!(ping.success(), "ping a1 -> a2: {}", ping.describe(STEP));
    // ...and routed by the gateway a1 resolved (a frame to the gateway MAC
    // is routed or dropped, never bridged).
    a1.ip(&[
        "route",
        "add",
        &format!("{}/32", A2.ip),
        "via",
        A1.gateway,
        "dev",
        "t2",
    ]);
    let ping = run_bounded(
        a1.exec("ping", &["-c", "3", "-i", "0.2", "-W", "2", A2.ip]),
        STEP,
    );
    assert!(
        ping.success(),
        "ping a1 -> a2 through the gateway: {}",
        ping.describe(STEP)
    );
    a1.ip(&["route", "del", &format!("{}/32", A2.ip)]);

    // Tenant A to tenant B fails: through the gateway (no route in tenant
    // A's VRF) and straight to b1's MAC (not in tenant A's VNI).
    let ping_b1 = |how: &str| {
        let ping = run_bounded(
            a1.exec("ping", &["-c", "2", "-i", "0.2", "-W", "1", B1.ip]),
            STEP,
        );
        assert!(
            !ping.success() && ping.stdout.contains("0 received"),
            "ping a1 -> b1 {how} must fail: {}",
            ping.describe(STEP)
        );
    };
    ping_b1("through the gateway");
    a1.ip(&["route", "add", "10.2.0.0/24", "dev", "t2"]);
    a1.neighbour("t2", B1.ip, B1.mac);
    ping_b1("on the link");

    let (status, _) = card::janus_code(dir.path(), &["nic", "status", "card"], 0);
    assert!(
        status.contains("running: slot A, security version 1, confirmed"),
        "{status}"
    );
    for shim in shims {
        let out = shim.stop();
        assert!(out.contains("to the NIC:"), "{out}");
    }
    let out = nic.stop();
    eprintln!("{out}");
    for want in [
        "tenants bootstrap: 2 tenant(s), 22 entries written",
        "health check passed: slot A confirmed",
        "3 attaches",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
    // The health check's probe and at least a1's request.
    let arp = out
        .split("slow path: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse::<u32>().ok());
    assert!(
        arp.is_some_and(|n| n >= 2),
        "ARP answered: {arp:?} in:\n{out}"
    );
}
