//! `janus fabric run` and `janus fabric plan` end to end, and the
//! co-design link: the plan's NIC entries, loaded into `p4/roce_paths.p4`
//! on the behavioural model and into `janus ctrl serve`, put every planned
//! flow on its planned spine.

mod common;

use std::net::Ipv4Addr;
use std::path::Path;
use std::time::Duration;

use common::{TempDir, janus, run_bounded};
use janus_nic::roce::{self, FiveTuple};

const PAPER: &str = "leaf-spine:leaves=2,spines=8,hosts-per-leaf=8,nics-per-host=1,gbps=400";
/// A fabric of Janus NICs: 4 spines, each host's NIC with both uplinks.
const NIC_FABRIC: &str = "leaf-spine:leaves=2,spines=4,hosts-per-leaf=4,nics-per-host=2";
const LIMIT: Duration = Duration::from_secs(120);

/// Runs `janus ARGS` (bounded): (exit code, stdout, stderr).
fn fabric(args: &[&str]) -> (Option<i32>, String, String) {
    let mut cmd = janus();
    cmd.arg("fabric").args(args);
    let done = run_bounded(cmd, LIMIT);
    assert!(done.status.is_some(), "{}", done.describe(LIMIT));
    (done.status.and_then(|s| s.code()), done.stdout, done.stderr)
}

fn run_paper(out: &Path, extra: &[&str]) -> String {
    let out = out.display().to_string();
    let mut args = vec![
        "run",
        "--topo",
        PAPER,
        "--traffic",
        "permutation:cross-leaf=true",
        "--schemes",
        "ecmp,pinned,spray",
        "--seeds",
        "3",
        "--out",
        &out,
    ];
    args.extend(extra);
    let (code, stdout, stderr) = fabric(&args);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    stdout
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn run_writes_the_summary_the_runs_and_the_plots() {
    let dir = TempDir::new("fabric-run");
    let stdout = run_paper(&dir.join("out"), &[]);
    for scheme in ["ecmp", "pinned", "spray"] {
        assert!(stdout.lines().any(|l| l.starts_with(scheme)), "{stdout}");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&read(&dir.join("out/summary.json"))).expect("summary.json");
    assert_eq!(summary["seeds"], serde_json::json!([0, 1, 2]));
    let schemes = summary["schemes"].as_array().expect("schemes");
    assert_eq!(schemes.len(), 3);
    for s in schemes {
        for field in [
            "mean_s",
            "p50_s",
            "p95_s",
            "min_s",
            "max_s",
            "mean_ratio_to_ideal",
            "mean_flow_gbps",
            "p5_flow_gbps",
            "mean_throughput_ratio_to_ideal",
            "max_link_utilisation",
        ] {
            assert!(s[field].as_f64().is_some_and(|v| v > 0.0), "{field}: {s}");
        }
        assert_eq!(s["runs"], 3);
    }
    assert_eq!(schemes[0]["scheme"], "ecmp");
    // Pinning is collision-free on this fabric: the ideal, at line rate.
    assert_eq!(schemes[1]["mean_ratio_to_ideal"], 1.0);
    assert_eq!(schemes[1]["mean_flow_gbps"].as_f64(), Some(400.0));
    assert!(schemes[0]["mean_ratio_to_ideal"].as_f64().unwrap() >= 1.0);

    let csv = read(&dir.join("out/runs.csv"));
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("scheme,seed,job,completion_s,"),
        "{csv}"
    );
    assert_eq!(lines.len(), 1 + 3 * 3, "{csv}");
    assert!(lines[1].starts_with("ecmp,0,permutation,"), "{csv}");
    for svg in ["completion.svg", "utilisation.svg"] {
        let text = read(&dir.join("out").join(svg));
        assert!(text.starts_with("<svg") && text.len() > 1000, "{svg}");
        assert!(text.trim_end().ends_with("</svg>"), "{svg}");
    }
}

