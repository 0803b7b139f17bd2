//! A generic protobuf (proto3) message tree and three writers that match the
//! C++ protobuf library byte for byte, as p4c uses it:
//!
//! - [`Message::to_binary`]: `Message::SerializeToString` (p4c's binary
//!   `--p4runtime-files x.bin`, `SerializeToOstream`);
//! - [`Message::to_text`]: `google::protobuf::TextFormat::Printer` with its
//!   default options (p4c's `x.txt`);
//! - [`Message::to_json`]: `google::protobuf::util::MessageToJsonString` with
//!   `add_whitespace = true` and every other option at its default (p4c's
//!   `x.json`).
//!
//! The tree carries no descriptors: each [`Field`] names its number, its proto
//! (snake_case) name, whether it is repeated, and its [`Value`]. A field that is
//! in the tree is written; proto3's "skip the default value" rule for fields
//! without presence is applied when building, by the helper methods
//! ([`Message::string`], [`Message::u32`], ...), while [`Message::push`] always
//! adds the field (for `oneof` members and other fields with explicit
//! presence, and for message fields, which are present once set).
//!
//! All three writers emit fields in field-number order, as the C++ library does
//! (generated serializers, `Reflection::ListFields` and the JSON unparser all
//! sort by number); elements of a repeated field keep the order they were
//! pushed in.
//!
//! Format details, from the protobuf and abseil sources:
//!
//! - Binary: tag = `number << 3 | wire_type`; `int32`/`int64`/enum values are
//!   varints of the sign-extended 64-bit value (10 bytes when negative); `bool`
//!   is a one-byte varint; strings, bytes and messages are length-delimited;
//!   repeated scalars are packed (proto3's default) into one length-delimited
//!   run, omitted when empty.
//! - Text: `name: value\n` per field, `name {\n` ... `}\n` for messages, two
//!   spaces of indentation per level; strings and bytes are quoted and escaped
//!   with `absl::CEscape` (`\n \r \t \" \' \\`, every other byte below 0x20 or
//!   from 0x7f up as a three-digit octal escape, so UTF-8 text is octal too);
//!   enums print by name, bools as `true`/`false`, integers in decimal; packed
//!   fields print one `name: value` line per element.
//! - JSON: keys are the json names (`ToJsonName`: drop each `_`, upper-case the
//!   letter after it); objects and arrays open with `{`/`[`, each member goes on
//!   its own line indented by one space per level, `"key": value`, a `,` ends
//!   every member but the last; empty objects are `{}`; 64-bit integers are
//!   quoted strings, 32-bit ones bare numbers, enums their quoted names, bytes
//!   standard base64 with padding, repeated fields arrays; strings are escaped
//!   as `json_internal::JsonWriter::WriteEscapedUtf8` does (`\" \\ \b \f \n \r
//!   \t`, `\u00XX` lower-case hex for other control characters, DEL and
//!   U+0080..U+009F, for `<` and `>`, and for a few invisible code points;
//!   other non-ASCII text stays raw UTF-8; `'`, `&` and `/` stay as they are);
//!   the document ends with a newline.
//!
//! Maps with string keys and message values ([`Value::StringMap`]) are
//! written in key order: as entry messages (binary), as `name { key: ...
//! value { ... } }` blocks (text), as one object keyed by the entry keys
//! (JSON). Not covered: floating-point fields and `google.protobuf.Any`
//! expansion (p4c's text printer expands Any
//! payloads, the JSON printer writes `"@type"`).

use std::fmt::Write as _;

/// A protobuf message: its fields in the order they were added.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Message {
    fields: Vec<Field>,
}

/// One field occurrence: a singular field, one element of a repeated field,
/// or a whole packed repeated scalar field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field number.
    pub number: u32,
    /// The proto field name (snake_case); the JSON key is derived from it.
    pub name: &'static str,
    /// Whether this is one element of a repeated (non-packed) field. Packed
    /// values are repeated by nature and carry `false` here.
    pub repeated: bool,
    pub value: Value,
}

/// A field value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Message(Message),
    String(String),
    Bytes(Vec<u8>),
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    Bool(bool),
    /// An enum value: its number (binary) and its name (text, JSON).
    Enum {
        number: i32,
        name: &'static str,
    },
    /// A whole packed `repeated uint32` field.
    PackedU32(Vec<u32>),
    /// A whole packed `repeated int32` field.
    PackedI32(Vec<i32>),
    /// A whole packed `repeated uint64` field.
    PackedU64(Vec<u64>),
    /// A whole packed `repeated int64` field.
    PackedI64(Vec<i64>),
    /// A whole `map<string, Message>` field. Every writer puts the entries
    /// in key order: the text printer sorts them, the JSON printer and
    /// deterministic serialization do too (plain serialization follows the
    /// map's own order, which nothing can match).
    StringMap(Vec<(String, Message)>),
}

impl Value {
    fn is_empty_packed(&self) -> bool {
        match self {
            Value::PackedU32(v) => v.is_empty(),
            Value::PackedI32(v) => v.is_empty(),
            Value::PackedU64(v) => v.is_empty(),
            Value::PackedI64(v) => v.is_empty(),
            Value::StringMap(v) => v.is_empty(),
            _ => false,
        }
    }

    fn is_packed(&self) -> bool {
        matches!(
            self,
            Value::PackedU32(_) | Value::PackedI32(_) | Value::PackedU64(_) | Value::PackedI64(_)
        )
    }
}

impl Message {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The fields in the order they were added.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    fn add(&mut self, number: u32, name: &'static str, repeated: bool, value: Value) -> &mut Self {
        debug_assert!(
            number > 0 && number < (1 << 29),
            "bad field number {number}"
        );
        debug_assert!(
            !(repeated && value.is_packed()),
            "packed values are whole fields"
        );
        self.fields.push(Field {
            number,
            name,
            repeated,
            value,
        });
        self
    }

