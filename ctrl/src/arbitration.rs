//! Arbitration (P4Runtime 1.5 §5): per (device, role), the stream with the
//! highest election id is the role's primary.
//!
//! Each arbitration message gets an answer: OK to the primary,
//! ALREADY_EXISTS to a backup (NOT_FOUND when the role has no primary),
//! carrying the highest election id seen for the role; when a role's
//! primary changes, every stream of the role is told. A stream belongs to
//! one role, set by its first arbitration message. The role's rights
//! ([`Access`]) are those its primary asked for in its role config.

use crate::proto::google::rpc;
use crate::proto::p4::v1 as p4;
use crate::roles::Access;
use std::collections::{BTreeMap, BTreeSet};
use tokio::sync::mpsc;
use tonic::{Code, Status};

/// The server's side of a StreamChannel.
pub(crate) type StreamTx = mpsc::Sender<Result<p4::StreamMessageResponse, Status>>;

/// One open StreamChannel that has arbitrated.
pub(crate) struct Client {
    pub election_id: u128,
    pub tx: StreamTx,
    /// What the client asked for (its role config decoded).
    access: Access,
    /// The role config as sent, echoed in answers.
    config: Option<prost_types::Any>,
}

/// The arbitration of one role.
#[derive(Default)]
struct Role {
    clients: BTreeMap<u64, Client>,
    /// The highest election id ever seen for the role.
    highest: Option<u128>,
    /// The primary's stream number.
    primary: Option<u64>,
}

impl Role {
    /// Recomputes the primary: the stream holding the highest election id
    /// seen. Returns whether the primary changed.
    fn elect(&mut self) -> bool {
        let best = self
            .clients
            .iter()
            .max_by_key(|(_, c)| c.election_id)
            .filter(|(_, c)| Some(c.election_id) == self.highest)
            .map(|(&s, _)| s);
        let changed = best != self.primary;
        self.primary = best;
        changed
    }

    fn primary(&self) -> Option<&Client> {
        self.primary.and_then(|s| self.clients.get(&s))
    }

    /// The arbitration answer for stream `s`.
    fn answer(&self, device_id: u64, name: &str, s: u64) -> p4::StreamMessageResponse {
        let (code, message) = if self.primary == Some(s) {
            (Code::Ok, "this stream is the primary")
        } else if self.primary.is_some() {
            (
                Code::AlreadyExists,
                "a primary with a higher election id exists",
            )
        } else {
            (Code::NotFound, "there is no primary")
        };
        let role = (!name.is_empty()).then(|| p4::Role {
            name: name.to_owned(),
            config: self.clients.get(&s).and_then(|c| c.config.clone()),
            ..Default::default()
        });
        p4::StreamMessageResponse {
            update: Some(p4::stream_message_response::Update::Arbitration(
                p4::MasterArbitrationUpdate {
                    device_id,
                    role,
                    election_id: self.highest.map(to_uint128),
                    status: Some(rpc::Status {
                        code: code as i32,
                        message: message.into(),
                        details: Vec::new(),
                    }),
                },
            )),
        }
    }

    /// Tells every stream of the role its standing.
    fn notify_all(&self, device_id: u64, name: &str) {
        for (&s, c) in &self.clients {
            let _ = c.tx.try_send(Ok(self.answer(device_id, name, s)));
        }
    }
}

/// A stream's arbitration request, decoded.
pub(crate) struct Join {
    pub role: String,
    pub election_id: u128,
    pub access: Access,
    pub config: Option<prost_types::Any>,
}

/// The arbitration of every role of the device.
#[derive(Default)]
pub(crate) struct Arbitrations {
    roles: BTreeMap<String, Role>,
    /// The role of each stream that has arbitrated.
    stream_role: BTreeMap<u64, String>,
}

