//! The v1model architecture as bmv2's `simple_switch` defines it, on the
//! Janus engine: `V1Switch(parser, verify checksum, ingress, egress,
//! compute checksum, deparser)`.
//!
//! ```no_run
//! use janus_engine::target::Target;
//! let c = janus_p4::driver::compile_file("p4/examples/l3_router_acl.p4".as_ref(), &Default::default()).unwrap();
//! let mut sw = janus_v1model::V1Switch::load(c.ir.unwrap()).unwrap();
//! let out = sw.process(1, &[0u8; 64]);
//! ```

mod clock;
mod externs;
mod packet;
mod reads;
mod target;

pub use externs::{MAX_CELLS, MAX_PENDING_DIGESTS, SizeError};
use externs::{Shared, V1Externs};
use janus_engine::exec::{ArenaReset, WriteSet};
use janus_engine::layout::{LayoutKind, Layouts};
use janus_engine::parser::CompiledParser;
use janus_engine::pipeline::{self, Entities};
use janus_engine::plan::StoragePlan;
use janus_engine::target::MirrorTarget;
use janus_jit::Block;
pub use janus_jit::{Coverage, Tier};
use janus_p4::ir::{self, InstanceOf};
use std::collections::HashMap;

/// The drop port: an `egress_spec` of 511 drops the packet.
pub const DROP_PORT: u64 = 511;

pub use janus_engine::pipeline::LoadError;

/// The window of a [`Field`] that has none: past the end of any arena
/// (arenas have at most `u32::MAX` bytes, and `usize` is wider).
const NO_WINDOW: u32 = u32::MAX;

/// Where a field of `standard_metadata` lives (bit offset, width), and
/// the 8-byte window of the arena it is read and written through.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field {
    pub bit: u32,
    pub width: u32,
    /// The bytes of the arena.
    arena_bytes: u32,
    /// The window's first byte: the field's, or the arena's last eight;
    /// [`NO_WINDOW`] when no window holds the field (it is read and written
    /// as a bit range).
    window: u32,
    /// Where the field sits in the window read as a big-endian number: its
    /// lowest bit, and its bits.
    shift: u32,
    mask: u64,
}

/// No field: 0 bits, read as 0, written as nothing.
impl Default for Field {
    fn default() -> Field {
        Field::new(0, 0, 0)
    }
}

impl Field {
    /// The field of `width` bits at `bit` of an arena of `arena_bytes`.
    pub(crate) fn new(bit: u32, width: u32, arena_bytes: u32) -> Field {
        let window = (bit / 8).min(arena_bytes.saturating_sub(8));
        let s = bit.saturating_sub(window * 8);
        let fits = arena_bytes >= 8 && width >= 1 && s.checked_add(width).is_some_and(|e| e <= 64);
        let (window, shift, mask) = if fits {
            let shift = 64 - s - width;
            (window, shift, (u64::MAX >> (64 - width)) << shift)
        } else {
            (NO_WINDOW, 0, 0)
        };
        Field {
            bit,
            width,
            arena_bytes,
            window,
            shift,
            mask,
        }
    }

    #[inline]
    fn read(self, arena: &[u8]) -> u64 {
        match self.chunk(arena) {
            Some(w) => (u64::from_be_bytes(*w) & self.mask) >> self.shift,
            None => janus_engine::value::read_word(arena, self.bit as usize, self.width),
        }
    }

    /// Writes the low `width` bits of `v`.
    #[inline]
    fn write(self, arena: &mut [u8], v: u64) {
        let (shift, mask) = (self.shift, self.mask);
        match self.chunk_mut(arena) {
            Some(w) => {
                let x = u64::from_be_bytes(*w);
                *w = ((x & !mask) | ((v << shift) & mask)).to_be_bytes();
            }
            None => janus_engine::value::write_word(arena, self.bit as usize, self.width, v),
        }
    }

    /// Writes the low `width` bits of `v`, unless the field is none (no
    /// bits: not in the struct, or left out because nothing reads it).
    #[inline(always)]
    fn write_if_any(self, arena: &mut [u8], v: u64) {
        if self.width != 0 {
            self.write(arena, v);
        }
    }

