//! `janus ctrl table|counters|tenant|quota`: P4Runtime client commands.
//!
//! Each command connects to a P4Runtime server (`--server`, default
//! 127.0.0.1:9559; `--device-id`, default 1), fetches the pipeline's P4Info
//! (GetForwardingPipelineConfig, P4INFO_AND_COOKIE) and resolves the names
//! the operator typed into ids and widths. Writes open a StreamChannel and
//! become primary with `--election-id` (default
//! [`session::DEFAULT_ELECTION_ID`]) for the time of the command.
//!
//! Exit 2 for bad arguments (a name the P4Info does not have, a value that
//! does not parse or fit), 1 for what the server refuses or when it cannot
//! be reached; each failed update of a batch is listed.

pub mod quota;
pub mod runtime_cli;
pub mod session;

use clap::{Args, Subcommand};
use janus_ctrl::client::entries::{self, EntriesFile, EntrySpec};
use janus_ctrl::client::schema::{self, Schema};
use janus_ctrl::client::tenant;
use janus_ctrl::client::{Client, ClientConfig, ClientTls};
use janus_ctrl::proto::p4::v1 as p4;
use std::path::PathBuf;
use std::process::ExitCode;

/// Why a client command failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The command line is wrong (exit 2).
    #[error("{0}")]
    Usage(String),
    /// The server could not be reached or refused (exit 1).
    #[error("{0}")]
    Server(String),
}

impl From<janus_ctrl::client::InputError> for ClientError {
    fn from(e: janus_ctrl::client::InputError) -> ClientError {
        ClientError::Usage(e.0)
    }
}

/// Where the client connects (every client command takes these).
#[derive(Args, Clone, Debug)]
pub struct ConnectArgs {
    /// The P4Runtime server, HOST:PORT.
    #[arg(long, value_name = "ADDR", default_value = session::DEFAULT_SERVER)]
    pub server: String,
    /// The P4Runtime device id.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub device_id: u64,
    /// Election id for writes (the client is primary for the time of the
    /// command). The default, 2^32, is above the ids controllers usually
    /// use; P4Runtime then needs a controller to use one at least as high
    /// to become primary again.
    #[arg(long, value_name = "N", default_value_t = session::DEFAULT_ELECTION_ID)]
    pub election_id: u64,
    /// The P4Runtime role to act in: a tenant certificate may only use
    /// `tenant:<id>`.
    #[arg(long, value_name = "NAME", default_value = "")]
    pub role: String,
    /// mTLS: the CA the server's certificate chains to (PEM).
    #[arg(long, value_name = "FILE", requires_all = ["cert", "key"])]
    pub ca: Option<PathBuf>,
    /// mTLS: this client's certificate (PEM); its common name is who the
    /// client is (`operator`, `tenant:<id>`).
    #[arg(long, value_name = "FILE", requires = "ca")]
    pub cert: Option<PathBuf>,
    /// mTLS: this client's private key (PEM).
    #[arg(long, value_name = "FILE", requires = "ca")]
    pub key: Option<PathBuf>,
}

impl ConnectArgs {
    /// The client configuration (the TLS files read).
    pub fn config(&self) -> Result<ClientConfig, ClientError> {
        let tls = match (&self.ca, &self.cert, &self.key) {
            (Some(ca), Some(cert), Some(key)) => Some(ClientTls::from_files(ca, cert, key)?),
            _ => None,
        };
        Ok(ClientConfig {
            device_id: self.device_id,
            election_id: self.election_id.into(),
            role: self.role.clone(),
            tls,
            ..ClientConfig::new(self.server.clone())
        })
    }

    /// Connects to the server.
    async fn connect(&self) -> Result<Client, ClientError> {
        Ok(Client::connect(self.config()?).await?)
    }
}

