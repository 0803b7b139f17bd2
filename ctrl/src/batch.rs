//! One Write batch applied to a pipeline, and the limits on what one Write
//! request may ask.
//!
//! Every update is checked against the role's rights, then validated in
//! full by the device before the switch changes ([`ForwardingPipeline::apply`]): an
//! update answered with an error leaves no trace in the switch, so it is
//! not journaled either. Under CONTINUE_ON_ERROR each update stands alone;
//! under ROLLBACK_ON_ERROR and DATAPLANE_ATOMIC the batch is all or nothing
//! ([`undo::apply_all_or_nothing`]).
//!
//! A CONTINUE_ON_ERROR batch may be applied in slices ([`Slice`]): the
//! server releases its state lock between them, so reads, packets and
//! other clients never wait behind a long batch (the specification lets a
//! non-atomic batch be seen part-way). An all-or-nothing batch is applied
//! under one hold of the lock; [`check_limits`] bounds how long that is.

use crate::codec::RpcError;
use crate::device::ForwardingPipeline;
use crate::proto::google::rpc;
use crate::proto::p4::v1 as p4;
use crate::roles::Access;
use crate::undo::{self, UndoLog};
use p4::write_request::Atomicity;
use prost::Message;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use tonic::{Code, Status};

/// Updates one Write request may carry.
pub const MAX_BATCH_UPDATES: usize = 1_000_000;

/// Work one Write request may ask ([`work_of`] summed over its updates).
pub const MAX_BATCH_WORK: u64 = 4_000_000;

/// Work one all-or-nothing Write request may ask: it runs under one hold
/// of the state lock, so this bounds how long reads and packets wait.
pub const MAX_ATOMIC_WORK: u64 = 100_000;

/// Replicas one multicast group or clone session may hold.
pub const MAX_REPLICAS: usize = 16_384;

/// How much of a CONTINUE_ON_ERROR batch runs under one hold of the lock.
#[derive(Clone, Copy, Debug)]
pub struct Slice {
    pub updates: usize,
    pub time: Duration,
}

impl Slice {
    /// The server's slice: short enough that a Read or a PacketOut waits
    /// a few milliseconds at most.
    pub const SERVER: Slice = Slice {
        updates: 512,
        time: Duration::from_millis(5),
    };
    /// No slicing: the whole batch at once.
    pub const WHOLE: Slice = Slice {
        updates: usize::MAX,
        time: Duration::MAX,
    };
}

/// The replicas of a multicast group or clone session update (0 for
/// other updates).
fn replicas_of(u: &p4::Update) -> usize {
    use p4::entity::Entity as E;
    use p4::packet_replication_engine_entry::Type as Pre;
    match u.entity.as_ref().and_then(|e| e.entity.as_ref()) {
        Some(E::PacketReplicationEngineEntry(p)) => match &p.r#type {
            Some(Pre::MulticastGroupEntry(g)) => g.replicas.len(),
            Some(Pre::CloneSessionEntry(c)) => c.replicas.len(),
            None => 0,
        },
        _ => 0,
    }
}

/// The work an update asks of the server: one per entity, plus one per
/// replica, group member, value set member or match field it carries.
pub fn work_of(u: &p4::Update) -> u64 {
    use p4::entity::Entity as E;
    let extra = match u.entity.as_ref().and_then(|e| e.entity.as_ref()) {
        Some(E::TableEntry(t)) => t.r#match.len(),
        Some(E::ActionProfileGroup(g)) => g.members.len(),
        Some(E::ValueSetEntry(v)) => v.members.len(),
        _ => replicas_of(u),
    };
    1 + extra as u64
}

