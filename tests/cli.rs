//! End-to-end tests of the `janus` command.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn janus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_janus"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("janus runs")
}

/// Runs `janus` with `args`, asserts it succeeded, and returns its stdout.
fn janus_ok(args: &[&str]) -> String {
    let res = janus(args);
    let stdout = String::from_utf8_lossy(&res.stdout).into_owned();
    assert_eq!(
        res.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&res.stderr)
    );
    stdout
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janus-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn check_clean_program_exits_zero() {
    let out = janus(&["p4", "check", &repo("p4/examples/l3_router_acl.p4")]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn check_reports_errors_with_location_and_snippet() {
    let path = repo("sim/frontend/tests/p4/invalid/err_width_mismatch_add.p4");
    let out = janus(&["p4", "check", &path]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error[E0201]"), "{err}");
    assert!(err.contains("err_width_mismatch_add.p4:7:15"), "{err}");
    assert!(err.contains("sum = a + b;"), "{err}");
    assert!(err.contains("1 error(s)"), "{err}");
}

#[test]
fn check_usage_and_io_problems_exit_two() {
    assert_eq!(
        janus(&["p4", "check", "/no/such/file.p4"]).status.code(),
        Some(2)
    );
    assert_eq!(janus(&["p4", "check"]).status.code(), Some(2));
    assert_eq!(janus(&["p4", "explain", "E9999"]).status.code(), Some(2));
}

#[test]
fn include_dirs_and_defines_reach_the_preprocessor() {
    let dir = temp_dir("include");
    std::fs::write(dir.join("lib.p4"), "const bit<8> FROM_LIB = 7;\n").expect("write");
    let prog = dir.join("prog.p4");
    std::fs::write(
        &prog,
        "#include \"lib.p4\"\n#ifndef WIDTH\n#error WIDTH must be defined\n#endif\nconst bit<WIDTH> X = FROM_LIB;\n",
    )
    .expect("write");
    let elsewhere = temp_dir("elsewhere");
    std::fs::rename(dir.join("lib.p4"), elsewhere.join("lib.p4")).expect("move");
    let prog = prog.display().to_string();
    let inc = elsewhere.display().to_string();
    // Without -I the include is missing; without -D the #error fires.
    let out = janus(&["p4", "check", &prog, "-D", "WIDTH=8"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("E0020"));
    let out = janus(&["p4", "check", &prog, "-I", &inc]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("E0022"));
    let out = janus(&["p4", "check", &prog, "-I", &inc, "-D", "WIDTH=8"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(elsewhere);
}

#[test]
fn compile_writes_p4info_and_a_loadable_pipeline() {
    let dir = temp_dir("compile");
    let p4info = dir.join("out.txtpb");
    let pipeline = dir.join("out.pipeline");
    let out = janus(&[
        "p4",
        "compile",
        &repo("p4/examples/l3_router_acl.p4"),
        "--p4info",
        &p4info.display().to_string(),
        "-o",
        &pipeline.display().to_string(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&p4info).expect("p4info written");
    assert!(text.contains("name: \"RouterIngress.ipv4_lpm\""), "{text}");
    let bytes = std::fs::read(&pipeline).expect("pipeline written");
    let loaded = janus_p4::pipeline::Pipeline::from_bytes(&bytes).expect("pipeline parses");
    assert_eq!(loaded.p4info, text);
    assert!(loaded.compile().expect("recompiles").program().is_some());
    // The simulator runs the pipeline file as it runs the source.
    let out = janus(&[
        "sim",
        "test",
        &pipeline.display().to_string(),
        &repo("p4/examples/l3_router_acl.stf"),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A p4c-bm2-ss command line, as the p4lang tutorials' Makefile writes it
/// (`--p4v 16 --p4runtime-files build/X.p4.p4info.txtpb -o build/X.json`),
/// runs with only the binary changed: `.txtpb` is text P4Info, the same
/// bytes as `.txt`; P4_14, other targets and unknown suffixes are refused
/// with the option named.
#[test]
fn compile_takes_p4c_bm2_ss_command_lines() {
    let dir = temp_dir("compile-p4c");
    let program = repo("p4/examples/l3_router_acl.p4");
    let txtpb = dir.join("router.p4.p4info.txtpb");
    let txt = dir.join("router.p4info.txt");
    let json = dir.join("router.json");
    let files = format!("{},{}", txtpb.display(), txt.display());
    janus_ok(&[
        "p4",
        "compile",
        "--p4v",
        "16",
        "--std",
        "p4-16",
        "--target",
        "bmv2",
        "--arch",
        "v1model",
        "--p4runtime-files",
        &files,
        "-o",
        &json.display().to_string(),
        &program,
    ]);
    let text = std::fs::read(&txtpb).expect("txtpb written");
    assert_eq!(text, std::fs::read(&txt).expect("txt written"));
    assert!(String::from_utf8_lossy(&text).contains("name: \"RouterIngress.ipv4_lpm\""));
    let bytes = std::fs::read(&json).expect("pipeline written");
    janus_p4::pipeline::Pipeline::from_bytes(&bytes).expect("a pipeline file");
    for (args, message) in [
        (&["--p4v", "14"][..], "P4_16 programs only"),
        (&["--std", "p4_14"][..], "P4_16 programs only"),
        (&["--target", "ebpf"][..], "--target ebpf"),
        (&["--arch", "tna"][..], "--arch tna"),
        (
            &["--p4runtime-files", "x.yaml"][..],
            "suffix .yaml; known suffixes are .bin, .txt, .txtpb, .json",
        ),
    ] {
        let mut all = vec!["p4", "compile", &program];
        all.extend_from_slice(args);
        let out = janus(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn compile_with_errors_writes_nothing() {
    let dir = temp_dir("compile-bad");
    let p4info = dir.join("out.txtpb");
    let out = janus(&[
        "p4",
        "compile",
        &repo("sim/frontend/tests/p4/invalid/err_width_mismatch_add.p4"),
        "--p4info",
        &p4info.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!p4info.exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn explain_prints_the_explanation() {
    let out = janus(&["p4", "explain", "e0201"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("E0201: operands of different widths"),
        "{text}"
    );
    let all = janus(&["p4", "explain"]);
    assert!(String::from_utf8_lossy(&all.stdout).lines().count() >= 40);
}

/// The row of scenario `n` in the demo's summary table (section 4), its
/// columns separated by single spaces.
fn demo_summary_row(stdout: &str, n: usize) -> String {
    let table = &stdout[stdout.find("4. Summary").expect("a summary table")..];
    let row = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(&n.to_string()))
        .unwrap_or_else(|| panic!("no row {n} in:\n{table}"));
    squeeze(row)
}

/// `text` with each run of white space (line breaks too: the demo wraps
/// long lines) made one space.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The packets of a capture the demo wrote: (timestamp, bytes).
fn read_capture(path: &Path) -> Vec<(u64, Vec<u8>)> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    janus_pcap::open(&bytes)
        .unwrap()
        .map(|p| {
            let p = p.unwrap();
            (p.timestamp_ns, p.data.to_vec())
        })
        .collect()
}

#[test]
fn demo_runs_the_sdn_scenarios_and_writes_captures() {
    let dir = temp_dir("demo");
    let out_dir = dir.join("out");
    let out = janus(&["demo", "--out-dir", &out_dir.display().to_string()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The front end still looks at both shipped pipelines.
    assert!(text.contains("p4/sdn.p4: checked in"), "{text}");
    assert!(text.contains("p4/roce_paths.p4: checked in"), "{text}");
    assert!(
        text.contains("All 21 scenarios behaved as expected"),
        "{text}"
    );
    assert!(!text.contains("NOT AS EXPECTED"), "{text}");
    // Key fates, as the summary table states them (read from the run).
    for (n, fate) in [
        (1, "port 2 (VF2, tenant A) delivered to port 3"),
        (2, "out of port 0 (uplink 0), VXLAN VNI 1001"),
        (4, "port 1 (uplink 1) delivered to port 5"),
        (5, "dropped: security group"),
        (6, "dropped: L2 miss"),
        (7, "dropped: no route in the tenant's VRF"),
        (9, "port 0 (uplink 0) dropped: L2 miss"),
        (10, "dropped: not overlay traffic"),
        (11, "dropped in egress: tenant mismatch"),
        (12, "dropped: unknown VF"),
        (13, "dropped: spoofed source"),
        (15, "dropped: spoofed source"),
        (16, "dropped: VF to management network"),
        (17, "dropped: VF to management network"),
        (18, "to CPU (port 510), packet_in reason 3"),
        (19, "to CPU (port 510), packet_in reason 1"),
        (20, "port 510 (CPU) delivered to port 2"),
    ] {
        let row = demo_summary_row(&text, n);
        assert!(row.contains(fate), "scenario {n}: `{row}` lacks `{fate}`");
        assert!(row.ends_with(" ok"), "scenario {n}: {row}");
    }
    // The detailed lines say what the scenario shows and why it was dropped.
    for want in [
        "tenant A VF2 -> tenant B VF4 with a forged VNI",
        "dropped in egress, reason 18 \"tenant mismatch (egress owner check)\"",
        "dropped in ingress, reason 3 \"spoofed source\"",
        "packet_in(from port 2, reason 1 \"ARP for the gateway\")",
        "VXLAN VNI 1001, 192.168.0.1 > 192.168.0.20",
        "routed: TTL 64 -> 63",
        // Per-tenant counters: A has 11 frames from VF2/VF3 and 1 from the
        // network (scenario 9); B has 4 from VF4/VF5 and 1 (scenario 4).
        "tenant A (id 1, VNI 1001): 12 frames",
        "tenant B (id 2, VNI 2002): 5 frames",
        "egress 18 tenant mismatch (egress owner check) 1",
        "ingress 3 spoofed source 3",
    ] {
        assert!(
            squeeze(&text).contains(want),
            "missing `{want}` in:\n{text}"
        );
    }
    // One capture per port in and out, none empty.
    for (file, packets) in [
        ("in-port0.pcap", 3),
        ("in-port1.pcap", 1),
        ("in-port2.pcap", 8),
        ("in-port3.pcap", 3),
        ("in-port4.pcap", 2),
        ("in-port5.pcap", 2),
        ("in-port6.pcap", 1),
        ("in-port510.pcap", 1),
        ("port0.pcap", 1),
        ("port2.pcap", 1),
        ("port3.pcap", 1),
        ("port5.pcap", 2),
        ("port510.pcap", 3),
    ] {
        let got = read_capture(&out_dir.join(file));
        assert_eq!(got.len(), packets, "{file}");
        assert!(got.iter().all(|(_, data)| !data.is_empty()), "{file}");
    }
    // Wireshark's reader agrees: the tunnelled frame and the bridged one.
    let port0 = out_dir.join("port0.pcap").display().to_string();
    let port3 = out_dir.join("port3.pcap").display().to_string();
    let fields = |file: &str, fields: &[&str]| {
        let mut args = vec!["-r", file, "-T", "fields"];
        for f in fields {
            args.extend(["-e", f]);
        }
        run_tool("tshark", &args)
    };
    match (
        fields(&port0, &["vxlan.vni", "ip.dst", "ip.ttl"]),
        fields(&port3, &["ip.src", "ip.dst"]),
    ) {
        (Some(vxlan), Some(bridged)) => {
            assert!(
                vxlan.status.success(),
                "{}",
                String::from_utf8_lossy(&vxlan.stderr)
            );
            assert_eq!(
                String::from_utf8_lossy(&vxlan.stdout).trim(),
                "1001\t192.168.0.20,10.1.8.20\t64,63"
            );
            assert_eq!(
                String::from_utf8_lossy(&bridged.stdout).trim(),
                "10.1.0.2\t10.1.0.3"
            );
        }
        _ if std::env::var("JANUS_REQUIRE_TOOLS").as_deref() == Ok("1") => {
            panic!("tshark is required (JANUS_REQUIRE_TOOLS=1) but not installed")
        }
        _ => eprintln!("note: tshark not installed; skipped the tshark check"),
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The demo's captures and entries file drive `janus sim run` to the same
/// output frames: what the demo printed and wrote is what the pipeline does.
#[test]
fn demo_captures_replay_through_sim_run() {
    let dir = temp_dir("demo-replay");
    let demo_dir = dir.join("demo");
    let out = janus(&["demo", "--out-dir", &demo_dir.display().to_string()]);
    assert_eq!(out.status.code(), Some(0));
    let inputs: Vec<String> = [0, 1, 2, 3, 4, 5, 6, 510]
        .iter()
        .map(|p| {
            format!(
                "{p}={}",
                demo_dir.join(format!("in-port{p}.pcap")).display()
            )
        })
        .collect();
    let replay = dir.join("replay");
    let (program, entries, replay_arg) = (
        repo("p4/sdn.p4"),
        repo("p4/demo/sdn_demo.entries"),
        replay.display().to_string(),
    );
    let mut args = vec![
        "sim",
        "run",
        &program,
        "--entries",
        &entries,
        "--out-dir",
        &replay_arg,
    ];
    for i in &inputs {
        args.extend(["--in", i]);
    }
    let stdout = janus_ok(&args);
    assert!(stdout.contains("21 packets in, 13 dropped"), "{stdout}");
    for port in [0, 2, 3, 5, 510] {
        let file = format!("port{port}.pcap");
        assert_eq!(
            read_capture(&replay.join(&file)),
            read_capture(&demo_dir.join(&file)),
            "{file}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sim_test_passes_fails_and_rejects_bad_input() {
    let program = repo("p4/examples/l3_router_acl.p4");
    let stf = repo("p4/examples/l3_router_acl.stf");
    let out = janus(&["sim", "test", &program, &stf]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = temp_dir("stf");
    // A wrong expectation fails, showing both packets.
    let wrong = std::fs::read_to_string(&stf)
        .unwrap()
        .replace("expect 2 0000000000bb", "expect 2 0000000000cc");
    std::fs::write(dir.join("wrong.stf"), wrong).unwrap();
    let out = janus(&[
        "sim",
        "test",
        &program,
        &dir.join("wrong.stf").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("expected 0000000000cc") && text.contains("received 0000000000bb"),
        "{text}"
    );
    // An unknown table and a malformed packet are bad input.
    std::fs::write(dir.join("table.stf"), "add nosuchtable k:1 a()\n").unwrap();
    let out = janus(&[
        "sim",
        "test",
        &program,
        &dir.join("table.stf").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no table `nosuchtable`"));
    std::fs::write(dir.join("odd.stf"), "packet 1 abc\n").unwrap();
    let out = janus(&[
        "sim",
        "test",
        &program,
        &dir.join("odd.stf").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1, column 10"));
    // A directory: every X.p4 with an X.stf.
    let out = janus(&["sim", "test", &repo("p4/examples")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed, 0 failed"));
    let _ = std::fs::remove_dir_all(dir);
}

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn write_pcap(path: &Path, packets: &[(u64, Vec<u8>)]) {
    let file = std::fs::File::create(path).unwrap();
    let mut w = janus_pcap::Writer::new(file, janus_pcap::WriterConfig::default()).unwrap();
    for (ts, data) in packets {
        w.write_packet(*ts, data).unwrap();
    }
    w.finish().unwrap();
}

/// Runs `program args` for at most 60 s; `None` when it is not installed.
fn run_tool(program: &str, args: &[&str]) -> Option<Output> {
    let mut child = Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "{program} did not finish in 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

/// `--workers N` splits the packets by flow among N pipelines; for
/// sdn.p4, which keeps no state across flows, the files are those one
/// pipeline writes, byte for byte (order within each file included).
#[test]
fn sim_run_with_workers_writes_what_one_pipeline_writes() {
    let dir = temp_dir("workers");
    let made = Command::new("python3")
        .arg(repo("p4/tools/make_sdn_traffic.py"))
        .arg(&dir)
        .args(["600", "400"])
        .output()
        .expect("python3 runs");
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let args = String::from_utf8(made.stdout).unwrap();
    let (program, entries) = (repo("p4/sdn.p4"), repo("p4/demo/sdn_demo.entries"));
    let run = |workers: &str| {
        let out = dir.join(format!("out{workers}"));
        let out_arg = out.display().to_string();
        let mut all = vec!["sim", "run", &program, "--entries", &entries];
        all.extend(args.split_whitespace());
        all.extend(["--out-dir", &out_arg, "--workers", workers]);
        let summary = janus_ok(&all).replace(&out_arg, "OUT");
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&p).unwrap())
            })
            .collect();
        files.sort();
        (summary, files)
    };
    let one = run("1");
    assert!(one.0.contains("600 packets in, 0 dropped"), "{}", one.0);
    assert!(one.1.len() >= 4, "outputs on {} ports", one.1.len());
    for workers in ["2", "3"] {
        let many = run(workers);
        assert_eq!(many.0, one.0, "summary with {workers} workers");
        assert!(many.1 == one.1, "files with {workers} workers differ");
    }
    let res = janus(&[
        "sim",
        "run",
        &program,
        "--in",
        "1=x.pcap",
        "--out-dir",
        "o",
        "--workers",
        "0",
    ]);
    assert_eq!(res.status.code(), Some(2), "--workers 0 is refused");
    // An entry the workers cannot load stops the run, whichever worker
    // meets it.
    let bad = dir.join("bad.entries");
    std::fs::write(&bad, "add no_such_table k:1 a()\n").unwrap();
    let bad = bad.display().to_string();
    let out = dir.join("bad-out").display().to_string();
    let mut all = vec!["sim", "run", &program, "--entries", &bad];
    all.extend(args.split_whitespace());
    all.extend(["--out-dir", &out, "--workers", "3"]);
    let res = janus(&all);
    assert_eq!(res.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&res.stderr).contains("no_such_table"),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sim_run_writes_one_pcap_per_output_port() {
    let dir = temp_dir("run");
    let routed = hex(
        "aaaaaaaaaaaa 020000000001 0800 4500002400010000401162c10a0101010a020304 12341f9000100000cafebabecafebabe",
    );
    let denied = hex(
        "aaaaaaaaaaaa 020000000001 0800 4500002400010000401162c10a0101010a020304 1234005000100000cafebabecafebabe",
    );
    let not_ip = hex("aaaaaaaaaaaa 020000000001 86dd 00000000");
    let want = hex(
        "0000000000bb 020000000002 0800 45000024000100003f1163c10a0101010a020304 12341f9000100000cafebabecafebabe",
    );
    // Port 1: routed at t=2 s, denied at 3 s, not IPv4 at 4 s; port 3: routed at 1 s.
    write_pcap(
        &dir.join("p1.pcap"),
        &[
            (2_000_000_000, routed.clone()),
            (3_000_000_000, denied),
            (4_000_000_000, not_ip),
        ],
    );
    write_pcap(&dir.join("p3.pcap"), &[(1_000_000_000, routed)]);
    std::fs::write(
        dir.join("entries.txt"),
        "add ipv4_lpm hdr.ipv4.dst_addr:0x0a020000/16 set_nexthop(next_mac:0x0000000000bb, port:2)\n\
         add port_mac standard_metadata.egress_port:2 rewrite_source(smac:0x020000000002)\n",
    )
    .unwrap();
    let program = repo("p4/examples/l3_router_acl.p4");
    let (p1, p3, entries, out) = (
        format!("1={}", dir.join("p1.pcap").display()),
        format!("3={}", dir.join("p3.pcap").display()),
        dir.join("entries.txt").display().to_string(),
        dir.join("out").display().to_string(),
    );
    let args = [
        "sim",
        "run",
        &program,
        "--in",
        &p1,
        "--in",
        &p3,
        "--entries",
        &entries,
        "--out-dir",
        &out,
    ];
    let stdout = janus_ok(&args);
    assert!(stdout.contains("4 packets in, 2 dropped"), "{stdout}");
    assert!(stdout.contains("port 2: 2 packets"), "{stdout}");
    let bytes = std::fs::read(dir.join("out/port2.pcap")).unwrap();
    let got: Vec<(u64, Vec<u8>)> = janus_pcap::open(&bytes)
        .unwrap()
        .map(|p| {
            let p = p.unwrap();
            (p.timestamp_ns, p.data.to_vec())
        })
        .collect();
    assert_eq!(
        got,
        vec![(1_000_000_000, want.clone()), (2_000_000_000, want)],
        "merged by capture time, routed and rewritten"
    );
    // Wireshark's reader agrees.
    let port2 = dir.join("out/port2.pcap").display().to_string();
    match run_tool("tshark", &["-r", &port2, "-T", "fields", "-e", "ip.ttl"]) {
        Some(t) => {
            assert!(t.status.success(), "{}", String::from_utf8_lossy(&t.stderr));
            assert_eq!(String::from_utf8_lossy(&t.stdout).trim(), "63\n63");
        }
        None if std::env::var("JANUS_REQUIRE_TOOLS").as_deref() == Ok("1") => {
            panic!("tshark is required (JANUS_REQUIRE_TOOLS=1) but not installed")
        }
        None => eprintln!("note: tshark not installed; skipped the tshark check"),
    }
    // Bad input exits 2 with a message, and writes nothing.
    let bad_port = janus(&[
        "sim",
        "run",
        &program,
        "--in",
        "x=y.pcap",
        "--out-dir",
        &out,
    ]);
    assert_eq!(bad_port.status.code(), Some(2));
    std::fs::write(dir.join("junk.pcap"), b"not a capture").unwrap();
    let junk = format!("1={}", dir.join("junk.pcap").display());
    let out2 = dir.join("out2").display().to_string();
    let res = janus(&["sim", "run", &program, "--in", &junk, "--out-dir", &out2]);
    assert_eq!(res.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&res.stderr).contains("junk.pcap"));
    assert!(!Path::new(&out2).exists());
    std::fs::write(dir.join("test.txt"), "packet 1 00\n").unwrap();
    let test_as_entries = dir.join("test.txt").display().to_string();
    let res = janus(&[
        "sim",
        "run",
        &program,
        "--in",
        &p1,
        "--entries",
        &test_as_entries,
        "--out-dir",
        &out2,
    ]);
    assert_eq!(res.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&res.stderr).contains("control-plane commands only"),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sim_trace_logs_tables_and_fates_only_when_asked() {
    let program = repo("p4/examples/l3_router_acl.p4");
    let stf = repo("p4/examples/l3_router_acl.stf");
    let traced = janus(&["sim", "test", &program, &stf, "--trace"]);
    assert_eq!(traced.status.code(), Some(0));
    let log = String::from_utf8_lossy(&traced.stderr);
    for want in [
        "packet in port=1 len=50",
        "parser state=parse_ipv4 at_bit=112",
        "table table=\"ipv4_lpm\" key=32w0xa020304 hit=true action=\"set_nexthop\" args=48w0xbb, 9w0x2",
        "table table=\"acl\"",
        "hit=true action=\"acl_deny\"",
        "ingress done egress_spec=511 mcast_grp=0 copies=0",
        "packet out egress_port=2 len=50",
    ] {
        assert!(log.contains(want), "missing `{want}` in:\n{log}");
    }
    let quiet = janus(&["sim", "test", &program, &stf]);
    assert!(
        !String::from_utf8_lossy(&quiet.stderr).contains("janus::trace"),
        "no trace without --trace"
    );
}

/// The project's STF suite: every `X.stf` beside a corpus program passes
/// (tests waiting on a missing feature are parked as `X.stf.pending`).
#[test]
fn corpus_stf_suite_passes() {
    let dir = repo("sim/frontend/tests/p4/valid");
    let out = janus(&["sim", "test", &dir]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let stfs = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "stf"))
        })
        .count();
    assert!(stfs >= 300, "the suite shrank to {stfs} tests");
    assert!(
        stdout.contains(&format!("{stfs} passed, 0 failed")),
        "{stdout}"
    );
}

/// The pipelines Janus ships (docs/nic-model.md) pass their packet tests.
#[test]
fn shipped_pipelines_pass_their_packet_tests() {
    let suites: [(&str, &[&str]); 2] = [
        (
            "p4/sdn.p4",
            &["sdn", "sdn_security", "sdn_acl", "sdn_cpu", "sdn_meter"],
        ),
        ("p4/roce_paths.p4", &["roce_paths"]),
    ];
    for (program, tests) in suites {
        for test in tests {
            let stf = repo(&format!("p4/{test}.stf"));
            let out = janus(&["sim", "test", &repo(program), &stf]);
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{test}: {stdout}");
            assert!(stdout.contains("PASS"), "{test}: {stdout}");
        }
    }
}

/// `janus ctrl serve --p4 p4/sdn.p4` on a free port (killed when dropped)
/// and `janus ctrl` commands against it.
struct CtrlServer(common::Server);

impl CtrlServer {
    /// Starts the server and waits (at most [`common::SERVER_START`]) for
    /// the address it prints on stderr.
    fn start() -> CtrlServer {
        CtrlServer(common::Server::start(&[
            "--listen",
            "127.0.0.1:0",
            "--insecure",
            "--p4",
            "p4/sdn.p4",
        ]))
    }

    /// `janus ctrl ARGS --server ADDR`: (exit code, stdout, stderr).
    fn ctrl(&self, args: &[&str]) -> (Option<i32>, String, String) {
        // `--server` before a `--` (after it come the action's words).
        let at = args.iter().position(|a| *a == "--").unwrap_or(args.len());
        let addr = self.0.addr.to_string();
        let mut all = vec!["ctrl"];
        all.extend(&args[..at]);
        all.extend(["--server", &addr]);
        all.extend(&args[at..]);
        let out = janus(&all);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// As [`CtrlServer::ctrl`], asserting success; stdout.
    fn ctrl_ok(&self, args: &[&str]) -> String {
        let (code, stdout, stderr) = self.ctrl(args);
        assert_eq!(code, Some(0), "{args:?}: {stdout}{stderr}");
        stdout
    }
}

/// `janus ctrl tenant add|del`, `table add|del|list` and `counters` over
/// P4Runtime against `janus ctrl serve`, with names typed, never ids.
#[test]
fn ctrl_client_configures_lists_and_deletes_a_tenant() {
    let server = CtrlServer::start();
    let out = server.ctrl_ok(&[
        "tenant",
        "add",
        "7",
        "--vni",
        "7007",
        "--vf",
        "port=8,mac=02:00:00:00:07:08,ip=10.7.0.8",
        "--vf",
        "port=9,mac=02:00:00:00:07:09,ip=10.7.0.9",
        "--gateway",
        "mac=02:00:00:00:07:01,ip=10.7.0.1,ip6=fd07::1",
        "--tunnel",
        "id=7,vtep=192.168.0.77,underlay-mac=02:bb:00:00:00:00,uplink=0",
        "--remote",
        "prefix=10.7.8.0/24,tunnel=7,next-mac=02:00:00:00:07:20",
    ]);
    assert!(out.contains("tenant 7: 16 entries written"), "{out}");
    let list = server.ctrl_ok(&["table", "list", "vf_tenants"]);
    assert!(
        list.contains("SdnIngress.vf_classify.vf_tenants: 2 entries"),
        "{list}"
    );
    assert!(
        list.contains("ingress_port=8 -> assign_vf(tenant=7, vni=7007)"),
        "{list}"
    );
    let routes = server.ctrl_ok(&["table", "list", "tenant_routes"]);
    for want in [
        "vrf=7 hdr.ipv4.dst_addr=10.7.0.9/32 -> route_to_vf(port=9, next_mac=02:00:00:00:07:09)",
        "vrf=7 hdr.ipv4.dst_addr=10.7.8.0/24 -> route_to_remote(tunnel=7, next_mac=02:00:00:00:07:20)",
    ] {
        assert!(routes.contains(want), "{routes}");
    }
    let gw = server.ctrl_ok(&["table", "list", "SdnIngress.gateway.tenant_gateways"]);
    assert!(
        gw.contains(
            "meta.tenant=7 -> set_gateway(mac=02:00:00:00:07:01, ipv4=10.7.0.1, ipv6=fd07::1)"
        ),
        "{gw}"
    );

    // One entry by hand: a ternary rule with a priority, a MAC entry.
    server.ctrl_ok(&[
        "table",
        "add",
        "security_group_rules",
        "--priority",
        "10",
        "meta.tenant=7",
        "hdr.ipv4.protocol=6",
        "meta.l4_dport=0x17&&&0xffff",
        "--",
        "deny",
    ]);
    let rules = server.ctrl_ok(&["table", "list", "security_group_rules"]);
    assert!(
        rules.contains(
            "priority=10 meta.tenant=7 hdr.ipv4.protocol=6&&&255 meta.l4_dport=23&&&65535 -> deny()"
        ),
        "{rules}"
    );
    let mac = ["tenant_macs", "vni=7007", "dst_addr=02:00:00:00:07:30"];
    let mut add = vec!["table", "add"];
    add.extend(mac);
    add.extend(["--", "bridge_to_vf", "port=9"]);
    assert!(server.ctrl_ok(&add).contains("added 1 entry"));
    let mut del = vec!["table", "del"];
    del.extend(mac);
    assert!(server.ctrl_ok(&del).contains("deleted 1 entry"));
    // Deleting it again: the server's per-update error, exit 1.
    let (code, _, err) = server.ctrl(&del);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("1 of 1 updates failed") && err.contains("NotFound"),
        "{err}"
    );

    // Counters: one cell, and every cell (only non-zero ones printed).
    let one = server.ctrl_ok(&["counters", "tenant_packets", "--index", "7"]);
    assert_eq!(
        one.trim(),
        "SdnIngress.tenant_packets[7]: 0 packets, 0 bytes"
    );
    let all = server.ctrl_ok(&["counters", "SdnIngress.drops"]);
    assert!(
        all.contains("(32 other cells of SdnIngress.drops are 0)"),
        "{all}"
    );

    // Bad names and values: exit 2, with what was wrong.
    for (args, want) in [
        (vec!["table", "list", "nosuch"], "no table `nosuch`"),
        (vec!["counters", "nosuch"], "no counter `nosuch`"),
        (
            vec![
                "table",
                "add",
                "vf_tenants",
                "ingress_port=600",
                "--",
                "assign_vf",
                "tenant=1",
                "vni=1",
            ],
            "needs 10 bits but the field is 9 bits wide",
        ),
        (
            vec![
                "table",
                "add",
                "vf_tenants",
                "ingress_port=6",
                "--",
                "no_such_action",
            ],
            "no_such_action",
        ),
        (
            vec![
                "table",
                "add",
                "vf_tenants",
                "ingress_port=6",
                "--",
                "assign_vf",
                "tenant=1",
            ],
            "needs `vni=VALUE`",
        ),
        (
            vec![
                "table",
                "add",
                "security_group_rules",
                "meta.tenant=7",
                "--",
                "deny",
            ],
            "give a priority",
        ),
    ] {
        let (code, _, err) = server.ctrl(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }

    // The tenant goes, with its security group rule and its tunnel.
    let out = server.ctrl_ok(&["tenant", "del", "7"]);
    assert!(out.contains("tenant 7: 17 entries deleted"), "{out}");
    for table in [
        "vf_tenants",
        "tenant_routes",
        "tunnels",
        "security_group_rules",
    ] {
        let list = server.ctrl_ok(&["table", "list", table]);
        assert!(list.contains(": 0 entries"), "{list}");
    }
    let (code, _, err) = server.ctrl(&["tenant", "del", "7"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no entries of tenant 7"), "{err}");
}

/// `table add --file` writes an entries file in one batch; a second time
/// every update fails and each is listed.
#[test]
fn ctrl_table_add_file_writes_a_batch_and_lists_its_failures() {
    let server = CtrlServer::start();
    let file = repo("p4/demo/sdn_demo.entries");
    let out = server.ctrl_ok(&["table", "add", "--file", &file]);
    assert!(out.contains("added 40 entries"), "{out}");
    let macs = server.ctrl_ok(&["table", "list", "tenant_macs"]);
    assert!(
        macs.contains(
            "meta.vni=2002 hdr.ethernet.dst_addr=02:00:00:00:02:05 -> bridge_to_vf(port=5)"
        ),
        "{macs}"
    );
    let (code, _, err) = server.ctrl(&["table", "add", "--file", &file]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("40 of 40 updates failed"), "{err}");
    assert_eq!(err.matches("AlreadyExists").count(), 40, "{err}");
}

/// `table add --file` reads a file of more entries than one of its Writes
/// takes a line at a time and writes them in batches; a file with bad lines is
/// refused whole, every bad line reported with its number, before
/// anything is written.
#[test]
fn ctrl_table_add_file_writes_a_large_file_in_batches_or_nothing() {
    let server = CtrlServer::start();
    let dir = temp_dir("ctrl-add-file");
    let line = |i: u32| {
        format!(
            "add tenant_macs meta.vni:3003 hdr.ethernet.dst_addr:0x{i:012x} bridge_to_vf(port:2)\n"
        )
    };
    let bad = dir.join("bad.entries");
    let mut text: String = (1..=10).map(line).collect();
    text.push_str("add tenant_macs meta.vni:3003 no_such_field:1 bridge_to_vf(port:2)\n");
    text.push_str("add tenant_macs meta.vni:3003 (\n");
    std::fs::write(&bad, &text).expect("write");
    let (code, _, err) = server.ctrl(&["table", "add", "--file", &bad.display().to_string()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("bad.entries: line 11:"), "{err}");
    assert!(err.contains("no_such_field"), "{err}");
    assert!(err.contains("bad.entries: line 12, column 31:"), "{err}");
    let list = server.ctrl_ok(&["table", "list", "tenant_macs"]);
    assert!(!list.contains("meta.vni=3003"), "{list}");

    let good = dir.join("good.entries");
    // One more than a Write of `--file` takes (the table holds 1,024).
    std::fs::write(&good, (1..=1001).map(line).collect::<String>()).expect("write");
    let out = server.ctrl_ok(&["table", "add", "--file", &good.display().to_string()]);
    assert!(out.contains("added 1001 entries"), "{out}");
    let list = server.ctrl_ok(&["table", "list", "tenant_macs"]);
    assert_eq!(list.matches("meta.vni=3003").count(), 1001, "{list}");
    assert!(
        list.contains("hdr.ethernet.dst_addr=00:00:00:00:03:e9"),
        "{list}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A server that is not there: exit 1 and a clear message, promptly.
#[test]
fn ctrl_client_reports_an_unreachable_server() {
    // A port nobody listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let addr = format!("127.0.0.1:{port}");
    let start = std::time::Instant::now();
    let out = janus(&["ctrl", "table", "list", "vf_tenants", "--server", &addr]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("cannot reach the P4Runtime server at {addr}")),
        "{err}"
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
}

/// The demo configures its tenants over P4Runtime and says where.
#[test]
fn demo_configures_the_tenants_over_p4runtime() {
    let dir = temp_dir("demo-p4rt");
    let out = janus(&["demo", "--out-dir", &dir.display().to_string()]);
    let text = squeeze(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("the tenants configured over P4Runtime at 127.0.0.1:"),
        "{text}"
    );
    assert!(
        text.contains("(32 entries written as `janus ctrl tenant add` writes them)"),
        "{text}"
    );
    assert!(
        text.contains("Counters read after the run, over P4Runtime at 127.0.0.1:"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `janus ctrl serve --translations FILE` refuses a file it cannot parse
/// before it listens, naming the file and line; and a file whose mapping
/// does not fit the `--p4` program, naming the mapping.
#[test]
fn ctrl_serve_checks_its_translation_file() {
    let dir = temp_dir("translations");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "# ports\nport_t Ethernet1\n").unwrap();
    // Exit code 2 and stderr of `janus ctrl serve` with `extra` options.
    let refused = |extra: &[&str]| {
        let mut args = vec!["ctrl", "serve", "--insecure", "--listen", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        let res = janus(&args);
        let stderr = String::from_utf8_lossy(&res.stderr).into_owned();
        assert_eq!(res.status.code(), Some(2), "{stderr}");
        stderr
    };
    let stderr = refused(&["--translations", bad.to_str().unwrap()]);
    assert!(
        stderr.contains("bad.txt: line 2: expected a type name or URI"),
        "{stderr}"
    );
    let prog = dir.join("t.p4");
    std::fs::write(
        &prog,
        r#"#include <core.p4>
#include <v1model.p4>
@p4runtime_translation("janus.test/port", string) type bit<9> port_t;
header h_t { bit<8> f; }
struct hs { h_t h; }
struct m_t { }
parser P(packet_in p, out hs h, inout m_t m, inout standard_metadata_t sm) { state start { p.extract(h.h); transition accept; } }
control VC(inout hs h, inout m_t m) { apply { } }
control I(inout hs h, inout m_t m, inout standard_metadata_t sm) {
    action fwd(port_t port) { sm.egress_spec = (bit<9>) port; }
    table t { key = { h.h.f: exact; } actions = { fwd; } }
    apply { t.apply(); }
}
control E(inout hs h, inout m_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hs h, inout m_t m) { apply { } }
control D(packet_out p, in hs h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#,
    )
    .unwrap();
    let wide = dir.join("wide.txt");
    std::fs::write(&wide, "janus.test/port \"Ethernet1\" 600\n").unwrap();
    let stderr = refused(&[
        "--p4",
        prog.to_str().unwrap(),
        "--translations",
        wide.to_str().unwrap(),
    ]);
    assert!(
        stderr.contains(
            "translation file line 1: data-plane value 600 does not fit type port_t (bit<9>)"
        ),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-D NAME[=VALUE]` and `-I DIR` reach the preprocessor on every command
/// that reads P4 source: `sim test`, `sim run`, `ctrl serve --p4`, `nic run
/// --p4` and `image build` take the options `p4 check` takes.
#[test]
fn p4_commands_take_defines_and_include_dirs() {
    let dir = temp_dir("defines");
    let inc = dir.join("inc");
    std::fs::create_dir_all(&inc).unwrap();
    std::fs::write(inc.join("port.p4"), "const bit<9> BASE = 1;\n").unwrap();
    let prog = dir.join("prog.p4");
    std::fs::write(
        &prog,
        r#"#include <core.p4>
#include <v1model.p4>
#include "port.p4"
#ifndef OUT
#error define OUT
#endif
header h_t { bit<8> f; }
struct hs { h_t h; }
struct m_t { }
parser P(packet_in p, out hs h, inout m_t m, inout standard_metadata_t sm) { state start { p.extract(h.h); transition accept; } }
control VC(inout hs h, inout m_t m) { apply { } }
control I(inout hs h, inout m_t m, inout standard_metadata_t sm) { apply { sm.egress_spec = BASE + OUT; } }
control E(inout hs h, inout m_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hs h, inout m_t m) { apply { } }
control D(packet_out p, in hs h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#,
    )
    .unwrap();
    let stf = dir.join("prog.stf");
    std::fs::write(&stf, "packet 0 aa\nexpect 3 aa $\n").unwrap();
    let (prog, stf, inc) = (
        prog.display().to_string(),
        stf.display().to_string(),
        inc.display().to_string(),
    );
    // sim test: without the options the program does not compile (2).
    let out = janus(&["sim", "test", &prog, &stf]);
    assert_eq!(out.status.code(), Some(2));
    let out = janus(&["sim", "test", &prog, &stf, "-I", &inc]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("define OUT"));
    janus_ok(&["sim", "test", &prog, &stf, "-I", &inc, "-D", "OUT=2"]);
    // sim run: the packet leaves on port 1 + OUT.
    let pcap = dir.join("in.pcap");
    write_pcap(&pcap, &[(1, vec![0xaa])]);
    let out_dir = dir.join("out");
    let stdout = janus_ok(&[
        "sim",
        "run",
        &prog,
        "--in",
        &format!("0={}", pcap.display()),
        "--out-dir",
        &out_dir.display().to_string(),
        "-I",
        &inc,
        "-D",
        "OUT=4",
    ]);
    assert!(stdout.contains("port 5: 1 packets"), "{stdout}");
    // ctrl serve --p4: refused (2) without the options, served with them.
    let out = janus(&[
        "ctrl",
        "serve",
        "--insecure",
        "--listen",
        "127.0.0.1:0",
        "--p4",
        &prog,
        "-I",
        &inc,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("define OUT"));
    let server = common::Server::start(&[
        "--insecure",
        "--listen",
        "127.0.0.1:0",
        "--p4",
        &prog,
        "-I",
        &inc,
        "-D",
        "OUT=2",
    ]);
    drop(server);
    // image build: refused without -D, built with it.
    let keys = dir.join("keys").display().to_string();
    janus_ok(&["keys", "generate", "--out", &keys]);
    let certs = dir.join("certs");
    janus_ok(&["ctrl", "certs", "--out", &certs.display().to_string()]);
    let config = dir.join("fw.toml");
    std::fs::write(
        &config,
        format!(
            "[management]\nlisten = \"127.0.0.1:9559\"\n\n[certificates]\nserver_cert = \"{0}/server.pem\"\nserver_key = \"{0}/server.key\"\nclient_ca = \"{0}/ca.pem\"\n",
            certs.display()
        ),
    )
    .unwrap();
    let (config, key, img) = (
        config.display().to_string(),
        format!("{keys}/janus.key"),
        dir.join("nic.img").display().to_string(),
    );
    let mut build = vec![
        "image",
        "build",
        "--p4",
        &prog,
        "-I",
        &inc,
        "--config",
        &config,
        "--key",
        &key,
        "--security-version",
        "1",
        "-o",
        &img,
    ];
    let out = janus(&build);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("define OUT"));
    build.extend(["-D", "OUT=2"]);
    janus_ok(&build);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program the behavioural model cannot load names the place of the
/// construct it refuses, `file:line:col`, on `janus sim test`.
#[test]
fn sim_load_errors_name_file_line_and_column() {
    let dir = temp_dir("load-error");
    let prog = dir.join("ext.p4");
    std::fs::write(
        &prog,
        r#"#include <core.p4>
#include <v1model.p4>
extern void user_ext(in bit<8> x);
header h_t { bit<8> f; }
struct hs { h_t h; }
struct m_t { }
parser P(packet_in p, out hs h, inout m_t m, inout standard_metadata_t sm) { state start { p.extract(h.h); transition accept; } }
control VC(inout hs h, inout m_t m) { apply { } }
control I(inout hs h, inout m_t m, inout standard_metadata_t sm) {
    apply {
        user_ext(h.h.f);
    }
}
control E(inout hs h, inout m_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout hs h, inout m_t m) { apply { } }
control D(packet_out p, in hs h) { apply { p.emit(h.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
"#,
    )
    .unwrap();
    let stf = dir.join("ext.stf");
    std::fs::write(&stf, "packet 0 aa\n").unwrap();
    let out = janus(&[
        "sim",
        "test",
        &prog.display().to_string(),
        &stf.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("{}:11:9: I:", prog.display())),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