#[derive(Subcommand)]
pub enum TableCommand {
    /// Insert a table entry: `add TABLE FIELD=VALUE... [--priority N] --
    /// ACTION [PARAM=VALUE...]`, or every `add` line of an entries file.
    ///
    /// Values: decimal, 0x hex, 0b binary, MAC aa:bb:cc:dd:ee:ff, IPv4
    /// a.b.c.d, IPv6; lpm VALUE/LEN, ternary VALUE&&&MASK, range LO..HI.
    /// Fields left out are don't-cares. Names: full, alias or a unique
    /// suffix (`tenant_macs`, `meta.vni`).
    Add {
        /// The table.
        #[arg(required_unless_present = "file")]
        table: Option<String>,
        /// The key: FIELD=VALUE words.
        #[arg(value_name = "FIELD=VALUE")]
        matches: Vec<String>,
        /// Priority (tables with ternary, range or optional fields; the
        /// larger wins).
        #[arg(long, value_name = "N")]
        priority: Option<i32>,
        /// After `--`: the action and its PARAM=VALUE arguments.
        #[arg(last = true, value_name = "ACTION [PARAM=VALUE]")]
        action: Vec<String>,
        /// Insert the `add` lines of an entries file (the format of `janus
        /// sim run --entries`) in one batch instead.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["table", "priority"])]
        file: Option<PathBuf>,
        #[command(flatten)]
        connect: ConnectArgs,
    },
    /// Delete the table entry with this key: `del TABLE FIELD=VALUE...
    /// [--priority N]`.
    Del {
        /// The table.
        table: String,
        /// The key: FIELD=VALUE words.
        #[arg(value_name = "FIELD=VALUE")]
        matches: Vec<String>,
        /// Priority of the entry (tables with ternary, range or optional
        /// fields).
        #[arg(long, value_name = "N")]
        priority: Option<i32>,
        #[command(flatten)]
        connect: ConnectArgs,
    },
    /// Print a table's entries, with names.
    List {
        /// The table.
        table: String,
        #[command(flatten)]
        connect: ConnectArgs,
    },
}

/// `janus ctrl counters NAME [--index N]`.
#[derive(Args)]
pub struct CountersArgs {
    /// The counter (full name, alias or unique suffix).
    pub name: String,
    /// One cell; without it every cell is read and the non-zero ones are
    /// printed.
    #[arg(long, value_name = "N")]
    pub index: Option<i64>,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

#[derive(Subcommand)]
pub enum TenantCommand {
    /// Configure a tenant of p4/sdn.p4: its VFs (with anti-spoofing, MAC
    /// and host-route entries), VNI, gateway, tunnels and remote prefixes.
    Add {
        /// Tenant id (VRF and counter index).
        id: u32,
        /// The tenant's VXLAN network identifier.
        #[arg(long, value_name = "N")]
        vni: u32,
        /// A VF of the tenant (repeatable).
        #[arg(long = "vf", value_name = "port=N,mac=M,ip=A", required = true)]
        vfs: Vec<tenant::Vf>,
        /// The gateway (ARP and neighbour discovery for it go to the CPU).
        #[arg(long, value_name = "mac=M,ip=A[,ip6=A6]")]
        gateway: Option<tenant::Gateway>,
        /// A VXLAN tunnel to another server (repeatable).
        #[arg(long = "tunnel", value_name = "id=N,vtep=A,underlay-mac=M,uplink=N")]
        tunnels: Vec<tenant::Tunnel>,
        /// A prefix of the tenant behind a tunnel (repeatable).
        #[arg(long = "remote", value_name = "prefix=A/LEN,tunnel=N,next-mac=M")]
        remotes: Vec<tenant::Remote>,
        #[command(flatten)]
        connect: ConnectArgs,
    },
    /// Delete every entry of a tenant (read from the device).
    Del {
        /// Tenant id.
        id: u32,
        #[command(flatten)]
        connect: ConnectArgs,
    },
}

/// Runs `work` on a small runtime; prints the error and maps it to the
/// exit code. The connection runs on a worker thread of its own, so that
/// `work` can prepare the next Write while one is sent
/// ([`add_entries_file`]).
fn run_client<F>(work: F) -> ExitCode
where
    F: std::future::Future<Output = Result<(), ClientError>>,
{
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(work) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(match e {
                ClientError::Usage(_) => 2,
                ClientError::Server(_) => 1,
            })
        }
    }
}