    /// Adds a singular field, whatever its value (explicit presence: `oneof`
    /// members, `optional` fields, messages).
    pub fn push(&mut self, number: u32, name: &'static str, value: Value) -> &mut Self {
        self.add(number, name, false, value)
    }

    /// Adds one element of a repeated (non-packed) field; the elements of one
    /// field keep the order of these calls.
    pub fn push_repeated(&mut self, number: u32, name: &'static str, value: Value) -> &mut Self {
        self.add(number, name, true, value)
    }

    /// A singular message field (always present once set, even when empty).
    pub fn message(&mut self, number: u32, name: &'static str, value: Message) -> &mut Self {
        self.push(number, name, Value::Message(value))
    }

    /// A proto3 `string` field; skipped when empty.
    pub fn string(
        &mut self,
        number: u32,
        name: &'static str,
        value: impl Into<String>,
    ) -> &mut Self {
        let value = value.into();
        if value.is_empty() {
            return self;
        }
        self.push(number, name, Value::String(value))
    }

    /// A proto3 `bytes` field; skipped when empty.
    pub fn bytes(
        &mut self,
        number: u32,
        name: &'static str,
        value: impl Into<Vec<u8>>,
    ) -> &mut Self {
        let value = value.into();
        if value.is_empty() {
            return self;
        }
        self.push(number, name, Value::Bytes(value))
    }

    /// A proto3 `uint32` field; skipped when 0.
    pub fn u32(&mut self, number: u32, name: &'static str, value: u32) -> &mut Self {
        if value == 0 {
            return self;
        }
        self.push(number, name, Value::U32(value))
    }

    /// A proto3 `int32` field; skipped when 0.
    pub fn i32(&mut self, number: u32, name: &'static str, value: i32) -> &mut Self {
        if value == 0 {
            return self;
        }
        self.push(number, name, Value::I32(value))
    }

    /// A proto3 `uint64` field; skipped when 0.
    pub fn u64(&mut self, number: u32, name: &'static str, value: u64) -> &mut Self {
        if value == 0 {
            return self;
        }
        self.push(number, name, Value::U64(value))
    }

    /// A proto3 `int64` field; skipped when 0.
    pub fn i64(&mut self, number: u32, name: &'static str, value: i64) -> &mut Self {
        if value == 0 {
            return self;
        }
        self.push(number, name, Value::I64(value))
    }

    /// A proto3 `bool` field; skipped when false.
    pub fn bool(&mut self, number: u32, name: &'static str, value: bool) -> &mut Self {
        if !value {
            return self;
        }
        self.push(number, name, Value::Bool(true))
    }

    /// A proto3 enum field; skipped when its number is 0.
    pub fn enumeration(
        &mut self,
        number: u32,
        name: &'static str,
        value: i32,
        value_name: &'static str,
    ) -> &mut Self {
        if value == 0 {
            return self;
        }
        self.push(
            number,
            name,
            Value::Enum {
                number: value,
                name: value_name,
            },
        )
    }

    /// One element of a `repeated string` field (an empty string is still an
    /// element, so it is kept).
    pub fn add_string(
        &mut self,
        number: u32,
        name: &'static str,
        value: impl Into<String>,
    ) -> &mut Self {
        self.push_repeated(number, name, Value::String(value.into()))
    }

    /// One element of a repeated message field.
    pub fn add_message(&mut self, number: u32, name: &'static str, value: Message) -> &mut Self {
        self.push_repeated(number, name, Value::Message(value))
    }

    /// Every element of a `repeated string` field, in order.
    pub fn strings<S: Into<String>>(
        &mut self,
        number: u32,
        name: &'static str,
        values: impl IntoIterator<Item = S>,
    ) -> &mut Self {
        for v in values {
            self.add_string(number, name, v);
        }
        self
    }

    /// A packed `repeated uint32` field; skipped when empty.
    /// A `map<string, Message>` field; left out when empty.
    pub fn string_map(
        &mut self,
        number: u32,
        name: &'static str,
        entries: Vec<(String, Message)>,
    ) -> &mut Self {
        if entries.is_empty() {
            return self;
        }
        self.push(number, name, Value::StringMap(entries))
    }

    pub fn packed_u32(&mut self, number: u32, name: &'static str, values: Vec<u32>) -> &mut Self {
        if values.is_empty() {
            return self;
        }
        self.push(number, name, Value::PackedU32(values))
    }

    /// The fields to write, sorted by number, repeated elements in push
    /// order. An empty packed field has no elements, so it is not written.
    fn sorted(&self) -> Vec<&Field> {
        let mut fields: Vec<&Field> = self
            .fields
            .iter()
            .filter(|f| !f.value.is_empty_packed())
            .collect();
        fields.sort_by_key(|f| f.number); // stable
        debug_assert!(
            fields.windows(2).all(|w| w[0].number != w[1].number
                || (w[0].repeated && w[1].repeated && w[0].name == w[1].name)),
            "a field added twice, or as both singular and repeated: {:?}",
            fields
                .windows(2)
                .find(|w| w[0].number == w[1].number && !(w[0].repeated && w[1].repeated))
                .map(|w| (w[0].number, w[0].name))
        );
        fields
    }

    /// The binary wire format (`SerializeToString`).
    #[must_use]
    pub fn to_binary(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_binary(&mut out);
        out
    }

    fn write_binary(&self, out: &mut Vec<u8>) {
        for f in self.sorted() {
            write_binary_field(f.number, &f.value, out);
        }
    }

