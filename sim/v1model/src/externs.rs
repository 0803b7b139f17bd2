//! v1model's externs as simple_switch implements them (a first set; the
//! rest make loading fail with a clear message rather than run wrongly).

use crate::meter::{Color, Meter, Rate};
use crate::{DROP_PORT, StdMeta};
use janus_engine::env::Env;
use janus_engine::eval::{Node, Place, scalar_shape};
use janus_engine::exec::Flow;
use janus_engine::externs::{ExternArg, ExternHandler, ExternResolver};
use janus_engine::value::{Bits, read_word, write_word};
use janus_p4::ir::{self, InstanceId, InstanceOf};
use std::cell::RefCell;
use std::collections::HashMap;

/// What the architecture needs to know of the program's layout.
pub(crate) struct Shared {
    pub std: StdMeta,
}

/// The state of one extern instance as placed in the pipeline: an extern
/// declared in a control instantiated twice has two.
pub(crate) type StateId = u32;

/// The kinds of call v1model implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    MarkToDrop,
    Count(StateId),
    ExecuteMeter(StateId),
    DirectMeterRead(StateId),
    DirectCount(StateId),
    RegisterRead(StateId),
    RegisterWrite(StateId),
    VerifyChecksum,
    UpdateChecksum,
    VerifyChecksumWithPayload,
    UpdateChecksumWithPayload,
    Truncate,
    /// `clone`/`clone3` (no field list) and `clone_preserving_field_list`.
    Clone {
        with_list: bool,
    },
    /// `resubmit`/`recirculate` (legacy: nothing kept) and their
    /// `*_preserving_field_list` forms.
    Resubmit {
        with_list: bool,
    },
    Recirculate {
        with_list: bool,
    },
    Hash,
    Random,
    Digest,
    NoOp,
}

/// v1model's `HashAlgorithm` members, in declaration order.
const CRC32: u64 = 0;
/// CRC-32 with parameters the control plane may change; bmv2 starts it
/// with CRC-32's, which Janus keeps.
const CRC32_CUSTOM: u64 = 1;
const CRC16: u64 = 2;
/// As `CRC32_CUSTOM`, for CRC-16.
const CRC16_CUSTOM: u64 = 3;
const IDENTITY: u64 = 5;
const CSUM16: u64 = 6;
const XOR16: u64 = 7;

/// Digests kept until the control plane takes them (as a switch's learning
/// queue is bounded); more are dropped and counted.
pub const MAX_PENDING_DIGESTS: usize = 4096;

/// A clone asked for with `clone*(type, session[, list])`; the last call
/// wins, as in simple_switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CloneRequest {
    /// E2E (from egress) rather than I2E.
    pub egress: bool,
    pub session: u32,
    /// The `@field_list` id whose metadata the copy keeps; `None`: none.
    pub field_list: Option<u32>,
}

/// What the running block asked the packet replication engine for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Requests {
    pub clone: Option<CloneRequest>,
    /// `Some(list)` when resubmit was called (`list`: the kept field list).
    pub resubmit: Option<Option<u32>>,
    pub recirculate: Option<Option<u32>>,
}

/// A meter instance: its cells and what it measures.
struct MeterArray {
    bytes: bool,
    cells: Vec<Meter>,
}

pub(crate) struct V1Externs {
    calls: RefCell<Vec<Call>>,
    kinds: HashMap<InstanceId, String>,
    std: StdMeta,
    /// State ids by (block instance path, extern instance); globals under
    /// the empty path.
    states: HashMap<(String, InstanceId), StateId>,
    /// State ids by control-plane name (`Ing.first.hits`).
    pub names: HashMap<String, StateId>,
    counters: HashMap<StateId, Vec<(u64, u64)>>,
    registers: HashMap<StateId, Vec<Bits>>,
    meters: HashMap<StateId, MeterArray>,
    /// Direct meters: the slot of the table whose entries each have a cell.
    direct_meters: HashMap<StateId, u32>,
    /// The meters' clock.
    started: std::time::Instant,
    /// Digests waiting for the control plane: (receiver, data bits); at
    /// most [`MAX_PENDING_DIGESTS`], later ones are counted and dropped.
    pub digests: Vec<(u64, Vec<u8>)>,
    pub digests_dropped: u64,
    /// The length of the packet as it entered this pass: what counters and
    /// meters charge, whatever the program wrote to `packet_length` (as
    /// bmv2's ingress length).
    pub ingress_length: u64,
    /// `truncate(n)`: send at most `n` bytes of this packet (the smallest
    /// `n` of every call in ingress and egress).
    pub truncate_to: Option<u32>,
    /// Clone, resubmit and recirculate asked for by the running block.
    pub requests: Requests,
    rng: u64,
    scratch: Vec<u8>,
    /// Width of every scalar type, by type id (for reading places).
    widths: Vec<Option<u32>>,
}

