//! A sweep's cases on a thread pool: every seed's ideal (`spray`) run
//! once, then every (scheme, seed) case, in parallel with rayon. Runs are
//! pure functions of their inputs and results are collected in case
//! order, so the output is the same whatever the number of threads.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::ReportError;
use crate::run::{RunConfig, RunOutcome, SchemeRun, Sweep};
use crate::schemes::Scheme;

/// Whether to draw a progress bar on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// A bar on stderr when it is a terminal, nothing otherwise.
    Auto,
    /// Never.
    Hidden,
}

/// How to run a sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParallelOptions {
    /// Worker threads; `None`: one per core.
    pub threads: Option<usize>,
    pub progress: Progress,
}

fn progress_bar(total: usize, progress: Progress) -> ProgressBar {
    if progress == Progress::Hidden || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} runs, {elapsed} elapsed, ETA {eta}")
    {
        bar.set_style(style);
    }
    bar
}

/// Runs `sweep` on `config`: outcomes in [`Sweep::cases`] order.
pub fn run_sweep(
    config: &RunConfig,
    sweep: &Sweep,
    options: ParallelOptions,
) -> Result<Vec<RunOutcome>, ReportError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = options.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder.build().map_err(|e| ReportError::Threads {
        threads: options.threads.unwrap_or(0),
        message: e.to_string(),
    })?;
    let cases = sweep.cases();
    let non_spray = cases.iter().filter(|(s, _)| *s != Scheme::Spray).count();
    let bar = progress_bar(sweep.seeds.len() + non_spray, options.progress);
    let result = pool.install(|| -> Result<Vec<RunOutcome>, ReportError> {
        let ideals: Vec<SchemeRun> = sweep
            .seeds
            .par_iter()
            .map(|&seed| {
                let r = config.ideal(seed);
                bar.inc(1);
                r
            })
            .collect::<Result<_, _>>()?;
        cases
            .par_iter()
            .map(|&(scheme, seed)| {
                let k = sweep.seeds.iter().position(|s| *s == seed).unwrap_or(0);
                let run = if scheme == Scheme::Spray {
                    ideals[k].clone()
                } else {
                    let r = config.simulate(scheme, seed)?;
                    bar.inc(1);
                    r
                };
                Ok(RunConfig::outcome(run, &ideals[k]))
            })
            .collect()
    });
    bar.finish_and_clear();
    result
}
