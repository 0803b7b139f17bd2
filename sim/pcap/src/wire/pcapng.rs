//! The pcapng format (draft-ietf-opsawg-pcapng): a sequence of blocks.
//!
//! Every block has the same frame:
//!
//! ```text
//!  0 block type
//!  4 block total length (whole block, a multiple of 4, at least 12)
//!  8 block body (type-specific fields, then options)
//!    block total length (again)
//! ```
//!
//! A file is one or more sections, each starting with a Section Header Block
//! whose byte-order magic gives the byte order of every block in the section.
//! [`Block`] views the frame; the body views ([`SectionHeader`],
//! [`InterfaceDescription`], [`EnhancedPacket`], [`ObsoletePacket`],
//! [`SimplePacket`]) take the block's body and the section's byte order.
//! [`Options`] walks the options that end most bodies.

use super::{ByteOrder, Error, Result, check_len, pad4};

/// Section Header Block type (the same in both byte orders).
pub const BLOCK_SHB: u32 = 0x0A0D_0D0A;
/// Interface Description Block type.
pub const BLOCK_IDB: u32 = 0x0000_0001;
/// Packet Block type (obsolete, superseded by the Enhanced Packet Block).
pub const BLOCK_PB: u32 = 0x0000_0002;
/// Simple Packet Block type.
pub const BLOCK_SPB: u32 = 0x0000_0003;
/// Name Resolution Block type.
pub const BLOCK_NRB: u32 = 0x0000_0004;
/// Interface Statistics Block type.
pub const BLOCK_ISB: u32 = 0x0000_0005;
/// Enhanced Packet Block type.
pub const BLOCK_EPB: u32 = 0x0000_0006;
/// Decryption Secrets Block type.
pub const BLOCK_DSB: u32 = 0x0000_000A;

/// The Section Header Block's byte-order magic.
pub const BYTE_ORDER_MAGIC: u32 = 0x1A2B_3C4D;
/// The supported major version of the format.
pub const VERSION_MAJOR: u16 = 1;

/// Length of the block type and block total length fields.
pub const BLOCK_HEADER_LEN: usize = 8;
/// The smallest legal block: type, length, empty body, trailing length.
pub const MIN_BLOCK_LEN: usize = 12;

/// `opt_endofopt`: ends an option list.
pub const OPT_ENDOFOPT: u16 = 0;
/// `opt_comment`: a UTF-8 comment, valid in every block.
pub const OPT_COMMENT: u16 = 1;
/// `if_name` (Interface Description Block): the interface's name.
pub const IF_NAME: u16 = 2;
/// `if_description` (Interface Description Block).
pub const IF_DESCRIPTION: u16 = 3;
/// `if_tsresol` (Interface Description Block): timestamp resolution, 1 byte.
pub const IF_TSRESOL: u16 = 9;
/// `if_fcslen` (Interface Description Block): FCS length, 1 byte.
pub const IF_FCSLEN: u16 = 13;
/// `if_tsoffset` (Interface Description Block): seconds added to every
/// timestamp, 8 bytes, signed.
pub const IF_TSOFFSET: u16 = 14;
/// `epb_flags` (Enhanced Packet Block): direction, reception type, errors.
pub const EPB_FLAGS: u16 = 2;

mod field {
    use core::ops::Range;

    pub const BLOCK_TYPE: Range<usize> = 0..4;
    pub const BLOCK_LEN: Range<usize> = 4..8;
    pub const SHB_BYTE_ORDER_MAGIC: Range<usize> = 8..12;

    // Offsets below are within a block body.
    pub const SHB_MAGIC: Range<usize> = 0..4;
    pub const SHB_MAJOR: Range<usize> = 4..6;
    pub const SHB_MINOR: Range<usize> = 6..8;
    pub const SHB_SECTION_LEN: Range<usize> = 8..16;
    pub const SHB_OPTIONS: usize = 16;

