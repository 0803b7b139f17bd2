//! Fixed-width P4 values: `bit<W>` (unsigned) and `int<W>` (two's
//! complement), with the P4_16 semantics of spec sections 8.5 and 8.6, the
//! same rules p4c folds constants with and bmv2 executes.
//!
//! # Representation
//!
//! A [`Bits`] is a width, a signedness flag and the value's two's-complement
//! bit pattern as little-endian 64-bit words. The storage is chosen by the
//! width alone (see [`Storage`]):
//!
//! | width | storage | heap |
//! |---|---|---|
//! | 0..=64 | one `u64` | no |
//! | 65..=256 | `[u64; 4]` | no |
//! | 257.. | boxed slice of `ceil(W/64)` words | yes |
//!
//! Values are always normalised: bits at and above `W` are zero in the
//! stored words (a negative `int<8>` is stored as `0x80..=0xff`, never
//! sign-extended), so equality, hashing and [`Bits::words`] work on the words
//! directly.
//!
//! `Bits` is `Clone` but not `Copy`, because of the heap variant. Cloning a
//! value of up to 256 bits copies 48 bytes and never allocates. A separate
//! `Copy` type for narrow values would make the interpreter handle two value
//! types at every operand; with one type, the narrow case costs a check of
//! the storage tag per operation (a few nanoseconds per `add` or field read
//! in all, see `benches/value.rs`).
//!
//! # Operations
//!
//! Every operation returns a new value of the width and signedness P4 gives
//! its result. Binary operators require operands of the same type, as P4
//! does; the front end inserts the casts, and the engine `debug_assert`s it.
//! (In a release build mismatched operands give an unspecified but
//! well-formed value of the left operand's type; nothing panics.)
//!
//! Deliberate choices where P4 leaves the run-time behaviour open:
//!
//! - Division and remainder are offered for `bit<W>` only: P4_16 allows `/`
//!   and `%` on `int<W>` only for positive compile-time constants, which the
//!   front end folds. Applied to a signed value they divide the bit patterns
//!   as unsigned numbers.
//! - Division or remainder by zero gives zero. The front end rejects a
//!   constant zero divisor; at run time bmv2 does not crash either.
//! - Shifts take the amount as a `u64`; an amount of `W` or more gives zero,
//!   or all ones for the arithmetic right shift of a negative `int<W>`.
//!
//! # Example
//!
//! ```
//! use janus_engine::value::Bits;
//!
//! let a = Bits::from_u64(8, false, 200);
//! let b = Bits::from_u64(8, false, 100);
//! assert_eq!(a.add(&b).to_u64(), Some(44)); // wraps modulo 2^8
//! assert_eq!(a.sat_add(&b).to_u64(), Some(255)); // clamps
//! assert_eq!(a.to_string(), "8w0xc8");
//!
//! let m = Bits::from_i64(16, true, -3);
//! assert_eq!(m.to_string(), "16s-0x3");
//! assert_eq!(m.shr(1).to_i64(), Some(-2)); // arithmetic shift
//! assert_eq!(m.slice(15, 8).to_u64(), Some(0xff));
//!
//! // Bit-level I/O in network order: a 4-bit field starting at bit 4.
//! let buf = [0x45, 0x00];
//! assert_eq!(Bits::read_bits(&buf, 4, 4, false).to_u64(), Some(5));
//! ```

mod fmt;
mod io;
mod limbs;
mod ops;
#[cfg(test)]
mod tests;
mod word;

pub use io::{FieldWord, read_word, write_word};
pub use word::Word;

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// Widest value stored in a single `u64` (the fast path).
pub const SMALL_MAX_WIDTH: u32 = 64;

/// Number of words stored inline (without a heap allocation).
const INLINE_WORDS: usize = 4;

/// Widest value stored without a heap allocation.
pub const INLINE_MAX_WIDTH: u32 = 64 * INLINE_WORDS as u32;

