//! The P4Runtime service: [`P4RuntimeService`] implements the generated
//! `p4_runtime_server::P4Runtime` trait over a behavioural-model switch.
//!
//! All state (the committed pipeline, a saved one, and the arbitration of
//! the streams) sits behind one `std::sync::Mutex`, never held across an
//! `await`. Compiling a pushed pipeline runs on a blocking thread, outside
//! the lock.
//!
//! Arbitration follows P4Runtime 1.5 §5: per (device id, role) — only the
//! default role so far — the stream with the highest election id is the
//! primary. Each arbitration message gets an answer: OK to the primary,
//! ALREADY_EXISTS to a backup (NOT_FOUND when there is no primary), carrying
//! the highest election id seen; when the primary changes every stream of
//! the role is told. An election id another stream already holds is
//! refused with INVALID_ARGUMENT, which ends that stream. Write and
//! SetForwardingPipelineConfig need the primary's election id
//! (PERMISSION_DENIED otherwise).
//!
//! Packet I/O (§16.1): a PacketOut from the primary enters the pipeline on
//! the CPU port behind the `packet_out` controller header; one from any
//! other stream, or with metadata that do not match the P4Info, is dropped
//! and answered with a StreamError. Packets the pipeline sends to the CPU
//! port go to the primary as PacketIns, their `packet_in` header turned
//! into metadata. After every packet the switch's digests go to the
//! primary as DigestLists ([`crate::digests`]). The entities beside table
//! entries are in [`crate::resources`], [`crate::meters`] and
//! [`crate::profiles`].

use crate::device::{Pipeline, RpcError};
use crate::proto::google::rpc;
use crate::proto::p4::v1 as p4;
use crate::proto::p4::v1::p4_runtime_server::{P4Runtime, P4RuntimeServer};
use prost::Message;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Code, Request, Response, Status, Streaming};

/// Largest gRPC message accepted or sent (big Write batches, big configs).
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// Messages queued per stream before the server waits on the client.
const STREAM_QUEUE: usize = 256;

type StreamTx = mpsc::Sender<Result<p4::StreamMessageResponse, Status>>;

/// Where the packets the pipeline sends out of its ports (other than the
/// CPU port) go, for packets that PacketOuts put in: (port, frame).
pub type PortTx = mpsc::Sender<(u32, Vec<u8>)>;

/// The CPU port unless `--cpu-port` says otherwise (Janus's NIC port map).
pub const DEFAULT_CPU_PORT: u32 = 510;

/// One open StreamChannel of the default role.
struct Client {
    election_id: u128,
    tx: StreamTx,
}

/// Arbitration state of the default role.
#[derive(Default)]
struct Arbitration {
    /// Streams that have sent an arbitration update, by stream number.
    clients: BTreeMap<u64, Client>,
    /// The highest election id ever seen for the role.
    highest: Option<u128>,
    /// The primary's stream number.
    primary: Option<u64>,
}

impl Arbitration {
    fn primary_election_id(&self) -> Option<u128> {
        self.primary
            .and_then(|s| self.clients.get(&s))
            .map(|c| c.election_id)
    }

    /// Recomputes the primary: the stream holding the highest election id
    /// seen. Returns whether the primary changed.
    fn elect(&mut self) -> bool {
        let best = self
            .clients
            .iter()
            .max_by_key(|(_, c)| c.election_id)
            .filter(|(_, c)| Some(c.election_id) == self.highest)
            .map(|(&s, _)| s);
        let changed = best != self.primary;
        self.primary = best;
        changed
    }

    /// The arbitration answer for stream `s`.
    fn answer(&self, device_id: u64, s: u64) -> p4::StreamMessageResponse {
        let (code, message) = if self.primary == Some(s) {
            (Code::Ok, "this stream is the primary")
        } else if self.primary.is_some() {
            (
                Code::AlreadyExists,
                "a primary with a higher election id exists",
            )
        } else {
            (Code::NotFound, "there is no primary")
        };
        p4::StreamMessageResponse {
            update: Some(p4::stream_message_response::Update::Arbitration(
                p4::MasterArbitrationUpdate {
                    device_id,
                    role: None,
                    election_id: self.highest.map(to_uint128),
                    status: Some(rpc::Status {
                        code: code as i32,
                        message: message.into(),
                        details: Vec::new(),
                    }),
                },
            )),
        }
    }

