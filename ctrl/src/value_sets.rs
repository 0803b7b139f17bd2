//! Parser value sets (ValueSetEntry). A value set's members replace the
//! old ones at each MODIFY (the only update a ValueSetEntry takes). The
//! P4Info gives every field as EXACT;
//! as the model matches members ternary, a TERNARY field match (value and
//! mask) is accepted too. Reads return a member whose mask is all ones as
//! EXACT.

use crate::codec::{RpcError, from_bytes, invalid, only_modify, to_bytes};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;
use janus_engine::table::{Entry, FieldMatch, TableError};
use janus_engine::target::Target;
use janus_engine::value::Bits;
use prost::Message;
use std::collections::BTreeMap;
use tonic::Code;

#[derive(Clone, Debug)]
struct ValueSetMap {
    name: String,
    slot: usize,
    /// (field id, width, signed), in the switch's key order.
    fields: Vec<(u32, u32, bool)>,
    size: usize,
}

/// The value sets of a pipeline, by P4Info id.
#[derive(Debug, Default)]
pub(crate) struct ValueSets {
    by_id: BTreeMap<u32, ValueSetMap>,
}

impl ValueSets {
    /// Maps the P4Info's value sets onto the switch's (by name; one the
    /// switch lacks, or whose fields differ, is left out with a warning).
    pub(crate) fn build(info: &cfg::P4Info, switch: &dyn Target) -> ValueSets {
        let mut r = ValueSets::default();
        for v in &info.value_sets {
            let p = v.preamble.clone().unwrap_or_default();
            let Some(slot) = switch
                .value_sets()
                .iter()
                .find(|x| x.name == p.name)
                .map(|x| x.slot)
            else {
                tracing::warn!(value_set = %p.name, "no such value set in the switch");
                continue;
            };
            let Some(state) = switch.table(slot) else {
                continue;
            };
            if state.keys.len() != v.r#match.len() {
                tracing::warn!(value_set = %p.name, "the P4Info's fields differ from the switch's");
                continue;
            }
            let fields = v
                .r#match
                .iter()
                .zip(&state.keys)
                .map(|(m, k)| (m.id, k.width, k.signed))
                .collect();
            r.by_id.insert(
                p.id,
                ValueSetMap {
                    name: p.name,
                    slot,
                    fields,
                    size: state.max_size,
                },
            );
        }
        r
    }

    /// A ValueSetEntry update (MODIFY only): the members replace the old.
    pub(crate) fn write(
        &mut self,
        switch: &mut dyn Target,
        kind: p4::update::Type,
        e: &p4::ValueSetEntry,
    ) -> Result<(), RpcError> {
        use p4::field_match::FieldMatchType as F;
        only_modify(kind, "a value set entry")?;
        let v = self.by_id.get(&e.value_set_id).cloned().ok_or_else(|| {
            RpcError::new(
                Code::NotFound,
                format!("no value set with id {}", e.value_set_id),
            )
        })?;
        let mut keys: Vec<Vec<FieldMatch>> = Vec::with_capacity(e.members.len());
        for member in &e.members {
            let mut key: Vec<Option<FieldMatch>> = vec![None; v.fields.len()];
            for m in &member.r#match {
                let pos = v
                    .fields
                    .iter()
                    .position(|f| f.0 == m.field_id)
                    .ok_or_else(|| {
                        invalid(format!("{}: no field with id {}", v.name, m.field_id))
                    })?;
                if key[pos].is_some() {
                    return Err(invalid(format!(
                        "{}: field {} given twice",
                        v.name, m.field_id
                    )));
                }
                let (_, width, signed) = v.fields[pos];
                let what = format!("{} field {}", v.name, m.field_id);
                let val = |b: &[u8]| from_bytes(b, width, signed, &what);
                key[pos] = Some(match m.field_match_type.as_ref() {
                    Some(F::Exact(x)) => FieldMatch::Ternary {
                        value: val(&x.value)?,
                        mask: Bits::zero(width, signed).not(),
                    },
                    Some(F::Ternary(x)) => {
                        let (value, mask) = (val(&x.value)?, val(&x.mask)?);
                        if value.and(&mask) != value {
                            return Err(invalid(format!(
                                "{what}: value bits outside the mask are set"
                            )));
                        }
                        FieldMatch::Ternary { value, mask }
                    }
                    _ => return Err(invalid(format!("{what}: not an exact or ternary match"))),
                });
            }
            let key = key
                .into_iter()
                .zip(&v.fields)
                .map(|(k, f)| {
                    k.ok_or_else(|| invalid(format!("{}: field {} is missing", v.name, f.0)))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if keys.contains(&key) {
                return Err(invalid(format!("{}: a member is given twice", v.name)));
            }
            keys.push(key);
        }
        if keys.len() > v.size {
            return Err(RpcError::new(
                Code::ResourceExhausted,
                format!(
                    "{}: {} members exceed its size {}",
                    v.name,
                    keys.len(),
                    v.size
                ),
            ));
        }
        let state = switch.value_set_mut(&v.name).ok_or_else(|| {
            RpcError::new(Code::Internal, format!("{}: no such value set", v.name))
        })?;
        let old: Vec<(Vec<FieldMatch>, i64)> = state
            .entries()
            .map(|e| (e.key.clone(), e.priority))
            .collect();
        for (key, priority) in old {
            let _ = state.remove(&key, priority);
        }
        for key in keys {
            state
                .insert(Entry {
                    key,
                    priority: 1,
                    action: 0,
                    args: Vec::new(),
                })
                .map_err(|e| match e {
                    TableError::Full(n) => RpcError::new(
                        Code::ResourceExhausted,
                        format!("{}: full ({n} members)", v.name),
                    ),
                    other => RpcError::new(Code::Internal, format!("{}: {other}", v.name)),
                })?;
        }
        Ok(())
    }

    /// The value sets a read asks for (id 0: every value set).
    pub(crate) fn read(
        &self,
        switch: &dyn Target,
        f: &p4::ValueSetEntry,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        use p4::field_match::{Exact, FieldMatchType as F, Ternary};
        if f.value_set_id != 0 && !self.by_id.contains_key(&f.value_set_id) {
            return Err(RpcError::new(
                Code::NotFound,
                format!("no value set with id {}", f.value_set_id),
            ));
        }
        let mut out = Vec::new();
        for (id, v) in &self.by_id {
            if f.value_set_id != 0 && *id != f.value_set_id {
                continue;
            }
            let Some(state) = switch.table(v.slot) else {
                continue;
            };
            let members = state
                .entries()
                .map(|e| p4::ValueSetMember {
                    r#match: e
                        .key
                        .iter()
                        .zip(&v.fields)
                        .filter_map(|(k, &(field_id, width, signed))| {
                            let FieldMatch::Ternary { value, mask } = k else {
                                return None;
                            };
                            let ty = if *mask == Bits::zero(width, signed).not() {
                                F::Exact(Exact {
                                    value: to_bytes(value),
                                })
                            } else {
                                F::Ternary(Ternary {
                                    value: to_bytes(&value.and(mask)),
                                    mask: to_bytes(mask),
                                })
                            };
                            Some(p4::FieldMatch {
                                field_id,
                                field_match_type: Some(ty),
                            })
                        })
                        .collect(),
                })
                .collect::<Vec<_>>();
            // A set: read in one canonical order, whatever order the
            // members were written in.
            let mut members = members;
            members.sort_by_cached_key(|m| m.encode_to_vec());
            out.push(p4::Entity {
                entity: Some(p4::entity::Entity::ValueSetEntry(p4::ValueSetEntry {
                    value_set_id: *id,
                    members,
                })),
            });
        }
        Ok(out)
    }
}
