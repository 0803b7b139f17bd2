//! Walking a register space's chain of blocks.

use super::field::u32_at;
use super::{HEADER_LEN, RegsError};

/// One block found by [`walk`]: its offset and exactly its bytes.
#[derive(Debug, Clone, Copy)]
pub struct Block<'a> {
    /// Offset of the block from the start of the space.
    pub offset: usize,
    /// The block's bytes, header included.
    pub bytes: &'a [u8],
}

impl Block<'_> {
    /// The block's type (`TYPE_*`).
    pub fn block_type(&self) -> u32 {
        u32_at(self.bytes, 0).unwrap_or(0)
    }

    /// The block's version.
    pub fn version(&self) -> u32 {
        u32_at(self.bytes, 4).unwrap_or(0)
    }
}

/// Lists the blocks of `space`, starting at offset 0. Pointers must go
/// strictly forward, past the end of the current block and on an 8-byte
/// boundary, so the walk visits each byte at most once and cannot loop; it
/// yields an error and stops at the first malformed block.
pub fn walk(space: &[u8]) -> Walk<'_> {
    Walk {
        space,
        next: Some(0),
    }
}

/// Iterator returned by [`walk`].
#[derive(Debug, Clone)]
pub struct Walk<'a> {
    space: &'a [u8],
    next: Option<usize>,
}

impl<'a> Walk<'a> {
    fn block_at(&mut self, offset: usize) -> Result<Block<'a>, RegsError> {
        let rest = self.space.get(offset..).unwrap_or(&[]);
        if rest.len() < HEADER_LEN {
            return Err(RegsError::Truncated {
                offset,
                needed: HEADER_LEN,
                available: rest.len(),
            });
        }
        let len = u32_at(rest, 12).unwrap_or(0);
        let next = u32_at(rest, 8).unwrap_or(0);
        if (len as usize) < HEADER_LEN || !len.is_multiple_of(8) {
            return Err(RegsError::BadLength { offset, len });
        }
        let bytes = rest.get(..len as usize).ok_or(RegsError::Truncated {
            offset,
            needed: len as usize,
            available: rest.len(),
        })?;
        let end = offset + len as usize;
        if next != 0 {
            let n = next as usize;
            if n < end || !n.is_multiple_of(8) {
                return Err(RegsError::Loop { offset, next });
            }
            if n >= self.space.len() {
                return Err(RegsError::OutOfRange { offset, next });
            }
            self.next = Some(n);
        }
        Ok(Block { offset, bytes })
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = Result<Block<'a>, RegsError>;

    fn next(&mut self) -> Option<Self::Item> {
        let offset = self.next.take()?;
        Some(self.block_at(offset))
    }
}
