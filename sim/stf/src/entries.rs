//! Loading an entries file (`janus sim run --entries`): its control-plane
//! commands carried out line by line as they are read, so that the file is
//! never held whole, parsed or not, and `add` lines of the common shapes read by a
//! quick path that allocates nothing but the entry.
//!
//! The quick path ([`Quick`]) reads
//! `add TABLE [PRIORITY] FIELD:VALUE[/LEN] ... ACTION(PARAM:VALUE, ...)`
//! with names of `[A-Za-z0-9_.]`, decimal or `0x` hex values of at most
//! 128 bits, and exact, lpm (`VALUE/LEN`) and hex ternary keys. It resolves
//! names once per *shape* (the table, fields, action and parameters as
//! written) by the runner's own rules ([`crate::runner`]). Any other line,
//! and any line it would have to refuse, goes to the general parser and
//! runner, which report errors with their columns; for every line the two
//! paths add the same entry (checked by a property test,
//! `sim/v1model/tests/entries_quick_path.rs`).

use crate::error::StfError;
use crate::lexer::is_space;
use crate::lines::LineReader;
use crate::parser::parse_raw_line;
use crate::runner::{
    self, CommandError, add_entry, arg_source, extra_arg, find_action, find_table, key_kind,
    key_sources, unknown_key, unwritten,
};
use janus_engine::table::{Entry, FieldMatch, MatchKind};
use janus_engine::target::Target;
use janus_engine::value::Bits;
use std::collections::HashMap;
use std::ops::Range;
use thiserror::Error;

/// Why an entries file could not be loaded.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LoadError {
    /// Lines that do not parse, every one from the first on (nothing after
    /// the first is carried out).
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Parse(Vec<StfError>),
    /// A command the pipeline refused; the commands before it were carried
    /// out.
    #[error(transparent)]
    Command(#[from] CommandError),
    /// The file could not be read on, or a line is not UTF-8 text.
    #[error("line {line}: {message}")]
    Read { line: usize, message: String },
}

/// How the lines of an entries file were read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    /// Commands carried out.
    pub commands: usize,
    /// Of those, `add` lines the quick path read.
    pub quick: usize,
}

/// Carries out the control-plane commands of `text` (an STF file of
/// `add`, `setdefault`, multicast and register set-up lines; a test
/// command is an error) on `sw`, line by line, stopping at the first
/// command the pipeline refuses. After a line that does not parse, the
/// rest is only parsed, so that every such line is reported.
pub fn configure_text(sw: &mut dyn Target, text: &str) -> Result<Loaded, LoadError> {
    configure_reader(sw, text.as_bytes())
}

/// [`configure_text`] for text read as it is carried out: only one line
/// is held at a time.
pub fn configure_reader(
    sw: &mut dyn Target,
    reader: impl std::io::BufRead,
) -> Result<Loaded, LoadError> {
    let mut quick = Quick::default();
    let mut chars = Vec::new();
    let mut bad = Vec::new();
    let mut loaded = Loaded::default();
    let mut lines = LineReader::new(reader);
    while let Some((line, raw)) = lines.next_line()? {
        let fail = |message| CommandError { line, message };
        if bad.is_empty()
            && let Some(done) = quick.add(sw, raw)
        {
            done.map_err(fail)?;
            loaded.commands += 1;
            loaded.quick += 1;
            continue;
        }
        match parse_raw_line(raw, &mut chars) {
            Ok(None) => {}
            Ok(Some(_)) if !bad.is_empty() => {}
            Ok(Some((_, cmd))) => {
                runner::configure_command(sw, &cmd).map_err(fail)?;
                loaded.commands += 1;
            }
            Err(d) => bad.push(StfError {
                line,
                column: d.column,
                message: d.message,
            }),
        }
    }
    if bad.is_empty() {
        Ok(loaded)
    } else {
        Err(LoadError::Parse(bad))
    }
}

/// The quick path for `add` lines: the plans of the shapes met so far and
/// scratch space reused from line to line.
#[derive(Default)]
struct Quick {
    plans: Vec<Plan>,
    /// Shape -> index in `plans`.
    by_shape: HashMap<String, usize>,
    /// The shape of the line being read (its names, `\0`-separated).
    shape: String,
    /// The shape of the last line read and its plan: valid once
    /// `last_shape` is not empty (no shape is).
    last_shape: String,
    last: usize,
    keys: Vec<Written>,
    args: Vec<Written>,
}

/// A `name:value` of the line being read: byte ranges into the line.
#[derive(Clone, Debug)]
struct Written {
    name: Range<usize>,
    value: Value,
    /// The `/len` of an lpm key.
    len: Option<u32>,
}