    /// Tells every stream of the role its standing.
    fn notify_all(&self, device_id: u64) {
        for (&s, c) in &self.clients {
            let _ = c.tx.try_send(Ok(self.answer(device_id, s)));
        }
    }
}

struct State {
    pipeline: Option<Pipeline>,
    /// The config of the last VERIFY_AND_SAVE, for COMMIT.
    saved: Option<Pipeline>,
    arbitration: Arbitration,
    next_stream: u64,
    /// Where frames from PacketOuts leave by (none: they are dropped).
    port_out: Option<PortTx>,
}

/// The server's state, shared by the service, the streams' tasks and
/// (through [`SwitchHandle`]) the embedding program.
struct Shared {
    device_id: u64,
    cpu_port: u32,
    state: Mutex<State>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves the state as it was between
        // updates; keep serving.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs a packet arriving on `port` through the committed pipeline
    /// (`None` without one). Copies sent to the CPU port lose their
    /// `packet_in` header and go to the primary as PacketIns (dropped when
    /// there is no primary or its stream is full); the others are returned.
    fn run_packet(
        &self,
        state: &mut State,
        port: u32,
        bytes: &[u8],
    ) -> Option<Vec<(u32, Vec<u8>)>> {
        let State {
            pipeline,
            arbitration,
            ..
        } = state;
        let pipeline = pipeline.as_mut()?;
        let mut rest = Vec::new();
        for (p, frame) in pipeline.switch.process(port, bytes) {
            if p != self.cpu_port {
                rest.push((p, frame));
                continue;
            }
            let Some(packet) = pipeline.packet_in(&frame) else {
                tracing::debug!(
                    len = frame.len(),
                    "CPU-port packet shorter than packet_in: dropped"
                );
                continue;
            };
            let primary = arbitration
                .primary
                .and_then(|s| arbitration.clients.get(&s));
            let Some(client) = primary else {
                tracing::debug!("PacketIn dropped: there is no primary");
                continue;
            };
            let msg = p4::StreamMessageResponse {
                update: Some(p4::stream_message_response::Update::Packet(packet)),
            };
            if client.tx.try_send(Ok(msg)).is_err() {
                tracing::debug!("PacketIn dropped: the primary's stream is full");
            }
        }
        let lists = pipeline.digest_lists();
        if !lists.is_empty() {
            let primary = arbitration
                .primary
                .and_then(|s| arbitration.clients.get(&s));
            match primary {
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
        Some(rest)
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
    pub fn with_switch<R>(&self, f: impl FnOnce(Option<&mut janus_v1model::V1Switch>) -> R) -> R {
        let mut state = self.shared.lock();
        f(state.pipeline.as_mut().map(|p| &mut p.switch))
    }

    /// Sends a packet into the switch on `port` as a packet arriving from
    /// the wire: what the pipeline sends to the CPU port becomes PacketIns
    /// for the primary; the packets sent to other ports are returned as
    /// (port, frame). `None` before a pipeline is set.
    pub fn inject(&self, port: u32, packet: &[u8]) -> Option<Vec<(u32, Vec<u8>)>> {
        let mut state = self.shared.lock();
        self.shared.run_packet(&mut state, port, packet)
    }
}

fn to_uint128(v: u128) -> p4::Uint128 {
    p4::Uint128 {
        high: (v >> 64) as u64,
        low: v as u64,
    }
}

fn from_uint128(v: &p4::Uint128) -> u128 {
    (u128::from(v.high) << 64) | u128::from(v.low)
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
                state: Mutex::new(State {
                    pipeline: None,
                    saved: None,
                    arbitration: Arbitration::default(),
                    next_stream: 0,
                    port_out: None,
                }),
            }),
        }
    }

    /// Where the frames that PacketOuts make the pipeline send out of its
    /// ports go (a full channel drops them, as a congested port would).
    /// Without one they are dropped.
    pub fn set_port_output(&self, tx: PortTx) {
        self.shared.lock().port_out = Some(tx);
    }

    /// Commits a pipeline without a client (`janus ctrl serve --p4`).
    pub fn set_pipeline(&self, pipeline: Pipeline) {
        self.shared.lock().pipeline = Some(pipeline);
    }

    pub fn switch_handle(&self) -> SwitchHandle {
        SwitchHandle {
            shared: self.shared.clone(),
        }
    }

    /// The tonic service, with the message size limits set.
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

    fn check_role(role: &str) -> Result<(), Status> {
        if !role.is_empty() {
            return Err(Status::unimplemented(format!(
                "role {role:?}: only the default role is supported so far"
            )));
        }
        Ok(())
    }

    /// Whether `election_id` is the primary's.
    fn check_primary(state: &State, election_id: Option<&p4::Uint128>) -> Result<(), Status> {
        let given = election_id.map(from_uint128);
        match state.arbitration.primary_election_id() {
            Some(p) if given == Some(p) => Ok(()),
            _ => Err(Status::permission_denied(
                "only the primary controller (with the current election id) may do this",
            )),
        }
    }

    /// Handles one arbitration message from stream `s`; an error ends the
    /// stream with that status.
    fn arbitrate(
        &self,
        s: u64,
        tx: &StreamTx,
        update: &p4::MasterArbitrationUpdate,
    ) -> Result<(), Status> {
        self.check_device(update.device_id)?;
        if let Some(role) = &update.role {
            Self::check_role(&role.name)?;
        }
        let election_id = update
            .election_id
            .as_ref()
            .map(from_uint128)
            .ok_or_else(|| Status::invalid_argument("the arbitration update has no election id"))?;
        let mut state = self.shared.lock();
        let arb = &mut state.arbitration;
        if arb
            .clients
            .iter()
            .any(|(&o, c)| o != s && c.election_id == election_id)
        {
            return Err(Status::invalid_argument(format!(
                "election id {election_id} is already used by another controller of this role"
            )));
        }
        arb.clients.insert(
            s,
            Client {
                election_id,
                tx: tx.clone(),
            },
        );
        arb.highest = Some(arb.highest.map_or(election_id, |h| h.max(election_id)));
        let device_id = self.shared.device_id;
        if arb.elect() {
            tracing::info!(stream = s, election_id, "new primary");
            arb.notify_all(device_id);
        } else {
            let _ = tx.try_send(Ok(arb.answer(device_id, s)));
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
        if state.arbitration.primary != Some(s) {
            return refuse(
                Code::PermissionDenied,
                "only the primary controller may send packets".into(),
                po,
            );
        }
        let frame = match state.pipeline.as_ref().map(|p| p.packet_out_frame(&po)) {
            None => {
                return refuse(
                    Code::FailedPrecondition,
                    "no forwarding pipeline is set".into(),
                    po,
                );
            }
            Some(Err(e)) => return refuse(e.code, e.message, po),
            Some(Ok(frame)) => frame,
        };
        let sent = self
            .shared
            .run_packet(&mut state, self.shared.cpu_port, &frame)
            .unwrap_or_default();
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
        if state.arbitration.primary != Some(s) {
            tracing::debug!(
                stream = s,
                "digest ack from a stream that is not the primary: ignored"
            );
            return;
        }
        if let Some(p) = state.pipeline.as_mut() {
            p.digests.ack(ack);
        }
    }

    /// Stream `s` closed: forget it; if it was the primary, tell the rest.
    fn stream_closed(&self, s: u64) {
        let mut state = self.shared.lock();
        let arb = &mut state.arbitration;
        if arb.clients.remove(&s).is_some() && arb.elect() {
            tracing::info!(stream = s, "the primary left");
            arb.notify_all(self.shared.device_id);
        }
    }
}

