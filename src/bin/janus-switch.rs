//! `janus-switch`: `janus switch` under a single name, for harnesses that
//! take the switch as one executable (Mininet's switch classes, the p4lang
//! tutorials' `-b`/`sw_path`, scripts that run `simple_switch_grpc ARGS`):
//! it runs the `janus` binary installed beside it (or the one on the PATH)
//! as `janus switch ARGS`, in place of this process.

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join("janus")))
        .filter(|janus| janus.is_file());
    let janus = beside.unwrap_or_else(|| PathBuf::from("janus"));
    let err = Command::new(&janus)
        .arg("switch")
        .args(std::env::args_os().skip(1))
        .exec();
    eprintln!(
        "janus-switch: cannot run {} switch: {err} (install janus beside janus-switch, or on the PATH)",
        janus.display()
    );
    ExitCode::from(2)
}
