//! Expressions compiled for execution: every name and field access resolved
//! at load time to a bit range of the packet arena (see [`crate::plan`]), so
//! evaluating one is loads and arithmetic on [`Bits`], with no lookups.
//!
//! Scalars are what nodes compute: `bit<W>`, `int<W>`, `bool` (as `bit<1>`),
//! enums, `error` and `match_kind` (32-bit indices; serializable enums their
//! value). Composite values (headers, structs, stacks) are handled as
//! [`Place`]s by the statement layer, which copies them as bytes.

use crate::env::Env;
use crate::layout::{LayoutError, LayoutKind, Layouts};
use crate::value::{Bits, SMALL_MAX_WIDTH, Word, read_word};
use janus_p4::ir::{self, BinOp, ExprKind, UnOp, Value};
use janus_p4::types::{StructKind, Ty, TyId, TypeTable};
use std::cmp::Ordering;
use std::collections::HashMap;
use thiserror::Error;

/// Why an expression could not be compiled.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CompileError {
    #[error(transparent)]
    Layout(#[from] LayoutError),
    #[error("variable `{0}` has no storage in this frame")]
    NoStorage(String),
    #[error("{0} is not supported by the engine yet")]
    Unsupported(&'static str),
    #[error("the architecture does not implement extern `{0}`")]
    UnknownExtern(String),
    /// A block's scalar constructor argument that did not fold once the
    /// enclosing instance's arguments were bound.
    #[error(
        "the argument for constructor parameter `{0}` is not a compile-time constant (e.g. a division by zero)"
    )]
    NotConstant(String),
    /// An error at a place in the program (`file:line:col`).
    #[error("{at}: {error}")]
    At {
        at: String,
        error: Box<CompileError>,
    },
}

impl CompileError {
    /// `self` at `span` of `program` (`file:line:col: ...`), unless it
    /// already names a place or the program has no source locations.
    pub fn at(self, program: &ir::Program, span: janus_p4::source::Span) -> CompileError {
        if matches!(self, CompileError::At { .. }) {
            return self;
        }
        match program.locator.locate(span) {
            Some(at) => CompileError::At {
                at,
                error: Box::new(self),
            },
            None => self,
        }
    }

    /// The error without the place it names.
    pub fn inner(&self) -> &CompileError {
        match self {
            CompileError::At { error, .. } => error.inner(),
            other => other,
        }
    }

    /// The `file:line:col` this error names, if any.
    pub fn location(&self) -> Option<&str> {
        match self {
            CompileError::At { at, .. } => Some(at),
            _ => None,
        }
    }
}

/// Where a value lives in the arena.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    /// At a fixed bit offset.
    Fixed { bit: u32, ty: TyId },
    /// An element of a header stack chosen at run time: the stack starts at
    /// `base` (bits); element `i` is at `base + i * stride`; `offset` is the
    /// position of the accessed part within the element.
    Indexed {
        base: u32,
        stride: u32,
        size: u32,
        index: Box<Node>,
        offset: u32,
        ty: TyId,
    },
    /// An element chosen at run time of an array that itself lies at a
    /// place chosen at run time (`a[i][j]`, `s[i].arr[j]`): element `i` is
    /// at `outer + i * stride`; `offset` as for [`Place::Indexed`].
    IndexedIn {
        outer: Box<Place>,
        stride: u32,
        size: u32,
        index: Box<Node>,
        offset: u32,
        ty: TyId,
    },
    /// `stack.next` (or `stack.last` when `last`): the element at the
    /// stack's `nextIndex` (minus one), read from the arena at run time.
    StackNext {
        base: u32,
        stride: u32,
        size: u32,
        /// Byte offset of the stack's 4-byte `nextIndex`.
        next_index_byte: u32,
        last: bool,
        offset: u32,
        ty: TyId,
    },
}

impl Place {
    pub fn ty(&self) -> TyId {
        match self {
            Place::Fixed { ty, .. }
            | Place::Indexed { ty, .. }
            | Place::IndexedIn { ty, .. }
            | Place::StackNext { ty, .. } => *ty,
        }
    }

    /// The same place shifted to a part at `offset` bits, of type `ty`.
    pub fn part(self, offset: u32, ty: TyId) -> Place {
        match self {
            Place::Fixed { bit, .. } => Place::Fixed {
                bit: bit + offset,
                ty,
            },
            Place::Indexed {
                base,
                stride,
                size,
                index,
                offset: o,
                ..
            } => Place::Indexed {
                base,
                stride,
                size,
                index,
                offset: o + offset,
                ty,
            },
            Place::IndexedIn {
                outer,
                stride,
                size,
                index,
                offset: o,
                ..
            } => Place::IndexedIn {
                outer,
                stride,
                size,
                index,
                offset: o + offset,
                ty,
            },
            Place::StackNext {
                base,
                stride,
                size,
                next_index_byte,
                last,
                offset: o,
                ..
            } => Place::StackNext {
                base,
                stride,
                size,
                next_index_byte,
                last,
                offset: o + offset,
                ty,
            },
        }
    }

    /// The bit offset of this place for the current arena, or `None` for a
    /// run-time index out of the stack's bounds.
    ///
    /// A fixed place resolves inline in the caller; the others through
    /// [`Place::resolve_dynamic`].
    #[inline]
    pub fn resolve(&self, env: &Env<'_>) -> Option<u32> {
        match self {
            Place::Fixed { bit, .. } => Some(*bit),
            _ => self.resolve_dynamic(env),
        }
    }

    /// [`Place::resolve`] of a place chosen at run time (a stack element).
    #[inline(never)]
    fn resolve_dynamic(&self, env: &Env<'_>) -> Option<u32> {
        match self {
            Place::Fixed { bit, .. } => Some(*bit),
            Place::Indexed {
                base,
                stride,
                size,
                index,
                offset,
                ..
            } => {
                let i = index.eval(env).to_u64()?;
                (i < *size as u64).then(|| base + i as u32 * stride + offset)
            }
            Place::IndexedIn {
                outer,
                stride,
                size,
                index,
                offset,
                ..
            } => {
                let base = outer.resolve(env)?;
                let i = index.eval(env).to_u64()?;
                (i < *size as u64).then(|| base + i as u32 * stride + offset)
            }
            Place::StackNext {
                base,
                stride,
                size,
                next_index_byte,
                last,
                offset,
                ..
            } => {
                let next = read_u32(env.arena, *next_index_byte);
                let i = if *last { next.checked_sub(1)? } else { next };
                (i < *size).then(|| base + i * stride + offset)
            }
        }
    }
}

/// A 4-byte big-endian counter in the arena (stack `nextIndex`, varbit length).
pub fn read_u32(arena: &[u8], byte: u32) -> u32 {
    let b = byte as usize;
    u32::from_be_bytes([arena[b], arena[b + 1], arena[b + 2], arena[b + 3]])
}

/// Writes a 4-byte big-endian counter.
pub fn write_u32(arena: &mut [u8], byte: u32, v: u32) {
    let b = byte as usize;
    arena[b..b + 4].copy_from_slice(&v.to_be_bytes());
}