    /// The text format (`TextFormat::Printer` defaults).
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write_text(0, &mut out);
        out
    }

    fn write_text(&self, indent: usize, out: &mut String) {
        for f in self.sorted() {
            match &f.value {
                Value::Message(m) => {
                    pad(out, indent * 2);
                    out.push_str(f.name);
                    out.push_str(" {\n");
                    m.write_text(indent + 1, out);
                    pad(out, indent * 2);
                    out.push_str("}\n");
                }
                Value::PackedU32(v) => text_lines(out, indent, f.name, v),
                Value::PackedI32(v) => text_lines(out, indent, f.name, v),
                Value::PackedU64(v) => text_lines(out, indent, f.name, v),
                Value::PackedI64(v) => text_lines(out, indent, f.name, v),
                Value::StringMap(entries) => {
                    for (key, value) in sorted_entries(entries) {
                        pad(out, indent * 2);
                        out.push_str(f.name);
                        out.push_str(" {\n");
                        pad(out, (indent + 1) * 2);
                        out.push_str("key: ");
                        c_escape_quoted(key.as_bytes(), out);
                        out.push('\n');
                        pad(out, (indent + 1) * 2);
                        out.push_str("value {\n");
                        value.write_text(indent + 2, out);
                        pad(out, (indent + 1) * 2);
                        out.push_str("}\n");
                        pad(out, indent * 2);
                        out.push_str("}\n");
                    }
                }
                scalar => {
                    pad(out, indent * 2);
                    out.push_str(f.name);
                    out.push_str(": ");
                    write_text_scalar(scalar, out);
                    out.push('\n');
                }
            }
        }
    }

    /// The JSON format (`MessageToJsonString`, `add_whitespace = true`).
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(0, &mut out);
        out.push('\n');
        out
    }

    fn write_json(&self, indent: usize, out: &mut String) {
        out.push('{');
        let fields = self.sorted();
        let mut first = true;
        let mut i = 0;
        while i < fields.len() {
            let f = fields[i];
            let mut end = i + 1;
            while end < fields.len() && fields[end].number == f.number {
                end += 1;
            }
            if !first {
                out.push(',');
            }
            first = false;
            json_newline(out, indent + 1);
            out.push('"');
            out.push_str(&json_name(f.name));
            out.push_str("\": ");
            if f.repeated {
                let values: Vec<&Value> = fields[i..end].iter().map(|f| &f.value).collect();
                json_array(out, indent + 1, &values, |v, ind, out| {
                    write_json_value(v, ind, out)
                });
            } else {
                debug_assert_eq!(end, i + 1, "singular field {} appears twice", f.number);
                write_json_value(&f.value, indent + 1, out);
            }
            i = end;
        }
        if !first {
            json_newline(out, indent);
        }
        out.push('}');
    }
}

// ---------------------------------------------------------------------------
// Binary

const WIRE_VARINT: u32 = 0;
const WIRE_LEN: u32 = 2;

fn write_varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn write_tag(number: u32, wire: u32, out: &mut Vec<u8>) {
    write_varint(u64::from(number << 3 | wire), out);
}

fn write_len_delimited(number: u32, bytes: &[u8], out: &mut Vec<u8>) {
    write_tag(number, WIRE_LEN, out);
    write_varint(bytes.len() as u64, out);
    out.extend_from_slice(bytes);
}

/// Varint payload of a numeric value; signed 32-bit values are sign-extended
/// to 64 bits, as protobuf does for `int32` and enums.
fn varint_of(value: &Value) -> Option<u64> {
    Some(match *value {
        Value::U32(v) => u64::from(v),
        Value::I32(v) => i64::from(v) as u64,
        Value::U64(v) => v,
        Value::I64(v) => v as u64,
        Value::Bool(v) => u64::from(v),
        Value::Enum { number, .. } => i64::from(number) as u64,
        _ => return None,
    })
}

fn write_packed(number: u32, values: impl Iterator<Item = u64>, out: &mut Vec<u8>) {
    let mut run = Vec::new();
    for v in values {
        write_varint(v, &mut run);
    }
    if !run.is_empty() {
        write_len_delimited(number, &run, out);
    }
}

fn write_binary_field(number: u32, value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Message(m) => write_len_delimited(number, &m.to_binary(), out),
        Value::String(s) => write_len_delimited(number, s.as_bytes(), out),
        Value::Bytes(b) => write_len_delimited(number, b, out),
        Value::PackedU32(v) => write_packed(number, v.iter().map(|&x| u64::from(x)), out),
        Value::PackedI32(v) => write_packed(number, v.iter().map(|&x| i64::from(x) as u64), out),
        Value::PackedU64(v) => write_packed(number, v.iter().copied(), out),
        Value::PackedI64(v) => write_packed(number, v.iter().map(|&x| x as u64), out),
        Value::StringMap(entries) => {
            for (key, value) in sorted_entries(entries) {
                let mut entry = Message::new();
                entry.string(1, "key", key.as_str());
                entry.message(2, "value", value.clone());
                write_len_delimited(number, &entry.to_binary(), out);
            }
        }
        scalar => {
            let v = varint_of(scalar).expect("numeric value");
            write_tag(number, WIRE_VARINT, out);
            write_varint(v, out);
        }
    }
}

// ---------------------------------------------------------------------------
// Text

fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

fn text_lines<T: std::fmt::Display>(out: &mut String, indent: usize, name: &str, values: &[T]) {
    for v in values {
        pad(out, indent * 2);
        let _ = writeln!(out, "{name}: {v}");
    }
}

