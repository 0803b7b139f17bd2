//! `janus keys generate --out DIR [--name NAME]`: an Ed25519 key pair for
//! signing images, as `DIR/NAME.key` (PKCS#8 PEM, mode 0600) and
//! `DIR/NAME.pub` (SPKI PEM). Exit 2 when the files cannot be written
//! (existing keys are never overwritten).

use clap::{Args, Subcommand};
use janus_firmware::keys;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum KeysCommand {
    /// Generate an Ed25519 key pair (PKCS#8 / SPKI PEM).
    Generate(GenerateArgs),
}

#[derive(Args)]
pub struct GenerateArgs {
    /// The folder to write the keys into (created when missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The files' base name: NAME.key and NAME.pub.
    #[arg(long, default_value = "janus")]
    name: String,
}

pub fn run(cmd: KeysCommand) -> ExitCode {
    match cmd {
        KeysCommand::Generate(args) => match generate(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
    }
}

fn generate(args: &GenerateArgs) -> Result<(), String> {
    let name_ok =
        !args.name.is_empty() && !args.name.starts_with('.') && !args.name.contains(['/', '\\']);
    if !name_ok {
        return Err(format!(
            "--name {:?}: give a plain file name, without folders",
            args.name
        ));
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let key = keys::generate().map_err(|e| e.to_string())?;
    let files = keys::write_key_pair(&args.out, &args.name, &key).map_err(|e| e.to_string())?;
    println!("private key: {} (keep it secret)", files.private.display());
    println!("public key:  {}", files.public.display());
    Ok(())
}
