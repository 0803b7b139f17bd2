//! Pipeline hot-swap (docs/firmware.md, "Hot-swap"): the image flashed
//! into the inactive slot replaces the running pipeline without a reboot.
//!
//! 1. the pending slot is read and verified as the boot ROM verifies a
//!    trial slot; its firmware configuration must equal the running one
//!    (the swap changes the pipeline only);
//! 2. staged copies of the running pipeline and of the new one, each
//!    holding the running entities (`carry_over`, as RECONCILE_AND_COMMIT
//!    does), replay a traffic sample ([`replay`]);
//! 3. the new pipeline is committed over the in-process channel with
//!    RECONCILE_AND_COMMIT (entities carried over);
//! 4. the health check runs; passing confirms the slot (last known good,
//!    anti-rollback counter); failing commits the old pipeline back the
//!    same way and rejects the slot, so the next boot starts the old image.
//!
//! Refusals in 1 and 2 change nothing on the switch; a replay that drops
//! traffic also rejects the slot (the image is known to break traffic).

pub mod replay;

use super::health::{HealthCheck, HealthReport, PortRx};
use super::local::LocalPlane;
use super::recorder::Recorder;
use crate::config::FirmwareConfig;
use crate::slowpath::{AgentConfig, Responder, SlowPath};
use crate::tools::ToolError;
use crate::tools::card_ops;
use janus_ctrl::client::{Client, ClientConfig};
use janus_ctrl::device::ForwardingPipeline;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use janus_ctrl::proto::p4::v1::set_forwarding_pipeline_config_request::Action as PipelineAction;
use janus_ctrl::server::P4RuntimeService;
use janus_firmware_core::boot::Confirmed;
use janus_firmware_core::image::ComponentType;
use janus_firmware_core::layout::Slot;
use replay::Comparison;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

/// The election id the swap takes the default role's primary with (above
/// any operator's, released when the swap ends).
pub const SWAP_ELECTION_ID: u128 = u128::MAX >> 1;

/// How long the slow path may take to restart (its old streams close
/// asynchronously).
const AGENT_RESTART_LIMIT: Duration = Duration::from_secs(5);

/// Swap policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapConfig {
    /// With fewer recorded frames, the configuration's synthetic frames
    /// are replayed too.
    pub min_recorded: usize,
}

impl Default for SwapConfig {
    fn default() -> SwapConfig {
        SwapConfig { min_recorded: 16 }
    }
}

/// Why a swap was refused or went wrong.
#[derive(Debug, thiserror::Error)]
pub enum SwapError {
    #[error(transparent)]
    Card(#[from] ToolError),
    #[error(
        "the new image's firmware configuration differs from the running one: a configuration change needs a reboot"
    )]
    ConfigDiffers,
    #[error("the new image has no {0} component")]
    MissingComponent(&'static str),
    #[error("the new pipeline cannot be loaded: {0}")]
    Pipeline(String),
    #[error("no pipeline is running")]
    NoPipeline,
    #[error("the running state cannot be carried into the new pipeline: {0}")]
    Stage(String),
    #[error("the new pipeline drops traffic the running one delivers: {}; slot {slot} rejected", .comparison.summary())]
    Regressions { slot: Slot, comparison: Comparison },
    #[error(
        "the commit failed (the running pipeline is unchanged; slot {slot} rejected): {message}"
    )]
    Commit { slot: Slot, message: String },
    #[error("the health check failed and reverting failed too: {0}")]
    Revert(String),
}

/// How a swap that reached the commit ended.
#[derive(Debug)]
pub enum SwapOutcome {
    /// The new pipeline serves; its slot is confirmed.
    Committed {
        slot: Slot,
        comparison: Comparison,
        health: HealthReport,
        confirmed: Confirmed,
    },
    /// The health check failed: the old pipeline serves again and the new
    /// slot is rejected.
    Reverted {
        slot: Slot,
        comparison: Comparison,
        health: HealthReport,
        /// The health check run again on the old pipeline.
        after_revert: HealthReport,
    },
}

