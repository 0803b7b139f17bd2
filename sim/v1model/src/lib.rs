//! The v1model architecture as bmv2's `simple_switch` defines it, on the
//! Janus engine: `V1Switch(parser, verify checksum, ingress, egress,
//! compute checksum, deparser)`.
//!
//! ```no_run
//! let c = janus_p4::driver::compile_file("p4/examples/l3_router_acl.p4".as_ref(), &Default::default()).unwrap();
//! let mut sw = janus_v1model::V1Switch::load(c.ir.unwrap()).unwrap();
//! let out = sw.process(1, &[0u8; 64]);
//! ```

mod clock;
mod externs;
pub mod meter;
mod packet;
mod reads;
pub mod stf;

pub use externs::{MAX_CELLS, MAX_PENDING_DIGESTS, SizeError};
use externs::{Shared, V1Externs};
use janus_engine::env::ApplyResult;
use janus_engine::eval::{CompileError, Compiler};
use janus_engine::exec::{Op, compile_control};
use janus_engine::layout::{LayoutKind, Layouts};
use janus_engine::parser::{CompiledParser, compile_parser};
use janus_engine::plan::StoragePlan;
use janus_engine::table::TableState;
use janus_engine::value::Bits;
use janus_p4::ir::{self, InstanceOf};
use std::collections::HashMap;
use thiserror::Error;

/// The drop port: an `egress_spec` of 511 drops the packet.
pub const DROP_PORT: u64 = 511;