/// A compiled scalar expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Const(Bits),
    /// A scalar at a fixed bit of the arena (the common case of `Load`).
    LoadFixed {
        bit: u32,
        width: u32,
        signed: bool,
    },
    /// A scalar stored in the arena.
    Load {
        place: Box<Place>,
        width: u32,
        signed: bool,
    },
    /// A header's validity byte.
    Valid(Box<Place>),
    Unary(UnOp, Box<Node>),
    Binary(BinOp, Box<Node>, Box<Node>),
    Ternary(Box<Node>, Box<Node>, Box<Node>),
    Cast {
        to_width: u32,
        to_signed: bool,
        inner: Box<Node>,
    },
    Slice {
        hi: u32,
        lo: u32,
        inner: Box<Node>,
    },
    /// `inner[start +: width]` (`up`) or `inner[start -: width]`, `start`
    /// a run-time value: `width` bits of `inner` from its bit `start` (or
    /// `start - width + 1`) up, as a `bit<width>`; bits outside `inner`
    /// read as 0.
    PartSelect {
        inner: Box<Node>,
        start: Box<Node>,
        width: u32,
        up: bool,
    },
    /// `whole` with the part-select `[start +: width]` (or `-:`) set to
    /// `value`, for an assignment to the part-select: bits of the part
    /// outside `whole` are not written.
    PartSplice {
        whole: Box<Node>,
        start: Box<Node>,
        value: Box<Node>,
        width: u32,
        up: bool,
    },
    /// `packet.lookahead<T>()` (or a field of it, `offset` bits in): bits
    /// of the packet past the cursor, not consumed. `need` bits (all of `T`)
    /// must be available; statements check that first (see [`lookahead_bits`]).
    Lookahead {
        offset: u32,
        width: u32,
        signed: bool,
        need: u32,
    },
    /// `packet.length()` in bytes.
    PacketLength,
    /// `.hit`, `.miss` and `.action_run` (the action's index in the table's
    /// list, as `bit<32>`) of the last apply of the table in `slot`.
    TableHit(u32),
    TableMiss(u32),
    ActionRun(u32),
    /// Equality of two composite values (headers, unions, structs, stacks)
    /// by the parts listed in `units` (bit offsets within the values).
    Equal {
        a: Box<Place>,
        b: Box<Place>,
        units: Vec<EqUnit>,
    },
    /// An expression whose every value has at most 64 bits: evaluated on
    /// [`Word`]s (see [`Node::eval_word`]), with no [`Bits`] in between.
    Narrow(Box<Node>),
}

/// A part compared by [`Node::Equal`].
#[derive(Clone, Debug, PartialEq)]
pub enum EqUnit {
    Scalar {
        bit: u32,
        width: u32,
    },
    /// A header's varbit field: equal lengths (the 4-byte counter `len`
    /// bits from the field's start) and equal bits up to that length.
    Varbit {
        max: u32,
        len: u32,
    },
    /// Equal when both invalid, or both valid with equal wire bits.
    Header {
        bit: u32,
        wire_bits: u32,
        valid_bit: u32,
    },
}

impl Node {
    /// Evaluates the node over a packet's arena.
    pub fn eval(&self, env: &Env<'_>) -> Bits {
        match self {
            Node::Narrow(n) => n.eval_word(env).to_bits(),
            Node::Const(b) => b.clone(),
            Node::LoadFixed { bit, width, signed } => {
                Bits::read_bits(env.arena, *bit as usize, *width, *signed)
            }
            Node::Load {
                place,
                width,
                signed,
            } => match place.resolve(env) {
                Some(bit) => Bits::read_bits(env.arena, bit as usize, *width, *signed),
                // Reading past a stack's end gives an unspecified value; 0.
                None => Bits::zero(*width, *signed),
            },
            Node::Valid(place) => {
                let valid = place
                    .resolve(env)
                    .is_some_and(|bit| env.arena[bit as usize / 8] != 0);
                Bits::from_bool(valid)
            }
            Node::Unary(op, a) => {
                let a = a.eval(env);
                match op {
                    UnOp::Not => Bits::from_bool(!a.to_bool()),
                    UnOp::BitNot => a.not(),
                    UnOp::Neg => a.neg(),
                    UnOp::Plus => a,
                }
            }
            Node::Binary(op, a, b) => eval_binary(*op, a, b, env),
            Node::Ternary(c, a, b) => {
                if c.eval(env).to_bool() {
                    a.eval(env)
                } else {
                    b.eval(env)
                }
            }
            Node::Cast {
                to_width,
                to_signed,
                inner,
            } => inner.eval(env).cast(*to_width, *to_signed),
            Node::Slice { hi, lo, inner } => inner.eval(env).slice(*hi, *lo),
            Node::PartSelect {
                inner,
                start,
                width,
                up,
            } => {
                let lo = part_low(&start.eval(env), *width, *up);
                part_get(&inner.eval(env), lo, *width)
            }
            Node::PartSplice {
                whole,
                start,
                value,
                width,
                up,
            } => {
                let lo = part_low(&start.eval(env), *width, *up);
                part_set(&whole.eval(env), lo, *width, &value.eval(env))
            }
            Node::Lookahead {
                offset,
                width,
                signed,
                need,
            } => {
                if env.remaining_bits() >= *need as usize {
                    Bits::read_bits(env.input, env.cursor + *offset as usize, *width, *signed)
                } else {
                    Bits::zero(*width, *signed)
                }
            }
            Node::PacketLength => Bits::from_u64(32, false, env.input.len() as u64),
            Node::Equal { a, b, units } => {
                let (Some(x), Some(y)) = (a.resolve(env), b.resolve(env)) else {
                    return Bits::from_bool(false);
                };
                Bits::from_bool(units.iter().all(|u| unit_equal(env.arena, x, y, u)))
            }
            Node::TableHit(slot) => {
                Bits::from_bool(env.results.get(*slot as usize).is_some_and(|r| r.hit))
            }
            Node::TableMiss(slot) => {
                Bits::from_bool(!env.results.get(*slot as usize).is_some_and(|r| r.hit))
            }
            Node::ActionRun(slot) => Bits::from_u64(
                32,
                false,
                env.results
                    .get(*slot as usize)
                    .map_or(u32::MAX, |r| r.action) as u64,
            ),
        }
    }
}

impl Node {
    /// The value of a node of at most 64 bits (every node inside a
    /// [`Node::Narrow`]), computed on words.
    ///
    /// The leaves (constants and loads of fixed places) are evaluated
    /// inline in the caller; the other nodes go through
    /// [`Node::eval_word_tree`]. Always inlined: the recursion runs
    /// through `eval_word_tree` alone, so that the operands of an inner
    /// node are read inline there rather than by a call per leaf.
    #[inline(always)]
    pub fn eval_word(&self, env: &Env<'_>) -> Word {
        match self {
            Node::Const(b) => Word::from_bits(b),
            Node::LoadFixed { bit, width, signed } => {
                Word::new(*width, *signed, read_word(env.arena, *bit as usize, *width))
            }
            _ => self.eval_word_tree(env),
        }
    }

    /// [`Node::eval_word`] of an inner node (leaves fall back to
    /// [`Node::eval`]); kept out of line so that the leaf path inlines.
    #[inline(never)]
    fn eval_word_tree(&self, env: &Env<'_>) -> Word {
        match self {
            Node::Load {
                place,
                width,
                signed,
            } => {
                let v = place
                    .resolve(env)
                    .map_or(0, |bit| read_word(env.arena, bit as usize, *width));
                Word::new(*width, *signed, v)
            }
            Node::Valid(place) => Word::from_bool(
                place
                    .resolve(env)
                    .is_some_and(|bit| env.arena[bit as usize / 8] != 0),
            ),
            Node::Unary(op, a) => {
                let a = a.eval_word(env);
                match op {
                    UnOp::Not => Word::from_bool(!a.is_true()),
                    UnOp::BitNot => a.not(),
                    UnOp::Neg => a.neg(),
                    UnOp::Plus => a,
                }
            }
            Node::Binary(op, a, b) => binary_word(*op, a, b, env),
            Node::Ternary(c, a, b) => {
                if c.eval_word(env).is_true() {
                    a.eval_word(env)
                } else {
                    b.eval_word(env)
                }
            }
            Node::Cast {
                to_width,
                to_signed,
                inner,
            } => inner.eval_word(env).cast(*to_width, *to_signed),
            Node::Slice { hi, lo, inner } => inner.eval_word(env).slice(*hi, *lo),
            Node::PartSelect {
                inner,
                start,
                width,
                up,
            } => {
                let x = inner.eval_word(env);
                let lo = part_low_word(start.eval_word(env), *width, *up);
                Word::new(*width, false, part_get_word(x.v, x.width, lo, *width))
            }
            Node::PartSplice {
                whole,
                start,
                value,
                width,
                up,
            } => {
                let x = whole.eval_word(env);
                let lo = part_low_word(start.eval_word(env), *width, *up);
                let v = value.eval_word(env).v;
                Word::new(
                    x.width,
                    x.signed,
                    part_set_word(x.v, x.width, lo, *width, v),
                )
            }
            Node::TableHit(slot) => {
                Word::from_bool(env.results.get(*slot as usize).is_some_and(|r| r.hit))
            }
            Node::TableMiss(slot) => {
                Word::from_bool(!env.results.get(*slot as usize).is_some_and(|r| r.hit))
            }
            _ => Word::from_bits(&self.eval(env)),
        }
    }

