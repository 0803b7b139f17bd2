//! `janus image build|verify|inspect|verify-quote`: signed firmware images
//! (docs/firmware.md, "Images and tools"; the logic is
//! `janus_firmware::tools`). Exit codes: 0 success, 1 the image or quote
//! is refused (the reason is printed), 2 bad arguments or unreadable
//! files.

use clap::{Args, Subcommand};
use janus_firmware::keys;
use janus_firmware::tools::build::{BuildSpec, build_image, build_time};
use janus_firmware::tools::inspect::{Inspection, VerifyPolicy, verify_image};
use janus_firmware::tools::quote::{Expectation, verify_quote_file};
use janus_firmware::tools::{ToolError, hex, parse_hex};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum ImageCommand {
    /// Compile a P4 program and a configuration into a signed image.
    Build(BuildArgs),
    /// Check an image's signature, model and security version.
    Verify(VerifyArgs),
    /// Print an image's header, components, provenance and signer.
    Inspect(InspectArgs),
    /// Check a card's quote against an image (or a PCR) and a nonce.
    VerifyQuote(VerifyQuoteArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// The P4_16 program.
    #[arg(long, value_name = "PROG.p4")]
    p4: PathBuf,
    #[command(flatten)]
    preprocess: super::p4::PreprocessArgs,
    /// The firmware configuration (TOML).
    #[arg(long, value_name = "FILE")]
    config: PathBuf,
    /// The signing key (PKCS#8 PEM, from `janus keys generate`).
    #[arg(long, value_name = "KEY.key")]
    key: PathBuf,
    /// The device model the image is for (the card's `--model`).
    #[arg(long, value_name = "NAME", default_value = janus_firmware::card::DEFAULT_MODEL)]
    model: String,
    /// The anti-rollback version.
    #[arg(long, value_name = "N")]
    security_version: u32,
    /// The image to write.
    #[arg(short = 'o', long, value_name = "nic.img")]
    output: PathBuf,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// The image.
    image: PathBuf,
    /// The public key it must be signed with (SPKI PEM).
    #[arg(long, value_name = "KEY.pub")]
    pubkey: PathBuf,
    /// The device model it must be for (default: any).
    #[arg(long, value_name = "NAME")]
    model: Option<String>,
    /// The lowest acceptable security version.
    #[arg(long, value_name = "N", default_value_t = 0)]
    min_security_version: u32,
}

#[derive(Args)]
pub struct InspectArgs {
    /// The image.
    image: PathBuf,
    /// Print JSON (schema `janus-image-inspect/1`, docs/firmware.md).
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct VerifyQuoteArgs {
    /// The quote (from `janus nic attest -o`).
    quote: PathBuf,
    /// The card's device public key (`CARD/otp/device.pub`).
    #[arg(long, value_name = "device.pub")]
    device_pubkey: PathBuf,
    /// The nonce the quote must answer, hex.
    #[arg(long, value_name = "HEX")]
    nonce: String,
    /// The image the card must be running.
    #[arg(
        long,
        value_name = "nic.img",
        conflicts_with = "expect_pcr",
        required_unless_present = "expect_pcr"
    )]
    expect_image: Option<PathBuf>,
    /// The PCR the card must report, hex (the event log is not checked).
    #[arg(long, value_name = "HEX")]
    expect_pcr: Option<String>,
}

pub fn run(cmd: ImageCommand) -> ExitCode {
    let result = match cmd {
        ImageCommand::Build(args) => build(&args),
        ImageCommand::Verify(args) => verify(&args),
        ImageCommand::Inspect(args) => inspect(&args),
        ImageCommand::VerifyQuote(args) => verify_quote(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(exit_code(&e))
        }
    }
}

/// 1 for a refusal of the image or quote, 2 for everything else.
pub fn exit_code(e: &ToolError) -> u8 {
    match e {
        ToolError::Refused(_) | ToolError::Quote(_) | ToolError::Format { .. } => 1,
        _ => 2,
    }
}

fn build(args: &BuildArgs) -> Result<(), ToolError> {
    let spec = BuildSpec {
        p4: args.p4.clone(),
        include_dirs: args.preprocess.include.clone(),
        defines: args.preprocess.defines(),
        config: args.config.clone(),
        key: args.key.clone(),
        model: args.model.clone(),
        security_version: args.security_version,
        build_time: build_time()?,
    };
    let built = build_image(&spec)?;
    eprint!("{}", built.warnings);
    std::fs::write(&args.output, &built.bytes).map_err(|source| ToolError::Io {
        path: args.output.clone(),
        source,
    })?;
    println!(
        "image {}: {} bytes, model {}, security version {}",
        args.output.display(),
        built.bytes.len(),
        args.model,
        args.security_version
    );
    Ok(())
}

fn read(path: &PathBuf) -> Result<Vec<u8>, ToolError> {
    std::fs::read(path).map_err(|source| ToolError::Io {
        path: path.clone(),
        source,
    })
}

fn verify(args: &VerifyArgs) -> Result<(), ToolError> {
    let key = keys::load_verifying_key(&args.pubkey)?.to_bytes();
    let bytes = read(&args.image)?;
    let policy = VerifyPolicy {
        model: args.model.clone(),
        min_security_version: args.min_security_version,
    };
    let ok = verify_image(&args.image, &bytes, &key, &policy)?;
    println!(
        "{}: OK, signed by sha256:{}, model {}, security version {}",
        args.image.display(),
        ok.signer_fingerprint,
        ok.model,
        ok.security_version
    );
    Ok(())
}

fn inspect(args: &InspectArgs) -> Result<(), ToolError> {
    let bytes = read(&args.image)?;
    let inspection = Inspection::of(&args.image, &bytes)?;
    if args.json {
        println!("{}", inspection.to_json());
    } else {
        print!("{}", inspection.to_text());
    }
    Ok(())
}

fn hex_arg(flag: &str, text: &str) -> Result<Vec<u8>, ToolError> {
    parse_hex(text).map_err(|e| ToolError::Usage(format!("{flag}: {e}")))
}

fn verify_quote(args: &VerifyQuoteArgs) -> Result<(), ToolError> {
    let nonce = hex_arg("--nonce", &args.nonce)?;
    let expected = match (&args.expect_image, &args.expect_pcr) {
        (Some(image), _) => Expectation::Image(image.clone()),
        (None, Some(pcr)) => {
            let bytes = hex_arg("--expect-pcr", pcr)?;
            Expectation::Pcr(bytes.try_into().map_err(|_| {
                ToolError::Usage("--expect-pcr: give 32 bytes (64 hex digits)".to_string())
            })?)
        }
        (None, None) => {
            return Err(ToolError::Usage(
                "give --expect-image or --expect-pcr".to_string(),
            ));
        }
    };
    let quote = verify_quote_file(&args.quote, &args.device_pubkey, &nonce, &expected)?;
    println!(
        "quote OK: slot {}, security version {}, PCR {}",
        quote.slot,
        quote.image_security_version,
        hex(&quote.pcr)
    );
    Ok(())
}
