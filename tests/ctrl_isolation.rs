//! Isolation of the control plane from tenants, end to end against the
//! `janus` binary: `janus ctrl serve` over mTLS with `p4/sdn.p4` and
//! certificates from `janus ctrl certs`.
//!
//! - the audit log (`--audit-log`): the JSON line of every Write update,
//!   pipeline change and refusal, for the operator, a tenant and a
//!   certificate naming no identity; clients without a good certificate
//!   cannot connect;
//! - network namespaces: the server listens on the management address in a
//!   namespace of its own, reachable from the operator's namespace and not
//!   from a tenant VM's (a VF's) namespace. Needs root and `ip netns`:
//!   skipped with a message otherwise, or failed under
//!   `JANUS_REQUIRE_TOOLS=1`;
//! - `--listen` on every address (0.0.0.0, [::]) is refused.
//!
//! Every wait is bounded; servers are killed and namespaces deleted on
//! drop, a failed assertion included.

mod common;

use common::{Pki, Server, TempDir, janus, missing_tool, run_bounded};
use janus_ctrl::client::{self, Client, ClientConfig, ClientIdentity, ClientTls, Limits};
use janus_ctrl::proto::p4::config::v1 as cfg;
use janus_ctrl::proto::p4::v1 as p4;
use p4::get_forwarding_pipeline_config_request::ResponseType;
use p4::set_forwarding_pipeline_config_request::Action as PipelineAction;
use p4::write_request::Atomicity;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tonic::Code;

/// How long one RPC may take.
const LIMIT: Duration = Duration::from_secs(20);
/// How long a connection that should fail may take to fail.
const REFUSED_WITHIN: Duration = Duration::from_secs(5);

// ---- clients --------------------------------------------------------------

/// A client certificate and key (PEM files).
type ClientCert<'a> = Option<(&'a Path, &'a Path)>;

/// An mTLS client of `addr` trusting `ca`, presenting `cert` (none: no
/// client certificate), acting in `role` with election id `id`. Fails when
/// the server refuses the handshake or cannot be reached within
/// [`REFUSED_WITHIN`].
async fn tls_client(
    addr: SocketAddr,
    ca: &Path,
    cert: ClientCert<'_>,
    role: &str,
    id: u64,
) -> Result<Client, client::Error> {
    let read = |p: &Path| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let tls = ClientTls {
        ca: read(ca),
        identity: cert.map(|(cert, key)| ClientIdentity {
            cert: read(cert),
            key: read(key),
        }),
        domain: Some(addr.ip().to_string()),
    };
    Client::connect(ClientConfig {
        election_id: id.into(),
        role: role.into(),
        tls: Some(tls),
        limits: Limits {
            connect: REFUSED_WITHIN,
            call: LIMIT,
        },
        ..ClientConfig::new(addr.to_string())
    })
    .await
}

/// Whether a client with these credentials gets no answer: the connection
/// or the first RPC on it fails (rustls under TLS 1.3 reports a refused
/// client certificate after the client's side of the handshake is done).
async fn refused(addr: SocketAddr, ca: &Path, cert: ClientCert<'_>) -> Result<(), String> {
    let Ok(mut c) = tls_client(addr, ca, cert, "", 1).await else {
        return Ok(());
    };
    match tokio::time::timeout(REFUSED_WITHIN, c.capabilities()).await {
        Ok(Ok(r)) => Err(format!("the server answered: {r:?}")),
        Ok(Err(_)) | Err(_) => Ok(()),
    }
}

/// Arbitrates for the client's role with its election id: the answer's
/// status code, or the stream's when the server refuses the arbitration.
async fn arbitrate(c: &mut Client) -> Code {
    match c.become_primary().await {
        Ok(a) => a.code,
        Err(client::Error::Status { status, .. }) => status.code(),
        Err(e) => panic!("arbitration: {e}"),
    }
}

/// The server's status of a failed call; panics on anything else.
fn status(e: client::Error) -> tonic::Status {
    match e {
        client::Error::Status { status, .. } => *status,
        other => panic!("{other}"),
    }
}

async fn write(c: &mut Client, updates: Vec<p4::Update>) -> Result<(), tonic::Status> {
    c.write(updates, Atomicity::ContinueOnError)
        .await
        .map_err(status)
}

