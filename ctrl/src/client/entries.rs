//! Table entries by name ([`EntrySpec`]) and their P4Runtime form.
//!
//! An entry comes from the command line (`field=value` words), from an
//! entries file (STF `add` lines, parsed by `janus_stf` as `janus sim run
//! --entries` reads them) or from a tenant ([`super::tenant`]); it is
//! resolved against the server's P4Info into a `p4.v1.TableEntry`, and
//! entries read back are printed in the command-line form.
//!
//! Command-line match values by the field's match kind: exact `V`; lpm
//! `V/LEN` (plain `V`: the whole width); ternary `V&&&MASK` (plain `V`:
//! every bit); range `LO..HI` (plain `V`: `V..V`); optional `V`. A field
//! left out is a don't-care (P4Runtime's rule; exact fields cannot be
//! left out).

use super::InputError;
use super::schema::{self, Schema};
use super::values::{self as value, Style};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::proto::p4::v1::field_match::FieldMatchType;
use MatchType as M;
use cfg::match_field::MatchType;

/// A key value as written.
#[derive(Clone, Debug)]
pub enum KeyText {
    /// The command-line notation (module docs).
    Cli(String),
    /// An entries file's value: its mask or prefix come from the digits
    /// written, as in `janus sim`.
    Stf(janus_stf::KeyValue),
}

/// An action argument as written.
#[derive(Clone, Debug)]
pub enum ArgText {
    Cli(String),
    Stf(janus_stf::Number),
}

/// An action call by name.
#[derive(Clone, Debug)]
pub struct ActionSpec {
    pub name: String,
    pub args: Vec<(String, ArgText)>,
}

/// A table entry by name; `action` is `None` for a delete.
#[derive(Clone, Debug)]
pub struct EntrySpec {
    pub table: String,
    pub priority: Option<i32>,
    pub matches: Vec<(String, KeyText)>,
    pub action: Option<ActionSpec>,
}

impl EntrySpec {
    /// An entry built in code (tenants): names and command-line values.
    pub fn new(
        table: &str,
        matches: &[(&str, String)],
        action: &str,
        args: &[(&str, String)],
    ) -> Self {
        EntrySpec {
            table: table.to_string(),
            priority: None,
            matches: matches
                .iter()
                .map(|(f, v)| (f.to_string(), KeyText::Cli(v.clone())))
                .collect(),
            action: Some(ActionSpec {
                name: action.to_string(),
                args: args
                    .iter()
                    .map(|(n, v)| (n.to_string(), ArgText::Cli(v.clone())))
                    .collect(),
            }),
        }
    }

