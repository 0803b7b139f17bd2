//! The P4Runtime service: [`P4RuntimeService`] implements the generated
//! `p4_runtime_server::P4Runtime` trait over a behavioural-model switch.
//!
//! All state (the committed pipeline, a saved one, and the arbitration of
//! the streams) sits behind one `std::sync::Mutex`, never held across an
//! `await`. Compiling a pushed pipeline runs on a blocking thread, outside
//! the lock.
//!
//! Arbitration follows P4Runtime 1.5 §5 per (device id, role)
//! ([`crate::arbitration`]). Write and SetForwardingPipelineConfig need the
//! election id of the role's primary (PERMISSION_DENIED otherwise), and
//! every update is checked against the role's rights ([`crate::roles`])
//! before the device sees it. Who the client is comes from its TLS
//! certificate ([`crate::auth`]): a tenant may only use its own role and
//! never push a pipeline. Every Write update, pipeline change and refusal
//! goes to the audit log ([`crate::audit`]).
//!
//! Packet I/O (§16.1): a PacketOut from a primary whose role may send
//! packets enters the pipeline on the CPU port behind the `packet_out`
//! controller header; one from any other stream, or with metadata that do
//! not match the P4Info, is dropped and answered with a StreamError.
//! Packets the pipeline sends to the CPU port go as PacketIns, their
//! `packet_in` header turned into metadata, to the primary of every role
//! that takes them (the default role always; a configured role when its
//! role config says so and its filter matches). After every packet the
//! switch's digests go to the default role's primary as DigestLists
//! ([`crate::digests`]). Each entity is its own type, which
//! [`crate::device`] dispatches to. [`crate::listen`] serves the service
//! with gNMI on one port.

use crate::arbitration::{Arbitrations, Join, StreamTx, from_uint128};
use crate::audit::{self, Who};
use crate::auth::Identity;
use crate::batch::{self, Slice};
use crate::codec::RpcError;
use crate::device::ForwardingPipeline;
use crate::journal::{Journal, JournalError, Restored, StateConfig};
use crate::port_stats::PortStats;
use crate::proto::p4::v1 as p4;
use crate::proto::p4::v1::p4_runtime_server::{P4Runtime, P4RuntimeServer};
use crate::roles::Access;
use crate::translation::TranslationFile;
use crate::undo;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Code, Request, Response, Status, Streaming};

/// Largest gRPC message accepted or sent (big Write batches, big configs).
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// Messages queued per stream before the server waits on the client.
const STREAM_QUEUE: usize = 256;

/// Where the packets the pipeline sends out of its ports (other than the
/// CPU port) go, for packets that PacketOuts put in: (port, frame).
pub type PortTx = mpsc::Sender<(u32, Vec<u8>)>;

/// Entities in one ReadResponse: a read of many is streamed.
const READ_PER_RESPONSE: usize = 1000;

/// How long a writer between two slices of a batch waits at most for the
/// threads that queued for the state lock to take it.
const YIELD_LIMIT: std::time::Duration = std::time::Duration::from_millis(2);

/// The CPU port unless `--cpu-port` says otherwise (Janus's NIC port map).
pub const DEFAULT_CPU_PORT: u32 = 510;

struct State {
    pipeline: Option<ForwardingPipeline>,
    /// The config of the last VERIFY_AND_SAVE, for COMMIT.
    saved: Option<ForwardingPipeline>,
    arbitration: Arbitrations,
    next_stream: u64,
    /// Where frames from PacketOuts leave by (none: they are dropped).
    port_out: Option<PortTx>,
    /// The journal of the state directory (`--state`), if any.
    journal: Option<Journal>,
    /// Counts pipeline commits (a batch applied in slices stops when the
    /// pipeline changes under it).
    generation: u64,
    /// The operator's translation mappings, pinned in every pipeline.
    translation_file: Arc<TranslationFile>,
    /// Whether every pipeline traces each packet (target `janus::trace`).
    packet_trace: bool,
}

/// Makes `pipeline` the committed one; with a journal, first starts a new
/// journal holding it and `carried` (the state RECONCILE_AND_COMMIT
/// brought over, as a snapshot record). When the journal cannot be
/// written the old pipeline stays (and when the new journal was renamed
/// into place but the directory could not be synced, the journal takes
/// no more writes until a restart, see [`Journal::start`]).
fn commit(
    state: &mut State,
    mut pipeline: ForwardingPipeline,
    carried: &[p4::Update],
) -> Result<(), Status> {
    pipeline.switch.set_trace(state.packet_trace);
    if let Some(journal) = state.journal.as_mut() {
        journal.start(&pipeline.config, carried).map_err(|e| {
            tracing::error!("the pipeline cannot be saved: {e}");
            Status::unavailable(format!("the pipeline cannot be saved: {e}"))
        })?;
    }
    state.pipeline = Some(pipeline);
    state.generation += 1;
    Ok(())
}

