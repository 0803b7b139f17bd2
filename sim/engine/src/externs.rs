//! The hook through which an architecture implements extern functions and
//! extern object methods.
//!
//! At load time the engine asks the architecture's [`ExternResolver`] for
//! an id for each extern call site (by name and instance); the compiled
//! [`crate::exec::Op::Extern`] carries that id and the arguments. At run
//! time the architecture's [`ExternHandler`] gets the id and the arguments
//! and does the work, so no names are looked up per packet.

use crate::env::Env;
use crate::eval::{Node, Place};
use crate::exec::Flow;
use janus_p4::ir::InstanceId;
use janus_p4::types::TyId;

/// An argument of an extern call, as compiled.
#[derive(Clone, Debug, PartialEq)]
pub enum ExternArg {
    /// An `in` argument of a scalar type.
    Value(Node),
    /// An `out`/`inout` argument, or any argument of a composite type:
    /// where it lives and its type.
    Place { place: Place, ty: TyId },
    /// A list (`{a, b, c}`), e.g. the data of a hash or checksum.
    List(Vec<ExternArg>),
    /// A header, or a field of one, inside a list or as a data argument:
    /// `parts` count only while the header is valid (checksums and hashes
    /// skip invalid headers, as bmv2 does). `valid` is the validity byte.
    Guarded { valid: Place, parts: Vec<ExternArg> },
    /// A varbit field: `len` is its current length in bits (a 4-byte
    /// counter in the arena), `place` its first bit.
    Varbit { place: Place, len: Place },
    /// A compile-time string (`log_msg`).
    Str(String),
    /// An argument left out (an `@optional` parameter) or `_`.
    Absent,
}

/// Maps extern call sites to the architecture's ids, at load time.
pub trait ExternResolver {
    /// The id for calls of `name` (an extern function, or a method when
    /// `instance` is the receiver) made in the block instance at `path`
    /// (an extern declared in a control instantiated twice has state in
    /// each); `None` if the architecture does not implement it (the
    /// pipeline then fails to load, saying so).
    fn resolve(&self, name: &str, instance: Option<InstanceId>, path: &str) -> Option<u32>;
}

/// Runs extern calls, at run time.
pub trait ExternHandler {
    /// Runs the call with `id`, writing its result (if the call is used as
    /// a value) to `result`; a [`Flow`] other than `Continue` ends the block
    /// (e.g. a parser error).
    fn call(
        &mut self,
        id: u32,
        args: &[ExternArg],
        result: Option<&Place>,
        env: &mut Env<'_>,
    ) -> Flow;
}
