//! `@p4runtime_translation`: the values of a translated type as the
//! controller sees them (SDN values: a `bit<S>` of the annotation's width,
//! or a string) and as the data plane holds them (the type's underlying
//! `bit<W>`), mapped both ways on every write, read, PacketOut, PacketIn
//! and digest (P4Runtime 1.5 §8.4.6 "User-defined types", §17.1
//! "Translation of port numbers").
//!
//! The specification leaves the mapping to the target's switch config.
//! Janus's rules, per translated type:
//!
//! - A mapping the operator *pins* (a [`TRANSLATION_EXTERN_TYPE`]
//!   `ExternEntry` holding a `janus.Translation`) is used as written.
//! - An SDN value sent with no mapping gets one: its own number when it
//!   has one (a `bit<S>` value, or a string of decimal digits such as
//!   `"7"`), fits in `W` bits and that data-plane value is free; else the
//!   highest free data-plane value (so the small numbers stay free for
//!   values that are their own number). None free: RESOURCE_EXHAUSTED.
//! - A data-plane value with no mapping (one the program wrote, or a
//!   packet carried) reads as its own number: a `bit<S>` byte string, or
//!   its decimal digits for a string type.
//! - Values are only allocated where a write creates them (an INSERT's
//!   match, the action arguments of a write, PacketOut metadata); a DELETE,
//!   a MODIFY's match or a read filter naming an unmapped value matches
//!   nothing. An update that fails leaves no mapping behind, nor does a
//!   batch rolled back ([`Translations::begin`] / [`Translations::end`]).
//! - Mappings live as long as the pipeline; they are journaled with the
//!   writes that made them and written first in every snapshot, so a
//!   restart with `--state` finds the same data-plane values.
//!
//! Match kinds other than exact and optional are translated only when
//! they are de facto exact (a full prefix, an all-ones mask, a range of
//! one value), as §17.1.3 allows; others on a translated field are
//! INVALID_ARGUMENT.

use crate::codec::{RpcError, invalid, to_bytes};
use crate::proto::p4::config::v1 as cfg;
use janus_engine::value::Bits;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use tonic::Code;

/// The `ExternEntry.extern_type_id` of translation mappings.
pub const TRANSLATION_EXTERN_TYPE: u32 = 0xC1;

/// The type URL of the entry of a translation `ExternEntry`.
pub const TRANSLATION_TYPE_URL: &str = "type.googleapis.com/janus.Translation";

/// The widest underlying type Janus translates.
const MAX_DP_WIDTH: u32 = 128;

/// How the controller sees a translated type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sdn {
    /// `sdn_bitwidth`: byte strings of at most this many bits.
    Bits(u32),
    /// `sdn_string`.
    String,
}

/// One translated type and its mappings.
#[derive(Debug)]
struct TypeMap {
    name: String,
    uri: String,
    sdn: Sdn,
    /// The width of the underlying `bit<W>`.
    dp_width: u32,
    /// SDN value (canonical) -> data-plane value.
    to_dp: HashMap<Vec<u8>, u128>,
    /// Data-plane value -> (SDN value, pinned).
    to_sdn: BTreeMap<u128, (Vec<u8>, bool)>,
    /// Every data-plane value above this one is mapped (the highest free
    /// value is at most this; `None`: all are mapped, or the search has
    /// gone below 0).
    top: Option<u128>,
}

impl TypeMap {
    fn dp_max(&self) -> u128 {
        if self.dp_width >= 128 {
            u128::MAX
        } else {
            (1u128 << self.dp_width) - 1
        }
    }

    /// The SDN value's own number, when it has one (see the module
    /// comment).
    fn own_number(&self, sdn: &[u8]) -> Option<u128> {
        let n = match self.sdn {
            Sdn::Bits(_) => {
                if sdn.len() > 16 {
                    return None;
                }
                sdn.iter().fold(0u128, |acc, &b| (acc << 8) | u128::from(b))
            }
            Sdn::String => {
                let text = std::str::from_utf8(sdn).ok()?;
                let canonical = !text.is_empty()
                    && text.bytes().all(|b| b.is_ascii_digit())
                    && (text == "0" || !text.starts_with('0'));
                if !canonical {
                    return None;
                }
                text.parse::<u128>().ok()?
            }
        };
        (n <= self.dp_max()).then_some(n)
    }

