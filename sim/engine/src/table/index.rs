//! The lookup side of a table: per-mask-vector hash groups (open
//! addressing), word plans for narrow tables, range tests, and the probes
//! a lookup runs. Never allocates, never scans all entries.

use super::{Entry, FieldMatch, MatchKind, TableState, precedence};
use crate::value::Bits;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

/// The per-table random seed of key hashes (so crafted packets cannot
/// aim at one bucket in every run).
#[derive(Clone, Copy, Debug)]
pub(super) struct Seed(u64);

impl Seed {
    pub(super) fn new() -> Seed {
        Seed(std::collections::hash_map::RandomState::new().hash_one(0u64))
    }

    /// A hash of key words, starting from the seed.
    #[inline]
    pub(super) fn mix(self) -> Mix {
        Mix(self.0)
    }
}

/// A key hash being built: one folded multiply per word (the high and low
/// halves of a 128-bit product, xored), which mixes every input bit into
/// both the low bits (the bucket) and the high bits (hashbrown's tag).
#[derive(Clone, Copy)]
pub(super) struct Mix(u64);

impl Mix {
    /// Adds one word.
    #[inline]
    pub(super) fn word(self, w: u64) -> Mix {
        let p = u128::from(self.0 ^ w) * 0x9E37_79B9_7F4A_7C15;
        Mix(p as u64 ^ (p >> 64) as u64)
    }

    /// The hash.
    #[inline]
    pub(super) fn finish(self) -> u64 {
        self.0
    }
}

/// Maps keys that are already hashes ([`Mix`] output) as they are.
pub(super) type PreHashed = std::hash::BuildHasherDefault<PassThrough>;

#[derive(Default)]
pub(super) struct PassThrough(u64);

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
pub(super) enum WordPlan {
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
pub(super) struct Slot {
    pub(super) hash: u64,
    /// The entry index; [`Slot::EMPTY`]'s for a free slot.
    pub(super) entry: u32,
}

impl Slot {
    pub(super) const EMPTY: Slot = Slot {
        hash: 0,
        entry: u32::MAX,
    };

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.entry == u32::MAX
    }
}

/// A hash index from masked-key hashes to entries: open addressing over a
/// power-of-two number of slots, at most half of them used, probed
/// linearly from the slot the hash's low bits pick; removal shifts the
/// following slots back, so no tombstones build up. A hit is usually one
/// slot read.
#[derive(Clone, Debug, Default)]
pub(super) struct Buckets {
    /// Empty, or a power of two of slots with at least one free.
    pub(super) slots: Vec<Slot>,
    /// Number of used slots.
    pub(super) used: usize,
}

impl Buckets {
    /// The smallest number of slots a non-empty index has.
    pub(super) const MIN_SLOTS: usize = 8;

    /// The entry stored under `hash`.
    #[inline]
    pub(super) fn get(&self, hash: u64) -> Option<u32> {
        self.position(hash)
            .and_then(|i| Some(self.slots.get(i)?.entry))
    }

