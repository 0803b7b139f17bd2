//! The tables of a committed pipeline as P4Runtime names them: the maps
//! from a table's P4Info ids to the switch's table slot, key positions and
//! action indexes, built once when the pipeline is loaded, and the
//! translation of `p4.v1.TableEntry` keys and actions to and from engine
//! entries, with the checks the P4Runtime specification asks for. Every
//! entity that names a table entry (direct counters and meters, profiles,
//! quotas) reads its key through here. Depends only on the codec and the
//! translated types.

use crate::codec::{RpcError, from_bytes, invalid, to_bytes};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use crate::translation::{Sdn, Shared, Tr};
use janus_engine::table::{Entry, FieldMatch, MatchKind};
use janus_engine::target::Target;
use janus_engine::value::Bits;
use std::collections::HashMap;
use std::sync::Arc;
use tonic::Code;

/// A key field of a table: its P4Runtime id, match kind and width.
#[derive(Clone, Debug)]
pub(crate) struct FieldMap {
    id: u32,
    kind: MatchKind,
    width: u32,
    signed: bool,
    /// The field's translated type, if it has one.
    tr: Option<Tr>,
}

/// An action a table lists.
#[derive(Clone, Debug)]
pub(crate) struct ActionMap {
    /// Index in the switch table's action list.
    index: usize,
    /// (param id, width), in the action's parameter order.
    params: Vec<(u32, u32)>,
    /// Each parameter's translated type, if it has one (same order).
    param_tr: Vec<Option<Tr>>,
    /// `cfg::action_ref::Scope`.
    scope: i32,
    name: String,
}

/// A table: where it lives in the switch and how its ids map.
#[derive(Clone, Debug)]
pub(crate) struct TableMap {
    pub(crate) id: u32,
    pub(crate) slot: usize,
    pub(crate) name: String,
    /// The action profile or selector (P4Info id) its entries point into.
    pub(crate) profile: Option<u32>,
    /// In the switch's key order (the P4Info's order too).
    fields: Vec<FieldMap>,
    actions: HashMap<u32, ActionMap>,
    /// P4Runtime action id of each index of the switch table's list.
    action_ids: Vec<u32>,
    pub(crate) is_const: bool,
    pub(crate) const_default: bool,
    pub(crate) uses_priority: bool,
    /// The default action when the pipeline was loaded.
    pub(crate) initial_default: Option<(usize, Vec<Bits>)>,
}

impl TableMap {
    /// The position in the switch's key of the match field `id`.
    pub(crate) fn field_position(&self, id: u32) -> Option<usize> {
        self.fields.iter().position(|f| f.id == id)
    }

    /// The translated type of each key field (in the switch's key order).
    pub(crate) fn field_trs(&self) -> impl Iterator<Item = &Option<Tr>> {
        self.fields.iter().map(|f| &f.tr)
    }

    /// The translated type of each parameter of the action with P4Runtime
    /// id `id` (empty for an action the table does not list).
    pub(crate) fn param_trs_of(&self, id: u32) -> &[Option<Tr>] {
        self.actions.get(&id).map_or(&[], |a| &a.param_tr)
    }

    /// The same, for the action at `index` of the switch table's list.
    pub(crate) fn param_trs(&self, index: usize) -> &[Option<Tr>] {
        self.action_ids
            .get(index)
            .map_or(&[], |id| self.param_trs_of(*id))
    }
}

/// The tables of a pipeline by P4Info id, and their P4Info order.
#[derive(Debug, Default)]
pub(crate) struct Tables {
    /// Shared, so an update holds its table's map without copying it.
    by_id: HashMap<u32, Arc<TableMap>>,
    /// Table ids in P4Info order, for wildcard reads.
    order: Vec<u32>,
}

