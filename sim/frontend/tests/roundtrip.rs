//! Round trips through the pretty-printer: `parse(print(ast)) == ast` once
//! spans are stripped, for random trees (proptest) and for the corpus of
//! valid programs under `tests/p4/valid`.

use janus_p4::ast::*;
use janus_p4::lexer::{self, IntLit};
use janus_p4::pretty::{self, StripSpans};
use janus_p4::source::Span;
use janus_p4::{includes, parser};
use proptest::prelude::*;
use proptest::{collection::vec, option, sample::select};
use std::path::Path as FsPath;

const D: Span = Span::DUMMY;

// ------------------------------------------------------------------ helpers

fn parse(text: &str) -> Result<Program, String> {
    let (toks, lex_errs) = lexer::lex(text);
    if !lex_errs.is_empty() {
        return Err(format!("lex errors: {lex_errs:?}"));
    }
    let (prog, errs) = parser::parse_program(&toks, text);
    if errs.is_empty() {
        Ok(prog)
    } else {
        Err(format!("syntax errors: {errs:?}"))
    }
}

/// Prints `prog`, parses the text and checks the result equals `prog`
/// modulo spans.
fn check_roundtrip(prog: &Program) -> Result<(), String> {
    let text = pretty::program(prog);
    let mut back = parse(&text).map_err(|e| format!("{e}\nprinted:\n{text}"))?;
    let mut want = prog.clone();
    want.strip_spans();
    back.strip_spans();
    if want != back {
        return Err(format!(
            "round trip changed the tree\nprinted:\n{text}\n{}",
            first_difference(&format!("{want:#?}"), &format!("{back:#?}"))
        ));
    }
    Ok(())
}

/// The lines around the first difference of two debug dumps.
fn first_difference(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let at = w.iter().zip(&g).take_while(|(a, b)| a == b).count();
    let lo = at.saturating_sub(25);
    format!(
        "want (from line {lo}):\n{}\ngot:\n{}",
        w[lo..(at + 8).min(w.len())].join("\n"),
        g[lo..(at + 8).min(g.len())].join("\n")
    )
}

fn id(n: &str) -> Ident {
    Ident::new(n, D)
}

fn ex(kind: ExprKind) -> Expr {
    Expr::new(kind, D)
}

fn st(kind: StmtKind) -> Stmt {
    Stmt { kind, span: D }
}

fn dc(kind: DeclKind) -> Decl {
    Decl { kind, span: D }
}

fn tyk(kind: TypeKind) -> Type {
    Type { kind, span: D }
}

fn name_expr(n: &str) -> Expr {
    ex(ExprKind::Name(Path {
        global: false,
        name: id(n),
    }))
}

fn small_int(v: u32) -> Expr {
    ex(ExprKind::Int(IntLit {
        value: v.into(),
        width: None,
        base: 10,
    }))
}

fn bx<T>(t: T) -> Box<T> {
    Box::new(t)
}

// ------------------------------------------------------------------ names

/// Value names: no keywords, no contextual keywords, no type names.
fn arb_name() -> impl Strategy<Value = String> + Clone {
    select(vec![
        "a", "b", "c", "x", "y", "hdr", "meta", "foo", "bar_1", "_t",
    ])
    .prop_map(String::from)
}

fn arb_ident() -> impl Strategy<Value = Ident> + Clone {
    arb_name().prop_map(|n| id(&n))
}

/// Type names, disjoint from value names so that `(x)` is never a cast.
fn arb_type_name() -> impl Strategy<Value = String> + Clone {
    select(vec!["T0", "H1", "S2", "E3", "Pk"]).prop_map(String::from)
}

/// Member names after `.`: any identifier or keyword.
fn arb_member() -> impl Strategy<Value = Ident> + Clone {
    select(vec![
        "f", "next", "apply", "isValid", "last", "default", "in", "x",
    ])
    .prop_map(id)
}

fn arb_path() -> impl Strategy<Value = Path> + Clone {
    (any::<bool>(), arb_ident()).prop_map(|(global, name)| Path { global, name })
}

// ------------------------------------------------------------------ literals and types

fn arb_int() -> impl Strategy<Value = IntLit> + Clone {
    (
        prop_oneof![0u64..20, any::<u64>()],
        option::of((1u32..=128, any::<bool>())),
        select(vec![2u32, 8, 10, 16]),
    )
        .prop_map(|(v, width, base)| IntLit {
            value: v.into(),
            width,
            base,
        })
}

fn arb_string() -> impl Strategy<Value = String> + Clone {
    "[a-z \"\\\\\n\t<>]{0,8}"
}

