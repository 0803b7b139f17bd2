//! `janus demo`: the main job a newcomer runs first.
//!
//! It starts a P4Runtime server in-process (127.0.0.1:0), pushes
//! `p4/sdn.p4` (the multi-tenant overlay, docs/nic-model.md) to it over
//! gRPC as a client, and writes the table entries of
//! `p4/demo/sdn_demo.entries` (two tenants with two VFs each, a management
//! network, two remote VTEPs): the tenants through the mapping `janus ctrl
//! tenant add` uses, the rest from the file. It sends a scripted mix of
//! frames through the server's switch (traffic
//! inside a tenant, attempts to cross tenants, spoofing, management access,
//! ARP for the gateway) and prints what happened to each: the port it left
//! by, or the drop reason the program's `drops` counters recorded. Then the
//! per-tenant and per-VF counters (read over P4Runtime), and one pcap per
//! port.
//!
//! Nothing printed is written in advance: every fate comes from running the
//! frame. Each scenario also states the fate it expects; the demo exits 1
//! and names the scenarios whose fate differed, so it doubles as a
//! self-check (exit 2: the program, entries or output folder could not be
//! used).

use super::ctrl_client::session;
use super::ctrl_client::{insert_entries, read_counter};
use super::program_codes::Codes;
use clap::Args;
use janus_ctrl::client::entries::EntrySpec;
use janus_ctrl::client::schema::Schema;
use janus_ctrl::client::tenant::{Gateway, Remote, TenantSpec, Tunnel, Vf};
use janus_ctrl::client::{Client, ClientConfig};
use janus_ctrl::listen::serve;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::server::{P4RuntimeService, SwitchHandle};
use janus_engine::target::Target;
use janus_nic::ports::{CPU_PORT, is_uplink, is_vf};
use janus_p4::driver::{Compilation, Options, compile_file};
use janus_packet::{
    ArpOp, Body, Frame, Transport, VXLAN_PORT, Vxlan, arp_frame, ether_type, ethernet_frame,
    ip_protocol,
};
use janus_pcap::{Writer, WriterConfig};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

mod card;
mod frames;
mod network;
mod plane;
mod scenarios;
mod text;

use card::*;
use frames::*;
use network::*;
use plane::*;
use scenarios::*;
use text::*;

#[derive(Args)]
pub struct DemoArgs {
    /// Where the captures go: `in-portN.pcap` (frames the demo sent into
    /// port N) and `portN.pcap` (frames the NIC sent out of port N).
    #[arg(long, value_name = "DIR", default_value = "target/janus-demo")]
    pub out_dir: PathBuf,
    /// Run the tenant scenario over real network namespaces, TAP devices
    /// and processes instead (needs root; docs/host-interface.md).
    #[arg(long)]
    pub real: bool,
}

/// The table entries, as STF control-plane commands (`janus sim run
/// --entries` reads the same file).
const ENTRIES: &str = include_str!("../../../p4/demo/sdn_demo.entries");
const ENTRIES_PATH: &str = "p4/demo/sdn_demo.entries";
const PROGRAM_PATH: &str = "p4/sdn.p4";

/// Capture time of scenario `i`: 2026-01-01 00:00:00 UTC + `i` seconds, so
/// that `janus sim run` replays the inputs in the demo's order.
const FIRST_TIMESTAMP_NS: u64 = 1_767_225_600 * 1_000_000_000;

/// Size of the `drops` counter arrays (`DROP_REASON_COUNT`).
const DROP_SLOTS: usize = 32;

/// What the program's codes mean: p4/sdn.p4's drop reasons (`DROP_*`)
/// and janus_nic.p4's packet_in reasons (`NIC_PUNT_*`), read from their
/// source ([`Codes`]).
struct Reasons {
    drops: Codes,
    punts: Codes,
}

impl Reasons {
    /// The codes declared in the files of `c` (the program and its
    /// includes).
    fn of(c: &Compilation) -> Reasons {
        let texts = || {
            (0..c.sources.len()).map(|i| {
                c.sources
                    .file(janus_p4::source::FileId(i as u32))
                    .text
                    .as_str()
            })
        };
        Reasons {
            drops: Codes::read(texts(), "DROP_"),
            punts: Codes::read(texts(), "NIC_PUNT_"),
        }
    }