    /// A boolean node's value.
    #[inline]
    pub fn truth(&self, env: &Env<'_>) -> bool {
        match self {
            Node::Narrow(n) => n.eval_word(env).is_true(),
            _ => self.eval(env).to_bool(),
        }
    }

    /// `self` wrapped in [`Node::Narrow`] if it and every node inside it
    /// have at most 64 bits.
    pub fn narrowed(self) -> Node {
        if matches!(self, Node::Narrow(_)) || narrow_shape(&self).is_none() {
            return self;
        }
        Node::Narrow(Box::new(self))
    }
}

/// The width and signedness of `n` if it and every node inside it have at
/// most 64 bits (so [`Node::eval_word`] may evaluate it).
fn narrow_shape(n: &Node) -> Option<(u32, bool)> {
    let fits = |w: u32| (w <= SMALL_MAX_WIDTH).then_some(());
    let shape = match n {
        Node::Const(b) => (b.width(), b.is_signed()),
        Node::Load { width, signed, .. }
        | Node::LoadFixed { width, signed, .. }
        | Node::Lookahead { width, signed, .. } => (*width, *signed),
        Node::Valid(_) | Node::TableHit(_) | Node::TableMiss(_) | Node::Equal { .. } => (1, false),
        Node::PacketLength | Node::ActionRun(_) => (32, false),
        Node::Unary(UnOp::Not, a) => {
            narrow_shape(a)?;
            (1, false)
        }
        Node::Unary(_, a) => narrow_shape(a)?,
        Node::Binary(op, a, b) => {
            let (x, y) = (narrow_shape(a)?, narrow_shape(b)?);
            match op {
                BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::And
                | BinOp::Or => (1, false),
                BinOp::Concat => (x.0 + y.0, x.1),
                _ => x,
            }
        }
        Node::Ternary(c, a, b) => {
            narrow_shape(c)?;
            narrow_shape(b)?;
            narrow_shape(a)?
        }
        Node::Cast {
            to_width,
            to_signed,
            inner,
        } => {
            narrow_shape(inner)?;
            (*to_width, *to_signed)
        }
        Node::Slice { hi, lo, inner } => {
            narrow_shape(inner)?;
            (hi.saturating_sub(*lo) + 1, false)
        }
        Node::PartSelect {
            inner,
            start,
            width,
            ..
        } => {
            narrow_shape(inner)?;
            narrow_shape(start)?;
            (*width, false)
        }
        Node::PartSplice {
            whole,
            start,
            value,
            ..
        } => {
            narrow_shape(start)?;
            narrow_shape(value)?;
            narrow_shape(whole)?
        }
        Node::Narrow(inner) => narrow_shape(inner)?,
    };
    fits(shape.0)?;
    Some(shape)
}

fn binary_word(op: BinOp, a: &Node, b: &Node, env: &Env<'_>) -> Word {
    match op {
        BinOp::And => {
            return Word::from_bool(a.eval_word(env).is_true() && b.eval_word(env).is_true());
        }
        BinOp::Or => {
            return Word::from_bool(a.eval_word(env).is_true() || b.eval_word(env).is_true());
        }
        _ => {}
    }
    let (x, y) = (a.eval_word(env), b.eval_word(env));
    match op {
        BinOp::Add => x.add(y),
        BinOp::Sub => x.sub(y),
        BinOp::Mul => x.mul(y),
        BinOp::Div => x.div(y),
        BinOp::Mod => x.rem(y),
        BinOp::SatAdd => x.sat_add(y),
        BinOp::SatSub => x.sat_sub(y),
        BinOp::Shl => x.shl(y.v),
        BinOp::Shr => x.shr(y.v),
        BinOp::BitAnd => x.and(y),
        BinOp::BitOr => x.or(y),
        BinOp::BitXor => x.xor(y),
        BinOp::Concat => x.concat(y),
        BinOp::Eq => Word::from_bool(x.v == y.v),
        BinOp::Ne => Word::from_bool(x.v != y.v),
        BinOp::Lt => Word::from_bool(x.compare(y).is_lt()),
        BinOp::Le => Word::from_bool(x.compare(y).is_le()),
        BinOp::Gt => Word::from_bool(x.compare(y).is_gt()),
        BinOp::Ge => Word::from_bool(x.compare(y).is_ge()),
        BinOp::And | BinOp::Or => unreachable!("handled above"),
    }
}

fn unit_equal(arena: &[u8], x: u32, y: u32, u: &EqUnit) -> bool {
    let bits = |at: u32, width: u32| Bits::read_bits(arena, at as usize, width, false);
    let same_bits = |from_x: u32, from_y: u32, n: u32| {
        let mut off = 0;
        while off < n {
            let w = (n - off).min(64);
            if bits(from_x + off, w) != bits(from_y + off, w) {
                return false;
            }
            off += w;
        }
        true
    };
    match *u {
        EqUnit::Scalar { bit, width } => bits(x + bit, width) == bits(y + bit, width),
        EqUnit::Varbit { max, len } => {
            let (lx, ly) = (
                read_u32(arena, (x + len) / 8),
                read_u32(arena, (y + len) / 8),
            );
            lx == ly && same_bits(x, y, lx.min(max))
        }
        EqUnit::Header {
            bit,
            wire_bits,
            valid_bit,
        } => {
            let (vx, vy) = (
                arena[((x + bit + valid_bit) / 8) as usize] != 0,
                arena[((y + bit + valid_bit) / 8) as usize] != 0,
            );
            if vx != vy {
                return false;
            }
            !vx || same_bits(x + bit, y + bit, wire_bits)
        }
    }
}

fn eval_binary(op: BinOp, a: &Node, b: &Node, env: &Env<'_>) -> Bits {
    // Short-circuit operators evaluate their right side only when needed.
    match op {
        BinOp::And => return Bits::from_bool(a.eval(env).to_bool() && b.eval(env).to_bool()),
        BinOp::Or => return Bits::from_bool(a.eval(env).to_bool() || b.eval(env).to_bool()),
        _ => {}
    }
    let (x, y) = (a.eval(env), b.eval(env));
    let cmp = |want: fn(Ordering) -> bool| Bits::from_bool(want(x.compare(&y)));
    match op {
        BinOp::Add => x.add(&y),
        BinOp::Sub => x.sub(&y),
        BinOp::Mul => x.mul(&y),
        BinOp::Div => x.div(&y),
        BinOp::Mod => x.rem(&y),
        BinOp::SatAdd => x.sat_add(&y),
        BinOp::SatSub => x.sat_sub(&y),
        BinOp::Shl => x.shl(y.shift_amount()),
        BinOp::Shr => x.shr(y.shift_amount()),
        BinOp::BitAnd => x.and(&y),
        BinOp::BitOr => x.or(&y),
        BinOp::BitXor => x.xor(&y),
        BinOp::Concat => x.concat(&y),
        BinOp::Eq => Bits::from_bool(x == y),
        BinOp::Ne => Bits::from_bool(x != y),
        BinOp::Lt => cmp(|o| o == Ordering::Less),
        BinOp::Le => cmp(|o| o != Ordering::Greater),
        BinOp::Gt => cmp(|o| o == Ordering::Greater),
        BinOp::Ge => cmp(|o| o != Ordering::Less),
        BinOp::And | BinOp::Or => unreachable!("handled above"),
    }
}

/// True if `e` is a list or struct literal (not a stored value).
fn is_literal(e: &ir::Expr) -> bool {
    matches!(e.kind, ExprKind::List(_) | ExprKind::Const(Value::List(_)))
}

