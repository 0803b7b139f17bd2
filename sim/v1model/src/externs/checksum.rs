//! Checksum planning: at load, each checksum call site's data worked out
//! as precomputed loads in an arena window or as bit runs, so that the
//! common IPv4-style checksums run without copying their data.

use super::hash::{CSUM16, compute, run_in_place};
use super::{Call, V1Externs, low_bits, narrow, read_number, write_number};
use janus_engine::env::Env;
use janus_engine::eval::{Node, Place};
use janus_engine::exec::Test;
use janus_engine::externs::{BitRun, ExternArg};
use janus_engine::flow::Flow;
use janus_p4::ir::BinOp;
use janus_wire::checksum::{add_carry, fold_complement, sum_pairs, sum_words};

/// An Internet checksum (the algorithm a constant, or left out) over data
/// whose every run is whole 16-bit words from a byte boundary, written to
/// (or checked against) a field at a fixed place: summed in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FastChecksum {
    /// Every byte it reads or writes lies in one window of the arena (an
    /// IPv4 header's checksum).
    Window(WindowSum),
    /// Any other: the data argument's runs are walked.
    Runs(RunSum),
}

/// What a checksum call does with its sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Action {
    /// `update_checksum*` (else `verify_checksum*`).
    pub(super) update: bool,
    /// `*_with_payload`: the payload's words are summed too.
    pub(super) payload: bool,
}

/// A checksum summed from its runs: the condition, and the output field's
/// bit and width (at most 64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RunSum {
    pub(super) cond: Cond,
    pub(super) out_bit: u32,
    pub(super) out_width: u32,
    pub(super) action: Action,
}

/// The most eight-byte loads a window checksum's data takes (an IPv4
/// header takes three).
pub(super) const FEW_LOADS: usize = 8;

/// The bytes of a window checksum's window: it reads and writes only
/// here, at offsets below [`WINDOW_OFFSETS`] (so eight bytes from any
/// offset lie inside it), and the window is fetched (bounds-checked) once
/// per call.
pub(super) const WINDOW: usize = 72;

/// One more than the largest offset into a window (a power of two).
pub(super) const WINDOW_OFFSETS: usize = 64;

/// An offset into a window.
#[inline(always)]
pub(super) fn in_window(offset: u8) -> usize {
    usize::from(offset) & (WINDOW_OFFSETS - 1)
}

/// A checksum whose condition, data and 16-bit output field all lie in one
/// window of [`WINDOW`] arena bytes: the data as at most [`FEW_LOADS`]
/// eight-byte loads. The 16-bit words of a load read as a big-endian number
/// sum to the number modulo 2^16 - 1 (2^16 is 1), so the loads'
/// one's-complement sum folds to the words' (see [`sum_words`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct WindowSum {
    /// The arena byte where the window starts.
    pub(super) base: u32,
    /// The offset of the validity byte the condition tests (`None`: the
    /// condition is always true).
    pub(super) cond: Option<u8>,
    pub(super) loads: [Load; FEW_LOADS],
    /// How many of `loads` are used.
    pub(super) len: u8,
    /// Whether some load has a validity test of its own (else every load
    /// counts, and the loads are read without a test).
    pub(super) guarded: bool,
    /// The offset of the output field.
    pub(super) out: u8,
    pub(super) action: Action,
}

/// Eight window bytes from `at` read as a big-endian number and masked to
/// the data's bytes in them (the last ones, when a run ends in them),
/// counted when the header whose validity byte is at `valid` is valid
/// (always when `None`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Load {
    pub(super) valid: Option<u8>,
    pub(super) at: u8,
    pub(super) mask: u64,
}

impl Load {
    /// The load's bytes of `window`, masked; 0 when its header is invalid.
    #[inline(always)]
    pub(super) fn read(&self, window: &[u8; WINDOW]) -> u64 {
        if let Some(v) = self.valid
            && window[in_window(v)] == 0
        {
            return 0;
        }
        self.bytes(window)
    }

    /// The load's bytes of `window`, masked, its validity not tested.
    #[inline(always)]
    pub(super) fn bytes(&self, window: &[u8; WINDOW]) -> u64 {
        window[in_window(self.at)..]
            .first_chunk::<8>()
            .map_or(0, |w| u64::from_be_bytes(*w) & self.mask)
    }
}

