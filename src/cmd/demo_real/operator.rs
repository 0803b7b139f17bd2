//! The operator: a P4Runtime client (janus_ctrl::client) at the
//! operator's end of the management network. It configures the tenants
//! with the mapping of `janus ctrl tenant add`, asks for Capabilities and
//! reads counters. Every call is bounded and gives up on SIGINT/SIGTERM.

use super::RealError;
use crate::cmd::ctrl_client::{insert_entries, read_counter, session};
use janus_ctrl::client::schema::Schema;
use janus_ctrl::client::tenant::TenantSpec;
use janus_ctrl::client::{Client, ClientConfig, Limits};
use janus_host::sys::signal;
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

/// How long one operator step may take.
const CALL: Duration = Duration::from_secs(30);

/// The connection limits of the operator's client.
const LIMITS: Limits = Limits {
    connect: Duration::from_secs(5),
    call: Duration::from_secs(20),
};

/// A counter's cells: (index, packets, bytes).
pub type Cells = Vec<(i64, i64, i64)>;

/// The operator's client, primary for the default role.
pub struct Operator {
    runtime: tokio::runtime::Runtime,
    client: Client,
    schema: Schema,
    addr: SocketAddr,
}

/// Awaits `work` on `runtime` for at most [`CALL`], or until a stop
/// signal.
fn block<T, E: std::fmt::Display>(
    runtime: &tokio::runtime::Runtime,
    what: &str,
    work: impl Future<Output = Result<T, E>>,
) -> Result<T, RealError> {
    runtime.block_on(async {
        let stop = async {
            while !signal::stop_requested() {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        };
        tokio::select! {
            done = tokio::time::timeout(CALL, work) => match done {
                Ok(Ok(v)) => Ok(v),
                Ok(Err(e)) => Err(RealError::step(what, e)),
                Err(_) => Err(RealError::step(what, format!("no answer within {} s", CALL.as_secs()))),
            },
            () = stop => Err(RealError::Interrupted),
        }
    })
}

fn config(addr: SocketAddr) -> ClientConfig {
    ClientConfig {
        limits: LIMITS,
        election_id: session::DEFAULT_ELECTION_ID.into(),
        ..ClientConfig::new(addr.to_string())
    }
}

impl Operator {
    /// Connects to `addr`, reads the P4Info and becomes primary.
    pub fn connect(addr: SocketAddr) -> Result<Operator, RealError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| RealError::step("the operator's runtime", e))?;
        let (client, schema) = block(&runtime, "the operator's P4Runtime client", async {
            let mut client = Client::connect(config(addr)).await?;
            let schema = session::schema(&mut client).await?;
            session::become_primary(&mut client).await?;
            Ok::<_, crate::cmd::ctrl_client::ClientError>((client, schema))
        })?;
        Ok(Operator {
            runtime,
            client,
            schema,
            addr,
        })
    }

    /// Writes `tenant`'s entries in one batch; the number written.
    pub fn add_tenant(&mut self, tenant: &TenantSpec) -> Result<usize, RealError> {
        let specs = tenant.entries();
        let (client, schema) = (&mut self.client, &self.schema);
        block(
            &self.runtime,
            &format!("tenant {}", tenant.id),
            insert_entries(client, schema, &specs),
        )
    }

    /// Every cell of the counter `name`.
    pub fn counter(&mut self, name: &str) -> Result<Cells, RealError> {
        let (client, schema) = (&mut self.client, &self.schema);
        block(
            &self.runtime,
            &format!("reading {name}"),
            read_counter(client, schema, name, None),
        )
    }

    /// P4Runtime Capabilities from a fresh connection: the server's API
    /// version.
    pub fn capabilities(&self) -> Result<String, RealError> {
        let addr = self.addr;
        block(&self.runtime, "Capabilities", async move {
            let mut client = Client::connect(config(addr)).await?;
            Ok::<_, janus_ctrl::client::Error>(client.capabilities().await?.p4runtime_api_version)
        })
    }
}