#[test]
fn same_seeds_and_any_thread_count_give_the_same_outputs() {
    let dir = TempDir::new("fabric-determinism");
    let (one, two) = (dir.join("one"), dir.join("two"));
    run_paper(&one, &["--threads", "1"]);
    run_paper(&two, &["--threads", "2"]);
    for file in [
        "summary.json",
        "runs.csv",
        "completion.svg",
        "utilisation.svg",
    ] {
        assert_eq!(read(&one.join(file)), read(&two.join(file)), "{file}");
    }
}

#[test]
fn bad_arguments_exit_2_naming_the_bad_part() {
    let dir = TempDir::new("fabric-bad");
    let out = dir.path().display().to_string();
    let cases: [(&[&str], &str); 6] = [
        (
            &["--topo", "leaf-spine:leaves=2,spins=8,hosts-per-leaf=2"],
            "--topo: leaf-spine: unknown key \"spins\"",
        ),
        (
            &["--traffic", "allreduce:order=diagonal"],
            "--traffic: allreduce: order \"diagonal\" is not one of",
        ),
        (
            &["--schemes", "ecmp,pined"],
            "--schemes: unknown scheme \"pined\"",
        ),
        (
            &["--fail", "spine:9@1ms"],
            "--fail \"spine:9@1ms\": the fabric has no spine 9",
        ),
        (&["--fail", "link:leaf0@1"], "\"leaf0\" is not A-B"),
        (&["--rto", "soon"], "--rto \"soon\" is not a time"),
    ];
    for (change, want) in cases {
        let mut args = vec![
            "run",
            "--topo",
            "leaf-spine:leaves=2,spines=8,hosts-per-leaf=2",
            "--traffic",
            "permutation",
            "--schemes",
            "ecmp",
            "--seeds",
            "1",
            "--out",
            &out,
        ];
        // The bad option replaces the good one, or is added.
        if let Some(i) = args.iter().position(|a| *a == change[0]) {
            args[i + 1] = change[1];
        } else {
            args.extend(change);
        }
        let (code, stdout, stderr) = fabric(&args);
        assert_eq!(code, Some(2), "{change:?}: {stdout}{stderr}");
        assert!(stderr.contains(want), "{change:?}: {stderr}");
    }
    let (code, _, stderr) = fabric(&[
        "plan",
        "--topo",
        PAPER,
        "--traffic",
        "permutation",
        "-o",
        &dir.join("plan").display().to_string(),
    ]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("does not match the Janus NIC model: 8 spines"),
        "{stderr}"
    );
}

/// One planned flow, as `janus fabric plan --format json` writes it.
struct Planned {
    uplink: u32,
    src: Ipv4Addr,
    dst: Ipv4Addr,
    local_qpn: u32,
    remote_qpn: u32,
    spine: u32,
    src_port: u16,
}

/// Writes the plan of [`NIC_FABRIC`] as entries and as JSON; returns the
/// entries file and the flows.
fn plan(dir: &TempDir) -> (String, Vec<Planned>) {
    let entries = dir.join("plan.entries").display().to_string();
    let json = dir.join("plan.json").display().to_string();
    for (file, format) in [(&entries, "entries"), (&json, "json")] {
        let (code, stdout, stderr) = fabric(&[
            "plan",
            "--topo",
            NIC_FABRIC,
            "--traffic",
            "permutation:cross-leaf=true,qps=2",
            "--seed",
            "5",
            "-o",
            file,
            "--format",
            format,
        ]);
        assert_eq!(code, Some(0), "{stdout}{stderr}");
        assert!(stdout.contains("32 flows pinned"), "{stdout}");
    }
    let v: serde_json::Value = serde_json::from_str(&read(Path::new(&json))).expect("json");
    let flows = v["flows"]
        .as_array()
        .expect("flows")
        .iter()
        .map(|f| {
            let n = |k: &str| f[k].as_u64().unwrap_or_else(|| panic!("{k}: {f}"));
            let ip = |k: &str| f[k].as_str().expect(k).parse().expect(k);
            Planned {
                uplink: n("uplink") as u32,
                src: ip("src_ip"),
                dst: ip("dst_ip"),
                local_qpn: n("local_qpn") as u32,
                remote_qpn: n("remote_qpn") as u32,
                spine: n("spine") as u32,
                src_port: n("src_port") as u16,
            }
        })
        .collect();
    (entries, flows)
}

