//! The configuration's parts: tenants (the data `janus ctrl tenant add`
//! takes), MAC addresses and prefixes as text, and the certificates.

use ed25519_dalek::pkcs8::spki::der::pem;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::net::{Ipv4Addr, Ipv6Addr};
use std::path::Path;

/// A MAC address, written `02:00:00:00:01:0a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Mac(pub [u8; 6]);

impl std::fmt::Display for Mac {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b, c, d, e, g] = self.0;
        write!(f, "{a:02x}:{b:02x}:{c:02x}:{d:02x}:{e:02x}:{g:02x}")
    }
}

impl std::str::FromStr for Mac {
    type Err = String;
    fn from_str(s: &str) -> Result<Mac, String> {
        let bad = || format!("`{s}` is not a MAC address (six hex bytes separated by `:`)");
        let mut out = [0u8; 6];
        let mut parts = s.split(':');
        for byte in &mut out {
            let part = parts.next().ok_or_else(bad)?;
            if part.len() != 2 {
                return Err(bad());
            }
            *byte = u8::from_str_radix(part, 16).map_err(|_| bad())?;
        }
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(Mac(out))
    }
}

impl Serialize for Mac {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Mac {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Mac, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// An IPv4 prefix, written `10.0.2.0/24`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefix {
    pub addr: Ipv4Addr,
    pub len: u8,
}

impl std::fmt::Display for Prefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.len)
    }
}

impl std::str::FromStr for Prefix {
    type Err = String;
    fn from_str(s: &str) -> Result<Prefix, String> {
        let bad = || format!("`{s}` is not an IPv4 prefix (A.B.C.D/LEN, LEN at most 32)");
        let (addr, len) = s.split_once('/').ok_or_else(bad)?;
        let addr: Ipv4Addr = addr.parse().map_err(|_| bad())?;
        let len: u8 = len.parse().map_err(|_| bad())?;
        if len > 32 {
            return Err(bad());
        }
        let mask = u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0);
        if u32::from(addr) & !mask != 0 {
            return Err(format!(
                "`{s}` has host bits set (the prefix is not its network address)"
            ));
        }
        Ok(Prefix { addr, len })
    }
}

impl Serialize for Prefix {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Prefix {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Prefix, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A tenant installed at boot (as `janus ctrl tenant add` would).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tenant {
    /// 1 to 65535 (also the tenant's VRF id).
    pub id: u32,
    /// The tenant's VXLAN network identifier, below 2^24.
    pub vni: u32,
    #[serde(default)]
    pub gateway: Option<Gateway>,
    #[serde(default)]
    pub vfs: Vec<Vf>,
    #[serde(default)]
    pub tunnels: Vec<Tunnel>,
    #[serde(default)]
    pub remotes: Vec<Remote>,
}

/// A VF handed to the tenant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vf {
    /// The VF's port, 0 to 511.
    pub port: u32,
    pub mac: Mac,
    pub ipv4: Ipv4Addr,
}

/// The tenant's gateway.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gateway {
    pub mac: Mac,
    pub ipv4: Ipv4Addr,
    /// `::` when left out.
    #[serde(default = "unspecified_v6")]
    pub ipv6: Ipv6Addr,
}

fn unspecified_v6() -> Ipv6Addr {
    Ipv6Addr::UNSPECIFIED
}

/// A VXLAN tunnel to another server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tunnel {
    /// 0 to 65535.
    pub id: u32,
    /// The remote VTEP's address.
    pub vtep: Ipv4Addr,
    pub underlay_mac: Mac,
    /// The uplink port, 0 to 511.
    pub uplink: u32,
}

/// A prefix of the tenant reached through a tunnel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Remote {
    pub prefix: Prefix,
    /// A tunnel id of the same tenant.
    pub tunnel: u32,
    pub next_mac: Mac,
}

/// The control plane's TLS material, PEM text as read from the files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Certificates {
    /// The server's certificate (chain), `CERTIFICATE` blocks.
    pub server_cert: String,
    /// The server's private key (`PRIVATE KEY`, `EC PRIVATE KEY` or
    /// `RSA PRIVATE KEY`). Images are signed, not encrypted: whoever holds
    /// the image holds this key (docs/firmware.md, "Threat model").
    pub server_key: String,
    /// The CA that signs client certificates, `CERTIFICATE` blocks.
    pub client_ca: String,
}

const CERTIFICATE: &[&str] = &["CERTIFICATE"];
const PRIVATE_KEY: &[&str] = &["PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY"];

impl Certificates {
    /// Reads and checks the three PEM files.
    pub(super) fn load(
        server_cert: &Path,
        server_key: &Path,
        client_ca: &Path,
    ) -> Result<Certificates, String> {
        let read = |what: &str, path: &Path, labels: &[&str]| -> Result<String, String> {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("certificates.{what}: {}: {e}", path.display()))?;
            check_pem(&text, labels)
                .map_err(|e| format!("certificates.{what}: {}: {e}", path.display()))?;
            Ok(text)
        };
        Ok(Certificates {
            server_cert: read("server_cert", server_cert, CERTIFICATE)?,
            server_key: read("server_key", server_key, PRIVATE_KEY)?,
            client_ca: read("client_ca", client_ca, CERTIFICATE)?,
        })
    }

    /// Checks that each field is PEM of the expected kind.
    pub(super) fn check(&self) -> Result<(), String> {
        for (what, text, labels) in [
            ("server_cert", &self.server_cert, CERTIFICATE),
            ("server_key", &self.server_key, PRIVATE_KEY),
            ("client_ca", &self.client_ca, CERTIFICATE),
        ] {
            check_pem(text, labels).map_err(|e| format!("certificates.{what}: {e}"))?;
        }
        Ok(())
    }
}

/// Checks that `text` is one or more PEM blocks, each decoding and each
/// labelled with one of `labels` (a key file must hold exactly one).
fn check_pem(text: &str, labels: &[&str]) -> Result<(), String> {
    const BEGIN: &str = "-----BEGIN ";
    let mut rest = text;
    let mut blocks = 0;
    while let Some(start) = rest.find(BEGIN) {
        let block = &rest[start..];
        let label_end = block[BEGIN.len()..]
            .find("-----")
            .ok_or("a PEM header is not terminated")?;
        let label = &block[BEGIN.len()..BEGIN.len() + label_end];
        let end_marker = format!("-----END {label}-----");
        let end = block
            .find(&end_marker)
            .ok_or_else(|| format!("the `{label}` block has no END line"))?
            + end_marker.len();
        pem::decode_vec(&block.as_bytes()[..end])
            .map_err(|e| format!("the `{label}` block does not decode: {e}"))?;
        if !labels.contains(&label) {
            return Err(format!(
                "holds a `{label}` block, expected {}",
                labels.join(" or ")
            ));
        }
        blocks += 1;
        rest = &block[end..];
    }
    match blocks {
        0 => Err(format!("no PEM block (expected {})", labels.join(" or "))),
        n if n > 1 && labels == PRIVATE_KEY => Err(format!("{n} keys in one file, expected one")),
        _ => Ok(()),
    }
}
