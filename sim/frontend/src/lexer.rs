//! The P4_16 lexer: preprocessed text to tokens.
//!
//! Words that the grammar also accepts as names (`apply`, `key`, `actions`,
//! `state`, `entries`, `type`, `priority`, `list`) are lexed as identifiers;
//! the parser recognises them by context. `>>` is never one token: the parser
//! joins two adjacent `>` into a shift, so `bit<8>>` closes a type argument.

use crate::diag::{Code, Diagnostic};
use crate::source::Span;
use num_bigint::BigUint;
use num_traits::Zero;

/// Reserved words of P4_16.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kw {
    Abstract,
    Action,
    Bit,
    Bool,
    Break,
    Const,
    Continue,
    Control,
    Default,
    Else,
    Enum,
    Error,
    Exit,
    Extern,
    False,
    For,
    Header,
    HeaderUnion,
    If,
    In,
    Inout,
    Int,
    MatchKind,
    Out,
    Package,
    Parser,
    Return,
    Select,
    String,
    Struct,
    Switch,
    Table,
    This,
    Transition,
    True,
    Tuple,
    Typedef,
    ValueSet,
    Varbit,
    Void,
}

const KEYWORDS: &[(&str, Kw)] = &[
    ("abstract", Kw::Abstract),
    ("action", Kw::Action),
    ("bit", Kw::Bit),
    ("bool", Kw::Bool),
    ("break", Kw::Break),
    ("const", Kw::Const),
    ("continue", Kw::Continue),
    ("control", Kw::Control),
    ("default", Kw::Default),
    ("else", Kw::Else),
    ("enum", Kw::Enum),
    ("error", Kw::Error),
    ("exit", Kw::Exit),
    ("extern", Kw::Extern),
    ("false", Kw::False),
    ("for", Kw::For),
    ("header", Kw::Header),
    ("header_union", Kw::HeaderUnion),
    ("if", Kw::If),
    ("in", Kw::In),
    ("inout", Kw::Inout),
    ("int", Kw::Int),
    ("match_kind", Kw::MatchKind),
    ("out", Kw::Out),
    ("package", Kw::Package),
    ("parser", Kw::Parser),
    ("return", Kw::Return),
    ("select", Kw::Select),
    ("string", Kw::String),
    ("struct", Kw::Struct),
    ("switch", Kw::Switch),
    ("table", Kw::Table),
    ("this", Kw::This),
    ("transition", Kw::Transition),
    ("true", Kw::True),
    ("tuple", Kw::Tuple),
    ("typedef", Kw::Typedef),
    ("value_set", Kw::ValueSet),
    ("varbit", Kw::Varbit),
    ("void", Kw::Void),
];

impl Kw {
    pub fn from_word(word: &str) -> Option<Kw> {
        KEYWORDS.iter().find(|(w, _)| *w == word).map(|(_, k)| *k)
    }

    pub fn as_str(self) -> &'static str {
        KEYWORDS
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |(w, _)| w)
    }
}

/// Punctuation and operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LBrace,
    RBrace,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Lt,
    Gt,
    Semi,
    Comma,
    Dot,
    Dots,
    DotDot,
    Colon,
    Question,
    Assign,
    Eq,
    Ne,
    Le,
    Ge,
    Not,
    Tilde,
    Amp,
    AndAnd,
    Mask,
    Pipe,
    OrOr,
    Caret,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Shl,
    PlusPlus,
    SatPlus,
    SatMinus,
    At,
    PlusAssign,
    MinusAssign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    ShlAssign,
    ShrAssign,
    AmpAssign,
    PipeAssign,
    CaretAssign,
    SatPlusAssign,
    SatMinusAssign,
    /// `+:` and `-:` of an indexed part-select (`e[lo +: w]`, `e[hi -: w]`).
    PlusColon,
    MinusColon,
    /// `{#}`: the invalid header (or header union) value.
    InvalidHeader,
}

