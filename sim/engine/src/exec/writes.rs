//! The bytes of the arena that compiled code may write, worked out at load
//! time, so that a packet's state is reset by clearing those bytes alone:
//! every other byte is never written and stays zero from the start.
//!
//! The walk is conservative: a place chosen at run time counts as its
//! whole range (every element of a stack), and every place an extern gets
//! counts as written, whatever its direction. [`ArenaReset::stray`] checks
//! the claim: after a packet, no byte outside the set may be nonzero.

use super::ops::{ActionImpl, Op};
use crate::eval::Place;
use crate::externs::ExternArg;
use crate::layout::{LayoutError, Layouts};
use crate::parser::CompiledParser;
use std::ops::Range;

/// Gaps between written ranges up to this many bytes are cleared too: one
/// longer clear is cheaper than two calls (`memset` clears 256 bytes in
/// about as many instructions as a call costs).
const MERGE_GAP: u32 = 256;

/// Byte ranges that compiled code may write, collected op by op.
pub struct WriteSet<'l, 'a> {
    layouts: &'l mut Layouts<'a>,
    /// Half-open byte ranges, in the order found.
    ranges: Vec<(u32, u32)>,
}

impl<'l, 'a> WriteSet<'l, 'a> {
    pub fn new(layouts: &'l mut Layouts<'a>) -> Self {
        WriteSet {
            layouts,
            ranges: Vec::new(),
        }
    }

    /// Bytes `range` (written by the architecture itself, such as its
    /// metadata).
    pub fn bytes(&mut self, range: Range<u32>) {
        if range.start < range.end {
            self.ranges.push((range.start, range.end));
        }
    }

    /// Bits `lo..hi`, widened to whole bytes.
    fn bits(&mut self, lo: u32, hi: u32) {
        self.bytes(lo / 8..hi.div_ceil(8));
    }

    /// Everything a parser may write: its prologue and its states' ops.
    pub fn parser(&mut self, p: &CompiledParser) -> Result<(), LayoutError> {
        self.ops(&p.init)?;
        for s in &p.states {
            self.ops(&s.ops)?;
        }
        Ok(())
    }

    /// Everything `ops` may write, nested ops included.
    pub fn ops(&mut self, ops: &[Op]) -> Result<(), LayoutError> {
        for op in ops {
            self.op(op)?;
        }
        Ok(())
    }

    fn op(&mut self, op: &Op) -> Result<(), LayoutError> {
        match op {
            Op::Store { place, .. } => self.place(place)?,
            Op::SetWord { dst, .. } | Op::MoveWord { dst, .. } | Op::AddWord { dst, .. } => {
                self.bits(dst.bit(), dst.bit() + dst.width())
            }
            Op::StoreWord { bit, value } => {
                // A narrow value of at most 64 bits: its width bounds it.
                let width = crate::eval::narrow_width(value).unwrap_or(64);
                self.bits(*bit, bit + width)
            }
            Op::Copy { dst, .. } | Op::Zero { dst, .. } => self.place(dst)?,
            Op::SetValidity { header, .. } => self.place(header)?,
            Op::StackShift {
                stack, next_index, ..
            } => {
                self.place(stack)?;
                self.bytes(*next_index..next_index + 4);
            }
            Op::If(_, a, b) | Op::IfTest(_, a, b) => {
                self.ops(a)?;
                self.ops(b)?;
            }
            Op::Seq(body) => self.ops(body)?,
            Op::Switch { bodies, .. } => {
                for body in bodies.iter() {
                    self.ops(body)?;
                }
            }
            Op::Loop { body, update, .. } => {
                self.ops(body)?;
                self.ops(update)?;
            }
            Op::CallAction {
                copy_in,
                body,
                copy_out,
            } => {
                self.ops(copy_in)?;
                self.ops(body)?;
                self.ops(copy_out)?;
            }
            Op::Exit | Op::Return | Op::Break | Op::LoopContinue => {}
            Op::Extract {
                header, next_index, ..
            } => {
                self.place(header)?;
                if let Some(n) = next_index {
                    self.bytes(*n..n + 4);
                }
            }
            Op::ExtractFixed(h) => {
                self.bits(h.byte * 8, h.byte * 8 + h.bits);
                self.bytes(h.valid..h.valid + 1);
            }
            Op::Peek { header, .. } => self.place(header)?,
            Op::Advance { .. }
            | Op::Require { .. }
            | Op::Verify { .. }
            | Op::Emit { .. }
            | Op::EmitFixed(_)
            | Op::EmitFixedRun(_) => {}
            Op::SubParser {
                copy_in,
                parser,
                copy_out,
            } => {
                self.ops(copy_in)?;
                self.parser(parser)?;
                self.ops(copy_out)?;
            }
            Op::Extern { args, result, .. } => {
                for a in args {
                    self.extern_arg(a)?;
                }
                if let Some(r) = result {
                    self.place(r)?;
                }
            }
            Op::ApplyTable { actions, .. } => {
                for a in actions {
                    self.action(a)?;
                }
            }
        }
        Ok(())
    }