/// A table entry update.
pub fn update(kind: p4::update::Type, entry: p4::TableEntry) -> p4::Update {
    p4::Update {
        r#type: kind as i32,
        entity: Some(p4::Entity {
            entity: Some(p4::entity::Entity::TableEntry(entry)),
        }),
    }
}

/// Resolves `specs` and inserts them in one batch as primary; the number
/// written.
pub async fn insert_entries(
    client: &mut Client,
    schema: &Schema,
    specs: &[EntrySpec],
) -> Result<usize, ClientError> {
    let mut updates = Vec::with_capacity(specs.len());
    for s in specs {
        let e = s
            .resolve(schema)
            .map_err(|e| ClientError::Usage(format!("{}: {e}", s.label())))?;
        updates.push(update(p4::update::Type::Insert, e));
    }
    let labels: Vec<String> = specs.iter().map(EntrySpec::label).collect();
    session::write(client, updates, &labels).await?;
    Ok(specs.len())
}

/// Connects, resolves `specs` (name errors before taking the primary
/// role), becomes primary and inserts them; the number written.
async fn add_entries(connect: &ConnectArgs, specs: &[EntrySpec]) -> Result<usize, ClientError> {
    let mut client = connect.connect().await?;
    let schema = session::schema(&mut client).await?;
    for s in specs {
        s.resolve(&schema)
            .map_err(|e| ClientError::Usage(format!("{}: {e}", s.label())))?;
    }
    session::become_primary(&mut client).await?;
    insert_entries(&mut client, &schema, specs).await
}

/// Updates in one Write of `table add --file`.
const FILE_BATCH: usize = 1000;

/// Inserts the entries of the entries file at `path`, read a line at a
/// time, in Writes of [`FILE_BATCH`]. The file is read twice: first every
/// line is parsed and resolved, so that any error is reported (all of
/// them) before anything is written, as for a single entry; then the
/// entries are written. Like one CONTINUE_ON_ERROR Write, every batch is
/// written even when one of its updates fails, and the failures are
/// reported at the end, each with its line. The number written.
async fn add_entries_file(
    connect: &ConnectArgs,
    path: &std::path::Path,
) -> Result<usize, ClientError> {
    let shown = path.display().to_string();
    let open = || {
        std::fs::File::open(path)
            .map(|f| EntriesFile::new(std::io::BufReader::new(f), &shown))
            .map_err(|e| ClientError::Usage(format!("cannot read {shown}: {e}")))
    };
    let mut client = connect.connect().await?;
    let schema = session::schema(&mut client).await?;
    let mut errors = Vec::new();
    for item in open()? {
        let checked = item.and_then(|(line, spec)| {
            spec.resolve(&schema).map(drop).map_err(|e| {
                janus_ctrl::client::InputError(format!(
                    "{shown}: line {line}: {}: {e}",
                    spec.label()
                ))
            })
        });
        if let Err(e) = checked {
            errors.push(e.0);
        }
    }
    if !errors.is_empty() {
        return Err(ClientError::Usage(errors.join("\n")));
    }
    session::become_primary(&mut client).await?;
    let mut written = 0;
    let mut failures = Vec::new();
    let mut entries = open()?;
    let mut next = file_batch(&mut entries, &schema, &shown)?;
    while !next.0.is_empty() {
        let (updates, labels) = next;
        let n = updates.len();
        // The next batch is read while this one is sent and applied: one
        // Write in flight, so the order of the file is kept.
        let write = session::write(&mut client, updates, &labels);
        let read_on = async { file_batch(&mut entries, &schema, &shown) };
        let (sent, prepared) = tokio::join!(write, read_on);
        match sent {
            Ok(()) => written += n,
            Err(ClientError::Server(text)) => failures.push(text),
            Err(e) => return Err(e),
        }
        next = prepared.map_err(|e| match e {
            ClientError::Usage(m) => ClientError::Usage(format!(
                "{m} (the file changed after it was checked; {written} entries were written \
                 before this line)"
            )),
            other => other,
        })?;
    }
    if failures.is_empty() {
        Ok(written)
    } else {
        Err(ClientError::Server(failures.join("\n")))
    }
}

