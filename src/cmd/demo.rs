//! `janus demo`: the main job a newcomer runs first. Today it runs the P4
//! front end over the programs Janus ships and shows what the control plane
//! will see of each; later issues grow it into the full SmartNIC scenario.

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
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
