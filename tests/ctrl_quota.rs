//! `janus ctrl quota` against `janus ctrl serve --p4 p4/sdn.p4 --state
//! DIR`: the operator sets a tenant's quota of `security_group_rules`,
//! reads it back with the tenant's use, and the quota survives a restart
//! (it is journaled like every update).

mod common;

use common::*;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

/// `janus ctrl quota ARGS --server ADDR`: (exit code, stdout, stderr).
fn quota(addr: std::net::SocketAddr, args: &[&str]) -> (Option<i32>, String, String) {
    let mut cmd = janus();
    cmd.args(["ctrl", "quota"])
        .args(args)
        .args(["--server", &addr.to_string()]);
    let done = run_bounded(cmd, LIMIT);
    (
        done.status.and_then(|s| s.code()),
        done.stdout.clone(),
        done.stderr.clone(),
    )
}

#[test]
fn quotas_are_set_read_and_restored() {
    let dir = TempDir::new("ctrl-quota");
    let state = dir.join("state");
    let sdn = repo("p4/sdn.p4");
    let args = [
        "--insecure",
        "--listen",
        "127.0.0.1:0",
        "--p4",
        sdn.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
    ];
    {
        let server = Server::start(&args);
        let (code, out, err) = quota(server.addr, &["show"]);
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(out.contains("no tenant"), "{out}");
        let (code, out, err) = quota(
            server.addr,
            &[
                "set",
                "security_group_rules",
                "--tenant",
                "7",
                "--limit",
                "12",
            ],
        );
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(out.contains("tenant 7 may hold 12 entries"), "{out}");
        // A table without tenants has no quotas: refused, exit 1.
        let (code, out, err) = quota(
            server.addr,
            &["set", "vf_tenants", "--tenant", "7", "--limit", "1"],
        );
        assert_eq!(code, Some(1), "{out}{err}");
        assert!(err.contains("not a tenant table"), "{err}");
        // An unknown table is a usage error, exit 2.
        let (code, _, err) = quota(
            server.addr,
            &["set", "no_such_table", "--tenant", "7", "--limit", "1"],
        );
        assert_eq!(code, Some(2), "{err}");
    }
    // Restarted from the journal: the quota is still set.
    let server = Server::start(&args);
    let (code, out, err) = quota(server.addr, &["show", "--tenant", "7"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("security_group_rules: tenant 7: 0 of 12 entries"),
        "{out}"
    );
    let (code, out, err) = quota(
        server.addr,
        &["reset", "security_group_rules", "--tenant", "7"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let (_, out, _) = quota(server.addr, &["show", "--tenant", "7"]);
    // The default share: a quarter of the table's 1024 entries.
    assert!(out.contains("tenant 7: 0 of 256 entries"), "{out}");
}
