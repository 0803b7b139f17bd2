//! Who a client is: the identity in its TLS client certificate.
//!
//! Under mTLS ([`TlsConfig`]) rustls accepts only connections whose client
//! certificate chains to the configured client CA; the leaf certificate's
//! subject common name then names the client:
//!
//! | common name | [`Identity`] | may |
//! |---|---|---|
//! | `operator` | [`Identity::Operator`] | everything |
//! | `tenant:<id>` (canonical decimal: digits only, no sign, spaces or leading zeros) | [`Identity::Tenant`] | its own role `tenant:<id>` only |
//! | anything else | — | nothing (PERMISSION_DENIED) |
//!
//! Without TLS (`--insecure`, local development) every client is the
//! operator.
//!
//! ```
//! use janus_ctrl::auth::Identity;
//! assert_eq!(Identity::from_common_name("tenant:7"), Some(Identity::Tenant(7)));
//! assert_eq!(Identity::from_common_name("operator"), Some(Identity::Operator));
//! assert_eq!(Identity::from_common_name("tenant:x"), None);
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

/// What a client is allowed to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity {
    /// The cloud operator: every RPC, every role.
    Operator,
    /// A tenant: only its own role, `tenant:<id>`.
    Tenant(u64),
}

impl Identity {
    /// The identity a certificate's common name stands for.
    pub fn from_common_name(cn: &str) -> Option<Identity> {
        if cn == "operator" {
            return Some(Identity::Operator);
        }
        let id = cn.strip_prefix("tenant:")?;
        // Canonical decimal only: one spelling per tenant, so no two
        // certificate names share a tenant's role and election ids.
        let canonical = !id.is_empty()
            && id.bytes().all(|b| b.is_ascii_digit())
            && (id == "0" || !id.starts_with('0'));
        if !canonical {
            return None;
        }
        id.parse().ok().map(Identity::Tenant)
    }

    /// The identity of the client that sent `request`: the operator on a
    /// plaintext server, else the one its certificate names.
    pub fn of_request<T>(request: &tonic::Request<T>) -> Result<Identity, tonic::Status> {
        let Some(certs) = request.peer_certs() else {
            // No TLS session on this connection: the plaintext server.
            return Ok(Identity::Operator);
        };
        let leaf = certs
            .first()
            .ok_or_else(|| tonic::Status::unauthenticated("no client certificate"))?;
        let cn = common_name(leaf.as_ref()).ok_or_else(|| {
            tonic::Status::permission_denied("the client certificate has no subject common name")
        })?;
        Identity::from_common_name(&cn).ok_or_else(|| {
            tonic::Status::permission_denied(format!(
                "certificate identity {cn:?} is neither \"operator\" nor \"tenant:<id>\""
            ))
        })
    }

    /// The only role a tenant may use; `None` for the operator (any role).
    pub fn own_role(&self) -> Option<String> {
        match self {
            Identity::Operator => None,
            Identity::Tenant(id) => Some(tenant_role(*id)),
        }
    }
}

impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Identity::Operator => f.write_str("operator"),
            Identity::Tenant(id) => write!(f, "tenant:{id}"),
        }
    }
}

/// The name of tenant `id`'s role.
pub fn tenant_role(id: u64) -> String {
    format!("tenant:{id}")
}

/// The tenant a role name belongs to (`tenant:<id>`), if any.
pub fn role_tenant(role: &str) -> Option<u64> {
    match Identity::from_common_name(role) {
        Some(Identity::Tenant(id)) => Some(id),
        _ => None,
    }
}

/// The server side of mTLS: its certificate chain and key, and the CA that
/// client certificates must chain to (PEM).
#[derive(Clone)]
pub struct TlsConfig {
    pub cert_pem: Vec<u8>,
    pub key_pem: Vec<u8>,
    pub client_ca_pem: Vec<u8>,
}

/// A TLS file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("{path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: no PEM {what} in the file")]
    NotPem { path: PathBuf, what: &'static str },
}

impl TlsConfig {
    /// Reads the three PEM files, checking that each holds what it should.
    pub fn from_files(cert: &Path, key: &Path, client_ca: &Path) -> Result<TlsConfig, TlsError> {
        let read = |path: &Path, marker: &str, what: &'static str| {
            let bytes = std::fs::read(path).map_err(|source| TlsError::Read {
                path: path.to_path_buf(),
                source,
            })?;
            let text = String::from_utf8_lossy(&bytes);
            if !text.contains("-----BEGIN ") || !text.contains(marker) {
                return Err(TlsError::NotPem {
                    path: path.to_path_buf(),
                    what,
                });
            }
            Ok(bytes)
        };
        Ok(TlsConfig {
            cert_pem: read(cert, "CERTIFICATE-----", "certificate")?,
            key_pem: read(key, "PRIVATE KEY-----", "private key")?,
            client_ca_pem: read(client_ca, "CERTIFICATE-----", "CA certificate")?,
        })
    }

    /// The tonic server configuration: this identity, client certificates
    /// required and checked against the client CA.
    pub fn server_config(&self) -> tonic::transport::ServerTlsConfig {
        tonic::transport::ServerTlsConfig::new()
            .identity(tonic::transport::Identity::from_pem(
                &self.cert_pem,
                &self.key_pem,
            ))
            .client_ca_root(tonic::transport::Certificate::from_pem(&self.client_ca_pem))
            .client_auth_optional(false)
    }
}