#[derive(Debug, Error)]
pub enum LoadError {
    #[error("the program has no `main` V1Switch package")]
    NoV1Switch,
    #[error("V1Switch argument {0} is not a parser or control instance")]
    BadArgument(usize),
    #[error("cannot lay out the program: {0}")]
    Layout(#[from] janus_engine::layout::LayoutError),
    #[error("{block}: {error}")]
    Compile { block: String, error: CompileError },
    #[error(transparent)]
    Size(#[from] externs::SizeError),
    /// A refusal at a place in the program: `file:line:col: ...`.
    #[error("{at}: {error}")]
    At { at: String, error: Box<LoadError> },
}

impl LoadError {
    /// `self` at `span` of `program`, unless it names a place already (a
    /// compile error found inside a statement names its own) or the
    /// program has no source locations.
    fn at(self, locator: &janus_p4::source::Locator, span: janus_p4::source::Span) -> LoadError {
        match self {
            LoadError::At { .. } => self,
            LoadError::Compile {
                block,
                error: CompileError::At { at, error },
            } => LoadError::At {
                at,
                error: Box::new(LoadError::Compile {
                    block,
                    error: *error,
                }),
            },
            other => match locator.locate(span) {
                Some(at) => LoadError::At {
                    at,
                    error: Box::new(other),
                },
                None => other,
            },
        }
    }

    /// The `file:line:col` the error names, if any.
    pub fn location(&self) -> Option<&str> {
        match self {
            LoadError::At { at, .. } => Some(at),
            _ => None,
        }
    }
}

/// A table of the running pipeline, as the control plane sees it.
#[derive(Clone, Debug)]
pub struct TableInfo {
    /// The control-plane name (`MyIngress.ipv4_lpm`).
    pub name: String,
    pub keys: Vec<KeyInfo>,
    pub actions: Vec<ActionInfo>,
    /// `const default_action`: the control plane cannot change the default.
    pub default_is_const: bool,
    /// The program gives the table entries (`entries`, const or not). On
    /// bmv2 both lock the table: p4c writes them into the JSON alike and
    /// bmv2 refuses control-plane adds to a table it loaded entries into.
    pub entries_fixed: bool,
}

/// An action profile or selector: its control-plane name and the slots of
/// the tables whose entries point into it (see [`V1Switch::profile_mut`]).
#[derive(Clone, Debug)]
pub struct ProfileInfo {
    pub name: String,
    pub tables: Vec<usize>,
}

/// A parser value set: its control-plane name and the slot of the table
/// holding its members (see [`V1Switch::value_set_mut`]).
#[derive(Clone, Debug)]
pub struct ValueSetInfo {
    pub name: String,
    pub slot: usize,
}

#[derive(Clone, Debug)]
pub struct KeyInfo {
    /// The key's name (`hdr.ipv4.dstAddr` or its `@name`).
    pub name: String,
    pub match_kind: String,
    pub width: u32,
}

#[derive(Clone, Debug)]
pub struct ActionInfo {
    /// The action's control-plane name.
    pub name: String,
    /// Its control-plane parameters: (name, width).
    pub params: Vec<(String, u32)>,
}

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
    verify: Vec<Op>,
    ingress: Vec<Op>,
    egress: Vec<Op>,
    compute: Vec<Op>,
    deparser: Vec<Op>,
    tables: Vec<TableState>,
    infos: Vec<TableInfo>,
    profiles: Vec<janus_engine::profile::ActionProfile>,
    profile_infos: Vec<ProfileInfo>,
    value_sets: Vec<ValueSetInfo>,
    results: Vec<ApplyResult>,
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
}

/// Where a clone session sends its copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MirrorTarget {
    Port(u32),
    Group(u16),
}

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
        janus_engine::lower::lower_calls(&mut program);
        let locator = program.locator.clone();
        let main = program.main.ok_or(LoadError::NoV1Switch)?;
        let pkg = &program.instances[main.0 as usize];
        if !matches!(&pkg.of, InstanceOf::Package { name } if name == "V1Switch")
            || pkg.args.len() != 6
        {
            return Err(LoadError::NoV1Switch);
        }
        let mut blocks = Vec::with_capacity(6);
        for (i, a) in pkg.args.iter().enumerate() {
            let ir::ExprKind::Instance(inst) = a.kind else {
                return Err(LoadError::BadArgument(i).at(&locator, a.span));
            };
            let instance = &program.instances[inst.0 as usize];
            let InstanceOf::Block(b) = instance.of else {
                return Err(LoadError::BadArgument(i).at(&locator, a.span));
            };
            blocks.push((b, instance.name.clone(), inst));
        }
        let plan = StoragePlan::new(&program)?;
        let mut layouts = Layouts::new(&program.types);
        // Headers, metadata and standard_metadata are one copy shared by all
        // six blocks, after the planned frames.
        let pblock = &program.blocks[blocks[0].0.0 as usize];
        let param_ty = |i: usize| pblock.params.get(i).map(|p| p.ty);
        let (h_ty, m_ty, sm_ty) = match (param_ty(1), param_ty(2), param_ty(3)) {
            (Some(h), Some(m), Some(s)) => (h, m, s),
            _ => return Err(LoadError::BadArgument(0)),
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
        let shared: [&[Option<u32>]; 6] = [
            &[None, Some(h_at), Some(m_at), Some(sm_at)],
            &[Some(h_at), Some(m_at)],
            &[Some(h_at), Some(m_at), Some(sm_at)],
            &[Some(h_at), Some(m_at), Some(sm_at)],
            &[Some(h_at), Some(m_at)],
            &[None, Some(h_at)],
        ];
        // Tables of every instance in the package, in instance-path order.
        let mut tables = Vec::new();
        let mut infos = Vec::new();
        let mut slots: HashMap<(String, ir::TableId), u32> = HashMap::new();
        let paths = program.instance_paths();
        for (b, path) in &paths {
            for &t in &program.blocks[b.0 as usize].tables {
                let table = &program.tables[t.0 as usize];
                let state = TableState::from_ir(&program, table).map_err(|error| {
                    LoadError::Compile {
                        block: path.clone(),
                        error,
                    }
                    .at(&locator, table.span)
                })?;
                slots.insert((path.clone(), t), tables.len() as u32);
                infos.push(table_info(&program, table, *b, path));
                tables.push(state);
            }
        }
        // Action profiles and selectors, one per instance per block path.
        let mut profiles: Vec<janus_engine::profile::ActionProfile> = Vec::new();
        let mut profile_infos: Vec<ProfileInfo> = Vec::new();
        let mut by_slot: Vec<(&(String, ir::TableId), &u32)> = slots.iter().collect();
        by_slot.sort_by_key(|(_, slot)| **slot);
        for ((path, t), &slot) in by_slot {
            let Some(inst) = program.tables[t.0 as usize].implementation else {
                continue;
            };
            let name = program.instances[inst.0 as usize].cp_name.under(path);
            let at = match profile_infos.iter().position(|p| p.name == name) {
                Some(at) => at,
                None => {
                    profiles.push(action_profile(&program, inst).ok_or_else(|| {
                        LoadError::Compile {
                            block: path.clone(),
                            error: CompileError::Unsupported("this table implementation"),
                        }
                        .at(&locator, program.instances[inst.0 as usize].span)
                    })?);
                    profile_infos.push(ProfileInfo {
                        name,
                        tables: Vec::new(),
                    });
                    profiles.len() - 1
                }
            };
            profile_infos[at].tables.push(slot as usize);
            tables[slot as usize].profile = Some(at as u32);
        }
        // Value sets after the tables, so that table slots match `infos`.
        let mut value_set_slots = HashMap::new();
        let mut value_sets = Vec::new();
        for (b, path) in &paths {
            for &v in &program.blocks[b.0 as usize].value_sets {
                let vs = &program.value_sets[v.0 as usize];
                let span = program.blocks[b.0 as usize].span;
                let state = TableState::for_value_set(&program, vs).map_err(|error| {
                    LoadError::Compile {
                        block: path.clone(),
                        error,
                    }
                    .at(&locator, span)
                })?;
                value_set_slots.insert((path.clone(), v), tables.len() as u32);
                value_sets.push(ValueSetInfo {
                    name: vs.cp_name.under(path),
                    slot: tables.len(),
                });
                tables.push(state);
            }
        }
        let mut externs = V1Externs::new(&program, Shared { std, arena_bytes }).map_err(|e| {
            let span = e.instance().map(|i| program.instances[i.0 as usize].span);
            let e = LoadError::Size(e);
            match span {
                Some(span) => e.at(&locator, span),
                None => e,
            }
        })?;
        for ((path, t), &slot) in &slots {
            let table = &program.tables[t.0 as usize];
            if let Some(inst) = table.direct_meter {
                let entries = tables[slot as usize].max_size;
                externs
                    .attach_direct_meter(path, inst, slot, entries)
                    .map_err(|e| LoadError::Size(e).at(&locator, table.span))?;
            }
        }
        let mut compiled: Vec<Vec<Op>> = Vec::with_capacity(6);
        let mut parser = None;
        for (i, (b, path, inst)) in blocks.iter().enumerate() {
            let block = &program.blocks[b.0 as usize];
            let ctor_args = &program.instances[inst.0 as usize].args;
            let frame = plan.instance_frame(path).ok_or_else(|| {
                LoadError::Compile {
                    block: path.clone(),
                    error: CompileError::Unsupported("an instance without storage"),
                }
                .at(&locator, block.span)
            })?;
            let mut vars = plan.shared_vars();
            vars.extend(frame.vars.iter().map(|(v, o)| (*v, frame.base + o)));
            for (p, at) in block.params.iter().zip(shared[i]) {
                if let Some(at) = at {
                    vars.insert(p.var, *at);
                }
            }
            let mut c = Compiler::new(&program, vars);
            let ctx = janus_engine::eval::InstanceCtx {
                plan: &plan,
                path: path.clone(),
                table_slots: &slots,
                value_set_slots: &value_set_slots,
            };
            ctx.bind_slots(&mut c, path);
            c.externs = Some(&externs);
            c.instances = Some(ctx);
            let err = |error| {
                LoadError::Compile {
                    block: path.clone(),
                    error,
                }
                .at(&locator, block.span)
            };
            if i == 0 {
                parser = Some(compile_parser(&mut c, block, ctor_args).map_err(err)?);
                compiled.push(Vec::new());
            } else {
                compiled.push(compile_control(&mut c, block, ctor_args).map_err(err)?);
            }
        }
        // What compiling found: the direct meters whose hits write a
        // colour, and the field lists of deprecated calls' `data`.
        for slot in externs.colour_slots() {
            if let Some(t) = tables.get_mut(slot as usize) {
                t.hit_hook = true;
            }
        }
        for (i, runs) in externs.data_lists().into_iter().enumerate() {
            field_lists.insert(externs::DATA_LISTS + i as u32, runs);
        }
        let mut it = compiled.into_iter().skip(1);
        let mut next = || it.next().unwrap_or_default();
        let (verify, ingress, egress, compute, deparser) = (next(), next(), next(), next(), next());
        let results = vec![ApplyResult::default(); tables.len()];
        let needs_clock = std.reads_time() || tables.iter().any(|t| t.idle_timeout);
        Ok(V1Switch {
            parser: parser.ok_or(LoadError::BadArgument(0))?,
            program,
            verify,
            ingress,
            egress,
            compute,
            deparser,
            tables,
            infos,
            profiles,
            profile_infos,
            value_sets,
            results,
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
        })
    }

    /// Turns per-packet tracing on or off: parser states, table keys, hits,
    /// actions and arguments, and each packet's fate, logged through
    /// `tracing` at info level with target `janus::trace`. Off, it costs one
    /// branch per event.
    pub fn set_trace(&mut self, on: bool) {
        self.trace = on;
    }

    pub fn program(&self) -> &ir::Program {
        &self.program
    }

    /// The action profiles and selectors.
    pub fn profiles(&self) -> &[ProfileInfo] {
        &self.profile_infos
    }

    /// The members and groups of the profile named `name`.
    pub fn profile_mut(&mut self, name: &str) -> Option<&mut janus_engine::profile::ActionProfile> {
        let at = self.profile_infos.iter().position(|p| p.name == name)?;
        self.profiles.get_mut(at)
    }

    /// Microseconds since the pipeline was loaded: the clock of
    /// `standard_metadata` timestamps and of [`TableState::last_hit_us`].
    pub fn now_us(&self) -> u64 {
        self.clock.now_us()
    }

    /// The parser value sets.
    pub fn value_sets(&self) -> &[ValueSetInfo] {
        &self.value_sets
    }

    /// The members of the value set named `name`, as a table with one
    /// ternary key per field (add members with [`TableState::insert`]).
    pub fn value_set_mut(&mut self, name: &str) -> Option<&mut TableState> {
        let slot = self.value_sets.iter().find(|v| v.name == name)?.slot;
        self.tables.get_mut(slot)
    }

    /// The tables, by slot.
    pub fn tables(&self) -> &[TableInfo] {
        &self.infos
    }

    /// The contents of the table in `slot`, read-only (entries, direct
    /// counters: [`TableState::counted_entries`]).
    pub fn table(&self, slot: usize) -> Option<&TableState> {
        self.tables.get(slot)
    }

    /// The contents of the table in `slot`, for the control plane.
    pub fn table_mut(&mut self, slot: usize) -> Option<&mut TableState> {
        self.tables.get_mut(slot)
    }

    fn instance(&self, name: &str) -> Option<externs::StateId> {
        self.externs.names.get(name).copied()
    }

    /// Takes the digests sent since the last call, oldest first, as
    /// (receiver, data); and how many were dropped because
    /// [`MAX_PENDING_DIGESTS`] were already waiting.
    pub fn take_digests(&mut self) -> (Vec<(u64, Vec<u8>)>, u64) {
        let dropped = std::mem::take(&mut self.externs.digests_dropped);
        (std::mem::take(&mut self.externs.digests), dropped)
    }

    /// Sets the committed and peak rates of meter `name`, cell `index` (every
    /// cell when `None`); false if there is no such meter or cell.
    pub fn set_meter_rates(
        &mut self,
        name: &str,
        index: Option<usize>,
        committed: meter::Rate,
        peak: meter::Rate,
    ) -> bool {
        match self.instance(name) {
            Some(id) => self.externs.set_meter_rates(id, index, committed, peak),
            None => false,
        }
    }

    /// Configures clone session `session` to send copies to `target`.
    pub fn mirroring_add(&mut self, session: u32, target: MirrorTarget) {
        self.mirror.insert(session, target);
    }

    /// Removes clone session `session`; false if it was not configured.
    pub fn mirroring_delete(&mut self, session: u32) -> bool {
        self.mirror.remove(&session).is_some()
    }

    /// Packets and bytes counted by indexed counter `name` at `index`.
    pub fn counter(&self, name: &str, index: usize) -> Option<(u64, u64)> {
        self.externs.counter(self.instance(name)?, index)
    }

    /// Sets the packet and byte counts of counter `name` at `index`; false
    /// if there is no such cell.
    pub fn counter_write(&mut self, name: &str, index: usize, packets: u64, bytes: u64) -> bool {
        let Some(id) = self.instance(name) else {
            return false;
        };
        match self.externs.counter_mut(id, index) {
            Some(cell) => {
                *cell = (packets, bytes);
                true
            }
            None => false,
        }
    }

    /// Sets every cell of register `name` to 0; false if there is none.
    pub fn register_reset(&mut self, name: &str) -> bool {
        self.instance(name)
            .is_some_and(|id| self.externs.register_reset(id))
    }

    /// The value of register `name` at `index`.
    pub fn register(&self, name: &str, index: usize) -> Option<&Bits> {
        self.externs.register(self.instance(name)?, index)
    }

    /// Sets register `name` at `index`; false if there is no such cell.
    pub fn register_write(&mut self, name: &str, index: usize, value: u64) -> bool {
        let Some(id) = self.instance(name) else {
            return false;
        };
        match self.externs.register_mut(id, index) {
            Some(cell) => {
                *cell = Bits::from_u64(cell.width(), false, value);
                true
            }
            None => false,
        }
    }

    /// Sets the (replication id, port) copies multicast group `group`
    /// makes, replacing its nodes (the control plane's path; none: the
    /// group makes no copies).
    pub fn mc_group_set(&mut self, group: u16, copies: Vec<(u16, u32)>) {
        self.group_nodes.remove(&group);
        if copies.is_empty() {
            self.groups.remove(&group);
        } else {
            self.groups.insert(group, copies);
        }
    }

    /// Creates multicast group `group` (no members yet).
    pub fn mc_group_create(&mut self, group: u16) {
        self.groups.entry(group).or_default();
        self.group_nodes.entry(group).or_default();
    }

    /// Creates a replication node (rid, ports); returns its handle.
    pub fn mc_node_create(&mut self, rid: u16, ports: Vec<u32>) -> u32 {
        self.nodes.push((rid, ports));
        self.nodes.len() as u32 - 1
    }

    /// Adds node `handle` to `group`; false if either is unknown.
    pub fn mc_node_associate(&mut self, group: u16, handle: u32) -> bool {
        if handle as usize >= self.nodes.len() {
            return false;
        }
        let Some(handles) = self.group_nodes.get_mut(&group) else {
            return false;
        };
        handles.push(handle);
        self.expand_group(group);
        true
    }

    /// Replaces the ports of node `handle`; false if it is unknown.
    pub fn mc_node_update(&mut self, handle: u32, ports: Vec<u32>) -> bool {
        let Some(node) = self.nodes.get_mut(handle as usize) else {
            return false;
        };
        node.1 = ports;
        let groups: Vec<u16> = self
            .group_nodes
            .iter()
            .filter(|(_, hs)| hs.contains(&handle))
            .map(|(g, _)| *g)
            .collect();
        for g in groups {
            self.expand_group(g);
        }
        true
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
    let info = p
        .types
        .struct_info(sm_ty)
        .ok_or(LoadError::BadArgument(0))?;
    let LayoutKind::Struct { fields } = layouts.layout(sm_ty)?.kind else {
        return Err(LoadError::BadArgument(0));
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

fn table_info(p: &ir::Program, t: &ir::Table, block: ir::BlockId, path: &str) -> TableInfo {
    let width = |ty| janus_engine::eval::scalar_shape(&p.types, ty).map_or(0, |(w, _)| w);
    let local = p.blocks[block.0 as usize].actions.clone();
    TableInfo {
        name: t.cp_name.under(path),
        keys: t
            .keys
            .iter()
            .filter(|k| k.match_kind != "selector")
            .map(|k| KeyInfo {
                name: k.name.clone(),
                match_kind: k.match_kind.clone(),
                width: width(k.expr.ty),
            })
            .collect(),
        actions: t
            .actions
            .iter()
            .map(|a| {
                let act = &p.actions[a.action.0 as usize];
                let prefix = if local.contains(&a.action) { path } else { "" };
                ActionInfo {
                    name: act.cp_name.under(prefix),
                    params: act
                        .params
                        .iter()
                        .filter(|x| x.direction == ir::Direction::None)
                        .map(|x| (x.name.clone(), width(x.ty)))
                        .collect(),
                }
            })
            .collect(),
        default_is_const: t.default_is_const,
        entries_fixed: t.entries_const || !t.entries.is_empty(),
    }
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