async fn get_config(c: &mut Client) -> p4::ForwardingPipelineConfig {
    c.get_pipeline_config(ResponseType::All)
        .await
        .expect("GetForwardingPipelineConfig")
}

async fn push_config(
    c: &mut Client,
    config: p4::ForwardingPipelineConfig,
) -> Result<(), tonic::Status> {
    c.set_pipeline(PipelineAction::VerifyAndCommit, config)
        .await
        .map_err(status)
}

// ---- p4/sdn.p4's security groups ----------------------------------------

/// The ids of `security_group_rules` (keyed by `meta.tenant`, marked
/// `@janus_tenant_key`) and its actions.
struct Rules {
    table: u32,
    tenant_field: u32,
    deny: u32,
}

impl Rules {
    fn of(info: &cfg::P4Info) -> Rules {
        let table = info
            .tables
            .iter()
            .find(|t| {
                t.preamble
                    .as_ref()
                    .is_some_and(|p| p.alias == "security_group_rules")
            })
            .expect("security_group_rules in the P4Info");
        let pre = table.preamble.as_ref().expect("a preamble");
        assert!(
            pre.annotations
                .iter()
                .any(|a| a == "@janus_tenant_key(\"meta.tenant\")"),
            "security_group_rules is not marked as tenant-keyed: {:?}",
            pre.annotations
        );
        let tenant_field = table
            .match_fields
            .iter()
            .find(|f| f.name == "meta.tenant")
            .expect("meta.tenant")
            .id;
        let deny = info
            .actions
            .iter()
            .filter_map(|a| a.preamble.as_ref())
            .find(|p| p.name.ends_with("security_groups.deny"))
            .expect("deny")
            .id;
        Rules {
            table: pre.id,
            tenant_field,
            deny,
        }
    }

    /// `tenant`'s rule denying everything, at `priority`.
    fn deny_all(&self, tenant: u8, priority: i32) -> p4::Update {
        self.update(p4::update::Type::Insert, tenant, priority)
    }

    fn update(&self, kind: p4::update::Type, tenant: u8, priority: i32) -> p4::Update {
        let entry = p4::TableEntry {
            table_id: self.table,
            r#match: vec![p4::FieldMatch {
                field_id: self.tenant_field,
                field_match_type: Some(p4::field_match::FieldMatchType::Exact(
                    p4::field_match::Exact {
                        value: vec![tenant],
                    },
                )),
            }],
            action: Some(p4::TableAction {
                r#type: Some(p4::table_action::Type::Action(p4::Action {
                    action_id: self.deny,
                    params: vec![],
                })),
            }),
            priority,
            ..Default::default()
        };
        p4::Update {
            r#type: kind as i32,
            entity: Some(p4::Entity {
                entity: Some(p4::entity::Entity::TableEntry(entry)),
            }),
        }
    }
}

/// The per-update codes of a failed Write batch.
fn update_codes(status: &tonic::Status) -> Vec<Code> {
    client::update_statuses(status)
        .expect("google.rpc.Status details of p4.v1.Errors")
        .into_iter()
        .map(|u| u.code)
        .collect()
}

// ---- the audit log -------------------------------------------------------

/// The audit file's lines as JSON objects (every line must be one).
fn audit_lines(path: &Path) -> Vec<serde_json::Map<String, serde_json::Value>> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|line| match serde_json::from_str(line) {
            Ok(serde_json::Value::Object(o)) => o,
            other => panic!("an audit line that is not a JSON object ({other:?}): {line}"),
        })
        .collect()
}

fn field<'a>(line: &'a serde_json::Map<String, serde_json::Value>, name: &str) -> &'a str {
    line.get(name)
        .and_then(|v| v.as_str())
        .unwrap_or_else(|| panic!("audit line without a string {name:?}: {line:?}"))
}

/// What an audit line is expected to say.
struct Expected<'a> {
    who: &'a str,
    rpc: &'a str,
    result: &'a str,
    /// A word the message must contain ("" for an empty message).
    message: &'a str,
}

impl Expected<'_> {
    fn matches(&self, line: &serde_json::Map<String, serde_json::Value>) -> bool {
        field(line, "who") == self.who
            && field(line, "rpc") == self.rpc
            && field(line, "result") == self.result
            && if self.message.is_empty() {
                field(line, "message").is_empty()
            } else {
                field(line, "message").contains(self.message)
            }
    }
}

