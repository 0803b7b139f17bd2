//! Statements compiled for execution over the packet arena.
//!
//! [`compile_stmts`] turns IR statements into [`Op`]s whose places are all
//! resolved (see [`crate::eval`]); [`run`] executes them. P4's control flow
//! maps onto [`Flow`]: `return` ends the innermost action or apply block,
//! `exit` ends the whole pipeline stage, `break`/`continue` the innermost loop.

use crate::env::{Env, copy_bits};
use crate::eval::{
    CompileError, Compiler, Node, Place, is_packet_in, is_packet_out, lookahead_bits, read_u32,
    scalar_shape, write_u32,
};
use crate::externs::{DataLayout, ExternArg};
mod special;
#[cfg(test)]
mod tests;
use crate::layout::LayoutKind;
use crate::value::{Bits, FieldWord, SMALL_MAX_WIDTH, read_word, write_word};
use janus_p4::ir::{
    self, BuiltinMethod, Callee, Direction, ExprKind, StmtKind, SwitchLabel, Value,
};
use janus_p4::types::{TyId, TypeTable};
pub use special::{Cmp, EmitRun, FixedHeader, Test};

/// How execution of a statement list ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Return,
    Exit,
    Break,
    LoopContinue,
    /// A parser error: the parser stops and goes to `reject` with this
    /// `error` (its index in the program's error list).
    Reject(u32),
}

/// [`Flow::Reject`] of a `transition reject` in a sub-parser: the caller
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
    /// [`Op::Store`] of a field at a fixed place to another of the same width.
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

/// A control's body as it runs on each apply of the instance built with
/// `ctor_args`: its constructor parameters bound, its local declarations
/// (and their initialisers) in order, then the apply block.
pub fn compile_control(
    c: &mut Compiler<'_>,
    block: &ir::Block,
    ctor_args: &[ir::Expr],
) -> Result<Vec<Op>, CompileError> {
    let mut ops = block_prologue(c, block, ctor_args)?;
    ops.extend(compile_stmts(c, &block.apply)?);
    Ok(ops)
}

/// What runs as a parser or control instance starts: its scalar
/// constructor parameters take the instance's (constant) arguments (an
/// argument that is not a constant is an error), then its local
/// declarations run. Constructor parameters naming instances
/// are bound to them in `c` first (see [`crate::bind`]).
pub fn block_prologue(
    c: &mut Compiler<'_>,
    block: &ir::Block,
    ctor_args: &[ir::Expr],
) -> Result<Vec<Op>, CompileError> {
    if let Some(ctx) = &c.instances {
        let bound = crate::bind::ctor_bindings(c.program, &ctx.path);
        c.bound.extend(bound);
    }
    let mut ops = Vec::new();
    for (p, arg) in block.ctor_params.iter().zip(ctor_args) {
        if is_scalar(c, p.ty) {
            // Lowering folds every argument it can bind; one left open did
            // not fold (e.g. `Adder(8w1 / n)` with `n` bound to 0).
            if !matches!(arg.kind, ExprKind::Const(_)) {
                return Err(CompileError::NotConstant(p.name.clone()).at(c.program, arg.span));
            }
            let param = ir::Expr {
                ty: p.ty,
                kind: ExprKind::Var(p.var),
                span: arg.span,
            };
            assign(c, &param, arg, &mut ops)?;
        }
    }
    ops.extend(compile_stmts(c, &block.locals)?);
    Ok(ops)
}

/// Compiles a statement list of one frame, common shapes specialised
/// (see [`special::specialise`]).
pub fn compile_stmts(c: &mut Compiler<'_>, stmts: &[ir::Stmt]) -> Result<Vec<Op>, CompileError> {
    let mut out = Vec::with_capacity(stmts.len());
    for s in stmts {
        compile_stmt(c, s, &mut out)?;
    }
    Ok(special::specialise(out))
}

/// Compiles one statement; an error names the statement's place in the
/// program (or a more precise one found inside it).
fn compile_stmt(c: &mut Compiler<'_>, s: &ir::Stmt, out: &mut Vec<Op>) -> Result<(), CompileError> {
    // A `lookahead` anywhere in the statement's own expressions (an
    // argument, an index, an amount) needs the packet to hold its bits
    // before the statement runs (PacketTooShort otherwise). A bare
    // `packet.lookahead<T>();` checks nothing, as in bmv2.
    let bits = stmt_lookahead_need(c, s);
    if bits > 0 {
        out.push(Op::Require {
            bits,
            too_short: ParserErrors::of(c.program).packet_too_short,
        });
    }
    compile_stmt_here(c, s, out).map_err(|err| err.at(c.program, s.span))
}

/// The widest `lookahead` in the expressions `s` evaluates itself (not in
/// the statements nested in it).
fn stmt_lookahead_need(c: &Compiler<'_>, s: &ir::Stmt) -> u32 {
    let types = &c.program.types;
    let need = |e: &ir::Expr| crate::eval::expr_lookahead_need(types, e);
    match &s.kind {
        StmtKind::Assign(l, r) => need(l).max(need(r)),
        StmtKind::Declare(_, Some(e))
        | StmtKind::If(e, ..)
        | StmtKind::Switch(e, _)
        | StmtKind::Return(Some(e)) => need(e),
        StmtKind::Call(e) => match &e.kind {
            ExprKind::Call(Callee::ExternMethod { receiver, name, .. }, _)
                if name == "lookahead" && is_packet_in(types, receiver.ty) =>
            {
                0
            }
            ExprKind::Call(callee, args) => {
                let receiver = match callee {
                    Callee::Builtin { receiver, .. } => need(receiver),
                    _ => 0,
                };
                args.iter().flatten().map(need).fold(receiver, u32::max)
            }
            _ => need(e),
        },
        _ => 0,
    }
}

fn compile_stmt_here(
    c: &mut Compiler<'_>,
    s: &ir::Stmt,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    match &s.kind {
        StmtKind::Assign(lhs, rhs) => assign(c, lhs, rhs, out)?,
        StmtKind::Declare(v, init) => {
            let var = ir::Expr {
                ty: c.program.var(*v).ty,
                kind: ExprKind::Var(*v),
                span: s.span,
            };
            match init {
                Some(e) => assign(c, &var, e, out)?,
                // Uninitialised locals start as zero (headers invalid), so
                // that runs are deterministic.
                None => zero(c, &var, out)?,
            }
        }
        StmtKind::Call(e) => call(c, e, out)?,
        StmtKind::If(cond, a, b) => {
            let cond = guarded(c, cond, out)?;
            out.push(Op::If(
                Box::new(cond),
                compile_stmts(c, a)?,
                compile_stmts(c, b)?,
            ));
        }
        StmtKind::Block(b) => out.push(Op::Seq(compile_stmts(c, b)?)),
        StmtKind::Exit => out.push(Op::Exit),
        StmtKind::Return(None) => out.push(Op::Return),
        StmtKind::Return(Some(e)) => {
            let place = c.return_place.clone().ok_or(CompileError::Unsupported(
                "`return` with a value outside a function",
            ))?;
            if !is_scalar(c, e.ty) {
                return Err(CompileError::Unsupported(
                    "functions returning composite values",
                ));
            }
            let value = guarded(c, e, out)?;
            out.push(Op::Store {
                place: Box::new(place),
                value,
            });
            out.push(Op::Return);
        }
        StmtKind::Break => out.push(Op::Break),
        StmtKind::Continue => out.push(Op::LoopContinue),
        StmtKind::Switch(subject, cases) => {
            let op = switch(c, subject, cases, out)?;
            out.push(op);
        }
        StmtKind::For {
            init,
            cond,
            update,
            body,
        } => {
            out.extend(compile_stmts(c, init)?);
            let cond = cond.as_ref().map(|e| c.node(e).map(Box::new)).transpose()?;
            out.push(Op::Loop {
                cond,
                body: compile_stmts(c, body)?,
                update: compile_stmts(c, update)?,
            });
        }
        StmtKind::ForIn { .. } => return Err(CompileError::Unsupported("`for ... in` loops")),
    }
    Ok(())
}

/// Compiles a scalar expression; if it looks ahead into the packet, first
/// emits the check that the packet is long enough.
pub fn guarded(
    c: &mut Compiler<'_>,
    e: &ir::Expr,
    out: &mut Vec<Op>,
) -> Result<Node, CompileError> {
    hoist_applies(c, e, out)?;
    let node = c.node(e)?;
    let bits = lookahead_bits(&node);
    if bits > 0 {
        out.push(Op::Require {
            bits,
            too_short: ParserErrors::of(c.program).packet_too_short,
        });
    }
    Ok(node)
}

fn is_scalar(c: &Compiler<'_>, ty: TyId) -> bool {
    scalar_shape(&c.program.types, ty).is_some()
}

