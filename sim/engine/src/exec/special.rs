//! Specialised ops: the common shapes of statements, recognised once at
//! compile time so that running them needs no place resolution, no
//! [`crate::value::Word`] built from a tree and no shape checks.
//!
//! [`specialise`] rewrites a compiled op list: every rewrite gives the
//! same result as the generic op it replaces (the tests in
//! `exec/tests.rs` run both on the same state).

use super::ops::{ActionImpl, HeaderShape, Op, ParserErrors};
use crate::env::{Env, copy_bits};
use crate::eval::{Node, Place};
use crate::flow::Flow;
use crate::value::FieldWord;
use janus_p4::ir::{BinOp, UnOp};

/// A condition of an `if`, in a form tested without evaluating a node.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    /// The header whose validity byte is `byte` is valid (`valid`) or
    /// invalid (`!valid`).
    Valid { byte: u32, valid: bool },
    /// A field of 1..=64 bits at a fixed place, with `flip` xored in,
    /// compared with `k` (which has `flip` xored in already). `flip` is the
    /// sign bit of an `int<W>` field (so that an unsigned comparison of the
    /// flipped patterns orders them as signed numbers), else 0.
    Compare {
        field: FieldWord,
        flip: u64,
        cmp: Cmp,
        k: u64,
    },
    /// Two fields of one width at fixed places compared, `flip` xored
    /// into both (see [`Test::Compare`]).
    Fields {
        a: FieldWord,
        b: FieldWord,
        flip: u64,
        cmp: Cmp,
    },
    /// Every test holds (`a && b && ...`), tested left to right until one
    /// fails, as `&&` evaluates.
    All(Box<[Test]>),
    /// Some test holds (`a || b || ...`), tested left to right until one
    /// holds.
    Any(Box<[Test]>),
}

