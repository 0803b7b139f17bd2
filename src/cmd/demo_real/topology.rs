//! The real topology (docs/host-interface.md, "The real demo"): a
//! management namespace holding the NIC process (`janus nic run --p4
//! p4/sdn.p4`) with its management address on a veth whose other end is
//! the operator's, in the root namespace; three tenant namespaces, a1 and
//! a2 of tenant A on VFs 2 and 3, b1 of tenant B on VF 4, each with a TAP
//! bridged by `janus host attach`. Every name carries the run's suffix so
//! two runs cannot collide; the guards undo everything in reverse order.

use super::RealError;
use super::guard::{Daemon, Link, Netns, RuntimeDir, STEP, ip, must};
use super::needs::Tools;
use janus_ctrl::client::tenant::{Gateway, Mac, TenantSpec, Vf};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long the NIC process may take to serve (it compiles the program).
pub const NIC_START: Duration = Duration::from_secs(120);

/// The P4Runtime port on the management address.
const P4RUNTIME_PORT: u16 = 9559;

/// A tenant's machine: a namespace with a TAP on one VF.
pub struct Vm {
    pub name: &'static str,
    pub port: u32,
    pub mac: Mac,
    pub ip: Ipv4Addr,
}

impl Vm {
    /// Its TAP device's name.
    pub fn tap(&self) -> String {
        format!("t{}", self.port)
    }
}

pub const A1: Vm = Vm {
    name: "a1",
    port: 2,
    mac: [2, 0, 0, 0, 1, 2],
    ip: Ipv4Addr::new(10, 1, 0, 2),
};
pub const A2: Vm = Vm {
    name: "a2",
    port: 3,
    mac: [2, 0, 0, 0, 1, 3],
    ip: Ipv4Addr::new(10, 1, 0, 3),
};
pub const B1: Vm = Vm {
    name: "b1",
    port: 4,
    mac: [2, 0, 0, 0, 2, 4],
    ip: Ipv4Addr::new(10, 2, 0, 4),
};

/// A tenant: its id, VNI, gateway and machines.
pub struct Tenant {
    pub name: &'static str,
    pub id: u32,
    pub vni: u32,
    pub gateway: (Mac, Ipv4Addr),
    pub vms: &'static [&'static Vm],
}

pub const TENANTS: [Tenant; 2] = [
    Tenant {
        name: "A",
        id: 1,
        vni: 1001,
        gateway: ([2, 0, 0, 0, 1, 1], Ipv4Addr::new(10, 1, 0, 1)),
        vms: &[&A1, &A2],
    },
    Tenant {
        name: "B",
        id: 2,
        vni: 2002,
        gateway: ([2, 0, 0, 0, 2, 1], Ipv4Addr::new(10, 2, 0, 1)),
        vms: &[&B1],
    },
];

impl Tenant {
    /// As `janus ctrl tenant add` takes it (its entries come from the
    /// mapping the command line uses).
    pub fn spec(&self) -> TenantSpec {
        TenantSpec {
            id: self.id,
            vni: self.vni,
            gateway: Some(Gateway {
                mac: self.gateway.0,
                ipv4: self.gateway.1,
                ipv6: Ipv6Addr::UNSPECIFIED,
            }),
            vfs: self
                .vms
                .iter()
                .map(|v| Vf {
                    port: v.port,
                    mac: v.mac,
                    ipv4: v.ip,
                })
                .collect(),
            tunnels: Vec::new(),
            remotes: Vec::new(),
        }
    }

    /// The tenant `vm` belongs to.
    pub fn of(vm: &Vm) -> &'static Tenant {
        TENANTS
            .iter()
            .find(|t| t.vms.iter().any(|v| v.port == vm.port))
            .unwrap_or(&TENANTS[0])
    }
}

/// Everything the demo set up. Fields drop in order: the processes
/// stop first, then the namespaces go, then the link and the directory.
pub struct Topology {
    pub shims: Vec<Daemon>,
    pub nic: Daemon,
    /// a1, a2, b1 in the order of [`Topology::MACHINES`].
    pub tenant_ns: Vec<Netns>,
    pub mgmt: Netns,
    /// The operator's end of the management veth.
    _link: Link,
    _dir: RuntimeDir,
    /// The NIC's management address (P4Runtime).
    pub mgmt_addr: SocketAddr,
    /// The operator's address on the management network.
    pub operator_ip: Ipv4Addr,
}

