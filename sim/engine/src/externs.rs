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
use crate::flow::Flow;
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

/// One extern call site, as the engine compiled it.
#[derive(Clone, Copy, Debug)]
pub struct CallSite<'a> {
    /// The extern function, or the method when `instance` is the receiver.
    pub name: &'a str,
    pub instance: Option<InstanceId>,
    /// The block instance making the call (an extern declared in a control
    /// instantiated twice has state in each).
    pub path: &'a str,
    /// The compiled arguments, the same the handler gets with each call:
    /// what they fix for every packet can be worked out once, here.
    pub args: &'a [ExternArg],
}

/// Maps extern call sites to the architecture's ids, at load time.
pub trait ExternResolver {
    /// The id for calls at `site`; `None` if the architecture does not
    /// implement it (the pipeline then fails to load, saying so).
    fn resolve(&self, site: &CallSite<'_>) -> Option<u32>;

    /// Whether argument `index` of calls to `name` (a method of `instance`,
    /// or an extern function) is data read field by field, such as a
    /// hash's or checksum's: a struct given there is compiled as the list
    /// of its fields. False (the struct stays one place) by default, and
    /// must be for `out` and `inout` arguments.
    fn is_data(&self, name: &str, instance: Option<InstanceId>, index: usize) -> bool {
        let _ = (name, instance, index);
        false
    }
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

    /// [`ExternHandler::call`] whose first argument, an unsigned value of
    /// at most 64 bits, the caller has evaluated to `first` (the compiled
    /// tier computes it inline). It must do what `call` does; the default
    /// is `call` itself.
    fn call_with_first(
        &mut self,
        id: u32,
        first: u64,
        args: &[ExternArg],
        result: Option<&Place>,
        env: &mut Env<'_>,
    ) -> Flow {
        let _ = first;
        self.call(id, args, result, env)
    }

    /// Entry `entry` of the table in `slot` matched, and its action is
    /// about to run; called only for tables whose
    /// [`crate::table::TableState::hit_hook`] is set (e.g. v1model's direct
    /// meters, which write their colour on every hit).
    fn table_hit(&mut self, _slot: u32, _entry: u32, _env: &mut Env<'_>) {}
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
    /// Every run starts on a byte and is whole bytes long (set by [`Self::of`]).
    aligned: bool,
    /// One past the last arena byte any run or validity byte touches.
    end_byte: usize,
}

impl DataLayout {
    /// The layout of `arg`, if every scalar in it is at a fixed place and
    /// of a known width (`width_of`); `None` for data with a run-time index
    /// or a varbit field, or headers nested in guarded parts.
    pub fn of(arg: &ExternArg, width_of: &dyn Fn(TyId) -> Option<u32>) -> Option<DataLayout> {
        let mut layout = DataLayout::default();
        layout.add(arg, None, width_of)?;
        layout.aligned = layout
            .runs
            .iter()
            .all(|r| r.bit.is_multiple_of(8) && r.width.is_multiple_of(8));
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
        let valid_end = run.valid_byte.map_or(0, |b| b as usize + 1);
        let run_end = (run.bit as usize + run.width as usize).div_ceil(8);
        self.end_byte = self.end_byte.max(valid_end).max(run_end);
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

    /// Hands the bytes of each run of a valid header (or of no header)
    /// straight from `arena` to `f`, in order, without copying: together
    /// they are the bytes [`Self::append_to`] would write. False (and `f`
    /// never called) if some run is not whole bytes on a byte boundary, or
    /// the arena is too short for the layout.
    pub fn for_each_aligned(&self, arena: &[u8], mut f: impl FnMut(&[u8])) -> bool {
        if !self.aligned || arena.len() < self.end_byte {
            return false;
        }
        for run in &self.runs {
            if run.valid_byte.is_some_and(|b| arena[b as usize] == 0) {
                continue;
            }
            let start = run.bit as usize / 8;
            f(&arena[start..start + run.width as usize / 8]);
        }
        true
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A header's validity byte (none: always counted) and its fields as
    /// (bit, width).
    type Group = (Option<u32>, Vec<(u32, u32)>);

    /// A field of `width` bits at `bit`; the type id is its width.
    fn field(bit: u32, width: u32) -> ExternArg {
        ExternArg::Place {
            place: Place::Fixed {
                bit,
                ty: TyId(width),
            },
            ty: TyId(width),
        }
    }

    /// Data from groups of (validity byte, fields as (bit, width)).
    fn data(groups: &[Group]) -> DataLayout {
        let parts = groups
            .iter()
            .map(|(valid, fields)| {
                let parts = fields.iter().map(|&(b, w)| field(b, w)).collect();
                match valid {
                    Some(v) => ExternArg::Guarded {
                        valid: Place::Fixed {
                            bit: v * 8,
                            ty: TyId(8),
                        },
                        parts,
                    },
                    None => ExternArg::List(parts),
                }
            })
            .collect();
        DataLayout::of(&ExternArg::List(parts), &|t| Some(t.0)).expect("fixed data")
    }

    fn collected(layout: &DataLayout, arena: &[u8]) -> Option<Vec<u8>> {
        let mut got = Vec::new();
        layout
            .for_each_aligned(arena, |b| got.extend_from_slice(b))
            .then_some(got)
    }

    /// Groups of byte-aligned fields in a 64-byte arena whose first 4
    /// bytes are validity bytes.
    fn aligned_groups() -> impl Strategy<Value = Vec<Group>> {
        let fields = prop::collection::vec((4u32..56, 0u32..8), 0..5)
            .prop_map(|f| f.into_iter().map(|(at, n)| (at * 8, n * 8)).collect());
        prop::collection::vec((prop::option::of(0u32..4), fields), 0..5)
    }

    proptest! {
        #[test]
        fn aligned_runs_are_the_appended_bytes(
            groups in aligned_groups(),
            arena in prop::collection::vec(any::<u8>(), 64),
            valid in prop::collection::vec(0u8..2, 4),
        ) {
            let mut arena = arena;
            arena[..4].copy_from_slice(&valid);
            let layout = data(&groups);
            let mut want = Vec::new();
            let bits = layout.append_to(&arena, &mut want, 0);
            want.truncate(bits / 8);
            prop_assert_eq!(collected(&layout, &arena), Some(want));
        }
    }

    #[test]
    fn unaligned_or_short_data_is_refused() {
        let arena = [1u8; 16];
        // A 4-bit field alone is not whole bytes.
        assert_eq!(collected(&data(&[(None, vec![(8, 4)])]), &arena), None);
        // Two 4-bit fields side by side merge into one whole byte.
        let nibbles = data(&[(None, vec![(8, 4), (12, 4)])]);
        assert_eq!(collected(&nibbles, &arena), Some(vec![1]));
        // A run past the end of the arena.
        let far = data(&[(None, vec![(120, 16)])]);
        assert_eq!(collected(&far, &arena), None);
    }
}