    /// The slot holding `hash`. Ends: at least one slot is free.
    #[inline]
    pub(super) fn position(&self, hash: u64) -> Option<usize> {
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
    pub(super) fn set(&mut self, hash: u64, entry: u32) {
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
    pub(super) fn place(&mut self, slot: Slot) {
        let mask = self.slots.len() - 1;
        let mut i = slot.hash as usize & mask;
        while !self.slots[i].is_empty() {
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
    }

    /// Doubles the slots and places every used one again.
    pub(super) fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(Self::MIN_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![Slot::EMPTY; size]);
        for s in old.into_iter().filter(|s| !s.is_empty()) {
            self.place(s);
        }
    }

    /// Removes what is stored under `hash`, moving back the slots after it
    /// that probing would otherwise no longer reach.
    pub(super) fn unset(&mut self, hash: u64) {
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
pub(super) struct Group {
    pub(super) masks: Vec<Bits>,
    /// `masks` as words, one per key field (narrow tables only).
    pub(super) word_masks: Vec<u64>,
    /// The first of `word_masks` (0 if none): the mask of a one-field table.
    pub(super) first_mask: u64,
    /// Hash of the masked key -> the best entry with that hash (most
    /// hashes have one entry, found in one probe).
    pub(super) first: Buckets,
    /// Hash of the masked key -> its entries, best first, for the hashes
    /// that have more than one.
    pub(super) more: HashMap<u64, Vec<u32>, PreHashed>,
    /// The best priority in the group, so probing can stop early.
    pub(super) best: i64,
}

impl Group {
    /// Adds entry `idx`, whose masked key hashes to `hash`, after the
    /// entries with that hash that beat it (`order`: each entry's rank and
    /// insertion number).
    pub(super) fn add(&mut self, hash: u64, idx: u32, order: &[(i64, u64)]) {
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
    pub(super) fn remove(&mut self, hash: u64, idx: u32) {
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
    pub(super) fn find(&self, hash: u64, hit: impl Fn(u32) -> bool) -> Option<u32> {
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
    pub(super) fn find_more(&self, hash: u64, hit: impl Fn(u32) -> bool) -> Option<u32> {
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
pub(super) struct FieldTest {
    pub(super) field: u32,
    pub(super) skip: u32,
    pub(super) entry: u32,
    pub(super) mask: u64,
    pub(super) flip: u64,
    pub(super) lo: u64,
    pub(super) span: u64,
}

impl FieldTest {
    /// A test no key passes (a value whose signedness differs from the
    /// key's, which [`Bits`] equality never accepts).
    pub(super) const NEVER: FieldTest = FieldTest {
        field: 0,
        skip: 1,
        entry: 0,
        mask: 0,
        flip: 0,
        lo: 1,
        span: 0,
    };

    /// A test every key passes (an entry whose fields are all `_`).
    pub(super) const ALWAYS: FieldTest = FieldTest {
        lo: 0,
        ..FieldTest::NEVER
    };

    /// The test of `key & mask == value` (`value` already masked).
    pub(super) fn masked(mask: u64, value: u64) -> FieldTest {
        FieldTest {
            mask,
            lo: value,
            ..FieldTest::ALWAYS
        }
    }

    /// The test of `lo <= key ^ flip <= hi` for a field of `ones` bits
    /// (`lo` and `hi` already flipped).
    pub(super) fn range(ones: u64, flip: u64, lo: u64, hi: u64) -> FieldTest {
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
    pub(super) fn always(&self, ones: u64) -> bool {
        if self.mask == 0 {
            return self.passes(0);
        }
        self.mask == ones && self.lo == 0 && self.span >= ones
    }

    /// Roughly how many bits of the field the test pins (minus log2 of the
    /// share of values that pass), so that an entry tries its most
    /// selective tests first.
    pub(super) fn pinned_bits(&self) -> u32 {
        if self.mask == 0 {
            return if self.passes(0) { 0 } else { u32::MAX };
        }
        let spanned = u64::BITS - self.span.leading_zeros();
        self.mask.count_ones().saturating_sub(spanned)
    }

    /// Whether the key field `k` passes.
    #[inline]
    pub(super) fn passes(&self, k: u64) -> bool {
        ((k & self.mask) ^ self.flip).wrapping_sub(self.lo) <= self.span
    }
}

/// The entry of the first run of an entry's `tests` that key words `key`
/// all pass.
#[inline(never)]
pub(super) fn first_passing(tests: &[FieldTest], key: &[u64]) -> Option<u32> {
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

impl TableState {
    /// The hash of key words `key` under a group's word `masks`: equal to
    /// [`TableState::hash_masked`] of the masked values.
    #[inline]
    fn hash_masked_words(&self, key: &[u64], masks: &[u64]) -> u64 {
        key.iter()
            .zip(masks)
            .fold(self.seed.mix(), |h, (k, m)| h.word(k & m))
            .finish()
    }

    /// How [`TableState::lookup_words`] looks keys up in the table as it
    /// now is.
    pub(super) fn word_plan(&self) -> WordPlan {
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

    /// The best entry matching `key`, if any (the highest priority, then the
    /// earliest added).
    pub fn lookup(&self, key: &[Bits]) -> Option<&Entry> {
        self.lookup_index(key)
            .and_then(|i| self.entries[i as usize].as_ref())
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
        if self.narrow {
            let n = self.keys.len();
            let Some(masked) = self.masked_words.get(i as usize * n..(i as usize + 1) * n) else {
                return false;
            };
            return key.len() == n
                && key
                    .iter()
                    .zip(masks)
                    .zip(masked)
                    .all(|((k, m), v)| k.as_u64_truncated() & m.as_u64_truncated() == *v);
        }
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
