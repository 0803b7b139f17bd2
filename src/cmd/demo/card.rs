//! The demo's simulated card: its configuration, a signed image of the
//! program, booted with measured boot.

use super::*;

/// A folder for the demo's card, removed when dropped.
pub(super) struct CardDir(pub(super) PathBuf);

impl Drop for CardDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The firmware configuration of a card serving [`tenant_specs`].
pub(super) fn card_config(certs: &Path) -> String {
    let mac = janus_ctrl::client::tenant::mac_text;
    let mut text = format!(
        "[management]\nlisten = \"127.0.0.1:9559\"\n\n[certificates]\nserver_cert = {:?}\nserver_key = {:?}\nclient_ca = {:?}\n",
        certs.join("server.pem"),
        certs.join("server.key"),
        certs.join("ca.pem")
    );
    for t in tenant_specs() {
        text.push_str(&format!("\n[[tenants]]\nid = {}\nvni = {}\n", t.id, t.vni));
        if let Some(g) = &t.gateway {
            text.push_str(&format!(
                "gateway = {{ mac = \"{}\", ipv4 = \"{}\", ipv6 = \"{}\" }}\n",
                mac(&g.mac),
                g.ipv4,
                g.ipv6
            ));
        }
        let vfs: Vec<String> = t
            .vfs
            .iter()
            .map(|v| {
                format!(
                    "{{ port = {}, mac = \"{}\", ipv4 = \"{}\" }}",
                    v.port,
                    mac(&v.mac),
                    v.ipv4
                )
            })
            .collect();
        let tunnels: Vec<String> = t
            .tunnels
            .iter()
            .map(|x| {
                format!(
                    "{{ id = {}, vtep = \"{}\", underlay_mac = \"{}\", uplink = {} }}",
                    x.id,
                    x.remote_vtep,
                    mac(&x.underlay_mac),
                    x.uplink
                )
            })
            .collect();
        let remotes: Vec<String> = t
            .remotes
            .iter()
            .map(|r| {
                format!(
                    "{{ prefix = \"{}/{}\", tunnel = {}, next_mac = \"{}\" }}",
                    r.prefix,
                    r.len,
                    r.tunnel,
                    mac(&r.next_mac)
                )
            })
            .collect();
        text.push_str(&format!(
            "vfs = [{}]\ntunnels = [{}]\nremotes = [{}]\n",
            vfs.join(", "),
            tunnels.join(", "),
            remotes.join(", ")
        ));
    }
    text
}

/// The card (docs/firmware.md): in a temporary folder, a signing key,
/// control-plane certificates, a configuration with the demo's tenants, a
/// signed image of p4/sdn.p4, a simulated card flashed with it and booted
/// by the firmware library (the boot ROM verifies and measures). Prints
/// the measured-boot summary; the booted image's pipeline, checked against
/// the one compiled above, is what the demo runs.
pub(super) fn boot_card(
    root: &Path,
    compiled: &p4::ForwardingPipelineConfig,
) -> Result<p4::ForwardingPipelineConfig, String> {
    use janus_firmware::card::{Card, CardConfig, CardOptions, CardSpec, DEFAULT_MODEL, Geometry};
    use janus_firmware::tools::build::{BuildSpec, build_image, build_time};
    use janus_firmware::tools::card_ops::{boot_card, flash_card};
    use janus_firmware_core::image::ComponentType;
    let fail = |what: &str| {
        let what = what.to_string();
        move |e: String| format!("the demo's card: {what}: {e}")
    };
    let work =
        CardDir(std::env::temp_dir().join(format!("janus-demo-card-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&work.0);
    let dir = work.0.as_path();
    std::fs::create_dir_all(dir).map_err(|e| fail("folder")(e.to_string()))?;
    let key = janus_firmware::keys::generate().map_err(|e| fail("keys")(e.to_string()))?;
    janus_firmware::keys::write_key_pair(dir, "janus", &key)
        .map_err(|e| fail("keys")(e.to_string()))?;
    let certs = janus_ctrl::certs::CertsConfig {
        server_names: vec!["127.0.0.1".into()],
        clients: vec!["operator".into()],
    };
    janus_ctrl::certs::generate(&certs)
        .and_then(|b| b.write_to(&dir.join("certs")))
        .map_err(|e| fail("certificates")(e.to_string()))?;
    let config = dir.join("fw.toml");
    std::fs::write(&config, card_config(&dir.join("certs")))
        .map_err(|e| fail("configuration")(e.to_string()))?;
    let built = build_image(&BuildSpec {
        p4: root.join(PROGRAM_PATH),
        include_dirs: Vec::new(),
        defines: Vec::new(),
        config,
        key: dir.join("janus.key"),
        model: DEFAULT_MODEL.into(),
        security_version: 1,
        build_time: build_time().map_err(|e| fail("image")(e.to_string()))?,
    })
    .map_err(|e| fail("image")(e.to_string()))?;
    let card = dir.join("card");
    let spec = CardSpec {
        config: CardConfig {
            model: DEFAULT_MODEL.into(),
            geometry: Geometry {
                sector_size: 4096,
                sector_count: 256,
            },
        },
        root_public_key: Some(key.verifying_key()),
    };
    Card::create(&card, &spec, CardOptions::default())
        .map_err(|e| fail("create")(e.to_string()))?;
    let flashed = flash_card(&card, &built.bytes, Default::default())
        .map_err(|e| fail("flash")(e.to_string()))?;
    say_hanging(
        "  ",
        "      ",
        &format!(
            "the card: a signed image of {PROGRAM_PATH} ({} bytes, the tenants below in its              configuration) flashed into slot {} of a simulated card, then booted:",
            built.bytes.len(),
            flashed.report.slot
        ),
    );
    let report =
        boot_card(&card, Default::default(), None).map_err(|e| fail("boot")(e.to_string()))?;
    crate::cmd::nic::print_boot_summary(&report);
    let view = report.outcome.image.view();
    let payload = view
        .component(ComponentType::Pipeline)
        .ok_or_else(|| fail("boot")("the booted image has no pipeline".into()))?
        .payload;
    let booted = janus_firmware::runtime::boot::pipeline(payload)
        .map_err(|e| fail("pipeline")(e.to_string()))?
        .config;
    if booted.p4info != compiled.p4info {
        return Err(fail("pipeline")(format!(
            "the booted image's P4Info differs from {PROGRAM_PATH}'s"
        )));
    }
    Ok(booted)
}
