//! The compiled form of statements: ops over resolved places, what a
//! table apply and an action call carry, and the standard parser errors.

use super::special::{EmitRun, FixedHeader, Test};
use crate::eval::{Node, Place};
use crate::externs::ExternArg;
use crate::value::{Bits, FieldWord};
use janus_p4::ir;

/// [`Flow::Reject`](crate::flow::Flow::Reject) of a `transition reject` in a sub-parser: the caller
/// rejects too, with no error.
pub const REJECT_WITHOUT_ERROR: u32 = u32::MAX;

/// No error: an [`Op::Advance`] that takes any number of bits.
pub const NO_ERROR: u32 = u32::MAX - 1;

/// The `error` members the packet operations raise, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ParserErrors {
    pub packet_too_short: u32,
    pub header_too_short: u32,
    pub stack_out_of_bounds: u32,
    pub no_match: u32,
    pub parser_timeout: u32,
    pub invalid_argument: u32,
}

impl ParserErrors {
    /// Looks the standard errors up in the program (core.p4 declares them).
    pub fn of(p: &ir::Program) -> ParserErrors {
        let find = |name: &str| p.errors.iter().position(|e| e == name).unwrap_or(0) as u32;
        ParserErrors {
            packet_too_short: find("PacketTooShort"),
            header_too_short: find("HeaderTooShort"),
            stack_out_of_bounds: find("StackOutOfBounds"),
            no_match: find("NoMatch"),
            parser_timeout: find("ParserTimeout"),
            invalid_argument: find("ParserInvalidArgument"),
        }
    }
}

/// The varbit field of a header: where it starts in the header, its
/// maximum, and the byte (relative to the header) holding its length.
#[derive(Clone, Debug, PartialEq)]
pub struct VarbitSlot {
    pub at: u32,
    pub max: u32,
    pub len_byte: u32,
}

/// What extracting or emitting a header needs to know of it.
#[derive(Clone, Debug, PartialEq)]
pub struct HeaderShape {
    pub wire_bits: u32,
    pub valid_byte: u32,
    pub varbit: Option<VarbitSlot>,
}