    pub const IDB_LINKTYPE: Range<usize> = 0..2;
    pub const IDB_RESERVED: Range<usize> = 2..4;
    pub const IDB_SNAPLEN: Range<usize> = 4..8;
    pub const IDB_OPTIONS: usize = 8;

    pub const EPB_INTERFACE: Range<usize> = 0..4;
    pub const EPB_TS_HIGH: Range<usize> = 4..8;
    pub const EPB_TS_LOW: Range<usize> = 8..12;
    pub const EPB_CAPLEN: Range<usize> = 12..16;
    pub const EPB_ORIGLEN: Range<usize> = 16..20;
    pub const EPB_DATA: usize = 20;

    pub const PB_INTERFACE: Range<usize> = 0..2;
    pub const PB_DROPS: Range<usize> = 2..4;

    pub const SPB_ORIGLEN: Range<usize> = 0..4;
    pub const SPB_DATA: usize = 4;
}

/// Reads the byte order of the section whose Section Header Block starts
/// `buffer`, from its byte-order magic. Checks that the block type is a
/// Section Header Block.
pub fn section_byte_order(buffer: &[u8]) -> Result<ByteOrder> {
    check_len(
        "section header block",
        buffer,
        field::SHB_BYTE_ORDER_MAGIC.end,
    )?;
    let ty = ByteOrder::Big.u32(&buffer[field::BLOCK_TYPE]);
    if ty != BLOCK_SHB {
        return Err(Error::BadMagic { magic: ty });
    }
    let bom = &buffer[field::SHB_BYTE_ORDER_MAGIC];
    if ByteOrder::Little.u32(bom) == BYTE_ORDER_MAGIC {
        Ok(ByteOrder::Little)
    } else if ByteOrder::Big.u32(bom) == BYTE_ORDER_MAGIC {
        Ok(ByteOrder::Big)
    } else {
        Err(Error::BadByteOrderMagic {
            magic: ByteOrder::Big.u32(bom),
        })
    }
}

/// A view of a block's frame: type, length, body and trailing length.
#[derive(Debug, Clone)]
pub struct Block<T: AsRef<[u8]>> {
    buffer: T,
    order: ByteOrder,
}

impl<T: AsRef<[u8]>> Block<T> {
    /// Wraps `buffer`, which starts with a block and may run on past it.
    ///
    /// Checks that the leading length is legal (at least 12, a multiple of
    /// 4), that the buffer holds that many bytes, and that the trailing length
    /// equals the leading one.
    pub fn new_checked(buffer: T, order: ByteOrder) -> Result<Self> {
        let bytes = buffer.as_ref();
        check_len("block header", bytes, BLOCK_HEADER_LEN)?;
        let length = order.u32(&bytes[field::BLOCK_LEN]);
        if (length as usize) < MIN_BLOCK_LEN || !length.is_multiple_of(4) {
            return Err(Error::BadBlockLength { length });
        }
        if u64::from(length) > bytes.len() as u64 {
            return Err(Error::Truncated {
                what: "block",
                offset: 0,
                needed: u64::from(length),
                available: bytes.len() as u64,
            });
        }
        let end = length as usize;
        let trailing = order.u32(&bytes[end - 4..end]);
        if trailing != length {
            return Err(Error::BlockLengthMismatch {
                leading: length,
                trailing,
            });
        }
        Ok(Block { buffer, order })
    }

    /// Wraps `buffer` without any check. Accessors may panic on a buffer that
    /// [`Block::new_checked`] would reject.
    pub fn new_unchecked(buffer: T, order: ByteOrder) -> Self {
        Block { buffer, order }
    }

    /// Returns the wrapped buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    /// The byte order the view reads with.
    pub fn byte_order(&self) -> ByteOrder {
        self.order
    }

    /// The block type.
    pub fn block_type(&self) -> u32 {
        self.order.u32(&self.buffer.as_ref()[field::BLOCK_TYPE])
    }

