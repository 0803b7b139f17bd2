//! v1model's externs as simple_switch implements them (a first set; the
//! rest make loading fail with a clear message rather than run wrongly).
//!
//! Here: the call kinds, the extern set's own types and the per-packet
//! dispatch (`ExternHandler`). Resolution of call sites is in `resolve`,
//! the state and what the control plane reads of it in `state`, checksum
//! planning in `checksum`, the hash algorithms in `hash` (over
//! janus-wire's CRCs and Internet checksum).

use crate::{DROP_PORT, StdMeta};
use janus_engine::env::Env;
use janus_engine::eval::{Node, Place};
use janus_engine::exec::Test;
use janus_engine::externs::{ExternArg, ExternHandler};
use janus_engine::flow::Flow;
use janus_engine::meter::Color;
use janus_engine::value::{Bits, read_word, write_word};
use janus_p4::ir::InstanceId;
use std::cell::RefCell;
use std::collections::HashMap;

mod checksum;
mod hash;
mod resolve;
mod state;
#[cfg(test)]
mod tests;

use checksum::{FastChecksum, Summed, flag_checksum_error};
pub(crate) use hash::selector_hash;
use hash::{CRC16, CSUM16};
use state::MeterArray;
pub use state::{MAX_CELLS, SizeError};

/// What the architecture needs to know of the program's layout.
pub(crate) struct Shared {
    pub std: StdMeta,
    /// The bytes of the packet state's arena.
    pub arena_bytes: u32,
}

/// The metadata a clone, resubmit or recirculate keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kept {
    Nothing,
    /// The `@field_list` whose id is the call's argument at `index`.
    FieldList {
        index: usize,
    },
    /// The fields of the deprecated forms' `data` argument
    /// (`clone3(type, session, data)`, `resubmit(data)`,
    /// `recirculate(data)`), as older p4c and bmv2 kept them: a field list
    /// made at load, with this id (see [`DATA_LISTS`]).
    Data(u32),
}

/// Field list ids from here on are the `data` arguments of deprecated
/// calls (see [`Kept::Data`]); `@field_list` ids are the program's own.
pub(crate) const DATA_LISTS: u32 = 1 << 31;

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
    /// `clone`, `clone3` and `clone_preserving_field_list`.
    Clone {
        kept: Kept,
    },
    /// `resubmit`/`recirculate` and their `*_preserving_field_list` forms.
    Resubmit {
        kept: Kept,
    },
    Recirculate {
        kept: Kept,
    },
    Hash,
    Random,
    Digest,
    NoOp,
}

/// A call site: its kind, and for a checksum the fast form its arguments
/// allow (worked out at load; `None`: the general path) with the part of
/// its condition the fast form does not test itself.
#[derive(Clone, Debug)]
struct Site {
    call: Call,
    checksum: Option<FastChecksum>,
    guard: Option<Box<Test>>,
}

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

pub(crate) struct V1Externs {
    /// The call sites, by the id [`ExternResolver::resolve`] gave them.
    calls: RefCell<Vec<Site>>,
    kinds: HashMap<InstanceId, String>,
    std: StdMeta,
    /// The bytes of the packet state's arena.
    arena_bytes: u32,
    /// State ids by (block instance path, extern instance); globals under
    /// the empty path.
    states: HashMap<(String, InstanceId), StateId>,
    /// State ids by control-plane name (`Ing.first.hits`).
    pub names: HashMap<String, StateId>,
    /// The cells of each counter (direct counters: one cell counting
    /// every call), by state id; `None` for the other states.
    counters: Vec<Option<Vec<(u64, u64)>>>,
    /// The cells of each register, by state id.
    registers: Vec<Option<Vec<Bits>>>,
    /// Each meter, by state id.
    meters: Vec<Option<MeterArray>>,
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
    /// Bits every type with storage occupies in the arena, by type id
    /// (for composite `data` arguments).
    sizes: Vec<Option<u32>>,
    /// The (bit, width) runs of each deprecated call's `data` argument,
    /// made at load: field list `DATA_LISTS + i` (see [`Kept::Data`]).
    data_lists: RefCell<Vec<Vec<(u32, u32)>>>,
    /// Where each direct meter writes its colour on a hit: the (bit,
    /// width) of the first `read(colour)` of it at a fixed place.
    colour_targets: RefCell<Vec<(StateId, u32, u32)>>,
}

