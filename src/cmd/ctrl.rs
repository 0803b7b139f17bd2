//! `janus ctrl ...`: the control plane.
//!
//! `janus ctrl serve --listen ADDR (--tls-cert F --tls-key F --client-ca F | --insecure) ...`
//! runs the P4Runtime server (janus_ctrl::server) over the v1model
//! behavioural model until killed. Exit 2 when the arguments or the program
//! are bad, 1 when the server cannot run (the address cannot be bound).
//! `janus ctrl certs` makes development certificates; `table`, `counters`,
//! `tenant` and `cli` are P4Runtime clients (`ctrl_client`); `journal check` and
//! `journal recover` work on a `--state` directory (`ctrl_journal`).

use clap::{ArgGroup, Args, Subcommand};
use janus_ctrl::auth::TlsConfig;
use janus_ctrl::device::ForwardingPipeline;
use janus_ctrl::listen::{ServeConfig, serve_with};
use janus_ctrl::proto::p4::v1::ForwardingPipelineConfig;
use janus_ctrl::server::P4RuntimeService;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How the control plane serves: plaintext (`--insecure`) or mTLS with
/// the server's certificate, key and the clients' CA; shared by `janus
/// ctrl serve` and `janus nic run`.
#[derive(Args)]
pub struct TlsArgs {
    /// Serve plaintext gRPC, without TLS: every client is the operator.
    /// For local development only (on a card it overrides the image's
    /// certificates).
    #[arg(long, conflicts_with_all = ["tls_cert", "tls_key", "client_ca"])]
    pub insecure: bool,
    /// The server's certificate chain (PEM), for mTLS.
    #[arg(long, value_name = "FILE", requires_all = ["tls_key", "client_ca"])]
    pub tls_cert: Option<PathBuf>,
    /// The server's private key (PEM).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// The CA client certificates must chain to (PEM). A client's
    /// identity is its certificate's common name: `operator` or
    /// `tenant:<id>`.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub client_ca: Option<PathBuf>,
}

impl TlsArgs {
    /// The mTLS configuration the certificate flags name (read from the
    /// files), or None when they are not given; the message of a file
    /// that cannot be used.
    pub fn mtls_config(&self) -> Result<Option<TlsConfig>, String> {
        match (&self.tls_cert, &self.tls_key, &self.client_ca) {
            (Some(cert), Some(key), Some(ca)) => TlsConfig::from_files(cert, key, ca)
                .map(Some)
                .map_err(|e| e.to_string()),
            _ => Ok(None),
        }
    }
}

/// Refuses a control-plane address that binds every address (tenants must
/// never reach the control plane): the message to print.
pub(crate) fn check_management_listen(listen: SocketAddr) -> Result<(), String> {
    if listen.ip().is_unspecified() {
        return Err(format!(
            "listen {listen}: bind the management address (or loopback), not every address: \
             tenants must not reach the control plane"
        ));
    }
    Ok(())
}

