//! The compact specs of `--topo` and `--traffic`: `kind:key=value,key=value`.
//!
//! A [`Spec`] is only split into its kind and its `key=value` pairs; the
//! meaning comes from the kind's key table ([`Key`]), one `const` per kind
//! next to the code that builds it, which lists every key with its default
//! and a one-line meaning. [`Spec::against`] checks the keys against such a
//! table and hands back [`Params`], whose typed getters parse a value (or
//! the documented default) and name the bad part when it does not parse.

use std::fmt;

/// Why a spec was refused. Every message starts with the spec's kind and
/// names the bad key or value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Nothing before the `:` (or an empty spec).
    #[error("empty spec: expected `kind:key=value,...`")]
    Empty,
    /// The kind is not one this option knows.
    #[error("unknown kind \"{kind}\" (known: {known})")]
    UnknownKind { kind: String, known: String },
    /// A part between commas is not `key=value`.
    #[error("{kind}: \"{part}\" is not key=value")]
    NotKeyValue { kind: String, part: String },
    /// A key the kind does not have.
    #[error("{kind}: unknown key \"{key}\" (known: {known})")]
    UnknownKey {
        kind: String,
        key: String,
        known: String,
    },
    /// The same key twice.
    #[error("{kind}: key \"{key}\" given twice")]
    Duplicate { kind: String, key: String },
    /// A required key is absent.
    #[error("{kind}: missing key \"{key}\"")]
    Missing { kind: String, key: String },
    /// A value that does not parse as what its key expects.
    #[error("{kind}: {key} \"{value}\" is not {expected}")]
    BadValue {
        kind: String,
        key: String,
        value: String,
        expected: String,
    },
    /// Values that parse but do not make sense together (or out of range).
    #[error("{kind}: {message}")]
    Invalid { kind: String, message: String },
}

/// Whether a key must be given, and its default otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// The key must be given.
    Required,
    /// Absent means this value (parsed like a given one).
    Default(&'static str),
    /// Absent means "not set"; read with the `opt_*` getters.
    Optional,
}

/// One key of a kind: the single place where its default and meaning are
/// written down (docs/fabric.md repeats these tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub name: &'static str,
    pub need: Need,
    pub meaning: &'static str,
}

/// A spec split into its kind and `key=value` pairs, in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub kind: String,
    pub params: Vec<(String, String)>,
}