/// The server's state, shared by the service, the streams' tasks and
/// (through [`SwitchHandle`]) the embedding program.
struct Shared {
    device_id: u64,
    cpu_port: u32,
    state: Mutex<State>,
    /// Per-port packet and byte counts (gNMI interface counters), kept
    /// outside the lock.
    port_stats: PortStats,
    /// Held by the Write RPC in progress: writers take turns in arrival
    /// order.
    writers: tokio::sync::Mutex<()>,
    /// Threads waiting for the state lock (a writer between two slices
    /// lets them in first).
    waiting: AtomicUsize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        if let Ok(state) = self.state.try_lock() {
            return state;
        }
        self.waiting.fetch_add(1, Ordering::SeqCst);
        // A panic while holding the lock leaves the state as it was between
        // updates; keep serving.
        let state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        state
    }

    /// Lets the threads waiting for the state lock take it before the
    /// caller (which has just released it) takes it again: a long batch
    /// does not starve reads, packets or arbitration. Bounded: after
    /// [`YIELD_LIMIT`] the caller goes on.
    fn yield_to_waiters(&self) {
        let start = std::time::Instant::now();
        while self.waiting.load(Ordering::SeqCst) > 0 && start.elapsed() < YIELD_LIMIT {
            std::thread::yield_now();
        }
    }

    /// The entities a Read request asks for, with the rights of its role,
    /// in responses of at most [`READ_PER_RESPONSE`] (at least one, maybe
    /// empty), made as the entries are read.
    fn read_entities(&self, req: &p4::ReadRequest) -> Result<Vec<Vec<p4::Entity>>, Status> {
        let state = self.lock();
        let pipeline = state
            .pipeline
            .as_ref()
            .ok_or_else(|| Status::failed_precondition("no forwarding pipeline config is set"))?;
        // Reads need no primary: a tenant role reads with the tenant's
        // rights, another role with its primary's (all without one).
        let access = match crate::auth::role_tenant(&req.role) {
            Some(tenant) => Access::Tenant(tenant),
            None => state
                .arbitration
                .role_access(&req.role)
                .cloned()
                .unwrap_or(Access::Full),
        };
        let mut responses = vec![Vec::new()];
        let mut each = |e: p4::Entity| {
            if access != Access::Full && !access.may_read(&pipeline.tenant_policy, &e) {
                return;
            }
            let mut last = responses.last_mut().expect("one response at least");
            if last.len() == READ_PER_RESPONSE {
                responses.push(Vec::with_capacity(READ_PER_RESPONSE));
                last = responses.last_mut().expect("just pushed");
            }
            last.push(e);
        };
        for e in &req.entities {
            pipeline.read_entity_each(e, &mut each)?;
        }
        Ok(responses)
    }

    /// Applies a Write batch ([`crate::batch`]): one slice at a time under
    /// the state lock (the whole batch when it is all or nothing), each
    /// slice journaled before the next, every update audited. The role's
    /// primary is checked again at every slice: updates after a change of
    /// primary, or of pipeline, are refused.
    fn write_batch(
        &self,
        who: &Who,
        req: &p4::WriteRequest,
        atomicity: p4::write_request::Atomicity,
    ) -> Result<Vec<Result<(), RpcError>>, Status> {
        use p4::write_request::Atomicity;
        let slice = match atomicity {
            Atomicity::ContinueOnError => Slice::SERVER,
            _ => Slice::WHOLE,
        };
        let mut results: Vec<Result<(), RpcError>> = Vec::with_capacity(req.updates.len());
        let mut generation = None;
        let mut failure = None;
        loop {
            let rest = &req.updates[results.len()..];
            let mut state = self.lock();
            let primary =
                P4RuntimeService::check_primary(&state, &req.role, req.election_id.as_ref())
                    .cloned()
                    .and_then(|access| match state.pipeline {
                        None => Err(Status::failed_precondition(
                            "no forwarding pipeline config is set",
                        )),
                        Some(_) if generation.is_some_and(|g| g != state.generation) => Err(
                            Status::aborted("the forwarding pipeline changed during the batch"),
                        ),
                        Some(_) => Ok(access),
                    });
            let access = match primary {
                Ok(access) => access,
                Err(status) if results.is_empty() => {
                    audit::refusal(who, "Write", &req.role, &status);
                    return Err(status);
                }
                Err(status) => {
                    let e = RpcError::new(status.code(), status.message());
                    results.extend(rest.iter().map(|_| Err(e.clone())));
                    break;
                }
            };
            generation = Some(state.generation);
            let exclusive = state.arbitration.exclusive_elsewhere(&req.role);
            let State {
                pipeline, journal, ..
            } = &mut *state;
            let Some(pipeline) = pipeline.as_mut() else {
                // Checked above, under the same lock.
                failure = Some(Status::internal("the pipeline vanished during the batch"));
                break;
            };
            let writer = batch::Writer {
                access: &access,
                exclusive_elsewhere: &exclusive,
            };
            let outcome = batch::apply(pipeline, writer, atomicity, rest, slice);
            if let Some(journal) = journal.as_mut() {
                let applied = outcome.applied(rest);
                if let Err(e) = journal.append_batch(&applied) {
                    tracing::error!("a Write batch cannot be saved: {e}");
                    let status = match outcome.undo.map(|u| undo::roll_back(pipeline, u)) {
                        Some(Ok(())) => Status::unavailable(format!(
                            "the batch cannot be saved ({e}); it was rolled back"
                        )),
                        _ => Status::internal(format!(
                            "the batch was applied but cannot be saved ({e}); it will be lost at a restart"
                        )),
                    };
                    audit::refusal(who, "Write", &req.role, &status);
                    failure = Some(status);
                    break;
                }
                // The batch is saved; a failed compaction only means the
                // journal keeps growing until the next attempt.
                if journal.wants_snapshot() {
                    match journal.compact(pipeline) {
                        Ok(n) => tracing::info!(
                            updates = n,
                            next_seq = journal.next_seq(),
                            "journal compacted: pipeline and a snapshot of the state"
                        ),
                        Err(e) => tracing::error!("the journal cannot be compacted: {e}"),
                    }
                }
            }
            results.extend(outcome.results);
            drop(state);
            if results.len() >= req.updates.len() {
                break;
            }
            self.yield_to_waiters();
        }
        // Audited once each update's fate is known (rolled-back updates
        // as ABORTED).
        for (u, r) in req.updates.iter().zip(&results) {
            audit::update(who, &req.role, u, r);
        }
        failure.map_or(Ok(results), Err)
    }

    /// Runs a packet arriving on `port` through the committed pipeline
    /// (`false` without one). Copies sent to the CPU port lose their
    /// `packet_in` header and go to the primary as PacketIns (dropped when
    /// there is no primary or its stream is full; `cpu` is their reused
    /// buffer); the others go to `out` as (port, bytes) from the switch's
    /// reused buffer, so a unicast packet allocates nothing.
    fn run_packet(
        &self,
        state: &mut State,
        port: u32,
        bytes: &[u8],
        cpu: &mut Vec<Vec<u8>>,
        out: &mut dyn FnMut(u32, &[u8]),
    ) -> bool {
        let State {
            pipeline,
            arbitration,
            ..
        } = state;
        let Some(pipeline) = pipeline.as_mut() else {
            return false;
        };
        self.port_stats.count_in(port, bytes.len());
        let mut sent = false;
        let cpu_port = self.cpu_port;
        let stats = &self.port_stats;
        pipeline.switch.process_with(port, bytes, &mut |p, frame| {
            sent = true;
            stats.count_out(p, frame.len());
            if p == cpu_port {
                cpu.push(frame.to_vec());
            } else {
                out(p, frame);
            }
        });
        if !sent {
            self.port_stats.count_discard(port);
        }
        for frame in cpu.drain(..) {
            to_primaries(pipeline, arbitration, &frame);
        }
        let lists = pipeline.digest_lists();
        if !lists.is_empty() {
            match arbitration.default_primary() {
                None => {
                    tracing::debug!(lists = lists.len(), "digests dropped: there is no primary")
                }
                Some(client) => {
                    for list in lists {
                        let msg = p4::StreamMessageResponse {
                            update: Some(p4::stream_message_response::Update::Digest(list)),
                        };
                        if client.tx.try_send(Ok(msg)).is_err() {
                            tracing::debug!("DigestList dropped: the primary's stream is full");
                        }
                    }
                }
            }
        }
        true
    }
}

