//! Evaluation of `#if` expressions: C integer arithmetic on `i64`.
//!
//! The input is already macro-expanded, with `defined` replaced; any
//! identifier left is 0. Errors are messages for an E0021 diagnostic.

use super::lex::{Kind, Tok};

/// How deeply an expression may nest (parentheses, unary operators, `?:`).
const MAX_DEPTH: usize = 256;

/// Evaluates a whole `#if` expression.
pub(crate) fn eval(toks: &[Tok]) -> Result<i64, String> {
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let v = p.conditional(true)?;
    match p.peek() {
        None => Ok(v),
        Some(t) => Err(format!("unexpected `{}`", t.text)),
    }
}

struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
    depth: usize,
}

/// The precedence of a binary operator (higher binds tighter).
fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | "<=" | ">" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn peek_punct(&self, p: &str) -> bool {
        self.peek().is_some_and(|t| t.is_punct(p))
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("expression nests too deeply".into());
        }
        Ok(())
    }

    fn expect(&mut self, p: &str) -> Result<(), String> {
        if self.peek_punct(p) {
            self.pos += 1;
            return Ok(());
        }
        match self.peek() {
            Some(t) => Err(format!("expected `{p}`, found `{}`", t.text)),
            None => Err(format!("expected `{p}` at the end")),
        }
    }

    /// `a ? b : c`. With `eval` false, the value is not needed and errors
    /// such as division by zero are not reported.
    fn conditional(&mut self, eval: bool) -> Result<i64, String> {
        self.enter()?;
        let c = self.binary(1, eval)?;
        let v = if self.peek_punct("?") {
            self.pos += 1;
            let a = self.conditional(eval && c != 0)?;
            self.expect(":")?;
            let b = self.conditional(eval && c == 0)?;
            if c != 0 { a } else { b }
        } else {
            c
        };
        self.depth -= 1;
        Ok(v)
    }

    /// Binary operators of precedence `min` or higher, left-associative.
    fn binary(&mut self, min: u8, eval: bool) -> Result<i64, String> {
        let mut lhs = self.unary(eval)?;
        while let Some(op) = self.peek().filter(|t| t.kind == Kind::Punct) {
            let Some(prec) = precedence(&op.text).filter(|&p| p >= min) else {
                break;
            };
            let op = op.text.clone();
            self.pos += 1;
            let rhs_eval = match &*op {
                "&&" => eval && lhs != 0,
                "||" => eval && lhs == 0,
                _ => eval,
            };
            let rhs = self.binary(prec + 1, rhs_eval)?;
            lhs = apply(&op, lhs, rhs, eval)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self, eval: bool) -> Result<i64, String> {
        let Some(t) = self.peek() else {
            return Err("expression ends early".into());
        };
        let t = t.clone();
        self.pos += 1;
        match t.kind {
            Kind::Number => parse_int(&t.text),
            Kind::Ident => Ok(0),
            Kind::Punct if matches!(&*t.text, "-" | "+" | "~" | "!") => {
                self.enter()?;
                let v = self.unary(eval)?;
                self.depth -= 1;
                Ok(match &*t.text {
                    "-" => v.wrapping_neg(),
                    "~" => !v,
                    "!" => i64::from(v == 0),
                    _ => v,
                })
            }
            Kind::Punct if &*t.text == "(" => {
                let v = self.conditional(eval)?;
                self.expect(")")?;
                Ok(v)
            }
            _ => Err(format!("unexpected `{}`", t.text)),
        }
    }
}

/// Applies a binary operator with C semantics (wrapping on overflow).
fn apply(op: &str, a: i64, b: i64, eval: bool) -> Result<i64, String> {
    Ok(match op {
        "*" => a.wrapping_mul(b),
        "/" | "%" if b == 0 => {
            if eval {
                return Err("division by zero".into());
            }
            0
        }
        "/" => a.wrapping_div(b),
        "%" => a.wrapping_rem(b),
        "+" => a.wrapping_add(b),
        "-" => a.wrapping_sub(b),
        "<<" => shift_left(a, b),
        ">>" => shift_right(a, b),
        "<" => i64::from(a < b),
        "<=" => i64::from(a <= b),
        ">" => i64::from(a > b),
        ">=" => i64::from(a >= b),
        "==" => i64::from(a == b),
        "!=" => i64::from(a != b),
        "&" => a & b,
        "^" => a ^ b,
        "|" => a | b,
        "&&" => i64::from(a != 0 && b != 0),
        "||" => i64::from(a != 0 || b != 0),
        _ => return Err(format!("unknown operator `{op}`")),
    })
}