/// A width in `bit<W>`: a literal or a parenthesised expression.
fn arb_width() -> BoxedStrategy<Box<Expr>> {
    prop_oneof![
        3 => (1u32..=64).prop_map(small_int),
        1 => arb_ident().prop_map(|n| name_expr(&n.name)),
        1 => (arb_ident(), 1u32..4).prop_map(|(n, v)| ex(ExprKind::Binary(
            BinOp::Mul,
            bx(name_expr(&n.name)),
            bx(small_int(v))
        ))),
    ]
    .prop_map(Box::new)
    .boxed()
}

/// Base types: the types a cast may name without declarations.
fn arb_base_type() -> BoxedStrategy<Type> {
    prop_oneof![
        Just(TypeKind::Bool),
        Just(TypeKind::InfInt),
        Just(TypeKind::Error),
        Just(TypeKind::String),
        arb_width().prop_map(TypeKind::Bit),
        arb_width().prop_map(TypeKind::Int),
        arb_width().prop_map(TypeKind::Varbit),
    ]
    .prop_map(tyk)
    .boxed()
}

fn arb_named_type() -> BoxedStrategy<Type> {
    (
        any::<bool>(),
        arb_type_name(),
        vec(
            prop_oneof![arb_base_type(), Just(tyk(TypeKind::DontCare))],
            0..3,
        ),
    )
        .prop_map(|(global, n, args)| {
            tyk(TypeKind::Named {
                path: Path {
                    global,
                    name: id(&n),
                },
                args,
            })
        })
        .boxed()
}

fn arb_type() -> BoxedStrategy<Type> {
    let simple = prop_oneof![3 => arb_base_type(), 2 => arb_named_type()].boxed();
    prop_oneof![
        4 => simple.clone(),
        1 => (simple.clone(), 1u32..16).prop_map(|(elem, n)| tyk(TypeKind::Stack {
            elem: bx(elem),
            size: bx(small_int(n)),
        })),
        1 => vec(simple.clone(), 0..3).prop_map(|ts| tyk(TypeKind::Tuple(ts))),
        1 => simple.prop_map(|t| tyk(TypeKind::List(bx(t)))),
    ]
    .boxed()
}

// ------------------------------------------------------------------ expressions

fn arb_unop() -> impl Strategy<Value = UnOp> + Clone {
    select(vec![UnOp::Not, UnOp::BitNot, UnOp::Neg, UnOp::Plus])
}

fn all_binops() -> Vec<BinOp> {
    use BinOp::*;
    vec![
        Mul, Div, Mod, Add, Sub, SatAdd, SatSub, Shl, Shr, Le, Ge, Lt, Gt, Eq, Ne, BitAnd, BitXor,
        BitOr, Concat, And, Or,
    ]
}

fn arb_leaf() -> BoxedStrategy<Expr> {
    prop_oneof![
        3 => arb_int().prop_map(|l| ex(ExprKind::Int(l))),
        1 => any::<bool>().prop_map(|b| ex(ExprKind::Bool(b))),
        1 => arb_string().prop_map(|s| ex(ExprKind::Str(s))),
        4 => arb_path().prop_map(|p| ex(ExprKind::Name(p))),
        1 => select(vec!["this", "error"]).prop_map(name_expr),
    ]
    .boxed()
}

fn arb_args(e: BoxedStrategy<Expr>) -> BoxedStrategy<Vec<Arg>> {
    let value = prop_oneof![5 => e, 1 => Just(ex(ExprKind::DontCare))];
    // Either all positional or all named.
    prop_oneof![
        vec(value.clone(), 0..4).prop_map(|vs| vs
            .into_iter()
            .map(|value| Arg { name: None, value })
            .collect()),
        vec((arb_ident(), value), 0..3).prop_map(|vs| vs
            .into_iter()
            .map(|(n, value)| Arg {
                name: Some(n),
                value
            })
            .collect()),
    ]
    .boxed()
}

