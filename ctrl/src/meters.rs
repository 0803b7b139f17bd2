//! Meters and direct meters: MeterEntry and DirectMeterEntry MODIFY set a
//! cell's rates in the switch (`Target::set_meter_rates`); reads return
//! the config as it was written.
//!
//! **Units.** A P4Runtime `MeterConfig` gives rates (`cir`, `pir`) in units
//! per second and bursts (`cburst`, `pburst`) in units, the unit being the
//! meter's (packets or bytes, `MeterSpec.unit`). The behavioural model's
//! `meter::Rate` counts units per *microsecond*, so a rate becomes
//! `per_us = rate / 1_000_000` (a float: 1 packet/s is 1e-6 per µs); bursts
//! are taken as they are.
//!
//! v1model meters are two-rate three-colour (RFC 2698): `eburst` (for
//! single-rate meters) must be 0, `cir` may not exceed `pir`, and no value
//! may be negative (INVALID_ARGUMENT). A MODIFY without a config resets
//! the cell to its default, every packet GREEN; the model has no "unset",
//! so the server gives the cell rates no packet can exceed and reads it
//! back without a config. `counter_data` (per-colour counts) is not kept by
//! the model: setting it is UNIMPLEMENTED, reads leave it out.
//!
//! A direct meter has one cell per entry of its table (the entry's slot);
//! deleting the entry resets its cell, so an entry inserted later starts
//! unconfigured.

use crate::cells::{Indexed, selected};
use crate::codec::{RpcError, invalid, only_modify};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::tables::{TableMap, Tables};
use janus_engine::meter::Rate;
use janus_engine::table::FieldMatch;
use janus_engine::target::Target;
use std::collections::BTreeMap;
use tonic::Code;

/// The meters of a pipeline and the configs written to them.
#[derive(Debug, Default)]
pub struct Meters {
    indexed: BTreeMap<u32, Indexed<()>>,
    /// Direct meter id -> (table id, switch name).
    direct: BTreeMap<u32, (u32, String)>,
    /// The config a MODIFY without an index gave every cell of a meter.
    all: BTreeMap<u32, p4::MeterConfig>,
    /// Configs of single cells, (meter id, index), over `all`.
    cells: BTreeMap<(u32, u64), Option<p4::MeterConfig>>,
    /// Direct meter configs by (table id, entry slot).
    entries: BTreeMap<(u32, u32), p4::MeterConfig>,
}

impl Meters {
    /// Maps the P4Info's meters and direct meters (by name; the switch
    /// knows them by the same control-plane names).
    pub(crate) fn build(info: &cfg::P4Info) -> Meters {
        let mut m = Meters::default();
        for x in &info.meters {
            let p = x.preamble.clone().unwrap_or_default();
            m.indexed.insert(
                p.id,
                Indexed {
                    name: p.name,
                    size: x.size.max(0) as u64,
                    shape: (),
                },
            );
        }
        for x in &info.direct_meters {
            let p = x.preamble.clone().unwrap_or_default();
            if x.direct_table_id != 0 {
                m.direct.insert(p.id, (x.direct_table_id, p.name));
            }
        }
        m
    }

    /// The direct meter (switch name) of table `table_id`.
    fn direct_of(&self, table_id: u32) -> Option<&str> {
        self.direct
            .values()
            .find(|(t, _)| *t == table_id)
            .map(|(_, n)| n.as_str())
    }
}

/// The model's rates for a config, checked (`None`: reset, every packet
/// GREEN).
fn rates(c: Option<&p4::MeterConfig>, what: &str) -> Result<(Rate, Rate), RpcError> {
    let Some(c) = c else {
        // No packet exceeds this: the bucket holds 2^64 units and refills
        // at 10^12 units per microsecond.
        let open = Rate {
            per_us: 1e12,
            burst: u64::MAX,
        };
        return Ok((open, open));
    };
    if c.cir < 0 || c.cburst < 0 || c.pir < 0 || c.pburst < 0 || c.eburst < 0 {
        return Err(invalid(format!("{what}: negative rates or bursts")));
    }
    if c.eburst != 0 {
        return Err(invalid(format!(
            "{what}: eburst is for single-rate meters; v1model meters are two-rate three-colour"
        )));
    }
    if c.cir > c.pir {
        return Err(invalid(format!(
            "{what}: the committed rate ({}) exceeds the peak rate ({})",
            c.cir, c.pir
        )));
    }
    let rate = |per_s: i64, burst: i64| Rate {
        per_us: per_s as f64 / 1e6,
        burst: burst as u64,
    };
    Ok((rate(c.cir, c.cburst), rate(c.pir, c.pburst)))
}

