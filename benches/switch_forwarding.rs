//! `janus switch` on real interfaces, as users run it: the shipped
//! `p4/examples/l3_router_acl.p4` with 10,000 LPM routes, ports bound to
//! veth pairs, entries written over P4Runtime (`janus ctrl table add
//! --file`). Two figures (docs/performance.md, "janus switch"):
//!
//! - **64-byte forwarding**: a generator thread sends 64-byte UDP frames to
//!   10,000 destinations (one per route) and 4,096 source ports from a
//!   mmap'd transmit ring into port 1, as fast as the kernel takes them;
//!   the frames the switch routes out of port 2 are counted on the far end
//!   of its veth (the kernel's interface counters). Reported: frames
//!   offered and forwarded per second, by `--workers`.
//! - **TCP stream**: `iperf` between two network namespaces whose only
//!   path is through the switch (ports 3 and 4).
//!
//! Needs root (namespaces, veth pairs) and `iperf`; without them it says
//! so and does nothing. Every link and namespace is deleted at the end,
//! a failure included. Run it with
//! `cargo bench --bench switch_forwarding [-- --seconds S --workers 1,2]`.

#[path = "../tests/common/mod.rs"]
mod common;

use common::netns::{Link, Netns, STEP, installed, ip, is_root, must};
use common::{Server, TempDir, janus, repo, run_bounded};
use janus_host::sys::packet_ring::{RingConfig, RingPort};
use janus_wire::checksum::internet_checksum;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Routes installed, and destinations the generator cycles through.
const ROUTES: u32 = 10_000;
/// Source ports the generator cycles through (flows = routes x ports,
/// taken in lockstep: 10,000 x 4,096 / gcd).
const SOURCE_PORTS: u32 = 4_096;

struct Options {
    seconds: f64,
    workers: Vec<u32>,
}

fn options() -> Options {
    let mut o = Options {
        seconds: 5.0,
        workers: vec![1],
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--seconds" if i + 1 < args.len() => {
                o.seconds = args[i + 1].parse().expect("--seconds S");
                i += 1;
            }
            "--workers" if i + 1 < args.len() => {
                o.workers = args[i + 1]
                    .split(',')
                    .map(|w| w.parse().expect("--workers N[,N...]"))
                    .collect();
                i += 1;
            }
            // cargo bench passes --bench; criterion-style filters are ignored.
            _ => {}
        }
        i += 1;
    }
    o
}

/// Route `i`'s /24 prefix: 11.0.0.0 and up, one /24 each.
fn route_prefix(i: u32) -> u32 {
    0x0B00_0000 + (i << 8)
}

/// A 64-byte frame (60 bytes and the FCS the kernel does not carry):
/// Ethernet, IPv4 with a correct checksum, UDP to port 8080 (which the ACL
/// lets through), zero payload.
fn frame(dst: u32, sport: u16) -> Vec<u8> {
    let mut f = Vec::with_capacity(60);
    f.extend_from_slice(&[0x02, 0, 0, 0, 0, 0xaa, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00]);
    let mut ip = [
        0x45, 0, 0, 46, 0, 1, 0, 0, 64, 17, 0, 0, 10, 1, 1, 1, 0, 0, 0, 0,
    ];
    ip[16..20].copy_from_slice(&dst.to_be_bytes());
    let sum = internet_checksum(&ip);
    ip[10..12].copy_from_slice(&sum.to_be_bytes());
    f.extend_from_slice(&ip);
    f.extend_from_slice(&sport.to_be_bytes());
    f.extend_from_slice(&[0x1f, 0x90, 0, 26, 0, 0]);
    f.resize(60, 0);
    f
}

/// An interface counter from sysfs.
fn counter(iface: &str, name: &str) -> u64 {
    std::fs::read_to_string(format!("/sys/class/net/{iface}/statistics/{name}"))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
}

/// Quiet, up, no IPv6 (no router solicitations in the figures).
fn quiet_up(iface: &str) {
    let _ = run_bounded(
        common::netns::cmd(
            "sysctl",
            &["-qw", &format!("net.ipv6.conf.{iface}.disable_ipv6=1")],
        ),
        STEP,
    );
    must(ip(&["link", "set", iface, "up"]));
}

/// The entries: port MACs, the routes, and the two hosts' subnets.
fn entries(h1_mac: &str, h2_mac: &str) -> String {
    let mut s = String::new();
    for port in [2, 3, 4] {
        writeln!(
            s,
            "add port_mac standard_metadata.egress_port:{port} rewrite_source(smac:0x02000000000{port})"
        )
        .unwrap();
    }
    for i in 0..ROUTES {
        writeln!(
            s,
            "add ipv4_lpm hdr.ipv4.dst_addr:{:#010x}/24 set_nexthop(next_mac:0x0200000000bb, port:2)",
            route_prefix(i)
        )
        .unwrap();
    }
    for (subnet, mac, port) in [(0x0a09_0000u32, h1_mac, 3), (0x0a09_0100, h2_mac, 4)] {
        writeln!(
            s,
            "add ipv4_lpm hdr.ipv4.dst_addr:{subnet:#010x}/24 set_nexthop(next_mac:0x{}, port:{port})",
            mac.replace(':', "")
        )
        .unwrap();
    }
    s
}

