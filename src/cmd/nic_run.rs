//! `janus nic run CARD [--listen ADDR] [--insecure]`: the NIC process
//! on a simulated card (docs/firmware.md, "Runtime"). The boot ROM boots
//! the card; the pipeline and the firmware configuration come from the
//! image it verified; the control plane listens on the configuration's
//! management address with its certificates (mTLS; `--insecure` is a
//! development override, the image cannot turn TLS off); the tenants
//! bootstrap is written over P4Runtime with the mapping of `janus ctrl
//! tenant add`; the slow-path agent answers ARP/ND for the gateways; the
//! health check passes, then the boot is confirmed. A failed health check
//! exits 1 unconfirmed, so the boot ROM falls back after N attempts.
//!
//! `janus nic run DIR --p4 PROG --listen ADDR (--insecure | --tls-cert
//! ...)`: development mode, no card: the program runs as given, with no
//! bootstrap, slow path or health check.
//!
//! A card's process also listens on `DIR/control.sock` for `janus nic
//! swap DIR`: the pipeline hot-swap to the image flashed into the
//! inactive slot (janus_firmware::runtime::swap; docs/firmware.md,
//! "Hot-swap"). The VFs' last ingress frames are recorded for it.
//!
//! Either way one switch (a `janus_engine::target::Target`) behind the control plane's SwitchHandle serves
//! both P4Runtime and the VFs' frames (janus_host::transport::Hub, a
//! socket per VF in DIR), and the frames PacketOuts send out of VF ports
//! reach their receive rings. Runs until SIGINT/SIGTERM, then prints its
//! counters. Exit 2 on bad arguments or program, 1 when the card does not
//! boot or pass its health check, or something cannot be bound or served.

use super::ctrl::TlsArgs;
use super::ctrl_client::{insert_entries, session};
use clap::Args;
use janus_ctrl::auth::TlsConfig;
use janus_ctrl::client::entries::EntrySpec;
use janus_ctrl::client::tenant::{self, TenantSpec};
use janus_ctrl::client::{Client, ClientConfig};
use janus_ctrl::device::ForwardingPipeline;
use janus_ctrl::listen::{ServeConfig, serve_with};
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use janus_ctrl::server::{P4RuntimeService, SwitchHandle};
use janus_firmware::config::{FirmwareConfig, Tenant};
use janus_firmware::runtime::control::{
    self, ControlSocket, PortTap, Running, SwapResult, health_lines,
};
use janus_firmware::runtime::{self, HealthCheck, HealthReport, LocalPlane, Recorder, SwapOutcome};
use janus_firmware::slowpath::{AgentConfig, Responder, SlowPath, SlowPathStats};
use janus_firmware_core::boot::BootConfig;
use janus_host::sys::signal;
use janus_host::transport::{Hub, HubConfig, HubCounters, Pipeline};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, PoisonError};
use std::time::Duration;
use tokio::sync::mpsc;

#[derive(Args)]
pub struct RunArgs {
    /// The card's folder (`card.toml`, from `janus nic create`), or with
    /// `--p4` any runtime folder. The VF sockets (vf<PORT>.sock) are made
    /// here.
    dir: PathBuf,
    /// Development: run this P4 program (or `.pipeline` file) instead of
    /// booting a card.
    #[arg(long, value_name = "PROG.p4")]
    p4: Option<PathBuf>,
    /// The preprocessor options for `--p4` (`-I DIR`, `-D NAME[=VALUE]`).
    #[command(flatten)]
    preprocess: super::p4::PreprocessArgs,
    /// The management address the control plane listens on (never a
    /// tenant-reachable one; port 0: any free port). Required with `--p4`;
    /// on a card it replaces the configuration's.
    #[arg(long, value_name = "ADDR")]
    listen: Option<SocketAddr>,
    /// Number of VFs served, on ports 2, 3, ...
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=508))]
    vfs: u32,
    /// Descriptors per ring of each VF (a power of two).
    #[arg(long, default_value_t = 256)]
    ring_size: u16,
    /// The P4Runtime device id.
    #[arg(long, default_value_t = 1)]
    device_id: u64,
    /// Plaintext or mTLS (on a card, by default the image's certificates).
    #[command(flatten)]
    tls: TlsArgs,
}

