//! Registers: RegisterEntry MODIFY sets cells in the switch, reads give
//! them as bitstrings of the register's cell width (P4Runtime 1.5 §9.6).

use crate::cells::{Indexed, selected};
use crate::codec::{RpcError, from_bytes, invalid, only_modify, to_bytes, u64_of};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use janus_engine::target::Target;
use std::collections::BTreeMap;
use tonic::Code;

/// The registers of a pipeline, with the width of their cells.
#[derive(Debug, Default)]
pub(crate) struct Registers {
    indexed: BTreeMap<u32, Indexed<u32>>,
}

impl Registers {
    /// Maps the P4Info's registers onto the switch (by name; one the
    /// switch lacks, or of a cell type that is not a `bit<W>`, is left
    /// out).
    pub(crate) fn build(info: &cfg::P4Info, switch: &dyn Target) -> Registers {
        let mut r = Registers::default();
        for g in &info.registers {
            let p = g.preamble.clone().unwrap_or_default();
            let Some(width) = crate::p4info::register_width(g) else {
                continue;
            };
            if g.size > 0 && switch.register(&p.name, 0).is_none() {
                tracing::warn!(register = %p.name, "no such register in the switch");
                continue;
            }
            r.indexed.insert(
                p.id,
                Indexed {
                    name: p.name,
                    size: g.size.max(0) as u64,
                    shape: width,
                },
            );
        }
        r
    }

    /// A RegisterEntry update (MODIFY only; no index: every cell).
    pub(crate) fn write(
        &self,
        switch: &mut dyn Target,
        kind: p4::update::Type,
        e: &p4::RegisterEntry,
    ) -> Result<(), RpcError> {
        use p4::p4_data::Data;
        only_modify(kind, "a register entry")?;
        let r = self.indexed.get(&e.register_id).ok_or_else(|| {
            RpcError::new(
                Code::NotFound,
                format!("no register with id {}", e.register_id),
            )
        })?;
        let range = r.cells(e.index.as_ref())?;
        let width = r.shape;
        let bytes = match e.data.as_ref().and_then(|d| d.data.as_ref()) {
            Some(Data::Bitstring(b)) => b,
            Some(_) => {
                return Err(invalid(format!(
                    "{}: the data must be a bitstring (bit<{width}>)",
                    r.name
                )));
            }
            None => return Err(invalid(format!("{}: no data", r.name))),
        };
        let value = from_bytes(bytes, width, false, &r.name)?;
        let Some(v) = u64_of(&value) else {
            return Err(RpcError::new(
                Code::Unimplemented,
                format!("{}: values of 2^64 or more cannot be written yet", r.name),
            ));
        };
        for i in range {
            switch.register_write(&r.name, i as usize, v).map_err(|_| {
                RpcError::new(Code::Internal, format!("{}: cell {i} is missing", r.name))
            })?;
        }
        Ok(())
    }

    /// The cells a RegisterEntry read asks for (register id 0: every
    /// register; no index: every cell).
    pub(crate) fn read(
        &self,
        switch: &dyn Target,
        f: &p4::RegisterEntry,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        let mut out = Vec::new();
        for (id, r, index) in selected(&self.indexed, f.register_id, f.index.as_ref(), "register")?
        {
            for i in r.cells(index)? {
                let value = switch
                    .register(&r.name, i as usize)
                    .map_or_else(|| vec![0], to_bytes);
                out.push(p4::Entity {
                    entity: Some(p4::entity::Entity::RegisterEntry(p4::RegisterEntry {
                        register_id: id,
                        index: Some(p4::Index { index: i as i64 }),
                        data: Some(p4::P4Data {
                            data: Some(p4::p4_data::Data::Bitstring(value)),
                        }),
                    })),
                });
            }
        }
        Ok(out)
    }
}