/// A number as the quick path reads it.
#[derive(Clone, Copy, Debug)]
struct Value {
    v: u128,
    /// Hex digits written (leading zeros included); `None` for decimal.
    hex_digits: Option<u32>,
}

/// How the lines of one shape become an entry.
struct Plan {
    slot: usize,
    /// Per key of the table: its match kind, width and the written key
    /// (index into [`Quick::keys`]) that sets it.
    keys: Vec<(MatchKind, u32, Option<usize>)>,
    action: usize,
    /// Per action parameter: its width and the written argument that sets
    /// it.
    args: Vec<(u32, usize)>,
}

impl Quick {
    /// Reads and carries out `line` if it is an `add` the quick path
    /// takes: `None` leaves the line to the general path.
    fn add(&mut self, sw: &mut dyn Target, line: &str) -> Option<Result<(), String>> {
        let mut c = Cursor {
            b: line.as_bytes(),
            i: 0,
        };
        c.spaces();
        if !(c.b[c.i..].starts_with(b"add") && c.b.get(c.i + 3).is_some_and(|&b| is_space_byte(b)))
        {
            return None;
        }
        c.i += 3;
        c.spaces();
        let table = c.name(true)?;
        if !c.spaces() {
            return None;
        }
        let priority = match c.peek() {
            Some(b'0'..=b'9') => {
                let p = c.decimal()?;
                if !c.spaces() {
                    return None;
                }
                Some(i64::try_from(p).ok()?)
            }
            _ => None,
        };
        self.keys.clear();
        self.args.clear();
        let action = loop {
            let name = c.name(true)?;
            match c.peek()? {
                b':' => {
                    c.i += 1;
                    let value = c.number()?;
                    let len = if c.eat(b'/') {
                        Some(u32::try_from(c.decimal()?).ok()?)
                    } else {
                        None
                    };
                    self.keys.push(Written { name, value, len });
                    if !c.spaces() {
                        return None;
                    }
                }
                b'(' => break name,
                _ => return None,
            }
        };
        c.i += 1;
        c.spaces();
        if !c.eat(b')') {
            loop {
                let name = c.name(false)?;
                if !c.eat(b':') {
                    return None;
                }
                let value = c.number()?;
                self.args.push(Written {
                    name,
                    value,
                    len: None,
                });
                c.spaces();
                if c.eat(b')') {
                    break;
                }
                if !c.eat(b',') {
                    return None;
                }
                c.spaces();
            }
        }
        c.spaces();
        if c.peek().is_some_and(|b| b != b'#') {
            return None;
        }
        let text = |r: &Range<usize>| &line[r.clone()];
        self.shape.clear();
        self.shape.push_str(text(&table));
        for w in &self.keys {
            self.shape.push('\0');
            self.shape.push_str(text(&w.name));
        }
        self.shape.push_str("\0\0");
        self.shape.push_str(text(&action));
        for w in &self.args {
            self.shape.push('\0');
            self.shape.push_str(text(&w.name));
        }
        // Lines of one shape usually come together: the last one's plan
        // is checked first, without hashing.
        if self.shape != self.last_shape {
            self.last = match self.by_shape.get(self.shape.as_str()) {
                Some(&i) => i,
                None => {
                    let keys = self.keys.iter().map(|w| text(&w.name));
                    let args = self.args.iter().map(|w| text(&w.name));
                    let plan = Plan::resolve(sw, text(&table), keys, text(&action), args)?;
                    self.plans.push(plan);
                    self.by_shape
                        .insert(self.shape.clone(), self.plans.len() - 1);
                    self.plans.len() - 1
                }
            };
            self.last_shape.clone_from(&self.shape);
        }
        let plan = &self.plans[self.last];
        let entry = plan.entry(&self.keys, &self.args, priority.unwrap_or(0))?;
        Some(add_entry(sw, plan.slot, text(&table), entry))
    }
}

