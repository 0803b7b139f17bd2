//! The compiled tier against the interpreter: random blocks of the ops it
//! compiles (word stores and moves, stores of narrow expressions, header
//! validity, copies and clears, specialised tests, branches on tests and
//! on expressions, action calls with copies, `exit` and `return`, extern
//! calls with their first argument computed inline), mixed with ops it
//! leaves to the interpreter (a parser's `Require` that rejects, a loop,
//! fields whose load leaves the arena, a division), over random arenas:
//! the same flow, the same arena, the same length change and the same
//! extern calls with the same arguments after.

use janus_engine::env::Env;
use janus_engine::eval::{Node, Place};
use janus_engine::exec::{self, Cmp, Op, Test};
use janus_engine::externs::{ExternArg, ExternHandler};
use janus_engine::flow::Flow;
use janus_engine::value::{Bits, FieldWord};
use janus_jit::{Block, Tier};
use janus_p4::ir::{BinOp, UnOp};
use janus_p4::types::TyId;
use proptest::prelude::*;

const ARENA: usize = 48;

fn field() -> impl Strategy<Value = FieldWord> {
    (0u32..(ARENA as u32 * 8), 1u32..=64).prop_map(|(bit, w)| FieldWord::new(bit, w))
}

/// Two fields of one width.
fn field_pair() -> impl Strategy<Value = (FieldWord, FieldWord)> {
    (
        0u32..(ARENA as u32 * 8),
        0u32..(ARENA as u32 * 8),
        1u32..=64,
    )
        .prop_map(|(a, b, w)| (FieldWord::new(a, w), FieldWord::new(b, w)))
}

fn cmp() -> impl Strategy<Value = Cmp> {
    prop_oneof![
        Just(Cmp::Eq),
        Just(Cmp::Ne),
        Just(Cmp::Lt),
        Just(Cmp::Le),
        Just(Cmp::Gt),
        Just(Cmp::Ge),
    ]
}

/// A constant: often one a field holds, a shift amount near the edge, or
/// all ones.
fn konst() -> impl Strategy<Value = u64> {
    prop_oneof![3 => 0u64..3, 1 => 62u64..=65, 1 => Just(u64::MAX), 1 => any::<u64>()]
}

fn test() -> impl Strategy<Value = Test> {
    let leaf = prop_oneof![
        (0u32..ARENA as u32, any::<bool>()).prop_map(|(byte, valid)| Test::Valid { byte, valid }),
        (
            field(),
            prop_oneof![Just(0u64), any::<u64>()],
            cmp(),
            konst()
        )
            .prop_map(|(field, flip, cmp, k)| Test::Compare {
                field,
                flip,
                cmp,
                k
            }),
        (field_pair(), any::<bool>(), cmp()).prop_map(|((a, b), flip, cmp)| Test::Fields {
            a,
            b,
            flip: if flip { 1 << (a.width() - 1) } else { 0 },
            cmp
        }),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|t| Test::All(t.into())),
            prop::collection::vec(inner, 0..4).prop_map(|t| Test::Any(t.into())),
        ]
    })
}

/// A narrow expression with its width and signedness.
fn word() -> impl Strategy<Value = (Node, u32, bool)> {
    let leaf = prop_oneof![
        (1u32..=64, any::<bool>(), konst()).prop_map(|(w, s, k)| (
            Node::Const(Bits::from_u64(w, s, k)),
            w,
            s
        )),
        // Mostly fields whose load lies inside the arena (compiled).
        (
            prop_oneof![4 => 0u32..((ARENA as u32 - 9) * 8), 1 => 0u32..(ARENA as u32 * 8)],
            1u32..=64,
            any::<bool>()
        )
            .prop_map(|(bit, w, s)| {
                let w = w.min(ARENA as u32 * 8 - bit);
                (
                    Node::LoadFixed {
                        bit,
                        width: w,
                        signed: s,
                    },
                    w,
                    s,
                )
            }),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        let b = |n: Node| Box::new(n);
        prop_oneof![
            (
                inner.clone(),
                prop_oneof![
                    Just(UnOp::Not),
                    Just(UnOp::BitNot),
                    Just(UnOp::Neg),
                    Just(UnOp::Plus)
                ]
            )
                .prop_map(|((n, _, _), op)| shaped(Node::Unary(op, Box::new(n)))),
            (inner.clone(), inner.clone(), binop())
                .prop_map(move |((x, _, _), (y, _, _), op)| shaped(Node::Binary(op, b(x), b(y)))),
            // A concatenation of at most 64 bits: the low part cut to fit.
            (inner.clone(), inner.clone()).prop_filter_map(
                "too wide",
                move |((x, w, s), (y, v, _))| {
                    (w < 64).then(|| {
                        let low = v.min(64 - w);
                        let y = Node::Slice {
                            hi: low - 1,
                            lo: 0,
                            inner: b(y),
                        };
                        (Node::Binary(BinOp::Concat, b(x), b(y)), w + low, s)
                    })
                }
            ),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(
                move |((c, _, _), (x, w, s), (y, _, _))| {
                    // The branches of one type, as the type checker makes them.
                    let y = Node::Cast {
                        to_width: w,
                        to_signed: s,
                        inner: b(y),
                    };
                    (Node::Ternary(b(c), b(x), b(y)), w, s)
                }
            ),
            (inner.clone(), 1u32..=64, any::<bool>()).prop_map(move |((n, _, _), to, s)| {
                (
                    Node::Cast {
                        to_width: to,
                        to_signed: s,
                        inner: b(n),
                    },
                    to,
                    s,
                )
            }),
            (inner, 0u32..64, 0u32..64).prop_map(move |((n, w, _), a, c)| {
                let (lo, hi) = (a.min(c) % w, a.max(c) % w);
                let (lo, hi) = (lo.min(hi), lo.max(hi));
                (
                    Node::Slice {
                        hi,
                        lo,
                        inner: b(n),
                    },
                    hi - lo + 1,
                    false,
                )
            }),
        ]
    })
}

