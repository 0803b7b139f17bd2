//! One P4Runtime client session: connect, fetch the P4Info, become
//! primary (StreamChannel arbitration) for writes, write and read. Every
//! call is bounded by a timeout; the stream closes when the session is
//! dropped.

use super::ClientError;
use super::schema::Schema;
use janus_ctrl::proto::google::rpc;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use prost::Message;
use std::future::Future;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Code, Streaming};

/// The address `--server` defaults to (P4Runtime's registered port).
pub const DEFAULT_SERVER: &str = "127.0.0.1:9559";

/// The election id `--election-id` defaults to: 2^32, above the small ids
/// controllers usually start from, so that the command line can write
/// while a controller is connected. As P4Runtime keeps the highest id
/// seen, a controller must then use an id at least this high to become
/// primary again.
pub const DEFAULT_ELECTION_ID: u64 = 1 << 32;

/// How long connecting may take.
const CONNECT_LIMIT: Duration = Duration::from_secs(5);
/// How long one call may take (a pipeline push compiles the program).
const CALL_LIMIT: Duration = Duration::from_secs(120);

/// Where and as whom the client connects.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// `HOST:PORT` (an `http://` prefix is added when missing, `https://`
    /// with TLS).
    pub server: String,
    pub device_id: u64,
    pub election_id: u64,
    /// The P4Runtime role to act in (empty: the default role).
    pub role: String,
    /// mTLS: the client's certificate and the CA the server's chains to.
    pub tls: Option<ClientTls>,
}

/// The client side of mTLS (PEM files).
#[derive(Clone, Debug)]
pub struct ClientTls {
    pub ca: std::path::PathBuf,
    pub cert: std::path::PathBuf,
    pub key: std::path::PathBuf,
}

impl ClientTls {
    /// tonic's TLS config, the files read.
    fn config(&self) -> Result<tonic::transport::ClientTlsConfig, ClientError> {
        use tonic::transport::{Certificate, ClientTlsConfig, Identity};
        let read = |p: &std::path::Path| {
            std::fs::read(p).map_err(|e| ClientError::Usage(format!("{}: {e}", p.display())))
        };
        Ok(ClientTlsConfig::new()
            .ca_certificate(Certificate::from_pem(read(&self.ca)?))
            .identity(Identity::from_pem(read(&self.cert)?, read(&self.key)?)))
    }
}

/// An open session.
pub struct Session {
    client: P4RuntimeClient<Channel>,
    config: ClientConfig,
    /// The StreamChannel once primary; dropping it ends the stream.
    stream: Option<(
        mpsc::Sender<p4::StreamMessageRequest>,
        Streaming<p4::StreamMessageResponse>,
    )>,
}

/// Awaits `f` for at most `limit`.
async fn bounded<T>(
    limit: Duration,
    what: &str,
    f: impl Future<Output = Result<T, tonic::Status>>,
) -> Result<T, ClientError> {
    match tokio::time::timeout(limit, f).await {
        Err(_) => Err(ClientError::Server(format!(
            "{what}: no answer within {} s",
            limit.as_secs()
        ))),
        Ok(Err(s)) => Err(ClientError::Server(format!(
            "{what}: {:?}: {}",
            s.code(),
            s.message()
        ))),
        Ok(Ok(v)) => Ok(v),
    }
}

fn uint128(v: u64) -> Option<p4::Uint128> {
    Some(p4::Uint128 { high: 0, low: v })
}

impl Session {
    /// Connects to the server.
    pub async fn connect(config: ClientConfig) -> Result<Session, ClientError> {
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
            .map_err(|e| ClientError::Usage(format!("bad server address `{url}`: {e}")))?
            .connect_timeout(CONNECT_LIMIT);
        if let Some(tls) = &config.tls {
            endpoint = endpoint
                .tls_config(tls.config()?)
                .map_err(|e| ClientError::Usage(format!("TLS: {}", error_chain(&e))))?;
        }
        let channel = match tokio::time::timeout(CONNECT_LIMIT, endpoint.connect()).await {
            Ok(Ok(c)) => c,
            Ok(Err(e)) => {
                return Err(ClientError::Server(format!(
                    "cannot reach the P4Runtime server at {}: {}",
                    config.server,
                    error_chain(&e)
                )));
            }
            Err(_) => {
                return Err(ClientError::Server(format!(
                    "cannot reach the P4Runtime server at {}: no answer within {} s",
                    config.server,
                    CONNECT_LIMIT.as_secs()
                )));
            }
        };
        let client = P4RuntimeClient::new(channel)
            .max_decoding_message_size(janus_ctrl::server::MAX_MESSAGE_BYTES)
            .max_encoding_message_size(janus_ctrl::server::MAX_MESSAGE_BYTES);
        Ok(Session {
            client,
            config,
            stream: None,
        })
    }

    /// The committed pipeline's P4Info.
    pub async fn schema(&mut self) -> Result<Schema, ClientError> {
        let request = p4::GetForwardingPipelineConfigRequest {
            device_id: self.config.device_id,
            response_type: p4::get_forwarding_pipeline_config_request::ResponseType::P4infoAndCookie
                as i32,
        };
        let reply = bounded(
            CALL_LIMIT,
            "GetForwardingPipelineConfig",
            self.client.get_forwarding_pipeline_config(request),
        )
        .await?
        .into_inner();
        reply
            .config
            .and_then(|c| c.p4info)
            .map(Schema::new)
            .ok_or_else(|| ClientError::Server("the server sent no P4Info".into()))
    }

