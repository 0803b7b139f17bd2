//! Tokens of the non-data commands (everything but `packet`/`expect` data),
//! one line at a time.

/// A token kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A run of `[A-Za-z0-9_$*]`: an identifier or a number (told apart by
    /// the parser from context).
    Word(String),
    /// `"..."`: one identifier, quotes removed.
    Quoted(String),
    Colon,
    Comma,
    Dot,
    LBracket,
    RBracket,
    LParen,
    RParen,
    Slash,
    /// `->` between the ends of a range key (`f:0x10->0x20`).
    Arrow,
    Eq,
    EqEq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A token and its 1-based column.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub col: usize,
}

/// An error position and message (the line is added by the caller).
#[derive(Clone, Debug)]
pub(crate) struct Diag {
    pub column: usize,
    pub message: String,
}

pub(crate) fn diag(column: usize, message: impl Into<String>) -> Diag {
    Diag {
        column,
        message: message.into(),
    }
}

/// Characters that may appear inside a word.
pub(crate) fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '*'
}

/// Horizontal white space (line breaks are handled by the caller).
pub(crate) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\x0b' | '\x0c')
}

/// `[A-Za-z_$][A-Za-z0-9_$]*`.
pub(crate) fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A short, printable rendering of user text for messages.
pub(crate) fn snippet(s: &str) -> String {
    Snippet(s).to_string()
}

/// [`snippet`] rendered only when displayed: for the descriptions of what
/// a parse step expects, which only a failing step shows.
pub(crate) struct Snippet<'a>(pub &'a str);

impl std::fmt::Display for Snippet<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write;
        const MAX: usize = 32;
        for (i, c) in self.0.chars().enumerate() {
            if i == MAX {
                return f.write_char('…');
            }
            if c.is_control() {
                for e in c.escape_default() {
                    f.write_char(e)?;
                }
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

/// Describes a character for an error message.
pub(crate) fn describe_char(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("`{}` (U+{:04X})", c.escape_default(), c as u32)
    } else {
        format!("`{c}`")
    }
}

/// Splits `chars[start..]` into tokens, stopping at a `#` comment.
/// Returns the tokens and the column just past the last token.
pub(crate) fn tokenize(chars: &[char], start: usize) -> Result<(Vec<Token>, usize), Diag> {
    let mut toks = Vec::new();
    let mut i = start;
    let mut end_col = start + 1;
    loop {
        while i < chars.len() && is_space(chars[i]) {
            i += 1;
        }
        if i >= chars.len() || chars[i] == '#' {
            break;
        }
        let col = i + 1;
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let (tok, len) = match c {
            _ if is_word_char(c) => {
                let mut j = i;
                while j < chars.len() && is_word_char(chars[j]) {
                    j += 1;
                }
                (Tok::Word(chars[i..j].iter().collect()), j - i)
            }
            '"' => {
                let Some(close) = chars[i + 1..].iter().position(|&c| c == '"') else {
                    return Err(diag(
                        col,
                        "unterminated quoted name: no closing `\"` on this line",
                    ));
                };
                if close == 0 {
                    return Err(diag(col, "empty quoted name `\"\"`"));
                }
                (
                    Tok::Quoted(chars[i + 1..i + 1 + close].iter().collect()),
                    close + 2,
                )
            }
            ':' => (Tok::Colon, 1),
            ',' => (Tok::Comma, 1),
            '.' => (Tok::Dot, 1),
            '[' => (Tok::LBracket, 1),
            ']' => (Tok::RBracket, 1),
            '(' => (Tok::LParen, 1),
            ')' => (Tok::RParen, 1),
            '/' => (Tok::Slash, 1),
            '=' if next == Some('=') => (Tok::EqEq, 2),
            '=' => (Tok::Eq, 1),
            '!' if next == Some('=') => (Tok::Ne, 2),
            '<' if next == Some('=') => (Tok::Le, 2),
            '<' => (Tok::Lt, 1),
            '>' if next == Some('=') => (Tok::Ge, 2),
            '>' => (Tok::Gt, 1),
            '!' => return Err(diag(col, "unexpected `!` (did you mean `!=`?)")),
            '&' => {
                return Err(diag(
                    col,
                    "unexpected `&`: STF has no `&&&` masks; a ternary mask comes from the digits \
                     written, with `*` for don't-care digits (e.g. `0x0a**`)",
                ));
            }
            '-' if next == Some('>') => (Tok::Arrow, 2),
            '-' => return Err(diag(col, "unexpected `-`: STF numbers cannot be negative")),
            _ => {
                return Err(diag(
                    col,
                    format!("unexpected character {}", describe_char(c)),
                ));
            }
        };
        toks.push(Token { tok, col });
        i += len;
        end_col = i + 1;
    }
    Ok((toks, end_col))
}

impl Tok {
    /// How the token is shown in messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{}`", snippet(w)),
            Tok::Quoted(s) => format!("`\"{}\"`", snippet(s)),
            Tok::Colon => "`:`".into(),
            Tok::Comma => "`,`".into(),
            Tok::Dot => "`.`".into(),
            Tok::LBracket => "`[`".into(),
            Tok::RBracket => "`]`".into(),
            Tok::LParen => "`(`".into(),
            Tok::RParen => "`)`".into(),
            Tok::Slash => "`/`".into(),
            Tok::Arrow => "`->`".into(),
            Tok::Eq => "`=`".into(),
            Tok::EqEq => "`==`".into(),
            Tok::Ne => "`!=`".into(),
            Tok::Lt => "`<`".into(),
            Tok::Le => "`<=`".into(),
            Tok::Gt => "`>`".into(),
            Tok::Ge => "`>=`".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        let chars: Vec<char> = s.chars().collect();
        tokenize(&chars, 0)
            .unwrap()
            .0
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn tokens() {
        assert_eq!(
            toks("t hdr.f:0x0a** a(x:1) # c"),
            vec![
                Tok::Word("t".into()),
                Tok::Word("hdr".into()),
                Tok::Dot,
                Tok::Word("f".into()),
                Tok::Colon,
                Tok::Word("0x0a**".into()),
                Tok::Word("a".into()),
                Tok::LParen,
                Tok::Word("x".into()),
                Tok::Colon,
                Tok::Word("1".into()),
                Tok::RParen,
            ]
        );
        assert_eq!(
            toks("== != < <= > >= ="),
            vec![
                Tok::EqEq,
                Tok::Ne,
                Tok::Lt,
                Tok::Le,
                Tok::Gt,
                Tok::Ge,
                Tok::Eq
            ]
        );
        assert_eq!(
            toks("\"a b#c\".d"),
            vec![Tok::Quoted("a b#c".into()), Tok::Dot, Tok::Word("d".into())]
        );
    }

    #[test]
    fn errors() {
        for bad in ["\"abc", "\"\"", "a & b", "!", "-1", "é", "\u{0}"] {
            let chars: Vec<char> = bad.chars().collect();
            assert!(tokenize(&chars, 0).is_err(), "{bad}");
        }
    }

    #[test]
    fn idents() {
        assert!(is_ident("$valid$"));
        assert!(is_ident("stk$1"));
        assert!(is_ident("_a9"));
        assert!(!is_ident("9a"));
        assert!(!is_ident("a*"));
        assert!(!is_ident(""));
    }

    #[test]
    fn snippets_are_bounded() {
        assert_eq!(snippet(&"x".repeat(100)).chars().count(), 33);
        assert_eq!(snippet("a\u{0}b"), "a\\u{0}b");
    }
}
