//! Match-action tables: entries, lookup and the control-plane operations.
//!
//! Lookup never scans all entries and never allocates:
//! - entries are grouped by their *mask vector* (exact fields all ones,
//!   ternary fields their mask, LPM fields a prefix mask); each group is a
//!   hash index (open addressing, see `Buckets`) from the masked key to its
//!   entries, best first (tuple-space search). A table of only exact fields
//!   has one group: one probe;
//! - a lookup probes each group and keeps the best match: the highest
//!   priority, where LPM entries rank by prefix length and, between equal
//!   priorities, the entry added first wins; without priorities, the first
//!   group (longest prefixes first) with a match usually holds it;
//! - entries with range fields, which cannot be hashed, are kept in a short
//!   list checked after the groups, best first.
//!
//! When every key field has at most 64 bits (a *narrow* table), the masks,
//! masked keys and range tests are also kept as plain words, so that
//! [`TableState::lookup_words`] looks a key up without building [`Bits`],
//! in the way (`WordPlan`) the table's shape allows.

use crate::value::Bits;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use thiserror::Error;

/// How a key field matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchKind {
    Exact,
    Lpm,
    Ternary,
    Range,
    Optional,
}

impl MatchKind {
    /// The match kind named `name` in P4 (`exact`, `lpm`, ...).
    pub fn from_p4(name: &str) -> Option<MatchKind> {
        Some(match name {
            "exact" => MatchKind::Exact,
            "lpm" => MatchKind::Lpm,
            "ternary" => MatchKind::Ternary,
            "range" => MatchKind::Range,
            "optional" => MatchKind::Optional,
            _ => return None,
        })
    }
}

/// One key field of an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldMatch {
    Exact(Bits),
    /// A prefix of `len` bits.
    Lpm {
        value: Bits,
        len: u32,
    },
    Ternary {
        value: Bits,
        mask: Bits,
    },
    Range {
        lo: Bits,
        hi: Bits,
    },
    /// `optional`: a value, or `None` for "any".
    Optional(Option<Bits>),
}

/// A table entry: what it matches and what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: Vec<FieldMatch>,
    /// Larger wins (P4Runtime's convention); ignored for exact/LPM-only tables.
    pub priority: i64,
    /// Index of the action in the table's action list.
    pub action: usize,
    /// Arguments for the action's control-plane parameters.
    pub args: Vec<Bits>,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum TableError {
    #[error("the entry has {got} key fields; the table has {want}")]
    KeyCount { got: usize, want: usize },
    #[error("key field {field}: {why}")]
    BadField { field: usize, why: String },
    #[error("the table is full ({0} entries)")]
    Full(usize),
    #[error("an entry with this key already exists")]
    Duplicate,
    #[error("no entry with this key")]
    NotFound,
}

/// The key fields of a table: match kind and width of each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeySpec {
    pub kind: MatchKind,
    pub width: u32,
    pub signed: bool,
}

/// The per-table random seed of key hashes (so crafted packets cannot
/// aim at one bucket in every run).
#[derive(Clone, Copy, Debug)]
struct Seed(u64);

impl Seed {
    fn new() -> Seed {
        Seed(std::collections::hash_map::RandomState::new().hash_one(0u64))
    }

    /// A hash of key words, starting from the seed.
    #[inline]
    fn mix(self) -> Mix {
        Mix(self.0)
    }
}

/// A key hash being built: one folded multiply per word (the high and low
/// halves of a 128-bit product, xored), which mixes every input bit into
/// both the low bits (the bucket) and the high bits (hashbrown's tag).
#[derive(Clone, Copy)]
struct Mix(u64);

impl Mix {
    /// Adds one word.
    #[inline]
    fn word(self, w: u64) -> Mix {
        let p = u128::from(self.0 ^ w) * 0x9E37_79B9_7F4A_7C15;
        Mix(p as u64 ^ (p >> 64) as u64)
    }

    /// The hash.
    #[inline]
    fn finish(self) -> u64 {
        self.0
    }
}

/// Maps keys that are already hashes ([`Mix`] output) as they are.
type PreHashed = std::hash::BuildHasherDefault<PassThrough>;

#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    #[inline]
    fn write_u64(&mut self, h: u64) {
        self.0 = h;
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// How [`TableState::lookup_words`] looks keys up, chosen whenever the
/// entries change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WordPlan {
    /// No entries, or a table that is not narrow: nothing matches.
    Miss,
    /// Only entries with a range field: the first whose tests pass.
    Ranges,
    /// No ranges, and the first group (best first) with a match holds the
    /// best match: a single group, or no priorities (so each group's
    /// entries rank as its mask vector does) and no two groups of equal
    /// rank. With one key field.
    FirstHitOne,
    /// [`WordPlan::FirstHitOne`] with several key fields.
    FirstHit,
    /// The best of the groups' matches and the ranges'.
    Best,
}

/// One slot of [`Buckets`]: a masked-key hash and its best entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    hash: u64,
    /// The entry index; [`Slot::EMPTY`]'s for a free slot.
    entry: u32,
}

impl Slot {
    const EMPTY: Slot = Slot {
        hash: 0,
        entry: u32::MAX,
    };

    #[inline]
    fn is_empty(&self) -> bool {
        self.entry == u32::MAX
    }
}

/// A hash index from masked-key hashes to entries: open addressing over a
/// power-of-two number of slots, at most half of them used, probed
/// linearly from the slot the hash's low bits pick; removal shifts the
/// following slots back, so no tombstones build up. A hit is usually one
/// slot read.
#[derive(Clone, Debug, Default)]
struct Buckets {
    /// Empty, or a power of two of slots with at least one free.
    slots: Vec<Slot>,
    /// Number of used slots.
    used: usize,
}

impl Buckets {
    /// The smallest number of slots a non-empty index has.
    const MIN_SLOTS: usize = 8;

    /// The entry stored under `hash`.
    #[inline]
    fn get(&self, hash: u64) -> Option<u32> {
        self.position(hash)
            .and_then(|i| Some(self.slots.get(i)?.entry))
    }