const PUNCTS: &[(&str, Punct)] = &[
    // Longest first: the lexer takes the first that matches.
    ("{#}", Punct::InvalidHeader),
    ("|+|=", Punct::SatPlusAssign),
    ("|-|=", Punct::SatMinusAssign),
    ("&&&", Punct::Mask),
    ("<<=", Punct::ShlAssign),
    (">>=", Punct::ShrAssign),
    ("...", Punct::Dots),
    ("|+|", Punct::SatPlus),
    ("|-|", Punct::SatMinus),
    ("&&", Punct::AndAnd),
    ("||", Punct::OrOr),
    ("==", Punct::Eq),
    ("!=", Punct::Ne),
    ("<=", Punct::Le),
    (">=", Punct::Ge),
    ("<<", Punct::Shl),
    ("++", Punct::PlusPlus),
    ("..", Punct::DotDot),
    ("+=", Punct::PlusAssign),
    ("-=", Punct::MinusAssign),
    ("+:", Punct::PlusColon),
    ("-:", Punct::MinusColon),
    ("*=", Punct::StarAssign),
    ("/=", Punct::SlashAssign),
    ("%=", Punct::PercentAssign),
    ("&=", Punct::AmpAssign),
    ("|=", Punct::PipeAssign),
    ("^=", Punct::CaretAssign),
    ("{", Punct::LBrace),
    ("}", Punct::RBrace),
    ("(", Punct::LParen),
    (")", Punct::RParen),
    ("[", Punct::LBracket),
    ("]", Punct::RBracket),
    ("<", Punct::Lt),
    (">", Punct::Gt),
    (";", Punct::Semi),
    (",", Punct::Comma),
    (".", Punct::Dot),
    (":", Punct::Colon),
    ("?", Punct::Question),
    ("=", Punct::Assign),
    ("!", Punct::Not),
    ("~", Punct::Tilde),
    ("&", Punct::Amp),
    ("|", Punct::Pipe),
    ("^", Punct::Caret),
    ("+", Punct::Plus),
    ("-", Punct::Minus),
    ("*", Punct::Star),
    ("/", Punct::Slash),
    ("%", Punct::Percent),
    ("@", Punct::At),
];

impl Punct {
    pub fn as_str(self) -> &'static str {
        PUNCTS
            .iter()
            .find(|(_, p)| *p == self)
            .map_or("?", |(s, _)| s)
    }
}

/// An integer literal: its value and, if written with one, its width.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntLit {
    pub value: BigUint,
    /// `Some((w, signed))` for `8w5` (unsigned) and `8s5` (signed).
    pub width: Option<(u32, bool)>,
    /// The base the value was written in (2, 8, 10 or 16), kept for printing.
    pub base: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Ident(String),
    Kw(Kw),
    Int(IntLit),
    Str(String),
    Punct(Punct),
    /// `_`
    DontCare,
    Eof,
}

