//! The slow-path agent: a P4Runtime client of the NIC's own control
//! plane. One StreamChannel per punt reason it handles (a
//! `stratum.P4RoleConfig` filters PacketIns on one metadata value), each
//! the primary of its own role (`janus-slow-path-arp`,
//! `janus-slow-path-nd`) receiving only the PacketIns of that reason and
//! allowed to send PacketOuts, which carry the replies back out of the VF
//! the request came in on. Every other PacketIn still reaches the
//! operator's controllers (the default role's primary gets them all).

use super::responder::{Responder, SlowPathCounters};
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use janus_ctrl::proto::stratum::P4RoleConfig;
use janus_ctrl::proto::stratum::p4_role_config::PacketFilter;
use janus_nic::ports::punt;
use prost::Message;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;

/// How long arbitration and the P4Info request may take.
const CALL_LIMIT: Duration = Duration::from_secs(5);

/// The roles the agent takes, by punt reason.
pub const ROLES: [(u8, &str); 2] = [
    (punt::ARP_GATEWAY, "janus-slow-path-arp"),
    (punt::ND_GATEWAY, "janus-slow-path-nd"),
];

/// Where and as what the agent arbitrates.
#[derive(Clone, Debug)]
pub struct AgentConfig {
    pub device_id: u64,
    /// The election id of each of its roles.
    pub election_id: u128,
}

impl Default for AgentConfig {
    /// Device 1, election id 1.
    fn default() -> AgentConfig {
        AgentConfig {
            device_id: 1,
            election_id: 1,
        }
    }
}

/// Why the agent could not start.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error("the slow path's {call} failed: {status}")]
    Rpc {
        call: &'static str,
        status: Box<tonic::Status>,
    },
    #[error("the slow path's {0} got no answer within {CALL_LIMIT:?}")]
    Timeout(&'static str),
    #[error("the pipeline cannot be served by the slow path: {0}")]
    Pipeline(String),
    #[error("the slow path is not primary of role {role}: {message}")]
    NotPrimary { role: &'static str, message: String },
}

/// The metadata ids the agent needs, from the pipeline's P4Info.
#[derive(Clone, Copy, Debug)]
struct MetadataIds {
    in_port: u32,
    in_reason: u32,
    out_port: u32,
    /// The packet_out header's other fields (set to zero).
    out_pad: Option<u32>,
}

fn metadata_ids(info: &cfg::P4Info) -> Result<MetadataIds, AgentError> {
    let header = |name: &str| {
        info.controller_packet_metadata
            .iter()
            .find(|h| h.preamble.as_ref().is_some_and(|p| p.name == name))
            .ok_or_else(|| AgentError::Pipeline(format!("no `{name}` controller header")))
    };
    let field = |h: &cfg::ControllerPacketMetadata, name: &str| {
        h.metadata
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.id)
            .ok_or_else(|| AgentError::Pipeline(format!("the controller header has no `{name}`")))
    };
    let (pin, pout) = (header("packet_in")?, header("packet_out")?);
    let out_port = field(pout, "egress_port")?;
    let mut others = pout.metadata.iter().filter(|m| m.id != out_port);
    let out_pad = others.next().map(|m| m.id);
    if others.next().is_some() {
        return Err(AgentError::Pipeline(
            "packet_out has more than egress_port and one padding field".into(),
        ));
    }
    Ok(MetadataIds {
        in_port: field(pin, "ingress_port")?,
        in_reason: field(pin, "reason")?,
        out_port,
        out_pad,
    })
}

/// The running agent: its tasks (one per role) and its counters.
pub struct SlowPath {
    counters: Arc<SlowPathCounters>,
    tasks: Vec<JoinHandle<()>>,
}

impl SlowPath {
    /// Connects over `channel`, reads the committed pipeline's P4Info and
    /// becomes the primary of each of its roles.
    pub async fn start(
        channel: Channel,
        responder: Responder,
        config: AgentConfig,
    ) -> Result<SlowPath, AgentError> {
        let mut grpc = P4RuntimeClient::new(channel);
        let request = p4::GetForwardingPipelineConfigRequest {
            device_id: config.device_id,
            response_type: p4::get_forwarding_pipeline_config_request::ResponseType::P4infoAndCookie
                as i32,
        };
        let reply = bounded(
            "GetForwardingPipelineConfig",
            grpc.get_forwarding_pipeline_config(request),
        )
        .await?;
        let info = reply
            .into_inner()
            .config
            .and_then(|c| c.p4info)
            .ok_or_else(|| AgentError::Pipeline("no pipeline is committed".into()))?;
        let ids = metadata_ids(&info)?;
        let responder = Arc::new(responder);
        let counters = Arc::new(SlowPathCounters::default());
        let mut tasks = Vec::new();
        for (reason, role) in ROLES {
            let stream = arbitrate(&mut grpc, &config, role, ids.in_reason, reason).await?;
            let (tx, rx) = stream;
            let serve = Serve {
                ids,
                responder: responder.clone(),
                counters: counters.clone(),
                tx,
            };
            tasks.push(tokio::spawn(serve.run(role, rx)));
        }
        tracing::info!(roles = ROLES.len(), "slow-path agent started");
        Ok(SlowPath { counters, tasks })
    }

    /// Stops its tasks and waits until they ended (their streams closed).
    pub async fn stop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
        for t in self.tasks.drain(..) {
            let _ = t.await;
        }
    }

    /// Its counters (live).
    pub fn counters(&self) -> Arc<SlowPathCounters> {
        self.counters.clone()
    }
}

