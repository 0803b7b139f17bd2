//! Errors: syntax errors from [`parse`](crate::parse) and value errors from
//! the key/number conversions the runner performs later.

/// A syntax error in an STF file, with the 1-based line and column
/// (columns count characters, a tab is one column).
///
/// `Display` prints `line L, column C: message`; the caller adds the file
/// name in front.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct StfError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters) of the offending token, or just past
    /// the end of the line when something is missing.
    pub column: usize,
    /// What is wrong, in a sentence without a trailing full stop.
    pub message: String,
}

/// A value that parsed but cannot be used the way the runner asks, such as
/// a decimal ternary key or a number wider than its field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// Don't-care digits in a context that needs a plain value.
    #[error("`{value}` has don't-care digits `*`, which only ternary and lpm key values may have")]
    DontCare {
        /// The number as written.
        value: String,
    },
    /// The value has more significant bits than the field.
    #[error("`{value}` needs {needed} bits but the field is {width} bits wide")]
    TooWide {
        /// The number as written.
        value: String,
        /// Bits the value needs.
        needed: usize,
        /// The field's width in bits.
        width: u32,
    },
    /// A value does not fit the integer type the caller asked for.
    #[error("`{value}` is too large (it must fit in {bits} bits)")]
    TooLarge {
        /// The number as written.
        value: String,
        /// Bits available.
        bits: u32,
    },
    /// Ternary values take their mask from the digits written, so decimal
    /// is rejected (as the reference driver does).
    #[error(
        "decimal `{value}` cannot be a ternary key value: the mask comes from the digits written, \
         so write it in hex (`0x..`) or binary (`0b..`)"
    )]
    DecimalTernary {
        /// The number as written.
        value: String,
    },
    /// `value/len` used for a key that is not lpm.
    #[error("`{value}/{len}`: a `/len` prefix length is only valid for an lpm key")]
    UnexpectedPrefix {
        /// The number as written.
        value: String,
        /// The prefix length as written.
        len: u32,
    },
    /// `lo->hi` used for a key that is not a range.
    #[error("`{range}`: a `lo->hi` range is only valid for a range key")]
    UnexpectedRange {
        /// The range as written.
        range: String,
    },
    /// An lpm prefix longer than the field.
    #[error("prefix length {len} is longer than the {width}-bit field")]
    PrefixTooLong {
        /// The prefix length.
        len: u32,
        /// The field's width in bits.
        width: u32,
    },
    /// An lpm value written with `*` digits that are not all at the end.
    #[error("`{value}`: in an lpm value the don't-care digits `*` must all come last")]
    LpmDontCareNotTrailing {
        /// The number as written.
        value: String,
    },
    /// A decimal lpm value without `/len` (the reference driver cannot
    /// handle it either).
    #[error(
        "decimal lpm value `{value}` needs a prefix length: write `{value}/len`, \
         or write it in hex with trailing `*` digits"
    )]
    DecimalLpmNeedsLength {
        /// The number as written.
        value: String,
    },
}
