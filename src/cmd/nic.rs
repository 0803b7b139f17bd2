//! `janus nic create DIR`: a simulated card in a folder (flash file, OTP
//! area with the root public key, a fresh device key); `janus nic
//! flash|boot|attest|status|swap DIR`: what happens to it (the logic is
//! `janus_firmware::tools::card_ops`); see docs/firmware.md. Exit 1 when
//! an image is refused or the card does not boot, 2 when the arguments
//! are bad or the card cannot be created or read.

use super::image::exit_code;
use clap::{Args, Subcommand, ValueEnum};
use janus_firmware::card::{self, Card, CardConfig, CardOptions, CardSpec, Geometry};
use janus_firmware::keys;
use janus_firmware::tools::card_ops::{
    self, BootReport, CardStatus, Health, SlotContent, flash_card,
};
use janus_firmware::tools::inspect::event_name;
use janus_firmware::tools::{ToolError, hex, parse_hex};
use janus_firmware_core::boot::{BootConfig, Confirmed};
use janus_firmware_core::flasher::FlashOptions;
use janus_firmware_core::layout::Slot;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum NicCommand {
    /// Create a simulated card: erased flash, OTP with the root public key.
    Create(CreateArgs),
    /// Verify an image for the card, write it to the inactive slot and
    /// switch the boot record to a trial of it.
    Flash(FlashArgs),
    /// Boot the card (the boot ROM): verify, measure, hand over.
    Boot(BootArgs),
    /// Quote what the card runs for a verifier's nonce.
    Attest(AttestArgs),
    /// Print the card's slots, boot record and anti-rollback counter.
    Status(StatusArgs),
    /// Serve the NIC: its P4 pipeline, the control plane on the management
    /// address and a socket per VF for host shims (docs/host-interface.md).
    Run(super::nic_run::RunArgs),
    /// Swap the running pipeline (of `janus nic run DIR`) for the image
    /// flashed into the inactive slot: verify, replay recorded traffic,
    /// commit, health check; reverted and rejected if it fails.
    Swap(SwapArgs),
}

#[derive(Args)]
pub struct SwapArgs {
    /// The card's folder (a `janus nic run DIR` process serves it).
    dir: PathBuf,
    /// How long to wait for the swap's result, in seconds.
    #[arg(long, default_value_t = 300)]
    timeout: u64,
}

#[derive(Args)]
pub struct FlashArgs {
    /// The card's folder.
    dir: PathBuf,
    /// The image (from `janus image build`).
    image: PathBuf,
}

/// The health check's result after a boot.
#[derive(Clone, Copy, ValueEnum)]
enum HealthArg {
    /// Confirm the boot: the slot becomes last known good.
    Pass,
    /// Leave the boot unconfirmed: a trial slot uses up an attempt.
    Fail,
}

#[derive(Args)]
pub struct BootArgs {
    /// The card's folder.
    dir: PathBuf,
    /// The health check's result (default: none, the boot stays
    /// unconfirmed).
    #[arg(long, value_enum)]
    health: Option<HealthArg>,
}

#[derive(Args)]
pub struct AttestArgs {
    /// The card's folder.
    dir: PathBuf,
    /// The verifier's nonce, hex (at most 1024 bytes).
    #[arg(long, value_name = "HEX")]
    nonce: String,
    /// Write the quote here (else print it in hex).
    #[arg(short = 'o', long, value_name = "quote.bin")]
    output: Option<PathBuf>,
}

#[derive(Args)]
pub struct StatusArgs {
    /// The card's folder.
    dir: PathBuf,
}

#[derive(Args)]
pub struct CreateArgs {
    /// The card's folder (new or empty).
    dir: PathBuf,
    /// The device model; images must be built for it.
    #[arg(long, default_value = card::DEFAULT_MODEL)]
    model: String,
    /// The flash's size (B, KiB, MiB, GiB).
    #[arg(long, default_value = "64MiB", value_parser = card::parse_size)]
    flash_size: u64,
    /// The erase sector's size (a power of two).
    #[arg(long, default_value = "64KiB", value_parser = card::parse_size)]
    sector_size: u64,
    /// The root public key (SPKI PEM, from `janus keys generate`) burnt
    /// into OTP: the card boots only images signed with its private half.
    #[arg(long, value_name = "KEY.pub")]
    root_pubkey: PathBuf,
}

