//! `janus ctrl ...`: the control plane.
//!
//! `janus ctrl serve --listen ADDR --insecure [--p4 PROG.p4] [--device-id N] [--cpu-port N]`
//! runs the P4Runtime server (janus_ctrl::server) over the v1model
//! behavioural model until killed. Exit 2 when the arguments or the program
//! are bad, 1 when the server cannot run (the address cannot be bound).

use clap::Subcommand;
use janus_ctrl::device::Pipeline;
use janus_ctrl::proto::p4::v1::ForwardingPipelineConfig;
use janus_ctrl::server::{P4RuntimeService, serve};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum CtrlCommand {
    /// Run the P4Runtime server (gRPC) over the v1model behavioural model.
    ///
    /// Without --p4 the server starts with no pipeline and waits for a
    /// client to push one (SetForwardingPipelineConfig; the device config
    /// is a `janus p4 compile -o` pipeline file or P4 source text).
    Serve {
        /// Address to listen on, e.g. 127.0.0.1:9559 (port 0: any free port).
        #[arg(long, value_name = "ADDR")]
        listen: SocketAddr,
        /// A P4 program (or `.pipeline` file) to commit at start-up.
        #[arg(long, value_name = "PROG.p4")]
        p4: Option<PathBuf>,
        /// Add a directory to the include search path (with --p4).
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// The P4Runtime device id this server answers to.
        #[arg(long, default_value_t = 1)]
        device_id: u64,
        /// The pipeline's CPU port: PacketOuts enter the pipeline on it,
        /// packets sent to it become PacketIns.
        #[arg(long, value_name = "N", default_value_t = janus_ctrl::server::DEFAULT_CPU_PORT,
              value_parser = clap::value_parser!(u32).range(0..512))]
        cpu_port: u32,
        /// Serve plaintext gRPC, without TLS. Required for now: TLS and
        /// client certificates (--tls-cert, --tls-key, --client-ca) come in
        /// a later step. Listen on a loopback or management address only.
        #[arg(long, required = true)]
        insecure: bool,
    },
}

pub fn run(c: CtrlCommand) -> ExitCode {
    match c {
        CtrlCommand::Serve {
            listen,
            p4,
            include,
            device_id,
            cpu_port,
            insecure: _,
        } => {
            let service = P4RuntimeService::with_cpu_port(device_id, cpu_port);
            if let Some(path) = p4 {
                match initial_pipeline(&path, &include) {
                    Ok(p) => service.set_pipeline(p),
                    Err(e) => {
                        eprintln!("error: {}: {e}", path.display());
                        return ExitCode::from(2);
                    }
                }
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
                eprintln!(
                    "janus ctrl: P4Runtime (plaintext) on {addr}, device id {device_id}, CPU port {cpu_port}"
                );
                tracing::info!(%addr, device_id, "P4Runtime server listening");
                match serve(service, listener, std::future::pending()).await {
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

/// The pipeline `--p4` names: compiled, with the program's own P4Info.
fn initial_pipeline(path: &Path, include: &[PathBuf]) -> Result<Pipeline, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let file = if bytes.starts_with(b"janus-pipeline ") {
        janus_p4::pipeline::Pipeline::from_bytes(&bytes).map_err(|e| e.to_string())?
    } else {
        let opts = janus_p4::driver::Options {
            include_dirs: include.to_vec(),
            ..Default::default()
        };
        let c = janus_p4::driver::compile_file(path, &opts).map_err(|e| e.to_string())?;
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
    Pipeline::build(config).map_err(|e| e.to_string())
}