/// `n` with the width and signedness of its word.
fn shaped(n: Node) -> (Node, u32, bool) {
    let (w, s) = n.word_shape().expect("a narrow node");
    (n, w, s)
}

fn binop() -> impl Strategy<Value = BinOp> {
    prop_oneof![
        Just(BinOp::Add),
        Just(BinOp::Sub),
        Just(BinOp::Mul),
        Just(BinOp::BitAnd),
        Just(BinOp::BitOr),
        Just(BinOp::BitXor),
        Just(BinOp::Shl),
        Just(BinOp::Shr),
        Just(BinOp::Eq),
        Just(BinOp::Ne),
        Just(BinOp::Lt),
        Just(BinOp::Le),
        Just(BinOp::Gt),
        Just(BinOp::Ge),
        Just(BinOp::And),
        Just(BinOp::Or),
        // Left to the interpreter.
        Just(BinOp::Div),
    ]
}

fn leaf_op() -> BoxedStrategy<Op> {
    prop_oneof![
        4 => (field(), konst()).prop_map(|(dst, value)| Op::SetWord { dst, value }),
        3 => field_pair().prop_map(|(dst, src)| Op::MoveWord { dst, src }),
        // A cast: fields of two widths.
        1 => (field(), field()).prop_map(|(dst, src)| Op::MoveWord { dst, src }),
        2 => (field_pair(), konst()).prop_map(|((dst, src), k)| Op::AddWord { dst, src, k }),
        3 => (0u32..(ARENA as u32 * 8), word()).prop_map(|(bit, (value, _, _))| Op::StoreWord { bit, value }),
        2 => (0u32..(ARENA as u32 - 8), 0u32..8, 1u32..8, any::<bool>()).prop_map(|(byte, valid_byte, wire_bytes, valid)| Op::SetValidity {
            header: Place::Fixed { bit: byte * 8, ty: TyId(0) },
            valid_byte,
            wire_bytes,
            valid,
        }),
        // Copies and clears, some overlapping (left to the interpreter).
        2 => (0u32..(ARENA as u32 / 2), 0u32..(ARENA as u32 / 2), 0u32..(ARENA as u32 / 2)).prop_map(|(d, s, n)| Op::Copy {
            dst: Place::Fixed { bit: d * 8, ty: TyId(0) },
            src: Box::new(Place::Fixed { bit: s * 8, ty: TyId(0) }),
            bytes: n,
        }),
        1 => (0u32..(ARENA as u32 / 2), 0u32..(ARENA as u32 / 2)).prop_map(|(d, n)| Op::Zero {
            dst: Place::Fixed { bit: d * 8, ty: TyId(0) },
            bytes: n,
        }),
        1 => Just(Op::Exit),
        1 => Just(Op::Return),
        // Interpreted, with an op the compiled tier has inside it.
        1 => (field(), konst()).prop_map(|(dst, value)| Op::Loop {
            cond: None,
            body: vec![Op::SetWord { dst, value }, Op::Break],
            update: Vec::new(),
        }),
        // Interpreted: rejects, as the packet is empty.
        1 => (1u32..64, 0u32..8).prop_map(|(bits, too_short)| Op::Require { bits, too_short }),
        // Extern calls: a word argument (computed inline when unsigned),
        // none, or a place.
        2 => (0u32..4, word()).prop_map(|(id, (value, _, _))| Op::Extern {
            id,
            args: vec![ExternArg::Value(Node::Narrow(Box::new(value)))],
            result: None,
        }),
        1 => (0u32..4).prop_map(|id| Op::Extern { id, args: Vec::new(), result: None }),
        1 => (0u32..4, 0u32..(ARENA as u32 * 8)).prop_map(|(id, bit)| Op::Extern {
            id,
            args: vec![ExternArg::Place { place: Place::Fixed { bit, ty: TyId(0) }, ty: TyId(0) }],
            result: None,
        }),
    ]
    .boxed()
}