/// A compiled statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Writes a scalar.
    Store {
        place: Box<Place>,
        value: Node,
    },
    /// [`Op::Store`] of a constant of at most 64 bits to a fixed place.
    SetWord {
        dst: FieldWord,
        value: u64,
    },
    /// [`Op::Store`] of a field at a fixed place to another: of the same
    /// width, or a cast that truncates or zero-extends it (`src` read as
    /// unsigned, `dst` keeping its low bits).
    MoveWord {
        dst: FieldWord,
        src: FieldWord,
    },
    /// [`Op::Store`] of `src + k` (or `src - k`, as `k` negated), `src` a
    /// field at a fixed place of `dst`'s width: wrapping, like `bit<W>`
    /// and `int<W>` addition (a TTL decrement, a counter increment).
    AddWord {
        dst: FieldWord,
        src: FieldWord,
        k: u64,
    },
    /// [`Op::Store`] of another narrow value (the node inside
    /// [`Node::Narrow`]) to a fixed place.
    StoreWord {
        bit: u32,
        value: Node,
    },
    /// Copies `bytes` bytes between two places of one composite type.
    Copy {
        dst: Place,
        src: Box<Place>,
        bytes: u32,
    },
    /// Clears `bytes` bytes (a composite becomes all zero, headers invalid).
    Zero {
        dst: Place,
        bytes: u32,
    },
    /// Makes a header valid (zeroing its fields first if it was invalid) or
    /// invalid (its fields keep their values).
    SetValidity {
        header: Place,
        valid_byte: u32,
        wire_bytes: u32,
        valid: bool,
    },
    /// Shifts a stack's elements by `count` toward the end (push) or the
    /// front (pop); the freed elements become invalid.
    StackShift {
        stack: Box<Place>,
        stride: u32,
        size: u32,
        elem_valid_bytes: Vec<u32>,
        next_index: u32,
        count: i64,
    },
    If(Box<Node>, Vec<Op>, Vec<Op>),
    /// [`Op::If`] on a condition of a specialised shape.
    IfTest(Box<Test>, Vec<Op>, Vec<Op>),
    Seq(Vec<Op>),
    /// `switch` on a value: the first case whose labels include the value,
    /// else `default` (an index into `bodies`).
    Switch {
        subject: Box<Node>,
        cases: Box<[(Vec<Bits>, usize)]>,
        default: Option<usize>,
        bodies: Box<[Vec<Op>]>,
    },
    Loop {
        cond: Option<Box<Node>>,
        body: Vec<Op>,
        update: Vec<Op>,
    },
    /// A direct action call: arguments copied in, the body, results copied out.
    CallAction {
        copy_in: Box<[Op]>,
        body: Vec<Op>,
        copy_out: Box<[Op]>,
    },
    Exit,
    Return,
    Break,
    LoopContinue,
    /// `packet.extract(hdr[, varbit_bits])`; `next_index` is the byte of the
    /// stack's `nextIndex` to advance when extracting into `stack.next`.
    Extract {
        header: Box<Place>,
        shape: Box<HeaderShape>,
        varbit_len: Option<Box<Node>>,
        next_index: Option<u32>,
        errors: ParserErrors,
    },
    /// [`Op::Extract`] of a header without varbit at a fixed place.
    ExtractFixed(FixedHeader),
    /// `h = packet.lookahead<H>()` for a header type `H`: the header's bits
    /// at the cursor, which stays where it is; `h` becomes valid.
    Peek {
        header: Box<Place>,
        shape: HeaderShape,
        errors: ParserErrors,
    },
    /// `packet.advance(bits)`.
    Advance {
        bits: Node,
        too_short: u32,
        /// The error of an amount that is not a whole number of bytes
        /// (ParserInvalidArgument), or [`NO_ERROR`] to allow any amount
        /// (`extract<T>(_)` skipping `T`).
        invalid: u32,
    },
    /// The packet must hold `bits` more bits (before a `lookahead`).
    Require {
        bits: u32,
        too_short: u32,
    },
    /// `verify(cond, err)`.
    Verify {
        cond: Node,
        error: Box<Node>,
    },
    /// `packet.emit(hdr)` of one header: emitted if valid.
    Emit {
        header: Place,
        shape: HeaderShape,
    },
    /// [`Op::Emit`] of a header without varbit at a fixed place.
    EmitFixed(FixedHeader),
    /// Consecutive [`Op::EmitFixed`]s of a deparser as one op: each valid
    /// header's bytes appended in order.
    EmitFixedRun(EmitRun),
    /// A sub-parser: it continues at the caller's position in the packet;
    /// its errors are the caller's.
    SubParser {
        copy_in: Vec<Op>,
        parser: Box<crate::parser::CompiledParser>,
        copy_out: Vec<Op>,
    },
    /// An extern call the architecture implements (see [`crate::externs`]).
    Extern {
        id: u32,
        args: Vec<ExternArg>,
        result: Option<Box<Place>>,
    },
    /// `t.apply()`: look the key up in the table in `slot`, run the entry's
    /// action (or the default action on a miss), record the result.
    ApplyTable {
        slot: u32,
        /// The table's name and keys as evaluated in general.
        keys: Box<TableKeys>,
        actions: Vec<ActionImpl>,
        /// `keys` as fields read by one word load each, when every key is
        /// a load of a fixed place of 1..=64 bits, there are at most
        /// [`INLINE_KEYS`] and no selector keys (see [`special`]).
        key_words: Option<Box<[FieldWord]>>,
    },
}

/// What [`Op::ApplyTable`] needs off its fast path (kept apart so that
/// ops stay small).
#[derive(Clone, Debug, PartialEq)]
pub struct TableKeys {
    /// The table's name, for traces.
    pub name: Box<str>,
    pub keys: Vec<Node>,
    /// The `selector` keys, hashed to pick a member of a group.
    pub selector_keys: Vec<Node>,
}

/// An action as a table runs it: where its control-plane arguments go, the
/// data-plane arguments the table's action list binds, the body.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionImpl {
    /// The action's name, for traces.
    pub name: Box<str>,
    pub params: Vec<ActionParam>,
    pub copy_in: Vec<Op>,
    pub body: Vec<Op>,
    pub copy_out: Vec<Op>,
}

impl ActionImpl {
    /// Whether running the action changes nothing (`NoAction`): no
    /// parameters, no copies, an empty body.
    #[inline]
    pub fn does_nothing(&self) -> bool {
        self.params.is_empty()
            && self.copy_in.is_empty()
            && self.body.is_empty()
            && self.copy_out.is_empty()
    }
}

/// A control-plane parameter of an action: where the entry's argument goes.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionParam {
    pub place: Place,
    /// The place as a field of the parameter's width, when the place is
    /// fixed and the width at most 64: an argument of that width is then
    /// written with one word store.
    pub word: Option<FieldWord>,
}