    /// Opens the StreamChannel and arbitrates with the configured election
    /// id; an error unless this session becomes primary.
    pub async fn become_primary(&mut self) -> Result<(), ClientError> {
        let (tx, rx) = mpsc::channel(4);
        let mut stream = bounded(
            CALL_LIMIT,
            "StreamChannel",
            self.client.stream_channel(ReceiverStream::new(rx)),
        )
        .await?
        .into_inner();
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
        tx.send(hello)
            .await
            .map_err(|_| ClientError::Server("the StreamChannel closed".into()))?;
        let answer = bounded(CALL_LIMIT, "arbitration", stream.message()).await?;
        let Some(p4::StreamMessageResponse {
            update: Some(p4::stream_message_response::Update::Arbitration(a)),
        }) = answer
        else {
            return Err(ClientError::Server(
                "the server did not answer the arbitration".into(),
            ));
        };
        let code = a.status.as_ref().map_or(0, |s| s.code);
        if code != Code::Ok as i32 {
            let highest = a.election_id.map_or(0, |e| e.low);
            return Err(ClientError::Server(format!(
                "not primary with election id {} (the highest the server has seen is {highest}; \
                 use --election-id above any other controller's): {}",
                self.config.election_id,
                a.status.map(|s| s.message).unwrap_or_default()
            )));
        }
        self.stream = Some((tx, stream));
        Ok(())
    }

    /// Pushes and commits a pipeline (needs [`Session::become_primary`]).
    pub async fn set_pipeline(
        &mut self,
        config: p4::ForwardingPipelineConfig,
    ) -> Result<(), ClientError> {
        let request = p4::SetForwardingPipelineConfigRequest {
            device_id: self.config.device_id,
            role: self.config.role.clone(),
            election_id: uint128(self.config.election_id),
            action: p4::set_forwarding_pipeline_config_request::Action::VerifyAndCommit as i32,
            config: Some(config),
            ..Default::default()
        };
        bounded(
            CALL_LIMIT,
            "SetForwardingPipelineConfig",
            self.client.set_forwarding_pipeline_config(request),
        )
        .await
        .map(|_| ())
    }

    /// Writes `updates` in one batch (needs [`Session::become_primary`]);
    /// `labels[i]` names update `i` in the error, which lists every update
    /// that failed with its code and the server's message.
    pub async fn write(
        &mut self,
        updates: Vec<p4::Update>,
        labels: &[String],
    ) -> Result<(), ClientError> {
        let count = updates.len();
        let request = p4::WriteRequest {
            device_id: self.config.device_id,
            role: self.config.role.clone(),
            election_id: uint128(self.config.election_id),
            updates,
            ..Default::default()
        };
        let status = match tokio::time::timeout(CALL_LIMIT, self.client.write(request)).await {
            Err(_) => return Err(ClientError::Server("Write: no answer in time".into())),
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(s)) => s,
        };
        let failed = update_errors(&status);
        if failed.is_empty() {
            return Err(ClientError::Server(format!(
                "Write: {:?}: {}",
                status.code(),
                status.message()
            )));
        }
        let mut text = format!(
            "{} of {count} updates failed (the others were applied):",
            failed.len()
        );
        for (i, code, message) in failed {
            let label = labels.get(i).map_or("", String::as_str);
            text.push_str(&format!(
                "\n  update {} ({label}): {code:?}: {message}",
                i + 1
            ));
        }
        Err(ClientError::Server(text))
    }

    /// Reads `entities`, every response's entities together.
    pub async fn read(
        &mut self,
        entities: Vec<p4::Entity>,
    ) -> Result<Vec<p4::Entity>, ClientError> {
        let request = p4::ReadRequest {
            device_id: self.config.device_id,
            role: self.config.role.clone(),
            entities,
        };
        let mut stream = bounded(CALL_LIMIT, "Read", self.client.read(request))
            .await?
            .into_inner();
        let mut out = Vec::new();
        while let Some(r) = bounded(CALL_LIMIT, "Read", stream.message()).await? {
            out.extend(r.entities);
        }
        Ok(out)
    }
}

/// The failed updates of a Write batch: (index, code, message), from the
/// `p4.v1.Error` details of its status.
fn update_errors(status: &tonic::Status) -> Vec<(usize, Code, String)> {
    let Ok(details) = rpc::Status::decode(status.details()) else {
        return Vec::new();
    };
    details
        .details
        .iter()
        .enumerate()
        .filter_map(|(i, any)| {
            let e = p4::Error::decode(any.value.as_slice()).ok()?;
            (e.canonical_code != Code::Ok as i32)
                .then(|| (i, Code::from_i32(e.canonical_code), e.message))
        })
        .collect()
}

/// An error and its sources, `: `-joined (tonic's transport errors hide
/// the cause, such as "connection refused", in the source chain).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let part = s.to_string();
        if !text.ends_with(&part) {
            text.push_str(&format!(": {part}"));
        }
        source = s.source();
    }
    text
}
