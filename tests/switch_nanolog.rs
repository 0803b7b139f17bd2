//! `janus switch --nanolog ADDR`, bmv2's nanomsg event logger: its
//! address refused where it must be (no root needed), and, as root, a
//! switch on two veth pairs whose PUB socket a real nanomsg subscriber
//! (nng's `Sub0`, from pynng in the venv `scripts/test` makes,
//! `JANUS_PTF_VENV`) reads while a frame goes through: PACKET_IN on port 1,
//! PACKET_OUT of the same packet on port 2, then CONFIG_CHANGE when a
//! P4Runtime client pushes a pipeline; each message decoded with Python's
//! `struct` (`<iiiQQQi`). Without root or the venv the test is skipped
//! with a message (it fails under `JANUS_REQUIRE_TOOLS=1`). Every link is
//! deleted when the test ends, a failure included; every wait is bounded.

mod common;

use common::netns::{Link, STEP, cmd, ip, must, root_and_tools};
use common::{Server, TempDir, janus, run_bounded, venv};
use std::time::Duration;

/// Port 1 forwards to port 2; anything else is dropped.
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
    apply {
        if (sm.ingress_port == 1) { sm.egress_spec = 2; } else { mark_to_drop(sm); }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t h, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.eth); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#;

/// The subscriber: dials the event log with pynng's `Sub0`, sends a frame
/// into port 1 (on the peer of the switch's interface) every 200 ms until
/// it has seen that frame's PACKET_IN and PACKET_OUT, then pushes the
/// pipeline over P4Runtime and waits for CONFIG_CHANGE. Prints each
/// message as `event TYPE SWITCH CXT SIG ID COPY FIELD LEN` (FIELD -1 when
/// there is none), then `done`.
const SUBSCRIBER: &str = r#"
import queue, socket, struct, sys, time
import grpc, pynng
from google.protobuf import text_format
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc
from p4.config.v1 import p4info_pb2

addr, iface, grpc_addr, device_id, p4info_path, pipeline_path = sys.argv[1:]
device_id = int(device_id)
sub = pynng.Sub0(recv_timeout=100)
sub.subscribe(b"")
sub.dial(addr, block=False)

def decode(msg):
    kind, switch, cxt, sig, pid, copy = struct.unpack_from("<iiiQQQ", msg)
    field = -1
    if kind in (0, 1):
        field = struct.unpack("<iiiQQQi", msg)[6]
    print("event", kind, switch, cxt, sig, pid, copy, field, len(msg), flush=True)
    return kind, pid, field

raw = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
raw.bind((iface, 0))
frame = bytes.fromhex("020000000002" "020000000001" "88b5") + b"janus-nanolog".ljust(46, b".")
ins, outs = set(), set()
deadline = time.monotonic() + 30
while time.monotonic() < deadline and not (ins & outs):
    raw.send(frame)
    until = time.monotonic() + 0.2
    while time.monotonic() < until:
        try:
            kind, pid, field = decode(sub.recv())
        except pynng.Timeout:
            continue
        if kind == 0 and field == 1:
            ins.add(pid)
        if kind == 1 and field == 2:
            outs.add(pid)
if not ins & outs:
    sys.exit("no PACKET_IN and PACKET_OUT of one packet within 30 s")

# A P4Runtime client pushes the pipeline: CONFIG_CHANGE.
channel = grpc.insecure_channel(grpc_addr)
stub = p4runtime_pb2_grpc.P4RuntimeStub(channel)
requests = queue.Queue()
stream = stub.StreamChannel(iter(requests.get, None))
election = p4runtime_pb2.Uint128(high=0, low=1)
req = p4runtime_pb2.StreamMessageRequest()
req.arbitration.device_id = device_id
req.arbitration.election_id.CopyFrom(election)
requests.put(req)
next(stream)
info = p4info_pb2.P4Info()
with open(p4info_path) as f:
    text_format.Parse(f.read(), info)