/// A tagged RoCEv2 frame (RC SEND) from the host: Ethernet, the tx_meta
/// tag with the local QP, IPv4, UDP from the Linux port, BTH, payload.
fn frame(f: &Planned) -> Vec<u8> {
    let payload = [0u8; 16];
    let mut out = vec![0x02, 0xbb, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 2];
    out.extend_from_slice(&roce::ETHERTYPE_TX_META.to_be_bytes());
    out.extend_from_slice(&f.local_qpn.to_be_bytes()[1..]);
    out.extend_from_slice(&[0, 0x08, 0x00]);
    let udp_len = 8 + 12 + payload.len() as u16;
    let mut ip = vec![0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 17, 0, 0];
    ip[2..4].copy_from_slice(&(20 + udp_len).to_be_bytes());
    ip.extend_from_slice(&f.src.octets());
    ip.extend_from_slice(&f.dst.octets());
    out.extend(ip);
    let linux = roce::linux_src_port(roce::Qpn::new(f.local_qpn), roce::Qpn::new(f.remote_qpn));
    out.extend_from_slice(&linux.to_be_bytes());
    out.extend_from_slice(&roce::ROCEV2_UDP_PORT.to_be_bytes());
    out.extend_from_slice(&udp_len.to_be_bytes());
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&[0x04, 0, 0xff, 0xff, 0]);
    out.extend_from_slice(&f.remote_qpn.to_be_bytes()[1..]);
    out.extend_from_slice(&0x8000_0001u32.to_be_bytes());
    out.extend_from_slice(&payload);
    out
}

#[test]
fn planned_entries_put_every_flow_on_its_spine_in_roce_paths() {
    let dir = TempDir::new("fabric-codesign");
    let (entries, flows) = plan(&dir);
    assert_eq!(flows.len(), 32);
    let program = common::repo("p4/roce_paths.p4");
    let c = janus_p4::driver::compile_file(&program, &Default::default()).expect("readable");
    assert!(!c.has_errors(), "{}", c.render(false));
    let mut sw = janus_targets::load(c.ir.expect("ir")).expect("loads");
    let stf = janus_stf::parse(&read(Path::new(&entries))).expect("entries parse");
    janus_stf::runner::configure(sw.as_mut(), &stf).expect("entries load");
    let mut moved = 0;
    for f in &flows {
        let out = sw.process(janus_nic::ports::FIRST_VF, &frame(f));
        assert_eq!(out.len(), 1, "one frame out");
        let (port, bytes) = &out[0];
        let sport = u16::from_be_bytes([bytes[34], bytes[35]]);
        assert_eq!((*port, sport), (f.uplink, f.src_port), "uplink and port");
        let tuple = FiveTuple::rocev2(f.src, f.dst, sport);
        assert_eq!(
            roce::fabric_spine(&tuple),
            f.spine,
            "lands on the planned spine"
        );
        let linux = roce::linux_src_port(roce::Qpn::new(f.local_qpn), roce::Qpn::new(f.remote_qpn));
        moved += usize::from(sport != linux);
    }
    // The entries did something: most flows leave their Linux port.
    assert!(moved > 0, "no flow moved by its pin");
}

#[test]
fn ctrl_accepts_the_exported_entries() {
    let dir = TempDir::new("fabric-ctrl");
    let (entries, flows) = plan(&dir);
    let server = common::Server::start(&[
        "--listen",
        "127.0.0.1:0",
        "--insecure",
        "--p4",
        "p4/roce_paths.p4",
    ]);
    let mut cmd = janus();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).args([
        "ctrl",
        "table",
        "add",
        "--file",
        &entries,
        "--server",
        &server.addr.to_string(),
    ]);
    let done = run_bounded(cmd, LIMIT);
    assert!(done.success(), "{}", done.describe(LIMIT));
    assert!(
        done.stdout
            .contains(&format!("added {} entries", flows.len())),
        "{}",
        done.stdout
    );
}
