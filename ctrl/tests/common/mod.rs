//! Helpers shared by the P4Runtime server tests: an in-process server on
//! 127.0.0.1:0, clients, StreamChannel, arbitration, pipeline set-up,
//! writes and reads (through [`janus_ctrl::client`], their errors as the
//! server's status). Every wait is bounded by [`LIMIT`].

#![allow(dead_code)]

use janus_ctrl::client::{self, Client, ClientConfig, Limits};
use janus_ctrl::listen::serve;
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use janus_ctrl::server::{P4RuntimeService, SwitchHandle};
use std::future::Future;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Code, Streaming};

pub const DEVICE: u64 = 1;
pub const LIMIT: Duration = Duration::from_secs(20);
/// Every call of a library client bounded by [`LIMIT`].
pub const LIMITS: Limits = Limits {
    connect: LIMIT,
    call: LIMIT,
};

/// Asserts that a call failed with `code`.
pub fn fails_with<T: std::fmt::Debug>(result: Result<T, tonic::Status>, code: Code) {
    let e = result.expect_err("the call should fail");
    assert_eq!(e.code(), code, "{e:?}");
}

/// Awaits `f`, failing the test after [`LIMIT`].
pub async fn within<T>(f: impl Future<Output = T>) -> T {
    tokio::time::timeout(LIMIT, f)
        .await
        .expect("timed out waiting for the server")
}

pub struct Server {
    pub addr: std::net::SocketAddr,
    pub switch: SwitchHandle,
    _stop: oneshot::Sender<()>,
}

/// Starts a server; `setup` sees the service before it serves.
pub async fn start_with(setup: impl FnOnce(&P4RuntimeService)) -> Server {
    let listener = within(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .await
        .expect("bind");
    let addr = listener.local_addr().unwrap();
    let service = P4RuntimeService::new(DEVICE);
    setup(&service);
    let switch = service.switch_handle();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(async move {
        serve(service, listener, async {
            let _ = stopped.await;
        })
        .await
        .expect("server runs");
    });
    Server {
        addr,
        switch,
        _stop: stop,
    }
}

pub async fn start() -> Server {
    start_with(|_| {}).await
}

/// Starts a server whose port output (the frames PacketOuts send out of
/// ports) arrives on the returned receiver.
pub async fn start_with_ports() -> (Server, mpsc::Receiver<(u32, Vec<u8>)>) {
    let (tx, rx) = mpsc::channel(64);
    (start_with(|s| s.set_port_output(tx)).await, rx)
}

pub async fn client(s: &Server) -> P4RuntimeClient<Channel> {
    within(P4RuntimeClient::connect(format!("http://{}", s.addr)))
        .await
        .expect("connect")
}

pub fn election(id: u64) -> Option<p4::Uint128> {
    Some(p4::Uint128 { high: 0, low: id })
}

/// An open StreamChannel.
pub struct Stream {
    pub tx: mpsc::Sender<p4::StreamMessageRequest>,
    pub rx: Streaming<p4::StreamMessageResponse>,
}

impl Stream {
    pub async fn open(c: &mut P4RuntimeClient<Channel>) -> Stream {
        let (tx, out) = mpsc::channel(16);
        let rx = within(c.stream_channel(ReceiverStream::new(out)))
            .await
            .expect("stream opens")
            .into_inner();
        Stream { tx, rx }
    }

    pub async fn arbitrate(&self, id: u64) {
        let msg = p4::StreamMessageRequest {
            update: Some(p4::stream_message_request::Update::Arbitration(
                p4::MasterArbitrationUpdate {
                    device_id: DEVICE,
                    role: None,
                    election_id: election(id),
                    status: None,
                },
            )),
        };
        within(self.tx.send(msg)).await.expect("send");
    }

    /// The next arbitration answer: (status code, highest election id).
    pub async fn answer(&mut self) -> Result<(Code, u64), tonic::Status> {
        let msg = within(self.rx.message()).await?.expect("an answer");
        match msg.update {
            Some(p4::stream_message_response::Update::Arbitration(a)) => Ok((
                Code::from_i32(a.status.expect("a status").code),
                a.election_id.expect("an election id").low,
            )),
            other => panic!("not an arbitration answer: {other:?}"),
        }
    }
}

/// Connects, becomes primary with election id `id` and sets `config`.
pub async fn primary_with(
    s: &Server,
    id: u64,
    config: p4::ForwardingPipelineConfig,
) -> (P4RuntimeClient<Channel>, Stream) {
    let mut c = client(s).await;
    let mut stream = Stream::open(&mut c).await;
    stream.arbitrate(id).await;
    assert_eq!(stream.answer().await.unwrap().0, Code::Ok);
    set_pipeline(
        &mut c,
        id,
        config,
        p4::set_forwarding_pipeline_config_request::Action::VerifyAndCommit,
    )
    .await
    .expect("pipeline set");
    (c, stream)
}

/// The library client over `c`, acting in `role` with election id `id`.
pub fn lib_client(c: &P4RuntimeClient<Channel>, role: &str, id: u64) -> Client {
    Client::from_grpc(
        c.clone(),
        ClientConfig {
            device_id: DEVICE,
            election_id: id.into(),
            role: role.into(),
            limits: LIMITS,
            ..ClientConfig::new("")
        },
    )
}

/// The server's status of a failed call; panics on anything else (a
/// timeout: the test fails).
pub fn status(e: client::Error) -> tonic::Status {
    match e {
        client::Error::Status { status, .. } => *status,
        other => panic!("{other}"),
    }
}

pub async fn set_pipeline(
    c: &mut P4RuntimeClient<Channel>,
    id: u64,
    config: p4::ForwardingPipelineConfig,
    action: p4::set_forwarding_pipeline_config_request::Action,
) -> Result<(), tonic::Status> {
    lib_client(c, "", id)
        .set_pipeline(action, config)
        .await
        .map_err(status)
}

pub fn ids(info: &cfg::P4Info) -> impl Fn(&str) -> u32 + '_ {
    move |name| {
        info.tables
            .iter()
            .filter_map(|t| t.preamble.as_ref())
            .chain(info.actions.iter().filter_map(|a| a.preamble.as_ref()))
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("no {name} in the P4Info"))
            .id
    }
}