pub fn run(cmd: NicCommand) -> ExitCode {
    let result = match cmd {
        NicCommand::Run(args) => return super::nic_run::run(&args),
        NicCommand::Swap(args) => return swap(&args),
        NicCommand::Create(args) => create(&args).map_err(ToolError::Usage),
        NicCommand::Flash(args) => flash(&args),
        NicCommand::Boot(args) => boot(&args),
        NicCommand::Attest(args) => attest(&args),
        NicCommand::Status(args) => status(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            let code = match e {
                ToolError::Boot(_) | ToolError::Flash(_) => 1,
                _ => exit_code(&e),
            };
            ExitCode::from(code)
        }
    }
}

/// `nic swap`: asks the running process over its control socket; exit 0
/// when committed, 1 when refused or reverted, 2 when nothing answers.
fn swap(args: &SwapArgs) -> ExitCode {
    use janus_firmware::runtime::control;
    let path = args.dir.join(control::CONTROL_SOCKET);
    let timeout = std::time::Duration::from_secs(args.timeout);
    let reply = match control::request_swap(&args.dir, timeout) {
        Ok(r) => r,
        Err(e) => {
            eprintln!(
                "error: {}: {e} (is `janus nic run {}` running?)",
                path.display(),
                args.dir.display()
            );
            return ExitCode::from(2);
        }
    };
    print!("{reply}");
    match reply.lines().last() {
        Some("committed") => ExitCode::SUCCESS,
        Some(_) => ExitCode::from(1),
        None => {
            eprintln!("error: the process closed the control socket without an answer");
            ExitCode::from(1)
        }
    }
}

fn flash(args: &FlashArgs) -> Result<(), ToolError> {
    let image = std::fs::read(&args.image).map_err(|source| ToolError::Io {
        path: args.image.clone(),
        source,
    })?;
    let done = flash_card(&args.dir, &image, FlashOptions::default())?;
    let r = &done.report;
    println!(
        "flashed {} into slot {}: {} bytes, {} sectors erased, security version {}",
        args.image.display(),
        r.slot,
        r.bytes_written,
        r.sectors_erased,
        r.security_version
    );
    println!(
        "verified in {:.1} ms, written and read back in {:.1} ms",
        done.verify_time.as_secs_f64() * 1e3,
        done.write_time.as_secs_f64() * 1e3
    );
    println!(
        "slot {} is pending its trial boot; `janus nic boot {} --health pass` confirms it",
        r.slot,
        args.dir.display()
    );
    Ok(())
}

fn boot(args: &BootArgs) -> Result<(), ToolError> {
    let health = args.health.map(|h| match h {
        HealthArg::Pass => Health::Pass,
        HealthArg::Fail => Health::Fail,
    });
    let report = card_ops::boot_card(&args.dir, BootConfig::default(), health)?;
    print_boot(&report, health);
    Ok(())
}

/// What the boot ROM did and the measured-boot summary (PCR, event log).
pub(super) fn print_boot_summary(report: &BootReport) {
    let o = &report.outcome;
    let view = o.image.view();
    println!(
        "booted slot {}: {} bytes, security version {}, model {}",
        o.slot,
        view.total_len(),
        view.security_version(),
        view.model_name()
    );
    match &o.fallback_reason {
        Some(reason) => println!("fell back: gave up on {reason}"),
        None => println!("fell back: no"),
    }
    if o.trial {
        println!("trial boot {} of {}", o.state.attempts, report.max_attempts);
    }
    println!("measured boot: PCR {}", hex(&o.measurements.pcr));
    for e in &o.measurements.events {
        println!(
            "  event {:<16} version {:<4} sha256 {}",
            event_name(e.kind),
            e.version,
            hex(&e.digest)
        );
    }
}

/// Says that the health check passed and the boot `c` is confirmed.
pub(super) fn print_confirmed(c: &Confirmed) {
    println!(
        "health check passed: slot {} confirmed{}, anti-rollback counter {}",
        c.slot,
        if c.promoted {
            " (now last known good)"
        } else {
            ""
        },
        c.security_version
    );
}

fn print_boot(report: &BootReport, health: Option<Health>) {
    print_boot_summary(report);
    let o = &report.outcome;
    match (&report.confirmed, health) {
        (Some(c), _) => print_confirmed(c),
        (None, Some(Health::Fail)) => println!(
            "health check failed: boot not confirmed ({} attempt(s) used)",
            o.state.attempts
        ),
        (None, _) => println!("health check not run: boot not confirmed"),
    }
}