    /// The slot holding `hash`. Ends: at least one slot is free.
    #[inline]
    fn position(&self, hash: u64) -> Option<usize> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = hash as usize & mask;
        loop {
            let s = self.slots.get(i)?;
            if s.is_empty() {
                return None;
            }
            if s.hash == hash {
                return Some(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// Stores `entry` under `hash`, replacing the entry stored there.
    fn set(&mut self, hash: u64, entry: u32) {
        if let Some(i) = self.position(hash) {
            self.slots[i].entry = entry;
            return;
        }
        if (self.used + 1) * 2 > self.slots.len() {
            self.grow();
        }
        self.place(Slot { hash, entry });
        self.used += 1;
    }

    /// Puts `slot` in the first free slot from its hash's (which exists).
    fn place(&mut self, slot: Slot) {
        let mask = self.slots.len() - 1;
        let mut i = slot.hash as usize & mask;
        while !self.slots[i].is_empty() {
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
    }

    /// Doubles the slots and places every used one again.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(Self::MIN_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![Slot::EMPTY; size]);
        for s in old.into_iter().filter(|s| !s.is_empty()) {
            self.place(s);
        }
    }

    /// Removes what is stored under `hash`, moving back the slots after it
    /// that probing would otherwise no longer reach.
    fn unset(&mut self, hash: u64) {
        let Some(mut hole) = self.position(hash) else {
            return;
        };
        let mask = self.slots.len() - 1;
        let mut i = hole;
        loop {
            i = (i + 1) & mask;
            let s = self.slots[i];
            if s.is_empty() {
                break;
            }
            // `s` may fill the hole when the hole lies on its probe path
            // (from its home slot to `i`).
            let home = s.hash as usize & mask;
            if i.wrapping_sub(home) & mask >= i.wrapping_sub(hole) & mask {
                self.slots[hole] = s;
                hole = i;
            }
        }
        self.slots[hole] = Slot::EMPTY;
        self.used -= 1;
    }
}

/// Entries grouped by mask vector.
#[derive(Clone, Debug, Default)]
struct Group {
    masks: Vec<Bits>,
    /// `masks` as words, one per key field (narrow tables only).
    word_masks: Vec<u64>,
    /// The first of `word_masks` (0 if none): the mask of a one-field table.
    first_mask: u64,
    /// Hash of the masked key -> the best entry with that hash (most
    /// hashes have one entry, found in one probe).
    first: Buckets,
    /// Hash of the masked key -> its entries, best first, for the hashes
    /// that have more than one.
    more: HashMap<u64, Vec<u32>, PreHashed>,
    /// The best priority in the group, so probing can stop early.
    best: i64,
}

impl Group {
    /// Adds entry `idx`, whose masked key hashes to `hash`, after the
    /// entries with that hash that beat it (`order`: each entry's rank and
    /// insertion number).
    fn add(&mut self, hash: u64, idx: u32, order: &[(i64, u64)]) {
        let Some(first) = self.first.get(hash) else {
            self.first.set(hash, idx);
            return;
        };
        let list = self.more.entry(hash).or_insert_with(|| vec![first]);
        list.push(idx);
        list.sort_by(|&a, &b| precedence(order[a as usize], order[b as usize]));
        self.first.set(hash, list[0]);
    }

    /// Removes entry `idx`, whose masked key hashes to `hash`.
    fn remove(&mut self, hash: u64, idx: u32) {
        let Some(list) = self.more.get_mut(&hash) else {
            if self.first.get(hash) == Some(idx) {
                self.first.unset(hash);
            }
            return;
        };
        list.retain(|&i| i != idx);
        match *list.as_slice() {
            [] => {
                self.first.unset(hash);
                self.more.remove(&hash);
            }
            [only] => {
                self.first.set(hash, only);
                self.more.remove(&hash);
            }
            [best, ..] => {
                self.first.set(hash, best);
            }
        }
    }

    /// The first entry with hash `hash` that `hit` accepts: the best such.
    #[inline]
    fn find(&self, hash: u64, hit: impl Fn(u32) -> bool) -> Option<u32> {
        let first = self.first.get(hash)?;
        if hit(first) {
            return Some(first);
        }
        if self.more.is_empty() {
            return None;
        }
        self.find_more(hash, hit)
    }

    /// The entries after the first with hash `hash` (hashes shared by
    /// several masked keys): the first `hit` accepts.
    #[cold]
    fn find_more(&self, hash: u64, hit: impl Fn(u32) -> bool) -> Option<u32> {
        let rest = self.more.get(&hash)?;
        rest.iter().skip(1).copied().find(|&i| hit(i))
    }
}

/// How an entry with a range field tests key field `field` of a narrow
/// table: the field matches when `lo <= (key & mask) ^ flip <= lo + span`, that is
/// when `((key & mask) ^ flip) - lo`, wrapping, is at most `span`. `flip`
/// is the sign bit of a signed range field (it turns signed order into
/// unsigned order) and 0 otherwise; a value or masked field has `span` 0.
///
/// An entry's tests are adjacent in [`TableState::range_tests`]; each
/// knows the entry and how far the next entry's tests are (`skip`, 1 for
/// the entry's last test), so a failed test jumps to the next entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FieldTest {
    field: u32,
    skip: u32,
    entry: u32,
    mask: u64,
    flip: u64,
    lo: u64,
    span: u64,
}

impl FieldTest {
    /// A test no key passes (a value whose signedness differs from the
    /// key's, which [`Bits`] equality never accepts).
    const NEVER: FieldTest = FieldTest {
        field: 0,
        skip: 1,
        entry: 0,
        mask: 0,
        flip: 0,
        lo: 1,
        span: 0,
    };

    /// A test every key passes (an entry whose fields are all `_`).
    const ALWAYS: FieldTest = FieldTest {
        lo: 0,
        ..FieldTest::NEVER
    };

    /// The test of `key & mask == value` (`value` already masked).
    fn masked(mask: u64, value: u64) -> FieldTest {
        FieldTest {
            mask,
            lo: value,
            ..FieldTest::ALWAYS
        }
    }

    /// The test of `lo <= key ^ flip <= hi` for a field of `ones` bits
    /// (`lo` and `hi` already flipped).
    fn range(ones: u64, flip: u64, lo: u64, hi: u64) -> FieldTest {
        if lo > hi {
            return FieldTest::NEVER;
        }
        FieldTest {
            mask: ones,
            flip,
            lo,
            span: hi - lo,
            ..FieldTest::ALWAYS
        }
    }

    /// Whether every value of a field of `ones` bits passes (a `_`), so
    /// that lookups can skip the test.
    fn always(&self, ones: u64) -> bool {
        if self.mask == 0 {
            return self.passes(0);
        }
        self.mask == ones && self.lo == 0 && self.span >= ones
    }

    /// Roughly how many bits of the field the test pins (minus log2 of the
    /// share of values that pass), so that an entry tries its most
    /// selective tests first.
    fn pinned_bits(&self) -> u32 {
        if self.mask == 0 {
            return if self.passes(0) { 0 } else { u32::MAX };
        }
        let spanned = u64::BITS - self.span.leading_zeros();
        self.mask.count_ones().saturating_sub(spanned)
    }

    /// Whether the key field `k` passes.
    #[inline]
    fn passes(&self, k: u64) -> bool {
        ((k & self.mask) ^ self.flip).wrapping_sub(self.lo) <= self.span
    }
}

/// The entry of the first run of an entry's `tests` that key words `key`
/// all pass.
#[inline(never)]
fn first_passing(tests: &[FieldTest], key: &[u64]) -> Option<u32> {
    let mut i = 0;
    while let Some(t) = tests.get(i) {
        if key.get(t.field as usize).is_some_and(|&k| t.passes(k)) {
            if t.skip == 1 {
                return Some(t.entry);
            }
            i += 1;
        } else {
            i += t.skip as usize;
        }
    }
    None
}

/// A table's entries and its lookup structure.
#[derive(Clone, Debug)]
pub struct TableState {
    pub keys: Vec<KeySpec>,
    /// Whether a direct counter counts each entry's hits (packets, bytes).
    pub direct_counter: bool,
    /// Whether the table keeps each entry's last-hit time, for idle
    /// timeouts (`support_timeout = true`).
    pub idle_timeout: bool,
    /// The last hit of each entry (microseconds on the pipeline's clock;
    /// 0: not hit since it was added).
    last_hit: Vec<std::cell::Cell<u64>>,
    /// The action profile or selector the table's entries may point into
    /// (a slot of [`crate::env::Env::profiles`]), for tables with an
    /// `implementation`.
    pub profile: Option<u32>,
    /// Whether the architecture hears of every hit, before the entry's
    /// action runs ([`crate::externs::ExternHandler::table_hit`]).
    pub hit_hook: bool,
    /// What each entry points to in the profile; `None` for an entry
    /// holding its own action.
    targets: Vec<Option<crate::profile::Target>>,
    /// Whether an entry was ever made to point into a profile (cleared
    /// only by a new table): while false, every target is `None`.
    indirect: bool,
    /// Hits of each entry, by entry index (kept while the table is shared
    /// read-only with a running packet).
    counts: Vec<std::cell::Cell<(u64, u64)>>,
    pub max_size: usize,
    /// The action (index in the table's list) and control-plane arguments
    /// run on a miss; `None` runs nothing.
    pub default: Option<(usize, Vec<Bits>)>,
    entries: Vec<Option<Entry>>,
    /// Each entry's key values under its masks (empty for entries with a
    /// range), compared word by word when a lookup probes its group.
    masked: Vec<Vec<Bits>>,
    /// Whether every key field has 1 to 64 bits: the table then keeps the
    /// word forms below and answers [`TableState::lookup_words`].
    narrow: bool,
    /// `masked` as words, one per key field, entry after entry (`index *
    /// keys.len() + field`); zeros for entries with a range. Narrow tables
    /// only.
    masked_words: Vec<u64>,
    /// Rank and insertion number of each entry: a larger rank wins, then
    /// the earlier insertion.
    order: Vec<(i64, u64)>,
    next_order: u64,
    groups: Vec<Group>,
    /// Entries with a range field, best first, each with the index of its
    /// first word test in `range_tests`.
    ranges: Vec<(u32, u32)>,
    /// The word tests of `ranges` (narrow tables only): one per key field
    /// that is not a `_` (or one [`FieldTest::ALWAYS`] when all are), the
    /// most selective first, entry after entry, in the order of `ranges`.
    range_tests: Vec<FieldTest>,
    /// Hash of an entry's key (and priority) -> entry indexes, so that
    /// insert, modify and remove find an entry without a scan.
    by_key: HashMap<u64, Vec<u32>, PreHashed>,
    /// Slots of removed entries, reused by later inserts.
    free: Vec<u32>,
    /// Number of entries.
    live: usize,
    /// Whether the keys include ternary, range or optional fields: entries
    /// then rank by priority, else by total prefix length.
    uses_priority: bool,
    /// How [`TableState::lookup_words`] looks keys up.
    plan: WordPlan,
    seed: Seed,
}

impl TableState {
    pub fn new(keys: Vec<KeySpec>, max_size: usize) -> TableState {
        let uses_priority = keys.iter().any(|k| {
            matches!(
                k.kind,
                MatchKind::Ternary | MatchKind::Range | MatchKind::Optional
            )
        });
        let narrow = keys.iter().all(|k| (1..=64).contains(&k.width));
        TableState {
            keys,
            narrow,
            masked_words: Vec::new(),
            idle_timeout: false,
            last_hit: Vec::new(),
            profile: None,
            hit_hook: false,
            targets: Vec::new(),
            indirect: false,
            by_key: HashMap::default(),
            free: Vec::new(),
            live: 0,
            uses_priority,
            plan: WordPlan::Miss,
            direct_counter: false,
            counts: Vec::new(),
            max_size,
            default: None,
            entries: Vec::new(),
            masked: Vec::new(),
            order: Vec::new(),
            next_order: 0,
            groups: Vec::new(),
            ranges: Vec::new(),
            range_tests: Vec::new(),
            seed: Seed::new(),
        }
    }

    /// An empty table shaped as the IR declares it: its key fields, size
    /// (1024 when not given; per instance when computed from constructor
    /// parameters), and its default action: `default_action`, or
    /// `NoAction` when the table lists it and gives none.
    pub fn from_ir(
        p: &janus_p4::ir::Program,
        t: &janus_p4::ir::Table,
    ) -> Result<TableState, crate::eval::CompileError> {
        use crate::eval::{CompileError, constant, scalar_shape};
        let mut keys = Vec::with_capacity(t.keys.len());
        for k in &t.keys {
            if k.match_kind == "selector" {
                continue;
            }
            let kind = MatchKind::from_p4(&k.match_kind)
                .ok_or(CompileError::Unsupported("this match kind"))?;
            let (width, signed) = scalar_shape(&p.types, k.expr.ty)
                .ok_or(CompileError::Unsupported("a composite table key"))?;
            keys.push(KeySpec {
                kind,
                width,
                signed,
            });
        }
        // A `size` over constructor parameters was folded per instance
        // (`lower`); one still open did not fold.
        if t.size.is_none() && t.size_expr.is_some() {
            return Err(CompileError::Unsupported(
                "a table size that does not fold to a constant",
            ));
        }
        let mut table = TableState::new(keys, t.size.unwrap_or(1024) as usize);
        table.direct_counter = t.direct_counter.is_some();
        table.idle_timeout = t.support_timeout;
        let listed = |a: janus_p4::ir::ActionId| t.actions.iter().position(|x| x.action == a);
        table.default = match &t.default_action {
            Some(call) => {
                let index = listed(call.action).ok_or(CompileError::Unsupported(
                    "a default action missing from the list",
                ))?;
                let params = &p.actions[call.action.0 as usize].params;
                let mut args = Vec::new();
                for (param, arg) in params.iter().zip(&call.args) {
                    if param.direction != janus_p4::ir::Direction::None {
                        continue;
                    }
                    let value = match arg.as_ref().map(|a| &a.kind) {
                        Some(janus_p4::ir::ExprKind::Const(v)) => constant(&p.types, param.ty, v),
                        _ => None,
                    };
                    args.push(value.ok_or(CompileError::Unsupported(
                        "a default action argument that is not a constant",
                    ))?);
                }
                Some((index, args))
            }
            None => t
                .actions
                .iter()
                .position(|x| p.actions[x.action.0 as usize].name == "NoAction")
                .map(|i| (i, Vec::new())),
        };
        let priorities = entry_priorities(t);
        for (e, priority) in t.entries.iter().zip(priorities) {
            let key = e
                .keys
                .iter()
                .zip(&table.keys)
                .map(|(k, spec)| entry_field(p, k, spec))
                .collect::<Result<Vec<_>, _>>()?;
            let index = listed(e.action.action).ok_or(CompileError::Unsupported(
                "an entry action missing from the list",
            ))?;
            let params = &p.actions[e.action.action.0 as usize].params;
            let mut args = Vec::new();
            for (param, arg) in params.iter().zip(&e.action.args) {
                if param.direction != janus_p4::ir::Direction::None {
                    continue;
                }
                let value = match arg.as_ref().map(|a| &a.kind) {
                    Some(janus_p4::ir::ExprKind::Const(v)) => constant(&p.types, param.ty, v),
                    _ => None,
                };
                args.push(value.ok_or(CompileError::Unsupported(
                    "an entry argument that is not a constant",
                ))?);
            }
            // Duplicates in a program's entries: the first one stands.
            let _ = table.insert(Entry {
                key,
                priority,
                action: index,
                args,
            });
        }
        Ok(table)
    }

    /// The members of a parser `value_set<T>(size)`, kept as a table: one
    /// ternary key per field of `T` (or one for a scalar `T`), so members
    /// may be values or value/mask pairs; a select case on the set matches
    /// when a member matches every key.
    pub fn for_value_set(
        p: &janus_p4::ir::Program,
        vs: &janus_p4::ir::ValueSet,
    ) -> Result<TableState, crate::eval::CompileError> {
        use crate::eval::{CompileError, scalar_shape};
        let fields: Vec<janus_p4::types::TyId> = match p.types.struct_info(vs.elem) {
            Some(info) => info.fields.iter().map(|f| f.ty).collect(),
            None => vec![vs.elem],
        };
        let keys = fields
            .into_iter()
            .map(|ty| {
                let (width, signed) = scalar_shape(&p.types, ty).ok_or(
                    CompileError::Unsupported("a value set of nested composites"),
                )?;
                Ok(KeySpec {
                    kind: MatchKind::Ternary,
                    width,
                    signed,
                })
            })
            .collect::<Result<Vec<_>, CompileError>>()?;
        Ok(TableState::new(keys, vs.size as usize))
    }

    /// Whether every key field has 1 to 64 bits, so that
    /// [`TableState::lookup_words`] serves lookups.
    pub fn is_narrow(&self) -> bool {
        self.narrow
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.live
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().flatten()
    }

    fn all_ones(width: u32, signed: bool) -> Bits {
        Bits::zero(width, signed).not()
    }

    /// The mask and value a field contributes to hashing; `None` for a range.
    fn mask_of(&self, i: usize, f: &FieldMatch) -> Result<Option<(Bits, Bits)>, TableError> {
        let spec = &self.keys[i];
        let (w, s) = (spec.width, spec.signed);
        let check = |b: &Bits| {
            if b.width() != w {
                Err(TableError::BadField {
                    field: i,
                    why: format!("{}-bit value for a {w}-bit field", b.width()),
                })
            } else {
                Ok(())
            }
        };
        Ok(Some(match (spec.kind, f) {
            (MatchKind::Exact, FieldMatch::Exact(v)) => {
                check(v)?;
                (Self::all_ones(w, s), v.clone())
            }
            // `_` for an exact key in a program's entries.
            (MatchKind::Exact, FieldMatch::Ternary { value, mask }) if mask.is_zero() => {
                check(value)?;
                (mask.clone(), Bits::zero(w, s))
            }
            (MatchKind::Lpm, FieldMatch::Lpm { value, len }) => {
                check(value)?;
                if *len > w {
                    return Err(TableError::BadField {
                        field: i,
                        why: format!("prefix length {len} > width {w}"),
                    });
                }
                let mask = if *len == 0 {
                    Bits::zero(w, s)
                } else {
                    Self::all_ones(w, s).shl((w - len) as u64)
                };
                (mask.clone(), value.and(&mask))
            }
            (MatchKind::Ternary, FieldMatch::Ternary { value, mask }) => {
                check(value)?;
                check(mask)?;
                (mask.clone(), value.and(mask))
            }
            (MatchKind::Optional, FieldMatch::Optional(v)) => match v {
                Some(v) => {
                    check(v)?;
                    (Self::all_ones(w, s), v.clone())
                }
                None => (Bits::zero(w, s), Bits::zero(w, s)),
            },
            (MatchKind::Range, FieldMatch::Range { lo, hi }) => {
                check(lo)?;
                check(hi)?;
                return Ok(None);
            }
            (kind, _) => {
                return Err(TableError::BadField {
                    field: i,
                    why: format!("not a {kind:?} match"),
                });
            }
        }))
    }

    /// Effective priority: LPM-only tables rank by prefix length.
    fn rank(&self, e: &Entry) -> i64 {
        if self.uses_priority {
            return e.priority;
        }
        e.key
            .iter()
            .map(|f| match f {
                FieldMatch::Lpm { len, .. } => *len as i64,
                _ => 0,
            })
            .sum()
    }

    fn hash_masked<'b>(&self, values: impl Iterator<Item = &'b Bits>) -> u64 {
        values
            .flat_map(Bits::words)
            .fold(self.seed.mix(), |h, &w| h.word(w))
            .finish()
    }

    /// The hash of key words `key` under a group's word `masks`: equal to
    /// [`TableState::hash_masked`] of the masked values.
    #[inline]
    fn hash_masked_words(&self, key: &[u64], masks: &[u64]) -> u64 {
        key.iter()
            .zip(masks)
            .fold(self.seed.mix(), |h, (k, m)| h.word(k & m))
            .finish()
    }

    /// Adds an entry. Exact-match tables refuse a second entry with the
    /// same key; other tables refuse an identical key and priority.
    pub fn insert(&mut self, e: Entry) -> Result<(), TableError> {
        self.insert_slot(e).map(|_| ())
    }

    /// Adds an entry (see [`TableState::insert`]) and gives its index.
    fn insert_slot(&mut self, e: Entry) -> Result<u32, TableError> {
        let idx = self.add_entry(e)?;
        self.plan = self.word_plan();
        Ok(idx)
    }

    /// Adds an entry pointing to a member or group of the table's profile.
    pub fn insert_indirect(
        &mut self,
        key: Vec<FieldMatch>,
        priority: i64,
        target: crate::profile::Target,
    ) -> Result<(), TableError> {
        let e = Entry {
            key,
            priority,
            action: usize::MAX,
            args: Vec::new(),
        };
        let slot = self.insert_slot(e)?;
        self.targets[slot as usize] = Some(target);
        self.indirect = true;
        Ok(())
    }

    /// Points the entry with this key at another member or group.
    pub fn modify_indirect(
        &mut self,
        key: &[FieldMatch],
        priority: i64,
        target: crate::profile::Target,
    ) -> Result<(), TableError> {
        let idx = self.find(key, priority).ok_or(TableError::NotFound)?;
        self.targets[idx] = Some(target);
        self.indirect = true;
        Ok(())
    }

    /// Whether every entry holds its own action: the table has no action
    /// profile and no entry ever pointed into one, so
    /// [`TableState::target`] is `None` for every entry.
    #[inline]
    pub fn is_direct(&self) -> bool {
        self.profile.is_none() && !self.indirect
    }

    /// The member or group entry `index` points to, if it is indirect.
    pub fn target(&self, index: u32) -> Option<crate::profile::Target> {
        self.targets.get(index as usize).copied().flatten()
    }

    /// [`TableState::insert_slot`] but for the lookup plan.
    fn add_entry(&mut self, e: Entry) -> Result<u32, TableError> {
        if e.key.len() != self.keys.len() {
            return Err(TableError::KeyCount {
                got: e.key.len(),
                want: self.keys.len(),
            });
        }
        if self.len() >= self.max_size {
            return Err(TableError::Full(self.max_size));
        }
        if self.find(&e.key, e.priority).is_some() {
            return Err(TableError::Duplicate);
        }
        let mut masks = Vec::with_capacity(e.key.len());
        let mut masked = Vec::with_capacity(e.key.len());
        let mut has_range = false;
        for (i, f) in e.key.iter().enumerate() {
            match self.mask_of(i, f)? {
                Some((m, v)) => {
                    masks.push(m);
                    masked.push(v);
                }
                None => has_range = true,
            }
        }
        let rank = self.rank(&e);
        let key_hash = self.key_hash(&e.key, e.priority);
        let order = (rank, self.next_order);
        self.next_order += 1;
        let tests = if has_range {
            self.field_tests(&e.key)
        } else {
            Vec::new()
        };
        let idx = match self.free.pop() {
            Some(idx) => {
                self.entries[idx as usize] = Some(e);
                self.masked[idx as usize] = masked.clone();
                self.targets[idx as usize] = None;
                self.last_hit[idx as usize] = Default::default();
                self.counts[idx as usize] = Default::default();
                self.order[idx as usize] = order;
                idx
            }
            None => {
                self.entries.push(Some(e));
                self.masked.push(masked.clone());
                self.targets.push(None);
                self.last_hit.push(Default::default());
                self.counts.push(Default::default());
                self.order.push(order);
                (self.entries.len() - 1) as u32
            }
        };
        self.live += 1;
        self.store_masked_words(idx, &masked);
        self.by_key.entry(key_hash).or_default().push(idx);
        if has_range {
            self.add_range(idx, tests);
            return Ok(idx);
        }
        let hash = self.hash_masked(masked.iter());
        let g = match self.groups.iter().position(|g| g.masks == masks) {
            Some(g) => g,
            None => {
                let word_masks: Vec<u64> = if self.narrow {
                    masks.iter().map(Bits::as_u64_truncated).collect()
                } else {
                    Vec::new()
                };
                self.groups.push(Group {
                    first_mask: word_masks.first().copied().unwrap_or(0),
                    word_masks,
                    masks,
                    best: i64::MIN,
                    ..Group::default()
                });
                self.groups.len() - 1
            }
        };
        let group = &mut self.groups[g];
        group.best = group.best.max(rank);
        group.add(hash, idx, &self.order);
        self.groups.sort_by_key(|g| std::cmp::Reverse(g.best));
        Ok(idx)
    }

    /// How [`TableState::lookup_words`] looks keys up in the table as it
    /// now is.
    fn word_plan(&self) -> WordPlan {
        // Without priorities, a group's entries rank as its mask vector does.
        let first_hit_wins = self.groups.len() == 1
            || !self.uses_priority && self.groups.windows(2).all(|w| w[0].best != w[1].best);
        match () {
            _ if self.live == 0 || !self.narrow => WordPlan::Miss,
            _ if self.groups.is_empty() => WordPlan::Ranges,
            _ if !self.ranges.is_empty() || !first_hit_wins => WordPlan::Best,
            _ if self.keys.len() == 1 => WordPlan::FirstHitOne,
            _ => WordPlan::FirstHit,
        }
    }

    /// Keeps entry `idx`'s masked key values as words (narrow tables): one
    /// per key field, zeros for an entry with a range (which `masked`
    /// leaves short).
    fn store_masked_words(&mut self, idx: u32, masked: &[Bits]) {
        if !self.narrow {
            return;
        }
        let n = self.keys.len();
        let start = idx as usize * n;
        if self.masked_words.len() < start + n {
            self.masked_words.resize(start + n, 0);
        }
        for (f, w) in self.masked_words[start..start + n].iter_mut().enumerate() {
            *w = masked.get(f).map_or(0, Bits::as_u64_truncated);
        }
    }

    /// Adds entry `index`, which has a range field, with its word `tests`
    /// to `ranges`, after the entries that beat it (so best first).
    fn add_range(&mut self, index: u32, mut tests: Vec<FieldTest>) {
        for t in &mut tests {
            t.entry = index;
        }
        let at = self.ranges_beating(self.order[index as usize]);
        let start = self.range_tests_before(at);
        let n = tests.len() as u32;
        self.ranges.insert(at, (index, start as u32));
        for r in &mut self.ranges[at + 1..] {
            r.1 += n;
        }
        self.range_tests.splice(start..start, tests);
    }

    /// Removes entry `index` from `ranges`, with its word tests.
    fn remove_range(&mut self, index: u32) {
        let Some(at) = self.ranges.iter().position(|&(r, _)| r == index) else {
            return;
        };
        let start = self.range_tests_before(at);
        let end = self.range_tests_before(at + 1);
        self.ranges.remove(at);
        for r in &mut self.ranges[at..] {
            r.1 -= (end - start) as u32;
        }
        self.range_tests.drain(start..end);
    }

    /// The number of entries of `ranges` that beat an entry of rank and
    /// insertion number `order`.
    fn ranges_beating(&self, order: (i64, u64)) -> usize {
        self.ranges
            .partition_point(|&(r, _)| precedence(self.order[r as usize], order) == Ordering::Less)
    }

    /// The number of word tests of the first `at` entries of `ranges`.
    fn range_tests_before(&self, at: usize) -> usize {
        self.ranges
            .get(at)
            .map_or(self.range_tests.len(), |&(_, start)| start as usize)
    }

    /// The word tests of an entry with a range field (narrow tables; none
    /// otherwise), accepting what [`TableState::matches`] accepts for keys
    /// of the table's types: one per key field that is not a `_` (or one
    /// that always passes), the most selective first, each with its
    /// `skip` (the entry is set by [`TableState::add_range`]).
    fn field_tests(&self, key: &[FieldMatch]) -> Vec<FieldTest> {
        if !self.narrow {
            return Vec::new();
        }
        let tests = key.iter().zip(&self.keys).enumerate();
        let mut tests: Vec<FieldTest> = tests
            .map(|(field, (f, spec))| FieldTest {
                field: field as u32,
                ..Self::field_test(f, spec)
            })
            .filter(|t| !t.always(u64::MAX >> (64 - self.keys[t.field as usize].width)))
            .collect();
        if tests.is_empty() {
            tests.push(FieldTest::ALWAYS);
        }
        tests.sort_by_key(|t| std::cmp::Reverse(t.pinned_bits()));
        let n = tests.len();
        for (i, t) in tests.iter_mut().enumerate() {
            t.skip = (n - i) as u32;
        }
        tests
    }

    /// The word test of one field (of at most 64 bits) of a range entry.
    fn field_test(f: &FieldMatch, spec: &KeySpec) -> FieldTest {
        let w = spec.width;
        let ones = u64::MAX >> (64 - w);
        // Equality with a value, as `Bits` equality: the types must agree.
        let equal = |v: &Bits| {
            if v.is_signed() == spec.signed {
                FieldTest::masked(ones, v.as_u64_truncated())
            } else {
                FieldTest::NEVER
            }
        };
        match f {
            FieldMatch::Exact(v) | FieldMatch::Optional(Some(v)) => equal(v),
            FieldMatch::Optional(None) => FieldTest::masked(0, 0),
            FieldMatch::Ternary { value, mask } => {
                let m = mask.as_u64_truncated();
                FieldTest::masked(m, value.as_u64_truncated() & m)
            }
            FieldMatch::Lpm { value, len } => {
                let m = match w.checked_sub(*len) {
                    Some(shift) if *len > 0 => ones >> shift << shift,
                    _ => 0,
                };
                FieldTest::masked(m, value.as_u64_truncated() & m)
            }
            FieldMatch::Range { lo, hi } => {
                let flip = if spec.signed { 1u64 << (w - 1) } else { 0 };
                FieldTest::range(
                    ones,
                    flip,
                    lo.as_u64_truncated() ^ flip,
                    hi.as_u64_truncated() ^ flip,
                )
            }
        }
    }

    /// The index of the entry with exactly this key (and priority).
    fn find(&self, key: &[FieldMatch], priority: i64) -> Option<usize> {
        let bucket = self.by_key.get(&self.key_hash(key, priority))?;
        bucket.iter().map(|&i| i as usize).find(|&i| {
            self.entries[i]
                .as_ref()
                .is_some_and(|e| e.key == key && (!self.uses_priority || e.priority == priority))
        })
    }

    /// The identity of an entry for [`TableState::find`]: its key fields,
    /// and its priority when the table uses priorities.
    fn key_hash(&self, key: &[FieldMatch], priority: i64) -> u64 {
        let mut h = self.seed.mix();
        if self.uses_priority {
            h = h.word(priority as u64);
        }
        for f in key {
            let (a, b) = match f {
                FieldMatch::Exact(v) | FieldMatch::Optional(Some(v)) => (Some(v), None),
                FieldMatch::Lpm { value, len } => {
                    h = h.word(u64::from(*len));
                    (Some(value), None)
                }
                FieldMatch::Ternary { value: a, mask: b } | FieldMatch::Range { lo: a, hi: b } => {
                    (Some(a), Some(b))
                }
                FieldMatch::Optional(None) => (None, None),
            };
            for w in a.into_iter().chain(b).flat_map(|v| v.words()) {
                h = h.word(*w);
            }
        }
        h.finish()
    }

    /// Removes the entry with this key (and priority, for tables that use one).
    pub fn remove(&mut self, key: &[FieldMatch], priority: i64) -> Result<Entry, TableError> {
        let idx = self.find(key, priority).ok_or(TableError::NotFound)?;
        let e = self.entries[idx].take().ok_or(TableError::NotFound)?;
        let slot = idx as u32;
        if let Some(b) = self.by_key.get_mut(&self.key_hash(&e.key, e.priority)) {
            b.retain(|&i| i != slot);
        }
        let (mut masks, mut masked) = (Vec::new(), Vec::new());
        for (i, f) in e.key.iter().enumerate() {
            if let Ok(Some((m, v))) = self.mask_of(i, f) {
                masks.push(m);
                masked.push(v);
            }
        }
        let hash = self.hash_masked(masked.iter());
        for g in self.groups.iter_mut().filter(|g| g.masks == masks) {
            g.remove(hash, slot);
        }
        self.remove_range(slot);
        self.free.push(slot);
        self.live -= 1;
        self.plan = self.word_plan();
        Ok(e)
    }

    /// Replaces the action of the entry with this key.
    pub fn modify(
        &mut self,
        key: &[FieldMatch],
        priority: i64,
        action: usize,
        args: Vec<Bits>,
    ) -> Result<(), TableError> {
        let idx = self.find(key, priority).ok_or(TableError::NotFound)?;
        let e = self.entries[idx].as_mut().ok_or(TableError::NotFound)?;
        e.action = action;
        e.args = args;
        Ok(())
    }

    /// The best entry matching `key`, if any (the highest priority, then the
    /// earliest added).
    pub fn lookup(&self, key: &[Bits]) -> Option<&Entry> {
        self.lookup_index(key)
            .and_then(|i| self.entries[i as usize].as_ref())
    }

    /// The entry `index` (as [`TableState::lookup_index`] gives it).
    pub fn entry(&self, index: u32) -> Option<&Entry> {
        self.entries.get(index as usize)?.as_ref()
    }

    /// Records a hit of entry `index` by a packet of `bytes` bytes that
    /// arrived at `now_us`: its direct counter, and its last-hit time if
    /// the table supports idle timeouts.
    #[inline(always)]
    pub fn count_hit(&self, index: u32, bytes: u64, now_us: u64) {
        if self.direct_counter || self.idle_timeout {
            self.record_hit(index, bytes, now_us);
        }
    }

    /// [`TableState::count_hit`] for a table that counts or times hits.
    #[inline(never)]
    fn record_hit(&self, index: u32, bytes: u64, now_us: u64) {
        if self.direct_counter
            && let Some(c) = self.counts.get(index as usize)
        {
            let (p, b) = c.get();
            c.set((p + 1, b + bytes));
        }
        if self.idle_timeout
            && let Some(t) = self.last_hit.get(index as usize)
        {
            t.set(now_us.max(1));
        }
    }

    /// Sets entry `index`'s direct-counter packets and bytes (a controller
    /// writing the counter); `false` when the table has no direct counter
    /// or no such entry.
    pub fn set_hit_counts(&self, index: u32, packets: u64, bytes: u64) -> bool {
        if !self.direct_counter || self.entry(index).is_none() {
            return false;
        }
        match self.counts.get(index as usize) {
            Some(c) => {
                c.set((packets, bytes));
                true
            }
            None => false,
        }
    }

    /// When entry `index` was last hit (microseconds on the pipeline's
    /// clock); `None` if it has not been hit since it was added, or the
    /// table does not support idle timeouts.
    pub fn last_hit_us(&self, index: u32) -> Option<u64> {
        self.entries.get(index as usize)?.as_ref()?;
        let t = self.last_hit.get(index as usize)?.get();
        (self.idle_timeout && t > 0).then_some(t)
    }

    /// The index of the entry with this key (and priority), as
    /// [`TableState::lookup_index`] and [`TableState::last_hit_us`] use it.
    pub fn index_of(&self, key: &[FieldMatch], priority: i64) -> Option<u32> {
        self.find(key, priority).map(|i| i as u32)
    }

    /// Every entry with its direct-counter packets and bytes.
    pub fn counted_entries(&self) -> impl Iterator<Item = (&Entry, (u64, u64))> {
        self.entries
            .iter()
            .zip(&self.counts)
            .filter_map(|(e, c)| Some((e.as_ref()?, c.get())))
    }

    /// The index of the best entry matching `key`.
    pub fn lookup_index(&self, key: &[Bits]) -> Option<u32> {
        let best = self.best_in_groups(|g| {
            let hash = self.hash_masked_key(key, &g.masks);
            g.find(hash, |i| self.matches_masked(i, key, &g.masks))
        });
        for &(r, _) in &self.ranges {
            if !self.beats(r, best) {
                break;
            }
            if self.matches(r, key) {
                return Some(r);
            }
        }
        best
    }

    /// [`TableState::lookup_index`] for a key given as words, one per key
    /// field with the bits above the field's width clear: the same entry,
    /// found through the same buckets. `None` also for a table that is not
    /// narrow (see [`TableState::is_narrow`]) or a key of another length.
    #[inline(always)]
    pub fn lookup_words(&self, key: &[u64]) -> Option<u32> {
        if key.len() != self.keys.len() {
            return None;
        }
        match self.plan {
            WordPlan::Miss => None,
            WordPlan::Ranges => first_passing(&self.range_tests, key),
            WordPlan::FirstHitOne => self.first_hit_word(key),
            WordPlan::FirstHit => self.first_hit_words(key),
            WordPlan::Best => self.best_words(key),
        }
    }

    /// The best entry for key words `key` in the groups and the ranges.
    #[inline(never)]
    fn best_words(&self, key: &[u64]) -> Option<u32> {
        self.best_range_words(key, self.best_in_groups(|g| self.probe_words(g, key)))
    }

    /// The entry the first group (best first) with a match for key words
    /// `key` holds ([`WordPlan::FirstHit`]).
    #[inline(never)]
    fn first_hit_words(&self, key: &[u64]) -> Option<u32> {
        self.groups.iter().find_map(|g| self.probe_words(g, key))
    }

    /// [`TableState::first_hit_words`] for a one-word key.
    #[inline(never)]
    fn first_hit_word(&self, key: &[u64]) -> Option<u32> {
        let &[k] = key else { return None };
        self.groups.iter().find_map(|g| self.probe_word(g, k))
    }

    /// The best entry of group `g` of a one-field table matching key word
    /// `k`: one masked word, hashed and compared with the entry's.
    #[inline(always)]
    fn probe_word(&self, g: &Group, k: u64) -> Option<u32> {
        let v = k & g.first_mask;
        let hash = self.seed.mix().word(v).finish();
        g.find(hash, |i| self.masked_words.get(i as usize) == Some(&v))
    }

    /// The best entry of group `g` matching key words `key`.
    #[inline(always)]
    fn probe_words(&self, g: &Group, key: &[u64]) -> Option<u32> {
        let hash = self.hash_masked_words(key, &g.word_masks);
        g.find(hash, |i| self.matches_words(i, key, &g.word_masks))
    }

    /// The best entry that `probe` finds in a group, probing the groups
    /// best first and stopping at a group that cannot beat the best so far
    /// (with LPM, the longest prefix that matches wins at once).
    #[inline]
    fn best_in_groups(&self, probe: impl Fn(&Group) -> Option<u32>) -> Option<u32> {
        let mut best: Option<(u32, (i64, u64))> = None;
        for g in &self.groups {
            if best.is_some_and(|(_, (rank, _))| rank > g.best) {
                break;
            }
            let Some(i) = probe(g) else { continue };
            let o = self.order[i as usize];
            if best.is_none_or(|(_, b)| precedence(o, b) == Ordering::Less) {
                best = Some((i, o));
            }
        }
        best.map(|(i, _)| i)
    }

    /// The first entry of `ranges` (so the best) that beats `best` and
    /// whose word tests key words `key` pass; else `best`.
    #[inline]
    fn best_range_words(&self, key: &[u64], best: Option<u32>) -> Option<u32> {
        let end = match best {
            None => self.range_tests.len(),
            Some(b) => self.range_tests_before(self.ranges_beating(self.order[b as usize])),
        };
        match self.range_tests.get(..end) {
            Some(tests) if !tests.is_empty() => first_passing(tests, key).or(best),
            _ => best,
        }
    }

    /// Whether entry `cand` wins over the best entry so far.
    #[inline]
    fn beats(&self, cand: u32, best: Option<u32>) -> bool {
        best.is_none_or(|b| {
            precedence(self.order[cand as usize], self.order[b as usize]) == Ordering::Less
        })
    }

    /// [`TableState::matches_masked`] on words: every key word under its
    /// mask equals entry `i`'s masked word.
    #[inline]
    fn matches_words(&self, i: u32, key: &[u64], masks: &[u64]) -> bool {
        let n = key.len();
        let start = i as usize * n;
        self.masked_words
            .get(start..start + n)
            .is_some_and(|v| key.iter().zip(masks).zip(v).all(|((k, m), v)| k & m == *v))
    }

    fn hash_masked_key(&self, key: &[Bits], masks: &[Bits]) -> u64 {
        let mut h = self.seed.mix();
        let mut m = masks.iter();
        for (k, spec) in key.iter().zip(&self.keys) {
            if spec.kind == MatchKind::Range {
                continue;
            }
            let Some(mask) = m.next() else { break };
            for (kw, mw) in k.words().iter().zip(mask.words()) {
                h = h.word(kw & mw);
            }
        }
        h.finish()
    }

    /// Whether entry `i` of a group with `masks` matches `key`: every key
    /// field under its mask equals the entry's masked value.
    fn matches_masked(&self, i: u32, key: &[Bits], masks: &[Bits]) -> bool {
        let masked = &self.masked[i as usize];
        key.len() == masked.len()
            && key.iter().zip(masks).zip(masked).all(|((k, m), v)| {
                k.words()
                    .iter()
                    .zip(m.words())
                    .zip(v.words())
                    .all(|((k, m), v)| k & m == *v)
            })
    }

    fn matches(&self, i: u32, key: &[Bits]) -> bool {
        let Some(e) = &self.entries[i as usize] else {
            return false;
        };
        e.key
            .iter()
            .zip(key)
            .enumerate()
            .all(|(f, (m, k))| match m {
                FieldMatch::Exact(v) => k == v,
                FieldMatch::Ternary { value, mask } => k
                    .words()
                    .iter()
                    .zip(value.words())
                    .zip(mask.words())
                    .all(|((k, v), m)| k & m == v & m),
                FieldMatch::Lpm { value, len } => {
                    let w = self.keys[f].width;
                    match (k.words(), value.words()) {
                        _ if *len == 0 => true,
                        (&[k], &[v]) => k >> (w - len) == v >> (w - len),
                        _ => k.shr((w - len) as u64) == value.shr((w - len) as u64),
                    }
                }
                FieldMatch::Range { lo, hi } => {
                    k.compare(lo) != Ordering::Less && k.compare(hi) != Ordering::Greater
                }
                FieldMatch::Optional(v) => v.as_ref().is_none_or(|v| k == v),
            })
    }
}

/// The priority of each of a program's `entries`, larger winning (P4_16,
/// "Entry priorities"): with none written, the first entry wins; else an
/// entry without one takes the previous entry's minus `priority_delta`
/// (plus, with `largest_priority_wins = false`), and with
/// `largest_priority_wins = false` the smaller number wins, so priorities
/// are negated. Equal priorities: the earlier entry wins.
///
/// Entries given `@priority(N)` and no `priority = N:` (the only way to
/// rank `const entries` in p4c) rank as bmv2 ranks the entries p4c writes
/// into its JSON: the annotation's number, else the entry's position
/// (1, 2, ...), the smaller number winning; `largest_priority_wins` and
/// `priority_delta` do not apply to them (p4c leaves `const entries`
/// alone).
fn entry_priorities(t: &janus_p4::ir::Table) -> Vec<i64> {
    let to_i64 = |v: &Option<num_bigint::BigInt>| v.as_ref().and_then(|v| i64::try_from(v).ok());
    if t.entries.iter().all(|e| e.priority.is_none())
        && t.entries.iter().any(|e| e.priority_annotation.is_some())
    {
        return t
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let bmv2 = to_i64(&e.priority_annotation).unwrap_or(i as i64 + 1);
                bmv2.saturating_neg()
            })
            .collect();
    }
    let written: Vec<Option<i64>> = t
        .entries
        .iter()
        .map(|e| to_i64(&e.priority).or_else(|| to_i64(&e.priority_annotation)))
        .collect();
    let n = written.len() as i64;
    if written.iter().all(Option::is_none) {
        return (0..n).map(|i| n - i).collect();
    }
    let delta = i64::try_from(t.priority_delta).unwrap_or(i64::MAX);
    let mut previous: Option<i64> = None;
    let mut out = Vec::with_capacity(written.len());
    for w in written {
        let p = match (w, previous) {
            (Some(p), _) => p,
            (None, Some(q)) if t.largest_priority_wins => q.saturating_sub(delta),
            (None, Some(q)) => q.saturating_add(delta),
            // The first entry has none though others do (p4c rejects
            // this): it ranks first.
            (None, None) if t.largest_priority_wins => i64::MAX,
            (None, None) => i64::MIN + 1,
        };
        previous = Some(p);
        out.push(if t.largest_priority_wins { p } else { -p });
    }
    out
}