impl Arbitrations {
    /// Stream `s` asks to join (or re-arbitrate in) a role. An error ends
    /// the stream with that status.
    pub fn join(
        &mut self,
        device_id: u64,
        s: u64,
        tx: &StreamTx,
        join: Join,
    ) -> Result<(), Status> {
        if let Some(held) = self.stream_role.get(&s)
            && *held != join.role
        {
            return Err(Status::failed_precondition(format!(
                "this stream arbitrates for role {held:?}; open another stream for role {:?}",
                join.role
            )));
        }
        let role = self.roles.entry(join.role.clone()).or_default();
        if role
            .clients
            .iter()
            .any(|(&o, c)| o != s && c.election_id == join.election_id)
        {
            return Err(Status::invalid_argument(format!(
                "election id {} is already used by another controller of this role",
                join.election_id
            )));
        }
        role.clients.insert(
            s,
            Client {
                election_id: join.election_id,
                tx: tx.clone(),
                access: join.access,
                config: join.config,
            },
        );
        role.highest = Some(
            role.highest
                .map_or(join.election_id, |h| h.max(join.election_id)),
        );
        self.stream_role.insert(s, join.role.clone());
        if role.elect() {
            tracing::info!(stream = s, role = %join.role, election_id = join.election_id, "new primary");
            role.notify_all(device_id, &join.role);
        } else {
            let _ = tx.try_send(Ok(role.answer(device_id, &join.role, s)));
        }
        Ok(())
    }

    /// Stream `s` closed: forget it; if it was a primary, tell the rest of
    /// its role.
    pub fn leave(&mut self, device_id: u64, s: u64) {
        let Some(name) = self.stream_role.remove(&s) else {
            return;
        };
        if let Some(role) = self.roles.get_mut(&name)
            && role.clients.remove(&s).is_some()
            && role.elect()
        {
            tracing::info!(stream = s, role = %name, "the primary left");
            role.notify_all(device_id, &name);
        }
    }

    /// The primary of `role` with `election_id`'s rights, or
    /// PERMISSION_DENIED when `election_id` is not the role's primary's.
    pub fn primary_access(&self, role: &str, election_id: Option<u128>) -> Result<&Access, Status> {
        match self.roles.get(role).and_then(Role::primary) {
            Some(p) if election_id == Some(p.election_id) => Ok(&p.access),
            _ => Err(Status::permission_denied(format!(
                "only the primary controller of role {role:?} (with its current election id) may do this"
            ))),
        }
    }

    /// The rights of `role`'s primary, if it has one.
    pub fn role_access(&self, role: &str) -> Option<&Access> {
        Some(&self.roles.get(role)?.primary()?.access)
    }

    /// The rights of stream `s` when it is its role's primary.
    pub fn access_if_primary(&self, s: u64) -> Option<&Access> {
        let role = self.roles.get(self.stream_role.get(&s)?)?;
        let primary = role.primary()?;
        (role.primary == Some(s)).then_some(&primary.access)
    }

    /// The primaries with their rights (for PacketIns).
    pub fn primaries(&self) -> impl Iterator<Item = (&Client, &Access)> {
        self.roles
            .values()
            .filter_map(Role::primary)
            .map(|c| (c, &c.access))
    }

    /// Whether stream `s` is the default role's primary.
    pub fn is_default_primary(&self, s: u64) -> bool {
        self.roles.get("").and_then(|r| r.primary) == Some(s)
    }

    /// The default role's primary (digests and idle timeouts go there).
    pub fn default_primary(&self) -> Option<&Client> {
        self.roles.get("").and_then(Role::primary)
    }

    /// The P4 ids held exclusively by the primaries of roles other than
    /// `role`.
    pub fn exclusive_elsewhere(&self, role: &str) -> BTreeSet<u32> {
        self.roles
            .iter()
            .filter(|(name, _)| name.as_str() != role)
            .filter_map(|(_, r)| r.primary()?.access.exclusive_ids())
            .flatten()
            .copied()
            .collect()
    }
}

pub(crate) fn to_uint128(v: u128) -> p4::Uint128 {
    p4::Uint128 {
        high: (v >> 64) as u64,
        low: v as u64,
    }
}

pub(crate) fn from_uint128(v: &p4::Uint128) -> u128 {
    (u128::from(v.high) << 64) | u128::from(v.low)
}
