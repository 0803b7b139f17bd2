//! Bit-level reading and writing of values in packet buffers (network bit
//! order) and byte-string conversion (control-plane encodings).
//!
//! A field of at most 64 bits is moved with one unaligned big-endian `u64`
//! load (and store), plus one byte when it straddles nine bytes, and shifts;
//! only a field within the last 8 bytes of a buffer takes a slower path. A
//! wider field is moved as a sequence of such 64-bit chunks.

use super::{Bits, SMALL_MAX_WIDTH};

/// True if bits `bit_offset..bit_offset + width` lie inside a buffer of
/// `len` bytes.
#[inline]
fn in_bounds(len: usize, bit_offset: usize, width: u32) -> bool {
    bit_offset
        .checked_add(width as usize)
        .is_some_and(|end| end <= len.saturating_mul(8))
}

/// The 8 bytes of `buf` from `byte` on as a big-endian `u64`, bytes past
/// the end reading as zero.
#[inline]
fn load_be(buf: &[u8], byte: usize) -> u64 {
    match buf.get(byte..).and_then(|b| b.first_chunk::<8>()) {
        Some(chunk) => u64::from_be_bytes(*chunk),
        None => load_be_tail(buf, byte),
    }
}

/// [`load_be`] within the last 8 bytes of `buf`: one load of the buffer's
/// last 8 bytes, shifted (a byte loop only for buffers under 8 bytes).
#[cold]
fn load_be_tail(buf: &[u8], byte: usize) -> u64 {
    let rest = buf.get(byte..).unwrap_or_default();
    let missing = 8 * (8 - rest.len().min(8)) as u32;
    let x = match buf.last_chunk::<8>() {
        Some(last) => u64::from_be_bytes(*last),
        None => rest.iter().fold(0, |acc, &b| (acc << 8) | u64::from(b)),
    };
    x.checked_shl(missing).unwrap_or(0)
}

/// The `width`-bit field (1..=64) at `off`, which lies inside `buf`: one
/// 8-byte load, plus the ninth byte when the field straddles nine bytes.
#[inline]
fn read_chunk(buf: &[u8], off: usize, width: u32) -> u64 {
    debug_assert!((1..=64).contains(&width) && in_bounds(buf.len(), off, width));
    let byte = off / 8;
    let s = (off % 8) as u32;
    let mut x = load_be(buf, byte) << s;
    if s + width > 64 {
        // s > 0 here, and byte + 8 is inside the field.
        x |= u64::from(buf.get(byte + 8).copied().unwrap_or(0)) >> (8 - s);
    }
    x >> (64 - width)
}

/// The `width`-bit field (0..=64) at bit `off` of `buf` as a number; 0 if
/// it does not lie inside `buf`.
#[inline]
pub fn read_word(buf: &[u8], off: usize, width: u32) -> u64 {
    if width == 0 || !in_bounds(buf.len(), off, width) {
        return 0;
    }
    read_chunk(buf, off, width)
}

/// Writes the low `width` bits (0..=64) of `v` as the field at bit `off`
/// of `buf`; nothing if the field does not lie inside `buf`.
#[inline]
pub fn write_word(buf: &mut [u8], off: usize, width: u32, v: u64) {
    if width > 0 && in_bounds(buf.len(), off, width) {
        write_chunk(buf, off, width, v);
    }
}

/// A field of 0..=64 bits at a bit offset known ahead (a field at a fixed
/// place of the packet arena), with the shift and mask of its 8-byte
/// big-endian load worked out once: reading or writing it is one load
/// (and store), a mask and a shift. Gives what [`read_word`] and
/// [`write_word`] give for the same field (in a buffer of less than 4 GiB,
/// as every packet arena is); they serve the cases the single load does
/// not (a field straddling nine bytes, an empty one, one within the
/// buffer's last 8 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldWord {
    /// The field's bits in its load.
    mask: u64,
    /// The first byte of the load; [`FieldWord::RARE`] for a field one
    /// load does not hold (or an empty one), so that the load's bounds
    /// check sends every access to the general path. A `u32` (as bit
    /// offsets are), so that the load's end cannot overflow: its bounds
    /// check is one compare.
    at: u32,
    bit: u32,
    /// 0..=64.
    width: u8,
    /// The field's position in its load: bits below it (0..=63).
    shift: u8,
}