/// What a running card's swap works with.
pub struct Swap<'a> {
    /// The card's folder.
    pub dir: &'a Path,
    pub service: &'a P4RuntimeService,
    pub local: &'a LocalPlane,
    /// The running firmware configuration.
    pub config: &'a FirmwareConfig,
    /// The management address (for the health check).
    pub management: SocketAddr,
    pub device_id: u64,
    /// Entries the tenants bootstrap wrote (for the health check).
    pub bootstrap_entries: usize,
    pub recorder: &'a Recorder,
    pub policy: SwapConfig,
}

/// The running pipeline's slow path and the port output the health check
/// reads: the swap restarts the former when the packet metadata change.
pub struct Services<'a> {
    pub slow_path: &'a mut SlowPath,
    pub port_out: &'a mut PortRx,
}

async fn build(config: p4::ForwardingPipelineConfig) -> Result<ForwardingPipeline, SwapError> {
    tokio::task::spawn_blocking(move || ForwardingPipeline::build(config))
        .await
        .map_err(|e| SwapError::Pipeline(e.to_string()))?
        .map_err(|e| SwapError::Pipeline(e.to_string()))
}

fn packet_metadata(
    config: &p4::ForwardingPipelineConfig,
) -> Vec<janus_ctrl::proto::p4::config::v1::ControllerPacketMetadata> {
    config
        .p4info
        .as_ref()
        .map(|i| i.controller_packet_metadata.clone())
        .unwrap_or_default()
}

