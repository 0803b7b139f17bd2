//! A P4Runtime client: connects to a P4Runtime server (plaintext or mTLS),
//! becomes primary over the StreamChannel, pushes pipelines, writes and
//! reads. Every call is bounded by the configured [`Limits`]; the stream
//! closes when the [`Client`] is dropped.
//!
//! ```no_run
//! use janus_ctrl::client::{Client, ClientConfig, ClientTls};
//! use janus_ctrl::proto::p4::v1 as p4;
//! use std::path::Path;
//!
//! # async fn demo() -> Result<(), janus_ctrl::client::Error> {
//! let mut config = ClientConfig::new("127.0.0.1:9559");
//! config.election_id = 10;
//! config.tls = Some(ClientTls::from_files(
//!     Path::new("ca.pem"),
//!     Path::new("operator.pem"),
//!     Path::new("operator.key"),
//! )?);
//! let mut client = Client::connect(config).await?;
//! let arbitration = client.become_primary().await?;
//! assert!(arbitration.is_primary(), "{arbitration:?}");
//! let entries = client
//!     .read(vec![p4::Entity {
//!         entity: Some(p4::entity::Entity::TableEntry(p4::TableEntry::default())),
//!     }])
//!     .await?;
//! println!("{} table entries", entries.len());
//! # Ok(())
//! # }
//! ```

pub mod entries;
mod error;
pub mod runtime_cli;
pub mod schema;
pub mod tenant;
mod tls;
pub mod values;

pub use error::{Error, InputError, UpdateStatus, update_statuses};
pub use tls::{ClientIdentity, ClientTls};

use crate::proto::p4::v1 as p4;
use crate::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use error::error_chain;
use p4::get_forwarding_pipeline_config_request::ResponseType;
use p4::set_forwarding_pipeline_config_request::Action as PipelineAction;
use p4::write_request::Atomicity;
use std::future::Future;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Code, Streaming};

/// How long the calls of a client may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connecting (TCP and the TLS handshake).
    pub connect: Duration,
    /// One call, or one message of a streamed answer (a pipeline push
    /// compiles nothing on the client but may take the server a while).
    pub call: Duration,
}

impl Default for Limits {
    /// 5 s to connect, 120 s per call.
    fn default() -> Limits {
        Limits {
            connect: Duration::from_secs(5),
            call: Duration::from_secs(120),
        }
    }
}

/// Where and as whom a client connects.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// `HOST:PORT` (`http://` is prefixed when no scheme is given,
    /// `https://` with TLS).
    pub server: String,
    /// The P4Runtime device id.
    pub device_id: u64,
    /// The election id of arbitration and of writes.
    pub election_id: u128,
    /// The P4Runtime role to act in (empty: the default role).
    pub role: String,
    /// TLS (None: plaintext).
    pub tls: Option<ClientTls>,
    /// How long calls may take.
    pub limits: Limits,
}

impl ClientConfig {
    /// Plaintext to `server`, device 1, election id 1, the default role.
    pub fn new(server: impl Into<String>) -> ClientConfig {
        ClientConfig {
            server: server.into(),
            device_id: 1,
            election_id: 1,
            role: String::new(),
            tls: None,
            limits: Limits::default(),
        }
    }
}

/// The answer to an arbitration: whether the client is primary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arbitration {
    /// `Ok` when primary, `AlreadyExists` when another client is, `NotFound`
    /// when no client is.
    pub code: Code,
    /// The server's message.
    pub message: String,
    /// The highest election id the server has seen for the role.
    pub highest_election_id: u128,
}

impl Arbitration {
    /// Whether this client is the primary.
    pub fn is_primary(&self) -> bool {
        self.code == Code::Ok
    }
}

/// An open StreamChannel (for PacketOut, PacketIn, digests and later
/// arbitration answers); every receive is bounded.
pub struct ClientStream {
    tx: mpsc::Sender<p4::StreamMessageRequest>,
    rx: Streaming<p4::StreamMessageResponse>,
    limit: Duration,
}

impl ClientStream {
    /// Sends a message to the server.
    pub async fn send(&self, message: p4::StreamMessageRequest) -> Result<(), Error> {
        bounded(self.limit, "StreamChannel", async {
            self.tx
                .send(message)
                .await
                .map_err(|_| tonic::Status::unavailable("the StreamChannel closed"))
        })
        .await
    }

    /// The next message from the server (None: the server closed the
    /// stream).
    pub async fn message(&mut self) -> Result<Option<p4::StreamMessageResponse>, Error> {
        bounded(self.limit, "StreamChannel", self.rx.message()).await
    }
}