impl FieldWord {
    /// [`FieldWord::at`] of a field no single load serves: no buffer of
    /// less than 4 GiB (every packet arena, whose places are `u32` bit
    /// offsets) holds a load there.
    const RARE: u32 = u32::MAX;

    /// The field of `width` bits (0..=64) at bit `bit`.
    pub fn new(bit: u32, width: u32) -> FieldWord {
        debug_assert!(width <= 64, "a {width}-bit field as a word");
        let s = bit % 8;
        let fits = (1..=64).contains(&width) && s + width <= 64;
        let shift = if fits { 64 - s - width } else { 0 };
        let mask = if fits {
            (u64::MAX >> (64 - width)) << shift
        } else {
            0
        };
        FieldWord {
            mask,
            at: if fits { bit / 8 } else { Self::RARE },
            bit,
            width: width.min(64) as u8,
            shift: shift as u8,
        }
    }

    /// The field's width in bits.
    #[inline]
    pub fn width(&self) -> u32 {
        u32::from(self.width)
    }

    /// The field's first bit.
    #[inline]
    pub fn bit(&self) -> u32 {
        self.bit
    }

    /// The field's single load, when one serves it: the load's first byte,
    /// the field's bits in the big-endian load and the bits below them; a
    /// compiler of code over the arena reads and writes the field as
    /// [`FieldWord::read`] and [`FieldWord::write`] do with these.
    #[inline]
    pub fn load(&self) -> Option<(u32, u64, u32)> {
        (self.at != Self::RARE).then_some((self.at, self.mask, u32::from(self.shift)))
    }

    /// The bytes of the field's load, `at..at + 8`: getting them from a
    /// buffer is one compare of the end, which cannot overflow a 64-bit
    /// `usize` (where it could, a wrapped range is empty: the rare path).
    #[inline(always)]
    fn load_range(&self) -> std::ops::Range<usize> {
        let at = self.at as usize;
        at..at.wrapping_add(8)
    }

    /// The field's value in `buf`, as [`read_word`].
    #[inline]
    pub fn read(&self, buf: &[u8]) -> u64 {
        match buf
            .get(self.load_range())
            .and_then(|b| b.first_chunk::<8>())
        {
            Some(chunk) => (u64::from_be_bytes(*chunk) & self.mask) >> self.shift,
            None => self.read_rare(buf),
        }
    }

    /// [`FieldWord::read`] of a field the single load does not serve.
    #[cold]
    #[inline(never)]
    fn read_rare(&self, buf: &[u8]) -> u64 {
        read_word(buf, self.bit as usize, self.width())
    }

    /// Writes the low bits of `v` as the field in `buf`, as [`write_word`].
    #[inline]
    pub fn write(&self, buf: &mut [u8], v: u64) {
        match buf
            .get_mut(self.load_range())
            .and_then(|b| b.first_chunk_mut::<8>())
        {
            Some(chunk) => {
                let x = u64::from_be_bytes(*chunk);
                *chunk = ((x & !self.mask) | ((v << self.shift) & self.mask)).to_be_bytes();
            }
            _ => self.write_rare(buf, v),
        }
    }

    /// [`FieldWord::write`] of a field the single load does not serve.
    #[cold]
    #[inline(never)]
    fn write_rare(&self, buf: &mut [u8], v: u64) {
        write_word(buf, self.bit as usize, self.width(), v);
    }
}

/// Writes the low `width` bits (1..=64) of `v` as the field at `off`, which
/// lies inside `buf`; the other bits of `buf` are unchanged. Not recursive,
/// so that it inlines into its callers: a field straddling nine bytes takes
/// [`write_straddle`].
#[inline]
fn write_chunk(buf: &mut [u8], off: usize, width: u32, v: u64) {
    debug_assert!((1..=64).contains(&width) && in_bounds(buf.len(), off, width));
    let byte = off / 8;
    let s = (off % 8) as u32;
    if s + width > 64 {
        write_straddle(buf, byte, s, width, v);
        return;
    }
    // width is 1..=64 here, so the shift is 0..=63.
    let low = u64::MAX >> (64 - width);
    let shift = 64 - s - width;
    let m = low << shift;
    let bits = (v & low) << shift;
    match buf.get_mut(byte..).and_then(|b| b.first_chunk_mut::<8>()) {
        Some(chunk) => {
            let x = u64::from_be_bytes(*chunk);
            *chunk = ((x & !m) | bits).to_be_bytes();
        }
        None => write_tail(buf, byte, m, bits),
    }
}