/// A comparison of two words, unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// The comparison for `binary op`, if it is one.
    fn of(op: BinOp) -> Option<Cmp> {
        Some(match op {
            BinOp::Eq => Cmp::Eq,
            BinOp::Ne => Cmp::Ne,
            BinOp::Lt => Cmp::Lt,
            BinOp::Le => Cmp::Le,
            BinOp::Gt => Cmp::Gt,
            BinOp::Ge => Cmp::Ge,
            _ => return None,
        })
    }

    /// The comparison with its operands swapped (`a < b` is `b > a`).
    fn mirrored(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
            same => same,
        }
    }

    #[inline]
    fn holds(self, a: u64, b: u64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

impl Test {
    /// Whether the condition holds over the current arena. Always
    /// inlined, into chains too: the recursion of nested chains runs
    /// through [`all_hold`] and [`any_holds`] alone.
    #[inline(always)]
    pub fn holds(&self, env: &Env<'_>) -> bool {
        match *self {
            Test::Valid { byte, valid } => (env.arena[byte as usize] != 0) == valid,
            Test::Compare {
                ref field,
                flip,
                cmp,
                k,
            } => cmp.holds(field.read(env.arena) ^ flip, k),
            Test::Fields {
                ref a,
                ref b,
                flip,
                cmp,
            } => cmp.holds(a.read(env.arena) ^ flip, b.read(env.arena) ^ flip),
            Test::All(ref all) => all_hold(all, env),
            Test::Any(ref any) => any_holds(any, env),
        }
    }

    /// The test of a narrow condition (the node inside [`Node::Narrow`]),
    /// if it has one of the specialised shapes; for an architecture's
    /// externs that take a condition (a checksum's).
    pub fn of_condition(n: &Node) -> Option<Test> {
        Test::of(n)
    }

    /// [`Test::of_condition`].
    fn of(n: &Node) -> Option<Test> {
        match n {
            Node::Valid(place) => Some(Test::Valid {
                byte: fixed_byte(place)?,
                valid: true,
            }),
            Node::Unary(UnOp::Not, inner) => match &**inner {
                Node::Valid(place) => Some(Test::Valid {
                    byte: fixed_byte(place)?,
                    valid: false,
                }),
                Node::LoadFixed { bit, width, .. } => nonzero(*bit, *width, Cmp::Eq),
                _ => None,
            },
            Node::LoadFixed { bit, width, .. } => nonzero(*bit, *width, Cmp::Ne),
            Node::Binary(BinOp::And, ..) => {
                let mut all = Vec::new();
                chain(n, BinOp::And, &mut all)?;
                Some(Test::All(all.into()))
            }
            Node::Binary(BinOp::Or, ..) => {
                let mut any = Vec::new();
                chain(n, BinOp::Or, &mut any)?;
                Some(Test::Any(any.into()))
            }
            Node::Binary(op, a, b) => {
                let cmp = Cmp::of(*op)?;
                compare(a, b, cmp)
                    .or_else(|| compare(b, a, cmp.mirrored()))
                    .or_else(|| fields(a, b, cmp))
            }
            _ => None,
        }
    }
}

/// The tests of a chain of `op` (`&&` or `||`), in evaluation order,
/// appended to `out`; `None` unless every operand has a test.
fn chain(n: &Node, op: BinOp, out: &mut Vec<Test>) -> Option<()> {
    match n {
        Node::Binary(o, a, b) if *o == op => {
            chain(a, op, out)?;
            chain(b, op, out)
        }
        _ => {
            out.push(Test::of(n)?);
            Some(())
        }
    }
}

#[inline(never)]
fn all_hold(all: &[Test], env: &Env<'_>) -> bool {
    all.iter().all(|t| t.holds(env))
}

#[inline(never)]
fn any_holds(any: &[Test], env: &Env<'_>) -> bool {
    any.iter().any(|t| t.holds(env))
}

/// `a cmp b` of two loads of fixed places of one width and signedness
/// (the comparison's order is the left operand's).
fn fields(a: &Node, b: &Node, cmp: Cmp) -> Option<Test> {
    let (
        Node::LoadFixed { bit, width, signed },
        Node::LoadFixed {
            bit: bit_b,
            width: width_b,
            signed: signed_b,
        },
    ) = (a, b)
    else {
        return None;
    };
    if !(1..=64).contains(width) || width != width_b || signed != signed_b {
        return None;
    }
    Some(Test::Fields {
        a: FieldWord::new(*bit, *width),
        b: FieldWord::new(*bit_b, *width),
        flip: if *signed { 1u64 << (width - 1) } else { 0 },
        cmp,
    })
}

/// `field != 0` (`Cmp::Ne`) or `field == 0` (`Cmp::Eq`).
fn nonzero(bit: u32, width: u32, cmp: Cmp) -> Option<Test> {
    (1..=64).contains(&width).then_some(Test::Compare {
        field: FieldWord::new(bit, width),
        flip: 0,
        cmp,
        k: 0,
    })
}

/// `field cmp constant` when `field` is a load of a fixed place and the
/// constant has the field's width. The signedness of `field` (the left
/// operand, whose type the comparison takes) chooses signed order.
fn compare(field: &Node, k: &Node, cmp: Cmp) -> Option<Test> {
    let (Node::LoadFixed { bit, width, signed }, Node::Const(k)) = (field, k) else {
        return None;
    };
    if !(1..=64).contains(width) || k.width() != *width || k.is_signed() != *signed {
        return None;
    }
    let flip = if *signed { 1u64 << (width - 1) } else { 0 };
    Some(Test::Compare {
        field: FieldWord::new(*bit, *width),
        flip,
        cmp,
        k: k.as_u64_truncated() ^ flip,
    })
}

/// The byte of a fixed place on a byte boundary (a header's validity).
fn fixed_byte(place: &Place) -> Option<u32> {
    match place {
        Place::Fixed { bit, .. } => Some(bit / 8),
        _ => None,
    }
}

/// A header without a varbit field at a fixed, byte-aligned place of the
/// arena, as extracted or emitted.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedHeader {
    /// The header's first byte in the arena.
    pub byte: u32,
    /// Its wire size in bits.
    pub bits: u32,
    /// Its validity byte in the arena.
    pub valid: u32,
    /// The error of a packet too short for it (extraction only).
    pub too_short: u32,
}

