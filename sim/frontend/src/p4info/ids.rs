//! P4Info ids as p4c allocates them.

use crate::ast::{self, find_annotation};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Allocates object ids as p4c does (its `P4RuntimeSymbolTable`): first
/// every `@id` (its resource prefix added when its top byte is 0); then,
/// for the objects without one, kind by kind in prefix order and by name in
/// byte order, the prefix in the top byte and the low 24 bits of the
/// Jenkins one-at-a-time hash of the fully qualified name, the hash
/// incremented while the id is taken. An id therefore depends on every
/// name of the program, so the P4Info is built twice: once recording what
/// it asks for, once handing out the ids worked out from that.
pub(super) enum Ids {
    /// The first pass: the requests, each answered with a placeholder.
    Record(Vec<(u8, String, Option<u32>)>),
    /// The second pass: (prefix, name) -> id.
    Assigned(HashMap<(u8, String), u32>, HashSet<u32>),
}

impl Ids {
    pub(super) fn alloc(&mut self, prefix: u8, name: &str, annotations: &[ast::Annotation]) -> u32 {
        match self {
            Ids::Record(requests) => {
                let explicit = annotation_int(annotations, "id");
                requests.push((prefix, name.to_string(), explicit));
                // Unique, so the first pass builds as the second does.
                (u32::from(prefix) << 24) | (requests.len() as u32 & 0x00FF_FFFF)
            }
            Ids::Assigned(ids, used) => match ids.get(&(prefix, name.to_string())) {
                Some(&id) => id,
                // Not asked for in the first pass: probe from the hash.
                None => {
                    let id = probe(used, prefix, jenkins_one_at_a_time(name.as_bytes()));
                    ids.insert((prefix, name.to_string()), id);
                    id
                }
            },
        }
    }

    /// What the first pass asked for.
    pub(super) fn requests(self) -> Vec<(u8, String, Option<u32>)> {
        match self {
            Ids::Record(requests) => requests,
            Ids::Assigned(..) => Vec::new(),
        }
    }

    /// The ids for the requests the first pass recorded.
    pub(super) fn assign(requests: Vec<(u8, String, Option<u32>)>) -> Ids {
        let mut used = HashSet::new();
        let mut ids: HashMap<(u8, String), u32> = HashMap::new();
        let mut pending: BTreeMap<(u8, String), ()> = BTreeMap::new();
        for (prefix, name, explicit) in requests {
            if ids.contains_key(&(prefix, name.clone())) {
                continue;
            }
            let base = u32::from(prefix) << 24;
            let wanted = explicit.map(|v| if v >> 24 == 0 { base | v } else { v });
            match wanted {
                Some(id) if used.insert(id) => {
                    ids.insert((prefix, name), id);
                }
                _ => {
                    pending.insert((prefix, name), ());
                }
            }
        }
        for (prefix, name) in pending.into_keys() {
            if ids.contains_key(&(prefix, name.clone())) {
                continue;
            }
            let id = probe(&mut used, prefix, jenkins_one_at_a_time(name.as_bytes()));
            ids.insert((prefix, name), id);
        }
        Ids::Assigned(ids, used)
    }
}

/// The first free id of kind `prefix` from `hash` on (the hash, not the id,
/// incremented), marked used.
fn probe(used: &mut HashSet<u32>, prefix: u8, hash: u32) -> u32 {
    let base = u32::from(prefix) << 24;
    let mut value = hash;
    loop {
        let id = base | (value & 0x00FF_FFFF);
        if used.insert(id) {
            return id;
        }
        value = value.wrapping_add(1);
    }
}

/// Bob Jenkins's one-at-a-time hash, the name hash of p4c's ids.
pub fn jenkins_one_at_a_time(key: &[u8]) -> u32 {
    let mut hash = 0u32;
    for &b in key {
        hash = hash.wrapping_add(u32::from(b));
        hash = hash.wrapping_add(hash << 10);
        hash ^= hash >> 6;
    }
    hash = hash.wrapping_add(hash << 3);
    hash ^= hash >> 11;
    hash.wrapping_add(hash << 15)
}

/// The integer of `@name(N)`.
pub(super) fn annotation_int(annos: &[ast::Annotation], name: &str) -> Option<u32> {
    let e = find_annotation(annos, name)?.single_expr()?;
    match &e.kind {
        ast::ExprKind::Int(lit) => u32::try_from(&lit.value).ok(),
        _ => None,
    }
}

/// The ids of the members of one object (match fields, action parameters,
/// packet metadata fields) as p4c's `FieldIdAllocator` gives them: every
/// `@id` first; then the others get 1, 2, ... by position, skipping the
/// taken ones (a member with an `@id` still uses up its position).
pub(super) fn member_ids<'a>(annos: impl Iterator<Item = &'a [ast::Annotation]>) -> Vec<u32> {
    let explicit: Vec<Option<u32>> = annos.map(|a| annotation_int(a, "id")).collect();
    let mut taken: HashSet<u32> = explicit.iter().flatten().copied().collect();
    let mut index = 1u32;
    explicit
        .iter()
        .map(|e| match e {
            Some(id) => {
                index = index.saturating_add(1);
                *id
            }
            None => {
                while taken.contains(&index) {
                    index = index.saturating_add(1);
                }
                taken.insert(index);
                index
            }
        })
        .collect()
}

/// Each name's alias as p4c's `P4SymbolSuffixSet` makes it: the shortest
/// dotted suffix that no other symbol (of any kind) shares.
pub(super) struct Suffixes {
    /// Reversed component path -> how many symbols pass through it.
    counts: HashMap<Vec<String>, u32>,
    names: HashSet<String>,
}

impl Suffixes {
    pub(super) fn new<'a>(names: impl Iterator<Item = &'a str>) -> Suffixes {
        let mut s = Suffixes {
            counts: HashMap::new(),
            names: HashSet::new(),
        };
        for n in names {
            if n.is_empty() || !s.names.insert(n.to_string()) {
                continue;
            }
            let mut path = Vec::new();
            for c in n.split('.').rev() {
                path.push(c.to_string());
                *s.counts.entry(path.clone()).or_insert(0) += 1;
            }
        }
        s
    }

    pub(super) fn alias(&self, name: &str) -> String {
        let parts: Vec<&str> = name.split('.').collect();
        let mut path = Vec::new();
        let mut needed = 0;
        for c in parts.iter().rev() {
            path.push(c.to_string());
            needed += 1;
            if self.counts.get(&path).copied().unwrap_or(0) < 2 {
                break;
            }
        }
        parts[parts.len() - needed..].join(".")
    }
}