req = p4runtime_pb2.SetForwardingPipelineConfigRequest()
req.device_id = device_id
req.election_id.CopyFrom(election)
req.action = p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT
req.config.p4info.CopyFrom(info)
with open(pipeline_path, "rb") as f:
    req.config.p4_device_config = f.read()
stub.SetForwardingPipelineConfig(req, timeout=30)
deadline = time.monotonic() + 10
while time.monotonic() < deadline:
    try:
        kind, _, _ = decode(sub.recv())
    except pynng.Timeout:
        continue
    if kind == 999:
        break
else:
    sys.exit("no CONFIG_CHANGE within 10 s of the push")
requests.put(None)
stream.cancel()
channel.close()
sub.close()
print("done", flush=True)
"#;

/// `janus switch ARGS`: exit code and stderr (it must exit by itself).
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let mut cmd = janus();
    cmd.arg("switch").args(args);
    let done = run_bounded(cmd, Duration::from_secs(60));
    (done.status.and_then(|s| s.code()), done.stderr)
}

#[test]
fn a_bad_nanolog_address_is_refused() {
    let dir = TempDir::new("nanolog-cli");
    let prog = dir.join("fwd.p4");
    std::fs::write(&prog, PROGRAM).unwrap();
    let p = prog.to_str().unwrap();
    let unbindable = format!("ipc://{}/no-such-dir/log.ipc", dir.path().display());
    for (args, want) in [
        (
            vec!["--nanolog", "tcp://bad-host:x", p],
            "--nanolog `tcp://bad-host:x`: `x` is not a port number",
        ),
        (vec!["--nanolog", "inproc://log", p], "expected ipc://PATH"),
        (vec!["--nanolog", "ipc://", p], "no path after ipc://"),
        (
            vec!["--nanolog", &unbindable, p],
            "--nanolog: cannot listen on",
        ),
    ] {
        let (code, stderr) = refused(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    }
}

/// One decoded event line.
#[derive(Debug, PartialEq, Eq)]
struct Event {
    kind: i64,
    switch: i64,
    cxt: i64,
    sig: u64,
    id: u64,
    copy: u64,
    field: i64,
    len: usize,
}

fn events(stdout: &str) -> Vec<Event> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("event "))
        .map(|l| {
            let v: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(v.len(), 8, "{l}");
            Event {
                kind: v[0].parse().unwrap(),
                switch: v[1].parse().unwrap(),
                cxt: v[2].parse().unwrap(),
                sig: v[3].parse().unwrap(),
                id: v[4].parse().unwrap(),
                copy: v[5].parse().unwrap(),
                field: v[6].parse().unwrap(),
                len: v[7].parse().unwrap(),
            }
        })
        .collect()
}