    fn action(&mut self, a: &ActionImpl) -> Result<(), LayoutError> {
        for p in &a.params {
            self.place(&p.place)?;
        }
        self.ops(&a.copy_in)?;
        self.ops(&a.body)?;
        self.ops(&a.copy_out)
    }

    fn extern_arg(&mut self, a: &ExternArg) -> Result<(), LayoutError> {
        match a {
            ExternArg::Place { place, .. } => self.place(place)?,
            ExternArg::Varbit { place, len } => {
                self.place(place)?;
                self.place(len)?;
            }
            ExternArg::List(parts) | ExternArg::Guarded { parts, .. } => {
                for p in parts {
                    self.extern_arg(p)?;
                }
            }
            ExternArg::Value(_) | ExternArg::Data(_) | ExternArg::Str(_) | ExternArg::Absent => {}
        }
        Ok(())
    }

    /// Every byte `place` may stand for.
    fn place(&mut self, place: &Place) -> Result<(), LayoutError> {
        let bits = (self.layouts.layout(place.ty())?.bytes * 8).max(1);
        match place {
            Place::Fixed { bit, .. } => self.bits(*bit, bit + bits),
            Place::Indexed {
                base,
                stride,
                size,
                offset,
                ..
            }
            | Place::StackNext {
                base,
                stride,
                size,
                offset,
                ..
            } => {
                let last = base + size.saturating_sub(1) * stride + offset;
                self.bits(base + offset, last + bits);
            }
            Place::IndexedIn { outer, .. } => self.place(outer)?,
        }
        Ok(())
    }

    /// The ranges to clear, sorted and merged.
    pub fn finish(mut self) -> ArenaReset {
        self.ranges.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(self.ranges.len());
        for (lo, hi) in self.ranges {
            match merged.last_mut() {
                Some(last) if lo <= last.1 + MERGE_GAP => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        ArenaReset {
            ranges: merged
                .into_iter()
                .map(|(lo, hi)| lo as usize..hi as usize)
                .collect(),
        }
    }
}

/// How a packet's arena is reset: the bytes compiled code may write, as
/// sorted, disjoint ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArenaReset {
    ranges: Box<[Range<usize>]>,
}

impl ArenaReset {
    /// Zeroes every byte that may have been written. Ranges past the
    /// arena's end are cut at it.
    #[inline]
    pub fn clear(&self, arena: &mut [u8]) {
        for r in self.ranges.iter() {
            let end = r.end.min(arena.len());
            if let Some(bytes) = arena.get_mut(r.start..end) {
                bytes.fill(0);
            }
        }
    }

    /// How many ranges are cleared.
    pub fn ranges(&self) -> usize {
        self.ranges.len()
    }

    /// The bytes cleared.
    pub fn cleared_bytes(&self) -> usize {
        self.ranges.iter().map(|r| r.len()).sum()
    }

    /// The first nonzero byte of `arena` outside the ranges: a write the
    /// walk missed (which would carry state from one packet to the next).
    pub fn stray(&self, arena: &[u8]) -> Option<usize> {
        let mut from = 0;
        for r in self
            .ranges
            .iter()
            .chain(std::iter::once(&(arena.len()..arena.len())))
        {
            let to = r.start.min(arena.len());
            if let Some(i) = arena
                .get(from..to)
                .and_then(|b| b.iter().position(|&x| x != 0))
            {
                return Some(from + i);
            }
            from = from.max(r.end);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use janus_p4::types::TypeTable;

    fn reset_of(ranges: &[Range<u32>]) -> ArenaReset {
        let types = TypeTable::new();
        let mut layouts = Layouts::new(&types);
        let mut w = WriteSet::new(&mut layouts);
        for r in ranges {
            w.bytes(r.clone());
        }
        w.finish()
    }

    #[test]
    fn near_ranges_merge_and_far_ones_stay_apart() {
        let r = reset_of(&[600..610, 0..4, 2..8, 40..48]);
        assert_eq!(&*r.ranges, &[0..48, 600..610]);
        assert_eq!(r.cleared_bytes(), 58);
    }

    #[test]
    fn clear_zeroes_the_ranges_and_stray_finds_writes_outside_them() {
        let r = reset_of(&[10..20, 300..310]);
        let mut arena = vec![0u8; 400];
        arena[10] = 1;
        arena[309] = 2;
        assert_eq!(r.stray(&arena), None);
        arena[60] = 3;
        arena[399] = 4;
        assert_eq!(r.stray(&arena), Some(60));
        r.clear(&mut arena);
        assert_eq!(arena[10] | arena[309], 0);
        assert_eq!(
            (arena[60], arena[399]),
            (3, 4),
            "outside the ranges: left alone"
        );
        arena[60] = 0;
        assert_eq!(r.stray(&arena), Some(399));
    }

    #[test]
    fn ranges_past_the_arena_are_cut() {
        let r = reset_of(&[4..64, 400..420]);
        let mut arena = vec![9u8; 8];
        r.clear(&mut arena);
        assert_eq!(arena, [9, 9, 9, 9, 0, 0, 0, 0]);
    }
}