    /// The highest free data-plane value.
    fn highest_free(&mut self) -> Option<u128> {
        let mut at = self.top?;
        loop {
            if !self.to_sdn.contains_key(&at) {
                self.top = Some(at);
                return Some(at);
            }
            match at.checked_sub(1) {
                Some(next) => at = next,
                None => {
                    self.top = None;
                    return None;
                }
            }
        }
    }

    fn insert(&mut self, sdn: Vec<u8>, dp: u128, pinned: bool) {
        self.to_dp.insert(sdn.clone(), dp);
        self.to_sdn.insert(dp, (sdn, pinned));
    }

    fn remove(&mut self, dp: u128) -> Option<(Vec<u8>, bool)> {
        let (sdn, pinned) = self.to_sdn.remove(&dp)?;
        self.to_dp.remove(&sdn);
        if self.top.is_none_or(|top| dp > top) {
            self.top = Some(dp);
        }
        Some((sdn, pinned))
    }

    /// The SDN value as a map key: a `bit<S>` byte string without its
    /// leading zero bytes (checked against `S`), a string as it is.
    fn canonical(&self, sdn: &[u8], what: &str) -> Result<Vec<u8>, RpcError> {
        match self.sdn {
            Sdn::String => Ok(sdn.to_vec()),
            Sdn::Bits(width) => {
                if sdn.is_empty() {
                    return Err(invalid(format!("{what}: empty byte string")));
                }
                let first = sdn.iter().position(|&b| b != 0).unwrap_or(sdn.len() - 1);
                let digits = &sdn[first..];
                let bits = (digits.len() as u32 - 1) * 8 + (8 - digits[0].leading_zeros());
                if bits > width {
                    return Err(RpcError::new(
                        Code::OutOfRange,
                        format!(
                            "{what}: the value needs {bits} bits; type {} takes {width}-bit SDN values",
                            self.name
                        ),
                    ));
                }
                Ok(digits.to_vec())
            }
        }
    }

    fn dp_bits(&self, dp: u128) -> Bits {
        Bits::from_be_bytes(self.dp_width, false, &dp.to_be_bytes())
    }

    /// The SDN value a data-plane value reads as.
    fn sdn_of(&self, dp: u128) -> Vec<u8> {
        match self.to_sdn.get(&dp) {
            Some((sdn, _)) => sdn.clone(),
            None => match self.sdn {
                Sdn::Bits(_) => to_bytes(&self.dp_bits(dp)),
                Sdn::String => dp.to_string().into_bytes(),
            },
        }
    }
}

/// A change to the mappings, kept while an update or batch may still be
/// undone.
#[derive(Debug)]
enum Change {
    Added {
        ty: usize,
        dp: u128,
    },
    Removed {
        ty: usize,
        dp: u128,
        sdn: Vec<u8>,
        pinned: bool,
    },
    Pinned {
        ty: usize,
        dp: u128,
        was: bool,
    },
}

/// The translated types of a pipeline and their mappings.
#[derive(Debug, Default)]
pub(crate) struct Translations {
    types: Vec<TypeMap>,
    /// Changes since the outermost [`Translations::begin`].
    log: Vec<Change>,
    depth: usize,
    /// The type an allocation found full (since the last
    /// [`Translations::take_exhausted`]).
    exhausted: Option<usize>,
}

/// The translations of a pipeline, shared by the maps of the fields,
/// parameters and metadata that have a translated type.
pub(crate) type Shared = Arc<Mutex<Translations>>;

pub(crate) fn lock(shared: &Shared) -> MutexGuard<'_, Translations> {
    shared.lock().unwrap_or_else(|e| e.into_inner())
}

