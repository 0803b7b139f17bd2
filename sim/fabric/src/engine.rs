//! The flow-level simulation of a workload on a fabric.
//!
//! Jobs run at the same time, each through its phases in order; a phase's
//! transfers all start when the phase (or one repetition of it) starts, each
//! split into `qps` flows of `bytes / qps`, and the repetition ends when all
//! its flows are done. Flows share links max-min fairly ([`Solver`]); the
//! engine jumps from event to event (a flow ends, a link fails or comes
//! back, a stalled flow retransmits, a rebalance tick).
//!
//! Fast-forward: when a repetition ran with no event other than its own
//! job's flows ending, and the next repetition gets the same routes, every
//! following repetition takes the same time until something else happens;
//! the engine skips them in one step, up to the next scheduled event or
//! the point where another job's flow would end.
//!
//! Failures: a flow whose path loses a link stalls at once. The routers
//! see a link's state change only `reroute_delay` after it happens; a
//! stalled flow retransmits on its RoCE timer (every `rto` after it
//! stalled) and resumes at the first timer expiry at which its router
//! gives it a path that is up. See docs/fabric.md, "Failures".

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use thiserror::Error;

use crate::flow::{Endpoint, JobTraffic, LinkId};
use crate::solver::{ClassId, Solver, SolverError};

pub use crate::solver::Route;

/// Errors of a run: bad inputs, a route the network does not have, a run
/// that cannot finish.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum EngineError {
    #[error(transparent)]
    Solver(#[from] SolverError),
    #[error("job {job} phase {phase} transfer {transfer}: qps must be at least 1")]
    ZeroQps { job: u32, phase: u32, transfer: u32 },
    #[error("flow {key:?}: the router gave link {link}, the network has {links} links")]
    BadRoute {
        key: FlowKey,
        link: u32,
        links: usize,
    },
    #[error("link change at {at} s on link {link}: {reason}")]
    BadLinkChange {
        at: f64,
        link: u32,
        reason: &'static str,
    },
    #[error("bad engine config: {0}")]
    BadConfig(&'static str),
    #[error("rebalance moved flow {index}, only {flows} flows are active")]
    BadRebalance { index: usize, flows: usize },
    #[error("run stuck at {time} s: {stalled} flows cannot make progress and nothing is scheduled")]
    Stuck { time: f64, stalled: usize },
    #[error("run passed the time limit of {limit} s")]
    TimeLimit { limit: f64 },
    #[error("run passed the limit of {limit} events")]
    EventLimit { limit: u64 },
}

/// The links of a fabric as the routers see them: capacities (bytes/s,
/// indexed by `LinkId`) and whether each link is up.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    capacity: Vec<f64>,
    live: Vec<bool>,
}

impl Network {
    /// A network whose links are all up.
    pub fn new(capacity: Vec<f64>) -> Result<Network, EngineError> {
        for (i, &c) in capacity.iter().enumerate() {
            if !(c.is_finite() && c >= 0.0) {
                return Err(SolverError::BadCapacity {
                    link: i as u32,
                    value: c,
                }
                .into());
            }
        }
        let live = vec![true; capacity.len()];
        Ok(Network { capacity, live })
    }

    /// The number of links.
    pub fn links(&self) -> usize {
        self.capacity.len()
    }

    /// A link's capacity (bytes/s); 0 for an unknown link.
    pub fn capacity(&self, link: LinkId) -> f64 {
        self.capacity.get(link.0 as usize).copied().unwrap_or(0.0)
    }

    /// Whether a link is up; false for an unknown link.
    pub fn is_live(&self, link: LinkId) -> bool {
        self.live.get(link.0 as usize).copied().unwrap_or(false)
    }

    /// Whether every link of every weighted path of `route` is up.
    pub fn route_is_live(&self, route: &Route) -> bool {
        route
            .paths()
            .iter()
            .filter(|(_, w)| *w > 0)
            .all(|(p, _)| p.iter().all(|&l| self.is_live(l)))
    }

    /// This network with `links` down, as a router would see it after
    /// their failure (for tests and what-if planning); unknown links are
    /// ignored.
    pub fn with_down(mut self, links: &[LinkId]) -> Network {
        for l in links {
            if let Some(live) = self.live.get_mut(l.0 as usize) {
                *live = false;
            }
        }
        self
    }

    fn set_live(&mut self, link: LinkId, state: LinkState) {
        self.live[link.0 as usize] = state == LinkState::Up;
    }
}