/// One key field of a program-written entry, as its table's match kind reads it.
fn entry_field(
    p: &janus_p4::ir::Program,
    k: &janus_p4::ir::Expr,
    spec: &KeySpec,
) -> Result<FieldMatch, crate::eval::CompileError> {
    use crate::eval::{CompileError, constant};
    use janus_p4::ir::ExprKind;
    let (w, s) = (spec.width, spec.signed);
    let elem = match p.types.get(k.ty) {
        janus_p4::types::Ty::Set(e) => *e,
        _ => k.ty,
    };
    let value = |e: &janus_p4::ir::Expr| match &e.kind {
        ExprKind::Const(v) => constant(&p.types, elem, v)
            .map(|b| b.cast(w, s))
            .ok_or(CompileError::Unsupported("this entry key")),
        _ => Err(CompileError::Unsupported("a run-time entry key")),
    };
    let any = || match spec.kind {
        // `_` in a program's entries matches any value even for an exact
        // key: a ternary field with an empty mask (see `mask_of`).
        MatchKind::Exact | MatchKind::Ternary => Ok(FieldMatch::Ternary {
            value: Bits::zero(w, s),
            mask: Bits::zero(w, s),
        }),
        MatchKind::Lpm => Ok(FieldMatch::Lpm {
            value: Bits::zero(w, s),
            len: 0,
        }),
        MatchKind::Range => Ok(FieldMatch::Range {
            lo: Bits::zero(w, s),
            hi: TableState::all_ones(w, s),
        }),
        MatchKind::Optional => Ok(FieldMatch::Optional(None)),
    };
    match &k.kind {
        ExprKind::Default | ExprKind::DontCare => any(),
        ExprKind::Mask(v, m) => {
            let (v, m) = (value(v)?, value(m)?);
            Ok(match spec.kind {
                MatchKind::Lpm => FieldMatch::Lpm {
                    len: m.words().iter().map(|x| x.count_ones()).sum(),
                    value: v.and(&m),
                },
                _ => FieldMatch::Ternary { value: v, mask: m },
            })
        }
        ExprKind::Range(lo, hi) => Ok(FieldMatch::Range {
            lo: value(lo)?,
            hi: value(hi)?,
        }),
        _ => {
            let v = value(k)?;
            Ok(match spec.kind {
                MatchKind::Exact => FieldMatch::Exact(v),
                MatchKind::Lpm => FieldMatch::Lpm { value: v, len: w },
                MatchKind::Ternary => FieldMatch::Ternary {
                    value: v,
                    mask: TableState::all_ones(w, s),
                },
                MatchKind::Range => FieldMatch::Range {
                    lo: v.clone(),
                    hi: v,
                },
                MatchKind::Optional => FieldMatch::Optional(Some(v)),
            })
        }
    }
}