/// Waits (bounded) until every `expected` line is in the audit file;
/// returns the lines.
fn wait_for_audit(
    path: &Path,
    expected: &[Expected<'_>],
) -> Vec<serde_json::Map<String, serde_json::Value>> {
    let deadline = Instant::now() + LIMIT;
    loop {
        let lines = audit_lines(path);
        let missing: Vec<usize> = (0..expected.len())
            .filter(|&i| !lines.iter().any(|l| expected[i].matches(l)))
            .collect();
        if missing.is_empty() {
            return lines;
        }
        if Instant::now() >= deadline {
            let want: Vec<String> = missing
                .iter()
                .map(|&i| {
                    let e = &expected[i];
                    format!("{} {} {} {:?}", e.who, e.rpc, e.result, e.message)
                })
                .collect();
            panic!(
                "audit lines missing: {want:#?}\nthe file:\n{}",
                std::fs::read_to_string(path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test]
async fn audit_log_records_writes_pipeline_changes_and_refusals() {
    let tmp = TempDir::new("isolation-audit");
    let pki = Pki::make(
        &tmp.join("pki"),
        &["--tenant", "7", "--tenant", "8", "--client", "admin"],
    );
    let audit = tmp.join("audit.jsonl");
    let mut args = vec!["--listen".to_string(), "127.0.0.1:0".into()];
    args.extend(pki.serve_args());
    args.extend(["--audit-log".into(), audit.display().to_string()]);
    args.extend(["--p4".into(), "p4/sdn.p4".into()]);
    let server = Server::start(&args);
    let cert = |cn: &str| pki.client(cn);
    let (op_cert, op_key) = cert("operator");
    let (t7_cert, t7_key) = cert("tenant:7");
    let (admin_cert, admin_key) = cert("admin");

    // The operator, primary of the default role, writes tenant 8's rule.
    let mut op = tls_client(server.addr, &pki.ca(), Some((&op_cert, &op_key)), "", 10)
        .await
        .expect("the operator connects");
    let config = get_config(&mut op).await;
    let rules = Rules::of(config.p4info.as_ref().expect("a P4Info"));
    assert_eq!(arbitrate(&mut op).await, Code::Ok);
    write(&mut op, vec![rules.deny_all(8, 10)])
        .await
        .expect("the operator writes tenant 8's rule");

    // Tenant 7, primary of its own role: its rule yes, tenant 8's no.
    let mut t7 = tls_client(
        server.addr,
        &pki.ca(),
        Some((&t7_cert, &t7_key)),
        "tenant:7",
        1,
    )
    .await
    .expect("tenant 7 connects");
    assert_eq!(arbitrate(&mut t7).await, Code::Ok);
    write(&mut t7, vec![rules.deny_all(7, 10)])
        .await
        .expect("tenant 7 writes its own rule");
    let e = write(&mut t7, vec![rules.update(p4::update::Type::Delete, 8, 10)])
        .await
        .expect_err("tenant 7 deletes tenant 8's rule");
    assert_eq!(update_codes(&e), [Code::PermissionDenied]);
    // Nor the pipeline.
    let push = push_config(&mut t7, config.clone()).await;
    assert_eq!(push.unwrap_err().code(), Code::PermissionDenied);

    // A certificate of the right CA naming no identity: nothing.
    let mut admin = tls_client(
        server.addr,
        &pki.ca(),
        Some((&admin_cert, &admin_key)),
        "",
        10,
    )
    .await
    .expect("the TLS handshake succeeds");
    let e = write(&mut admin, vec![rules.deny_all(9, 10)])
        .await
        .expect_err("an unknown identity writes");
    assert_eq!(e.code(), Code::PermissionDenied);

    // The operator verifies and commits the same pipeline again.
    push_config(&mut op, config)
        .await
        .expect("the operator pushes the pipeline");

    // No certificate, or one of another CA: no connection at all.
    let stranger = Pki::make(&tmp.join("stranger"), &[]);
    let (s_cert, s_key) = stranger.client("operator");
    refused(server.addr, &pki.ca(), None)
        .await
        .expect("a client without a certificate");
    refused(server.addr, &pki.ca(), Some((&s_cert, &s_key)))
        .await
        .expect("a client with another CA's certificate");

    let lines = wait_for_audit(
        &audit,
        &[
            Expected {
                who: "operator",
                rpc: "Write",
                result: "OK",
                message: "",
            },
            Expected {
                who: "tenant:7",
                rpc: "Write",
                result: "OK",
                message: "",
            },
            Expected {
                who: "tenant:7",
                rpc: "Write",
                result: "PERMISSION_DENIED",
                message: "tenant",
            },
            Expected {
                who: "tenant:7",
                rpc: "SetForwardingPipelineConfig",
                result: "PERMISSION_DENIED",
                message: "pipeline",
            },
            Expected {
                who: "unidentified",
                rpc: "Write",
                result: "PERMISSION_DENIED",
                message: "admin",
            },
            Expected {
                who: "operator",
                rpc: "SetForwardingPipelineConfig",
                result: "OK",
                message: "",
            },
        ],
    );
    // Every line names who, from where, what and how it ended; the refused
    // handshakes left none (no RPC reached the service).
    for line in &lines {
        let peer: SocketAddr = field(line, "peer")
            .parse()
            .unwrap_or_else(|e| panic!("peer is not an address ({e}): {line:?}"));
        assert!(peer.ip().is_loopback(), "{line:?}");
        field(line, "role");
        assert_eq!(field(line, "target"), "janus::audit", "{line:?}");
        assert!(
            ["operator", "tenant:7", "unidentified"].contains(&field(line, "who")),
            "{line:?}"
        );
    }
    let t7_denied = lines
        .iter()
        .find(|l| field(l, "who") == "tenant:7" && field(l, "result") == "PERMISSION_DENIED")
        .expect("checked above");
    assert_eq!(field(t7_denied, "role"), "tenant:7");
    assert_eq!(field(t7_denied, "update"), "DELETE");
    assert_eq!(field(t7_denied, "entity"), "table_entry");
    assert_eq!(
        t7_denied.get("level").and_then(|v| v.as_str()),
        Some("INFO")
    );
    assert_eq!(
        lines.len(),
        6,
        "one line per update, push and refusal:\n{}",
        std::fs::read_to_string(&audit).unwrap_or_default()
    );
}

#[test]
fn listening_on_every_address_is_refused() {
    for addr in ["0.0.0.0:0", "[::]:0"] {
        let mut cmd = janus();
        cmd.args(["ctrl", "serve", "--listen", addr, "--insecure"]);
        let limit = Duration::from_secs(30);
        let done = run_bounded(cmd, limit);
        assert_eq!(
            done.status.and_then(|s| s.code()),
            Some(2),
            "{}",
            done.describe(limit)
        );
        assert!(
            done.stderr.contains("management address"),
            "{}",
            done.describe(limit)
        );
    }
}

// ---- network namespaces --------------------------------------------------

/// The control plane's management network: the server's address in the
/// management namespace, the operator's peer.
const MGMT_SERVER: &str = "10.201.0.1";
const MGMT_OPERATOR: &str = "10.201.0.2";
/// A tenant VM behind a VF and the host side of its link.
const VF_VM: &str = "10.202.0.2";
const VF_HOST: &str = "10.202.0.1";

/// Runs `ip ARGS` (bounded), returning its error output on failure.
fn ip(args: &[&str]) -> Result<(), String> {
    let mut cmd = Command::new("ip");
    cmd.args(args);
    let limit = Duration::from_secs(10);
    let done = run_bounded(cmd, limit);
    if done.success() {
        Ok(())
    } else {
        Err(format!("ip {}: {}", args.join(" "), done.describe(limit)))
    }
}

/// Network namespaces this test made, deleted when dropped (their veths
/// go with them).
struct Namespaces(Vec<String>);

impl Namespaces {
    fn add(&mut self, name: &str) -> Result<(), String> {
        ip(&["netns", "add", name])?;
        self.0.push(name.to_string());
        ip(&["-n", name, "link", "set", "lo", "up"])
    }
}

impl Drop for Namespaces {
    fn drop(&mut self) {
        for name in &self.0 {
            let _ = ip(&["netns", "del", name]);
        }
    }
}

/// A veth pair from `a` in namespace `ns_a` (address `addr_a`/24) to `b` in
/// `ns_b` (`addr_b`/24), both up.
fn veth(a: (&str, &str, &str), b: (&str, &str, &str)) -> Result<(), String> {
    let (ns_a, dev_a, _) = a;
    let (ns_b, dev_b, _) = b;
    ip(&[
        "-n", ns_a, "link", "add", dev_a, "type", "veth", "peer", "name", dev_b, "netns", ns_b,
    ])?;
    for (ns, dev, addr) in [a, b] {
        ip(&["-n", ns, "addr", "add", &format!("{addr}/24"), "dev", dev])?;
        ip(&["-n", ns, "link", "set", dev, "up"])?;
    }
    Ok(())
}

/// The NIC model's split: `janus-mgmt-<pid>` (the control plane's
/// management address) linked to `janus-op-<pid>` (the operator), and
/// `janus-vf-<pid>` (a tenant VM behind a VF, its default route through
/// the host side) linked to `janus-host-<pid>`, which has no route to the
/// management network.
struct Topology {
    namespaces: Namespaces,
    mgmt: String,
    operator: String,
    vf: String,
}

impl Topology {
    fn build() -> Result<Topology, String> {
        let pid = std::process::id();
        let mut t = Topology {
            namespaces: Namespaces(Vec::new()),
            mgmt: format!("janus-mgmt-{pid}"),
            operator: format!("janus-op-{pid}"),
            vf: format!("janus-vf-{pid}"),
        };
        let host = format!("janus-host-{pid}");
        for ns in [&t.mgmt, &t.operator, &t.vf, &host] {
            t.namespaces.add(ns)?;
        }
        veth(
            (&t.mgmt, &format!("jm{pid}a"), MGMT_SERVER),
            (&t.operator, &format!("jm{pid}b"), MGMT_OPERATOR),
        )?;
        veth(
            (&t.vf, &format!("jv{pid}a"), VF_VM),
            (&host, &format!("jv{pid}b"), VF_HOST),
        )?;
        ip(&["-n", &t.vf, "route", "add", "default", "via", VF_HOST])?;
        Ok(t)
    }
}

/// What the probe reports from inside a namespace.
const PROBE_TCP: &str = "JANUS_PROBE_TCP";
const PROBE_GRPC: &str = "JANUS_PROBE_GRPC";
const PROBE_CA: &str = "JANUS_PROBE_CA";
const PROBE_CERT: &str = "JANUS_PROBE_CERT";
const PROBE_KEY: &str = "JANUS_PROBE_KEY";

/// Runs [`netns_probe`] (this test binary) inside namespace `ns` with
/// `env`; its output.
fn probe_in(ns: &str, env: &[(&str, String)]) -> String {
    let exe = std::env::current_exe().expect("the test binary");
    let mut cmd = Command::new("ip");
    cmd.args(["netns", "exec", ns]).arg(exe).args([
        "--exact",
        "netns_probe",
        "--ignored",
        "--nocapture",
    ]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let limit = Duration::from_secs(60);
    let done = run_bounded(cmd, limit);
    assert!(done.success(), "the probe in {ns} {}", done.describe(limit));
    done.stdout
}

/// The probe's line about `what` (`tcp ADDR` or `grpc ADDR`).
fn probe_line<'a>(out: &'a str, what: &str) -> &'a str {
    let prefix = format!("probe {what}: ");
    out.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} in the probe's output:\n{out}"))
}

/// Not a test of its own: the client side of
/// `control_plane_reachable_from_management_namespace_only`, run by it
/// inside a network namespace (`ip netns exec`). Reports, for every
/// address in `JANUS_PROBE_TCP` (comma-separated), whether a TCP
/// connection opens within 3 s, and for `JANUS_PROBE_GRPC` whether a
/// Capabilities call over mTLS (`JANUS_PROBE_CA`, `_CERT`, `_KEY`) is
/// answered.
#[tokio::test]
#[ignore = "run inside a namespace by control_plane_reachable_from_management_namespace_only"]
async fn netns_probe() {
    for addr in std::env::var(PROBE_TCP).unwrap_or_default().split(',') {
        let Ok(addr) = addr.parse::<SocketAddr>() else {
            continue;
        };
        let outcome = match tokio::time::timeout(
            Duration::from_secs(3),
            tokio::net::TcpStream::connect(addr),
        )
        .await
        {
            Ok(Ok(_)) => "connected".to_string(),
            Ok(Err(e)) => format!("failed: {:?}: {e}", e.kind()),
            Err(_) => "failed: timed out".to_string(),
        };
        println!("probe tcp {addr}: {outcome}");
    }
    let Ok(addr) = std::env::var(PROBE_GRPC) else {
        return;
    };
    let addr: SocketAddr = addr.parse().expect("an address");
    let path = |var: &str| PathBuf::from(std::env::var(var).expect(var));
    let (ca, cert, key) = (path(PROBE_CA), path(PROBE_CERT), path(PROBE_KEY));
    let outcome = match tls_client(addr, &ca, Some((&cert, &key)), "", 1).await {
        Err(e) => format!("failed: {e}"),
        Ok(mut c) => match tokio::time::timeout(REFUSED_WITHIN, c.capabilities()).await {
            Ok(Ok(r)) => format!("answered: P4Runtime {}", r.p4runtime_api_version),
            Ok(Err(e)) => format!("failed: {e}"),
            Err(_) => "failed: timed out".to_string(),
        },
    };
    println!("probe grpc {addr}: {outcome}");
}

#[test]
fn control_plane_reachable_from_management_namespace_only() {
    if Command::new("ip").arg("-V").output().is_err() {
        missing_tool("`ip` (iproute2) is not installed: no network namespace test");
        return;
    }
    let topology = match Topology::build() {
        Ok(t) => t,
        Err(e) => {
            missing_tool(&format!(
                "cannot make network namespaces (root is needed): {e}"
            ));
            return;
        }
    };
    let tmp = TempDir::new("isolation-netns");
    let pki = Pki::make(&tmp.join("pki"), &["--host", MGMT_SERVER, "--tenant", "7"]);
    let mut cmd = Command::new("ip");
    cmd.args(["netns", "exec", &topology.mgmt])
        .arg(env!("CARGO_BIN_EXE_janus"))
        .args(["ctrl", "serve", "--listen", &format!("{MGMT_SERVER}:0")])
        .args(pki.serve_args())
        .args(["--p4", "p4/sdn.p4"]);
    // Declared after the namespaces: killed before they are deleted.
    let server = Server::spawn(cmd);
    let addr = server.addr;
    assert_eq!(addr.ip().to_string(), MGMT_SERVER);
    let probe_env = |cn: &str, tcp: String| {
        let (cert, key) = pki.client(cn);
        vec![
            (PROBE_TCP, tcp),
            (PROBE_GRPC, addr.to_string()),
            (PROBE_CA, pki.ca().display().to_string()),
            (PROBE_CERT, cert.display().to_string()),
            (PROBE_KEY, key.display().to_string()),
        ]
    };

    // The operator's namespace reaches the server, and P4Runtime answers.
    let out = probe_in(&topology.operator, &probe_env("operator", addr.to_string()));
    assert_eq!(
        probe_line(&out, &format!("tcp {addr}")),
        "connected",
        "{out}"
    );
    assert!(
        probe_line(&out, &format!("grpc {addr}")).starts_with("answered"),
        "{out}"
    );

    // The tenant VM's namespace reaches its host side (refused: nothing
    // listens there, but the link works), never the management address.
    let host_side = format!("{VF_HOST}:{}", addr.port());
    let started = Instant::now();
    let out = probe_in(
        &topology.vf,
        &probe_env("tenant:7", format!("{host_side},{addr}")),
    );
    let vf_took = started.elapsed();
    assert!(
        probe_line(&out, &format!("tcp {host_side}")).contains("ConnectionRefused"),
        "the VF's own link does not work: {out}"
    );
    assert!(
        probe_line(&out, &format!("tcp {addr}")).starts_with("failed"),
        "the VF reached the management address: {out}"
    );
    assert!(
        probe_line(&out, &format!("grpc {addr}")).starts_with("failed"),
        "{out}"
    );
    eprintln!("the VF's probes took {vf_took:?}");
    drop(server);
    drop(topology);
}
