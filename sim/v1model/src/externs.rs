//! v1model's externs as simple_switch implements them (a first set; the
//! rest make loading fail with a clear message rather than run wrongly).

use crate::{DROP_PORT, StdMeta};
use janus_engine::env::Env;
use janus_engine::eval::{Node, Place, scalar_shape};
use janus_engine::externs::{BitRun, CallSite, ExternArg, ExternHandler, ExternResolver};
use janus_engine::flow::Flow;
use janus_engine::meter::{Color, Meter, Rate};
use janus_engine::value::{Bits, read_word, write_word};
use janus_p4::ir::{self, InstanceId, InstanceOf};
use std::cell::RefCell;
use std::collections::HashMap;

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
/// allow (worked out at load; `None`: the general path).
#[derive(Clone, Copy, Debug)]
struct Site {
    call: Call,
    checksum: Option<FastChecksum>,
}

/// An Internet checksum (the algorithm a constant, or left out) over data
/// whose every run is whole 16-bit words from a byte boundary, written to
/// (or checked against) a field at a fixed place: summed in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FastChecksum {
    /// Every byte it reads or writes lies in one window of the arena (an
    /// IPv4 header's checksum).
    Window(WindowSum),
    /// Any other: the data argument's runs are walked.
    Runs(RunSum),
}

/// What a checksum call does with its sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Action {
    /// `update_checksum*` (else `verify_checksum*`).
    update: bool,
    /// `*_with_payload`: the payload's words are summed too.
    payload: bool,
}

/// A checksum summed from its runs: the condition, and the output field's
/// bit and width (at most 64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RunSum {
    cond: Cond,
    out_bit: u32,
    out_width: u32,
    action: Action,
}

/// The most eight-byte loads a window checksum's data takes (an IPv4
/// header takes three).
const FEW_LOADS: usize = 8;

/// The bytes of a window checksum's window: it reads and writes only
/// here, at offsets below [`WINDOW_OFFSETS`] (so eight bytes from any
/// offset lie inside it), and the window is fetched (bounds-checked) once
/// per call.
const WINDOW: usize = 72;

/// One more than the largest offset into a window (a power of two).
const WINDOW_OFFSETS: usize = 64;

/// An offset into a window.
#[inline(always)]
fn in_window(offset: u8) -> usize {
    usize::from(offset) & (WINDOW_OFFSETS - 1)
}

/// A checksum whose condition, data and 16-bit output field all lie in one
/// window of [`WINDOW`] arena bytes: the data as at most [`FEW_LOADS`]
/// eight-byte loads. The 16-bit words of a load read as a big-endian number
/// sum to the number modulo 2^16 - 1 (2^16 is 1), so the loads'
/// one's-complement sum folds to the words' (see [`sum_words`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WindowSum {
    /// The arena byte where the window starts.
    base: u32,
    /// The offset of the validity byte the condition tests (`None`: the
    /// condition is always true).
    cond: Option<u8>,
    loads: [Load; FEW_LOADS],
    /// How many of `loads` are used.
    len: u8,
    /// Whether some load has a validity test of its own (else every load
    /// counts, and the loads are read without a test).
    guarded: bool,
    /// The offset of the output field.
    out: u8,
    action: Action,
}

/// Eight window bytes from `at` read as a big-endian number and masked to
/// the data's bytes in them (the last ones, when a run ends in them),
/// counted when the header whose validity byte is at `valid` is valid
/// (always when `None`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Load {
    valid: Option<u8>,
    at: u8,
    mask: u64,
}

impl Load {
    /// The load's bytes of `window`, masked; 0 when its header is invalid.
    #[inline(always)]
    fn read(&self, window: &[u8; WINDOW]) -> u64 {
        if let Some(v) = self.valid
            && window[in_window(v)] == 0
        {
            return 0;
        }
        self.bytes(window)
    }