/// A connection to a P4Runtime server.
pub struct Client {
    grpc: P4RuntimeClient<Channel>,
    config: ClientConfig,
    /// The StreamChannel once arbitrated; dropping it ends the stream.
    stream: Option<ClientStream>,
}

/// Awaits `f` for at most `limit`.
async fn bounded<T>(
    limit: Duration,
    call: &'static str,
    f: impl Future<Output = Result<T, tonic::Status>>,
) -> Result<T, Error> {
    match tokio::time::timeout(limit, f).await {
        Err(_) => Err(Error::Timeout { call, limit }),
        Ok(Err(s)) => Err(Error::from_status(call, s)),
        Ok(Ok(v)) => Ok(v),
    }
}

fn uint128(v: u128) -> Option<p4::Uint128> {
    Some(p4::Uint128 {
        high: (v >> 64) as u64,
        low: v as u64,
    })
}

impl Client {
    /// Connects to `config.server`.
    pub async fn connect(config: ClientConfig) -> Result<Client, Error> {
        let limit = config.limits.connect;
        let scheme = if config.tls.is_some() {
            "https"
        } else {
            "http"
        };
        let url = if config.server.contains("://") {
            config.server.clone()
        } else {
            format!("{scheme}://{}", config.server)
        };
        let mut endpoint = Channel::from_shared(url.clone())
            .map_err(|e| Error::Usage(format!("bad server address `{url}`: {e}")))?
            .connect_timeout(limit);
        if let Some(tls) = &config.tls {
            endpoint = endpoint
                .tls_config(tls.config())
                .map_err(|e| Error::Usage(format!("TLS: {}", error_chain(&e))))?;
        }
        let connect_error = |reason| Error::Connect {
            server: config.server.clone(),
            reason,
        };
        let channel = match tokio::time::timeout(limit, endpoint.connect()).await {
            Ok(Ok(c)) => c,
            Ok(Err(e)) => return Err(connect_error(error_chain(&e))),
            Err(_) => {
                return Err(connect_error(format!(
                    "no answer within {} s",
                    limit.as_secs()
                )));
            }
        };
        tracing::debug!(server = %config.server, "connected to the P4Runtime server");
        Ok(Client::from_grpc(P4RuntimeClient::new(channel), config))
    }