    /// The window, if the field has one and `arena` holds it (no arena
    /// holds [`NO_WINDOW`]'s: one test for both).
    #[inline]
    fn chunk(self, arena: &[u8]) -> Option<&[u8; 8]> {
        let at = self.window as usize;
        arena.get(at..at + 8)?.first_chunk()
    }

    #[inline]
    fn chunk_mut(self, arena: &mut [u8]) -> Option<&mut [u8; 8]> {
        let at = self.window as usize;
        arena.get_mut(at..at + 8)?.first_chunk_mut()
    }

    /// The same field of another copy of the struct, `shift` bits on.
    fn shifted(self, shift: i64) -> Field {
        Field::new(
            (i64::from(self.bit) + shift) as u32,
            self.width,
            self.arena_bytes,
        )
    }
}

/// The fields of `standard_metadata` the architecture reads and writes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StdMeta {
    /// The bit where the pipeline's `standard_metadata` starts.
    pub base: u32,
    pub ingress_port: Field,
    pub egress_spec: Field,
    pub egress_port: Field,
    pub instance_type: Field,
    pub packet_length: Field,
    pub mcast_grp: Field,
    pub egress_rid: Field,
    pub checksum_error: Field,
    pub parser_error: Field,
    pub ingress_global_timestamp: Field,
    pub egress_global_timestamp: Field,
}

impl StdMeta {
    /// Writes what simple_switch sets as a packet enters ingress, into an
    /// arena just cleared (so a field left out reads 0): the port a packet
    /// from the wire came in on (`None`: resubmitted or recirculated), its
    /// type, length and arrival time. Fields no block reads are none (see
    /// [`std_meta`]) and written as nothing.
    #[inline(always)]
    fn start_ingress(
        &self,
        arena: &mut [u8],
        port: Option<u32>,
        instance_type: u64,
        length: u64,
        now_us: u64,
    ) {
        if let Some(port) = port {
            self.ingress_port.write_if_any(arena, u64::from(port));
        }
        self.packet_length.write_if_any(arena, length);
        if instance_type != 0 {
            self.instance_type.write_if_any(arena, instance_type);
        }
        self.ingress_global_timestamp.write_if_any(arena, now_us);
    }

    /// Writes what simple_switch sets as a copy enters egress: its port,
    /// `egress_spec` cleared (only an egress that drops again drops it;
    /// the architecture reads it, so it is always written), the packet's
    /// length whatever ingress wrote, its replication id and type, and the
    /// time (the model has no queues: ingress's).
    #[inline]
    fn start_egress(&self, arena: &mut [u8], copy: EgressStart) {
        self.egress_port.write_if_any(arena, u64::from(copy.port));
        self.egress_spec.write(arena, 0);
        self.packet_length.write_if_any(arena, copy.length);
        self.egress_rid.write_if_any(arena, u64::from(copy.rid));
        self.instance_type.write_if_any(arena, copy.instance_type);
        self.egress_global_timestamp
            .write_if_any(arena, copy.now_us);
    }

    /// Whether a block reads a timestamp, so that a pass needs the clock.
    fn reads_time(&self) -> bool {
        self.ingress_global_timestamp.width != 0 || self.egress_global_timestamp.width != 0
    }
}

/// What a copy's `standard_metadata` gets as it enters egress.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EgressStart {
    pub port: u32,
    pub rid: u16,
    pub instance_type: u64,
    pub length: u64,
    pub now_us: u64,
}

