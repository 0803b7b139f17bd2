//! Statements compiled for execution over the packet arena.
//!
//! [`compile_stmts`] turns IR statements into [`Op`]s whose places are all
//! resolved (see [`crate::eval`]); [`run`] executes them. P4's control flow
//! maps onto [`Flow`]: `return` ends the innermost action or apply block,
//! `exit` ends the whole pipeline stage, `break`/`continue` the innermost loop.
//!
//! The op types are in `ops`, the compiler in `compile`, the interpreter
//! in `run`; `special` rewrites common shapes into ops of their own;
//! `writes` works out which bytes of the arena they may write.

mod compile;
mod ops;
mod run;
mod special;
#[cfg(test)]
mod tests;
mod writes;

pub use compile::{block_prologue, compile_control, compile_stmts, guarded};
pub use ops::{
    ActionImpl, ActionParam, HeaderShape, NO_ERROR, Op, ParserErrors, REJECT_WITHOUT_ERROR,
    TableKeys, VarbitSlot,
};
pub(crate) use run::with_values;
pub use run::{
    Chosen, call_extern, call_extern_with_first, choose_action, choose_action_with_keys, run,
};
pub use special::{Cmp, EmitRun, FixedHeader, Test};
pub use writes::{ArenaReset, WriteSet};