    /// The block total length: the whole block, both length fields included.
    pub fn total_len(&self) -> u32 {
        self.order.u32(&self.buffer.as_ref()[field::BLOCK_LEN])
    }
}

impl<'a, T: AsRef<[u8]> + ?Sized> Block<&'a T> {
    /// The block body: everything between the leading and trailing lengths.
    /// It borrows the underlying buffer, not the view.
    pub fn body(&self) -> &'a [u8] {
        let end = self.total_len() as usize;
        &self.buffer.as_ref()[BLOCK_HEADER_LEN..end - 4]
    }
}

/// A view of a Section Header Block body.
#[derive(Debug, Clone)]
pub struct SectionHeader<T: AsRef<[u8]>> {
    body: T,
    order: ByteOrder,
}

impl<T: AsRef<[u8]>> SectionHeader<T> {
    /// Wraps a Section Header Block's body, checking that it holds the fixed
    /// fields (16 bytes).
    pub fn new_checked(body: T, order: ByteOrder) -> Result<Self> {
        if body.as_ref().len() < field::SHB_OPTIONS {
            return Err(Error::Malformed(
                "section header block is shorter than its fixed fields",
            ));
        }
        Ok(SectionHeader { body, order })
    }

    /// The byte-order magic, read in the view's byte order.
    pub fn byte_order_magic(&self) -> u32 {
        self.order.u32(&self.body.as_ref()[field::SHB_MAGIC])
    }

    /// Major version (1).
    pub fn version_major(&self) -> u16 {
        self.order.u16(&self.body.as_ref()[field::SHB_MAJOR])
    }

    /// Minor version (0).
    pub fn version_minor(&self) -> u16 {
        self.order.u16(&self.body.as_ref()[field::SHB_MINOR])
    }

    /// Section length in bytes after this block, or -1 when not given.
    pub fn section_len(&self) -> i64 {
        self.order.u64(&self.body.as_ref()[field::SHB_SECTION_LEN]) as i64
    }
}

impl<'a, T: AsRef<[u8]> + ?Sized> SectionHeader<&'a T> {
    /// The block's options, borrowing the underlying buffer.
    pub fn options(&self) -> Options<'a> {
        Options::new(&self.body.as_ref()[field::SHB_OPTIONS..], self.order)
    }
}

/// A view of an Interface Description Block body.
#[derive(Debug, Clone)]
pub struct InterfaceDescription<T: AsRef<[u8]>> {
    body: T,
    order: ByteOrder,
}

impl<T: AsRef<[u8]>> InterfaceDescription<T> {
    /// Wraps an Interface Description Block's body, checking that it holds
    /// the fixed fields (8 bytes).
    pub fn new_checked(body: T, order: ByteOrder) -> Result<Self> {
        if body.as_ref().len() < field::IDB_OPTIONS {
            return Err(Error::Malformed(
                "interface description block is shorter than its fixed fields",
            ));
        }
        Ok(InterfaceDescription { body, order })
    }

    /// The interface's link type (a LINKTYPE_ value).
    pub fn link_type(&self) -> u16 {
        self.order.u16(&self.body.as_ref()[field::IDB_LINKTYPE])
    }

    /// The reserved field (0).
    pub fn reserved(&self) -> u16 {
        self.order.u16(&self.body.as_ref()[field::IDB_RESERVED])
    }

    /// The snapshot length; 0 means no limit.
    pub fn snaplen(&self) -> u32 {
        self.order.u32(&self.body.as_ref()[field::IDB_SNAPLEN])
    }
}

impl<'a, T: AsRef<[u8]> + ?Sized> InterfaceDescription<&'a T> {
    /// The block's options, borrowing the underlying buffer.
    pub fn options(&self) -> Options<'a> {
        Options::new(&self.body.as_ref()[field::IDB_OPTIONS..], self.order)
    }
}

