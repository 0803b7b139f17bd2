//! `--nanolog ADDR`: bmv2's event log, PACKET_IN, PACKET_OUT and
//! CONFIG_CHANGE, with the data plane's packet ids.

use janus_host::nanomsg::event_log::EventLog;

/// The event log's state in the data plane: packet ids, the ids of the
/// frames queued to go out, the pipeline last seen.
pub struct Events {
    pub(crate) log: EventLog,
    /// The next packet's id (from 0; one per packet received on a port,
    /// and one per frame a PacketOut sends).
    next_packet: u64,
    /// (packet id, copy id) of each frame in the round's output queue,
    /// in its order.
    pub(crate) out_ids: Vec<(u64, u64)>,
    /// The pipeline generation last seen (None: not looked yet).
    pipeline: Option<u64>,
}

impl Events {
    pub fn new(log: EventLog) -> Events {
        Events {
            log,
            next_packet: 0,
            out_ids: Vec::new(),
            pipeline: None,
        }
    }

    pub(crate) fn next_id(&mut self) -> u64 {
        let id = self.next_packet;
        self.next_packet += 1;
        id
    }

    /// Publishes CONFIG_CHANGE when the installed pipeline is not the one
    /// last seen (the program given at start-up or restored from
    /// `--state`, then every SetForwardingPipelineConfig that commits).
    pub(crate) fn look_at_pipeline(&mut self, switch: &janus_ctrl::server::SwitchHandle) {
        let generation = switch.pipeline_generation();
        if generation > 0 && Some(generation) != self.pipeline {
            self.log.config_change();
        }
        self.pipeline = Some(generation);
    }
}
