//! The firmware tools end to end through the `janus` command: keys, image
//! build, card creation, flash, boot, attest, verify-quote, and the
//! refusals' messages.

mod common;

use std::path::Path;
use std::process::Command;

use common::TempDir;
use common::card::{
    BUILD_TIME, Workshop, build_image, create_card, flashed_card as flash_config, janus_code,
    workshop as write_workshop,
};

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

/// Keys, development certificates and [`CONFIG`] in `dir`.
fn workshop(dir: &Path) {
    write_workshop(
        dir,
        &Workshop {
            config: CONFIG,
            server_hosts: &[],
        },
    );
}

#[test]
fn keys_build_create_flash_boot_attest_verify_quote() {
    let t = TempDir::new("fwcli-e2e");
    let dir = t.path();
    workshop(dir);
    build_image(dir, "keys/janus.key", "janus-sim", "1", "nic.img");

    let (json, _) = janus_code(dir, &["image", "inspect", "nic.img", "--json"], 0);
    let json: serde_json::Value = serde_json::from_str(&json).expect("inspect --json is JSON");
    assert_eq!(json["schema"], "janus-image-inspect/1");
    assert_eq!(json["security_version"], 1);
    assert_eq!(json["model"]["name"], "janus-sim");
    assert_eq!(json["provenance"]["build_time"], BUILD_TIME);
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

    create_card(dir);
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
    let t = TempDir::new("fwcli-refuse");
    let dir = t.path();
    workshop(dir);
    janus_code(
        dir,
        &["keys", "generate", "--out", "keys", "--name", "other"],
        0,
    );
    build_image(dir, "keys/janus.key", "janus-sim", "2", "v2.img");
    build_image(dir, "keys/janus.key", "janus-sim", "1", "v1.img");
    build_image(dir, "keys/other.key", "janus-sim", "3", "foreign.img");
    build_image(dir, "keys/janus.key", "janus-lab", "3", "lab.img");
    create_card(dir);
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
    flash_config(
        dir,
        &Workshop {
            config: RUN_CONFIG,
            server_hosts: &[],
        },
    );
}