/// What the process serves, from a booted card or from `--p4`.
struct Served {
    pipeline: ForwardingPipeline,
    listen: SocketAddr,
    tls: Option<TlsConfig>,
    /// The booted image's configuration (none with `--p4`).
    firmware: Option<FirmwareConfig>,
}

/// The VFs' frames through the control plane's switch; the frames
/// PacketOuts send out of ports come from `port_out`.
struct Switch {
    handle: SwitchHandle,
    port_out: mpsc::Receiver<(u32, Vec<u8>)>,
    /// The VFs' frames are recorded here (on a card).
    recorder: Option<Recorder>,
    tap: PortTap,
}

impl Pipeline for Switch {
    fn process(&mut self, port: u32, frame: &[u8], out: &mut Vec<(u32, Vec<u8>)>) {
        if let Some(r) = &self.recorder {
            r.record(port, frame);
        }
        if let Some(sent) = self.handle.inject(port, frame) {
            out.extend(sent);
        }
    }

    fn pending(&mut self, out: &mut Vec<(u32, Vec<u8>)>) {
        while let Ok(sent) = self.port_out.try_recv() {
            if let Some(tap) = self
                .tap
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .as_ref()
            {
                let _ = tap.try_send(sent.clone());
            }
            out.push(sent);
        }
    }
}

/// Frames queued from PacketOuts before the hub takes them (more are
/// dropped, as on a congested port).
const PORT_OUT_QUEUE: usize = 1024;

/// `--p4`: the program as given, TLS from the flags.
fn development(args: &RunArgs, p4: &std::path::Path) -> Result<Served, ExitCode> {
    let fail = |e: String| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    };
    let listen = args
        .listen
        .ok_or_else(|| fail("--p4 needs --listen ADDR".into()))?;
    let tls = match args.tls.mtls_config().map_err(fail)? {
        Some(t) => Some(t),
        None if args.tls.insecure => None,
        None => {
            return Err(fail(
                "--p4 needs --insecure or --tls-cert/--tls-key/--client-ca".into(),
            ));
        }
    };
    let pipeline =
        super::ctrl::initial_pipeline(p4, &args.preprocess.options(), &Default::default())
            .map_err(|e| fail(format!("{}: {e}", p4.display())))?;
    Ok(Served {
        pipeline,
        listen,
        tls,
        firmware: None,
    })
}

/// A card: boot it, take the pipeline and configuration of its image.
fn boot(args: &RunArgs) -> Result<Served, ExitCode> {
    let booted = match runtime::boot_for_service(&args.dir, BootConfig::default()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {}: {e}", args.dir.display());
            return Err(ExitCode::from(1));
        }
    };
    super::nic::print_boot_summary(&booted.report);
    let config = booted.config;
    let from_files = args.tls.mtls_config().map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })?;
    let tls = match from_files {
        Some(t) => Some(t),
        None if args.tls.insecure => {
            eprintln!(
                "warning: --insecure: serving plaintext, the image's certificates unused (development only)"
            );
            None
        }
        _ => Some(TlsConfig {
            cert_pem: config.certificates.server_cert.clone().into_bytes(),
            key_pem: config.certificates.server_key.clone().into_bytes(),
            client_ca_pem: config.certificates.client_ca.clone().into_bytes(),
        }),
    };
    Ok(Served {
        pipeline: booted.pipeline,
        listen: args.listen.unwrap_or(config.management),
        tls,
        firmware: Some(config),
    })
}

/// A firmware tenant as `janus ctrl tenant add` takes it.
fn tenant_spec(t: &Tenant) -> TenantSpec {
    TenantSpec {
        id: t.id,
        vni: t.vni,
        gateway: t.gateway.as_ref().map(|g| tenant::Gateway {
            mac: g.mac.0,
            ipv4: g.ipv4,
            ipv6: g.ipv6,
        }),
        vfs: t
            .vfs
            .iter()
            .map(|v| tenant::Vf {
                port: v.port,
                mac: v.mac.0,
                ipv4: v.ipv4,
            })
            .collect(),
        tunnels: t
            .tunnels
            .iter()
            .map(|x| tenant::Tunnel {
                id: x.id,
                remote_vtep: x.vtep,
                underlay_mac: x.underlay_mac.0,
                uplink: x.uplink,
            })
            .collect(),
        remotes: t
            .remotes
            .iter()
            .map(|r| tenant::Remote {
                prefix: r.prefix.addr,
                len: r.prefix.len,
                tunnel: r.tunnel,
                next_mac: r.next_mac.0,
            })
            .collect(),
    }
}

