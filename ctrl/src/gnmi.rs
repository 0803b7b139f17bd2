//! gNMI on the P4Runtime port: OpenConfig interface state and counters of
//! the NIC's ports, for clients that ask (Capabilities, Get, Subscribe).
//!
//! [`GnmiService`] implements the generated `g_nmi_server::GNmi` trait.
//! The data are the leaves of [`model::Leaf`] under
//! `/interfaces/interface[name=X]/state` for each interface of
//! [`GnmiConfig::ports`] (names in [`model`], paths in [`path`]); counts
//! come from the [`PortStats`] the P4Runtime server keeps for every packet
//! that goes through its pipeline. Get answers leaves as typed values and
//! containers as JSON or JSON_IETF text (or, with PROTO, as their leaves);
//! Subscribe is in [`subscribe`]. Set is UNIMPLEMENTED: nothing here can be
//! configured.

pub mod model;
pub mod path;
pub mod subscribe;

pub use crate::port_stats::{PortCounters, PortStats};
pub use model::PortList;

use crate::proto::gnmi as g;
use crate::proto::gnmi::g_nmi_server::{GNmi, GNmiServer};
use crate::server::{MAX_MESSAGE_BYTES, SwitchHandle};
use model::{InterfaceState, JsonStyle, Leaf, Value};
use path::Node;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};

/// The gNMI version the schema and the service follow.
pub const GNMI_VERSION: &str = "0.7.0";

/// The revision of openconfig-interfaces whose paths are served.
pub const OPENCONFIG_INTERFACES_VERSION: &str = "3.0.0";

/// Messages queued per Subscribe stream before the server waits on the
/// client.
const SUBSCRIBE_QUEUE: usize = 64;

/// What the gNMI service serves and how often it looks.
#[derive(Clone, Debug)]
pub struct GnmiConfig {
    /// The interfaces listed (default: uplinks, VFs on ports 2..=9, CPU).
    pub ports: PortList,
    /// The shortest SAMPLE interval; shorter requests (and 0) get it.
    pub min_sample_interval: Duration,
    /// How often ON_CHANGE subscriptions compare values.
    pub on_change_tick: Duration,
    /// The SAMPLE interval of counters under TARGET_DEFINED (state leaves
    /// are ON_CHANGE there).
    pub target_defined_sample: Duration,
}

impl Default for GnmiConfig {
    fn default() -> Self {
        GnmiConfig {
            ports: PortList::default(),
            min_sample_interval: Duration::from_millis(100),
            on_change_tick: Duration::from_millis(100),
            target_defined_sample: Duration::from_secs(10),
        }
    }
}

/// Where values are read: the server's switch and port counts.
#[derive(Clone)]
struct Source {
    switch: SwitchHandle,
}

impl Source {
    /// Whether a pipeline is committed (interfaces are UP).
    fn forwarding(&self) -> bool {
        self.switch.with_switch(|s| s.is_some())
    }

    fn interface(&self, port: u32, forwarding: bool) -> InterfaceState {
        InterfaceState {
            name: model::interface_name(port).unwrap_or_default(),
            port,
            forwarding,
            counters: self.switch.port_stats().get(port),
        }
    }

    /// The values of `items`, read now.
    fn read(&self, items: &[(u32, Leaf)]) -> Vec<Value> {
        let forwarding = self.forwarding();
        items
            .iter()
            .map(|&(port, leaf)| self.interface(port, forwarding).value(leaf))
            .collect()
    }
}

/// Nanoseconds since the Unix epoch.
fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

fn typed(value: Value) -> g::TypedValue {
    use g::typed_value::Value as V;
    g::TypedValue {
        value: Some(match value {
            Value::Text(t) => V::StringVal(t),
            Value::Count(n) => V::UintVal(n),
            Value::Number(n) => V::UintVal(n.into()),
        }),
    }
}

/// The update of one leaf.
fn leaf_update(port: u32, leaf: Leaf, value: Value) -> g::Update {
    g::Update {
        path: Some(path::node_path(
            &model::interface_name(port).unwrap_or_default(),
            Node::Leaf(leaf),
        )),
        val: Some(typed(value)),
        ..Default::default()
    }
}

/// A notification of `updates`, taken now, whose prefix carries the
/// request's target (when it named one).
fn notification(target: &str, updates: Vec<g::Update>) -> g::Notification {
    g::Notification {
        timestamp: now_ns(),
        prefix: (!target.is_empty()).then(|| g::Path {
            target: target.into(),
            ..Default::default()
        }),
        update: updates,
        ..Default::default()
    }
}

/// The encoding of a request, if Janus can answer in it.
fn encoding(number: i32) -> Result<g::Encoding, Status> {
    let e = g::Encoding::try_from(number)
        .map_err(|_| Status::invalid_argument(format!("unknown encoding {number}")))?;
    match e {
        g::Encoding::Json | g::Encoding::JsonIetf | g::Encoding::Proto => Ok(e),
        other => Err(Status::unimplemented(format!(
            "encoding {} is not supported (JSON, JSON_IETF, PROTO are)",
            other.as_str_name()
        ))),
    }
}

/// Refuses models other than openconfig-interfaces.
fn check_models(models: &[g::ModelData]) -> Result<(), Status> {
    match models.iter().find(|m| m.name != model::MODULE) {
        Some(m) => Err(Status::invalid_argument(format!(
            "model {:?} is not supported (only {})",
            m.name,
            model::MODULE
        ))),
        None => Ok(()),
    }
}

/// The gNMI service over a P4Runtime server's switch.
#[derive(Clone)]
pub struct GnmiService {
    source: Source,
    config: GnmiConfig,
}