    /// A client over an existing gRPC client (its own channel, TLS and
    /// interceptors); `config.server` and `config.tls` are then unused.
    pub fn from_grpc(grpc: P4RuntimeClient<Channel>, config: ClientConfig) -> Client {
        let grpc = grpc
            .max_decoding_message_size(crate::server::MAX_MESSAGE_BYTES)
            .max_encoding_message_size(crate::server::MAX_MESSAGE_BYTES);
        Client {
            grpc,
            config,
            stream: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// The generated gRPC client, for requests this type does not build.
    pub fn grpc(&mut self) -> &mut P4RuntimeClient<Channel> {
        &mut self.grpc
    }

    /// The StreamChannel opened by [`Client::become_primary`].
    pub fn stream(&mut self) -> Option<&mut ClientStream> {
        self.stream.as_mut()
    }

    /// [`Client::become_primary`], and an [`Error::NotPrimary`] unless the
    /// client is primary then.
    pub async fn ensure_primary(&mut self) -> Result<(), Error> {
        let a = self.become_primary().await?;
        if a.is_primary() {
            return Ok(());
        }
        Err(Error::NotPrimary {
            election_id: self.config.election_id,
            highest: a.highest_election_id,
            message: a.message,
        })
    }

    /// Opens a StreamChannel (closing the one before) and arbitrates for
    /// the configured role with the configured election id. The stream
    /// stays open whatever the answer (a backup hears when it becomes
    /// primary); an error when the server refuses the arbitration itself
    /// (an unknown device, a role the client may not act in).
    pub async fn become_primary(&mut self) -> Result<Arbitration, Error> {
        self.stream = None;
        let limit = self.config.limits.call;
        let (tx, rx) = mpsc::channel(16);
        let hello = p4::StreamMessageRequest {
            update: Some(p4::stream_message_request::Update::Arbitration(
                p4::MasterArbitrationUpdate {
                    device_id: self.config.device_id,
                    role: (!self.config.role.is_empty()).then(|| p4::Role {
                        name: self.config.role.clone(),
                        ..Default::default()
                    }),
                    election_id: uint128(self.config.election_id),
                    status: None,
                },
            )),
        };
        // Queued before the call: the server answers only once it has it.
        tx.send(hello)
            .await
            .map_err(|_| Error::Protocol("the StreamChannel closed".into()))?;
        let rx = bounded(
            limit,
            "StreamChannel",
            self.grpc.stream_channel(ReceiverStream::new(rx)),
        )
        .await?
        .into_inner();
        let mut stream = ClientStream { tx, rx, limit };
        let answer = match stream.message().await? {
            Some(p4::StreamMessageResponse {
                update: Some(p4::stream_message_response::Update::Arbitration(a)),
            }) => a,
            other => {
                return Err(Error::Protocol(format!(
                    "the server did not answer the arbitration: {other:?}"
                )));
            }
        };
        let status = answer.status.unwrap_or_default();
        let arbitration = Arbitration {
            code: Code::from_i32(status.code),
            message: status.message,
            highest_election_id: answer
                .election_id
                .map_or(0, |e| (u128::from(e.high) << 64) | u128::from(e.low)),
        };
        self.stream = Some(stream);
        Ok(arbitration)
    }

    /// Sets the forwarding pipeline (`action`: verify, commit, reconcile...).
    pub async fn set_pipeline(
        &mut self,
        action: PipelineAction,
        config: p4::ForwardingPipelineConfig,
    ) -> Result<(), Error> {
        let request = p4::SetForwardingPipelineConfigRequest {
            device_id: self.config.device_id,
            role: self.config.role.clone(),
            election_id: uint128(self.config.election_id),
            action: action as i32,
            config: Some(config),
            ..Default::default()
        };
        bounded(
            self.config.limits.call,
            "SetForwardingPipelineConfig",
            self.grpc.set_forwarding_pipeline_config(request),
        )
        .await
        .map(|_| ())
    }

    /// The pipeline the device holds, as much of it as `response_type`
    /// asks for.
    pub async fn get_pipeline_config(
        &mut self,
        response_type: ResponseType,
    ) -> Result<p4::ForwardingPipelineConfig, Error> {
        let request = p4::GetForwardingPipelineConfigRequest {
            device_id: self.config.device_id,
            response_type: response_type as i32,
        };
        bounded(
            self.config.limits.call,
            "GetForwardingPipelineConfig",
            self.grpc.get_forwarding_pipeline_config(request),
        )
        .await?
        .into_inner()
        .config
        .ok_or_else(|| Error::Protocol("the server sent no pipeline config".into()))
    }

    /// Writes `updates` in one batch. When updates fail, the error is an
    /// [`Error::Status`] whose `updates` holds every update's result.
    pub async fn write(
        &mut self,
        updates: Vec<p4::Update>,
        atomicity: Atomicity,
    ) -> Result<(), Error> {
        let request = p4::WriteRequest {
            device_id: self.config.device_id,
            role: self.config.role.clone(),
            election_id: uint128(self.config.election_id),
            updates,
            atomicity: atomicity as i32,
            ..Default::default()
        };
        bounded(self.config.limits.call, "Write", self.grpc.write(request))
            .await
            .map(|_| ())
    }

    /// Reads `entities` (each a filter), every response's entities together.
    pub async fn read(&mut self, entities: Vec<p4::Entity>) -> Result<Vec<p4::Entity>, Error> {
        let mut out = Vec::new();
        self.read_each(entities, |e| out.push(e)).await?;
        Ok(out)
    }

    /// [`Client::read`], each entity handed to `each` as its response
    /// arrives, so that a read of many is never gathered whole; the number
    /// of entities read.
    pub async fn read_each(
        &mut self,
        entities: Vec<p4::Entity>,
        mut each: impl FnMut(p4::Entity),
    ) -> Result<usize, Error> {
        let limit = self.config.limits.call;
        let mut stream = bounded(limit, "Read", self.grpc.read(self.read_request(entities)))
            .await?
            .into_inner();
        let mut count = 0;
        while let Some(r) = bounded(limit, "Read", stream.message()).await? {
            count += r.entities.len();
            r.entities.into_iter().for_each(&mut each);
        }
        Ok(count)
    }

    fn read_request(&self, entities: Vec<p4::Entity>) -> p4::ReadRequest {
        p4::ReadRequest {
            device_id: self.config.device_id,
            role: self.config.role.clone(),
            entities,
        }
    }

    /// The server's capabilities (the P4Runtime version it implements).
    pub async fn capabilities(&mut self) -> Result<p4::CapabilitiesResponse, Error> {
        bounded(
            self.config.limits.call,
            "Capabilities",
            self.grpc.capabilities(p4::CapabilitiesRequest::default()),
        )
        .await
        .map(tonic::Response::into_inner)
    }
}
