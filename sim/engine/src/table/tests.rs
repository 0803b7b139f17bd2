use super::index::Buckets;
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
fn case_of(kinds: impl Strategy<Value = Vec<(MatchKind, bool)>>) -> impl Strategy<Value = Case> {
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

/// Entries whose identities hash alike: each is found, and removing any
/// of them keeps the others findable (the hash is forced here, as real
/// collisions of the 64-bit hash are too rare to meet).
#[test]
fn entries_sharing_a_key_hash_stay_findable() {
    let mut t = TableState::new(spec(&[(MatchKind::Exact, 8)]), 16);
    for v in 1..=3 {
        t.insert(entry(vec![FieldMatch::Exact(b(8, v))], 0, 0))
            .unwrap();
    }
    let key = |v| vec![FieldMatch::Exact(b(8, v))];
    // Put all three under one hash, as a collision would.
    let hashes: Vec<u64> = (1..=3).map(|v| t.key_hash(&key(v), 0)).collect();
    for h in &hashes {
        t.by_key.remove(h);
    }
    let shared = hashes[0];
    t.by_key.insert(shared, 0);
    t.by_key_more.insert(shared, vec![1, 2]);
    let found = |t: &TableState| {
        (1..=3)
            .map(|v| t.find_hashed(shared, &key(v), 0))
            .collect::<Vec<_>>()
    };
    assert_eq!(found(&t), [Some(0), Some(1), Some(2)]);
    t.entries[0] = None;
    t.forget_key(shared, 0);
    assert_eq!(found(&t), [None, Some(1), Some(2)]);
    assert_eq!(t.by_key.get(&shared), Some(&2));
    assert_eq!(t.by_key_more.get(&shared), Some(&vec![1]));
    t.forget_key(shared, 1);
    assert_eq!(t.by_key.get(&shared), Some(&2));
    assert!(!t.by_key_more.contains_key(&shared));
    assert_eq!(found(&t), [None, None, Some(2)], "1 was forgotten");
    t.forget_key(shared, 2);
    assert!(t.by_key.is_empty());
}