/// `lhs = rhs` for scalars and composites.
fn assign(
    c: &mut Compiler<'_>,
    lhs: &ir::Expr,
    rhs: &ir::Expr,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    if matches!(rhs.kind, ExprKind::DontCare) {
        // `x = ...`: the type's default value (zero, headers invalid).
        if let (Some((width, signed)), true) =
            (scalar_shape(&c.program.types, lhs.ty), has_part_select(lhs))
        {
            let zero = Node::Const(Bits::zero(width, signed));
            return store_scalar(c, lhs, zero, out);
        }
        return zero(c, lhs, out);
    }
    if let ExprKind::Call(Callee::Function(f), args) = &rhs.kind {
        // `x = f(...)`: the function's `return` writes x.
        let result = c.place(lhs)?;
        out.push(function_call(c, *f, args, Some(result))?);
        return Ok(());
    }
    if let ExprKind::Call(
        callee @ (Callee::ExternFunction { .. } | Callee::ExternMethod { .. }),
        args,
    ) = &rhs.kind
        && !is_packet_call(c, callee)
    {
        // `x = e.method(...)`: the architecture writes the result.
        let result = c.place(lhs)?;
        out.push(extern_call(c, callee, args, Some(result))?);
        return Ok(());
    }
    if let ExprKind::Call(Callee::ExternMethod { receiver, name, .. }, _) = &rhs.kind
        && name == "lookahead"
        && is_packet_in(&c.program.types, receiver.ty)
        && is_header(c, lhs.ty)?
    {
        out.push(Op::Peek {
            header: Box::new(c.place(lhs)?),
            shape: header_shape(c, lhs.ty)?,
            errors: ParserErrors::of(c.program),
        });
        return Ok(());
    }
    if let ExprKind::Call(Callee::ExternMethod { receiver, name, .. }, _) = &rhs.kind
        && name == "lookahead"
        && is_packet_in(&c.program.types, receiver.ty)
        && !is_scalar(c, lhs.ty)
    {
        // A struct from `lookahead<S>()`: each field from its bits.
        let need = c
            .program
            .types
            .size_in_bits(lhs.ty)
            .ok_or(CompileError::Unsupported("lookahead of this type"))? as u32;
        out.push(Op::Require {
            bits: need,
            too_short: ParserErrors::of(c.program).packet_too_short,
        });
        return peek_fields(c, lhs, 0, need, out);
    }
    if is_scalar(c, lhs.ty) {
        let value = guarded(c, rhs, out)?;
        return store_scalar(c, lhs, value, out);
    }
    match &rhs.kind {
        ExprKind::List(parts) => {
            assign_parts(c, lhs, parts.iter().map(Part::Expr).collect(), out)?;
        }
        ExprKind::Const(Value::List(vals)) => {
            assign_parts(c, lhs, vals.iter().map(Part::Value).collect(), out)?;
        }
        ExprKind::Var(_) | ExprKind::Field(..) | ExprKind::Index(..)
            if c.in_header(lhs)? || c.in_header(rhs)? =>
        {
            // A struct packed inside a header and one laid out on its own
            // differ: copy member by member.
            let fields = c
                .program
                .types
                .struct_info(lhs.ty)
                .map_or(0, |s| s.fields.len());
            for i in 0..fields {
                let ty = field_ty(c, lhs.ty, i);
                let member = |e: &ir::Expr| ir::Expr {
                    ty,
                    kind: ExprKind::Field(Box::new(e.clone()), i as u32),
                    span: e.span,
                };
                assign(c, &member(lhs), &member(rhs), out)?;
            }
        }
        ExprKind::Var(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
            let bytes = c.layouts.layout(lhs.ty)?.bytes;
            out.push(Op::Copy {
                dst: c.place(lhs)?,
                src: Box::new(c.place(rhs)?),
                bytes,
            });
        }
        ExprKind::InvalidHeader => return invalidate(c, lhs, out),
        _ => return Err(CompileError::Unsupported("this composite value")),
    }
    // A union member that the assignment made valid is the only valid one.
    if is_header(c, lhs.ty)? {
        let mut siblings = Vec::new();
        invalidate_union_siblings(c, lhs, &mut siblings)?;
        if !siblings.is_empty() {
            let valid = c.validity(lhs)?;
            out.push(Op::If(Box::new(valid), siblings, Vec::new()));
        }
    }
    Ok(())
}

/// Whether the l-value `e` writes through a part-select with a run-time
/// start (`x[i +: 4]`, `x[i +: 8][3:0]`).
fn has_part_select(e: &ir::Expr) -> bool {
    match &e.kind {
        ExprKind::PartSelect { .. } => true,
        ExprKind::Slice(inner, ..) => has_part_select(inner),
        _ => false,
    }
}

/// Stores the scalar `value` into the l-value `lhs`. A part-select with a
/// run-time start is written as its whole value with the part replaced
/// (bits of the part outside the value are not written).
fn store_scalar(
    c: &mut Compiler<'_>,
    lhs: &ir::Expr,
    value: Node,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let whole = |c: &mut Compiler<'_>, inner: &ir::Expr, start: Node, width: u32, up: bool| {
        Ok::<Node, CompileError>(
            Node::PartSplice {
                whole: Box::new(c.node(inner)?),
                start: Box::new(start),
                value: Box::new(value.clone()),
                width,
                up,
            }
            .narrowed(),
        )
    };
    match &lhs.kind {
        ExprKind::PartSelect {
            base,
            start,
            width,
            up,
        } => {
            let start = guarded(c, start, out)?;
            let spliced = whole(c, base, start, *width, *up)?;
            store_scalar(c, base, spliced, out)
        }
        ExprKind::Slice(inner, hi, lo) if has_part_select(inner) => {
            let start = Node::Const(Bits::from_u64(32, false, u64::from(*lo)));
            let spliced = whole(c, inner, start, hi - lo + 1, true)?;
            store_scalar(c, inner, spliced, out)
        }
        _ => {
            let place = c.place(lhs)?;
            // A `lookahead` in the target's indexes needs the packet too.
            let bits = crate::eval::place_lookahead_bits(&place);
            if bits > 0 {
                out.push(Op::Require {
                    bits,
                    too_short: ParserErrors::of(c.program).packet_too_short,
                });
            }
            out.push(Op::Store {
                place: Box::new(place),
                value,
            });
            Ok(())
        }
    }
}

/// `h = {#}`: the header (or every member of the union) becomes invalid.
fn invalidate(c: &mut Compiler<'_>, lhs: &ir::Expr, out: &mut Vec<Op>) -> Result<(), CompileError> {
    let place = c.place(lhs)?;
    let headers: Vec<(u32, TyId)> = match c.layouts.layout(lhs.ty)?.kind {
        LayoutKind::Header { .. } => vec![(0, lhs.ty)],
        LayoutKind::Union { members } => members.iter().map(|m| (m.bit_offset, m.ty)).collect(),
        _ => return Err(CompileError::Unsupported("{#} for a non-header")),
    };
    for (offset, ty) in headers {
        let shape = header_shape(c, ty)?;
        out.push(Op::SetValidity {
            header: place.clone().part(offset, ty),
            valid_byte: shape.valid_byte,
            wire_bytes: shape.wire_bits.div_ceil(8),
            valid: false,
        });
    }
    Ok(())
}

/// Stores into each scalar field of the struct `lhs` the bits of the
/// packet `offset` bits past the cursor (a struct `lookahead`), in order.
fn peek_fields(
    c: &mut Compiler<'_>,
    lhs: &ir::Expr,
    mut offset: u32,
    need: u32,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let fields = c
        .program
        .types
        .struct_info(lhs.ty)
        .filter(|_| !is_header(c, lhs.ty).unwrap_or(true))
        .ok_or(CompileError::Unsupported("lookahead of this type"))?
        .fields
        .len();
    for i in 0..fields {
        let ty = field_ty(c, lhs.ty, i);
        let field = ir::Expr {
            ty,
            kind: ExprKind::Field(Box::new(lhs.clone()), i as u32),
            span: lhs.span,
        };
        let bits = c
            .program
            .types
            .size_in_bits(ty)
            .ok_or(CompileError::Unsupported("lookahead of this type"))? as u32;
        match scalar_shape(&c.program.types, ty) {
            Some((width, signed)) => out.push(Op::Store {
                place: Box::new(c.place(&field)?),
                value: Node::Lookahead {
                    offset,
                    width,
                    signed,
                    need,
                },
            }),
            None => peek_fields(c, &field, offset, need, out)?,
        }
        offset += bits;
    }
    Ok(())
}

/// The type of field `i` of the struct type `ty`.
fn field_ty(c: &Compiler<'_>, ty: TyId, i: usize) -> TyId {
    c.program
        .types
        .struct_info(ty)
        .and_then(|s| s.fields.get(i))
        .map_or(TypeTable::UNKNOWN, |f| f.ty)
}

/// After `header` (a member of a header union) becomes valid, every other
/// member of the union becomes invalid (P4_16, header unions); nothing for
/// a header outside a union.
fn invalidate_union_siblings(
    c: &mut Compiler<'_>,
    header: &ir::Expr,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let ExprKind::Field(union, member) = &header.kind else {
        return Ok(());
    };
    let LayoutKind::Union { members } = c.layouts.layout(union.ty)?.kind else {
        return Ok(());
    };
    let place = c.place(union)?;
    for (i, m) in members.iter().enumerate() {
        if i as u32 == *member {
            continue;
        }
        let shape = header_shape(c, m.ty)?;
        out.push(Op::SetValidity {
            header: place.clone().part(m.bit_offset, m.ty),
            valid_byte: shape.valid_byte,
            wire_bytes: shape.wire_bits.div_ceil(8),
            valid: false,
        });
    }
    Ok(())
}