#[test]
fn nic_run_boots_the_card_passes_its_health_check_and_confirms() {
    let t = TempDir::new("fwcli-run");
    let dir = t.path();
    flashed_card(dir);
    let mut nic = NicProcess::start(dir);
    let (code, stdout) = nic.stop_with_code();
    assert_eq!(code, Some(0), "{stdout}");
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
    let t = TempDir::new("fwcli-run-fail");
    let dir = t.path();
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

/// A `janus nic run card` process (mTLS from the image), serving.
struct NicProcess {
    child: std::process::Child,
}

impl NicProcess {
    /// Starts it in `dir` and waits (bounded) until it serves.
    fn start(dir: &Path) -> NicProcess {
        use std::io::{BufRead, BufReader};
        use std::process::Stdio;
        use std::time::Duration;
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
        let mut process = NicProcess { child };
        let mut seen = Vec::new();
        loop {
            match rx.recv_timeout(Duration::from_secs(120)) {
                Ok(line) if line.contains("janus nic: P4Runtime (mTLS)") => return process,
                Ok(line) => seen.push(line),
                Err(_) => {
                    let out = process.stop();
                    panic!("never served:\n{out}\n{}", seen.join("\n"));
                }
            }
        }
    }

    /// SIGINT, then its stdout once it exited (killed after 20 s).
    fn stop(&mut self) -> String {
        self.stop_with_code().1
    }

    /// As [`NicProcess::stop`], with its exit code (None when killed).
    fn stop_with_code(&mut self) -> (Option<i32>, String) {
        use std::io::Read;
        use std::time::{Duration, Instant};
        let _ = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let code = self.child.wait().ok().and_then(|s| s.code());
        let mut out = String::new();
        if let Some(mut stdout) = self.child.stdout.take() {
            let _ = stdout.read_to_string(&mut out);
        }
        (code, out)
    }
}

impl Drop for NicProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes `image` into the card's slot B and records it as pending its
/// trial, bypassing the flasher's checks (what a flash programmer could
/// do).
fn plant_pending_image(card: &Path, image: &[u8]) {
    use janus_firmware::card::{Card, CardOptions};
    use janus_firmware_core::flash::Flash;
    use janus_firmware_core::layout::{Layout, Slot};
    use janus_firmware_core::slots::{read_state, write_state};
    let mut card = Card::open(card, CardOptions::default()).unwrap();
    let (flash, _) = card.parts();
    let layout = Layout::new(flash.geometry()).unwrap();
    let sector = layout.geometry().sector_size as usize;
    let first = layout.slot_first_sector(Slot::B);
    for s in first..first + image.len().div_ceil(sector) as u32 {
        flash.erase(s).unwrap();
    }
    for (i, part) in image.chunks(256).enumerate() {
        flash
            .write(layout.slot_offset(Slot::B) + (i * 256) as u64, part)
            .unwrap();
    }
    let mut state = read_state(flash, &layout).unwrap();
    state.pending = Some(Slot::B);
    state.attempts = 0;
    write_state(flash, &layout, &state).unwrap();
}

#[test]
fn nic_swap_refuses_another_keys_image_then_commits_a_new_one() {
    let t = TempDir::new("fwcli-swap-ok");
    let dir = t.path();
    flashed_card(dir);
    janus_code(dir, &["keys", "generate", "--out", "other"], 0);
    build_image(dir, "other/janus.key", "janus-sim", "2", "other.img");
    build_image(dir, "keys/janus.key", "janus-sim", "2", "v2.img");
    let mut nic = NicProcess::start(dir);

    // Signed by another key: refused before anything changes.
    plant_pending_image(
        &dir.join("card"),
        &std::fs::read(dir.join("other.img")).unwrap(),
    );
    let (before, _) = janus_code(dir, &["nic", "status", "card"], 0);
    let (out, _) = janus_code(dir, &["nic", "swap", "card"], 1);
    assert!(out.contains("error: the flashed image is refused"), "{out}");
    assert!(out.contains("slot B"), "{out}");
    let (after, _) = janus_code(dir, &["nic", "status", "card"], 0);
    assert_eq!(before, after, "a refused swap changed the card");

    // The same program, security version 2: committed with the entries
    // carried over and the slow path still answering through it.
    janus_code(dir, &["nic", "flash", "card", "v2.img"], 0);
    let (out, _) = janus_code(dir, &["nic", "swap", "card"], 0);
    for want in [
        "replay: ",
        "0 dropped by the new pipeline",
        "health: tenants bootstrap applied  ok: 14 entries written, 14 held",
        "health: slow path answers ARP      ok",
        "slot B confirmed, anti-rollback counter 2",
        "committed",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
    let (status, _) = janus_code(dir, &["nic", "status", "card"], 0);
    assert!(
        status.contains("running: slot B, security version 2, confirmed"),
        "{status}"
    );
    let stdout = nic.stop();
    assert!(stdout.contains("pipeline swapped to slot B"), "{stdout}");
    let (boot, _) = janus_code(dir, &["nic", "boot", "card"], 0);
    assert!(boot.contains("booted slot B"), "{boot}");
}

#[test]
fn nic_swap_whose_health_check_fails_reverts_and_the_next_boot_keeps_the_old_slot() {
    let t = TempDir::new("fwcli-swap-revert");
    let dir = t.path();
    flashed_card(dir);
    // A program that punts gateway ARP with the ND reason: the replay sees
    // the same deliveries, but the slow path's ARP role never gets them.
    let sdn = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/p4/sdn.p4")).unwrap();
    let bad = sdn.replace(
        "meta.punt_reason = NIC_PUNT_ARP_GATEWAY;",
        "meta.punt_reason = NIC_PUNT_ND_GATEWAY;",
    );
    assert_ne!(sdn, bad, "sdn.p4 no longer sets NIC_PUNT_ARP_GATEWAY");
    std::fs::write(dir.join("sdn_bad.p4"), bad).unwrap();
    let p4_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/p4");
    janus_code(
        dir,
        &[
            "image",
            "build",
            "--p4",
            "sdn_bad.p4",
            "-I",
            p4_dir,
            "--config",
            "fw.toml",
            "--key",
            "keys/janus.key",
            "--model",
            "janus-sim",
            "--security-version",
            "2",
            "-o",
            "bad.img",
        ],
        0,
    );
    let mut nic = NicProcess::start(dir);
    janus_code(dir, &["nic", "flash", "card", "bad.img"], 0);
    let (out, _) = janus_code(dir, &["nic", "swap", "card"], 1);
    for want in [
        "0 dropped by the new pipeline",
        "health: slow path answers ARP      FAILED",
        "slot B rejected",
        "after the revert:\nhealth: pipeline loaded",
        "reverted",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
    let after = out.split("after the revert:").nth(1).unwrap();
    assert!(
        !after.contains("FAILED"),
        "the old pipeline is unhealthy:\n{out}"
    );
    let (status, _) = janus_code(dir, &["nic", "status", "card"], 0);
    assert!(
        status.contains("running: slot A, security version 1, confirmed"),
        "{status}"
    );
    // Nothing is pending any more.
    let (again, _) = janus_code(dir, &["nic", "swap", "card"], 1);
    assert!(again.contains("no image is pending"), "{again}");
    let stdout = nic.stop();
    assert!(
        stdout.contains("pipeline swap to slot B reverted"),
        "{stdout}"
    );
    // 1 ARP answered at boot and 1 after the revert.
    assert!(stdout.contains("slow path: 2 ARP"), "{stdout}");
    let (boot, _) = janus_code(dir, &["nic", "boot", "card"], 0);
    assert!(boot.contains("booted slot A"), "{boot}");
    assert!(boot.contains("fell back: no"), "{boot}");
}

#[test]
fn demo_boots_a_card_from_a_fresh_signed_image_before_its_traffic() {
    let t = TempDir::new("fwcli-demo");
    let out_dir = t.join("captures");
    let (out, _) = janus_code(
        t.path(),
        &["demo", "--out-dir", out_dir.to_str().unwrap()],
        0,
    );
    let boot = out.find("booted slot A").expect("no boot summary");
    let traffic = out.find("3. Traffic").expect("no traffic section");
    assert!(boot < traffic, "the card boots after the traffic:\n{out}");
    for want in [
        "trial boot 1 of 3",
        "measured boot: PCR ",
        "event pipeline",
        "event firmware-config",
        "All 21 scenarios behaved as expected",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
}
