//! `janus demo`: the main job a newcomer runs first. Today it runs the P4
//! front end over the programs Janus ships, shows what the control plane
//! will see of each, and runs each program's packet test (`X.stf` beside
//! `X.p4`) on the behavioural model; later issues grow it into the full
//! SmartNIC scenario.

use janus_p4::driver::{Options, compile_file};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Where the shipped P4 programs live.
fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("p4/examples")
}

pub fn run() -> ExitCode {
    let dir = examples_dir();
    let mut programs: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "p4"))
            .collect(),
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    };
    programs.sort();
    println!(
        "Janus front end over the shipped programs in {}\n",
        dir.display()
    );
    let mut failed = false;
    for path in &programs {
        let start = Instant::now();
        let c = match compile_file(path, &Options::default()) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        let elapsed = start.elapsed();
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let Some(program) = c.program() else {
            failed = true;
            println!("{name}: FAILED\n{}", c.render(false));
            continue;
        };
        let info = janus_p4::p4info::build(program);
        let lines = c.preprocessed.lines().count();
        println!(
            "{name}: ok ({lines} lines with includes, checked in {:.2} ms), architecture {}",
            elapsed.as_secs_f64() * 1e3,
            if info.arch.is_empty() {
                "none"
            } else {
                &info.arch
            }
        );
        for t in &info.tables {
            let keys: Vec<String> = t
                .match_fields
                .iter()
                .map(|m| format!("{}:{}", m.name, m.match_type.to_lowercase()))
                .collect();
            println!(
                "  table {:<32} id 0x{:08x}  keys [{}]  {} action(s)",
                t.preamble.name,
                t.preamble.id,
                keys.join(", "),
                t.action_refs.len()
            );
        }
        println!(
            "  P4Info: {} tables, {} actions, {} counters, {} meters, {} registers, {} digests, {} controller headers\n",
            info.tables.len(),
            info.actions.len(),
            info.counters.len() + info.direct_counters.len(),
            info.meters.len() + info.direct_meters.len(),
            info.registers.len(),
            info.digests.len(),
            info.controller_packet_metadata.len()
        );
        let stf = path.with_extension("stf");
        if stf.exists() {
            match run_packet_test(c, &stf) {
                Ok(line) => println!("  {line}\n"),
                Err(why) => {
                    failed = true;
                    println!("  packet test {}: FAILED\n{why}\n", stf.display());
                }
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs the STF test `stf` on the compiled program; a one-line summary.
fn run_packet_test(c: janus_p4::driver::Compilation, stf: &Path) -> Result<String, String> {
    let ir = c.ir.ok_or("the program has no IR")?;
    let mut sw = janus_v1model::V1Switch::load(ir).map_err(|e| e.to_string())?;
    let test = super::sim::read_stf(stf)?;
    let start = Instant::now();
    let report = janus_v1model::stf::run(&mut sw, &test).map_err(|e| e.to_string())?;
    if !report.passed() {
        return Err(report.failures.join("\n"));
    }
    Ok(format!(
        "packet test {}: PASS ({} packets in, {} expected out, {:.2} ms on the v1model simulator)",
        stf.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        report.packets,
        report.expects,
        start.elapsed().as_secs_f64() * 1e3
    ))
}