/// The subject common name of a DER-encoded X.509 certificate (the first
/// one when there are several), or `None` when the certificate has none or
/// cannot be read. Never panics, whatever the bytes.
pub fn common_name(cert_der: &[u8]) -> Option<String> {
    let (cert, _) = der::expect(cert_der, der::SEQUENCE)?;
    let (tbs, _) = der::expect(cert, der::SEQUENCE)?;
    let mut rest = tbs;
    // [0] EXPLICIT version, when present.
    if rest.first() == Some(&der::VERSION) {
        rest = der::next(rest)?.2;
    }
    // serialNumber, signature, issuer, validity, then subject.
    for _ in 0..4 {
        rest = der::next(rest)?.2;
    }
    let (subject, _) = der::expect(rest, der::SEQUENCE)?;
    let mut rdns = subject;
    while !rdns.is_empty() {
        let (set, after) = der::expect(rdns, der::SET)?;
        rdns = after;
        let mut attrs = set;
        while !attrs.is_empty() {
            let (attr, after) = der::expect(attrs, der::SEQUENCE)?;
            attrs = after;
            let (oid, value) = der::expect(attr, der::OID)?;
            if oid != der::COMMON_NAME {
                continue;
            }
            let (tag, text, _) = der::next(value)?;
            if ![der::UTF8_STRING, der::PRINTABLE_STRING, der::IA5_STRING].contains(&tag) {
                return None;
            }
            return std::str::from_utf8(text).ok().map(str::to_owned);
        }
    }
    None
}

/// Just enough DER to walk to a certificate's subject.
mod der {
    pub const SEQUENCE: u8 = 0x30;
    pub const SET: u8 = 0x31;
    pub const OID: u8 = 0x06;
    pub const VERSION: u8 = 0xa0;
    pub const UTF8_STRING: u8 = 0x0c;
    pub const PRINTABLE_STRING: u8 = 0x13;
    pub const IA5_STRING: u8 = 0x16;
    /// 2.5.4.3, id-at-commonName.
    pub const COMMON_NAME: &[u8] = &[0x55, 0x04, 0x03];

    /// The first element of `input`: (tag, contents, what follows).
    pub fn next(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
        let (&tag, rest) = input.split_first()?;
        let (&first, rest) = rest.split_first()?;
        let (len, rest) = if first < 0x80 {
            (usize::from(first), rest)
        } else {
            let n = usize::from(first & 0x7f);
            if n == 0 || n > 4 || rest.len() < n {
                return None;
            }
            let len = rest[..n]
                .iter()
                .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
            (len, &rest[n..])
        };
        if rest.len() < len {
            return None;
        }
        let (contents, after) = rest.split_at(len);
        Some((tag, contents, after))
    }

    /// The first element's contents and what follows, when its tag is `tag`.
    pub fn expect(input: &[u8], tag: u8) -> Option<(&[u8], &[u8])> {
        let (t, contents, after) = next(input)?;
        (t == tag).then_some((contents, after))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_from_common_names() {
        assert_eq!(
            Identity::from_common_name("tenant:42"),
            Some(Identity::Tenant(42))
        );
        for bad in [
            "",
            "Operator",
            "tenant:",
            "tenant:-1",
            "tenant:+3",
            "tenant: 3",
            "tenant:3 ",
            "tenant:99999999999999999999999",
            "tenant:01",
            "tenant:00",
            "tenant:007",
            "tenant:\u{661}",
            "admin",
        ] {
            assert_eq!(Identity::from_common_name(bad), None, "{bad:?}");
        }
        assert_eq!(
            Identity::from_common_name("tenant:0"),
            Some(Identity::Tenant(0))
        );
        assert_eq!(
            Identity::from_common_name("tenant:10"),
            Some(Identity::Tenant(10))
        );
        assert_eq!(role_tenant("tenant:5"), Some(5));
        assert_eq!(role_tenant("tenant:05"), None);
        assert_eq!(role_tenant("operator"), None);
        assert_eq!(Identity::Tenant(5).own_role().as_deref(), Some("tenant:5"));
    }

    proptest::proptest! {
        /// Whatever the bytes, reading a common name returns (no panic, no
        /// read out of bounds); a certificate cut short names no one.
        #[test]
        fn common_name_never_panics(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
            let _ = common_name(&bytes);
        }

        #[test]
        fn truncated_certificates_name_no_one(cut in 0usize..200) {
            static DER: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
            let der = DER.get_or_init(|| {
                let bundle = crate::certs::generate(&crate::certs::CertsConfig {
                    server_names: vec![],
                    clients: vec!["tenant:9".into()],
                })
                .unwrap();
                crate::certs::tests::pem_body(&bundle.clients[0].1.cert_pem)
            });
            let name = common_name(der);
            proptest::prop_assert_eq!(name.as_deref(), Some("tenant:9"));
            let cut = cut.min(der.len() - 1);
            proptest::prop_assert_eq!(common_name(&der[..cut]), None);
        }
    }

    #[test]
    fn truncated_or_garbage_der_gives_no_name() {
        assert_eq!(common_name(&[]), None);
        assert_eq!(common_name(&[0x30, 0x84, 0xff, 0xff, 0xff, 0xff]), None);
        assert_eq!(common_name(&[0x30, 0x03, 0x30, 0x01]), None);
        assert_eq!(common_name(&[0x30, 0x80]), None);
    }
}