/// What identifies a flow: job, phase, repetition, transfer and queue pair
/// (all indices), and its endpoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FlowKey {
    pub job: u32,
    pub phase: u32,
    pub repetition: u32,
    pub transfer: u32,
    pub qp: u32,
    pub src: Endpoint,
    pub dst: Endpoint,
}

/// An active flow as a [`Router::rebalance`] sees it.
#[derive(Clone, Copy, Debug)]
pub struct FlowView<'a> {
    pub key: &'a FlowKey,
    pub route: &'a Route,
    /// Current rate (bytes/s); 0 while stalled.
    pub rate: f64,
    /// Bytes left.
    pub remaining: f64,
}

/// A path-selection scheme.
///
/// The engine assumes that a router which gives the same routes to two
/// consecutive repetitions of a phase keeps doing so while nothing else
/// changes (that is what lets it fast-forward repetitions).
pub trait Router {
    /// The route of a flow, when it starts and when it retransmits after a
    /// failure stalled it. `net` is the routers' view of the links.
    fn route(&mut self, flow: &FlowKey, net: &Network) -> Route;

    /// Called every `rebalance_period` (if set) with the active flows;
    /// returns flows to move (index into `flows`) and their new routes.
    /// A moved flow changes path without stalling (a flowlet boundary).
    fn rebalance(
        &mut self,
        _now: f64,
        _flows: &[FlowView<'_>],
        _net: &Network,
    ) -> Vec<(usize, Route)> {
        Vec::new()
    }
}

/// A link's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkState {
    Up,
    Down,
}

/// A scheduled change of a link's state (a switch failure is the changes
/// of all its links).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkChange {
    /// When (s).
    pub at: f64,
    pub link: LinkId,
    pub state: LinkState,
}

/// Whether the engine skips repetitions whose state repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastForward {
    On,
    /// Step through every repetition (the reference for tests).
    Off,
}

/// The run's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// Time (s) from a link's change to the routers seeing it.
    pub reroute_delay: f64,
    /// RoCE retransmission timeout (s): a stalled flow retries every `rto`.
    pub rto: f64,
    /// Link failures and repairs.
    pub link_changes: Vec<LinkChange>,
    /// Period (s) of [`Router::rebalance`] calls; `None`: never.
    pub rebalance_period: Option<f64>,
    /// The run fails past this simulated time (s).
    pub max_time: f64,
    /// The run fails past this many events.
    pub max_events: u64,
    pub fast_forward: FastForward,
}

impl Default for EngineConfig {
    /// A 10 ms reroute delay; the RTO of a local ACK timeout exponent of
    /// 14 (4.096 us x 2^14, about 67 ms, perftest's default); no failures;
    /// a day of simulated time, 100 million events.
    fn default() -> Self {
        EngineConfig {
            reroute_delay: 0.010,
            rto: 4.096e-6 * f64::from(1u32 << 14),
            link_changes: Vec::new(),
            rebalance_period: None,
            max_time: 86_400.0,
            max_events: 100_000_000,
            fast_forward: FastForward::On,
        }
    }
}

/// What a run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// Per job, in input order.
    pub jobs: Vec<JobResult>,
    /// Per job, phase, transfer and queue pair (in that order), summed over
    /// the repetitions.
    pub flows: Vec<FlowStats>,
    /// Per link, indexed by `LinkId`.
    pub links: Vec<LinkStats>,
    /// When the last job ended (s).
    pub makespan: f64,
    /// Events simulated.
    pub events: u64,
    /// Repetitions skipped by fast-forward.
    pub skipped_repetitions: u64,
}

/// One job's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct JobResult {
    pub name: String,
    /// When its last phase ended (s from the start of the run).
    pub completion: f64,
}

/// One queue pair of one transfer, over all the repetitions of its phase.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowStats {
    pub job: u32,
    pub phase: u32,
    pub transfer: u32,
    pub qp: u32,
    pub src: Endpoint,
    pub dst: Endpoint,
    /// Bytes moved.
    pub bytes: f64,
    /// Sum of the flows' durations, start to end, stalls included (s).
    pub busy: f64,
    pub repetitions: u64,
}

impl FlowStats {
    /// Mean throughput while active (bytes/s); 0 if it never ran.
    pub fn throughput(&self) -> f64 {
        if self.busy > 0.0 {
            self.bytes / self.busy
        } else {
            0.0
        }
    }
}

