//! `janus switch` as simple_switch_grpc is run: its command line refused
//! where it must be (without root), and, as root, a switch between two
//! network namespaces over veth pairs: ports bound with `-i`, entries
//! written over P4Runtime with `janus ctrl table add`, ping through it,
//! `--pcap` captures readable as they are written, and a port whose
//! interface is deleted reported while the switch keeps serving; and
//! `--use-files` (ports on pcap files and named pipes, no root). Every
//! namespace and link is deleted when the test ends, a failure included;
//! every wait is bounded.

mod common;

use common::netns::{Link, Netns, STEP, ip, must, root_and_tools};
use common::{Server, TempDir, janus, run_bounded};
use std::time::{Duration, Instant};

/// Ports forward by a table on the ingress port; EtherType 0x88b5 goes
/// to the CPU.
const PROGRAM: &str = r#"
#include <core.p4>
#include <v1model.p4>
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etype; }
struct headers_t { ethernet_t eth; }
struct meta_t { }
parser P(packet_in pkt, out headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); transition accept; }
}
control VC(inout headers_t h, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action to_port(bit<9> port) { sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }
    table by_port {
        key = { sm.ingress_port: exact; }
        actions = { to_port; drop; }
        default_action = drop();
    }
    apply { by_port.apply(); }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

/// `janus switch ARGS`: exit code and stderr (it must exit by itself).
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let mut cmd = janus();
    cmd.arg("switch").args(args);
    let done = run_bounded(cmd, STEP);
    (done.status.and_then(|s| s.code()), done.stderr)
}

