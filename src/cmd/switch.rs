//! `janus switch`: simple_switch_grpc's command line (bmv2's
//! `docs/simple_switch.md`, its `options_parse.cpp` and
//! `targets/simple_switch_grpc/main.cpp`) over Janus: the P4Runtime server
//! of `janus ctrl serve`, the program's ports bound to Linux interfaces
//! (`-i PORT@IFACE`, mmap'd packet rings) or carried over one nanomsg
//! PAIR socket (`--packet-in ADDR`, PTF's `nn` platform), the CPU port
//! wired to PacketIn/PacketOut, captures per port (`--pcap`),
//! per-packet traces (`--log-console`) and bmv2's nanomsg event log
//! (`--nanolog ADDR`: PACKET_IN, PACKET_OUT, CONFIG_CHANGE). The
//! option-by-option mapping is in docs/switch.md.

use clap::{Args, Parser};
use janus_ctrl::listen::{ServeConfig, serve_on};
use janus_ctrl::server::{DEFAULT_CPU_PORT, P4RuntimeService};
use janus_host::nanomsg::Endpoint;
use janus_host::nanomsg::event_log::EventLog;
use janus_host::nanomsg::packet::{Notice, PacketSocket};
use janus_host::ports::{PortEvent, PortSet};
use janus_host::sys::packet_ring::RingConfig;
use janus_switch::{Captures, DROP_PORT, DataPlane, Events, FilePorts, Ports, Report};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `janus switch [OPTIONS] [PROGRAM] [-- TARGET OPTIONS]`, as
/// `simple_switch_grpc [options] <path to JSON config file> [-- target options]`.
#[derive(Args)]
pub struct SwitchArgs {
    /// `<port-num>@<interface-name>`: attach the interface as that port at
    /// start-up (repeatable; ports 0 to 511, uplinks included).
    #[arg(short = 'i', long = "interface", value_name = "PORT@IFACE",
          value_parser = parse_interface)]
    interfaces: Vec<(u32, String)>,
    /// Write each interface's input and output as `<iface>_in.pcap` and
    /// `<iface>_out.pcap` in this directory (default: the current one), as
    /// packets go through.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = ".")]
    pcap: Option<PathBuf>,
    /// Ports on pcap files instead of interfaces (bmv2's `--use-files`):
    /// `-i PORT@NAME` reads `NAME_in.pcap` (a file or a named pipe), from
    /// WAIT seconds after start-up, and writes `NAME_out.pcap`.
    #[arg(long, value_name = "WAIT", conflicts_with = "packet_in")]
    use_files: Option<u64>,
    /// Exchange every port's packets over a nanomsg PAIR socket bound
    /// here instead of interfaces (bmv2's `--packet-in`, what PTF's `nn`
    /// platform dials): `ipc://PATH` or `tcp://HOST:PORT`. `-i` is then
    /// ignored, as bmv2 does.
    #[arg(long, value_name = "ADDR")]
    packet_in: Option<String>,
    /// bmv2's Thrift port: Janus has no Thrift server; it serves P4Runtime
    /// on 127.0.0.1:PORT as well, where `janus ctrl cli --thrift-port PORT`
    /// (simple_switch_CLI's commands) finds it.
    #[arg(long, value_name = "PORT")]
    thrift_port: Option<u16>,
    /// The P4Runtime device id (bmv2's default: 0).
    #[arg(long, default_value_t = 0)]
    device_id: u64,
    /// Publish bmv2's nanomsg event log on a PUB socket bound here
    /// (`ipc://PATH` or `tcp://HOST:PORT`): PACKET_IN, PACKET_OUT and
    /// CONFIG_CHANGE messages.
    #[arg(long, value_name = "ADDR")]
    nanolog: Option<String>,
    /// Log to stderr, with a trace of every packet (parser states, tables
    /// with their keys and hit or miss, actions with their arguments, the
    /// packet's fate).
    #[arg(long, conflicts_with = "log_file")]
    log_console: bool,
    /// Log to this file instead, packet traces included.
    #[arg(long, value_name = "FILE")]
    log_file: Option<PathBuf>,
    /// trace, debug, info, warn, error or off (bmv2's default: trace).
    #[arg(short = 'L', long, value_name = "LEVEL", value_parser = ["trace", "debug", "info", "warn", "error", "off"])]
    log_level: Option<String>,
    /// With --log-file: flush after every message.
    #[arg(long)]
    log_flush: bool,
    /// Restore state from a file (bmv2's `--restore-state`): not supported
    /// yet; `--state DIR` (after `--`) keeps Janus's state.
    #[arg(long, value_name = "FILE")]
    restore_state: Option<PathBuf>,
    /// Log the first N bytes of every packet received and sent (level
    /// info).
    #[arg(long, value_name = "N")]
    dump_packet_data: Option<usize>,
    /// Start without a program; a P4Runtime client pushes one.
    #[arg(long)]
    no_p4: bool,
    /// bmv2's debugger (`--debugger`, `--debugger-addr`): accepted with a
    /// warning; Janus has none (`--log-console` traces every packet).
    #[arg(long)]
    debugger: bool,
    #[arg(long, value_name = "ADDR")]
    debugger_addr: Option<String>,
    /// bmv2's nanomsg notifications (learning, ageing): accepted with a
    /// warning; Janus sends digests and idle timeouts over P4Runtime.
    #[arg(long, value_name = "ADDR")]
    notifications_addr: Option<String>,
    /// Accepted for compatibility (Janus takes any port number 0 to 511).
    #[arg(long, value_name = "N")]
    max_port_count: Option<u32>,
    /// `-I DIR` and `-D NAME[=VALUE]` for a P4 program (Janus; bmv2 takes JSON).
    #[command(flatten)]
    preprocess: super::p4::PreprocessArgs,
    /// The program: P4 source, or a pipeline file (`janus p4 compile -o`);
    /// not bmv2 JSON.
    program: Option<PathBuf>,
    /// Target options, after `--`: `--grpc-server-addr ADDR`,
    /// `--cpu-port N`, `--drop-port N`, TLS (`--grpc-server-ssl ...`), and
    /// Janus's `--state DIR`.
    #[arg(last = true, value_name = "TARGET OPTIONS")]
    target: Vec<String>,
}