impl FixedHeader {
    /// The fixed form of a header at `place` of `shape`, if it has one.
    fn of(place: &Place, shape: &HeaderShape, errors: Option<&ParserErrors>) -> Option<Self> {
        let Place::Fixed { bit, .. } = place else {
            return None;
        };
        if shape.varbit.is_some() || !bit.is_multiple_of(8) {
            return None;
        }
        Some(FixedHeader {
            byte: bit / 8,
            bits: shape.wire_bits,
            valid: bit / 8 + shape.valid_byte,
            too_short: errors.map_or(0, |e| e.packet_too_short),
        })
    }

    /// `packet.extract(hdr)`: the header's bits from the cursor into the
    /// arena, the header valid, the cursor past it. A whole number of
    /// bytes at a byte-aligned cursor is one slice copy, its bounds check
    /// the length check (the cursor never passes the packet's end).
    #[inline]
    pub fn extract(&self, env: &mut Env<'_>) -> Flow {
        let (n, c, at) = (self.bits as usize, env.cursor, self.byte as usize);
        if c.is_multiple_of(8) && n.is_multiple_of(8) {
            let Some(bytes) = env.input.get(c / 8..c / 8 + n / 8) else {
                return Flow::Reject(self.too_short);
            };
            env.arena[at..at + n / 8].copy_from_slice(bytes);
        } else {
            if n > env.remaining_bits() {
                return Flow::Reject(self.too_short);
            }
            copy_bits(env.input, c, env.arena, at * 8, n);
        }
        env.cursor = c + n;
        env.arena[self.valid as usize] = 1;
        Flow::Continue
    }

    /// `packet.emit(hdr)`: the header's bits appended to the output if it
    /// is valid.
    #[inline]
    pub fn emit(&self, env: &mut Env<'_>) {
        if env.arena[self.valid as usize] != 0 {
            env.emit_bits(false, self.byte as usize * 8, self.bits as usize);
        }
    }
}

/// Consecutive `packet.emit`s of fixed headers of whole bytes, as one op.
#[derive(Clone, Debug, PartialEq)]
pub struct EmitRun {
    /// The headers, in emit order; each has a whole number of bytes.
    pub headers: Box<[FixedHeader]>,
    /// Their bytes together: the most the run appends.
    pub bytes: u32,
}

impl EmitRun {
    /// Each valid header's bytes appended to the output, in order; the
    /// same as [`FixedHeader::emit`] of each. On a byte-aligned output the
    /// output grows once and each header is one slice append.
    #[inline]
    pub fn emit(&self, env: &mut Env<'_>) {
        let aligned = env.out_bits.is_multiple_of(8)
            && env
                .output
                .as_deref()
                .is_some_and(|out| out.len() == env.out_bits / 8);
        if !aligned {
            self.headers.iter().for_each(|h| h.emit(env));
            return;
        }
        let Some(out) = env.output.as_deref_mut() else {
            return;
        };
        out.reserve(self.bytes as usize);
        for h in &self.headers {
            if env.arena[h.valid as usize] != 0 {
                let at = h.byte as usize;
                out.extend_from_slice(&env.arena[at..at + h.bits as usize / 8]);
            }
        }
        env.out_bits = out.len() * 8;
    }
}

/// Rewrites `ops` into their specialised forms: `Seq` bodies spliced into
/// the list around them (a `Seq` is no scope at run time: its flow is the
/// list's), stores, conditions, extracts and emits of the common shapes
/// as their own ops, nested lists likewise.
pub fn specialise(ops: Vec<Op>) -> Vec<Op> {
    let mut out = Vec::with_capacity(ops.len());
    for op in ops {
        match op {
            Op::Seq(inner) => out.extend(specialise(inner)),
            op => out.push(specialise_op(op)),
        }
    }
    join_emits(out)
}