pub fn action(id: u32, params: &[&[u8]]) -> Option<p4::TableAction> {
    Some(p4::TableAction {
        r#type: Some(p4::table_action::Type::Action(p4::Action {
            action_id: id,
            params: params
                .iter()
                .enumerate()
                .map(|(i, v)| p4::action::Param {
                    param_id: i as u32 + 1,
                    value: v.to_vec(),
                })
                .collect(),
        })),
    })
}

pub fn update(kind: p4::update::Type, entry: p4::TableEntry) -> p4::Update {
    p4::Update {
        r#type: kind as i32,
        entity: Some(p4::Entity {
            entity: Some(p4::entity::Entity::TableEntry(entry)),
        }),
    }
}

pub async fn write(
    c: &mut P4RuntimeClient<Channel>,
    id: u64,
    updates: Vec<p4::Update>,
) -> Result<(), tonic::Status> {
    write_as(c, "", id, updates).await
}

/// Writes `updates` in one batch (CONTINUE_ON_ERROR) in `role`.
pub async fn write_as(
    c: &mut P4RuntimeClient<Channel>,
    role: &str,
    id: u64,
    updates: Vec<p4::Update>,
) -> Result<(), tonic::Status> {
    lib_client(c, role, id)
        .write(updates, p4::write_request::Atomicity::ContinueOnError)
        .await
        .map_err(status)
}

/// The per-update codes of a failed batch.
pub fn update_codes(status: &tonic::Status) -> Vec<(Code, String)> {
    assert_eq!(status.code(), Code::Unknown, "{status:?}");
    client::update_statuses(status)
        .expect("google.rpc.Status details of p4.v1.Errors")
        .into_iter()
        .map(|u| (u.code, u.message))
        .collect()
}

/// Reads `entities`, collecting every response's entities.
pub async fn read_entities(
    c: &mut P4RuntimeClient<Channel>,
    entities: Vec<p4::Entity>,
) -> Result<Vec<p4::Entity>, tonic::Status> {
    read_as(c, "", entities).await
}