#[derive(Subcommand)]
pub enum CtrlCommand {
    /// Run the P4Runtime server (gRPC) over the v1model behavioural model.
    ///
    /// Without --p4 the server starts with no pipeline and waits for a
    /// client to push one (SetForwardingPipelineConfig; the device config
    /// is a `janus p4 compile -o` pipeline file or P4 source text).
    #[command(group = ArgGroup::new("transport").required(true).args(["insecure", "tls_cert"]))]
    Serve {
        /// Address to listen on, e.g. 127.0.0.1:9559 (port 0: any free port).
        #[arg(long, value_name = "ADDR")]
        listen: SocketAddr,
        /// A P4 program (or `.pipeline` file) to commit at start-up.
        #[arg(long, value_name = "PROG.p4")]
        p4: Option<PathBuf>,
        /// The preprocessor options for --p4 (`-I DIR`, `-D NAME[=VALUE]`).
        #[command(flatten)]
        preprocess: super::p4::PreprocessArgs,
        /// The P4Runtime device id this server answers to.
        #[arg(long, default_value_t = 1)]
        device_id: u64,
        /// The pipeline's CPU port: PacketOuts enter the pipeline on it,
        /// packets sent to it become PacketIns.
        #[arg(long, value_name = "N", default_value_t = janus_ctrl::server::DEFAULT_CPU_PORT,
              value_parser = clap::value_parser!(u32).range(0..512))]
        cpu_port: u32,
        /// Plaintext or mTLS (one of them is required).
        #[command(flatten)]
        tls: TlsArgs,
        /// Append the audit log (every write, pipeline change and refusal)
        /// to this file as JSON lines.
        #[arg(long, value_name = "FILE")]
        audit_log: Option<PathBuf>,
        /// Keep the committed pipeline and every entity written in this
        /// directory (a journal, synced before each answer) and restore
        /// them at start-up. A restored pipeline wins over --p4, which
        /// must then name the same program.
        #[arg(long, value_name = "DIR")]
        state: Option<PathBuf>,
        /// With --state: compact the journal (the pipeline and a snapshot
        /// of the state) after this many batches; 0 never does.
        #[arg(long, value_name = "N", default_value_t = janus_ctrl::journal::DEFAULT_SNAPSHOT_EVERY,
              requires = "state")]
        snapshot_every: u32,
        /// `@p4runtime_translation` mappings to pin in every pipeline
        /// (the switch config: which data-plane value each controller
        /// value stands for, such as port names), one per line:
        /// `TYPE-OR-URI SDN-VALUE DATA-PLANE-VALUE` (docs/control-plane.md).
        #[arg(long, value_name = "FILE")]
        translations: Option<PathBuf>,
    },
    /// Make development certificates for mTLS: a CA (ca.pem), the server's
    /// (server.pem, server.key) and client certificates for the operator
    /// (operator.pem, .key) and each --tenant (tenant-<id>.pem, .key).
    Certs {
        /// Directory to write the files into (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Host names and addresses the server certificate is valid for.
        #[arg(long = "host", value_name = "NAME", default_values_t = ["localhost".to_string(), "127.0.0.1".to_string()])]
        hosts: Vec<String>,
        /// A tenant to make a client certificate for (repeatable).
        #[arg(long = "tenant", value_name = "ID")]
        tenants: Vec<u64>,
        /// A client certificate with this common name (repeatable).
        #[arg(long = "client", value_name = "NAME")]
        clients: Vec<String>,
    },
    /// Table entries over P4Runtime: add (or a batch from a file), del, list.
    #[command(subcommand)]
    Table(super::ctrl_client::TableCommand),
    /// Read a counter's cells over P4Runtime.
    Counters(super::ctrl_client::CountersArgs),
    /// Tenants of p4/sdn.p4 over P4Runtime: add, del.
    #[command(subcommand)]
    Tenant(super::ctrl_client::TenantCommand),
    /// Tenant quotas of the tables shared between tenants: show, set, reset.
    #[command(subcommand)]
    Quota(super::ctrl_client::quota::QuotaCommand),
    /// bmv2's simple_switch_CLI command language over P4Runtime: commands
    /// from FILE or standard input, output as runtime_CLI prints it
    /// (docs/control-plane.md, "simple_switch_CLI commands").
    Cli(super::ctrl_client::runtime_cli::CliArgs),
    /// The journal of a --state directory: check it, recover a damaged one.
    #[command(subcommand)]
    Journal(super::ctrl_journal::JournalCommand),
}

impl CtrlCommand {
    /// The audit log file `serve --audit-log` names.
    pub fn audit_log(&self) -> Option<&Path> {
        match self {
            CtrlCommand::Serve { audit_log, .. } => audit_log.as_deref(),
            _ => None,
        }
    }
}