/// One link over the run.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkStats {
    /// Bytes carried.
    pub bytes: f64,
    /// Bytes carried over capacity x makespan.
    pub utilisation: f64,
}

/// Plays `jobs` on `net` with `router` choosing the paths.
pub fn run(
    net: &Network,
    jobs: &[JobTraffic],
    router: &mut dyn Router,
    config: &EngineConfig,
) -> Result<RunResult, EngineError> {
    Sim::new(net, jobs, router, config)?.run()
}

/// A flow in progress.
#[derive(Clone, Debug)]
struct Flow {
    serial: u64,
    key: FlowKey,
    stat: usize,
    route: Route,
    /// `None` while stalled.
    class: Option<ClassId>,
    bytes: f64,
    rem: f64,
    /// `rem` when the current route started carrying it.
    seg_rem: f64,
    rate: f64,
    start: f64,
    stall: Option<Stall>,
}

#[derive(Clone, Copy, Debug)]
struct Stall {
    since: f64,
    retry_at: Option<f64>,
}

/// A job's progress.
#[derive(Clone, Debug, Default)]
struct JobState {
    phase: usize,
    rep: u32,
    active: usize,
    rep_start: f64,
    /// No event but this job's own flows ending since `rep_start`.
    clean: bool,
    /// Routes of the current repetition's flows, in creation order.
    routes: Vec<Route>,
    /// Other jobs' flows (serial, bytes left) when the repetition started.
    others: Vec<(u64, f64)>,
    done: Option<f64>,
}

/// A repetition that may be followed by a jump.
struct Candidate {
    job: usize,
    duration: f64,
    others: Vec<(u64, f64)>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Scheduled {
    Link(LinkId, LinkState),
    View(LinkId, LinkState),
    Retry,
    Rebalance,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    at: f64,
    seq: u64,
    what: Scheduled,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.at.total_cmp(&self.at).then(other.seq.cmp(&self.seq))
    }
}

/// Relative tolerance under which a flow counts as done.
const DONE: f64 = 1e-9;

struct Sim<'a> {
    jobs: &'a [JobTraffic],
    router: &'a mut dyn Router,
    config: &'a EngineConfig,
    /// The routers' view.
    view: Network,
    /// The links' real state.
    phys: Network,
    solver: Solver,
    flows: Vec<Flow>,
    state: Vec<JobState>,
    /// Per job, per phase: index of its first transfer's first QP in `stats`.
    stat_base: Vec<Vec<usize>>,
    stats: Vec<FlowStats>,
    /// Per stat: bytes of one flow, duration of its last repetition.
    stat_bytes: Vec<f64>,
    last_duration: Vec<f64>,
    link_bytes: Vec<f64>,
    queue: BinaryHeap<Entry>,
    seq: u64,
    serial: u64,
    now: f64,
    events: u64,
    skipped: u64,
    candidates: Vec<Candidate>,
}

