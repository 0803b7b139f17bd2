//! What a client call can fail with, and the per-update results a failed
//! Write batch carries in its status details.

use crate::proto::google::rpc;
use crate::proto::p4::v1 as p4;
use prost::Message;
use std::time::Duration;
use tonic::Code;

/// The type URL of the `p4.v1.Error` details of a failed Write.
const P4_ERROR_TYPE: &str = "type.googleapis.com/p4.v1.Error";

/// Why a client call failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The configuration is unusable: a bad server address, TLS files that
    /// cannot be read or used.
    #[error("{0}")]
    Usage(String),
    /// The server could not be reached.
    #[error("cannot reach the P4Runtime server at {server}: {reason}")]
    Connect {
        /// The configured server address.
        server: String,
        /// The transport's error and its causes.
        reason: String,
    },
    /// The server did not answer `call` within the configured limit.
    #[error("{call}: no answer within {} s", limit.as_secs())]
    Timeout {
        /// The RPC (`Write`, `Read`, ...).
        call: &'static str,
        /// The limit that passed.
        limit: Duration,
    },
    /// The server answered `call` with an error status. For a Write batch,
    /// `updates` holds every update's result, decoded from the status
    /// details (empty when the status carries none).
    #[error("{call}: {:?}: {}", status.code(), status.message())]
    Status {
        /// The RPC (`Write`, `Read`, ...).
        call: &'static str,
        /// The status as the server sent it.
        status: Box<tonic::Status>,
        /// The per-update results of a Write batch, in update order.
        updates: Vec<UpdateStatus>,
    },
    /// The arbitration left another controller primary.
    #[error(
        "not primary with election id {election_id} (the highest the server has seen is \
         {highest}; use --election-id above any other controller's): {message}"
    )]
    NotPrimary {
        /// This client's election id.
        election_id: u128,
        /// The highest election id the server has seen.
        highest: u128,
        /// The server's message.
        message: String,
    },
    /// The server's answer does not follow the protocol (a closed stream,
    /// a missing arbitration answer or P4Info).
    #[error("{0}")]
    Protocol(String),
}

impl Error {
    /// The status of an [`Error::Status`].
    pub fn status(&self) -> Option<&tonic::Status> {
        match self {
            Error::Status { status, .. } => Some(status),
            _ => None,
        }
    }

    /// How many updates of a failed Write batch the server reported a
    /// result for (the first ones: a server may report fewer than the
    /// batch held when their errors would not fit in the response).
    pub fn reported_updates(&self) -> usize {
        match self {
            Error::Status { updates, .. } => updates.len(),
            _ => 0,
        }
    }

    /// The server's message, for a status error.
    pub fn status_message(&self) -> Option<&str> {
        match self {
            Error::Status { status, .. } => Some(status.message()),
            _ => None,
        }
    }

    /// The updates of a failed Write batch that did not succeed.
    pub fn failed_updates(&self) -> impl Iterator<Item = &UpdateStatus> {
        let updates = match self {
            Error::Status { updates, .. } => updates.as_slice(),
            _ => &[],
        };
        updates.iter().filter(|u| u.code != Code::Ok)
    }

    /// An [`Error::Status`] of `call`, its update results decoded.
    pub(super) fn from_status(call: &'static str, status: tonic::Status) -> Error {
        let updates = update_statuses(&status).unwrap_or_default();
        Error::Status {
            call,
            status: Box::new(status),
            updates,
        }
    }
}

/// The result of one update of a Write batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpdateStatus {
    /// The update's position in the batch (from 0).
    pub index: usize,
    /// Its canonical code (`Ok` for the updates that were applied).
    pub code: Code,
    /// The server's message.
    pub message: String,
}

/// The per-update results of a failed Write batch: the `p4.v1.Error`s in
/// the `google.rpc.Status` details of `status`. None when the details do
/// not decode or hold anything but `p4.v1.Error`s.
pub fn update_statuses(status: &tonic::Status) -> Option<Vec<UpdateStatus>> {
    let details = rpc::Status::decode(status.details()).ok()?;
    details
        .details
        .iter()
        .enumerate()
        .map(|(index, any)| {
            if any.type_url != P4_ERROR_TYPE {
                return None;
            }
            let e = p4::Error::decode(any.value.as_slice()).ok()?;
            Some(UpdateStatus {
                index,
                code: Code::from_i32(e.canonical_code),
                message: e.message,
            })
        })
        .collect()
}

/// An error and its sources, `: `-joined (tonic's transport errors hide
/// the cause, such as "connection refused", in the source chain).
pub(super) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let part = s.to_string();
        if !text.ends_with(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        source = s.source();
    }
    text
}

/// Input the client was given that the server's P4Info does not take: a
/// name no object has (or several share), a value that does not fit, a
/// malformed entries file. The caller's input is wrong, not the server.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct InputError(pub String);