/// A frame the pipeline sent to the CPU port, as a PacketIn to the
/// primary of every role that takes it.
#[cold]
fn to_primaries(pipeline: &ForwardingPipeline, arbitration: &Arbitrations, frame: &[u8]) {
    let Some(mut packet) = pipeline.packet_in(frame) else {
        tracing::debug!(
            len = frame.len(),
            "CPU-port packet shorter than packet_in: dropped"
        );
        return;
    };
    let takers: Vec<_> = arbitration
        .primaries()
        .filter(|(_, access)| access.receives_packet_in(&packet.metadata))
        .map(|(client, _)| client)
        .collect();
    if takers.is_empty() {
        tracing::debug!("PacketIn dropped: no primary takes it");
    }
    for (i, client) in takers.iter().enumerate() {
        let packet = if i + 1 < takers.len() {
            packet.clone()
        } else {
            std::mem::take(&mut packet)
        };
        let msg = p4::StreamMessageResponse {
            update: Some(p4::stream_message_response::Update::Packet(packet)),
        };
        if client.tx.try_send(Ok(msg)).is_err() {
            tracing::debug!("PacketIn dropped: the primary's stream is full");
        }
    }
}

/// A StreamError about a PacketOut (which is dropped).
fn packet_out_error(code: Code, message: String, po: p4::PacketOut) -> p4::StreamMessageResponse {
    p4::StreamMessageResponse {
        update: Some(p4::stream_message_response::Update::Error(
            p4::StreamError {
                canonical_code: code as i32,
                message,
                space: String::new(),
                code: 0,
                details: Some(p4::stream_error::Details::PacketOut(p4::PacketOutError {
                    packet_out: Some(po),
                })),
            },
        )),
    }
}

/// The P4Runtime service for one device.
#[derive(Clone)]
pub struct P4RuntimeService {
    shared: Arc<Shared>,
}

/// A handle on the server's switch, for the embedding program and tests:
/// send packets through the committed pipeline, look at its tables.
#[derive(Clone)]
pub struct SwitchHandle {
    shared: Arc<Shared>,
}

