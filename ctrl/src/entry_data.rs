//! What P4Runtime keeps with a table entry beside its key and action, which
//! the switch does not hold: the controller's opaque `metadata` bytes and
//! the entry's idle timeout (P4Runtime 1.5 §9.1: `idle_timeout_ns`,
//! `time_since_last_hit`, IdleTimeoutNotification).
//!
//! Idle timeouts work on tables whose program sets `support_timeout = true`
//! (P4Info `idle_timeout_behavior: NOTIFY_CONTROL`); elsewhere a non-zero
//! `idle_timeout_ns` is INVALID_ARGUMENT. An entry's idle time runs from its
//! last hit (the switch records hits of such tables), or from its insertion
//! when it has not been hit. Once it reaches the timeout the entry is
//! reported once ([`EntryData::expired`]); the entry stays (the
//! controller decides), and is reported again only after a new hit and a
//! new full timeout.

use crate::codec::RpcError;
use crate::proto::p4::v1 as p4;
use crate::tables::{TableMap, Tables};
use janus_engine::table::FieldMatch;
use janus_engine::target::Target;
use std::collections::HashMap;
use tonic::Code;

/// The extra data of the entries that have some, by (table id, entry
/// index in the switch's table).
#[derive(Default)]
pub(crate) struct EntryData {
    by_entry: HashMap<(u32, u32), Extra>,
}

#[derive(Clone, Default)]
struct Extra {
    metadata: Vec<u8>,
    idle: Option<Idle>,
}

#[derive(Clone)]
struct Idle {
    timeout_ns: i64,
    /// When the entry was inserted (the switch's clock, µs).
    since_us: u64,
    /// When the entry was last reported idle, if it has not been hit since.
    reported_at_us: Option<u64>,
}

impl EntryData {
    /// Checks the extra data of an INSERT or MODIFY before the switch
    /// changes.
    pub(crate) fn check(
        switch: &dyn Target,
        t: &TableMap,
        te: &p4::TableEntry,
    ) -> Result<(), RpcError> {
        if te.idle_timeout_ns < 0 {
            return Err(RpcError::new(
                Code::InvalidArgument,
                format!("idle_timeout_ns {} is negative", te.idle_timeout_ns),
            ));
        }
        let supported = switch.table(t.slot).is_some_and(|s| s.idle_timeout);
        if te.idle_timeout_ns > 0 && !supported {
            return Err(RpcError::new(
                Code::InvalidArgument,
                format!(
                    "table {} does not support idle timeouts (its program has no support_timeout = true)",
                    t.name
                ),
            ));
        }
        Ok(())
    }

    /// Records the extra data of the entry just inserted (`inserted`) or
    /// modified with key `key`.
    pub(crate) fn record(
        &mut self,
        switch: &dyn Target,
        t: &TableMap,
        te: &p4::TableEntry,
        key: &[FieldMatch],
        inserted: bool,
    ) {
        let Some(state) = switch.table(t.slot) else {
            return;
        };
        let Some(index) = state.index_of(key, i64::from(te.priority)) else {
            return;
        };
        let now = switch.now_us();
        let slot = (te.table_id, index);
        let old = if inserted {
            None
        } else {
            self.by_entry.get(&slot).cloned()
        };
        let idle = (te.idle_timeout_ns > 0).then(|| Idle {
            timeout_ns: te.idle_timeout_ns,
            since_us: old
                .as_ref()
                .and_then(|o| o.idle.as_ref())
                .map_or(now, |i| i.since_us),
            reported_at_us: None,
        });
        if te.metadata.is_empty() && idle.is_none() {
            self.by_entry.remove(&slot);
        } else {
            self.by_entry.insert(
                slot,
                Extra {
                    metadata: te.metadata.clone(),
                    idle,
                },
            );
        }
    }

    /// Forgets the extra data of a deleted entry.
    pub(crate) fn forget(&mut self, table_id: u32, index: u32) {
        self.by_entry.remove(&(table_id, index));
    }

    /// Fills a read entry's metadata and idle timeout, and its time since
    /// the last hit when `elapsed` (the read asked for it) and the table
    /// supports idle timeouts.
    pub(crate) fn fill(
        &self,
        switch: &dyn Target,
        t: &TableMap,
        index: u32,
        te: &mut p4::TableEntry,
        elapsed: bool,
    ) {
        let extra = self.by_entry.get(&(te.table_id, index));
        if let Some(x) = extra {
            te.metadata = x.metadata.clone();
            te.idle_timeout_ns = x.idle.as_ref().map_or(0, |i| i.timeout_ns);
        }
        let Some(state) = switch.table(t.slot) else {
            return;
        };
        if elapsed && state.idle_timeout {
            let since = extra
                .and_then(|x| x.idle.as_ref())
                .map_or(0, |i| i.since_us);
            let last = state.last_hit_us(index).unwrap_or(0).max(since);
            let elapsed_us = switch.now_us().saturating_sub(last);
            te.time_since_last_hit = Some(p4::table_entry::IdleTimeout {
                elapsed_ns: i64::try_from(elapsed_us.saturating_mul(1000)).unwrap_or(i64::MAX),
            });
        }
    }

    /// The entries, as (table id, index), whose idle timeout ran out since
    /// they were last hit and have not been reported yet, in order; each
    /// is marked reported.
    pub(crate) fn expired(&mut self, switch: &dyn Target, tables: &Tables) -> Vec<(u32, u32)> {
        let now = switch.now_us();
        let mut due = Vec::new();
        for (&(table_id, index), extra) in &mut self.by_entry {
            let Some(idle) = extra.idle.as_mut() else {
                continue;
            };
            let Some(slot) = tables.find(table_id).map(|t| t.slot) else {
                continue;
            };
            let Some(state) = switch.table(slot) else {
                continue;
            };
            let last = state.last_hit_us(index).unwrap_or(0).max(idle.since_us);
            if idle.reported_at_us.is_some_and(|r| last <= r) {
                continue;
            }
            let idle_ns = now.saturating_sub(last).saturating_mul(1000);
            if idle_ns >= idle.timeout_ns as u64 {
                idle.reported_at_us = Some(now);
                due.push((table_id, index));
            }
        }
        due.sort_unstable();
        due
    }
}
