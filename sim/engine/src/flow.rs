//! How running a statement list ended: the one thing the interpreter,
//! the parser and an architecture's externs all speak.

/// How execution of a statement list ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Return,
    Exit,
    Break,
    LoopContinue,
    /// A parser error: the parser stops and goes to `reject` with this
    /// `error` (its index in the program's error list).
    Reject(u32),
}