/// The member types of a struct or tuple type.
fn member_types(types: &TypeTable, ty: TyId) -> Option<Vec<TyId>> {
    match types.get(ty) {
        Ty::Tuple(tys) => Some(tys.clone()),
        Ty::Stack { elem, size } => Some(vec![*elem; *size as usize]),
        Ty::Struct(_) if !types.is_header(ty) && !types.is_union(ty) => {
            Some(types.struct_info(ty)?.fields.iter().map(|f| f.ty).collect())
        }
        _ => None,
    }
}

/// The members of a struct or tuple value `e` (of member types `tys`), as
/// expressions: the parts of a literal, or fields of a stored value.
fn members(types: &TypeTable, e: &ir::Expr, tys: &[TyId]) -> Vec<ir::Expr> {
    let of_array = matches!(types.get(e.ty), Ty::Stack { .. });
    match &e.kind {
        ExprKind::List(parts) => parts.clone(),
        ExprKind::Const(Value::List(vals)) => vals
            .iter()
            .zip(tys)
            .map(|(v, ty)| ir::Expr {
                ty: *ty,
                kind: ExprKind::Const(v.clone()),
                span: e.span,
            })
            .collect(),
        // An array's elements, by constant index.
        _ if of_array => tys
            .iter()
            .enumerate()
            .map(|(i, ty)| {
                let index = ir::Expr {
                    ty: TypeTable::INF_INT,
                    kind: ExprKind::Const(Value::Int(i.into())),
                    span: e.span,
                };
                ir::Expr {
                    ty: *ty,
                    kind: ExprKind::Index(Box::new(e.clone()), Box::new(index)),
                    span: e.span,
                }
            })
            .collect(),
        _ => tys
            .iter()
            .enumerate()
            .map(|(i, ty)| ir::Expr {
                ty: *ty,
                kind: ExprKind::Field(Box::new(e.clone()), i as u32),
                span: e.span,
            })
            .collect(),
    }
}

/// True if `e` is `packet.lookahead<T>()`.
fn is_lookahead(types: &TypeTable, e: &ir::Expr) -> bool {
    matches!(&e.kind, ExprKind::Call(ir::Callee::ExternMethod { receiver, name, .. }, _)
        if name == "lookahead" && is_packet_in(types, receiver.ty))
}

/// True if `ty` is a header type.
fn is_header(types: &TypeTable, ty: TyId) -> bool {
    matches!(types.get(ty), Ty::Struct(i)
        if types.structs.get(*i as usize).is_some_and(|s| s.kind == StructKind::Header))
}

/// The `packet.lookahead<T>()` call that `e` is a member of, at any depth
/// (`lookahead<T>().a.b`).
fn lookahead_root<'e>(types: &TypeTable, e: &'e ir::Expr) -> Option<&'e ir::Expr> {
    let mut at = e;
    while let ExprKind::Field(base, _) = &at.kind {
        if is_lookahead(types, base) {
            return Some(base);
        }
        at = base;
    }
    None
}

/// A scalar member, at any depth, of `packet.lookahead<T>()` for a struct
/// (or header) `T` without varbits: the member's bits at its place in `T`
/// as the packet holds it, all of `T` needed. `None` if `e` is no such
/// member.
fn lookahead_member(types: &TypeTable, e: &ir::Expr) -> Option<Node> {
    let (width, signed) = scalar_shape(types, e.ty)?;
    let mut offset = 0u32;
    let mut at = e;
    while let ExprKind::Field(base, idx) = &at.kind {
        let fields = &types.structs.get(struct_index(types, base.ty)?)?.fields;
        for f in fields.get(..*idx as usize)? {
            offset = offset.checked_add(wire_width(types, f.ty)?)?;
        }
        at = base;
    }
    if !is_lookahead(types, at) {
        return None;
    }
    Some(Node::Lookahead {
        offset,
        width,
        signed,
        need: wire_width(types, at.ty)?,
    })
}

/// The index of a struct or header type (not a union) in the type table.
fn struct_index(types: &TypeTable, ty: TyId) -> Option<usize> {
    match types.get(ty) {
        Ty::Struct(i) => {
            let kind = types.structs.get(*i as usize)?.kind;
            (kind != StructKind::HeaderUnion).then_some(*i as usize)
        }
        _ => None,
    }
}

/// The bits a value of `ty` takes in a packet: a scalar's width, a
/// struct's or header's fields' summed; `None` for a type holding a varbit,
/// a union or a stack.
fn wire_width(types: &TypeTable, ty: TyId) -> Option<u32> {
    if let Some((w, _)) = scalar_shape(types, ty) {
        return Some(w);
    }
    let fields = &types.structs.get(struct_index(types, ty)?)?.fields;
    fields
        .iter()
        .try_fold(0u32, |sum, f| sum.checked_add(wire_width(types, f.ty)?))
}

/// The bits `packet.lookahead<T>()` needs in the packet: all of `T`, a
/// varbit field counting as empty; `None` for a type it cannot read.
pub fn lookahead_need(types: &TypeTable, ty: TyId) -> Option<u32> {
    if let Some((w, _)) = scalar_shape(types, ty) {
        return Some(w);
    }
    let fields = &types.structs.get(struct_index(types, ty)?)?.fields;
    fields.iter().try_fold(0u32, |sum, f| {
        let w = match types.get(f.ty) {
            Ty::Varbit { .. } => 0,
            _ => lookahead_need(types, f.ty)?,
        };
        sum.checked_add(w)
    })
}

/// The widest `packet.lookahead<T>()` `e` evaluates (0 for none).
pub fn expr_lookahead_need(types: &TypeTable, e: &ir::Expr) -> u32 {
    let own = if is_lookahead(types, e) {
        lookahead_need(types, e.ty).unwrap_or(0)
    } else {
        0
    };
    e.operands()
        .into_iter()
        .map(|x| expr_lookahead_need(types, x))
        .fold(own, u32::max)
}

/// True if `ty` is core.p4's `packet_in`.
pub fn is_packet_in(types: &TypeTable, ty: TyId) -> bool {
    matches!(types.get(ty), Ty::Extern { name, .. } if name == "packet_in")
}

/// True if `ty` is core.p4's `packet_out`.
pub fn is_packet_out(types: &TypeTable, ty: TyId) -> bool {
    matches!(types.get(ty), Ty::Extern { name, .. } if name == "packet_out")
}

/// The widest `lookahead` in `n` (bits), so that a statement can check the
/// packet is long enough before it runs.
pub fn lookahead_bits(n: &Node) -> u32 {
    match n {
        Node::Lookahead { need, .. } => *need,
        Node::Unary(_, a)
        | Node::Cast { inner: a, .. }
        | Node::Slice { inner: a, .. }
        | Node::Narrow(a) => lookahead_bits(a),
        Node::Binary(_, a, b)
        | Node::PartSelect {
            inner: a, start: b, ..
        } => lookahead_bits(a).max(lookahead_bits(b)),
        Node::PartSplice {
            whole,
            start,
            value,
            ..
        } => lookahead_bits(whole)
            .max(lookahead_bits(start))
            .max(lookahead_bits(value)),
        Node::Ternary(c, a, b) => lookahead_bits(c)
            .max(lookahead_bits(a))
            .max(lookahead_bits(b)),
        Node::Load { place, .. } | Node::Valid(place) => place_lookahead_bits(place),
        Node::Equal { .. }
        | Node::Const(_)
        | Node::LoadFixed { .. }
        | Node::PacketLength
        | Node::TableHit(_)
        | Node::TableMiss(_)
        | Node::ActionRun(_) => 0,
    }
}

/// The lowest bit of a part-select `[start +: width]` (`up`) or
/// `[start -: width]`, possibly negative; `i64::MAX` for a start past any
/// value's width.
fn part_low(start: &Bits, width: u32, up: bool) -> i64 {
    match start.to_u64().and_then(|s| i64::try_from(s).ok()) {
        Some(s) if up => s,
        Some(s) => s - (i64::from(width) - 1),
        None => i64::MAX,
    }
}

/// [`part_low`] of a start of at most 64 bits.
#[inline]
fn part_low_word(start: Word, width: u32, up: bool) -> i64 {
    let s = i64::try_from(start.v).unwrap_or(i64::MAX);
    if up {
        s
    } else {
        s.saturating_sub(i64::from(width) - 1)
    }
}