impl Tables {
    /// Maps `info`'s tables onto the switch's (by name), checking that
    /// keys, widths and action parameters agree; an error names what does
    /// not (a P4Info that passed `p4info_check` never fails here).
    pub(crate) fn build(
        info: &cfg::P4Info,
        switch: &dyn Target,
        translations: &Shared,
    ) -> Result<Tables, String> {
        let actions: HashMap<u32, &cfg::Action> = info
            .actions
            .iter()
            .filter_map(|a| Some((a.preamble.as_ref()?.id, a)))
            .collect();
        let mut tables = HashMap::new();
        let mut order = Vec::new();
        for t in &info.tables {
            let pre = t.preamble.clone().unwrap_or_default();
            let slot = switch
                .tables()
                .iter()
                .position(|x| x.name == pre.name)
                .ok_or_else(|| format!("no switch table {}", pre.name))?;
            let tinfo = &switch.tables()[slot];
            let state = switch
                .table(slot)
                .ok_or_else(|| format!("no state for table {}", pre.name))?;
            if tinfo.keys.len() != t.match_fields.len() || state.keys.len() != t.match_fields.len()
            {
                return Err(format!("{}: key count", pre.name));
            }
            let mut fields = Vec::new();
            for ((m, k), spec) in t.match_fields.iter().zip(&tinfo.keys).zip(&state.keys) {
                // A translated field's P4Info width is its SDN width; its
                // values are mapped to the data plane's (`crate::translation`).
                let translated = m.type_name.as_ref().is_some_and(|t| !t.name.is_empty());
                if (!translated && m.bitwidth as u32 != spec.width) || k.width != spec.width {
                    return Err(format!("{}: width of {}", pre.name, m.name));
                }
                fields.push(FieldMap {
                    id: m.id,
                    kind: spec.kind,
                    width: spec.width,
                    signed: spec.signed,
                    tr: Tr::of(translations, m.type_name.as_ref()),
                });
            }
            let mut amap = HashMap::new();
            let mut action_ids = vec![0; tinfo.actions.len()];
            for r in &t.action_refs {
                let a = actions
                    .get(&r.id)
                    .ok_or_else(|| format!("{}: action id {}", pre.name, r.id))?;
                let aname = a.preamble.as_ref().map_or("", |p| p.name.as_str());
                let index = tinfo
                    .actions
                    .iter()
                    .position(|x| x.name == aname)
                    .ok_or_else(|| format!("{}: action {aname}", pre.name))?;
                // The data plane's widths (a translated parameter's P4Info
                // width is its SDN width).
                let widths: Vec<u32> = tinfo.actions[index].params.iter().map(|p| p.1).collect();
                let agrees = widths.len() == a.params.len()
                    && a.params.iter().zip(&widths).all(|(p, w)| {
                        p.bitwidth as u32 == *w
                            || p.type_name.as_ref().is_some_and(|t| !t.name.is_empty())
                    });
                if !agrees {
                    return Err(format!("{}: parameters of {aname}", pre.name));
                }
                let params: Vec<(u32, u32)> = a
                    .params
                    .iter()
                    .zip(&widths)
                    .map(|(p, w)| (p.id, *w))
                    .collect();
                action_ids[index] = r.id;
                let param_tr = a
                    .params
                    .iter()
                    .map(|p| Tr::of(translations, p.type_name.as_ref()))
                    .collect();
                amap.insert(
                    r.id,
                    ActionMap {
                        index,
                        params,
                        param_tr,
                        scope: r.scope,
                        name: aname.to_string(),
                    },
                );
            }
            let uses_priority = fields.iter().any(|f| {
                matches!(
                    f.kind,
                    MatchKind::Ternary | MatchKind::Range | MatchKind::Optional
                )
            });
            tables.insert(
                pre.id,
                Arc::new(TableMap {
                    id: pre.id,
                    slot,
                    name: pre.name.clone(),
                    profile: (t.implementation_id != 0).then_some(t.implementation_id),
                    fields,
                    actions: amap,
                    action_ids,
                    is_const: t.is_const_table,
                    const_default: t.const_default_action_id != 0,
                    uses_priority,
                    initial_default: state.default.clone(),
                }),
            );
            order.push(pre.id);
        }
        Ok(Tables {
            by_id: tables,
            order,
        })
    }

    /// Table `id` (NOT_FOUND if there is none).
    pub(crate) fn get(&self, id: u32) -> Result<&Arc<TableMap>, RpcError> {
        self.by_id
            .get(&id)
            .ok_or_else(|| RpcError::new(Code::NotFound, format!("no table with id {id}")))
    }

    /// Table `id`, if there is one.
    pub(crate) fn find(&self, id: u32) -> Option<&Arc<TableMap>> {
        self.by_id.get(&id)
    }

    /// The name of table `id` (NOT_FOUND if there is none).
    pub(crate) fn name(&self, id: u32) -> Result<&str, RpcError> {
        self.get(id).map(|t| t.name.as_str())
    }