impl SwitchHandle {
    /// Runs `f` on the committed pipeline's switch (`None` before a
    /// pipeline is set), holding the server's lock.
    pub fn with_switch<R>(
        &self,
        f: impl FnOnce(Option<&mut dyn janus_engine::target::Target>) -> R,
    ) -> R {
        let mut state = self.shared.lock();
        match state.pipeline.as_mut() {
            Some(p) => f(Some(p.switch.as_mut())),
            None => f(None),
        }
    }

    /// Runs `f` on the committed pipeline (`None` before one is set),
    /// holding the server's lock: what the firmware's pipeline swap
    /// stages a copy of (entities carried over with `undo::carry_over`).
    pub fn with_pipeline<R>(&self, f: impl FnOnce(Option<&ForwardingPipeline>) -> R) -> R {
        f(self.shared.lock().pipeline.as_ref())
    }

    /// Sends a packet into the switch on `port` as a packet arriving from
    /// the wire: what the pipeline sends to the CPU port becomes PacketIns
    /// for the primary; the packets sent to other ports are returned as
    /// (port, frame). `None` before a pipeline is set.
    pub fn inject(&self, port: u32, packet: &[u8]) -> Option<Vec<(u32, Vec<u8>)>> {
        let mut sent = Vec::new();
        let mut session = self.session();
        session
            .run(port, packet, &mut |p, frame| sent.push((p, frame.to_vec())))
            .then_some(sent)
    }

    /// How many pipelines have been committed (by a client, at start-up or
    /// from `--state`): it changes exactly when a new one is installed.
    pub fn pipeline_generation(&self) -> u64 {
        self.shared.lock().generation
    }

    /// Holds the switch for a batch of packets: one lock for all of them
    /// (control-plane updates wait for the batch; keep batches short).
    pub fn session(&self) -> PacketSession<'_> {
        PacketSession {
            shared: &self.shared,
            state: self.shared.lock(),
            cpu: Vec::new(),
        }
    }

    /// The per-port packet and byte counts of every packet that went
    /// through the pipeline (read without the server's lock).
    pub fn port_stats(&self) -> &PortStats {
        &self.shared.port_stats
    }
}

/// The packet path's hold on the switch ([`SwitchHandle::session`]).
pub struct PacketSession<'a> {
    shared: &'a Shared,
    state: MutexGuard<'a, State>,
    /// Frames for the CPU port, reused.
    cpu: Vec<Vec<u8>>,
}

impl PacketSession<'_> {
    /// Runs a packet arriving on `port` as [`SwitchHandle::inject`] does,
    /// handing the packets sent to ports other than the CPU port to `out`
    /// from the switch's reused buffer (no allocation for a unicast
    /// packet); `false` before a pipeline is set.
    pub fn run(&mut self, port: u32, packet: &[u8], out: &mut dyn FnMut(u32, &[u8])) -> bool {
        self.shared
            .run_packet(&mut self.state, port, packet, &mut self.cpu, out)
    }

    /// Whether a control-plane call waits for the lock this session
    /// holds (end the batch early to let it in).
    pub fn contended(&self) -> bool {
        self.shared.waiting.load(Ordering::Relaxed) > 0
    }
}

impl P4RuntimeService {
    /// A service for device `device_id`, with no pipeline yet and the
    /// CPU port [`DEFAULT_CPU_PORT`].
    pub fn new(device_id: u64) -> P4RuntimeService {
        P4RuntimeService::with_cpu_port(device_id, DEFAULT_CPU_PORT)
    }

    /// A service for device `device_id` whose pipeline's CPU port (where
    /// PacketOuts enter and PacketIns come from) is `cpu_port`.
    pub fn with_cpu_port(device_id: u64, cpu_port: u32) -> P4RuntimeService {
        P4RuntimeService {
            shared: Arc::new(Shared {
                device_id,
                cpu_port,
                port_stats: PortStats::new(),
                state: Mutex::new(State {
                    pipeline: None,
                    saved: None,
                    arbitration: Arbitrations::default(),
                    next_stream: 0,
                    port_out: None,
                    journal: None,
                    generation: 0,
                    translation_file: Arc::default(),
                    packet_trace: false,
                }),
                writers: tokio::sync::Mutex::new(()),
                waiting: AtomicUsize::new(0),
            }),
        }
    }

    /// The operator's `@p4runtime_translation` mappings (`--translations`),
    /// pinned in every pipeline built from now on (set it before
    /// [`P4RuntimeService::restore`]).
    pub fn set_translation_file(&self, file: TranslationFile) {
        self.shared.lock().translation_file = Arc::new(file);
    }

    /// Traces every packet of every pipeline committed from now on, and of
    /// the one running (`janus::trace` events at level info: parser
    /// states, tables, actions, the fate).
    pub fn set_packet_trace(&self, on: bool) {
        let mut state = self.shared.lock();
        state.packet_trace = on;
        if let Some(p) = state.pipeline.as_mut() {
            p.switch.set_trace(on);
        }
    }

    /// The operator's translation mappings.
    pub fn translation_file(&self) -> Arc<TranslationFile> {
        self.shared.lock().translation_file.clone()
    }

