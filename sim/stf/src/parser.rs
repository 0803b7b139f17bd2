//! The line-by-line parser.
//!
//! Every line holds at most one command. The first word (case-insensitive)
//! picks the command; `packet` and `expect` read the rest of the line as
//! raw data (hex digits, `*`, `$`), every other command is tokenized
//! ([`crate::lexer`]) and parsed by recursive descent. A line with an error
//! yields one error and no command; parsing goes on with the next line.

use crate::ast::*;
use crate::error::StfError;
use crate::lexer::{
    Diag, Snippet, Tok, Token, describe_char, diag, is_ident, is_space, snippet, tokenize,
};
use crate::number::{Number, Radix};
use crate::pattern::Pattern;
use std::fmt;

type PResult<T> = Result<T, Diag>;

/// All command keywords (lowercase), for messages and suggestions.
pub const KEYWORDS: &[&str] = &[
    "packet",
    "expect",
    "no_packet",
    "add",
    "setdefault",
    "remove",
    "check_counter",
    "wait",
    "mirroring_add",
    "mirroring_add_mc",
    "mirroring_delete",
    "mirroring_get",
    "mc_mgrp_create",
    "mc_node_create",
    "mc_node_update",
    "mc_node_associate",
    "counter_read",
    "counter_write",
    "register_read",
    "register_write",
    "register_reset",
    "meter_get_rates",
    "meter_set_rates",
    "meter_array_set_rates",
];

/// Parses a whole file, collecting every command and every error.
pub(crate) fn parse_text(text: &str) -> (Vec<Located<Command>>, Vec<StfError>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut commands = Vec::new();
    let mut errors = Vec::new();
    let mut chars = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = i + 1;
        match parse_raw_line(raw, &mut chars) {
            Ok(None) => {}
            Ok(Some((column, item))) => commands.push(Located { line, column, item }),
            Err(d) => errors.push(StfError {
                line,
                column: d.column,
                message: d.message,
            }),
        }
    }
    (commands, errors)
}

/// Parses one line of text (without its `\n`), with `chars` as scratch
/// space: `None` for a blank or comment line, else the keyword's column
/// and the command.
pub(crate) fn parse_raw_line(
    raw: &str,
    chars: &mut Vec<char>,
) -> PResult<Option<(usize, Command)>> {
    chars.clear();
    chars.extend(raw.chars());
    parse_line(chars)
}

/// Parses one line: `None` for a blank or comment line.
fn parse_line(chars: &[char]) -> PResult<Option<(usize, Command)>> {
    let start = skip_space(chars, 0);
    if start == chars.len() || chars[start] == '#' {
        return Ok(None);
    }
    let col = start + 1;
    let mut end = start;
    while end < chars.len()
        && (chars[end].is_ascii_alphanumeric() || chars[end] == '_' || chars[end] == '$')
    {
        end += 1;
    }
    let word: String = chars[start..end].iter().collect();
    if end == start || chars[start].is_ascii_digit() {
        let found = if end == start {
            describe_char(chars[start])
        } else {
            format!("`{}`", snippet(&word))
        };
        return Err(diag(
            col,
            format!("expected a command such as `packet`, `expect` or `add`, found {found}"),
        ));
    }
    let kw = word.to_ascii_lowercase();
    let cmd = match kw.as_str() {
        "packet" => parse_data_command(chars, end, "packet", false)?,
        "expect" => parse_data_command(chars, end, "expect", true)?,
        _ => {
            if !KEYWORDS.contains(&kw.as_str()) {
                return Err(diag(col, unknown_command(&word)));
            }
            let (toks, eol) = tokenize(chars, end)?;
            let mut p = LineParser { toks, pos: 0, eol };
            let cmd = p.command(&kw)?;
            if let Some(t) = p.peek() {
                return Err(diag(
                    t.col,
                    format!(
                        "unexpected {} after the end of the `{kw}` command",
                        t.tok.describe()
                    ),
                ));
            }
            cmd
        }
    };
    Ok(Some((col, cmd)))
}

fn skip_space(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() && is_space(chars[i]) {
        i += 1;
    }
    i
}

