//! `janus ctrl cli`: bmv2's `simple_switch_CLI` command language
//! (`runtime_CLI.py` and `sswitch_CLI.py`) over P4Runtime.
//!
//! The loop follows Python's `cmd.Cmd`, which runtime_CLI runs on: the
//! intro line, a `RuntimeCmd: ` prompt before every line read (also when
//! the input is a file or a pipe), a line's command is its leading run of
//! letters, digits and `_`; a line that names no command (a `#` comment
//! included) prints `*** Unknown syntax: LINE`; a blank line runs the
//! previous command again; `EOF` (or the end of the input) prints a newline
//! and ends. A failed command prints its error line and the next line
//! runs; the exit status is 0 once the input ends, 1 when the server
//! cannot be reached or has no pipeline (as runtime_CLI, which exits 1
//! when it cannot connect or get the switch's JSON).
//!
//! The commands themselves are [`janus_ctrl::client::runtime_cli`]; this
//! module connects, prints runtime_CLI's opening lines and feeds it the
//! input.

use super::{ClientError, ConnectArgs, session};
use clap::Args;
use janus_ctrl::client::Client;
use janus_ctrl::client::runtime_cli::Session;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `janus ctrl cli [FILE]`.
#[derive(Args)]
pub struct CliArgs {
    /// The commands, one a line (default: standard input).
    pub file: Option<PathBuf>,
    /// The P4Runtime server, HOST:PORT (default 127.0.0.1:9559, or
    /// --thrift-ip:--thrift-port when --thrift-port is given).
    #[arg(long, value_name = "ADDR", conflicts_with = "thrift_port")]
    pub server: Option<String>,
    /// runtime_CLI's port option: the server is THRIFT-IP:P (`janus
    /// switch --thrift-port P` serves P4Runtime there too).
    #[arg(long, value_name = "P")]
    pub thrift_port: Option<u16>,
    /// runtime_CLI's address option, used with --thrift-port.
    #[arg(long, value_name = "IP", default_value = "127.0.0.1")]
    pub thrift_ip: String,
    /// The P4Runtime device id (0, as simple_switch_grpc's default).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub device_id: u64,
    /// Election id for writes (the CLI becomes primary at its first write).
    #[arg(long, value_name = "N", default_value_t = session::DEFAULT_ELECTION_ID)]
    pub election_id: u64,
    /// Accepted for runtime_CLI's command line and ignored: names come from
    /// the server's P4Info.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Accepted for runtime_CLI's command line and ignored: P4Runtime has
    /// one packet replication engine.
    #[arg(long, value_name = "TYPE")]
    pub pre: Option<String>,
    /// mTLS: the CA the server's certificate chains to (PEM).
    #[arg(long, value_name = "FILE", requires_all = ["cert", "key"])]
    pub ca: Option<PathBuf>,
    /// mTLS: this client's certificate (PEM).
    #[arg(long, value_name = "FILE", requires = "ca")]
    pub cert: Option<PathBuf>,
    /// mTLS: this client's private key (PEM).
    #[arg(long, value_name = "FILE", requires = "ca")]
    pub key: Option<PathBuf>,
}

impl CliArgs {
    /// The server address the options name.
    fn server(&self) -> String {
        match (&self.server, self.thrift_port) {
            (Some(s), _) => s.clone(),
            (None, Some(p)) => format!("{}:{p}", self.thrift_ip),
            (None, None) => session::DEFAULT_SERVER.to_string(),
        }
    }

    fn connect_args(&self) -> ConnectArgs {
        ConnectArgs {
            server: self.server(),
            device_id: self.device_id,
            election_id: self.election_id,
            role: String::new(),
            ca: self.ca.clone(),
            cert: self.cert.clone(),
            key: self.key.clone(),
        }
    }
}

/// Connects and fetches the P4Info; the lines runtime_CLI prints when it
/// cannot (it exits 1 then).
async fn open(args: &CliArgs, out: Box<dyn Write>) -> Result<Session, String> {
    let connect = args.connect_args();
    let server = connect.server.clone();
    let fail = |e: ClientError| {
        format!(
            "Could not connect to the P4Runtime server at {server}: {e}\n\
             Make sure the switch is running and that you have the right port"
        )
    };
    let mut client = Client::connect(connect.config().map_err(fail)?)
        .await
        .map_err(|e| fail(e.into()))?;
    let schema = session::schema(&mut client).await.map_err(|e| {
        format!("Error when requesting the P4Info from the switch at {server}: {e}")
    })?;
    Ok(Session::new(client, schema, out))
}

async fn cli(args: CliArgs) -> ExitCode {
    let input: Box<dyn BufRead> = match &args.file {
        Some(path) => match std::fs::File::open(path) {
            Ok(f) => Box::new(std::io::BufReader::new(f)),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => Box::new(std::io::BufReader::new(std::io::stdin())),
    };
    if args.json.is_some() || args.pre.is_some() {
        eprintln!(
            "janus ctrl cli: --json and --pre are ignored (names come from the server's P4Info)"
        );
    }
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "Obtaining P4Info from switch...");
    let _ = stdout.flush();
    let mut s = match open(&args, Box::new(std::io::stdout())).await {
        Ok(s) => s,
        Err(text) => {
            println!("{text}");
            return ExitCode::from(1);
        }
    };
    s.say("Done");
    s.say("Control utility for runtime P4 table manipulation");
    if let Err(e) = s.run_lines(input).await {
        eprintln!("error: reading the commands: {e}");
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

/// `janus ctrl cli ...`.
pub fn run(args: CliArgs) -> ExitCode {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r.block_on(cli(args)),
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            ExitCode::from(1)
        }
    }
}
