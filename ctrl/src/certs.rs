//! Development certificates for mTLS: a CA, the server's certificate and
//! client certificates for the operator and tenants
//! (`janus ctrl certs --out DIR`).
//!
//! Every key is a fresh ECDSA P-256 key; the client certificates carry the
//! identity in their subject common name (`operator`, `tenant:<id>`, see
//! [`crate::auth`]). For a lab or CI, not for production: a real deployment
//! issues these from its own PKI.
//!
//! ```
//! let bundle = janus_ctrl::certs::generate(&janus_ctrl::certs::CertsConfig {
//!     server_names: vec!["localhost".into(), "127.0.0.1".into()],
//!     clients: vec!["operator".into(), "tenant:7".into()],
//! })
//! .unwrap();
//! assert_eq!(bundle.clients.len(), 2);
//! assert!(bundle.ca_pem.starts_with("-----BEGIN CERTIFICATE-----"));
//! ```

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
    KeyUsagePurpose, SanType,
};
use std::net::IpAddr;
use std::path::Path;

/// What to generate.
#[derive(Clone, Debug)]
pub struct CertsConfig {
    /// Host names and IP addresses the server certificate is valid for.
    pub server_names: Vec<String>,
    /// The common names of the client certificates to make.
    pub clients: Vec<String>,
}

/// A certificate and its private key, PEM.
#[derive(Clone, Debug)]
pub struct CertAndKey {
    pub cert_pem: String,
    pub key_pem: String,
}

/// A CA and the certificates it signed.
#[derive(Clone, Debug)]
pub struct Bundle {
    pub ca_pem: String,
    pub server: CertAndKey,
    /// (common name, certificate) per client, in the order asked.
    pub clients: Vec<(String, CertAndKey)>,
}

#[derive(Debug, thiserror::Error)]
pub enum CertsError {
    #[error("cannot make a certificate: {0}")]
    Generate(#[from] rcgen::Error),
    #[error("{path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
}

/// Makes a CA, a server certificate and the client certificates.
pub fn generate(config: &CertsConfig) -> Result<Bundle, CertsError> {
    let ca_key = KeyPair::generate()?;
    let mut ca = CertificateParams::new(Vec::<String>::new())?;
    ca.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    ca.distinguished_name
        .push(DnType::CommonName, "Janus development CA");
    ca.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca = ca.self_signed(&ca_key)?;

    let leaf = |cn: &str, sans: &[String], usage: ExtendedKeyUsagePurpose| {
        let key = KeyPair::generate()?;
        let mut p = CertificateParams::new(Vec::<String>::new())?;
        p.subject_alt_names = sans
            .iter()
            .map(|name| match name.parse::<IpAddr>() {
                Ok(ip) => Ok(SanType::IpAddress(ip)),
                Err(_) => Ok(SanType::DnsName(name.clone().try_into()?)),
            })
            .collect::<Result<_, rcgen::Error>>()?;
        p.distinguished_name.push(DnType::CommonName, cn);
        p.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        p.extended_key_usages = vec![usage];
        let cert = p.signed_by(&key, &ca, &ca_key)?;
        Ok::<_, CertsError>(CertAndKey {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
        })
    };
    let server_cn = config
        .server_names
        .first()
        .map_or("janus-ctrl", String::as_str);
    let server = leaf(
        server_cn,
        &config.server_names,
        ExtendedKeyUsagePurpose::ServerAuth,
    )?;
    let clients = config
        .clients
        .iter()
        .map(|cn| {
            Ok((
                cn.clone(),
                leaf(cn, &[], ExtendedKeyUsagePurpose::ClientAuth)?,
            ))
        })
        .collect::<Result<_, CertsError>>()?;
    Ok(Bundle {
        ca_pem: ca.pem(),
        server,
        clients,
    })
}

impl Bundle {
    /// Writes `ca.pem`, `server.pem`, `server.key` and `<name>.pem`,
    /// `<name>.key` per client (`tenant:7` becomes `tenant-7`) into `dir`
    /// (created if missing); keys are readable by the owner only. Returns
    /// the paths written.
    pub fn write_to(&self, dir: &Path) -> Result<Vec<std::path::PathBuf>, CertsError> {
        let err = |path: &Path| {
            let path = path.display().to_string();
            move |source| CertsError::Write { path, source }
        };
        std::fs::create_dir_all(dir).map_err(err(dir))?;
        let mut files = vec![("ca.pem".to_string(), self.ca_pem.as_str(), false)];
        files.push(("server.pem".into(), &self.server.cert_pem, false));
        files.push(("server.key".into(), &self.server.key_pem, true));
        for (cn, ck) in &self.clients {
            let stem = file_stem(cn);
            files.push((format!("{stem}.pem"), &ck.cert_pem, false));
            files.push((format!("{stem}.key"), &ck.key_pem, true));
        }
        let mut written = Vec::new();
        for (name, text, secret) in files {
            let path = dir.join(name);
            write_file(&path, text.as_bytes(), secret).map_err(err(&path))?;
            written.push(path);
        }
        Ok(written)
    }
}

/// The file name stem of a client's certificate: its common name with
/// `:` and `/` turned into `-`.
pub fn file_stem(common_name: &str) -> String {
    common_name.replace([':', '/'], "-")
}

fn write_file(path: &Path, bytes: &[u8], secret: bool) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    if secret {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = secret;
    options.open(path)?.write_all(bytes)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn client_certificates_carry_their_identity() {
        let b = generate(&CertsConfig {
            server_names: vec!["localhost".into()],
            clients: vec!["tenant:3".into()],
        })
        .unwrap();
        let pem = &b.clients[0].1.cert_pem;
        let der = pem_body(pem);
        assert_eq!(crate::auth::common_name(&der).as_deref(), Some("tenant:3"));
        assert_eq!(file_stem("tenant:3"), "tenant-3");
    }

    /// The DER inside a one-certificate PEM.
    pub(crate) fn pem_body(pem: &str) -> Vec<u8> {
        let b64: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        base64_decode(&b64)
    }

    fn base64_decode(s: &str) -> Vec<u8> {
        let value = |c: u8| match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            _ => 63,
        };
        let digits: Vec<u8> = s.bytes().filter(|&c| c != b'=').map(value).collect();
        digits
            .chunks(4)
            .flat_map(|c| {
                let n = c
                    .iter()
                    .enumerate()
                    .fold(0u32, |acc, (i, &d)| acc | u32::from(d) << (18 - 6 * i));
                let bytes = n.to_be_bytes();
                bytes[1..c.len()].to_vec()
            })
            .collect()
    }
}
