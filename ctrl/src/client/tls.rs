//! The client side of mTLS: the CA the server's certificate chains to and
//! the client's own certificate and key, from PEM files or bytes.

use super::Error;
use std::path::Path;
use tonic::transport::{Certificate, ClientTlsConfig, Identity};

/// TLS settings of a client (PEM).
#[derive(Clone, Debug)]
pub struct ClientTls {
    /// The CA certificate(s) the server's certificate chains to.
    pub ca: Vec<u8>,
    /// The client's certificate and private key. Its common name is who
    /// the client is to a Janus server (`operator`, `tenant:<id>`); a Janus
    /// server with client authentication refuses clients without one.
    pub identity: Option<ClientIdentity>,
    /// The name the server's certificate must carry (None: the host of the
    /// server address).
    pub domain: Option<String>,
}

/// A client certificate and its private key (PEM).
#[derive(Clone, Debug)]
pub struct ClientIdentity {
    pub cert: Vec<u8>,
    pub key: Vec<u8>,
}

impl ClientTls {
    /// mTLS credentials from PEM bytes.
    pub fn from_pem(
        ca: impl Into<Vec<u8>>,
        cert: impl Into<Vec<u8>>,
        key: impl Into<Vec<u8>>,
    ) -> ClientTls {
        ClientTls {
            ca: ca.into(),
            identity: Some(ClientIdentity {
                cert: cert.into(),
                key: key.into(),
            }),
            domain: None,
        }
    }

    /// mTLS credentials read from PEM files.
    pub fn from_files(ca: &Path, cert: &Path, key: &Path) -> Result<ClientTls, Error> {
        let read =
            |p: &Path| std::fs::read(p).map_err(|e| Error::Usage(format!("{}: {e}", p.display())));
        Ok(ClientTls::from_pem(read(ca)?, read(cert)?, read(key)?))
    }

    /// The same, checking the server's certificate for `domain` rather than
    /// the host of the server address.
    pub fn with_domain(self, domain: impl Into<String>) -> ClientTls {
        ClientTls {
            domain: Some(domain.into()),
            ..self
        }
    }

    /// tonic's TLS configuration.
    pub(super) fn config(&self) -> ClientTlsConfig {
        let mut config = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(&self.ca));
        if let Some(id) = &self.identity {
            config = config.identity(Identity::from_pem(&id.cert, &id.key));
        }
        match &self.domain {
            Some(d) => config.domain_name(d.clone()),
            None => config,
        }
    }
}