    /// The load's bytes of `window`, masked, its validity not tested.
    #[inline(always)]
    fn bytes(&self, window: &[u8; WINDOW]) -> u64 {
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
    fn of(
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
    fn of(
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
    fn run<const PAYLOAD: bool>(&self, env: &mut Env<'_>) -> Summed {
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
        let v = (fold_complement(sum) as u16).to_be_bytes();
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
enum Summed {
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
    fn run(&self, args: &[ExternArg], checksum_error: &crate::Field, env: &mut Env<'_>) -> bool {
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
        let v = fold_complement(sum);
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

/// A checksum's condition when it is known without evaluating it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cond {
    Const(bool),
    /// `h.isValid()`: the header's validity byte.
    Valid(u32),
}

impl Cond {
    fn holds(self, arena: &[u8]) -> bool {
        match self {
            Cond::Const(c) => c,
            Cond::Valid(byte) => arena.get(byte as usize).is_some_and(|v| *v != 0),
        }
    }
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
    /// A direct meter's table slot: its entries each have a cell.
    direct_slot: Option<u32>,
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
fn cells(
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
}

impl V1Externs {
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

    /// What a deprecated call keeps of its `data` argument: a field list
    /// made of its fields' (bit, width) runs, or nothing.
    fn data_list(&self, data: Option<&ExternArg>) -> Kept {
        let mut runs = Vec::new();
        if let Some(d) = data {
            self.data_runs(d, &mut runs);
        }
        if runs.is_empty() {
            return Kept::Nothing;
        }
        let mut lists = self.data_lists.borrow_mut();
        lists.push(runs);
        Kept::Data(DATA_LISTS + lists.len() as u32 - 1)
    }

    /// The (bit, width) runs of the fields in `arg` that sit at fixed
    /// places (a struct as one run of its bytes).
    fn data_runs(&self, arg: &ExternArg, out: &mut Vec<(u32, u32)>) {
        match arg {
            ExternArg::Data(layout) => out.extend(layout.runs().iter().map(|r| (r.bit, r.width))),
            ExternArg::List(parts) | ExternArg::Guarded { parts, .. } => {
                for p in parts {
                    self.data_runs(p, out);
                }
            }
            ExternArg::Place {
                place: Place::Fixed { bit, .. },
                ty,
            } => {
                let width = self
                    .width(*ty)
                    .or_else(|| self.sizes.get(ty.0 as usize).copied().flatten());
                if let Some(w) = width {
                    out.push((*bit, w));
                }
            }
            _ => {}
        }
    }

    /// The field list a clone, resubmit or recirculate keeps.
    fn kept_list(&self, kept: Kept, args: &[ExternArg], env: &Env<'_>) -> Option<u32> {
        match kept {
            Kept::Nothing => None,
            Kept::FieldList { index } => Some(self.num(args.get(index), env) as u32),
            Kept::Data(id) => Some(id),
        }
    }

    /// Notes where direct meter `id`'s `read(colour)` writes, if at a fixed
    /// place and the first such read: bmv2 writes the colour there on every
    /// hit of the meter's table, before the action runs.
    fn note_colour_target(&self, id: StateId, colour: Option<&ExternArg>) {
        let mut targets = self.colour_targets.borrow_mut();
        if targets.iter().any(|(m, _, _)| *m == id) {
            return;
        }
        if let Some(ExternArg::Place {
            place: Place::Fixed { bit, .. },
            ty,
        }) = colour
            && let Some(width) = self.width(*ty)
        {
            targets.push((id, *bit, width));
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
    fn resolve(&self, site: &CallSite<'_>) -> Option<u32> {
        let (name, instance, path) = (site.name, site.instance, site.path);
        let kind = instance
            .and_then(|i| self.kinds.get(&i))
            .map(String::as_str);
        let state = instance.and_then(|i| self.state_of(path, i));
        let call = match (name, kind, state) {
            ("mark_to_drop", None, _) => Call::MarkToDrop,
            ("count", Some("counter"), Some(i)) => Call::Count(i),
            ("count", Some("direct_counter"), Some(i)) => Call::DirectCount(i),
            ("execute_meter", Some("meter"), Some(i)) => Call::ExecuteMeter(i),
            ("read", Some("direct_meter"), Some(i)) => {
                self.note_colour_target(i, site.args.first());
                Call::DirectMeterRead(i)
            }
            ("read", Some("register"), Some(i)) => Call::RegisterRead(i),
            ("write", Some("register"), Some(i)) => Call::RegisterWrite(i),
            ("verify_checksum", None, _) => Call::VerifyChecksum,
            ("update_checksum", None, _) => Call::UpdateChecksum,
            ("verify_checksum_with_payload", None, _) => Call::VerifyChecksumWithPayload,
            ("update_checksum_with_payload", None, _) => Call::UpdateChecksumWithPayload,
            ("truncate", None, _) => Call::Truncate,
            ("clone", None, _) => Call::Clone {
                kept: Kept::Nothing,
            },
            ("clone3", None, _) => Call::Clone {
                kept: self.data_list(site.args.get(2)),
            },
            ("clone_preserving_field_list", None, _) => Call::Clone {
                kept: Kept::FieldList { index: 2 },
            },
            ("resubmit", None, _) => Call::Resubmit {
                kept: self.data_list(site.args.first()),
            },
            ("resubmit_preserving_field_list", None, _) => Call::Resubmit {
                kept: Kept::FieldList { index: 0 },
            },
            ("recirculate", None, _) => Call::Recirculate {
                kept: self.data_list(site.args.first()),
            },
            ("recirculate_preserving_field_list", None, _) => Call::Recirculate {
                kept: Kept::FieldList { index: 0 },
            },
            ("hash", None, _) => Call::Hash,
            ("random", None, _) => Call::Random,
            ("digest", None, _) => Call::Digest,
            ("log_msg" | "assert" | "assume", None, _) => Call::NoOp,
            _ => return None,
        };
        let mut calls = self.calls.borrow_mut();
        let checksum = match call {
            Call::VerifyChecksum
            | Call::UpdateChecksum
            | Call::VerifyChecksumWithPayload
            | Call::UpdateChecksumWithPayload => self.fast_checksum_of(call, site.args),
            _ => None,
        };
        calls.push(Site { call, checksum });
        Some(calls.len() as u32 - 1)
    }

    /// The data of `hash`, the checksums and `digest`: a struct there is
    /// its fields (a struct given alone to `clone3`, `resubmit` or
    /// `recirculate` stays whole: one run of its bytes to keep).
    fn is_data(&self, name: &str, instance: Option<InstanceId>, index: usize) -> bool {
        matches!(
            (name, instance, index),
            ("hash", None, 3)
                | (
                    "verify_checksum"
                        | "update_checksum"
                        | "verify_checksum_with_payload"
                        | "update_checksum_with_payload"
                        | "digest",
                    None,
                    1
                )
        )
    }
}

impl V1Externs {
    /// The cells of counter `id` (none if it is not a counter).
    fn cells(&mut self, id: StateId) -> &mut [(u64, u64)] {
        match self.counters.get_mut(id as usize) {
            Some(Some(cells)) => cells,
            _ => &mut [],
        }
    }
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
}

impl V1Externs {
    /// Checksum call `id` in its window form, or the general one where
    /// the window does not lie inside the arena. Every path out is a tail
    /// call or a return, so that the sum needs no saved registers.
    /// `PAYLOAD`: the call is a `*_with_payload` one.
    #[inline(never)]
    fn window_checksum<const PAYLOAD: bool>(
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
    fn runs_checksum(&mut self, id: u32, args: &[ExternArg], env: &mut Env<'_>) -> Flow {
        let done = match self.calls.get_mut().get(id as usize).map(|s| &s.checksum) {
            Some(Some(FastChecksum::Runs(r))) => r.run(args, &self.std.checksum_error, env),
            _ => false,
        };
        match done {
            true => Flow::Continue,
            false => self.call_general(id, args, env),
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
}

impl V1Externs {
    /// The fast form of a checksum call with `args`, if it has one.
    fn fast_checksum_of(&self, call: Call, args: &[ExternArg]) -> Option<FastChecksum> {
        let cond = match narrow(args.first())? {
            Node::Const(b) => Cond::Const(b.as_u64_truncated() != 0),
            Node::Valid(place) => match **place {
                Place::Fixed { bit, .. } => Cond::Valid(bit / 8),
                _ => return None,
            },
            _ => return None,
        };
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
        FastChecksum::of(layout.runs(), cond, out, action, self.arena_bytes)
    }

    /// Runs meter cell `index` of `id` on the current packet; `None` for a
    /// cell that does not exist.
    fn meter(&mut self, id: StateId, index: usize) -> Option<Color> {
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

    /// `algo` over a data argument's bits then `payload` (from the next
    /// byte boundary), cut to `width` bits: read in place when the data is
    /// whole bytes at fixed places, else copied into the scratch buffer.
    fn checksum(
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

/// Sets `checksum_error` (a verify found a mismatch).
#[inline(never)]
fn flag_checksum_error(checksum_error: &crate::Field, env: &mut Env<'_>) -> Flow {
    checksum_error.write(env.arena, 1);
    Flow::Continue
}

/// The one's-complement sum of the big-endian 16-bit words of the runs
/// of valid headers (each run whole words from a byte boundary), not
/// folded (see [`sum_words`]); `None` if a run lies outside `arena`.
fn sum_runs(runs: &[BitRun], arena: &[u8]) -> Option<u64> {
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

/// The plain sum of the big-endian 16-bit words of `bytes` (an odd last
/// byte the high half of a word): for header data, which has fewer than
/// 2^48 words, so the sum cannot overflow and folds like [`sum_words`]'s.
fn sum_pairs(bytes: &[u8]) -> u64 {
    let (pairs, rest) = bytes.as_chunks::<2>();
    let last = rest.first().map_or(0, |&b| u64::from(b) << 8);
    pairs
        .iter()
        .fold(last, |s, w| s + u64::from(u16::from_be_bytes(*w)))
}

/// The one's-complement sum of the big-endian 16-bit words of `bytes` (an
/// odd last byte the high half of a word), not folded to 16 bits: taken
/// eight bytes at a time with end-around carry, which folds to the same
/// sum (2^64 and 2^16 are both 1 modulo 2^16 - 1; the sum is 0 only when
/// every byte is).
fn sum_words(bytes: &[u8]) -> u64 {
    let (eights, rest) = bytes.as_chunks::<8>();
    let mut sum = 0;
    for e in eights {
        sum = add_carry(sum, u64::from_be_bytes(*e));
    }
    let tail = rest
        .iter()
        .zip((0..8).rev())
        .fold(0, |t, (b, i)| t | u64::from(*b) << (8 * i));
    add_carry(sum, tail)
}

/// `a + b` with end-around carry.
#[inline(always)]
fn add_carry(a: u64, b: u64) -> u64 {
    let (s, carry) = a.overflowing_add(b);
    s + u64::from(carry)
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

/// `algo` run over the bytes of `data` straight from `arena`, then over
/// `payload`; `None` (nothing run) unless `data` is an
/// [`ExternArg::Data`] of whole bytes on byte boundaries.
fn run_in_place(
    algo: u64,
    data: Option<&ExternArg>,
    arena: &[u8],
    payload: &[u8],
) -> Option<Running> {
    let Some(ExternArg::Data(layout)) = data else {
        return None;
    };
    let mut run = Running::new(algo);
    // The Internet checksum (the common case) summed inline; the others
    // through `feed`.
    let aligned = match &mut run {
        Running::Csum16 { sum, odd } => {
            layout.for_each_aligned(arena, |bytes| pair_words(odd, bytes, |w| *sum += w))
        }
        _ => layout.for_each_aligned(arena, |bytes| run.feed(bytes)),
    };
    if !aligned {
        return None;
    }
    run.feed(payload);
    Some(run)
}

/// bmv2's hash and checksum algorithms over the first `bits` bits of `data`.
fn compute(algo: u64, data: &[u8], bits: usize, out_width: u32) -> u64 {
    let mut run = Running::new(algo);
    run.feed(&data[..bits.div_ceil(8)]);
    run.finish(out_width)
}

/// One of bmv2's algorithms fed its data a slice at a time: the result is
/// what [`compute`] gives over the slices' concatenation.
#[derive(Clone, Copy, Debug)]
enum Running {
    /// The sum of the 16-bit words so far (not yet folded), and a byte
    /// waiting for the next slice's first byte to make a word.
    Csum16 {
        sum: u64,
        odd: Option<u8>,
    },
    /// The XOR of the 16-bit words so far, and a byte waiting as above.
    Xor16 {
        acc: u64,
        odd: Option<u8>,
    },
    Crc16(u16),
    Crc32(u32),
    /// The first (at most 8) bytes as a number, and how many were taken:
    /// bmv2's `identity` reads only the data's first 8 bytes.
    Identity {
        acc: u64,
        taken: u8,
    },
}

impl Running {
    /// The state before any data, for `algo` (a `HashAlgorithm` member;
    /// CRC-16 also for the ones Janus does not implement).
    fn new(algo: u64) -> Running {
        match algo {
            CRC32 | CRC32_CUSTOM => Running::Crc32(0xFFFF_FFFF),
            CSUM16 => Running::Csum16 { sum: 0, odd: None },
            XOR16 => Running::Xor16 { acc: 0, odd: None },
            IDENTITY => Running::Identity { acc: 0, taken: 0 },
            CRC16 | CRC16_CUSTOM => Running::Crc16(0),
            _ => Running::Crc16(0),
        }
    }

    /// Takes in the next bytes of the data.
    fn feed(&mut self, data: &[u8]) {
        match self {
            Running::Csum16 { sum, odd } => pair_words(odd, data, |w| *sum += w),
            Running::Xor16 { acc, odd } => pair_words(odd, data, |w| *acc ^= w),
            Running::Crc16(crc) => *crc = crc16_update(*crc, data),
            Running::Crc32(crc) => *crc = crc32_update(*crc, data),
            Running::Identity { acc, taken } => {
                for &b in data.iter().take(8 - *taken as usize) {
                    *acc = *acc << 8 | b as u64;
                    *taken += 1;
                }
            }
        }
    }

    /// The result over all the bytes fed (an odd last byte is the high
    /// half of a word whose low half is 0), cut to `out_width` bits.
    fn finish(self, out_width: u32) -> u64 {
        let v = match self {
            Running::Csum16 { sum, odd } => {
                fold_complement(sum + odd.map_or(0, |b| (b as u64) << 8))
            }
            Running::Xor16 { acc, odd } => acc ^ odd.map_or(0, |b| (b as u64) << 8),
            Running::Crc16(crc) => crc as u64,
            Running::Crc32(crc) => (!crc) as u64,
            Running::Identity { acc, .. } => acc,
        };
        if out_width >= 64 {
            v
        } else {
            v & ((1u64 << out_width) - 1)
        }
    }
}

/// Passes `data`'s big-endian 16-bit words to `word`, the first made with
/// the byte `odd` left over from earlier data (if any); leaves in `odd` a
/// last byte without its pair.
fn pair_words(odd: &mut Option<u8>, data: &[u8], mut word: impl FnMut(u64)) {
    let data = match (*odd, data.split_first()) {
        (Some(_), None) => return,
        (Some(hi), Some((&lo, rest))) => {
            word(u16::from_be_bytes([hi, lo]) as u64);
            rest
        }
        (None, _) => data,
    };
    let (words, rest) = data.as_chunks::<2>();
    *odd = rest.first().copied();
    for w in words {
        word(u16::from_be_bytes(*w) as u64);
    }
}

/// The one's complement of the one's-complement (end-around carry) fold
/// of `sum` to 16 bits.
///
/// Two steps, each keeping the sum modulo 2^16 - 1 and non-zero when it
/// was: the 32-bit halves added with end-around carry (with a carry, the
/// sum without it is at most 2^32 - 2, so adding it cannot overflow); then
/// the 16-bit halves, by adding the number to itself rotated by 16: the
/// high half of that is the halves' sum plus the carry out of the low
/// half's, their end-around sum.
#[inline]
fn fold_complement(sum: u64) -> u64 {
    let (s, carry) = (sum as u32).overflowing_add((sum >> 32) as u32);
    let s = s.wrapping_add(u32::from(carry));
    let s = s.wrapping_add(s.rotate_left(16)) >> 16;
    u64::from(!s & 0xFFFF)
}

/// The Internet checksum: one's complement of the one's-complement sum of
/// 16-bit words (an odd last byte padded with 0).
fn csum16(data: &[u8]) -> u64 {
    fold_complement(sum_pairs(data))
}

/// CRC-16/ARC (reflected 0x8005, initial 0), bmv2's `crc16`.
fn crc16(data: &[u8]) -> u64 {
    crc16_update(0, data) as u64
}

/// CRC-16/ARC's register after `data`, from `crc`.
fn crc16_update(mut crc: u16, data: &[u8]) -> u16 {
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
    crc
}

/// CRC-32 (IEEE 802.3, reflected), bmv2's `crc32`.
fn crc32(data: &[u8]) -> u64 {
    (!crc32_update(0xFFFF_FFFF, data)) as u64
}

/// CRC-32's register (before the final inversion) after `data`, from `crc`.
fn crc32_update(mut crc: u32, data: &[u8]) -> u32 {
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
    crc
}

#[cfg(test)]
mod tests {
    use super::*;
    use janus_engine::externs::DataLayout;
    use janus_p4::types::TyId;
    use proptest::prelude::*;

    /// A header's validity byte (none: always counted) and its fields as
    /// (bit, width).
    type Group = (Option<u32>, Vec<(u32, u32)>);

    /// Every algorithm, and one Janus does not implement (4: CRC-16).
    const ALGOS: [u64; 8] = [
        CRC32,
        CRC32_CUSTOM,
        CRC16,
        CRC16_CUSTOM,
        4,
        IDENTITY,
        CSUM16,
        XOR16,
    ];

    /// Data from groups of (validity byte, fields as (bit, width)); a
    /// field's type id is its width.
    fn data(groups: &[Group]) -> DataLayout {
        let fixed = |bit, width| Place::Fixed {
            bit,
            ty: TyId(width),
        };
        let parts = groups
            .iter()
            .map(|(valid, fields)| {
                let parts = fields
                    .iter()
                    .map(|&(b, w)| ExternArg::Place {
                        place: fixed(b, w),
                        ty: TyId(w),
                    })
                    .collect();
                match valid {
                    Some(v) => ExternArg::Guarded {
                        valid: fixed(v * 8, 8),
                        parts,
                    },
                    None => ExternArg::List(parts),
                }
            })
            .collect();
        DataLayout::of(&ExternArg::List(parts), &|t| Some(t.0)).expect("fixed data")
    }

    /// Groups of fields in a 64-byte arena whose first 4 bytes are
    /// validity bytes: at whole bytes when `aligned`, else anywhere.
    fn groups(aligned: bool) -> impl Strategy<Value = Vec<Group>> {
        let scale = if aligned { 8 } else { 1 };
        let field = (32 / scale..448 / scale, 0..64 / scale)
            .prop_map(move |(at, n): (u32, u32)| (at * scale, n * scale));
        prop::collection::vec(
            (
                prop::option::of(0u32..4),
                prop::collection::vec(field, 0..5),
            ),
            0..5,
        )
    }

    /// What the copying path gives: the data's bits, then `payload` from
    /// the next byte.
    fn copied(algo: u64, layout: &DataLayout, arena: &[u8], payload: &[u8], width: u32) -> u64 {
        let mut bytes = Vec::new();
        let bits = layout.append_to(arena, &mut bytes, 0);
        bytes.truncate(bits.div_ceil(8));
        bytes.extend_from_slice(payload);
        compute(algo, &bytes, bytes.len() * 8, width)
    }

    /// The algorithms as first written, one byte or byte pair at a time.
    fn reference(algo: u64, bytes: &[u8]) -> u64 {
        let pairs = bytes
            .chunks(2)
            .map(|c| (c[0] as u64) << 8 | c.get(1).copied().unwrap_or(0) as u64);
        match algo {
            CRC32 | CRC32_CUSTOM => crc32(bytes),
            CSUM16 => fold_complement(pairs.sum()),
            XOR16 => pairs.fold(0, |a, w| a ^ w),
            IDENTITY => bytes.iter().take(8).fold(0, |a, b| a << 8 | *b as u64),
            _ => crc16(bytes),
        }
    }

    fn arena_with(arena: Vec<u8>, valid: &[u8]) -> Vec<u8> {
        let mut arena = arena;
        arena[..valid.len()].copy_from_slice(valid);
        arena
    }

    /// Groups of fields of whole 16-bit words from byte boundaries in a
    /// 64-byte arena whose first 4 bytes are validity bytes.
    fn word_groups() -> impl Strategy<Value = Vec<Group>> {
        let field = (4u32..56, 0u32..4).prop_map(|(at, n)| (at * 8, n * 16));
        prop::collection::vec(
            (
                prop::option::of(0u32..4),
                prop::collection::vec(field, 0..5),
            ),
            0..5,
        )
    }

    /// Groups of fields of whole 16-bit words from byte boundaries,
    /// clustered in a region of an arena of 72 to 300 bytes, each group's
    /// validity byte (if any) in the region too; the arena, and the region.
    fn clustered_groups() -> impl Strategy<Value = (Vec<Group>, Vec<u8>, std::ops::Range<u32>)> {
        (WINDOW..300usize, 1u32..100, 0u32..300).prop_flat_map(|(len, spread, start)| {
            let len32 = len as u32;
            let start = start.min(len32 - 9);
            let end = (start + spread).min(len32 - 8);
            let region = start..end + 1;
            let byte = move |at: u32| (start + at).min(end);
            let field = (0..=spread, 0u32..4).prop_map(move |(at, n)| (byte(at) * 8, n * 16));
            let groups = prop::collection::vec(
                (
                    prop::option::of((0..=spread).prop_map(byte)),
                    prop::collection::vec(field, 0..3),
                ),
                0..4,
            );
            (
                groups,
                prop::collection::vec(any::<u8>(), len),
                Just(region),
            )
        })
    }

    proptest! {
        #[test]
        fn summing_words_in_place_gives_the_internet_checksum(
            groups in word_groups(),
            arena in prop::collection::vec(any::<u8>(), 64),
            valid in prop::collection::vec(0u8..2, 4),
            payload in prop::collection::vec(any::<u8>(), 0..19),
        ) {
            let arena = arena_with(arena, &valid);
            let layout = data(&groups);
            let want = copied(CSUM16, &layout, &arena, &payload, 16);
            let sum = sum_runs(layout.runs(), &arena).expect("in the arena");
            prop_assert_eq!(fold_complement(add_carry(sum, sum_words(&payload))), want);
        }

        #[test]
        fn window_checksums_run_as_the_runs(
            (groups, arena, region) in clustered_groups(),
            guards in prop::collection::vec(0u8..2, 4),
            cond in (0u8..3, any::<prop::sample::Index>()),
            out in (any::<prop::sample::Index>(), prop::sample::select(vec![16u32, 16, 8, 32]), 0u32..2),
            (update, payload) in (any::<bool>(), any::<bool>()),
            input in prop::collection::vec(any::<u8>(), 0..11),
        ) {
            let len = arena.len() as u32;
            let mut arena = arena;
            // The groups' validity bytes valid or not.
            for ((valid, _), g) in groups.iter().zip(&guards) {
                if let Some(v) = valid {
                    arena[*v as usize] = *g;
                }
            }
            let byte_in = |i: &prop::sample::Index, last: u32| {
                region.start + i.index((region.end - region.start) as usize) as u32 % (last - region.start + 1)
            };
            let cond = match cond.0 {
                0 => Cond::Const(true),
                1 => Cond::Const(false),
                _ => Cond::Valid(byte_in(&cond.1, len - 2)),
            };
            let out = (byte_in(&out.0, len - 6) * 8 + out.2, out.1);
            let action = Action { update, payload };
            let layout = data(&groups);
            let fast = FastChecksum::of(layout.runs(), cond, out, action, len)
                .expect("whole words");
            let runs = RunSum { cond, out_bit: out.0, out_width: out.1, action };
            let error = crate::Field::new((len - 1) * 8, 1, len);
            let args = [ExternArg::List(Vec::new()), ExternArg::Data(layout.clone())];
            let mut want = arena.clone();
            let mut env = Env::new(&mut want);
            env.input = &input;
            prop_assert!(runs.run(&args, &error, &mut env));
            if let FastChecksum::Window(w) = fast {
                let mut env = Env::new(&mut arena);
                env.input = &input;
                let summed = match payload {
                    true => w.run::<true>(&mut env),
                    false => w.run::<false>(&mut env),
                };
                if summed == Summed::Mismatch {
                    flag_checksum_error(&error, &mut env);
                }
                prop_assert_ne!(summed, Summed::Outside);
                prop_assert_eq!(&arena, &want);
            }
        }

        #[test]
        fn folding_in_four_steps_is_folding_until_16_bits(sum in any::<u64>(), small in 0u64..0x30000) {
            let fold = |mut s: u64| {
                while s >> 16 != 0 {
                    s = (s & 0xFFFF) + (s >> 16);
                }
                !s & 0xFFFF
            };
            prop_assert_eq!(fold_complement(sum), fold(sum));
            prop_assert_eq!(fold_complement(small), fold(small));
        }

        #[test]
        fn checksum_fields_read_and_write_as_bit_ranges(
            arena in prop::collection::vec(any::<u8>(), 1..12),
            bit in 0u32..100,
            width in prop::sample::select(vec![1u32, 7, 16, 17, 32, 64]),
            v in any::<u64>(),
        ) {
            let mut want = arena.clone();
            write_word(&mut want, bit as usize, width, v);
            let mut got = arena.clone();
            write_number(&mut got, bit, width, v);
            prop_assert_eq!(&got, &want);
            prop_assert_eq!(read_number(&arena, bit, width), read_word(&arena, bit as usize, width));
        }

        #[test]
        fn streaming_aligned_data_gives_the_copied_result(
            groups in groups(true),
            arena in prop::collection::vec(any::<u8>(), 64),
            valid in prop::collection::vec(0u8..2, 4),
            payload in prop::collection::vec(any::<u8>(), 0..9),
            with_payload in any::<bool>(),
            width in prop::sample::select(vec![8u32, 16, 32, 64]),
        ) {
            let arena = arena_with(arena, &valid);
            let layout = data(&groups);
            let payload = if with_payload { &payload[..] } else { &[] };
            let arg = ExternArg::Data(layout.clone());
            for algo in ALGOS {
                let run = run_in_place(algo, Some(&arg), &arena, payload);
                let want = copied(algo, &layout, &arena, payload, width);
                prop_assert_eq!(run.map(|r| r.finish(width)), Some(want), "algo {}", algo);
            }
        }

        #[test]
        fn any_layout_checksums_as_the_copied_data(
            groups in groups(false),
            arena in prop::collection::vec(any::<u8>(), 64),
            valid in prop::collection::vec(0u8..2, 4),
            payload in prop::collection::vec(any::<u8>(), 0..9),
        ) {
            let mut arena = arena_with(arena, &valid);
            let layout = data(&groups);
            let aligned = layout
                .runs()
                .iter()
                .all(|r| r.bit.is_multiple_of(8) && r.width.is_multiple_of(8));
            let arg = ExternArg::Data(layout.clone());
            let mut externs = V1Externs::new(&ir::Program::default(), Shared {
                std: StdMeta::default(),
                arena_bytes: 64,
            })
            .expect("no externs");
            for algo in ALGOS {
                let in_place = run_in_place(algo, Some(&arg), &arena, &payload);
                prop_assert_eq!(in_place.is_some(), aligned);
                let want = copied(algo, &layout, &arena, &payload, 16);
                let env = Env::new(&mut arena);
                let got = externs.checksum(algo, Some(&arg), &payload, 16, &env);
                prop_assert_eq!(got, want, "algo {}", algo);
            }
        }

        #[test]
        fn feeding_in_slices_gives_the_whole_result(
            bytes in prop::collection::vec(any::<u8>(), 0..40),
            cuts in prop::collection::vec(0usize..40, 0..6),
        ) {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.sort_unstable();
            for algo in ALGOS {
                let mut run = Running::new(algo);
                let mut from = 0;
                for &to in cuts.iter().chain([bytes.len()].iter()) {
                    run.feed(&bytes[from..to]);
                    from = to;
                }
                prop_assert_eq!(run.finish(64), reference(algo, &bytes), "algo {}", algo);
                prop_assert_eq!(compute(algo, &bytes, bytes.len() * 8, 64), reference(algo, &bytes));
            }
            prop_assert_eq!(csum16(&bytes), reference(CSUM16, &bytes));
        }
    }

    #[test]
    fn an_ipv4_header_checksum_sums_in_a_window() {
        // A 20-byte header at byte 40, its validity byte after it, the
        // checksum field at its byte 10; the condition its validity.
        let layout = data(&[(Some(60), vec![(320, 160)])]);
        let action = Action {
            update: true,
            payload: false,
        };
        let fast = FastChecksum::of(layout.runs(), Cond::Valid(60), (400, 16), action, 200);
        let Some(FastChecksum::Window(w)) = fast else {
            panic!("not a window sum: {fast:?}");
        };
        assert_eq!(
            (w.len, w.cond, w.out),
            (3, Some(60 - w.base as u8), 50 - w.base as u8)
        );
        assert!(w.loads.iter().all(|l| l.valid.is_none()) && !w.guarded);
        // The three loads without tests sum the header: its checksum (the
        // field zero before) is written.
        let ip = [
            0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8,
            0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
        ];
        let mut arena = vec![0u8; 200];
        arena[40..60].copy_from_slice(&ip);
        arena[60] = 1;
        assert_eq!(w.run::<false>(&mut Env::new(&mut arena)), Summed::Done);
        assert_eq!(arena[50..52], [0xb8, 0x61]);
        // In an arena smaller than a window, or with an 8-bit output: by
        // runs.
        let small = FastChecksum::of(layout.runs(), Cond::Valid(60), (400, 16), action, 64);
        assert!(matches!(small, Some(FastChecksum::Runs(_))));
        let narrow = FastChecksum::of(layout.runs(), Cond::Valid(60), (400, 8), action, 200);
        assert!(matches!(narrow, Some(FastChecksum::Runs(_))));
    }

    #[test]
    fn words_sum_with_end_around_carry() {
        // Eight 0xFF bytes sum to 0xFFFF (not 0); all zero bytes to 0.
        assert_eq!(fold_complement(sum_words(&[0xFF; 8])), 0);
        assert_eq!(fold_complement(sum_words(&[0xFF; 16])), 0);
        assert_eq!(sum_words(&[0; 11]), 0);
        // An odd last byte is the high half of its word.
        assert_eq!(sum_words(&[0x12]), 0x12 << 56);
        assert_eq!(fold_complement(sum_words(&[0x12])), !0x1200 & 0xFFFF);
    }

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