/// A value of P4 type `bit<W>` or `int<W>`, for any width `W` that fits in a
/// `u32` (values of 2^16 bits and more are fine; storage is `ceil(W/64)`
/// words).
///
/// See the [module documentation](self) for the representation and the
/// semantics of each operation.
///
/// ```
/// use janus_engine::value::Bits;
///
/// let x = Bits::from_i64(8, true, -1);
/// assert_eq!(x.as_u64_truncated(), 0xff); // the stored two's-complement pattern
/// assert_eq!(x.cast(16, true).to_i64(), Some(-1)); // sign-extended
/// assert_eq!(x.cast(8, false).to_u64(), Some(255)); // reinterpreted
/// assert_eq!(x.concat(&Bits::from_u64(8, false, 1)).to_i64(), Some(-255)); // int<16> 0xff01
/// ```
#[derive(Clone)]
pub struct Bits {
    width: u32,
    signed: bool,
    repr: Repr,
}

/// The stored words. The variant is a function of the width (see
/// [`Storage`]), so two values of the same width always have the same
/// variant and the same number of words.
#[derive(Clone)]
enum Repr {
    Small(u64),
    Inline([u64; INLINE_WORDS]),
    Heap(Box<[u64]>),
}

/// Which storage a [`Bits`] uses; determined by the width alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// Width 0..=64: one `u64`, no heap.
    Small,
    /// Width 65..=256: `[u64; 4]` inline, no heap.
    Inline,
    /// Width 257 and above: a boxed slice.
    Heap,
}

impl Storage {
    /// The storage used for values of `width` bits.
    #[inline]
    pub fn for_width(width: u32) -> Storage {
        if width <= SMALL_MAX_WIDTH {
            Storage::Small
        } else if width <= INLINE_MAX_WIDTH {
            Storage::Inline
        } else {
            Storage::Heap
        }
    }
}

/// The number of 64-bit words a value of `width` bits occupies.
#[inline]
pub fn word_count(width: u32) -> usize {
    width.div_ceil(64) as usize
}

/// The low `width` bits set, for `width` in `0..=64`.
#[inline]
fn mask(width: u32) -> u64 {
    u64::MAX.checked_shr(64 - width).unwrap_or(0)
}

/// The `width`-bit pattern `v` sign-extended to 64 bits, for `width` in
/// `0..=64` (width 0 gives 0).
#[inline]
fn sext(v: u64, width: u32) -> i64 {
    match 64u32.checked_sub(width) {
        Some(s) if width > 0 => ((v << s) as i64) >> s,
        _ => 0,
    }
}

impl Bits {
    /// Zero of type `bit<width>` (`signed == false`) or `int<width>`.
    #[inline]
    pub fn zero(width: u32, signed: bool) -> Bits {
        let repr = match Storage::for_width(width) {
            Storage::Small => Repr::Small(0),
            Storage::Inline => Repr::Inline([0; INLINE_WORDS]),
            Storage::Heap => Repr::Heap(vec![0; word_count(width)].into_boxed_slice()),
        };
        Bits {
            width,
            signed,
            repr,
        }
    }

    /// A value of at most 64 bits from its pattern, which must be normalised.
    #[inline]
    fn small(width: u32, signed: bool, v: u64) -> Bits {
        debug_assert!(width <= SMALL_MAX_WIDTH && v & !mask(width) == 0);
        Bits {
            width,
            signed,
            repr: Repr::Small(v),
        }
    }

    /// `v` reduced modulo 2^width (high bits dropped); zero-extended if the
    /// type is wider than 64 bits.
    pub fn from_u64(width: u32, signed: bool, v: u64) -> Bits {
        if width <= SMALL_MAX_WIDTH {
            return Bits::small(width, signed, v & mask(width));
        }
        let mut r = Bits::zero(width, signed);
        r.words_mut()[0] = v;
        r
    }

    /// `v` reduced modulo 2^width; sign-extended if the type is wider than
    /// 64 bits (so `from_i64(128, false, -1)` is 2^128 - 1).
    pub fn from_i64(width: u32, signed: bool, v: i64) -> Bits {
        if width <= SMALL_MAX_WIDTH {
            return Bits::small(width, signed, v as u64 & mask(width));
        }
        let mut r = Bits::zero(width, signed);
        let fill = if v < 0 { u64::MAX } else { 0 };
        let words = r.words_mut();
        words.fill(fill);
        words[0] = v as u64;
        r.normalize();
        r
    }