/// Expressions of every kind the parser builds in expression position.
fn arb_expr() -> BoxedStrategy<Expr> {
    arb_leaf()
        .prop_recursive(4, 48, 4, |inner| {
            let callee_generic = prop_oneof![
                arb_path().prop_map(|p| ex(ExprKind::Name(p))),
                (inner.clone(), arb_member())
                    .prop_map(|(e, m)| ex(ExprKind::Member(bx(e), m))),
            ];
            prop_oneof![
                2 => (inner.clone(), arb_member()).prop_map(|(e, m)| ex(ExprKind::Member(bx(e), m))),
                1 => (inner.clone(), inner.clone())
                    .prop_map(|(a, i)| ex(ExprKind::Index(bx(a), bx(i)))),
                1 => (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(a, h, l)| ex(ExprKind::Slice(bx(a), bx(h), bx(l)))),
                2 => (inner.clone(), arb_args(inner.clone())).prop_map(|(c, args)| ex(ExprKind::Call {
                    callee: bx(c),
                    type_args: vec![],
                    args,
                })),
                1 => (callee_generic, vec(arb_type(), 1..3), arb_args(inner.clone())).prop_map(
                    |(c, type_args, args)| ex(ExprKind::Call {
                        callee: bx(c),
                        type_args,
                        args,
                    })
                ),
                2 => (arb_unop(), inner.clone()).prop_map(|(op, e)| ex(ExprKind::Unary(op, bx(e)))),
                6 => (select(all_binops()), inner.clone(), inner.clone())
                    .prop_map(|(op, l, r)| ex(ExprKind::Binary(op, bx(l), bx(r)))),
                2 => (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(c, t, f)| ex(ExprKind::Ternary(bx(c), bx(t), bx(f)))),
                2 => (arb_base_type(), inner.clone()).prop_map(|(t, e)| ex(ExprKind::Cast(t, bx(e)))),
                // `a < b > (c)` and `f(a < b, c > (d))` read as generic calls
                // unless the printer adds parentheses: make them likely.
                2 => (
                    select(vec![BinOp::Lt, BinOp::Gt, BinOp::Shr]),
                    select(vec![BinOp::Lt, BinOp::Gt]),
                    arb_path(),
                    prop_oneof![
                        arb_path().prop_map(|p| ex(ExprKind::Name(p))),
                        (arb_ident(), inner.clone()).prop_map(|(n, i)| ex(ExprKind::Index(
                            bx(name_expr(&n.name)),
                            bx(i)
                        ))),
                    ],
                    inner.clone(),
                )
                    .prop_map(|(outer, op, a, b, c)| {
                        let lt = ex(ExprKind::Binary(op, bx(ex(ExprKind::Name(a))), bx(b)));
                        ex(ExprKind::Binary(outer, bx(lt), bx(c)))
                    }),
                1 => (arb_path(), arb_ident(), arb_ident(), select(vec![BinOp::Gt, BinOp::Shr]), inner.clone(), any::<bool>())
                    .prop_map(|(a, b, c, op, d, call)| {
                        let lt = ex(ExprKind::Binary(BinOp::Lt, bx(ex(ExprKind::Name(a))), bx(name_expr(&b.name))));
                        let gt = ex(ExprKind::Binary(op, bx(name_expr(&c.name)), bx(d)));
                        if call {
                            ex(ExprKind::Call {
                                callee: bx(name_expr("f")),
                                type_args: vec![],
                                args: vec![Arg { name: None, value: lt }, Arg { name: None, value: gt }],
                            })
                        } else {
                            ex(ExprKind::List(vec![lt, gt]))
                        }
                    }),
                1 => vec(prop_oneof![6 => inner.clone(), 1 => Just(ex(ExprKind::Dots))], 0..4)
                    .prop_map(|items| ex(ExprKind::List(items))),
                1 => (vec((arb_ident(), inner.clone()), 1..4), any::<bool>())
                    .prop_map(|(fields, dots)| ex(ExprKind::StructInit { fields, dots })),
            ]
        })
        .boxed()
}

/// `default`, `_`, `e`, `e &&& m`, `lo .. hi`.
fn arb_simple_keyset() -> BoxedStrategy<Expr> {
    prop_oneof![
        4 => arb_expr(),
        1 => (arb_expr(), arb_expr()).prop_map(|(a, b)| ex(ExprKind::Mask(bx(a), bx(b)))),
        1 => (arb_expr(), arb_expr()).prop_map(|(a, b)| ex(ExprKind::Range(bx(a), bx(b)))),
        1 => Just(ex(ExprKind::Default)),
        1 => Just(ex(ExprKind::DontCare)),
    ]
    .boxed()
}

fn arb_keyset() -> BoxedStrategy<Expr> {
    prop_oneof![
        3 => arb_simple_keyset(),
        1 => vec(arb_simple_keyset(), 2..4).prop_map(|ks| ex(ExprKind::KeysetTuple(ks))),
    ]
    .boxed()
}

// ------------------------------------------------------------------ annotations

