//! The P4Runtime files `janus p4 compile` writes (P4Info and table entries
//! in text, binary and JSON, chosen by suffix as p4c's `--p4runtime-files`
//! chooses them) against the protobuf library (python `protobuf`, the venv
//! `scripts/test` makes): for every program Janus ships and every valid
//! corpus program, the text is the library's own printing of the binary,
//! the JSON parses to the same message and the binary is its deterministic
//! encoding. Without the venv the test fails when `JANUS_REQUIRE_TOOLS=1`
//! and is skipped otherwise. Every run is bounded.

mod common;

use common::{TempDir, janus, repo, run_bounded, venv};
use std::path::PathBuf;
use std::time::Duration;

const COMPILE: Duration = Duration::from_secs(60);
const CHECK: Duration = Duration::from_secs(300);

fn programs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["p4", "p4/examples", "sim/frontend/tests/p4/valid"] {
        let Ok(entries) = std::fs::read_dir(repo(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "p4") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn p4runtime_files_are_what_protobuf_writes() {
    let Some(venv) = venv("JANUS_P4RT_SHELL_VENV") else {
        return;
    };
    let dir = TempDir::new("p4runtime-formats");
    let mut stems = Vec::new();
    for (k, program) in programs().iter().enumerate() {
        let stem = dir.join(&format!("p{k}"));
        let s = stem.display();
        let mut cmd = janus();
        cmd.args(["p4", "compile"]).arg(program).args([
            "--p4runtime-files",
            &format!("{s}.txt,{s}.bin,{s}.json"),
            "--p4runtime-entries-files",
            &format!("{s}.entries.txt,{s}.entries.bin,{s}.entries.json"),
        ]);
        let done = run_bounded(cmd, COMPILE);
        // Programs with errors (or no main) write nothing; others all files.
        if done.success() && stem.with_extension("bin").exists() {
            stems.push(stem.display().to_string());
        }
    }
    assert!(stems.len() > 50, "only {} programs compiled", stems.len());
    let mut cmd = std::process::Command::new(venv.join("bin/python"));
    cmd.arg(repo("tests/clients/p4runtime_formats.py"))
        .args(&stems);
    let done = run_bounded(cmd, CHECK);
    assert!(done.success(), "{}", done.describe(CHECK));
}
