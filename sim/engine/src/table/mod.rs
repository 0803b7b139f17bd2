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

mod index;
mod stats;

use crate::value::Bits;
use index::{FieldTest, Group, PreHashed, Seed, WordPlan};
use std::cmp::Ordering;
use std::collections::HashMap;
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
    /// 0: not hit since it was added); kept only with `idle_timeout`.
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
    /// read-only with a running packet); kept only with `direct_counter`.
    counts: Vec<std::cell::Cell<(u64, u64)>>,
    pub max_size: usize,
    /// The action (index in the table's list) and control-plane arguments
    /// run on a miss; `None` runs nothing.
    pub default: Option<(usize, Vec<Bits>)>,
    entries: Vec<Option<Entry>>,
    /// Each entry's key values under its masks (empty for entries with a
    /// range, and for every entry of a narrow table, which compares
    /// `masked_words` instead), compared word by word when a lookup probes
    /// its group.
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
    /// Hash of an entry's key (and priority) -> an entry index, so that
    /// insert, modify and remove find an entry without a scan.
    by_key: HashMap<u64, u32, PreHashed>,
    /// The further entries of the hashes in `by_key` that several entries
    /// share (hash collisions).
    by_key_more: HashMap<u64, Vec<u32>, PreHashed>,
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
            by_key_more: HashMap::default(),
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

    /// Every entry with its index (as [`TableState::index_of`] gives it).
    pub fn indexed_entries(&self) -> impl Iterator<Item = (u32, &Entry)> {
        (0u32..)
            .zip(&self.entries)
            .filter_map(|(i, e)| Some((i, e.as_ref()?)))
    }

    pub(crate) fn all_ones(width: u32, signed: bool) -> Bits {
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
        // Narrow tables match on `masked_words` alone.
        let kept = if self.narrow {
            Vec::new()
        } else {
            masked.clone()
        };
        let idx = match self.free.pop() {
            Some(idx) => {
                self.entries[idx as usize] = Some(e);
                self.masked[idx as usize] = kept;
                self.targets[idx as usize] = None;
                self.order[idx as usize] = order;
                idx
            }
            None => {
                self.entries.push(Some(e));
                self.masked.push(kept);
                self.targets.push(None);
                self.order.push(order);
                (self.entries.len() - 1) as u32
            }
        };
        self.reset_stats(idx);
        self.live += 1;
        self.store_masked_words(idx, &masked);
        if let Some(&other) = self.by_key.get(&key_hash)
            && other != idx
        {
            self.by_key_more.entry(key_hash).or_default().push(idx);
        } else {
            self.by_key.insert(key_hash, idx);
        }
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
        self.find_hashed(self.key_hash(key, priority), key, priority)
    }

    /// [`TableState::find`] among the entries whose identity hashes to
    /// `hash`.
    fn find_hashed(&self, hash: u64, key: &[FieldMatch], priority: i64) -> Option<usize> {
        let first = *self.by_key.get(&hash)?;
        let more = self.by_key_more.get(&hash).map_or(&[][..], Vec::as_slice);
        std::iter::once(&first)
            .chain(more)
            .map(|&i| i as usize)
            .find(|&i| {
                self.entries[i].as_ref().is_some_and(|e| {
                    e.key == key && (!self.uses_priority || e.priority == priority)
                })
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
        self.forget_key(self.key_hash(&e.key, e.priority), slot);
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

    /// Drops entry `slot` from the entries whose key hashes to `hash`.
    fn forget_key(&mut self, hash: u64, slot: u32) {
        let more = self.by_key_more.get_mut(&hash);
        if self.by_key.get(&hash) == Some(&slot) {
            match more.and_then(Vec::pop) {
                Some(next) => {
                    self.by_key.insert(hash, next);
                }
                None => {
                    self.by_key.remove(&hash);
                }
            }
        } else if let Some(list) = more {
            list.retain(|&i| i != slot);
        }
        if self.by_key_more.get(&hash).is_some_and(Vec::is_empty) {
            self.by_key_more.remove(&hash);
        }
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

    /// The entry `index` (as [`TableState::lookup_index`] gives it).
    pub fn entry(&self, index: u32) -> Option<&Entry> {
        self.entries.get(index as usize)?.as_ref()
    }

    /// The index of the entry with this key (and priority), as
    /// [`TableState::lookup_index`] and [`TableState::last_hit_us`] use it.
    pub fn index_of(&self, key: &[FieldMatch], priority: i64) -> Option<u32> {
        self.find(key, priority).map(|i| i as u32)
    }
}

/// `Less` when `a` beats `b`: larger rank first, then earlier insertion.
fn precedence(a: (i64, u64), b: (i64, u64)) -> Ordering {
    b.0.cmp(&a.0).then(a.1.cmp(&b.1))
}

#[cfg(test)]
mod tests;
