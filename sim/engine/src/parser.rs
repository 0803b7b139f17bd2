//! Parsers compiled for execution: states of ops ending in a transition,
//! with `select` keysets resolved to constants at load time.

use crate::env::Env;
use crate::eval::{CompileError, Compiler, Node, constant, scalar_shape};
use crate::exec::{Flow, Op, ParserErrors, compile_stmts, guarded, run};
use crate::value::{Bits, read_word};
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

#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    Direct(u32),
    Select {
        keys: Vec<Node>,
        cases: Vec<Case>,
    },
    /// A select whose keys all fit in 64 bits and whose keysets are all
    /// constants, matched on words.
    Words(WordSelect),
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
    /// `keys.len()` matches per case, case after case.
    matches: Vec<WordMatch>,
    /// Each case's next state.
    nexts: Vec<u32>,
}

/// A key of a [`WordSelect`].
#[derive(Clone, Debug, PartialEq)]
enum WordKey {
    /// A field at a fixed bit of the arena (the common case), read inline.
    Field { bit: u32, width: u32 },
    /// Any other narrow node (the node inside its [`Node::Narrow`]).
    Node(Node),
}

impl WordKey {
    /// The key's bit pattern.
    #[inline]
    fn pattern(&self, env: &Env<'_>) -> u64 {
        match self {
            WordKey::Field { bit, width } => read_word(env.arena, *bit as usize, *width),
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
                    Node::LoadFixed { bit, width, .. } => WordKey::Field { bit, width },
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
        Some(WordSelect {
            keys,
            bias,
            matches,
            nexts: cases.iter().map(|c| c.next).collect(),
        })
    }

    /// The next state of the first case that matches, if any.
    #[inline]
    pub fn choose(&self, env: &Env<'_>) -> Option<u32> {
        if let ([key], [bias]) = (self.keys.as_slice(), self.bias.as_slice()) {
            let k = key.pattern(env) ^ bias;
            let i = self.matches.iter().position(|m| m.matches(k))?;
            return self.nexts.get(i).copied();
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
    pub errors: ParserErrors,
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
                            None => keyset(c, &case.keyset, &key_tys)?,
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
                match shapes.and_then(|s| WordSelect::of(&key_nodes, &s, &cases)) {
                    Some(words) => Next::Words(words),
                    None => Next::Select {
                        keys: key_nodes,
                        cases,
                    },
                }
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
        states,
        errors: ParserErrors::of(c.program),
    })
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
        return Outcome::Reject((e != crate::exec::REJECT_WITHOUT_ERROR).then_some(e));
    }
    let mut state = 0u32;
    for _ in 0..MAX_TRANSITIONS {
        let Some(s) = p.states.get(state as usize) else {
            return Outcome::Reject(None);
        };
        if env.trace {
            tracing::info!(target: "janus::trace", state = %s.name, at_bit = env.cursor, "parser");
        }
        match run(&s.ops, env) {
            Flow::Reject(e) => {
                return Outcome::Reject((e != crate::exec::REJECT_WITHOUT_ERROR).then_some(e));
            }
            Flow::Exit | Flow::Return => return Outcome::Reject(None),
            Flow::Continue | Flow::Break | Flow::LoopContinue => {}
        }
        let next = match &s.next {
            Next::Direct(n) => *n,
            Next::Words(w) => match w.choose(env) {
                Some(next) => next,
                None => return Outcome::Reject(Some(p.errors.no_match)),
            },
            Next::Select { keys, cases } => match choose_bits(keys, cases, env) {
                Some(next) => next,
                None => return Outcome::Reject(Some(p.errors.no_match)),
            },
        };
        state = match next {
            ParserState::ACCEPT => return Outcome::Accept,
            ParserState::REJECT => return Outcome::Reject(None),
            n => n,
        };
    }
    Outcome::Reject(Some(p.errors.parser_timeout))
}

#[cfg(test)]
mod tests;
