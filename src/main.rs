//! The `janus` command.

use clap::Parser;

#[derive(Parser)]
#[command(name = "janus", version, about = "SmartNIC/P4 co-design framework")]
struct Cli {}

fn main() -> anyhow::Result<()> {
    let _cli = Cli::parse();
    Ok(())
}