    /// The value whose two's-complement pattern is `words` (least
    /// significant word first), reduced modulo 2^width; missing words are
    /// zero.
    pub fn from_words_le(width: u32, signed: bool, words: &[u64]) -> Bits {
        let mut r = Bits::zero(width, signed);
        let dst = r.words_mut();
        let n = dst.len().min(words.len());
        dst[..n].copy_from_slice(&words[..n]);
        r.normalize();
        r
    }

    /// The all-ones pattern: the maximum of `bit<width>`, -1 as `int<width>`.
    pub fn ones(width: u32, signed: bool) -> Bits {
        let mut r = Bits::zero(width, signed);
        r.words_mut().fill(u64::MAX);
        r.normalize();
        r
    }

    /// The largest value of the type: 2^W - 1, or 2^(W-1) - 1 if signed.
    pub fn max_value(width: u32, signed: bool) -> Bits {
        let mut r = Bits::ones(width, signed);
        if signed && width > 0 {
            r.set_bit(width - 1, false);
        }
        r
    }

    /// The smallest value of the type: 0, or -2^(W-1) if signed.
    pub fn min_value(width: u32, signed: bool) -> Bits {
        let mut r = Bits::zero(width, signed);
        if signed && width > 0 {
            r.set_bit(width - 1, true);
        }
        r
    }

    /// `bit<1>` from a `bool` (P4's `(bit<1>) b`).
    pub fn from_bool(b: bool) -> Bits {
        Bits::small(1, false, b as u64)
    }

    /// The width `W`.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// True for `int<W>`, false for `bit<W>`.
    #[inline]
    pub fn is_signed(&self) -> bool {
        self.signed
    }

    /// The storage this value uses (a function of the width).
    pub fn storage(&self) -> Storage {
        match self.repr {
            Repr::Small(_) => Storage::Small,
            Repr::Inline(_) => Storage::Inline,
            Repr::Heap(_) => Storage::Heap,
        }
    }

    /// The two's-complement pattern as `ceil(W/64)` little-endian words,
    /// bits at and above `W` zero. Two values are equal exactly when their
    /// width, signedness and words are, so table code can hash exact keys
    /// from this slice without allocating. Width 0 gives an empty slice.
    #[inline]
    pub fn words(&self) -> &[u64] {
        match &self.repr {
            Repr::Small(v) => &std::slice::from_ref(v)[..(self.width > 0) as usize],
            Repr::Inline(a) => &a[..word_count(self.width)],
            Repr::Heap(b) => b,
        }
    }

    /// The words, writable; callers must [`normalize`](Self::normalize) after
    /// writing bits at or above the width.
    #[inline]
    fn words_mut(&mut self) -> &mut [u64] {
        let n = word_count(self.width);
        match &mut self.repr {
            Repr::Small(v) => &mut std::slice::from_mut(v)[..n],
            Repr::Inline(a) => &mut a[..n],
            Repr::Heap(b) => b,
        }
    }

    /// Clears the bits at and above the width in the top word.
    #[inline]
    fn normalize(&mut self) {
        let top_bits = self.width % 64;
        if top_bits != 0
            && let Some(top) = self.words_mut().last_mut()
        {
            *top &= mask(top_bits);
        }
    }

    /// Sets or clears bit `i` (`i < W`).
    fn set_bit(&mut self, i: u32, on: bool) {
        if let Some(w) = self.words_mut().get_mut((i / 64) as usize) {
            let m = 1u64 << (i % 64);
            *w = if on { *w | m } else { *w & !m };
        }
    }

    /// True if the value is zero.
    #[inline]
    pub fn is_zero(&self) -> bool {
        match self.repr {
            Repr::Small(v) => v == 0,
            _ => self.words().iter().all(|&w| w == 0),
        }
    }

    /// True for a negative `int<W>` (its bit `W-1` set); always false for
    /// `bit<W>`.
    #[inline]
    pub fn is_negative(&self) -> bool {
        self.signed && self.width > 0 && self.bit(self.width - 1)
    }

    /// Bit `i` of the two's-complement pattern (bit 0 is the least
    /// significant); false for `i >= W`.
    #[inline]
    pub fn bit(&self, i: u32) -> bool {
        if i >= self.width {
            return false;
        }
        self.words()
            .get((i / 64) as usize)
            .is_some_and(|w| (w >> (i % 64)) & 1 == 1)
    }

