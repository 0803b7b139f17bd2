//! The configuration file: parsing, validation, canonical form.

use super::*;

/// A PEM block of `label` around arbitrary base64.
fn pem_block(label: &str) -> String {
    format!("-----BEGIN {label}-----\nAAECAwQFBgcICQ==\n-----END {label}-----\n")
}

struct Dir(PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A folder with certificates and a config file made of `body` (after the
/// `[management]` and `[certificates]` sections).
fn setup(tag: &str, body: &str) -> (Dir, PathBuf) {
    let dir = std::env::temp_dir().join(format!("janus-fwcfg-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("certs")).unwrap();
    std::fs::write(dir.join("certs/server.pem"), pem_block("CERTIFICATE")).unwrap();
    std::fs::write(dir.join("certs/server.key"), pem_block("PRIVATE KEY")).unwrap();
    std::fs::write(dir.join("certs/ca.pem"), pem_block("CERTIFICATE")).unwrap();
    let text = format!(
        "[management]\nlisten = \"192.0.2.1:9559\"\n\n[certificates]\nserver_cert = \"certs/server.pem\"\nserver_key = \"certs/server.key\"\nclient_ca = \"certs/ca.pem\"\n\n{body}"
    );
    let path = dir.join("fw.toml");
    std::fs::write(&path, text).unwrap();
    (Dir(dir), path)
}

const TWO_TENANTS: &str = r#"
[[tenants]]
id = 2
vni = 5002
vfs = [{ port = 2, mac = "02:00:00:00:02:01", ipv4 = "10.0.2.10" }]

[[tenants]]
id = 1
vni = 5001
gateway = { mac = "02:00:00:00:00:fe", ipv4 = "10.0.1.1" }
tunnels = [{ id = 7, vtep = "192.0.2.20", underlay_mac = "02:aa:00:00:00:01", uplink = 0 }]
remotes = [{ prefix = "10.0.9.0/24", tunnel = 7, next_mac = "02:00:00:00:09:01" }]

[[tenants.vfs]]
port = 3
mac = "02:00:00:00:01:02"
ipv4 = "10.0.1.11"

[[tenants.vfs]]
port = 1
mac = "02:00:00:00:01:01"
ipv4 = "10.0.1.10"
"#;

#[test]
fn loads_normalises_and_round_trips() {
    let (_dir, path) = setup("ok", TWO_TENANTS);
    let config = FirmwareConfig::load(&path).unwrap();
    assert_eq!(config.management.to_string(), "192.0.2.1:9559");
    let ids: Vec<u32> = config.tenants.iter().map(|t| t.id).collect();
    assert_eq!(ids, [1, 2]);
    let ports: Vec<u32> = config.tenants[0].vfs.iter().map(|v| v.port).collect();
    assert_eq!(ports, [1, 3]);
    assert_eq!(
        config.tenants[0].gateway.as_ref().unwrap().ipv6,
        std::net::Ipv6Addr::UNSPECIFIED
    );
    assert!(config.certificates.server_key.contains("PRIVATE KEY"));
    let payload = config.to_payload();
    assert_eq!(FirmwareConfig::from_payload(&payload).unwrap(), config);
    let text = String::from_utf8(payload).unwrap();
    assert!(
        text.starts_with(r#"{"format":1,"management":"192.0.2.1:9559","tenants":[{"id":1"#),
        "{text}"
    );
}

#[test]
fn layout_and_order_do_not_change_the_payload() {
    let (_a, first) = setup("order-a", TWO_TENANTS);
    // Same data, tenants in the other order, comments and spacing.
    let reordered = r#"
# tenant one first this time
[[tenants]]
id = 1
vni = 5001
gateway = { ipv4 = "10.0.1.1", mac = "02:00:00:00:00:FE", ipv6 = "::" }
vfs = [
  { port = 1, mac = "02:00:00:00:01:01", ipv4 = "10.0.1.10" },
  { port = 3, mac = "02:00:00:00:01:02", ipv4 = "10.0.1.11" },
]
tunnels = [{ id = 7, vtep = "192.0.2.20", underlay_mac = "02:aa:00:00:00:01", uplink = 0 }]
remotes = [{ prefix = "10.0.9.0/24", tunnel = 7, next_mac = "02:00:00:00:09:01" }]

[[tenants]]
id = 2
vni = 5002
vfs = [{ port = 2, mac = "02:00:00:00:02:01", ipv4 = "10.0.2.10" }]
"#;
    let (_b, second) = setup("order-b", reordered);
    assert_eq!(
        FirmwareConfig::load(&first).unwrap().to_payload(),
        FirmwareConfig::load(&second).unwrap().to_payload()
    );
}

fn error_of(tag: &str, body: &str) -> String {
    let (_dir, path) = setup(tag, body);
    FirmwareConfig::load(&path).unwrap_err().to_string()
}

#[test]
fn mistakes_are_named() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "dup-id",
            "[[tenants]]\nid = 1\nvni = 1\n[[tenants]]\nid = 1\nvni = 2\n",
            "tenant 1: the id is given twice",
        ),
        (
            "zero-id",
            "[[tenants]]\nid = 0\nvni = 1\n",
            "id must be 1 to 65535",
        ),
        (
            "vni",
            "[[tenants]]\nid = 1\nvni = 16777216\n",
            "does not fit in 24 bits",
        ),
        (
            "dup-vni",
            "[[tenants]]\nid = 1\nvni = 9\n[[tenants]]\nid = 2\nvni = 9\n",
            "VNI 9 is already another tenant's",
        ),
        (
            "port",
            "[[tenants]]\nid = 1\nvni = 1\nvfs = [{ port = 512, mac = \"02:00:00:00:00:01\", ipv4 = \"10.0.0.1\" }]\n",
            "VF port 512 is above 511",
        ),
        (
            "dup-port",
            "[[tenants]]\nid = 1\nvni = 1\nvfs = [{ port = 4, mac = \"02:00:00:00:00:01\", ipv4 = \"10.0.0.1\" }]\n[[tenants]]\nid = 2\nvni = 2\nvfs = [{ port = 4, mac = \"02:00:00:00:00:02\", ipv4 = \"10.0.0.2\" }]\n",
            "VF port 4 is given twice",
        ),
        (
            "mac",
            "[[tenants]]\nid = 1\nvni = 1\nvfs = [{ port = 4, mac = \"02:00:00:00:01\", ipv4 = \"10.0.0.1\" }]\n",
            "is not a MAC address",
        ),
        (
            "mcast",
            "[[tenants]]\nid = 1\nvni = 1\nvfs = [{ port = 4, mac = \"01:00:00:00:00:01\", ipv4 = \"10.0.0.1\" }]\n",
            "multicast",
        ),
        (
            "ip",
            "[[tenants]]\nid = 1\nvni = 1\nvfs = [{ port = 4, mac = \"02:00:00:00:00:01\", ipv4 = \"10.0.0.300\" }]\n",
            "invalid IPv4",
        ),
        (
            "prefix",
            "[[tenants]]\nid = 1\nvni = 1\ntunnels = [{ id = 1, vtep = \"192.0.2.2\", underlay_mac = \"02:00:00:00:00:01\", uplink = 0 }]\nremotes = [{ prefix = \"10.0.9.1/24\", tunnel = 1, next_mac = \"02:00:00:00:00:01\" }]\n",
            "host bits set",
        ),
        (
            "tunnel",
            "[[tenants]]\nid = 1\nvni = 1\nremotes = [{ prefix = \"10.0.9.0/24\", tunnel = 3, next_mac = \"02:00:00:00:00:01\" }]\n",
            "goes through tunnel 3, which the tenant does not have",
        ),
        (
            "unknown",
            "[[tenants]]\nid = 1\nvni = 1\ncolour = \"blue\"\n",
            "unknown field `colour`",
        ),
    ];
    for (tag, body, expected) in cases {
        let message = error_of(tag, body);
        assert!(message.contains(expected), "{tag}: {message}");
    }
}

#[test]
fn management_and_certificates_are_checked() {
    let (dir, path) = setup("mgmt", "");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("192.0.2.1:9559", "192.0.2.1")).unwrap();
    let message = FirmwareConfig::load(&path).unwrap_err().to_string();
    assert!(message.contains("socket address"), "{message}");

    std::fs::write(&path, format!("format = 2\n{text}")).unwrap();
    let message = FirmwareConfig::load(&path).unwrap_err().to_string();
    assert!(
        message.contains("reads configuration format 1"),
        "{message}"
    );

    std::fs::write(&path, text.replace(":9559", ":0")).unwrap();
    let message = FirmwareConfig::load(&path).unwrap_err().to_string();
    assert!(message.contains("port other than 0"), "{message}");

    std::fs::write(&path, &text).unwrap();
    std::fs::write(dir.0.join("certs/server.key"), pem_block("CERTIFICATE")).unwrap();
    let message = FirmwareConfig::load(&path).unwrap_err().to_string();
    assert!(
        message.contains("certificates.server_key") && message.contains("expected PRIVATE KEY"),
        "{message}"
    );
    std::fs::write(dir.0.join("certs/server.key"), "not pem").unwrap();
    let message = FirmwareConfig::load(&path).unwrap_err().to_string();
    assert!(message.contains("no PEM block"), "{message}");
    std::fs::write(dir.0.join("certs/server.key"), pem_block("EC PRIVATE KEY")).unwrap();
    FirmwareConfig::load(&path).unwrap();
    std::fs::remove_file(dir.0.join("certs/ca.pem")).unwrap();
    let message = FirmwareConfig::load(&path).unwrap_err().to_string();
    assert!(message.contains("certificates.client_ca"), "{message}");
}

#[test]
fn bad_payloads_are_refused() {
    assert!(FirmwareConfig::from_payload(b"not json").is_err());
    assert!(FirmwareConfig::from_payload(b"{}").is_err());
}
