//! The codes a program names with constants, read from its source: p4/sdn.p4's
//! drop reasons (`const bit<8> DROP_L2_MISS = 10; // L2 miss (...)`) and
//! janus_nic.p4's punt reasons (`NIC_PUNT_*`), so that the demos print
//! what the program says a code means instead of a list of their own.
//!
//! A code is a line `const bit<8> PREFIX_NAME = N;` (N decimal or `0x`
//! hex): its name is `NAME` in lower case with spaces (`l2 miss`), its
//! description the `//` comment on the line, else the name.

use std::collections::BTreeMap;

/// One code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    /// The constant's name after the prefix, lower case, spaces for `_`.
    pub name: String,
    /// The comment on the declaration's line, else the name.
    pub description: String,
}

/// The codes of one prefix, by value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Codes(BTreeMap<u8, Code>);

fn number(text: &str) -> Option<u8> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u8::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

impl Codes {
    /// The `const bit<8> PREFIX…` codes declared in `sources`.
    pub fn read<'a>(sources: impl IntoIterator<Item = &'a str>, prefix: &str) -> Codes {
        let head = format!("const bit<8> {prefix}");
        let mut codes = BTreeMap::new();
        for line in sources.into_iter().flat_map(str::lines) {
            let Some(rest) = line.trim().strip_prefix(&head) else {
                continue;
            };
            let (decl, comment) = match rest.split_once("//") {
                Some((d, c)) => (d, Some(c.trim())),
                None => (rest, None),
            };
            let Some((name, value)) = decl.split_once('=') else {
                continue;
            };
            let Some(value) = value.split(';').next().and_then(|v| number(v.trim())) else {
                continue;
            };
            let name = name.trim().to_lowercase().replace('_', " ");
            let description = comment
                .filter(|c| !c.is_empty())
                .map_or_else(|| name.clone(), str::to_string);
            codes.insert(value, Code { name, description });
        }
        Codes(codes)
    }

    /// The name of code `value`, `?` for one the program does not name.
    pub fn name(&self, value: u8) -> &str {
        self.0.get(&value).map_or("?", |c| c.name.as_str())
    }

    /// The description of code `value`, `unknown reason` for one the
    /// program does not name.
    pub fn description(&self, value: u8) -> &str {
        self.0
            .get(&value)
            .map_or("unknown reason", |c| c.description.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_come_from_the_programs_constants_and_comments() {
        let text = "const bit<8> DROP_L2_MISS         = 10;  // L2 miss (no MAC)\n\
                    const bit<32> DROP_REASON_COUNT = 32;\nconst bit<8> DROP_X = 0x1;\n\
                    const bit<8> OTHER_Y = 2; // not a drop\n  const bit<8> DROP_BAD = ;";
        let r = Codes::read([text], "DROP_");
        assert_eq!(
            (r.name(10), r.description(10)),
            ("l2 miss", "L2 miss (no MAC)")
        );
        assert_eq!((r.name(1), r.description(1)), ("x", "x"));
        assert_eq!((r.name(2), r.description(2)), ("?", "unknown reason"));
        assert_eq!(r.0.len(), 2);
    }
}