impl Translations {
    /// The translated types of `info`'s `type_info` (`new_types` with a
    /// `translated_type`), each with the width of its underlying type in
    /// the program (`dp_width` by type name).
    pub(crate) fn build(
        info: &cfg::P4Info,
        dp_width: impl Fn(&str) -> Option<u32>,
    ) -> Result<Translations, String> {
        use cfg::p4_new_type_spec::Representation;
        use cfg::p4_new_type_translation::SdnType;
        let mut types = Vec::new();
        let Some(ti) = info.type_info.as_ref() else {
            return Ok(Translations::default());
        };
        let mut names: Vec<&String> = ti.new_types.keys().collect();
        names.sort();
        for name in names {
            let Some(Representation::TranslatedType(t)) = &ti.new_types[name].representation else {
                continue;
            };
            let sdn = match t.sdn_type {
                Some(SdnType::SdnBitwidth(w)) if w > 0 => Sdn::Bits(w as u32),
                Some(SdnType::SdnString(_)) => Sdn::String,
                _ => return Err(format!("translated type {name} has no SDN type")),
            };
            let width = dp_width(name).ok_or_else(|| {
                format!("translated type {name} is not a bit<W> type of the program")
            })?;
            if width == 0 || width > MAX_DP_WIDTH {
                return Err(format!(
                    "translated type {name} is bit<{width}>: Janus translates bit<1> to bit<{MAX_DP_WIDTH}>"
                ));
            }
            types.push(TypeMap {
                name: name.clone(),
                uri: t.uri.clone(),
                sdn,
                dp_width: width,
                to_dp: HashMap::new(),
                to_sdn: BTreeMap::new(),
                top: Some(if width >= 128 {
                    u128::MAX
                } else {
                    (1u128 << width) - 1
                }),
            });
        }
        Ok(Translations {
            types,
            ..Translations::default()
        })
    }

