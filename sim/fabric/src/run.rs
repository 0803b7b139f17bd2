//! One run, and sweeps of runs: a topology (with its failures), a traffic
//! spec and a seed (the workload), a scheme and an engine configuration
//! give a [`RunOutcome`]: per job completion, the makespan, the same run
//! under `spray` (the ideal) and the ratio to it, per-flow throughput
//! (and its ratio to the ideal's), per-link utilisation and the scheme's
//! diagnostics.
//!
//! Everything here is a pure function of its inputs: [`RunConfig`] is
//! `Send + Sync`, so a caller may run [`RunConfig::run_one`] (or
//! [`RunConfig::simulate`] and [`RunConfig::outcome`], to share one ideal
//! run between schemes) on as many threads as it likes. [`Sweep::run`]
//! runs schemes x seeds on the calling thread, in a fixed order.

use thiserror::Error;

use crate::engine::{self, EngineConfig, EngineError, Network, RunResult};
use crate::flow::{Endpoint, JobTraffic};
use crate::schemes::{Diagnostics, RouterContext, Scheme, SchemeOptions};
use crate::spec::{Spec, SpecError};
use crate::topo::Topology;
use crate::traffic::Workload;

/// Why a run could not be made.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RunError {
    /// The traffic spec does not fit the topology, or is bad.
    #[error(transparent)]
    Traffic(#[from] SpecError),
    /// A transfer between endpoints the (failed) fabric does not connect.
    #[error("job {job}: endpoint {src} cannot reach endpoint {dst} (failures cut every path)")]
    Unreachable { job: String, src: u32, dst: u32 },
    /// The engine refused the run or could not finish it.
    #[error("{scheme}, seed {seed}: {source}")]
    Engine {
        scheme: Scheme,
        seed: u64,
        source: EngineError,
    },
}

/// What every run of a sweep shares.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The fabric, its static failures applied.
    pub topo: Topology,
    /// The `--traffic` spec.
    pub traffic: Spec,
    /// The engine's parameters (link changes, reroute delay, RTO, ...);
    /// `flowlet` sets `rebalance_period` when it is unset.
    pub engine: EngineConfig,
    pub schemes: SchemeOptions,
}

/// One scheme's engine run, before it is compared with the ideal.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemeRun {
    pub scheme: Scheme,
    pub seed: u64,
    pub result: RunResult,
    pub diagnostics: Diagnostics,
}

/// One job's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct JobOutcome {
    pub name: String,
    /// Completion time (s).
    pub completion: f64,
    /// Completion time under `spray` (s).
    pub ideal: f64,
    /// `completion / ideal`.
    pub ratio: f64,
}

/// Per-flow throughput (Gbit/s) over the flows (queue pairs of
/// transfers, summed over repetitions) that moved bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Throughput {
    pub flows: usize,
    pub mean: f64,
    pub min: f64,
    pub p5: f64,
    pub p50: f64,
    pub max: f64,
}

/// Link utilisation over the links that carried bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Utilisation {
    pub links_used: usize,
    pub mean: f64,
    pub max: f64,
}

/// What one run (scheme, seed) measured.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    pub scheme: Scheme,
    pub seed: u64,
    pub jobs: Vec<JobOutcome>,
    /// When the last job ended (s).
    pub makespan: f64,
    /// The makespan under `spray` (s).
    pub ideal_makespan: f64,
    /// `makespan / ideal_makespan`.
    pub ratio: f64,
    pub throughput: Throughput,
    /// Per-transfer throughput (Gbit/s): a transfer's queue pairs
    /// together (bytes over the longest queue pair's busy time), as
    /// ib_write_bw reports a flow of `-q N` QPs; equal to `throughput`
    /// with one QP per transfer.
    pub transfer_throughput: Throughput,
    /// Mean per-transfer throughput under `spray` (Gbit/s).
    pub ideal_mean_throughput: f64,
    /// `transfer_throughput.mean / ideal_mean_throughput`: the share of
    /// the ideal per-flow throughput the scheme gets (1 at best; the
    /// aggregate bandwidth ratio when every transfer moves the same bytes).
    pub throughput_ratio: f64,
    /// Utilisation of every link, indexed by `LinkId`.
    pub link_utilisation: Vec<f64>,
    pub utilisation: Utilisation,
    pub diagnostics: Diagnostics,
    /// Engine events and repetitions skipped by fast-forward.
    pub events: u64,
    pub skipped_repetitions: u64,
}

