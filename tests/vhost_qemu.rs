//! A virtual machine as a tenant (docs/host-interface.md, "Virtual machines
//! (vhost-user)"): `janus nic run --p4 p4/sdn.p4`, tenant A with VF 2 for a
//! QEMU guest and VF 3 for a namespace. The namespace's TAP is bridged by
//! `janus host attach`; the guest's virtio-net device reaches VF 2 through
//! `janus host vhost-user`. The guest (the host's kernel, a busybox
//! initramfs built here) configures eth0 and pings the namespace, printing
//! the result on its serial console; the namespace then pings the guest.
//!
//! Needs root, `ip`, `ping`, `qemu-system-x86_64`, a static busybox and a
//! kernel under /boot (or `JANUS_VM_KERNEL`): skipped with a message
//! without them, failed under JANUS_REQUIRE_TOOLS=1 (scripts/test installs
//! them). QEMU runs with TCG and INTx; every wait is bounded; guards stop QEMU, the
//! shims and the NIC and delete the namespace even when an assertion fails.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::netns::{Daemon, Lines, Netns, STEP, TapConfig, attach_tap, cmd, must};
use common::{missing_tool, repo, run_bounded};
/// How long the guest may take to boot and report its ping (TCG).
const GUEST: Duration = Duration::from_secs(120);

/// The guest's VF (port 2) and the namespace's (port 3), tenant A.
const VM_PORT: u32 = 2;
const VM_MAC: &str = "02:00:00:00:01:02";
const VM_IP: &str = "10.1.0.2";
const NS_PORT: u32 = 3;
const NS_MAC: &str = "02:00:00:00:01:03";
const NS_IP: &str = "10.1.0.3";
const GW_MAC: &str = "02:00:00:00:01:01";
const GW_IP: &str = "10.1.0.1";

/// The modules the guest loads when virtio-net is not built in.
const GUEST_MODULES: [&str; 2] = ["virtio_pci", "virtio_net"];

/// The guest's kernel and its modules folder.
struct Kernel {
    image: PathBuf,
    modules: PathBuf,
}

/// `JANUS_VM_KERNEL`, else the newest /boot/vmlinuz-*; its modules under
/// /lib/modules/<version>.
fn find_kernel() -> Option<Kernel> {
    let image = match std::env::var_os("JANUS_VM_KERNEL") {
        Some(k) => PathBuf::from(k),
        None => {
            let mut found: Vec<PathBuf> = fs::read_dir("/boot")
                .ok()?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("vmlinuz-"))
                })
                .collect();
            found.sort();
            found.pop()?
        }
    };
    let name = image.file_name()?.to_str()?;
    let version = name.strip_prefix("vmlinuz-").unwrap_or(name);
    let modules = Path::new("/lib/modules").join(version);
    (image.is_file() && fs::File::open(&image).is_ok()).then_some(Kernel { image, modules })
}

/// The path of a statically linked busybox, if there is one.
fn static_busybox() -> Option<PathBuf> {
    ["/bin/busybox", "/usr/bin/busybox"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| fs::read(p).is_ok_and(|elf| is_static_elf(&elf)))
}