impl Topology {
    pub const MACHINES: [&'static Vm; 3] = [&A1, &A2, &B1];

    /// The namespace of `vm`.
    pub fn ns(&self, vm: &Vm) -> &Netns {
        let i = Self::MACHINES
            .iter()
            .position(|m| m.port == vm.port)
            .unwrap_or(0);
        &self.tenant_ns[i]
    }

    /// Stops the shims and the NIC (SIGTERM, bounded) and returns the
    /// NIC's stdout (its counters); the namespaces, the link and the
    /// directory are undone as the rest drops.
    pub fn stop(self) -> String {
        for shim in self.shims {
            shim.stop();
        }
        self.nic.stop()
    }
}

/// Names of this run: namespaces `janus-demo-<run>-<name>`.
fn ns_name(run: &str, name: &str) -> String {
    format!("janus-demo-{run}-{name}")
}

/// A /24 of 172.30.0.0/16 no root-namespace address is in, starting from
/// the run's own (so concurrent runs take different ones).
fn free_subnet(tools: &Tools, run: u32) -> Result<u8, RealError> {
    let used = must(ip(&tools.ip, &["-4", "-o", "addr", "show"]))?;
    (0..250u32)
        .map(|i| ((run + i) % 250) as u8)
        .find(|n| !used.contains(&format!(" 172.30.{n}.")))
        .ok_or_else(|| RealError::step("the management network", "172.30.0.0/16 is all in use"))
}

/// Sets the whole topology up, printing each step.
pub fn build(tools: &Tools, exe: &Path, run: u32) -> Result<Topology, RealError> {
    let tag = run.to_string();
    let dir = RuntimeDir::create(&tag)?;
    println!("  runtime directory   {}", dir.path().display());

    // The management network: a veth, the NIC's end in the management
    // namespace, the operator's end here.
    let subnet = free_subnet(tools, run)?;
    let (nic_end, op_end) = (format!("jd0-{run}"), format!("jd1-{run}"));
    must(ip(
        &tools.ip,
        &[
            "link", "add", &nic_end, "type", "veth", "peer", "name", &op_end,
        ],
    ))?;
    let link = Link::owned(&tools.ip, op_end.clone());
    let mgmt = Netns::create(&tools.ip, ns_name(&tag, "mgmt"))?;
    must(ip(
        &tools.ip,
        &["link", "set", &nic_end, "netns", mgmt.name()],
    ))?;
    let nic_ip = Ipv4Addr::new(172, 30, subnet, 1);
    let operator_ip = Ipv4Addr::new(172, 30, subnet, 2);
    mgmt.ip(&["addr", "add", &format!("{nic_ip}/24"), "dev", &nic_end])?;
    mgmt.ip(&["link", "set", &nic_end, "up"])?;
    must(ip(
        &tools.ip,
        &["addr", "add", &format!("{operator_ip}/24"), "dev", &op_end],
    ))?;
    must(ip(&tools.ip, &["link", "set", &op_end, "up"]))?;
    let mgmt_addr = SocketAddr::from((nic_ip, P4RUNTIME_PORT));
    println!(
        "  management network  {} holds the NIC's end of a veth, {nic_ip}/24; the operator's end \
         ({op_end}, {operator_ip}) is in the root namespace",
        mgmt.name()
    );

    let mut tenant_ns = Vec::new();
    for vm in Topology::MACHINES {
        tenant_ns.push(Netns::create(&tools.ip, ns_name(&tag, vm.name))?);
    }

    let dir_s = dir.path().to_string_lossy().into_owned();
    let program = tools.program.to_string_lossy().into_owned();
    let vfs = Topology::MACHINES.len().to_string();
    let nic = Daemon::start(
        "janus nic run",
        mgmt.exec(
            exe,
            &[
                "nic",
                "run",
                &dir_s,
                "--p4",
                &program,
                "--listen",
                &mgmt_addr.to_string(),
                "--insecure",
                "--vfs",
                &vfs,
            ],
        ),
    )?;
    println!(
        "  NIC process         `janus nic run --p4 {program}` in {}, P4Runtime on {mgmt_addr} \
         (plaintext: development)",
        mgmt.name()
    );

    let mut topology = Topology {
        shims: Vec::new(),
        nic,
        tenant_ns,
        mgmt,
        _link: link,
        _dir: dir,
        mgmt_addr,
        operator_ip,
    };
    topology
        .nic
        .wait_for("P4Runtime", NIC_START)
        .map_err(|e| RealError::step("the NIC process", e))?;
    attach(&mut topology, exe, &dir_s)?;
    for vm in Topology::MACHINES {
        address(topology.ns(vm), vm)?;
    }
    // a1 and b1 reach each other's subnet directly (static neighbours):
    // their frames do reach the NIC, whose pipeline must drop them.
    for (from, to) in [(&A1, &B1), (&B1, &A2)] {
        let ns = topology.ns(from);
        let [a, b, c, _] = to.ip.octets();
        let tap = from.tap();
        ns.ip(&["route", "add", &format!("{a}.{b}.{c}.0/24"), "dev", &tap])?;
        neighbour(ns, &tap, to.ip, &to.mac)?;
    }
    Ok(topology)
}

/// A shim per tenant namespace; the TAP is created in the namespace.
fn attach(t: &mut Topology, exe: &Path, dir: &str) -> Result<(), RealError> {
    for vm in Topology::MACHINES {
        let (tap, port) = (vm.tap(), vm.port.to_string());
        let ns = t.ns(vm);
        let mut shim = Daemon::start(
            &format!("janus host attach ({})", vm.name),
            ns.exec(
                exe,
                &["host", "attach", "--nic", dir, "--vf", &port, "--tap", &tap],
            ),
        )?;
        shim.wait_for("attached to VF", STEP)?;
        println!(
            "  {:<19} {} (tenant {}): TAP {tap}, {}/24, MAC {}, attached to VF {port} by \
             `janus host attach`",
            vm.name,
            ns.name(),
            Tenant::of(vm).name,
            vm.ip,
            mac_text(&vm.mac)
        );
        t.shims.push(shim);
    }
    Ok(())
}

fn mac_text(m: &Mac) -> String {
    janus_ctrl::client::tenant::mac_text(m)
}

/// A permanent neighbour entry.
fn neighbour(ns: &Netns, tap: &str, addr: Ipv4Addr, mac: &Mac) -> Result<(), RealError> {
    ns.ip(&[
        "neigh",
        "replace",
        &addr.to_string(),
        "lladdr",
        &mac_text(mac),
        "dev",
        tap,
        "nud",
        "permanent",
    ])
}

/// Addresses `vm`'s TAP: the VF's MAC (the pipeline checks sources), a
/// /24, static neighbours for the gateway and the tenant's other machines
/// (no ARP: `--p4` runs no slow path), a default route through the
/// gateway, no IPv6 (quiet links).
fn address(ns: &Netns, vm: &Vm) -> Result<(), RealError> {
    let tap = vm.tap();
    let tenant = Tenant::of(vm);
    ns.ip(&["link", "set", &tap, "address", &mac_text(&vm.mac)])?;
    let sysctl = PathBuf::from("sysctl");
    let mut off = ns.exec(
        &sysctl,
        &["-qw", &format!("net.ipv6.conf.{tap}.disable_ipv6=1")],
    );
    off.env("PATH", "/usr/sbin:/sbin:/usr/bin:/bin");
    // Quiet links are a nicety: without sysctl IPv6 stays on.
    let _ = super::guard::run_bounded(off, STEP)?;
    ns.ip(&["addr", "add", &format!("{}/24", vm.ip), "dev", &tap])?;
    ns.ip(&["link", "set", &tap, "up"])?;
    neighbour(ns, &tap, tenant.gateway.1, &tenant.gateway.0)?;
    for peer in tenant.vms {
        if peer.port != vm.port {
            neighbour(ns, &tap, peer.ip, &peer.mac)?;
        }
    }
    ns.ip(&[
        "route",
        "add",
        "default",
        "via",
        &tenant.gateway.1.to_string(),
        "dev",
        &tap,
    ])
}