/// The target options of simple_switch_grpc (after `--`).
#[derive(Parser, Debug)]
#[command(name = "janus switch --", no_binary_name = true)]
struct TargetArgs {
    /// Bind the P4Runtime server to this address (default 0.0.0.0:9559):
    /// IP:PORT, [IPv6]:PORT or HOST:PORT (every address HOST resolves to,
    /// as gRPC binds `localhost:PORT`).
    #[arg(long, value_name = "ADDR")]
    grpc_server_addr: Option<String>,
    /// The CPU port: packets sent to it become PacketIns, PacketOuts enter
    /// the pipeline on it (not 0, below 512, no interface on it; default
    /// 510).
    #[arg(long, value_name = "N")]
    cpu_port: Option<u32>,
    /// The drop port: 511 (the only one Janus's v1model has).
    #[arg(long, value_name = "N")]
    drop_port: Option<u32>,
    /// Not supported: Janus's `egress_spec` starts at 0 as bmv2's default.
    #[arg(long)]
    egress_spec_init_to_drop: bool,
    /// Accepted: Janus always takes a new pipeline at run time.
    #[arg(long)]
    disable_swap: bool,
    /// Priority queues per egress port (simple_switch's option): accepted;
    /// Janus has no egress queues, so every packet leaves in the order it
    /// was processed whatever its priority.
    #[arg(long, value_name = "N")]
    priority_queues: Option<u32>,
    /// Not supported: packets over a gRPC channel.
    #[arg(long, value_name = "ADDR")]
    dp_grpc_server_addr: Option<String>,
    /// Serve TLS; Janus does so only with client certificates
    /// (`--grpc-server-with-client-auth`).
    #[arg(long)]
    grpc_server_ssl: bool,
    #[arg(long, value_name = "FILE")]
    grpc_server_cacert: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    grpc_server_cert: Option<PathBuf>,
    #[arg(long, value_name = "FILE")]
    grpc_server_key: Option<PathBuf>,
    #[arg(long)]
    grpc_server_with_client_auth: bool,
    /// Janus: keep the pipeline and every entity written in this directory
    /// and restore them at start-up (as `janus ctrl serve --state`).
    #[arg(long, value_name = "DIR")]
    state: Option<PathBuf>,
    /// Janus: `@p4runtime_translation` mappings to pin in every pipeline
    /// (as `janus ctrl serve --translations`).
    #[arg(long, value_name = "FILE")]
    translations: Option<PathBuf>,
}