/// Writes the configuration's tenants (the operator's initial tenants) as
/// the default role's primary over the in-process channel; the number of
/// entries written. The primary role is released afterwards.
async fn bootstrap(
    local: &LocalPlane,
    config: &FirmwareConfig,
    device_id: u64,
) -> Result<usize, String> {
    let channel = local.channel().await.map_err(|e| e.to_string())?;
    let mut client = Client::from_grpc(
        P4RuntimeClient::new(channel),
        ClientConfig {
            device_id,
            ..ClientConfig::new("in-process")
        },
    );
    let schema = session::schema(&mut client)
        .await
        .map_err(|e| e.to_string())?;
    let specs: Vec<EntrySpec> = config
        .tenants
        .iter()
        .flat_map(|t| tenant_spec(t).entries())
        .collect();
    session::become_primary(&mut client)
        .await
        .map_err(|e| e.to_string())?;
    insert_entries(&mut client, &schema, &specs)
        .await
        .map_err(|e| e.to_string())
}

/// Bootstrap, slow path and health check; confirms the boot when it
/// passes. Exit 1 (unconfirmed) otherwise.
async fn bring_up(
    args: &RunArgs,
    service: &P4RuntimeService,
    config: &FirmwareConfig,
    management: SocketAddr,
    port_out: &mut mpsc::Receiver<(u32, Vec<u8>)>,
) -> Result<Running, String> {
    let local = LocalPlane::serve(service.clone());
    let entries = bootstrap(&local, config, args.device_id)
        .await
        .map_err(|e| format!("the tenants bootstrap failed: {e}"))?;
    println!(
        "tenants bootstrap: {} tenant(s), {entries} entries written",
        config.tenants.len()
    );
    let channel = local.channel().await.map_err(|e| e.to_string())?;
    let agent = AgentConfig {
        device_id: args.device_id,
        ..AgentConfig::default()
    };
    let slow_path = SlowPath::start(channel.clone(), Responder::new(config), agent)
        .await
        .map_err(|e| e.to_string())?;
    let switch = service.switch_handle();
    let report = HealthCheck {
        switch: &switch,
        channel,
        management,
        device_id: args.device_id,
        bootstrap_entries: entries,
        config,
    }
    .run(port_out)
    .await;
    print_health(&report);
    if !report.passed() {
        return Err("health check failed: boot not confirmed".into());
    }
    Ok(Running {
        local,
        slow_path,
        entries,
    })
}

fn print_health(report: &HealthReport) {
    print!("{}", health_lines(report));
}

