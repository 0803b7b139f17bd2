//! Indexed externs (counters, registers, meters) as P4Runtime addresses
//! them: the switch's name for one, its size and the shape of its cells,
//! and the cells an `Index` names (P4Runtime 1.5 §9.2 "CounterEntry": no
//! index is every cell).

use crate::codec::{RpcError, invalid};
use crate::proto::p4::v1 as p4;
use tonic::Code;

/// An indexed extern: the switch's name for it, its size and its cells'
/// shape (a counter's unit, a register's cell width, nothing for a meter).
#[derive(Clone, Debug)]
pub(crate) struct Indexed<Shape> {
    pub(crate) name: String,
    pub(crate) size: u64,
    pub(crate) shape: Shape,
}

impl<Shape> Indexed<Shape> {
    /// The cells `index` names: one (checked against the size), or all.
    pub(crate) fn cells(
        &self,
        index: Option<&p4::Index>,
    ) -> Result<std::ops::Range<u64>, RpcError> {
        cells(index, self.size, &self.name)
    }
}

/// The cells an `Index` names: one (checked against `size`), or all.
fn cells(
    index: Option<&p4::Index>,
    size: u64,
    what: &str,
) -> Result<std::ops::Range<u64>, RpcError> {
    match index {
        None => Ok(0..size),
        Some(i) if i.index < 0 => Err(invalid(format!("{what}: negative index {}", i.index))),
        Some(i) if i.index as u64 >= size => Err(RpcError::new(
            Code::OutOfRange,
            format!("{what}: index {} beyond the size {size}", i.index),
        )),
        Some(i) => Ok(i.index as u64..i.index as u64 + 1),
    }
}

/// An extern a read covers: its id, its map and the index to read.
pub(crate) type Selected<'a, Shape> = (u32, &'a Indexed<Shape>, Option<&'a p4::Index>);

/// The ids a read of `id` covers: every one for 0, else `id` if it is
/// known (NOT_FOUND naming `what` if not); with the index to read (a
/// wildcard read of every extern reads every cell).
pub(crate) fn selected<'a, Shape>(
    all: &'a std::collections::BTreeMap<u32, Indexed<Shape>>,
    id: u32,
    index: Option<&'a p4::Index>,
    what: &str,
) -> Result<Vec<Selected<'a, Shape>>, RpcError> {
    if id == 0 {
        return Ok(all.iter().map(|(id, x)| (*id, x, None)).collect());
    }
    let x = all
        .get(&id)
        .ok_or_else(|| RpcError::new(Code::NotFound, format!("no {what} with id {id}")))?;
    Ok(vec![(id, x, index)])
}