    /// From the command line: `field=value` words and `ACTION [param=value...]`.
    pub fn from_words(
        table: &str,
        priority: Option<i32>,
        matches: &[String],
        action: &[String],
    ) -> Result<EntrySpec, InputError> {
        let pair = |w: &String, what: &str| -> Result<(String, String), InputError> {
            w.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| InputError(format!("`{w}`: expected {what}=VALUE")))
        };
        let matches = matches
            .iter()
            .map(|w| pair(w, "FIELD").map(|(k, v)| (k, KeyText::Cli(v))))
            .collect::<Result<_, _>>()?;
        let action = match action.split_first() {
            None => None,
            Some((name, args)) => Some(ActionSpec {
                name: name.clone(),
                args: args
                    .iter()
                    .map(|w| pair(w, "PARAM").map(|(k, v)| (k, ArgText::Cli(v))))
                    .collect::<Result<_, _>>()?,
            }),
        };
        Ok(EntrySpec {
            table: table.to_string(),
            priority,
            matches,
            action,
        })
    }

    /// The `add` lines of an entries file (STF control-plane commands);
    /// any other command is an error. Every error is reported, one per
    /// line.
    pub fn from_entries_file(text: &str, path: &str) -> Result<Vec<EntrySpec>, InputError> {
        let mut specs = Vec::new();
        let mut errors = Vec::new();
        for item in EntriesFile::new(text.as_bytes(), path) {
            match item {
                Ok((_, spec)) => specs.push(spec),
                Err(e) => errors.push(e.0),
            }
        }
        if errors.is_empty() {
            Ok(specs)
        } else {
            Err(InputError(errors.join("\n")))
        }
    }

    /// The entry of an entries file's command at `line` of `path`.
    fn from_command(c: janus_stf::Command, line: usize, path: &str) -> Result<Self, InputError> {
        match c {
            janus_stf::Command::Add {
                table,
                priority,
                keys,
                action,
                ..
            } => Ok(EntrySpec {
                table,
                priority: match priority {
                    None => None,
                    Some(p) => Some(i32::try_from(p).map_err(|_| {
                        InputError(format!("{path}: line {line}: priority {p} is too large"))
                    })?),
                },
                matches: keys
                    .into_iter()
                    .map(|k| (k.field, KeyText::Stf(k.value)))
                    .collect(),
                action: Some(ActionSpec {
                    name: action.name,
                    args: action
                        .args
                        .into_iter()
                        .map(|a| (a.name, ArgText::Stf(a.value)))
                        .collect(),
                }),
            }),
            other => Err(InputError(format!(
                "{path}: line {line}: `{}` is not a table entry (only `add` lines are written \
                 over P4Runtime)",
                other.keyword()
            ))),
        }
    }

    /// A one-line description for error messages.
    pub fn label(&self) -> String {
        let keys: Vec<String> = self
            .matches
            .iter()
            .map(|(f, v)| match v {
                KeyText::Cli(t) => format!("{f}={t}"),
                KeyText::Stf(k) => format!("{f}:{}", k.number()),
            })
            .collect();
        format!("{} {}", self.table, keys.join(" "))
    }

    /// The P4Runtime entry.
    pub fn resolve(&self, schema: &Schema) -> Result<p4::TableEntry, InputError> {
        let table = schema.table(&self.table)?;
        let mut fields = Vec::new();
        for (name, text) in &self.matches {
            let f = schema.field(table, name)?;
            if fields.iter().any(|m: &p4::FieldMatch| m.field_id == f.id) {
                return Err(InputError(format!("match field `{}` given twice", f.name)));
            }
            let m = field_match(f, schema::match_type(f), text)
                .map_err(|e| InputError(format!("match field `{}`: {e}", f.name)))?;
            fields.push(p4::FieldMatch {
                field_id: f.id,
                field_match_type: Some(m),
            });
        }
        let needs_priority = table
            .match_fields
            .iter()
            .any(|f| matches!(schema::match_type(f), M::Ternary | M::Range | M::Optional));
        let table_name = schema::shown(table.preamble.as_ref());
        let priority = match (self.priority, needs_priority) {
            (Some(p), true) if p > 0 => p,
            (None | Some(_), true) => {
                return Err(InputError(format!(
                    "table `{table_name}` has ternary, range or optional fields: give a priority \
                     above 0 (--priority N; the larger wins)"
                )));
            }
            (Some(_), false) => {
                return Err(InputError(format!(
                    "table `{table_name}` takes no priority (it has only exact and lpm fields)"
                )));
            }
            (None, false) => 0,
        };
        let action = match &self.action {
            None => None,
            Some(a) => Some(resolve_action(schema, table, a)?),
        };
        fields.sort_by_key(|m| m.field_id);
        Ok(p4::TableEntry {
            table_id: schema::id_of(table.preamble.as_ref()),
            r#match: fields,
            action,
            priority,
            ..Default::default()
        })
    }
}