    /// Where the frames that PacketOuts make the pipeline send out of its
    /// ports go (a full channel drops them, as a congested port would).
    /// Without one they are dropped.
    pub fn set_port_output(&self, tx: PortTx) {
        self.shared.lock().port_out = Some(tx);
    }

    /// Commits a pipeline without a client (`janus ctrl serve --p4`).
    pub fn set_pipeline(&self, pipeline: ForwardingPipeline) {
        let mut state = self.shared.lock();
        state.pipeline = Some(pipeline);
        state.generation += 1;
    }

    /// Attaches the state directory of `config` (before serving): takes
    /// its lock, reads the journal and restores the pipeline and the
    /// entities written to it. From then on every commit and every Write
    /// batch is saved there before it is answered, and every
    /// `config.snapshot_every` batches the journal is compacted. Only a
    /// torn tail is dropped (see [`crate::journal`]); any other damage, or
    /// a record that does not replay, is an error and leaves the journal
    /// as it is.
    pub fn restore(&self, config: &StateConfig) -> Result<Restored, JournalError> {
        let (journal, contents) = Journal::open(config)?;
        let restored = contents.restored();
        let file = self.translation_file();
        let pipeline = journal.replay_with(contents, &file)?;
        tracing::info!(
            dir = %config.dir.display(),
            pipeline = restored.pipeline,
            snapshot = ?restored.snapshot,
            batches = restored.batches,
            seqs = ?restored.seqs,
            "state restored: {restored}"
        );
        let mut state = self.shared.lock();
        if let Some(p) = pipeline {
            state.pipeline = Some(p);
        }
        state.journal = Some(journal);
        Ok(restored)
    }

    /// The committed pipeline's config, if any.
    pub fn pipeline_config(&self) -> Option<p4::ForwardingPipelineConfig> {
        self.shared
            .lock()
            .pipeline
            .as_ref()
            .map(|p| p.config.clone())
    }

    /// Commits a pipeline without a client, saving it in the state
    /// directory when one is attached (a new journal).
    pub fn commit_pipeline(&self, pipeline: ForwardingPipeline) -> Result<(), Status> {
        commit(&mut self.shared.lock(), pipeline, &[])
    }

    pub fn switch_handle(&self) -> SwitchHandle {
        SwitchHandle {
            shared: self.shared.clone(),
        }
    }