    /// The index of translated type `name`.
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        self.types.iter().position(|t| t.name == name)
    }

    /// Whether an update runs inside a batch's [`Translations::begin`].
    pub(crate) fn nested(&self) -> bool {
        self.depth > 1
    }

    /// The type an allocation found full since the last call, if any.
    pub(crate) fn take_exhausted(&mut self) -> Option<usize> {
        self.exhausted.take()
    }

    pub(crate) fn sdn(&self, ty: usize) -> Sdn {
        self.types[ty].sdn
    }

    pub(crate) fn name(&self, ty: usize) -> &str {
        &self.types[ty].name
    }

    pub(crate) fn dp_width(&self, ty: usize) -> u32 {
        self.types[ty].dp_width
    }

    /// Starts an update or batch whose mapping changes [`Translations::end`]
    /// keeps or undoes; returns its mark. Nests.
    pub(crate) fn begin(&mut self) -> usize {
        self.depth += 1;
        self.log.len()
    }

    /// Ends what [`Translations::begin`] started: `keep` false undoes
    /// every change since `mark`, newest first.
    pub(crate) fn end(&mut self, mark: usize, keep: bool) {
        if !keep {
            while self.log.len() > mark {
                let Some(change) = self.log.pop() else { break };
                match change {
                    Change::Added { ty, dp } => {
                        self.types[ty].remove(dp);
                    }
                    Change::Removed {
                        ty,
                        dp,
                        sdn,
                        pinned,
                    } => self.types[ty].insert(sdn, dp, pinned),
                    Change::Pinned { ty, dp, was } => {
                        if let Some(m) = self.types[ty].to_sdn.get_mut(&dp) {
                            m.1 = was;
                        }
                    }
                }
            }
        }
        self.depth = self.depth.saturating_sub(1);
        if self.depth == 0 {
            self.log.clear();
        }
    }

    fn record(&mut self, change: Change) {
        if self.depth > 0 {
            self.log.push(change);
        }
    }

    /// The data-plane value of SDN value `sdn` of type `ty`; with
    /// `allocate`, one is mapped if there is none. Without, an unmapped
    /// value that is its own number and free stands for that number (as
    /// the data-plane value reads), any other is NOT_FOUND (nothing can
    /// hold it).
    pub(crate) fn map_sdn(
        &mut self,
        ty: usize,
        sdn: &[u8],
        allocate: bool,
        what: &str,
    ) -> Result<Bits, RpcError> {
        let t = &mut self.types[ty];
        let key = t.canonical(sdn, what)?;
        if let Some(&dp) = t.to_dp.get(&key) {
            return Ok(t.dp_bits(dp));
        }
        let own = t.own_number(&key).filter(|n| !t.to_sdn.contains_key(n));
        if !allocate {
            // The value an unmapped data-plane value reads as.
            return match own {
                Some(n) => Ok(t.dp_bits(n)),
                None => Err(RpcError::new(
                    Code::NotFound,
                    format!(
                        "{what}: {} is not a mapped value of type {}",
                        shown(t.sdn, &key),
                        t.name
                    ),
                )),
            };
        }
        let Some(dp) = own.or_else(|| t.highest_free()) else {
            let e = RpcError::new(
                Code::ResourceExhausted,
                format!(
                    "{what}: every data-plane value of type {} (bit<{}>) is held; \
                     {} cannot get one",
                    t.name,
                    t.dp_width,
                    shown(t.sdn, &key)
                ),
            );
            self.exhausted = Some(ty);
            return Err(e);
        };
        t.insert(key, dp, false);
        let bits = t.dp_bits(dp);
        self.record(Change::Added { ty, dp });
        Ok(bits)
    }

    /// The SDN value data-plane value `dp` of type `ty` reads as.
    pub(crate) fn sdn_of_dp(&self, ty: usize, dp: &Bits) -> Vec<u8> {
        self.types[ty].sdn_of(dp_number(dp))
    }

    /// Pins SDN value `sdn` of type `ty` to data-plane value `dp` (an
    /// operator's mapping); ALREADY_EXISTS when either is mapped to
    /// something else. Pinning a mapping the server allocated keeps it.
    pub(crate) fn pin(
        &mut self,
        ty: usize,
        sdn: &[u8],
        dp: &[u8],
        pinned: bool,
    ) -> Result<(), RpcError> {
        let t = &mut self.types[ty];
        let what = format!("translation of type {}", t.name);
        let key = t.canonical(sdn, &what)?;
        let dp = dp_number(&crate::codec::from_bytes(
            dp,
            t.dp_width,
            false,
            &format!("{what}: dp_value"),
        )?);
        match (t.to_dp.get(&key), t.to_sdn.get(&dp)) {
            (None, None) => {
                t.insert(key, dp, pinned);
                self.record(Change::Added { ty, dp });
                Ok(())
            }
            (Some(&d), Some((_, was))) if d == dp => {
                let was = *was;
                if let Some(m) = t.to_sdn.get_mut(&dp) {
                    m.1 = pinned || was;
                }
                self.record(Change::Pinned { ty, dp, was });
                Ok(())
            }
            (Some(&d), _) => Err(RpcError::new(
                Code::AlreadyExists,
                format!(
                    "{what}: {} is mapped to data-plane value {d}",
                    shown(t.sdn, &key)
                ),
            )),
            (None, Some((other, _))) => Err(RpcError::new(
                Code::AlreadyExists,
                format!(
                    "{what}: data-plane value {dp} is mapped to {}",
                    shown(t.sdn, other)
                ),
            )),
        }
    }

    /// Removes the mapping of SDN value `sdn` of type `ty`; NOT_FOUND when
    /// there is none. The caller checks that nothing holds the value.
    pub(crate) fn unmap(&mut self, ty: usize, sdn: &[u8]) -> Result<Bits, RpcError> {
        let t = &mut self.types[ty];
        let what = format!("translation of type {}", t.name);
        let key = t.canonical(sdn, &what)?;
        let dp = *t.to_dp.get(&key).ok_or_else(|| {
            RpcError::new(
                Code::NotFound,
                format!("{what}: {} is not mapped", shown(t.sdn, &key)),
            )
        })?;
        let bits = t.dp_bits(dp);
        if let Some((sdn, pinned)) = t.remove(dp) {
            self.record(Change::Removed {
                ty,
                dp,
                sdn,
                pinned,
            });
        }
        Ok(bits)
    }

    /// Every mapping, by type name then data-plane value: (type name,
    /// SDN value, data-plane value, pinned).
    pub(crate) fn mappings(&self) -> Vec<(String, Vec<u8>, Vec<u8>, bool)> {
        let mut out = Vec::new();
        for t in &self.types {
            for (&dp, (sdn, pinned)) in &t.to_sdn {
                out.push((
                    t.name.clone(),
                    sdn.clone(),
                    to_bytes(&t.dp_bits(dp)),
                    *pinned,
                ));
            }
        }
        out
    }
}

