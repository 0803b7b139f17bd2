//! Expressions compiled for execution: every name and field access resolved
//! at load time to a bit range of the packet arena (see [`crate::plan`]), so
//! evaluating one is loads and arithmetic on [`Bits`], with no lookups.
//!
//! Scalars are what nodes compute: `bit<W>`, `int<W>`, `bool` (as `bit<1>`),
//! enums, `error` and `match_kind` (32-bit indices; serializable enums their
//! value). Composite values (headers, structs, stacks) are handled as
//! [`Place`]s by the statement layer, which copies them as bytes.

use crate::env::Env;
use crate::value::{Bits, SMALL_MAX_WIDTH, Word, read_word};
use janus_p4::ir::{BinOp, UnOp};
use janus_p4::types::TyId;
use std::cmp::Ordering;

mod compile;
mod part;

pub use compile::*;
use part::*;

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

    /// The width and signedness of a node that [`Node::eval_word`] may
    /// evaluate (it and every node inside it have at most 64 bits), as the
    /// word it gives.
    pub fn word_shape(&self) -> Option<(u32, bool)> {
        narrow_shape(self)
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

/// The width of `n` if it and every node inside it have at most 64 bits.
pub(crate) fn narrow_width(n: &Node) -> Option<u32> {
    narrow_shape(n).map(|(width, _)| width)
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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::LayoutKind;
    use crate::plan::StoragePlan;
    use crate::test_support::{path_expr, program};
    use janus_p4::ir::{self, Value};
    use janus_p4::types::TypeTable;
    use std::collections::HashMap;

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
