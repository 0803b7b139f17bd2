//! A simulated card made through the `janus` command as a researcher makes
//! one (docs/firmware.md, "A researcher's walkthrough"): a signing key,
//! development certificates, a firmware configuration, a signed image of
//! p4/sdn.p4, a card created and flashed. Used by `tests/firmware_cli.rs`
//! and `tests/host_e2e.rs`. Every command is bounded.

use std::path::Path;
use std::time::Duration;

use super::{Finished, janus, repo, run_bounded};

/// How long one firmware command may take (`image build` compiles the
/// program).
pub const COMMAND: Duration = Duration::from_secs(300);

/// The build time every image gets (`SOURCE_DATE_EPOCH`), so images are
/// reproducible.
pub const BUILD_TIME: u64 = 1_760_000_000;

/// `janus ARGS` run in `dir` with `SOURCE_DATE_EPOCH` = [`BUILD_TIME`],
/// bounded by [`COMMAND`].
pub fn janus_in(dir: &Path, args: &[&str]) -> Finished {
    let mut cmd = janus();
    cmd.args(args)
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", BUILD_TIME.to_string());
    run_bounded(cmd, COMMAND)
}

/// Runs `janus ARGS` in `dir`, asserts it exits with `code`; returns its
/// stdout and stderr.
pub fn janus_code(dir: &Path, args: &[&str], code: i32) -> (String, String) {
    let done = janus_in(dir, args);
    assert_eq!(
        done.status.and_then(|s| s.code()),
        Some(code),
        "janus {args:?}: {}",
        done.describe(COMMAND)
    );
    (done.stdout, done.stderr)
}

/// What [`workshop`] writes.
pub struct Workshop<'a> {
    /// The firmware configuration (TOML), written to `fw.toml`; its
    /// certificate paths name `certs/`.
    pub config: &'a str,
    /// The names and addresses the server certificate is valid for (empty:
    /// `janus ctrl certs`' default, localhost and 127.0.0.1).
    pub server_hosts: &'a [&'a str],
}

/// In `dir`: a signing key in `keys/` (`janus.key`, `janus.pub`),
/// development certificates in `certs/` (CA, server, operator) and
/// `fw.toml`.
pub fn workshop(dir: &Path, workshop: &Workshop<'_>) {
    janus_code(dir, &["keys", "generate", "--out", "keys"], 0);
    let mut certs = vec!["ctrl", "certs", "--out", "certs"];
    for host in workshop.server_hosts {
        certs.extend(["--host", host]);
    }
    janus_code(dir, &certs, 0);
    std::fs::write(dir.join("fw.toml"), workshop.config).expect("write fw.toml");
}

/// `janus image build` of p4/sdn.p4 with `fw.toml`, signed with `key`, for
/// device `model`, at `version`, into `out` (paths relative to `dir`).
pub fn build_image(dir: &Path, key: &str, model: &str, version: &str, out: &str) {
    let p4 = repo("p4/sdn.p4");
    janus_code(
        dir,
        &[
            "image",
            "build",
            "--p4",
            &p4.to_string_lossy(),
            "--config",
            "fw.toml",
            "--key",
            key,
            "--model",
            model,
            "--security-version",
            version,
            "-o",
            out,
        ],
        0,
    );
}

/// `janus nic create card` in `dir`: 1 MiB of 4 KiB sectors, trusting
/// `keys/janus.pub`.
pub fn create_card(dir: &Path) {
    janus_code(
        dir,
        &[
            "nic",
            "create",
            "card",
            "--root-pubkey",
            "keys/janus.pub",
            "--flash-size",
            "1MiB",
            "--sector-size",
            "4KiB",
        ],
        0,
    );
}

/// [`workshop`], an image `nic.img` (security version 1, model
/// `janus-sim`) and `card/` with it flashed into slot A, pending its trial
/// boot.
pub fn flashed_card(dir: &Path, config: &Workshop<'_>) {
    workshop(dir, config);
    build_image(dir, "keys/janus.key", "janus-sim", "1", "nic.img");
    create_card(dir);
    janus_code(dir, &["nic", "flash", "card", "nic.img"], 0);
}