impl FastChecksum {
    /// The fast form of a checksum over `runs` whose condition is `cond`
    /// and output field the `out_width` bits at `out_bit`, in an arena of
    /// `arena_bytes`: a window when everything fits one; `None` unless
    /// every run is whole 16-bit words from a byte boundary.
    pub(super) fn of(
        runs: &[BitRun],
        cond: Cond,
        (out_bit, out_width): (u32, u32),
        action: Action,
        arena_bytes: u32,
    ) -> Option<FastChecksum> {
        let words = runs
            .iter()
            .all(|r| r.bit.is_multiple_of(8) && r.width.is_multiple_of(16));
        if !words || out_width > 64 {
            return None;
        }
        let window = WindowSum::of(runs, cond, (out_bit, out_width), action, arena_bytes);
        Some(window.map_or(
            FastChecksum::Runs(RunSum {
                cond,
                out_bit,
                out_width,
                action,
            }),
            FastChecksum::Window,
        ))
    }
}

impl WindowSum {
    /// The window form, if the data takes at most [`FEW_LOADS`] loads (none
    /// ending in the arena's first seven bytes), the output is a 16-bit
    /// field on a byte boundary, the condition is true or a validity test,
    /// and all of it lies in a window of an arena of `arena_bytes`.
    pub(super) fn of(
        runs: &[BitRun],
        cond: Cond,
        (out_bit, out_width): (u32, u32),
        action: Action,
        arena_bytes: u32,
    ) -> Option<WindowSum> {
        if out_width != 16 || !out_bit.is_multiple_of(8) {
            return None;
        }
        let cond = match cond {
            Cond::Const(true) => None,
            Cond::Valid(byte) => Some(byte),
            Cond::Const(false) => return None,
        };
        // (validity byte, arena byte, mask) of each load; a run of the
        // header the condition tests needs no test of its own.
        let mut loads: Vec<(Option<u32>, u32, u64)> = Vec::new();
        for r in runs {
            let valid = r.valid_byte.filter(|v| Some(*v) != cond);
            let end = (r.bit / 8).checked_add(r.width / 8)?;
            let mut at = r.bit / 8;
            while at < end {
                loads.push(match end - at {
                    n if n >= 8 => (valid, at, u64::MAX),
                    n => (valid, end.checked_sub(8)?, (1u64 << (8 * n)) - 1),
                });
                at = at.saturating_add(8);
            }
        }
        if loads.len() > FEW_LOADS {
            return None;
        }
        // Every byte touched: the offsets from `base` must be below
        // WINDOW_OFFSETS, and the window inside the arena.
        let out = out_bit / 8;
        let starts = loads
            .iter()
            .flat_map(|l| [Some(l.1), l.0])
            .chain([cond, Some(out)])
            .flatten();
        let first = starts.clone().min()?;
        let last = starts.max()?;
        let base = first.min(arena_bytes.checked_sub(WINDOW as u32)?);
        let offset = |byte: u32| u8::try_from(byte - base).ok();
        if last - base >= WINDOW_OFFSETS as u32 {
            return None;
        }
        let mut sum = WindowSum {
            base,
            cond: match cond {
                Some(c) => Some(offset(c)?),
                None => None,
            },
            loads: [Load::default(); FEW_LOADS],
            len: loads.len() as u8,
            guarded: loads.iter().any(|l| l.0.is_some()),
            out: offset(out)?,
            action,
        };
        for (slot, (valid, at, mask)) in sum.loads.iter_mut().zip(loads) {
            *slot = Load {
                valid: match valid {
                    Some(v) => Some(offset(v)?),
                    None => None,
                },
                at: offset(at)?,
                mask,
            };
        }
        Some(sum)
    }

