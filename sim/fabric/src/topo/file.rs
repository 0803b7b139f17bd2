//! Topology files: JSON or TOML with the compact spec's keys, plus
//! optional failures.
//!
//! ```toml
//! kind = "leaf-spine"
//! leaves = 2
//! spines = 8
//! hosts-per-leaf = 8
//! [failures]
//! nodes = ["spine3"]
//! cables = [["leaf0", "spine1"]]
//! ```

use std::path::Path;

use serde_json::{Map, Value};

use super::{Failure, TopoError, Topology};
use crate::spec::Spec;

/// The syntax of a topology file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    Json,
    Toml,
}

impl Topology {
    /// Reads a topology file; the format follows the extension (`.json`,
    /// `.toml`).
    pub fn load(path: &Path) -> Result<Topology, TopoError> {
        let name = path.display().to_string();
        let format = match path.extension().and_then(|e| e.to_str()) {
            Some("json") => FileFormat::Json,
            Some("toml") => FileFormat::Toml,
            _ => {
                return Err(TopoError::File {
                    path: name,
                    message: "a topology file ends in .json or .toml".into(),
                });
            }
        };
        let text = std::fs::read_to_string(path).map_err(|source| TopoError::Io {
            path: name.clone(),
            source,
        })?;
        Topology::from_file_text(&text, format, &name)
    }

    /// `--topo`'s argument: a file if it ends in `.json` or `.toml`, else a
    /// compact spec.
    pub fn from_arg(arg: &str) -> Result<Topology, TopoError> {
        if arg.ends_with(".json") || arg.ends_with(".toml") {
            Topology::load(Path::new(arg))
        } else {
            Topology::parse(arg)
        }
    }

    /// Builds a topology from a file's text; `origin` names it in errors.
    pub fn from_file_text(
        text: &str,
        format: FileFormat,
        origin: &str,
    ) -> Result<Topology, TopoError> {
        let bad = |message: String| TopoError::File {
            path: origin.to_string(),
            message,
        };
        let root = match format {
            FileFormat::Json => {
                serde_json::from_str::<Value>(text).map_err(|e| bad(e.to_string()))?
            }
            FileFormat::Toml => toml_to_json(toml::Value::Table(
                text.parse::<toml::Table>()
                    .map_err(|e| bad(e.to_string()))?,
            )),
        };
        let Value::Object(mut fields) = root else {
            return Err(bad("expected an object (a table) of keys".into()));
        };
        let failures = fields.remove("failures");
        let kind = match fields.remove("kind") {
            Some(Value::String(k)) => k,
            _ => return Err(bad("missing \"kind\" (leaf-spine or clos3)".into())),
        };
        let mut params = Vec::new();
        for (key, value) in fields {
            let text = match value {
                Value::String(s) => s,
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                other => {
                    return Err(bad(format!(
                        "{kind}: {key} {other} is not a number, word or boolean"
                    )));
                }
            };
            params.push((key, text));
        }
        let mut topo = Topology::from_spec(&Spec { kind, params })?;
        if let Some(f) = failures {
            let list = topo.failures_from(f).map_err(|e| match e {
                TopoError::File { message, .. } => bad(message),
                other => other,
            })?;
            topo.set_live(&list, false)?;
        }
        Ok(topo)
    }

    /// `{ "nodes": [name, ...], "cables": [[name, name], ...] }`.
    fn failures_from(&self, value: Value) -> Result<Vec<Failure>, TopoError> {
        let shape_err = || {
            TopoError::File {
            path: String::new(),
            message: "failures: expected { nodes = [\"spine3\", ...], cables = [[\"leaf0\", \"spine1\"], ...] }".into(),
        }
        };
        let Value::Object(fields) = value else {
            return Err(shape_err());
        };
        let mut out = Vec::new();
        for (key, value) in fields {
            let Value::Array(items) = value else {
                return Err(shape_err());
            };
            for item in items {
                match (key.as_str(), item) {
                    ("nodes", Value::String(name)) => {
                        out.push(Failure::Node(self.node_by_name(&name)?));
                    }
                    ("cables", Value::Array(ends)) => match ends.as_slice() {
                        [Value::String(a), Value::String(b)] => {
                            let (a, b) = (self.node_by_name(a)?, self.node_by_name(b)?);
                            out.push(Failure::Cable(self.cable_between(a, b)?));
                        }
                        _ => return Err(shape_err()),
                    },
                    _ => return Err(shape_err()),
                }
            }
        }
        Ok(out)
    }
}

fn toml_to_json(v: toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => Value::from(f),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.into_iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => Value::Object(
            t.into_iter()
                .map(|(k, v)| (k, toml_to_json(v)))
                .collect::<Map<String, Value>>(),
        ),
    }
}