/// Whether `elf` is a 64-bit little-endian ELF without an interpreter.
fn is_static_elf(elf: &[u8]) -> bool {
    const PT_INTERP: u32 = 3;
    let u16_at = |o: usize| elf.get(o..o + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let u32_at = |o: usize| {
        elf.get(o..o + 4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap_or_default()))
    };
    let u64_at = |o: usize| {
        elf.get(o..o + 8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
    };
    if elf.get(..5) != Some(b"\x7fELF\x02") {
        return false;
    }
    let (Some(phoff), Some(size), Some(count)) = (u64_at(0x20), u16_at(0x36), u16_at(0x38)) else {
        return false;
    };
    (0..usize::from(count)).all(|i| {
        let at = phoff as usize + i * usize::from(size);
        u32_at(at).is_some_and(|t| t != PT_INTERP)
    })
}

/// Whether the test can run here; prints (or, under JANUS_REQUIRE_TOOLS=1,
/// fails with) what is missing.
fn prerequisites() -> Option<(Kernel, PathBuf)> {
    if !common::netns::root_and_tools("tests/vhost_qemu.rs", &["ip", "ping", "qemu-system-x86_64"])
    {
        return None;
    }
    let Some(busybox) = static_busybox() else {
        missing_tool("no static busybox (Debian: busybox-static; scripts/test installs it)");
        return None;
    };
    let Some(kernel) = find_kernel() else {
        missing_tool(
            "no kernel in /boot (Debian: linux-image-cloud-amd64; scripts/test installs it)",
        );
        return None;
    };
    Some((kernel, busybox))
}

/// An initramfs in the `newc` cpio format, uncompressed.
#[derive(Default)]
struct Cpio {
    out: Vec<u8>,
    ino: u32,
}

impl Cpio {
    const DIR: u32 = 0o040_755;
    const FILE: u32 = 0o100_644;
    const EXEC: u32 = 0o100_755;
    const LINK: u32 = 0o120_777;
    const CHAR: u32 = 0o020_600;

    fn entry(&mut self, name: &str, mode: u32, rdev: (u32, u32), data: &[u8]) {
        self.ino += 1;
        let fields = [
            self.ino,
            mode,
            0,
            0,
            1,
            0,
            data.len() as u32,
            0,
            0,
            rdev.0,
            rdev.1,
            name.len() as u32 + 1,
            0,
        ];
        self.out.extend_from_slice(b"070701");
        for f in fields {
            self.out.extend_from_slice(format!("{f:08x}").as_bytes());
        }
        self.out.extend_from_slice(name.as_bytes());
        self.out.push(0);
        self.pad();
        self.out.extend_from_slice(data);
        self.pad();
    }

    fn pad(&mut self) {
        while !self.out.len().is_multiple_of(4) {
            self.out.push(0);
        }
    }

    fn dir(&mut self, name: &str) {
        self.entry(name, Self::DIR, (0, 0), &[]);
    }

    fn finish(mut self) -> Vec<u8> {
        self.entry("TRAILER!!!", 0, (0, 0), &[]);
        self.out
    }
}

/// The modules (in load order) that `wanted` need, from modules.dep;
/// empty for those built into the kernel.
fn module_load_order(modules: &Path, wanted: &[&str]) -> Vec<PathBuf> {
    let dep = fs::read_to_string(modules.join("modules.dep")).unwrap_or_default();
    let mut order: Vec<String> = Vec::new();
    for name in wanted {
        let suffix = format!("/{name}.ko");
        let Some(line) = dep.lines().find(|l| {
            l.split(':')
                .next()
                .is_some_and(|m| m.ends_with(&suffix) || m.ends_with(&format!("{suffix}.xz")))
        }) else {
            continue;
        };
        let (module, deps) = line.split_once(':').unwrap_or((line, ""));
        // modprobe loads a module's dependencies from the last listed.
        for m in deps.split_whitespace().rev().chain([module]) {
            if !order.iter().any(|o| o == m) {
                order.push(m.to_string());
            }
        }
    }
    order.into_iter().map(|m| modules.join(m)).collect()
}

/// The guest's /init: modules, eth0 with VF 2's addresses and static
/// neighbours, a ping of the namespace with the verdict on the console,
/// then a pause (the namespace pings back) and power-off.
fn init_script(modules: &[String]) -> String {
    let insmods: String = modules
        .iter()
        .map(|m| format!("insmod /lib/modules/{m} || echo JANUS-INSMOD-FAILED {m}\n"))
        .collect();
    format!(
        "#!/bin/sh\n\
         /bin/busybox --install -s /bin\n\
         export PATH=/bin\n\
         mount -t proc proc /proc\n\
         mount -t sysfs sys /sys\n\
         {insmods}\
         echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6\n\
         echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6\n\
         for i in 1 2 3 4 5 6 7 8 9 10; do [ -e /sys/class/net/eth0 ] && break; sleep 1; done\n\
         ip link set lo up\n\
         ip addr add {VM_IP}/24 dev eth0\n\
         ip link set eth0 up\n\
         arp -i eth0 -s {GW_IP} {GW_MAC}\n\
         arp -i eth0 -s {NS_IP} {NS_MAC}\n\
         ip route add default via {GW_IP} dev eth0\n\
         echo JANUS-GUEST-UP\n\
         if ping -c 3 -W 3 {NS_IP}; then echo JANUS-PING-OK; else ifconfig -a; ip neigh show; lsmod; grep -i virtio /proc/interrupts; dmesg | tail -15; echo JANUS-PING-FAILED; fi\n\
         sleep 90\n\
         poweroff -f\n"
    )
}

/// Builds the initramfs into `path`.
fn build_initramfs(path: &Path, kernel: &Kernel, busybox: &Path) {
    let modules = module_load_order(&kernel.modules, &GUEST_MODULES);
    let mut cpio = Cpio::default();
    for d in ["bin", "dev", "proc", "sys", "lib", "lib/modules"] {
        cpio.dir(d);
    }
    cpio.entry("dev/console", Cpio::CHAR, (5, 1), &[]);
    let bb = fs::read(busybox).expect("read busybox");
    cpio.entry("bin/busybox", Cpio::EXEC, (0, 0), &bb);
    cpio.entry("bin/sh", Cpio::LINK, (0, 0), b"busybox");
    let mut names = Vec::new();
    for m in &modules {
        let name = m.file_name().and_then(|n| n.to_str()).expect("module name");
        let data = fs::read(m).unwrap_or_else(|e| panic!("{}: {e}", m.display()));
        cpio.entry(&format!("lib/modules/{name}"), Cpio::FILE, (0, 0), &data);
        names.push(name.to_string());
    }
    cpio.entry("init", Cpio::EXEC, (0, 0), init_script(&names).as_bytes());
    fs::write(path, cpio.finish()).expect("write the initramfs");
}

/// The address in `janus nic: P4Runtime (plaintext) on ADDR; VF ports ...`.
fn nic_addr(line: &str) -> String {
    let rest = line.split(" on ").nth(1).expect("address in the line");
    rest.split(';').next().expect("address").trim().to_string()
}

#[test]
fn a_qemu_guest_pings_a_namespace_tenant_through_the_nic() {
    let Some((kernel, busybox)) = prerequisites() else {
        return;
    };
    let dir = common::TempDir::new("vhost-qemu");
    let initrd = dir.join("initrd.cpio");
    build_initramfs(&initrd, &kernel, &busybox);
    let ns = Netns::new("vmpeer");
    let bin = env!("CARGO_BIN_EXE_janus");
    let dir_s = dir.path().to_string_lossy().into_owned();

    let sdn = repo("p4/sdn.p4");
    let mut nic = Daemon::start(
        "nic",
        cmd(
            bin,
            &[
                "nic",
                "run",
                &dir_s,
                "--p4",
                &sdn.to_string_lossy(),
                "--listen",
                "127.0.0.1:0",
                "--insecure",
                "--vfs",
                "2",
            ],
        ),
        Lines::Stderr,
    );
    let addr = nic_addr(&nic.wait_for(&["janus nic: P4Runtime"], common::SERVER_START));

    // The namespace tenant: a TAP bridged to VF 3.
    let shim = attach_tap(&ns, &dir_s, NS_PORT, "t3");
    ns.configure_tap(
        "t3",
        &TapConfig {
            mac: NS_MAC,
            ip: NS_IP,
            neighbours: &[(GW_IP, GW_MAC), (VM_IP, VM_MAC)],
            default_via: None,
        },
    );

    // Tenant A: the guest's VF and the namespace's.
    let out = must(cmd(
        bin,
        &[
            "ctrl",
            "tenant",
            "add",
            "1",
            "--vni",
            "1001",
            "--gateway",
            &format!("mac={GW_MAC},ip={GW_IP}"),
            "--vf",
            &format!("port={VM_PORT},mac={VM_MAC},ip={VM_IP}"),
            "--vf",
            &format!("port={NS_PORT},mac={NS_MAC},ip={NS_IP}"),
            "--server",
            &addr,
        ],
    ));
    assert!(out.contains("entries written"), "{out}");

    // The guest's VF as a vhost-user socket.
    let socket = dir.join("vm.sock");
    let socket_s = socket.to_string_lossy().into_owned();
    let vm_port = VM_PORT.to_string();
    let mut vhost = Daemon::start(
        "vhost-user",
        cmd(
            bin,
            &[
                "host",
                "vhost-user",
                "--nic",
                &dir_s,
                "--vf",
                &vm_port,
                "--socket",
                &socket_s,
            ],
        ),
        Lines::Stderr,
    );
    vhost.wait_for(&["serves VF"], STEP);

    let mut qemu = Daemon::start(
        "guest",
        cmd(
            "qemu-system-x86_64",
            &[
                "-machine",
                "q35",
                "-accel",
                "tcg",
                "-m",
                "256",
                "-object",
                "memory-backend-memfd,id=mem,size=256M,share=on",
                "-numa",
                "node,memdev=mem",
                "-chardev",
                &format!("socket,id=c,path={socket_s}"),
                "-netdev",
                "vhost-user,id=n,chardev=c",
                "-device",
                // No MSI-X: QEMU 7.2 under TCG dereferences its missing
                // irqfd table when a vhost-user device starts with MSI-X
                // (docs/host-interface.md); the guest uses INTx instead.
                &format!("virtio-net-pci,netdev=n,mac={VM_MAC},vectors=0"),
                "-kernel",
                &kernel.image.to_string_lossy(),
                "-initrd",
                &initrd.to_string_lossy(),
                "-append",
                "console=ttyS0 panic=-1 quiet",
                "-nodefaults",
                "-no-user-config",
                "-display",
                "none",
                "-serial",
                "stdio",
                "-no-reboot",
            ],
        ),
        Lines::Stdout,
    );
    let started = Instant::now();
    let verdict = qemu.try_wait_for(&["JANUS-PING-OK", "JANUS-PING-FAILED"], GUEST);
    let elapsed = started.elapsed().as_secs_f64();
    match &verdict {
        Ok(line) if line.contains("JANUS-PING-OK") => {
            eprintln!("guest booted and pinged the namespace in {elapsed:.1} s (TCG)");
        }
        _ => {
            let why = verdict.unwrap_or_else(|e| e);
            let qemu_stderr = qemu.stop();
            let counters = vhost.stop();
            let shim_counters = shim.stop();
            panic!(
                "the guest could not ping the namespace tenant ({why}, after {elapsed:.1} s)\nQEMU:\n{qemu_stderr}\nvhost-user:\n{counters}\nnamespace shim:\n{shim_counters}"
            );
        }
    }

    // And back: the namespace pings the guest (it pauses 90 s after its
    // own ping).
    let ping = run_bounded(
        ns.exec("ping", &["-c", "3", "-i", "0.5", "-W", "3", VM_IP]),
        STEP,
    );
    assert!(
        ping.success(),
        "ping namespace -> guest: {}",
        ping.describe(STEP)
    );
    eprintln!("{}", ping.stdout);

    drop(qemu);
    let counters = vhost.stop();
    eprintln!("{counters}");
    assert!(counters.contains("guests: 1 sessions"), "{counters}");
    let received = counters
        .lines()
        .find_map(|l| l.strip_prefix("guest: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or(0);
    assert!(received >= 6, "frames into the guest: {counters}");
    let out = shim.stop();
    assert!(out.contains("to the NIC:"), "{out}");
    drop(nic);
}