fn write_text_scalar(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => c_escape_quoted(s.as_bytes(), out),
        Value::Bytes(b) => c_escape_quoted(b, out),
        Value::U32(v) => {
            let _ = write!(out, "{v}");
        }
        Value::I32(v) => {
            let _ = write!(out, "{v}");
        }
        Value::U64(v) => {
            let _ = write!(out, "{v}");
        }
        Value::I64(v) => {
            let _ = write!(out, "{v}");
        }
        Value::Bool(v) => out.push_str(if *v { "true" } else { "false" }),
        Value::Enum { name, .. } => out.push_str(name),
        Value::Message(_)
        | Value::StringMap(_)
        | Value::PackedU32(_)
        | Value::PackedI32(_)
        | Value::PackedU64(_)
        | Value::PackedI64(_) => unreachable!("not a scalar"),
    }
}

/// `"` + `absl::CEscape(bytes)` + `"`.
fn c_escape_quoted(bytes: &[u8], out: &mut String) {
    out.push('"');
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
}

// ---------------------------------------------------------------------------
// JSON

/// protoc's `ToJsonName`.
#[must_use]
pub fn json_name(proto_name: &str) -> String {
    let mut out = String::with_capacity(proto_name.len());
    let mut upper_next = false;
    for c in proto_name.chars() {
        if c == '_' {
            upper_next = true;
        } else if upper_next {
            out.push(c.to_ascii_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn json_newline(out: &mut String, indent: usize) {
    out.push('\n');
    pad(out, indent);
}

/// `[`, one element a line at `indent + 1`, `]` (`[]` when empty).
fn json_array<T>(
    out: &mut String,
    indent: usize,
    values: &[T],
    mut write: impl FnMut(&T, usize, &mut String),
) {
    out.push('[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_newline(out, indent + 1);
        write(v, indent + 1, out);
    }
    if !values.is_empty() {
        json_newline(out, indent);
    }
    out.push(']');
}

fn write_json_value(value: &Value, indent: usize, out: &mut String) {
    match value {
        Value::Message(m) => m.write_json(indent, out),
        Value::String(s) => json_string(s, out),
        Value::Bytes(b) => {
            out.push('"');
            base64(b, out);
            out.push('"');
        }
        Value::U32(v) => {
            let _ = write!(out, "{v}");
        }
        Value::I32(v) => {
            let _ = write!(out, "{v}");
        }
        Value::U64(v) => {
            let _ = write!(out, "\"{v}\"");
        }
        Value::I64(v) => {
            let _ = write!(out, "\"{v}\"");
        }
        Value::Bool(v) => out.push_str(if *v { "true" } else { "false" }),
        Value::Enum { name, .. } => json_string(name, out),
        Value::PackedU32(v) => json_array(out, indent, v, |x, _, out| {
            let _ = write!(out, "{x}");
        }),
        Value::PackedI32(v) => json_array(out, indent, v, |x, _, out| {
            let _ = write!(out, "{x}");
        }),
        Value::PackedU64(v) => json_array(out, indent, v, |x, _, out| {
            let _ = write!(out, "\"{x}\"");
        }),
        Value::PackedI64(v) => json_array(out, indent, v, |x, _, out| {
            let _ = write!(out, "\"{x}\"");
        }),
        Value::StringMap(entries) => {
            out.push('{');
            let sorted = sorted_entries(entries);
            for (k, (key, value)) in sorted.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                json_newline(out, indent + 1);
                json_string(key, out);
                out.push_str(": ");
                value.write_json(indent + 1, out);
            }
            if !sorted.is_empty() {
                json_newline(out, indent);
            }
            out.push('}');
        }
    }
}

/// A map's entries in key order (byte order of the keys).
fn sorted_entries(entries: &[(String, Message)]) -> Vec<&(String, Message)> {
    let mut sorted: Vec<&(String, Message)> = entries.iter().collect();
    sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    sorted
}

/// Whether the C++ JSON writer escapes this scalar (`MustEscape`, besides
/// the characters with short escapes).
fn json_must_u_escape(c: char) -> bool {
    matches!(
        c as u32,
        0x0000..=0x001f
            | 0x007f..=0x009f
            | 0x003c // <
            | 0x003e // >
            | 0x00ad
            | 0x0600..=0x0603
            | 0x06dd
            | 0x070f
            | 0x17b4
            | 0x17b5
            | 0x200b..=0x200f
            | 0x2028..=0x202e
            | 0x2060..=0x2064
            | 0x206a..=0x206f
            | 0xfeff
            | 0xfff9..=0xfffb
            | 0x1d173..=0x1d17a
            | 0xe0001
            | 0xe0020..=0xe007f
    )
}

/// A quoted JSON string, escaped as `JsonWriter::WriteEscapedUtf8`.
fn json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\u{0c}' => out.push_str("\\f"),
            '\u{08}' => out.push_str("\\b"),
            '\\' => out.push_str("\\\\"),
            c if json_must_u_escape(c) => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Standard base64 (`+/`) with `=` padding.
fn base64(bytes: &[u8], out: &mut String) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 0x3f) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    // ----- binary -----

    #[test]
    fn binary_varints() {
        let mut m = Message::new();
        m.u32(1, "a", 1).u32(2, "b", 300).u64(3, "c", u64::MAX);
        assert_eq!(
            hex(&m.to_binary()),
            "08 01 10 ac 02 18 ff ff ff ff ff ff ff ff ff 01"
        );
        let mut m = Message::new();
        m.u32(1, "a", 127).u32(2, "b", 128).u32(3, "c", 16384);
        assert_eq!(hex(&m.to_binary()), "08 7f 10 80 01 18 80 80 01");
    }

    #[test]
    fn binary_negative_ints_are_ten_bytes() {
        let mut m = Message::new();
        m.i32(1, "a", -1);
        assert_eq!(hex(&m.to_binary()), "08 ff ff ff ff ff ff ff ff ff 01");
        let mut m = Message::new();
        m.i64(2, "b", -2);
        assert_eq!(hex(&m.to_binary()), "10 fe ff ff ff ff ff ff ff ff 01");
        let mut m = Message::new();
        m.enumeration(3, "e", -1, "NEG");
        assert_eq!(hex(&m.to_binary()), "18 ff ff ff ff ff ff ff ff ff 01");
        let mut m = Message::new();
        m.i32(1, "a", i32::MIN);
        assert_eq!(hex(&m.to_binary()), "08 80 80 80 80 f8 ff ff ff ff 01");
    }

    #[test]
    fn binary_enum_bool_and_large_field_numbers() {
        let mut m = Message::new();
        m.enumeration(5, "match_type", 2, "EXACT")
            .bool(10, "is_const_table", true);
        m.u32(200, "big", 1);
        // 200 << 3 = 1600 = 0xc0 0x0c as a varint.
        assert_eq!(hex(&m.to_binary()), "28 02 50 01 c0 0c 01");
    }

    #[test]
    fn binary_length_delimited() {
        let mut inner = Message::new();
        inner.u32(1, "id", 150);
        let mut m = Message::new();
        m.string(2, "name", "testing")
            .bytes(3, "value", vec![0u8, 0xff])
            .message(4, "m", inner);
        m.message(5, "empty", Message::new());
        assert_eq!(
            hex(&m.to_binary()),
            "12 07 74 65 73 74 69 6e 67 1a 02 00 ff 22 03 08 96 01 2a 00"
        );
        // A length of 300 needs a two-byte varint.
        let mut m = Message::new();
        m.string(1, "s", "x".repeat(300));
        let b = m.to_binary();
        assert_eq!(hex(&b[..3]), "0a ac 02");
        assert_eq!(b.len(), 303);
    }

    #[test]
    fn binary_packed() {
        let mut m = Message::new();
        m.packed_u32(7, "direct_resource_ids", vec![3, 270, 86942]);
        assert_eq!(hex(&m.to_binary()), "3a 06 03 8e 02 9e a7 05");
        let mut m = Message::new();
        m.push(1, "x", Value::PackedI32(vec![-1, 1]));
        assert_eq!(
            hex(&m.to_binary()),
            "0a 0b ff ff ff ff ff ff ff ff ff 01 01"
        );
        // Empty packed fields are not written in any format.
        let mut m = Message::new();
        m.push(1, "x", Value::PackedU32(vec![]));
        assert!(m.to_binary().is_empty());
        assert_eq!(m.to_text(), "");
        assert_eq!(m.to_json(), "{}\n");
        let mut m = Message::new();
        m.packed_u32(1, "x", vec![]);
        assert!(m.is_empty());
    }

    #[test]
    fn binary_sorts_by_field_number_stably() {
        let mut m = Message::new();
        m.add_string(4, "annotations", "b");
        m.u32(1, "id", 1);
        m.add_string(4, "annotations", "a");
        m.string(2, "name", "n");
        assert_eq!(hex(&m.to_binary()), "08 01 12 01 6e 22 01 62 22 01 61");
    }

    #[test]
    fn helpers_skip_proto3_defaults() {
        let mut m = Message::new();
        m.string(1, "a", "")
            .bytes(2, "b", Vec::new())
            .u32(3, "c", 0)
            .i32(4, "d", 0)
            .u64(5, "e", 0)
            .i64(6, "f", 0)
            .bool(7, "g", false)
            .enumeration(8, "h", 0, "UNSPECIFIED");
        assert!(m.is_empty());
        // Messages are present once set; push keeps default values (oneof).
        m.message(9, "i", Message::new());
        m.push(
            10,
            "match_type",
            Value::Enum {
                number: 0,
                name: "UNSPECIFIED",
            },
        );
        m.add_string(11, "annotations", "");
        assert_eq!(hex(&m.to_binary()), "4a 00 50 00 5a 00");
        assert_eq!(
            m.to_text(),
            "i {\n}\nmatch_type: UNSPECIFIED\nannotations: \"\"\n"
        );
    }

    // ----- text -----

    #[test]
    fn text_scalars_and_nesting() {
        let mut inner2 = Message::new();
        inner2.string(1, "arch", "v1model");
        let mut inner = Message::new();
        inner.u32(1, "id", 7).message(2, "deeper", inner2);
        let mut m = Message::new();
        m.message(3, "sub", inner)
            .i32(1, "neg", -5)
            .i64(2, "size", 1024)
            .bool(4, "flag", true)
            .enumeration(5, "match_type", 3, "LPM")
            .u64(6, "big", u64::MAX)
            .message(7, "empty", Message::new());
        assert_eq!(
            m.to_text(),
            "neg: -5\n\
             size: 1024\n\
             sub {\n\
             \x20 id: 7\n\
             \x20 deeper {\n\
             \x20   arch: \"v1model\"\n\
             \x20 }\n\
             }\n\
             flag: true\n\
             match_type: LPM\n\
             big: 18446744073709551615\n\
             empty {\n\
             }\n"
        );
    }

    #[test]
    fn text_c_escape() {
        let mut m = Message::new();
        m.string(1, "s", "a\"b'c\\d\ne\rf\tg\u{1}h\u{7f}i");
        assert_eq!(
            m.to_text(),
            "s: \"a\\\"b\\'c\\\\d\\ne\\rf\\tg\\001h\\177i\"\n"
        );
        // Every byte from 0x80 up is octal, so UTF-8 text is escaped per byte.
        let mut m = Message::new();
        m.string(1, "s", "é€");
        assert_eq!(m.to_text(), "s: \"\\303\\251\\342\\202\\254\"\n");
        let mut m = Message::new();
        m.bytes(1, "b", vec![0u8, 0x0b, 0x1f, b' ', b'~', 0x80, 0xff, b'?']);
        assert_eq!(m.to_text(), "b: \"\\000\\013\\037 ~\\200\\377?\"\n");
    }

    #[test]
    fn text_packed_prints_repeated_lines() {
        let mut m = Message::new();
        m.packed_u32(2, "table_ids", vec![1, 2]);
        m.push(3, "i64s", Value::PackedI64(vec![-1]));
        assert_eq!(m.to_text(), "table_ids: 1\ntable_ids: 2\ni64s: -1\n");
    }

    #[test]
    fn text_empty_message() {
        assert_eq!(Message::new().to_text(), "");
    }

    // ----- JSON -----

    #[test]
    fn json_names() {
        assert_eq!(json_name("pkg_info"), "pkgInfo");
        assert_eq!(json_name("const_default_action_id"), "constDefaultActionId");
        assert_eq!(json_name("id"), "id");
        assert_eq!(json_name("a__b"), "aB");
        assert_eq!(json_name("foo_1bar"), "foo1bar");
        assert_eq!(json_name("trailing_"), "trailing");
        assert_eq!(json_name("Upper_case"), "UpperCase");
    }

    #[test]
    fn json_layout_and_scalars() {
        let mut pkg = Message::new();
        pkg.string(5, "arch", "v1model");
        let mut m = Message::new();
        m.i64(8, "size", 1024)
            .message(1, "pkg_info", pkg)
            .u32(3, "id", 33554433)
            .i32(4, "bitwidth", -9)
            .u64(5, "big", 18446744073709551615)
            .bool(6, "is_const_table", true)
            .enumeration(7, "match_type", 2, "EXACT")
            .bytes(9, "value", vec![0u8, 1])
            .message(10, "empty", Message::new());
        assert_eq!(
            m.to_json(),
            "{\n \"pkgInfo\": {\n  \"arch\": \"v1model\"\n },\n \"id\": 33554433,\n \
             \"bitwidth\": -9,\n \"big\": \"18446744073709551615\",\n \"isConstTable\": true,\n \
             \"matchType\": \"EXACT\",\n \"size\": \"1024\",\n \"value\": \"AAE=\",\n \
             \"empty\": {}\n}\n"
        );
        assert_eq!(Message::new().to_json(), "{}\n");
    }

    #[test]
    fn json_repeated_fields_are_arrays() {
        let mut t1 = Message::new();
        t1.u32(1, "id", 1);
        let mut m = Message::new();
        m.add_message(2, "tables", t1);
        m.add_message(2, "tables", Message::new());
        m.strings(4, "annotations", ["@a", "@b"]);
        m.packed_u32(7, "direct_resource_ids", vec![5, 6]);
        m.push(8, "sizes", Value::PackedU64(vec![1]));
        let mut one = Message::new();
        one.add_string(1, "annotations", "only");
        m.add_message(9, "one", one);
        assert_eq!(
            m.to_json(),
            "{\n \"tables\": [\n  {\n   \"id\": 1\n  },\n  {}\n ],\n \
             \"annotations\": [\n  \"@a\",\n  \"@b\"\n ],\n \
             \"directResourceIds\": [\n  5,\n  6\n ],\n \
             \"sizes\": [\n  \"1\"\n ],\n \
             \"one\": [\n  {\n   \"annotations\": [\n    \"only\"\n   ]\n  }\n ]\n}\n"
        );
    }

    #[test]
    fn json_string_escapes() {
        let mut s = String::new();
        json_string("q\"b\\s/n\nr\rt\tf\u{c}b\u{8}", &mut s);
        assert_eq!(s, r#""q\"b\\s/n\nr\rt\tf\fb\b""#);
        let mut s = String::new();
        json_string("\u{0}\u{1f}\u{b}\u{7f}\u{80}\u{9f}<>&'", &mut s);
        assert_eq!(s, r#""\u0000\u001f\u000b\u007f\u0080\u009f\u003c\u003e&'""#);
        // Non-ASCII stays raw UTF-8, except for a few invisible code points.
        let mut s = String::new();
        json_string("é€😀\u{a0}\u{ad}\u{2028}\u{feff}\u{e0001}", &mut s);
        assert_eq!(s, "\"é€😀\u{a0}\\u00ad\\u2028\\ufeff\\udb40\\udc01\"");
        let mut s = String::new();
        json_string("\u{1d173}\u{1d17b}", &mut s);
        assert_eq!(s, "\"\\ud834\\udd73\u{1d17b}\"");
    }

    #[test]
    fn json_base64() {
        let enc = |b: &[u8]| {
            let mut s = String::new();
            base64(b, &mut s);
            s
        };
        assert_eq!(enc(b""), "");
        assert_eq!(enc(b"f"), "Zg==");
        assert_eq!(enc(b"fo"), "Zm8=");
        assert_eq!(enc(b"foo"), "Zm9v");
        assert_eq!(enc(b"foob"), "Zm9vYg==");
        assert_eq!(enc(b"fooba"), "Zm9vYmE=");
        assert_eq!(enc(b"foobar"), "Zm9vYmFy");
        assert_eq!(enc(&[0xfb, 0xff, 0xbf]), "+/+/");
    }

    // ----- a P4Info-shaped message -----

    fn preamble(id: u32, name: &str, alias: &str, annotations: &[&str]) -> Message {
        let mut p = Message::new();
        p.strings(4, "annotations", annotations.iter().copied());
        p.u32(1, "id", id)
            .string(2, "name", name)
            .string(3, "alias", alias);
        p
    }

    fn sample_p4info() -> Message {
        let mut pkg = Message::new();
        pkg.string(5, "arch", "v1model");
        let mut table = Message::new();
        table.message(
            1,
            "preamble",
            preamble(
                37375156,
                "MyIngress.ipv4_lpm",
                "ipv4_lpm",
                &[
                    "@brief(\"a \\\"quoted\\\" note\")",
                    "@doc(\"line1\nline2\")",
                    "@name(\"café\")",
                ],
            ),
        );
        let mut mf = Message::new();
        mf.u32(1, "id", 1)
            .string(2, "name", "hdr.ipv4.dstAddr")
            .i32(4, "bitwidth", 32)
            .push(
                5,
                "match_type",
                Value::Enum {
                    number: 3,
                    name: "LPM",
                },
            );
        table.add_message(2, "match_fields", mf);
        let mut mf = Message::new();
        mf.u32(1, "id", 2)
            .string(2, "name", "meta.x")
            .add_string(3, "annotations", "@format(MAC_ADDRESS)")
            .i32(4, "bitwidth", 48)
            .push(7, "other_match_type", Value::String("my_match".into()));
        table.add_message(2, "match_fields", mf);
        let mut ar = Message::new();
        ar.enumeration(3, "scope", 2, "DEFAULT_ONLY")
            .u32(1, "id", 21257015);
        ar.add_string(2, "annotations", "@defaultonly");
        table.add_message(3, "action_refs", ar);
        table
            .i64(8, "size", 1024)
            .packed_u32(7, "direct_resource_ids", vec![318814845])
            .u32(4, "const_default_action_id", 21257015);
        let mut action = Message::new();
        action.message(
            1,
            "preamble",
            preamble(21257015, "NoAction", "NoAction", &["@noWarn(\"unused\")"]),
        );
        let mut p4info = Message::new();
        p4info.add_message(3, "actions", action);
        p4info.add_message(2, "tables", table);
        p4info.message(1, "pkg_info", pkg);
        p4info
    }

    #[test]
    fn p4info_text() {
        let expected = r#"pkg_info {
  arch: "v1model"
}
tables {
  preamble {
    id: 37375156
    name: "MyIngress.ipv4_lpm"
    alias: "ipv4_lpm"
    annotations: "@brief(\"a \\\"quoted\\\" note\")"
    annotations: "@doc(\"line1\nline2\")"
    annotations: "@name(\"caf\303\251\")"
  }
  match_fields {
    id: 1
    name: "hdr.ipv4.dstAddr"
    bitwidth: 32
    match_type: LPM
  }
  match_fields {
    id: 2
    name: "meta.x"
    annotations: "@format(MAC_ADDRESS)"
    bitwidth: 48
    other_match_type: "my_match"
  }
  action_refs {
    id: 21257015
    annotations: "@defaultonly"
    scope: DEFAULT_ONLY
  }
  const_default_action_id: 21257015
  direct_resource_ids: 318814845
  size: 1024
}
actions {
  preamble {
    id: 21257015
    name: "NoAction"
    alias: "NoAction"
    annotations: "@noWarn(\"unused\")"
  }
}
"#;
        assert_eq!(sample_p4info().to_text(), expected);
    }

    #[test]
    fn p4info_json() {
        let expected = r#"{
 "pkgInfo": {
  "arch": "v1model"
 },
 "tables": [
  {
   "preamble": {
    "id": 37375156,
    "name": "MyIngress.ipv4_lpm",
    "alias": "ipv4_lpm",
    "annotations": [
     "@brief(\"a \\\"quoted\\\" note\")",
     "@doc(\"line1\nline2\")",
     "@name(\"café\")"
    ]
   },
   "matchFields": [
    {
     "id": 1,
     "name": "hdr.ipv4.dstAddr",
     "bitwidth": 32,
     "matchType": "LPM"
    },
    {
     "id": 2,
     "name": "meta.x",
     "annotations": [
      "@format(MAC_ADDRESS)"
     ],
     "bitwidth": 48,
     "otherMatchType": "my_match"
    }
   ],
   "actionRefs": [
    {
     "id": 21257015,
     "annotations": [
      "@defaultonly"
     ],
     "scope": "DEFAULT_ONLY"
    }
   ],
   "constDefaultActionId": 21257015,
   "directResourceIds": [
    318814845
   ],
   "size": "1024"
  }
 ],
 "actions": [
  {
   "preamble": {
    "id": 21257015,
    "name": "NoAction",
    "alias": "NoAction",
    "annotations": [
     "@noWarn(\"unused\")"
    ]
   }
  }
 ]
}
"#;
        assert_eq!(sample_p4info().to_json(), expected);
    }

    #[test]
    fn p4info_binary() {
        let mut mf = Message::new();
        mf.u32(1, "id", 1).push(
            5,
            "match_type",
            Value::Enum {
                number: 3,
                name: "LPM",
            },
        );
        let mut pre = Message::new();
        pre.u32(1, "id", 2).string(2, "name", "t");
        let mut t = Message::new();
        t.i64(8, "size", 1024)
            .add_message(2, "match_fields", mf)
            .message(1, "preamble", pre);
        t.packed_u32(7, "direct_resource_ids", vec![1, 2]);
        let mut p = Message::new();
        p.add_message(2, "tables", t);
        // tables(2) { preamble(1) { id 2, name "t" } match_fields(2) { id 1,
        // match_type 3 } direct_resource_ids(7) [1, 2] size(8) 1024 }
        assert_eq!(
            hex(&p.to_binary()),
            "12 14 0a 05 08 02 12 01 74 12 04 08 01 28 03 3a 02 01 02 40 80 08"
        );
    }

    // ----- cases for tests/clients/proto_writer_diff.py -----

    /// Strings with every ASCII character, C1 controls, non-ASCII and the
    /// code points the JSON writer escapes.
    fn awkward_string() -> String {
        let mut s: String = (0u8..0x80).map(char::from).collect();
        s.push_str("\u{80}\u{9f}\u{a0}é€😀\u{ad}\u{2028}\u{feff}\u{e0001}\u{1d173}");
        s
    }

    /// A P4Info (p4.config.v1.P4Info) using every value kind the schema has.
    fn diff_p4info() -> Message {
        let mut p = sample_p4info();
        let mut t = Message::new();
        t.message(1, "preamble", Message::new());
        let mut mf = Message::new();
        mf.i32(4, "bitwidth", -5).push(
            5,
            "match_type",
            Value::Enum {
                number: 0,
                name: "UNSPECIFIED",
            },
        );
        t.add_message(2, "match_fields", mf);
        let mut call = Message::new();
        let mut arg = Message::new();
        arg.u32(2, "param_id", 1)
            .bytes(3, "value", (0u8..=255).collect::<Vec<u8>>());
        call.u32(1, "action_id", 21257015)
            .add_message(4, "arguments", arg);
        t.message(5, "initial_default_action", call)
            .i64(8, "size", -1)
            .enumeration(9, "idle_timeout_behavior", 1, "NOTIFY_CONTROL")
            .bool(10, "is_const_table", true);
        p.add_message(2, "tables", t);
        let mut ap = Message::new();
        ap.message(
            1,
            "preamble",
            preamble(285217164, "ap", "", &[&awkward_string(), ""]),
        )
        .packed_u32(2, "table_ids", vec![37375156, 1, 0])
        .bool(3, "with_selector", true)
        .i64(4, "size", 1 << 62)
        .i32(5, "max_group_size", -3);
        p.add_message(4, "action_profiles", ap);
        let mut doc = Message::new();
        doc.string(1, "brief", awkward_string())
            .string(2, "description", "");
        let mut pkg = Message::new();
        pkg.string(1, "name", "prog").message(3, "doc", doc);
        p.message(200, "type_info", Message::new());
        // Replace pkg_info (field 1) with a fuller one.
        p.fields.retain(|f| f.number != 1);
        pkg.string(5, "arch", "v1model");
        p.message(1, "pkg_info", pkg);
        p
    }

    /// A P4Runtime p4.v1.WriteRequest.
    fn diff_write_request() -> Message {
        let exact = |v: &[u8]| {
            let mut m = Message::new();
            m.bytes(1, "value", v.to_vec());
            m
        };
        let mut fm1 = Message::new();
        fm1.u32(1, "field_id", 1)
            .message(2, "exact", exact(&[10, 0, 0, 1]));
        let mut lpm = Message::new();
        lpm.bytes(1, "value", vec![192, 168, 0, 0])
            .i32(2, "prefix_len", 24);
        let mut fm2 = Message::new();
        fm2.message(4, "lpm", lpm).u32(1, "field_id", 2);
        let mut tern = Message::new();
        tern.bytes(1, "value", vec![0x80])
            .bytes(2, "mask", vec![0xff, 0]);
        let mut fm3 = Message::new();
        fm3.u32(1, "field_id", 3).message(3, "ternary", tern);
        let mut param = Message::new();
        param.u32(2, "param_id", 1).bytes(3, "value", vec![0, 1]);
        let mut action = Message::new();
        action
            .u32(1, "action_id", 21257015)
            .add_message(4, "params", param);
        let mut table_action = Message::new();
        table_action.message(1, "action", action);
        let mut te = Message::new();
        te.u32(1, "table_id", 37375156)
            .add_message(2, "match", fm1)
            .add_message(2, "match", fm2)
            .add_message(2, "match", fm3)
            .message(3, "action", table_action)
            .i32(4, "priority", -7)
            .i64(9, "idle_timeout_ns", i64::MIN)
            .bytes(11, "metadata", b"meta\n".to_vec())
            .bool(13, "is_const", false);
        let mut entity = Message::new();
        entity.message(2, "table_entry", te);
        let mut u1 = Message::new();
        u1.enumeration(1, "type", 1, "INSERT")
            .message(2, "entity", entity);
        let mut te2 = Message::new();
        te2.u32(1, "table_id", 5);
        let mut entity2 = Message::new();
        entity2.message(2, "table_entry", te2);
        let mut u2 = Message::new();
        u2.message(2, "entity", entity2)
            .enumeration(1, "type", 3, "DELETE");
        let mut election = Message::new();
        election.u64(1, "high", 0).u64(2, "low", 5);
        let mut w = Message::new();
        w.u64(1, "device_id", u64::MAX)
            .string(6, "role", "")
            .message(3, "election_id", election)
            .add_message(4, "updates", u1)
            .add_message(4, "updates", u2)
            .enumeration(5, "atomicity", 1, "ROLLBACK_ON_ERROR");
        w
    }

    /// Writes each case's three encodings to `$JANUS_PROTO_DIFF_DIR` for
    /// tests/clients/proto_writer_diff.py to compare with Python protobuf.
    #[test]
    #[ignore = "run by tests/clients/proto_writer_diff.py"]
    fn dump_for_python_diff() {
        let Some(dir) = std::env::var_os("JANUS_PROTO_DIFF_DIR") else {
            return;
        };
        let dir = std::path::PathBuf::from(dir);
        for (name, m) in [
            ("p4info", diff_p4info()),
            ("write_request", diff_write_request()),
        ] {
            std::fs::write(dir.join(format!("{name}.bin")), m.to_binary()).unwrap();
            std::fs::write(dir.join(format!("{name}.txt")), m.to_text()).unwrap();
            std::fs::write(dir.join(format!("{name}.json")), m.to_json()).unwrap();
        }
    }

    #[test]
    #[should_panic(expected = "a field added twice")]
    #[cfg(debug_assertions)]
    fn singular_field_twice_is_a_bug() {
        let mut m = Message::new();
        m.u32(1, "id", 1).u32(1, "id", 2);
        let _ = m.to_binary();
    }
}