/// Bits `lo .. lo + width` of `x` as a `bit<width>`; bits outside `x` are 0.
fn part_get(x: &Bits, lo: i64, width: u32) -> Bits {
    let n = x.width();
    if lo >= i64::from(n) || lo <= -i64::from(width) {
        return Bits::zero(width, false);
    }
    let wide = x.cast(n, false).cast(n + width, false);
    let moved = if lo >= 0 {
        wide.shr(lo as u64)
    } else {
        wide.shl(lo.unsigned_abs())
    };
    moved.slice(width - 1, 0)
}

/// `x` with bits `lo .. lo + width` replaced by the low bits of `v`; bits
/// of the range outside `x` are dropped.
fn part_set(x: &Bits, lo: i64, width: u32, v: &Bits) -> Bits {
    let n = x.width();
    if lo >= i64::from(n) || lo <= -i64::from(width) {
        return x.clone();
    }
    let wide = n + width;
    let ones = Bits::ones(width, false).cast(wide, false);
    let value = v.cast(width, false).cast(wide, false);
    let (mask, value) = if lo >= 0 {
        (ones.shl(lo as u64), value.shl(lo as u64))
    } else {
        (ones.shr(lo.unsigned_abs()), value.shr(lo.unsigned_abs()))
    };
    let (mask, value) = (mask.cast(n, false), value.cast(n, false));
    let kept = x.cast(n, false).and(&mask.not());
    kept.or(&value.and(&mask)).cast(n, x.is_signed())
}

/// [`part_get`] on a value of `n <= 64` bits (`x` its pattern).
#[inline]
fn part_get_word(x: u64, n: u32, lo: i64, width: u32) -> u64 {
    if lo >= i64::from(n) || lo <= -i64::from(width) {
        return 0;
    }
    let x = u128::from(x & low_mask(n));
    let moved = if lo >= 0 {
        x >> lo
    } else {
        x << lo.unsigned_abs()
    };
    (moved as u64) & low_mask(width)
}

/// [`part_set`] on a value of `n <= 64` bits (`x` its pattern).
#[inline]
fn part_set_word(x: u64, n: u32, lo: i64, width: u32, v: u64) -> u64 {
    if lo >= i64::from(n) || lo <= -i64::from(width) {
        return x;
    }
    let ones = u128::from(low_mask(width));
    let v = u128::from(v) & ones;
    let (mask, v) = if lo >= 0 {
        (ones << lo, v << lo)
    } else {
        (ones >> lo.unsigned_abs(), v >> lo.unsigned_abs())
    };
    let (mask, v) = (mask as u64 & low_mask(n), v as u64 & low_mask(n));
    (x & !mask) | (v & mask)
}

/// The low `w` bits set (`w <= 64`).
#[inline]
fn low_mask(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// The widest `lookahead` in the run-time indexes of `p`.
pub fn place_lookahead_bits(p: &Place) -> u32 {
    match p {
        Place::Indexed { index, .. } => lookahead_bits(index),
        Place::IndexedIn { outer, index, .. } => {
            place_lookahead_bits(outer).max(lookahead_bits(index))
        }
        Place::Fixed { .. } | Place::StackNext { .. } => 0,
    }
}

/// `(width, signed)` of a scalar type's storage and values.
pub fn scalar_shape(types: &TypeTable, ty: TyId) -> Option<(u32, bool)> {
    match types.get(ty) {
        Ty::Bits { width, signed } => Some((*width, *signed)),
        Ty::Bool => Some((1, false)),
        Ty::Error | Ty::MatchKind => Some((32, false)),
        Ty::Enum(_) => match types.underlying(ty) {
            Some(repr) => scalar_shape(types, repr),
            None => Some((32, false)),
        },
        Ty::NewType { of, .. } => scalar_shape(types, *of),
        _ => None,
    }
}

/// A compile-time value as [`Bits`] of the shape of `ty`. An `int`
/// constant (left so by the front end only where no width applies, such as
/// a shift amount) becomes unsigned and just wide enough.
pub fn constant(types: &TypeTable, ty: TyId, v: &Value) -> Option<Bits> {
    let (width, signed) = match (types.get(ty), v) {
        (Ty::InfInt, Value::Int(i)) if i.sign() != num_bigint::Sign::Minus => {
            ((i.bits() as u32).max(1), false)
        }
        _ => scalar_shape(types, ty)?,
    };
    Some(match v {
        Value::Bool(b) => Bits::from_bool(*b),
        Value::Error(i) | Value::Enum(i) | Value::MatchKind(i) => {
            Bits::from_u64(width, signed, *i as u64)
        }
        Value::Int(i) => {
            // Two's complement of the value at the type's width.
            let modulus = num_bigint::BigInt::from(1) << width as usize;
            let mut r = i % &modulus;
            if r.sign() == num_bigint::Sign::Minus {
                r += &modulus;
            }
            let (_, words) = r.to_u64_digits();
            Bits::from_words_le(width, signed, &words)
        }
        Value::Str(_) | Value::List(_) => return None,
    })
}

/// Compiles expressions of one frame: its variables' byte offsets in the arena.
pub struct Compiler<'a> {
    pub program: &'a ir::Program,
    pub layouts: Layouts<'a>,
    /// Arena byte offset of each variable of the frame.
    pub vars: HashMap<ir::VarId, u32>,
    /// The runtime slot of each table this frame applies.
    pub tables: HashMap<ir::TableId, u32>,
    /// The runtime slot of each value set this frame's parser selects on
    /// (value sets are kept as tables whose entries are the members).
    pub value_sets: HashMap<ir::ValueSetId, u32>,
    /// The architecture's extern ids; without one, extern calls do not compile.
    pub externs: Option<&'a dyn crate::externs::ExternResolver>,
    /// While compiling a function body: where `return e` puts its value.
    pub return_place: Option<Place>,
    /// Where this frame sits in the instance tree, so that nested
    /// `inst.apply(...)` calls can be compiled against the child's frame.
    pub instances: Option<InstanceCtx<'a>>,
    /// Parameters that name an extern, parser or control instance at the
    /// call site being compiled (see [`crate::bind`]).
    pub bound: crate::bind::Bindings,
}

/// The instance tree, for compiling nested applies.
#[derive(Clone)]
pub struct InstanceCtx<'a> {
    pub plan: &'a crate::plan::StoragePlan,
    /// The control-plane path of the instance being compiled.
    pub path: String,
    /// Table slots by (instance path, table).
    pub table_slots: &'a HashMap<(String, ir::TableId), u32>,
    /// Value-set slots by (instance path, value set).
    pub value_set_slots: &'a HashMap<(String, ir::ValueSetId), u32>,
}

impl InstanceCtx<'_> {
    /// Points `c` at the tables and value sets of the instance at `path`.
    pub fn bind_slots(&self, c: &mut Compiler<'_>, path: &str) {
        c.tables = self
            .table_slots
            .iter()
            .filter(|((p, _), _)| p == path)
            .map(|((_, t), s)| (*t, *s))
            .collect();
        c.value_sets = self
            .value_set_slots
            .iter()
            .filter(|((p, _), _)| p == path)
            .map(|((_, v), s)| (*v, *s))
            .collect();
    }
}

impl<'a> Compiler<'a> {
    pub fn new(program: &'a ir::Program, vars: HashMap<ir::VarId, u32>) -> Compiler<'a> {
        Compiler {
            program,
            layouts: Layouts::new(&program.types),
            vars,
            tables: HashMap::new(),
            value_sets: HashMap::new(),
            externs: None,
            return_place: None,
            instances: None,
            bound: crate::bind::Bindings::new(),
        }
    }

    fn types(&self) -> &'a TypeTable {
        &self.program.types
    }

    /// Whether `e` is a struct stored inside a header (a header field, or
    /// a field of such a struct): its members are packed as on the wire,
    /// not laid out as a struct of its own.
    pub fn in_header(&mut self, e: &ir::Expr) -> Result<bool, CompileError> {
        let ExprKind::Field(base, _) = &e.kind else {
            return Ok(false);
        };
        if self.types().struct_info(e.ty).is_none() {
            return Ok(false);
        }
        Ok(match self.layouts.layout(base.ty)?.kind {
            LayoutKind::Header { .. } => true,
            LayoutKind::Struct { .. } => self.in_header(base)?,
            _ => false,
        })
    }