impl TokenKind {
    /// How the token is described in "expected X, found Y" messages.
    pub fn describe(&self) -> String {
        match self {
            TokenKind::Ident(n) => format!("identifier `{}`", crate::diag::shorten(n, 64)),
            TokenKind::Kw(k) => format!("keyword `{}`", k.as_str()),
            TokenKind::Int(_) => "integer literal".into(),
            TokenKind::Str(_) => "string literal".into(),
            TokenKind::Punct(p) => format!("`{}`", p.as_str()),
            TokenKind::DontCare => "`_`".into(),
            TokenKind::Eof => "end of file".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    /// True if whitespace or a comment precedes this token; used to join
    /// `>` `>` into `>>` only when they touch.
    pub space_before: bool,
}

/// An error found while lexing, at a span of the lexed text.
#[derive(Clone, Debug)]
pub struct LexError {
    pub code: Code,
    pub message: String,
    pub span: Span,
}

impl LexError {
    /// Converts to a diagnostic once the span is resolved to a file.
    pub fn into_diagnostic(self, at: crate::source::FileSpan) -> Diagnostic {
        Diagnostic::error(self.code, self.message).at(at, "here")
    }
}

/// The longest integer literal (in characters, with its width and base
/// prefix): about 33,000 bits in decimal. Longer ones are an error, since
/// converting decimal digits to a number takes time quadratic in their
/// count.
pub const MAX_LITERAL_CHARS: usize = 10_000;

/// Splits `text` into tokens, ending with an [`TokenKind::Eof`] token.
/// Errors are collected; the lexer recovers and goes on.
pub fn lex(text: &str) -> (Vec<Token>, Vec<LexError>) {
    let mut lx = Lexer {
        src: text.as_bytes(),
        text,
        pos: 0,
        tokens: Vec::with_capacity(text.len() / 4),
        errors: Vec::new(),
    };
    lx.run();
    (lx.tokens, lx.errors)
}

struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    tokens: Vec<Token>,
    errors: Vec<LexError>,
}

impl Lexer<'_> {
    fn run(&mut self) {
        let mut space = true;
        while self.pos < self.src.len() {
            let c = self.src[self.pos];
            if c.is_ascii_whitespace() {
                self.pos += 1;
                space = true;
                continue;
            }
            if c == b'/' && self.peek(1) == Some(b'/') {
                while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                    self.pos += 1;
                }
                space = true;
                continue;
            }
            if c == b'/' && self.peek(1) == Some(b'*') {
                self.block_comment();
                space = true;
                continue;
            }
            let start = self.pos;
            let kind = if c.is_ascii_alphabetic() || c == b'_' {
                self.word()
            } else if c.is_ascii_digit() {
                self.number()
            } else if c == b'"' {
                self.string()
            } else if let Some(p) = self.punct() {
                TokenKind::Punct(p)
            } else if c == b'#' && !self.at_line_start(start) {
                // A `#` inside a line is no directive (cpp leaves it): a
                // stray character, as p4c's lexer takes it (allowed in an
                // annotation's body, see `Parsed::annotation_bodies`).
                self.bad_characters();
                space = true;
                continue;
            } else if c == b'#' {
                // A directive the preprocessor left (e.g. in a file lexed
                // without preprocessing): skip the line.
                self.error(
                    Code::BadDirective,
                    start,
                    start + 1,
                    "unexpected preprocessor directive",
                );
                while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                    self.pos += 1;
                }
                continue;
            } else {
                self.bad_characters();
                space = true;
                continue;
            };
            self.tokens.push(Token {
                kind,
                span: Span::new(start as u32, self.pos as u32),
                space_before: space,
            });
            space = false;
        }
        let end = self.src.len() as u32;
        self.tokens.push(Token {
            kind: TokenKind::Eof,
            span: Span::new(end, end),
            space_before: true,
        });
    }

    fn peek(&self, n: usize) -> Option<u8> {
        self.src.get(self.pos + n).copied()
    }

    /// True if only spaces and tabs precede `pos` on its line.
    fn at_line_start(&self, pos: usize) -> bool {
        self.src[..pos]
            .iter()
            .rev()
            .take_while(|&&c| c != b'\n')
            .all(|&c| c == b' ' || c == b'\t')
    }

    fn error(&mut self, code: Code, lo: usize, hi: usize, message: impl Into<String>) {
        self.errors.push(LexError {
            code,
            message: message.into(),
            span: Span::new(lo as u32, hi as u32),
        });
    }

    /// Whether the character at `pos` can start no token (nor whitespace
    /// or a comment).
    fn is_bad_at(&self, pos: usize) -> bool {
        let Some(&c) = self.src.get(pos) else {
            return false;
        };
        if c.is_ascii_whitespace() || c.is_ascii_alphanumeric() || c == b'_' || c == b'"' {
            return false;
        }
        if c == b'#' {
            return false;
        }
        let rest = &self.src[pos..];
        !PUNCTS.iter().any(|(s, _)| rest.starts_with(s.as_bytes()))
    }

    /// A run of characters that start no token: one error for the whole
    /// run, however long.
    fn bad_characters(&mut self) {
        let start = self.pos;
        let mut count = 0usize;
        loop {
            let ch = self.text[self.pos..].chars().next().unwrap_or('?');
            self.pos += ch.len_utf8().max(1);
            count += 1;
            if !self.is_bad_at(self.pos) {
                break;
            }
        }
        let run = &self.text[start..self.pos];
        let message = if count == 1 {
            format!("unexpected character `{}`", run.escape_debug())
        } else {
            format!(
                "{count} unexpected characters `{}`",
                crate::diag::shorten(run, 16)
            )
        };
        self.error(Code::BadCharacter, start, self.pos, message);
    }

    fn block_comment(&mut self) {
        let start = self.pos;
        self.pos += 2;
        while self.pos < self.src.len() {
            if self.src[self.pos] == b'*' && self.peek(1) == Some(b'/') {
                self.pos += 2;
                return;
            }
            self.pos += 1;
        }
        self.error(
            Code::UnterminatedComment,
            start,
            start + 2,
            "unterminated block comment",
        );
    }

    fn word(&mut self) -> TokenKind {
        let start = self.pos;
        while self.pos < self.src.len()
            && (self.src[self.pos].is_ascii_alphanumeric() || self.src[self.pos] == b'_')
        {
            self.pos += 1;
        }
        let w = &self.text[start..self.pos];
        if w == "_" {
            return TokenKind::DontCare;
        }
        match Kw::from_word(w) {
            Some(k) => TokenKind::Kw(k),
            None => TokenKind::Ident(w.to_string()),
        }
    }

    fn string(&mut self) -> TokenKind {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        while self.pos < self.src.len() {
            let c = self.src[self.pos];
            match c {
                b'"' => {
                    self.pos += 1;
                    return TokenKind::Str(value);
                }
                b'\\' => {
                    // The escaped character may be multi-byte: decode it whole.
                    self.pos += 1;
                    let Some(esc) = self.text.get(self.pos..).and_then(|s| s.chars().next()) else {
                        break;
                    };
                    self.pos += esc.len_utf8();
                    match esc {
                        'n' => value.push('\n'),
                        't' => value.push('\t'),
                        'r' => value.push('\r'),
                        '\\' => value.push('\\'),
                        '"' => value.push('"'),
                        '\n' => {}
                        other => {
                            value.push('\\');
                            value.push(other);
                        }
                    }
                }
                _ => {
                    let ch = self.text[self.pos..].chars().next().unwrap_or('?');
                    value.push(ch);
                    self.pos += ch.len_utf8().max(1);
                }
            }
        }
        self.pos = self.pos.min(self.src.len());
        self.error(
            Code::UnterminatedString,
            start,
            start + 1,
            "unterminated string literal",
        );
        TokenKind::Str(value)
    }

    fn punct(&mut self) -> Option<Punct> {
        let rest = &self.src[self.pos..];
        let (s, p) = PUNCTS
            .iter()
            .find(|(s, _)| rest.starts_with(s.as_bytes()))?;
        self.pos += s.len();
        Some(*p)
    }

    /// Integer literals: `[width(w|s)][0x|0o|0b|0d]digits`, `_` allowed
    /// between digits.
    fn number(&mut self) -> TokenKind {
        let start = self.pos;
        let first = self.digits_while(|c| c.is_ascii_digit() || c == b'_');
        let mut width = None;
        if matches!(self.peek(0), Some(b'w' | b's')) {
            let signed = self.peek(0) == Some(b's');
            let next = self.peek(1);
            let value_follows = next.is_some_and(|c| c.is_ascii_digit());
            if value_follows {
                self.pos += 1;
                let width_digits = (first.len() <= 20).then_some(&first);
                match width_digits
                    .and_then(|w| parse_digits(w, 10))
                    .and_then(|w| u32::try_from(w).ok())
                {
                    Some(w) => width = Some((w, signed)),
                    None => {
                        self.error(Code::BadLiteral, start, self.pos, "invalid literal width");
                    }
                }
            } else {
                self.pos += 1;
                self.skip_alnum();
                self.error(
                    Code::BadLiteral,
                    start,
                    self.pos,
                    "literal width without a value",
                );
                return TokenKind::Int(IntLit {
                    value: BigUint::zero(),
                    width: None,
                    base: 10,
                });
            }
        }
        let (base, digits) = if width.is_some() {
            let b = self.base_prefix();
            let d = self.digits_while(|c| c.is_ascii_alphanumeric() || c == b'_');
            (b, d)
        } else if first == "0" && self.radix_letter_at(0).is_some() {
            self.pos -= 1;
            let b = self.base_prefix();
            let d = self.digits_while(|c| c.is_ascii_alphanumeric() || c == b'_');
            (b, d)
        } else {
            let tail = self.digits_while(|c| c.is_ascii_alphanumeric() || c == b'_');
            (10, first + &tail)
        };
        if self.pos - start > MAX_LITERAL_CHARS {
            self.error(
                Code::BadLiteral,
                start,
                self.pos,
                format!(
                    "integer literal of {} characters; the limit is {MAX_LITERAL_CHARS}",
                    self.pos - start
                ),
            );
            return TokenKind::Int(IntLit {
                value: BigUint::zero(),
                width,
                base,
            });
        }
        let value = match parse_digits(&digits, base) {
            Some(v) => v,
            None => {
                let text = crate::diag::shorten(&self.text[start..self.pos], 40);
                self.error(
                    Code::BadLiteral,
                    start,
                    self.pos,
                    format!("malformed integer literal `{text}`"),
                );
                BigUint::zero()
            }
        };
        if let Some((0, _)) = width {
            self.error(
                Code::BadLiteral,
                start,
                self.pos,
                "a literal's width must be at least 1",
            );
        }
        TokenKind::Int(IntLit { value, width, base })
    }

    fn digits_while(&mut self, f: impl Fn(u8) -> bool) -> String {
        let start = self.pos;
        while self.pos < self.src.len() && f(self.src[self.pos]) {
            self.pos += 1;
        }
        self.text[start..self.pos].to_string()
    }

    fn skip_alnum(&mut self) {
        while self.pos < self.src.len()
            && (self.src[self.pos].is_ascii_alphanumeric() || self.src[self.pos] == b'_')
        {
            self.pos += 1;
        }
    }

    fn radix_letter_at(&self, n: usize) -> Option<u32> {
        match self.peek(n) {
            Some(b'x' | b'X') => Some(16),
            Some(b'o' | b'O') => Some(8),
            Some(b'b' | b'B') => Some(2),
            Some(b'd' | b'D') => Some(10),
            _ => None,
        }
    }

    /// Consumes an optional `0x`/`0o`/`0b`/`0d` prefix; returns the base.
    fn base_prefix(&mut self) -> u32 {
        match (self.peek(0), self.radix_letter_at(1)) {
            (Some(b'0'), Some(base)) => {
                self.pos += 2;
                base
            }
            _ => 10,
        }
    }
}