fn arb_annotation() -> BoxedStrategy<Annotation> {
    let name = select(vec!["name", "hidden", "my_anno", "atomic", "priority"]).prop_map(id);
    let body = prop_oneof![
        3 => Just(AnnotationBody::Empty),
        2 => vec(arb_expr(), 0..3).prop_map(|exprs| {
            let text: Vec<String> = exprs.iter().map(pretty::expr).collect();
            let (mut tokens, _) = lexer::lex(&text.join(", "));
            tokens.pop(); // Eof
            AnnotationBody::Unstructured { tokens, exprs: Some(exprs) }
        }),
        1 => select(vec!["a b c +", "x > > y", "1, 2,", "= =", "\"s\" :: 8w3 ( ) [ ]"])
            .prop_map(|text| {
                let (mut tokens, _) = lexer::lex(text);
                tokens.pop();
                AnnotationBody::Unstructured { tokens, exprs: None }
            }),
        1 => vec(arb_expr(), 0..3).prop_map(AnnotationBody::ExprList),
        1 => vec((arb_ident(), arb_expr()), 1..3).prop_map(AnnotationBody::KeyValues),
    ];
    let pragma = select(vec!["my_pragma 1 2", "x", "a \"b\" >> c", ""]).prop_map(|text| {
        let (mut tokens, _) = lexer::lex(text);
        tokens.pop();
        Annotation {
            name: id("pragma"),
            body: AnnotationBody::Unstructured {
                tokens,
                exprs: None,
            },
            span: D,
        }
    });
    prop_oneof![
        8 => (name, body).prop_map(|(name, body)| Annotation { name, body, span: D }),
        1 => pragma,
    ]
    .boxed()
}

fn arb_annos() -> BoxedStrategy<Annotations> {
    prop_oneof![3 => Just(vec![]), 1 => vec(arb_annotation(), 1..3)].boxed()
}

// ------------------------------------------------------------------ statements

fn compound_ops() -> Vec<BinOp> {
    use BinOp::*;
    vec![
        Add, Sub, Mul, Div, Mod, Shl, Shr, BitAnd, BitOr, BitXor, SatAdd, SatSub,
    ]
}

/// An assignable expression: names with member, index and slice.
fn arb_lvalue() -> BoxedStrategy<Expr> {
    let base = arb_ident().prop_map(|n| name_expr(&n.name));
    base.prop_recursive(2, 4, 1, |inner| {
        prop_oneof![
            (inner.clone(), arb_member()).prop_map(|(e, m)| ex(ExprKind::Member(bx(e), m))),
            (inner.clone(), arb_expr()).prop_map(|(e, i)| ex(ExprKind::Index(bx(e), bx(i)))),
            (inner, arb_expr(), arb_expr()).prop_map(|(e, h, l)| ex(ExprKind::Slice(
                bx(e),
                bx(h),
                bx(l)
            ))),
        ]
    })
    .boxed()
}

fn arb_call() -> BoxedStrategy<Expr> {
    (
        arb_lvalue(),
        arb_member(),
        prop_oneof![3 => Just(vec![]), 1 => vec(arb_type(), 1..2)],
        arb_args(arb_expr()),
    )
        .prop_map(|(base, m, type_args, args)| {
            ex(ExprKind::Call {
                callee: bx(ex(ExprKind::Member(bx(base), m))),
                type_args,
                args,
            })
        })
        .boxed()
}

fn arb_assign() -> BoxedStrategy<StmtKind> {
    (arb_lvalue(), option::of(select(compound_ops())), arb_expr())
        .prop_map(|(lhs, op, rhs)| StmtKind::Assign { lhs, op, rhs })
        .boxed()
}

fn arb_var(need_init: bool, annos: bool) -> BoxedStrategy<VarDecl> {
    let init = if need_init {
        arb_expr().prop_map(Some).boxed()
    } else {
        option::of(arb_expr()).boxed()
    };
    let annos = if annos {
        arb_annos()
    } else {
        Just(vec![]).boxed()
    };
    (annos, arb_type(), arb_ident(), init)
        .prop_map(|(annotations, ty, name, init)| VarDecl {
            annotations,
            ty,
            name,
            init,
            span: D,
        })
        .boxed()
}

fn arb_const() -> BoxedStrategy<ConstDecl> {
    (arb_annos(), arb_type(), arb_ident(), arb_expr())
        .prop_map(|(annotations, ty, name, value)| ConstDecl {
            annotations,
            ty,
            name,
            value,
            span: D,
        })
        .boxed()
}

fn arb_simple_stmt() -> BoxedStrategy<Stmt> {
    prop_oneof![
        4 => arb_assign(),
        2 => arb_call().prop_map(StmtKind::Call),
        1 => option::of(arb_expr()).prop_map(StmtKind::Return),
        1 => Just(StmtKind::Exit),
        1 => Just(StmtKind::Break),
        1 => Just(StmtKind::Continue),
        1 => Just(StmtKind::Empty),
        2 => arb_var(false, true).prop_map(StmtKind::Var),
        1 => arb_const().prop_map(StmtKind::Const),
    ]
    .prop_map(st)
    .boxed()
}

fn block_of(stmts: BoxedStrategy<Stmt>, annos: bool) -> BoxedStrategy<Block> {
    let annos = if annos {
        arb_annos()
    } else {
        Just(vec![]).boxed()
    };
    (annos, vec(stmts, 0..4))
        .prop_map(|(annotations, stmts)| Block {
            annotations,
            stmts,
            span: D,
        })
        .boxed()
}