/// An SDN value for messages: a string quoted, a bit string in hex.
fn shown(sdn: Sdn, value: &[u8]) -> String {
    match sdn {
        Sdn::String => format!("{:?}", String::from_utf8_lossy(value)),
        Sdn::Bits(_) => {
            let hex: String = value.iter().map(|b| format!("{b:02x}")).collect();
            format!("0x{hex}")
        }
    }
}

/// A data-plane value (at most 128 bits) as a number.
pub(crate) fn dp_number(v: &Bits) -> u128 {
    to_bytes(v)
        .iter()
        .fold(0u128, |acc, &b| (acc << 8) | u128::from(b))
}

/// Where a field, parameter or metadata of a translated type finds its
/// mappings.
#[derive(Clone, Debug)]
pub(crate) struct Tr {
    shared: Shared,
    pub(crate) ty: usize,
}

impl Tr {
    /// The translation of `type_name` (a P4Info `type_name`), if that
    /// names a translated type.
    pub(crate) fn of(shared: &Shared, type_name: Option<&cfg::P4NamedType>) -> Option<Tr> {
        let name = type_name
            .map(|t| t.name.as_str())
            .filter(|n| !n.is_empty())?;
        let ty = lock(shared).find(name)?;
        Some(Tr {
            shared: shared.clone(),
            ty,
        })
    }

    pub(crate) fn to_dp(&self, sdn: &[u8], allocate: bool, what: &str) -> Result<Bits, RpcError> {
        lock(&self.shared).map_sdn(self.ty, sdn, allocate, what)
    }

    pub(crate) fn to_sdn(&self, dp: &Bits) -> Vec<u8> {
        lock(&self.shared).sdn_of_dp(self.ty, dp)
    }

    pub(crate) fn sdn(&self) -> Sdn {
        lock(&self.shared).sdn(self.ty)
    }

    pub(crate) fn name(&self) -> String {
        lock(&self.shared).name(self.ty).to_string()
    }

    pub(crate) fn dp_width(&self) -> u32 {
        lock(&self.shared).dp_width(self.ty)
    }
}

/// Mappings the operator gives the server in a file (`janus ctrl serve
/// --translations FILE`), the switch config of P4Runtime §17.1: pinned in
/// every pipeline whose program has a translated type they name, before
/// anything else is written. One mapping per line, `#` starts a comment:
///
/// ```text
/// # type name or URI       SDN value      data-plane value
/// port_id_t                "Ethernet1"    1
/// p4.org/psa/v1/PortId_t   0xfffffffd     510
/// ```
///
/// The first column names a translated type by its name or its
/// `@p4runtime_translation` URI. The SDN value is a string (in double
/// quotes, `\"` and `\\` escaped; or a bare word) for a `string` type, a
/// number (decimal or `0x` hex) for a `bit<S>` one; the data-plane value
/// is a number. Lines naming a type the program does not have are
/// skipped (one file serves every program).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TranslationFile {
    entries: Vec<FileMapping>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct FileMapping {
    line: usize,
    key: String,
    /// The SDN value as written: (text, quoted).
    sdn: (String, bool),
    dp: u128,
}

/// A number: decimal, or hex after `0x`.
fn number(text: &str) -> Option<u128> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u128::from_str_radix(hex, 16).ok(),
        None if text.bytes().all(|b| b.is_ascii_digit()) => text.parse().ok(),
        None => None,
    }
}