/// The gRPC status of a Write batch in which some updates failed: UNKNOWN,
/// with a `google.rpc.Status` whose details hold one `p4.v1.Error` per
/// update, in order (canonical_code OK for those that were applied).
fn batch_status(results: &[Result<(), RpcError>]) -> Status {
    let failed = results.iter().filter(|r| r.is_err()).count();
    let message = format!("{failed} of {} updates failed", results.len());
    let details = results
        .iter()
        .map(|r| {
            let (canonical_code, message) = match r {
                Ok(()) => (Code::Ok as i32, String::new()),
                Err(e) => (e.code as i32, e.message.clone()),
            };
            prost_types::Any {
                type_url: "type.googleapis.com/p4.v1.Error".into(),
                value: p4::Error {
                    canonical_code,
                    message,
                    ..Default::default()
                }
                .encode_to_vec(),
            }
        })
        .collect();
    let status = rpc::Status {
        code: Code::Unknown as i32,
        message: message.clone(),
        details,
    };
    Status::with_details(Code::Unknown, message, status.encode_to_vec().into())
}

#[tonic::async_trait]
impl P4Runtime for P4RuntimeService {
    async fn write(
        &self,
        request: Request<p4::WriteRequest>,
    ) -> Result<Response<p4::WriteResponse>, Status> {
        use p4::write_request::Atomicity;
        let req = request.into_inner();
        self.check_device(req.device_id)?;
        Self::check_role(&req.role)?;
        match Atomicity::try_from(req.atomicity) {
            Ok(Atomicity::ContinueOnError) => {}
            Ok(a) => {
                return Err(Status::unimplemented(format!(
                    "atomicity {} is not supported yet (only CONTINUE_ON_ERROR)",
                    a.as_str_name()
                )));
            }
            Err(_) => return Err(Status::invalid_argument("unknown atomicity")),
        }
        let mut state = self.shared.lock();
        Self::check_primary(&state, req.election_id.as_ref())?;
        let pipeline = state
            .pipeline
            .as_mut()
            .ok_or_else(|| Status::failed_precondition("no forwarding pipeline is set"))?;
        let results: Vec<Result<(), RpcError>> =
            req.updates.iter().map(|u| pipeline.apply(u)).collect();
        drop(state);
        let failed = results.iter().filter(|r| r.is_err()).count();
        tracing::debug!(updates = results.len(), failed, "write");
        if failed > 0 {
            return Err(batch_status(&results));
        }
        Ok(Response::new(p4::WriteResponse {}))
    }