/// A loaded v1model pipeline.
pub struct V1Switch {
    program: ir::Program,
    parser: CompiledParser,
    /// The five control blocks, compiled (see [`V1Switch::set_tier`]).
    verify: Block,
    ingress: Block,
    egress: Block,
    compute: Block,
    deparser: Block,
    /// Tables, profiles and value sets, by slot.
    entities: Entities,
    externs: V1Externs,
    std: StdMeta,
    arena: Vec<u8>,
    /// Multicast groups: group -> (replication id, port) copies, expanded
    /// from `group_nodes` whenever a group or node changes.
    groups: HashMap<u16, Vec<(u16, u32)>>,
    /// The node handles associated with each group.
    group_nodes: HashMap<u16, Vec<u32>>,
    /// Multicast nodes by handle: (replication id, ports).
    nodes: Vec<(u16, Vec<u32>)>,
    output: Vec<u8>,
    /// The packet state after ingress, kept while egress runs per copy.
    after_ingress: Vec<u8>,
    /// Clones waiting for egress, last queued first (empty between
    /// passes).
    pending: Vec<packet::EgressCopy>,
    /// Log each packet's path (target `janus::trace`); see [`V1Switch::set_trace`].
    trace: bool,
    /// The pipeline's clock: timestamps and last-hit times are microseconds
    /// since the pipeline was loaded.
    clock: clock::PacketClock,
    /// When the packet now in ingress arrived, on `clock`.
    now_us: u64,
    /// Whether a pass reads the clock: a block reads a timestamp, or a
    /// table keeps last-hit times. Otherwise `now_us` stays 0, unseen.
    needs_clock: bool,
    /// The length of the packet in this ingress pass, which each copy's
    /// egress sees in `packet_length`.
    pass_length: u64,
    /// The length egress sees in `packet_length`: `pass_length` plus the
    /// bytes of headers ingress made valid, minus those it made invalid.
    egress_length: u64,
    /// Clone sessions.
    mirror: HashMap<u32, MirrorTarget>,
    /// `@field_list(id)` -> (bit, width) of each user-metadata field in it.
    field_lists: HashMap<u32, Vec<(u32, u32)>>,
    /// The bytes of user metadata and standard_metadata in the arena.
    metadata: std::ops::Range<usize>,
    /// The bytes a pass may write, cleared as the next one starts.
    reset: ArenaReset,
}

/// The package's name and its parameters.
const PACKAGE: &str = "V1Switch";
const ARITY: usize = 6;

impl V1Switch {
    /// Loads a checked program whose `main` is a `V1Switch`. A refusal
    /// names the place in the program it concerns (`file:line:col`): the
    /// construct the engine cannot run, the table, extern or argument at
    /// fault, else the `main` instance.
    pub fn load(program: ir::Program) -> Result<V1Switch, LoadError> {
        let locator = program.locator.clone();
        let main_span = program
            .main
            .and_then(|m| program.instances.get(m.0 as usize))
            .map(|i| i.span);
        V1Switch::load_program(program).map_err(|e| match main_span {
            Some(span) => e.at(&locator, span),
            None => e,
        })
    }