/// A view of an Enhanced Packet Block body.
#[derive(Debug, Clone)]
pub struct EnhancedPacket<T: AsRef<[u8]>> {
    body: T,
    order: ByteOrder,
}

impl<T: AsRef<[u8]>> EnhancedPacket<T> {
    /// Wraps an Enhanced Packet Block's body, checking that it holds the
    /// fixed fields (20 bytes) and the captured bytes they announce.
    pub fn new_checked(body: T, order: ByteOrder) -> Result<Self> {
        let bytes = body.as_ref();
        if bytes.len() < field::EPB_DATA {
            return Err(Error::Malformed(
                "enhanced packet block is shorter than its fixed fields",
            ));
        }
        let caplen = order.u32(&bytes[field::EPB_CAPLEN]);
        if u64::from(caplen) > (bytes.len() - field::EPB_DATA) as u64 {
            return Err(Error::Malformed(
                "enhanced packet block's captured length runs past the end of the block",
            ));
        }
        Ok(EnhancedPacket { body, order })
    }

    /// The interface, an index into the section's Interface Description
    /// Blocks.
    pub fn interface_id(&self) -> u32 {
        self.order.u32(&self.body.as_ref()[field::EPB_INTERFACE])
    }

    /// The 64-bit timestamp, in units of the interface's resolution.
    pub fn timestamp(&self) -> u64 {
        let b = self.body.as_ref();
        let high = self.order.u32(&b[field::EPB_TS_HIGH]);
        let low = self.order.u32(&b[field::EPB_TS_LOW]);
        (u64::from(high) << 32) | u64::from(low)
    }

    /// Number of captured bytes.
    pub fn captured_len(&self) -> u32 {
        self.order.u32(&self.body.as_ref()[field::EPB_CAPLEN])
    }

    /// Length of the packet as it was on the wire.
    pub fn original_len(&self) -> u32 {
        self.order.u32(&self.body.as_ref()[field::EPB_ORIGLEN])
    }
}

impl<'a, T: AsRef<[u8]> + ?Sized> EnhancedPacket<&'a T> {
    /// The captured bytes, borrowing the underlying buffer.
    pub fn data(&self) -> &'a [u8] {
        let start = field::EPB_DATA;
        &self.body.as_ref()[start..start + self.captured_len() as usize]
    }

    /// The block's options, after the padded packet data, borrowing the
    /// underlying buffer.
    pub fn options(&self) -> Options<'a> {
        let b: &'a [u8] = self.body.as_ref();
        let start = field::EPB_DATA as u64 + pad4(self.captured_len());
        let rest = usize::try_from(start)
            .ok()
            .and_then(|s| b.get(s..))
            .unwrap_or(&[]);
        Options::new(rest, self.order)
    }
}

/// A view of an (obsolete) Packet Block body: like an Enhanced Packet Block
/// but with a 16-bit interface id followed by a 16-bit drop count.
#[derive(Debug, Clone)]
pub struct ObsoletePacket<T: AsRef<[u8]>> {
    inner: EnhancedPacket<T>,
}

impl<T: AsRef<[u8]>> ObsoletePacket<T> {
    /// Wraps a Packet Block's body, with the same checks as
    /// [`EnhancedPacket::new_checked`].
    pub fn new_checked(body: T, order: ByteOrder) -> Result<Self> {
        let bytes = body.as_ref();
        if bytes.len() < field::EPB_DATA {
            return Err(Error::Malformed(
                "packet block is shorter than its fixed fields",
            ));
        }
        let caplen = order.u32(&bytes[field::EPB_CAPLEN]);
        if u64::from(caplen) > (bytes.len() - field::EPB_DATA) as u64 {
            return Err(Error::Malformed(
                "packet block's captured length runs past the end of the block",
            ));
        }
        Ok(ObsoletePacket {
            inner: EnhancedPacket { body, order },
        })
    }