#[test]
fn a_nanomsg_subscriber_sees_packets_and_pipeline_changes() {
    if !root_and_tools("tests/switch_nanolog.rs", &["ip", "sysctl"]) {
        return;
    }
    let Some(venv) = venv("JANUS_PTF_VENV") else {
        return;
    };
    let python = venv.join("bin/python");
    assert!(
        python.exists(),
        "JANUS_PTF_VENV names {}, which has no bin/python: run scripts/test",
        venv.display()
    );
    let tmp = TempDir::new("nanolog");
    let prog = tmp.join("fwd.p4");
    std::fs::write(&prog, PROGRAM).unwrap();
    let compile = Duration::from_secs(120);
    let mut c = janus();
    c.args(["p4", "compile"])
        .arg(&prog)
        .arg("--p4runtime-files")
        .arg(tmp.join("fwd.p4info.txt"))
        .arg("-o")
        .arg(tmp.join("fwd.pipeline"));
    let done = run_bounded(c, compile);
    assert!(
        done.success(),
        "janus p4 compile: {}",
        done.describe(compile)
    );
    let script = tmp.join("subscriber.py");
    std::fs::write(&script, SUBSCRIBER).unwrap();

    let pid = std::process::id();
    let mut links = Vec::new();
    let mut peers = Vec::new();
    let mut switch_args = vec!["switch".to_string(), "--device-id".into(), "7".into()];
    for port in [1, 2] {
        let (sw, peer) = (format!("jnS{pid}_{port}"), format!("jnP{pid}_{port}"));
        let _ = run_bounded(ip(&["link", "del", &sw]), STEP);
        must(ip(&[
            "link", "add", &sw, "type", "veth", "peer", "name", &peer,
        ]));
        links.push(Link(sw.clone()));
        for end in [&sw, &peer] {
            // No IPv6: the kernel would send router solicitations.
            let _ = run_bounded(
                cmd(
                    "sysctl",
                    &["-qw", &format!("net.ipv6.conf.{end}.disable_ipv6=1")],
                ),
                STEP,
            );
            must(ip(&["link", "set", end, "up"]));
        }
        switch_args.push("-i".into());
        switch_args.push(format!("{port}@{sw}"));
        peers.push(peer);
    }
    let log = format!("ipc://{}", tmp.join("log.ipc").display());
    switch_args.extend(["--nanolog".into(), log.clone()]);
    switch_args.push(prog.display().to_string());
    switch_args.extend([
        "--".into(),
        "--grpc-server-addr".into(),
        "127.0.0.1:0".into(),
    ]);
    let mut c = janus();
    c.args(&switch_args);
    let switch = Server::spawn(c);
    assert!(
        switch
            .stderr_text()
            .contains(&format!("event log (nanomsg PUB) on {log}")),
        "{}",
        switch.stderr_text()
    );

    let limit = Duration::from_secs(90);
    let mut sub = std::process::Command::new(&python);
    sub.env("PYTHONDONTWRITEBYTECODE", "1")
        .arg(&script)
        .arg(&log)
        .arg(&peers[0])
        .arg(switch.addr.to_string())
        .arg("7")
        .arg(tmp.join("fwd.p4info.txt"))
        .arg(tmp.join("fwd.pipeline"));
    let done = run_bounded(sub, limit);
    let context = format!(
        "the subscriber {}\n--- the switch\n{}",
        done.describe(limit),
        switch.stderr_text()
    );
    assert!(done.success() && done.stdout.contains("done"), "{context}");
    let events = events(&done.stdout);
    // Every packet event: the device id, context 0, sig = the packet id,
    // a header and one field.
    for e in events.iter().filter(|e| e.kind == 0 || e.kind == 1) {
        assert_eq!((e.switch, e.cxt, e.len), (7, 0, 40), "{e:?}\n{context}");
        assert_eq!(e.sig, e.id, "{e:?}");
    }
    let inputs: Vec<&Event> = events.iter().filter(|e| e.kind == 0).collect();
    assert!(
        inputs.iter().all(|e| e.field == 1 && e.copy == 0),
        "{context}"
    );
    assert!(
        inputs.windows(2).all(|w| w[0].id < w[1].id),
        "packet ids grow: {context}"
    );
    let forwarded = inputs
        .iter()
        .find_map(|i| events.iter().find(|o| o.kind == 1 && o.id == i.id))
        .unwrap_or_else(|| panic!("no PACKET_OUT of a packet seen coming in\n{context}"));
    assert_eq!((forwarded.field, forwarded.copy), (2, 0), "{context}");
    assert!(
        events.iter().all(|e| e.kind != 1 || e.field == 2),
        "nothing leaves by port 1: {context}"
    );
    let change = events
        .iter()
        .find(|e| e.kind == 999)
        .unwrap_or_else(|| panic!("no CONFIG_CHANGE\n{context}"));
    assert_eq!(
        change,
        &Event {
            kind: 999,
            switch: 7,
            cxt: 0,
            sig: 0,
            id: 0,
            copy: 0,
            field: -1,
            len: 36,
        }
    );
    drop(switch);
    drop(links);
}