pub fn run(c: CtrlCommand) -> ExitCode {
    match c {
        CtrlCommand::Certs {
            out,
            hosts,
            tenants,
            clients,
        } => {
            let mut names = vec!["operator".to_string()];
            names.extend(tenants.iter().map(|&t| janus_ctrl::auth::tenant_role(t)));
            names.extend(clients);
            let config = janus_ctrl::certs::CertsConfig {
                server_names: hosts,
                clients: names,
            };
            match janus_ctrl::certs::generate(&config).and_then(|b| b.write_to(&out)) {
                Ok(files) => {
                    for f in files {
                        println!("{}", f.display());
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        CtrlCommand::Table(c) => super::ctrl_client::run_table(c),
        CtrlCommand::Counters(a) => super::ctrl_client::run_counters(a),
        CtrlCommand::Tenant(c) => super::ctrl_client::run_tenant(c),
        CtrlCommand::Quota(c) => super::ctrl_client::run_quota(c),
        CtrlCommand::Cli(a) => super::ctrl_client::run_cli(a),
        CtrlCommand::Journal(c) => super::ctrl_journal::run(c),
        CtrlCommand::Serve {
            listen,
            p4,
            preprocess,
            device_id,
            cpu_port,
            tls,
            audit_log: _,
            state,
            snapshot_every,
            translations,
        } => {
            let tls = match check_management_listen(listen).and_then(|()| tls.mtls_config()) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let service = P4RuntimeService::with_cpu_port(device_id, cpu_port);
            if let Some(path) = &translations {
                match janus_ctrl::translation::TranslationFile::load(path) {
                    Ok(file) => service.set_translation_file(file),
                    Err(e) => {
                        eprintln!("error: --translations {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            let state = state.map(|dir| janus_ctrl::journal::StateConfig {
                dir,
                snapshot_every,
            });
            if let Err(code) = start_state(&service, state, p4.as_deref(), &preprocess) {
                return code;
            }
            let runtime = match tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .thread_name("janus-ctrl")
                .build()
            {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: cannot start the runtime: {e}");
                    return ExitCode::from(1);
                }
            };
            runtime.block_on(async move {
                let listener = match tokio::net::TcpListener::bind(listen).await {
                    Ok(l) => l,
                    Err(e) => {
                        eprintln!("error: cannot listen on {listen}: {e}");
                        return ExitCode::from(1);
                    }
                };
                let addr = listener.local_addr().unwrap_or(listen);
                let transport = if tls.is_some() { "mTLS" } else { "plaintext" };
                eprintln!(
                    "janus ctrl: P4Runtime ({transport}) on {addr}, device id {device_id}, CPU port {cpu_port}"
                );
                tracing::info!(%addr, device_id, transport, "P4Runtime server listening");
                let config = ServeConfig { tls };
                match serve_with(service, listener, config, std::future::pending()).await {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => {
                        eprintln!("error: the server stopped: {e}");
                        ExitCode::from(1)
                    }
                }
            })
        }
    }
}

/// Restores the `--state` directory (if any) and commits the `--p4`
/// pipeline unless the state holds one (then both must be the same
/// program). Errors are printed; the exit code is returned.
fn start_state(
    service: &P4RuntimeService,
    state: Option<janus_ctrl::journal::StateConfig>,
    p4: Option<&Path>,
    preprocess: &super::p4::PreprocessArgs,
) -> Result<(), ExitCode> {
    if let Some(config) = state {
        match service.restore(&config) {
            Ok(r) => {
                eprintln!("janus ctrl: state {}: restored {r}", config.dir.display());
            }
            Err(e) => {
                eprintln!("error: --state {}: {e}", config.dir.display());
                return Err(ExitCode::from(1));
            }
        }
    }
    let Some(path) = p4 else {
        return Ok(());
    };
    let pipeline = initial_pipeline(path, &preprocess.options(), &service.translation_file())
        .map_err(|e| {
            eprintln!("error: {}: {e}", path.display());
            ExitCode::from(2)
        })?;
    match service.pipeline_config() {
        Some(restored) if restored.p4_device_config != pipeline.config.p4_device_config => {
            eprintln!(
                "error: {}: the state directory holds another pipeline (start without --p4, or with an empty --state)",
                path.display()
            );
            Err(ExitCode::from(2))
        }
        Some(_) => Ok(()),
        None => service.commit_pipeline(pipeline).map_err(|e| {
            eprintln!("error: {}: {}", path.display(), e.message());
            ExitCode::from(1)
        }),
    }
}

/// The pipeline `--p4` names, compiled with the front end's options
/// (`-I`, `-D`), with the program's own P4Info.
pub(crate) fn initial_pipeline(
    path: &Path,
    opts: &janus_p4::driver::Options,
    translations: &janus_ctrl::translation::TranslationFile,
) -> Result<ForwardingPipeline, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let file = if bytes.starts_with(b"janus-pipeline ") {
        janus_p4::pipeline::Pipeline::from_bytes(&bytes).map_err(|e| e.to_string())?
    } else {
        let c = janus_p4::driver::compile_file(path, opts).map_err(|e| e.to_string())?;
        if c.has_errors() {
            return Err(format!(
                "the program does not compile:\n{}",
                c.render(false)
            ));
        }
        janus_p4::pipeline::Pipeline::from_compilation(&c)
    };
    let c = file.compile().map_err(|e| e.to_string())?;
    let program = c.program().ok_or("the program does not compile")?;
    let config = ForwardingPipelineConfig {
        p4info: Some(janus_ctrl::p4info::to_proto(&janus_p4::p4info::build(
            program,
        ))),
        p4_device_config: file.to_bytes(),
        cookie: None,
    };
    ForwardingPipeline::build_with(config, translations).map_err(|e| e.to_string())
}