/// Reads `entities` in `role`.
pub async fn read_as(
    c: &mut P4RuntimeClient<Channel>,
    role: &str,
    entities: Vec<p4::Entity>,
) -> Result<Vec<p4::Entity>, tonic::Status> {
    lib_client(c, role, 0).read(entities).await.map_err(status)
}

/// The pipeline config for P4 `source` (named `name` in diagnostics): its
/// pipeline file and P4Info; panics if it does not compile.
pub fn pipeline_config(
    name: &str,
    source: String,
    cookie: Option<u64>,
) -> p4::ForwardingPipelineConfig {
    let c = janus_p4::driver::compile_source(name, source, &janus_p4::driver::Options::default());
    assert!(!c.has_errors(), "{}", c.render(false));
    let info = janus_ctrl::p4info::to_proto(&janus_p4::p4info::build(c.program().unwrap()));
    p4::ForwardingPipelineConfig {
        p4info: Some(info),
        p4_device_config: janus_p4::pipeline::Pipeline::from_compilation(&c).to_bytes(),
        cookie: cookie.map(|cookie| p4::forwarding_pipeline_config::Cookie { cookie }),
    }
}

/// A gNMI client of the server (same port as P4Runtime).
pub async fn gnmi_client(s: &Server) -> janus_ctrl::proto::gnmi::g_nmi_client::GNmiClient<Channel> {
    within(janus_ctrl::proto::gnmi::g_nmi_client::GNmiClient::connect(
        format!("http://{}", s.addr),
    ))
    .await
    .expect("connect")
}

/// A gNMI path from its text form, `/a/b[k=v]/c` (no `/` or `]` inside
/// key values).
pub fn gnmi_path(text: &str) -> janus_ctrl::proto::gnmi::Path {
    use janus_ctrl::proto::gnmi as g;
    let elem = text
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let mut parts = s.split('[');
            let name = parts.next().unwrap_or_default().to_string();
            let key = parts
                .filter_map(|kv| kv.strip_suffix(']')?.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            g::PathElem { name, key }
        })
        .collect();
    g::Path {
        elem,
        ..Default::default()
    }
}

/// An entity of `e`.
pub fn entity(e: p4::entity::Entity) -> p4::Entity {
    p4::Entity { entity: Some(e) }
}

/// An update of `kind` to entity `e`.
pub fn upd(kind: p4::update::Type, e: p4::entity::Entity) -> p4::Update {
    p4::Update {
        r#type: kind as i32,
        entity: Some(entity(e)),
    }
}

impl Stream {
    /// The next message of the stream that is not an arbitration answer
    /// (bounded by [`LIMIT`]).
    pub async fn next_update(&mut self) -> p4::stream_message_response::Update {
        loop {
            let msg = within(self.rx.message())
                .await
                .expect("the stream is open")
                .expect("a message");
            match msg.update {
                Some(p4::stream_message_response::Update::Arbitration(_)) => continue,
                Some(u) => return u,
                None => panic!("an empty stream message"),
            }
        }
    }
}

/// A fresh state directory for test `name` of binary `binary` (removed
/// first if a previous run left it).
pub fn state_dir(binary: &str, name: &str) -> janus_ctrl::journal::StateConfig {
    let dir = std::env::temp_dir().join(format!("janus-{binary}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    janus_ctrl::journal::StateConfig::new(dir)
}

/// A server restoring the state in `cfg`.
pub async fn start_in(cfg: &janus_ctrl::journal::StateConfig) -> Server {
    let cfg = cfg.clone();
    start_with(move |s| {
        s.restore(&cfg).expect("the state restores");
    })
    .await
}

/// Waits (bounded by [`LIMIT`]) until the state directory's lock is free
/// again after a server was dropped.
pub async fn wait_unlocked(cfg: &janus_ctrl::journal::StateConfig) {
    use janus_ctrl::journal::JournalError;
    let until = std::time::Instant::now() + LIMIT;
    loop {
        // `check` takes the lock and changes nothing, whatever the journal.
        match janus_ctrl::journal::check(&cfg.dir) {
            Ok(_) => return,
            Err(JournalError::Locked(_)) if std::time::Instant::now() < until => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => panic!("the lock stays held: {e}"),
        }
    }
}
