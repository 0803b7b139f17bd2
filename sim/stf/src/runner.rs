//! Running STF packet tests (the dialect of p4c's bmv2 test driver) against
//! a loaded pipeline ([`Target`]), whatever its architecture.
//!
//! Pass or fail is decided as that driver decides it: only ports named in a
//! `packet` or `expect` line are observed; for each observed port the
//! number of packets out must equal the number of `expect` lines, and the
//! i-th packet must match the i-th pattern. Order across ports is free. A
//! port named by an `expect` without data is not checked at all.

use crate::{ActionCall, Command, KeyMatch, Pattern, Stf};
use janus_engine::meter::Rate;
use janus_engine::pipeline::{ActionInfo, KeyInfo, TableInfo};
use janus_engine::table::{Entry, FieldMatch, MatchKind};
use janus_engine::target::{MirrorTarget, Target};
use janus_engine::value::Bits;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use thiserror::Error;

/// A command the runner could not carry out: the test is malformed for
/// this program (a table or field that does not exist, a bad value).
#[derive(Debug, Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct CommandError {
    pub line: usize,
    pub message: String,
}

/// The outcome of a run.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Packets injected.
    pub packets: usize,
    /// Expectations checked.
    pub expects: usize,
    /// Everything that did not match, one line each.
    pub failures: Vec<String>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Runs an STF test. `Err` means the test could not be run (a command
/// names something the program does not have); a failing test is `Ok`
/// with failures in the report.
pub fn run(sw: &mut dyn Target, stf: &Stf) -> Result<Report, CommandError> {
    let observed: BTreeSet<u32> = stf.observed_ports();
    let mut expected: BTreeMap<u32, Vec<(usize, Option<Pattern>)>> = BTreeMap::new();
    let mut received: BTreeMap<u32, Vec<Vec<u8>>> = BTreeMap::new();
    let mut report = Report::default();
    for cmd in &stf.commands {
        let line = cmd.line;
        let fail = |message: String| CommandError { line, message };
        match &cmd.item {
            Command::Packet { port, data } => {
                report.packets += 1;
                for (p, bytes) in sw.process(*port, data) {
                    if observed.contains(&p) {
                        received.entry(p).or_default().push(bytes);
                    }
                }
            }
            Command::Expect { port, pattern } => {
                report.expects += 1;
                expected
                    .entry(*port)
                    .or_default()
                    .push((line, pattern.clone()));
            }
            Command::CheckCounter { name, index, check } => {
                // The reference driver ignores `check_counter`: a check Janus
                // cannot resolve (an entry name, a direct counter, a name
                // that finds no indexed counter) is accepted unchecked.
                let crate::CounterIndex::Index(i) = index else {
                    continue;
                };
                let Some((packets, bytes)) =
                    counter_name(sw, name).and_then(|full| sw.counter(full, *i as usize))
                else {
                    continue;
                };
                if let Some(c) = check {
                    let actual = match c.kind {
                        crate::CounterKind::Packets => packets,
                        crate::CounterKind::Bytes => bytes,
                    };
                    if !c.op.holds(actual, c.value) {
                        report.failures.push(format!(
                            "line {line}: counter {name}({i}) is {actual}, expected {} {}",
                            c.op.as_str(),
                            c.value
                        ));
                    }
                }
            }
            // Accepted and ignored, as the reference driver does.
            Command::Wait
            | Command::RemoveAll
            | Command::NoPacket
            | Command::CounterRead { .. }
            | Command::RegisterRead { .. } => {}
            other => configure_one(sw, other).map_err(fail)?,
        }
    }
    compare(&observed, &expected, &received, &mut report);
    Ok(report)
}

/// Applies the control-plane commands of an STF file (`add`, `setdefault`,
/// multicast and register set-up) and nothing else: the entries file of
/// `janus sim run`. Packet, expect and check lines are errors here.
pub fn configure(sw: &mut dyn Target, stf: &Stf) -> Result<(), CommandError> {
    for cmd in &stf.commands {
        configure_command(sw, &cmd.item).map_err(|message| CommandError {
            line: cmd.line,
            message,
        })?;
    }
    Ok(())
}

/// One command of an entries file: a control-plane command, carried out;
/// a test command (`packet`, `expect`, `check_counter`) is an error.
pub(crate) fn configure_command(sw: &mut dyn Target, cmd: &Command) -> Result<(), String> {
    match cmd {
        Command::Packet { .. } | Command::Expect { .. } | Command::CheckCounter { .. } => {
            Err(format!(
                "`{}` is a test command; an entries file holds control-plane commands only",
                cmd.keyword()
            ))
        }
        other => configure_one(sw, other),
    }
}

/// One control-plane command; anything else is reported as unsupported.
fn configure_one(sw: &mut dyn Target, cmd: &Command) -> Result<(), String> {
    match cmd {
        Command::Add {
            table,
            priority,
            keys,
            action,
            ..
        } => {
            let slot = find_table(sw, table)?;
            let entry = build_entry(sw, slot, priority.unwrap_or(0), keys, action)?;
            add_entry(sw, slot, table, entry)?;
        }
        Command::SetDefault { table, action } => {
            let slot = find_table(sw, table)?;
            let (index, args) = build_action(sw, slot, action)?;
            // A `const default_action` is a const default entry in bmv2
            // (DEFAULT_ENTRY_IS_CONST): the change is refused and the
            // reference driver goes on.
            if sw.tables()[slot].default_is_const {
                tracing::warn!(table = %table, "const default action: not changed");
                return Ok(());
            }
            if let Some(state) = sw.table_mut(slot) {
                state.default = Some((index, args));
            }
        }
        Command::McMgrpCreate { group } => sw.mc_group_create(*group as u16),
        Command::McNodeCreate { rid, ports } => {
            sw.mc_node_create(*rid as u16, ports.clone());
        }
        Command::McNodeAssociate { group, node } => {
            sw.mc_node_associate(*group as u16, *node)
                .map_err(|_| format!("no multicast group {group} or node {node}"))?;
        }
        Command::RegisterWrite { name, index, value } => {
            let v = value.to_u64().map_err(|e| e.to_string())?;
            sw.register_write(name, *index as usize, v)
                .map_err(|_| format!("no register cell `{name}`[{index}]"))?;
        }
        Command::MeterSetRates { name, index, rates } => {
            let (c, p) = two_rates(rates)?;
            sw.set_meter_rates(name, Some(*index as usize), c, p)
                .map_err(|_| format!("no meter cell `{name}`[{index}]"))?;
        }
        Command::MeterArraySetRates { name, rates } => {
            let (c, p) = two_rates(rates)?;
            sw.set_meter_rates(name, None, c, p)
                .map_err(|_| format!("no meter `{name}`"))?;
        }
        Command::MirroringAdd { session, port } => {
            sw.mirroring_add(*session, MirrorTarget::Port(*port));
        }
        Command::MirroringAddMc { session, group } => {
            let group = u16::try_from(*group)
                .map_err(|_| format!("multicast group {group} is too large"))?;
            sw.mirroring_add(*session, MirrorTarget::Group(group));
        }
        Command::MirroringDelete { session } => {
            sw.mirroring_delete(*session)
                .map_err(|_| format!("no clone session {session}"))?;
        }
        Command::McNodeUpdate { node, ports } => {
            sw.mc_node_update(*node, ports.clone())
                .map_err(|_| format!("no multicast node {node}"))?;
        }
        Command::CounterWrite {
            name,
            index,
            packets,
            bytes,
        } => {
            sw.counter_write(name, *index as usize, *packets, *bytes)
                .map_err(|_| format!("no counter cell `{name}`[{index}]"))?;
        }
        Command::RegisterReset { name } => {
            sw.register_reset(name)
                .map_err(|_| format!("no register `{name}`"))?;
        }
        Command::Wait | Command::MirroringGet { .. } => {}
        other => return Err(format!("`{}` is not supported yet", other.keyword())),
    }
    Ok(())
}

/// Committed and peak rate from an STF rate list (one rate: both).
/// Adds `entry` to the table in `slot` (`table` as written, for the log).
/// As with bmv2, a table the program gave entries is immutable
/// (IMMUTABLE_TABLE_ENTRIES), and a full table or a duplicate key refuses
/// the entry (TABLE_FULL, DUPLICATE_ENTRY): none of these is fatal to the
/// reference driver, which goes on.
pub(crate) fn add_entry(
    sw: &mut dyn Target,
    slot: usize,
    table: &str,
    entry: Entry,
) -> Result<(), String> {
    if sw.tables()[slot].entries_fixed {
        tracing::warn!(table = %table, "program entries: entry not added");
        return Ok(());
    }
    let state = sw
        .table_mut(slot)
        .ok_or_else(|| format!("no table `{table}`"))?;
    match state.insert(entry) {
        Err(janus_engine::table::TableError::Full(size)) => {
            tracing::warn!(table = %table, size, "table full: entry not added");
        }
        Err(janus_engine::table::TableError::Duplicate) => {
            tracing::warn!(table = %table, "duplicate key: entry not added");
        }
        other => other.map_err(|e| format!("cannot add to `{table}`: {e}"))?,
    }
    Ok(())
}

fn two_rates(rates: &[crate::MeterRate]) -> Result<(Rate, Rate), String> {
    let conv = |r: &crate::MeterRate| Rate {
        per_us: r.rate,
        burst: r.burst,
    };
    match rates {
        [one] => Ok((conv(one), conv(one))),
        [c, p] => Ok((conv(c), conv(p))),
        _ => Err(format!(
            "a v1model meter takes one or two rates, not {}",
            rates.len()
        )),
    }
}

/// Checks every observed port. A port named by an `expect` without data is
/// on the reference driver's "any number of packets" list: nothing sent
/// there is checked, zero frames included; beside an `expect` with data on
/// the same port, that driver fails the test.
fn compare(
    observed: &BTreeSet<u32>,
    expected: &BTreeMap<u32, Vec<(usize, Option<Pattern>)>>,
    received: &BTreeMap<u32, Vec<Vec<u8>>>,
    report: &mut Report,
) {
    for port in observed {
        let want = expected.get(port).map_or(&[][..], Vec::as_slice);
        let got = received.get(port).map_or(&[][..], Vec::as_slice);
        let any_count = want.iter().filter(|(_, p)| p.is_none()).count();
        if any_count == 0 {
            compare_port(*port, want, got, report);
        } else if any_count < want.len() {
            report.failures.push(format!(
                "port {port}: `expect {port}` without data beside expects with data \
                 (the reference driver fails such a test)"
            ));
        }
    }
}

/// One port's frames against its patterns, in order and in number.
fn compare_port(
    port: u32,
    want: &[(usize, Option<Pattern>)],
    got: &[Vec<u8>],
    report: &mut Report,
) {
    for (i, (line, pattern)) in want.iter().enumerate() {
        match (got.get(i), pattern) {
            (None, _) => report.failures.push(format!(
                "port {port}: expected packet {} (line {line}) was not sent",
                i + 1
            )),
            (Some(p), Some(pat)) if !pat.matches(p) => report.failures.push(format!(
                "port {port}: packet {} (line {line}) differs\n  expected {pat}\n  received {}",
                i + 1,
                hex(p)
            )),
            _ => {}
        }
    }
    for (i, p) in got.iter().enumerate().skip(want.len()) {
        report.failures.push(format!(
            "port {port}: unexpected packet {}: {}",
            i + 1,
            hex(p)
        ));
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// `name` equals `full`, or is a suffix of it on a `.` boundary.
fn suffix_of(name: &str, full: &str) -> bool {
    full == name
        || full
            .strip_suffix(name)
            .is_some_and(|rest| rest.ends_with('.'))
}

/// Exact control-plane name, else the unique suffix match on a `.`
/// boundary, else the unique plain string suffix (the reference driver
/// matches tables and actions with a bare `endswith`, so `class` finds
/// `Ingress.flow_class`).
fn find<'a>(
    names: impl Iterator<Item = (usize, &'a str)>,
    name: &str,
    what: &str,
) -> Result<usize, String> {
    let names: Vec<(usize, &str)> = names.collect();
    if let Some((i, _)) = names.iter().find(|(_, n)| *n == name) {
        return Ok(*i);
    }
    let on_boundary = unique_match(&names, name, what, suffix_of)?;
    match on_boundary {
        Some(i) => Ok(i),
        None => unique_match(&names, name, what, |name, full| full.ends_with(name))?
            .ok_or_else(|| format!("no {what} `{name}`")),
    }
}

/// The one name that `matches` accepts, `None` if none does, an error if
/// several do.
fn unique_match(
    names: &[(usize, &str)],
    name: &str,
    what: &str,
    matches: impl Fn(&str, &str) -> bool,
) -> Result<Option<usize>, String> {
    let found: Vec<&(usize, &str)> = names.iter().filter(|(_, n)| matches(name, n)).collect();
    match found.as_slice() {
        [] => Ok(None),
        [(i, _)] => Ok(Some(*i)),
        many => Err(format!(
            "{what} `{name}` is ambiguous: {}",
            many.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The full name of the extern instance `name` finds, resolved as table
/// names are; `None` when it finds none or several.
fn counter_name<'a>(sw: &'a dyn Target, name: &str) -> Option<&'a str> {
    let mut names = sw.extern_names();
    names.sort_unstable();
    let i = find(names.iter().copied().enumerate(), name, "counter").ok()?;
    Some(names[i])
}

pub(crate) fn find_table(sw: &dyn Target, name: &str) -> Result<usize, String> {
    find(
        sw.tables()
            .iter()
            .enumerate()
            .map(|(i, t)| (i, t.name.as_str())),
        name,
        "table",
    )
}

/// The index in the table's action list of the action `name` finds.
pub(crate) fn find_action(info: &TableInfo, name: &str) -> Result<usize, String> {
    find(
        info.actions
            .iter()
            .enumerate()
            .map(|(i, a)| (i, a.name.as_str())),
        name,
        "action",
    )
}

/// Which of the written arguments (`written`, in the order written) sets
/// the parameter `param` of `action`.
pub(crate) fn arg_source<'a>(
    action: &str,
    mut written: impl Iterator<Item = &'a str>,
    param: &str,
) -> Result<usize, String> {
    written
        .position(|a| a == param)
        .ok_or_else(|| format!("action `{action}` needs an argument `{param}`"))
}

/// The first written argument that names none of the action's parameters,
/// as an error.
pub(crate) fn extra_arg<'a>(
    action: &str,
    info: &ActionInfo,
    mut written: impl Iterator<Item = &'a str>,
) -> Result<(), String> {
    match written.find(|a| !info.params.iter().any(|(n, _)| n == a)) {
        Some(extra) => Err(format!("action `{action}` has no parameter `{extra}`")),
        None => Ok(()),
    }
}

fn build_action(
    sw: &dyn Target,
    slot: usize,
    call: &ActionCall,
) -> Result<(usize, Vec<Bits>), String> {
    let info = &sw.tables()[slot];
    let index = find_action(info, &call.name)?;
    let action = &info.actions[index];
    let names = || call.args.iter().map(|a| a.name.as_str());
    let mut args = Vec::with_capacity(action.params.len());
    for (name, width) in &action.params {
        let arg = &call.args[arg_source(&call.name, names(), name)?];
        let bytes = arg
            .value
            .to_be_bytes(*width)
            .map_err(|e| format!("argument `{name}`: {e}"))?;
        args.push(Bits::from_be_bytes(*width, false, &bytes));
    }
    extra_arg(&call.name, action, names())?;
    Ok((index, args))
}

/// For each of the table's keys, the written key that sets it (an index
/// into `written`, the fields as [`key_name`] spells them): the first that
/// names it exactly, else the first that names it by a suffix; `None`
/// leaves the key unwritten ([`unwritten`]).
pub(crate) fn key_sources<'a>(
    info: &TableInfo,
    written: impl Iterator<Item = &'a str> + Clone,
) -> impl Iterator<Item = Option<usize>> {
    info.keys.iter().map(move |k| {
        written
            .clone()
            .position(|w| names(key_is, w, k))
            .or_else(|| written.clone().position(|w| names(key_ends, w, k)))
    })
}

/// The first written key (as [`key_name`] spells it) that names none of
/// the table's keys: its index in `written`.
pub(crate) fn unknown_key<'a>(
    info: &TableInfo,
    mut written: impl Iterator<Item = &'a str>,
) -> Option<usize> {
    written.position(|w| {
        !info
            .keys
            .iter()
            .any(|k| names(key_is, w, k) || names(key_ends, w, k))
    })
}

/// What a key the entry does not write matches, as the reference driver
/// fills it in: an exact key 0; a ternary, lpm, optional or range key
/// anything.
pub(crate) fn unwritten(kind: MatchKind, w: u32) -> FieldMatch {
    match kind {
        MatchKind::Exact => FieldMatch::Exact(Bits::zero(w, false)),
        MatchKind::Ternary => FieldMatch::Ternary {
            value: Bits::zero(w, false),
            mask: Bits::zero(w, false),
        },
        MatchKind::Lpm => FieldMatch::Lpm {
            value: Bits::zero(w, false),
            len: 0,
        },
        MatchKind::Optional => FieldMatch::Optional(None),
        MatchKind::Range => FieldMatch::Range {
            lo: Bits::zero(w, false),
            hi: Bits::zero(w, false).not(),
        },
    }
}

/// The match kind of a key, if STF can write it.
pub(crate) fn key_kind(k: &KeyInfo) -> Result<MatchKind, String> {
    MatchKind::from_p4(&k.match_kind)
        .ok_or_else(|| format!("match kind `{}` cannot be written in STF", k.match_kind))
}

fn build_entry(
    sw: &dyn Target,
    slot: usize,
    priority: u64,
    keys: &[KeyMatch],
    action: &ActionCall,
) -> Result<Entry, String> {
    let info = &sw.tables()[slot];
    let written: Vec<String> = keys.iter().map(|m| key_name(&m.field)).collect();
    let names = || written.iter().map(String::as_str);
    let mut fields = Vec::with_capacity(info.keys.len());
    for (k, source) in info.keys.iter().zip(key_sources(info, names())) {
        let w = k.width;
        let kind = key_kind(k)?;
        let bits = |bytes: &[u8]| Bits::from_be_bytes(w, false, bytes);
        let Some(m) = source.map(|i| &keys[i]) else {
            fields.push(unwritten(kind, w));
            continue;
        };
        fields.push(match kind {
            MatchKind::Exact => FieldMatch::Exact(bits(
                &m.value
                    .exact(w)
                    .map_err(|e| format!("key `{}`: {e}", m.field))?,
            )),
            // An optional key is a value, or all `*` digits for "any".
            MatchKind::Optional => match m.value.exact(w) {
                Ok(v) => FieldMatch::Optional(Some(bits(&v))),
                Err(e) => match m.value.ternary(w) {
                    Ok(t) if bits(&t.mask).is_zero() => FieldMatch::Optional(None),
                    _ => return Err(format!("key `{}`: {e}", m.field)),
                },
            },
            MatchKind::Ternary => {
                let t = m
                    .value
                    .ternary(w)
                    .map_err(|e| format!("key `{}`: {e}", m.field))?;
                FieldMatch::Ternary {
                    value: bits(&t.value),
                    mask: bits(&t.mask),
                }
            }
            MatchKind::Lpm => {
                let l = m
                    .value
                    .lpm(w)
                    .map_err(|e| format!("key `{}`: {e}", m.field))?;
                FieldMatch::Lpm {
                    value: bits(&l.value),
                    len: l.prefix_len,
                }
            }
            // `f:lo->hi` (simple_switch_CLI's range), or one value `v`
            // for `v->v`.
            MatchKind::Range => {
                let (lo, hi) = m
                    .value
                    .range(w)
                    .map_err(|e| format!("key `{}`: {e}", m.field))?;
                FieldMatch::Range {
                    lo: bits(&lo),
                    hi: bits(&hi),
                }
            }
        });
    }
    if let Some(i) = unknown_key(info, names()) {
        return Err(format!(
            "table `{}` has no key `{}`",
            info.name, keys[i].field
        ));
    }
    let (index, args) = build_action(sw, slot, action)?;
    let priority = i64::try_from(priority).map_err(|_| "priority too large".to_string())?;
    Ok(Entry {
        key: fields,
        priority,
        action: index,
        args,
    })
}

/// Whether `rule` takes `written` for key `k`, by its name or by its
/// expression as written.
fn names(rule: fn(&str, &str) -> bool, written: &str, k: &KeyInfo) -> bool {
    rule(written, &k.name) || k.alias.as_deref().is_some_and(|a| rule(written, a))
}

/// `written` names the key `full` exactly, or in one of the reference
/// driver's spellings of the keys P4_14 programs get from p4c's translation:
/// `f` for `f$`, `h` or `h.valid` for the validity key `h.$valid$`; the
/// expression `h.isValid()` names it too.
fn key_is(written: &str, full: &str) -> bool {
    let validity = full.strip_suffix(".$valid$");
    full == written
        || full.strip_suffix('$') == Some(written)
        || validity == Some(written)
        || ["valid", "isValid()"].iter().any(|s| {
            written
                .strip_suffix(s)
                .and_then(|h| h.strip_suffix('.'))
                .is_some_and(|h| validity == Some(h))
        })
}

/// `written` is a suffix of the key `full` on a `.` boundary (also before
/// a trailing `$`); a bare `valid` names a validity key `h.$valid$`.
fn key_ends(written: &str, full: &str) -> bool {
    suffix_of(written, full)
        || full
            .strip_suffix('$')
            .is_some_and(|f| suffix_of(written, f))
        || (written == "valid" && (full == "$valid$" || full.ends_with(".$valid$")))
}

/// `hdr.stk$1.f` is written for `hdr.stk[1].f`.
fn key_name(field: &str) -> String {
    let mut out = String::with_capacity(field.len() + 2);
    let mut chars = field.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
            out.push('[');
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                out.push(*d);
                chars.next();
            }
            out.push(']');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_exactly_then_by_suffix() {
        assert!(suffix_of("ipv4_lpm", "MyIngress.ipv4_lpm"));
        assert!(!suffix_of("pv4_lpm", "MyIngress.ipv4_lpm"));
        let names = [(0, "I.a.t"), (1, "I.b.t"), (2, "E.u")];
        assert_eq!(find(names.iter().copied(), "u", "table"), Ok(2));
        assert_eq!(find(names.iter().copied(), "a.t", "table"), Ok(0));
        assert!(
            find(names.iter().copied(), "t", "table")
                .unwrap_err()
                .contains("ambiguous")
        );
        assert_eq!(key_name("hdr.stk$1.f"), "hdr.stk[1].f");
    }

    #[test]
    fn names_fall_back_to_a_plain_suffix_as_the_reference_driver() {
        let names = [
            (0, "I.flow_class"),
            (1, "I.class_stats"),
            (2, "I.acl"),
            (3, "I.port_acl"),
        ];
        assert_eq!(find(names.iter().copied(), "class", "table"), Ok(0));
        assert_eq!(find(names.iter().copied(), "acl", "table"), Ok(2));
        assert_eq!(find(names.iter().copied(), "_acl", "table"), Ok(3));
        assert!(
            find(names.iter().copied(), "s", "table")
                .unwrap_err()
                .contains("ambiguous")
        );
        assert!(
            find(names.iter().copied(), "x", "table")
                .unwrap_err()
                .contains("no table")
        );
    }

    #[test]
    fn translated_key_spellings_resolve_as_the_reference_driver() {
        assert!(key_is("tcp.$valid$", "tcp.$valid$"));
        assert!(key_is("hdr.tcp.isValid()", "hdr.tcp.$valid$"));
        assert!(!key_is("hdr.udp.isValid()", "hdr.tcp.$valid$"));
        assert!(key_is("tcp.valid", "tcp.$valid$"));
        assert!(key_is("tcp", "tcp.$valid$"));
        assert!(key_is("meta.f", "meta.f$"));
        assert!(!key_is("tcp.valid", "ipv4.$valid$"));
        assert!(!key_is("tcp", "tcp.dstPort"));
        assert!(key_ends("valid", "tcp.$valid$"));
        assert!(key_ends("valid", "$valid$"));
        assert!(key_ends("dstPort", "tcp.dstPort"));
        assert!(key_ends("f", "meta.f$"));
        assert!(!key_ends("valid", "tcp.novalid"));
        assert!(!key_ends("Port", "tcp.dstPort"));
    }
}
