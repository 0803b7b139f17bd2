//! The externs' state: counters, meters and registers by instance, their
//! sizes checked at load, and what the control plane reads and writes.

use super::{Requests, Shared, StateId, V1Externs};
use janus_engine::eval::scalar_shape;
use janus_engine::meter::{Color, Meter, Rate};
use janus_engine::value::Bits;
use janus_p4::ir::{self, InstanceId, InstanceOf};
use std::cell::RefCell;
use std::collections::HashMap;

/// A meter instance: its cells and what it measures.
pub(super) struct MeterArray {
    pub(super) bytes: bool,
    pub(super) cells: Vec<Meter>,
    /// A direct meter's table slot: its entries each have a cell.
    pub(super) direct_slot: Option<u32>,
}

/// The most cells a counter, meter or register array, or a table's direct
/// meter, may have: each is allocated whole when the program loads.
pub const MAX_CELLS: usize = 1 << 24;

/// A counter, meter or register array the simulator cannot hold.
#[derive(Debug, thiserror::Error)]
pub enum SizeError {
    /// The size argument (of the extern named here) did not fold once its
    /// block's constructor arguments were bound.
    #[error("`{name}`: the size is not a compile-time constant (e.g. a division by zero)")]
    NotConstant { name: String, instance: InstanceId },
    /// More than [`MAX_CELLS`] cells.
    #[error("`{name}` has {cells} cells; the simulator holds at most {MAX_CELLS}")]
    TooLarge {
        name: String,
        cells: String,
        instance: Option<InstanceId>,
    },
}

impl SizeError {
    /// The extern instance whose size is refused, when known.
    pub fn instance(&self) -> Option<InstanceId> {
        match self {
            SizeError::NotConstant { instance, .. } => Some(*instance),
            SizeError::TooLarge { instance, .. } => *instance,
        }
    }
}

/// The cell count of the counter, meter or register `inst` (named `name`):
/// its first argument. `in_block` tells whether the instance was placed in
/// a block instance: one that was not may be the unused original of a
/// block copied per constructor arguments, whose size is still open.
pub(super) fn cells(
    inst: &ir::Instance,
    id: InstanceId,
    name: &str,
    in_block: bool,
) -> Result<usize, SizeError> {
    match inst.args.first().map(|a| &a.kind) {
        Some(ir::ExprKind::Const(ir::Value::Int(n))) => match usize::try_from(n) {
            Ok(c) if c <= MAX_CELLS => Ok(c),
            _ => Err(SizeError::TooLarge {
                name: name.to_string(),
                cells: n.to_string(),
                instance: Some(id),
            }),
        },
        Some(_) if in_block => Err(SizeError::NotConstant {
            name: name.to_string(),
            instance: id,
        }),
        _ => Ok(0),
    }
}

impl V1Externs {
    pub fn new(p: &ir::Program, shared: Shared) -> Result<V1Externs, SizeError> {
        let kinds = p
            .instances
            .iter()
            .enumerate()
            .filter_map(|(i, inst)| match &inst.of {
                InstanceOf::Extern { name } => Some((InstanceId(i as u32), name.clone())),
                _ => None,
            })
            .collect();
        // Each extern declared in a block gets state per instance of the
        // block; the others (declared at top level) once.
        let mut placed: Vec<(String, InstanceId, String)> = Vec::new();
        let mut in_blocks = std::collections::HashSet::new();
        for (b, path) in p.instance_paths() {
            for &i in &p.blocks[b.0 as usize].instances {
                in_blocks.insert(i);
                let name = p.instances[i.0 as usize].cp_name.under(&path);
                placed.push((path.clone(), i, name));
            }
        }
        for i in (0..p.instances.len() as u32).map(InstanceId) {
            if !in_blocks.contains(&i) {
                let name = p.instances[i.0 as usize].cp_name.under("");
                placed.push((String::new(), i, name));
            }
        }
        let mut states = HashMap::new();
        let mut names = HashMap::new();
        let mut counters = vec![None; placed.len()];
        let mut registers = vec![None; placed.len()];
        let mut meters: Vec<Option<MeterArray>> = (0..placed.len()).map(|_| None).collect();
        for (path, i, name) in placed {
            let inst = &p.instances[i.0 as usize];
            let id = states.len() as StateId;
            let in_block = !path.is_empty();
            let size = |inst: &ir::Instance| cells(inst, i, &name, in_block);
            states.insert((path, i), id);
            match &inst.of {
                InstanceOf::Extern { name } if name == "counter" => {
                    counters[id as usize] = Some(vec![(0, 0); size(inst)?]);
                }
                InstanceOf::Extern { name } if name == "direct_counter" => {
                    counters[id as usize] = Some(vec![(0, 0); 1]);
                }
                InstanceOf::Extern { name } if name == "meter" || name == "direct_meter" => {
                    let (cells, type_arg) = if name == "meter" {
                        (size(inst)?, inst.args.get(1))
                    } else {
                        (1, inst.args.first())
                    };
                    // MeterType: packets (0), bytes (1).
                    let bytes = matches!(
                        type_arg.map(|a| &a.kind),
                        Some(ir::ExprKind::Const(ir::Value::Enum(1)))
                    );
                    meters[id as usize] = Some(MeterArray {
                        bytes,
                        cells: vec![Meter::default(); cells],
                        direct_slot: None,
                    });
                }
                InstanceOf::Extern { name } if name == "register" => {
                    let width = match p.types.get(inst.ty) {
                        janus_p4::types::Ty::Extern { args, .. } => args
                            .first()
                            .and_then(|t| scalar_shape(&p.types, *t))
                            .map_or(32, |(w, _)| w),
                        _ => 32,
                    };
                    registers[id as usize] = Some(vec![Bits::zero(width, false); size(inst)?]);
                }
                _ => {}
            }
            names.insert(name, id);
        }
        Ok(V1Externs {
            calls: RefCell::new(Vec::new()),
            kinds,
            std: shared.std,
            arena_bytes: shared.arena_bytes,
            states,
            names,
            counters,
            registers,
            meters,
            started: std::time::Instant::now(),
            digests: Vec::new(),
            digests_dropped: 0,
            ingress_length: 0,
            truncate_to: None,
            requests: Requests::default(),
            rng: 0x2545_F491_4F6C_DD1D,
            scratch: Vec::new(),
            widths: (0..p.types.len() as u32)
                .map(|t| scalar_shape(&p.types, janus_p4::types::TyId(t)).map(|(w, _)| w))
                .collect(),
            sizes: {
                let mut layouts = janus_engine::layout::Layouts::new(&p.types);
                (0..p.types.len() as u32)
                    .map(|t| {
                        let l = layouts.layout(janus_p4::types::TyId(t)).ok()?;
                        l.bytes.checked_mul(8)
                    })
                    .collect()
            },
            data_lists: RefCell::new(Vec::new()),
            colour_targets: RefCell::new(Vec::new()),
        })
    }