impl V1Externs {
    pub fn new(p: &ir::Program, shared: Shared) -> V1Externs {
        let kinds = p
            .instances
            .iter()
            .enumerate()
            .filter_map(|(i, inst)| match &inst.of {
                InstanceOf::Extern { name } => Some((InstanceId(i as u32), name.clone())),
                _ => None,
            })
            .collect();
        let size = |inst: &ir::Instance| match inst.args.first().map(|a| &a.kind) {
            Some(ir::ExprKind::Const(ir::Value::Int(n))) => usize::try_from(n).unwrap_or(0),
            _ => 0,
        };
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
        let mut counters = HashMap::new();
        let mut registers = HashMap::new();
        let mut meters = HashMap::new();
        for (path, i, name) in placed {
            let inst = &p.instances[i.0 as usize];
            let id = states.len() as StateId;
            states.insert((path, i), id);
            names.insert(name, id);
            match &inst.of {
                InstanceOf::Extern { name } if name == "counter" => {
                    counters.insert(id, vec![(0, 0); size(inst)]);
                }
                InstanceOf::Extern { name } if name == "direct_counter" => {
                    counters.insert(id, vec![(0, 0); 1]);
                }
                InstanceOf::Extern { name } if name == "meter" || name == "direct_meter" => {
                    let (cells, type_arg) = if name == "meter" {
                        (size(inst), inst.args.get(1))
                    } else {
                        (1, inst.args.first())
                    };
                    // MeterType: packets (0), bytes (1).
                    let bytes = matches!(
                        type_arg.map(|a| &a.kind),
                        Some(ir::ExprKind::Const(ir::Value::Enum(1)))
                    );
                    meters.insert(
                        id,
                        MeterArray {
                            bytes,
                            cells: vec![Meter::default(); cells],
                        },
                    );
                }
                InstanceOf::Extern { name } if name == "register" => {
                    let width = match p.types.get(inst.ty) {
                        janus_p4::types::Ty::Extern { args, .. } => args
                            .first()
                            .and_then(|t| scalar_shape(&p.types, *t))
                            .map_or(32, |(w, _)| w),
                        _ => 32,
                    };
                    registers.insert(id, vec![Bits::zero(width, false); size(inst)]);
                }
                _ => {}
            }
        }
        V1Externs {
            calls: RefCell::new(Vec::new()),
            kinds,
            std: shared.std,
            states,
            names,
            counters,
            registers,
            meters,
            direct_meters: HashMap::new(),
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
        }
    }

    /// Packets and bytes counted by `counter` instance `id` at `index`.
    pub fn counter(&self, id: StateId, index: usize) -> Option<(u64, u64)> {
        self.counters.get(&id).and_then(|c| c.get(index)).copied()
    }

    /// Value of `register` instance `id` at `index`.
    pub fn register(&self, id: StateId, index: usize) -> Option<&Bits> {
        self.registers.get(&id).and_then(|r| r.get(index))
    }

    pub fn counter_mut(&mut self, id: StateId, index: usize) -> Option<&mut (u64, u64)> {
        self.counters.get_mut(&id).and_then(|c| c.get_mut(index))
    }

    /// Sets every cell of register `id` to 0; false if there is no such
    /// register.
    pub fn register_reset(&mut self, id: StateId) -> bool {
        match self.registers.get_mut(&id) {
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
        self.registers.get_mut(&id).and_then(|r| r.get_mut(index))
    }
}

impl V1Externs {
    /// Gives the direct meter `inst` (declared in the block at `path`) one
    /// cell per entry of the table in `slot`, which holds up to `entries`.
    pub fn attach_direct_meter(&mut self, path: &str, inst: InstanceId, slot: u32, entries: usize) {
        let Some(id) = self.state_of(path, inst) else {
            return;
        };
        if let Some(m) = self.meters.get_mut(&id) {
            m.cells = vec![Meter::default(); entries];
            self.direct_meters.insert(id, slot);
        }
    }