impl ExternHandler for V1Externs {
    /// A hit in a table with a direct meter that has a colour field: the
    /// meter runs on the entry's cell and the colour is written before the
    /// action runs, whether the action reads it or not (bmv2's match
    /// tables do this; a miss writes nothing).
    fn table_hit(&mut self, slot: u32, entry: u32, env: &mut Env<'_>) {
        let targets = std::mem::take(self.colour_targets.get_mut());
        for &(id, bit, width) in &targets {
            let on_slot = self
                .meters
                .get(id as usize)
                .and_then(Option::as_ref)
                .is_some_and(|m| m.direct_slot == Some(slot));
            if on_slot {
                let colour = self.meter(id, entry as usize).unwrap_or(Color::Green);
                write_number(env.arena, bit, width, colour as u64);
            }
        }
        *self.colour_targets.get_mut() = targets;
    }

    /// The hot kinds (a checksum's fast form, counting, `mark_to_drop`)
    /// run without [`V1Externs::call_general`]'s frame; each out-of-line
    /// path is a tail call, so that this entry saves no registers.
    #[inline]
    fn call(
        &mut self,
        id: u32,
        args: &[ExternArg],
        _result: Option<&Place>,
        env: &mut Env<'_>,
    ) -> Flow {
        let Some(site) = self.calls.get_mut().get(id as usize) else {
            return Flow::Continue;
        };
        match (&site.checksum, site.call) {
            // A checksum whose condition is false does nothing.
            (Some(_), _) if site.guard.as_ref().is_some_and(|g| !g.holds(env)) => Flow::Continue,
            // With and without payload apart: the payload's sum needs
            // registers the header's alone does not.
            (Some(FastChecksum::Window(w)), _) if w.action.payload => {
                self.window_checksum::<true>(id, args, env)
            }
            (Some(FastChecksum::Window(w)), _) => match w.run::<false>(env) {
                Summed::Done => Flow::Continue,
                Summed::Mismatch => flag_checksum_error(&self.std.checksum_error, env),
                Summed::Outside => self.call_general(id, args, env),
            },
            (Some(FastChecksum::Runs(_)), _) => self.runs_checksum(id, args, env),
            (None, Call::DirectCount(i)) => {
                self.charge(i, 0);
                Flow::Continue
            }
            (None, Call::Count(i)) => self.count_call(id, i, args, env),
            (None, Call::MarkToDrop) => self.mark_to_drop(args, env),
            (None, Call::NoOp) => Flow::Continue,
            (None, _) => self.call_general(id, args, env),
        }
    }

    /// Counters and meters take the index the compiled tier computed; the
    /// other calls run as [`ExternHandler::call`] runs them.
    fn call_with_first(
        &mut self,
        id: u32,
        first: u64,
        args: &[ExternArg],
        result: Option<&Place>,
        env: &mut Env<'_>,
    ) -> Flow {
        let call = match self.calls.get_mut().get(id as usize) {
            Some(site) if site.checksum.is_none() => site.call,
            _ => return self.call(id, args, result, env),
        };
        match call {
            Call::Count(i) => self.charge(i, first),
            // As bmv2: an index past the meter's cells meters nothing and
            // leaves the result as it was.
            Call::ExecuteMeter(i) => {
                if let Some(color) = usize::try_from(first).ok().and_then(|c| self.meter(i, c)) {
                    self.write_out(args.get(1), color as u64, env);
                }
            }
            _ => return self.call(id, args, result, env),
        }
        Flow::Continue
    }
}

