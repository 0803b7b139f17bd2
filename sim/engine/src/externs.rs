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
    /// Data (a list, or a header) whose every part sits at a fixed place:
    /// its bits resolved at load into runs (see [`DataLayout`]).
    Data(DataLayout),
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

/// A run of bits at a fixed place in the arena, counted only while the
/// header whose validity byte is `valid_byte` is valid (always, if `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitRun {
    pub valid_byte: Option<u32>,
    pub bit: u32,
    pub width: u32,
}

/// The bit layout of extern data (the fields of a checksum, hash or digest),
/// resolved at load: adjacent fields of one header merge into one run, so a
/// header's fields are copied as a few byte ranges per packet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataLayout {
    runs: Vec<BitRun>,
    /// The most bits the data can have (every header valid).
    max_bits: usize,
}

impl DataLayout {
    /// The layout of `arg`, if every scalar in it is at a fixed place and
    /// of a known width (`width_of`); `None` for data with a run-time index
    /// or a varbit field, or headers nested in guarded parts.
    pub fn of(arg: &ExternArg, width_of: &dyn Fn(TyId) -> Option<u32>) -> Option<DataLayout> {
        let mut layout = DataLayout::default();
        layout.add(arg, None, width_of)?;
        Some(layout)
    }

    fn add(
        &mut self,
        arg: &ExternArg,
        guard: Option<u32>,
        width_of: &dyn Fn(TyId) -> Option<u32>,
    ) -> Option<()> {
        match arg {
            ExternArg::List(parts) => {
                for p in parts {
                    self.add(p, guard, width_of)?;
                }
            }
            ExternArg::Guarded {
                valid: Place::Fixed { bit, .. },
                parts,
            } if guard.is_none() => {
                for p in parts {
                    self.add(p, Some(bit / 8), width_of)?;
                }
            }
            ExternArg::Place {
                place: Place::Fixed { bit, .. },
                ty,
            } => self.push(BitRun {
                valid_byte: guard,
                bit: *bit,
                width: width_of(*ty)?,
            }),
            ExternArg::Data(inner) => {
                for run in &inner.runs {
                    if guard.is_some() && run.valid_byte.is_some() {
                        return None;
                    }
                    self.push(BitRun {
                        valid_byte: run.valid_byte.or(guard),
                        ..*run
                    });
                }
            }
            _ => return None,
        }
        Some(())
    }

    fn push(&mut self, run: BitRun) {
        self.max_bits += run.width as usize;
        if let Some(last) = self.runs.last_mut()
            && last.valid_byte == run.valid_byte
            && last.bit + last.width == run.bit
        {
            last.width += run.width;
            return;
        }
        self.runs.push(run);
    }

    /// The runs, in order.
    pub fn runs(&self) -> &[BitRun] {
        &self.runs
    }

    /// Appends the data's bits (runs of invalid headers left out) to `out`
    /// from bit `at`; returns the bit count after them.
    pub fn append_to(&self, arena: &[u8], out: &mut Vec<u8>, mut at: usize) -> usize {
        let need = (at + self.max_bits).div_ceil(8);
        if out.len() < need {
            out.resize(need, 0);
        }
        for run in &self.runs {
            if run.valid_byte.is_some_and(|b| arena[b as usize] == 0) {
                continue;
            }
            let n = run.width as usize;
            crate::env::copy_bits(arena, run.bit as usize, out, at, n);
            at += n;
        }
        at
    }
}
