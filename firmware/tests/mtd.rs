//! The Linux MTD backend: refuses files that are not MTD devices, and
//! passes the flash conformance checks on the kernel's `mtdram` test
//! device when there is one (or when `modprobe mtdram` can make one).
//!
//! Only a device named "mtdram test device" in sysfs is used, or the one
//! named by `JANUS_MTD_DEVICE`: the checks erase and program it, which
//! must never happen to a real board's flash by accident. Without such a
//! device the test prints why it skipped; with `JANUS_REQUIRE_TOOLS=1` it
//! fails instead when the running kernel has modules `modprobe` could load
//! (`/lib/modules/$(uname -r)`), so the device could have been made.

mod common;

use janus_firmware::mtd::{MtdError, MtdFlash};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MTDRAM_NAME: &str = "mtdram test device";

#[test]
fn regular_files_and_missing_paths_are_refused() {
    let dir = common::TempDir::new("mtd");
    std::fs::create_dir_all(&dir.0).unwrap();
    let file = dir.0.join("not-mtd");
    std::fs::write(&file, [0xFF; 4096]).unwrap();
    let err = MtdFlash::open(&file).unwrap_err();
    assert!(matches!(err, MtdError::NotMtd { .. }), "{err}");
    assert!(
        err.to_string().contains("is not an MTD character device"),
        "{err}"
    );
    let err = MtdFlash::open(&dir.0.join("missing")).unwrap_err();
    assert!(matches!(err, MtdError::Io { .. }), "{err}");
}

#[test]
fn mtd_flash_passes_conformance() {
    let device = match find_test_device() {
        Ok(device) => device,
        Err(why) => {
            let require = std::env::var("JANUS_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
            if require && running_kernel_has_modules() {
                panic!("JANUS_REQUIRE_TOOLS=1 and no MTD test device: {why}");
            }
            eprintln!("skipped: no MTD test device: {why}");
            return;
        }
    };
    let mut flash = MtdFlash::open(&device).unwrap();
    eprintln!(
        "MTD conformance on {}: {:?}",
        device.display(),
        janus_firmware_core::flash::Flash::geometry(&flash)
    );
    common::conformance::check(&mut flash);
}

/// The device to test: `JANUS_MTD_DEVICE`, else an existing `mtdram`
/// device, else one made with `modprobe mtdram` (8 MiB, 64 KiB sectors).
fn find_test_device() -> Result<PathBuf, String> {
    if let Ok(path) = std::env::var("JANUS_MTD_DEVICE") {
        return Ok(PathBuf::from(path));
    }
    if let Some(path) = existing_mtdram() {
        return Ok(path);
    }
    if !modprobe_exists() {
        return Err("no mtdram device, and no modprobe to load the mtdram module".to_string());
    }
    if !running_kernel_has_modules() {
        return Err(
            "no mtdram device, and the running kernel has no modules directory to load mtdram from"
                .to_string(),
        );
    }
    let mut child = Command::new("modprobe")
        .args(["mtdram", "total_size=8192", "erase_size=64"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run modprobe: {e}"))?;
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err("modprobe mtdram did not finish within 20 s".to_string());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if !status.success() {
        let mut err = String::new();
        if let Some(mut stderr) = child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut stderr, &mut err);
        }
        return Err(format!("modprobe mtdram failed ({status}): {}", err.trim()));
    }
    // udev may take a moment to create the node.
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Some(path) = existing_mtdram() {
            return Ok(path);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err("modprobe mtdram succeeded but no /dev/mtdN named mtdram appeared".to_string())
}

/// `/dev/mtdN` whose sysfs name is the mtdram test device's.
fn existing_mtdram() -> Option<PathBuf> {
    let entries = std::fs::read_dir("/sys/class/mtd").ok()?;
    entries.flatten().find_map(|entry| {
        let name = entry.file_name().into_string().ok()?;
        let number = name.strip_prefix("mtd")?;
        let is_char = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
        let label = std::fs::read_to_string(entry.path().join("name")).ok()?;
        let dev = Path::new("/dev").join(&name);
        (is_char && label.trim() == MTDRAM_NAME && dev.exists()).then_some(dev)
    })
}

fn modprobe_exists() -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| dir.join("modprobe").is_file())
    }) || Path::new("/sbin/modprobe").is_file()
}

/// Whether `modprobe` exists and the running kernel has a modules
/// directory (`/lib/modules/<release>`): packages may install modules for
/// other kernels, which `modprobe` cannot load here.
fn running_kernel_has_modules() -> bool {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    modprobe_exists() && Path::new("/lib/modules").join(release.trim()).is_dir()
}