    fn load_program(mut program: ir::Program) -> Result<V1Switch, LoadError> {
        pipeline::prepare(&mut program);
        let locator = program.locator.clone();
        let blocks = pipeline::package_blocks(&program, PACKAGE, ARITY)?;
        let bad_argument = LoadError::BadArgument {
            package: PACKAGE,
            index: 0,
        };
        let plan = StoragePlan::new(&program)?;
        let mut layouts = Layouts::new(&program.types);
        // Headers, metadata and standard_metadata are one copy shared by all
        // six blocks, after the planned frames.
        let pblock = &program.blocks[blocks[0].block.0 as usize];
        let param_ty = |i: usize| pblock.params.get(i).map(|p| p.ty);
        let (h_ty, m_ty, sm_ty) = match (param_ty(1), param_ty(2), param_ty(3)) {
            (Some(h), Some(m), Some(s)) => (h, m, s),
            _ => return Err(bad_argument),
        };
        let h_at = plan.arena_bytes;
        let m_at = h_at + layouts.layout(h_ty)?.bytes;
        let sm_at = m_at + layouts.layout(m_ty)?.bytes;
        let arena_bytes = sm_at + layouts.layout(sm_ty)?.bytes;
        let std = std_meta(&program, &mut layouts, sm_ty, sm_at, arena_bytes)?;
        let mut field_lists = HashMap::new();
        collect_field_lists(
            &program,
            &mut layouts,
            (m_ty, m_at * 8),
            &[],
            &mut field_lists,
        )?;
        // Which shared copy each block parameter denotes, by position:
        // (parser: b, h, m, sm), (verify: h, m), (ingress/egress: h, m, sm),
        // (compute: h, m), (deparser: b, h).
        let shared: [&[Option<u32>]; ARITY] = [
            &[None, Some(h_at), Some(m_at), Some(sm_at)],
            &[Some(h_at), Some(m_at)],
            &[Some(h_at), Some(m_at), Some(sm_at)],
            &[Some(h_at), Some(m_at), Some(sm_at)],
            &[Some(h_at), Some(m_at)],
            &[None, Some(h_at)],
        ];
        let mut entities = Entities::load(&program, &|inst| action_profile(&program, inst))?;
        let mut externs = V1Externs::new(&program, Shared { std, arena_bytes }).map_err(|e| {
            let span = e.instance().map(|i| program.instances[i.0 as usize].span);
            let e = LoadError::Target(Box::new(e));
            match span {
                Some(span) => e.at(&locator, span),
                None => e,
            }
        })?;
        for (path, t, slot) in entities.table_slots() {
            let table = &program.tables[t.0 as usize];
            if let Some(inst) = table.direct_meter {
                let size = entities.tables[slot].max_size;
                externs
                    .attach_direct_meter(path, inst, slot as u32, size)
                    .map_err(|e| LoadError::Target(Box::new(e)).at(&locator, table.span))?;
            }
        }
        let parser = entities.compile_parser(&program, &plan, &blocks[0], shared[0], &externs)?;
        let mut controls = Vec::with_capacity(ARITY - 1);
        for (block, shared) in blocks.iter().zip(shared).skip(1) {
            controls.push(entities.compile_control(&program, &plan, block, shared, &externs)?);
        }
        // What compiling found: the direct meters whose hits write a
        // colour, and the field lists of deprecated calls' `data`.
        for slot in externs.colour_slots() {
            if let Some(t) = entities.table_mut(slot as usize) {
                t.hit_hook = true;
            }
        }
        for (i, runs) in externs.data_lists().into_iter().enumerate() {
            field_lists.insert(externs::DATA_LISTS + i as u32, runs);
        }
        let mut it = controls.into_iter();
        let mut next = || it.next().unwrap_or_default();
        let (verify, ingress, egress, compute, deparser) = (next(), next(), next(), next(), next());
        let needs_clock = std.reads_time() || entities.tables.iter().any(|t| t.idle_timeout);
        // What a pass may write: the blocks' code, and the metadata (which
        // the architecture writes itself: standard_metadata, field lists).
        let mut writes = WriteSet::new(&mut layouts);
        writes.parser(&parser)?;
        for ops in [&verify, &ingress, &egress, &compute, &deparser] {
            writes.ops(ops)?;
        }
        writes.bytes(m_at..arena_bytes);
        let reset = writes.finish();
        tracing::debug!(
            arena_bytes,
            cleared_bytes = reset.cleared_bytes(),
            ranges = reset.ranges(),
            "packet state planned"
        );
        let block = |ops| Block::new(ops, arena_bytes as usize, Tier::Compiled);
        let switch = V1Switch {
            parser,
            program,
            verify: block(verify),
            ingress: block(ingress),
            egress: block(egress),
            compute: block(compute),
            deparser: block(deparser),
            entities,
            externs,
            std,
            arena: vec![0; arena_bytes as usize],
            groups: HashMap::new(),
            group_nodes: HashMap::new(),
            nodes: Vec::new(),
            output: Vec::new(),
            after_ingress: vec![0; arena_bytes as usize],
            pending: Vec::new(),
            trace: false,
            clock: clock::PacketClock::new(),
            now_us: 0,
            needs_clock,
            pass_length: 0,
            egress_length: 0,
            mirror: HashMap::new(),
            field_lists,
            metadata: m_at as usize..arena_bytes as usize,
            reset,
        };
        let coverage = switch.coverage();
        tracing::debug!(
            compiled_ops = coverage.compiled,
            interpreted_ops = coverage.interpreted,
            "control blocks compiled"
        );
        Ok(switch)
    }