fn field_match(
    f: &cfg::MatchField,
    kind: MatchType,
    text: &KeyText,
) -> Result<FieldMatchType, String> {
    use crate::proto::p4::v1::field_match as fm;
    let w = schema::width(f.bitwidth);
    let fit = |bytes: Vec<u8>| -> Result<Vec<u8>, String> {
        value::fit(&bytes, w).ok_or_else(|| format!("the value is wider than {w} bits"))
    };
    let cli = match text {
        KeyText::Stf(k) => {
            let e = |e: janus_stf::ValueError| e.to_string();
            return Ok(match kind {
                M::Exact => FieldMatchType::Exact(fm::Exact {
                    value: fit(k.exact(w).map_err(e)?)?,
                }),
                M::Optional => FieldMatchType::Optional(fm::Optional {
                    value: fit(k.exact(w).map_err(e)?)?,
                }),
                M::Ternary => {
                    let t = k.ternary(w).map_err(e)?;
                    FieldMatchType::Ternary(fm::Ternary {
                        value: fit(t.value)?,
                        mask: fit(t.mask)?,
                    })
                }
                M::Lpm => {
                    let l = k.lpm(w).map_err(e)?;
                    FieldMatchType::Lpm(fm::Lpm {
                        value: fit(l.value)?,
                        prefix_len: l.prefix_len as i32,
                    })
                }
                M::Range | M::Unspecified => {
                    return Err("this match kind cannot be written in an entries file".into());
                }
            });
        }
        KeyText::Cli(t) => t.as_str(),
    };
    Ok(match kind {
        M::Exact => FieldMatchType::Exact(fm::Exact {
            value: value::parse(cli, w)?,
        }),
        M::Optional => FieldMatchType::Optional(fm::Optional {
            value: value::parse(cli, w)?,
        }),
        M::Lpm => {
            let (v, len) = match cli.split_once('/') {
                Some((v, len)) => (
                    v,
                    len.parse::<u32>()
                        .map_err(|_| format!("`{len}` is not a prefix length"))?,
                ),
                None => (cli, w),
            };
            FieldMatchType::Lpm(fm::Lpm {
                value: value::parse(v, w)?,
                prefix_len: len as i32,
            })
        }
        M::Ternary => {
            let (v, mask) = match cli.split_once("&&&") {
                Some((v, m)) => (value::parse(v, w)?, value::parse(m, w)?),
                None => (value::parse(cli, w)?, value::ones(w)),
            };
            FieldMatchType::Ternary(fm::Ternary { value: v, mask })
        }
        M::Range => {
            let (lo, hi) = cli.split_once("..").unwrap_or((cli, cli));
            FieldMatchType::Range(fm::Range {
                low: value::parse(lo, w)?,
                high: value::parse(hi, w)?,
            })
        }
        M::Unspecified => return Err("the P4Info gives this field no match kind".into()),
    })
}

pub fn resolve_action(
    schema: &Schema,
    table: &cfg::Table,
    a: &ActionSpec,
) -> Result<p4::TableAction, InputError> {
    let action = schema.table_action(table, &a.name)?;
    let name = schema::shown(action.preamble.as_ref());
    let mut params = Vec::new();
    for p in &action.params {
        let Some((_, text)) = a.args.iter().find(|(n, _)| *n == p.name) else {
            return Err(InputError(format!(
                "action `{name}` needs `{}=VALUE` ({} bits)",
                p.name, p.bitwidth
            )));
        };
        let w = schema::width(p.bitwidth);
        let v = match text {
            ArgText::Cli(t) => value::parse(t, w),
            ArgText::Stf(n) => n
                .to_be_bytes(w)
                .map(|b| value::canonical(&b))
                .map_err(|e| e.to_string()),
        }
        .map_err(|e| InputError(format!("parameter `{}` of `{name}`: {e}", p.name)))?;
        params.push(p4::action::Param {
            param_id: p.id,
            value: v,
        });
    }
    if let Some((extra, _)) = a
        .args
        .iter()
        .find(|(n, _)| !action.params.iter().any(|p| p.name == *n))
    {
        let known: Vec<&str> = action.params.iter().map(|p| p.name.as_str()).collect();
        return Err(InputError(format!(
            "action `{name}` has no parameter `{extra}` (it has: {})",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        )));
    }
    Ok(p4::TableAction {
        r#type: Some(p4::table_action::Type::Action(p4::Action {
            action_id: schema::id_of(action.preamble.as_ref()),
            params,
        })),
    })
}