pub fn run(args: &RunArgs) -> ExitCode {
    let served = match &args.p4 {
        Some(p4) => development(args, p4),
        None => boot(args),
    };
    let Served {
        pipeline,
        listen,
        tls,
        firmware,
    } = match served {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Err(e) = super::ctrl::check_management_listen(listen) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let service = P4RuntimeService::with_cpu_port(args.device_id, janus_nic::ports::CPU_PORT);
    if let Err(e) = service.commit_pipeline(pipeline) {
        eprintln!("error: the pipeline: {}", e.message());
        return ExitCode::from(1);
    }
    let (port_tx, mut port_rx) = mpsc::channel(PORT_OUT_QUEUE);
    service.set_port_output(port_tx);
    if let Err(e) = std::fs::create_dir_all(&args.dir) {
        eprintln!("error: {}: {e}", args.dir.display());
        return ExitCode::from(1);
    }
    let ports: Vec<u32> = (0..args.vfs)
        .map(|i| janus_nic::ports::FIRST_VF + i)
        .collect();
    let mut hub = match Hub::bind(HubConfig {
        dir: args.dir.clone(),
        ports: ports.clone(),
        ring_size: args.ring_size,
        batch: 32,
    }) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if let Err(e) = signal::install_stop_handler() {
        eprintln!("error: cannot handle signals: {e}");
        return ExitCode::from(1);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .thread_name("janus-nic-ctrl")
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let listener = match runtime.block_on(tokio::net::TcpListener::bind(listen)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot listen on {listen}: {e}");
            return ExitCode::from(1);
        }
    };
    let addr = listener.local_addr().unwrap_or(listen);
    let transport = if tls.is_some() { "mTLS" } else { "plaintext" };
    let server = runtime.spawn(serve_with(
        service.clone(),
        listener,
        ServeConfig { tls },
        stopped(),
    ));
    let recorder = firmware.as_ref().map(|_| Recorder::default());
    let tap = PortTap::default();
    let firmware = match &firmware {
        None => None,
        Some(config) => {
            let up = runtime.block_on(bring_up(args, &service, config, addr, &mut port_rx));
            let up = up.and_then(|f| confirm(args).map(|()| f)).and_then(|f| {
                let control = ControlSocket {
                    dir: args.dir.clone(),
                    service: service.clone(),
                    config: config.clone(),
                    management: addr,
                    device_id: args.device_id,
                    recorder: recorder.clone().unwrap_or_default(),
                    tap: tap.clone(),
                    running: Arc::new(tokio::sync::Mutex::new(f)),
                    on_swap: Box::new(print_swap),
                };
                let running = control.running.clone();
                let _guard = runtime.enter();
                control
                    .listen()
                    .map(|()| running)
                    .map_err(|e| e.to_string())
            });
            match up {
                Ok(f) => Some(f),
                Err(e) => {
                    eprintln!("error: {e}");
                    runtime.shutdown_timeout(Duration::from_secs(1));
                    return ExitCode::from(1);
                }
            }
        }
    };
    eprintln!(
        "janus nic: P4Runtime ({transport}) on {addr}; VF ports {}..={} at {}/vf<PORT>.sock",
        ports[0],
        ports[ports.len() - 1],
        args.dir.display()
    );
    let mut switch = Switch {
        handle: service.switch_handle(),
        port_out: port_rx,
        recorder,
        tap,
    };
    drop(service);
    let served = hub.run(&mut switch, &signal::stop_requested);
    print_counters(&hub.counters());
    if let Some(f) = &firmware {
        let f = runtime.block_on(f.lock());
        print_slow_path(&f.slow_path.counters().snapshot());
        let _ = std::fs::remove_file(args.dir.join(control::CONTROL_SOCKET));
    }
    drop(hub);
    drop(firmware);
    let code = match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    };
    match runtime.block_on(server) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => eprintln!("error: the control plane stopped: {e}"),
        Err(e) => eprintln!("error: the control plane failed: {e}"),
    }
    runtime.shutdown_timeout(Duration::from_secs(1));
    code
}

/// What the process prints of a swap (`janus nic swap` gets the report).
fn print_swap(outcome: &SwapResult) {
    match outcome {
        Ok(SwapOutcome::Committed { slot, .. }) => println!("pipeline swapped to slot {slot}"),
        Ok(SwapOutcome::Reverted { slot, .. }) => {
            println!("pipeline swap to slot {slot} reverted")
        }
        Err(e) => eprintln!("swap refused: {e}"),
    }
}

/// Confirms the boot of the card in `args.dir` and says so.
fn confirm(args: &RunArgs) -> Result<(), String> {
    let c = runtime::confirm(&args.dir).map_err(|e| e.to_string())?;
    super::nic::print_confirmed(&c);
    Ok(())
}

/// Completes once SIGINT or SIGTERM arrived.
async fn stopped() {
    while !signal::stop_requested() {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn print_slow_path(s: &SlowPathStats) {
    println!(
        "slow path: {} ARP and {} ND requests answered, {} punted frames ignored, {} replies refused",
        s.arp_answered, s.nd_answered, s.ignored, s.refused
    );
}

fn print_counters(c: &HubCounters) {
    println!(
        "VFs: {} frames in, {} delivered, {} dropped (no shim), {} dropped (receive ring full), {} to other ports; {} attaches, {} detaches",
        c.from_vfs,
        c.to_vfs,
        c.dropped_detached,
        c.dropped_ring_full,
        c.to_other_ports,
        c.attaches,
        c.detaches
    );
}