/// The frames offered and forwarded per second over `seconds`, after a
/// warm-up.
fn blast(seconds: f64) -> (f64, f64) {
    let frames: Vec<Vec<u8>> = (0..ROUTES)
        .map(|i| {
            frame(
                route_prefix(i) | (1 + i % 250),
                (1024 + i % SOURCE_PORTS) as u16,
            )
        })
        .collect();
    let mut tx = RingPort::open(
        "jbg1",
        RingConfig {
            frame_size: 2048,
            frames: 4096,
        },
    )
    .expect("a ring on jbg1");
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = Arc::clone(&stop);
    let sender = std::thread::spawn(move || {
        let mut next = 0usize;
        while !stopper.load(Ordering::Relaxed) {
            for _ in 0..256 {
                if !tx.queue(&frames[next]) {
                    break;
                }
                next = (next + 1) % frames.len();
            }
            let _ = tx.flush();
        }
    });
    std::thread::sleep(Duration::from_millis(500));
    let (sent0, got0) = (counter("jbg1", "tx_packets"), counter("jbg2", "rx_packets"));
    let start = Instant::now();
    std::thread::sleep(Duration::from_secs_f64(seconds));
    let elapsed = start.elapsed().as_secs_f64();
    let (sent1, got1) = (counter("jbg1", "tx_packets"), counter("jbg2", "rx_packets"));
    stop.store(true, Ordering::Relaxed);
    sender.join().expect("the generator");
    (
        (sent1 - sent0) as f64 / elapsed,
        (got1 - got0) as f64 / elapsed,
    )
}

/// iperf's TCP throughput from h1 to h2 in Mbit/s.
fn tcp_stream(h1: &Netns, h2: &Netns, seconds: f64) -> Option<f64> {
    let mut server = h2
        .exec("iperf", &["-s", "-B", "10.9.1.2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    std::thread::sleep(Duration::from_millis(300));
    let secs = format!("{}", seconds.ceil() as u64);
    let client = run_bounded(
        h1.exec(
            "iperf",
            &["-c", "10.9.1.2", "-t", &secs, "-f", "m", "-y", "C"],
        ),
        Duration::from_secs_f64(seconds + 20.0),
    );
    let _ = server.kill();
    let _ = server.wait();
    // CSV: ...,bits_per_second as the last field.
    let bits = client
        .stdout
        .lines()
        .last()
        .and_then(|l| l.rsplit(',').next()?.trim().parse::<f64>().ok());
    if bits.is_none() {
        eprintln!("iperf: {}", client.describe(STEP));
    }
    Some(bits? / 1e6)
}

fn main() {
    let o = options();
    if !is_root() || !installed("iperf") {
        eprintln!("switch_forwarding: needs root and iperf; nothing measured");
        return;
    }
    let mut links = Vec::new();
    for (g, s) in [("jbg1", "jbs1"), ("jbg2", "jbs2")] {
        let _ = run_bounded(ip(&["link", "del", s]), STEP);
        must(ip(&["link", "add", s, "type", "veth", "peer", "name", g]));
        links.push(Link(s.to_string()));
        quiet_up(s);
        quiet_up(g);
    }
    let (h1, h2) = (Netns::new("bench-h1"), Netns::new("bench-h2"));
    let hosts = [
        (&h1, "jbs3", "10.9.0.2", "10.9.0.1", "02:00:00:00:09:02"),
        (&h2, "jbs4", "10.9.1.2", "10.9.1.1", "02:00:00:00:09:12"),
    ];
    for (ns, port, addr, gw, mac) in hosts {
        let _ = run_bounded(ip(&["link", "del", port]), STEP);
        must(ip(&[
            "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", &ns.0,
        ]));
        links.push(Link(port.to_string()));
        quiet_up(port);
        ns.ip(&["link", "set", "eth0", "address", mac]);
        ns.ip(&["addr", "add", &format!("{addr}/24"), "dev", "eth0"]);
        ns.ip(&["link", "set", "eth0", "up"]);
        ns.neighbour("eth0", gw, "02:00:00:00:00:ee");
        let other = if addr.starts_with("10.9.0") {
            "10.9.1.0/24"
        } else {
            "10.9.0.0/24"
        };
        ns.ip(&["route", "add", other, "via", gw, "dev", "eth0"]);
        // The MTU-sized frames the switch's rings carry.
        let _ = run_bounded(
            ns.exec(
                "ethtool",
                &["-K", "eth0", "tx", "off", "tso", "off", "gso", "off"],
            ),
            STEP,
        );
    }
    let dir = TempDir::new("bench-switch");
    let file = dir.join("routes.entries");
    std::fs::write(&file, entries(hosts[0].4, hosts[1].4)).expect("entries");
    let program = repo("p4/examples/l3_router_acl.p4");
    println!(
        "janus switch, p4/examples/l3_router_acl.p4 with {ROUTES} routes, {:.0} s per figure",
        o.seconds
    );
    for workers in &o.workers {
        let mut cmd = janus();
        cmd.args([
            "switch", "-i", "1@jbs1", "-i", "2@jbs2", "-i", "3@jbs3", "-i", "4@jbs4",
        ])
        .arg(&program)
        .args(["--", "--grpc-server-addr", "127.0.0.1:0"]);
        if *workers != 1 {
            cmd.args(["--workers", &workers.to_string()]);
        }
        let switch = Server::spawn(cmd);
        let mut add = janus();
        add.args(["ctrl", "table", "add", "--file"])
            .arg(&file)
            .args(["--server", &switch.addr.to_string(), "--device-id", "0"]);
        let done = run_bounded(add, Duration::from_secs(120));
        assert!(done.success(), "{}", done.describe(STEP));
        let (offered, forwarded) = blast(o.seconds);
        let tcp = tcp_stream(&h1, &h2, o.seconds);
        println!(
            "workers {workers}: 64-byte frames offered {:.3} Mpps, forwarded {:.3} Mpps ({:.1} %); TCP stream {}",
            offered / 1e6,
            forwarded / 1e6,
            100.0 * forwarded / offered.max(1.0),
            tcp.map_or("failed".to_string(), |m| format!("{:.2} Gbit/s", m / 1e3)),
        );
        drop(switch);
    }
    drop(links);
}