impl RunConfig {
    /// A configuration from a topology and a `--traffic` spec, with the
    /// default engine and scheme options.
    pub fn new(topo: Topology, traffic: &str) -> Result<RunConfig, RunError> {
        Ok(RunConfig {
            topo,
            traffic: Spec::parse(traffic)?,
            engine: EngineConfig::default(),
            schemes: SchemeOptions::default(),
        })
    }

    /// The workload of `seed` as `scheme` plays it (its queue pairs
    /// overridden if the scheme does), checked for reachability.
    pub fn jobs(&self, scheme: Scheme, seed: u64) -> Result<Vec<JobTraffic>, RunError> {
        let mut jobs = Workload::build(&self.traffic, &self.topo, seed)?.jobs;
        for job in &mut jobs {
            for t in job.phases.iter_mut().flat_map(|p| p.transfers.iter_mut()) {
                if let Some(q) = scheme.qps_override() {
                    t.qps = q;
                }
                if !self.topo.reachable(t.src, t.dst) {
                    return Err(unreachable(&job.name, t.src, t.dst));
                }
            }
        }
        Ok(jobs)
    }

    /// Plays `seed`'s workload under `scheme` alone.
    pub fn simulate(&self, scheme: Scheme, seed: u64) -> Result<SchemeRun, RunError> {
        let jobs = self.jobs(scheme, seed)?;
        let engine_error = |source| RunError::Engine {
            scheme,
            seed,
            source,
        };
        let net = Network::new(self.topo.capacities_bytes_per_s()).map_err(engine_error)?;
        let ctx = RouterContext {
            topo: &self.topo,
            net: &net,
            jobs: &jobs,
            seed,
            options: self.schemes,
        };
        let mut router = scheme.router(&ctx);
        let mut config = self.engine.clone();
        if scheme == Scheme::Flowlet && config.rebalance_period.is_none() {
            config.rebalance_period = Some(self.schemes.flowlet_period);
        }
        let result = engine::run(&net, &jobs, &mut *router, &config).map_err(engine_error)?;
        Ok(SchemeRun {
            scheme,
            seed,
            result,
            diagnostics: router.diagnostics(),
        })
    }

    /// The ideal of `seed`: its workload under `spray`.
    pub fn ideal(&self, seed: u64) -> Result<SchemeRun, RunError> {
        self.simulate(Scheme::Spray, seed)
    }

    /// Plays `seed` under `scheme` and under `spray`, and compares.
    pub fn run_one(&self, scheme: Scheme, seed: u64) -> Result<RunOutcome, RunError> {
        let run = self.simulate(scheme, seed)?;
        let ideal = if scheme == Scheme::Spray {
            run.clone()
        } else {
            self.ideal(seed)?
        };
        Ok(Self::outcome(run, &ideal))
    }

    /// Compares a scheme's run with the ideal run of the same seed.
    pub fn outcome(run: SchemeRun, ideal: &SchemeRun) -> RunOutcome {
        let r = &run.result;
        let jobs = r
            .jobs
            .iter()
            .zip(&ideal.result.jobs)
            .map(|(j, i)| JobOutcome {
                name: j.name.clone(),
                completion: j.completion,
                ideal: i.completion,
                ratio: ratio(j.completion, i.completion),
            })
            .collect();
        let link_utilisation: Vec<f64> = r.links.iter().map(|l| l.utilisation).collect();
        let (own, best) = (transfer_throughput(r), transfer_throughput(&ideal.result));
        RunOutcome {
            scheme: run.scheme,
            seed: run.seed,
            jobs,
            makespan: r.makespan,
            ideal_makespan: ideal.result.makespan,
            ratio: ratio(r.makespan, ideal.result.makespan),
            throughput: throughput(r),
            transfer_throughput: own,
            ideal_mean_throughput: best.mean,
            throughput_ratio: ratio(own.mean, best.mean),
            utilisation: utilisation(r),
            link_utilisation,
            diagnostics: run.diagnostics,
            events: r.events,
            skipped_repetitions: r.skipped_repetitions,
        }
    }
}