    /// The blocks, in pipeline order.
    fn blocks_mut(&mut self) -> [&mut Block; 5] {
        [
            &mut self.verify,
            &mut self.ingress,
            &mut self.egress,
            &mut self.compute,
            &mut self.deparser,
        ]
    }

    /// Chooses the tier the control blocks run in: compiled (the default,
    /// as loaded) or the interpreter only, the reference the compiled code
    /// is checked against. Traced packets always take the interpreter.
    pub fn set_tier(&mut self, tier: Tier) {
        for b in self.blocks_mut() {
            b.set_tier(tier);
        }
    }

    /// How many of the control blocks' ops run compiled, and how many in
    /// the interpreter (counted in the code, not as packets run).
    pub fn coverage(&self) -> Coverage {
        let mut c = Coverage::default();
        for b in [
            &self.verify,
            &self.ingress,
            &self.egress,
            &self.compute,
            &self.deparser,
        ] {
            c += b.coverage();
        }
        c
    }

    fn instance(&self, name: &str) -> Option<externs::StateId> {
        self.externs.names.get(name).copied()
    }

    /// Recomputes the (rid, port) copies of `group` from its nodes.
    fn expand_group(&mut self, group: u16) {
        let copies = self
            .group_nodes
            .get(&group)
            .into_iter()
            .flatten()
            .filter_map(|h| self.nodes.get(*h as usize))
            .flat_map(|(rid, ports)| ports.iter().map(move |p| (*rid, *p)))
            .collect();
        self.groups.insert(group, copies);
    }
}

/// The `@field_list` ids of the scalar fields of struct `ty` at `bit`,
/// nested structs included.
/// The (bit, width) of every scalar of the struct `ty` at `bit` in each
/// `@field_list(id)`: a field's own lists, and those of every enclosing
/// struct member (`inherited`; an annotated struct member lists all the
/// fields inside it, as p4c flattens it).
fn collect_field_lists(
    p: &ir::Program,
    layouts: &mut Layouts<'_>,
    (ty, bit): (janus_p4::types::TyId, u32),
    inherited: &[u32],
    out: &mut HashMap<u32, Vec<(u32, u32)>>,
) -> Result<(), LoadError> {
    let Some(info) = p.types.struct_info(ty) else {
        return Ok(());
    };
    let LayoutKind::Struct { fields } = layouts.layout(ty)?.kind else {
        return Ok(());
    };
    for (f, slot) in info.fields.iter().zip(&fields) {
        let at = bit + slot.bit_offset;
        let mut lists = inherited.to_vec();
        lists.extend(f.field_lists.iter().filter(|l| !inherited.contains(l)));
        collect_value(p, layouts, (f.ty, at), &lists, out)?;
    }
    Ok(())
}

/// [`collect_field_lists`] of one value: a scalar is in `lists`; a struct's
/// fields and an array's elements are, each in turn.
fn collect_value(
    p: &ir::Program,
    layouts: &mut Layouts<'_>,
    (ty, at): (janus_p4::types::TyId, u32),
    lists: &[u32],
    out: &mut HashMap<u32, Vec<(u32, u32)>>,
) -> Result<(), LoadError> {
    if let Some((width, _)) = janus_engine::eval::scalar_shape(&p.types, ty) {
        for &list in lists {
            out.entry(list).or_default().push((at, width));
        }
        return Ok(());
    }
    if let LayoutKind::Stack {
        elem, size, stride, ..
    } = layouts.layout(ty)?.kind
    {
        for i in 0..size {
            collect_value(p, layouts, (elem, at + i * stride), lists, out)?;
        }
        return Ok(());
    }
    collect_field_lists(p, layouts, (ty, at), lists, out)
}