/// Parses digits (with `_` separators) in `base`; `None` if empty or malformed.
fn parse_digits(digits: &str, base: u32) -> Option<BigUint> {
    let clean: Vec<u8> = digits
        .bytes()
        .filter(|&b| b != b'_')
        .map(|b| (b as char).to_digit(base).map(|d| d as u8))
        .collect::<Option<_>>()?;
    if clean.is_empty() {
        return None;
    }
    BigUint::from_radix_be(&clean, base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<TokenKind> {
        let (toks, errs) = lex(s);
        assert!(errs.is_empty(), "{errs:?}");
        toks.into_iter().map(|t| t.kind).collect()
    }

    fn int(s: &str) -> IntLit {
        match &kinds(s)[0] {
            TokenKind::Int(i) => i.clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn words_keywords_and_dont_care() {
        assert_eq!(
            kinds("header h_t _ apply"),
            vec![
                TokenKind::Kw(Kw::Header),
                TokenKind::Ident("h_t".into()),
                TokenKind::DontCare,
                TokenKind::Ident("apply".into()),
                TokenKind::Eof
            ]
        );
    }

    #[test]
    fn integer_literal_forms() {
        assert_eq!(int("42").value, 42u32.into());
        assert_eq!(int("0x2A").value, 42u32.into());
        assert_eq!(int("0b101010").value, 42u32.into());
        assert_eq!(int("0o52").value, 42u32.into());
        assert_eq!(int("0d42").value, 42u32.into());
        assert_eq!(int("1_000").value, 1000u32.into());
        let l = int("8w255");
        assert_eq!((l.value, l.width), (255u32.into(), Some((8, false))));
        let l = int("16s0xFF_FF");
        assert_eq!((l.value, l.width), (65535u32.into(), Some((16, true))));
        let l = int("128w0xffffffffffffffffffffffffffffffff");
        assert_eq!(l.value.bits(), 128);
    }

    #[test]
    fn malformed_literals_are_errors() {
        for bad in ["0xZZ", "8w", "0b102", "0w1"] {
            let (_, errs) = lex(bad);
            assert!(
                errs.iter().any(|e| e.code == Code::BadLiteral),
                "{bad}: {errs:?}"
            );
        }
    }

    #[test]
    fn operators_longest_match() {
        assert_eq!(
            kinds("&&& && & |+| |-| ++ .. ... >>"),
            vec![
                TokenKind::Punct(Punct::Mask),
                TokenKind::Punct(Punct::AndAnd),
                TokenKind::Punct(Punct::Amp),
                TokenKind::Punct(Punct::SatPlus),
                TokenKind::Punct(Punct::SatMinus),
                TokenKind::Punct(Punct::PlusPlus),
                TokenKind::Punct(Punct::DotDot),
                TokenKind::Punct(Punct::Dots),
                TokenKind::Punct(Punct::Gt),
                TokenKind::Punct(Punct::Gt),
                TokenKind::Eof
            ]
        );
        let (toks, _) = lex("> >>");
        assert!(toks[1].space_before && !toks[2].space_before);
    }

    #[test]
    fn comments_and_strings() {
        assert_eq!(
            kinds("a /* x \n y */ b // c\n \"s\\\"t\""),
            vec![
                TokenKind::Ident("a".into()),
                TokenKind::Ident("b".into()),
                TokenKind::Str("s\"t".into()),
                TokenKind::Eof
            ]
        );
        let (_, errs) = lex("/* open");
        assert_eq!(errs[0].code, Code::UnterminatedComment);
        let (_, errs) = lex("\"open\n");
        assert_eq!(errs[0].code, Code::UnterminatedString);
        // A string may span lines.
        assert_eq!(
            kinds("\"a\nb\""),
            vec![TokenKind::Str("a\nb".into()), TokenKind::Eof]
        );
    }

    #[test]
    fn never_panics_on_odd_bytes() {
        for s in [
            "\u{0}",
            "é",
            "8w0x",
            "0x",
            "1s",
            "\"\\",
            "9999999999999999999999w1",
            "$",
            "\"\\\u{fffd}",
            "\"\\é\"",
        ] {
            let _ = lex(s);
        }
    }
}