/// [`write_chunk`] of a field starting `s` bits (1..=7) into `byte` that
/// ends in the ninth byte: its high bits fill the first eight bytes to
/// their end, the low `spill` bits go to the top of the ninth.
#[cold]
#[inline(never)]
fn write_straddle(buf: &mut [u8], byte: usize, s: u32, width: u32, v: u64) {
    let spill = s + width - 64;
    let m = u64::MAX >> s;
    let bits = (v >> spill) & m;
    match buf.get_mut(byte..).and_then(|b| b.first_chunk_mut::<8>()) {
        Some(chunk) => {
            let x = u64::from_be_bytes(*chunk);
            *chunk = ((x & !m) | bits).to_be_bytes();
        }
        None => write_tail(buf, byte, m, bits),
    }
    if let Some(last) = buf.get_mut(byte + 8) {
        *last = (*last & (0xff >> spill)) | ((v as u8) << (8 - spill));
    }
}

/// [`write_chunk`] for a field within the last 8 bytes of `buf`: the masked
/// merge of the bytes that exist.
#[cold]
fn write_tail(buf: &mut [u8], byte: usize, m: u64, bits: u64) {
    let (m, bits) = (m.to_be_bytes(), bits.to_be_bytes());
    let rest = buf.get_mut(byte..).unwrap_or_default();
    for ((b, m), v) in rest.iter_mut().zip(m).zip(bits) {
        *b = (*b & !m) | v;
    }
}

/// Reads the `width`-bit field at `off` into `words` (little-endian, as
/// many as the width needs), 64 bits at a time from the least significant
/// end.
fn read_field(words: &mut [u64], buf: &[u8], off: usize, width: u32) {
    let end = off + width as usize;
    for (k, w) in words.iter_mut().enumerate() {
        let done = 64 * k as u32;
        if done >= width {
            break;
        }
        let cw = (width - done).min(64);
        *w = read_chunk(buf, end - done as usize - cw as usize, cw);
    }
}

/// Writes the low `width` bits of `words` as the field at `off`.
fn write_field(words: &[u64], buf: &mut [u8], off: usize, width: u32) {
    if off.is_multiple_of(8) && width.is_multiple_of(8) {
        return write_field_bytes(words, buf, off / 8, width / 8);
    }
    let end = off + width as usize;
    for (k, &w) in words.iter().enumerate() {
        let done = 64 * k as u32;
        if done >= width {
            break;
        }
        let cw = (width - done).min(64);
        write_chunk(buf, end - done as usize - cw as usize, cw, w);
    }
}

/// [`write_field`] of `bytes` whole bytes from byte `at` (inside `buf`):
/// each word's big-endian bytes stored, a whole word with one store.
fn write_field_bytes(words: &[u64], buf: &mut [u8], at: usize, bytes: u32) {
    let mut end = at + bytes as usize;
    for (k, &w) in words.iter().enumerate() {
        let done = 8 * k as u32;
        if done >= bytes {
            break;
        }
        let n = (bytes - done).min(8) as usize;
        end -= n;
        let Some(dst) = buf.get_mut(end..end + n) else {
            return;
        };
        match dst.first_chunk_mut::<8>() {
            Some(chunk) => *chunk = w.to_be_bytes(),
            None => dst.copy_from_slice(&w.to_be_bytes()[8 - n..]),
        }
    }
}

