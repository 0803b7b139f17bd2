//! Images built the way `janus image build` builds them: p4/sdn.p4, a
//! configuration with placeholder certificates, a fresh signing key.

use super::TempDir;
use ed25519_dalek::SigningKey;
use janus_firmware::card::{Card, CardConfig, CardOptions, CardSpec, Geometry};
use janus_firmware::tools::build::{BuildSpec, build_image};
use std::path::PathBuf;

/// The device model of the test cards and images.
pub const MODEL: &str = "janus-test";

/// 4 KiB sectors, 2 record sectors and two 128 KiB slots: room for an
/// sdn.p4 image (about 70 KB).
pub const CARD_GEOMETRY: Geometry = Geometry {
    sector_size: 4096,
    sector_count: 66,
};

fn pem_block(label: &str) -> String {
    format!("-----BEGIN {label}-----\nAAECAwQFBgcICQ==\n-----END {label}-----\n")
}

/// A folder with a signing key (`janus.key`, `janus.pub`), placeholder
/// certificates and configuration files.
pub struct Workshop {
    pub dir: TempDir,
    pub key: SigningKey,
}

impl Workshop {
    pub fn new(tag: &str) -> Workshop {
        let dir = TempDir::new(tag);
        std::fs::create_dir_all(&dir.0).unwrap();
        let key = janus_firmware::keys::generate().unwrap();
        janus_firmware::keys::write_key_pair(&dir.0, "janus", &key).unwrap();
        std::fs::write(dir.0.join("server.pem"), pem_block("CERTIFICATE")).unwrap();
        std::fs::write(dir.0.join("server.key"), pem_block("PRIVATE KEY")).unwrap();
        std::fs::write(dir.0.join("ca.pem"), pem_block("CERTIFICATE")).unwrap();
        Workshop { dir, key }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.0.join(name)
    }

    /// A configuration whose management port is `port` (so images differ).
    fn config(&self, port: u16) -> PathBuf {
        let path = self.path(&format!("fw-{port}.toml"));
        let text = format!(
            "[management]\nlisten = \"127.0.0.1:{port}\"\n\n[certificates]\nserver_cert = \"server.pem\"\nserver_key = \"server.key\"\nclient_ca = \"ca.pem\"\n\n[[tenants]]\nid = 1\nvni = 5001\nvfs = [{{ port = 1, mac = \"02:00:00:00:01:01\", ipv4 = \"10.0.1.10\" }}]\n"
        );
        std::fs::write(&path, text).unwrap();
        path
    }

    /// An image for `model` at `security_version` signed with `key`
    /// (PKCS#8 file name in the workshop), written to `name`.
    pub fn build_with(&self, name: &str, key: &str, model: &str, security_version: u32) -> PathBuf {
        let spec = BuildSpec {
            p4: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../p4/sdn.p4")),
            include_dirs: Vec::new(),
            defines: Vec::new(),
            config: self.config(9000 + security_version as u16),
            key: self.path(key),
            model: model.to_string(),
            security_version,
            build_time: 1_760_000_000,
        };
        let built = build_image(&spec).unwrap();
        let path = self.path(name);
        std::fs::write(&path, &built.bytes).unwrap();
        path
    }

    /// An image for [`MODEL`] signed with the workshop's key.
    pub fn build(&self, name: &str, security_version: u32) -> PathBuf {
        self.build_with(name, "janus.key", MODEL, security_version)
    }

    /// A new card provisioned with the workshop's key.
    pub fn card(&self, tag: &str) -> TempDir {
        let dir = TempDir::new(tag);
        let spec = CardSpec {
            config: CardConfig {
                model: MODEL.to_string(),
                geometry: CARD_GEOMETRY,
            },
            root_public_key: Some(self.key.verifying_key()),
        };
        Card::create(&dir.0, &spec, CardOptions::default()).unwrap();
        dir
    }
}
