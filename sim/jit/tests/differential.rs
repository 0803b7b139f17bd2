//! The compiled tier against the interpreter: random blocks of the ops it
//! compiles (word stores, specialised tests, branches, action calls with
//! copies, `exit` and `return`), mixed with ops it leaves to the
//! interpreter (a parser's `Require` that rejects, a loop, fields whose
//! load leaves the arena), over random arenas: the same flow and the same
//! arena after.

use janus_engine::env::Env;
use janus_engine::exec::{self, Cmp, Op, Test};
use janus_engine::value::FieldWord;
use janus_jit::{Block, Tier};
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

/// A small constant, often one a field holds.
fn konst() -> impl Strategy<Value = u64> {
    prop_oneof![3 => 0u64..3, 1 => any::<u64>()]
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

fn leaf_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (field(), konst()).prop_map(|(dst, value)| Op::SetWord { dst, value }),
        3 => field_pair().prop_map(|(dst, src)| Op::MoveWord { dst, src }),
        2 => (field_pair(), konst()).prop_map(|((dst, src), k)| Op::AddWord { dst, src, k }),
        1 => Just(Op::Exit),
        1 => Just(Op::Return),
        // Interpreted: rejects, as the packet is empty.
        1 => (1u32..64, 0u32..8).prop_map(|(bits, too_short)| Op::Require { bits, too_short }),
    ]
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
            (test(), marked.clone(), marked).prop_map(|(t, a, b)| Op::IfTest(Box::new(t), a, b)),
            list.clone().prop_map(Op::Seq),
            (list.clone(), list.clone(), list.clone()).prop_map(|(i, b, o)| Op::CallAction {
                copy_in: i.into(),
                body: b,
                copy_out: o.into(),
            }),
            list.clone().prop_map(|body| Op::CallAction {
                copy_in: Box::new([]),
                body,
                copy_out: Box::new([]),
            }),
            // Interpreted, with compiled-tier ops inside it.
            list.prop_map(|mut body| {
                body.push(Op::Break);
                Op::Loop {
                    cond: None,
                    body,
                    update: Vec::new(),
                }
            }),
        ]
    });
    prop::collection::vec(op, 0..8)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn compiled_blocks_do_what_the_interpreter_does(
        ops in ops(),
        arena in prop::collection::vec(prop_oneof![3 => Just(0u8), 1 => Just(1u8), 1 => any::<u8>()], ARENA),
    ) {
        let block = Block::new(ops.clone(), ARENA, Tier::Compiled);
        let (mut expected, mut got) = (arena.clone(), arena);
        let want = exec::run(&ops, &mut Env::new(&mut expected));
        let flow = block.run(&mut Env::new(&mut got));
        prop_assert_eq!(flow, want);
        prop_assert_eq!(got, expected);
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