fn no_counter_data(d: Option<&p4::MeterCounterData>, what: &str) -> Result<(), RpcError> {
    match d {
        Some(_) => Err(RpcError::new(
            Code::Unimplemented,
            format!("{what}: per-colour meter counts are not kept by the model"),
        )),
        None => Ok(()),
    }
}

impl Meters {
    /// A MeterEntry update (MODIFY only; no index: every cell).
    pub(crate) fn write(
        &mut self,
        switch: &mut dyn Target,
        kind: p4::update::Type,
        e: &p4::MeterEntry,
    ) -> Result<(), RpcError> {
        only_modify(kind, "a meter entry")?;
        let m = self.indexed.get(&e.meter_id).ok_or_else(|| {
            RpcError::new(Code::NotFound, format!("no meter with id {}", e.meter_id))
        })?;
        let range = m.cells(e.index.as_ref())?;
        no_counter_data(e.counter_data.as_ref(), &m.name)?;
        let (committed, peak) = rates(e.config.as_ref(), &m.name)?;
        let index = e.index.as_ref().map(|_| range.start as usize);
        switch
            .set_meter_rates(&m.name, index, committed, peak)
            .map_err(|_| {
                RpcError::new(
                    Code::Internal,
                    format!("{}: no such meter in the switch", m.name),
                )
            })?;
        match index {
            Some(i) => {
                self.cells.insert((e.meter_id, i as u64), e.config);
            }
            None => {
                self.cells.retain(|(id, _), _| *id != e.meter_id);
                match &e.config {
                    Some(c) => self.all.insert(e.meter_id, *c),
                    None => self.all.remove(&e.meter_id),
                };
            }
        }
        Ok(())
    }

    /// The cells a MeterEntry read asks for (meter id 0: every meter; no
    /// index: every cell), each with its config if one was written.
    pub(crate) fn read(&self, f: &p4::MeterEntry) -> Result<Vec<p4::Entity>, RpcError> {
        let mut out = Vec::new();
        for (id, m, index) in selected(&self.indexed, f.meter_id, f.index.as_ref(), "meter")? {
            for i in m.cells(index)? {
                let config = match self.cells.get(&(id, i)) {
                    Some(c) => *c,
                    None => self.all.get(&id).cloned(),
                };
                out.push(p4::Entity {
                    entity: Some(p4::entity::Entity::MeterEntry(p4::MeterEntry {
                        meter_id: id,
                        index: Some(p4::Index { index: i as i64 }),
                        config,
                        counter_data: None,
                    })),
                });
            }
        }
        Ok(out)
    }

    /// A DirectMeterEntry update (MODIFY only): the config of one table
    /// entry's cell.
    pub(crate) fn write_direct(
        &mut self,
        switch: &mut dyn Target,
        tables: &Tables,
        kind: p4::update::Type,
        e: &p4::DirectMeterEntry,
    ) -> Result<(), RpcError> {
        only_modify(kind, "a direct meter entry")?;
        let te = e
            .table_entry
            .as_ref()
            .ok_or_else(|| invalid("a direct meter entry needs its table entry"))?;
        if te.is_default_action {
            return Err(RpcError::new(
                Code::Unimplemented,
                "the direct meter cell of a default entry is not supported",
            ));
        }
        no_counter_data(e.counter_data.as_ref(), "direct meter")?;
        let (t, key) = tables.entry_key(te)?;
        self.set_direct(switch, t, &key, i64::from(te.priority), e.config.as_ref())
    }

