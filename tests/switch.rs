//! `janus switch` as simple_switch_grpc is run: its command line refused
//! where it must be (without root), and, as root, a switch between two
//! network namespaces over veth pairs: ports bound with `-i`, entries
//! written over P4Runtime with `janus ctrl table add`, ping through it,
//! `--pcap` captures readable as they are written, and a port whose
//! interface is deleted reported while the switch keeps serving. Every
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
        (vec!["--use-files", "0", p], "does not support --use-files"),
        (vec!["-i", "510@lo", p], "CPU port"),
        (vec![p, "--", "--cpu-port", "0"], "--cpu-port 0"),
        (vec![p, "--", "--drop-port", "100"], "drops on port 511"),
        (vec![p, "--", "--grpc-server-ssl"], "--grpc-server-cert"),
        (vec![p, "--", "--bogus"], "target options"),
        (
            vec!["--pcap", "/nonexistent-janus-dir", p],
            "no such directory",
        ),
    ] {
        let (code, stderr) = refused(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    }
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