    /// The value as a `u64` if it is in `0..2^64` (a negative `int<W>` gives
    /// `None`).
    pub fn to_u64(&self) -> Option<u64> {
        if self.is_negative() {
            return None;
        }
        let words = self.words();
        if words.iter().skip(1).any(|&w| w != 0) {
            return None;
        }
        Some(words.first().copied().unwrap_or(0))
    }

    /// The value as an `i64` if it is in `-2^63..2^63`.
    pub fn to_i64(&self) -> Option<i64> {
        if let Repr::Small(v) = self.repr {
            return if self.signed {
                Some(sext(v, self.width))
            } else {
                i64::try_from(v).ok()
            };
        }
        let words = self.words();
        let low = words.first().copied().unwrap_or(0) as i64;
        if low < 0 && !self.signed {
            return None;
        }
        // Every higher word must be the sign extension of `low`, as stored
        // (the top word only up to the width).
        let fill = if low < 0 { u64::MAX } else { 0 };
        let top = words.len() - 1;
        let ok = words.iter().enumerate().skip(1).all(|(k, &w)| {
            let expect = if k == top && !self.width.is_multiple_of(64) {
                fill & mask(self.width % 64)
            } else {
                fill
            };
            w == expect
        });
        ok.then_some(low)
    }

    /// The low 64 bits of the stored pattern (a negative `int<8>` gives
    /// `0x80..=0xff`, not a sign-extended `u64`).
    #[inline]
    pub fn as_u64_truncated(&self) -> u64 {
        match self.repr {
            Repr::Small(v) => v,
            _ => self.words().first().copied().unwrap_or(0),
        }
    }

    /// The value as a shift amount: the stored pattern read as unsigned,
    /// saturated to `u64::MAX` (any amount that large shifts everything out).
    pub fn shift_amount(&self) -> u64 {
        let words = self.words();
        if words.iter().skip(1).any(|&w| w != 0) {
            return u64::MAX;
        }
        words.first().copied().unwrap_or(0)
    }

    /// A `bit<1>` as a `bool` (P4's `(bool) b`): true if non-zero.
    pub fn to_bool(&self) -> bool {
        debug_assert_eq!(self.width, 1, "to_bool on a value of width {}", self.width);
        !self.is_zero()
    }

    /// Numeric comparison of two values of the same type (signed or
    /// unsigned per the operands).
    pub fn compare(&self, other: &Bits) -> Ordering {
        self.debug_check_same_type(other);
        if let (Repr::Small(a), Repr::Small(b)) = (&self.repr, &other.repr) {
            return if self.signed {
                sext(*a, self.width).cmp(&sext(*b, other.width))
            } else {
                a.cmp(b)
            };
        }
        match (self.is_negative(), other.is_negative()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            // Same sign: two's-complement patterns order like unsigned ones.
            _ => limbs::cmp(self.words(), other.words()),
        }
    }

    #[inline]
    fn debug_check_same_type(&self, other: &Bits) {
        debug_assert!(
            self.width == other.width && self.signed == other.signed,
            "operands of different types: {}{} and {}{}",
            if self.signed { "int" } else { "bit" },
            self.width,
            if other.signed { "int" } else { "bit" },
            other.width,
        );
    }
}

impl PartialEq for Bits {
    fn eq(&self, other: &Bits) -> bool {
        self.width == other.width
            && self.signed == other.signed
            && match (&self.repr, &other.repr) {
                (Repr::Small(a), Repr::Small(b)) => a == b,
                _ => self.words() == other.words(),
            }
    }
}

impl Eq for Bits {}

/// Values of the same type compare numerically (signed or unsigned);
/// values of different types are unordered (`partial_cmp` is `None`, so
/// `<`, `<=`, `>`, `>=` are all false), consistent with `==`, which also
/// requires equal types. P4's `<`, `<=`, `>` and `>=` on `bit<W>`/`int<W>`
/// are these operators.
impl PartialOrd for Bits {
    fn partial_cmp(&self, other: &Bits) -> Option<Ordering> {
        if self.width != other.width || self.signed != other.signed {
            return None;
        }
        Some(self.compare(other))
    }
}

impl Hash for Bits {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.width.hash(state);
        self.signed.hash(state);
        self.words().hash(state);
    }
}