impl Swap<'_> {
    /// Runs the swap (see the module documentation).
    pub async fn run(self, services: Services<'_>) -> Result<SwapOutcome, SwapError> {
        let running = card_ops::running(self.dir)?.ok_or(ToolError::NotBooted)?;
        let (slot, image) = card_ops::pending_image(self.dir)?;
        let view = image.view();
        let payload = |ty: ComponentType, what: &'static str| {
            view.component(ty)
                .map(|c| c.payload)
                .ok_or(SwapError::MissingComponent(what))
        };
        let config = FirmwareConfig::from_payload(payload(
            ComponentType::FirmwareConfig,
            "firmware configuration",
        )?)
        .map_err(|e| SwapError::Pipeline(e.to_string()))?;
        if &config != self.config {
            return Err(SwapError::ConfigDiffers);
        }
        let bytes = payload(ComponentType::Pipeline, "pipeline")?.to_vec();
        let new = tokio::task::spawn_blocking(move || super::boot::pipeline(&bytes))
            .await
            .map_err(|e| SwapError::Pipeline(e.to_string()))?
            .map_err(|e| SwapError::Pipeline(e.to_string()))?;
        let old_config = self
            .service
            .pipeline_config()
            .ok_or(SwapError::NoPipeline)?;
        let new_config = new.config.clone();
        let (mut staged_old, mut staged_new) = (build(old_config.clone()).await?, new);
        self.service.switch_handle().with_pipeline(|running| {
            let running = running.ok_or(SwapError::NoPipeline)?;
            let stage = |e: janus_ctrl::codec::RpcError| SwapError::Stage(e.to_string());
            janus_ctrl::undo::carry_over(running, &mut staged_old).map_err(stage)?;
            janus_ctrl::undo::carry_over(running, &mut staged_new).map_err(stage)?;
            Ok::<_, SwapError>(())
        })?;
        let (frames, recorded) = replay::sample(
            self.recorder.sample(),
            self.policy.min_recorded,
            self.config,
        );
        let comparison = replay::compare(&mut staged_old, &mut staged_new, &frames, recorded);
        drop((staged_old, staged_new));
        tracing::info!(%slot, "swap replay: {}", comparison.summary());
        if !comparison.passed() {
            card_ops::reject_pending(self.dir, running.slot)?;
            return Err(SwapError::Regressions { slot, comparison });
        }

        card_ops::begin_swap_trial(self.dir, slot)?;
        let mut client = self.primary().await.map_err(|message| {
            let _ = card_ops::reject_pending(self.dir, running.slot);
            SwapError::Commit { slot, message }
        })?;
        if let Err(e) = client
            .set_pipeline(PipelineAction::ReconcileAndCommit, new_config.clone())
            .await
        {
            card_ops::reject_pending(self.dir, running.slot)?;
            return Err(SwapError::Commit {
                slot,
                message: e.to_string(),
            });
        }
        tracing::info!(%slot, "swap: new pipeline committed");
        let metadata_changed = packet_metadata(&old_config) != packet_metadata(&new_config);
        if metadata_changed {
            self.restart_agent(services.slow_path)
                .await
                .map_err(SwapError::Revert)?;
        }
        let health = self.health(services.port_out).await;
        if health.passed() {
            let confirmed = card_ops::confirm_swap(self.dir, slot, &image)?;
            return Ok(SwapOutcome::Committed {
                slot,
                comparison,
                health,
                confirmed,
            });
        }
        tracing::warn!(%slot, "swap: health check failed, reverting");
        client
            .set_pipeline(PipelineAction::ReconcileAndCommit, old_config)
            .await
            .map_err(|e| SwapError::Revert(e.to_string()))?;
        if metadata_changed {
            self.restart_agent(services.slow_path)
                .await
                .map_err(SwapError::Revert)?;
        }
        card_ops::reject_pending(self.dir, running.slot)?;
        let after_revert = self.health(services.port_out).await;
        Ok(SwapOutcome::Reverted {
            slot,
            comparison,
            health,
            after_revert,
        })
    }

    /// An in-process client, primary of the default role.
    async fn primary(&self) -> Result<Client, String> {
        let channel = self.local.channel().await.map_err(|e| e.to_string())?;
        let mut client = Client::from_grpc(
            P4RuntimeClient::new(channel),
            ClientConfig {
                device_id: self.device_id,
                election_id: SWAP_ELECTION_ID,
                ..ClientConfig::new("in-process")
            },
        );
        let arbitration = client.become_primary().await.map_err(|e| e.to_string())?;
        if !arbitration.is_primary() {
            return Err(format!(
                "not primary of the default role: {}",
                arbitration.message
            ));
        }
        Ok(client)
    }

    /// Restarts the slow path on the committed pipeline's P4Info.
    async fn restart_agent(&self, slow_path: &mut SlowPath) -> Result<(), String> {
        let deadline = tokio::time::Instant::now() + AGENT_RESTART_LIMIT;
        // The old agent's streams must close before the new one arbitrates.
        slow_path.stop().await;
        loop {
            let channel = self.local.channel().await.map_err(|e| e.to_string())?;
            let agent = AgentConfig {
                device_id: self.device_id,
                ..AgentConfig::default()
            };
            match SlowPath::start(channel, Responder::new(self.config), agent).await {
                Ok(started) => {
                    *slow_path = started;
                    return Ok(());
                }
                Err(e) if tokio::time::Instant::now() >= deadline => {
                    return Err(format!("the slow path does not restart: {e}"));
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    async fn health(&self, port_out: &mut PortRx) -> HealthReport {
        while port_out.try_recv().is_ok() {}
        let channel = match self.local.channel().await {
            Ok(c) => c,
            Err(e) => {
                return HealthReport {
                    checks: vec![super::Check {
                        name: "control plane answering",
                        outcome: Err(e.to_string()),
                    }],
                };
            }
        };
        let switch = self.service.switch_handle();
        HealthCheck {
            switch: &switch,
            channel,
            management: self.management,
            device_id: self.device_id,
            bootstrap_entries: self.bootstrap_entries,
            config: self.config,
        }
        .run(port_out)
        .await
    }
}
