//! `janus sim ...`: the behavioural model on the command line.
//!
//! `janus sim test PROG.p4 TEST.stf` exits 0 when the test passes, 1 when
//! it fails (with what differed), 2 when the inputs are bad (the program or
//! test does not compile or load). `janus sim test DIR` runs every `X.p4`
//! that has an `X.stf` beside it and prints `N passed, N failed`.
//! `janus sim run` (in [`super::sim_run`]) runs captures through a program.

use clap::Subcommand;
use janus_engine::target::Target;
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
        #[command(flatten)]
        preprocess: super::p4::PreprocessArgs,
        /// Log each packet's path: parser states, table keys, hits,
        /// actions, and its fate (to stderr).
        #[arg(long)]
        trace: bool,
    },
    /// Run pcap/pcapng captures through a program; one pcap per output port.
    Run {
        /// The P4 program (v1model).
        program: PathBuf,
        /// `PORT=FILE`: inject the packets of FILE on ingress port PORT.
        #[arg(long = "in", value_name = "PORT=FILE", required = true,
              value_parser = super::sim_run::parse_input)]
        inputs: Vec<(u32, PathBuf)>,
        /// Where `portN.pcap` files are written.
        #[arg(long, value_name = "DIR")]
        out_dir: PathBuf,
        /// Table entries and other set-up, as STF control-plane commands.
        #[arg(long, value_name = "FILE")]
        entries: Option<PathBuf>,
        #[command(flatten)]
        preprocess: super::p4::PreprocessArgs,
        /// Log each packet's path: parser states, table keys, hits,
        /// actions, and its fate (to stderr).
        #[arg(long)]
        trace: bool,
        /// Pipelines to split the packets among by flow, each on a thread
        /// of its own with its own tables and state.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        workers: u16,
    },
}

/// How one test ended.
enum Verdict {
    Pass,
    Fail(String),
    BadInput(String),
}

impl SimCommand {
    /// Whether per-packet tracing was asked for.
    pub fn trace(&self) -> bool {
        match self {
            SimCommand::Test { trace, .. } | SimCommand::Run { trace, .. } => *trace,
        }
    }
}

pub fn run(cmd: SimCommand) -> ExitCode {
    match cmd {
        SimCommand::Run {
            program,
            inputs,
            out_dir,
            entries,
            preprocess,
            trace,
            workers,
        } => {
            let config = super::sim_run::RunConfig {
                program,
                inputs,
                out_dir,
                entries,
                workers: usize::from(workers),
                options: SimOptions {
                    compile: preprocess.options(),
                    trace,
                },
            };
            match super::sim_run::run(&config) {
                Ok(s) => {
                    println!("{} packets in, {} dropped", s.packets_in, s.dropped);
                    if s.truncated_in > 0 {
                        println!(
                            "{} input packets were captured short and ran as captured",
                            s.truncated_in
                        );
                    }
                    for (port, (count, path)) in &s.outputs {
                        println!("port {port}: {count} packets -> {}", path.display());
                    }
                    ExitCode::SUCCESS
                }
                Err(why) => {
                    eprintln!("error: {why}");
                    ExitCode::from(2)
                }
            }
        }
        SimCommand::Test {
            target,
            stf,
            preprocess,
            trace,
        } => {
            let opts = SimOptions {
                compile: preprocess.options(),
                trace,
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

fn run_one(program: &Path, stf_path: &Path, opts: &SimOptions) -> Verdict {
    let mut sw = match load_switch(program, opts) {
        Ok(sw) => sw,
        Err(why) => return Verdict::BadInput(why),
    };
    let stf = match read_stf(stf_path) {
        Ok(s) => s,
        Err(why) => return Verdict::BadInput(why),
    };
    match janus_stf::runner::run(sw.as_mut(), &stf) {
        Ok(report) if report.passed() => Verdict::Pass,
        Ok(report) => Verdict::Fail(report.failures.join("\n")),
        Err(e) => Verdict::BadInput(format!("{}: {e}", stf_path.display())),
    }
}

/// How programs are compiled and run.
pub struct SimOptions {
    pub compile: Options,
    /// Trace every packet (see `Target::set_trace`).
    pub trace: bool,
}

/// Compiles `program` (a P4 source, or a `.pipeline` file from
/// `janus p4 compile -o`) and loads it onto the architecture its `main`
/// package names; the error is
/// the rendered diagnostics or load failure.
pub fn load_switch(program: &Path, opts: &SimOptions) -> Result<Box<dyn Target>, String> {
    let c = if program.extension().is_some_and(|x| x == "pipeline") {
        let bytes = std::fs::read(program)
            .map_err(|e| format!("cannot read {}: {e}", program.display()))?;
        janus_p4::pipeline::Pipeline::from_bytes(&bytes)
            .and_then(|p| p.compile())
            .map_err(|e| format!("{}: {e}", program.display()))?
    } else {
        compile_file(program, &opts.compile)
            .map_err(|e| format!("cannot read {}: {e}", program.display()))?
    };
    if c.has_errors() {
        return Err(format!(
            "{} does not compile:\n{}",
            program.display(),
            c.render(false)
        ));
    }
    let ir =
        c.ir.ok_or_else(|| format!("{} does not compile", program.display()))?;
    // A refusal names its place in the program (`file:line:col: ...`).
    let mut sw = janus_targets::load(ir).map_err(|e| match e.location() {
        Some(_) => e.to_string(),
        None => format!("{}: {e}", program.display()),
    })?;
    sw.set_trace(opts.trace);
    Ok(sw)
}

/// Reads and parses an STF file; the error lists every syntax error.
pub fn read_stf(path: &Path) -> Result<janus_stf::Stf, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    janus_stf::parse(&text).map_err(|errors| {
        errors
            .iter()
            .map(|e| format!("{}: {e}", path.display()))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

fn run_dir(dir: &Path, opts: &SimOptions) -> ExitCode {
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