/// Consecutive [`Op::EmitFixed`]s of whole-byte headers as one
/// [`Op::EmitFixedRun`] (a single one stays as it is).
fn join_emits(ops: Vec<Op>) -> Vec<Op> {
    let whole = |op: &Op| matches!(op, Op::EmitFixed(h) if h.bits.is_multiple_of(8));
    if !ops.windows(2).any(|w| whole(&w[0]) && whole(&w[1])) {
        return ops;
    }
    let mut out: Vec<Op> = Vec::with_capacity(ops.len());
    let mut run: Vec<FixedHeader> = Vec::new();
    for op in ops {
        match op {
            Op::EmitFixed(h) if h.bits.is_multiple_of(8) => run.push(h),
            op => {
                flush_run(&mut run, &mut out);
                out.push(op);
            }
        }
    }
    flush_run(&mut run, &mut out);
    out
}

/// Appends the emits gathered in `run` to `out`, as one op when there are
/// several, and empties `run`.
fn flush_run(run: &mut Vec<FixedHeader>, out: &mut Vec<Op>) {
    match run.len() {
        0 => {}
        1 => out.extend(run.drain(..).map(Op::EmitFixed)),
        _ => {
            let headers: Box<[FixedHeader]> = std::mem::take(run).into();
            let bytes = headers.iter().map(|h| h.bits / 8).sum();
            out.push(Op::EmitFixedRun(EmitRun { headers, bytes }));
        }
    }
}

/// One op in its specialised form (nested lists specialised too).
fn specialise_op(op: Op) -> Op {
    match op {
        Op::Store { place, value } => store(place, value),
        Op::If(cond, a, b) => {
            let (a, b) = (specialise(a), specialise(b));
            match &*cond {
                Node::Narrow(n) => match Test::of(n) {
                    Some(t) => Op::IfTest(Box::new(t), a, b),
                    None => Op::If(cond, a, b),
                },
                _ => Op::If(cond, a, b),
            }
        }
        Op::IfTest(t, a, b) => Op::IfTest(t, specialise(a), specialise(b)),
        Op::Switch {
            subject,
            cases,
            default,
            bodies,
        } => Op::Switch {
            subject,
            cases,
            default,
            bodies: bodies.into_iter().map(specialise).collect(),
        },
        Op::Loop { cond, body, update } => Op::Loop {
            cond,
            body: specialise(body),
            update: specialise(update),
        },
        Op::CallAction {
            copy_in,
            body,
            copy_out,
        } => Op::CallAction {
            copy_in: specialise(copy_in.into()).into(),
            body: specialise(body),
            copy_out: specialise(copy_out.into()).into(),
        },
        Op::SubParser {
            copy_in,
            parser,
            copy_out,
        } => Op::SubParser {
            copy_in: specialise(copy_in),
            parser,
            copy_out: specialise(copy_out),
        },
        Op::ApplyTable {
            slot,
            keys,
            actions,
            key_words,
        } => Op::ApplyTable {
            slot,
            key_words: key_words.or_else(|| fixed_keys(&keys.keys, &keys.selector_keys)),
            keys,
            actions: actions
                .into_iter()
                .map(|a| ActionImpl {
                    copy_in: specialise(a.copy_in),
                    body: specialise(a.body),
                    copy_out: specialise(a.copy_out),
                    ..a
                })
                .collect(),
        },
        Op::Extract {
            header,
            shape,
            varbit_len: None,
            next_index: None,
            errors,
        } => match FixedHeader::of(&header, &shape, Some(&errors)) {
            Some(h) => Op::ExtractFixed(h),
            None => Op::Extract {
                header,
                shape,
                varbit_len: None,
                next_index: None,
                errors,
            },
        },
        Op::Emit { header, shape } => match FixedHeader::of(&header, &shape, None) {
            Some(h) => Op::EmitFixed(h),
            None => Op::Emit { header, shape },
        },
        op => op,
    }
}

