//! Byte-level scanning of preprocessing tokens.
//!
//! All functions work on a byte slice whose length is the scanning limit and
//! return absolute positions, so callers can bound a scan (to a directive
//! line, say) by slicing the text. Positions handed in are always at a
//! character boundary; every function returns positions at character
//! boundaries too.

use std::rc::Rc;

/// The kind of a preprocessing token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Number,
    Str,
    Punct,
    Other,
}

/// The set of macros (by [`super::macros::Macro::id`]) a token must not
/// be expanded by again: sorted, without repeats, shared.
pub(crate) type HideSet = Option<Rc<[u32]>>;

/// A preprocessing token.
#[derive(Clone, Debug)]
pub(crate) struct Tok {
    pub kind: Kind,
    pub text: Rc<str>,
    /// Whitespace (or a comment, or a newline) came before the token.
    pub space: bool,
    pub hide: HideSet,
    /// Where the token came from in the (spliced) text of the current file;
    /// meaningless for tokens made by macro expansion.
    pub lo: u32,
    pub hi: u32,
}

impl Tok {
    /// A token made by the preprocessor, with no source position.
    pub fn synthetic(kind: Kind, text: &str, space: bool) -> Tok {
        Tok {
            kind,
            text: Rc::from(text),
            space,
            hide: None,
            lo: 0,
            hi: 0,
        }
    }

    /// Whether the token is the punctuator `p`.
    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == Kind::Punct && &*self.text == p
    }

    /// Whether macro `id` is in the token's hide set.
    pub fn is_hidden(&self, id: u32) -> bool {
        self.hide
            .as_ref()
            .is_some_and(|h| h.binary_search(&id).is_ok())
    }
}

/// The number of macros in a hide set.
pub(crate) fn hide_len(a: &HideSet) -> usize {
    a.as_ref().map_or(0, |h| h.len())
}

/// Whether two hide sets are the same shared set (or both empty).
pub(crate) fn hide_same(a: &HideSet, b: &HideSet) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}

/// `a ∪ b`, in time linear in their sizes.
pub(crate) fn hide_union(a: &HideSet, b: &HideSet) -> HideSet {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(x), Some(y)) => {
            if Rc::ptr_eq(x, y) {
                return a.clone();
            }
            let mut v = Vec::with_capacity(x.len() + y.len());
            let (mut i, mut j) = (0, 0);
            while i < x.len() && j < y.len() {
                match x[i].cmp(&y[j]) {
                    std::cmp::Ordering::Less => {
                        v.push(x[i]);
                        i += 1;
                    }
                    std::cmp::Ordering::Greater => {
                        v.push(y[j]);
                        j += 1;
                    }
                    std::cmp::Ordering::Equal => {
                        v.push(x[i]);
                        i += 1;
                        j += 1;
                    }
                }
            }
            v.extend_from_slice(&x[i..]);
            v.extend_from_slice(&y[j..]);
            if v.len() == x.len() {
                return a.clone();
            }
            if v.len() == y.len() {
                return b.clone();
            }
            Some(Rc::from(v))
        }
    }
}

/// `a ∩ b`, in time linear in their sizes.
pub(crate) fn hide_intersect(a: &HideSet, b: &HideSet) -> HideSet {
    let (Some(x), Some(y)) = (a, b) else {
        return None;
    };
    if Rc::ptr_eq(x, y) {
        return a.clone();
    }
    let mut v = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                v.push(x[i]);
                i += 1;
                j += 1;
            }
        }
    }
    if v.is_empty() {
        None
    } else {
        Some(Rc::from(v))
    }
}

/// `a ∪ {id}`.
pub(crate) fn hide_add(a: &HideSet, id: u32) -> HideSet {
    match a {
        None => Some(Rc::from([id])),
        Some(x) => match x.binary_search(&id) {
            Ok(_) => a.clone(),
            Err(at) => {
                let mut v = Vec::with_capacity(x.len() + 1);
                v.extend_from_slice(&x[..at]);
                v.push(id);
                v.extend_from_slice(&x[at..]);
                Some(Rc::from(v))
            }
        },
    }
}

pub(crate) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

pub(crate) fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Horizontal whitespace: anything but a newline that separates tokens.
pub(crate) fn is_hspace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// Skips spaces and tabs (not newlines, not comments).
pub(crate) fn skip_hspace(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_hspace(b[i]) {
        i += 1;
    }
    i
}

/// The result of skipping whitespace and comments.
pub(crate) struct Skipped {
    /// The position of the next token (or the limit).
    pub pos: usize,
    /// Whether anything was skipped.
    pub space: bool,
    /// The start of a `/*` comment that runs to the limit.
    pub unterminated: Option<usize>,
}

/// Skips whitespace and comments. Newlines are skipped only if
/// `newlines` is set; a `//` comment always stops before its newline.
pub(crate) fn skip_space(b: &[u8], mut i: usize, newlines: bool) -> Skipped {
    let start = i;
    loop {
        if i >= b.len() {
            break;
        }
        let c = b[i];
        if is_hspace(c) || (newlines && c == b'\n') {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = line_end(b, i);
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            match block_comment_end(b, i) {
                Some(e) => i = e,
                None => {
                    return Skipped {
                        pos: b.len(),
                        space: true,
                        unterminated: Some(i),
                    };
                }
            }
        } else {
            break;
        }
    }
    Skipped {
        pos: i,
        space: i > start,
        unterminated: None,
    }
}

/// The position of the next `\n` at or after `i`, or the limit.
pub(crate) fn line_end(b: &[u8], i: usize) -> usize {
    b.get(i..)
        .and_then(|rest| rest.iter().position(|&c| c == b'\n'))
        .map_or(b.len(), |p| i + p)
}