/// The empty profile an `action_profile(size)` or
/// `action_selector(algorithm, size, output_width)` instance declares.
fn action_profile(
    p: &ir::Program,
    inst: ir::InstanceId,
) -> Option<janus_engine::profile::ActionProfile> {
    let inst = &p.instances[inst.0 as usize];
    let arg = |i: usize| match inst.args.get(i).map(|a| &a.kind) {
        Some(ir::ExprKind::Const(ir::Value::Int(n))) => u64::try_from(n).ok(),
        Some(ir::ExprKind::Const(ir::Value::Enum(e))) => Some(u64::from(*e)),
        _ => None,
    };
    let (size, selector) = match &inst.of {
        InstanceOf::Extern { name } if name == "action_profile" => (arg(0)?, None),
        InstanceOf::Extern { name } if name == "action_selector" => {
            (arg(1)?, Some(externs::selector_hash(arg(0)?)))
        }
        _ => return None,
    };
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    Some(janus_engine::profile::ActionProfile::new(size, selector))
}

/// Where the fields of `standard_metadata` live. The fields the
/// architecture only writes as a pass or a copy starts (ports, type,
/// length, replication id, timestamps) are none when no block reads them
/// ([`reads::StdReads`]): writing them would change nothing a program or
/// a test can see.
fn std_meta(
    p: &ir::Program,
    layouts: &mut Layouts<'_>,
    sm_ty: janus_p4::types::TyId,
    at: u32,
    arena_bytes: u32,
) -> Result<StdMeta, LoadError> {
    let info = p.types.struct_info(sm_ty).ok_or(LoadError::BadArgument {
        package: PACKAGE,
        index: 0,
    })?;
    let LayoutKind::Struct { fields } = layouts.layout(sm_ty)?.kind else {
        return Err(LoadError::BadArgument {
            package: PACKAGE,
            index: 0,
        });
    };
    let field = |name: &str| -> Field {
        info.fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| {
                Field::new(
                    at * 8 + fields[i].bit_offset,
                    janus_engine::eval::scalar_shape(&p.types, info.fields[i].ty)
                        .map_or(0, |(w, _)| w),
                    arena_bytes,
                )
            })
            .unwrap_or_default()
    };
    let reads = reads::StdReads::of(p, sm_ty);
    let if_read = |name: &str| match info.fields.iter().position(|f| f.name == name) {
        Some(i) if reads.reads(i) => field(name),
        _ => Field::default(),
    };
    Ok(StdMeta {
        base: at * 8,
        ingress_port: if_read("ingress_port"),
        egress_spec: field("egress_spec"),
        egress_port: if_read("egress_port"),
        instance_type: if_read("instance_type"),
        packet_length: if_read("packet_length"),
        mcast_grp: field("mcast_grp"),
        egress_rid: if_read("egress_rid"),
        checksum_error: field("checksum_error"),
        parser_error: field("parser_error"),
        ingress_global_timestamp: if_read("ingress_global_timestamp"),
        egress_global_timestamp: if_read("egress_global_timestamp"),
    })
}

#[cfg(test)]
mod tests {
    use super::Field;
    use janus_engine::value::{read_word, write_word};
    use proptest::prelude::*;

    proptest! {
        /// A field read and written through its window is the bit range
        /// read and written (near the arena's end, past it, and any width).
        #[test]
        fn fields_read_and_write_as_bit_ranges(
            arena in prop::collection::vec(any::<u8>(), 0..24),
            bit in 0u32..200,
            width in 0u32..=64,
            shift in prop::sample::select(vec![0i64, 8, -8, 3]),
            v in any::<u64>(),
        ) {
            let field = Field::new(bit, width, arena.len() as u32).shifted(shift);
            let (at, width) = (field.bit as usize, field.width);
            let mut want = arena.clone();
            write_word(&mut want, at, width, v);
            let mut got = arena.clone();
            field.write(&mut got, v);
            prop_assert_eq!(&got, &want);
            prop_assert_eq!(field.read(&arena), read_word(&arena, at, width));
        }
    }
}