/// Refuses a Write request larger than the limits (RESOURCE_EXHAUSTED
/// naming the limit), before anything is applied.
pub fn check_limits(updates: &[p4::Update], atomicity: Atomicity) -> Result<(), RpcError> {
    if updates.len() > MAX_BATCH_UPDATES {
        return Err(RpcError::new(
            Code::ResourceExhausted,
            format!(
                "the batch has {} updates; a Write request may carry at most {MAX_BATCH_UPDATES} (split it)",
                updates.len()
            ),
        ));
    }
    let mut work = 0u64;
    for (i, u) in updates.iter().enumerate() {
        let n = replicas_of(u);
        if n > MAX_REPLICAS {
            return Err(RpcError::new(
                Code::ResourceExhausted,
                format!(
                    "update {i}: {n} replicas; a multicast group or clone session holds at most {MAX_REPLICAS}"
                ),
            ));
        }
        work += work_of(u);
    }
    if atomicity != Atomicity::ContinueOnError && work > MAX_ATOMIC_WORK {
        return Err(RpcError::new(
            Code::ResourceExhausted,
            format!(
                "the all-or-nothing batch asks {work} units of work (entities plus their replicas, members and match fields); one may ask at most {MAX_ATOMIC_WORK} (split it, or use CONTINUE_ON_ERROR)"
            ),
        ));
    }
    if work > MAX_BATCH_WORK {
        return Err(RpcError::new(
            Code::ResourceExhausted,
            format!(
                "the batch asks {work} units of work (entities plus their replicas, members and match fields); a Write request may ask at most {MAX_BATCH_WORK} (split it)"
            ),
        ));
    }
    Ok(())
}

/// What applying (part of) a batch did.
pub struct Outcome {
    /// One result per update applied or refused, in order; under
    /// CONTINUE_ON_ERROR possibly fewer than the updates given (the slice
    /// ended), else one per update.
    pub results: Vec<Result<(), RpcError>>,
    /// The undo records of an all-or-nothing batch that succeeded.
    pub undo: Option<UndoLog>,
}

impl Outcome {
    /// The updates of `updates` that were applied (their results are OK).
    pub fn applied<'u>(&self, updates: &'u [p4::Update]) -> Vec<&'u p4::Update> {
        updates
            .iter()
            .zip(&self.results)
            .filter(|(_, r)| r.is_ok())
            .map(|(u, _)| u)
            .collect()
    }
}

/// Who writes a batch: the rights of the role's primary, and the ids
/// other roles' primaries hold exclusively.
#[derive(Clone, Copy, Debug)]
pub struct Writer<'a> {
    pub access: &'a Access,
    pub exclusive_elsewhere: &'a BTreeSet<u32>,
}

/// Applies `updates` (or, under CONTINUE_ON_ERROR, as many as `slice`
/// allows) to `pipeline`, each checked against `writer`'s rights before
/// the device sees it.
pub fn apply(
    pipeline: &mut ForwardingPipeline,
    writer: Writer<'_>,
    atomicity: Atomicity,
    updates: &[p4::Update],
    slice: Slice,
) -> Outcome {
    let apply_one = |pipeline: &mut ForwardingPipeline, u: &p4::Update| {
        writer
            .access
            .check_write(&pipeline.tenant_policy, writer.exclusive_elsewhere, u)
            .and_then(|()| pipeline.apply(u))
    };
    match atomicity {
        Atomicity::ContinueOnError => {
            let start = Instant::now();
            let mut results = Vec::with_capacity(updates.len().min(slice.updates));
            for u in updates {
                if results.len() >= slice.updates
                    || (!results.is_empty() && start.elapsed() >= slice.time)
                {
                    break;
                }
                results.push(apply_one(pipeline, u));
            }
            Outcome {
                results,
                undo: None,
            }
        }
        Atomicity::RollbackOnError | Atomicity::DataplaneAtomic => {
            match undo::apply_all_or_nothing(pipeline, updates, apply_one) {
                Ok(undo) => Outcome {
                    results: vec![Ok(()); updates.len()],
                    undo: Some(undo),
                },
                Err(failed) => Outcome {
                    results: failed.results(updates.len()),
                    undo: None,
                },
            }
        }
    }
}

