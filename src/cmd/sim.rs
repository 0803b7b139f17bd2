//! `janus sim ...`: the behavioural model on the command line.
//!
//! `janus sim test PROG.p4 TEST.stf` exits 0 when the test passes, 1 when
//! it fails (with what differed), 2 when the inputs are bad (the program or
//! test does not compile or load). `janus sim test DIR` runs every `X.p4`
//! that has an `X.stf` beside it and prints `N passed, N failed`.

use clap::Subcommand;
use janus_p4::driver::{Options, compile_file};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum SimCommand {
    /// Run STF packet tests: `test PROG.p4 TEST.stf` or `test DIR`.
    Test {
        /// A P4 program, or a directory of `X.p4` + `X.stf` pairs.
        target: PathBuf,
        /// The STF test (when `target` is a program).
        stf: Option<PathBuf>,
        /// Add a directory to the include search path.
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
    },
}

/// How one test ended.
enum Verdict {
    Pass,
    Fail(String),
    BadInput(String),
}

pub fn run(cmd: SimCommand) -> ExitCode {
    match cmd {
        SimCommand::Test {
            target,
            stf,
            include,
        } => {
            let opts = Options {
                include_dirs: include,
                ..Options::default()
            };
            if target.is_dir() {
                return run_dir(&target, &opts);
            }
            let Some(stf) = stf else {
                eprintln!("error: give an STF file after the program, or a directory");
                return ExitCode::from(2);
            };
            match run_one(&target, &stf, &opts) {
                Verdict::Pass => {
                    println!("PASS {}", stf.display());
                    ExitCode::SUCCESS
                }
                Verdict::Fail(why) => {
                    println!("FAIL {}\n{why}", stf.display());
                    ExitCode::from(1)
                }
                Verdict::BadInput(why) => {
                    eprintln!("error: {why}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

fn run_one(program: &Path, stf_path: &Path, opts: &Options) -> Verdict {
    let c = match compile_file(program, opts) {
        Ok(c) => c,
        Err(e) => return Verdict::BadInput(format!("cannot read {}: {e}", program.display())),
    };
    if c.has_errors() {
        return Verdict::BadInput(format!(
            "{} does not compile:\n{}",
            program.display(),
            c.render(false)
        ));
    }
    let text = match std::fs::read_to_string(stf_path) {
        Ok(t) => t,
        Err(e) => return Verdict::BadInput(format!("cannot read {}: {e}", stf_path.display())),
    };
    let stf = match janus_stf::parse(&text) {
        Ok(s) => s,
        Err(errors) => {
            let lines: Vec<String> = errors
                .iter()
                .map(|e| format!("{}: {e}", stf_path.display()))
                .collect();
            return Verdict::BadInput(lines.join("\n"));
        }
    };
    let Some(ir) = c.ir else {
        return Verdict::BadInput(format!("{} does not compile", program.display()));
    };
    let mut sw = match janus_v1model::V1Switch::load(ir) {
        Ok(sw) => sw,
        Err(e) => return Verdict::BadInput(format!("{}: {e}", program.display())),
    };
    match janus_v1model::stf::run(&mut sw, &stf) {
        Ok(report) if report.passed() => Verdict::Pass,
        Ok(report) => Verdict::Fail(report.failures.join("\n")),
        Err(e) => Verdict::BadInput(format!("{}: {e}", stf_path.display())),
    }
}

fn run_dir(dir: &Path, opts: &Options) -> ExitCode {
    let mut programs: Vec<PathBuf> = match std::fs::read_dir(dir) {
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
    let (mut passed, mut failed) = (0, 0);
    for p in programs {
        let stf = p.with_extension("stf");
        if !stf.exists() {
            continue;
        }
        match run_one(&p, &stf, opts) {
            Verdict::Pass => {
                passed += 1;
                println!("PASS {}", p.display());
            }
            Verdict::Fail(why) => {
                failed += 1;
                println!("FAIL {}\n{why}", p.display());
            }
            Verdict::BadInput(why) => {
                failed += 1;
                println!("ERROR {}\n{why}", p.display());
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