    /// The tables in P4Info order.
    pub(crate) fn in_order(&self) -> impl Iterator<Item = &Arc<TableMap>> {
        self.order.iter().filter_map(|id| self.by_id.get(id))
    }

    /// The table an existing entry's `te` names and the entry's engine
    /// key (translated values looked up, not allocated): what the direct
    /// resources of an entry are addressed by.
    pub(crate) fn entry_key(
        &self,
        te: &p4::TableEntry,
    ) -> Result<(&Arc<TableMap>, Vec<FieldMatch>), RpcError> {
        let t = self.get(te.table_id)?;
        Ok((t, key_of(t, te, false)?))
    }

    /// The tables a read filter's table id names: one (NOT_FOUND if there
    /// is none), or every table for id 0, in P4Info order.
    pub(crate) fn selected(&self, id: u32) -> Result<Vec<&Arc<TableMap>>, RpcError> {
        match id {
            0 => Ok(self.in_order().collect()),
            id => Ok(vec![self.get(id)?]),
        }
    }
}

impl TableMap {
    /// The switch's index of this table's entry (`key`, `priority`), for
    /// the direct resources (counters, meters) that a table entry names;
    /// NOT_FOUND when there is none.
    pub(crate) fn entry_index(
        &self,
        switch: &dyn Target,
        key: &[FieldMatch],
        priority: i64,
    ) -> Result<u32, RpcError> {
        switch
            .table(self.slot)
            .and_then(|s| s.index_of(key, priority))
            .ok_or_else(|| {
                RpcError::new(
                    Code::NotFound,
                    format!("{}: no entry with this key", self.name),
                )
            })
    }
}

/// A table entry in canonical form (`target`: the member or group an
/// indirect entry points to).
pub(crate) fn entry_to_proto(
    id: u32,
    t: &TableMap,
    e: &Entry,
    target: Option<janus_engine::profile::Target>,
) -> p4::TableEntry {
    use janus_engine::profile::Target;
    use p4::field_match::{Exact, FieldMatchType as F, Lpm, Optional, Range, Ternary};
    use p4::table_action::Type as A;
    let mut fields = Vec::new();
    for (f, m) in t.fields.iter().zip(&e.key) {
        if let Some(tr) = &f.tr
            && let Some(ty) = translated_proto(f, tr, m)
        {
            fields.push(p4::FieldMatch {
                field_id: f.id,
                field_match_type: Some(ty),
            });
            continue;
        }
        let ty = match m {
            FieldMatch::Exact(v) => Some(F::Exact(Exact { value: to_bytes(v) })),
            FieldMatch::Lpm { len: 0, .. } => None,
            FieldMatch::Lpm { value, len } => Some(F::Lpm(Lpm {
                value: to_bytes(value),
                prefix_len: *len as i32,
            })),
            FieldMatch::Ternary { mask, .. } if mask.is_zero() => None,
            FieldMatch::Ternary { value, mask } => Some(F::Ternary(Ternary {
                value: to_bytes(&value.and(mask)),
                mask: to_bytes(mask),
            })),
            FieldMatch::Range { lo, hi } if is_full_range(f, lo, hi) => None,
            FieldMatch::Range { lo, hi } => Some(F::Range(Range {
                low: to_bytes(lo),
                high: to_bytes(hi),
            })),
            FieldMatch::Optional(None) => None,
            FieldMatch::Optional(Some(v)) => Some(F::Optional(Optional { value: to_bytes(v) })),
        };
        if let Some(ty) = ty {
            fields.push(p4::FieldMatch {
                field_id: f.id,
                field_match_type: Some(ty),
            });
        }
    }
    p4::TableEntry {
        table_id: id,
        r#match: fields,
        action: match target {
            Some(Target::Member(m)) => Some(p4::TableAction {
                r#type: Some(A::ActionProfileMemberId(m)),
            }),
            Some(Target::Group(g)) => Some(p4::TableAction {
                r#type: Some(A::ActionProfileGroupId(g)),
            }),
            // The set as written: the caller fills it in from the profiles.
            Some(Target::OneShot(_)) => None,
            None => (e.action != usize::MAX).then(|| table_action(t, e.action, &e.args)),
        },
        priority: if t.uses_priority {
            e.priority.clamp(1, i64::from(i32::MAX)) as i32
        } else {
            0
        },
        is_const: t.is_const,
        ..Default::default()
    }
}

