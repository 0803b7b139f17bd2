//! The firmware tools end to end through the `janus` command: keys, image
//! build, card creation, flash, boot, attest, verify-quote, and the
//! refusals' messages.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn janus(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_janus"))
        .args(args)
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", "1760000000")
        .output()
        .expect("janus runs")
}

/// Runs `janus`, asserts exit code `code`, returns stdout and stderr.
fn janus_code(dir: &Path, args: &[&str], code: i32) -> (String, String) {
    let out = janus(dir, args);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert_eq!(
        out.status.code(),
        Some(code),
        "janus {args:?}\n{stdout}{stderr}"
    );
    (stdout, stderr)
}

struct Temp(PathBuf);

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp(tag: &str) -> Temp {
    let dir = std::env::temp_dir().join(format!("janus-fwcli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Temp(dir)
}

const CONFIG: &str = r#"
[management]
listen = "127.0.0.1:9559"

[certificates]
server_cert = "certs/server.pem"
server_key = "certs/server.key"
client_ca = "certs/ca.pem"

[[tenants]]
id = 1
vni = 5001
gateway = { mac = "02:00:00:00:00:fe", ipv4 = "10.0.1.1" }
vfs = [{ port = 1, mac = "02:00:00:00:01:01", ipv4 = "10.0.1.10" }]
"#;

/// Keys, development certificates and a configuration in `dir`.
fn workshop(dir: &Path) {
    janus_code(dir, &["keys", "generate", "--out", "keys"], 0);
    janus_code(dir, &["ctrl", "certs", "--out", "certs"], 0);
    std::fs::write(dir.join("fw.toml"), CONFIG).unwrap();
}

fn build(dir: &Path, key: &str, model: &str, version: &str, out: &str) {
    let p4 = concat!(env!("CARGO_MANIFEST_DIR"), "/p4/sdn.p4");
    janus_code(
        dir,
        &[
            "image",
            "build",
            "--p4",
            p4,
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

#[test]
fn keys_build_create_flash_boot_attest_verify_quote() {
    let t = temp("e2e");
    let dir = t.0.as_path();
    workshop(dir);
    build(dir, "keys/janus.key", "janus-sim", "1", "nic.img");

    let (json, _) = janus_code(dir, &["image", "inspect", "nic.img", "--json"], 0);
    let json: serde_json::Value = serde_json::from_str(&json).expect("inspect --json is JSON");
    assert_eq!(json["schema"], "janus-image-inspect/1");
    assert_eq!(json["security_version"], 1);
    assert_eq!(json["model"]["name"], "janus-sim");
    assert_eq!(json["provenance"]["build_time"], 1_760_000_000u64);
    assert_eq!(json["components"].as_array().unwrap().len(), 3);
    let pcr = json["measurement"]["pcr"].as_str().unwrap().to_string();
    let (text, _) = janus_code(dir, &["image", "inspect", "nic.img"], 0);
    assert!(
        text.contains("firmware-config") && text.contains("sha256:"),
        "{text}"
    );

    let (ok, _) = janus_code(
        dir,
        &["image", "verify", "nic.img", "--pubkey", "keys/janus.pub"],
        0,
    );
    assert!(ok.contains("OK"), "{ok}");
    let (_, err) = janus_code(
        dir,
        &[
            "image",
            "verify",
            "nic.img",
            "--pubkey",
            "keys/janus.pub",
            "--min-security-version",
            "2",
        ],
        1,
    );
    assert!(err.contains("downgrade refused"), "{err}");

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
    let (out, _) = janus_code(dir, &["nic", "flash", "card", "nic.img"], 0);
    assert!(out.contains("into slot A") && out.contains(" ms"), "{out}");
    let (out, _) = janus_code(dir, &["nic", "boot", "card", "--health", "pass"], 0);
    assert!(
        out.contains("booted slot A") && out.contains("fell back: no"),
        "{out}"
    );
    assert!(out.contains(&format!("PCR {pcr}")), "{out}");
    assert!(out.contains("health check passed"), "{out}");
    let (out, _) = janus_code(dir, &["nic", "status", "card"], 0);
    assert!(
        out.contains("anti-rollback counter 1") && out.contains("last known good A"),
        "{out}"
    );

    janus_code(
        dir,
        &[
            "nic",
            "attest",
            "card",
            "--nonce",
            "c0ffee",
            "-o",
            "quote.bin",
        ],
        0,
    );
    let (out, _) = janus_code(
        dir,
        &[
            "image",
            "verify-quote",
            "quote.bin",
            "--device-pubkey",
            "card/otp/device.pub",
            "--nonce",
            "c0ffee",
            "--expect-image",
            "nic.img",
        ],
        0,
    );
    assert!(out.contains("quote OK"), "{out}");
    janus_code(
        dir,
        &[
            "image",
            "verify-quote",
            "quote.bin",
            "--device-pubkey",
            "card/otp/device.pub",
            "--nonce",
            "c0ffee",
            "--expect-pcr",
            &pcr,
        ],
        0,
    );
    let (_, err) = janus_code(
        dir,
        &[
            "image",
            "verify-quote",
            "quote.bin",
            "--device-pubkey",
            "card/otp/device.pub",
            "--nonce",
            "c0ffef",
            "--expect-image",
            "nic.img",
        ],
        1,
    );
    assert!(err.contains("another nonce"), "{err}");
}

#[test]
fn nic_flash_refusals_have_distinct_messages_and_leave_flash_alone() {
    let t = temp("refuse");
    let dir = t.0.as_path();
    workshop(dir);
    janus_code(
        dir,
        &["keys", "generate", "--out", "keys", "--name", "other"],
        0,
    );
    build(dir, "keys/janus.key", "janus-sim", "2", "v2.img");
    build(dir, "keys/janus.key", "janus-sim", "1", "v1.img");
    build(dir, "keys/other.key", "janus-sim", "3", "foreign.img");
    build(dir, "keys/janus.key", "janus-lab", "3", "lab.img");
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
    janus_code(dir, &["nic", "flash", "card", "v2.img"], 0);
    janus_code(dir, &["nic", "boot", "card", "--health", "pass"], 0);
    let before = std::fs::read(dir.join("card/flash.bin")).unwrap();
    let cases = [
        ("foreign.img", "signed by another key"),
        (
            "v1.img",
            "downgrade refused: image security version 1 is below the card's anti-rollback counter 2",
        ),
        ("lab.img", "the image is for device model janus-lab"),
    ];
    for (image, message) in cases {
        let (_, err) = janus_code(dir, &["nic", "flash", "card", image], 1);
        assert!(err.contains(message), "{image}: {err}");
        assert_eq!(
            std::fs::read(dir.join("card/flash.bin")).unwrap(),
            before,
            "{image}"
        );
    }
}

/// A tenant with a gateway and two VFs, for `nic run`.
const RUN_CONFIG: &str = r#"
[management]
listen = "127.0.0.1:9559"

[certificates]
server_cert = "certs/server.pem"
server_key = "certs/server.key"
client_ca = "certs/ca.pem"

[[tenants]]
id = 1
vni = 5001
gateway = { mac = "02:00:00:00:00:fe", ipv4 = "10.0.1.1" }
vfs = [
    { port = 2, mac = "02:00:00:00:01:02", ipv4 = "10.0.1.2" },
    { port = 3, mac = "02:00:00:00:01:03", ipv4 = "10.0.1.3" },
]
"#;

/// Keys, certificates, an image of p4/sdn.p4 with [`RUN_CONFIG`], and a
/// card with it flashed (pending its trial boot).
fn flashed_card(dir: &Path) {
    workshop(dir);
    std::fs::write(dir.join("fw.toml"), RUN_CONFIG).unwrap();
    build(dir, "keys/janus.key", "janus-sim", "1", "nic.img");
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
    janus_code(dir, &["nic", "flash", "card", "nic.img"], 0);
}

#[test]
fn nic_run_boots_the_card_passes_its_health_check_and_confirms() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use std::time::Duration;
    let t = temp("run");
    let dir = t.0.as_path();
    flashed_card(dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_janus"))
        .args([
            "nic",
            "run",
            "card",
            "--vfs",
            "2",
            "--listen",
            "127.0.0.1:0",
        ])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("janus runs");
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut seen = Vec::new();
    let serving = loop {
        match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(line) if line.contains("janus nic: P4Runtime (mTLS)") => break true,
            Ok(line) => seen.push(line),
            Err(_) => break false,
        }
    };
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(serving, "never served:\n{stdout}\n{}", seen.join("\n"));
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    for want in [
        "measured boot: PCR ",
        "tenants bootstrap: 1 tenant(s), 14 entries written",
        "health: slow path answers ARP      ok: tenant 1: who-has 10.0.1.1 from VF 2",
        "health check passed: slot A confirmed (now last known good)",
        "slow path: 1 ARP and 0 ND requests answered",
    ] {
        assert!(stdout.contains(want), "no {want:?} in:\n{stdout}");
    }
    let (status, _) = janus_code(dir, &["nic", "status", "card"], 0);
    assert!(
        status.contains("running: slot A, security version 1, confirmed"),
        "{status}"
    );
}

#[test]
fn nic_run_that_cannot_serve_leaves_the_boot_unconfirmed() {
    let t = temp("run-fail");
    let dir = t.0.as_path();
    flashed_card(dir);
    // The management address is taken: the card boots but never serves.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let (out, err) = janus_code(
        dir,
        &["nic", "run", "card", "--vfs", "2", "--listen", &addr],
        1,
    );
    assert!(out.contains("trial boot 1 of 3"), "{out}");
    assert!(err.contains("cannot listen on"), "{err}");
    let (status, _) = janus_code(dir, &["nic", "status", "card"], 0);
    assert!(status.contains("pending A, attempts 1"), "{status}");
    assert!(status.contains("on trial"), "{status}");
}