/// True if `s` ends with an `if` without `else` (an `else` after it would
/// bind to that `if`).
fn ends_in_open_if(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::If {
            otherwise: None, ..
        } => true,
        StmtKind::If {
            otherwise: Some(e), ..
        } => ends_in_open_if(e),
        StmtKind::For { body, .. } | StmtKind::ForIn { body, .. } => ends_in_open_if(body),
        _ => false,
    }
}

fn arb_stmt() -> BoxedStrategy<Stmt> {
    arb_simple_stmt()
        .prop_recursive(3, 24, 4, |inner| {
            let for_init = prop_oneof![
                arb_var(true, false).prop_map(StmtKind::Var),
                arb_assign(),
                arb_call().prop_map(StmtKind::Call),
            ]
            .prop_map(st);
            let for_update =
                prop_oneof![arb_assign(), arb_call().prop_map(StmtKind::Call)].prop_map(st);
            let case = (
                prop_oneof![
                    3 => arb_ident().prop_map(|n| name_expr(&n.name)),
                    1 => Just(ex(ExprKind::Default)),
                    1 => (0u32..10).prop_map(small_int),
                ],
                option::of(block_of(inner.clone(), false)),
            )
                .prop_map(|(label, body)| SwitchCase {
                    label,
                    body,
                    span: D,
                });
            let collection = prop_oneof![
                arb_expr(),
                (arb_expr(), arb_expr()).prop_map(|(a, b)| ex(ExprKind::Range(bx(a), bx(b)))),
            ];
            prop_oneof![
                3 => (arb_expr(), inner.clone(), option::of(inner.clone())).prop_map(
                    |(cond, then, otherwise)| {
                        let otherwise = otherwise.filter(|_| !ends_in_open_if(&then));
                        StmtKind::If {
                            cond,
                            then: bx(then),
                            otherwise: otherwise.map(bx),
                        }
                    }
                ),
                2 => block_of(inner.clone(), true).prop_map(StmtKind::Block),
                1 => (arb_expr(), vec(case, 0..4))
                    .prop_map(|(subject, cases)| StmtKind::Switch { subject, cases }),
                1 => (
                    vec(for_init, 0..3),
                    option::of(arb_expr()),
                    vec(for_update, 0..3),
                    inner.clone()
                )
                    .prop_map(|(init, cond, update, body)| StmtKind::For {
                        init,
                        cond,
                        update,
                        body: bx(body),
                    }),
                1 => (arb_annos(), option::of(arb_type()), arb_ident(), collection, inner)
                    .prop_map(|(annotations, ty, var, collection, body)| StmtKind::ForIn {
                        annotations,
                        ty,
                        var,
                        collection,
                        body: bx(body),
                    }),
            ]
            .prop_map(st)
        })
        .boxed()
}

fn arb_block() -> BoxedStrategy<Block> {
    block_of(arb_stmt(), false)
}

// ------------------------------------------------------------------ declarations

fn arb_direction() -> impl Strategy<Value = Direction> + Clone {
    select(vec![
        Direction::None,
        Direction::In,
        Direction::Out,
        Direction::InOut,
    ])
}

fn arb_params() -> BoxedStrategy<Vec<Param>> {
    vec(
        (
            arb_annos(),
            arb_direction(),
            arb_type(),
            arb_ident(),
            prop_oneof![3 => Just(None), 1 => arb_expr().prop_map(Some)],
        )
            .prop_map(|(annotations, direction, ty, name, default)| Param {
                annotations,
                direction,
                ty,
                name,
                default,
                span: D,
            }),
        0..4,
    )
    .boxed()
}

fn arb_type_params() -> BoxedStrategy<TypeParams> {
    prop_oneof![2 => Just(vec![]), 1 => vec(select(vec!["T", "U", "W"]).prop_map(id), 1..3)].boxed()
}

fn arb_action() -> BoxedStrategy<ActionDecl> {
    (arb_annos(), arb_ident(), arb_params(), arb_block())
        .prop_map(|(annotations, name, params, body)| ActionDecl {
            annotations,
            name,
            params,
            body,
        })
        .boxed()
}

fn arb_function() -> BoxedStrategy<FunctionDecl> {
    (
        arb_annos(),
        prop_oneof![Just(tyk(TypeKind::Void)), arb_type()],
        arb_ident(),
        arb_type_params(),
        arb_params(),
        arb_block(),
    )
        .prop_map(
            |(annotations, ret, name, type_params, params, body)| FunctionDecl {
                proto: FunctionProto {
                    annotations,
                    ret,
                    name,
                    type_params,
                    params,
                },
                body,
            },
        )
        .boxed()
}

