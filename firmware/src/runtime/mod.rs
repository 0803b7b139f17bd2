//! The firmware runtime: from a booted card to a serving NIC
//! (docs/firmware.md, "Runtime"). `janus nic run CARD` strings these
//! together; the tenants bootstrap is the command's (it uses the tenant
//! mapping of `janus ctrl tenant add`).
//!
//! - [`boot`]: boot the card, take the pipeline and the configuration from
//!   the verified image, confirm after the health check;
//! - [`local`]: the in-process P4Runtime channel of the firmware's own
//!   clients;
//! - [`health`]: the health check that decides the confirmation;
//! - [`recorder`]: the last ingress frames, the swap's traffic sample;
//! - [`swap`]: pipeline hot-swap to the flashed image;
//! - [`control`]: the control socket `janus nic swap` asks for a swap on.

pub mod boot;
pub mod control;
pub mod health;
pub mod local;
pub mod recorder;
pub mod swap;

pub use boot::{BootedFirmware, boot_for_service, confirm};
pub use health::{Check, HealthCheck, HealthReport};
pub use local::LocalPlane;
pub use recorder::Recorder;
pub use swap::{Services, Swap, SwapConfig, SwapError, SwapOutcome};

use crate::config::ConfigError;
use crate::tools::ToolError;

/// Why the runtime could not bring the card into service.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    #[error(transparent)]
    Tool(#[from] ToolError),
    #[error("the booted image has no {0} component")]
    MissingComponent(&'static str),
    #[error("the booted image's pipeline cannot be loaded: {0}")]
    Pipeline(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
}