fn parse_interface(s: &str) -> Result<(u32, String), String> {
    let (port, iface) = s
        .split_once('@')
        .ok_or_else(|| format!("`{s}`: expected PORT@IFACE, e.g. 1@veth1"))?;
    let port: u32 = port
        .parse()
        .map_err(|_| format!("`{s}`: the port `{port}` is not a number"))?;
    if port > 511 {
        return Err(format!(
            "`{s}`: port {port} is not a v1model port (0 to 511)"
        ));
    }
    if iface.is_empty() {
        return Err(format!("`{s}`: no interface after `@`"));
    }
    Ok((port, iface.to_string()))
}

/// How the switch logs, for `main` to set up before it runs.
pub struct Logging {
    /// The `tracing` filter.
    pub filter: String,
    /// Where: stderr, or this file.
    pub file: Option<PathBuf>,
    pub flush: bool,
}

impl SwitchArgs {
    /// The logging the options ask for: without --log-console or
    /// --log-file, warnings to stderr (bmv2 logs nothing then); with one,
    /// the level of `-L` (bmv2's default, trace, otherwise) for Janus's
    /// crates, and packet traces when it includes info.
    pub fn logging(&self) -> Logging {
        if !self.log_console && self.log_file.is_none() {
            return Logging {
                filter: "warn".into(),
                file: None,
                flush: false,
            };
        }
        let level = self.log_level.as_deref().unwrap_or("trace");
        let traces = matches!(level, "trace" | "debug" | "info");
        let filter = match level {
            "off" => "off".to_string(),
            "trace" | "debug" => {
                format!("warn,janus={level},janus_ctrl={level},janus_v1model={level}")
            }
            other => other.to_string(),
        };
        Logging {
            filter: if traces {
                format!("{filter},janus::trace=info")
            } else {
                filter
            },
            file: self.log_file.clone(),
            flush: self.log_flush,
        }
    }
}