fn unreachable(job: &str, src: Endpoint, dst: Endpoint) -> RunError {
    RunError::Unreachable {
        job: job.to_string(),
        src: src.0,
        dst: dst.0,
    }
}

/// `a / b`, 1 when both are 0 (nothing to do takes no time either way).
fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else if a > 0.0 {
        f64::INFINITY
    } else {
        1.0
    }
}

/// The `q`-quantile of sorted values (nearest rank).
pub(crate) fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn throughput(r: &RunResult) -> Throughput {
    let gbps: Vec<f64> = r
        .flows
        .iter()
        .filter(|f| f.bytes > 0.0)
        .map(|f| f.throughput() * 8.0 / 1e9)
        .collect();
    summarise(gbps)
}

/// Throughput per transfer: the flows of one (job, phase, transfer) are
/// consecutive in `r.flows`; their bytes over the longest busy time.
fn transfer_throughput(r: &RunResult) -> Throughput {
    let mut gbps = Vec::new();
    for group in r
        .flows
        .chunk_by(|a, b| (a.job, a.phase, a.transfer) == (b.job, b.phase, b.transfer))
    {
        let bytes: f64 = group.iter().map(|f| f.bytes).sum();
        let busy = group.iter().map(|f| f.busy).fold(0.0, f64::max);
        if bytes > 0.0 && busy > 0.0 {
            gbps.push(bytes / busy * 8.0 / 1e9);
        }
    }
    summarise(gbps)
}

fn summarise(mut gbps: Vec<f64>) -> Throughput {
    gbps.sort_by(f64::total_cmp);
    if gbps.is_empty() {
        return Throughput::default();
    }
    Throughput {
        flows: gbps.len(),
        mean: gbps.iter().sum::<f64>() / gbps.len() as f64,
        min: gbps[0],
        p5: quantile(&gbps, 0.05),
        p50: quantile(&gbps, 0.5),
        max: gbps[gbps.len() - 1],
    }
}

fn utilisation(r: &RunResult) -> Utilisation {
    let used: Vec<f64> = r
        .links
        .iter()
        .filter(|l| l.bytes > 0.0)
        .map(|l| l.utilisation)
        .collect();
    if used.is_empty() {
        return Utilisation::default();
    }
    Utilisation {
        links_used: used.len(),
        mean: used.iter().sum::<f64>() / used.len() as f64,
        max: used.iter().copied().fold(0.0, f64::max),
    }
}

/// Schemes x seeds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sweep {
    pub schemes: Vec<Scheme>,
    pub seeds: Vec<u64>,
}

impl Sweep {
    /// The (scheme, seed) cases, in the order [`Sweep::run`] returns
    /// them: scheme by scheme, each over the seeds in order.
    pub fn cases(&self) -> Vec<(Scheme, u64)> {
        self.schemes
            .iter()
            .flat_map(|s| self.seeds.iter().map(move |seed| (*s, *seed)))
            .collect()
    }

    /// Runs every case, each seed's ideal once.
    pub fn run(&self, config: &RunConfig) -> Result<Vec<RunOutcome>, RunError> {
        let ideals = self
            .seeds
            .iter()
            .map(|&seed| config.ideal(seed))
            .collect::<Result<Vec<_>, _>>()?;
        self.cases()
            .into_iter()
            .map(|(scheme, seed)| {
                let k = self.seeds.iter().position(|s| *s == seed).unwrap_or(0);
                let run = if scheme == Scheme::Spray {
                    ideals[k].clone()
                } else {
                    config.simulate(scheme, seed)?
                };
                Ok(RunConfig::outcome(run, &ideals[k]))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_config_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<RunConfig>();
        check::<RunOutcome>();
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.5), 2.0);
        assert_eq!(quantile(&v, 0.05), 1.0);
        assert_eq!(quantile(&v, 1.0), 4.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }
}