/// A table's keys as fields of fixed places read with one word load each
/// ([`Op::ApplyTable`]'s `key_words`): when every key is a load of a fixed
/// place of 1..=64 bits, there are at most [`super::run::INLINE_KEYS`] keys
/// and no selector keys.
fn fixed_keys(keys: &[Node], selector_keys: &[Node]) -> Option<Box<[FieldWord]>> {
    if !selector_keys.is_empty() || keys.len() > super::run::INLINE_KEYS {
        return None;
    }
    keys.iter()
        .map(|k| match k {
            Node::Narrow(n) => match **n {
                Node::LoadFixed { bit, width, .. } if (1..=64).contains(&width) => {
                    Some(FieldWord::new(bit, width))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// A store in its specialised form: a value of at most 64 bits to a fixed
/// place writes its word there (a constant inline, a fixed field copied);
/// a wide field of whole bytes is copied byte for byte.
fn store(place: Box<Place>, value: Node) -> Op {
    let Place::Fixed { bit, ty } = *place else {
        return Op::Store { place, value };
    };
    match value {
        Node::Narrow(n) => match *n {
            Node::Const(k) => Op::SetWord {
                dst: FieldWord::new(bit, k.width()),
                value: k.as_u64_truncated(),
            },
            Node::LoadFixed {
                bit: src, width, ..
            } => Op::MoveWord {
                dst: FieldWord::new(bit, width),
                src: FieldWord::new(src, width),
            },
            n => cast_move(bit, &n)
                .or_else(|| add_word(bit, &n))
                .unwrap_or(Op::StoreWord { bit, value: n }),
        },
        // Zero initialisers are constants outside `Narrow`.
        Node::Const(k) if k.width() <= crate::value::SMALL_MAX_WIDTH => Op::SetWord {
            dst: FieldWord::new(bit, k.width()),
            value: k.as_u64_truncated(),
        },
        // A wide field onto a wide field, whole bytes on byte boundaries:
        // a copy of those bytes.
        Node::LoadFixed {
            bit: src, width, ..
        } if bit.is_multiple_of(8) && src.is_multiple_of(8) && width.is_multiple_of(8) => {
            Op::Copy {
                dst: Place::Fixed { bit, ty },
                src: Box::new(Place::Fixed { bit: src, ty }),
                bytes: width / 8,
            }
        }
        value => Op::Store { place, value },
    }
}

/// `dst = (bit<W>) src` for a field `src` at a fixed place, when the cast
/// keeps the field's low bits or zero-extends it, as [`Op::MoveWord`].
fn cast_move(bit: u32, n: &Node) -> Option<Op> {
    let Node::Cast {
        to_width, inner, ..
    } = n
    else {
        return None;
    };
    let Node::LoadFixed {
        bit: src,
        width,
        signed,
    } = **inner
    else {
        return None;
    };
    let widths = (1..=64).contains(&width) && (1..=64).contains(to_width);
    (widths && (*to_width <= width || !signed)).then(|| Op::MoveWord {
        dst: FieldWord::new(bit, *to_width),
        src: FieldWord::new(src, width),
    })
}

/// `dst = src + k` or `dst = src - k` for a field `src` at a fixed place
/// and a constant `k` of its width, as [`Op::AddWord`].
fn add_word(dst: u32, n: &Node) -> Option<Op> {
    let Node::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) = n else {
        return None;
    };
    let (Node::LoadFixed { bit, width, .. }, Node::Const(k)) = (&**a, &**b) else {
        return None;
    };
    if k.width() != *width {
        return None;
    }
    let k = k.as_u64_truncated();
    Some(Op::AddWord {
        dst: FieldWord::new(dst, *width),
        src: FieldWord::new(*bit, *width),
        k: if *op == BinOp::Sub {
            k.wrapping_neg()
        } else {
            k
        },
    })
}
