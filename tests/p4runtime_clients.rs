//! Real P4Runtime clients against `janus ctrl serve`: the scripted sessions
//! of `tests/clients/` (p4runtime-shell and finsy, each in the venv
//! `scripts/test` makes) push `tests/clients/loopback.p4`, write, read and
//! delete table entries, exchange PacketOuts and PacketIns, read counters,
//! arbitrate a backup and check a batch's per-update errors; once over
//! plaintext and once over mTLS with the operator's certificate. Each
//! client also checks that the mTLS server refuses it without a client
//! certificate and with one of another CA.
//!
//! The venvs are named by `JANUS_P4RT_SHELL_VENV` and `JANUS_FINSY_VENV`.
//! Without one the test fails when `JANUS_REQUIRE_TOOLS=1` (as under
//! `scripts/test`) and is skipped with a message otherwise. Every wait is
//! bounded; a child that overruns is killed.

mod common;

use common::{Pki, Server, TempDir, repo, run_bounded, venv};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// How long `janus p4 compile` may take.
const COMPILE: Duration = Duration::from_secs(60);
/// How long one client session may take.
const SESSION: Duration = Duration::from_secs(180);
/// How long the refusal checks may take (each refused connection fails
/// within seconds).
const REFUSALS: Duration = Duration::from_secs(60);

/// The two client libraries: the venv variable and the session script.
#[derive(Clone, Copy)]
enum ClientLib {
    P4RuntimeShell,
    Finsy,
    /// A client written as p4lang tutorials' `p4runtime_lib` is (plain
    /// grpc stubs, ids looked up by name in the P4Info text file, PI's
    /// `P4DeviceConfig` wrapper), in p4runtime-shell's venv.
    Tutorials,
}

impl ClientLib {
    fn venv_var(self) -> &'static str {
        match self {
            ClientLib::P4RuntimeShell | ClientLib::Tutorials => "JANUS_P4RT_SHELL_VENV",
            ClientLib::Finsy => "JANUS_FINSY_VENV",
        }
    }

    fn script(self) -> &'static str {
        match self {
            ClientLib::P4RuntimeShell => "p4rt_shell_session.py",
            ClientLib::Tutorials => "tutorial_session.py",
            ClientLib::Finsy => "finsy_session.py",
        }
    }

    /// The venv's python running the session script, or None when the
    /// test is to be skipped.
    fn command(self) -> Option<Command> {
        let var = self.venv_var();
        let venv = venv(var)?;
        let python = venv.join("bin/python");
        assert!(
            python.exists(),
            "{var} names {}, which has no bin/python: run scripts/test",
            venv.display()
        );
        let mut cmd = Command::new(python);
        cmd.arg(repo("tests/clients").join(self.script()));
        Some(cmd)
    }
}

/// How the session connects.
#[derive(Clone, Copy, PartialEq)]
enum Transport {
    Plaintext,
    Mtls,
}

/// The P4Info and pipeline file of `tests/clients/loopback.p4`, compiled
/// by `janus p4 compile` into `dir`.
fn compile_loopback(dir: &Path) -> (PathBuf, PathBuf) {
    let p4info = dir.join("loopback.p4info.txtpb");
    let pipeline = dir.join("loopback.pipeline");
    let mut cmd = common::janus();
    cmd.arg("p4")
        .arg("compile")
        .arg(repo("tests/clients/loopback.p4"))
        .arg("--p4info")
        .arg(&p4info)
        .arg("-o")
        .arg(&pipeline);
    let done = run_bounded(cmd, COMPILE);
    assert!(
        done.success(),
        "janus p4 compile {}",
        done.describe(COMPILE)
    );
    (p4info, pipeline)
}

/// Runs `cmd`, bounded by `limit`, and asserts that it passes.
fn assert_passes(cmd: Command, limit: Duration, what: &str) {
    let done = run_bounded(cmd, limit);
    assert!(done.success(), "{what} {}", done.describe(limit));
    assert!(
        done.stdout.contains("session passed"),
        "{what} exited 0 without finishing:\n{}",
        done.stdout
    );
}

