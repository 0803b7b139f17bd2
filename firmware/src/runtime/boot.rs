//! Boot to service: the boot ROM boots the card, then the runtime takes
//! the pipeline and the firmware configuration from the image it handed
//! over (verified and measured, in RAM), and confirms the boot once the
//! health check passed.

use super::RuntimeError;
use crate::config::FirmwareConfig;
use crate::tools::card_ops::{self, BootReport};
use janus_ctrl::device::ForwardingPipeline;
use janus_ctrl::proto::p4::v1::ForwardingPipelineConfig;
use janus_firmware_core::boot::{BootConfig, Confirmed};
use janus_firmware_core::image::ComponentType;
use std::path::Path;

/// A booted card, ready to serve.
pub struct BootedFirmware {
    /// What the boot ROM did (slot, trial, fallback, measurements).
    pub report: BootReport,
    /// The image's pipeline, built for the control plane.
    pub pipeline: ForwardingPipeline,
    /// The image's firmware configuration.
    pub config: FirmwareConfig,
}

/// Boots the card in `dir` (unconfirmed: a trial boot uses up one of its
/// attempts until [`confirm`]) and loads what the image carries.
pub fn boot_for_service(dir: &Path, boot: BootConfig) -> Result<BootedFirmware, RuntimeError> {
    let report = card_ops::boot_card(dir, boot, None)?;
    let view = report.outcome.image.view();
    let component = |ty: ComponentType, what: &'static str| {
        view.component(ty)
            .map(|c| c.payload)
            .ok_or(RuntimeError::MissingComponent(what))
    };
    let pipeline = pipeline(component(ComponentType::Pipeline, "pipeline")?)?;
    let config = FirmwareConfig::from_payload(component(
        ComponentType::FirmwareConfig,
        "firmware configuration",
    )?)?;
    Ok(BootedFirmware {
        report,
        pipeline,
        config,
    })
}

/// The control plane's pipeline from a pipeline file's bytes (the image's
/// pipeline component, a `janus p4 compile -o` file).
pub fn pipeline(bytes: &[u8]) -> Result<ForwardingPipeline, RuntimeError> {
    let bad = |e: String| RuntimeError::Pipeline(e);
    let file = janus_p4::pipeline::Pipeline::from_bytes(bytes).map_err(|e| bad(e.to_string()))?;
    let compiled = file.compile().map_err(|e| bad(e.to_string()))?;
    let program = compiled
        .program()
        .ok_or_else(|| bad("the program does not compile".into()))?;
    let config = ForwardingPipelineConfig {
        p4info: Some(janus_ctrl::p4info::to_proto(&janus_p4::p4info::build(
            program,
        ))),
        p4_device_config: file.to_bytes(),
        cookie: None,
    };
    ForwardingPipeline::build(config).map_err(|e| bad(e.to_string()))
}

/// The health check passed: confirms the running boot (the trial slot
/// becomes last known good, the anti-rollback counter rises).
pub fn confirm(dir: &Path) -> Result<Confirmed, RuntimeError> {
    Ok(card_ops::confirm_running(dir)?)
}