    /// The tonic service, with the message size limits set.
    /// Sends IdleTimeoutNotifications for as long as it runs (never
    /// returns): serving the service runs it beside the server.
    pub fn idle_notifier(
        &self,
    ) -> impl std::future::Future<Output = std::convert::Infallible> + Send + 'static {
        notify_idle_entries(self.shared.clone())
    }

    pub fn into_server(self) -> P4RuntimeServer<P4RuntimeService> {
        P4RuntimeServer::new(self)
            .max_decoding_message_size(MAX_MESSAGE_BYTES)
            .max_encoding_message_size(MAX_MESSAGE_BYTES)
    }

    fn check_device(&self, device_id: u64) -> Result<(), Status> {
        if device_id != self.shared.device_id {
            return Err(Status::not_found(format!(
                "no device {device_id} (this server is device {})",
                self.shared.device_id
            )));
        }
        Ok(())
    }

    /// Whether `identity` may act in `role`: the operator in any role, a
    /// tenant in its own role (`tenant:<id>`) only.
    fn check_role(identity: Identity, role: &str) -> Result<(), Status> {
        match identity.own_role() {
            Some(own) if own != role => Err(Status::permission_denied(format!(
                "{identity} may only use role {own:?}, not {role:?}"
            ))),
            _ => Ok(()),
        }
    }

    /// The rights of `role`'s primary, when `election_id` is its election
    /// id (PERMISSION_DENIED otherwise).
    fn check_primary<'s>(
        state: &'s State,
        role: &str,
        election_id: Option<&p4::Uint128>,
    ) -> Result<&'s Access, Status> {
        state
            .arbitration
            .primary_access(role, election_id.map(from_uint128))
    }

    /// Handles one arbitration message from stream `s`; an error ends the
    /// stream with that status.
    fn arbitrate(
        &self,
        identity: Identity,
        s: u64,
        tx: &StreamTx,
        update: &p4::MasterArbitrationUpdate,
    ) -> Result<(), Status> {
        self.check_device(update.device_id)?;
        let (role, config) = match &update.role {
            Some(r) => (r.name.clone(), r.config.clone()),
            None => (String::new(), None),
        };
        Self::check_role(identity, &role)?;
        let access = Access::for_role(&role, config.as_ref())?;
        let election_id = update
            .election_id
            .as_ref()
            .map(from_uint128)
            .ok_or_else(|| Status::invalid_argument("the arbitration update has no election id"))?;
        self.shared.lock().arbitration.join(
            self.shared.device_id,
            s,
            tx,
            Join {
                role,
                election_id,
                access,
                config,
            },
        )
    }

    /// Whether `identity` may push a pipeline with `req`: never a tenant;
    /// the primary of a role that may (the default role, or one whose
    /// role config says `can_push_pipeline`).
    fn check_pipeline_push(
        &self,
        identity: Identity,
        req: &p4::SetForwardingPipelineConfigRequest,
    ) -> Result<(), Status> {
        self.check_device(req.device_id)?;
        if let Identity::Tenant(_) = identity {
            return Err(Status::permission_denied(format!(
                "{identity} may not change the forwarding pipeline"
            )));
        }
        Self::check_role(identity, &req.role)?;
        let state = self.shared.lock();
        let access = Self::check_primary(&state, &req.role, req.election_id.as_ref())?;
        if !access.may_push_pipeline() {
            return Err(Status::permission_denied(format!(
                "role {:?} may not push a pipeline (its role config says can_push_pipeline: false)",
                req.role
            )));
        }
        Ok(())
    }

    /// Carries out a SetForwardingPipelineConfig its sender may make.
    async fn set_pipeline_config(
        &self,
        req: p4::SetForwardingPipelineConfigRequest,
    ) -> Result<(), Status> {
        use p4::set_forwarding_pipeline_config_request::Action;
        let action = Action::try_from(req.action)
            .map_err(|_| Status::invalid_argument(format!("unknown action {}", req.action)))?;
        let file = self.shared.lock().translation_file.clone();
        let build = |config: Option<p4::ForwardingPipelineConfig>| async move {
            let config =
                config.ok_or_else(|| Status::invalid_argument("the request has no config"))?;
            tokio::task::spawn_blocking(move || ForwardingPipeline::build_with(config, &file))
                .await
                .map_err(|e| Status::internal(format!("the pipeline build failed: {e}")))?
                .map_err(|e| Status::new(e.code(), e.to_string()))
        };
        match action {
            Action::Verify => {
                build(req.config).await?;
            }
            Action::VerifyAndCommit => {
                let pipeline = build(req.config).await?;
                let mut state = self.shared.lock();
                Self::check_primary(&state, &req.role, req.election_id.as_ref())?;
                commit(&mut state, pipeline, &[])?;
                tracing::info!("pipeline committed");
            }
            Action::VerifyAndSave => {
                let pipeline = build(req.config).await?;
                let mut state = self.shared.lock();
                Self::check_primary(&state, &req.role, req.election_id.as_ref())?;
                state.saved = Some(pipeline);
            }
            Action::Commit => {
                let mut state = self.shared.lock();
                let saved = state.saved.take().ok_or_else(|| {
                    Status::failed_precondition("COMMIT: no config was saved (VERIFY_AND_SAVE)")
                })?;
                commit(&mut state, saved, &[])?;
                tracing::info!("saved pipeline committed");
            }
            Action::ReconcileAndCommit => {
                let mut pipeline = build(req.config).await?;
                let mut state = self.shared.lock();
                Self::check_primary(&state, &req.role, req.election_id.as_ref())?;
                // The running pipeline's entities are written into the new
                // one; if any cannot be, the old pipeline stays untouched.
                let carried = match state.pipeline.as_ref() {
                    Some(old) => undo::carry_over(old, &mut pipeline)?,
                    None => Vec::new(),
                };
                commit(&mut state, pipeline, &carried)?;
                tracing::info!(
                    entities = carried.len(),
                    "pipeline reconciled and committed"
                );
            }
            Action::Unspecified => {
                return Err(Status::invalid_argument("the action is UNSPECIFIED"));
            }
        }
        Ok(())
    }

    /// A PacketOut from stream `s`: only the primary's enter the pipeline
    /// (on the CPU port, behind the packet_out header); the others, and
    /// those whose metadata do not match the P4Info, are dropped and
    /// answered with a StreamError.
    fn packet_out(&self, s: u64, tx: &StreamTx, po: p4::PacketOut) {
        let mut state = self.shared.lock();
        let refuse = |code: Code, message: String, po: p4::PacketOut| {
            tracing::debug!(stream = s, "PacketOut refused: {message}");
            let _ = tx.try_send(Ok(packet_out_error(code, message, po)));
        };
        match state.arbitration.access_if_primary(s) {
            Some(access) if access.may_send_packets() => {}
            Some(_) => {
                return refuse(
                    Code::PermissionDenied,
                    "this role may not send packets".into(),
                    po,
                );
            }
            None => {
                return refuse(
                    Code::PermissionDenied,
                    "only the primary controller may send packets".into(),
                    po,
                );
            }
        }
        let frame = match state.pipeline.as_ref().map(|p| p.packet_out_frame(&po)) {
            None => {
                return refuse(
                    Code::FailedPrecondition,
                    "no forwarding pipeline config is set".into(),
                    po,
                );
            }
            Some(Err(e)) => return refuse(e.code, e.message, po),
            Some(Ok(frame)) => frame,
        };
        let mut sent = Vec::new();
        self.shared.run_packet(
            &mut state,
            self.shared.cpu_port,
            &frame,
            &mut Vec::new(),
            &mut |p, bytes| sent.push((p, bytes.to_vec())),
        );
        match &state.port_out {
            Some(out) => {
                for copy in sent {
                    if out.try_send(copy).is_err() {
                        tracing::debug!("port output full: a packet was dropped");
                    }
                }
            }
            None if !sent.is_empty() => {
                tracing::debug!(
                    copies = sent.len(),
                    "no port output: PacketOut copies dropped"
                );
            }
            None => {}
        }
    }

    /// A DigestListAck from stream `s` (the primary's only; others are
    /// ignored).
    fn digest_ack(&self, s: u64, ack: &p4::DigestListAck) {
        let mut state = self.shared.lock();
        // Digests go to the default role's primary: only it acknowledges.
        if !state.arbitration.is_default_primary(s) {
            tracing::debug!(
                stream = s,
                "digest ack from a stream that is not the default role's primary: ignored"
            );
            return;
        }
        if let Some(p) = state.pipeline.as_mut() {
            p.digests.ack(ack);
        }
    }

    /// Stream `s` closed: forget it; if it was the primary, tell the rest.
    fn stream_closed(&self, s: u64) {
        self.shared
            .lock()
            .arbitration
            .leave(self.shared.device_id, s);
    }
}

