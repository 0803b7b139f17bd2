//! Parsers compiled for execution: states of ops ending in a transition,
//! with `select` keysets resolved to constants at load time.

use crate::env::Env;
use crate::eval::{CompileError, Compiler, Node, constant, scalar_shape};
use crate::exec::{Op, ParserErrors, compile_stmts, guarded, run};
use crate::flow::Flow;
use crate::value::{Bits, FieldWord};
use janus_p4::ir::{self, ExprKind, ParserState};
use janus_p4::types::TyId;
use std::cmp::Ordering;

/// How many transitions one packet may take before the parser gives up
/// with `error.ParserTimeout` (a parser that loops without consuming).
pub const MAX_TRANSITIONS: usize = 1 << 16;

/// One key's part of a select case.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyMatch {
    Any,
    Exact(Bits),
    /// Matches when `key & mask == value & mask`.
    Masked {
        value: Bits,
        mask: Bits,
    },
    Range {
        lo: Bits,
        hi: Bits,
    },
    /// One key of a tuple matched against a value set (of that key's
    /// type): the slot of the table holding its members.
    InValueSet(u32),
}

impl KeyMatch {
    fn matches(&self, key: &Bits, tables: &[crate::table::TableState]) -> bool {
        match self {
            KeyMatch::Any => true,
            KeyMatch::InValueSet(slot) => tables
                .get(*slot as usize)
                .is_some_and(|t| t.lookup_index(std::slice::from_ref(key)).is_some()),
            KeyMatch::Exact(v) => key == v,
            KeyMatch::Masked { value, mask } => key.and(mask) == value.and(mask),
            KeyMatch::Range { lo, hi } => {
                key.compare(lo) != Ordering::Less && key.compare(hi) != Ordering::Greater
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub keys: Vec<KeyMatch>,
    /// A `value_set` keyset: the slot of the table that holds its members
    /// (the case matches when one member matches every key); `keys` is
    /// then unused.
    pub value_set: Option<u32>,
    pub next: u32,
}

/// A state's transition. Tagged by a byte of its own (no niche in a
/// payload), so that telling the forms apart is one compare.
#[derive(Clone, Debug, PartialEq)]
#[repr(u8)]
pub enum Next {
    Direct(u32),
    Select {
        keys: Vec<Node>,
        cases: Vec<Case>,
    },
    /// A select whose keys all fit in 64 bits and whose keysets are all
    /// constants, matched on words.
    Words(WordSelect),
    /// A select on one field whose cases are exact values (and a default).
    Exact(ExactSelect),
}

/// At most this many keys take the word path (their values live in an
/// array on the stack).
const MAX_WORD_KEYS: usize = 8;

/// A `select` compiled to words: each key evaluated with
/// [`Node::eval_word`] and XORed with its bias (the sign bit of an
/// `int<W>` key, so that unsigned order of biased patterns is the signed
/// order of the values), then matched case by case.
#[derive(Clone, Debug, PartialEq)]
pub struct WordSelect {
    keys: Vec<WordKey>,
    /// Per key, the bits flipped before matching.
    bias: Vec<u64>,
    /// Per key, its width, when the keys are matched joined: several keys
    /// of at most 64 bits in all and no ranges, each case one match on the
    /// biased keys side by side in one word, the first key highest.
    joined: Option<Vec<u32>>,
    /// `keys.len()` matches per case, case after case (one per case when
    /// joined).
    matches: Vec<WordMatch>,
    /// Each case's next state.
    nexts: Vec<u32>,
}

/// A key of a [`WordSelect`].
#[derive(Clone, Debug, PartialEq)]
enum WordKey {
    /// A field at a fixed bit of the arena (the common case), read inline.
    Field(FieldWord),
    /// Any other narrow node (the node inside its [`Node::Narrow`]).
    Node(Node),
}

impl WordKey {
    /// The key's bit pattern.
    #[inline]
    fn pattern(&self, env: &Env<'_>) -> u64 {
        match self {
            WordKey::Field(f) => f.read(env.arena),
            WordKey::Node(n) => n.eval_word(env).v,
        }
    }
}

/// One key's part of a case on a biased key `k`: it matches when
/// `k & mask == value` and `lo <= k <= hi`. Because XOR with the bias
/// distributes over AND, `value` is the biased pattern under the mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WordMatch {
    value: u64,
    mask: u64,
    lo: u64,
    hi: u64,
}

impl WordMatch {
    #[inline]
    fn matches(&self, k: u64) -> bool {
        k & self.mask == self.value && self.lo <= k && k <= self.hi
    }

    /// One key's matches of a case (none a range) as one match on the
    /// keys joined, the first highest; the keys have `widths` bits, at
    /// most 64 in all.
    fn joined(case: &[WordMatch], widths: &[u32]) -> WordMatch {
        let (mut value, mut mask) = (0u64, 0u64);
        for (m, w) in case.iter().zip(widths) {
            let low = low_bits(*w);
            value = (value << w) | (m.value & low);
            mask = (mask << w) | (m.mask & low);
        }
        WordMatch {
            value,
            mask,
            lo: 0,
            hi: u64::MAX,
        }
    }

    /// `m` on a key of `width` bits biased by `bias`; `None` for a value set.
    fn of(m: &KeyMatch, width: u32, bias: u64) -> Option<WordMatch> {
        let all = WordMatch {
            value: 0,
            mask: 0,
            lo: 0,
            hi: u64::MAX,
        };
        let masked = |v: &Bits, m: u64| WordMatch {
            value: (v.as_u64_truncated() ^ bias) & m,
            mask: m,
            ..all
        };
        Some(match m {
            KeyMatch::Any => all,
            KeyMatch::Exact(v) => masked(v, low_bits(width)),
            KeyMatch::Masked { value, mask: m } => {
                masked(value, m.as_u64_truncated() & low_bits(width))
            }
            KeyMatch::Range { lo, hi } => WordMatch {
                lo: lo.as_u64_truncated() ^ bias,
                hi: hi.as_u64_truncated() ^ bias,
                ..all
            },
            KeyMatch::InValueSet(_) => return None,
        })
    }
}

/// The low `width` bits set (`width` at most 64).
fn low_bits(width: u32) -> u64 {
    u64::MAX.checked_shr(64 - width.min(64)).unwrap_or(0)
}

impl WordSelect {
    /// The word form of a select over `keys` of the given `(width, signed)`
    /// shapes, or `None` when a key is not narrow, there are no keys or
    /// more than [`MAX_WORD_KEYS`], or a case uses a value set.
    pub fn of(keys: &[Node], shapes: &[(u32, bool)], cases: &[Case]) -> Option<WordSelect> {
        if keys.is_empty() || keys.len() > MAX_WORD_KEYS || keys.len() != shapes.len() {
            return None;
        }
        let keys = keys
            .iter()
            .zip(shapes)
            .map(|(k, (width, _))| match k {
                Node::Narrow(inner) if *width <= 64 => Some(match **inner {
                    Node::LoadFixed { bit, width, .. } => {
                        WordKey::Field(FieldWord::new(bit, width))
                    }
                    ref n => WordKey::Node(n.clone()),
                }),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        let bias: Vec<u64> = shapes
            .iter()
            .map(|&(width, signed)| match (signed, width) {
                (true, 1..=64) => 1 << (width - 1),
                _ => 0,
            })
            .collect();
        let mut matches = Vec::with_capacity(cases.len() * keys.len());
        for case in cases {
            if case.value_set.is_some() || case.keys.len() != keys.len() {
                return None;
            }
            for ((m, (width, _)), b) in case.keys.iter().zip(shapes).zip(&bias) {
                matches.push(WordMatch::of(m, *width, *b)?);
            }
        }
        let widths: Vec<u32> = shapes.iter().map(|(w, _)| *w).collect();
        let joinable = keys.len() > 1
            && widths.iter().all(|w| (1..64).contains(w))
            && widths.iter().sum::<u32>() <= 64
            && matches.iter().all(|m| m.lo == 0 && m.hi == u64::MAX);
        let joined = joinable.then(|| {
            matches = matches
                .chunks_exact(keys.len())
                .map(|case| WordMatch::joined(case, &widths))
                .collect();
            widths
        });
        Some(WordSelect {
            keys,
            bias,
            joined,
            matches,
            nexts: cases.iter().map(|c| c.next).collect(),
        })
    }

    /// The next state of the first case that matches, if any.
    #[inline]
    pub fn choose(&self, env: &Env<'_>) -> Option<u32> {
        let one = |k: u64| {
            let i = self.matches.iter().position(|m| m.matches(k))?;
            self.nexts.get(i).copied()
        };
        if let ([key], [bias]) = (self.keys.as_slice(), self.bias.as_slice()) {
            return one(key.pattern(env) ^ bias);
        }
        if let Some(widths) = &self.joined {
            let mut k = 0u64;
            for ((key, bias), w) in self.keys.iter().zip(&self.bias).zip(widths) {
                k = (k << w) | ((key.pattern(env) ^ bias) & low_bits(*w));
            }
            return one(k);
        }
        let mut values = [0u64; MAX_WORD_KEYS];
        for ((v, key), bias) in values.iter_mut().zip(&self.keys).zip(&self.bias) {
            *v = key.pattern(env) ^ bias;
        }
        let values = &values[..self.keys.len()];
        self.matches
            .chunks_exact(self.keys.len())
            .zip(&self.nexts)
            .find(|(case, _)| case.iter().zip(values).all(|(m, k)| m.matches(*k)))
            .map(|(_, next)| *next)
    }
}

/// A `select` on one field of at most 64 bits whose cases are all exact
/// values, up to an optional catch-all (`default` or `_`): the field read
/// once and compared with the values in case order.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactSelect {
    key: FieldWord,
    /// Each case's value, as the key's bit pattern, in case order.
    values: Vec<u64>,
    /// Each case's next state.
    nexts: Vec<u32>,
    /// The catch-all's next state; without one, a packet matching no value
    /// fails the select.
    default: Option<u32>,
}

impl ExactSelect {
    /// The exact form of a select over `keys` of the given `(width, signed)`
    /// shapes, or `None` unless there is one key, a field at a fixed place
    /// of 1..=64 bits, and every case before the first catch-all is an
    /// exact value (cases after a catch-all can never match).
    pub fn of(keys: &[Node], shapes: &[(u32, bool)], cases: &[Case]) -> Option<ExactSelect> {
        let ([Node::Narrow(inner)], [(width, _)]) = (keys, shapes) else {
            return None;
        };
        let Node::LoadFixed { bit, width: w, .. } = **inner else {
            return None;
        };
        if w != *width || !(1..=64).contains(&w) {
            return None;
        }
        let mut select = ExactSelect {
            key: FieldWord::new(bit, w),
            values: Vec::with_capacity(cases.len()),
            nexts: Vec::with_capacity(cases.len()),
            default: None,
        };
        for case in cases {
            match (case.value_set, case.keys.as_slice()) {
                (None, [KeyMatch::Exact(v)]) => {
                    select.values.push(v.as_u64_truncated() & low_bits(w));
                    select.nexts.push(case.next);
                }
                (None, [KeyMatch::Any]) => {
                    select.default = Some(case.next);
                    break;
                }
                _ => return None,
            }
        }
        Some(select)
    }

    /// The next state of the first case that matches, if any.
    #[inline]
    pub fn choose(&self, arena: &[u8]) -> Option<u32> {
        let k = self.key.read(arena);
        self.values
            .iter()
            .zip(&self.nexts)
            .find(|(v, _)| **v == k)
            .map_or(self.default, |(_, next)| Some(*next))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub name: String,
    pub ops: Vec<Op>,
    pub next: Next,
}

/// A parser ready to run.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledParser {
    /// The parser's constructor parameters and local declarations with
    /// their initialisers, run once before `start`.
    pub init: Vec<Op>,
    /// `states[0]` is `start`.
    pub states: Vec<State>,
    /// Per state, the step the untraced path runs from it (see [`Step`]).
    steps: Vec<Step>,
    /// No state can be reached from itself (and there are at most
    /// [`MAX_TRANSITIONS`] states): no parse can time out, so the untraced
    /// path counts no transitions.
    bounded: bool,
    pub errors: ParserErrors,
}

/// At most this many states are joined into one [`Step`].
const MAX_JOINED: usize = 8;

/// States run as one when parsing without tracing (tracing logs each
/// state): a state's ops, then, while the state's ops are all plain (see
/// [`is_plain`]) and it goes directly to another state, that state's ops,
/// joined at load time. The result is that of running the states one by
/// one: plain ops end no state early but by a rejection, which ends the
/// parse either way.
#[derive(Clone, Debug, PartialEq)]
struct Step {
    /// The states' ops, adjacent stores joined (see [`join`]).
    ops: Vec<Op>,
    /// How many states the step runs; each counts towards
    /// [`MAX_TRANSITIONS`].
    hops: usize,
    /// The transition of the step's last state.
    next: Next,
}

impl Step {
    /// The step starting at state `first` of `states` (which exists).
    fn of(states: &[State], first: usize) -> Step {
        let mut ops: Vec<Op> = Vec::new();
        let mut hops = 0;
        let mut at = first;
        while let Some(s) = states.get(at) {
            for op in &s.ops {
                match ops.last().and_then(|last| join(last, op)) {
                    Some(both) => {
                        ops.pop();
                        ops.push(both);
                    }
                    None => ops.push(op.clone()),
                }
            }
            hops += 1;
            match s.next {
                Next::Direct(n)
                    if hops < MAX_JOINED
                        && (n as usize) < states.len()
                        && s.ops.iter().all(is_plain) =>
                {
                    at = n as usize;
                }
                _ => break,
            }
        }
        Step {
            ops,
            hops,
            next: states
                .get(at)
                .map_or(Next::Direct(ParserState::REJECT), |s| s.next.clone()),
        }
    }
}

/// One op doing what `a` then `b` do, when both are stores of adjacent
/// fields that one 8-byte load covers: two constants, or two fields moved
/// to two fields (when what the first writes is not what the second
/// reads).
fn join(a: &Op, b: &Op) -> Option<Op> {
    match (a, b) {
        (Op::SetWord { dst: d1, value: v1 }, Op::SetWord { dst: d2, value: v2 }) => {
            let ((hi, vh), (lo, vl)) = match joined(d1, d2) {
                Some(_) => ((d1, v1), (d2, v2)),
                None => ((d2, v2), (d1, v1)),
            };
            Some(Op::SetWord {
                dst: joined(hi, lo)?,
                value: (vh & low_bits(hi.width())) << lo.width() | (vl & low_bits(lo.width())),
            })
        }
        (Op::MoveWord { dst: d1, src: s1 }, Op::MoveWord { dst: d2, src: s2 })
            if d1.width() == s1.width() && d2.width() == s2.width() =>
        {
            let (dst, src) = (joined(d1, d2)?, joined(s1, s2)?);
            let w = dst.width();
            let apart = dst.bit() + w <= src.bit() || src.bit() + w <= dst.bit();
            apart.then_some(Op::MoveWord { dst, src })
        }
        _ => None,
    }
}

/// The field of `a` and `b` together, when `b` starts where `a` ends and
/// one 8-byte load covers both.
fn joined(a: &FieldWord, b: &FieldWord) -> Option<FieldWord> {
    let width = a.width() + b.width();
    let fits = a.width() > 0 && b.width() > 0 && a.bit() % 8 + width <= 64;
    (fits && a.bit() + a.width() == b.bit()).then(|| FieldWord::new(a.bit(), width))
}

/// Whether `op` ends with [`Flow::Continue`] or a rejection, never
/// another flow: a store of a word or a fixed extract.
fn is_plain(op: &Op) -> bool {
    matches!(
        op,
        Op::SetWord { .. } | Op::MoveWord { .. } | Op::AddWord { .. } | Op::ExtractFixed(_)
    )
}

/// How a parse ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Accept,
    /// `transition reject` (no error) or a parser error (its index).
    Reject(Option<u32>),
}

/// Compiles the states of parser `block` (whose frame `c` describes).
pub fn compile_parser(
    c: &mut Compiler<'_>,
    block: &ir::Block,
    ctor_args: &[ir::Expr],
) -> Result<CompiledParser, CompileError> {
    let init = crate::exec::block_prologue(c, block, ctor_args)?;
    let mut states = Vec::with_capacity(block.states.len());
    for s in &block.states {
        let mut ops = compile_stmts(c, &s.body)?;
        let next = match &s.transition {
            ir::Transition::Direct(n) => Next::Direct(*n),
            ir::Transition::Select(keys, cases) => {
                let mut key_nodes = Vec::with_capacity(keys.len());
                let mut key_tys = Vec::with_capacity(keys.len());
                for k in keys {
                    key_nodes.push(guarded(c, k, &mut ops)?);
                    key_tys.push(k.ty);
                }
                let cases = cases
                    .iter()
                    .map(|case| {
                        let value_set = match &case.keyset.kind {
                            ExprKind::ValueSet(id) => Some(c.value_sets.get(id).copied().ok_or(
                                CompileError::Unsupported("a value set without a runtime slot"),
                            )?),
                            _ => None,
                        };
                        let keys = match value_set {
                            Some(_) => Vec::new(),
                            None => keyset(c, &case.keyset, &key_tys)
                                .map_err(|e| e.at(c.program, case.keyset.span))?,
                        };
                        Ok(Case {
                            keys,
                            value_set,
                            next: case.next,
                        })
                    })
                    .collect::<Result<Vec<_>, CompileError>>()?;
                let shapes = key_tys
                    .iter()
                    .map(|t| scalar_shape(&c.program.types, *t))
                    .collect::<Option<Vec<_>>>();
                select(key_nodes, shapes.as_deref(), cases)
            }
        };
        states.push(State {
            name: s.name.clone(),
            ops,
            next,
        });
    }
    Ok(CompiledParser {
        init,
        steps: (0..states.len()).map(|i| Step::of(&states, i)).collect(),
        bounded: states.len() <= MAX_TRANSITIONS && !has_cycle(&states),
        states,
        errors: ParserErrors::of(c.program),
    })
}

/// Whether some state of `states` can be reached from itself (a state
/// outside `states` ends the parse).
fn has_cycle(states: &[State]) -> bool {
    /// A state's mark in the depth-first walk.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let successors = |s: &State| -> Vec<usize> {
        let nexts: Vec<u32> = match &s.next {
            Next::Direct(n) => vec![*n],
            Next::Select { cases, .. } => cases.iter().map(|c| c.next).collect(),
            Next::Words(w) => w.nexts.clone(),
            Next::Exact(x) => x.nexts.iter().copied().chain(x.default).collect(),
        };
        nexts
            .into_iter()
            .map(|n| n as usize)
            .filter(|n| *n < states.len())
            .collect()
    };
    let mut marks = vec![Mark::New; states.len()];
    for root in 0..states.len() {
        if marks[root] != Mark::New {
            continue;
        }
        // Each entry: a state on the path and its successors left to walk.
        let mut path = vec![(root, successors(&states[root]))];
        marks[root] = Mark::OnPath;
        while let Some((at, rest)) = path.last_mut() {
            match rest.pop() {
                Some(n) if marks[n] == Mark::OnPath => return true,
                Some(n) if marks[n] == Mark::New => {
                    marks[n] = Mark::OnPath;
                    path.push((n, successors(&states[n])));
                }
                Some(_) => {}
                None => {
                    marks[*at] = Mark::Done;
                    path.pop();
                }
            }
        }
    }
    false
}

/// The fastest form of a select over `keys` (of `shapes`, when all are
/// scalars) that serves its cases.
fn select(keys: Vec<Node>, shapes: Option<&[(u32, bool)]>, cases: Vec<Case>) -> Next {
    let Some(shapes) = shapes else {
        return Next::Select { keys, cases };
    };
    if let Some(exact) = ExactSelect::of(&keys, shapes, &cases) {
        return Next::Exact(exact);
    }
    match WordSelect::of(&keys, shapes, &cases) {
        Some(words) => Next::Words(words),
        None => Next::Select { keys, cases },
    }
}

/// A case's keyset as one [`KeyMatch`] per key.
fn keyset(c: &Compiler<'_>, e: &ir::Expr, key_tys: &[TyId]) -> Result<Vec<KeyMatch>, CompileError> {
    match &e.kind {
        ExprKind::List(parts) if key_tys.len() > 1 => parts
            .iter()
            .zip(key_tys)
            .map(|(p, t)| simple_keyset(c, p, *t))
            .collect(),
        ExprKind::Default | ExprKind::DontCare => Ok(vec![KeyMatch::Any; key_tys.len()]),
        _ if key_tys.len() == 1 => Ok(vec![simple_keyset(c, e, key_tys[0])?]),
        _ => Err(CompileError::Unsupported("this select keyset")),
    }
}

fn simple_keyset(c: &Compiler<'_>, e: &ir::Expr, key_ty: TyId) -> Result<KeyMatch, CompileError> {
    let types = &c.program.types;
    let value = |x: &ir::Expr| match &x.kind {
        ExprKind::Const(v) => {
            constant(types, key_ty, v).ok_or(CompileError::Unsupported("this keyset value"))
        }
        _ => Err(CompileError::Unsupported("a run-time keyset value")),
    };
    scalar_shape(types, key_ty).ok_or(CompileError::Unsupported("a select on a composite key"))?;
    Ok(match &e.kind {
        ExprKind::Default | ExprKind::DontCare => KeyMatch::Any,
        ExprKind::Mask(v, m) => KeyMatch::Masked {
            value: value(v)?,
            mask: value(m)?,
        },
        ExprKind::Range(lo, hi) => KeyMatch::Range {
            lo: value(lo)?,
            hi: value(hi)?,
        },
        ExprKind::ValueSet(id) => KeyMatch::InValueSet(c.value_sets.get(id).copied().ok_or(
            CompileError::Unsupported("a value set without a runtime slot"),
        )?),
        _ => KeyMatch::Exact(value(e)?),
    })
}

/// The next state of the first case of a select on [`Bits`] keys that
/// matches, if any (the path for wide keys and value sets).
pub fn choose_bits(keys: &[Node], cases: &[Case], env: &mut Env<'_>) -> Option<u32> {
    crate::exec::with_values(keys, env, |env, values| {
        cases
            .iter()
            .find(|c| match c.value_set {
                Some(slot) => env
                    .tables
                    .get(slot as usize)
                    .is_some_and(|t| t.lookup_index(values).is_some()),
                None => c
                    .keys
                    .iter()
                    .zip(values)
                    .all(|(m, v)| m.matches(v, env.tables)),
            })
            .map(|c| c.next)
    })
}

/// Runs a parser from `start` over `env.input`.
pub fn run_parser(p: &CompiledParser, env: &mut Env<'_>) -> Outcome {
    if !p.init.is_empty()
        && let Flow::Reject(e) = run(&p.init, env)
    {
        return rejected(e);
    }
    if env.trace {
        run_states(p, env, 0, MAX_TRANSITIONS)
    } else if p.bounded {
        run_bounded(p, env)
    } else {
        run_steps(p, env)
    }
}

/// [`run_steps`] of a parser that cannot time out (see
/// [`CompiledParser::bounded`]): no transitions counted.
#[inline(always)]
fn run_bounded(p: &CompiledParser, env: &mut Env<'_>) -> Outcome {
    let mut state = 0u32;
    loop {
        let Some(step) = p.steps.get(state as usize) else {
            return Outcome::Reject(None);
        };
        if let Some(end) = ended(run_plain(&step.ops, env)) {
            return end;
        }
        state = match transition(p, &step.next, env) {
            Ok(next) => next,
            Err(end) => return end,
        };
    }
}

/// Runs the parser's joined [`Step`]s from `start`, without tracing.
fn run_steps(p: &CompiledParser, env: &mut Env<'_>) -> Outcome {
    let mut state = 0u32;
    let mut budget = MAX_TRANSITIONS;
    while budget > 0 {
        let Some(step) = p.steps.get(state as usize) else {
            return Outcome::Reject(None);
        };
        if step.hops > budget {
            // The limit falls inside the step: state by state to it.
            return run_states(p, env, state, budget);
        }
        budget -= step.hops;
        if let Some(end) = ended(run_plain(&step.ops, env)) {
            return end;
        }
        state = match transition(p, &step.next, env) {
            Ok(next) => next,
            Err(end) => return end,
        };
    }
    Outcome::Reject(Some(p.errors.parser_timeout))
}

/// Runs the parser state by state from `state`, at most `budget` states,
/// logging each when tracing.
fn run_states(p: &CompiledParser, env: &mut Env<'_>, mut state: u32, budget: usize) -> Outcome {
    for _ in 0..budget {
        let Some(s) = p.states.get(state as usize) else {
            return Outcome::Reject(None);
        };
        if env.trace {
            tracing::info!(target: "janus::trace", state = %s.name, at_bit = env.cursor, "parser");
        }
        if let Some(end) = ended(run(&s.ops, env)) {
            return end;
        }
        state = match transition(p, &s.next, env) {
            Ok(next) => next,
            Err(end) => return end,
        };
    }
    Outcome::Reject(Some(p.errors.parser_timeout))
}

/// Runs `ops` as [`run`] does, the plain ones inline.
#[inline(always)]
fn run_plain(ops: &[Op], env: &mut Env<'_>) -> Flow {
    for op in ops {
        let flow = match op {
            Op::SetWord { dst, value } => {
                dst.write(env.arena, *value);
                Flow::Continue
            }
            Op::MoveWord { dst, src } => {
                let v = src.read(env.arena);
                dst.write(env.arena, v);
                Flow::Continue
            }
            Op::ExtractFixed(h) => h.extract(env),
            op => run(std::slice::from_ref(op), env),
        };
        if flow != Flow::Continue {
            return flow;
        }
    }
    Flow::Continue
}

/// The next state a select of the general forms chooses, if any.
#[inline(never)]
fn choose_general(next: &Next, env: &mut Env<'_>) -> Option<u32> {
    match next {
        Next::Direct(n) => Some(*n),
        Next::Exact(x) => x.choose(env.arena),
        Next::Words(w) => w.choose(env),
        Next::Select { keys, cases } => choose_bits(keys, cases, env),
    }
}

/// The outcome of a parse whose state's ops ended with `flow`, if they
/// ended it.
#[inline]
fn ended(flow: Flow) -> Option<Outcome> {
    match flow {
        Flow::Reject(e) => Some(rejected(e)),
        Flow::Exit | Flow::Return => Some(Outcome::Reject(None)),
        Flow::Continue | Flow::Break | Flow::LoopContinue => None,
    }
}

/// The outcome of a rejection with error `e`.
fn rejected(e: u32) -> Outcome {
    Outcome::Reject((e != crate::exec::REJECT_WITHOUT_ERROR).then_some(e))
}

/// The state after `next`, or the outcome when the parse ends there.
#[inline]
fn transition(p: &CompiledParser, next: &Next, env: &mut Env<'_>) -> Result<u32, Outcome> {
    let chosen = match next {
        Next::Direct(n) => Some(*n),
        Next::Exact(x) => x.choose(env.arena),
        other => choose_general(other, env),
    };
    match chosen {
        None => Err(Outcome::Reject(Some(p.errors.no_match))),
        Some(ParserState::ACCEPT) => Err(Outcome::Accept),
        Some(ParserState::REJECT) => Err(Outcome::Reject(None)),
        Some(n) => Ok(n),
    }
}

#[cfg(test)]
mod tests;