    fn drop(&self, r: usize) -> &str {
        u8::try_from(r).map_or("unknown reason", |r| self.drops.description(r))
    }

    fn punt(&self, r: u8) -> &str {
        self.punts.description(r)
    }
}

/// Removes the captures of an earlier run (`in-portN.pcap`, `portN.pcap`)
/// so that the folder holds this run's only.
fn remove_old_captures(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let port = name
            .strip_suffix(".pcap")
            .and_then(|n| n.strip_prefix("in-port").or_else(|| n.strip_prefix("port")));
        if port.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Writes `packets` (timestamp, bytes) as a pcap file.
fn write_pcap(path: &Path, packets: &[(u64, Vec<u8>)]) -> Result<(), String> {
    let file = File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    let mut w = Writer::new(BufWriter::new(file), WriterConfig::default())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    for (ts, data) in packets {
        w.write_packet(*ts, data)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    w.finish().map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(())
}

/// Compiles `path` and prints a summary of what the control plane sees.
fn front_end(path: &Path) -> Result<janus_p4::driver::Compilation, String> {
    let start = Instant::now();
    let c = compile_file(path, &Options::default())
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let elapsed = start.elapsed();
    let Some(program) = c.program() else {
        return Err(format!(
            "{} does not compile:\n{}",
            path.display(),
            c.render(false)
        ));
    };
    let info = janus_p4::p4info::build(program);
    let headers: Vec<&str> = info
        .controller_packet_metadata
        .iter()
        .map(|h| h.preamble.name.as_str())
        .collect();
    say_hanging(
        "  ",
        "      ",
        &format!(
            "{}: checked in {:.0} ms: {}, {}, {}, {}; controller headers: {}",
            shown(path),
            elapsed.as_secs_f64() * 1e3,
            count(info.tables.len() as u64, "table"),
            count(
                (info.counters.len() + info.direct_counters.len()) as u64,
                "counter"
            ),
            count(
                (info.meters.len() + info.direct_meters.len()) as u64,
                "meter"
            ),
            count(info.registers.len() as u64, "register"),
            if headers.is_empty() {
                "none".to_string()
            } else {
                headers.join(", ")
            }
        ),
    );
    Ok(c)
}

pub fn run(args: &DemoArgs) -> ExitCode {
    if args.real {
        return super::demo_real::run();
    }
    match demo(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(why) => {
            eprintln!("error: {why}");
            ExitCode::from(2)
        }
    }
}

/// The demo; `Ok(false)` when a scenario's fate differed from its
/// expectation.
fn demo(args: &DemoArgs) -> Result<bool, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!("Janus demo: one SmartNIC shared by two tenants, on the v1model behavioural model");

    println!("\n1. The P4 front end over the pipelines Janus ships (docs/pipelines.md)");
    let c = front_end(&root.join(PROGRAM_PATH))?;
    let reasons = Reasons::of(&c);
    front_end(&root.join("p4/roce_paths.p4"))?;
    let config = boot_card(root, &pipeline_config(&c)?)?;

    // The control plane: a P4Runtime server in this process, configured
    // over gRPC as an operator's controller would.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let mut plane = runtime
        .block_on(Plane::start(config))
        .map_err(|e| format!("the P4Runtime server: {e}"))?;
    let written = runtime.block_on(plane.configure())?;
    on_switch(&plane.switch, |sw| {
        for name in COUNTERS {
            if sw.counter(name, 0).is_none() {
                return Err(format!("{PROGRAM_PATH} has no counter {name}"));
            }
        }
        Ok(())
    })??;

    say_hanging(
        "\n2. ",
        "   ",
        &format!(
            "{PROGRAM_PATH} pushed to a P4Runtime server at {} (SetForwardingPipelineConfig); \
             the tenants configured over P4Runtime at {} ({} written as `janus ctrl tenant add` \
             writes them), the operator's other entries from {ENTRIES_PATH} ({})",
            plane.addr,
            plane.addr,
            count(written.tenants as u64, "entry"),
            count(written.others as u64, "entry"),
        ),
    );
    let filled: Vec<(String, usize)> = on_switch(&plane.switch, |sw| {
        sw.tables()
            .iter()
            .enumerate()
            .filter_map(|(slot, t)| {
                let n = sw.table(slot).map_or(0, |s| s.len());
                let short = t.name.rsplit('.').next().unwrap_or(&t.name);
                (n > 0).then(|| (short.to_string(), n))
            })
            .collect()
    })?;
    println!(
        "  {} with {}:",
        count(filled.len() as u64, "table"),
        count(filled.iter().map(|f| f.1 as u64).sum::<u64>(), "entry"),
    );
    for row in filled.chunks(3) {
        let cells: Vec<String> = row.iter().map(|(t, n)| format!("{t:<22}{n:>3}")).collect();
        println!("    {}", cells.join("     "));
    }
    println!(
        "  tenant A  id 1, VNI 1001: VF2 10.1.0.2, VF3 10.1.0.3, gateway 10.1.0.1;\n            \
         10.1.8.0/24 on another server, behind VTEP 192.168.0.20 (uplink 0)\n  \
         tenant B  id 2, VNI 2002: VF4 10.2.0.4, VF5 10.2.0.5, gateway 10.2.0.1;\n            \
         10.2.8.0/24 on another server, behind VTEP 192.168.0.21 (uplink 1)\n  \
         VF6       assigned to no tenant\n  \
         this NIC  VTEP 192.168.0.1; management network 172.16.0.0/12, VLAN 100, VNI 9999\n  \
         ports     0 and 1 uplinks, 2..509 VFs, 510 CPU (docs/nic-model.md)"
    );

    println!("\n3. Traffic: each frame is sent into the pipeline and its fate read back");
    let scenarios = scenarios();
    let mut inputs: BTreeMap<u32, Vec<(u64, Vec<u8>)>> = BTreeMap::new();
    let mut outputs: BTreeMap<u32, Vec<(u64, Vec<u8>)>> = BTreeMap::new();
    let mut summary = Vec::new();
    let mut wrong = Vec::new();
    let mut section = "";
    for (i, s) in scenarios.iter().enumerate() {
        let n = i + 1;
        if s.section != section {
            section = s.section;
            println!("\n  {section}");
        }
        let ts = FIRST_TIMESTAMP_NS + n as u64 * 1_000_000_000;
        let o = on_switch(&plane.switch, |sw| run_one(sw, s.port, &s.frame))?;
        let ok = matches(s.expect, s.port, &o);
        say(&format!("  {n:>2}. "), s.what);
        say(
            "      sent       ",
            &format!(
                "{}: {}, {} bytes",
                port_label(s.port),
                describe_sent(s.port, &s.frame),
                s.frame.len()
            ),
        );
        for (verb, text) in fate_lines(&reasons, s, &o) {
            say(&format!("      {verb:<10} "), &text);
        }
        if ok {
            println!("      check      as expected");
        } else {
            say(
                "      check      ",
                &format!("NOT AS EXPECTED: expected {}", s.expect.text(&reasons)),
            );
            wrong.push(n);
        }
        inputs
            .entry(s.port)
            .or_default()
            .push((ts, s.frame.clone()));
        for (port, bytes) in &o.outputs {
            outputs.entry(*port).or_default().push((ts, bytes.clone()));
        }
        summary.push((n, s.port, short_fate(&reasons, &o), ok));
    }

    println!("\n4. Summary: where each frame was sent in, its fate, and whether that was expected");
    println!("  {:>2}  {:<24}  {:<56}  check", "#", "sent on", "fate");
    for (n, port, fate, ok) in &summary {
        println!(
            "  {n:>2}  {:<24}  {fate:<56}  {}",
            port_label(*port),
            if *ok { "ok" } else { "WRONG" }
        );
    }

    println!(
        "\n5. Counters read after the run, over P4Runtime at {} (CounterEntry reads)",
        plane.addr
    );
    let counters = runtime.block_on(plane.counters())?;
    let cell = |name: &str, index: usize| -> (u64, u64) {
        counters
            .get(name)
            .and_then(|cells| cells.get(&index))
            .copied()
            .unwrap_or((0, 0))
    };
    say(
        "  ",
        "Per tenant (SdnIngress.tenant_packets, index = tenant id): frames classified to \
         the tenant, from its VFs and from the network, whether forwarded or dropped \
         afterwards.",
    );
    for t in TENANTS {
        let (p, b) = cell("SdnIngress.tenant_packets", t.id);
        println!(
            "    tenant {} (id {}, VNI {}): {}, {}",
            t.name,
            t.id,
            t.vni,
            count(p, "frame"),
            count(b, "byte")
        );
    }
    say(
        "  ",
        "Per VF (index = port): received from the VF (SdnIngress.vf_rx), sent to it \
         (SdnEgress.vf_tx), received and dropped (SdnIngress.vf_drops).",
    );
    println!(
        "    {:<22} {:>16} {:>16} {:>9}",
        "port", "received", "sent to it", "dropped"
    );
    for (port, _) in VFS {
        let rx = cell("SdnIngress.vf_rx", port as usize);
        let tx = cell("SdnEgress.vf_tx", port as usize);
        let dropped = cell("SdnIngress.vf_drops", port as usize).0;
        println!(
            "    {:<22} {:>16} {:>16} {dropped:>9}",
            port_label(port).trim_start_matches("port "),
            format!("{} ({} B)", rx.0, rx.1),
            format!("{} ({} B)", tx.0, tx.1)
        );
    }
    say(
        "  ",
        "Drops by reason (SdnIngress.drops and SdnEgress.drops, index = reason; \
         non-zero only):",
    );
    for (stage, name) in [
        ("ingress", "SdnIngress.drops"),
        ("egress", "SdnEgress.drops"),
    ] {
        for r in 0..DROP_SLOTS {
            let n = cell(name, r).0;
            if n > 0 {
                println!("    {stage:<8} {r:>2}  {:<40} {n:>3}", reasons.drop(r));
            }
        }
    }

    let dir = &args.out_dir;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.clone());
    remove_old_captures(&dir);
    println!("\n6. Captures, in {} (open them in Wireshark)", shown(&dir));
    for (port, packets) in &inputs {
        let name = format!("in-port{port}.pcap");
        write_pcap(&dir.join(&name), packets)?;
        println!(
            "  {name:<17} {} sent into {}",
            count(packets.len() as u64, "frame"),
            port_label(*port)
        );
    }
    for (port, packets) in &outputs {
        let name = format!("port{port}.pcap");
        write_pcap(&dir.join(&name), packets)?;
        let note = if *port == CPU_PORT {
            " (each starts with the 3-byte packet_in header)"
        } else {
            ""
        };
        say(
            &format!("  {name:<17} "),
            &format!(
                "{} the NIC sent out of {}{note}",
                count(packets.len() as u64, "frame"),
                port_label(*port)
            ),
        );
    }
    println!("  The same run from the captures (its portN.pcap files hold the same frames):");
    let exe = std::env::current_exe().map_or_else(|_| "janus".to_string(), |p| shown(&p));
    let mut words = vec![
        format!("{exe} sim run {}", shown(&root.join(PROGRAM_PATH))),
        format!("--entries {}", shown(&root.join(ENTRIES_PATH))),
    ];
    words.extend(
        inputs
            .keys()
            .map(|p| format!("--in {p}={}", shown(&dir.join(format!("in-port{p}.pcap"))))),
    );
    words.push(format!("--out-dir {}", shown(&dir.join("replay"))));
    let mut lines: Vec<String> = vec![String::new()];
    for w in words {
        let last = lines.last_mut().expect("one line");
        if !last.is_empty() && last.len() + 1 + w.len() > WIDTH - 8 {
            lines.push(w);
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(&w);
        }
    }
    println!("    {}", lines.join(" \\\n      "));

    println!();
    if wrong.is_empty() {
        println!(
            "All {} scenarios behaved as expected. Tables, entries and counters: \
             docs/pipelines.md.",
            scenarios.len()
        );
        Ok(true)
    } else {
        let list: Vec<String> = wrong.iter().map(|n| n.to_string()).collect();
        println!(
            "{} of {} scenarios did NOT behave as expected: {}",
            wrong.len(),
            scenarios.len(),
            list.join(", ")
        );
        Ok(false)
    }
}