/// Runs `work`, which may wait a while for the state lock (behind a
/// Write's slice or an all-or-nothing batch), from an async RPC: on a
/// multi-threaded runtime the worker first hands its other tasks to
/// another thread (`block_in_place`), so waiting readers cannot take every
/// worker; on a current-thread runtime simply inline.
fn blocking<R>(work: impl FnOnce() -> R) -> R {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(work),
        _ => work(),
    }
}

/// Who sent `request` (to `rpc`); a certificate naming no Janus identity is
/// refused, and the refusal audited.
fn identify<T>(request: &Request<T>, rpc: &str) -> Result<Who, Status> {
    match Identity::of_request(request) {
        Ok(identity) => Ok(Who::of(identity, request)),
        Err(status) => {
            audit::unidentified(request.remote_addr(), rpc, &status);
            Err(status)
        }
    }
}

#[tonic::async_trait]
impl P4Runtime for P4RuntimeService {
    async fn write(
        &self,
        request: Request<p4::WriteRequest>,
    ) -> Result<Response<p4::WriteResponse>, Status> {
        use p4::write_request::Atomicity;
        let who = identify(&request, "Write")?;
        let req = request.into_inner();
        let refuse = |status: Status| {
            audit::refusal(&who, "Write", &req.role, &status);
            status
        };
        self.check_device(req.device_id).map_err(refuse)?;
        Self::check_role(who.identity, &req.role).map_err(refuse)?;
        let atomicity = Atomicity::try_from(req.atomicity)
            .map_err(|_| Status::invalid_argument("unknown atomicity"))?;
        batch::check_limits(&req.updates, atomicity).map_err(|e| refuse(e.into()))?;
        // Writers take turns in arrival order, waiting without holding a
        // worker. The batch then runs in place on this worker (handing it
        // to another thread with `spawn_blocking` or `block_in_place` cost
        // 40% of the throughput): it holds the state lock one slice at a
        // time, and the runtime's other workers answer every other RPC.
        let _turn = self.shared.writers.lock().await;
        let results = self.shared.write_batch(&who, &req, atomicity)?;
        let failed = results.iter().filter(|r| r.is_err()).count();
        tracing::debug!(updates = results.len(), failed, "write");
        if failed > 0 {
            return Err(batch::status(&results));
        }
        Ok(Response::new(p4::WriteResponse {}))
    }

    type ReadStream = ReceiverStream<Result<p4::ReadResponse, Status>>;

