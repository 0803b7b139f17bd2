//! What running code sees: the packet state arena and the packet.

/// What the last `apply` of a table did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ApplyResult {
    pub hit: bool,
    /// Index of the action that ran in the table's action list.
    pub action: u32,
    /// The entry that matched (its index in the table), `u32::MAX` on a miss.
    pub entry: u32,
}

/// The execution environment of one packet in one block.
pub struct Env<'a> {
    /// Table contents, by table slot (see [`crate::eval::Compiler::tables`]).
    pub tables: &'a [crate::table::TableState],
    /// Action profiles and selectors, by the slot tables name in
    /// [`crate::table::TableState::profile`].
    pub profiles: &'a [crate::profile::ActionProfile],
    /// The result of each table's last apply, by table slot (a buffer the
    /// pipeline owns and reuses).
    pub results: &'a mut [ApplyResult],
    /// The packet state: every variable of every block instance.
    pub arena: &'a mut [u8],
    /// The packet as received (parsers read it).
    pub input: &'a [u8],
    /// The parser's position in `input`, in bits.
    pub cursor: usize,
    /// Bytes a deparser emits, when deparsing.
    pub output: Option<&'a mut Vec<u8>>,
    /// Bits emitted so far (headers need not end on a byte).
    pub out_bits: usize,
    /// The architecture's extern implementations.
    pub externs: Option<&'a mut dyn crate::externs::ExternHandler>,
    /// Whether to log parser states and table applies (target
    /// `janus::trace`); chosen at run time, checked once per event.
    pub trace: bool,
    /// The packet's length in bytes, for direct counters.
    pub packet_bytes: u64,
    /// When the packet arrived (microseconds on the pipeline's clock), for
    /// the last-hit times of tables with idle timeouts.
    pub now_us: u64,
    /// Bytes the packet gained (or, negative, lost) through headers made
    /// valid or invalid by `setValid`/`setInvalid` (and `{#}` or list
    /// assignments): real changes only, by each header's wire size. bmv2
    /// keeps this in the packet's length, which egress then reads.
    pub length_delta: i64,
}

impl<'a> Env<'a> {
    /// An environment with no packet, for controls.
    pub fn new(arena: &'a mut [u8]) -> Env<'a> {
        Env {
            tables: &[],
            profiles: &[],
            results: &mut [],
            arena,
            input: &[],
            cursor: 0,
            output: None,
            out_bits: 0,
            externs: None,
            trace: false,
            packet_bytes: 0,
            now_us: 0,
            length_delta: 0,
        }
    }

    /// An environment for parsing `input` from its start.
    pub fn parsing(arena: &'a mut [u8], input: &'a [u8]) -> Env<'a> {
        Env {
            tables: &[],
            profiles: &[],
            results: &mut [],
            arena,
            input,
            cursor: 0,
            output: None,
            out_bits: 0,
            externs: None,
            trace: false,
            packet_bytes: 0,
            now_us: 0,
            length_delta: 0,
        }
    }

    /// An environment for deparsing into `output` (cleared first).
    pub fn deparsing(arena: &'a mut [u8], output: &'a mut Vec<u8>) -> Env<'a> {
        output.clear();
        Env {
            tables: &[],
            profiles: &[],
            results: &mut [],
            arena,
            input: &[],
            cursor: 0,
            output: Some(output),
            out_bits: 0,
            externs: None,
            trace: false,
            packet_bytes: 0,
            now_us: 0,
            length_delta: 0,
        }
    }

    /// An environment for a pipeline's blocks, given everything at once:
    /// the table contents and the registers for their results, the action
    /// profiles, the extern implementations and whether to trace. No packet
    /// yet: set `input`, `packet_bytes`, `now_us` or `output` before a
    /// block that needs them.
    pub fn pipeline(
        arena: &'a mut [u8],
        tables: &'a [crate::table::TableState],
        results: &'a mut [ApplyResult],
        profiles: &'a [crate::profile::ActionProfile],
        externs: &'a mut dyn crate::externs::ExternHandler,
        trace: bool,
    ) -> Env<'a> {
        Env {
            tables,
            profiles,
            results,
            arena,
            input: &[],
            cursor: 0,
            output: None,
            out_bits: 0,
            externs: Some(externs),
            trace,
            packet_bytes: 0,
            now_us: 0,
            length_delta: 0,
        }
    }

    /// Gives the environment the table contents it runs against and the
    /// registers for their results (one per table).
    pub fn with_tables(
        mut self,
        tables: &'a [crate::table::TableState],
        results: &'a mut [ApplyResult],
    ) -> Env<'a> {
        self.tables = tables;
        self.results = results;
        self
    }

    /// Gives the environment the action profiles the tables point into.
    pub fn with_profiles(mut self, profiles: &'a [crate::profile::ActionProfile]) -> Env<'a> {
        self.profiles = profiles;
        self
    }

    /// Gives the environment the architecture's extern implementations.
    pub fn with_externs(mut self, externs: &'a mut dyn crate::externs::ExternHandler) -> Env<'a> {
        self.externs = Some(externs);
        self
    }

    /// Turns tracing on or off.
    pub fn with_trace(mut self, trace: bool) -> Env<'a> {
        self.trace = trace;
        self
    }

    /// Bits of `input` not yet consumed.
    pub fn remaining_bits(&self) -> usize {
        (self.input.len() * 8).saturating_sub(self.cursor)
    }
}

/// Copies `n` bits from `src` at bit `from` to `dst` at bit `to` (most
/// significant bit first), without allocating.
pub fn copy_bits(src: &[u8], from: usize, dst: &mut [u8], to: usize, n: usize) {
    if from.is_multiple_of(8) && to.is_multiple_of(8) && n.is_multiple_of(8) {
        dst[to / 8..(to + n) / 8].copy_from_slice(&src[from / 8..(from + n) / 8]);
        return;
    }
    let mut done = 0;
    while done < n {
        let k = (n - done).min(64) as u32;
        crate::value::Bits::read_bits(src, from + done, k, false).write_bits(dst, to + done);
        done += k as usize;
    }
}

impl Env<'_> {
    /// Appends `n` bits from `src` at bit `from` to the output. Whole
    /// bytes after whole bytes (the usual header) are one slice append.
    pub fn emit_bits(&mut self, src_is_input: bool, from: usize, n: usize) {
        let Some(out) = self.output.as_deref_mut() else {
            return;
        };
        let src: &[u8] = if src_is_input { self.input } else { self.arena };
        let end = self.out_bits + n;
        if (self.out_bits | from | n).is_multiple_of(8) && out.len() == self.out_bits / 8 {
            out.extend_from_slice(&src[from / 8..(from + n) / 8]);
            self.out_bits = end;
            return;
        }
        if out.len() < end.div_ceil(8) {
            out.resize(end.div_ceil(8), 0);
        }
        copy_bits(src, from, out, self.out_bits, n);
        self.out_bits = end;
    }
}