impl Bits {
    /// The `width`-bit field starting `bit_offset` bits into `buf`, in
    /// network bit order (bit 0 is the most significant bit of `buf[0]`),
    /// as a `bit<width>` or `int<width>`. The field may start and end in
    /// the middle of a byte.
    ///
    /// # Panics
    ///
    /// If the field extends past the end of `buf`, like slice indexing.
    /// The parser checks the packet's length before extracting (to raise
    /// `PacketTooShort`); use [`try_read_bits`](Self::try_read_bits) to
    /// check here instead.
    #[inline]
    pub fn read_bits(buf: &[u8], bit_offset: usize, width: u32, signed: bool) -> Bits {
        match Bits::try_read_bits(buf, bit_offset, width, signed) {
            Some(v) => v,
            None => out_of_range(buf.len(), bit_offset, width),
        }
    }

    /// As [`read_bits`](Self::read_bits), or `None` if the field extends
    /// past the end of `buf`.
    #[inline]
    pub fn try_read_bits(buf: &[u8], bit_offset: usize, width: u32, signed: bool) -> Option<Bits> {
        if !in_bounds(buf.len(), bit_offset, width) {
            return None;
        }
        if width <= SMALL_MAX_WIDTH {
            let v = if width == 0 {
                0
            } else {
                read_chunk(buf, bit_offset, width)
            };
            return Some(Bits::small(width, signed, v));
        }
        let mut r = Bits::zero(width, signed);
        read_field(r.words_mut(), buf, bit_offset, width);
        Some(r)
    }

    /// Writes the value's `W`-bit two's-complement pattern into `buf`
    /// starting `bit_offset` bits in, in network bit order (the inverse of
    /// [`read_bits`](Self::read_bits)); all other bits of `buf` are left
    /// unchanged.
    ///
    /// # Panics
    ///
    /// If the field extends past the end of `buf` (the deparser sizes its
    /// buffer from the headers it emits); see
    /// [`try_write_bits`](Self::try_write_bits).
    #[inline]
    pub fn write_bits(&self, buf: &mut [u8], bit_offset: usize) {
        if !self.try_write_bits(buf, bit_offset) {
            out_of_range(buf.len(), bit_offset, self.width);
        }
    }

    /// As [`write_bits`](Self::write_bits); returns false, writing nothing,
    /// if the field extends past the end of `buf`.
    #[inline]
    pub fn try_write_bits(&self, buf: &mut [u8], bit_offset: usize) -> bool {
        if !in_bounds(buf.len(), bit_offset, self.width) {
            return false;
        }
        if self.width <= SMALL_MAX_WIDTH {
            if self.width > 0 {
                write_chunk(buf, bit_offset, self.width, self.as_u64_truncated());
            }
        } else {
            write_field(self.words(), buf, bit_offset, self.width);
        }
        true
    }

    /// The value whose pattern is `bytes` read as a big-endian unsigned
    /// number, reduced modulo 2^width (leading bytes beyond the width are
    /// dropped, a shorter string is zero-extended). For `int<W>`, the
    /// resulting `W` bits are the two's-complement pattern; to sign-extend
    /// a shorter encoding, read it at its own width and
    /// [`cast`](Self::cast).
    pub fn from_be_bytes(width: u32, signed: bool, bytes: &[u8]) -> Bits {
        let total = bytes.len().saturating_mul(8);
        let take = (width as usize).min(total) as u32;
        let mut r = Bits::zero(width, signed);
        read_field(r.words_mut(), bytes, total - take as usize, take);
        r
    }

    /// Writes the value as a big-endian byte string filling `out`: the low
    /// `8 * out.len()` bits of the value extended per its signedness (zero
    /// for `bit<W>`, sign for `int<W>`), i.e. the pattern of
    /// `self.cast(8 * out.len(), self.is_signed())`.
    pub fn to_be_bytes(&self, out: &mut [u8]) {
        let total = out.len().saturating_mul(8);
        let take = (self.width as usize).min(total) as u32;
        out.fill(if self.is_negative() { 0xff } else { 0 });
        write_field(self.words(), out, total - take as usize, take);
    }

    /// The number of bytes [`to_be_bytes`](Self::to_be_bytes) needs for the
    /// whole value: `ceil(W/8)`.
    pub fn byte_len(&self) -> usize {
        self.width.div_ceil(8) as usize
    }
}

#[cold]
#[inline(never)]
fn out_of_range(len: usize, bit_offset: usize, width: u32) -> ! {
    panic!("field of {width} bits at bit {bit_offset} is outside a buffer of {len} bytes")
}