fn arb_instance() -> BoxedStrategy<InstanceDecl> {
    let init = prop_oneof![
        3 => Just(None),
        1 => vec(arb_function().prop_map(|f| dc(DeclKind::Function(f))), 0..2).prop_map(Some),
    ];
    (
        arb_annos(),
        arb_named_type(),
        arb_args(arb_expr()),
        arb_ident(),
        init,
    )
        .prop_map(|(annotations, ty, args, name, init)| InstanceDecl {
            annotations,
            ty,
            args,
            name,
            init,
        })
        .boxed()
}

fn arb_action_ref() -> BoxedStrategy<ActionRef> {
    (arb_annos(), arb_path(), option::of(arb_args(arb_expr())))
        .prop_map(|(annotations, name, args)| ActionRef {
            annotations,
            name,
            args,
            span: D,
        })
        .boxed()
}

fn arb_table() -> BoxedStrategy<TableDecl> {
    let key = vec(
        (
            arb_expr(),
            select(vec!["exact", "ternary", "lpm"]).prop_map(id),
            arb_annos(),
        )
            .prop_map(|(expr, match_kind, annotations)| KeyElement {
                annotations,
                expr,
                match_kind,
                span: D,
            }),
        0..3,
    )
    .prop_map(TablePropKind::Key);
    let actions = vec(arb_action_ref(), 0..3).prop_map(TablePropKind::Actions);
    let entries = vec(
        (
            arb_annos(),
            any::<bool>(),
            option::of(arb_expr()),
            arb_keyset(),
            arb_action_ref(),
        )
            .prop_map(|(annotations, is_const, priority, keyset, action)| Entry {
                annotations,
                is_const,
                priority,
                keyset,
                action,
                span: D,
            }),
        0..4,
    )
    .prop_map(TablePropKind::Entries);
    let other = (
        select(vec!["size", "default_action", "implementation", "counters"]).prop_map(id),
        arb_expr(),
    )
        .prop_map(|(name, value)| TablePropKind::Other { name, value });
    let prop = (
        arb_annos(),
        any::<bool>(),
        prop_oneof![key, actions, entries, other],
    )
        .prop_map(|(annotations, is_const, kind)| TableProp {
            annotations,
            is_const,
            kind,
            span: D,
        });
    (arb_annos(), arb_ident(), vec(prop, 0..5))
        .prop_map(|(annotations, name, props)| TableDecl {
            annotations,
            name,
            props,
        })
        .boxed()
}

fn arb_block_proto() -> BoxedStrategy<BlockProto> {
    (
        arb_annos(),
        arb_type_name(),
        arb_type_params(),
        arb_params(),
    )
        .prop_map(|(annotations, n, type_params, params)| BlockProto {
            annotations,
            name: id(&n),
            type_params,
            params,
        })
        .boxed()
}

fn arb_next_state() -> BoxedStrategy<Path> {
    prop_oneof![
        arb_path(),
        (any::<bool>(), select(vec!["accept", "reject"])).prop_map(|(global, n)| Path {
            global,
            name: id(n)
        }),
    ]
    .boxed()
}

fn arb_transition() -> BoxedStrategy<Transition> {
    let case = (arb_keyset(), arb_next_state()).prop_map(|(keyset, next)| SelectCase {
        keyset,
        next,
        span: D,
    });
    prop_oneof![
        arb_next_state().prop_map(Transition::Direct),
        (vec(arb_expr(), 0..3), vec(case, 0..4)).prop_map(|(keys, cases)| Transition::Select {
            keys,
            cases,
            span: D,
        }),
    ]
    .boxed()
}

fn arb_parser() -> BoxedStrategy<ParserDecl> {
    let local = prop_oneof![
        arb_var(false, true).prop_map(DeclKind::Var),
        arb_const().prop_map(DeclKind::Const),
        arb_instance().prop_map(DeclKind::Instance),
        (arb_annos(), arb_type(), arb_expr(), arb_ident()).prop_map(
            |(annotations, elem, size, name)| DeclKind::ValueSet(ValueSetDecl {
                annotations,
                elem,
                size,
                name,
            })
        ),
    ]
    .prop_map(dc);
    let state = (
        arb_annos(),
        arb_ident(),
        vec(arb_stmt(), 0..3),
        option::of(arb_transition()),
    )
        .prop_map(|(annotations, name, body, transition)| ParserState {
            annotations,
            name,
            body,
            transition,
            span: D,
        });
    (
        arb_block_proto(),
        arb_params(),
        vec(local, 0..3),
        vec(state, 0..3),
    )
        .prop_map(|(proto, ctor_params, locals, states)| ParserDecl {
            proto,
            ctor_params,
            locals,
            states,
        })
        .boxed()
}