    /// Runs the call: updates the output field, or checks it; `PAYLOAD`
    /// is `self.action.payload` (a constant, so that a call without one
    /// has no code for it).
    #[inline(always)]
    pub(super) fn run<const PAYLOAD: bool>(&self, env: &mut Env<'_>) -> Summed {
        let Some(window) = env
            .arena
            .get_mut(self.base as usize..)
            .and_then(|a| a.first_chunk_mut::<WINDOW>())
        else {
            return Summed::Outside;
        };
        if let Some(c) = self.cond
            && window[in_window(c)] == 0
        {
            return Summed::Done;
        }
        let loads = &self.loads[..usize::from(self.len).min(FEW_LOADS)];
        let mut sum = 0;
        match loads {
            // An IPv4 header without options: three loads, no tests.
            [a, b, c] if !self.guarded => {
                sum = add_carry(add_carry(a.bytes(window), b.bytes(window)), c.bytes(window));
            }
            _ => {
                for load in loads {
                    sum = add_carry(sum, load.read(window));
                }
            }
        }
        // The payload starts on a word boundary: every run is whole words.
        if PAYLOAD {
            sum = add_carry(sum, sum_words(env.input));
        }
        let v = fold_complement(sum).to_be_bytes();
        let Some(field) = window[in_window(self.out)..].first_chunk_mut::<2>() else {
            return Summed::Outside;
        };
        if self.action.update {
            *field = v;
        } else if *field != v {
            return Summed::Mismatch;
        }
        Summed::Done
    }
}

/// How a window checksum went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Summed {
    /// Updated, or checked and found right (or its condition was false).
    Done,
    /// Checked and found wrong: `checksum_error` is to be set.
    Mismatch,
    /// The window does not lie inside the arena: nothing done.
    Outside,
}

impl RunSum {
    /// Runs the call (with `args`), setting `checksum_error` on a
    /// mismatch; false (nothing done) if the data does not lie inside the
    /// arena.
    #[inline(always)]
    pub(super) fn run(
        &self,
        args: &[ExternArg],
        checksum_error: &crate::Field,
        env: &mut Env<'_>,
    ) -> bool {
        if !self.cond.holds(env.arena) {
            return true;
        }
        let Some(ExternArg::Data(layout)) = args.get(1) else {
            return false;
        };
        let Some(mut sum) = sum_runs(layout.runs(), env.arena) else {
            return false;
        };
        if self.action.payload {
            sum = add_carry(sum, sum_words(env.input));
        }
        // An update writes the sum cut to the field's width; a verify
        // compares the whole 16-bit sum with the field, as bmv2 does.
        let v = u64::from(fold_complement(sum));
        if self.action.update {
            write_number(
                env.arena,
                self.out_bit,
                self.out_width,
                v & low_bits(self.out_width),
            );
        } else if read_number(env.arena, self.out_bit, self.out_width) != v {
            checksum_error.write(env.arena, 1);
        }
        true
    }
}

/// A checksum's condition as the fast forms take it: a constant or one
/// header's validity, and the rest (`valid && rest`, or the whole
/// condition with `true`) as a specialised test; `None` when the rest has
/// no such test. (The condition's nodes read and write nothing else, so
/// testing the parts in either order is testing the whole.)
fn checksum_condition(n: &Node) -> Option<(Cond, Option<Test>)> {
    match n {
        Node::Const(b) => Some((Cond::Const(b.as_u64_truncated() != 0), None)),
        Node::Valid(place) => match **place {
            Place::Fixed { bit, .. } => Some((Cond::Valid(bit / 8), None)),
            _ => Some((Cond::Const(true), Some(Test::of_condition(n)?))),
        },
        Node::Binary(BinOp::And, a, b) => match checksum_condition(a)? {
            (cond, None) => Some((cond, Some(Test::of_condition(b)?))),
            _ => Some((Cond::Const(true), Some(Test::of_condition(n)?))),
        },
        _ => Some((Cond::Const(true), Some(Test::of_condition(n)?))),
    }
}

/// A checksum's condition when it is known without evaluating it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cond {
    Const(bool),
    /// `h.isValid()`: the header's validity byte.
    Valid(u32),
}

impl Cond {
    pub(super) fn holds(self, arena: &[u8]) -> bool {
        match self {
            Cond::Const(c) => c,
            Cond::Valid(byte) => arena.get(byte as usize).is_some_and(|v| *v != 0),
        }
    }
}

/// Sets `checksum_error` (a verify found a mismatch).
#[inline(never)]
pub(super) fn flag_checksum_error(checksum_error: &crate::Field, env: &mut Env<'_>) -> Flow {
    checksum_error.write(env.arena, 1);
    Flow::Continue
}