fn shift_left(a: i64, b: i64) -> i64 {
    match u32::try_from(b) {
        Ok(n) if n < 64 => a.wrapping_shl(n),
        _ if b < 0 => shift_right(a, b.saturating_neg()),
        _ => 0,
    }
}

fn shift_right(a: i64, b: i64) -> i64 {
    match u32::try_from(b) {
        Ok(n) if n < 64 => a >> n,
        _ if b < 0 => shift_left(a, b.saturating_neg()),
        _ => {
            if a < 0 {
                -1
            } else {
                0
            }
        }
    }
}

/// Parses a C integer literal: decimal, `0x` hex, `0b` binary or octal,
/// with any `u`/`l` suffix ignored.
fn parse_int(s: &str) -> Result<i64, String> {
    let t = s.trim_end_matches(['u', 'U', 'l', 'L']);
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b, 2)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    let valid = !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix));
    let value = valid
        .then(|| u64::from_str_radix(digits, radix).ok())
        .flatten();
    value
        .map(|v| v as i64)
        .ok_or_else(|| format!("invalid integer `{s}`"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preprocess::lex::tokenize;

    fn ev(s: &str) -> Result<i64, String> {
        eval(&tokenize(s, 0, s.len()).0)
    }

    #[test]
    fn arithmetic_and_precedence() {
        assert_eq!(ev("1 + 2 * 3"), Ok(7));
        assert_eq!(ev("(1 + 2) * 3"), Ok(9));
        assert_eq!(ev("10 - 4 - 3"), Ok(3));
        assert_eq!(ev("-7 / 2"), Ok(-3));
        assert_eq!(ev("-7 % 3"), Ok(-1));
        assert_eq!(ev("1 << 4 | 1"), Ok(17));
        assert_eq!(ev("0x10 + 010 + 10 + 0b11 + 5UL"), Ok(16 + 8 + 10 + 3 + 5));
        assert_eq!(ev("~0"), Ok(-1));
        assert_eq!(ev("!0 + !5"), Ok(1));
        assert_eq!(
            ev("3 > 2 && 2 >= 2 && 1 < 2 && 1 <= 1 && 1 != 2 && 2 == 2"),
            Ok(1)
        );
        assert_eq!(ev("6 & 3 ^ 1"), Ok(6 & 3 ^ 1));
        assert_eq!(ev("0 || 0"), Ok(0));
        assert_eq!(ev("1 ? 2 : 3"), Ok(2));
        assert_eq!(ev("0 ? 2 : 0 ? 3 : 4"), Ok(4));
        assert_eq!(ev("UNKNOWN + 1"), Ok(1));
        assert_eq!(ev("-9223372036854775807 - 1 - 1"), Ok(i64::MAX));
        assert_eq!(ev("1 << 70"), Ok(0));
        assert_eq!(ev("-8 >> 1"), Ok(-4));
    }

    #[test]
    fn errors_are_reported_not_panics() {
        assert!(ev("1 / 0").is_err());
        assert!(ev("1 % 0").is_err());
        assert_eq!(ev("0 && 1 / 0"), Ok(0));
        assert_eq!(ev("1 || 1 / 0"), Ok(1));
        assert_eq!(ev("1 ? 1 : 1 / 0"), Ok(1));
        assert!(ev("(1").is_err());
        assert!(ev("1 +").is_err());
        assert!(ev("1 2").is_err());
        assert!(ev("08").is_err());
        assert!(ev("0x").is_err());
        assert!(ev("99999999999999999999999").is_err());
        assert!(ev("\"s\"").is_err());
        assert!(ev(&"(".repeat(10_000)).is_err());
        assert!(ev(&"-".repeat(10_000)).is_err());
        assert_eq!(ev("(-9223372036854775807 - 1) / -1"), Ok(i64::MIN));
    }
}