    /// The place an l-value (or any stored value) denotes; an error names
    /// the expression's place in the program.
    pub fn place(&mut self, e: &ir::Expr) -> Result<Place, CompileError> {
        self.place_of(e).map_err(|err| err.at(self.program, e.span))
    }

    fn place_of(&mut self, e: &ir::Expr) -> Result<Place, CompileError> {
        match &e.kind {
            ExprKind::Var(v) => {
                let byte = self
                    .vars
                    .get(v)
                    .ok_or_else(|| CompileError::NoStorage(self.program.var(*v).name.clone()))?;
                Ok(Place::Fixed {
                    bit: byte * 8,
                    ty: e.ty,
                })
            }
            ExprKind::Field(base, idx) if self.in_header(base)? => {
                // A struct inside a header is packed as on the wire.
                let base_place = self.place(base)?;
                let info = self
                    .types()
                    .struct_info(base.ty)
                    .ok_or(CompileError::Unsupported("a field of a non-struct value"))?;
                let mut offset = 0u32;
                for f in &info.fields[..*idx as usize] {
                    offset += self
                        .types()
                        .size_in_bits(f.ty)
                        .ok_or(CompileError::Unsupported("this field inside a header"))?
                        as u32;
                }
                Ok(base_place.part(offset, e.ty))
            }
            ExprKind::Field(base, idx) => {
                let base_place = self.place(base)?;
                let layout = self.layouts.layout(base.ty)?;
                let offset = match &layout.kind {
                    LayoutKind::Header { fields, .. } | LayoutKind::Struct { fields } => {
                        fields[*idx as usize].bit_offset
                    }
                    LayoutKind::Union { members } => members[*idx as usize].bit_offset,
                    _ => return Err(CompileError::Unsupported("a field of a non-struct value")),
                };
                Ok(base_place.part(offset, e.ty))
            }
            // `x[hi:lo]` as an l-value: bits `hi..=lo` of `x`, stored most
            // significant bit first.
            ExprKind::Slice(inner, hi, _) => {
                let (width, _) = scalar_shape(self.types(), inner.ty)
                    .ok_or(CompileError::Unsupported("a slice of a composite value"))?;
                let offset = width
                    .checked_sub(hi + 1)
                    .ok_or(CompileError::Unsupported("a slice past the value's width"))?;
                Ok(self.place(inner)?.part(offset, e.ty))
            }
            ExprKind::Index(base, index) => {
                let base_place = self.place(base)?;
                let layout = self.layouts.layout(base.ty)?.kind;
                if let (LayoutKind::Struct { fields }, ExprKind::Const(Value::Int(i))) =
                    (&layout, &index.kind)
                {
                    // `t[i]` of a tuple: its member i.
                    let slot = usize::try_from(i)
                        .ok()
                        .and_then(|i| fields.get(i))
                        .ok_or(CompileError::Unsupported("a tuple index out of range"))?;
                    return Ok(base_place.part(slot.bit_offset, e.ty));
                }
                let LayoutKind::Stack { stride, size, .. } = layout else {
                    return Err(CompileError::Unsupported("indexing a tuple at run time"));
                };
                let index = self.node(index)?;
                if let Node::Const(i) = &index {
                    let i = i
                        .to_u64()
                        .filter(|i| *i < size as u64)
                        .unwrap_or(size as u64) as u32;
                    if i < size {
                        return Ok(base_place.part(i * stride, e.ty));
                    }
                }
                match base_place {
                    Place::Fixed { bit, .. } => Ok(Place::Indexed {
                        base: bit,
                        stride,
                        size,
                        index: Box::new(index),
                        offset: 0,
                        ty: e.ty,
                    }),
                    outer => Ok(Place::IndexedIn {
                        outer: Box::new(outer),
                        stride,
                        size,
                        index: Box::new(index),
                        offset: 0,
                        ty: e.ty,
                    }),
                }
            }
            ExprKind::StackNext(stack) | ExprKind::StackLast(stack) => {
                let Place::Fixed { bit, .. } = self.place(stack)? else {
                    return Err(CompileError::Unsupported(
                        "next/last of a run-time indexed stack",
                    ));
                };
                let LayoutKind::Stack {
                    stride,
                    size,
                    next_index_bit_offset,
                    ..
                } = self.layouts.layout(stack.ty)?.kind
                else {
                    return Err(CompileError::Unsupported("next/last of a non-stack"));
                };
                Ok(Place::StackNext {
                    base: bit,
                    stride,
                    size,
                    next_index_byte: (bit + next_index_bit_offset) / 8,
                    last: matches!(e.kind, ExprKind::StackLast(_)),
                    offset: 0,
                    ty: e.ty,
                })
            }
            _ => Err(CompileError::Unsupported("this expression as a place")),
        }
    }

    /// Compiles a scalar expression.
    pub fn node(&mut self, e: &ir::Expr) -> Result<Node, CompileError> {
        Ok(self.node_tree(e)?.narrowed())
    }

    /// [`Compiler::node`] before narrowing; an error names the innermost
    /// expression it comes from.
    fn node_tree(&mut self, e: &ir::Expr) -> Result<Node, CompileError> {
        self.node_of(e).map_err(|err| err.at(self.program, e.span))
    }