/// A mask of the low `width` bits (all 64 from 64 on).
fn low_bits(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// The expression of an `in` argument of at most 64 bits.
fn narrow(arg: Option<&ExternArg>) -> Option<&Node> {
    match arg {
        Some(ExternArg::Value(Node::Narrow(n))) => Some(n),
        _ => None,
    }
}

/// Reads the `width`-bit field (at most 64 bits) at `bit`: two bytes when
/// it is a 16-bit field on a byte boundary (a checksum), as
/// [`read_word`] reads them.
#[inline(always)]
fn read_number(arena: &[u8], bit: u32, width: u32) -> u64 {
    let byte = bit as usize / 8;
    if width == 16
        && bit.is_multiple_of(8)
        && let Some(b) = arena.get(byte..byte + 2)
    {
        return u64::from(u16::from_be_bytes([b[0], b[1]]));
    }
    read_word(arena, bit as usize, width)
}

/// Writes `v` as the `width`-bit field at `bit` (zero-extended past 64
/// bits): two bytes when it is a 16-bit field on a byte boundary (a
/// checksum), as [`write_word`] writes them.
#[inline(always)]
fn write_number(arena: &mut [u8], bit: u32, width: u32, v: u64) {
    let byte = bit as usize / 8;
    if width == 16
        && bit.is_multiple_of(8)
        && let Some(b) = arena.get_mut(byte..byte + 2)
    {
        b.copy_from_slice(&(v as u16).to_be_bytes());
    } else {
        write_field(arena, bit, width, v);
    }
}

/// Writes `v` as the `width`-bit field at `bit` (zero-extended past 64
/// bits), a bit range of any width and place.
fn write_field(arena: &mut [u8], bit: u32, width: u32, v: u64) {
    if width <= 64 {
        write_word(arena, bit as usize, width, v);
    } else {
        Bits::from_u64(width, false, v).write_bits(arena, bit as usize);
    }
}

impl V1Externs {
    /// The field list a clone, resubmit or recirculate keeps.
    fn kept_list(&self, kept: Kept, args: &[ExternArg], env: &Env<'_>) -> Option<u32> {
        match kept {
            Kept::Nothing => None,
            Kept::FieldList { index } => Some(self.num(args.get(index), env) as u32),
            Kept::Data(id) => Some(id),
        }
    }

    /// `count(index)` on counter `counter` (call `id`): an index of at most
    /// 64 bits is read here, a wider one evaluated by the general path.
    #[inline(never)]
    fn count_call(
        &mut self,
        id: u32,
        counter: StateId,
        args: &[ExternArg],
        env: &mut Env<'_>,
    ) -> Flow {
        match self.narrow_index(args.first(), env) {
            Some(index) => {
                self.charge(counter, index);
                Flow::Continue
            }
            None => self.call_general(id, args, env),
        }
    }

    /// Counts the packet (and its bytes as it entered the pass) in cell
    /// `index` of counter `id`; nothing if there is no such cell.
    #[inline(always)]
    fn charge(&mut self, id: StateId, index: u64) {
        let bytes = self.ingress_length;
        if let Some(c) = self.cells(id).get_mut(index as usize) {
            c.0 += 1;
            c.1 += bytes;
        }
    }

    /// An index argument of at most 64 bits as the general path reads it
    /// (`u64::MAX` for a negative one); `None` when it is wider.
    #[inline(always)]
    fn narrow_index(&self, arg: Option<&ExternArg>, env: &Env<'_>) -> Option<u64> {
        match arg? {
            ExternArg::Value(Node::Narrow(n)) => {
                let w = n.eval_word(env);
                Some(match w.signed {
                    false => w.v,
                    true => w.to_bits().to_u64().unwrap_or(u64::MAX),
                })
            }
            ExternArg::Place { place, ty } => {
                let width = self.width(*ty).filter(|w| *w <= 64)?;
                Some(
                    place
                        .resolve(env)
                        .map_or(u64::MAX, |bit| read_word(env.arena, bit as usize, width)),
                )
            }
            _ => None,
        }
    }

    /// `mark_to_drop(sm)`: `egress_spec` to the drop port, `mcast_grp` to 0.
    /// The argument may be a nested control's copy of standard_metadata:
    /// that copy is written.
    #[inline(never)]
    fn mark_to_drop(&self, args: &[ExternArg], env: &mut Env<'_>) -> Flow {
        let shift = match args.first() {
            Some(ExternArg::Place { place, .. }) => place
                .resolve(env)
                .map_or(0, |at| i64::from(at) - i64::from(self.std.base)),
            _ => 0,
        };
        let (spec, grp) = match shift {
            0 => (self.std.egress_spec, self.std.mcast_grp),
            s => (
                self.std.egress_spec.shifted(s),
                self.std.mcast_grp.shifted(s),
            ),
        };
        spec.write(env.arena, DROP_PORT);
        grp.write(env.arena, 0);
        Flow::Continue
    }

    /// Call `id` (one the fast paths leave) in its general form,
    /// evaluating arguments as they come.
    #[inline(never)]
    fn call_general(&mut self, id: u32, args: &[ExternArg], env: &mut Env<'_>) -> Flow {
        let Some(call) = self.calls.get_mut().get(id as usize).map(|s| s.call) else {
            return Flow::Continue;
        };
        match call {
            Call::MarkToDrop => return self.mark_to_drop(args, env),
            Call::Count(i) => {
                let index = self
                    .value(args.first(), env)
                    .and_then(|b| b.to_u64())
                    .unwrap_or(u64::MAX);
                self.charge(i, index);
            }
            Call::ExecuteMeter(i) => {
                // As bmv2: an index past the meter's cells meters nothing
                // and leaves the result as it was.
                let index = self.value(args.first(), env).and_then(|b| b.to_u64());
                let cell = index.and_then(|i| usize::try_from(i).ok());
                if let Some(color) = cell.and_then(|c| self.meter(i, c)) {
                    self.write_out(args.get(1), color as u64, env);
                }
            }
            Call::DirectMeterRead(i) => {
                // With a fixed colour field, the hit wrote it (see
                // `table_hit`): the read itself does nothing, as in bmv2.
                if self
                    .colour_targets
                    .get_mut()
                    .iter()
                    .any(|(m, _, _)| *m == i)
                {
                    return Flow::Continue;
                }
                // Else the cell of the entry that matched; a default action
                // run on a miss meters nothing and reads GREEN.
                let entry = self
                    .meters
                    .get(i as usize)
                    .and_then(|m| m.as_ref()?.direct_slot)
                    .and_then(|slot| env.results.get(slot as usize))
                    .filter(|r| r.hit)
                    .map(|r| r.entry as usize);
                let color = entry
                    .and_then(|entry| self.meter(i, entry))
                    .unwrap_or(Color::Green);
                self.write_out(args.first(), color as u64, env);
            }
            Call::DirectCount(i) => self.charge(i, 0),
            Call::RegisterRead(i) => {
                let index = self
                    .value(args.get(1), env)
                    .and_then(|b| b.to_u64())
                    .unwrap_or(u64::MAX);
                if let (Some(ExternArg::Place { place, .. }), Some(v)) =
                    (args.first(), self.register(i, index as usize))
                    && let Some(bit) = place.resolve(env)
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
                if let (Some(v), Some(slot)) = (v, self.register_mut(i, index as usize)) {
                    *slot = v.cast(slot.width(), false);
                }
            }
            Call::Clone { kept } => {
                self.requests.clone = Some(CloneRequest {
                    egress: self.num(args.first(), env) == 1,
                    session: self.num(args.get(1), env) as u32,
                    field_list: self.kept_list(kept, args, env),
                });
            }
            Call::Resubmit { kept } => {
                self.requests.resubmit = Some(self.kept_list(kept, args, env));
            }
            Call::Recirculate { kept } => {
                self.requests.recirculate = Some(self.kept_list(kept, args, env));
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
                // The payload: what the parser left, from a byte boundary.
                let payload: &[u8] = match call {
                    Call::VerifyChecksumWithPayload | Call::UpdateChecksumWithPayload => env.input,
                    _ => &[],
                };
                let update = matches!(call, Call::UpdateChecksum | Call::UpdateChecksumWithPayload);
                // As bmv2: an update writes the result cut to the field's
                // width (`Field::set`); a verify compares the algorithm's
                // whole result with the field (`CalcBasedChecksum::verify_`).
                let sum_width = if update { width } else { 64 };
                let sum = self.checksum(algo, args.get(1), payload, sum_width, env);
                if update {
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
                // As bmv2: the whole hash modulo `max`, plus `base`; only the
                // result is cut to the destination's width.
                let h = self.checksum(algo, args.get(3), &[], 64, env);
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
            Some(ExternArg::Value(Node::Narrow(n))) => match &**n {
                // A constant (the algorithm) or a validity test (the
                // condition of a checksum), read without building a word.
                Node::Const(b) => b.as_u64_truncated(),
                Node::Valid(place) => place
                    .resolve(env)
                    .is_some_and(|bit| env.arena.get(bit as usize / 8).is_some_and(|v| *v != 0))
                    .into(),
                n => n.eval_word(env).v,
            },
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