    /// The interface, an index into the section's Interface Description
    /// Blocks.
    pub fn interface_id(&self) -> u16 {
        self.inner
            .order
            .u16(&self.inner.body.as_ref()[field::PB_INTERFACE])
    }

    /// Packets dropped between this packet and the previous one.
    pub fn drops_count(&self) -> u16 {
        self.inner
            .order
            .u16(&self.inner.body.as_ref()[field::PB_DROPS])
    }

    /// The 64-bit timestamp, in units of the interface's resolution.
    pub fn timestamp(&self) -> u64 {
        self.inner.timestamp()
    }

    /// Number of captured bytes.
    pub fn captured_len(&self) -> u32 {
        self.inner.captured_len()
    }

    /// Length of the packet as it was on the wire.
    pub fn original_len(&self) -> u32 {
        self.inner.original_len()
    }
}

impl<'a, T: AsRef<[u8]> + ?Sized> ObsoletePacket<&'a T> {
    /// The captured bytes, borrowing the underlying buffer.
    pub fn data(&self) -> &'a [u8] {
        self.inner.data()
    }

    /// The block's options, borrowing the underlying buffer.
    pub fn options(&self) -> Options<'a> {
        self.inner.options()
    }
}

/// A view of a Simple Packet Block body.
///
/// The block has no captured-length field: the captured length is the
/// smallest of the original length, the first interface's snapshot length
/// (when not 0) and the room in the block, which [`SimplePacket::data`]
/// computes.
#[derive(Debug, Clone)]
pub struct SimplePacket<T: AsRef<[u8]>> {
    body: T,
    order: ByteOrder,
}

impl<T: AsRef<[u8]>> SimplePacket<T> {
    /// Wraps a Simple Packet Block's body, checking that it holds the
    /// original-length field.
    pub fn new_checked(body: T, order: ByteOrder) -> Result<Self> {
        if body.as_ref().len() < field::SPB_DATA {
            return Err(Error::Malformed(
                "simple packet block is shorter than its fixed fields",
            ));
        }
        Ok(SimplePacket { body, order })
    }

    /// Length of the packet as it was on the wire.
    pub fn original_len(&self) -> u32 {
        self.order.u32(&self.body.as_ref()[field::SPB_ORIGLEN])
    }
}

impl<'a, T: AsRef<[u8]> + ?Sized> SimplePacket<&'a T> {
    /// The captured bytes, given the snapshot length of the section's first
    /// interface (0 for none), borrowing the underlying buffer.
    pub fn data(&self, snaplen: u32) -> &'a [u8] {
        let area = &self.body.as_ref()[field::SPB_DATA..];
        let mut len = u64::from(self.original_len()).min(area.len() as u64);
        if snaplen != 0 {
            len = len.min(u64::from(snaplen));
        }
        &area[..len as usize]
    }
}

/// One option: a code and its value (without padding).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockOption<'a> {
    /// The option code.
    pub code: u16,
    /// The value bytes.
    pub value: &'a [u8],
    order: ByteOrder,
}

impl<'a> BlockOption<'a> {
    /// The value as one byte, if it is exactly one byte long.
    pub fn as_u8(&self) -> Option<u8> {
        match self.value {
            [b] => Some(*b),
            _ => None,
        }
    }

    /// The value as a `u32` in the section's byte order, if it is exactly
    /// four bytes long.
    pub fn as_u32(&self) -> Option<u32> {
        (self.value.len() == 4).then(|| self.order.u32(self.value))
    }

    /// The value as a `u64` in the section's byte order, if it is exactly
    /// eight bytes long.
    pub fn as_u64(&self) -> Option<u64> {
        (self.value.len() == 8).then(|| self.order.u64(self.value))
    }

    /// The value as UTF-8 text, if it is valid UTF-8. Writers may end strings
    /// with NUL bytes; those are dropped.
    pub fn as_str(&self) -> Option<&'a str> {
        let mut v = self.value;
        while let [rest @ .., 0] = v {
            v = rest;
        }
        core::str::from_utf8(v).ok()
    }
}