enum Part<'e> {
    Expr(&'e ir::Expr),
    Value(&'e Value),
}

/// `{a, b, ...}` assigned field by field; a header becomes valid.
fn assign_parts(
    c: &mut Compiler<'_>,
    lhs: &ir::Expr,
    parts: Vec<Part<'_>>,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let layout = c.layouts.layout(lhs.ty)?;
    if let LayoutKind::Stack { elem, .. } = layout.kind {
        // `stack = { h0, h1, ... }`: element by element.
        for (i, part) in parts.into_iter().enumerate() {
            let element = ir::Expr {
                ty: elem,
                kind: ExprKind::Index(
                    Box::new(lhs.clone()),
                    Box::new(ir::Expr {
                        ty: TypeTable::INF_INT,
                        kind: ExprKind::Const(Value::Int((i as u64).into())),
                        span: lhs.span,
                    }),
                ),
                span: lhs.span,
            };
            match part {
                Part::Expr(e) => assign(c, &element, e, out)?,
                Part::Value(v) => {
                    let value = ir::Expr {
                        ty: elem,
                        kind: ExprKind::Const(v.clone()),
                        span: lhs.span,
                    };
                    assign(c, &element, &value, out)?;
                }
            }
        }
        return Ok(());
    }
    let (field_tys, header): (Vec<TyId>, Option<(u32, u32)>) = match &layout.kind {
        LayoutKind::Header {
            fields,
            valid_bit_offset,
            wire_bits,
            ..
        } => (
            fields.iter().map(|f| f.ty).collect(),
            Some((*valid_bit_offset, wire_bits.div_ceil(8))),
        ),
        LayoutKind::Struct { fields } => (fields.iter().map(|f| f.ty).collect(), None),
        _ => return Err(CompileError::Unsupported("a list assigned to this type")),
    };
    if let Some((valid_bit, wire_bytes)) = header {
        out.push(Op::SetValidity {
            header: c.place(lhs)?,
            valid_byte: valid_bit / 8,
            wire_bytes,
            valid: true,
        });
    }
    for (i, (part, ty)) in parts.into_iter().zip(field_tys).enumerate() {
        let field = ir::Expr {
            ty,
            kind: ExprKind::Field(Box::new(lhs.clone()), i as u32),
            span: lhs.span,
        };
        match part {
            Part::Expr(e) => assign(c, &field, e, out)?,
            Part::Value(v) => {
                let value = ir::Expr {
                    ty,
                    kind: ExprKind::Const(v.clone()),
                    span: lhs.span,
                };
                assign(c, &field, &value, out)?;
            }
        }
    }
    Ok(())
}

/// Sets a variable to zero (scalars) or all-zero bytes (composites).
fn zero(c: &mut Compiler<'_>, var: &ir::Expr, out: &mut Vec<Op>) -> Result<(), CompileError> {
    if let Some((width, signed)) = scalar_shape(&c.program.types, var.ty) {
        out.push(Op::Store {
            place: Box::new(c.place(var)?),
            value: Node::Const(Bits::zero(width, signed)),
        });
        return Ok(());
    }
    let Ok(layout) = c.layouts.layout(var.ty) else {
        return Ok(());
    };
    out.push(Op::Zero {
        dst: c.place(var)?,
        bytes: layout.bytes,
    });
    Ok(())
}

fn call(c: &mut Compiler<'_>, e: &ir::Expr, out: &mut Vec<Op>) -> Result<(), CompileError> {
    let ExprKind::Call(callee, args) = &e.kind else {
        return Err(CompileError::Unsupported("this statement"));
    };
    match callee {
        Callee::Builtin { receiver, method } => builtin(c, receiver, *method, args, out),
        Callee::Action(a) => {
            out.push(action_call(c, *a, args)?);
            Ok(())
        }
        Callee::TableApply(t) => {
            out.push(apply_table(c, *t)?);
            Ok(())
        }
        Callee::ExternMethod {
            receiver,
            name,
            type_args,
        } if is_packet_in(&c.program.types, receiver.ty) => {
            packet_in_call(c, name, args, type_args, out)
        }
        Callee::ExternMethod { receiver, name, .. }
            if name == "emit" && is_packet_out(&c.program.types, receiver.ty) =>
        {
            let Some(Some(arg)) = args.first() else {
                return Err(CompileError::Unsupported("emit without an argument"));
            };
            emit(c, arg, out)
        }
        Callee::ExternFunction { name, .. } if name == "verify" => {
            let (Some(Some(cond)), Some(Some(error))) = (args.first(), args.get(1)) else {
                return Err(CompileError::Unsupported("verify without arguments"));
            };
            let cond = guarded(c, cond, out)?;
            let error = Box::new(guarded(c, error, out)?);
            out.push(Op::Verify { cond, error });
            Ok(())
        }
        Callee::ExternFunction { .. } | Callee::ExternMethod { .. } => {
            out.push(extern_call(c, callee, args, None)?);
            Ok(())
        }
        Callee::Function(f) => {
            out.push(function_call(c, *f, args, None)?);
            Ok(())
        }
        Callee::BlockApply(receiver) => {
            out.push(nested_apply(c, receiver, args)?);
            Ok(())
        }
    }
}

/// The shape of header type `ty` for extraction and emission.
fn header_shape(c: &mut Compiler<'_>, ty: TyId) -> Result<HeaderShape, CompileError> {
    let LayoutKind::Header {
        fields,
        wire_bits,
        valid_bit_offset,
        varbit_len_bit_offset,
    } = c.layouts.layout(ty)?.kind
    else {
        return Err(CompileError::Unsupported(
            "extracting or emitting a non-header",
        ));
    };
    let varbit = match varbit_len_bit_offset {
        Some(len) => {
            let f = fields
                .iter()
                .find(|f| {
                    matches!(
                        c.program.types.get(f.ty),
                        janus_p4::types::Ty::Varbit { .. }
                    )
                })
                .ok_or(CompileError::Unsupported(
                    "a varbit length without a varbit field",
                ))?;
            let janus_p4::types::Ty::Varbit { max } = c.program.types.get(f.ty) else {
                unreachable!("found above")
            };
            Some(VarbitSlot {
                at: f.bit_offset,
                max: *max,
                len_byte: len / 8,
            })
        }
        None => None,
    };
    Ok(HeaderShape {
        wire_bits,
        valid_byte: valid_bit_offset / 8,
        varbit,
    })
}

fn packet_in_call(
    c: &mut Compiler<'_>,
    name: &str,
    args: &[Option<ir::Expr>],
    type_args: &[TyId],
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let errors = ParserErrors::of(c.program);
    match name {
        "extract" => {
            let Some(Some(target)) = args.first() else {
                return Err(CompileError::Unsupported("extract without an argument"));
            };
            if let (ExprKind::DontCare, Some(ty)) = (&target.kind, type_args.first()) {
                // `extract<T>(_)`: T's bits are skipped.
                let bits = c
                    .program
                    .types
                    .size_in_bits(*ty)
                    .ok_or(CompileError::Unsupported(
                        "extract into `_` of a type without a size",
                    ))?;
                out.push(Op::Advance {
                    bits: Node::Const(Bits::from_u64(32, false, bits)),
                    too_short: errors.packet_too_short,
                    invalid: NO_ERROR,
                });
                return Ok(());
            }
            let header = c.place(target)?;
            let shape = header_shape(c, target.ty)?;
            let next_index = match &header {
                Place::StackNext {
                    next_index_byte,
                    last: false,
                    ..
                } => Some(*next_index_byte),
                _ => None,
            };
            let varbit_len = args
                .get(1)
                .and_then(|a| a.as_ref())
                .map(|e| guarded(c, e, out))
                .transpose()?;
            out.push(Op::Extract {
                header: Box::new(header),
                shape: Box::new(shape),
                varbit_len: varbit_len.map(Box::new),
                next_index,
                errors,
            });
            invalidate_union_siblings(c, target, out)
        }
        "advance" => {
            let Some(Some(bits)) = args.first() else {
                return Err(CompileError::Unsupported("advance without an argument"));
            };
            let bits = guarded(c, bits, out)?;
            out.push(Op::Advance {
                bits,
                too_short: errors.packet_too_short,
                invalid: errors.invalid_argument,
            });
            Ok(())
        }
        "lookahead" => Ok(()),
        _ => Err(CompileError::Unsupported("this packet_in method")),
    }
}

/// `packet.emit(x)`: headers in order; stacks element by element; unions
/// and structs member by member.
fn emit(c: &mut Compiler<'_>, arg: &ir::Expr, out: &mut Vec<Op>) -> Result<(), CompileError> {
    let place = c.place(arg)?;
    emit_place(c, place, arg.ty, out)
}

fn emit_place(
    c: &mut Compiler<'_>,
    place: Place,
    ty: TyId,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    match c.layouts.layout(ty)?.kind {
        LayoutKind::Header { .. } => {
            let shape = header_shape(c, ty)?;
            out.push(Op::Emit {
                header: place,
                shape,
            });
        }
        LayoutKind::Stack {
            elem, size, stride, ..
        } => {
            for i in 0..size {
                emit_place(c, place.clone().part(i * stride, elem), elem, out)?;
            }
        }
        LayoutKind::Union { members } | LayoutKind::Struct { fields: members } => {
            for m in members {
                if scalar_shape(&c.program.types, m.ty).is_none() {
                    emit_place(c, place.clone().part(m.bit_offset, m.ty), m.ty, out)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

fn is_packet_call(c: &Compiler<'_>, callee: &Callee) -> bool {
    matches!(callee, Callee::ExternMethod { receiver, .. }
        if is_packet_in(&c.program.types, receiver.ty) || is_packet_out(&c.program.types, receiver.ty))
}

/// An extern function or method call, resolved to the architecture's id.
fn extern_call(
    c: &mut Compiler<'_>,
    callee: &Callee,
    args: &[Option<ir::Expr>],
    result: Option<Place>,
) -> Result<Op, CompileError> {
    let own_path = c.instances.as_ref().map_or("", |i| i.path.as_str());
    // The path of the block instance whose state the call uses: the
    // caller's, or where an instance passed as a parameter was declared.
    let (name, instance, path) = match callee {
        Callee::ExternFunction { name, .. } => (name.as_str(), None, own_path.to_string()),
        Callee::ExternMethod { receiver, name, .. } => match &receiver.kind {
            ExprKind::Instance(i) => (name.as_str(), Some(*i), own_path.to_string()),
            ExprKind::Var(v) => {
                let b = c.bound.get(v).ok_or(CompileError::Unsupported(
                    "a method of an extern parameter bound to no instance",
                ))?;
                (name.as_str(), Some(b.instance), b.owner.clone())
            }
            _ => return Err(CompileError::Unsupported("a method of this receiver")),
        },
        _ => return Err(CompileError::Unsupported("this call")),
    };
    let resolver = c.externs.ok_or(CompileError::Unsupported(
        "extern calls without an architecture",
    ))?;
    let program = c.program;
    let width_of = |ty| crate::eval::scalar_shape(&program.types, ty).map(|(w, _)| w);
    let args = args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let mut arg = extern_arg(c, a.as_ref())?;
            if resolver.is_data(name, instance, i) {
                arg = struct_fields(c, arg)?;
            }
            // Data at fixed places is resolved into bit runs once, here.
            Ok(match &arg {
                ExternArg::List(_) | ExternArg::Guarded { .. } => {
                    DataLayout::of(&arg, &width_of).map_or(arg, ExternArg::Data)
                }
                _ => arg,
            })
        })
        .collect::<Result<Vec<_>, CompileError>>()?;
    let site = crate::externs::CallSite {
        name,
        instance,
        path: &path,
        args: &args,
    };
    let id = resolver
        .resolve(&site)
        .ok_or(CompileError::UnknownExtern(name.to_string()))?;
    Ok(Op::Extern {
        id,
        args,
        result: result.map(Box::new),
    })
}

fn extern_arg(c: &mut Compiler<'_>, a: Option<&ir::Expr>) -> Result<ExternArg, CompileError> {
    let Some(e) = a else {
        return Ok(ExternArg::Absent);
    };
    Ok(match &e.kind {
        ExprKind::DontCare => ExternArg::Absent,
        ExprKind::Const(Value::Str(s)) => ExternArg::Str(s.clone()),
        ExprKind::List(parts) => ExternArg::List(
            parts
                .iter()
                .map(|p| list_part(c, p))
                .collect::<Result<_, _>>()?,
        ),
        _ if is_header(c, e.ty)? => header_arg(c, e)?,
        ExprKind::Const(Value::List(vals)) => {
            // A constant list: each value as a constant of its part type.
            let janus_p4::types::Ty::Tuple(tys) = c.program.types.get(e.ty).clone() else {
                return Err(CompileError::Unsupported("a constant list of this type"));
            };
            let mut parts = Vec::with_capacity(vals.len());
            for (v, ty) in vals.iter().zip(tys) {
                let part = ir::Expr {
                    ty,
                    kind: ExprKind::Const(v.clone()),
                    span: e.span,
                };
                parts.push(extern_arg(c, Some(&part))?);
            }
            ExternArg::List(parts)
        }
        ExprKind::Var(_)
        | ExprKind::Field(..)
        | ExprKind::Index(..)
        | ExprKind::StackNext(_)
        | ExprKind::StackLast(_) => ExternArg::Place {
            place: c.place(e)?,
            ty: e.ty,
        },
        _ => ExternArg::Value(c.node(e)?),
    })
}

fn is_header(c: &mut Compiler<'_>, ty: janus_p4::types::TyId) -> Result<bool, CompileError> {
    if crate::eval::scalar_shape(&c.program.types, ty).is_some() {
        return Ok(false);
    }
    Ok(matches!(
        c.layouts.layout(ty)?.kind,
        crate::layout::LayoutKind::Header { .. }
    ))
}

/// A part of a list given to an extern: a field of a header counts only
/// while the header is valid; a whole header is its fields.
fn list_part(c: &mut Compiler<'_>, e: &ir::Expr) -> Result<ExternArg, CompileError> {
    if let ExprKind::Field(base, idx) = &e.kind
        && is_header(c, base.ty)?
    {
        let (valid, mut parts) = header_parts(c, base)?;
        return Ok(ExternArg::Guarded {
            valid,
            parts: vec![parts.swap_remove(*idx as usize)],
        });
    }
    let arg = extern_arg(c, Some(e))?;
    struct_fields(c, arg)
}

/// Extern data that is a struct (or tuple) in place: its fields in
/// declaration order, a nested struct's in turn, a header's while it is
/// valid (as p4c's bmv2 back end flattens it, and bmv2 skips the fields of
/// invalid headers). Any other argument is returned as it is.
fn struct_fields(c: &mut Compiler<'_>, arg: ExternArg) -> Result<ExternArg, CompileError> {
    let ExternArg::Place { place, ty } = arg else {
        return Ok(arg);
    };
    if crate::eval::scalar_shape(&c.program.types, ty).is_some() {
        return Ok(ExternArg::Place { place, ty });
    }
    match c.layouts.layout(ty)?.kind {
        LayoutKind::Struct { fields } => {
            let mut parts = Vec::with_capacity(fields.len());
            for f in fields {
                let field = ExternArg::Place {
                    place: place.clone().part(f.bit_offset, f.ty),
                    ty: f.ty,
                };
                parts.push(struct_fields(c, field)?);
            }
            Ok(ExternArg::List(parts))
        }
        LayoutKind::Header { .. } => {
            let (valid, parts) = header_parts_at(c, place, ty)?;
            Ok(ExternArg::Guarded { valid, parts })
        }
        _ => Ok(ExternArg::Place { place, ty }),
    }
}

/// A whole header as extern data: its fields, while it is valid.
fn header_arg(c: &mut Compiler<'_>, e: &ir::Expr) -> Result<ExternArg, CompileError> {
    let (valid, parts) = header_parts(c, e)?;
    Ok(ExternArg::Guarded { valid, parts })
}

/// A header's validity byte and each field as an extern argument.
fn header_parts(
    c: &mut Compiler<'_>,
    header: &ir::Expr,
) -> Result<(Place, Vec<ExternArg>), CompileError> {
    let base = c.place(header)?;
    header_parts_at(c, base, header.ty)
}

/// [`header_parts`] of the header of type `ty` at `base`.
fn header_parts_at(
    c: &mut Compiler<'_>,
    base: Place,
    ty: TyId,
) -> Result<(Place, Vec<ExternArg>), CompileError> {
    let crate::layout::LayoutKind::Header {
        fields,
        valid_bit_offset,
        varbit_len_bit_offset,
        ..
    } = c.layouts.layout(ty)?.kind
    else {
        return Err(CompileError::Unsupported("fields of a non-header"));
    };
    let parts = fields
        .iter()
        .map(|f| {
            let place = base.clone().part(f.bit_offset, f.ty);
            match (c.program.types.get(f.ty), varbit_len_bit_offset) {
                (janus_p4::types::Ty::Varbit { .. }, Some(len)) => ExternArg::Varbit {
                    place,
                    len: base.clone().part(len, f.ty),
                },
                _ => ExternArg::Place { place, ty: f.ty },
            }
        })
        .collect();
    Ok((
        base.part(valid_bit_offset, janus_p4::types::TypeTable::BOOL),
        parts,
    ))
}

fn builtin(
    c: &mut Compiler<'_>,
    receiver: &ir::Expr,
    method: BuiltinMethod,
    args: &[Option<ir::Expr>],
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let place = c.place(receiver)?;
    match (method, c.layouts.layout(receiver.ty)?.kind) {
        (
            BuiltinMethod::SetValid | BuiltinMethod::SetInvalid,
            LayoutKind::Header {
                valid_bit_offset,
                wire_bits,
                ..
            },
        ) => {
            out.push(Op::SetValidity {
                header: place,
                valid_byte: valid_bit_offset / 8,
                wire_bytes: wire_bits.div_ceil(8),
                valid: method == BuiltinMethod::SetValid,
            });
            if method == BuiltinMethod::SetValid {
                invalidate_union_siblings(c, receiver, out)?;
            }
            Ok(())
        }
        (
            BuiltinMethod::PushFront | BuiltinMethod::PopFront,
            LayoutKind::Stack {
                elem,
                size,
                stride,
                next_index_bit_offset,
            },
        ) => {
            let count = match args.first().and_then(|a| a.as_ref()).map(|a| &a.kind) {
                Some(ExprKind::Const(Value::Int(n))) => i64::try_from(n).unwrap_or(i64::MAX),
                _ => return Err(CompileError::Unsupported("a non-constant push/pop count")),
            };
            // The validity bytes of an element: a header's, or each member's
            // of a union (freed elements become invalid).
            let valid_bytes = match c.layouts.layout(elem)?.kind {
                LayoutKind::Header {
                    valid_bit_offset, ..
                } => vec![valid_bit_offset / 8],
                LayoutKind::Union { members } => {
                    let mut bytes = Vec::with_capacity(members.len());
                    for m in members {
                        bytes.push(m.bit_offset / 8 + header_shape(c, m.ty)?.valid_byte);
                    }
                    bytes
                }
                _ => return Err(CompileError::Unsupported("push/pop on this stack")),
            };
            let count = if method == BuiltinMethod::PushFront {
                count
            } else {
                -count
            };
            out.push(Op::StackShift {
                stack: Box::new(place),
                stride: stride / 8,
                size,
                elem_valid_bytes: valid_bytes,
                next_index: next_index_bit_offset / 8,
                count,
            });
            Ok(())
        }
        _ => Err(CompileError::Unsupported("this method")),
    }
}

/// Copy-in and copy-out of a call's arguments: `out` parameters start at
/// zero; `out`/`inout` ones are copied back unless the argument is `_`.
fn copy_args(
    c: &mut Compiler<'_>,
    params: &[ir::Param],
    args: &[Option<ir::Expr>],
) -> Result<(Vec<Op>, Vec<Op>), CompileError> {
    let mut copy_in = Vec::new();
    let mut copy_out = Vec::new();
    for (p, arg) in params.iter().zip(args) {
        let Some(arg) = arg else { continue };
        let param = ir::Expr {
            ty: p.ty,
            kind: ExprKind::Var(p.var),
            span: arg.span,
        };
        match p.direction {
            Direction::Out => zero(c, &param, &mut copy_in)?,
            _ => assign(c, &param, arg, &mut copy_in)?,
        }
        if matches!(p.direction, Direction::Out | Direction::InOut)
            && !matches!(arg.kind, ExprKind::DontCare)
        {
            assign(c, arg, &param, &mut copy_out)?;
        }
    }
    Ok((copy_in, copy_out))
}

/// A function call: arguments copied into the function's parameters, the
/// body compiled here (P4 has no recursion), `return e` writing `result`.
fn function_call(
    c: &mut Compiler<'_>,
    f: ir::FunctionId,
    args: &[Option<ir::Expr>],
    result: Option<Place>,
) -> Result<Op, CompileError> {
    let program = c.program;
    let func = &program.functions[f.0 as usize];
    let (copy_in, copy_out) = copy_args(c, &func.params, args)?;
    let saved = std::mem::replace(&mut c.return_place, result);
    let body = compile_stmts(c, &func.body);
    c.return_place = saved;
    Ok(Op::CallAction {
        copy_in: copy_in.into(),
        body: body?,
        copy_out: copy_out.into(),
    })
}

/// `inst.apply(args)` of a parser or control instantiated in this block:
/// the child's body, compiled against its own frame, between copies of the
/// arguments into its parameters and back out.
fn nested_apply(
    c: &mut Compiler<'_>,
    receiver: &ir::Expr,
    args: &[Option<ir::Expr>],
) -> Result<Op, CompileError> {
    let ctx = c.instances.clone().ok_or(CompileError::Unsupported(
        "nested apply without the instance tree",
    ))?;
    let program = c.program;
    // The instance and its path: declared here, or passed as a parameter.
    let (inst, path) = match &receiver.kind {
        ExprKind::Instance(i) => {
            let name = &program.instances[i.0 as usize].name;
            (*i, format!("{}.{name}", ctx.path))
        }
        ExprKind::Var(v) => {
            let b = c.bound.get(v).ok_or(CompileError::Unsupported(
                "apply of a parser or control parameter bound to no instance",
            ))?;
            (b.instance, b.path(program))
        }
        _ => return Err(CompileError::Unsupported("apply of this receiver")),
    };
    let instance = &program.instances[inst.0 as usize];
    let ir::InstanceOf::Block(b) = instance.of else {
        return Err(CompileError::Unsupported("apply of a non-block instance"));
    };
    let block = &program.blocks[b.0 as usize];
    let frame = ctx
        .plan
        .instance_frame(&path)
        .ok_or(CompileError::Unsupported(
            "a nested instance without storage",
        ))?;
    let mut vars = ctx.plan.shared_vars();
    vars.extend(frame.vars.iter().map(|(v, off)| (*v, frame.base + off)));
    let mut child = Compiler::new(program, vars);
    child.externs = c.externs;
    ctx.bind_slots(&mut child, &path);
    child.instances = Some(crate::eval::InstanceCtx {
        path: path.clone(),
        ..ctx
    });
    // Arguments go in through the caller's compiler, into the child's
    // parameter slots (which both can address: the arena is shared).
    let mut copy_in = Vec::new();
    let mut copy_out = Vec::new();
    for (p, arg) in block.params.iter().zip(args) {
        let Some(arg) = arg else { continue };
        if is_packet_in(&program.types, p.ty) || is_packet_out(&program.types, p.ty) {
            continue;
        }
        // An extern passed in: the child calls it where it was declared.
        if let Some(bound) = crate::bind::bound_arg(program, &c.bound, &ctx.path, arg) {
            child.bound.insert(p.var, bound);
            continue;
        }
        let param = ir::Expr {
            ty: p.ty,
            kind: ExprKind::Var(p.var),
            span: arg.span,
        };
        let slot = *child
            .vars
            .get(&p.var)
            .ok_or(CompileError::NoStorage(p.name.clone()))?;
        c.vars.insert(p.var, slot);
        match p.direction {
            Direction::Out => zero(c, &param, &mut copy_in)?,
            _ => assign(c, &param, arg, &mut copy_in)?,
        }
        if matches!(p.direction, Direction::Out | Direction::InOut) {
            assign(c, arg, &param, &mut copy_out)?;
        }
    }
    let ctor_args = resolved_ctor_args(program, &path).unwrap_or_else(|| instance.args.clone());
    match block.kind {
        ir::BlockKind::Control => {
            let body = compile_control(&mut child, block, &ctor_args)?;
            Ok(Op::CallAction {
                copy_in: copy_in.into(),
                body,
                copy_out: copy_out.into(),
            })
        }
        ir::BlockKind::Parser => {
            let parser = crate::parser::compile_parser(&mut child, block, &ctor_args)?;
            Ok(Op::SubParser {
                copy_in,
                parser: Box::new(parser),
                copy_out,
            })
        }
    }
}

/// The constructor arguments of the block instance at `path` (a path of
/// [`ir::Program::instance_paths`]), each argument that names a
/// constructor parameter of the enclosing instance replaced by that
/// parameter's value, level by level down the instance tree (so chains of
/// forwarded parameters resolve). `None` when `path` is not in the tree.
fn resolved_ctor_args(program: &ir::Program, path: &str) -> Option<Vec<ir::Expr>> {
    let mut current = program.main?;
    let mut bound: std::collections::HashMap<ir::VarId, ir::Expr> = Default::default();
    let mut args = Vec::new();
    for name in path.split('.') {
        current = program.child_named(current, name)?;
        let inst = &program.instances[current.0 as usize];
        args = inst
            .args
            .iter()
            .map(|a| match a.kind {
                ExprKind::Var(v) => bound.get(&v).cloned().unwrap_or_else(|| a.clone()),
                _ => a.clone(),
            })
            .collect();
        if let ir::InstanceOf::Block(b) = inst.of {
            let params = &program.blocks[b.0 as usize].ctor_params;
            bound = params
                .iter()
                .map(|p| p.var)
                .zip(args.iter().cloned())
                .collect();
        }
    }
    Some(args)
}

/// A direct call `a(args)`: arguments are copied into the parameters,
/// the body runs, `out`/`inout` parameters are copied back.
fn action_call(
    c: &mut Compiler<'_>,
    a: ir::ActionId,
    args: &[Option<ir::Expr>],
) -> Result<Op, CompileError> {
    let program = c.program;
    let action = &program.actions[a.0 as usize];
    let (copy_in, copy_out) = copy_args(c, &action.params, args)?;
    let body = compile_stmts(c, &action.body)?;
    Ok(Op::CallAction {
        copy_in: copy_in.into(),
        body,
        copy_out: copy_out.into(),
    })
}

/// Emits the table applies an expression reads results of
/// (`t.apply().hit`), so that the expression can read them after.
fn hoist_applies(
    c: &mut Compiler<'_>,
    e: &ir::Expr,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    match &e.kind {
        ExprKind::TableHit(call) | ExprKind::TableMiss(call) | ExprKind::ActionRun(call) => {
            if let ExprKind::Call(Callee::TableApply(t), _) = &call.kind {
                out.push(apply_table(c, *t)?);
            }
            Ok(())
        }
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a)
        | ExprKind::Slice(a, ..)
        | ExprKind::Field(a, _) => hoist_applies(c, a, out),
        ExprKind::Binary(_, a, b) => {
            hoist_applies(c, a, out)?;
            hoist_applies(c, b, out)
        }
        ExprKind::Ternary(x, a, b) => {
            hoist_applies(c, x, out)?;
            hoist_applies(c, a, out)?;
            hoist_applies(c, b, out)
        }
        _ => Ok(()),
    }
}

/// Compiles `t.apply()` for the table's runtime slot.
fn apply_table(c: &mut Compiler<'_>, t: ir::TableId) -> Result<Op, CompileError> {
    let slot = *c
        .tables
        .get(&t)
        .ok_or(CompileError::Unsupported("a table without a runtime slot"))?;
    let table = &c.program.tables[t.0 as usize];
    let mut keys = Vec::with_capacity(table.keys.len());
    let mut selector_keys = Vec::new();
    for k in &table.keys {
        let node = c.node(&k.expr)?;
        match k.match_kind.as_str() {
            "selector" => selector_keys.push(node),
            _ => keys.push(node),
        }
    }
    let mut actions = Vec::with_capacity(table.actions.len());
    for call in &table.actions {
        let action = &c.program.actions[call.action.0 as usize];
        let mut params = Vec::new();
        let mut copy_in = Vec::new();
        let mut copy_out = Vec::new();
        for (p, bound) in action.params.iter().zip(&call.args) {
            let param = ir::Expr {
                ty: p.ty,
                kind: ExprKind::Var(p.var),
                span: action.span,
            };
            match bound {
                // Bound in the action list: a data-plane argument.
                Some(arg) => {
                    if p.direction != Direction::Out {
                        assign(c, &param, arg, &mut copy_in)?;
                    }
                    if matches!(p.direction, Direction::Out | Direction::InOut) {
                        assign(c, arg, &param, &mut copy_out)?;
                    }
                }
                // Left to the control plane: written from the entry.
                None => params.push(action_param(c, &param)?),
            }
        }
        let body = compile_stmts(c, &action.body)?;
        actions.push(ActionImpl {
            name: action.name.as_str().into(),
            params,
            copy_in,
            body,
            copy_out,
        });
    }
    Ok(Op::ApplyTable {
        slot,
        keys: Box::new(TableKeys {
            name: table.name.as_str().into(),
            keys,
            selector_keys,
        }),
        actions,
        key_words: None,
    })
}

/// Where an action's control-plane parameter `param` (an expression naming
/// it) lives, with its word form when it has one.
fn action_param(c: &mut Compiler<'_>, param: &ir::Expr) -> Result<ActionParam, CompileError> {
    let place = c.place(param)?;
    let word = match (&place, scalar_shape(&c.program.types, param.ty)) {
        (Place::Fixed { bit, .. }, Some((width, _))) if width <= SMALL_MAX_WIDTH => {
            Some(FieldWord::new(*bit, width))
        }
        _ => None,
    };
    Ok(ActionParam { place, word })
}

fn switch(
    c: &mut Compiler<'_>,
    subject: &ir::Expr,
    cases: &[ir::SwitchCase],
    out: &mut Vec<Op>,
) -> Result<Op, CompileError> {
    let node = guarded(c, subject, out)?;
    // For `switch (t.apply().action_run)`, labels are actions of t: their
    // index in t's action list.
    let table_actions: Vec<ir::ActionId> = match &subject.kind {
        ExprKind::ActionRun(call) => match &call.kind {
            ExprKind::Call(Callee::TableApply(t), _) => c.program.tables[t.0 as usize]
                .actions
                .iter()
                .map(|a| a.action)
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let mut out_cases = Vec::new();
    let mut default = None;
    let mut bodies = Vec::new();
    for case in cases {
        let body = bodies.len();
        bodies.push(compile_stmts(c, &case.body)?);
        let mut labels = Vec::new();
        for l in &case.labels {
            match l {
                SwitchLabel::Default => default = Some(body),
                SwitchLabel::Value(v) => labels.push(
                    crate::eval::constant(&c.program.types, subject.ty, v)
                        .ok_or(CompileError::Unsupported("this switch label"))?,
                ),
                SwitchLabel::Action(a) => {
                    let i = table_actions.iter().position(|x| x == a).ok_or(
                        CompileError::Unsupported(
                            "a switch label that is not an action of the table",
                        ),
                    )?;
                    labels.push(Bits::from_u64(32, false, i as u64));
                }
            }
        }
        out_cases.push((labels, body));
    }
    Ok(Op::Switch {
        subject: Box::new(node),
        cases: out_cases.into(),
        default,
        bodies: bodies.into(),
    })
}

/// Runs compiled statements.
///
/// A list an op runs next in its own place (the taken branch of an `if` or
/// `switch`, a block, an action body without copies) runs without a call
/// of its own when the op is the last of its list: the list simply goes on
/// with it. An action body entered so ends at its `return` as at its end
/// (`exit` still ends the stage), which [`ended`] applies to the flow the
/// list ends with. Elsewhere the nested list runs in a call of `run`, and
/// an empty one not at all.
///
/// A list of a single extern call or run of emits (a v1model checksum
/// block, a deparser) runs without the interpreter's loop.
#[inline(never)]
pub fn run(ops: &[Op], env: &mut Env<'_>) -> Flow {
    match ops {
        [op @ (Op::Extern { .. } | Op::EmitFixedRun(_))] => run_leaf(op, env),
        _ => run_list(ops, env),
    }
}

/// [`run`] of a list holding only `op`, an extern call or a run of emits.
#[inline(never)]
fn run_leaf(op: &Op, env: &mut Env<'_>) -> Flow {
    match op {
        Op::Extern { id, args, result } => call_extern(env, *id, args, result.as_deref()),
        Op::EmitFixedRun(r) => {
            r.emit(env);
            Flow::Continue
        }
        op => run_list(std::slice::from_ref(op), env),
    }
}

/// [`run`] of any list.
fn run_list(ops: &[Op], env: &mut Env<'_>) -> Flow {
    let mut ops = ops.iter();
    // Whether the ops now running are (the tail of) an action body taken
    // from a tail position.
    let mut in_action = false;
    while let Some(op) = ops.next() {
        match step(op, env) {
            Step::Next => {}
            Step::Stop(flow) => return ended(flow, in_action),
            Step::Branch(list) => {
                if ops.as_slice().is_empty() {
                    ops = list.iter();
                } else if !list.is_empty() {
                    let flow = run(list, env);
                    if flow != Flow::Continue {
                        return ended(flow, in_action);
                    }
                }
            }
            Step::Body(body) => {
                if ops.as_slice().is_empty() {
                    ops = body.iter();
                    in_action = true;
                } else if !body.is_empty() && run_body(body, env) == Flow::Exit {
                    return Flow::Exit;
                }
            }
        }
    }
    Flow::Continue
}

/// [`run`] of an action body not in tail position: its leading stores and
/// extern calls (often all of it: an ACL's `count(); flag = 1;`) in a loop
/// of their own, whose frame is smaller than [`run_list`]'s; the rest, from
/// the first op of another kind, by [`run_list`].
#[inline(never)]
fn run_body(body: &[Op], env: &mut Env<'_>) -> Flow {
    for (i, op) in body.iter().enumerate() {
        match op {
            Op::SetWord { dst, value } => dst.write(env.arena, *value),
            Op::MoveWord { dst, src } => {
                let v = src.read(env.arena);
                dst.write(env.arena, v);
            }
            Op::Extern { id, args, result } => {
                let flow = call_extern(env, *id, args, result.as_deref());
                if flow != Flow::Continue {
                    return flow;
                }
            }
            _ => return run_list(body.get(i..).unwrap_or_default(), env),
        }
    }
    Flow::Continue
}

/// The flow a list run by [`run`] ends with: inside an action body taken
/// from a tail position only `exit` leaves it, as [`run_action`] gives.
#[inline(always)]
fn ended(flow: Flow, in_action: bool) -> Flow {
    if in_action && flow != Flow::Exit {
        Flow::Continue
    } else {
        flow
    }
}

/// What running one op leaves to [`run`].
enum Step<'o> {
    /// Go on with the next op.
    Next,
    /// The list ends with this flow (never [`Flow::Continue`]).
    Stop(Flow),
    /// Run this list next, its flow the op's (a branch, a block).
    Branch(&'o [Op]),
    /// Run this action body next (its arguments in place, no copies): its
    /// `exit` ends the stage, anything else only the action.
    Body(&'o [Op]),
}

/// [`Step::Next`] for [`Flow::Continue`], else [`Step::Stop`].
#[inline(always)]
fn stop_on(flow: Flow) -> Step<'static> {
    match flow {
        Flow::Continue => Step::Next,
        flow => Step::Stop(flow),
    }
}

/// Runs one op, or tells [`run`] which list to run in its place.
#[inline(always)]
fn step<'o>(op: &'o Op, env: &mut Env<'_>) -> Step<'o> {
    match op {
        Op::SetWord { dst, value } => dst.write(env.arena, *value),
        Op::MoveWord { dst, src } => {
            let v = src.read(env.arena);
            dst.write(env.arena, v);
        }
        Op::AddWord { dst, src, k } => {
            let v = src.read(env.arena).wrapping_add(*k);
            dst.write(env.arena, v);
        }
        Op::StoreWord { bit, value } => {
            let v = value.eval_word(env);
            write_word(env.arena, *bit as usize, v.width, v.v);
        }
        Op::IfTest(t, a, b) => return Step::Branch(if t.holds(env) { a } else { b }),
        Op::ExtractFixed(h) => return stop_on(h.extract(env)),
        Op::EmitFixed(h) => h.emit(env),
        Op::EmitFixedRun(r) => r.emit(env),
        Op::Store {
            place,
            value: Node::Narrow(value),
        } => {
            let v = value.eval_word(env);
            if let Some(bit) = place.resolve(env) {
                write_word(env.arena, bit as usize, v.width, v.v);
            }
        }
        Op::Store { place, value } => {
            let v = value.eval(env);
            if let Some(bit) = place.resolve(env) {
                v.write_bits(env.arena, bit as usize);
            }
        }
        Op::Copy { dst, src, bytes } => {
            if let (Some(d), Some(s)) = (dst.resolve(env), src.resolve(env)) {
                let (d, s) = ((d / 8) as usize, (s / 8) as usize);
                env.arena.copy_within(s..s + *bytes as usize, d);
            }
        }
        Op::Zero { dst, bytes } => {
            if let Some(d) = dst.resolve(env) {
                let d = (d / 8) as usize;
                env.arena[d..d + *bytes as usize].fill(0);
            }
        }
        Op::SetValidity {
            header,
            valid_byte,
            wire_bytes,
            valid,
        } => {
            if let Some(bit) = header.resolve(env) {
                let base = (bit / 8) as usize;
                let flag = base + *valid_byte as usize;
                let was_valid = env.arena[flag] != 0;
                if *valid && !was_valid {
                    env.arena[base..base + *wire_bytes as usize].fill(0);
                    env.length_delta += i64::from(*wire_bytes);
                } else if !*valid && was_valid {
                    env.length_delta -= i64::from(*wire_bytes);
                }
                env.arena[flag] = u8::from(*valid);
            }
        }
        Op::StackShift {
            stack,
            stride,
            size,
            elem_valid_bytes,
            next_index,
            count,
        } => {
            if let Some(bit) = stack.resolve(env) {
                stack_shift(
                    env.arena,
                    (bit / 8) as usize,
                    *stride as usize,
                    *size as usize,
                    elem_valid_bytes,
                    *next_index as usize,
                    *count,
                );
            }
        }
        Op::If(cond, a, b) => return Step::Branch(if cond.truth(env) { a } else { b }),
        Op::Seq(ops) => return Step::Branch(ops),
        Op::Switch {
            subject,
            cases,
            default,
            bodies,
        } => {
            let v = subject.eval(env);
            let chosen = cases
                .iter()
                .find(|(labels, _)| labels.contains(&v))
                .map(|(_, b)| *b)
                .or(*default);
            if let Some(b) = chosen {
                return Step::Branch(&bodies[b]);
            }
        }
        Op::Loop { cond, body, update } => loop {
            if let Some(c) = cond
                && !c.truth(env)
            {
                break;
            }
            match run(body, env) {
                Flow::Break => break,
                flow @ (Flow::Return | Flow::Exit | Flow::Reject(_)) => return Step::Stop(flow),
                Flow::Continue | Flow::LoopContinue => {}
            }
            run(update, env);
        },
        Op::CallAction {
            copy_in,
            body,
            copy_out,
        } if copy_in.is_empty() && copy_out.is_empty() => return Step::Body(body),
        Op::CallAction {
            copy_in,
            body,
            copy_out,
        } => {
            // `exit` ends the callers too, but each block exited still
            // copies out its `out` and `inout` arguments (P4_16, `exit`).
            // Empty lists are skipped without a call.
            if !copy_in.is_empty() {
                // A parser error in an argument (a `lookahead` past the
                // packet's end) stops the call before it starts.
                if let flow @ Flow::Reject(_) = run(copy_in, env) {
                    return Step::Stop(flow);
                }
            }
            let flow = if body.is_empty() {
                Flow::Continue
            } else {
                run(body, env)
            };
            if !copy_out.is_empty() {
                run(copy_out, env);
            }
            if flow == Flow::Exit {
                return Step::Stop(Flow::Exit);
            }
        }
        Op::Exit => return Step::Stop(Flow::Exit),
        Op::Return => return Step::Stop(Flow::Return),
        Op::Break => return Step::Stop(Flow::Break),
        Op::LoopContinue => return Step::Stop(Flow::LoopContinue),
        Op::Extract {
            header,
            shape,
            varbit_len,
            next_index,
            errors,
        } => {
            return stop_on(extract(
                env,
                header,
                shape,
                varbit_len.as_deref(),
                *next_index,
                errors,
            ));
        }
        Op::Peek {
            header,
            shape,
            errors,
        } => {
            let cursor = env.cursor;
            let flow = extract(env, header, shape, None, None, errors);
            env.cursor = cursor;
            return stop_on(flow);
        }
        Op::Advance {
            bits,
            too_short,
            invalid,
        } => {
            // As bmv2: an amount that is not a whole number of bytes is
            // ParserInvalidArgument, checked before the packet's length.
            let n = bits.eval(env).to_u64().unwrap_or(u64::MAX);
            if *invalid != NO_ERROR && !n.is_multiple_of(8) {
                return Step::Stop(Flow::Reject(*invalid));
            }
            if n > env.remaining_bits() as u64 {
                return Step::Stop(Flow::Reject(*too_short));
            }
            env.cursor += n as usize;
        }
        Op::Require { bits, too_short } => {
            if (*bits as usize) > env.remaining_bits() {
                return Step::Stop(Flow::Reject(*too_short));
            }
        }
        Op::Verify { cond, error } => {
            if !cond.truth(env) {
                return Step::Stop(Flow::Reject(error.eval(env).as_u64_truncated() as u32));
            }
        }
        Op::Emit { header, shape } => emit_header(env, header, shape),
        Op::ApplyTable {
            slot,
            keys,
            actions,
            key_words,
        } => {
            let chosen = match key_words {
                Some(fields) => apply_fixed(env, *slot, fields, actions),
                None => None,
            };
            return match chosen {
                Some(None) => Step::Next,
                Some(Some(imp)) if imp.copy_in.is_empty() && imp.copy_out.is_empty() => {
                    Step::Body(&imp.body)
                }
                Some(Some(imp)) => stop_on(run_copied(env, imp)),
                None => stop_on(apply(env, *slot, keys, actions)),
            };
        }
        Op::SubParser {
            copy_in,
            parser,
            copy_out,
        } => {
            run(copy_in, env);
            let outcome = crate::parser::run_parser(parser, env);
            // Copy-out happens on reject as on accept (what p4c's inlining
            // of sub-parsers gives on bmv2): the caller keeps what the
            // sub-parser extracted, then rejects with its error.
            run(copy_out, env);
            match outcome {
                crate::parser::Outcome::Accept => {}
                crate::parser::Outcome::Reject(Some(e)) => return Step::Stop(Flow::Reject(e)),
                crate::parser::Outcome::Reject(None) => {
                    return Step::Stop(Flow::Reject(REJECT_WITHOUT_ERROR));
                }
            }
        }
        Op::Extern { id, args, result } => {
            return stop_on(call_extern(env, *id, args, result.as_deref()));
        }
    }
    Step::Next
}

/// Calls extern `id` of the architecture with `args`, its result (if any)
/// to `result`.
#[inline(always)]
fn call_extern(env: &mut Env<'_>, id: u32, args: &[ExternArg], result: Option<&Place>) -> Flow {
    // The handler needs the environment too: lend it out for the call.
    let Some(handler) = env.externs.take() else {
        return Flow::Continue;
    };
    let flow = handler.call(id, args, result, env);
    env.externs = Some(handler);
    flow
}

/// Most keys a table lookup evaluates without allocating.
const INLINE_KEYS: usize = 8;

/// A table key as [`apply_key`] looks it up.
#[derive(Clone, Copy)]
enum Key<'a> {
    /// The key values (wide keys, and traced applies).
    Bits(&'a [Bits]),
    /// One word per key field: every field has at most 64 bits.
    Words(&'a [u64]),
}

/// Runs `t.apply()`: the entry's action with its arguments, or the default.
/// When every key is narrow, and so is the table, the keys are evaluated to
/// words on the stack and looked up as such (unless tracing, which shows
/// the values).
fn apply(env: &mut Env<'_>, slot: u32, table: &TableKeys, actions: &[ActionImpl]) -> Flow {
    let TableKeys {
        name,
        keys,
        selector_keys,
    } = table;
    let on_words = !env.trace
        && keys.len() <= INLINE_KEYS
        && keys.iter().all(|k| matches!(k, Node::Narrow(_)))
        && env
            .tables
            .get(slot as usize)
            .is_some_and(crate::table::TableState::is_narrow);
    if !on_words {
        return apply_on_values(env, slot, name, keys, selector_keys, actions);
    }
    let mut words = [0u64; INLINE_KEYS];
    for (w, k) in words.iter_mut().zip(keys) {
        if let Node::Narrow(n) = k {
            *w = key_word(n, env);
        }
    }
    let key = Key::Words(&words[..keys.len()]);
    with_values(selector_keys, env, |env, selector| {
        apply_key(env, slot, name, (key, selector), actions)
    })
}

/// The value of a narrow key node as a word. A load of a fixed place, the
/// usual key, is read here rather than through a call of
/// [`Node::eval_word`].
#[inline(always)]
fn key_word(n: &Node, env: &Env<'_>) -> u64 {
    match n {
        Node::LoadFixed { bit, width, .. } => read_word(env.arena, *bit as usize, *width),
        _ => n.eval_word(env).v,
    }
}

/// [`apply`] on key values: for wide keys, and when tracing.
#[inline(never)]
fn apply_on_values(
    env: &mut Env<'_>,
    slot: u32,
    name: &str,
    keys: &[Node],
    selector_keys: &[Node],
    actions: &[ActionImpl],
) -> Flow {
    with_values(keys, env, |env, key| {
        with_values(selector_keys, env, |env, selector| {
            apply_key(env, slot, name, (Key::Bits(key), selector), actions)
        })
    })
}

/// Evaluates `keys` and passes their values to `f`; up to [`INLINE_KEYS`]
/// values live on the stack (no allocation for the usual key sizes).
pub(crate) fn with_values<R>(
    keys: &[Node],
    env: &mut Env<'_>,
    f: impl FnOnce(&mut Env<'_>, &[Bits]) -> R,
) -> R {
    if keys.is_empty() {
        return f(env, &[]);
    }
    if keys.len() <= INLINE_KEYS {
        let mut inline: [Bits; INLINE_KEYS] = std::array::from_fn(|_| Bits::zero(0, false));
        for (dst, k) in inline.iter_mut().zip(keys) {
            *dst = k.eval(env);
        }
        f(env, &inline[..keys.len()])
    } else {
        let spilled: Vec<Bits> = keys.iter().map(|k| k.eval(env)).collect();
        f(env, &spilled)
    }
}

/// [`apply`] of a table whose keys are fixed fields (`fields`, see
/// [`Op::ApplyTable`]'s `key_words`): the keys read with one word load
/// each, looked up as words, the result recorded and the chosen action's
/// control-plane arguments written; gives the action left to run (`None`
/// for none, or one that does nothing), which [`run`] runs in the apply's
/// place. `None`, with nothing done, when tracing, or when the table is
/// not narrow or may point into an action profile: [`apply`] serves those.
#[inline(always)]
fn apply_fixed<'o>(
    env: &mut Env<'_>,
    slot: u32,
    fields: &[FieldWord],
    actions: &'o [ActionImpl],
) -> Option<Option<&'o ActionImpl>> {
    let tables = env.tables;
    let table = tables.get(slot as usize)?;
    if env.trace || !table.is_narrow() || !table.is_direct() || fields.len() > INLINE_KEYS {
        return None;
    }
    let mut words = [0u64; INLINE_KEYS];
    for (w, f) in words.iter_mut().zip(fields) {
        *w = f.read(env.arena);
    }
    let found = table
        .lookup_words(&words[..fields.len()])
        .and_then(|i| Some((i, table.entry(i)?)));
    let (a, args) = match found {
        Some((i, e)) => {
            table.count_hit(i, env.packet_bytes, env.now_us);
            if table.hit_hook {
                notify_hit(env, slot, i);
            }
            record(env, slot, true, e.action, i);
            (e.action, &e.args)
        }
        None => match &table.default {
            Some((a, args)) => {
                record(env, slot, false, *a, u32::MAX);
                (*a, args)
            }
            None => {
                record(env, slot, false, usize::MAX, u32::MAX);
                return Some(None);
            }
        },
    };
    Some(match actions.get(a) {
        Some(imp) if !imp.does_nothing() => {
            write_params(env, imp, args);
            Some(imp)
        }
        _ => None,
    })
}

/// Tells the architecture that entry `entry` of the table at `slot` matched.
#[cold]
fn notify_hit(env: &mut Env<'_>, slot: u32, entry: u32) {
    if let Some(handler) = env.externs.take() {
        handler.table_hit(slot, entry, env);
        env.externs = Some(handler);
    }
}

/// Records the result of the apply of the table at `slot`: hit or miss,
/// the action that ran (index in the list; `usize::MAX` for none), the
/// entry that matched (`u32::MAX` for none).
#[inline]
fn record(env: &mut Env<'_>, slot: u32, hit: bool, action: usize, entry: u32) {
    if let Some(r) = env.results.get_mut(slot as usize) {
        *r = crate::env::ApplyResult {
            hit,
            action: action as u32,
            entry,
        };
    }
}

/// Looks `key` up in the table at `slot` and runs the chosen action; for
/// an entry pointing into an action profile, the member (or the member of
/// the group that a hash of the `selector` values picks) gives the action;
/// an empty or missing group counts as a miss. A one-shot group's group
/// action ([`crate::profile::ActionProfile::group_action`]) runs first, on
/// every hit of the group (an `exit` in it ends the stage before the
/// member's action); the member's action is the one recorded
/// (`action_run`).
fn apply_key(
    env: &mut Env<'_>,
    slot: u32,
    name: &str,
    (key, selector): (Key<'_>, &[Bits]),
    actions: &[ActionImpl],
) -> Flow {
    let (tables, profiles) = (env.tables, env.profiles);
    let Some(table) = tables.get(slot as usize) else {
        return Flow::Continue;
    };
    let index = match key {
        Key::Bits(key) => table.lookup_index(key),
        Key::Words(key) => table.lookup_words(key),
    };
    let mut group_action = None;
    let found = index.and_then(|i| {
        let e = table.entry(i)?;
        let chosen = match table.target(i) {
            None => (e.action, &e.args),
            Some(target) => {
                let profile = profiles.get(table.profile? as usize)?;
                let m = profile.resolve(target, selector)?;
                group_action = profile.group_action(target);
                (m.action, &m.args)
            }
        };
        Some((i, chosen))
    });
    let (hit, chosen) = match found {
        Some((i, chosen)) => {
            table.count_hit(i, env.packet_bytes, env.now_us);
            if table.hit_hook {
                notify_hit(env, slot, i);
            }
            (true, Some(chosen))
        }
        None => (false, table.default.as_ref().map(|(a, args)| (*a, args))),
    };
    let action = chosen.map_or(usize::MAX, |(a, _)| a);
    record(env, slot, hit, action, found.map_or(u32::MAX, |(i, _)| i));
    let Some((a, args)) = chosen else {
        return Flow::Continue;
    };
    let Some(imp) = actions.get(a) else {
        return Flow::Continue;
    };
    if env.trace
        && let Key::Bits(key) = key
    {
        trace_apply(name, key, hit, &imp.name, args);
    }
    if let Some(g) = group_action
        && let Some(group) = actions.get(g.action)
    {
        if env.trace {
            trace_group_action(name, &group.name, &g.args);
        }
        if run_action(env, group, &g.args) == Flow::Exit {
            return Flow::Exit;
        }
    }
    run_action(env, imp, args)
}

/// Runs a table's action: its control-plane arguments written, then
/// [`run_copied`].
#[inline(always)]
fn run_action(env: &mut Env<'_>, imp: &ActionImpl, args: &[Bits]) -> Flow {
    write_params(env, imp, args);
    run_copied(env, imp)
}

/// Runs a table's action whose control-plane arguments are in place: the
/// data-plane ones copied in, the body, the results copied out; `exit`
/// ends the stage, anything else only the action. Empty lists are skipped
/// without a call.
#[inline(always)]
fn run_copied(env: &mut Env<'_>, imp: &ActionImpl) -> Flow {
    if !imp.copy_in.is_empty() {
        run(&imp.copy_in, env);
    }
    let flow = if imp.body.is_empty() {
        Flow::Continue
    } else {
        run(&imp.body, env)
    };
    if !imp.copy_out.is_empty() {
        run(&imp.copy_out, env);
    }
    if flow == Flow::Exit {
        return Flow::Exit;
    }
    Flow::Continue
}

/// Writes a table's control-plane arguments `args` to the parameters of
/// action `imp`.
#[inline(always)]
fn write_params(env: &mut Env<'_>, imp: &ActionImpl, args: &[Bits]) {
    for (param, arg) in imp.params.iter().zip(args) {
        write_param(env, param, arg);
    }
}

/// Writes a control-plane argument to its parameter: one word store when
/// the parameter has a word form of the argument's width, else as
/// [`write_arg`].
#[inline(always)]
fn write_param(env: &mut Env<'_>, param: &ActionParam, arg: &Bits) {
    match param.word {
        Some(w) if w.width() == arg.width() => w.write(env.arena, arg.as_u64_truncated()),
        _ => write_arg(env, &param.place, arg),
    }
}

/// Writes an action's control-plane argument to its parameter: a value of
/// at most 64 bits to a fixed place as a word.
#[inline(never)]
fn write_arg(env: &mut Env<'_>, place: &Place, arg: &Bits) {
    match place {
        Place::Fixed { bit, .. } if arg.width() <= SMALL_MAX_WIDTH => {
            write_word(
                env.arena,
                *bit as usize,
                arg.width(),
                arg.as_u64_truncated(),
            );
        }
        _ => {
            if let Some(bit) = place.resolve(env) {
                arg.write_bits(env.arena, bit as usize);
            }
        }
    }
}

/// A one-shot group's group action, when tracing.
#[cold]
fn trace_group_action(table: &str, action: &str, args: &[Bits]) {
    let args: Vec<String> = args.iter().map(Bits::to_string).collect();
    tracing::info!(
        target: "janus::trace",
        table,
        action,
        args = %args.join(", "),
        "group action"
    );
}

/// A table's key, result and action, when tracing.
#[cold]
fn trace_apply(table: &str, key: &[Bits], hit: bool, action: &str, args: &[Bits]) {
    let key: Vec<String> = key.iter().map(Bits::to_string).collect();
    let args: Vec<String> = args.iter().map(Bits::to_string).collect();
    tracing::info!(
        target: "janus::trace",
        table,
        key = %key.join(", "),
        hit,
        action,
        args = %args.join(", "),
        "table"
    );
}

/// Extracts a header from the packet at the cursor into the arena. The
/// varbit field, if any, takes `varbit_len` bits; the fields after it keep
/// their static place after the varbit's maximum.
fn extract(
    env: &mut Env<'_>,
    header: &Place,
    shape: &HeaderShape,
    varbit_len: Option<&Node>,
    next_index: Option<u32>,
    errors: &ParserErrors,
) -> Flow {
    let Some(at) = header.resolve(env) else {
        return Flow::Reject(errors.stack_out_of_bounds);
    };
    let at = at as usize;
    let base = at / 8;
    match (&shape.varbit, varbit_len) {
        (Some(v), Some(len)) => {
            // As bmv2's `extract_VL`: a length that is not a whole number
            // of bytes is ParserInvalidArgument; then the packet must hold
            // the bits asked for (PacketTooShort) before the length is
            // checked against the field's maximum (HeaderTooShort), as the
            // P4_16 extract pseudo-code orders them.
            let len = len.eval(env).to_u64().unwrap_or(u64::MAX);
            if !len.is_multiple_of(8) {
                return Flow::Reject(errors.invalid_argument);
            }
            let (pre, max) = (v.at as usize, v.max as usize);
            let post = shape.wire_bits as usize - pre - max;
            let needed = usize::try_from(len).map_or(usize::MAX, |l| l.saturating_add(pre + post));
            if needed > env.remaining_bits() {
                return Flow::Reject(errors.packet_too_short);
            }
            if len > v.max as u64 {
                return Flow::Reject(errors.header_too_short);
            }
            let len = len as usize;
            let c = env.cursor;
            copy_bits(env.input, c, env.arena, at, pre);
            copy_bits(env.input, c + pre, env.arena, at + pre, len);
            copy_bits(env.input, c + pre + len, env.arena, at + pre + max, post);
            write_u32(env.arena, base as u32 + v.len_byte, len as u32);
            env.cursor += pre + len + post;
        }
        _ => {
            let n = shape.wire_bits as usize - shape.varbit.as_ref().map_or(0, |v| v.max as usize);
            if n > env.remaining_bits() {
                return Flow::Reject(errors.packet_too_short);
            }
            copy_bits(env.input, env.cursor, env.arena, at, n);
            env.cursor += n;
        }
    }
    env.arena[base + shape.valid_byte as usize] = 1;
    if let Some(b) = next_index {
        let next = read_u32(env.arena, b);
        write_u32(env.arena, b, next + 1);
    }
    Flow::Continue
}

/// Appends a valid header's wire bits to the output.
fn emit_header(env: &mut Env<'_>, header: &Place, shape: &HeaderShape) {
    let Some(at) = header.resolve(env) else {
        return;
    };
    let at = at as usize;
    let base = at / 8;
    if env.arena[base + shape.valid_byte as usize] == 0 {
        return;
    }
    match &shape.varbit {
        Some(v) => {
            let len = read_u32(env.arena, base as u32 + v.len_byte) as usize;
            let (pre, max) = (v.at as usize, v.max as usize);
            let post = shape.wire_bits as usize - pre - max;
            env.emit_bits(false, at, pre);
            env.emit_bits(false, at + pre, len.min(max));
            env.emit_bits(false, at + pre + max, post);
        }
        None => env.emit_bits(false, at, shape.wire_bits as usize),
    }
}

/// `push_front(count)` (count > 0) or `pop_front(-count)` on a stack at
/// byte `base`: elements move, freed ones become invalid, and `nextIndex`
/// moves with them (clamped to the stack).
fn stack_shift(
    arena: &mut [u8],
    base: usize,
    stride: usize,
    size: usize,
    valid: &[u32],
    next: usize,
    count: i64,
) {
    let invalidate = |arena: &mut [u8], elem: usize| {
        for v in valid {
            arena[base + elem * stride + *v as usize] = 0;
        }
    };
    let n = count.unsigned_abs().min(size as u64) as usize;
    let elems = base..base + stride * size;
    if count > 0 {
        arena.copy_within(
            elems.start..elems.end - stride * n,
            elems.start + stride * n,
        );
        for i in 0..n {
            invalidate(arena, i);
        }
    } else {
        arena.copy_within(elems.start + stride * n..elems.end, elems.start);
        for i in size - n..size {
            invalidate(arena, i);
        }
    }
    let at = base + next;
    let current =
        u32::from_be_bytes([arena[at], arena[at + 1], arena[at + 2], arena[at + 3]]) as i64;
    let moved = (current + count.clamp(-(size as i64), size as i64)).clamp(0, size as i64) as u32;
    arena[at..at + 4].copy_from_slice(&moved.to_be_bytes());
}