fn arb_control() -> BoxedStrategy<ControlDecl> {
    let local = prop_oneof![
        arb_var(false, true).prop_map(DeclKind::Var),
        arb_const().prop_map(DeclKind::Const),
        arb_action().prop_map(DeclKind::Action),
        arb_table().prop_map(DeclKind::Table),
        arb_instance().prop_map(DeclKind::Instance),
    ]
    .prop_map(dc);
    (
        arb_block_proto(),
        arb_params(),
        vec(local, 0..4),
        arb_block(),
    )
        .prop_map(|(proto, ctor_params, locals, apply)| ControlDecl {
            proto,
            ctor_params,
            locals,
            apply,
        })
        .boxed()
}

fn arb_struct() -> BoxedStrategy<StructDecl> {
    let field = (arb_annos(), arb_type(), arb_ident()).prop_map(|(annotations, ty, name)| Field {
        annotations,
        ty,
        name,
        span: D,
    });
    (
        arb_annos(),
        arb_type_name(),
        arb_type_params(),
        vec(field, 0..4),
    )
        .prop_map(|(annotations, n, type_params, fields)| StructDecl {
            annotations,
            name: id(&n),
            type_params,
            fields,
        })
        .boxed()
}

fn arb_extern_object() -> BoxedStrategy<ExternDecl> {
    (arb_annos(), arb_type_name(), arb_type_params())
        .prop_flat_map(|(annotations, n, tps)| {
            let ctor = (arb_annos(), arb_params()).prop_map({
                let n = n.clone();
                move |(annotations, params)| MethodDecl {
                    annotations,
                    is_abstract: false,
                    ret: None,
                    name: id(&n),
                    type_params: vec![],
                    params,
                    span: D,
                }
            });
            let method = (
                arb_annos(),
                any::<bool>(),
                prop_oneof![Just(tyk(TypeKind::Void)), arb_type()],
                arb_member(),
                arb_type_params(),
                arb_params(),
            )
                .prop_map(
                    |(annotations, is_abstract, ret, name, type_params, params)| MethodDecl {
                        annotations,
                        is_abstract,
                        ret: Some(ret),
                        name,
                        type_params,
                        params,
                        span: D,
                    },
                );
            vec(prop_oneof![1 => ctor, 3 => method], 0..4).prop_map(move |methods| ExternDecl {
                annotations: annotations.clone(),
                name: id(&n),
                type_params: tps.clone(),
                methods,
            })
        })
        .boxed()
}

fn arb_decl() -> BoxedStrategy<Decl> {
    let typedef = (arb_annos(), any::<bool>(), arb_type(), arb_type_name()).prop_map(
        |(annotations, new_type, ty, n)| TypedefDecl {
            annotations,
            // Parser limitation (reported): `type .T x;` is not recognised
            // as a declaration, so `type` only gets unqualified types.
            new_type: new_type && !starts_global(&ty),
            ty,
            name: id(&n),
        },
    );
    let enum_decl = (
        arb_annos(),
        option::of(arb_base_type()),
        arb_type_name(),
        vec((arb_ident(), option::of(arb_expr())), 0..4),
    )
        .prop_map(|(annotations, repr, n, members)| EnumDecl {
            annotations,
            repr,
            name: id(&n),
            members,
        });
    let ext_fn = (
        arb_annos(),
        prop_oneof![Just(tyk(TypeKind::Void)), arb_type()],
        arb_ident(),
        arb_type_params(),
        arb_params(),
    )
        .prop_map(
            |(annotations, ret, name, type_params, params)| FunctionProto {
                annotations,
                ret,
                name,
                type_params,
                params,
            },
        );
    prop_oneof![
        arb_const().prop_map(DeclKind::Const),
        arb_var(false, true).prop_map(DeclKind::Var),
        typedef.prop_map(DeclKind::Typedef),
        arb_struct().prop_map(DeclKind::Header),
        arb_struct().prop_map(DeclKind::HeaderUnion),
        arb_struct().prop_map(DeclKind::Struct),
        enum_decl.prop_map(DeclKind::Enum),
        vec(arb_ident(), 0..3).prop_map(DeclKind::Error),
        vec(arb_ident(), 0..3).prop_map(DeclKind::MatchKind),
        arb_extern_object().prop_map(DeclKind::ExternObject),
        ext_fn.prop_map(DeclKind::ExternFunction),
        arb_block_proto().prop_map(DeclKind::ParserType),
        arb_block_proto().prop_map(DeclKind::ControlType),
        arb_block_proto().prop_map(DeclKind::Package),
        arb_parser().prop_map(DeclKind::Parser),
        arb_control().prop_map(DeclKind::Control),
        arb_action().prop_map(DeclKind::Action),
        arb_function().prop_map(DeclKind::Function),
        arb_instance().prop_map(DeclKind::Instance),
    ]
    .prop_map(dc)
    .boxed()
}

