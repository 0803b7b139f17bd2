//! What the real demo needs from the machine, checked before it touches
//! anything: the privileges to make network namespaces and TAP devices,
//! `ip` (iproute2), `/dev/net/tun`, `ping`, the program `p4/sdn.p4`; and
//! `iperf3`, optional (its step is skipped without it).

use std::path::{Path, PathBuf};

/// CAP_NET_ADMIN: links, addresses, routes, TAP devices.
const CAP_NET_ADMIN: u32 = 12;
/// CAP_SYS_ADMIN: `ip netns add` mounts the namespace under /run/netns.
const CAP_SYS_ADMIN: u32 = 21;

/// Folders searched besides `PATH` (`ip` lives in /usr/sbin, which a
/// user's `PATH` often lacks).
const SBIN: [&str; 4] = ["/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/bin"];

/// The tools found.
pub struct Tools {
    pub ip: PathBuf,
    pub ping: PathBuf,
    /// None: the iperf3 step is skipped.
    pub iperf3: Option<PathBuf>,
    /// The pipeline the NIC runs.
    pub program: PathBuf,
}

/// One thing missing and how to get it.
pub struct Missing {
    pub what: String,
    pub how: String,
}

/// The tools, or everything that is missing.
pub fn check(program: &Path) -> Result<Tools, Vec<Missing>> {
    let mut missing = Vec::new();
    if let Err(why) = privileged() {
        missing.push(Missing {
            what: format!("root privileges (CAP_NET_ADMIN and CAP_SYS_ADMIN): {why}"),
            how: "run it as root: `sudo cargo run --release -- demo --real` or \
                  `sudo target/release/janus demo --real`"
                .into(),
        });
    }
    let ip = find("ip");
    if ip.is_none() {
        missing.push(Missing {
            what: "`ip` (iproute2) is not installed".into(),
            how: "install iproute2 (`apt-get install iproute2`)".into(),
        });
    }
    let ping = find("ping");
    if ping.is_none() {
        missing.push(Missing {
            what: "`ping` is not installed".into(),
            how: "install it (`apt-get install iputils-ping`)".into(),
        });
    }
    if !Path::new("/dev/net/tun").exists() {
        missing.push(Missing {
            what: "/dev/net/tun does not exist (the TAP devices need it)".into(),
            how: "load the module (`modprobe tun`); in a container, pass the device \
                  (`docker run --device /dev/net/tun --cap-add NET_ADMIN --cap-add SYS_ADMIN`)"
                .into(),
        });
    }
    if !program.is_file() {
        missing.push(Missing {
            what: format!("{} is not there", program.display()),
            how: "run it from the Janus source tree it was built from".into(),
        });
    }
    match (ip, ping) {
        (Some(ip), Some(ping)) if missing.is_empty() => Ok(Tools {
            ip,
            ping,
            iperf3: find("iperf3"),
            program: program.to_path_buf(),
        }),
        _ => Err(missing),
    }
}

/// Ok when the effective capabilities hold CAP_NET_ADMIN and
/// CAP_SYS_ADMIN (root has them); else why not.
fn privileged() -> Result<(), String> {
    let status = std::fs::read_to_string("/proc/self/status")
        .map_err(|e| format!("cannot read /proc/self/status: {e}"))?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
    };
    let caps = field("CapEff:")
        .and_then(|hex| u64::from_str_radix(hex, 16).ok())
        .ok_or("no CapEff line in /proc/self/status")?;
    let has = |cap: u32| caps & (1 << cap) != 0;
    if has(CAP_NET_ADMIN) && has(CAP_SYS_ADMIN) {
        return Ok(());
    }
    let uid = field("Uid:")
        .and_then(|u| u.split_whitespace().nth(1))
        .unwrap_or("?");
    Err(format!(
        "this process (effective uid {uid}) lacks {}",
        [
            (CAP_NET_ADMIN, "CAP_NET_ADMIN"),
            (CAP_SYS_ADMIN, "CAP_SYS_ADMIN")
        ]
        .iter()
        .filter(|(c, _)| !has(*c))
        .map(|(_, n)| *n)
        .collect::<Vec<_>>()
        .join(" and ")
    ))
}

/// `name` in `PATH` or the sbin folders.
fn find(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(SBIN.iter().map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Prints what is missing (stderr).
pub fn explain(missing: &[Missing]) {
    eprintln!(
        "error: `janus demo --real` runs the tenant scenario over real network namespaces, \
         TAP devices and processes, and this machine lacks what it needs:"
    );
    for m in missing {
        eprintln!("  - {}\n    {}", m.what, m.how);
    }
    eprintln!(
        "`janus demo` (without --real) runs the same scenario on the behavioural model alone and needs none of this."
    );
}