/// An iterator over an option list: each option is a 2-byte code, a 2-byte
/// value length, and the value padded to a multiple of 4. The list ends at
/// `opt_endofopt` or at the end of the body. An option that runs past the
/// body yields one error, after which the iterator ends.
#[derive(Debug, Clone)]
pub struct Options<'a> {
    rest: &'a [u8],
    order: ByteOrder,
}

impl<'a> Options<'a> {
    /// Walks the options in `bytes` (the tail of a block body).
    pub fn new(bytes: &'a [u8], order: ByteOrder) -> Self {
        Options { rest: bytes, order }
    }
}

impl<'a> Iterator for Options<'a> {
    type Item = Result<BlockOption<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let rest = core::mem::take(&mut self.rest);
        if rest.len() < 4 {
            return Some(Err(Error::Malformed(
                "option header runs past the end of the block",
            )));
        }
        let code = self.order.u16(&rest[0..2]);
        let len = self.order.u16(&rest[2..4]);
        if code == OPT_ENDOFOPT {
            return None;
        }
        let after = &rest[4..];
        if usize::from(len) > after.len() {
            return Some(Err(Error::Malformed(
                "option value runs past the end of the block",
            )));
        }
        let value = &after[..usize::from(len)];
        // The last option's padding may be missing; take what is there.
        let skip = (pad4(u32::from(len)) as usize).min(after.len());
        self.rest = &after[skip..];
        Some(Ok(BlockOption {
            code,
            value,
            order: self.order,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(order: ByteOrder, ty: u32, body: &[u8]) -> Vec<u8> {
        let len = (12 + body.len()) as u32;
        let mut out = vec![0u8; 8];
        order.put_u32(&mut out[0..4], ty);
        order.put_u32(&mut out[4..8], len);
        out.extend_from_slice(body);
        let mut tail = [0u8; 4];
        order.put_u32(&mut tail, len);
        out.extend_from_slice(&tail);
        out
    }

    #[test]
    fn block_frame_checks() {
        let order = ByteOrder::Little;
        let b = block(order, 0x1234, &[1, 2, 3, 4]);
        let view = Block::new_checked(&b[..], order).unwrap();
        assert_eq!(view.block_type(), 0x1234);
        assert_eq!(view.total_len(), 16);
        assert_eq!(view.body(), &[1, 2, 3, 4]);

        // Longer buffers are fine: the view covers the block only.
        let mut longer = b.clone();
        longer.extend_from_slice(&[9; 7]);
        assert_eq!(
            Block::new_checked(&longer[..], order).unwrap().body().len(),
            4
        );

        assert!(matches!(
            Block::new_checked(&b[..15], order),
            Err(Error::Truncated {
                needed: 16,
                available: 15,
                ..
            })
        ));
        assert!(matches!(
            Block::new_checked(&b[..7], order),
            Err(Error::Truncated { needed: 8, .. })
        ));
        let mut bad = b.clone();
        bad[12] = 20;
        assert_eq!(
            Block::new_checked(&bad[..], order).unwrap_err(),
            Error::BlockLengthMismatch {
                leading: 16,
                trailing: 20
            }
        );
        for len in [0u32, 8, 13, 18] {
            let mut bad = b.clone();
            order.put_u32(&mut bad[4..8], len);
            assert_eq!(
                Block::new_checked(&bad[..], order).unwrap_err(),
                Error::BadBlockLength { length: len }
            );
        }
        // A huge length is reported as truncation, not acted upon.
        let mut huge = b.clone();
        order.put_u32(&mut huge[4..8], 0xFFFF_FFFC);
        assert!(matches!(
            Block::new_checked(&huge[..], order),
            Err(Error::Truncated {
                needed: 0xFFFF_FFFC,
                ..
            })
        ));
    }

    #[test]
    fn section_byte_order_detects_both() {
        for order in [ByteOrder::Little, ByteOrder::Big] {
            let mut body = vec![0u8; 16];
            order.put_u32(&mut body[0..4], BYTE_ORDER_MAGIC);
            let b = block(order, BLOCK_SHB, &body);
            assert_eq!(section_byte_order(&b).unwrap(), order);
        }
        let b = block(ByteOrder::Little, BLOCK_SHB, &[0u8; 16]);
        assert_eq!(
            section_byte_order(&b).unwrap_err(),
            Error::BadByteOrderMagic { magic: 0 }
        );
        assert!(matches!(
            section_byte_order(&b[..11]),
            Err(Error::Truncated { .. })
        ));
    }

    #[test]
    fn options_walk_and_errors() {
        let order = ByteOrder::Big;
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&[0, 2, 0, 3, b'e', b't', b'h', 0]); // if_name "eth", padded
        bytes.extend_from_slice(&[0, 9, 0, 1, 9, 0, 0, 0]); // if_tsresol 9
        bytes.extend_from_slice(&[0, 0, 0, 0]); // end of options
        bytes.extend_from_slice(&[0xEE; 4]); // ignored after the end
        let opts: Vec<_> = Options::new(&bytes, order).map(Result::unwrap).collect();
        assert_eq!(opts.len(), 2);
        assert_eq!((opts[0].code, opts[0].as_str()), (IF_NAME, Some("eth")));
        assert_eq!((opts[1].code, opts[1].as_u8()), (IF_TSRESOL, Some(9)));

        let overrun = [0u8, 1, 0, 200, 1, 2, 3, 4];
        let mut it = Options::new(&overrun, order);
        assert!(matches!(it.next(), Some(Err(Error::Malformed(_)))));
        assert!(it.next().is_none());

        let stub = [0u8, 1];
        let mut it = Options::new(&stub, order);
        assert!(matches!(it.next(), Some(Err(Error::Malformed(_)))));
        assert!(it.next().is_none());
    }

    #[test]
    fn enhanced_packet_bounds() {
        let order = ByteOrder::Little;
        let mut body = vec![0u8; 20];
        order.put_u32(&mut body[12..16], 5); // caplen
        order.put_u32(&mut body[16..20], 9); // origlen
        body.extend_from_slice(&[1, 2, 3, 4, 5, 0, 0, 0]);
        body.extend_from_slice(&[1, 0, 2, 0, b'h', b'i', 0, 0]); // opt_comment, little-endian
        let epb = EnhancedPacket::new_checked(&body[..], order).unwrap();
        assert_eq!(epb.data(), &[1, 2, 3, 4, 5]);
        assert_eq!(epb.original_len(), 9);
        let opts: Vec<_> = epb.options().map(Result::unwrap).collect();
        assert_eq!(opts[0].as_str(), Some("hi"));

        order.put_u32(&mut body[12..16], 17);
        assert!(EnhancedPacket::new_checked(&body[..], order).is_err());
        order.put_u32(&mut body[12..16], u32::MAX);
        assert!(EnhancedPacket::new_checked(&body[..], order).is_err());
        assert!(EnhancedPacket::new_checked(&body[..19], order).is_err());
    }

    #[test]
    fn simple_packet_length_rules() {
        let order = ByteOrder::Big;
        let mut body = vec![0, 0, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0];
        let spb = SimplePacket::new_checked(&body[..], order).unwrap();
        assert_eq!(spb.data(0), &[1, 2, 3, 4, 5, 6]);
        assert_eq!(spb.data(4), &[1, 2, 3, 4]);
        // An original length beyond the block: the block bounds the capture.
        body[3] = 100;
        let spb = SimplePacket::new_checked(&body[..], order).unwrap();
        assert_eq!(spb.data(0).len(), 8);
        assert!(SimplePacket::new_checked(&body[..3], order).is_err());
    }
}