impl Drop for SlowPath {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

async fn bounded<T>(
    call: &'static str,
    f: impl Future<Output = Result<T, tonic::Status>>,
) -> Result<T, AgentError> {
    match tokio::time::timeout(CALL_LIMIT, f).await {
        Err(_) => Err(AgentError::Timeout(call)),
        Ok(Err(status)) => Err(AgentError::Rpc {
            call,
            status: Box::new(status),
        }),
        Ok(Ok(v)) => Ok(v),
    }
}

type StreamIn = tonic::Streaming<p4::StreamMessageResponse>;
type StreamOut = mpsc::Sender<p4::StreamMessageRequest>;

/// Opens a StreamChannel and becomes the primary of `role`, receiving the
/// PacketIns whose `reason` metadata is `reason`.
async fn arbitrate(
    grpc: &mut P4RuntimeClient<Channel>,
    config: &AgentConfig,
    role: &'static str,
    reason_id: u32,
    reason: u8,
) -> Result<(StreamOut, StreamIn), AgentError> {
    let role_config = P4RoleConfig {
        packet_in_filter: Some(PacketFilter {
            metadata_id: reason_id,
            value: vec![reason],
        }),
        receives_packet_ins: true,
        ..Default::default()
    };
    let hello = p4::StreamMessageRequest {
        update: Some(p4::stream_message_request::Update::Arbitration(
            p4::MasterArbitrationUpdate {
                device_id: config.device_id,
                role: Some(p4::Role {
                    name: role.to_string(),
                    config: Some(prost_types::Any {
                        type_url: format!(
                            "type.googleapis.com/{}",
                            janus_ctrl::roles::ROLE_CONFIG_TYPE
                        ),
                        value: role_config.encode_to_vec(),
                    }),
                    ..Default::default()
                }),
                election_id: Some(p4::Uint128 {
                    high: (config.election_id >> 64) as u64,
                    low: config.election_id as u64,
                }),
                status: None,
            },
        )),
    };
    let (tx, rx) = mpsc::channel(64);
    // Queued first: the server answers the call once it has it.
    let _ = tx.send(hello).await;
    let mut stream = bounded(
        "StreamChannel",
        grpc.stream_channel(ReceiverStream::new(rx)),
    )
    .await?
    .into_inner();
    let answer = bounded("arbitration", stream.message()).await?;
    match answer.and_then(|m| m.update) {
        Some(p4::stream_message_response::Update::Arbitration(a)) => {
            let status = a.status.unwrap_or_default();
            if status.code != 0 {
                return Err(AgentError::NotPrimary {
                    role,
                    message: status.message,
                });
            }
        }
        other => {
            return Err(AgentError::NotPrimary {
                role,
                message: format!("the server did not answer the arbitration: {other:?}"),
            });
        }
    }
    Ok((tx, stream))
}

/// One role's loop: PacketIn in, PacketOut out.
struct Serve {
    ids: MetadataIds,
    responder: Arc<Responder>,
    counters: Arc<SlowPathCounters>,
    tx: StreamOut,
}

/// The unsigned value of canonical (big-endian) metadata bytes.
fn value(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |v, &b| (v << 8) | u64::from(b))
}

/// `v` as canonical metadata bytes (no leading zero bytes, zero as one).
fn canonical(v: u32) -> Vec<u8> {
    let bytes: Vec<u8> = v
        .to_be_bytes()
        .into_iter()
        .skip_while(|&b| b == 0)
        .collect();
    if bytes.is_empty() { vec![0] } else { bytes }
}

impl Serve {
    async fn run(self, role: &'static str, mut rx: StreamIn) {
        loop {
            let message = match rx.message().await {
                Ok(Some(m)) => m,
                Ok(None) => break,
                Err(status) => {
                    tracing::warn!(role, "the slow path's stream ended: {status}");
                    return;
                }
            };
            match message.update {
                Some(p4::stream_message_response::Update::Packet(p)) => self.packet_in(p).await,
                Some(p4::stream_message_response::Update::Error(e)) => {
                    self.counters.refused.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!(role, "a slow-path PacketOut was refused: {}", e.message);
                }
                _ => {}
            }
        }
        tracing::info!(role, "the slow path's stream closed");
    }

    async fn packet_in(&self, p: p4::PacketIn) {
        let field = |id: u32| {
            p.metadata
                .iter()
                .find(|m| m.metadata_id == id)
                .map(|m| value(&m.value))
        };
        let (Some(port), Some(reason)) = (field(self.ids.in_port), field(self.ids.in_reason))
        else {
            self.counters.ignored.fetch_add(1, Ordering::Relaxed);
            return;
        };
        let (port, reason) = (port as u32, reason as u8);
        let reply = match self.responder.answer(port, reason, &p.payload) {
            Ok(reply) => reply,
            Err(why) => {
                self.counters.ignored.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(port, reason, ?why, "punted frame not answered");
                return;
            }
        };
        let mut metadata = vec![p4::PacketMetadata {
            metadata_id: self.ids.out_port,
            value: canonical(port),
        }];
        if let Some(pad) = self.ids.out_pad {
            metadata.push(p4::PacketMetadata {
                metadata_id: pad,
                value: vec![0],
            });
        }
        let out = p4::StreamMessageRequest {
            update: Some(p4::stream_message_request::Update::Packet(p4::PacketOut {
                payload: reply,
                metadata,
            })),
        };
        if self.tx.send(out).await.is_err() {
            return;
        }
        let counter = if reason == punt::ARP_GATEWAY {
            &self.counters.arp_answered
        } else {
            &self.counters.nd_answered
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}