/// Bytes of the encoded `google.rpc.Status` a batch's error may carry in
/// its `grpc-status-details-bin` trailer (sent base64, a third larger):
/// with the message, well inside the 8 KiB soft limit gRPC's C core puts
/// on a response's metadata, and the 16 KiB that other clients allow.
pub const DETAILS_BUDGET: usize = 4 * 1024 + 512;

/// Bytes of the status message of a batch's error.
pub const MESSAGE_BUDGET: usize = 768;

/// The lengths one update's error message in the details is cut to, the
/// longest first: the first at which every update's result fits is used.
const MESSAGE_CUTS: [usize; 5] = [256, 128, 64, 32, 0];

/// The length error messages are cut to when not every update's result
/// fits (the details then hold the first updates' results).
const SHORT_MESSAGE_BYTES: usize = 64;

/// The first errors the status message quotes when the details cannot
/// hold every update.
const QUOTED_ERRORS: usize = 3;

/// The gRPC status of a Write batch in which some updates failed (P4Runtime
/// §12.3): UNKNOWN, with a `google.rpc.Status` whose details hold one
/// `p4.v1.Error` per update, in order (canonical_code OK for those that
/// were applied), within [`DETAILS_BUDGET`]: error messages are cut
/// (256, 128, 64, 32 bytes, or none) as far as needed for every update to
/// fit. When even that does not fit (some 110 updates), the details hold
/// the results of the first updates, as many as fit (in order, so a
/// detail's position is still its update's index), and the message says
/// so, with the count of failures by code and the first errors.
pub fn status(results: &[Result<(), RpcError>]) -> Status {
    let failed = results.iter().filter(|r| r.is_err()).count();
    // Every update's result with its message cut to the longest length
    // that lets them all fit; else as many as fit, messages cut short.
    let details = MESSAGE_CUTS
        .iter()
        .find_map(|&cut| details_within(results, cut, true))
        .or_else(|| details_within(results, SHORT_MESSAGE_BYTES, false))
        .unwrap_or_default();
    let mut message = format!("{failed} of {} updates failed", results.len());
    if details.len() < results.len() {
        let mut by_code: Vec<(Code, usize)> = Vec::new();
        for e in results.iter().filter_map(|r| r.as_ref().err()) {
            match by_code.iter_mut().find(|(c, _)| *c == e.code) {
                Some((_, n)) => *n += 1,
                None => by_code.push((e.code, 1)),
            }
        }
        let counts: Vec<String> = by_code
            .iter()
            .map(|(c, n)| format!("{n} {}", code_name(*c)))
            .collect();
        message.push_str(&format!(
            " ({}); the details hold the results of updates 0..{} only (the metadata limit); first errors:",
            counts.join(", "),
            details.len()
        ));
        let first = results
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().err().map(|e| (i, e)))
            .take(QUOTED_ERRORS);
        for (i, e) in first {
            message.push_str(&format!(
                " [{i}] {}: {};",
                code_name(e.code),
                clip(&e.message, 200)
            ));
        }
    }
    let message = clip_percent_encoded(&message, MESSAGE_BUDGET).to_string();
    let status = rpc::Status {
        code: Code::Unknown as i32,
        message: message.clone(),
        details,
    };
    Status::with_details(Code::Unknown, message, status.encode_to_vec().into())
}

/// The details of `results`, each error's message cut to `cut` bytes,
/// within [`DETAILS_BUDGET`]: all of them (`None` when they do not fit and
/// `all`), or as many of the first as fit.
fn details_within(
    results: &[Result<(), RpcError>],
    cut: usize,
    all: bool,
) -> Option<Vec<prost_types::Any>> {
    let mut details = Vec::with_capacity(results.len().min(1024));
    let mut size = 0usize;
    for r in results {
        let error = match r {
            Ok(()) => p4::Error::default(),
            Err(e) => p4::Error {
                canonical_code: e.code as i32,
                message: clip(&e.message, cut).to_string(),
                ..Default::default()
            },
        };
        let any = prost_types::Any {
            type_url: "type.googleapis.com/p4.v1.Error".into(),
            value: error.encode_to_vec(),
        };
        // The Any's own bytes, its tag and length inside the Status.
        let grows = any.encoded_len() + 1 + prost::length_delimiter_len(any.encoded_len());
        if size + grows > DETAILS_BUDGET {
            return (!all).then_some(details);
        }
        size += grows;
        details.push(any);
    }
    Some(details)
}