/// Runs `lib`'s session against a fresh server (no pipeline: the client
/// pushes one) over `transport`, and asserts it passes.
fn client_session(lib: ClientLib, transport: Transport) {
    let Some(mut cmd) = lib.command() else { return };
    let tls = if transport == Transport::Mtls {
        "mtls"
    } else {
        "plain"
    };
    let name = lib.script().trim_end_matches(".py");
    let tmp = TempDir::new(&format!("clients-{name}-{tls}"));
    let (p4info, pipeline) = compile_loopback(tmp.path());
    let mut serve = vec!["--listen".to_string(), "127.0.0.1:0".into()];
    let pki = (transport == Transport::Mtls).then(|| Pki::make(&tmp.join("pki"), &[]));
    match &pki {
        Some(pki) => serve.extend(pki.serve_args()),
        None => serve.push("--insecure".into()),
    }
    let server = Server::start(&serve);
    cmd.arg("--addr")
        .arg(server.addr.to_string())
        .arg("--p4info")
        .arg(&p4info)
        .arg("--device-config")
        .arg(&pipeline);
    if let Some(pki) = &pki {
        let (cert, key) = pki.client("operator");
        cmd.arg("--ca-cert")
            .arg(pki.ca())
            .arg("--cert")
            .arg(cert)
            .arg("--key")
            .arg(key);
    }
    assert_passes(cmd, SESSION, lib.script());
}

/// Runs `lib`'s refusal check against an mTLS server: no client
/// certificate and a certificate of another CA (naming `operator` too)
/// refused with UNAVAILABLE, the operator's answered.
fn client_refusals(lib: ClientLib) {
    let Some(mut cmd) = lib.command() else { return };
    let tmp = TempDir::new(&format!(
        "refusals-{}",
        lib.script().trim_end_matches(".py")
    ));
    let pki = Pki::make(&tmp.join("pki"), &[]);
    let stranger = Pki::make(&tmp.join("stranger"), &[]);
    let mut serve = vec!["--listen".to_string(), "127.0.0.1:0".into()];
    serve.extend(pki.serve_args());
    let server = Server::start(&serve);
    let (cert, key) = pki.client("operator");
    let (stranger_cert, stranger_key) = stranger.client("operator");
    cmd.arg("--addr")
        .arg(server.addr.to_string())
        .arg("--check-refusals")
        .arg("--ca-cert")
        .arg(pki.ca())
        .arg("--cert")
        .arg(cert)
        .arg("--key")
        .arg(key)
        .arg("--stranger-cert")
        .arg(stranger_cert)
        .arg("--stranger-key")
        .arg(stranger_key);
    assert_passes(cmd, REFUSALS, lib.script());
}

#[test]
fn p4runtime_shell_session_against_janus_ctrl_serve() {
    client_session(ClientLib::P4RuntimeShell, Transport::Plaintext);
}

#[test]
fn p4runtime_shell_session_over_mtls() {
    client_session(ClientLib::P4RuntimeShell, Transport::Mtls);
}

#[test]
fn p4runtime_shell_without_a_good_certificate_is_refused() {
    client_refusals(ClientLib::P4RuntimeShell);
}

#[test]
fn a_tutorials_style_client_session_against_janus_ctrl_serve() {
    client_session(ClientLib::Tutorials, Transport::Plaintext);
}

#[test]
fn finsy_session_against_janus_ctrl_serve() {
    client_session(ClientLib::Finsy, Transport::Plaintext);
}

#[test]
fn finsy_session_over_mtls() {
    client_session(ClientLib::Finsy, Transport::Mtls);
}

#[test]
fn finsy_without_a_good_certificate_is_refused() {
    client_refusals(ClientLib::Finsy);
}

#[test]
fn listen_addr_is_read_from_the_servers_first_line() {
    assert_eq!(
        common::listen_addr(
            "janus ctrl: P4Runtime (plaintext) on 127.0.0.1:4242, device id 1, CPU port 510"
        ),
        Some("127.0.0.1:4242".parse().unwrap())
    );
    assert_eq!(common::listen_addr("something else"), None);
}