    /// Sets the direct meter cell of the entry (`key`, `priority`) of
    /// table `t`.
    fn set_direct(
        &mut self,
        switch: &mut dyn Target,
        t: &TableMap,
        key: &[FieldMatch],
        priority: i64,
        config: Option<&p4::MeterConfig>,
    ) -> Result<(), RpcError> {
        let table_id = t.id;
        let Some(name) = self.direct_of(table_id).map(str::to_string) else {
            return Err(invalid(format!("table {} has no direct meter", t.name)));
        };
        let index = t.entry_index(switch, key, priority)?;
        let (committed, peak) = rates(config, &name)?;
        switch
            .set_meter_rates(&name, Some(index as usize), committed, peak)
            .map_err(|_| {
                RpcError::new(Code::Internal, format!("{name}: no cell for entry {index}"))
            })?;
        match config {
            Some(c) => self.entries.insert((table_id, index), *c),
            None => self.entries.remove(&(table_id, index)),
        };
        Ok(())
    }

    /// Checks the `meter_config` of a TableEntry INSERT or MODIFY before
    /// the switch changes: the table must have a direct meter and the
    /// config must be valid.
    pub(crate) fn check_entry_config(
        &self,
        t: &TableMap,
        te: &p4::TableEntry,
    ) -> Result<(), RpcError> {
        let Some(c) = &te.meter_config else {
            return Ok(());
        };
        let Some(name) = self.direct_of(t.id) else {
            return Err(invalid(format!("table {} has no direct meter", t.name)));
        };
        rates(Some(c), name).map(|_| ())
    }

    /// Writes the `meter_config` of a TableEntry INSERT or MODIFY (checked
    /// by [`Meters::check_entry_config`]), if given.
    pub(crate) fn write_entry_config(
        &mut self,
        switch: &mut dyn Target,
        t: &TableMap,
        te: &p4::TableEntry,
        key: &[FieldMatch],
        priority: i64,
    ) -> Result<(), RpcError> {
        match &te.meter_config {
            Some(c) => self.set_direct(switch, t, key, priority, Some(c)),
            None => Ok(()),
        }
    }

    /// Resets the direct meter cell of a deleted entry.
    pub(crate) fn forget_direct(&mut self, switch: &mut dyn Target, table_id: u32, index: u32) {
        if self.entries.remove(&(table_id, index)).is_some()
            && let Some(name) = self.direct_of(table_id).map(str::to_string)
            && let Ok((c, p)) = rates(None, &name)
        {
            // The cell existed when the entry was written; a pipeline
            // without it has nothing to reset.
            let _ = switch.set_meter_rates(&name, Some(index as usize), c, p);
        }
    }

    /// The config written to the direct meter cell of entry `index` of
    /// table `table_id`.
    pub(crate) fn direct_config(&self, table_id: u32, index: u32) -> Option<p4::MeterConfig> {
        self.entries.get(&(table_id, index)).cloned()
    }

    /// The tables a DirectMeterEntry read of `table_id` covers: every
    /// table with a direct meter for 0, else that one (which must have
    /// one).
    pub(crate) fn direct_tables(
        &self,
        tables: &Tables,
        table_id: u32,
    ) -> Result<Vec<u32>, RpcError> {
        if table_id == 0 {
            return Ok(self.direct.values().map(|(t, _)| *t).collect());
        }
        tables.get(table_id)?;
        if self.direct_of(table_id).is_none() {
            return Err(invalid(format!("table {table_id} has no direct meter")));
        }
        Ok(vec![table_id])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_convert_per_second_to_per_microsecond() {
        let c = p4::MeterConfig {
            cir: 1_000,
            cburst: 10,
            pir: 2_000_000,
            pburst: 20,
            eburst: 0,
        };
        let (committed, peak) = rates(Some(&c), "m").unwrap();
        assert_eq!(committed.per_us, 0.001);
        assert_eq!(committed.burst, 10);
        assert_eq!(peak.per_us, 2.0);
        assert_eq!(peak.burst, 20);
        let bad = |c: p4::MeterConfig| rates(Some(&c), "m").unwrap_err().code;
        assert_eq!(
            bad(p4::MeterConfig {
                cir: 3,
                pir: 2,
                ..c
            }),
            Code::InvalidArgument
        );
        assert_eq!(
            bad(p4::MeterConfig { eburst: 1, ..c }),
            Code::InvalidArgument
        );
        assert_eq!(
            bad(p4::MeterConfig { cburst: -1, ..c }),
            Code::InvalidArgument
        );
    }
}