/// True if the type's text starts with `.`.
fn starts_global(t: &Type) -> bool {
    match &t.kind {
        TypeKind::Named { path, .. } => path.global,
        TypeKind::Stack { elem, .. } => starts_global(elem),
        _ => false,
    }
}

fn arb_program() -> BoxedStrategy<Program> {
    vec(arb_decl(), 1..5)
        .prop_map(|decls| Program { decls })
        .boxed()
}

// ------------------------------------------------------------------ properties

/// Wraps a statement in `control C() { apply { s } }`.
fn in_control(stmts: Vec<Stmt>) -> Program {
    Program {
        decls: vec![dc(DeclKind::Control(ControlDecl {
            proto: BlockProto {
                annotations: vec![],
                name: id("C"),
                type_params: vec![],
                params: vec![],
            },
            ctor_params: vec![],
            locals: vec![],
            apply: Block {
                annotations: vec![],
                stmts,
                span: D,
            },
        }))],
    }
}

/// Wraps a keyset in a select case of a parser state.
fn in_select(keyset: Expr) -> Program {
    Program {
        decls: vec![dc(DeclKind::Parser(ParserDecl {
            proto: BlockProto {
                annotations: vec![],
                name: id("P"),
                type_params: vec![],
                params: vec![],
            },
            ctor_params: vec![],
            locals: vec![],
            states: vec![ParserState {
                annotations: vec![],
                name: id("start"),
                body: vec![],
                transition: Some(Transition::Select {
                    keys: vec![name_expr("a")],
                    cases: vec![SelectCase {
                        keyset,
                        next: Path {
                            global: false,
                            name: id("accept"),
                        },
                        span: D,
                    }],
                    span: D,
                }),
                span: D,
            }],
        }))],
    }
}

/// 256 cases per property (a few seconds), or `ROUNDTRIP_CASES`.
fn cases() -> u32 {
    std::env::var("ROUNDTRIP_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(cases())
    })]

    #[test]
    fn expressions_roundtrip(e in arb_expr()) {
        let prog = in_control(vec![st(StmtKind::Assign { lhs: name_expr("x"), op: None, rhs: e })]);
        if let Err(msg) = check_roundtrip(&prog) {
            prop_assert!(false, "{}", msg);
        }
    }

    #[test]
    fn keysets_roundtrip(k in arb_keyset()) {
        if let Err(msg) = check_roundtrip(&in_select(k)) {
            prop_assert!(false, "{}", msg);
        }
    }

    #[test]
    fn statements_roundtrip(stmts in vec(arb_stmt(), 1..4)) {
        if let Err(msg) = check_roundtrip(&in_control(stmts)) {
            prop_assert!(false, "{}", msg);
        }
    }

    #[test]
    fn programs_roundtrip(p in arb_program()) {
        if let Err(msg) = check_roundtrip(&p) {
            prop_assert!(false, "{}", msg);
        }
    }
}

// ------------------------------------------------------------------ corpus

/// The file's text with `#include <x>` of a built-in include replaced by
/// the include's declarations (its directive lines dropped; both arms of an
/// `#if` are kept, which parses since the parser does not check for
/// redefinitions). `None` if other directives remain or an include is
/// unknown.
fn without_directives(text: &str) -> Option<String> {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("#include") {
            let name = rest
                .trim()
                .trim_start_matches(['<', '"'])
                .trim_end_matches(['>', '"']);
            let inc = includes::builtin(name)?;
            for l in inc.lines() {
                if !l.trim_start().starts_with('#') {
                    out.push_str(l);
                }
                out.push('\n');
            }
            out.push('\n');
        } else if t.starts_with('#') {
            return None;
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    Some(out)
}

#[test]
fn corpus_roundtrips() {
    let dir = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("tests/p4/valid");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("corpus round trip: no directory {}", dir.display());
        return;
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "p4"))
        .collect();
    files.sort();
    let (mut checked, mut skipped) = (0, Vec::new());
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(raw) = std::fs::read_to_string(path) else {
            skipped.push(format!("{name} (unreadable)"));
            continue;
        };
        let Some(text) = without_directives(&raw) else {
            skipped.push(format!("{name} (directives)"));
            continue;
        };
        let Ok(prog) = parse(&text) else {
            skipped.push(format!("{name} (does not parse without preprocessing)"));
            continue;
        };
        checked += 1;
        if let Err(msg) = check_roundtrip(&prog) {
            failures.push(format!(
                "{name}: {}",
                msg.lines().take(60).collect::<Vec<_>>().join("\n")
            ));
        }
    }
    eprintln!(
        "corpus round trip: {checked} of {} files checked, {} skipped",
        files.len(),
        skipped.len()
    );
    for s in &skipped {
        eprintln!("  skipped {s}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