#[test]
fn the_command_line_is_checked_as_simple_switch_grpc_takes_it() {
    let dir = TempDir::new("switch-cli");
    let json = dir.join("prog.json");
    std::fs::write(
        &json,
        r#"{"header_types": [], "headers": [], "pipelines": []}"#,
    )
    .unwrap();
    let prog = dir.join("prog.p4");
    std::fs::write(&prog, PROGRAM).unwrap();
    let p = prog.to_str().unwrap();
    for (args, want) in [
        (vec![json.to_str().unwrap()], "bmv2 JSON"),
        (vec!["-i", "1veth", p], "expected PORT@IFACE"),
        (vec!["-i", "600@veth", p], "not a v1model port"),
        (vec![], "give a program"),
        (
            vec!["--use-files", "0", "--packet-in", "ipc:///tmp/x.ipc", p],
            "cannot be used with",
        ),
        (vec!["-i", "510@lo", p], "CPU port"),
        (vec![p, "--", "--cpu-port", "0"], "--cpu-port 0"),
        (vec![p, "--", "--drop-port", "100"], "drops on port 511"),
        (vec![p, "--", "--grpc-server-ssl"], "--grpc-server-cert"),
        (vec![p, "--", "--bogus"], "target options"),
        (
            vec![p, "--", "--grpc-server-addr", "localhost:port"],
            "--grpc-server-addr localhost:port: not IP:PORT or HOST:PORT",
        ),
        (
            vec!["--pcap", "/nonexistent-janus-dir", p],
            "no such directory",
        ),
    ] {
        let (code, stderr) = refused(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    }
    // bmv2's debugger, notifications and priority queues: taken, with a
    // warning each (the switch then stops at its missing interface).
    let (code, stderr) = refused(&[
        "--debugger",
        "--notifications-addr",
        "ipc:///tmp/janus-notify.ipc",
        "-i",
        "1@janus-nosuch0",
        p,
        "--",
        "--priority-queues",
        "8",
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    for warning in ["--debugger:", "--notifications-addr:", "--priority-queues:"] {
        assert!(stderr.contains(warning), "{warning}: {stderr}");
    }
    // An output file that cannot be made: the switch cannot run (exit 1).
    let (code, stderr) = refused(&["--use-files", "0", "-i", "1@/nonexistent-janus-dir/p", p]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("/nonexistent-janus-dir/p_out.pcap"),
        "{stderr}"
    );
    // An interface that does not exist: the switch cannot run (exit 1).
    let (code, stderr) = refused(&["-i", "1@janus-nosuch0", p]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("janus-nosuch0"), "{stderr}");
    // -D reaches the preprocessor: without it the program stops at its
    // #error (exit 2); with it, it compiles and the switch goes on to its
    // (missing) interface.
    let guarded = dir.join("guarded.p4");
    std::fs::write(
        &guarded,
        format!("#ifndef NEEDED\n#error NEEDED is not defined\n#endif\n{PROGRAM}"),
    )
    .unwrap();
    let g = guarded.to_str().unwrap();
    let (code, stderr) = refused(&["-i", "1@janus-nosuch0", g]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("NEEDED is not defined"), "{stderr}");
    let (code, stderr) = refused(&["-D", "NEEDED", "-i", "1@janus-nosuch0", g]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("janus-nosuch0"), "{stderr}");
    // A translation file that does not parse.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "port_t\n").unwrap();
    let (code, stderr) = refused(&[p, "--", "--translations", bad.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("line 1"), "{stderr}");
}

#[test]
fn hosts_ping_each_other_through_the_switch() {
    if !root_and_tools("tests/switch.rs", &["ip", "ping"]) {
        return;
    }
    let pid = std::process::id();
    let (h1, h2) = (Netns::new("sw-h1"), Netns::new("sw-h2"));
    let (s1, s2) = (format!("jsa{pid}"), format!("jsb{pid}"));
    let mut links = Vec::new();
    for (ns, port) in [(&h1, &s1), (&h2, &s2)] {
        must(ip(&[
            "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", &ns.0,
        ]));
        links.push(Link(port.clone()));
        must(ip(&["link", "set", port, "up"]));
        must(ip(&["link", "set", port, "mtu", "1500"]));
    }
    for (ns, addr) in [(&h1, "10.9.0.1/24"), (&h2, "10.9.0.2/24")] {
        ns.ip(&["addr", "add", addr, "dev", "eth0"]);
        ns.ip(&["link", "set", "eth0", "up"]);
    }
    let dir = TempDir::new("switch-ping");
    let prog = dir.join("fwd.p4");
    std::fs::write(&prog, PROGRAM).unwrap();
    let pcaps = dir.join("pcap");
    std::fs::create_dir_all(&pcaps).unwrap();
    let one = format!("1@{s1}");
    let two = format!("2@{s2}");
    let mut cmd = janus();
    cmd.args(["switch", "-i", &one, "-i", &two, "--pcap"])
        .arg(&pcaps)
        .arg(&prog)
        .args([
            "--",
            "--grpc-server-addr",
            "127.0.0.1:0",
            "--cpu-port",
            "255",
        ]);
    let switch = Server::spawn(cmd);
    let addr = switch.addr.to_string();
    for (from, to) in [("1", "2"), ("2", "1")] {
        let out = run_bounded(
            {
                let mut c = janus();
                c.args([
                    "ctrl",
                    "table",
                    "add",
                    "by_port",
                    &format!("sm.ingress_port={from}"),
                    "--server",
                    &addr,
                    "--device-id",
                    "0",
                    "--",
                    "to_port",
                    &format!("port={to}"),
                ]);
                c
            },
            STEP,
        );
        assert!(out.success(), "{}", out.describe(STEP));
    }
    let ping = run_bounded(
        h1.exec("ping", &["-c", "3", "-i", "0.2", "-W", "2", "10.9.0.2"]),
        STEP,
    );
    assert!(
        ping.success(),
        "ping through the switch: {}\n{}",
        ping.describe(STEP),
        switch.stderr_text()
    );
    // The captures hold what went in and out, readable while it runs.
    let until = Instant::now() + STEP;
    while common::pcap_records(&pcaps.join(format!("{s1}_in.pcap"))) < 3
        || common::pcap_records(&pcaps.join(format!("{s2}_out.pcap"))) < 3
    {
        assert!(Instant::now() < until, "the captures stay empty");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Port 2's interface goes away: reported; the switch keeps serving.
    drop(links.pop());
    let until = Instant::now() + STEP;
    while !switch.stderr_text().contains("port 2") {
        assert!(
            Instant::now() < until,
            "the lost port is never reported:\n{}",
            switch.stderr_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let list = run_bounded(
        {
            let mut c = janus();
            c.args([
                "ctrl",
                "table",
                "list",
                "by_port",
                "--server",
                &addr,
                "--device-id",
                "0",
            ]);
            c
        },
        STEP,
    );
    assert!(list.success(), "{}", list.describe(STEP));
    assert!(list.stdout.contains("2 entries"), "{}", list.stdout);
}

/// A pcap file of `frames` (timestamps in microseconds).
fn pcap_bytes(frames: &[(u64, Vec<u8>)]) -> Vec<u8> {
    let mut w = janus_pcap::Writer::new(Vec::new(), Default::default()).unwrap();
    for (us, frame) in frames {
        w.write_packet(us * 1000, frame).unwrap();
    }
    w.finish().unwrap()
}

/// The frames of a pcap file (none if it cannot be read yet).
fn pcap_frames(path: &std::path::Path) -> Vec<Vec<u8>> {
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    let Ok(reader) = janus_pcap::open(&bytes) else {
        return Vec::new();
    };
    reader
        .filter_map(Result::ok)
        .map(|p| p.data.to_vec())
        .collect()
}

/// Makes the named pipe `path`.
fn mkfifo(path: &str) {
    let mut c = std::process::Command::new("mkfifo");
    c.arg(path);
    let made = run_bounded(c, STEP);
    assert!(made.success(), "mkfifo: {}", made.describe(STEP));
}

/// Writes `frames` as a capture into the named pipe `path`; opening it
/// waits (at most STEP) until the switch's reader opens its end.
fn feed_pipe(path: &str, frames: &[(u64, Vec<u8>)]) {
    let (path, bytes) = (path.to_string(), pcap_bytes(frames));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(std::fs::write(path, bytes));
    });
    let written = rx
        .recv_timeout(STEP)
        .expect("the switch opens its input pipe");
    written.expect("the pipe takes the capture");
}

/// Waits (at most STEP) until `path` holds `n` frames; returns them.
fn await_frames(path: &std::path::Path, n: usize, switch: &Server) -> Vec<Vec<u8>> {
    let until = Instant::now() + STEP;
    loop {
        let frames = pcap_frames(path);
        if frames.len() >= n {
            return frames;
        }
        assert!(
            Instant::now() < until,
            "{} holds {} frames\n{}",
            path.display(),
            frames.len(),
            switch.stderr_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `--use-files 0` as bmv2 runs it: `-i PORT@NAME` reads `NAME_in.pcap`
/// and writes `NAME_out.pcap`; the inputs here are named pipes written
/// after the entries are in (as p4c's bmv2 test driver feeds its switch),
/// and their packets go through in timestamp order across the ports.
#[test]
fn use_files_reads_pcap_inputs_in_timestamp_order_and_writes_outputs() {
    let dir = TempDir::new("switch-files");
    let prog = dir.join("fwd.p4");
    std::fs::write(&prog, PROGRAM).unwrap();
    let stem = |n: u32| dir.join(&format!("p{n}")).display().to_string();
    for n in [1, 2] {
        mkfifo(&format!("{}_in.pcap", stem(n)));
    }
    std::fs::write(format!("{}_in.pcap", stem(3)), pcap_bytes(&[])).unwrap();
    let mut cmd = janus();
    cmd.arg("switch");
    for n in [1, 2, 3] {
        cmd.args(["-i", &format!("{n}@{}", stem(n))]);
    }
    cmd.args(["--use-files", "0"])
        .arg(&prog)
        .args(["--", "--grpc-server-addr", "127.0.0.1:0"]);
    let switch = Server::spawn(cmd);
    let addr = switch.addr.to_string();
    for from in ["1", "2"] {
        let mut c = janus();
        c.args(["ctrl", "table", "add", "by_port"])
            .arg(format!("sm.ingress_port={from}"))
            .args([
                "--server",
                &addr,
                "--device-id",
                "0",
                "--",
                "to_port",
                "port=3",
            ]);
        let out = run_bounded(c, STEP);
        assert!(out.success(), "{}", out.describe(STEP));
    }
    // Frames tagged by their time: port 1 at 1, 3, 5 µs, port 2 at 2, 4, 6.
    let frame = |t: u8| {
        let mut f = vec![0xff; 6];
        f.extend_from_slice(&[2, 0, 0, 0, 0, t, 0x88, 0xb6]);
        f.extend_from_slice(&[t; 46]);
        f
    };
    for n in [1u8, 2] {
        let frames: Vec<(u64, Vec<u8>)> = [n, n + 2, n + 4]
            .iter()
            .map(|&t| (u64::from(t), frame(t)))
            .collect();
        feed_pipe(&format!("{}_in.pcap", stem(u32::from(n))), &frames);
    }
    let want: Vec<Vec<u8>> = (1..=6).map(frame).collect();
    let out = await_frames(&dir.join("p3_out.pcap"), 6, &switch);
    assert_eq!(out, want, "the outputs follow the inputs' timestamps");
    for n in [1, 2] {
        assert!(pcap_frames(&dir.join(&format!("p{n}_out.pcap"))).is_empty());
    }
    assert!(
        switch.stderr_text().contains("pcap files"),
        "{}",
        switch.stderr_text()
    );
}

/// `--thrift-port P`: no Thrift, but P4Runtime on 127.0.0.1:P, where
/// `janus ctrl cli --thrift-port P` runs simple_switch_CLI's commands; the
/// entry it adds forwards packets (ports on files, no root needed).
#[test]
fn simple_switch_cli_commands_reach_the_switch_on_its_thrift_port() {
    let dir = TempDir::new("switch-thrift");
    let prog = dir.join("fwd.p4");
    std::fs::write(&prog, PROGRAM).unwrap();
    let stem = |n: u32| dir.join(&format!("p{n}")).display().to_string();
    mkfifo(&format!("{}_in.pcap", stem(1)));
    std::fs::write(format!("{}_in.pcap", stem(2)), pcap_bytes(&[])).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
        .to_string();
    let mut cmd = janus();
    cmd.arg("switch")
        .args([
            "-i",
            &format!("1@{}", stem(1)),
            "-i",
            &format!("2@{}", stem(2)),
        ])
        .args(["--use-files", "0", "--thrift-port", &port])
        .arg(&prog)
        // A host name, as p4c's PTF runner gives simple_switch_grpc.
        .args(["--", "--grpc-server-addr", "localhost:0"]);
    let switch = Server::spawn(cmd);
    let until = Instant::now() + STEP;
    while !switch
        .stderr_text()
        .contains(&format!("also on 127.0.0.1:{port}"))
    {
        assert!(Instant::now() < until, "{}", switch.stderr_text());
        std::thread::sleep(Duration::from_millis(20));
    }
    let commands = dir.join("s1-commands.txt");
    std::fs::write(&commands, "table_add by_port to_port 1 => 2\n").unwrap();
    let mut cli = janus();
    cli.args(["ctrl", "cli", "--thrift-port", &port])
        .arg(&commands);
    let done = run_bounded(cli, STEP);
    assert!(done.success(), "{}", done.describe(STEP));
    assert!(
        done.stdout.contains("Entry has been added with handle 0"),
        "{}",
        done.stdout
    );
    let frames: Vec<(u64, Vec<u8>)> = (0..2u8).map(|i| (u64::from(i), vec![i; 64])).collect();
    feed_pipe(&format!("{}_in.pcap", stem(1)), &frames);
    let out = await_frames(&dir.join("p2_out.pcap"), 2, &switch);
    assert_eq!(out, vec![vec![0u8; 64], vec![1u8; 64]]);
    // The gRPC address (localhost) serves the same switch.
    let mut list = janus();
    list.args([
        "ctrl",
        "table",
        "list",
        "by_port",
        "--device-id",
        "0",
        "--server",
    ])
    .arg(switch.addr.to_string());
    let done = run_bounded(list, STEP);
    assert!(done.success(), "{}", done.describe(STEP));
    assert!(switch.addr.ip().is_loopback(), "{}", switch.addr);
}