/// The next (at most) [`FILE_BATCH`] inserts of an entries file, each
/// with its label; empty at the end. The file was checked by a first
/// pass, so an error here means it changed since.
fn file_batch(
    entries: &mut impl Iterator<Item = Result<(usize, EntrySpec), janus_ctrl::client::InputError>>,
    schema: &Schema,
    path: &str,
) -> Result<(Vec<p4::Update>, Vec<String>), ClientError> {
    let mut updates = Vec::with_capacity(FILE_BATCH);
    let mut labels = Vec::with_capacity(FILE_BATCH);
    for item in entries.take(FILE_BATCH) {
        let (line, spec) = item.map_err(|e| ClientError::Usage(e.0))?;
        let e = spec
            .resolve(schema)
            .map_err(|e| ClientError::Usage(format!("{path}: line {line}: {e}")))?;
        updates.push(update(p4::update::Type::Insert, e));
        labels.push(format!("line {line}: {}", spec.label()));
    }
    Ok((updates, labels))
}

/// The entries of one table (by name) as the device holds them.
async fn read_table(
    client: &mut Client,
    schema: &Schema,
    table: &str,
) -> Result<Vec<p4::TableEntry>, ClientError> {
    let id = schema::id_of(schema.table(table)?.preamble.as_ref());
    let filter = p4::Entity {
        entity: Some(p4::entity::Entity::TableEntry(p4::TableEntry {
            table_id: id,
            ..Default::default()
        })),
    };
    Ok(client
        .read(vec![filter])
        .await?
        .into_iter()
        .filter_map(|e| match e.entity {
            Some(p4::entity::Entity::TableEntry(t)) => Some(t),
            _ => None,
        })
        .collect())
}

/// The cells of a counter (`None`: every cell): (index, packets, bytes).
pub async fn read_counter(
    client: &mut Client,
    schema: &Schema,
    name: &str,
    index: Option<i64>,
) -> Result<Vec<(i64, i64, i64)>, ClientError> {
    let counter = schema.counter(name)?;
    let filter = p4::Entity {
        entity: Some(p4::entity::Entity::CounterEntry(p4::CounterEntry {
            counter_id: schema::id_of(counter.preamble.as_ref()),
            index: index.map(|index| p4::Index { index }),
            data: None,
        })),
    };
    let mut cells: Vec<(i64, i64, i64)> = client
        .read(vec![filter])
        .await?
        .into_iter()
        .filter_map(|e| match e.entity {
            Some(p4::entity::Entity::CounterEntry(c)) => {
                let d = c.data.unwrap_or_default();
                Some((c.index.map_or(0, |i| i.index), d.packet_count, d.byte_count))
            }
            _ => None,
        })
        .collect();
    cells.sort();
    Ok(cells)
}

async fn table_command(c: TableCommand) -> Result<(), ClientError> {
    match c {
        TableCommand::Add {
            table,
            matches,
            priority,
            action,
            file,
            connect,
        } => {
            let n = match (file, table) {
                (Some(path), _) => {
                    if !matches.is_empty() || !action.is_empty() {
                        return Err(ClientError::Usage(
                            "--file takes no key or action on the command line".into(),
                        ));
                    }
                    add_entries_file(&connect, &path).await?
                }
                (None, Some(table)) => {
                    if action.is_empty() {
                        return Err(ClientError::Usage(
                            "give the action after `--`: table add TABLE FIELD=VALUE... -- \
                             ACTION [PARAM=VALUE...]"
                                .into(),
                        ));
                    }
                    let spec = EntrySpec::from_words(&table, priority, &matches, &action)?;
                    add_entries(&connect, &[spec]).await?
                }
                (None, None) => {
                    return Err(ClientError::Usage("give a table or --file".into()));
                }
            };
            println!("added {n} {}", if n == 1 { "entry" } else { "entries" });
            Ok(())
        }
        TableCommand::Del {
            table,
            matches,
            priority,
            connect,
        } => {
            let spec = EntrySpec::from_words(&table, priority, &matches, &[])?;
            let mut client = connect.connect().await?;
            let schema = session::schema(&mut client).await?;
            let entry = spec.resolve(&schema)?;
            session::become_primary(&mut client).await?;
            session::write(
                &mut client,
                vec![update(p4::update::Type::Delete, entry)],
                &[spec.label()],
            )
            .await?;
            println!("deleted 1 entry");
            Ok(())
        }
        TableCommand::List { table, connect } => {
            let mut client = connect.connect().await?;
            let schema = session::schema(&mut client).await?;
            let info = schema.table(&table)?;
            let name = info.preamble.as_ref().map_or("", |p| p.name.as_str());
            let entries = read_table(&mut client, &schema, &table).await?;
            println!(
                "{name}: {} {}",
                entries.len(),
                if entries.len() == 1 {
                    "entry"
                } else {
                    "entries"
                }
            );
            let mut lines: Vec<String> = entries
                .iter()
                .map(|e| entries::render(&schema, e))
                .collect();
            lines.sort();
            for l in lines {
                println!("  {l}");
            }
            Ok(())
        }
    }
}

