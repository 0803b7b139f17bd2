//! Janus engine, compiled tier: a block's [`Op`]s compiled to machine code
//! at load time (with Cranelift), the interpreter ([`exec::run`]) kept as
//! the reference and as the path traced packets take.
//!
//! A [`Block`] holds its ops and, when any of them compiles, the code. The
//! code works on the packet arena directly for the ops it compiles (word
//! stores and moves, stores of narrow expressions, `setValid` and
//! `setInvalid`, copies and clears, specialised tests, branches, blocks,
//! action calls, the key reads and actions of table applies, `exit` and
//! `return`); extern calls are direct calls into the architecture's
//! handler, their first argument computed by the code when it is an
//! unsigned word; every other op is a call into the interpreter for that
//! op alone, counted in [`Coverage::interpreted`]. Every arena access the code makes is checked
//! against the arena's size when the block is compiled, and the block
//! runs compiled only over an arena of that size: no packet can make it
//! touch memory outside the arena.

mod emit;
mod entry;

use janus_engine::env::Env;
use janus_engine::exec::{self, Op};
use janus_engine::flow::Flow;

/// How many of a block's ops run as machine code and how many through the
/// interpreter (counted where they appear, not as they run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub compiled: usize,
    pub interpreted: usize,
}

impl std::ops::AddAssign for Coverage {
    fn add_assign(&mut self, other: Coverage) {
        self.compiled += other.compiled;
        self.interpreted += other.interpreted;
    }
}

/// Which tier runs a block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tier {
    /// Machine code where the block compiled, the interpreter elsewhere.
    #[default]
    Compiled,
    /// The interpreter only.
    Interpreter,
}

/// Why a block did not compile (it then runs in the interpreter).
#[derive(Debug, thiserror::Error)]
pub enum JitError {
    #[error("no code generator for this machine: {0}")]
    Host(String),
    #[error("code generation failed: {0}")]
    Codegen(String),
}

/// A block's ops with the code compiled from them.
pub struct Block {
    /// The ops; the code points into this allocation, which never moves
    /// or changes while the code lives.
    ops: Box<[Op]>,
    code: Option<emit::Code>,
    coverage: Coverage,
    /// Why the code generator refused the block, if it did.
    refusal: Option<JitError>,
    /// The arena size the code was checked against.
    arena_len: usize,
}

impl Block {
    /// The block of `ops`, compiled (for [`Tier::Compiled`]) for arenas of
    /// `arena_len` bytes. A block with nothing to compile, or one the code
    /// generator refuses (logged), runs in the interpreter.
    pub fn new(ops: Vec<Op>, arena_len: usize, tier: Tier) -> Block {
        let mut block = Block {
            ops: ops.into_boxed_slice(),
            code: None,
            coverage: Coverage::default(),
            refusal: None,
            arena_len,
        };
        block.set_tier(tier);
        block
    }

    /// Compiles the block (again), or drops its code.
    pub fn set_tier(&mut self, tier: Tier) {
        self.code = None;
        self.refusal = None;
        self.coverage = Coverage {
            compiled: 0,
            interpreted: count_ops(&self.ops),
        };
        if tier == Tier::Interpreter {
            return;
        }
        match emit::compile(&self.ops, self.arena_len) {
            Ok(Some((code, coverage))) => {
                self.code = Some(code);
                self.coverage = coverage;
            }
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(error = %e, "block left to the interpreter");
                self.refusal = Some(e);
            }
        }
    }

    /// Why the code generator refused the block (which then runs in the
    /// interpreter), if it did.
    pub fn refusal(&self) -> Option<&JitError> {
        self.refusal.as_ref()
    }

    /// Whether any of the block runs as machine code.
    pub fn is_compiled(&self) -> bool {
        self.code.is_some()
    }

    /// What runs compiled and what in the interpreter.
    pub fn coverage(&self) -> Coverage {
        self.coverage
    }

    /// Runs the block: the compiled code, unless tracing (the interpreter
    /// shows each step) or there is none, or the arena is not the size the
    /// code was checked against.
    #[inline]
    pub fn run(&self, env: &mut Env<'_>) -> Flow {
        match &self.code {
            Some(code) if !env.trace && env.arena.len() == self.arena_len => code.run(env),
            _ => exec::run(&self.ops, env),
        }
    }
}

impl std::fmt::Debug for Block {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Block")
            .field("ops", &self.ops.len())
            .field("coverage", &self.coverage)
            .finish()
    }
}

/// The ops of `ops`, nested ones included.
fn count_ops(ops: &[Op]) -> usize {
    let mut n = 0;
    emit::each_op(ops, &mut |_| n += 1);
    n
}

/// A flow as the code passes it: 0 for [`Flow::Continue`], a small number
/// for the others, `REJECT | error` for [`Flow::Reject`].
pub(crate) mod flow_code {
    use janus_engine::flow::Flow;

    pub const CONTINUE: i64 = 0;
    pub const RETURN: i64 = 1;
    pub const EXIT: i64 = 2;
    pub const BREAK: i64 = 3;
    pub const LOOP_CONTINUE: i64 = 4;
    pub const REJECT: i64 = 1 << 32;

    pub fn encode(flow: Flow) -> i64 {
        match flow {
            Flow::Continue => CONTINUE,
            Flow::Return => RETURN,
            Flow::Exit => EXIT,
            Flow::Break => BREAK,
            Flow::LoopContinue => LOOP_CONTINUE,
            Flow::Reject(e) => REJECT | i64::from(e),
        }
    }

    pub fn decode(code: i64) -> Flow {
        match code {
            CONTINUE => Flow::Continue,
            RETURN => Flow::Return,
            EXIT => Flow::Exit,
            BREAK => Flow::Break,
            LOOP_CONTINUE => Flow::LoopContinue,
            c => Flow::Reject(c as u32),
        }
    }
}