/// The canonical name of a gRPC code (`INVALID_ARGUMENT`).
fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

/// `text` cut to at most `max` bytes once percent-encoded as gRPC sends a
/// status message (bytes outside printable ASCII, and `%`, take three).
fn clip_percent_encoded(text: &str, max: usize) -> &str {
    let mut size = 0;
    for (i, c) in text.char_indices() {
        let encoded = if c == '%' || !(' '..='~').contains(&c) {
            3 * c.len_utf8()
        } else {
            1
        };
        if size + encoded > max {
            return &text[..i];
        }
        size += encoded;
    }
    text
}

/// `text` cut to at most `max` bytes, at a character boundary.
fn clip(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failures(n: usize, message_len: usize) -> Vec<Result<(), RpcError>> {
        (0..n)
            .map(|i| {
                if i % 3 == 0 {
                    Ok(())
                } else {
                    Err(RpcError::new(Code::AlreadyExists, "x".repeat(message_len)))
                }
            })
            .collect()
    }

    fn details(s: &Status) -> Vec<p4::Error> {
        rpc::Status::decode(s.details())
            .expect("a google.rpc.Status")
            .details
            .iter()
            .map(|a| p4::Error::decode(a.value.as_slice()).expect("a p4.v1.Error"))
            .collect()
    }

    /// The trailers a client receives stay under gRPC C core's 8 KiB
    /// (the message counted as if every byte were percent-encoded, the
    /// worst case).
    fn metadata_bytes(s: &Status) -> usize {
        s.details().len().div_ceil(3) * 4 + s.message().len().min(MESSAGE_BUDGET / 3) * 3
    }

    #[test]
    fn every_result_fits_with_messages_cut_as_needed() {
        // 40 updates with long messages: all 40 results, messages cut.
        let s = status(&failures(40, 300));
        let d = details(&s);
        assert_eq!(d.len(), 40);
        assert_eq!(d[0].canonical_code, Code::Ok as i32);
        assert_eq!(d[1].canonical_code, Code::AlreadyExists as i32);
        assert!(!d[1].message.is_empty() && d[1].message.len() < 300);
        assert_eq!(s.message(), "26 of 40 updates failed");
        // A short batch keeps whole messages.
        let d = details(&status(&failures(3, 100)));
        assert_eq!(d[1].message.len(), 100);
        assert!(metadata_bytes(&status(&failures(40, 300))) < 8 * 1024);
    }

    #[test]
    fn a_huge_batch_reports_its_first_results_and_a_summary() {
        let s = status(&failures(10_000, 300));
        let d = details(&s);
        assert!(d.len() > 50 && d.len() < 10_000, "{}", d.len());
        assert!(
            s.message()
                .starts_with("6666 of 10000 updates failed (6666 ALREADY_EXISTS); the details hold the results of updates 0.."),
            "{}",
            s.message()
        );
        assert!(s.message().contains("[1] ALREADY_EXISTS: xxx"));
        // Non-ASCII text takes three bytes a byte on the wire: the message
        // stays within its budget once encoded.
        let wide: Vec<Result<(), RpcError>> = (0..10_000)
            .map(|_| Err(RpcError::new(Code::Internal, "é".repeat(300))))
            .collect();
        let wide = status(&wide);
        assert!(wide.message().contains('é'));
        let encoded: usize = wide
            .message()
            .chars()
            .map(|c| {
                if c.is_ascii_graphic() || c == ' ' {
                    1
                } else {
                    3 * c.len_utf8()
                }
            })
            .sum();
        assert!(encoded <= MESSAGE_BUDGET, "{encoded}");
        assert!(metadata_bytes(&s) < 8 * 1024, "{}", metadata_bytes(&s));
    }
}