/// `Less` when `a` beats `b`: larger rank first, then earlier insertion.
fn precedence(a: (i64, u64), b: (i64, u64)) -> Ordering {
    b.0.cmp(&a.0).then(a.1.cmp(&b.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn b(w: u32, v: u64) -> Bits {
        Bits::from_u64(w, false, v)
    }

    fn spec(kinds: &[(MatchKind, u32)]) -> Vec<KeySpec> {
        kinds
            .iter()
            .map(|&(kind, width)| KeySpec {
                kind,
                width,
                signed: false,
            })
            .collect()
    }

    fn entry(key: Vec<FieldMatch>, priority: i64, action: usize) -> Entry {
        Entry {
            key,
            priority,
            action,
            args: Vec::new(),
        }
    }

    #[test]
    fn exact_insert_lookup_duplicate_remove() {
        let mut t = TableState::new(spec(&[(MatchKind::Exact, 32), (MatchKind::Exact, 9)]), 16);
        t.insert(entry(
            vec![
                FieldMatch::Exact(b(32, 0x0a000001)),
                FieldMatch::Exact(b(9, 3)),
            ],
            0,
            1,
        ))
        .unwrap();
        t.insert(entry(
            vec![
                FieldMatch::Exact(b(32, 0x0a000002)),
                FieldMatch::Exact(b(9, 3)),
            ],
            0,
            2,
        ))
        .unwrap();
        assert_eq!(
            t.lookup(&[b(32, 0x0a000002), b(9, 3)]).map(|e| e.action),
            Some(2)
        );
        assert_eq!(t.lookup(&[b(32, 0x0a000002), b(9, 4)]), None);
        let dup = entry(
            vec![
                FieldMatch::Exact(b(32, 0x0a000001)),
                FieldMatch::Exact(b(9, 3)),
            ],
            0,
            5,
        );
        assert_eq!(t.insert(dup.clone()), Err(TableError::Duplicate));
        t.remove(&dup.key, 0).unwrap();
        assert_eq!(t.lookup(&[b(32, 0x0a000001), b(9, 3)]), None);
        assert_eq!(t.remove(&dup.key, 0), Err(TableError::NotFound));
        assert!(matches!(
            t.insert(entry(
                vec![FieldMatch::Exact(b(16, 1)), FieldMatch::Exact(b(9, 3))],
                0,
                1
            )),
            Err(TableError::BadField { .. })
        ));
    }

    #[test]
    fn lpm_longest_prefix_wins_whatever_the_order() {
        let mut t = TableState::new(spec(&[(MatchKind::Lpm, 32)]), 16);
        for (v, len, a) in [
            (0x0a000000u64, 8u32, 1usize),
            (0, 0, 0),
            (0x0a010000, 16, 2),
            (0x0a010100, 24, 3),
        ] {
            t.insert(entry(
                vec![FieldMatch::Lpm {
                    value: b(32, v),
                    len,
                }],
                0,
                a,
            ))
            .unwrap();
        }
        let act = |k: u64| t.lookup(&[b(32, k)]).map(|e| e.action);
        assert_eq!(act(0x0a010105), Some(3));
        assert_eq!(act(0x0a0102ff), Some(2));
        assert_eq!(act(0x0aff0000), Some(1));
        assert_eq!(act(0x0b000000), Some(0));
    }

    #[test]
    fn ternary_priority_and_ties() {
        let mut t = TableState::new(spec(&[(MatchKind::Ternary, 16)]), 16);
        let tern = |v, m| {
            vec![FieldMatch::Ternary {
                value: b(16, v),
                mask: b(16, m),
            }]
        };
        t.insert(entry(tern(0x0800, 0xFFFF), 10, 1)).unwrap();
        t.insert(entry(tern(0x0000, 0x0000), 1, 2)).unwrap();
        t.insert(entry(tern(0x0800, 0xFF00), 10, 3)).unwrap();
        t.insert(entry(tern(0x0800, 0xF000), 20, 4)).unwrap();
        assert_eq!(
            t.lookup(&[b(16, 0x0800)]).map(|e| e.action),
            Some(4),
            "highest priority"
        );
        assert_eq!(t.lookup(&[b(16, 0x1234)]).map(|e| e.action), Some(2));
        t.remove(&tern(0x0800, 0xF000), 20).unwrap();
        assert_eq!(
            t.lookup(&[b(16, 0x0800)]).map(|e| e.action),
            Some(1),
            "equal priority: first added"
        );
    }

    #[test]
    fn range_and_optional() {
        let mut t = TableState::new(
            spec(&[(MatchKind::Range, 16), (MatchKind::Optional, 8)]),
            16,
        );
        t.insert(entry(
            vec![
                FieldMatch::Range {
                    lo: b(16, 1000),
                    hi: b(16, 2000),
                },
                FieldMatch::Optional(None),
            ],
            1,
            1,
        ))
        .unwrap();
        t.insert(entry(
            vec![
                FieldMatch::Range {
                    lo: b(16, 1500),
                    hi: b(16, 1600),
                },
                FieldMatch::Optional(Some(b(8, 6))),
            ],
            2,
            2,
        ))
        .unwrap();
        assert_eq!(t.lookup(&[b(16, 1550), b(8, 6)]).map(|e| e.action), Some(2));
        assert_eq!(
            t.lookup(&[b(16, 1550), b(8, 17)]).map(|e| e.action),
            Some(1)
        );
        assert_eq!(t.lookup(&[b(16, 2001), b(8, 6)]), None);
    }

    #[test]
    fn full_tables_refuse_entries() {
        let mut t = TableState::new(spec(&[(MatchKind::Exact, 8)]), 1);
        t.insert(entry(vec![FieldMatch::Exact(b(8, 1))], 0, 0))
            .unwrap();
        assert_eq!(
            t.insert(entry(vec![FieldMatch::Exact(b(8, 2))], 0, 0)),
            Err(TableError::Full(1))
        );
    }

    /// The reference: scan every entry, keep the best by (rank, insertion).
    fn naive(t: &TableState, entries: &[Entry], key: &[Bits]) -> Option<usize> {
        let mut best: Option<(i64, usize)> = None;
        for (i, e) in entries.iter().enumerate() {
            let hit = e
                .key
                .iter()
                .zip(key)
                .enumerate()
                .all(|(f, (m, k))| match m {
                    FieldMatch::Exact(v) => k == v,
                    FieldMatch::Ternary { value, mask } => k.and(mask) == value.and(mask),
                    FieldMatch::Lpm { value, len } => (0..*len).all(|bit| {
                        k.bit(t.keys[f].width - 1 - bit) == value.bit(t.keys[f].width - 1 - bit)
                    }),
                    FieldMatch::Range { lo, hi } => {
                        k.compare(lo) != Ordering::Less && k.compare(hi) != Ordering::Greater
                    }
                    FieldMatch::Optional(v) => v.as_ref().is_none_or(|v| k == v),
                });
            let rank = t.rank(e);
            if hit && best.is_none_or(|(r, _)| rank > r) {
                best = Some((rank, i));
            }
        }
        best.map(|(_, i)| i)
    }

    fn field(kind: MatchKind, width: u32, signed: bool) -> BoxedStrategy<FieldMatch> {
        let max = (1u64 << width) - 1;
        let v = move |v: u64| Bits::from_u64(width, signed, v);
        match kind {
            MatchKind::Exact => (0..=max).prop_map(move |x| FieldMatch::Exact(v(x))).boxed(),
            MatchKind::Lpm => (0..=max, 0..=width)
                .prop_map(move |(x, len)| FieldMatch::Lpm { value: v(x), len })
                .boxed(),
            MatchKind::Ternary => (0..=max, 0..=max)
                .prop_map(move |(x, m)| FieldMatch::Ternary {
                    value: v(x),
                    mask: v(m),
                })
                .boxed(),
            // Ordered as patterns: for a signed field, some of these ranges
            // are empty.
            MatchKind::Range => (0..=max, 0..=max)
                .prop_map(move |(x, y)| FieldMatch::Range {
                    lo: v(x.min(y)),
                    hi: v(x.max(y)),
                })
                .boxed(),
            MatchKind::Optional => proptest::option::of(0..=max)
                .prop_map(move |x| FieldMatch::Optional(x.map(v)))
                .boxed(),
        }
    }

    /// Key fields: a match kind and signedness each.
    fn kinds() -> impl Strategy<Value = Vec<(MatchKind, bool)>> {
        let kind = prop_oneof![
            Just(MatchKind::Exact),
            Just(MatchKind::Lpm),
            Just(MatchKind::Ternary),
            Just(MatchKind::Range),
            Just(MatchKind::Optional)
        ];
        proptest::collection::vec((kind, any::<bool>()), 1..=3)
    }

    /// A control-plane operation after the first inserts.
    #[derive(Clone, Debug)]
    enum Op {
        Remove(prop::sample::Index),
        Modify(prop::sample::Index, usize),
        Insert(Vec<FieldMatch>, i64, usize),
    }

    const WIDTHS: [u32; 3] = [6, 4, 5];

    type Case = (
        Vec<(MatchKind, bool)>,
        Vec<(Vec<FieldMatch>, i64, usize)>,
        Vec<Op>,
        Vec<Vec<Bits>>,
    );

    /// A random table shape, its first entries, later operations, and keys
    /// to look up.
    fn case() -> impl Strategy<Value = Case> {
        case_of(kinds())
    }

    /// [`case`] for tables whose key fields `kinds` gives.
    fn case_of(
        kinds: impl Strategy<Value = Vec<(MatchKind, bool)>>,
    ) -> impl Strategy<Value = Case> {
        kinds.prop_flat_map(|kinds| {
            let fields: Vec<_> = kinds
                .iter()
                .zip(WIDTHS)
                .map(|(&(k, s), w)| field(k, w, s))
                .collect();
            let entry = (fields, -3i64..3, 0usize..4);
            let op = prop_oneof![
                any::<prop::sample::Index>().prop_map(Op::Remove),
                (any::<prop::sample::Index>(), 0usize..4).prop_map(|(i, a)| Op::Modify(i, a)),
                entry
                    .clone()
                    .prop_map(|(key, priority, action)| Op::Insert(key, priority, action)),
            ];
            let key: Vec<_> = kinds
                .iter()
                .zip(WIDTHS)
                .map(|(&(_, s), w)| (0..(1u64 << w)).prop_map(move |v| Bits::from_u64(w, s, v)))
                .collect();
            (
                Just(kinds),
                proptest::collection::vec(entry, 0..40),
                proptest::collection::vec(op, 0..12),
                proptest::collection::vec(key, 1..30),
            )
        })
    }

    /// Inserts an entry into the table and, if the table takes it, into `live`.
    fn add(
        t: &mut TableState,
        live: &mut Vec<Entry>,
        (key, priority, action): (Vec<FieldMatch>, i64, usize),
    ) {
        let e = Entry {
            key,
            priority,
            action,
            args: Vec::new(),
        };
        if t.insert(e.clone()).is_ok() {
            live.push(e);
        }
    }

    /// Applies a later operation to the table and to `live`.
    fn apply_op(t: &mut TableState, live: &mut Vec<Entry>, op: Op) {
        match op {
            Op::Insert(key, priority, action) => add(t, live, (key, priority, action)),
            Op::Remove(_) | Op::Modify(..) if live.is_empty() => {}
            Op::Remove(i) => {
                let e = live.remove(i.index(live.len()));
                t.remove(&e.key, e.priority).unwrap();
            }
            Op::Modify(i, action) => {
                let n = live.len();
                let e = &mut live[i.index(n)];
                t.modify(&e.key, e.priority, action, Vec::new()).unwrap();
                e.action = action;
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Lookups, on values and on words, agree with a linear scan, for
        /// random tables of mixed match kinds and signedness, random
        /// entries (inserted, removed, modified, inserted into freed slots)
        /// and keys.
        #[test]
        fn lookup_matches_the_naive_reference((kinds, entries, ops, keys) in case()) {
            check_against_naive(kinds, entries, ops, keys)?;
        }

        /// The same for exact-only tables (one group, probed once).
        #[test]
        fn exact_lookups_match_the_naive_reference(
            (kinds, entries, ops, keys) in case_of(proptest::collection::vec(
                (Just(MatchKind::Exact), any::<bool>()),
                1..=3,
            ))
        ) {
            check_against_naive(kinds, entries, ops, keys)?;
        }

        /// The same for tables of LPM and exact fields only (no
        /// priorities: the first group with a match holds the best), with
        /// one key field or two.
        #[test]
        fn prefix_lookups_match_the_naive_reference(
            (kinds, entries, ops, keys) in case_of(proptest::collection::vec(
                (prop_oneof![Just(MatchKind::Lpm), Just(MatchKind::Exact)], any::<bool>()),
                1..=2,
            ))
        ) {
            check_against_naive(kinds, entries, ops, keys)?;
        }

        /// The hash index finds what a map holds, through sets and
        /// removals of hashes crowding the first and the last slots (long
        /// probe runs that wrap around, and moves back on removal).
        #[test]
        fn buckets_agree_with_a_map(
            ops in proptest::collection::vec((any::<bool>(), 0u64..40, 0u32..1000), 0..300)
        ) {
            let crowded = |h: u64| match h % 2 {
                0 => (h << 40) | (0xFFFF - h % 5),
                _ => (h << 40) | (h % 5),
            };
            let mut buckets = Buckets::default();
            let mut model = HashMap::new();
            for (set, h, entry) in ops {
                let hash = crowded(h);
                if set {
                    buckets.set(hash, entry);
                    model.insert(hash, entry);
                } else {
                    buckets.unset(hash);
                    model.remove(&hash);
                }
                prop_assert_eq!(buckets.used, model.len());
                prop_assert!(buckets.used * 2 <= buckets.slots.len());
                for h in 0..40 {
                    let hash = crowded(h);
                    prop_assert_eq!(buckets.get(hash), model.get(&hash).copied(), "hash {:x}", hash);
                }
            }
        }
    }

    /// Builds the table of a [`case`] and checks that its lookups, on values
    /// and on words, agree with [`naive`].
    fn check_against_naive(
        kinds: Vec<(MatchKind, bool)>,
        entries: Vec<(Vec<FieldMatch>, i64, usize)>,
        ops: Vec<Op>,
        keys: Vec<Vec<Bits>>,
    ) -> Result<(), TestCaseError> {
        let specs = kinds
            .iter()
            .zip(WIDTHS)
            .map(|(&(kind, signed), width)| KeySpec {
                kind,
                width,
                signed,
            })
            .collect();
        let mut t = TableState::new(specs, 1000);
        prop_assert!(t.is_narrow());
        let mut live: Vec<Entry> = Vec::new();
        for e in entries {
            add(&mut t, &mut live, e);
        }
        for op in ops {
            apply_op(&mut t, &mut live, op);
        }
        prop_assert_eq!(t.len(), live.len());
        for key in &keys {
            let want = naive(&t, &live, key).map(|i| &live[i]);
            let index = t.lookup_index(key);
            prop_assert_eq!(index.and_then(|i| t.entry(i)), want, "key {:?}", key);
            let words: Vec<u64> = key.iter().map(Bits::as_u64_truncated).collect();
            prop_assert_eq!(t.lookup_words(&words), index, "words {:?}", words);
        }
        Ok(())
    }

    #[test]
    fn empty_tables_miss() {
        let key = [FieldMatch::Exact(b(8, 1)), FieldMatch::Exact(b(8, 2))];
        let mut t = TableState::new(spec(&[(MatchKind::Exact, 8), (MatchKind::Exact, 8)]), 4);
        assert_eq!(t.lookup_words(&[1, 2]), None);
        t.insert(entry(key.to_vec(), 0, 1)).unwrap();
        assert_eq!(t.lookup_words(&[1, 2]), Some(0));
        t.remove(&key, 0).unwrap();
        assert_eq!(t.lookup_words(&[1, 2]), None);
        assert_eq!(t.lookup_index(&[b(8, 1), b(8, 2)]), None);
    }

    #[test]
    fn word_lookups_need_a_narrow_table_and_a_full_key() {
        let mut wide = TableState::new(spec(&[(MatchKind::Exact, 65)]), 4);
        wide.insert(entry(vec![FieldMatch::Exact(b(65, 7))], 0, 1))
            .unwrap();
        assert!(!wide.is_narrow());
        assert_eq!(wide.lookup_index(&[b(65, 7)]), Some(0));
        assert_eq!(wide.lookup_words(&[7]), None);
        let mut t = TableState::new(spec(&[(MatchKind::Exact, 8), (MatchKind::Exact, 8)]), 4);
        t.insert(entry(
            vec![FieldMatch::Exact(b(8, 1)), FieldMatch::Exact(b(8, 2))],
            0,
            1,
        ))
        .unwrap();
        assert_eq!(t.lookup_words(&[1, 2]), Some(0));
        assert_eq!(t.lookup_words(&[1]), None);
    }

    #[test]
    fn range_entries_match_values_of_the_key_type_only() {
        // A signed range key and an exact key whose entry value is unsigned:
        // `Bits` equality refuses it, and so do the word tests.
        let keys = vec![
            KeySpec {
                kind: MatchKind::Range,
                width: 8,
                signed: true,
            },
            KeySpec {
                kind: MatchKind::Exact,
                width: 8,
                signed: true,
            },
        ];
        let mut t = TableState::new(keys, 4);
        let s = |v: i64| Bits::from_i64(8, true, v);
        let range = FieldMatch::Range {
            lo: s(-3),
            hi: s(2),
        };
        t.insert(entry(vec![range.clone(), FieldMatch::Exact(b(8, 5))], 2, 1))
            .unwrap();
        t.insert(entry(vec![range, FieldMatch::Exact(s(5))], 1, 2))
            .unwrap();
        for (v, want) in [(-3, Some(1)), (2, Some(1)), (-4, None), (3, None)] {
            let index = t.lookup_index(&[s(v), s(5)]);
            assert_eq!(index, want, "{v}");
            assert_eq!(t.lookup_words(&[s(v).as_u64_truncated(), 5]), want, "{v}");
        }
    }
}
