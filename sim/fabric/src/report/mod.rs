//! What `janus fabric run` does beyond one run: the (scheme, seed) cases
//! on a thread pool with a progress bar ([`parallel`]), the per-scheme
//! summary ([`Summary`]), and the outputs: the printed table ([`table`]),
//! `summary.json`, `runs.csv` ([`csv`]) and SVG plots ([`plots`]).
//! [`failures`] parses `--fail`. docs/fabric.md, "Command line" and
//! "Outputs", describe the files.

pub mod csv;
pub mod failures;
pub mod parallel;
pub mod plots;
pub mod table;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::run::{RunError, RunOutcome, quantile};
use crate::schemes::Scheme;

/// Why a report could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A run failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A file could not be written.
    #[error("cannot write {path}: {message}")]
    Write { path: PathBuf, message: String },
    /// The thread pool could not be started.
    #[error("cannot start {threads} worker threads: {message}")]
    Threads { threads: usize, message: String },
}

impl ReportError {
    pub(crate) fn write(path: &Path, message: impl ToString) -> ReportError {
        ReportError::Write {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }
}

/// One scheme's results over the seeds (`summary.json`'s `schemes[]`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SchemeSummary {
    /// The scheme's name, as `--schemes` takes it.
    pub scheme: String,
    /// Runs (seeds).
    pub runs: usize,
    /// Completion time (makespan) over the seeds, seconds: mean, median
    /// and 95th percentile (nearest rank), min and max.
    pub mean_s: f64,
    pub p50_s: f64,
    pub p95_s: f64,
    pub min_s: f64,
    pub max_s: f64,
    /// Mean over the seeds of the makespan over `spray`'s.
    pub mean_ratio_to_ideal: f64,
    /// Mean over the seeds of the mean per-flow throughput, Gbit/s; a
    /// flow is one transfer, its queue pairs together (as ib_write_bw
    /// reports it).
    pub mean_flow_gbps: f64,
    /// Mean over the seeds of the 5th-percentile flow's throughput, Gbit/s.
    pub p5_flow_gbps: f64,
    /// Mean over the seeds of the mean per-flow throughput over `spray`'s.
    pub mean_throughput_ratio_to_ideal: f64,
    /// The highest link utilisation of any run.
    pub max_link_utilisation: f64,
}

/// What `summary.json` holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// `--topo` and `--traffic` as given.
    pub topo: String,
    pub traffic: String,
    pub seeds: Vec<u64>,
    /// One entry per scheme, in `--schemes` order.
    pub schemes: Vec<SchemeSummary>,
}

fn mean(v: impl ExactSizeIterator<Item = f64>) -> f64 {
    let n = v.len();
    if n == 0 {
        0.0
    } else {
        v.sum::<f64>() / n as f64
    }
}

impl SchemeSummary {
    /// Summarises `runs` (one scheme's, one per seed).
    pub fn of(scheme: Scheme, runs: &[&RunOutcome]) -> SchemeSummary {
        let mut times: Vec<f64> = runs.iter().map(|r| r.makespan).collect();
        times.sort_by(f64::total_cmp);
        SchemeSummary {
            scheme: scheme.to_string(),
            runs: runs.len(),
            mean_s: mean(times.iter().copied()),
            p50_s: quantile(&times, 0.5),
            p95_s: quantile(&times, 0.95),
            min_s: times.first().copied().unwrap_or(0.0),
            max_s: times.last().copied().unwrap_or(0.0),
            mean_ratio_to_ideal: mean(runs.iter().map(|r| r.ratio)),
            mean_flow_gbps: mean(runs.iter().map(|r| r.transfer_throughput.mean)),
            p5_flow_gbps: mean(runs.iter().map(|r| r.transfer_throughput.p5)),
            mean_throughput_ratio_to_ideal: mean(runs.iter().map(|r| r.throughput_ratio)),
            max_link_utilisation: runs.iter().map(|r| r.utilisation.max).fold(0.0, f64::max),
        }
    }
}

impl Summary {
    /// Summarises a sweep's outcomes scheme by scheme, in `schemes` order.
    pub fn new(
        topo: &str,
        traffic: &str,
        schemes: &[Scheme],
        seeds: &[u64],
        outcomes: &[RunOutcome],
    ) -> Summary {
        Summary {
            topo: topo.to_string(),
            traffic: traffic.to_string(),
            seeds: seeds.to_vec(),
            schemes: schemes
                .iter()
                .map(|&s| {
                    let runs: Vec<&RunOutcome> =
                        outcomes.iter().filter(|o| o.scheme == s).collect();
                    SchemeSummary::of(s, &runs)
                })
                .collect(),
        }
    }

    /// `summary.json`: pretty-printed, fields in a fixed order.
    pub fn to_json(&self) -> String {
        // Serialising plain numbers and strings cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

/// The files [`write_outputs`] writes into its directory.
pub const SUMMARY_JSON: &str = "summary.json";
pub const RUNS_CSV: &str = "runs.csv";
pub const COMPLETION_SVG: &str = "completion.svg";
pub const UTILISATION_SVG: &str = "utilisation.svg";

/// Writes `summary.json`, `runs.csv` and the two plots into `dir`
/// (created if missing).
pub fn write_outputs(
    dir: &Path,
    summary: &Summary,
    outcomes: &[RunOutcome],
) -> Result<(), ReportError> {
    std::fs::create_dir_all(dir).map_err(|e| ReportError::write(dir, e))?;
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| ReportError::write(&path, e))
    };
    write(SUMMARY_JSON, summary.to_json())?;
    write(RUNS_CSV, csv::runs_csv(outcomes))?;
    write(
        COMPLETION_SVG,
        plots::completion_cdf(summary, outcomes)
            .map_err(|e| ReportError::write(&dir.join(COMPLETION_SVG), e))?,
    )?;
    write(
        UTILISATION_SVG,
        plots::utilisation_histogram(summary, outcomes)
            .map_err(|e| ReportError::write(&dir.join(UTILISATION_SVG), e))?,
    )?;
    Ok(())
}
