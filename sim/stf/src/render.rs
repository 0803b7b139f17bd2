//! Printing commands back as STF text. The output parses back to the same
//! commands (`parse(&cmd.to_string())` gives `cmd`), which the property
//! tests and the fuzz entry point check.

use crate::ast::*;
use crate::lexer::is_ident;
use std::fmt::{self, Display, Formatter, Write};

/// Whether `name` can be written without quotes as a qualified name:
/// `ID ('[' digits ']')? ('.' ID)*`.
fn is_plain_qualified(name: &str) -> bool {
    let mut parts = name.split('.');
    let Some(first) = parts.next() else {
        return false;
    };
    let first_ok = match first.find('[') {
        None => is_ident(first),
        Some(open) => {
            let (id, rest) = first.split_at(open);
            is_ident(id)
                && rest.len() > 2
                && rest.ends_with(']')
                && rest[1..rest.len() - 1].bytes().all(|b| b.is_ascii_digit())
        }
    };
    first_ok && parts.all(is_ident)
}

/// A qualified name, quoted if needed.
struct QName<'a>(&'a str);

impl Display for QName<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if is_plain_qualified(self.0) {
            f.write_str(self.0)
        } else {
            write!(f, "\"{}\"", self.0)
        }
    }
}

/// A single identifier, quoted if needed.
struct Ident<'a>(&'a str);

impl Display for Ident<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if is_ident(self.0) {
            f.write_str(self.0)
        } else {
            write!(f, "\"{}\"", self.0)
        }
    }
}

impl Display for KeyValue {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            KeyValue::Value(n) => write!(f, "{n}"),
            KeyValue::Prefix { value, len } => write!(f, "{value}/{len}"),
            KeyValue::Range { lo, hi } => write!(f, "{lo}->{hi}"),
        }
    }
}

impl Display for KeyMatch {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", QName(&self.field), self.value)
    }
}

impl Display for ActionCall {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", QName(&self.name))?;
        for (i, a) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}:{}", Ident(&a.name), a.value)?;
        }
        f.write_char(')')
    }
}

impl Display for MeterRate {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.rate, self.burst)
    }
}

impl Display for CounterKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CounterKind::Packets => "packets",
            CounterKind::Bytes => "bytes",
        })
    }
}

impl Display for CmpOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn join<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    for item in items {
        write!(f, " {item}")?;
    }
    Ok(())
}

impl Display for Command {
    /// One line of STF, without a line break.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let kw = self.keyword();
        match self {
            Command::Packet { port, data } => {
                write!(f, "{kw} {port} ")?;
                for b in data {
                    write!(f, "{b:02x}")?;
                }
                Ok(())
            }
            Command::Expect { port, pattern } => match pattern {
                None => write!(f, "{kw} {port}"),
                Some(p) => write!(f, "{kw} {port} {p}"),
            },
            Command::NoPacket | Command::Wait => f.write_str(kw),
            Command::RemoveAll => f.write_str("remove all"),
            Command::Add {
                table,
                priority,
                keys,
                action,
                id,
            } => {
                write!(f, "{kw} {}", QName(table))?;
                if let Some(p) = priority {
                    write!(f, " {p}")?;
                }
                join(f, keys)?;
                write!(f, " {action}")?;
                if let Some(id) = id {
                    write!(f, " = {}", Ident(id))?;
                }
                Ok(())
            }
            Command::SetDefault { table, action } => write!(f, "{kw} {} {action}", QName(table)),
            Command::CheckCounter { name, index, check } => {
                write!(f, "{kw} {}(", QName(name))?;
                match index {
                    CounterIndex::Index(i) => write!(f, "{i}")?,
                    CounterIndex::Name(n) => write!(f, "{}", Ident(n))?,
                }
                f.write_char(')')?;
                if let Some(c) = check {
                    write!(f, " {} {} {}", c.kind, c.op, c.value)?;
                }
                Ok(())
            }
            Command::MirroringAdd { session, port } => write!(f, "{kw} {session} {port}"),
            Command::MirroringAddMc { session, group } => write!(f, "{kw} {session} {group}"),
            Command::MirroringDelete { session } | Command::MirroringGet { session } => {
                write!(f, "{kw} {session}")
            }
            Command::McMgrpCreate { group } => write!(f, "{kw} {group}"),
            Command::McNodeCreate { rid: first, ports }
            | Command::McNodeUpdate { node: first, ports } => {
                write!(f, "{kw} {first}")?;
                join(f, ports)
            }
            Command::McNodeAssociate { group, node } => write!(f, "{kw} {group} {node}"),
            Command::CounterRead { name, index }
            | Command::RegisterRead { name, index }
            | Command::MeterGetRates { name, index } => write!(f, "{kw} {} {index}", QName(name)),
            Command::CounterWrite {
                name,
                index,
                packets,
                bytes,
            } => {
                write!(f, "{kw} {} {index} {packets} {bytes}", QName(name))
            }
            Command::RegisterWrite { name, index, value } => {
                write!(f, "{kw} {} {index} {value}", QName(name))
            }
            Command::RegisterReset { name } => write!(f, "{kw} {}", QName(name)),
            Command::MeterSetRates { name, index, rates } => {
                write!(f, "{kw} {} {index}", QName(name))?;
                join(f, rates)
            }
            Command::MeterArraySetRates { name, rates } => {
                write!(f, "{kw} {}", QName(name))?;
                join(f, rates)
            }
        }
    }
}

impl Display for Stf {
    /// The commands, one per line (comments and blank lines are not kept).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for c in &self.commands {
            writeln!(f, "{}", c.item)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names() {
        for ok in [
            "a",
            "hdr.ipv4.dst",
            "stk[0].f",
            "$valid$",
            "hdr.stk$1.f",
            "a[01]",
        ] {
            assert!(is_plain_qualified(ok), "{ok}");
        }
        for bad in [
            "", "a.", ".a", "a[]", "a[x]", "a.b[0]", "a b", "1a", "a[0]x", "a..b",
        ] {
            assert!(!is_plain_qualified(bad), "{bad}");
        }
    }
}
