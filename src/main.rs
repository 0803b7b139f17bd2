//! The `janus` command: one binary, thin over the crates.

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "janus",
    version,
    about = "Janus: SmartNIC/P4 hardware-software co-design framework"
)]
struct Cli {
    /// Log filter, e.g. `info` or `janus_p4=debug` (also read from JANUS_LOG).
    #[arg(long, global = true)]
    log: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the demonstration: p4/sdn.p4 with two tenants, scripted traffic,
    /// the fate of every frame, counters and per-port captures.
    Demo(cmd::demo::DemoArgs),
    /// The P4_16 front end: check, compile, explain diagnostics.
    #[command(subcommand)]
    P4(cmd::p4::P4Command),
    /// The behavioural model: STF packet tests, captures through a program.
    #[command(subcommand)]
    Sim(cmd::sim::SimCommand),
    /// The control plane: the P4Runtime server.
    #[command(subcommand)]
    Ctrl(cmd::ctrl::CtrlCommand),
    /// Keys for signing firmware images.
    #[command(subcommand)]
    Keys(cmd::keys::KeysCommand),
    /// The simulated NIC card.
    #[command(subcommand)]
    Nic(cmd::nic::NicCommand),
    /// The fabric simulator: path-selection schemes at cluster scale.
    #[command(subcommand)]
    Fabric(cmd::fabric::FabricCommand),
    /// Signed firmware images: build, verify, inspect, verify quotes.
    #[command(subcommand)]
    Image(cmd::image::ImageCommand),
    /// The host side: attach a Linux interface to a VF of `janus nic run`.
    #[command(subcommand)]
    Host(cmd::host::HostCommand),
    /// A drop-in for simple_switch_grpc: the program's ports on Linux
    /// interfaces (`-i PORT@IFACE`), P4Runtime, captures and packet traces.
    Switch(cmd::switch::SwitchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let trace = matches!(&cli.command, Command::Sim(c) if c.trace());
    let audit = match &cli.command {
        Command::Ctrl(c) => match c.audit_log().map(open_audit_log).transpose() {
            Ok(file) => file,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        _ => None,
    };
    if let Command::Switch(args) = &cli.command {
        let logging = args.logging();
        let filter = cli.log.clone().unwrap_or(logging.filter);
        if let Err(e) = init_switch_logging(&filter, logging.file.as_deref(), logging.flush) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    } else {
        init_logging(cli.log.as_deref(), trace, audit);
    }
    match cli.command {
        Command::Demo(args) => cmd::demo::run(&args),
        Command::P4(c) => cmd::p4::run(c),
        Command::Sim(c) => cmd::sim::run(c),
        Command::Ctrl(c) => cmd::ctrl::run(c),
        Command::Keys(c) => cmd::keys::run(c),
        Command::Nic(c) => cmd::nic::run(c),
        Command::Fabric(c) => cmd::fabric::run(c),
        Command::Image(c) => cmd::image::run(c),
        Command::Host(c) => cmd::host::run(c),
        Command::Switch(args) => cmd::switch::run(args),
    }
}

/// Logs to stderr, filtered by `--log`, else `JANUS_LOG`, else `warn`;
/// `--trace` adds the packet traces (target `janus::trace`). With an audit
/// file, the control plane's audit events (target `janus::audit`) are
/// appended to it as JSON lines, whatever the filter.
fn init_logging(filter: Option<&str>, trace: bool, audit: Option<std::fs::File>) {
    use tracing_subscriber::prelude::*;
    let mut filter = filter
        .map(str::to_string)
        .or_else(|| std::env::var("JANUS_LOG").ok())
        .unwrap_or_else(|| "warn".to_string());
    if trace {
        filter.push_str(",janus::trace=info");
    }
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_filter(tracing_subscriber::EnvFilter::new(filter));
    let audit = audit.map(|file| {
        tracing_subscriber::fmt::layer()
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_writer(std::sync::Mutex::new(file))
            .with_filter(
                tracing_subscriber::filter::Targets::new()
                    .with_target(janus_ctrl::audit::TARGET, tracing::Level::INFO),
            )
    });
    let _ = tracing_subscriber::registry()
        .with(stderr)
        .with(audit)
        .try_init();
}

/// Opens the audit log for appending (created when missing).
fn open_audit_log(path: &std::path::Path) -> Result<std::fs::File, String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open the audit log {}: {e}", path.display()))
}

/// `janus switch`'s logs (bmv2's `--log-console`, `--log-file`,
/// `--log-flush`): `filter` to stderr, or appended to `file` (flushed
/// after every event with `flush`).
fn init_switch_logging(
    filter: &str,
    file: Option<&std::path::Path>,
    flush: bool,
) -> Result<(), String> {
    use tracing_subscriber::prelude::*;
    let filter = tracing_subscriber::EnvFilter::new(filter);
    match file {
        None => {
            let layer = tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                .with_filter(filter);
            let _ = tracing_subscriber::registry().with(layer).try_init();
        }
        Some(path) => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("--log-file {}: {e}", path.display()))?;
            let writer = LogFile {
                file: std::sync::Mutex::new(std::io::LineWriter::new(file)),
                flush,
            };
            let layer = tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(std::sync::Arc::new(writer))
                .with_filter(filter);
            let _ = tracing_subscriber::registry().with(layer).try_init();
        }
    }
    Ok(())
}

/// A log file written a line at a time, synced to disk after every event
/// when `flush` is set (`--log-flush`).
struct LogFile {
    file: std::sync::Mutex<std::io::LineWriter<std::fs::File>>,
    flush: bool,
}

impl std::io::Write for &LogFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let n = f.write(buf)?;
        if self.flush {
            f.flush()?;
            f.get_ref().sync_data()?;
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.lock().unwrap_or_else(|e| e.into_inner()).flush()
    }
}
