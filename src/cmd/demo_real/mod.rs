//! `janus demo --real`: the demo's tenant scenario over real Linux network
//! namespaces, TAP devices and processes (docs/host-interface.md, "The
//! real demo").
//!
//! It checks what it needs first (needs.rs: root, `ip`, /dev/net/tun,
//! `ping`; iperf3 optional) and explains what is missing (exit 2). Then it
//! builds the topology (topology.rs): a management namespace running
//! `janus nic run --p4 p4/sdn.p4` (a child of this executable), tenant A's
//! a1 and a2 and tenant B's b1, each with a TAP attached to a VF by `janus
//! host attach`; the operator, at its end of the management network,
//! configures both tenants over P4Runtime with the mapping of `janus ctrl
//! tenant add` (operator.rs). The scenarios (scenarios.rs) run real
//! traffic and clients and print each fate against its expectation
//! (report.rs). Exit 0 when every fate matched, 1 otherwise or when the
//! set-up failed.
//!
//! Everything it creates is undone by guards (guard.rs), also on SIGINT
//! and SIGTERM: every wait polls the stop flag, the processes are stopped,
//! the namespaces deleted, the runtime directory removed.

mod guard;
mod needs;
mod operator;
mod report;
mod scenarios;
mod topology;

use super::program_codes::Codes;
use janus_host::sys::signal;
use std::fmt::Display;
use std::path::Path;
use std::process::ExitCode;

/// Why the real demo stopped before its verdict.
#[derive(Debug, thiserror::Error)]
pub enum RealError {
    /// SIGINT or SIGTERM arrived.
    #[error("interrupted: cleaning up")]
    Interrupted,
    /// A step of the set-up or a client failed.
    #[error("{what}: {why}")]
    Step { what: String, why: String },
}

impl RealError {
    /// A failed step.
    fn step(what: &(impl Display + ?Sized), why: impl Display) -> RealError {
        RealError::Step {
            what: what.to_string(),
            why: why.to_string(),
        }
    }
}

/// The program the NIC runs, in the source tree.
const PROGRAM: &str = "p4/sdn.p4";

/// Runs the real demo; the exit code (0: every fate as expected, 1: not,
/// or the set-up failed, 2: the machine lacks what it needs).
pub fn run() -> ExitCode {
    let program = Path::new(env!("CARGO_MANIFEST_DIR")).join(PROGRAM);
    let tools = match needs::check(&program) {
        Ok(t) => t,
        Err(missing) => {
            needs::explain(&missing);
            return ExitCode::from(2);
        }
    };
    if let Err(e) = signal::install_stop_handler() {
        eprintln!("error: cannot handle signals: {e}");
        return ExitCode::from(1);
    }
    match demo(&tools) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!("the namespaces, processes and runtime directory of this run were removed");
            ExitCode::from(1)
        }
    }
}

/// The demo; `Ok(false)` when a scenario's fate differed from its
/// expectation.
fn demo(tools: &needs::Tools) -> Result<bool, RealError> {
    let exe = std::env::current_exe().map_err(|e| RealError::step("this executable", e))?;
    let source = std::fs::read_to_string(&tools.program)
        .map_err(|e| RealError::step(&tools.program.display(), e))?;
    println!(
        "Janus demo --real: one SmartNIC process shared by two tenants, over real network \
         namespaces, TAP devices and processes"
    );
    println!("\n1. Set-up (removed at the end, also on Ctrl-C)");
    let topology = topology::build(tools, &exe, std::process::id())?;
    let mut operator = operator::Operator::connect(topology.mgmt_addr)?;
    for t in &topology::TENANTS {
        let n = operator.add_tenant(&t.spec())?;
        println!(
            "  tenant {} (id {}, VNI {}, gateway {}): {n} entries written over P4Runtime by the \
             operator, as `janus ctrl tenant add` writes them",
            t.name, t.id, t.vni, t.gateway.1
        );
    }

    println!("\n2. Scenarios: real traffic and clients, each fate observed");
    let mut report = report::Report::default();
    let mut bench = scenarios::Bench {
        topology: &topology,
        tools,
        operator: &mut operator,
        exe: &exe,
        reasons: Codes::read([source.as_str()], "DROP_"),
    };
    bench.run(&mut report)?;
    bench.counters(&mut report)?;
    let passed = report.finish();
    drop(operator);
    stop_processes(topology);
    Ok(passed)
}

/// Stops the processes and prints the NIC's own counters; the guards
/// then delete the namespaces and the directory.
fn stop_processes(topology: topology::Topology) {
    let out = topology.stop();
    if let Some(line) = out.lines().find(|l| l.starts_with("VFs:")) {
        println!("The NIC process on exit: {line}");
    }
}