/// The next token of `rest` (after white space): a quoted string
/// (unescaped, `true`) or a bare word (`false`); `None` at the end.
fn token(rest: &mut &str) -> Result<Option<(String, bool)>, String> {
    let text = rest.trim_start();
    if text.is_empty() {
        *rest = text;
        return Ok(None);
    }
    if let Some(body) = text.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    *rest = &body[i + 1..];
                    return Ok(Some((out, true)));
                }
                '\\' => match chars.next() {
                    Some((_, e @ ('"' | '\\'))) => out.push(e),
                    _ => return Err("a quoted string escapes only \\\" and \\\\".into()),
                },
                c => out.push(c),
            }
        }
        return Err("a quoted string is not closed".into());
    }
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    *rest = &text[end..];
    Ok(Some((text[..end].to_string(), false)))
}

impl TranslationFile {
    /// Parses the file's text; errors say `line N: ...`.
    pub fn parse(text: &str) -> Result<TranslationFile, String> {
        let mut entries = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let at = |e: String| format!("line {line}: {e}");
            let mut rest = raw;
            let mut tokens = Vec::new();
            loop {
                let before = rest.trim_start();
                if before.starts_with('#') {
                    break;
                }
                match token(&mut rest).map_err(at)? {
                    Some(t) => tokens.push(t),
                    None => break,
                }
            }
            match tokens.as_slice() {
                [] => {}
                [(key, false), sdn, (dp, false)] => {
                    let dp = number(dp).ok_or_else(|| {
                        at(format!("the data-plane value {dp:?} is not a number"))
                    })?;
                    entries.push(FileMapping {
                        line,
                        key: key.clone(),
                        sdn: sdn.clone(),
                        dp,
                    });
                }
                _ => {
                    return Err(at(
                        "expected a type name or URI, an SDN value and a data-plane value".into(),
                    ));
                }
            }
        }
        Ok(TranslationFile { entries })
    }

    /// Reads and parses `path`; errors name it.
    pub fn load(path: &std::path::Path) -> Result<TranslationFile, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        TranslationFile::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Translations {
    /// Pins the mappings of `file` whose type this program has.
    pub(crate) fn pin_file(&mut self, file: &TranslationFile) -> Result<(), String> {
        for m in &file.entries {
            let Some(ty) = self
                .types
                .iter()
                .position(|t| t.name == m.key || (!t.uri.is_empty() && t.uri == m.key))
            else {
                tracing::debug!(line = m.line, key = %m.key, "translation file: no such type in the program");
                continue;
            };
            let at = |e: String| format!("translation file line {}: {e}", m.line);
            let t = &self.types[ty];
            let sdn = match (t.sdn, &m.sdn) {
                (Sdn::String, (text, _)) => text.as_bytes().to_vec(),
                (Sdn::Bits(_), (text, false)) => {
                    let n = number(text).ok_or_else(|| {
                        at(format!(
                            "type {} takes numbers as SDN values, not {text:?}",
                            t.name
                        ))
                    })?;
                    let bytes = n.to_be_bytes();
                    let first = bytes.iter().position(|&b| b != 0).unwrap_or(15);
                    bytes[first..].to_vec()
                }
                (Sdn::Bits(_), (text, true)) => {
                    return Err(at(format!(
                        "type {} takes numbers as SDN values, not the string {text:?}",
                        t.name
                    )));
                }
            };
            if m.dp > t.dp_max() {
                return Err(at(format!(
                    "data-plane value {} does not fit type {} (bit<{}>)",
                    m.dp, t.name, t.dp_width
                )));
            }
            let dp = {
                let bytes = m.dp.to_be_bytes();
                let first = bytes.iter().position(|&b| b != 0).unwrap_or(15);
                bytes[first..].to_vec()
            };
            self.pin(ty, &sdn, &dp, true).map_err(|e| at(e.message))?;
        }
        Ok(())
    }
}