/// A match on a translated field as the controller wrote it (see
/// [`translated_match`]); `None` for a don't-care, or a match that is not
/// de facto exact (the program's own entries), which is written as it is.
fn translated_proto(
    f: &FieldMap,
    tr: &Tr,
    m: &FieldMatch,
) -> Option<p4::field_match::FieldMatchType> {
    use p4::field_match::{Exact, FieldMatchType as F, Lpm, Optional, Range, Ternary};
    let full = Bits::zero(f.width, f.signed).not();
    let sdn_ones = match tr.sdn() {
        Sdn::Bits(w) => to_bytes(&Bits::zero(w, false).not()),
        Sdn::String => Vec::new(),
    };
    match m {
        FieldMatch::Exact(v) => Some(F::Exact(Exact {
            value: tr.to_sdn(v),
        })),
        FieldMatch::Optional(Some(v)) => Some(F::Optional(Optional {
            value: tr.to_sdn(v),
        })),
        FieldMatch::Lpm { value, len } if *len == f.width => {
            let Sdn::Bits(w) = tr.sdn() else { return None };
            Some(F::Lpm(Lpm {
                value: tr.to_sdn(value),
                prefix_len: w as i32,
            }))
        }
        FieldMatch::Ternary { value, mask } if *mask == full && !sdn_ones.is_empty() => {
            Some(F::Ternary(Ternary {
                value: tr.to_sdn(value),
                mask: sdn_ones,
            }))
        }
        FieldMatch::Range { lo, hi } if lo == hi => {
            let v = tr.to_sdn(lo);
            Some(F::Range(Range {
                low: v.clone(),
                high: v,
            }))
        }
        _ => None,
    }
}

pub(crate) fn table_action(t: &TableMap, index: usize, args: &[Bits]) -> p4::TableAction {
    let id = t.action_ids.get(index).copied().unwrap_or(0);
    let (params, trs) = t
        .actions
        .get(&id)
        .map_or((&[][..], &[][..]), |a| (&a.params[..], &a.param_tr[..]));
    p4::TableAction {
        r#type: Some(p4::table_action::Type::Action(p4::Action {
            action_id: id,
            params: params
                .iter()
                .zip(args)
                .enumerate()
                .map(|(i, (&(pid, _), v))| p4::action::Param {
                    param_id: pid,
                    value: match trs.get(i).and_then(Option::as_ref) {
                        Some(tr) => tr.to_sdn(v),
                        None => to_bytes(v),
                    },
                })
                .collect(),
        })),
    }
}

fn is_full_range(f: &FieldMap, lo: &Bits, hi: &Bits) -> bool {
    lo.is_zero() && *hi == Bits::zero(f.width, f.signed).not()
}