/// Records each call with its first argument's value (`u64::MAX` for
/// none) and its id's flow: 0 and 1 go on, 2 exits, 3 rejects; 1 also
/// writes the arena, so that what runs after sees the call.
#[derive(Default)]
struct Recorder {
    calls: Vec<(u32, u64)>,
}

impl Recorder {
    fn record(&mut self, id: u32, first: u64, env: &mut Env<'_>) -> Flow {
        self.calls.push((id, first));
        match id {
            1 => {
                env.arena[0] = env.arena[0].wrapping_add(first as u8 | 1);
                Flow::Continue
            }
            2 => Flow::Exit,
            3 => Flow::Reject(5),
            _ => Flow::Continue,
        }
    }
}

impl ExternHandler for Recorder {
    fn call(
        &mut self,
        id: u32,
        args: &[ExternArg],
        _result: Option<&Place>,
        env: &mut Env<'_>,
    ) -> Flow {
        let first = match args.first() {
            Some(ExternArg::Value(v)) => v.eval(env).as_u64_truncated(),
            _ => u64::MAX,
        };
        self.record(id, first, env)
    }

    fn call_with_first(
        &mut self,
        id: u32,
        first: u64,
        _args: &[ExternArg],
        _result: Option<&Place>,
        env: &mut Env<'_>,
    ) -> Flow {
        self.record(id, first, env)
    }
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    let op = leaf_op().prop_recursive(4, 48, 6, |inner| {
        let list = prop::collection::vec(inner, 0..5);
        // A branch that leaves a mark: which way a test went shows.
        let marked = (list.clone(), field(), konst())
            .prop_map(|(mut ops, dst, value)| {
                ops.insert(0, Op::SetWord { dst, value });
                ops
            })
            .boxed();
        prop_oneof![
            3 => (test(), marked.clone(), marked.clone()).prop_map(|(t, a, b)| Op::IfTest(Box::new(t), a, b)),
            3 => (word(), marked.clone(), marked).prop_map(|((c, _, _), a, b)| {
                Op::If(Box::new(Node::Narrow(Box::new(c))), a, b)
            }),
            3 => list.clone().prop_map(Op::Seq),
            3 => (list.clone(), list.clone(), list.clone()).prop_map(|(i, b, o)| Op::CallAction {
                copy_in: i.into(),
                body: b,
                copy_out: o.into(),
            }),
            3 => list.clone().prop_map(|body| Op::CallAction {
                copy_in: Box::new([]),
                body,
                copy_out: Box::new([]),
            }),
        ]
    });
    // Leaves at the top too: a recursive strategy puts them deep.
    prop::collection::vec(prop_oneof![2 => leaf_op(), 1 => op], 0..10)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn compiled_blocks_do_what_the_interpreter_does(
        ops in ops(),
        arena in prop::collection::vec(prop_oneof![3 => Just(0u8), 1 => Just(1u8), 1 => Just(0xffu8), 1 => any::<u8>()], ARENA),
    ) {
        let block = Block::new(ops.clone(), ARENA, Tier::Compiled);
        prop_assert!(block.refusal().is_none(), "{:?}", block.refusal());
        let (mut expected, mut got) = (arena.clone(), arena);
        let (mut want_calls, mut got_calls) = (Recorder::default(), Recorder::default());
        let mut env = Env::new(&mut expected);
        env.externs = Some(&mut want_calls);
        let want = (exec::run(&ops, &mut env), env.length_delta);
        let mut env = Env::new(&mut got);
        env.externs = Some(&mut got_calls);
        let flow = (block.run(&mut env), env.length_delta);
        prop_assert_eq!(flow, want);
        prop_assert_eq!(got, expected);
        prop_assert_eq!(got_calls.calls, want_calls.calls);
    }
}

/// The blocks above compile: the property tests machine code, not the
/// interpreter's fallback.
#[test]
fn word_ops_and_tests_compile() {
    let f = FieldWord::new(12, 9);
    let ops = vec![
        Op::SetWord { dst: f, value: 3 },
        Op::IfTest(
            Box::new(Test::Compare {
                field: f,
                flip: 0,
                cmp: Cmp::Eq,
                k: 3,
            }),
            vec![Op::AddWord {
                dst: FieldWord::new(40, 16),
                src: f,
                k: 1,
            }],
            vec![Op::Exit],
        ),
    ];
    let block = Block::new(ops, ARENA, Tier::Compiled);
    assert!(block.is_compiled());
    assert_eq!(block.coverage().compiled, 4);
    assert_eq!(block.coverage().interpreted, 0);
    let mut arena = vec![0u8; ARENA];
    let flow = block.run(&mut Env::new(&mut arena));
    assert_eq!(flow, janus_engine::flow::Flow::Continue);
    assert_eq!(f.read(&arena), 3);
    assert_eq!(FieldWord::new(40, 16).read(&arena), 4);
}