    fn node_of(&mut self, e: &ir::Expr) -> Result<Node, CompileError> {
        let types = self.types();
        match &e.kind {
            ExprKind::Const(v) => constant(types, e.ty, v)
                .map(Node::Const)
                .ok_or(CompileError::Unsupported("a composite constant")),
            ExprKind::Field(base, idx) if is_lookahead(types, base) && is_header(types, base.ty) => {
                // A field of `packet.lookahead<H>()` for a header type H.
                let LayoutKind::Header {
                    fields,
                    wire_bits,
                    varbit_len_bit_offset,
                    ..
                } = self.layouts.layout(base.ty)?.kind
                else {
                    return Err(CompileError::Unsupported(
                        "a field of a non-header lookahead",
                    ));
                };
                let (width, signed) = scalar_shape(types, e.ty).ok_or(
                    CompileError::Unsupported("a composite field of a lookahead"),
                )?;
                // A varbit in a looked-ahead header counts as empty.
                let varbit_max: u32 = match varbit_len_bit_offset {
                    Some(_) => fields
                        .iter()
                        .filter_map(|f| match types.get(f.ty) {
                            Ty::Varbit { max } => Some(*max),
                            _ => None,
                        })
                        .sum(),
                    None => 0,
                };
                Ok(Node::Lookahead {
                    offset: fields[*idx as usize].bit_offset,
                    width,
                    signed,
                    need: wire_bits - varbit_max,
                })
            }
            ExprKind::Field(..) if lookahead_root(types, e).is_some() => {
                lookahead_member(types, e).ok_or(CompileError::Unsupported(
                    "this member of a lookahead (only scalars in structs and headers without varbits)",
                ))
            }
            ExprKind::Var(_)
            | ExprKind::Field(..)
            | ExprKind::Index(..)
            | ExprKind::StackNext(_)
            | ExprKind::StackLast(_) => {
                let (width, signed) = scalar_shape(types, e.ty)
                    .ok_or(CompileError::Unsupported("a composite value as a scalar"))?;
                Ok(match self.place(e)? {
                    Place::Fixed { bit, .. } => Node::LoadFixed { bit, width, signed },
                    place => Node::Load {
                        place: Box::new(place),
                        width,
                        signed,
                    },
                })
            }
            ExprKind::Unary(op, a) => Ok(Node::Unary(*op, Box::new(self.node_tree(a)?))),
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b)
                if scalar_shape(types, a.ty).is_none() && (is_literal(a) || is_literal(b)) =>
            {
                // A struct or tuple against a literal: member by member.
                let tys = member_types(types, a.ty)
                    .ok_or(CompileError::Unsupported("comparing this literal"))?;
                let (pa, pb) = (members(types, a, &tys), members(types, b, &tys));
                let mut all: Option<ir::Expr> = None;
                for (x, y) in pa.into_iter().zip(pb) {
                    let eq = ir::Expr {
                        ty: TypeTable::BOOL,
                        kind: ExprKind::Binary(BinOp::Eq, Box::new(x), Box::new(y)),
                        span: e.span,
                    };
                    all = Some(match all {
                        None => eq,
                        Some(prev) => ir::Expr {
                            ty: TypeTable::BOOL,
                            kind: ExprKind::Binary(BinOp::And, Box::new(prev), Box::new(eq)),
                            span: e.span,
                        },
                    });
                }
                let all = all.unwrap_or(ir::Expr {
                    ty: TypeTable::BOOL,
                    kind: ExprKind::Const(Value::Bool(true)),
                    span: e.span,
                });
                let node = self.node_tree(&all)?;
                Ok(if *op == BinOp::Eq {
                    node
                } else {
                    Node::Unary(UnOp::Not, Box::new(node))
                })
            }
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b)
                if scalar_shape(types, a.ty).is_none() =>
            {
                let eq = self.composite_eq(a, b)?;
                Ok(if *op == BinOp::Eq {
                    eq
                } else {
                    Node::Unary(UnOp::Not, Box::new(eq))
                })
            }
            ExprKind::Binary(op, a, b) => Ok(Node::Binary(
                *op,
                Box::new(self.node_tree(a)?),
                Box::new(self.node_tree(b)?),
            )),
            ExprKind::Ternary(c, a, b) => Ok(Node::Ternary(
                Box::new(self.node_tree(c)?),
                Box::new(self.node_tree(a)?),
                Box::new(self.node_tree(b)?),
            )),
            ExprKind::Cast(inner) => {
                let (to_width, to_signed) = scalar_shape(types, e.ty)
                    .ok_or(CompileError::Unsupported("a cast to a composite type"))?;
                let inner = self.node_tree(inner)?;
                Ok(Node::Cast {
                    to_width,
                    to_signed,
                    inner: Box::new(inner),
                })
            }
            ExprKind::Slice(inner, hi, lo) => Ok(Node::Slice {
                hi: *hi,
                lo: *lo,
                inner: Box::new(self.node_tree(inner)?),
            }),
            ExprKind::PartSelect {
                base,
                start,
                width,
                up,
            } => Ok(Node::PartSelect {
                inner: Box::new(self.node_tree(base)?),
                start: Box::new(self.node_tree(start)?),
                width: *width,
                up: *up,
            }),
            ExprKind::Call(
                ir::Callee::Builtin {
                    receiver,
                    method: ir::BuiltinMethod::IsValid,
                },
                _,
            ) => self.validity(receiver),
            ExprKind::Call(ir::Callee::ExternMethod { receiver, name, .. }, _)
                if is_packet_in(types, receiver.ty) =>
            {
                match name.as_str() {
                    "lookahead" => {
                        let (width, signed) = scalar_shape(types, e.ty)
                            .ok_or(CompileError::Unsupported("lookahead of a composite type"))?;
                        Ok(Node::Lookahead {
                            offset: 0,
                            width,
                            signed,
                            need: width,
                        })
                    }
                    "length" => Ok(Node::PacketLength),
                    _ => Err(CompileError::Unsupported(
                        "this packet_in method in an expression",
                    )),
                }
            }
            // `nextIndex - 1` as bit<32> (all ones on an empty stack).
            ExprKind::StackLastIndex(stack) => {
                let Place::Fixed { bit, .. } = self.place(stack)? else {
                    return Err(CompileError::Unsupported(
                        "lastIndex of a run-time indexed stack",
                    ));
                };
                let LayoutKind::Stack {
                    next_index_bit_offset,
                    ..
                } = self.layouts.layout(stack.ty)?.kind
                else {
                    return Err(CompileError::Unsupported("lastIndex of a non-stack"));
                };
                let next = Node::Load {
                    place: Box::new(Place::Fixed {
                        bit: bit + next_index_bit_offset,
                        ty: e.ty,
                    }),
                    width: 32,
                    signed: false,
                };
                Ok(Node::Binary(
                    BinOp::Sub,
                    Box::new(next),
                    Box::new(Node::Const(Bits::from_u64(32, false, 1))),
                ))
            }
            ExprKind::TableHit(call) => Ok(Node::TableHit(self.table_slot(call)?)),
            ExprKind::TableMiss(call) => Ok(Node::TableMiss(self.table_slot(call)?)),
            ExprKind::ActionRun(call) => Ok(Node::ActionRun(self.table_slot(call)?)),
            other => Err(CompileError::Unsupported(unsupported_kind(other))),
        }
    }

    /// The slot of the table a `t.apply()` call applies.
    pub fn table_slot(&self, call: &ir::Expr) -> Result<u32, CompileError> {
        match &call.kind {
            ExprKind::Call(ir::Callee::TableApply(t), _) => self
                .tables
                .get(t)
                .copied()
                .ok_or(CompileError::Unsupported("a table without a runtime slot")),
            _ => Err(CompileError::Unsupported(
                "a table result of something other than apply",
            )),
        }
    }

    /// `a == b` for composite values: `x == {#}` tests invalidity; otherwise
    /// the parts are compared as P4 defines equality.
    fn composite_eq(&mut self, a: &ir::Expr, b: &ir::Expr) -> Result<Node, CompileError> {
        let (a, b) = if matches!(a.kind, ExprKind::InvalidHeader) {
            (b, a)
        } else {
            (a, b)
        };
        if matches!(b.kind, ExprKind::InvalidHeader) {
            let valid = self.validity(a)?;
            return Ok(Node::Unary(UnOp::Not, Box::new(valid)));
        }
        let mut units = Vec::new();
        match self.varbit_field(a)? {
            Some((max, len)) => units.push(EqUnit::Varbit { max, len }),
            None => self.eq_units(a.ty, 0, &mut units)?,
        }
        Ok(Node::Equal {
            a: Box::new(self.place(a)?),
            b: Box::new(self.place(b)?),
            units,
        })
    }

    /// For a varbit field of a header: its maximum and where its current
    /// length is, in bits from the field's start.
    fn varbit_field(&mut self, e: &ir::Expr) -> Result<Option<(u32, u32)>, CompileError> {
        let (Ty::Varbit { max }, ExprKind::Field(header, idx)) = (self.types().get(e.ty), &e.kind)
        else {
            return Ok(None);
        };
        let LayoutKind::Header {
            fields,
            varbit_len_bit_offset: Some(len),
            ..
        } = self.layouts.layout(header.ty)?.kind
        else {
            return Ok(None);
        };
        let at = fields[*idx as usize].bit_offset;
        Ok(Some((*max, len - at)))
    }

    fn eq_units(&mut self, ty: TyId, at: u32, out: &mut Vec<EqUnit>) -> Result<(), CompileError> {
        if let Some((width, _)) = scalar_shape(&self.program.types, ty) {
            out.push(EqUnit::Scalar { bit: at, width });
            return Ok(());
        }
        match self.layouts.layout(ty)?.kind {
            LayoutKind::Header {
                wire_bits,
                valid_bit_offset,
                ..
            } => out.push(EqUnit::Header {
                bit: at,
                wire_bits,
                valid_bit: valid_bit_offset,
            }),
            LayoutKind::Struct { fields } | LayoutKind::Union { members: fields } => {
                for f in fields {
                    self.eq_units(f.ty, at + f.bit_offset, out)?;
                }
            }
            LayoutKind::Stack {
                elem, size, stride, ..
            } => {
                for i in 0..size {
                    self.eq_units(elem, at + i * stride, out)?;
                }
            }
            LayoutKind::Scalar { .. } | LayoutKind::Varbit { .. } => {
                return Err(CompileError::Unsupported("comparing this type"));
            }
        }
        Ok(())
    }

    /// `h.isValid()`: a header's validity byte, or any member's for a union.
    pub fn validity(&mut self, receiver: &ir::Expr) -> Result<Node, CompileError> {
        let place = self.place(receiver)?;
        match self.layouts.layout(receiver.ty)?.kind {
            LayoutKind::Header {
                valid_bit_offset, ..
            } => Ok(Node::Valid(Box::new(
                place.part(valid_bit_offset, TypeTable::BOOL),
            ))),
            LayoutKind::Union { members } => {
                let mut any: Option<Node> = None;
                for m in members {
                    let LayoutKind::Header {
                        valid_bit_offset, ..
                    } = self.layouts.layout(m.ty)?.kind
                    else {
                        continue;
                    };
                    let v = Node::Valid(Box::new(
                        place
                            .clone()
                            .part(m.bit_offset + valid_bit_offset, TypeTable::BOOL),
                    ));
                    any = Some(match any {
                        None => v,
                        Some(prev) => Node::Binary(BinOp::Or, Box::new(prev), Box::new(v)),
                    });
                }
                Ok(any.unwrap_or(Node::Const(Bits::from_bool(false))))
            }
            _ => Err(CompileError::Unsupported("isValid on this type")),
        }
    }
}