impl Translations {
    /// MODIFY of a mapping: pins (`pinned`) or unpins the existing mapping
    /// of `sdn` (NOT_FOUND if none); its data-plane value `dp` cannot
    /// change (INVALID_ARGUMENT naming `what`).
    pub(crate) fn repin(
        &mut self,
        ty: usize,
        sdn_value: &[u8],
        dp_value: &[u8],
        pinned: bool,
        what: &str,
    ) -> Result<(), RpcError> {
        let now = self.map_sdn(ty, sdn_value, false, what)?;
        let dp = crate::codec::from_bytes(dp_value, self.dp_width(ty), false, what)?;
        if dp != now {
            return Err(invalid(format!(
                "{what}: the mapping's data-plane value cannot change (delete it and insert the new one)"
            )));
        }
        let sdn = self.types[ty].canonical(sdn_value, what)?;
        let dp = dp_number(&now);
        let was = self.types[ty].to_sdn.get(&dp).is_some_and(|m| m.1);
        if let Some(m) = self.types[ty].to_sdn.get_mut(&dp) {
            m.1 = pinned;
        }
        debug_assert_eq!(self.types[ty].to_dp.get(&sdn), Some(&dp));
        self.record(Change::Pinned { ty, dp, was });
        Ok(())
    }

    /// Removes the mappings of type `ty` the server allocated (not pinned)
    /// whose data-plane value is not in `dps` and SDN value not in `sdns`
    /// (what the state holds); returns how many.
    pub(crate) fn release_unheld(
        &mut self,
        ty: usize,
        dps: &std::collections::HashSet<u128>,
        sdns: &std::collections::HashSet<Vec<u8>>,
    ) -> usize {
        let unused: Vec<Vec<u8>> = self.types[ty]
            .to_sdn
            .iter()
            .filter(|(dp, (sdn, pinned))| !pinned && !dps.contains(*dp) && !sdns.contains(sdn))
            .map(|(_, (sdn, _))| sdn.clone())
            .collect();
        for sdn in &unused {
            let _ = self.unmap(ty, sdn);
        }
        tracing::debug!(ty = %self.types[ty].name, reclaimed = unused.len(), "translation values reclaimed");
        unused.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(sdn: Sdn, dp_width: u32) -> Translations {
        Translations {
            types: vec![TypeMap {
                name: "t".into(),
                uri: "janus.test/t".into(),
                sdn,
                dp_width,
                to_dp: HashMap::new(),
                to_sdn: BTreeMap::new(),
                top: Some((1u128 << dp_width) - 1),
            }],
            ..Translations::default()
        }
    }

    fn num(v: &Bits) -> u128 {
        dp_number(v)
    }

    #[test]
    fn values_that_are_their_own_number_keep_it_others_take_the_highest_free() {
        let mut t = types(Sdn::String, 4);
        assert_eq!(num(&t.map_sdn(0, b"3", true, "x").unwrap()), 3);
        assert_eq!(num(&t.map_sdn(0, b"vrf-1", true, "x").unwrap()), 15);
        assert_eq!(num(&t.map_sdn(0, b"15", true, "x").unwrap()), 14);
        assert_eq!(num(&t.map_sdn(0, b"vrf-1", false, "x").unwrap()), 15);
        // "03" and "16" are not their own number in 4 bits.
        assert_eq!(num(&t.map_sdn(0, b"03", true, "x").unwrap()), 13);
        assert_eq!(num(&t.map_sdn(0, b"16", true, "x").unwrap()), 12);
        assert_eq!(t.sdn_of_dp(0, &Bits::from_u64(4, false, 15)), b"vrf-1");
        // Unmapped data-plane values read as their digits.
        assert_eq!(t.sdn_of_dp(0, &Bits::from_u64(4, false, 5)), b"5");
        assert_eq!(
            t.map_sdn(0, b"nope", false, "x").unwrap_err().code,
            Code::NotFound
        );
        let mut bits = types(Sdn::Bits(32), 9);
        assert_eq!(num(&bits.map_sdn(0, &[0, 0, 0, 7], true, "x").unwrap()), 7);
        assert_eq!(
            num(&bits
                .map_sdn(0, &[0xff, 0xff, 0xff, 0xfd], true, "x")
                .unwrap()),
            511
        );
        assert_eq!(
            bits.sdn_of_dp(0, &Bits::from_u64(9, false, 511)),
            vec![0xff, 0xff, 0xff, 0xfd]
        );
        assert_eq!(bits.sdn_of_dp(0, &Bits::from_u64(9, false, 7)), vec![7]);
        assert_eq!(
            bits.map_sdn(0, &[1, 0, 0, 0, 0], true, "x")
                .unwrap_err()
                .code,
            Code::OutOfRange
        );
    }

    #[test]
    fn a_full_type_is_resource_exhausted_and_undone_changes_leave_nothing() {
        let mut t = types(Sdn::String, 2);
        let mark = t.begin();
        for name in ["a", "b", "c", "d"] {
            t.map_sdn(0, name.as_bytes(), true, "x").unwrap();
        }
        assert_eq!(
            t.map_sdn(0, b"e", true, "x").unwrap_err().code,
            Code::ResourceExhausted
        );
        t.end(mark, false);
        assert!(t.mappings().is_empty());
        let mark = t.begin();
        assert_eq!(num(&t.map_sdn(0, b"a", true, "x").unwrap()), 3);
        t.end(mark, true);
        assert_eq!(t.mappings().len(), 1);
        // Removing frees the value for the next allocation.
        t.unmap(0, b"a").unwrap();
        assert_eq!(num(&t.map_sdn(0, b"b", true, "x").unwrap()), 3);
    }

    #[test]
    fn translation_files_parse_and_pin_by_name_or_uri() {
        let file = TranslationFile::parse(
            "# ports\n t  \"Ether net\\\"1\"  0x1f # quoted\n\njanus.test/t Ethernet2 2\nother_t x 3\n",
        )
        .unwrap();
        let mut t = types(Sdn::String, 9);
        t.pin_file(&file).unwrap();
        assert_eq!(
            t.mappings(),
            vec![
                ("t".into(), b"Ethernet2".to_vec(), vec![2], true),
                ("t".into(), b"Ether net\"1".to_vec(), vec![0x1f], true),
            ]
        );
        for (bad, why) in [
            ("t a", "line 1: expected"),
            ("t a b", "line 1: the data-plane value"),
            ("t \"a 1", "line 1: a quoted string is not closed"),
            ("\n\nt \"\\n\" 1", "line 3: a quoted string escapes"),
        ] {
            let e = TranslationFile::parse(bad).unwrap_err();
            assert!(e.starts_with(why), "{bad:?}: {e}");
        }
        let mut bits = types(Sdn::Bits(32), 9);
        let e = bits
            .pin_file(&TranslationFile::parse("t \"x\" 1").unwrap())
            .unwrap_err();
        assert!(e.contains("line 1") && e.contains("numbers"), "{e}");
        let e = bits
            .pin_file(&TranslationFile::parse("t 1 512").unwrap())
            .unwrap_err();
        assert!(e.contains("does not fit"), "{e}");
        bits.pin_file(&TranslationFile::parse("t 0xfffffffd 510").unwrap())
            .unwrap();
        assert_eq!(
            num(&bits
                .map_sdn(0, &[0xff, 0xff, 0xff, 0xfd], false, "x")
                .unwrap()),
            510
        );
    }

    #[test]
    fn pins_conflict_with_other_mappings() {
        let mut t = types(Sdn::String, 9);
        t.pin(0, b"Ethernet1", &[1], true).unwrap();
        assert_eq!(num(&t.map_sdn(0, b"Ethernet1", false, "x").unwrap()), 1);
        assert_eq!(
            t.pin(0, b"Ethernet1", &[2], true).unwrap_err().code,
            Code::AlreadyExists
        );
        assert_eq!(
            t.pin(0, b"Ethernet2", &[1], true).unwrap_err().code,
            Code::AlreadyExists
        );
        assert_eq!(
            t.pin(0, b"x", &[2, 0], true).unwrap_err().code,
            Code::OutOfRange
        );
        // "1" is no longer its own number: 1 is taken.
        assert_eq!(num(&t.map_sdn(0, b"1", true, "x").unwrap()), 511);
        assert_eq!(
            t.mappings(),
            vec![
                ("t".into(), b"Ethernet1".to_vec(), vec![1], true),
                ("t".into(), b"1".to_vec(), vec![1, 0xff], false),
            ]
        );
    }
}