impl<'a> Sim<'a> {
    fn new(
        net: &Network,
        jobs: &'a [JobTraffic],
        router: &'a mut dyn Router,
        config: &'a EngineConfig,
    ) -> Result<Sim<'a>, EngineError> {
        if !(config.rto.is_finite() && config.rto > 0.0) {
            return Err(EngineError::BadConfig("rto must be positive and finite"));
        }
        if !(config.reroute_delay.is_finite() && config.reroute_delay >= 0.0) {
            return Err(EngineError::BadConfig(
                "reroute_delay must be non-negative and finite",
            ));
        }
        if let Some(p) = config.rebalance_period
            && !(p.is_finite() && p > 0.0)
        {
            return Err(EngineError::BadConfig(
                "rebalance_period must be positive and finite",
            ));
        }
        let mut stat_base = Vec::with_capacity(jobs.len());
        let mut stats = Vec::new();
        let mut stat_bytes = Vec::new();
        for (j, job) in jobs.iter().enumerate() {
            let mut bases = Vec::with_capacity(job.phases.len());
            for (p, phase) in job.phases.iter().enumerate() {
                bases.push(stats.len());
                for (t, tr) in phase.transfers.iter().enumerate() {
                    if tr.qps == 0 {
                        return Err(EngineError::ZeroQps {
                            job: j as u32,
                            phase: p as u32,
                            transfer: t as u32,
                        });
                    }
                    for q in 0..tr.qps {
                        stats.push(FlowStats {
                            job: j as u32,
                            phase: p as u32,
                            transfer: t as u32,
                            qp: q,
                            src: tr.src,
                            dst: tr.dst,
                            bytes: 0.0,
                            busy: 0.0,
                            repetitions: 0,
                        });
                        stat_bytes.push(tr.bytes as f64 / f64::from(tr.qps));
                    }
                }
            }
            stat_base.push(bases);
        }
        let mut queue = BinaryHeap::new();
        let mut seq = 0;
        for c in &config.link_changes {
            if c.link.0 as usize >= net.links() {
                return Err(EngineError::BadLinkChange {
                    at: c.at,
                    link: c.link.0,
                    reason: "no such link",
                });
            }
            if !(c.at.is_finite() && c.at >= 0.0) {
                return Err(EngineError::BadLinkChange {
                    at: c.at,
                    link: c.link.0,
                    reason: "time must be non-negative and finite",
                });
            }
            queue.push(Entry {
                at: c.at,
                seq,
                what: Scheduled::Link(c.link, c.state),
            });
            seq += 1;
        }
        if let Some(p) = config.rebalance_period {
            queue.push(Entry {
                at: p,
                seq,
                what: Scheduled::Rebalance,
            });
            seq += 1;
        }
        let n = stats.len();
        Ok(Sim {
            jobs,
            router,
            config,
            view: net.clone(),
            phys: net.clone(),
            solver: Solver::new(net.capacity.clone())?,
            flows: Vec::new(),
            state: vec![JobState::default(); jobs.len()],
            stat_base,
            stats,
            stat_bytes,
            last_duration: vec![0.0; n],
            link_bytes: vec![0.0; net.links()],
            queue,
            seq,
            serial: 0,
            now: 0.0,
            events: 0,
            skipped: 0,
            candidates: Vec::new(),
        })
    }

    fn run(mut self) -> Result<RunResult, EngineError> {
        for j in 0..self.jobs.len() {
            self.enter_phase(j)?;
        }
        self.boundaries()?;
        while self.state.iter().any(|s| s.done.is_none()) {
            self.solver.solve();
            for f in &mut self.flows {
                f.rate = f.class.map_or(0.0, |c| self.solver.rate(c));
            }
            let next_finish = self
                .flows
                .iter()
                .filter(|f| f.rate > 0.0)
                .map(|f| self.now + f.rem / f.rate)
                .fold(f64::INFINITY, f64::min);
            let next_event = self.queue.peek().map_or(f64::INFINITY, |e| e.at);
            let t = next_finish.min(next_event).max(self.now);
            if t.is_infinite() {
                return Err(EngineError::Stuck {
                    time: self.now,
                    stalled: self.flows.len(),
                });
            }
            if t > self.config.max_time {
                return Err(EngineError::TimeLimit {
                    limit: self.config.max_time,
                });
            }
            self.events += 1;
            if self.events > self.config.max_events {
                return Err(EngineError::EventLimit {
                    limit: self.config.max_events,
                });
            }
            self.advance(t);
            self.finish_flows()?;
            while self.queue.peek().is_some_and(|e| e.at <= self.now) {
                if let Some(e) = self.queue.pop() {
                    self.handle(e.what)?;
                }
            }
            self.boundaries()?;
        }
        Ok(self.result())
    }

    fn advance(&mut self, t: f64) {
        let dt = t - self.now;
        if dt > 0.0 {
            for f in &mut self.flows {
                if f.rate > 0.0 && f.rate.is_finite() {
                    f.rem = (f.rem - f.rate * dt).max(0.0);
                }
            }
        }
        self.now = t;
    }

    fn finish_flows(&mut self) -> Result<(), EngineError> {
        let mut i = 0;
        while i < self.flows.len() {
            let f = &self.flows[i];
            let done = f.class.is_some() && (f.rate.is_infinite() || f.rem <= f.bytes * DONE);
            if !done {
                i += 1;
                continue;
            }
            let f = self.flows.swap_remove(i);
            self.credit(&f.route, f.seg_rem);
            if let Some(c) = f.class {
                self.solver.remove(c, 1)?;
            }
            let d = self.now - f.start;
            let s = &mut self.stats[f.stat];
            s.bytes += f.bytes;
            s.busy += d;
            s.repetitions += 1;
            self.last_duration[f.stat] = d;
            let job = f.key.job as usize;
            self.state[job].active -= 1;
            self.foreign(Some(job));
        }
        Ok(())
    }

    /// Marks every job but `source` as having seen a foreign event.
    fn foreign(&mut self, source: Option<usize>) {
        for (j, s) in self.state.iter_mut().enumerate() {
            if Some(j) != source {
                s.clean = false;
            }
        }
    }

    /// Adds `bytes` carried along `route` to the link counters.
    fn credit(&mut self, route: &Route, bytes: f64) {
        if bytes <= 0.0 {
            return;
        }
        for (l, share) in route.shares() {
            self.link_bytes[l.0 as usize] += bytes * share;
        }
    }

    fn schedule(&mut self, at: f64, what: Scheduled) {
        self.queue.push(Entry {
            at,
            seq: self.seq,
            what,
        });
        self.seq += 1;
    }

    fn handle(&mut self, what: Scheduled) -> Result<(), EngineError> {
        match what {
            Scheduled::Link(link, state) => {
                self.foreign(None);
                self.phys.set_live(link, state);
                if state == LinkState::Down {
                    for i in 0..self.flows.len() {
                        if self.flows[i].class.is_some() && self.flows[i].route.uses(link) {
                            self.stall(i)?;
                        }
                    }
                }
                self.schedule(
                    self.now + self.config.reroute_delay,
                    Scheduled::View(link, state),
                );
                self.arm_retries();
            }
            Scheduled::View(link, state) => {
                self.foreign(None);
                self.view.set_live(link, state);
                self.arm_retries();
            }
            Scheduled::Retry => {
                self.foreign(None);
                for i in 0..self.flows.len() {
                    let due = self.flows[i]
                        .stall
                        .and_then(|s| s.retry_at)
                        .is_some_and(|t| t <= self.now);
                    if due {
                        self.retry(i)?;
                    }
                }
            }
            Scheduled::Rebalance => self.rebalance()?,
        }
        Ok(())
    }

    /// Takes flow `i` off its route: it carries nothing until it resumes.
    fn stall(&mut self, i: usize) -> Result<(), EngineError> {
        let (route, carried, class) = {
            let f = &mut self.flows[i];
            let carried = f.seg_rem - f.rem;
            f.seg_rem = f.rem;
            f.rate = 0.0;
            f.stall = Some(Stall {
                since: self.now,
                retry_at: None,
            });
            (f.route.clone(), carried, f.class.take())
        };
        self.credit(&route, carried);
        if let Some(c) = class {
            self.solver.remove(c, 1)?;
        }
        Ok(())
    }

    /// Gives every stalled flow without a pending retry one at its next
    /// retransmission timer expiry.
    fn arm_retries(&mut self) {
        let rto = self.config.rto;
        let mut times = Vec::new();
        for f in &mut self.flows {
            if let Some(s) = &mut f.stall
                && s.retry_at.is_none()
            {
                let k = ((self.now - s.since) / rto - 1e-9).ceil().max(1.0);
                let at = s.since + k * rto;
                s.retry_at = Some(at);
                times.push(at);
            }
        }
        times.sort_by(f64::total_cmp);
        times.dedup();
        for at in times {
            self.schedule(at, Scheduled::Retry);
        }
    }

    /// Flow `i` retransmits: it asks its router again and resumes if the
    /// route is up, else waits for the next link change.
    fn retry(&mut self, i: usize) -> Result<(), EngineError> {
        let key = self.flows[i].key;
        let route = self.router.route(&key, &self.view);
        self.check_route(&key, &route)?;
        let class = self.admit(&route)?;
        let f = &mut self.flows[i];
        f.route = route;
        f.seg_rem = f.rem;
        f.class = class;
        if class.is_some() {
            f.stall = None;
        } else if let Some(s) = &mut f.stall {
            s.retry_at = None;
        }
        Ok(())
    }

    fn rebalance(&mut self) -> Result<(), EngineError> {
        let views: Vec<FlowView<'_>> = self
            .flows
            .iter()
            .map(|f| FlowView {
                key: &f.key,
                route: &f.route,
                rate: f.rate,
                remaining: f.rem,
            })
            .collect();
        let moves = self.router.rebalance(self.now, &views, &self.view);
        drop(views);
        if !moves.is_empty() {
            self.foreign(None);
        }
        for (index, route) in moves {
            let Some(f) = self.flows.get(index) else {
                return Err(EngineError::BadRebalance {
                    index,
                    flows: self.flows.len(),
                });
            };
            let key = f.key;
            self.check_route(&key, &route)?;
            if f.stall.is_some() {
                continue;
            }
            self.stall(index)?;
            let class = self.admit(&route)?;
            let f = &mut self.flows[index];
            f.route = route;
            if class.is_some() {
                f.class = class;
                f.stall = None;
            }
        }
        self.arm_retries();
        if let Some(p) = self.config.rebalance_period {
            self.schedule(self.now + p, Scheduled::Rebalance);
        }
        Ok(())
    }

    /// A flow on `route` joins the solver when every link of the route is
    /// up: its class, or None when the flow must stall.
    fn admit(&mut self, route: &Route) -> Result<Option<ClassId>, EngineError> {
        if self.phys.route_is_live(route) {
            Ok(Some(self.solver.add(route, 1)?))
        } else {
            Ok(None)
        }
    }

    fn check_route(&self, key: &FlowKey, route: &Route) -> Result<(), EngineError> {
        let links = self.phys.links();
        for (p, _) in route.paths() {
            if let Some(l) = p.iter().find(|l| l.0 as usize >= links) {
                return Err(EngineError::BadRoute {
                    key: *key,
                    link: l.0,
                    links,
                });
            }
        }
        Ok(())
    }

    /// Starts job `j`'s current phase at its first repetition, or the next
    /// phase with something to repeat, or ends the job.
    fn enter_phase(&mut self, j: usize) -> Result<(), EngineError> {
        let job = &self.jobs[j];
        let st = &mut self.state[j];
        while st.phase < job.phases.len() && job.phases[st.phase].repeat == 0 {
            st.phase += 1;
        }
        if st.phase >= job.phases.len() {
            st.done = Some(self.now);
            return Ok(());
        }
        st.rep = 0;
        self.start_rep(j)
    }

    /// Starts the flows of job `j`'s current repetition.
    fn start_rep(&mut self, j: usize) -> Result<(), EngineError> {
        self.foreign(Some(j));
        let (p, rep) = (self.state[j].phase, self.state[j].rep);
        let phase = &self.jobs[j].phases[p];
        let base = self.stat_base[j][p];
        let mut routes = Vec::new();
        let mut stat = base;
        let mut active = 0;
        let mut stalled = false;
        for (t, tr) in phase.transfers.iter().enumerate() {
            for q in 0..tr.qps {
                let bytes = self.stat_bytes[stat];
                if bytes <= 0.0 {
                    self.stats[stat].repetitions += 1;
                    self.last_duration[stat] = 0.0;
                    stat += 1;
                    continue;
                }
                let key = FlowKey {
                    job: j as u32,
                    phase: p as u32,
                    repetition: rep,
                    transfer: t as u32,
                    qp: q,
                    src: tr.src,
                    dst: tr.dst,
                };
                let route = self.router.route(&key, &self.view);
                self.check_route(&key, &route)?;
                let class = self.admit(&route)?;
                stalled |= class.is_none();
                routes.push(route.clone());
                self.flows.push(Flow {
                    serial: self.serial,
                    key,
                    stat,
                    route,
                    class,
                    bytes,
                    rem: bytes,
                    seg_rem: bytes,
                    rate: 0.0,
                    start: self.now,
                    stall: class.is_none().then_some(Stall {
                        since: self.now,
                        retry_at: None,
                    }),
                });
                self.serial += 1;
                active += 1;
                stat += 1;
            }
        }
        if stalled {
            self.arm_retries();
        }
        let others = self.others_of(j);
        let st = &mut self.state[j];
        st.active = active;
        st.rep_start = self.now;
        st.clean = !stalled;
        st.routes = routes;
        st.others = others;
        Ok(())
    }

    /// Moves every job whose repetition ended to its next repetition or
    /// phase, then fast-forwards one of them if it can.
    fn boundaries(&mut self) -> Result<(), EngineError> {
        self.candidates.clear();
        for j in 0..self.jobs.len() {
            while self.state[j].done.is_none() && self.state[j].active == 0 {
                let st = &mut self.state[j];
                let repeat = self.jobs[j].phases[st.phase].repeat;
                let duration = self.now - st.rep_start;
                let was_clean = st.clean && self.config.fast_forward == FastForward::On;
                st.rep += 1;
                if st.rep < repeat {
                    let prev = std::mem::take(&mut st.routes);
                    let others = std::mem::take(&mut st.others);
                    self.start_rep(j)?;
                    if was_clean && duration > 0.0 && self.state[j].routes == prev {
                        self.candidates.push(Candidate {
                            job: j,
                            duration,
                            others,
                        });
                    }
                } else {
                    st.phase += 1;
                    self.enter_phase(j)?;
                }
            }
        }
        let candidates = std::mem::take(&mut self.candidates);
        for c in &candidates {
            if self.try_jump(c) {
                break;
            }
        }
        self.candidates = candidates;
        Ok(())
    }

    /// Skips as many repetitions of the candidate's job as are sure to
    /// repeat the last one; returns whether it skipped any.
    fn try_jump(&mut self, c: &Candidate) -> bool {
        let j = c.job;
        if !self.state[j].clean {
            return false;
        }
        let (phase, rep) = (self.state[j].phase, self.state[j].rep);
        let repeat = self.jobs[j].phases[phase].repeat;
        // Repetitions after the one just started.
        let mut n = u64::from(repeat - rep - 1);
        if let Some(e) = self.queue.peek() {
            n = n.min(((e.at - self.now) / c.duration).floor().max(0.0) as u64);
        }
        // Other jobs' flows must be the set there was when the last
        // repetition started, each moving the same bytes per repetition.
        let mut current: Vec<(u64, usize)> = self
            .flows
            .iter()
            .enumerate()
            .filter(|(_, f)| f.key.job as usize != j)
            .map(|(i, f)| (f.serial, i))
            .collect();
        current.sort_unstable();
        if current.len() != c.others.len() {
            return false;
        }
        let mut progress = Vec::with_capacity(current.len());
        for (&(serial, i), &(before_serial, before)) in current.iter().zip(&c.others) {
            let f = &self.flows[i];
            if serial != before_serial || f.stall.is_some() {
                return false;
            }
            let per_rep = before - f.rem;
            if per_rep > 0.0 {
                let left = ((f.rem - f.bytes * DONE) / per_rep).ceil().max(0.0) as u64;
                n = n.min(left.saturating_sub(1));
            }
            progress.push((i, per_rep));
        }
        if n == 0 {
            return false;
        }
        let nf = n as f64;
        self.now += nf * c.duration;
        for (i, per_rep) in progress {
            self.flows[i].rem -= nf * per_rep;
        }
        let mut carried = Vec::new();
        for f in self.flows.iter_mut().filter(|f| f.key.job as usize == j) {
            f.start = self.now;
            f.key.repetition += n as u32;
            carried.push((f.route.clone(), f.bytes));
        }
        for (route, bytes) in carried {
            self.credit(&route, nf * bytes);
        }
        let base = self.stat_base[j][phase];
        let qps: usize = self.jobs[j].phases[phase]
            .transfers
            .iter()
            .map(|t| t.qps as usize)
            .sum();
        for s in base..base + qps {
            let st = &mut self.stats[s];
            st.bytes += nf * self.stat_bytes[s];
            st.busy += nf * self.last_duration[s];
            st.repetitions += n;
        }
        let others = self.others_of(j);
        let st = &mut self.state[j];
        st.rep += n as u32;
        st.rep_start = self.now;
        st.others = others;
        self.skipped += n;
        true
    }

    /// Other jobs' flows (serial, bytes left), by serial.
    fn others_of(&self, j: usize) -> Vec<(u64, f64)> {
        let mut others: Vec<(u64, f64)> = self
            .flows
            .iter()
            .filter(|f| f.key.job as usize != j)
            .map(|f| (f.serial, f.rem))
            .collect();
        others.sort_unstable_by_key(|&(s, _)| s);
        others
    }

    fn result(self) -> RunResult {
        let makespan = self.state.iter().filter_map(|s| s.done).fold(0.0, f64::max);
        let links = self
            .link_bytes
            .iter()
            .enumerate()
            .map(|(l, &bytes)| {
                let cap = self.phys.capacity[l] * makespan;
                LinkStats {
                    bytes,
                    utilisation: if cap > 0.0 { bytes / cap } else { 0.0 },
                }
            })
            .collect();
        RunResult {
            jobs: self
                .jobs
                .iter()
                .zip(&self.state)
                .map(|(job, s)| JobResult {
                    name: job.name.clone(),
                    completion: s.done.unwrap_or(0.0),
                })
                .collect(),
            flows: self.stats,
            links,
            makespan,
            events: self.events,
            skipped_repetitions: self.skipped,
        }
    }
}

#[cfg(test)]
mod tests;
