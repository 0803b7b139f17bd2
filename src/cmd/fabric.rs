//! `janus fabric run` and `janus fabric plan`: the fabric simulator
//! (janus-fabric) from the command line. The work is in the crate
//! (`janus_fabric::report`, `janus_fabric::export`); this module parses
//! the arguments and names the bad one on error (exit 2).

use clap::{Args, Subcommand, ValueEnum};
use janus_fabric::engine::LinkChange;
use janus_fabric::export;
use janus_fabric::report::{self, Summary, failures, parallel, table};
use janus_fabric::run::{RunConfig, Sweep};
use janus_fabric::schemes::Scheme;
use janus_fabric::topo::Topology;
use janus_fabric::traffic::Workload;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum FabricCommand {
    /// Run schemes x seeds on a fabric and write summary.json, runs.csv
    /// and SVG plots.
    Run(RunArgs),
    /// Export the controller's pinning plan as p4/roce_paths.p4 entries.
    Plan(PlanArgs),
}

#[derive(Args)]
pub struct RunArgs {
    /// The fabric: a spec (`leaf-spine:leaves=2,spines=8,hosts-per-leaf=8`)
    /// or a .json/.toml file.
    #[arg(long, value_name = "SPEC|FILE")]
    topo: String,
    /// The workload, e.g. `permutation:cross-leaf=true` or
    /// `allreduce:order=random`.
    #[arg(long, value_name = "SPEC")]
    traffic: String,
    /// Comma-separated schemes: ecmp, ecmp-qps<N>, flowlet, pinned,
    /// nic-pinned, spray.
    #[arg(long, value_name = "LIST")]
    schemes: String,
    /// Seeds 0..N.
    #[arg(long, value_name = "N", default_value_t = 10, conflicts_with = "seed")]
    seeds: u64,
    /// One seed only.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// A failure during the run: `link:A-B@T` (a cable, by node names) or
    /// `spine:N@T`; T in seconds or with s, ms, us. Repeatable.
    #[arg(long = "fail", value_name = "SPEC")]
    fail: Vec<String>,
    /// Time from a failure to the routers seeing it (default 10ms).
    #[arg(long, value_name = "TIME")]
    reroute_delay: Option<String>,
    /// RoCE retransmission timeout (default about 67ms).
    #[arg(long, value_name = "TIME")]
    rto: Option<String>,
    /// Worker threads (default: one per core); results do not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// The folder for summary.json, runs.csv and the plots.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

#[derive(Clone, Copy, ValueEnum)]
enum PlanFormat {
    /// `add` lines for `janus ctrl table add --file` / `janus sim run --entries`.
    Entries,
    /// Every flow's numbers, path and pin.
    Json,
}

#[derive(Args)]
pub struct PlanArgs {
    /// A fabric of Janus NICs: two tiers, 4 spines, 1 or 2 NICs per host.
    #[arg(long, value_name = "SPEC|FILE")]
    topo: String,
    #[arg(long, value_name = "SPEC")]
    traffic: String,
    /// The seed of the workload and of the QP numbers.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// The output file.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    out: PathBuf,
    #[arg(long, value_enum, default_value_t = PlanFormat::Entries)]
    format: PlanFormat,
}

pub fn run(cmd: FabricCommand) -> ExitCode {
    let result = match cmd {
        FabricCommand::Run(args) => fabric_run(&args),
        FabricCommand::Plan(args) => fabric_plan(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The topology and traffic, both checked (the traffic against seed 0).
fn config(topo_arg: &str, traffic: &str) -> Result<RunConfig, String> {
    let topo = Topology::from_arg(topo_arg).map_err(|e| format!("--topo: {e}"))?;
    let config = RunConfig::new(topo, traffic).map_err(|e| format!("--traffic: {e}"))?;
    Workload::build(&config.traffic, &config.topo, 0).map_err(|e| format!("--traffic: {e}"))?;
    Ok(config)
}

fn time(option: &str, text: &str) -> Result<f64, String> {
    failures::parse_time(text)
        .ok_or_else(|| format!("{option} \"{text}\" is not a time (seconds, or with s, ms, us)"))
}

fn fabric_run(args: &RunArgs) -> Result<(), String> {
    let mut config = config(&args.topo, &args.traffic)?;
    let schemes = Scheme::parse_list(&args.schemes).map_err(|e| format!("--schemes: {e}"))?;
    let mut changes: Vec<LinkChange> = Vec::new();
    for f in &args.fail {
        changes.extend(failures::parse_failure(f, &config.topo).map_err(|e| e.to_string())?);
    }
    config.engine.link_changes = changes;
    if let Some(t) = &args.reroute_delay {
        config.engine.reroute_delay = time("--reroute-delay", t)?;
    }
    if let Some(t) = &args.rto {
        config.engine.rto = time("--rto", t)?;
    }
    if args.threads == Some(0) {
        return Err("--threads 0: give at least 1".into());
    }
    let seeds: Vec<u64> = match args.seed {
        Some(s) => vec![s],
        None => (0..args.seeds).collect(),
    };
    if seeds.is_empty() {
        return Err("--seeds 0: give at least 1".into());
    }
    let sweep = Sweep {
        schemes: schemes.clone(),
        seeds: seeds.clone(),
    };
    let options = parallel::ParallelOptions {
        threads: args.threads,
        progress: parallel::Progress::Auto,
    };
    let outcomes = parallel::run_sweep(&config, &sweep, options).map_err(|e| e.to_string())?;
    let summary = Summary::new(&args.topo, &args.traffic, &schemes, &seeds, &outcomes);
    print!("{}", table::render(&summary));
    report::write_outputs(&args.out, &summary, &outcomes).map_err(|e| e.to_string())?;
    println!("wrote {}", args.out.display());
    Ok(())
}

fn fabric_plan(args: &PlanArgs) -> Result<(), String> {
    let config = config(&args.topo, &args.traffic)?;
    let plan =
        export::pin_plan(&config, &args.topo, args.seed).map_err(|e| format!("--topo: {e}"))?;
    let text = match args.format {
        PlanFormat::Entries => plan.to_entries(),
        PlanFormat::Json => plan.to_json(),
    };
    std::fs::write(&args.out, text)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!(
        "{} flows pinned ({} within one leaf, no entry): {}",
        plan.flows.len(),
        plan.same_leaf_flows,
        args.out.display()
    );
    Ok(())
}