/// What a refused command line says (exit 2).
fn refuse(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

pub fn run(args: SwitchArgs) -> ExitCode {
    let target = match TargetArgs::try_parse_from(&args.target) {
        Ok(t) => t,
        Err(e) => return refuse(format!("target options (after `--`): {e}")),
    };
    for (given, what) in [
        (
            args.restore_state.is_some(),
            "--restore-state (use `-- --state DIR`)",
        ),
        (
            target.dp_grpc_server_addr.is_some(),
            "--dp-grpc-server-addr",
        ),
        (
            target.egress_spec_init_to_drop,
            "--egress-spec-init-to-drop",
        ),
    ] {
        if given {
            return refuse(format!("janus switch does not support {what} yet"));
        }
    }
    for (given, what) in [
        (
            args.debugger || args.debugger_addr.is_some(),
            "--debugger: Janus has no debugger; --log-console traces every packet",
        ),
        (
            args.notifications_addr.is_some(),
            "--notifications-addr: no nanomsg notifications; digests and idle timeouts go to the P4Runtime client",
        ),
        (
            target.priority_queues.is_some(),
            "--priority-queues: Janus has no egress queues; packets leave in the order they are processed",
        ),
    ] {
        if given {
            eprintln!("janus switch: warning: {what}");
        }
    }
    if let Some(d) = target.drop_port.filter(|&d| d != DROP_PORT) {
        return refuse(format!(
            "--drop-port {d}: Janus's v1model drops on port {DROP_PORT} only"
        ));
    }
    let cpu_port = target.cpu_port.unwrap_or(DEFAULT_CPU_PORT);
    if cpu_port == 0 || cpu_port > 511 {
        return refuse(format!("--cpu-port {cpu_port}: from 1 to 511"));
    }
    // bmv2 clears the interface list when --packet-in is given.
    let packet_in = match args.packet_in.as_deref().map(Endpoint::parse).transpose() {
        Ok(p) => p,
        Err(e) => return refuse(format!("--packet-in {e}")),
    };
    let nanolog = match args.nanolog.as_deref().map(Endpoint::parse).transpose() {
        Ok(n) => n,
        Err(e) => return refuse(format!("--nanolog {e}")),
    };
    let interfaces: &[(u32, String)] = if packet_in.is_some() {
        if !args.interfaces.is_empty() {
            eprintln!(
                "janus switch: ignoring the -i options: with --packet-in every port is on the nanomsg socket (as bmv2)"
            );
        }
        &[]
    } else {
        &args.interfaces
    };
    if let Some((_, iface)) = interfaces.iter().find(|(p, _)| *p == cpu_port) {
        return refuse(format!(
            "port {cpu_port} is the CPU port and cannot also be interface {iface} (choose another --cpu-port after `--`)"
        ));
    }
    if interfaces.iter().any(|(p, _)| *p == DROP_PORT) {
        return refuse(format!(
            "port {DROP_PORT} is the drop port: it cannot have an interface"
        ));
    }
    let tls = match tls_config(&target) {
        Ok(t) => t,
        Err(e) => return refuse(e),
    };
    let translations = match target
        .translations
        .as_deref()
        .map(janus_ctrl::translation::TranslationFile::load)
        .transpose()
    {
        Ok(t) => t.unwrap_or_default(),
        Err(e) => return refuse(format!("--translations {e}")),
    };
    let pipeline = match (&args.program, args.no_p4) {
        (Some(path), false) => match load_program(path, &args.preprocess, &translations) {
            Ok(p) => Some(p),
            Err(e) => return refuse(format!("{}: {e}", path.display())),
        },
        (Some(path), true) => {
            eprintln!(
                "janus switch: ignoring {} as --no-p4 was given",
                path.display()
            );
            None
        }
        (None, true) => None,
        (None, false) => {
            return refuse(
                "give a program (P4 source or a `janus p4 compile -o` pipeline file), or --no-p4",
            );
        }
    };
    if let Some(dir) = &args.pcap
        && !dir.is_dir()
    {
        return refuse(format!("--pcap {}: no such directory", dir.display()));
    }
    let addrs = match target.grpc_server_addr.as_deref().map(server_addrs) {
        None => vec![SocketAddr::from(([0, 0, 0, 0], 9559))],
        Some(Ok(a)) => a,
        Some(Err(e)) => return refuse(format!("--grpc-server-addr {e}")),
    };
    if let Some(&addr) = addrs.iter().find(|a| a.ip().is_unspecified()) {
        tracing::warn!(%addr, "development mode: the P4Runtime server listens on every address");
        eprintln!(
            "janus switch: warning: P4Runtime on {addr} is reachable from every interface of this host (development mode; `janus ctrl serve` refuses it)"
        );
    }
    let events = match nanolog.as_ref().map(|e| EventLog::bind(e, args.device_id)) {
        None => None,
        Some(Ok(log)) => Some(Events::new(log)),
        Some(Err(e)) => return refuse(format!("--nanolog: {e}")),
    };
    let ports = match &packet_in {
        Some(endpoint) => match PacketSocket::bind(endpoint) {
            Ok(s) => Ports::Socket(s),
            Err(e) => {
                eprintln!("error: --packet-in: {e}");
                return ExitCode::from(1);
            }
        },
        None if args.use_files.is_some() => {
            let wait = std::time::Duration::from_secs(args.use_files.unwrap_or(0));
            match FilePorts::open(&args.interfaces, wait) {
                Ok(f) => Ports::Files(f),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            }
        }
        None => match PortSet::open(interfaces, RingConfig::default()) {
            Ok(p) => Ports::Rings(p),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        },
    };
    let service = P4RuntimeService::with_cpu_port(args.device_id, cpu_port);
    service.set_translation_file(translations);
    if let Some(state) = target.state
        && let Err(e) = service.restore(&janus_ctrl::journal::StateConfig::new(state.clone()))
    {
        eprintln!("error: --state {}: {e}", state.display());
        return ExitCode::from(1);
    }
    if let Some(p) = pipeline
        && service.pipeline_config().is_none()
        && let Err(e) = service.commit_pipeline(p)
    {
        eprintln!("error: the pipeline cannot be committed: {e}");
        return ExitCode::from(1);
    }
    if args.log_console || args.log_file.is_some() {
        service.set_packet_trace(true);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("janus-switch")
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let (tx, rx) = tokio::sync::mpsc::channel(1024);
    service.set_port_output(tx);
    let captures = match args
        .pcap
        .as_deref()
        .map(|d| Captures::open(d, &ports))
        .transpose()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: --pcap: {e}");
            return ExitCode::from(1);
        }
    };
    let plane = DataPlane {
        ports,
        switch: service.switch_handle(),
        packet_outs: rx,
        captures,
        dump: args.dump_packet_data.unwrap_or(0),
        events,
        report: Box::new(|r| match r {
            Report::Port(e) => report(e),
            Report::Nanomsg(n) => report_notice(n),
        }),
    };
    let listed = plane.describe();
    if let Err(e) = std::thread::Builder::new()
        .name("janus-dataplane".into())
        .spawn(move || plane.run())
    {
        eprintln!("error: cannot start the data plane: {e}");
        return ExitCode::from(1);
    }
    runtime.block_on(async move {
        let mut listeners = match bind_all(&addrs).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        };
        let addr = listeners[0].local_addr().unwrap_or(addrs[0]);
        let transport = if tls.is_some() { "mTLS" } else { "plaintext" };
        eprintln!(
            "janus switch: P4Runtime ({transport}) on {addr}, device id {}, CPU port {cpu_port}, {listed}",
            args.device_id,
        );
        if let Some(port) = args.thrift_port {
            listeners.extend(thrift_port_listener(port).await);
        }
        match serve_on(service, listeners, ServeConfig { tls }, std::future::pending()).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: the server stopped: {e}");
                ExitCode::from(1)
            }
        }
    })
}

