//! Counters and direct counters: CounterEntry and DirectCounterEntry
//! MODIFY set a cell's counts in the switch; reads give them in the
//! counter's unit (P4Runtime 1.5 §9.2, §9.3). A direct counter has one
//! cell per entry of its table, named by the entry's key.

use crate::cells::{Indexed, selected};
use crate::codec::{RpcError, invalid, only_modify};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::tables::Tables;
use cfg::counter_spec::Unit;
use janus_engine::target::Target;
use std::collections::BTreeMap;
use tonic::Code;

/// The counters and direct counters of a pipeline.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    indexed: BTreeMap<u32, Indexed<Unit>>,
    /// Direct counter id -> (table id, unit).
    direct: BTreeMap<u32, (u32, Unit)>,
}

impl Counters {
    /// Maps the P4Info's counters and direct counters onto the switch (by
    /// name; a counter the switch lacks is left out with a warning).
    pub(crate) fn build(info: &cfg::P4Info, switch: &dyn Target) -> Counters {
        let mut r = Counters::default();
        // An unknown unit counts both, as UNSPECIFIED does.
        let unit = |s: &Option<cfg::CounterSpec>| {
            s.as_ref()
                .and_then(|s| Unit::try_from(s.unit).ok())
                .unwrap_or(Unit::Unspecified)
        };
        for c in &info.counters {
            let p = c.preamble.clone().unwrap_or_default();
            if c.size > 0 && switch.counter(&p.name, 0).is_none() {
                tracing::warn!(counter = %p.name, "no such counter in the switch");
                continue;
            }
            r.indexed.insert(
                p.id,
                Indexed {
                    name: p.name,
                    size: c.size.max(0) as u64,
                    shape: unit(&c.spec),
                },
            );
        }
        for c in &info.direct_counters {
            let p = c.preamble.clone().unwrap_or_default();
            if c.direct_table_id == 0 {
                continue;
            }
            r.direct.insert(p.id, (c.direct_table_id, unit(&c.spec)));
        }
        r
    }

    /// The direct counter of table `table_id`, with its unit.
    pub(crate) fn direct_of(&self, table_id: u32) -> Option<Unit> {
        self.direct
            .values()
            .find(|(t, _)| *t == table_id)
            .map(|(_, u)| *u)
    }

    /// The tables a DirectCounterEntry read of `table_id` covers: every
    /// table with a direct counter for 0, else that one (which must have
    /// one).
    pub(crate) fn direct_tables(
        &self,
        tables: &Tables,
        table_id: u32,
    ) -> Result<Vec<u32>, RpcError> {
        if table_id == 0 {
            return Ok(self.direct.values().map(|(t, _)| *t).collect());
        }
        if self.direct_of(table_id).is_none() {
            tables.name(table_id)?;
            return Err(invalid(format!("table {table_id} has no direct counter")));
        }
        Ok(vec![table_id])
    }

    /// A CounterEntry update (MODIFY only; no index: every cell).
    pub(crate) fn write(
        &self,
        switch: &mut dyn Target,
        kind: p4::update::Type,
        e: &p4::CounterEntry,
    ) -> Result<(), RpcError> {
        only_modify(kind, "a counter entry")?;
        let c = self.indexed.get(&e.counter_id).ok_or_else(|| {
            RpcError::new(
                Code::NotFound,
                format!("no counter with id {}", e.counter_id),
            )
        })?;
        let range = c.cells(e.index.as_ref())?;
        let Some(data) = &e.data else {
            return Ok(());
        };
        if data.packet_count < 0 || data.byte_count < 0 {
            return Err(invalid(format!("{}: negative counts", c.name)));
        }
        for i in range {
            switch
                .counter_write(
                    &c.name,
                    i as usize,
                    data.packet_count as u64,
                    data.byte_count as u64,
                )
                .map_err(|_| {
                    RpcError::new(Code::Internal, format!("{}: cell {i} is missing", c.name))
                })?;
        }
        Ok(())
    }

    /// A DirectCounterEntry MODIFY: sets one table entry's counts (its
    /// key names it; no data: nothing changes).
    pub(crate) fn write_direct(
        &self,
        switch: &mut dyn Target,
        tables: &Tables,
        kind: p4::update::Type,
        d: &p4::DirectCounterEntry,
    ) -> Result<(), RpcError> {
        only_modify(kind, "a direct counter entry")?;
        let te = d
            .table_entry
            .as_ref()
            .ok_or_else(|| invalid("the direct counter entry names no table entry"))?;
        if self.direct_of(te.table_id).is_none() {
            tables.name(te.table_id)?;
            return Err(invalid(format!(
                "table {} has no direct counter",
                te.table_id
            )));
        }
        if te.is_default_action {
            return Err(invalid(
                "default entries have no direct counter cell in v1model",
            ));
        }
        let (t, key) = tables.entry_key(te)?;
        let index = t.entry_index(switch, &key, i64::from(te.priority))?;
        let state = switch
            .table(t.slot)
            .ok_or_else(|| RpcError::new(Code::Internal, "table slot vanished"))?;
        let Some(data) = &d.data else {
            return Ok(());
        };
        if data.packet_count < 0 || data.byte_count < 0 {
            return Err(invalid("negative counts"));
        }
        if !state.set_hit_counts(index, data.packet_count as u64, data.byte_count as u64) {
            return Err(RpcError::new(
                Code::Internal,
                "the entry's counter cell is missing",
            ));
        }
        Ok(())
    }

    /// The cells a CounterEntry read asks for (counter id 0: every
    /// counter; no index: every cell).
    pub(crate) fn read(
        &self,
        switch: &dyn Target,
        f: &p4::CounterEntry,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        let mut out = Vec::new();
        for (id, c, index) in selected(&self.indexed, f.counter_id, f.index.as_ref(), "counter")? {
            for i in c.cells(index)? {
                let counts = switch.counter(&c.name, i as usize).unwrap_or((0, 0));
                out.push(p4::Entity {
                    entity: Some(p4::entity::Entity::CounterEntry(p4::CounterEntry {
                        counter_id: id,
                        index: Some(p4::Index { index: i as i64 }),
                        data: Some(counter_data(c.shape, counts)),
                    })),
                });
            }
        }
        Ok(out)
    }
}

/// Counts as the counter's unit keeps them.
pub(crate) fn counter_data(unit: Unit, (packets, bytes): (u64, u64)) -> p4::CounterData {
    let clamp = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    p4::CounterData {
        byte_count: if matches!(unit, Unit::Packets) {
            0
        } else {
            clamp(bytes)
        },
        packet_count: if matches!(unit, Unit::Bytes) {
            0
        } else {
            clamp(packets)
        },
    }
}