/// What an expression the evaluator does not compile is, for its refusal
/// ("a function call here is not supported by the engine yet").
fn unsupported_kind(kind: &ExprKind) -> &'static str {
    use janus_p4::ir::Callee;
    match kind {
        ExprKind::Call(Callee::Function(_), _) => "a function call here",
        ExprKind::Call(Callee::ExternFunction { .. }, _) => "an extern function call here",
        ExprKind::Call(Callee::ExternMethod { .. }, _) => "an extern method call here",
        ExprKind::Call(Callee::Builtin { .. }, _) => "this built-in method here",
        ExprKind::Call(Callee::Action(_), _) => "an action call here",
        ExprKind::Call(Callee::TableApply(_), _) => "a table apply here",
        ExprKind::Call(Callee::BlockApply(_), _) => "a parser or control apply here",
        ExprKind::List(_) => "a list expression here",
        ExprKind::Mask(..) | ExprKind::Range(..) => "a keyset expression here",
        ExprKind::ValueSet(_) => "a value set here",
        ExprKind::Default | ExprKind::DontCare => "`default` or `_` here",
        ExprKind::Instance(_) => "an instance used as a value",
        _ => "this expression",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::StoragePlan;
    use crate::test_support::{path_expr, program};

    const PROGRAM: &str = r#"
        #include <core.p4>
        header h_t { bit<4> ver; bit<4> ihl; bit<8> ttl; bit<16> len; }
        header_union u_t { h_t a; h_t b; }
        struct s_t { h_t h; h_t[3] stk; u_t u; bit<9> port; int<8> sv; bool f; }
        enum bit<8> Proto { TCP = 6, UDP = 17 }
        control C(inout s_t s, out bit<32> r0, out bit<16> r1, out bool r2, out int<8> r3,
                  out bit<8> r4, out bool r5, out bit<8> r6, out bit<9> r7, out bit<128> r8) {
            apply {
                r0 = s.h.ttl ++ s.h.len ++ 8w1;
                r1 = s.h.len |+| 16w0xFFF0;
                r2 = s.h.isValid() && s.f;
                r3 = s.sv >> 1;
                r4 = s.stk[s.h.ver].ttl;
                r5 = s.u.isValid();
                r6 = (bit<8>)Proto.UDP + (s.f ? 8w100 : 8w200);
                r7 = (bit<9>)s.h.ttl[7:4] - 1;
                r8 = (bit<128>)s.h.len << 100;
            }
        }
    "#;

    struct Setup {
        program: ir::Program,
        vars: HashMap<ir::VarId, u32>,
        arena: Vec<u8>,
    }

    fn setup() -> Setup {
        let program = program(PROGRAM);
        let plan = StoragePlan::new(&program).expect("plan");
        let frame = plan.instance_frame("C").expect("frame");
        let vars = frame
            .vars
            .iter()
            .map(|(v, off)| (*v, frame.base + off))
            .collect();
        let arena = vec![0u8; plan.arena_bytes as usize];
        Setup {
            program,
            vars,
            arena,
        }
    }

    fn set(s: &mut Setup, path: &[&str], v: Bits) {
        let mut c = Compiler::new(&s.program, s.vars.clone());
        let place = c.place(&path_expr(&s.program, "s", path)).expect("place");
        let bit = place
            .resolve(&Env::new(&mut s.arena.clone()))
            .expect("in bounds");
        v.write_bits(&mut s.arena, bit as usize);
    }

    fn set_valid(s: &mut Setup, path: &[&str]) {
        let mut c = Compiler::new(&s.program, s.vars.clone());
        let e = path_expr(&s.program, "s", path);
        let place = c.place(&e).expect("place");
        let LayoutKind::Header {
            valid_bit_offset, ..
        } = c.layouts.layout(e.ty).unwrap().kind
        else {
            panic!()
        };
        let bit = place.resolve(&Env::new(&mut s.arena.clone())).unwrap() + valid_bit_offset;
        s.arena[bit as usize / 8] = 1;
    }

    /// Evaluates the right-hand side of each assignment of C's apply block.
    fn results(s: &Setup) -> Vec<Bits> {
        let block = s.program.blocks.iter().find(|b| b.name == "C").expect("C");
        let mut c = Compiler::new(&s.program, s.vars.clone());
        block
            .apply
            .iter()
            .map(|st| match &st.kind {
                ir::StmtKind::Assign(_, rhs) => {
                    let mut arena = s.arena.clone();
                    c.node(rhs).expect("compiles").eval(&Env::new(&mut arena))
                }
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn evaluates_fields_operators_and_validity() {
        let mut s = setup();
        set(&mut s, &["h", "ver"], Bits::from_u64(4, false, 2));
        set(&mut s, &["h", "ttl"], Bits::from_u64(8, false, 0xA7));
        set(&mut s, &["h", "len"], Bits::from_u64(16, false, 0x1234));
        set(&mut s, &["sv"], Bits::from_i64(8, true, -7));
        set(&mut s, &["stk", "2", "ttl"], Bits::from_u64(8, false, 99));
        set(&mut s, &["f"], Bits::from_bool(true));
        let r = results(&s);
        assert_eq!(r[0], Bits::from_u64(32, false, 0xA712_3401));
        assert_eq!(r[1], Bits::from_u64(16, false, 0xFFFF), "saturates");
        assert_eq!(r[2], Bits::from_bool(false), "header not valid yet");
        assert_eq!(r[3], Bits::from_i64(8, true, -4), "arithmetic shift");
        assert_eq!(r[4], Bits::from_u64(8, false, 99), "run-time stack index");
        assert_eq!(r[5], Bits::from_bool(false));
        assert_eq!(r[6], Bits::from_u64(8, false, 117));
        assert_eq!(r[7], Bits::from_u64(9, false, 9));
        assert_eq!(r[8], Bits::from_words_le(128, false, &[0, 0x1234u64 << 36]));

        set_valid(&mut s, &["h"]);
        set_valid(&mut s, &["u", "b"]);
        set(&mut s, &["h", "ver"], Bits::from_u64(4, false, 7));
        let r = results(&s);
        assert_eq!(r[2], Bits::from_bool(true));
        assert_eq!(
            r[5],
            Bits::from_bool(true),
            "a union is valid when a member is"
        );
        assert_eq!(
            r[4],
            Bits::from_u64(8, false, 0),
            "index 7 is past the stack's end"
        );
    }

    #[test]
    fn constants_take_their_type_shape() {
        let mut t = TypeTable::new();
        let i8t = t.bits(8, true);
        let b3 = t.bits(3, false);
        assert_eq!(
            constant(&t, i8t, &Value::Int((-1).into())),
            Some(Bits::from_i64(8, true, -1))
        );
        assert_eq!(
            constant(&t, b3, &Value::Int(13.into())),
            Some(Bits::from_u64(3, false, 5))
        );
        assert_eq!(
            constant(&t, TypeTable::BOOL, &Value::Bool(true)),
            Some(Bits::from_bool(true))
        );
        assert_eq!(
            constant(&t, TypeTable::ERROR, &Value::Error(3)),
            Some(Bits::from_u64(32, false, 3))
        );
    }
}