/// An entry read from the server, in the command-line notation:
/// `[priority=N] field=value... -> action(param=value, ...)`.
pub fn render(schema: &Schema, e: &p4::TableEntry) -> String {
    let table = schema.table_by_id(e.table_id);
    let mut words = Vec::new();
    if e.priority != 0 {
        words.push(format!("priority={}", e.priority));
    }
    for m in &e.r#match {
        let f = table.and_then(|t| t.match_fields.iter().find(|f| f.id == m.field_id));
        let (name, style) = match f {
            Some(f) => (
                f.name.clone(),
                Style::of(&f.name, schema::width(f.bitwidth)),
            ),
            None => (format!("field#{}", m.field_id), Style::Number),
        };
        let v = |b: &[u8]| value::render(b, style);
        let text = match &m.field_match_type {
            Some(FieldMatchType::Exact(x)) => v(&x.value),
            Some(FieldMatchType::Optional(x)) => v(&x.value),
            Some(FieldMatchType::Lpm(x)) => format!("{}/{}", v(&x.value), x.prefix_len),
            Some(FieldMatchType::Ternary(x)) => format!("{}&&&{}", v(&x.value), v(&x.mask)),
            Some(FieldMatchType::Range(x)) => format!("{}..{}", v(&x.low), v(&x.high)),
            Some(FieldMatchType::Other(_)) | None => "?".to_string(),
        };
        words.push(format!("{name}={text}"));
    }
    let action = match e.action.as_ref().and_then(|a| a.r#type.as_ref()) {
        Some(p4::table_action::Type::Action(a)) => render_action(schema, a),
        Some(p4::table_action::Type::ActionProfileMemberId(m)) => format!("member {m}"),
        Some(p4::table_action::Type::ActionProfileGroupId(g)) => format!("group {g}"),
        _ => "(no action)".to_string(),
    };
    let mut line = if words.is_empty() {
        format!("(default) -> {action}")
    } else {
        format!("{} -> {action}", words.join(" "))
    };
    if e.is_const {
        line.push_str("  (const)");
    }
    line
}

/// `action(param=value, ...)`.
pub fn render_action(schema: &Schema, a: &p4::Action) -> String {
    let action = schema.action_by_id(a.action_id);
    let params: Vec<String> = a
        .params
        .iter()
        .map(|p| {
            let info = action.and_then(|x| x.params.iter().find(|q| q.id == p.param_id));
            match info {
                Some(q) => format!(
                    "{}={}",
                    q.name,
                    value::render(&p.value, Style::of(&q.name, schema::width(q.bitwidth)))
                ),
                None => format!(
                    "param#{}={}",
                    p.param_id,
                    value::render(&p.value, Style::Number)
                ),
            }
        })
        .collect();
    format!(
        "{}({})",
        action.map_or_else(
            || format!("action#{}", a.action_id),
            |x| { schema::shown(x.preamble.as_ref()).to_string() }
        ),
        params.join(", ")
    )
}

/// The entries of an entries file read a line at a time, each with its
/// line number, so that a file of any size is never held whole. A line
/// that does not parse, or is not an `add`, is an error naming the file
/// and line, and reading goes on after it.
pub struct EntriesFile<R> {
    commands: janus_stf::CommandReader<R>,
    path: String,
}

impl<R: std::io::BufRead> EntriesFile<R> {
    pub fn new(reader: R, path: &str) -> Self {
        EntriesFile {
            commands: janus_stf::CommandReader::new(reader),
            path: path.to_string(),
        }
    }
}

impl<R: std::io::BufRead> Iterator for EntriesFile<R> {
    type Item = Result<(usize, EntrySpec), InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        let path = &self.path;
        Some(match self.commands.next()? {
            Ok(c) => EntrySpec::from_command(c.item, c.line, path).map(|spec| (c.line, spec)),
            Err(janus_stf::entries::LoadError::Parse(errors)) => Err(InputError(
                errors
                    .iter()
                    .map(|e| format!("{path}: {e}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            )),
            Err(e) => Err(InputError(format!("{path}: {e}"))),
        })
    }
}
