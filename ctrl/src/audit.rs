//! The audit log: one structured `tracing` event (target [`TARGET`],
//! level INFO) for every Write update and pipeline change, with who asked,
//! what and the result, and one (level WARN) for every refusal: a client
//! the server turned away before doing anything.
//!
//! The `janus` binary writes these events as JSON lines to
//! `--audit-log FILE` (see docs/control-plane.md for the fields); a program
//! embedding the server subscribes to the target as it likes.

use crate::auth::Identity;
use crate::codec::RpcError;
use crate::proto::p4::v1 as p4;
use std::net::SocketAddr;
use tonic::Status;

/// The `tracing` target of audit events.
pub const TARGET: &str = "janus::audit";

/// Who made a request.
#[derive(Clone, Copy, Debug)]
pub struct Who {
    pub identity: Identity,
    pub peer: Option<SocketAddr>,
}

impl Who {
    pub fn of<T>(identity: Identity, request: &tonic::Request<T>) -> Who {
        Who {
            identity,
            peer: request.remote_addr(),
        }
    }

    fn peer_text(&self) -> String {
        self.peer.map_or_else(|| "-".into(), |p| p.to_string())
    }
}

/// A Write update and how it ended.
pub fn update(who: &Who, role: &str, update: &p4::Update, result: &Result<(), RpcError>) {
    let kind = p4::update::Type::try_from(update.r#type)
        .map(|t| t.as_str_name())
        .unwrap_or("UNKNOWN");
    let entity = entity_kind(update.entity.as_ref());
    let p4_id = update
        .entity
        .as_ref()
        .and_then(crate::roles::entity_p4_id)
        .unwrap_or(0);
    let (code, message) = match result {
        Ok(()) => ("OK", ""),
        Err(e) => (code_name(e.code), e.message.as_str()),
    };
    tracing::info!(
        target: "janus::audit",
        who = %who.identity,
        peer = %who.peer_text(),
        rpc = "Write",
        role,
        update = kind,
        entity,
        p4_id,
        result = code,
        message,
    );
}

/// A SetForwardingPipelineConfig and how it ended.
pub fn pipeline(who: &Who, role: &str, action: &str, result: &Result<(), Status>) {
    let (code, message) = match result {
        Ok(()) => ("OK", ""),
        Err(s) => (code_name(s.code()), s.message()),
    };
    tracing::info!(
        target: "janus::audit",
        who = %who.identity,
        peer = %who.peer_text(),
        rpc = "SetForwardingPipelineConfig",
        role,
        action,
        result = code,
        message,
    );
}

/// A request refused before anything was done.
pub fn refusal(who: &Who, rpc: &str, role: &str, status: &Status) {
    tracing::warn!(
        target: "janus::audit",
        who = %who.identity,
        peer = %who.peer_text(),
        rpc,
        role,
        result = code_name(status.code()),
        message = status.message(),
    );
}

/// A request whose client could not be identified (a certificate naming
/// no Janus identity).
pub fn unidentified(peer: Option<SocketAddr>, rpc: &str, status: &Status) {
    tracing::warn!(
        target: "janus::audit",
        who = "unidentified",
        peer = %peer.map_or_else(|| "-".into(), |p| p.to_string()),
        rpc,
        role = "",
        result = code_name(status.code()),
        message = status.message(),
    );
}

fn entity_kind(entity: Option<&p4::Entity>) -> &'static str {
    use p4::entity::Entity as E;
    match entity.and_then(|e| e.entity.as_ref()) {
        None => "none",
        Some(E::ExternEntry(_)) => "extern_entry",
        Some(E::TableEntry(_)) => "table_entry",
        Some(E::ActionProfileMember(_)) => "action_profile_member",
        Some(E::ActionProfileGroup(_)) => "action_profile_group",
        Some(E::MeterEntry(_)) => "meter_entry",
        Some(E::DirectMeterEntry(_)) => "direct_meter_entry",
        Some(E::CounterEntry(_)) => "counter_entry",
        Some(E::DirectCounterEntry(_)) => "direct_counter_entry",
        Some(E::PacketReplicationEngineEntry(_)) => "packet_replication_engine_entry",
        Some(E::ValueSetEntry(_)) => "value_set_entry",
        Some(E::RegisterEntry(_)) => "register_entry",
        Some(E::DigestEntry(_)) => "digest_entry",
    }
}

/// The canonical name of a gRPC code (`PERMISSION_DENIED`).
pub fn code_name(code: tonic::Code) -> &'static str {
    crate::proto::google::rpc::Code::try_from(code as i32)
        .map(|c| c.as_str_name())
        .unwrap_or("UNKNOWN")
}
