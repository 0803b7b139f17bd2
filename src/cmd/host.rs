//! `janus host attach --nic DIR --vf PORT (--tap NAME | --veth NAME)`: the
//! host shim (janus_host::shim) between a Linux interface and one VF of
//! `janus nic run DIR`, until SIGINT/SIGTERM or the NIC goes away; prints
//! its counters on exit. Exit 2 on bad arguments, 1 when the interface or
//! the VF cannot be attached or the transport fails.
//!
//! `janus host vhost-user --nic DIR --vf PORT --socket PATH`: the same for
//! a QEMU guest (janus_host::vhost): a vhost-user-net socket whose guests'
//! virtio-net devices use the VF.
//!
//! Links only janus-host: the tenant's side has no path to the control
//! plane or the firmware.

use clap::{Args, Subcommand};
use janus_host::shim::{Interface, Shim, ShimConfig, ShimCounters, Stopped};
use janus_host::sys::signal;
use janus_host::transport::HostEndCounters;
use janus_host::vhost::{VhostCounters, VhostUser, VhostUserConfig};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum HostCommand {
    /// Bridge a TAP device or a veth end to a VF of `janus nic run`.
    Attach(AttachArgs),
    /// Serve a VF to QEMU guests over a vhost-user-net socket.
    VhostUser(VhostUserArgs),
}

/// The VF a bridge serves and how it moves frames (`attach` and
/// `vhost-user` alike).
#[derive(Args)]
pub struct VfArgs {
    /// The NIC's runtime directory (`janus nic run DIR`).
    #[arg(long, value_name = "DIR")]
    nic: PathBuf,
    /// The VF's NIC port (2..=509).
    #[arg(long = "vf", value_name = "PORT", value_parser = clap::value_parser!(u32).range(2..=509))]
    port: u32,
    /// Most frames moved per direction per round.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..=1024))]
    batch: u16,
}

#[derive(Args)]
pub struct AttachArgs {
    #[command(flatten)]
    vf: VfArgs,
    /// A TAP device to create (or open) and bridge.
    #[arg(
        long,
        value_name = "NAME",
        required_unless_present = "veth",
        conflicts_with = "veth"
    )]
    tap: Option<String>,
    /// An existing interface (a veth end) to bridge through a packet socket.
    #[arg(long, value_name = "NAME")]
    veth: Option<String>,
}

#[derive(Args)]
pub struct VhostUserArgs {
    #[command(flatten)]
    vf: VfArgs,
    /// The vhost-user socket to create (QEMU: `-chardev socket,path=PATH`).
    #[arg(long, value_name = "PATH")]
    socket: PathBuf,
}

pub fn run(cmd: HostCommand) -> ExitCode {
    match cmd {
        HostCommand::Attach(args) => attach(args),
        HostCommand::VhostUser(args) => vhost_user(args),
    }
}

fn vhost_user(args: VhostUserArgs) -> ExitCode {
    if let Err(code) = install_stop_handler() {
        return code;
    }
    let config = VhostUserConfig {
        nic_dir: args.vf.nic,
        port: args.vf.port,
        socket: args.socket.clone(),
        batch: usize::from(args.vf.batch),
    };
    let mut server = match VhostUser::attach(config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    eprintln!(
        "janus host: vhost-user socket {} serves VF {}",
        args.socket.display(),
        args.vf.port
    );
    let result = server.run(&signal::stop_requested);
    println!("guests: {} sessions", server.guests());
    print_vhost_counters(&server.counters(), &server.nic_counters());
    exit_code(result, args.vf.port)
}

fn print_vhost_counters(c: &VhostCounters, nic: &[u64; 6]) {
    println!(
        "guest: {} frames ({} bytes) received, {} frames ({} bytes) sent, {} too small for a receive buffer, {} bad transmit chains, {} interrupts",
        c.to_guest,
        c.to_guest_bytes,
        c.from_guest,
        c.from_guest_bytes,
        c.rx_too_small,
        c.tx_bad,
        c.guest_interrupts
    );
    print_transport_counters(&c.transport, nic);
}

fn attach(args: AttachArgs) -> ExitCode {
    let interface = match (args.tap, args.veth) {
        (Some(tap), _) => Interface::Tap(tap),
        (None, Some(veth)) => Interface::Veth(veth),
        (None, None) => {
            eprintln!("error: give --tap NAME or --veth NAME");
            return ExitCode::from(2);
        }
    };
    if let Err(code) = install_stop_handler() {
        return code;
    }
    let name = match &interface {
        Interface::Tap(n) | Interface::Veth(n) => n.clone(),
    };
    let config = ShimConfig {
        nic_dir: args.vf.nic,
        port: args.vf.port,
        interface,
        batch: usize::from(args.vf.batch),
    };
    let mut shim = match Shim::attach(config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    eprintln!("janus host: {name} attached to VF {}", args.vf.port);
    let result = shim.run(&signal::stop_requested);
    print_counters(&shim.counters(), &shim.nic_counters());
    exit_code(result, args.vf.port)
}

/// Installs the SIGINT/SIGTERM handler; exit 1 when it cannot.
fn install_stop_handler() -> Result<(), ExitCode> {
    signal::install_stop_handler().map_err(|e| {
        eprintln!("error: cannot handle signals: {e}");
        ExitCode::from(1)
    })
}

/// The exit code of a bridge to VF `vf` that stopped with `result`: 0
/// when asked to stop or when the NIC closed the VF (said on stderr), 1
/// on an error.
fn exit_code(result: Result<Stopped, impl std::fmt::Display>, vf: u32) -> ExitCode {
    match result {
        Ok(Stopped::Requested) => ExitCode::SUCCESS,
        Ok(Stopped::NicClosed) => {
            eprintln!("janus host: the NIC closed VF {vf}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn print_counters(c: &ShimCounters, nic: &[u64; 6]) {
    println!(
        "interface: {} frames read, {} written, {} dropped (interface full or down), {} oversized",
        c.from_interface, c.to_interface, c.interface_drops, c.oversized
    );
    print_transport_counters(&c.transport, nic);
}

/// The transport's counters (host side) and the VF's (NIC side).
fn print_transport_counters(t: &HostEndCounters, nic: &[u64; 6]) {
    println!(
        "to the NIC: {} frames, {} bytes, {} kicks, {} times the ring was full",
        t.tx_frames, t.tx_bytes, t.kicks, t.tx_ring_full
    );
    println!("from the NIC: {} frames, {} bytes", t.rx_frames, t.rx_bytes);
    print_nic_counters(nic);
}

fn print_nic_counters(nic: &[u64; 6]) {
    println!(
        "VF counters (NIC): rx {} packets {} bytes, tx {} packets {} bytes, rx dropped {}, tx dropped {}",
        nic[0], nic[1], nic[2], nic[3], nic[4], nic[5]
    );
}