    /// Packets and bytes counted by `counter` instance `id` at `index`.
    pub fn counter(&self, id: StateId, index: usize) -> Option<(u64, u64)> {
        self.counters
            .get(id as usize)?
            .as_ref()?
            .get(index)
            .copied()
    }

    /// Value of `register` instance `id` at `index`.
    pub fn register(&self, id: StateId, index: usize) -> Option<&Bits> {
        self.registers.get(id as usize)?.as_ref()?.get(index)
    }

    pub fn counter_mut(&mut self, id: StateId, index: usize) -> Option<&mut (u64, u64)> {
        self.counters.get_mut(id as usize)?.as_mut()?.get_mut(index)
    }

    /// Sets every cell of register `id` to 0; false if there is no such
    /// register.
    pub fn register_reset(&mut self, id: StateId) -> bool {
        match self.registers.get_mut(id as usize).and_then(Option::as_mut) {
            Some(cells) => {
                cells
                    .iter_mut()
                    .for_each(|c| *c = Bits::zero(c.width(), false));
                true
            }
            None => false,
        }
    }

    pub fn register_mut(&mut self, id: StateId, index: usize) -> Option<&mut Bits> {
        self.registers
            .get_mut(id as usize)?
            .as_mut()?
            .get_mut(index)
    }

    /// Gives the direct meter `inst` (declared in the block at `path`) one
    /// cell per entry of the table in `slot`, which holds up to `entries`.
    pub fn attach_direct_meter(
        &mut self,
        path: &str,
        inst: InstanceId,
        slot: u32,
        entries: usize,
    ) -> Result<(), SizeError> {
        let Some(id) = self.state_of(path, inst) else {
            return Ok(());
        };
        if let Some(m) = self.meters.get_mut(id as usize).and_then(Option::as_mut) {
            if entries > MAX_CELLS {
                let name = self.names.iter().find(|(_, i)| **i == id).map(|(n, _)| n);
                return Err(SizeError::TooLarge {
                    name: name.cloned().unwrap_or_default(),
                    cells: entries.to_string(),
                    instance: Some(inst),
                });
            }
            m.cells = vec![Meter::default(); entries];
            m.direct_slot = Some(slot);
        }
        Ok(())
    }

    /// The field lists made from the `data` arguments of deprecated calls:
    /// list `DATA_LISTS + i` is the `i`th.
    pub fn data_lists(&self) -> Vec<Vec<(u32, u32)>> {
        self.data_lists.borrow().clone()
    }

    /// The table slots of the direct meters that write a colour on every
    /// hit (their tables must call [`ExternHandler::table_hit`]).
    pub fn colour_slots(&self) -> Vec<u32> {
        let targets = self.colour_targets.borrow();
        targets
            .iter()
            .filter_map(|(id, _, _)| self.meters.get(*id as usize)?.as_ref()?.direct_slot)
            .collect()
    }

    /// The cells of counter `id` (none if it is not a counter).
    pub(super) fn cells(&mut self, id: StateId) -> &mut [(u64, u64)] {
        match self.counters.get_mut(id as usize) {
            Some(Some(cells)) => cells,
            _ => &mut [],
        }
    }

    /// Runs meter cell `index` of `id` on the current packet; `None` for a
    /// cell that does not exist.
    pub(super) fn meter(&mut self, id: StateId, index: usize) -> Option<Color> {
        let now_us = self.started.elapsed().as_micros() as u64;
        let bytes = self.ingress_length;
        let m = self.meters.get_mut(id as usize)?.as_mut()?;
        let units = if m.bytes { bytes } else { 1 };
        Some(m.cells.get_mut(index)?.execute(now_us, units))
    }

    /// Sets the rates of meter `id` (every cell when `index` is `None`);
    /// false if there is no such meter or cell.
    pub fn set_meter_rates(
        &mut self,
        id: StateId,
        index: Option<usize>,
        committed: Rate,
        peak: Rate,
    ) -> bool {
        let now_us = self.started.elapsed().as_micros() as u64;
        let Some(m) = self.meters.get_mut(id as usize).and_then(Option::as_mut) else {
            return false;
        };
        match index {
            Some(i) => match m.cells.get_mut(i) {
                Some(c) => c.set_rates(committed, peak, now_us),
                None => return false,
            },
            None => m
                .cells
                .iter_mut()
                .for_each(|c| c.set_rates(committed, peak, now_us)),
        }
        true
    }
}