fn unknown_command(word: &str) -> String {
    let shown = snippet(word);
    let lower = word.to_ascii_lowercase();
    let hint = match lower.as_str() {
        "table_add" => Some(
            "; `table_add` is simple_switch_CLI syntax, STF writes `add <table> <field>:<value> <action>(<param>:<value>)`"
                .to_string(),
        ),
        "table_set_default" => Some("; STF writes `setdefault <table> <action>(<param>:<value>)`".to_string()),
        _ if lower.len() <= 40 => KEYWORDS
            .iter()
            .filter(|k| edit_distance(&lower, k) <= 2)
            .min_by_key(|k| edit_distance(&lower, k))
            .map(|k| format!(" (did you mean `{k}`?)")),
        _ => None,
    };
    format!("unknown command `{shown}`{}", hint.unwrap_or_default())
}

/// Levenshtein distance (short ASCII strings only).
fn edit_distance(a: &str, b: &str) -> usize {
    let a = a.as_bytes();
    let b = b.as_bytes();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

// ---------------------------------------------------------------------------
// packet / expect

/// Raw data of a `packet` or `expect` line.
pub(crate) struct Data {
    pub nibbles: Vec<Option<u8>>,
    pub exact: bool,
    /// Column of the first data character, if any.
    pub first_col: Option<usize>,
    /// Column just past the last data character.
    pub end_col: usize,
}

fn parse_data_command(
    chars: &[char],
    after_kw: usize,
    kw: &str,
    is_expect: bool,
) -> PResult<Command> {
    let i = skip_space(chars, after_kw);
    if i == after_kw && i < chars.len() && chars[i] != '#' {
        // No space after the keyword (word characters would have been part
        // of it): something like `packet*`.
        return Err(diag(
            i + 1,
            format!("expected a space and a port number after `{kw}`"),
        ));
    }
    if i >= chars.len() || chars[i] == '#' {
        return Err(diag(i + 1, format!("expected a port number after `{kw}`")));
    }
    if !chars[i].is_ascii_digit() {
        return Err(diag(
            i + 1,
            format!(
                "expected a decimal port number after `{kw}`, found {}",
                describe_char(chars[i])
            ),
        ));
    }
    // The port is the run of decimal digits (the reference lexer's DATA_DEC);
    // data may follow directly.
    let mut j = i;
    let mut port: Option<u32> = Some(0);
    while j < chars.len() && chars[j].is_ascii_digit() {
        let d = chars[j] as u32 - '0' as u32;
        port = port
            .and_then(|p| p.checked_mul(10))
            .and_then(|p| p.checked_add(d));
        j += 1;
    }
    let Some(port) = port else {
        let text: String = chars[i..j].iter().collect();
        return Err(diag(
            i + 1,
            format!("port number `{}` is too large", snippet(&text)),
        ));
    };
    if j < chars.len() && matches!(chars[j], 'x' | 'X') {
        return Err(diag(i + 1, "port numbers are decimal (no `0x`)"));
    }
    let data = scan_data(chars, j, kw, is_expect)?;
    if is_expect {
        let pattern = (!data.nibbles.is_empty() || data.exact).then_some(Pattern {
            nibbles: data.nibbles,
            exact_length: data.exact,
        });
        return Ok(Command::Expect { port, pattern });
    }
    let Some(first_col) = data.first_col else {
        return Err(diag(
            data.end_col,
            "`packet` needs data: the frame's bytes in hex after the port",
        ));
    };
    if data.nibbles.len() % 2 == 1 {
        return Err(diag(
            first_col,
            format!(
                "packet data has an odd number of hex digits ({}); every byte needs two",
                data.nibbles.len()
            ),
        ));
    }
    let bytes = data
        .nibbles
        .chunks(2)
        .map(|pair| (pair[0].unwrap_or(0) << 4) | pair[1].unwrap_or(0))
        .collect();
    Ok(Command::Packet { port, data: bytes })
}

/// Scans data (hex digits, and for `expect` also `*` and a final `$`) from
/// `chars[start..]` to the end of the line or a `#` comment.
pub(crate) fn scan_data(chars: &[char], start: usize, kw: &str, is_expect: bool) -> PResult<Data> {
    let mut nibbles = Vec::new();
    let mut exact = false;
    let mut first_col = None;
    let mut end_col = start + 1;
    let mut i = start;
    while i < chars.len() {
        let c = chars[i];
        if is_space(c) {
            i += 1;
            continue;
        }
        if c == '#' {
            // A comment: the reference driver rejects it here; we accept it
            // and never read it as data.
            break;
        }
        let col = i + 1;
        if exact {
            return Err(diag(
                col,
                format!(
                    "unexpected {} after `$`: the exact-length marker must end the data",
                    describe_char(c)
                ),
            ));
        }
        match c {
            _ if c.is_ascii_hexdigit() => nibbles.push(Some(c.to_digit(16).unwrap_or(0) as u8)),
            '*' if is_expect => nibbles.push(None),
            '$' if is_expect => exact = true,
            '*' => {
                return Err(diag(
                    col,
                    "`*` (any nibble) is only allowed in `expect` data, not in `packet` data",
                ));
            }
            '$' => {
                return Err(diag(
                    col,
                    "`$` (exact length) is only allowed in `expect` data, not in `packet` data",
                ));
            }
            'x' | 'X' if i > start && chars[i - 1] == '0' => {
                return Err(diag(
                    i,
                    format!("`{kw}` data is plain hex digits: drop the `0x` prefix"),
                ));
            }
            _ => {
                let allowed = if is_expect {
                    "hex digits, `*` or a final `$`"
                } else {
                    "hex digits"
                };
                return Err(diag(
                    col,
                    format!(
                        "invalid character {} in `{kw}` data: expected {allowed}",
                        describe_char(c)
                    ),
                ));
            }
        }
        first_col.get_or_insert(col);
        i += 1;
        end_col = i + 1;
    }
    Ok(Data {
        nibbles,
        exact,
        first_col,
        end_col,
    })
}

// ---------------------------------------------------------------------------
// Token-based commands

struct LineParser {
    toks: Vec<Token>,
    pos: usize,
    /// Column just past the last token (for "missing" errors).
    eol: usize,
}

impl LineParser {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    fn peek_tok(&self) -> Option<&Tok> {
        self.peek().map(|t| &t.tok)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Column of the next token, or the end of the line.
    fn col(&self) -> usize {
        self.peek().map_or(self.eol, |t| t.col)
    }

    /// The next token for messages: "`x`" or "the end of the line".
    fn found(&self) -> String {
        self.peek()
            .map_or_else(|| "the end of the line".to_string(), |t| t.tok.describe())
    }

    fn bump(&mut self) {
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
    }

    /// The text of the next token (a word or quoted name), moved out as
    /// the parser steps past it: no token is read again once passed.
    fn take_text(&mut self) -> String {
        let text = match self.toks.get_mut(self.pos).map(|t| &mut t.tok) {
            Some(Tok::Word(w) | Tok::Quoted(w)) => std::mem::take(w),
            _ => String::new(),
        };
        self.bump();
        text
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek_tok() == Some(tok) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// An error at the next token: "expected X, found Y".
    fn expected<T>(&self, what: fmt::Arguments<'_>) -> PResult<T> {
        Err(diag(
            self.col(),
            format!("expected {what}, found {}", self.found()),
        ))
    }

    fn expect(&mut self, tok: Tok, what: fmt::Arguments<'_>) -> PResult<()> {
        if self.eat(&tok) {
            Ok(())
        } else {
            self.expected(what)
        }
    }

    fn command(&mut self, kw: &str) -> PResult<Command> {
        Ok(match kw {
            "no_packet" => Command::NoPacket,
            "wait" => Command::Wait,
            "add" => self.add()?,
            "setdefault" => {
                let (table, _) =
                    self.qualified_name(format_args!("a table name after `setdefault`"))?;
                let (name, col) = self.qualified_name(format_args!(
                    "an action call `action(...)` after table `{table}`"
                ))?;
                let action = self.action_call(name, col)?;
                Command::SetDefault { table, action }
            }
            "remove" => match self.peek_tok() {
                Some(Tok::Word(w)) if w.eq_ignore_ascii_case("all") => {
                    self.bump();
                    Command::RemoveAll
                }
                _ => {
                    return self.expected(format_args!(
                        "`all` after `remove` (only `remove all` is supported)"
                    ));
                }
            },
            "check_counter" => self.check_counter()?,
            "mirroring_add" => {
                let session = self.u32_arg(format_args!("a clone session id"))?;
                let port = self.u32_arg(format_args!("an egress port"))?;
                Command::MirroringAdd { session, port }
            }
            "mirroring_add_mc" => {
                let session = self.u32_arg(format_args!("a clone session id"))?;
                let group = self.u32_arg(format_args!("a multicast group id"))?;
                Command::MirroringAddMc { session, group }
            }
            "mirroring_delete" => Command::MirroringDelete {
                session: self.u32_arg(format_args!("a clone session id"))?,
            },
            "mirroring_get" => Command::MirroringGet {
                session: self.u32_arg(format_args!("a clone session id"))?,
            },
            "mc_mgrp_create" => Command::McMgrpCreate {
                group: self.u32_arg(format_args!("a multicast group id"))?,
            },
            "mc_node_create" => {
                let rid = self.u32_arg(format_args!("a replication id (rid)"))?;
                let ports = self.port_list()?;
                Command::McNodeCreate { rid, ports }
            }
            "mc_node_update" => {
                let node = self.u32_arg(format_args!("a node handle"))?;
                let ports = self.port_list()?;
                Command::McNodeUpdate { node, ports }
            }
            "mc_node_associate" => {
                let group = self.u32_arg(format_args!("a multicast group id"))?;
                let node = self.u32_arg(format_args!("a node handle"))?;
                Command::McNodeAssociate { group, node }
            }
            "counter_read" => {
                let (name, _) = self.qualified_name(format_args!("a counter name"))?;
                let index = self.u64_arg(format_args!("a counter index"))?;
                Command::CounterRead { name, index }
            }
            "counter_write" => {
                let (name, _) = self.qualified_name(format_args!("a counter name"))?;
                let index = self.u64_arg(format_args!("a counter index"))?;
                let packets = self.u64_arg(format_args!("a packet count"))?;
                let bytes = self.u64_arg(format_args!("a byte count"))?;
                Command::CounterWrite {
                    name,
                    index,
                    packets,
                    bytes,
                }
            }
            "register_read" => {
                let (name, _) = self.qualified_name(format_args!("a register name"))?;
                let index = self.u64_arg(format_args!("a register index"))?;
                Command::RegisterRead { name, index }
            }
            "register_write" => {
                let (name, _) = self.qualified_name(format_args!("a register name"))?;
                let index = self.u64_arg(format_args!("a register index"))?;
                let (value, _) = self.plain_number(format_args!("a value to write"))?;
                Command::RegisterWrite { name, index, value }
            }
            "register_reset" => {
                let (name, _) = self.qualified_name(format_args!("a register name"))?;
                Command::RegisterReset { name }
            }
            "meter_get_rates" => {
                let (name, _) = self.qualified_name(format_args!("a meter name"))?;
                let index = self.u64_arg(format_args!("a meter index"))?;
                Command::MeterGetRates { name, index }
            }
            "meter_set_rates" => {
                let (name, _) = self.qualified_name(format_args!("a meter name"))?;
                let index = self.u64_arg(format_args!("a meter index"))?;
                let rates = self.meter_rates()?;
                Command::MeterSetRates { name, index, rates }
            }
            "meter_array_set_rates" => {
                let (name, _) = self.qualified_name(format_args!("a meter name"))?;
                let rates = self.meter_rates()?;
                Command::MeterArraySetRates { name, rates }
            }
            // `parse_line` only calls us with known keywords.
            other => return Err(diag(1, unknown_command(other))),
        })
    }

    // --- names ---

    /// `ID` or a quoted name.
    fn single_name(&mut self, what: fmt::Arguments<'_>) -> PResult<(String, usize)> {
        let col = self.col();
        match self.peek_tok() {
            Some(Tok::Word(w)) if is_ident(w) => Ok((self.take_text(), col)),
            Some(Tok::Quoted(_)) => Ok((self.take_text(), col)),
            Some(Tok::Word(w)) if w.starts_with(|c: char| c.is_ascii_digit()) => Err(diag(
                col,
                format!(
                    "expected {what}, found `{}` (names cannot start with a digit)",
                    snippet(w)
                ),
            )),
            _ => self.expected(what),
        }
    }

    /// `ID ('[' N ']')? ('.' ID ('[' N ']')?)*`, joined without spaces. The
    /// reference driver keeps key names verbatim, so `hdr.stk[1].f` is as
    /// good as `hdr.stk$1.f`.
    fn qualified_name(&mut self, what: fmt::Arguments<'_>) -> PResult<(String, usize)> {
        let (mut name, col) = self.single_name(what)?;
        self.stack_index(&mut name)?;
        while self.eat(&Tok::Dot) {
            let (part, _) = self.single_name(format_args!("a name after `{}.`", Snippet(&name)))?;
            name.push('.');
            name.push_str(&part);
            self.stack_index(&mut name)?;
        }
        Ok((name, col))
    }

    /// An optional `[N]` after a name component, appended to `name`.
    fn stack_index(&mut self, name: &mut String) -> PResult<()> {
        if !self.eat(&Tok::LBracket) {
            return Ok(());
        }
        match self.peek_tok() {
            Some(Tok::Word(w)) if w.bytes().all(|b| b.is_ascii_digit()) => {
                name.push('[');
                name.push_str(w);
                name.push(']');
                self.bump();
            }
            _ => {
                return self.expected(format_args!(
                    "a decimal index inside `[ ]` after `{}`",
                    Snippet(name)
                ));
            }
        }
        self.expect(
            Tok::RBracket,
            format_args!("`]` to close the index of `{}`", Snippet(name)),
        )
    }

    // --- numbers ---

    /// A number token (may have `*` digits).
    fn number(&mut self, what: fmt::Arguments<'_>) -> PResult<(Number, usize)> {
        let col = self.col();
        match self.peek_tok() {
            Some(Tok::Word(w)) if w.starts_with(|c: char| c.is_ascii_digit()) => {
                let n = Number::parse(w).map_err(|m| diag(col, m))?;
                self.bump();
                Ok((n, col))
            }
            _ => self.expected(what),
        }
    }

    /// A number without `*` digits.
    fn plain_number(&mut self, what: fmt::Arguments<'_>) -> PResult<(Number, usize)> {
        let (n, col) = self.number(what)?;
        if n.has_dont_care() {
            return Err(diag(
                col,
                format!(
                    "`{}`: don't-care digits `*` are allowed only in key values",
                    snippet(&n.to_string())
                ),
            ));
        }
        Ok((n, col))
    }

    fn u64_arg(&mut self, what: fmt::Arguments<'_>) -> PResult<u64> {
        let (n, col) = self.plain_number(what)?;
        n.to_u64().map_err(|e| diag(col, e.to_string()))
    }

    fn u32_arg(&mut self, what: fmt::Arguments<'_>) -> PResult<u32> {
        let (n, col) = self.plain_number(what)?;
        n.to_u32().map_err(|e| diag(col, e.to_string()))
    }

    fn port_list(&mut self) -> PResult<Vec<u32>> {
        let mut ports = vec![self.u32_arg(format_args!("at least one port"))?];
        while !self.at_end() {
            ports.push(self.u32_arg(format_args!("a port"))?);
        }
        Ok(ports)
    }

    // --- add ---

    fn add(&mut self) -> PResult<Command> {
        let (table, _) = self.qualified_name(format_args!("a table name after `add`"))?;
        let priority = match self.peek_tok() {
            Some(Tok::Word(w)) if w.starts_with(|c: char| c.is_ascii_digit()) => {
                let (n, col) = self.number(format_args!("a priority"))?;
                if n.radix() != Radix::Decimal {
                    return Err(diag(
                        col,
                        format!(
                            "a priority must be a decimal number, not `{}`",
                            snippet(&n.to_string())
                        ),
                    ));
                }
                Some(n.to_u64().map_err(|e| diag(col, e.to_string()))?)
            }
            _ => None,
        };
        let mut keys = Vec::new();
        let action = loop {
            if self.at_end() {
                return Err(diag(
                    self.eol,
                    if keys.is_empty() {
                        format!(
                            "expected a key `field:value` after table `{}`",
                            snippet(&table)
                        )
                    } else {
                        "expected another key `field:value` or the action call `action(...)`, found the end of the line"
                            .to_string()
                    },
                ));
            }
            let (name, col) = self.qualified_name(format_args!(
                "a key `field:value` or the action call `action(...)`"
            ))?;
            match self.peek_tok() {
                Some(Tok::Colon) => {
                    self.bump();
                    let value = self.key_value(&name)?;
                    keys.push(KeyMatch {
                        field: name,
                        value,
                        column: col,
                    });
                }
                // No keys at all: an entry of a table without keys.
                Some(Tok::LParen) => break self.action_call(name, col)?,
                _ => {
                    let hint = if self.at_end() {
                        format!(
                            " (or `(` if `{}` is the action: an action call needs parentheses, \
                             even without parameters)",
                            snippet(&name)
                        )
                    } else {
                        String::new()
                    };
                    return Err(diag(
                        self.col(),
                        format!(
                            "expected `:` after key field `{}`, found {}{hint}",
                            snippet(&name),
                            self.found()
                        ),
                    ));
                }
            }
        };
        let id = if self.eat(&Tok::Eq) {
            Some(self.single_name(format_args!("an entry name after `=`"))?.0)
        } else {
            None
        };
        Ok(Command::Add {
            table,
            priority,
            keys,
            action,
            id,
        })
    }

    fn key_value(&mut self, field: &str) -> PResult<KeyValue> {
        let (value, col) = self.number(format_args!("a value after `{}:`", Snippet(field)))?;
        if self.eat(&Tok::Arrow) {
            // `lo->hi`: a range key.
            let (hi, hi_col) = self.number(format_args!(
                "the last value of the range after `{}->`",
                Snippet(&value.to_string())
            ))?;
            for (n, c) in [(&value, col), (&hi, hi_col)] {
                if n.has_dont_care() {
                    return Err(diag(
                        c,
                        format!(
                            "`{}`: don't-care digits `*` cannot be used in a range",
                            snippet(&n.to_string())
                        ),
                    ));
                }
            }
            return Ok(KeyValue::Range { lo: value, hi });
        }
        if !self.eat(&Tok::Slash) {
            return Ok(KeyValue::Value(value));
        }
        let len_col = self.col();
        let len = match self.peek_tok() {
            Some(Tok::Word(w)) if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) => {
                let n = Number::parse(w).map_err(|m| diag(len_col, m))?;
                self.bump();
                n.to_u32().map_err(|e| diag(len_col, e.to_string()))?
            }
            _ => return self.expected(format_args!("a decimal prefix length after `/`")),
        };
        if value.has_dont_care() {
            return Err(diag(
                col,
                format!(
                    "`{}/{len}`: don't-care digits `*` cannot be combined with a `/len` prefix length",
                    snippet(&value.to_string())
                ),
            ));
        }
        Ok(KeyValue::Prefix { value, len })
    }

    /// `( [name:value (, name:value)*] )` after the action name.
    fn action_call(&mut self, name: String, column: usize) -> PResult<ActionCall> {
        self.expect(
            Tok::LParen,
            format_args!(
                "`(` after action `{}` (parentheses are required even without parameters)",
                Snippet(&name)
            ),
        )?;
        let mut args = Vec::new();
        if self.eat(&Tok::RParen) {
            return Ok(ActionCall { name, args, column });
        }
        loop {
            let (pname, pcol) =
                self.single_name(format_args!("an action parameter `name:value`"))?;
            self.expect(
                Tok::Colon,
                format_args!("`:` after action parameter `{}`", Snippet(&pname)),
            )?;
            let (value, _) = self.plain_number(format_args!(
                "a value for action parameter `{}`",
                Snippet(&pname)
            ))?;
            args.push(ActionArg {
                name: pname,
                value,
                column: pcol,
            });
            if self.eat(&Tok::RParen) {
                break;
            }
            let last = &args[args.len() - 1].name;
            self.expect(
                Tok::Comma,
                format_args!("`,` or `)` after the value of `{}`", Snippet(last)),
            )?;
        }
        Ok(ActionCall { name, args, column })
    }

    // --- check_counter ---

    fn check_counter(&mut self) -> PResult<Command> {
        let (name, _) =
            self.qualified_name(format_args!("a counter name after `check_counter`"))?;
        self.expect(
            Tok::LParen,
            format_args!(
                "`(` after counter `{}`: write `check_counter name(index)`",
                Snippet(&name)
            ),
        )?;
        let col = self.col();
        let index = match self.peek_tok() {
            Some(Tok::Word(w)) if w.starts_with(|c: char| c.is_ascii_digit()) => {
                CounterIndex::Index(self.u64_arg(format_args!("a counter index"))?)
            }
            Some(Tok::Word(_) | Tok::Quoted(_)) => CounterIndex::Name(
                self.single_name(format_args!("a counter index or `$id`"))?
                    .0,
            ),
            _ => {
                return Err(diag(
                    col,
                    format!("expected a counter index or `$id`, found {}", self.found()),
                ));
            }
        };
        self.expect(Tok::RParen, format_args!("`)` after the counter index"))?;
        if self.at_end() {
            return Ok(Command::CheckCounter {
                name,
                index,
                check: None,
            });
        }
        let kind = match self.peek_tok() {
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("packets") => CounterKind::Packets,
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("bytes") => CounterKind::Bytes,
            _ => return self.expected(format_args!("`packets` or `bytes`")),
        };
        self.bump();
        let op = match self.peek_tok() {
            Some(Tok::EqEq) => CmpOp::Eq,
            Some(Tok::Ne) => CmpOp::Ne,
            Some(Tok::Lt) => CmpOp::Lt,
            Some(Tok::Le) => CmpOp::Le,
            Some(Tok::Gt) => CmpOp::Gt,
            Some(Tok::Ge) => CmpOp::Ge,
            Some(Tok::Eq) => {
                return Err(diag(
                    self.col(),
                    "expected a comparison, found `=` (did you mean `==`?)",
                ));
            }
            _ => {
                return self.expected(format_args!(
                    "a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`)"
                ));
            }
        };
        self.bump();
        let value = self.u64_arg(format_args!("a number to compare the counter with"))?;
        Ok(Command::CheckCounter {
            name,
            index,
            check: Some(CounterCheck { kind, op, value }),
        })
    }

    // --- meters ---

    fn meter_rates(&mut self) -> PResult<Vec<MeterRate>> {
        let mut rates = vec![self.meter_rate(format_args!("a meter rate `rate:burst`"))?];
        while !self.at_end() {
            rates.push(self.meter_rate(format_args!("another `rate:burst` pair"))?);
        }
        Ok(rates)
    }

    /// `rate:burst` where rate is an integer or `digits.digits`.
    fn meter_rate(&mut self, what: fmt::Arguments<'_>) -> PResult<MeterRate> {
        let (int_part, col) = self.plain_number(what)?;
        let rate = if self.eat(&Tok::Dot) {
            let frac = match self.peek_tok() {
                Some(Tok::Word(w)) if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) => {
                    w.clone()
                }
                _ => {
                    return self
                        .expected(format_args!("decimal digits after `.` in the meter rate"));
                }
            };
            self.bump();
            if int_part.radix() != Radix::Decimal {
                return Err(diag(
                    col,
                    "a fractional meter rate must be written in decimal",
                ));
            }
            format!("{int_part}.{frac}")
                .parse::<f64>()
                .unwrap_or(f64::INFINITY)
        } else if int_part.radix() == Radix::Decimal {
            int_part.to_string().parse::<f64>().unwrap_or(f64::INFINITY)
        } else {
            int_part.to_u128().map_err(|e| diag(col, e.to_string()))? as f64
        };
        if !rate.is_finite() {
            return Err(diag(col, "meter rate is too large"));
        }
        self.expect(
            Tok::Colon,
            format_args!("`:` between the rate and the burst size (`rate:burst`)"),
        )?;
        let burst = self.u64_arg(format_args!("a burst size after `rate:`"))?;
        Ok(MeterRate { rate, burst })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance() {
        assert_eq!(edit_distance("expct", "expect"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("setdefualt", "setdefault"), 2);
    }

    #[test]
    fn suggestions() {
        assert!(unknown_command("expct").contains("did you mean `expect`"));
        assert!(unknown_command("table_add").contains("simple_switch_CLI"));
        assert!(!unknown_command("frobnicate").contains("did you mean"));
        assert!(!unknown_command(&"x".repeat(1000)).contains("did you mean"));
    }
}