    async fn read(
        &self,
        request: Request<p4::ReadRequest>,
    ) -> Result<Response<Self::ReadStream>, Status> {
        let who = identify(&request, "Read")?;
        let req = request.into_inner();
        let refuse = |status: Status| {
            audit::refusal(&who, "Read", &req.role, &status);
            status
        };
        self.check_device(req.device_id).map_err(refuse)?;
        Self::check_role(who.identity, &req.role).map_err(refuse)?;
        // The runtime's other tasks move on while the read waits for the
        // state lock.
        let responses = blocking(|| self.shared.read_entities(&req))?;
        let (tx, rx) = mpsc::channel(4);
        tokio::spawn(async move {
            for entities in responses {
                if tx.send(Ok(p4::ReadResponse { entities })).await.is_err() {
                    break;
                }
            }
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn set_forwarding_pipeline_config(
        &self,
        request: Request<p4::SetForwardingPipelineConfigRequest>,
    ) -> Result<Response<p4::SetForwardingPipelineConfigResponse>, Status> {
        use p4::set_forwarding_pipeline_config_request::Action;
        let who = identify(&request, "SetForwardingPipelineConfig")?;
        let req = request.into_inner();
        let action = Action::try_from(req.action).map_or("UNKNOWN", |a| a.as_str_name());
        let role = req.role.clone();
        let result = match self.check_pipeline_push(who.identity, &req) {
            Ok(()) => self.set_pipeline_config(req).await,
            Err(status) => Err(status),
        };
        audit::pipeline(&who, &role, action, &result);
        result.map(|()| Response::new(p4::SetForwardingPipelineConfigResponse {}))
    }

    async fn get_forwarding_pipeline_config(
        &self,
        request: Request<p4::GetForwardingPipelineConfigRequest>,
    ) -> Result<Response<p4::GetForwardingPipelineConfigResponse>, Status> {
        use p4::get_forwarding_pipeline_config_request::ResponseType;
        let who = identify(&request, "GetForwardingPipelineConfig")?;
        let req = request.into_inner();
        self.check_device(req.device_id)?;
        let kind = ResponseType::try_from(req.response_type)
            .map_err(|_| Status::invalid_argument("unknown response type"))?;
        // Tenants get the P4Info (their clients need its names and ids),
        // not the operator's program.
        if matches!(who.identity, Identity::Tenant(_))
            && matches!(
                kind,
                ResponseType::All | ResponseType::DeviceConfigAndCookie
            )
        {
            let status = Status::permission_denied(format!(
                "{} may read the P4Info (P4INFO_AND_COOKIE), not the device config",
                who.identity
            ));
            audit::refusal(&who, "GetForwardingPipelineConfig", "", &status);
            return Err(status);
        }
        let state = self.shared.lock();
        let set = &state
            .pipeline
            .as_ref()
            .ok_or_else(|| Status::failed_precondition("no forwarding pipeline config is set"))?
            .config;
        let config = p4::ForwardingPipelineConfig {
            p4info: matches!(kind, ResponseType::All | ResponseType::P4infoAndCookie)
                .then(|| set.p4info.clone())
                .flatten(),
            p4_device_config: if matches!(
                kind,
                ResponseType::All | ResponseType::DeviceConfigAndCookie
            ) {
                set.p4_device_config.clone()
            } else {
                Vec::new()
            },
            cookie: set.cookie,
        };
        Ok(Response::new(p4::GetForwardingPipelineConfigResponse {
            config: Some(config),
        }))
    }

    type StreamChannelStream = ReceiverStream<Result<p4::StreamMessageResponse, Status>>;

    async fn stream_channel(
        &self,
        request: Request<Streaming<p4::StreamMessageRequest>>,
    ) -> Result<Response<Self::StreamChannelStream>, Status> {
        let who = identify(&request, "StreamChannel")?;
        let mut inbound = request.into_inner();
        let (tx, rx) = mpsc::channel(STREAM_QUEUE);
        let s = {
            let mut state = self.shared.lock();
            state.next_stream += 1;
            state.next_stream
        };
        let this = self.clone();
        tokio::spawn(async move {
            use p4::stream_message_request::Update;
            loop {
                let msg = match inbound.message().await {
                    Ok(Some(m)) => m,
                    Ok(None) => break,
                    Err(e) => {
                        tracing::debug!(stream = s, "stream error: {e}");
                        break;
                    }
                };
                match msg.update {
                    Some(Update::Arbitration(a)) => {
                        if let Err(status) = this.arbitrate(who.identity, s, &tx, &a) {
                            tracing::info!(stream = s, "arbitration refused: {}", status.message());
                            let role = a.role.as_ref().map_or("", |r| r.name.as_str());
                            audit::refusal(&who, "StreamChannel", role, &status);
                            let _ = tx.send(Err(status)).await;
                            break;
                        }
                    }
                    Some(Update::Packet(po)) => this.packet_out(s, &tx, po),
                    Some(Update::DigestAck(ack)) => this.digest_ack(s, &ack),
                    // Others: not handled.
                    Some(other) => {
                        tracing::debug!(stream = s, "ignored stream message: {other:?}");
                    }
                    None => {}
                }
            }
            this.stream_closed(s);
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn capabilities(
        &self,
        _request: Request<p4::CapabilitiesRequest>,
    ) -> Result<Response<p4::CapabilitiesResponse>, Status> {
        Ok(Response::new(p4::CapabilitiesResponse {
            p4runtime_api_version: crate::proto::P4RUNTIME_API_VERSION.into(),
            experimental: None,
        }))
    }
}

/// How often idle timeouts are checked: the precision of the
/// notifications.
const IDLE_TICK: std::time::Duration = std::time::Duration::from_millis(100);

/// Sends the default role's primary an IdleTimeoutNotification for the
/// entries whose idle timeout ran out (checked every [`IDLE_TICK`]).
/// Without a primary the entries are still marked reported: a controller
/// that arbitrates later reads `time_since_last_hit`.
async fn notify_idle_entries(shared: Arc<Shared>) -> std::convert::Infallible {
    let mut tick = tokio::time::interval(IDLE_TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let mut state = shared.lock();
        let State {
            pipeline,
            arbitration,
            ..
        } = &mut *state;
        let Some(pipeline) = pipeline.as_mut() else {
            continue;
        };
        let expired = pipeline.idle_expired();
        if expired.is_empty() {
            continue;
        }
        let timestamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
        let msg = p4::StreamMessageResponse {
            update: Some(
                p4::stream_message_response::Update::IdleTimeoutNotification(
                    p4::IdleTimeoutNotification {
                        table_entry: expired,
                        timestamp,
                    },
                ),
            ),
        };
        match arbitration.default_primary() {
            Some(client) if client.tx.try_send(Ok(msg)).is_ok() => {}
            _ => tracing::debug!(
                "IdleTimeoutNotification dropped: no primary, or its stream is full"
            ),
        }
    }
}