impl Plan {
    /// The plan for a shape, by the runner's rules; `None` where they find
    /// an error, which the general path then reports.
    fn resolve<'a>(
        sw: &dyn Target,
        table: &str,
        keys: impl Iterator<Item = &'a str> + Clone,
        action: &str,
        args: impl Iterator<Item = &'a str> + Clone,
    ) -> Option<Plan> {
        let slot = find_table(sw, table).ok()?;
        let info = &sw.tables()[slot];
        if unknown_key(info, keys.clone()).is_some() {
            return None;
        }
        let key_plans = info
            .keys
            .iter()
            .zip(key_sources(info, keys))
            .map(|(k, source)| Some((key_kind(k).ok()?, k.width, source)))
            .collect::<Option<Vec<_>>>()?;
        let index = find_action(info, action).ok()?;
        let a = &info.actions[index];
        let arg_plans = a
            .params
            .iter()
            .map(|(name, width)| Some((*width, arg_source(action, args.clone(), name).ok()?)))
            .collect::<Option<Vec<_>>>()?;
        extra_arg(action, a, args).ok()?;
        Some(Plan {
            slot,
            keys: key_plans,
            action: index,
            args: arg_plans,
        })
    }

    /// The entry of a line of this shape; `None` for a value the general
    /// path refuses or reads in a way the quick path does not.
    fn entry(&self, keys: &[Written], args: &[Written], priority: i64) -> Option<Entry> {
        let mut fields = Vec::with_capacity(self.keys.len());
        for &(kind, w, source) in &self.keys {
            let Some(k) = source.map(|i| &keys[i]) else {
                fields.push(unwritten(kind, w));
                continue;
            };
            fields.push(match (kind, k.len) {
                (MatchKind::Exact, None) => FieldMatch::Exact(bits(w, k.value.v)?),
                (MatchKind::Lpm, Some(len)) if len <= w => FieldMatch::Lpm {
                    value: bits(w, k.value.v)?,
                    len,
                },
                // The mask covers the digits written (see
                // `KeyValue::ternary`).
                (MatchKind::Ternary, None) => {
                    let digits = k.value.hex_digits?;
                    let ones = digits.saturating_mul(4).min(w);
                    FieldMatch::Ternary {
                        value: bits(w, k.value.v)?,
                        mask: Bits::ones(w, false).shr(u64::from(w - ones)),
                    }
                }
                _ => return None,
            });
        }
        let args = self
            .args
            .iter()
            .map(|&(w, i)| bits(w, args[i].value.v))
            .collect::<Option<Vec<_>>>()?;
        Some(Entry {
            key: fields,
            priority,
            action: self.action,
            args,
        })
    }
}

/// `v` as an unsigned `w`-bit value, if it fits.
fn bits(w: u32, v: u128) -> Option<Bits> {
    if w == 0 || (w < 128 && v >> w != 0) {
        return None;
    }
    Some(if w <= 64 {
        Bits::from_u64(w, false, v as u64)
    } else {
        Bits::from_words_le(w, false, &[v as u64, (v >> 64) as u64])
    })
}

fn hex_digit(b: u8) -> Option<u32> {
    match b {
        b'0'..=b'9' => Some(u32::from(b - b'0')),
        b'a'..=b'f' => Some(u32::from(b - b'a' + 10)),
        b'A'..=b'F' => Some(u32::from(b - b'A' + 10)),
        _ => None,
    }
}

fn is_space_byte(b: u8) -> bool {
    b.is_ascii() && is_space(b as char)
}

/// What may continue a word in the general lexer: a quick token must end
/// where the lexer's would.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'*')
}

/// A position in the bytes of a line.
struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        self.i += usize::from(hit);
        hit
    }

    /// Skips horizontal space; whether there was any.
    fn spaces(&mut self) -> bool {
        let start = self.i;
        while self.peek().is_some_and(is_space_byte) {
            self.i += 1;
        }
        self.i > start
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`, dot-separated when `dotted`.
    fn name(&mut self, dotted: bool) -> Option<Range<usize>> {
        let start = self.i;
        loop {
            if !self
                .peek()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            {
                return None;
            }
            while self
                .peek()
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            {
                self.i += 1;
            }
            if !(dotted && self.eat(b'.')) {
                break;
            }
        }
        self.ended().then_some(start..self.i)
    }

    /// Whether the token read ends here, as the lexer would end it.
    fn ended(&self) -> bool {
        !self.peek().is_some_and(|b| is_word_byte(b) || b == b'[')
    }

    /// Decimal digits.
    fn decimal(&mut self) -> Option<u128> {
        let start = self.i;
        let mut v: u128 = 0;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            v = v.checked_mul(10)?.checked_add(u128::from(d - b'0'))?;
            self.i += 1;
        }
        (self.i > start && self.ended()).then_some(v)
    }

    /// Decimal digits, or `0x` and hex digits.
    fn number(&mut self) -> Option<Value> {
        if self.b[self.i..].starts_with(b"0x") || self.b[self.i..].starts_with(b"0X") {
            self.i += 2;
            let start = self.i;
            let mut v: u128 = 0;
            while let Some(d) = self.peek().and_then(hex_digit) {
                if v >> 124 != 0 {
                    return None;
                }
                v = v << 4 | u128::from(d);
                self.i += 1;
            }
            let digits = u32::try_from(self.i - start).ok()?;
            return (digits > 0 && self.ended()).then_some(Value {
                v,
                hex_digits: Some(digits),
            });
        }
        Some(Value {
            v: self.decimal()?,
            hex_digits: None,
        })
    }
}
