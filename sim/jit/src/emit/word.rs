//! Narrow expressions (the nodes inside [`Node::Narrow`]) as machine code:
//! each value a 64-bit register holding the value reduced to its width,
//! with the width and signedness known at load time, every operator as
//! [`janus_engine::value::Word`]'s of the same name.
//!
//! Narrow nodes have no effects and cannot fail, so `&&`, `||` and `?:`
//! evaluate both sides and choose: what the interpreter's short cut skips
//! changes nothing.

use super::{Emitter, fits};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value, types};
use janus_engine::eval::Node;
use janus_engine::value::FieldWord;
use janus_p4::ir::{BinOp, UnOp};

/// A compiled value: the register, its width (1..=64) and signedness.
#[derive(Clone, Copy)]
pub(super) struct W {
    pub v: Value,
    pub width: u32,
    pub signed: bool,
}

/// The width and signedness of `n` (as [`Node::word_shape`] gives them)
/// if every node in it compiles over an arena of `arena_len` bytes.
pub(super) fn shape(n: &Node, arena_len: usize) -> Option<(u32, bool)> {
    compiles(n, arena_len).then(|| n.word_shape()).flatten()
}

/// Whether `n` and every node inside it compile: the operators below, on
/// values of 1..=64 bits, and loads inside the arena.
fn compiles(n: &Node, arena_len: usize) -> bool {
    let ok = |n: &Node| compiles(n, arena_len);
    let sized = n.word_shape().is_some_and(|(width, _)| width >= 1);
    sized
        && match n {
            Node::Const(_) => true,
            Node::LoadFixed { bit, width, .. } => fits(&FieldWord::new(*bit, *width), arena_len),
            Node::Unary(_, a) | Node::Cast { inner: a, .. } => ok(a),
            Node::Binary(BinOp::Div | BinOp::Mod | BinOp::SatAdd | BinOp::SatSub, ..) => false,
            Node::Binary(_, a, b) => ok(a) && ok(b),
            // Both branches of the word the result is.
            Node::Ternary(c, a, b) => ok(c) && ok(a) && ok(b) && a.word_shape() == b.word_shape(),
            Node::Slice { hi, lo, inner } => hi >= lo && ok(inner),
            _ => false,
        }
}

/// The mask of `width` bits (1..=64).
fn mask(width: u32) -> u64 {
    u64::MAX >> (64 - width)
}