/// The one's-complement sum of the big-endian 16-bit words of the runs
/// of valid headers (each run whole words from a byte boundary), not
/// folded (see [`sum_words`]); `None` if a run lies outside `arena`.
pub(super) fn sum_runs(runs: &[BitRun], arena: &[u8]) -> Option<u64> {
    let mut sum = 0;
    for run in runs {
        if let Some(v) = run.valid_byte
            && *arena.get(v as usize)? == 0
        {
            continue;
        }
        let start = run.bit as usize / 8;
        sum += sum_pairs(arena.get(start..start + run.width as usize / 8)?);
    }
    Some(sum)
}

impl V1Externs {
    /// Checksum call `id` in its window form, or the general one where
    /// the window does not lie inside the arena. Every path out is a tail
    /// call or a return, so that the sum needs no saved registers.
    /// `PAYLOAD`: the call is a `*_with_payload` one.
    #[inline(never)]
    pub(super) fn window_checksum<const PAYLOAD: bool>(
        &mut self,
        id: u32,
        args: &[ExternArg],
        env: &mut Env<'_>,
    ) -> Flow {
        let summed = match self.calls.get_mut().get(id as usize).map(|s| &s.checksum) {
            Some(Some(FastChecksum::Window(w))) => w.run::<PAYLOAD>(env),
            _ => Summed::Outside,
        };
        match summed {
            Summed::Done => Flow::Continue,
            Summed::Mismatch => flag_checksum_error(&self.std.checksum_error, env),
            Summed::Outside => self.call_general(id, args, env),
        }
    }

    /// Checksum call `id` summed run by run, or in the general form where
    /// a run does not lie inside the arena.
    #[inline(never)]
    pub(super) fn runs_checksum(&mut self, id: u32, args: &[ExternArg], env: &mut Env<'_>) -> Flow {
        let done = match self.calls.get_mut().get(id as usize).map(|s| &s.checksum) {
            Some(Some(FastChecksum::Runs(r))) => r.run(args, &self.std.checksum_error, env),
            _ => false,
        };
        match done {
            true => Flow::Continue,
            false => self.call_general(id, args, env),
        }
    }

    /// The fast form of a checksum call with `args`, if it has one, and
    /// the test of the rest of its condition, if any (the call does
    /// nothing unless it holds).
    pub(super) fn fast_checksum_of(
        &self,
        call: Call,
        args: &[ExternArg],
    ) -> Option<(FastChecksum, Option<Test>)> {
        let (cond, guard) = checksum_condition(narrow(args.first())?)?;
        let algo = match args.get(3) {
            None => CSUM16,
            Some(_) => match narrow(args.get(3))? {
                Node::Const(b) => b.as_u64_truncated(),
                _ => return None,
            },
        };
        let Some(ExternArg::Data(layout)) = args.get(1) else {
            return None;
        };
        let Some(ExternArg::Place {
            place: Place::Fixed { bit, .. },
            ty,
        }) = args.get(2)
        else {
            return None;
        };
        let action = Action {
            update: matches!(call, Call::UpdateChecksum | Call::UpdateChecksumWithPayload),
            payload: matches!(
                call,
                Call::VerifyChecksumWithPayload | Call::UpdateChecksumWithPayload
            ),
        };
        let out = (*bit, self.width(*ty)?);
        if algo != CSUM16 {
            return None;
        }
        let fast = FastChecksum::of(layout.runs(), cond, out, action, self.arena_bytes)?;
        Some((fast, guard))
    }

    /// `algo` over a data argument's bits then `payload` (from the next
    /// byte boundary), cut to `width` bits: read in place when the data is
    /// whole bytes at fixed places, else copied into the scratch buffer.
    pub(super) fn checksum(
        &mut self,
        algo: u64,
        data: Option<&ExternArg>,
        payload: &[u8],
        width: u32,
        env: &Env<'_>,
    ) -> u64 {
        if let Some(run) = run_in_place(algo, data, env.arena, payload) {
            return run.finish(width);
        }
        let bits = self.flatten(data, env);
        self.scratch.truncate(bits.div_ceil(8));
        self.scratch.extend_from_slice(payload);
        compute(algo, &self.scratch, self.scratch.len() * 8, width)
    }
}