impl GnmiService {
    /// A service reading `switch` (from `P4RuntimeService::switch_handle`).
    pub fn new(switch: SwitchHandle, config: GnmiConfig) -> GnmiService {
        GnmiService {
            source: Source { switch },
            config,
        }
    }

    /// The tonic service, with the P4Runtime message size limits.
    pub fn into_server(self) -> GNmiServer<GnmiService> {
        GNmiServer::new(self)
            .max_decoding_message_size(MAX_MESSAGE_BYTES)
            .max_encoding_message_size(MAX_MESSAGE_BYTES)
    }

    /// The updates answering one Get path.
    fn get_updates(
        &self,
        selection: &path::Selection,
        encoding: g::Encoding,
        forwarding: bool,
    ) -> Vec<g::Update> {
        let json = match (encoding, selection.node) {
            (g::Encoding::Json, Node::Container(c)) => Some((c, JsonStyle::Plain)),
            (g::Encoding::JsonIetf, Node::Container(c)) => Some((c, JsonStyle::Ietf)),
            _ => None,
        };
        let mut updates = Vec::new();
        for &port in &selection.ports {
            let state = self.source.interface(port, forwarding);
            match json {
                Some((container, style)) => {
                    use g::typed_value::Value as V;
                    let text = model::container_json(container, &state, style).into_bytes();
                    updates.push(g::Update {
                        path: Some(path::node_path(&state.name, selection.node)),
                        val: Some(g::TypedValue {
                            value: Some(match style {
                                JsonStyle::Plain => V::JsonVal(text),
                                JsonStyle::Ietf => V::JsonIetfVal(text),
                            }),
                        }),
                        ..Default::default()
                    });
                }
                None => updates.extend(
                    selection
                        .node
                        .leaves()
                        .into_iter()
                        .map(|leaf| leaf_update(port, leaf, state.value(leaf))),
                ),
            }
        }
        updates
    }
}

#[tonic::async_trait]
impl GNmi for GnmiService {
    async fn capabilities(
        &self,
        _request: Request<g::CapabilityRequest>,
    ) -> Result<Response<g::CapabilityResponse>, Status> {
        Ok(Response::new(g::CapabilityResponse {
            supported_models: vec![g::ModelData {
                name: model::MODULE.into(),
                organization: "OpenConfig working group".into(),
                version: OPENCONFIG_INTERFACES_VERSION.into(),
            }],
            supported_encodings: vec![
                g::Encoding::Json as i32,
                g::Encoding::JsonIetf as i32,
                g::Encoding::Proto as i32,
            ],
            g_nmi_version: GNMI_VERSION.into(),
            extension: Vec::new(),
        }))
    }

    async fn get(
        &self,
        request: Request<g::GetRequest>,
    ) -> Result<Response<g::GetResponse>, Status> {
        use g::get_request::DataType;
        operator_only(&request, "gNMI Get")?;
        let req = request.into_inner();
        let encoding = encoding(req.encoding)?;
        check_models(&req.use_models)?;
        let data_type = DataType::try_from(req.r#type)
            .map_err(|_| Status::invalid_argument(format!("unknown data type {}", req.r#type)))?;
        let prefix = req.prefix.as_ref();
        let paths: Vec<Option<&g::Path>> = if req.path.is_empty() {
            vec![None]
        } else {
            req.path.iter().map(Some).collect()
        };
        let selections = paths
            .into_iter()
            .map(|p| path::resolve(prefix, p, &self.config.ports))
            .collect::<Result<Vec<_>, _>>()?;
        let target = prefix.map(|p| p.target.as_str()).unwrap_or_default();
        let forwarding = self.source.forwarding();
        let notification = selections
            .iter()
            .map(|s| {
                // Every leaf served is state: CONFIG selects none.
                let updates = if data_type == DataType::Config {
                    Vec::new()
                } else {
                    self.get_updates(s, encoding, forwarding)
                };
                notification(target, updates)
            })
            .collect();
        Ok(Response::new(g::GetResponse {
            notification,
            ..Default::default()
        }))
    }

    async fn set(
        &self,
        _request: Request<g::SetRequest>,
    ) -> Result<Response<g::SetResponse>, Status> {
        Err(Status::unimplemented(
            "Set is not supported: the served interface data are read-only state",
        ))
    }

    type SubscribeStream = ReceiverStream<Result<g::SubscribeResponse, Status>>;

    async fn subscribe(
        &self,
        request: Request<Streaming<g::SubscribeRequest>>,
    ) -> Result<Response<Self::SubscribeStream>, Status> {
        operator_only(&request, "gNMI Subscribe")?;
        let inbound = request.into_inner();
        let (tx, rx) = mpsc::channel(SUBSCRIBE_QUEUE);
        let source = self.source.clone();
        let config = self.config.clone();
        tokio::spawn(async move {
            if let Err(status) = subscribe::run(inbound, &tx, &source, &config).await {
                tracing::debug!("subscription ended: {}", status.message());
                let _ = tx.send(Err(status)).await;
            }
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }
}

/// Port state and counters are the operator's: a tenant certificate (or one
/// naming no Janus identity) is refused, and the refusal audited.
fn operator_only<T>(request: &Request<T>, rpc: &str) -> Result<(), Status> {
    use crate::auth::Identity;
    let status = match Identity::of_request(request) {
        Ok(Identity::Operator) => return Ok(()),
        Ok(tenant) => {
            let status =
                Status::permission_denied(format!("{tenant} may not read the NIC's ports"));
            crate::audit::refusal(&crate::audit::Who::of(tenant, request), rpc, "", &status);
            status
        }
        Err(status) => {
            crate::audit::unidentified(request.remote_addr(), rpc, &status);
            status
        }
    };
    Err(status)
}
