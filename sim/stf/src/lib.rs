//! Parser for STF ("simple test framework"), the packet-test format that
//! p4c's bmv2 test driver reads.
//!
//! An STF file is a list of commands, one per line: table writes (`add`,
//! `setdefault`), packets to inject (`packet`), packets expected out
//! (`expect`), and direct control-plane commands (multicast, mirroring,
//! counters, registers, meters). This crate reads the dialect the way p4c's
//! driver does (see `shared/reference/stf-and-v1model.md`):
//!
//! - keywords are case-insensitive; `#` starts a comment; blank lines are
//!   ignored; tokens may be spaced freely;
//! - `packet`/`expect` data is hex split into any number of tokens; in
//!   `expect`, `*` matches any nibble and a final `$` demands the exact
//!   length ([`Pattern`]);
//! - numbers are decimal, `0x` hex or `0b` binary, of any length; in key
//!   values hex and binary digits may be `*` ([`Number`], [`KeyValue`]);
//! - names are `[A-Za-z_$][A-Za-z0-9_$]*` paths joined by `.`, each
//!   component optionally followed by `[N]`, or a `"quoted name"`.
//!
//! Parsing is syntactic: names are kept as written and key values are
//! interpreted later, once the runner knows each key's match kind and
//! width. [`parse`] never panics and reports every bad line, each with its
//! line, column and a message.
//!
//! ```
//! use janus_stf::{Command, parse};
//!
//! let stf = parse(
//!     "# route 10.0.0.0/8 to port 2\n\
//!      add ipv4_lpm hdr.ipv4.dstAddr:0x0a****** set_port(port:2)\n\
//!      packet 0 0a000001 # the destination address\n\
//!      expect 2 0a00 **** $\n",
//! )
//! .unwrap();
//! assert_eq!(stf.commands.len(), 3);
//! let Command::Add { keys, action, .. } = &stf.commands[0].item else { panic!() };
//! let lpm = keys[0].value.lpm(32).unwrap();
//! assert_eq!((lpm.value, lpm.prefix_len), (vec![10, 0, 0, 0], 8));
//! assert_eq!(action.args[0].value.to_u64().unwrap(), 2);
//! let Command::Expect { pattern: Some(p), .. } = &stf.commands[2].item else { panic!() };
//! assert!(p.matches(&[0x0a, 0x00, 0x12, 0x34]));
//! assert!(!p.matches(&[0x0a, 0x00, 0x12, 0x34, 0x56])); // `$`: exact length
//!
//! let errors = parse("add t hdr.ipv4.dst 0x1 a()\n").unwrap_err();
//! assert_eq!(
//!     errors[0].to_string(),
//!     "line 1, column 20: expected `:` after key field `hdr.ipv4.dst`, found `0x1`"
//! );
//! ```

mod ast;
pub mod entries;
mod error;
mod lexer;
mod lines;
mod number;
mod parser;
mod pattern;
mod render;
pub mod runner;

pub use ast::{
    ActionArg, ActionCall, CmpOp, Command, CounterCheck, CounterIndex, CounterKind, KeyMatch,
    KeyValue, Located, Lpm, MeterRate, Stf, Ternary,
};
pub use error::{StfError, ValueError};
pub use lines::{CommandReader, LineReader};
pub use number::{MAX_DIGITS, Number, Radix};
pub use parser::KEYWORDS;
pub use pattern::{Mismatch, Pattern};

/// Parses an STF file. Returns every command in file order, or every
/// error (one per bad line) if there is any.
pub fn parse(text: &str) -> Result<Stf, Vec<StfError>> {
    let (stf, errors) = parse_partial(text);
    if errors.is_empty() {
        Ok(stf)
    } else {
        Err(errors)
    }
}

/// Parses an STF file as far as possible: the commands of every good line
/// and the errors of the others.
pub fn parse_partial(text: &str) -> (Stf, Vec<StfError>) {
    let (commands, errors) = parser::parse_text(text);
    (Stf { commands }, errors)
}

/// Entry point for fuzzing: decodes `bytes` lossily and parses them, then
/// checks the properties that must hold for any input. Panics only if one
/// of them fails, which is a bug:
/// - every error has a line and column inside the input;
/// - a parsed file, printed back, parses to the same commands;
/// - key and number conversions do not panic.
#[doc(hidden)]
pub fn fuzz(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let (stf, errors) = parse_partial(&text);
    let lines: Vec<&str> = text
        .strip_prefix('\u{feff}')
        .unwrap_or(&text)
        .split('\n')
        .collect();
    for e in &errors {
        assert!(
            e.line >= 1 && e.line <= lines.len(),
            "error line out of range: {e}"
        );
        let len = lines[e.line - 1].chars().count();
        assert!(
            e.column >= 1 && e.column <= len + 1,
            "error column out of range: {e}"
        );
        assert!(!e.message.is_empty());
    }
    let printed = stf.to_string();
    let reparsed =
        parse(&printed).unwrap_or_else(|e| panic!("printed STF does not parse: {e:?}\n{printed}"));
    let a: Vec<&Command> = stf.commands.iter().map(|c| &c.item).collect();
    let b: Vec<&Command> = reparsed.commands.iter().map(|c| &c.item).collect();
    assert_eq!(a, b, "printed STF parses differently:\n{printed}");
    for c in &stf.commands {
        if let Command::Add { keys, action, .. } = &c.item {
            for k in keys {
                for width in [1, 9, 32, 128] {
                    let _ = k.value.exact(width);
                    let _ = k.value.ternary(width);
                    let _ = k.value.lpm(width);
                }
            }
            for a in &action.args {
                let _ = a.value.to_be_bytes(48);
            }
        }
    }
}