impl Emitter<'_> {
    /// The value of a node [`shape`] admitted.
    pub(super) fn word(&mut self, n: &Node) -> W {
        let (width, signed) = n.word_shape().unwrap_or((64, false));
        let v = match n {
            Node::Const(b) => self.b.ins().iconst(types::I64, b.as_u64_truncated() as i64),
            Node::LoadFixed { bit, width, .. } => self.read(&FieldWord::new(*bit, *width)),
            Node::Unary(op, a) => {
                let a = self.word(a);
                match op {
                    UnOp::Not => {
                        let c = self.b.ins().icmp_imm_s(IntCC::Equal, a.v, 0);
                        self.b.ins().uextend(types::I64, c)
                    }
                    UnOp::BitNot => {
                        let x = self.b.ins().bnot(a.v);
                        self.reduce(x, width)
                    }
                    UnOp::Neg => {
                        let x = self.b.ins().ineg(a.v);
                        self.reduce(x, width)
                    }
                    UnOp::Plus => a.v,
                }
            }
            Node::Binary(op, a, b) => {
                let (x, y) = (self.word(a), self.word(b));
                self.binary(*op, x, y)
            }
            Node::Ternary(c, a, b) => {
                let (c, x, y) = (self.word(c), self.word(a), self.word(b));
                self.b.ins().select(c.v, x.v, y.v)
            }
            Node::Cast { inner, .. } => {
                let x = self.word(inner);
                let v = if x.signed { self.sext(x) } else { x.v };
                self.reduce(v, width)
            }
            Node::Slice { lo, inner, .. } => {
                let x = self.word(inner);
                let v = if *lo >= 64 {
                    self.b.ins().iconst(types::I64, 0)
                } else if *lo == 0 {
                    x.v
                } else {
                    self.b.ins().ushr_imm_s(x.v, i64::from(*lo))
                };
                self.reduce(v, width)
            }
            // `shape` admits only the nodes above.
            _ => self.b.ins().iconst(types::I64, 0),
        };
        W { v, width, signed }
    }

    /// `x op y`, as the word operator.
    fn binary(&mut self, op: BinOp, x: W, y: W) -> Value {
        let bool64 = |e: &mut Self, c: Value| e.b.ins().uextend(types::I64, c);
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                let ins = self.b.ins();
                let v = match op {
                    BinOp::Add => ins.iadd(x.v, y.v),
                    BinOp::Sub => ins.isub(x.v, y.v),
                    BinOp::Mul => ins.imul(x.v, y.v),
                    BinOp::BitAnd => ins.band(x.v, y.v),
                    BinOp::BitOr => ins.bor(x.v, y.v),
                    _ => ins.bxor(x.v, y.v),
                };
                self.reduce(v, x.width)
            }
            BinOp::Shl => {
                // An amount of the width or more gives 0.
                let shifted = self.b.ins().ishl(x.v, y.v);
                let shifted = self.reduce(shifted, x.width);
                let out = self.b.ins().icmp_imm_s(
                    IntCC::UnsignedGreaterThanOrEqual,
                    y.v,
                    i64::from(x.width),
                );
                let zero = self.b.ins().iconst(types::I64, 0);
                self.b.ins().select(out, zero, shifted)
            }
            BinOp::Shr if x.signed => {
                // Arithmetic, the amount capped at 63.
                let wide = self.sext(x);
                let cap = self.b.ins().iconst(types::I64, 63);
                let amount = self.b.ins().umin(y.v, cap);
                let v = self.b.ins().sshr(wide, amount);
                self.reduce(v, x.width)
            }
            BinOp::Shr => {
                let shifted = self.b.ins().ushr(x.v, y.v);
                let out = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, y.v, 64);
                let zero = self.b.ins().iconst(types::I64, 0);
                self.b.ins().select(out, zero, shifted)
            }
            BinOp::Concat => {
                let high = if y.width >= 64 {
                    self.b.ins().iconst(types::I64, 0)
                } else {
                    self.b.ins().ishl_imm_s(x.v, i64::from(y.width))
                };
                let v = self.b.ins().bor(high, y.v);
                self.reduce(v, (x.width + y.width).min(64))
            }
            BinOp::Eq | BinOp::Ne => {
                let cc = if op == BinOp::Eq {
                    IntCC::Equal
                } else {
                    IntCC::NotEqual
                };
                let c = self.b.ins().icmp(cc, x.v, y.v);
                bool64(self, c)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (a, b) = if x.signed {
                    (self.sext(x), self.sext(y))
                } else {
                    (x.v, y.v)
                };
                let cc = match (op, x.signed) {
                    (BinOp::Lt, false) => IntCC::UnsignedLessThan,
                    (BinOp::Le, false) => IntCC::UnsignedLessThanOrEqual,
                    (BinOp::Gt, false) => IntCC::UnsignedGreaterThan,
                    (_, false) => IntCC::UnsignedGreaterThanOrEqual,
                    (BinOp::Lt, true) => IntCC::SignedLessThan,
                    (BinOp::Le, true) => IntCC::SignedLessThanOrEqual,
                    (BinOp::Gt, true) => IntCC::SignedGreaterThan,
                    (_, true) => IntCC::SignedGreaterThanOrEqual,
                };
                let c = self.b.ins().icmp(cc, a, b);
                bool64(self, c)
            }
            BinOp::And | BinOp::Or => {
                let (a, b) = (
                    self.b.ins().icmp_imm_s(IntCC::NotEqual, x.v, 0),
                    self.b.ins().icmp_imm_s(IntCC::NotEqual, y.v, 0),
                );
                let c = if op == BinOp::And {
                    self.b.ins().band(a, b)
                } else {
                    self.b.ins().bor(a, b)
                };
                bool64(self, c)
            }
            // `shape` refuses the others.
            BinOp::Div | BinOp::Mod | BinOp::SatAdd | BinOp::SatSub => {
                self.b.ins().iconst(types::I64, 0)
            }
        }
    }

    /// `v` reduced modulo 2^width.
    fn reduce(&mut self, v: Value, width: u32) -> Value {
        if width >= 64 {
            v
        } else {
            self.b.ins().band_imm_s(v, mask(width) as i64)
        }
    }

    /// `x` sign-extended from its width to 64 bits.
    fn sext(&mut self, x: W) -> Value {
        if x.width >= 64 {
            return x.v;
        }
        let up = i64::from(64 - x.width);
        let v = self.b.ins().ishl_imm_s(x.v, up);
        self.b.ins().sshr_imm_s(v, up)
    }
}