    type ReadStream = ReceiverStream<Result<p4::ReadResponse, Status>>;

    async fn read(
        &self,
        request: Request<p4::ReadRequest>,
    ) -> Result<Response<Self::ReadStream>, Status> {
        let req = request.into_inner();
        self.check_device(req.device_id)?;
        Self::check_role(&req.role)?;
        let mut entities = Vec::new();
        {
            let state = self.shared.lock();
            let pipeline = state
                .pipeline
                .as_ref()
                .ok_or_else(|| Status::failed_precondition("no forwarding pipeline is set"))?;
            for e in &req.entities {
                use p4::entity::Entity as E;
                match &e.entity {
                    Some(E::TableEntry(filter)) => {
                        for te in pipeline.read(filter)? {
                            entities.push(p4::Entity {
                                entity: Some(E::TableEntry(te)),
                            });
                        }
                    }
                    Some(E::CounterEntry(f)) => entities.extend(pipeline.read_counters(f)?),
                    Some(E::DirectCounterEntry(f)) => {
                        entities.extend(pipeline.read_direct_counters(f)?)
                    }
                    Some(E::RegisterEntry(f)) => entities.extend(pipeline.read_registers(f)?),
                    Some(E::PacketReplicationEngineEntry(f)) => {
                        entities.extend(pipeline.read_pre(f)?)
                    }
                    Some(E::MeterEntry(f)) => entities.extend(pipeline.read_meters(f)?),
                    Some(E::DirectMeterEntry(f)) => {
                        entities.extend(pipeline.read_direct_meters(f)?)
                    }
                    Some(E::ActionProfileMember(f)) => entities.extend(pipeline.read_members(f)?),
                    Some(E::ActionProfileGroup(f)) => {
                        entities.extend(pipeline.read_profile_groups(f)?)
                    }
                    Some(E::ValueSetEntry(f)) => entities.extend(pipeline.read_value_sets(f)?),
                    Some(E::DigestEntry(f)) => entities.extend(pipeline.read_digests(f)?),
                    Some(_) => {
                        return Err(Status::unimplemented(
                            "this kind of entity cannot be read yet",
                        ));
                    }
                    None => return Err(Status::invalid_argument("an empty entity")),
                }
            }
        }
        // Stream the entities in responses of at most this many.
        const PER_RESPONSE: usize = 1000;
        let chunks: Vec<Vec<p4::Entity>> = if entities.is_empty() {
            vec![Vec::new()]
        } else {
            entities.chunks(PER_RESPONSE).map(<[_]>::to_vec).collect()
        };
        let (tx, rx) = mpsc::channel(4);
        tokio::spawn(async move {
            for entities in chunks {
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
        let req = request.into_inner();
        self.check_device(req.device_id)?;
        Self::check_role(&req.role)?;
        let action = Action::try_from(req.action)
            .map_err(|_| Status::invalid_argument(format!("unknown action {}", req.action)))?;
        Self::check_primary(&self.shared.lock(), req.election_id.as_ref())?;
        let build = |config: Option<p4::ForwardingPipelineConfig>| async move {
            let config =
                config.ok_or_else(|| Status::invalid_argument("the request has no config"))?;
            tokio::task::spawn_blocking(move || Pipeline::build(config))
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
                Self::check_primary(&state, req.election_id.as_ref())?;
                state.pipeline = Some(pipeline);
                tracing::info!("pipeline committed");
            }
            Action::VerifyAndSave => {
                let pipeline = build(req.config).await?;
                let mut state = self.shared.lock();
                Self::check_primary(&state, req.election_id.as_ref())?;
                state.saved = Some(pipeline);
            }
            Action::Commit => {
                let mut state = self.shared.lock();
                let saved = state.saved.take().ok_or_else(|| {
                    Status::failed_precondition("COMMIT: no config was saved (VERIFY_AND_SAVE)")
                })?;
                state.pipeline = Some(saved);
                tracing::info!("saved pipeline committed");
            }
            Action::ReconcileAndCommit => {
                return Err(Status::unimplemented(
                    "RECONCILE_AND_COMMIT is not supported yet",
                ));
            }
            Action::Unspecified => {
                return Err(Status::invalid_argument("the action is UNSPECIFIED"));
            }
        }
        Ok(Response::new(p4::SetForwardingPipelineConfigResponse {}))
    }

    async fn get_forwarding_pipeline_config(
        &self,
        request: Request<p4::GetForwardingPipelineConfigRequest>,
    ) -> Result<Response<p4::GetForwardingPipelineConfigResponse>, Status> {
        use p4::get_forwarding_pipeline_config_request::ResponseType;
        let req = request.into_inner();
        self.check_device(req.device_id)?;
        let kind = ResponseType::try_from(req.response_type)
            .map_err(|_| Status::invalid_argument("unknown response type"))?;
        let state = self.shared.lock();
        let set = &state
            .pipeline
            .as_ref()
            .ok_or_else(|| Status::failed_precondition("no forwarding pipeline is set"))?
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
                        if let Err(status) = this.arbitrate(s, &tx, &a) {
                            tracing::info!(stream = s, "arbitration refused: {}", status.message());
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

/// Serves `service` on `listener` (plaintext HTTP/2) until `shutdown`
/// completes.
pub async fn serve(
    service: P4RuntimeService,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), tonic::transport::Error> {
    tonic::transport::Server::builder()
        .add_service(service.into_server())
        .serve_with_incoming_shutdown(
            tokio_stream::wrappers::TcpListenerStream::new(listener),
            shutdown,
        )
        .await
}