impl Spec {
    /// Splits `kind:key=value,key=value` (or a bare `kind`). Spaces around
    /// parts are ignored.
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        let (kind, rest) = match text.split_once(':') {
            Some((kind, rest)) => (kind.trim(), Some(rest)),
            None => (text.trim(), None),
        };
        if kind.is_empty() {
            return Err(SpecError::Empty);
        }
        let mut params = Vec::new();
        for part in rest.into_iter().flat_map(|r| r.split(',')) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            match part.split_once('=') {
                Some((key, value)) if !key.trim().is_empty() => {
                    params.push((key.trim().to_string(), value.trim().to_string()));
                }
                _ => {
                    return Err(SpecError::NotKeyValue {
                        kind: kind.to_string(),
                        part: part.to_string(),
                    });
                }
            }
        }
        Ok(Spec {
            kind: kind.to_string(),
            params,
        })
    }

    /// Checks this spec's keys against a kind's table: no unknown keys, no
    /// key twice, every required key present.
    pub fn against(&self, keys: &'static [Key]) -> Result<Params<'_>, SpecError> {
        for (i, (key, _)) in self.params.iter().enumerate() {
            if !keys.iter().any(|k| k.name == key) {
                return Err(SpecError::UnknownKey {
                    kind: self.kind.clone(),
                    key: key.clone(),
                    known: keys.iter().map(|k| k.name).collect::<Vec<_>>().join(", "),
                });
            }
            if self.params[..i].iter().any(|(k, _)| k == key) {
                return Err(SpecError::Duplicate {
                    kind: self.kind.clone(),
                    key: key.clone(),
                });
            }
        }
        for key in keys {
            if key.need == Need::Required && !self.params.iter().any(|(k, _)| k == key.name) {
                return Err(SpecError::Missing {
                    kind: self.kind.clone(),
                    key: key.name.to_string(),
                });
            }
        }
        Ok(Params { spec: self, keys })
    }

    /// Refuses a kind that is not in `known` (for the error message).
    pub fn unknown_kind(&self, known: &[&str]) -> SpecError {
        SpecError::UnknownKind {
            kind: self.kind.clone(),
            known: known.join(", "),
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// A spec checked against its kind's key table: typed getters.
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    spec: &'a Spec,
    keys: &'static [Key],
}

impl<'a> Params<'a> {
    /// The kind, for messages.
    pub fn kind(&self) -> &str {
        &self.spec.kind
    }

    /// The given value, else the documented default, else `None`.
    /// Panics (a bug, not an input error) if `name` is not in the table.
    fn raw(&self, name: &str) -> Option<&'a str> {
        if let Some((_, v)) = self.spec.params.iter().find(|(k, _)| k == name) {
            return Some(v.as_str());
        }
        let key = self.keys.iter().find(|k| k.name == name);
        match key.map(|k| k.need) {
            Some(Need::Default(d)) => Some(d),
            Some(_) => None,
            None => unreachable!("key {name} is not in the {} table", self.spec.kind),
        }
    }

    fn bad(&self, key: &str, value: &str, expected: &str) -> SpecError {
        SpecError::BadValue {
            kind: self.spec.kind.clone(),
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        }
    }

    /// A semantic error about this spec.
    pub fn invalid(&self, message: impl Into<String>) -> SpecError {
        SpecError::Invalid {
            kind: self.spec.kind.clone(),
            message: message.into(),
        }
    }

    fn get<T>(
        &self,
        name: &str,
        expected: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Option<T>, SpecError> {
        match self.raw(name) {
            None => Ok(None),
            Some(v) => parse(v)
                .map(Some)
                .ok_or_else(|| self.bad(name, v, expected)),
        }
    }

    fn need<T>(&self, name: &str, value: Option<T>) -> T {
        // `against` checked required keys; others have defaults.
        value.unwrap_or_else(|| unreachable!("key {name} has neither value nor default"))
    }

    /// Whether the key was given (rather than defaulted).
    pub fn given(&self, name: &str) -> bool {
        self.spec.params.iter().any(|(k, _)| k == name)
    }

    /// An optional unsigned integer.
    pub fn opt_u32(&self, name: &str) -> Result<Option<u32>, SpecError> {
        self.get(name, "an unsigned integer", |v| v.parse().ok())
    }

    /// An unsigned integer (required or defaulted key).
    pub fn u32(&self, name: &str) -> Result<u32, SpecError> {
        Ok(self.need(name, self.opt_u32(name)?))
    }

    /// An unsigned integer of at least `min`.
    pub fn u32_min(&self, name: &str, min: u32) -> Result<u32, SpecError> {
        let v = self.u32(name)?;
        if v < min {
            return Err(self.invalid(format!("{name}={v} must be at least {min}")));
        }
        Ok(v)
    }

    /// An optional positive finite number.
    pub fn opt_f64(&self, name: &str) -> Result<Option<f64>, SpecError> {
        self.get(name, "a positive number", |v| {
            v.parse::<f64>().ok().filter(|x| x.is_finite() && *x > 0.0)
        })
    }

    /// A positive finite number (required or defaulted key).
    pub fn f64(&self, name: &str) -> Result<f64, SpecError> {
        Ok(self.need(name, self.opt_f64(name)?))
    }

    /// A byte size: `4096`, `64KB`, `512MiB`, `1.5GiB` (see [`parse_size`]).
    pub fn size(&self, name: &str) -> Result<u64, SpecError> {
        let v = self.get(name, "a size", parse_size)?;
        Ok(self.need(name, v))
    }

    /// A boolean: `true`/`false`, `yes`/`no`, `1`/`0`, `on`/`off`.
    pub fn bool(&self, name: &str) -> Result<bool, SpecError> {
        let v = self.get(name, "a boolean (true or false)", |v| {
            match v.to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => Some(true),
                "false" | "no" | "off" | "0" => Some(false),
                _ => None,
            }
        })?;
        Ok(self.need(name, v))
    }

    /// One of `words`; returns its index in `words`.
    pub fn word(&self, name: &str, words: &[&str]) -> Result<usize, SpecError> {
        let expected = format!("one of {}", words.join(", "));
        let v = self.get(name, &expected, |v| words.iter().position(|w| *w == v))?;
        Ok(self.need(name, v))
    }
}

/// Parses a byte size: a number (decimals allowed with a unit) followed by
/// an optional unit, `B`, decimal `KB MB GB TB` (powers of 1000) or binary
/// `KiB MiB GiB TiB` (powers of 1024); units are case-insensitive except
/// that the `i` marks binary. `None` for anything else, zero included.
pub fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let factor: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kb" | "k" => 1_000,
        "mb" | "m" => 1_000_000,
        "gb" | "g" => 1_000_000_000,
        "tb" | "t" => 1_000_000_000_000,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        "tib" => 1 << 40,
        _ => return None,
    };
    if number.is_empty() || number.starts_with('.') || number.ends_with('.') {
        return None;
    }
    let bytes = if let Ok(n) = number.parse::<u64>() {
        n.checked_mul(factor)?
    } else {
        let x = number.parse::<f64>().ok()? * factor as f64;
        if !x.is_finite() || x >= u64::MAX as f64 || x.fract() != 0.0 {
            return None;
        }
        x as u64
    };
    (bytes > 0).then_some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[Key] = &[
        Key {
            name: "leaves",
            need: Need::Required,
            meaning: "leaf switches",
        },
        Key {
            name: "spines",
            need: Need::Default("4"),
            meaning: "spine switches",
        },
        Key {
            name: "size",
            need: Need::Default("1GiB"),
            meaning: "bytes",
        },
        Key {
            name: "order",
            need: Need::Default("random"),
            meaning: "placement",
        },
        Key {
            name: "rails",
            need: Need::Default("false"),
            meaning: "rails",
        },
        Key {
            name: "ranks",
            need: Need::Optional,
            meaning: "ranks",
        },
    ];

    #[test]
    fn parses_kind_and_pairs_in_order() {
        let s = Spec::parse("leaf-spine:leaves=2, spines=8").unwrap();
        assert_eq!(s.kind, "leaf-spine");
        assert_eq!(
            s.params,
            vec![
                ("leaves".to_string(), "2".to_string()),
                ("spines".to_string(), "8".to_string())
            ]
        );
        assert_eq!(s.to_string(), "leaf-spine:leaves=2,spines=8");
        assert_eq!(Spec::parse("permutation").unwrap().params, vec![]);
    }

    #[test]
    fn typed_getters_and_defaults() {
        let s = Spec::parse("x:leaves=2,order=contiguous,rails=yes").unwrap();
        let p = s.against(KEYS).unwrap();
        assert_eq!(p.u32("leaves").unwrap(), 2);
        assert_eq!(p.u32("spines").unwrap(), 4);
        assert_eq!(p.size("size").unwrap(), 1 << 30);
        assert_eq!(p.word("order", &["random", "contiguous"]).unwrap(), 1);
        assert!(p.bool("rails").unwrap());
        assert_eq!(p.opt_u32("ranks").unwrap(), None);
        assert!(p.given("order") && !p.given("spines"));
    }

    #[test]
    fn unknown_key_is_named_with_the_known_ones() {
        let s = Spec::parse("leaf-spine:leaves=2,spins=8").unwrap();
        let e = s.against(KEYS).unwrap_err().to_string();
        assert_eq!(
            e,
            "leaf-spine: unknown key \"spins\" (known: leaves, spines, size, order, rails, ranks)"
        );
    }

    #[test]
    fn bad_values_are_named() {
        let s = Spec::parse("allreduce:leaves=2,size=1GB?,order=diagonal,spines=-1").unwrap();
        let p = s.against(KEYS).unwrap();
        assert_eq!(
            p.size("size").unwrap_err().to_string(),
            "allreduce: size \"1GB?\" is not a size"
        );
        assert_eq!(
            p.word("order", &["random", "contiguous"])
                .unwrap_err()
                .to_string(),
            "allreduce: order \"diagonal\" is not one of random, contiguous"
        );
        assert_eq!(
            p.u32("spines").unwrap_err().to_string(),
            "allreduce: spines \"-1\" is not an unsigned integer"
        );
    }

    #[test]
    fn structural_errors() {
        assert_eq!(Spec::parse(":a=1"), Err(SpecError::Empty));
        assert_eq!(
            Spec::parse("x:leaves").unwrap_err().to_string(),
            "x: \"leaves\" is not key=value"
        );
        let s = Spec::parse("x:leaves=1,leaves=2").unwrap();
        assert_eq!(
            s.against(KEYS).unwrap_err().to_string(),
            "x: key \"leaves\" given twice"
        );
        let s = Spec::parse("x:spines=1").unwrap();
        assert_eq!(
            s.against(KEYS).unwrap_err().to_string(),
            "x: missing key \"leaves\""
        );
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size("64KB"), Some(64_000));
        assert_eq!(parse_size("512MiB"), Some(512 << 20));
        assert_eq!(parse_size("1gib"), Some(1 << 30));
        assert_eq!(parse_size("1.5KiB"), Some(1536));
        for bad in ["", "GiB", "1GB?", "0", "1.", "-1", "1.3B", "99999999999TiB"] {
            assert_eq!(parse_size(bad), None, "{bad}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_parses_or_errs_without_panic(text in ".{0,40}") {
            if let Ok(s) = Spec::parse(&text) {
                let _ = s.against(KEYS).map(|p| p.size("size"));
            }
        }

        #[test]
        fn binary_sizes_round_trip(n in 1u64..1_000_000, unit in 0usize..4) {
            let (name, f) = [("B", 1u64), ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30)][unit];
            proptest::prop_assert_eq!(parse_size(&format!("{n}{name}")), Some(n * f));
        }
    }
}