async fn counters_command(a: CountersArgs) -> Result<(), ClientError> {
    let mut client = a.connect.connect().await?;
    let schema = session::schema(&mut client).await?;
    let name = schema
        .counter(&a.name)?
        .preamble
        .as_ref()
        .map_or(String::new(), |p| p.name.clone());
    let cells = read_counter(&mut client, &schema, &a.name, a.index).await?;
    let mut zero = 0;
    for (i, packets, bytes) in &cells {
        if a.index.is_none() && *packets == 0 && *bytes == 0 {
            zero += 1;
            continue;
        }
        println!("{name}[{i}]: {packets} packets, {bytes} bytes");
    }
    if zero > 0 {
        println!("({zero} other cells of {name} are 0)");
    }
    Ok(())
}

async fn tenant_command(c: TenantCommand) -> Result<(), ClientError> {
    match c {
        TenantCommand::Add {
            id,
            vni,
            vfs,
            gateway,
            tunnels,
            remotes,
            connect,
        } => {
            let spec = tenant::TenantSpec {
                id,
                vni,
                gateway,
                vfs,
                tunnels,
                remotes,
            };
            let specs = spec.entries();
            let n = add_entries(&connect, &specs).await?;
            println!("tenant {id}: {n} entries written to {}", connect.server);
            Ok(())
        }
        TenantCommand::Del { id, connect } => {
            let mut client = connect.connect().await?;
            let schema = session::schema(&mut client).await?;
            let mut read = Vec::new();
            for t in tenant::TENANT_TABLES.iter().chain(&["tunnels"]) {
                for e in read_table(&mut client, &schema, t).await? {
                    read.push((t.to_string(), e));
                }
            }
            let doomed = tenant::entries_to_delete(&schema, &read, id);
            if doomed.is_empty() {
                return Err(ClientError::Server(format!(
                    "the device holds no entries of tenant {id}"
                )));
            }
            let labels: Vec<String> = doomed.iter().map(|e| entries::render(&schema, e)).collect();
            let n = doomed.len();
            session::become_primary(&mut client).await?;
            session::write(
                &mut client,
                doomed
                    .into_iter()
                    .map(|e| update(p4::update::Type::Delete, e))
                    .collect(),
                &labels,
            )
            .await?;
            println!("tenant {id}: {n} entries deleted from {}", connect.server);
            Ok(())
        }
    }
}

/// `janus ctrl table ...`.
pub fn run_table(c: TableCommand) -> ExitCode {
    run_client(table_command(c))
}

/// `janus ctrl counters ...`.
pub fn run_counters(a: CountersArgs) -> ExitCode {
    run_client(counters_command(a))
}

/// `janus ctrl tenant ...`.
pub fn run_tenant(c: TenantCommand) -> ExitCode {
    run_client(tenant_command(c))
}

/// `janus ctrl cli ...`: simple_switch_CLI's commands over P4Runtime.
pub fn run_cli(a: runtime_cli::CliArgs) -> ExitCode {
    runtime_cli::run(a)
}

/// `janus ctrl quota ...`.
pub fn run_quota(c: quota::QuotaCommand) -> ExitCode {
    run_client(quota::run(c))
}