    fn state_of(&self, path: &str, inst: InstanceId) -> Option<StateId> {
        self.states
            .get(&(path.to_string(), inst))
            .or_else(|| self.states.get(&(String::new(), inst)))
            .copied()
    }
}

impl ExternResolver for V1Externs {
    fn resolve(&self, name: &str, instance: Option<InstanceId>, path: &str) -> Option<u32> {
        let kind = instance
            .and_then(|i| self.kinds.get(&i))
            .map(String::as_str);
        let state = instance.and_then(|i| self.state_of(path, i));
        let call = match (name, kind, state) {
            ("mark_to_drop", None, _) => Call::MarkToDrop,
            ("count", Some("counter"), Some(i)) => Call::Count(i),
            ("count", Some("direct_counter"), Some(i)) => Call::DirectCount(i),
            ("execute_meter", Some("meter"), Some(i)) => Call::ExecuteMeter(i),
            ("read", Some("direct_meter"), Some(i)) => Call::DirectMeterRead(i),
            ("read", Some("register"), Some(i)) => Call::RegisterRead(i),
            ("write", Some("register"), Some(i)) => Call::RegisterWrite(i),
            ("verify_checksum", None, _) => Call::VerifyChecksum,
            ("update_checksum", None, _) => Call::UpdateChecksum,
            ("verify_checksum_with_payload", None, _) => Call::VerifyChecksumWithPayload,
            ("update_checksum_with_payload", None, _) => Call::UpdateChecksumWithPayload,
            ("truncate", None, _) => Call::Truncate,
            ("clone" | "clone3", None, _) => Call::Clone { with_list: false },
            ("clone_preserving_field_list", None, _) => Call::Clone { with_list: true },
            ("resubmit", None, _) => Call::Resubmit { with_list: false },
            ("resubmit_preserving_field_list", None, _) => Call::Resubmit { with_list: true },
            ("recirculate", None, _) => Call::Recirculate { with_list: false },
            ("recirculate_preserving_field_list", None, _) => Call::Recirculate { with_list: true },
            ("hash", None, _) => Call::Hash,
            ("random", None, _) => Call::Random,
            ("digest", None, _) => Call::Digest,
            ("log_msg" | "assert" | "assume", None, _) => Call::NoOp,
            _ => return None,
        };
        let mut calls = self.calls.borrow_mut();
        calls.push(call);
        Some(calls.len() as u32 - 1)
    }
}

impl ExternHandler for V1Externs {
    fn call(
        &mut self,
        id: u32,
        args: &[ExternArg],
        _result: Option<&Place>,
        env: &mut Env<'_>,
    ) -> Flow {
        let Some(call) = self.calls.borrow().get(id as usize).copied() else {
            return Flow::Continue;
        };
        match call {
            Call::MarkToDrop => {
                // The argument may be a nested control's copy of
                // standard_metadata: write that copy.
                let shift = match args.first() {
                    Some(ExternArg::Place { place, .. }) => place
                        .resolve(env)
                        .map_or(0, |at| i64::from(at) - i64::from(self.std.base)),
                    _ => 0,
                };
                self.std
                    .egress_spec
                    .shifted(shift)
                    .write(env.arena, DROP_PORT);
                self.std.mcast_grp.shifted(shift).write(env.arena, 0);
            }
            Call::Count(i) => {
                let index = self
                    .value(args.first(), env)
                    .and_then(|b| b.to_u64())
                    .unwrap_or(u64::MAX);
                let bytes = self.ingress_length;
                if let Some(c) = self
                    .counters
                    .get_mut(&i)
                    .and_then(|c| c.get_mut(index as usize))
                {
                    c.0 += 1;
                    c.1 += bytes;
                }
            }
            Call::ExecuteMeter(i) => {
                let index = self.value(args.first(), env).and_then(|b| b.to_u64());
                let color = self.meter(i, index.unwrap_or(u64::MAX) as usize);
                self.write_out(args.get(1), color as u64, env);
            }
            Call::DirectMeterRead(i) => {
                // The cell of the entry that matched; a default action run
                // on a miss meters nothing and reads GREEN.
                let entry = self
                    .direct_meters
                    .get(&i)
                    .and_then(|slot| env.results.get(*slot as usize))
                    .filter(|r| r.hit)
                    .map(|r| r.entry as usize);
                let color = match entry {
                    Some(entry) => self.meter(i, entry),
                    None => Color::Green,
                };
                self.write_out(args.first(), color as u64, env);
            }
            Call::DirectCount(i) => {
                let bytes = self.ingress_length;
                if let Some(c) = self.counters.get_mut(&i).and_then(|c| c.first_mut()) {
                    c.0 += 1;
                    c.1 += bytes;
                }
            }
            Call::RegisterRead(i) => {
                let index = self
                    .value(args.get(1), env)
                    .and_then(|b| b.to_u64())
                    .unwrap_or(u64::MAX);
                if let (Some(ExternArg::Place { place, .. }), Some(v)) = (
                    args.first(),
                    self.registers.get(&i).and_then(|r| r.get(index as usize)),
                ) && let Some(bit) = place.resolve(env)
                {
                    v.write_bits(env.arena, bit as usize);
                }
            }
            Call::RegisterWrite(i) => {
                let index = self
                    .value(args.first(), env)
                    .and_then(|b| b.to_u64())
                    .unwrap_or(u64::MAX);
                let v = self.value(args.get(1), env);
                if let (Some(v), Some(slot)) = (
                    v,
                    self.registers
                        .get_mut(&i)
                        .and_then(|r| r.get_mut(index as usize)),
                ) {
                    *slot = v.cast(slot.width(), false);
                }
            }
            Call::Clone { with_list } => {
                self.requests.clone = Some(CloneRequest {
                    egress: self.num(args.first(), env) == 1,
                    session: self.num(args.get(1), env) as u32,
                    field_list: with_list.then(|| self.num(args.get(2), env) as u32),
                });
            }
            Call::Resubmit { with_list } => {
                let list = self.num(args.first(), env);
                self.requests.resubmit = Some(with_list.then_some(list as u32));
            }
            Call::Recirculate { with_list } => {
                let list = self.num(args.first(), env);
                self.requests.recirculate = Some(with_list.then_some(list as u32));
            }
            Call::Truncate => {
                // Several calls: the shortest length wins, as in bmv2.
                let len = u32::try_from(self.num(args.first(), env)).unwrap_or(u32::MAX);
                self.truncate_to = Some(self.truncate_to.map_or(len, |t| t.min(len)));
            }
            Call::VerifyChecksum
            | Call::UpdateChecksum
            | Call::VerifyChecksumWithPayload
            | Call::UpdateChecksumWithPayload => {
                let cond = self.num(args.first(), env) != 0;
                let algo = match args.get(3) {
                    Some(_) => self.num(args.get(3), env),
                    None => CSUM16,
                };
                if !cond {
                    return Flow::Continue;
                }
                let Some(ExternArg::Place { place, .. }) = args.get(2) else {
                    return Flow::Continue;
                };
                let Some(bit) = place.resolve(env) else {
                    return Flow::Continue;
                };
                let width = self.out_width(args.get(2));
                let mut bits = self.flatten(args.get(1), env);
                if matches!(
                    call,
                    Call::VerifyChecksumWithPayload | Call::UpdateChecksumWithPayload
                ) {
                    // The payload: what the parser left, from a byte boundary.
                    self.scratch.truncate(bits.div_ceil(8));
                    self.scratch.extend_from_slice(env.input);
                    bits = bits.div_ceil(8) * 8 + env.input.len() * 8;
                }
                let sum = compute(algo, &self.scratch, bits, width);
                if matches!(call, Call::UpdateChecksum | Call::UpdateChecksumWithPayload) {
                    write_number(env.arena, bit, width, sum);
                } else {
                    let stored = read_word(env.arena, bit as usize, width.min(64));
                    if stored != sum {
                        self.std.checksum_error.write(env.arena, 1);
                    }
                }
            }
            Call::Hash => {
                if !matches!(args.first(), Some(ExternArg::Place { .. })) {
                    return Flow::Continue;
                }
                let algo = self
                    .value(args.get(1), env)
                    .and_then(|b| b.to_u64())
                    .unwrap_or(CRC16);
                let base = self.num(args.get(2), env);
                let max = self.num(args.get(4), env);
                let bits = self.flatten(args.get(3), env);
                // As bmv2: the whole hash modulo `max`, plus `base`; only the
                // result is cut to the destination's width.
                let h = compute(algo, &self.scratch, bits, 64);
                let r = if max == 0 {
                    base
                } else {
                    base.wrapping_add(h % max)
                };
                self.write_out(args.first(), r, env);
            }
            Call::Random => {
                if !matches!(args.first(), Some(ExternArg::Place { .. })) {
                    return Flow::Continue;
                }
                let lo = self.num(args.get(1), env);
                let hi = self.num(args.get(2), env);
                self.rng ^= self.rng << 13;
                self.rng ^= self.rng >> 7;
                self.rng ^= self.rng << 17;
                let span = hi.saturating_sub(lo).saturating_add(1);
                let r = if span == 0 {
                    self.rng
                } else {
                    lo + self.rng % span
                };
                self.write_out(args.first(), r, env);
            }
            Call::Digest => {
                let receiver = self.num(args.first(), env);
                if self.digests.len() >= MAX_PENDING_DIGESTS {
                    self.digests_dropped += 1;
                } else {
                    let bits = self.flatten(args.get(1), env);
                    self.digests
                        .push((receiver, self.scratch[..bits.div_ceil(8)].to_vec()));
                }
            }
            Call::NoOp => {}
        }
        Flow::Continue
    }
}

impl V1Externs {
    /// Runs meter cell `index` of `id` on the current packet; GREEN for a
    /// cell that does not exist.
    fn meter(&mut self, id: StateId, index: usize) -> Color {
        let now_us = self.started.elapsed().as_micros() as u64;
        let bytes = self.ingress_length;
        match self.meters.get_mut(&id) {
            Some(m) => {
                let units = if m.bytes { bytes } else { 1 };
                m.cells
                    .get_mut(index)
                    .map_or(Color::Green, |c| c.execute(now_us, units))
            }
            None => Color::Green,
        }
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
        let Some(m) = self.meters.get_mut(&id) else {
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

    /// Writes `v` to an `out` argument's place, at the place's width.
    fn write_out(&self, arg: Option<&ExternArg>, v: u64, env: &mut Env<'_>) {
        if let Some(ExternArg::Place { place, ty }) = arg
            && let (Some(bit), Some(width)) = (place.resolve(env), self.width(*ty))
        {
            write_number(env.arena, bit, width, v);
        }
    }

    /// A scalar argument as a number (its low 64 bits; 0 when absent),
    /// without building a value when it has at most 64 bits.
    fn num(&self, arg: Option<&ExternArg>, env: &Env<'_>) -> u64 {
        match arg {
            Some(ExternArg::Value(Node::Narrow(n))) => n.eval_word(env).v,
            Some(ExternArg::Place { place, ty }) if self.width(*ty).is_some_and(|w| w <= 64) => {
                let width = self.width(*ty).unwrap_or(0);
                place
                    .resolve(env)
                    .map_or(0, |bit| read_word(env.arena, bit as usize, width))
            }
            _ => self.value(arg, env).map_or(0, |b| b.as_u64_truncated()),
        }
    }

    /// A scalar argument's value: evaluated, or read from its place.
    fn value(&self, arg: Option<&ExternArg>, env: &Env<'_>) -> Option<Bits> {
        match arg? {
            ExternArg::Value(n) => Some(n.eval(env)),
            ExternArg::Place { place, ty } => {
                let width = self.width(*ty)?;
                let bit = place.resolve(env)?;
                Some(Bits::read_bits(env.arena, bit as usize, width, false))
            }
            _ => None,
        }
    }

    fn width(&self, ty: janus_p4::types::TyId) -> Option<u32> {
        self.widths.get(ty.0 as usize).copied().flatten()
    }

    /// The width of an `out` argument's place (16 if it is not a scalar).
    fn out_width(&self, arg: Option<&ExternArg>) -> u32 {
        match arg {
            Some(ExternArg::Place { ty, .. }) => self.width(*ty).unwrap_or(16),
            _ => 16,
        }
    }

    /// Concatenates the bits of a data argument (a list of scalars, or one
    /// scalar) into the scratch buffer; returns how many bits.
    ///
    /// Fields of invalid headers are left out; a varbit field counts at its
    /// current length.
    fn flatten(&mut self, arg: Option<&ExternArg>, env: &Env<'_>) -> usize {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let mut bits = 0usize;
        if let Some(arg) = arg {
            self.flatten_into(arg, env, &mut scratch, &mut bits);
        }
        self.scratch = scratch;
        bits
    }

    fn flatten_into(&self, arg: &ExternArg, env: &Env<'_>, out: &mut Vec<u8>, bits: &mut usize) {
        match arg {
            ExternArg::List(parts) => {
                for p in parts {
                    self.flatten_into(p, env, out, bits);
                }
            }
            ExternArg::Guarded { valid, parts } => {
                let is_valid = valid
                    .resolve(env)
                    .is_some_and(|bit| env.arena[bit as usize / 8] != 0);
                if is_valid {
                    for p in parts {
                        self.flatten_into(p, env, out, bits);
                    }
                }
            }
            ExternArg::Data(layout) => *bits = layout.append_to(env.arena, out, *bits),
            ExternArg::Varbit { place, len } => {
                let (Some(at), Some(len_at)) = (place.resolve(env), len.resolve(env)) else {
                    return;
                };
                let n = janus_engine::eval::read_u32(env.arena, len_at / 8) as usize;
                out.resize((*bits + n).div_ceil(8), 0);
                janus_engine::env::copy_bits(env.arena, at as usize, out, *bits, n);
                *bits += n;
            }
            other => {
                if let Some(b) = self.value(Some(other), env) {
                    let w = b.width() as usize;
                    out.resize((*bits + w).div_ceil(8), 0);
                    b.write_bits(out, *bits);
                    *bits += w;
                }
            }
        }
    }
}

/// Writes `v` as the `width`-bit field at `bit` (zero-extended past 64 bits).
fn write_number(arena: &mut [u8], bit: u32, width: u32, v: u64) {
    if width <= 64 {
        write_word(arena, bit as usize, width, v);
    } else {
        Bits::from_u64(width, false, v).write_bits(arena, bit as usize);
    }
}

/// The hash an `action_selector` declared with `algo` (a `HashAlgorithm`
/// member) uses to pick a member of a group.
pub(crate) fn selector_hash(algo: u64) -> janus_engine::profile::SelectorHash {
    match algo {
        CRC32 => |b| crc32(b),
        CSUM16 => |b| csum16(b),
        IDENTITY => |b| compute(IDENTITY, b, b.len() * 8, 64),
        XOR16 => |b| compute(XOR16, b, b.len() * 8, 64),
        _ => |b| crc16(b),
    }
}

/// bmv2's hash and checksum algorithms over the first `bits` bits of `data`.
fn compute(algo: u64, data: &[u8], bits: usize, out_width: u32) -> u64 {
    let bytes = &data[..bits.div_ceil(8)];
    let v = match algo {
        CRC32 | CRC32_CUSTOM => crc32(bytes),
        CRC16 | CRC16_CUSTOM => crc16(bytes),
        CSUM16 => csum16(bytes),
        XOR16 => bytes.chunks(2).fold(0u64, |acc, c| {
            acc ^ ((c[0] as u64) << 8 | c.get(1).copied().unwrap_or(0) as u64)
        }),
        IDENTITY => bytes.iter().fold(0u64, |acc, b| acc << 8 | *b as u64),
        _ => crc16(bytes),
    };
    if out_width >= 64 {
        v
    } else {
        v & ((1u64 << out_width) - 1)
    }
}

/// The Internet checksum: one's complement of the one's-complement sum of
/// 16-bit words.
fn csum16(data: &[u8]) -> u64 {
    let mut sum: u32 = 0;
    for c in data.chunks(2) {
        sum += (c[0] as u32) << 8 | c.get(1).copied().unwrap_or(0) as u32;
    }
    while sum >> 16 != 0 {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    (!sum & 0xFFFF) as u64
}

/// CRC-16/ARC (reflected 0x8005, initial 0), bmv2's `crc16`.
fn crc16(data: &[u8]) -> u64 {
    let mut crc: u16 = 0;
    for &b in data {
        crc ^= b as u16;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xA001
            } else {
                crc >> 1
            };
        }
    }
    crc as u64
}

/// CRC-32 (IEEE 802.3, reflected), bmv2's `crc32`.
fn crc32(data: &[u8]) -> u64 {
    let mut crc: u32 = 0xFFFF_FFFF;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    (!crc) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_match_known_values() {
        // "123456789": the standard check values.
        assert_eq!(crc16(b"123456789"), 0xBB3D);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        // An IPv4 header whose checksum field is zero: 0xb861.
        let ip = [
            0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8,
            0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
        ];
        assert_eq!(csum16(&ip), 0xb861);
    }
}