/// The addresses `--grpc-server-addr` names: an IP:PORT as it is, a
/// HOST:PORT as every address HOST resolves to (without repeats).
fn server_addrs(given: &str) -> Result<Vec<SocketAddr>, String> {
    use std::net::ToSocketAddrs;
    if let Ok(a) = given.parse::<SocketAddr>() {
        return Ok(vec![a]);
    }
    let resolved = given
        .to_socket_addrs()
        .map_err(|e| format!("{given}: not IP:PORT or HOST:PORT ({e})"))?;
    let mut addrs: Vec<SocketAddr> = Vec::new();
    for a in resolved {
        if !addrs.contains(&a) {
            addrs.push(a);
        }
    }
    if addrs.is_empty() {
        return Err(format!("{given}: resolves to no address"));
    }
    Ok(addrs)
}

/// Listeners on `addrs` (the first's port for the others when it was 0):
/// an address that cannot be bound is a warning while another one is
/// bound; none bound is the first error.
async fn bind_all(addrs: &[SocketAddr]) -> Result<Vec<tokio::net::TcpListener>, String> {
    let mut listeners = Vec::new();
    let mut first_error = None;
    for &a in addrs {
        let mut at = a;
        if at.port() == 0
            && let Some(bound) = listeners
                .first()
                .and_then(|l: &tokio::net::TcpListener| l.local_addr().ok())
        {
            at.set_port(bound.port());
        }
        match tokio::net::TcpListener::bind(at).await {
            Ok(l) => listeners.push(l),
            Err(e) => {
                let message = format!("cannot listen on {at}: {e}");
                if first_error.is_none() {
                    first_error = Some(message.clone());
                }
                tracing::warn!("{message}");
            }
        }
    }
    if listeners.is_empty() {
        return Err(first_error.unwrap_or_else(|| "no address to listen on".into()));
    }
    Ok(listeners)
}