/// The engine key of an entry: one field per key of the table, don't-care
/// for the omitted ternary, LPM, range and optional fields. Values of
/// translated fields are mapped to the data plane's; with `allocate` (an
/// INSERT) an SDN value without a mapping gets one, else it is NOT_FOUND
/// (no entry can hold it).
pub(crate) fn key_of(
    t: &TableMap,
    te: &p4::TableEntry,
    allocate: bool,
) -> Result<Vec<FieldMatch>, RpcError> {
    use p4::field_match::FieldMatchType as F;
    let mut key: Vec<Option<FieldMatch>> = vec![None; t.fields.len()];
    for m in &te.r#match {
        let pos = t
            .fields
            .iter()
            .position(|f| f.id == m.field_id)
            .ok_or_else(|| invalid(format!("{}: no match field with id {}", t.name, m.field_id)))?;
        if key[pos].is_some() {
            return Err(invalid(format!(
                "{}: match field {} given twice",
                t.name, m.field_id
            )));
        }
        let f = &t.fields[pos];
        let what = format!("{} field {}", t.name, f.id);
        if let Some(tr) = &f.tr {
            key[pos] = Some(translated_match(f, tr, m, allocate, &what)?);
            continue;
        }
        let val = |b: &[u8]| from_bytes(b, f.width, f.signed, &what);
        let fm = match (f.kind, m.field_match_type.as_ref()) {
            (MatchKind::Exact, Some(F::Exact(x))) => FieldMatch::Exact(val(&x.value)?),
            (MatchKind::Lpm, Some(F::Lpm(x))) => {
                let value = val(&x.value)?;
                if x.prefix_len <= 0 || x.prefix_len as u32 > f.width {
                    return Err(invalid(format!(
                        "{what}: prefix length {} outside 1..={} (omit the field for a don't-care)",
                        x.prefix_len, f.width
                    )));
                }
                let len = x.prefix_len as u32;
                let mask = Bits::zero(f.width, f.signed)
                    .not()
                    .shl(u64::from(f.width - len));
                if value.and(&mask) != value {
                    return Err(invalid(format!(
                        "{what}: bits beyond the /{len} prefix are set"
                    )));
                }
                FieldMatch::Lpm { value, len }
            }
            (MatchKind::Ternary, Some(F::Ternary(x))) => {
                let (value, mask) = (val(&x.value)?, val(&x.mask)?);
                if mask.is_zero() {
                    return Err(invalid(format!(
                        "{what}: a zero mask (omit the field for a don't-care)"
                    )));
                }
                if value.and(&mask) != value {
                    return Err(invalid(format!(
                        "{what}: value bits outside the mask are set"
                    )));
                }
                FieldMatch::Ternary { value, mask }
            }
            (MatchKind::Range, Some(F::Range(x))) => {
                let (lo, hi) = (val(&x.low)?, val(&x.high)?);
                if lo.compare(&hi) == std::cmp::Ordering::Greater {
                    return Err(invalid(format!("{what}: low > high")));
                }
                if is_full_range(f, &lo, &hi) {
                    return Err(invalid(format!(
                        "{what}: the full range (omit the field for a don't-care)"
                    )));
                }
                FieldMatch::Range { lo, hi }
            }
            (MatchKind::Optional, Some(F::Optional(x))) => {
                FieldMatch::Optional(Some(val(&x.value)?))
            }
            (kind, _) => {
                return Err(invalid(format!("{what}: not a {kind:?} match")));
            }
        };
        key[pos] = Some(fm);
    }
    t.fields
        .iter()
        .zip(key)
        .map(|(f, k)| match k {
            Some(k) => Ok(k),
            None => {
                let zero = Bits::zero(f.width, f.signed);
                Ok(match f.kind {
                    MatchKind::Exact => {
                        return Err(invalid(format!(
                            "{}: exact match field {} is missing",
                            t.name, f.id
                        )));
                    }
                    MatchKind::Lpm => FieldMatch::Lpm { value: zero, len: 0 },
                    MatchKind::Ternary => FieldMatch::Ternary {
                        value: zero.clone(),
                        mask: zero,
                    },
                    MatchKind::Range => FieldMatch::Range {
                        hi: zero.not(),
                        lo: zero,
                    },
                    MatchKind::Optional => FieldMatch::Optional(None),
                })
            }
        })
        .collect::<Result<Vec<_>, RpcError>>()
        .and_then(|key| {
            if t.uses_priority && te.priority <= 0 {
                Err(invalid(format!(
                    "{}: entries of a table with ternary, range or optional fields need a priority > 0",
                    t.name
                )))
            } else if !t.uses_priority && te.priority != 0 {
                Err(invalid(format!(
                    "{}: entries of this table take no priority",
                    t.name
                )))
            } else {
                Ok(key)
            }
        })
}