/// The end (just past `*/`) of the block comment starting at `i`.
pub(crate) fn block_comment_end(b: &[u8], i: usize) -> Option<usize> {
    let body = b.get(i + 2..)?;
    body.windows(2)
        .position(|w| w == b"*/")
        .map(|p| i + 2 + p + 2)
}

/// The end of the string literal starting at `i` (the `"`): just past the
/// closing quote, or at the end of the line if there is none.
pub(crate) fn string_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'"' => return j + 1,
            b'\n' => return j,
            b'\\' if j + 1 < b.len() && b[j + 1] != b'\n' => j += 2,
            _ => j += 1,
        }
    }
    b.len()
}

/// The end of the identifier starting at `i`.
pub(crate) fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ident_char(b[i]) {
        i += 1;
    }
    i
}

/// Whether a pp-number starts at `i`.
pub(crate) fn number_starts(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        Some(c) if c.is_ascii_digit() => true,
        Some(b'.') => b.get(i + 1).is_some_and(u8::is_ascii_digit),
        _ => false,
    }
}

/// The end of the pp-number starting at `i`.
pub(crate) fn number_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        let c = b[i];
        let exponent_sign =
            matches!(c, b'+' | b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
        if !(exponent_sign || is_ident_char(c) || c == b'.') {
            break;
        }
        i += 1;
    }
    i
}

const PUNCTS: &[&str] = &[
    "...", "<<=", ">>=", "##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "->",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
];

/// The end of the character (UTF-8 sequence) starting at `i`.
fn char_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < b.len() && (b[j] & 0xC0) == 0x80 {
        j += 1;
    }
    j
}

/// Scans the token starting at `i` (which must not be whitespace or a
/// comment) and returns its kind and end.
pub(crate) fn token_at(b: &[u8], i: usize) -> (Kind, usize) {
    let c = b[i];
    if is_ident_start(c) {
        return (Kind::Ident, ident_end(b, i));
    }
    if number_starts(b, i) {
        return (Kind::Number, number_end(b, i));
    }
    if c == b'"' {
        return (Kind::Str, string_end(b, i));
    }
    if c.is_ascii_punctuation() {
        let rest = &b[i..];
        let len = PUNCTS
            .iter()
            .find(|p| rest.starts_with(p.as_bytes()))
            .map_or(1, |p| p.len());
        return (Kind::Punct, i + len);
    }
    (Kind::Other, char_end(b, i))
}

/// Splits `text[lo..hi]` into tokens, treating comments and newlines as
/// whitespace. Returns the tokens and the start of an unterminated `/*`
/// comment, if any.
pub(crate) fn tokenize(text: &str, lo: usize, hi: usize) -> (Vec<Tok>, Option<usize>) {
    let b = &text.as_bytes()[..hi.min(text.len())];
    let mut toks = Vec::new();
    let mut i = lo;
    loop {
        let s = skip_space(b, i, true);
        if s.unterminated.is_some() {
            return (toks, s.unterminated);
        }
        if s.pos >= b.len() {
            return (toks, None);
        }
        let (kind, end) = token_at(b, s.pos);
        toks.push(Tok {
            kind,
            text: Rc::from(text.get(s.pos..end).unwrap_or("")),
            space: s.space,
            hide: None,
            lo: s.pos as u32,
            hi: end as u32,
        });
        i = end;
    }
}

/// Joins tokens back into text: one space where the source had whitespace,
/// and where two tokens would otherwise run together into one.
pub(crate) fn spell(toks: &[Tok]) -> String {
    let mut out = String::new();
    let mut prev: Option<&Tok> = None;
    for t in toks {
        if let Some(p) = prev
            && (t.space || would_merge(p, t))
        {
            out.push(' ');
        }
        out.push_str(&t.text);
        prev = Some(t);
    }
    out
}

/// Whether writing `b` right after `a` would make the lexer see them as one
/// token. Two word-like tokens can only be adjacent here if they came from
/// different places (a macro body and an argument, say).
fn would_merge(a: &Tok, b: &Tok) -> bool {
    let word = |k: Kind| matches!(k, Kind::Ident | Kind::Number);
    word(a.kind) && word(b.kind)
}

/// An upper bound of the length of [`stringize`]'s result, computed
/// without building it.
pub(crate) fn stringize_len(toks: &[Tok]) -> usize {
    toks.iter().map(|t| 2 * t.text.len() + 1).sum::<usize>() + 2
}

/// The string literal `#arg` makes of the argument tokens.
pub(crate) fn stringize(toks: &[Tok]) -> String {
    let mut out = String::from("\"");
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.space {
            out.push(' ');
        }
        if t.kind == Kind::Str {
            for ch in t.text.chars() {
                if ch == '"' || ch == '\\' {
                    out.push('\\');
                }
                out.push(ch);
            }
        } else {
            out.push_str(&t.text);
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Kind, String)> {
        tokenize(s, 0, s.len())
            .0
            .into_iter()
            .map(|t| (t.kind, t.text.to_string()))
            .collect()
    }

    #[test]
    fn tokenizes_words_numbers_strings_and_puncts() {
        let toks = kinds("a_1 8w0xFF \"s\\\"x\" <<= ## /* c */ x // d\n é");
        let texts: Vec<&str> = toks.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            texts,
            ["a_1", "8w0xFF", "\"s\\\"x\"", "<<=", "##", "x", "é"]
        );
        assert_eq!(toks[1].0, Kind::Number);
        assert_eq!(toks[6].0, Kind::Other);
    }

    #[test]
    fn stringize_escapes_quotes_in_strings() {
        let (toks, _) = tokenize("a  + \"q\\n\"", 0, 11);
        assert_eq!(stringize(&toks), r#""a + \"q\\n\"""#);
    }
}
