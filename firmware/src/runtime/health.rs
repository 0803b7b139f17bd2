//! The health check after boot (and after a pipeline swap): the boot is
//! confirmed only when every check passes (docs/firmware.md, "Runtime").
//!
//! 1. the pipeline is loaded in the switch;
//! 2. the control plane answers: Capabilities in process, and a TCP
//!    connection to the management address;
//! 3. the tenants bootstrap is applied: the device holds at least the
//!    entries written;
//! 4. the slow path answers ARP: a synthetic ARP request for the first
//!    tenant gateway, sent into the pipeline from one of its VFs, comes
//!    back out of that VF as the gateway's reply (skipped when no tenant
//!    has a gateway and a VF).

use crate::config::FirmwareConfig;
use janus_ctrl::proto::p4::v1 as p4;
use janus_ctrl::proto::p4::v1::p4_runtime_client::P4RuntimeClient;
use janus_ctrl::server::SwitchHandle;
use janus_packet::neighbor::{arp_request, is_arp_reply};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::sync::mpsc;
use tonic::transport::Channel;

/// How long each check may take.
const CHECK_LIMIT: Duration = Duration::from_secs(3);

/// One check's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub name: &'static str,
    /// What was seen (`Ok`) or what failed (`Err`).
    pub outcome: Result<String, String>,
}

/// Every check's result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HealthReport {
    pub checks: Vec<Check>,
}

impl HealthReport {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.outcome.is_ok())
    }
}

/// What the health check looks at.
pub struct HealthCheck<'a> {
    pub switch: &'a SwitchHandle,
    /// A channel to the control plane (in process).
    pub channel: Channel,
    /// The management address the control plane listens on.
    pub management: SocketAddr,
    pub device_id: u64,
    /// Entries the bootstrap wrote.
    pub bootstrap_entries: usize,
    pub config: &'a FirmwareConfig,
}

/// Frames the pipeline sent out of its ports for PacketOuts.
pub type PortRx = mpsc::Receiver<(u32, Vec<u8>)>;

impl HealthCheck<'_> {
    /// Runs every check (each bounded); `port_out` is the control plane's
    /// port output, read for the slow path's reply.
    pub async fn run(self, port_out: &mut PortRx) -> HealthReport {
        let mut grpc = P4RuntimeClient::new(self.channel.clone());
        let checks = vec![
            Check {
                name: "pipeline loaded",
                outcome: self.pipeline_loaded(),
            },
            Check {
                name: "control plane answering",
                outcome: self.control_plane(&mut grpc).await,
            },
            Check {
                name: "tenants bootstrap applied",
                outcome: self.bootstrap(&mut grpc).await,
            },
            Check {
                name: "slow path answers ARP",
                outcome: self.arp_probe(port_out).await,
            },
        ];
        HealthReport { checks }
    }

    fn pipeline_loaded(&self) -> Result<String, String> {
        let tables = self
            .switch
            .with_switch(|s| s.map(|s| s.tables().len()))
            .ok_or("the switch has no pipeline")?;
        Ok(format!("{tables} tables"))
    }

    async fn control_plane(&self, grpc: &mut P4RuntimeClient<Channel>) -> Result<String, String> {
        let caps = tokio::time::timeout(
            CHECK_LIMIT,
            grpc.capabilities(p4::CapabilitiesRequest {
                device_id: self.device_id,
            }),
        )
        .await
        .map_err(|_| "Capabilities got no answer".to_string())?
        .map_err(|s| format!("Capabilities failed: {}", s.message()))?;
        tokio::time::timeout(CHECK_LIMIT, tokio::net::TcpStream::connect(self.management))
            .await
            .map_err(|_| format!("{}: no answer", self.management))?
            .map_err(|e| format!("{}: {e}", self.management))?;
        Ok(format!(
            "P4Runtime {} in process, {} accepts connections",
            caps.into_inner().p4runtime_api_version,
            self.management
        ))
    }

    async fn bootstrap(&self, grpc: &mut P4RuntimeClient<Channel>) -> Result<String, String> {
        let request = p4::ReadRequest {
            device_id: self.device_id,
            entities: vec![p4::Entity {
                entity: Some(p4::entity::Entity::TableEntry(p4::TableEntry::default())),
            }],
            ..Default::default()
        };
        let read = async {
            let mut stream = grpc.read(request).await?.into_inner();
            let mut n = 0;
            while let Some(reply) = stream.message().await? {
                n += reply.entities.len();
            }
            Ok::<_, tonic::Status>(n)
        };
        let held = tokio::time::timeout(CHECK_LIMIT, read)
            .await
            .map_err(|_| "Read got no answer".to_string())?
            .map_err(|s| format!("Read failed: {}", s.message()))?;
        if held < self.bootstrap_entries {
            return Err(format!(
                "the device holds {held} entries, the bootstrap wrote {}",
                self.bootstrap_entries
            ));
        }
        Ok(format!(
            "{} entries written, {held} held",
            self.bootstrap_entries
        ))
    }

    async fn arp_probe(&self, port_out: &mut PortRx) -> Result<String, String> {
        let probe = self.config.tenants.iter().find_map(|t| {
            let gw = t.gateway.as_ref()?;
            let vf = t.vfs.first()?;
            Some((t.id, vf, gw))
        });
        let Some((tenant, vf, gw)) = probe else {
            return Ok("skipped: no tenant has a gateway and a VF".into());
        };
        let request = arp_request((vf.mac.0, vf.ipv4), gw.ipv4);
        let direct = self
            .switch
            .inject(vf.port, &request)
            .ok_or("the switch has no pipeline")?;
        if !direct.is_empty() {
            return Err(format!(
                "the pipeline forwarded the ARP request to port(s) {:?} instead of punting it",
                direct.iter().map(|(p, _)| *p).collect::<Vec<_>>()
            ));
        }
        let wait = async {
            while let Some((port, frame)) = port_out.recv().await {
                if port == vf.port && is_arp_reply(&frame, gw.ipv4, gw.mac.0) {
                    return true;
                }
            }
            false
        };
        match tokio::time::timeout(CHECK_LIMIT, wait).await {
            Ok(true) => Ok(format!(
                "tenant {tenant}: who-has {} from VF {} answered {} is-at {}",
                gw.ipv4, vf.port, gw.ipv4, gw.mac
            )),
            Ok(false) => Err("the port output closed".into()),
            Err(_) => Err(format!(
                "tenant {tenant}: no ARP reply for {} on VF {} within {CHECK_LIMIT:?}",
                gw.ipv4, vf.port
            )),
        }
    }
}