/// The match on a field of a translated type: exact and optional values
/// mapped, other kinds only when they are de facto exact (a full prefix,
/// an all-ones mask, a range of one value; P4Runtime 1.5 §17.1.3).
fn translated_match(
    f: &FieldMap,
    tr: &Tr,
    m: &p4::FieldMatch,
    allocate: bool,
    what: &str,
) -> Result<FieldMatch, RpcError> {
    use p4::field_match::FieldMatchType as F;
    let sdn_width = match tr.sdn() {
        Sdn::Bits(w) => Some(w),
        Sdn::String => None,
    };
    let all_ones = |mask: &[u8], w: u32| {
        from_bytes(mask, w, false, what).is_ok_and(|m| m == Bits::zero(w, false).not())
    };
    let canonical = |b: &[u8]| -> Vec<u8> {
        let first = b.iter().position(|&x| x != 0).unwrap_or(b.len());
        b[first..].to_vec()
    };
    let value: &[u8] = match (f.kind, m.field_match_type.as_ref()) {
        (MatchKind::Exact, Some(F::Exact(x))) => &x.value,
        (MatchKind::Optional, Some(F::Optional(x))) => &x.value,
        (MatchKind::Lpm, Some(F::Lpm(x)))
            if sdn_width.is_some_and(|w| x.prefix_len == w as i32) =>
        {
            &x.value
        }
        (MatchKind::Ternary, Some(F::Ternary(x)))
            if sdn_width.is_some_and(|w| all_ones(&x.mask, w)) =>
        {
            &x.value
        }
        (MatchKind::Range, Some(F::Range(x)))
            if !x.low.is_empty() && canonical(&x.low) == canonical(&x.high) =>
        {
            &x.low
        }
        (kind @ (MatchKind::Lpm | MatchKind::Ternary | MatchKind::Range), Some(_)) => {
            return Err(invalid(format!(
                "{what}: its type {} is translated, so a {kind:?} match on it must be exact \
                 (a full prefix, an all-ones mask or a one-value range of the SDN value), \
                 or omitted for a don't-care",
                tr.name()
            )));
        }
        (kind, _) => return Err(invalid(format!("{what}: not a {kind:?} match"))),
    };
    let v = tr.to_dp(value, allocate, what)?;
    Ok(match f.kind {
        MatchKind::Exact => FieldMatch::Exact(v),
        MatchKind::Optional => FieldMatch::Optional(Some(v)),
        MatchKind::Lpm => FieldMatch::Lpm {
            value: v,
            len: f.width,
        },
        MatchKind::Ternary => FieldMatch::Ternary {
            value: v,
            mask: Bits::zero(f.width, f.signed).not(),
        },
        MatchKind::Range => FieldMatch::Range {
            lo: v.clone(),
            hi: v,
        },
    })
}

/// The action index and arguments of a direct action.
pub(crate) fn action_of(
    t: &TableMap,
    action: Option<&p4::TableAction>,
    default: bool,
) -> Result<(usize, Vec<Bits>), RpcError> {
    use cfg::action_ref::Scope;
    let a = match action.and_then(|a| a.r#type.as_ref()) {
        Some(p4::table_action::Type::Action(a)) => a,
        Some(p4::table_action::Type::ActionProfileActionSet(_)) if t.profile.is_none() => {
            return Err(invalid(format!(
                "{}: the table has no action selector; a one-shot action set needs one",
                t.name
            )));
        }
        Some(p4::table_action::Type::ActionProfileActionSet(_)) => {
            return Err(RpcError::new(
                Code::Unimplemented,
                format!(
                    "{}: a one-shot action set as the default action is not supported",
                    t.name
                ),
            ));
        }
        Some(_) if t.profile.is_some() => {
            return Err(RpcError::new(
                Code::Unimplemented,
                format!(
                    "{}: a member or group as the default action is not supported",
                    t.name
                ),
            ));
        }
        Some(_) => {
            return Err(invalid(format!(
                "{}: the table has no action profile; its entries hold an action",
                t.name
            )));
        }
        None => return Err(invalid(format!("{}: the entry has no action", t.name))),
    };
    let m = t.actions.get(&a.action_id).ok_or_else(|| {
        invalid(format!(
            "{}: action id {} is not one of the table's actions",
            t.name, a.action_id
        ))
    })?;
    if !default && m.scope == Scope::DefaultOnly as i32 {
        return Err(invalid(format!(
            "{}: {} is a default-only action",
            t.name, m.name
        )));
    }
    if default && m.scope == Scope::TableOnly as i32 {
        return Err(invalid(format!(
            "{}: {} cannot be the default action",
            t.name, m.name
        )));
    }
    let mut args: Vec<Option<Bits>> = vec![None; m.params.len()];
    for p in &a.params {
        let pos = m
            .params
            .iter()
            .position(|x| x.0 == p.param_id)
            .ok_or_else(|| invalid(format!("{}: no parameter with id {}", m.name, p.param_id)))?;
        if args[pos].is_some() {
            return Err(invalid(format!(
                "{}: parameter {} given twice",
                m.name, p.param_id
            )));
        }
        let what = format!("{} parameter {}", m.name, p.param_id);
        args[pos] = Some(match &m.param_tr[pos] {
            Some(tr) => tr.to_dp(&p.value, true, &what)?,
            None => from_bytes(&p.value, m.params[pos].1, false, &what)?,
        });
    }
    let args = args
        .into_iter()
        .zip(&m.params)
        .map(|(v, (id, _))| {
            v.ok_or_else(|| invalid(format!("{}: parameter {id} is missing", m.name)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((m.index, args))
}