fn attest(args: &AttestArgs) -> Result<(), ToolError> {
    let nonce = parse_hex(&args.nonce).map_err(|e| ToolError::Usage(format!("--nonce: {e}")))?;
    let quote = card_ops::attest_card(&args.dir, &nonce)?;
    let bytes = quote.to_bytes();
    match &args.output {
        Some(path) => {
            std::fs::write(path, &bytes).map_err(|source| ToolError::Io {
                path: path.clone(),
                source,
            })?;
            println!(
                "quote written to {}: slot {}, security version {}, PCR {}",
                path.display(),
                quote.slot,
                quote.image_security_version,
                hex(&quote.pcr)
            );
        }
        None => println!("{}", hex(&bytes)),
    }
    Ok(())
}

fn slot_name(slot: Option<Slot>) -> String {
    slot.map_or_else(|| "none".to_string(), |s| s.to_string())
}

fn status(args: &StatusArgs) -> Result<(), ToolError> {
    let s: CardStatus = card_ops::card_status(&args.dir)?;
    println!(
        "card {}: model {}, {} sectors of {} bytes, slots of {} bytes",
        args.dir.display(),
        s.model,
        s.geometry.sector_count,
        s.geometry.sector_size,
        s.slot_size
    );
    match &s.root_fingerprint {
        Some(f) => println!("root key sha256:{f}"),
        None => println!("root key: none (not provisioned)"),
    }
    println!("anti-rollback counter {}", s.security_version);
    let st = &s.state;
    println!(
        "boot record #{}: active {}, pending {}, attempts {}, last known good {}",
        st.seq,
        slot_name(st.active),
        slot_name(st.pending),
        st.attempts,
        slot_name(st.last_good)
    );
    for (slot, content) in &s.slots {
        match content {
            SlotContent::Erased => println!("slot {slot}: erased"),
            SlotContent::Bootable {
                size,
                security_version,
                pcr,
            } => println!(
                "slot {slot}: image of {size} bytes, security version {security_version}, verifies, PCR {}",
                hex(pcr)
            ),
            SlotContent::Unbootable(why) => println!("slot {slot}: not bootable: {why}"),
        }
    }
    match &s.running {
        Some(r) => println!(
            "running: slot {}, security version {}, {}{}, PCR {}",
            r.slot,
            r.image.view().security_version(),
            if r.confirmed {
                "confirmed"
            } else if r.trial {
                "on trial"
            } else {
                "unconfirmed"
            },
            if r.fell_back {
                ", after a fallback"
            } else {
                ""
            },
            hex(&r.measurements.pcr)
        ),
        None => println!("running: nothing (boot the card with `janus nic boot`)"),
    }
    Ok(())
}

fn create(args: &CreateArgs) -> Result<(), String> {
    let geometry = geometry(args.flash_size, args.sector_size)?;
    let root = keys::load_verifying_key(&args.root_pubkey).map_err(|e| e.to_string())?;
    let spec = CardSpec {
        config: CardConfig {
            model: args.model.clone(),
            geometry,
        },
        root_public_key: Some(root),
    };
    let card = Card::create(&args.dir, &spec, CardOptions::default()).map_err(|e| e.to_string())?;
    println!(
        "card {}: model {}, {} sectors of {} bytes, device key {}",
        card.dir().display(),
        card.config().model,
        geometry.sector_count,
        geometry.sector_size,
        card.dir().join("otp/device.pub").display()
    );
    Ok(())
}

/// The sector count and size for a flash of `flash_size` bytes.
fn geometry(flash_size: u64, sector_size: u64) -> Result<Geometry, String> {
    let sector_size = u32::try_from(sector_size)
        .map_err(|_| format!("--sector-size {sector_size} is too large"))?;
    if sector_size == 0 || !flash_size.is_multiple_of(u64::from(sector_size)) {
        return Err(format!(
            "--flash-size {flash_size} is not a multiple of --sector-size {sector_size}"
        ));
    }
    let sector_count = u32::try_from(flash_size / u64::from(sector_size))
        .map_err(|_| format!("--flash-size {flash_size} holds too many sectors"))?;
    Ok(Geometry {
        sector_size,
        sector_count,
    })
}