/// The listener on bmv2's Thrift port: P4Runtime on 127.0.0.1:PORT (no
/// Thrift), for `janus ctrl cli --thrift-port PORT`; a port that cannot
/// be bound is a warning, the switch runs without it.
async fn thrift_port_listener(port: u16) -> Option<tokio::net::TcpListener> {
    let at = SocketAddr::from(([127, 0, 0, 1], port));
    match tokio::net::TcpListener::bind(at).await {
        Ok(l) => {
            eprintln!(
                "janus switch: no Thrift server; P4Runtime also on {at} for `janus ctrl cli --thrift-port {port}` (simple_switch_CLI's commands)"
            );
            Some(l)
        }
        Err(e) => {
            tracing::warn!(%at, "--thrift-port: cannot listen: {e}");
            eprintln!(
                "janus switch: warning: --thrift-port {port}: cannot listen on {at}: {e}; going on without it"
            );
            None
        }
    }
}

/// The TLS the target options ask for: simple_switch_grpc's
/// `--grpc-server-ssl` with `--grpc-server-cert`, `--grpc-server-key`,
/// `--grpc-server-cacert` and `--grpc-server-with-client-auth` is Janus's
/// mTLS; TLS without client certificates is refused (Janus knows a
/// client by its certificate).
fn tls_config(t: &TargetArgs) -> Result<Option<janus_ctrl::auth::TlsConfig>, String> {
    if !t.grpc_server_ssl {
        return Ok(None);
    }
    match (&t.grpc_server_cert, &t.grpc_server_key, &t.grpc_server_cacert) {
        (Some(cert), Some(key), Some(ca)) if t.grpc_server_with_client_auth => {
            janus_ctrl::auth::TlsConfig::from_files(cert, key, ca)
                .map(Some)
                .map_err(|e| e.to_string())
        }
        (Some(_), Some(_), Some(_)) => Err(
            "--grpc-server-ssl: Janus serves TLS only with client certificates; add --grpc-server-with-client-auth".into(),
        ),
        _ => Err(
            "--grpc-server-ssl needs --grpc-server-cert, --grpc-server-key and --grpc-server-cacert".into(),
        ),
    }
}

/// The program at `path`: P4 source or a pipeline file; a bmv2 JSON gets
/// the control plane's message saying what to give instead.
fn load_program(
    path: &Path,
    preprocess: &super::p4::PreprocessArgs,
    translations: &janus_ctrl::translation::TranslationFile,
) -> Result<janus_ctrl::device::ForwardingPipeline, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        return match janus_ctrl::device::compile_device_config(&bytes) {
            Err(e) => Err(e.to_string()),
            Ok(_) => Err("a JSON file is not a program".into()),
        };
    }
    super::ctrl::initial_pipeline(path, &preprocess.options(), translations)
}

/// A port going down: on stderr and in the log.
fn report(event: PortEvent) {
    let PortEvent::Down { port, iface, why } = event;
    tracing::error!(port, %iface, "port down: {why}; the switch goes on without it");
    eprintln!("janus switch: port {port} ({iface}) is down: {why}");
}

/// What the nanomsg socket reports: connections on stderr, port
/// messages in the log.
fn report_notice(notice: Notice) {
    match notice {
        Notice::Connected { peer } => {
            tracing::info!(%peer, "nanomsg peer connected");
            eprintln!("janus switch: nanomsg peer connected ({peer})");
        }
        Notice::Disconnected { peer, why } => {
            let why = why.map(|w| format!(": {w}")).unwrap_or_default();
            tracing::info!(%peer, "nanomsg peer disconnected{why}");
            eprintln!("janus switch: nanomsg peer disconnected ({peer}){why}");
        }
        Notice::Refused { peer, why } => {
            tracing::warn!(%peer, "nanomsg connection refused: {why}");
            eprintln!("janus switch: nanomsg connection refused ({peer}): {why}");
        }
        Notice::PortAdded { port } => tracing::info!(port, "nanomsg: port added"),
        Notice::PortRemoved { port } => tracing::info!(port, "nanomsg: port removed"),
        Notice::PortStatus { port, status } => {
            tracing::info!(
                port,
                status,
                "nanomsg: port status set (not enforced, as bmv2)"
            )
        }
        Notice::Bad { why } => {
            tracing::warn!("nanomsg: a message is dropped: {why}");
            eprintln!("janus switch: a nanomsg message is dropped: {why}");
        }
    }
}
