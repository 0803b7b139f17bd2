//! Translation mappings as P4Runtime entities (`janus.Translation`
//! ExternEntries of type [`TRANSLATION_EXTERN_TYPE`]: pin, unpin, delete,
//! read), and what holds a translated value: the pipeline's table entries,
//! default actions and profile members, which a delete must not orphan
//! and a full type gives back (`crate::translation` has the rules).

use super::ForwardingPipeline;
use crate::codec::{RpcError, invalid};
use crate::proto::janus::Translation;
use crate::proto::p4::v1 as p4;
use crate::translation::{self, TRANSLATION_EXTERN_TYPE, TRANSLATION_TYPE_URL, Tr, lock};
use janus_engine::table::FieldMatch;
use janus_engine::value::Bits;
use tonic::Code;

/// The `janus.Translation` of a translation `ExternEntry`, if it has one.
fn entry_of(e: &p4::ExternEntry) -> Result<Option<Translation>, RpcError> {
    use prost::Message;
    let Some(any) = &e.entry else {
        return Ok(None);
    };
    if any.type_url.rsplit('/').next() != Some("janus.Translation") {
        return Err(invalid(format!(
            "a translation entry must be a janus.Translation, not {:?}",
            any.type_url
        )));
    }
    Translation::decode(any.value.as_slice())
        .map(Some)
        .map_err(|err| invalid(format!("the janus.Translation does not decode: {err}")))
}

fn entity(t: Translation) -> p4::Entity {
    use prost::Message;
    p4::Entity {
        entity: Some(p4::entity::Entity::ExternEntry(p4::ExternEntry {
            extern_type_id: TRANSLATION_EXTERN_TYPE,
            extern_id: 0,
            entry: Some(prost_types::Any {
                type_url: TRANSLATION_TYPE_URL.into(),
                value: t.encode_to_vec(),
            }),
        })),
    }
}

impl ForwardingPipeline {
    /// A write of a translation mapping (see the module comment): INSERT
    /// pins one, MODIFY pins or unpins an existing one (its data-plane
    /// value cannot change), DELETE removes one nothing holds.
    pub(crate) fn write_translation(
        &mut self,
        kind: p4::update::Type,
        e: &p4::ExternEntry,
    ) -> Result<(), RpcError> {
        use p4::update::Type;
        if e.extern_id != 0 {
            return Err(invalid("a translation entry has extern_id 0"));
        }
        let t = entry_of(e)?
            .ok_or_else(|| invalid("a translation write needs its janus.Translation"))?;
        let mut tr = lock(&self.translations);
        let ty = tr.find(&t.type_name).ok_or_else(|| {
            RpcError::new(
                Code::NotFound,
                format!("the program has no translated type {:?}", t.type_name),
            )
        })?;
        match kind {
            Type::Insert => tr.pin(ty, &t.sdn_value, &t.dp_value, t.pinned),
            Type::Modify => {
                let what = format!("translation of type {}", t.type_name);
                tr.repin(ty, &t.sdn_value, &t.dp_value, t.pinned, &what)
            }
            Type::Delete => {
                let what = format!("translation of type {}", t.type_name);
                let dp = tr.map_sdn(ty, &t.sdn_value, false, &what)?;
                drop(tr);
                if let Some(holder) = self.holder_of(ty, &dp) {
                    return Err(RpcError::new(
                        Code::FailedPrecondition,
                        format!("{what}: {holder} holds the value; delete that first"),
                    ));
                }
                lock(&self.translations).unmap(ty, &t.sdn_value).map(|_| ())
            }
            Type::Unspecified => Err(invalid("update type UNSPECIFIED")),
        }
    }

    /// The translation mappings a read asks for: all of them, those of
    /// the entry's `type_name`, or the one of its `sdn_value` too.
    pub(crate) fn read_translations(
        &self,
        f: &p4::ExternEntry,
    ) -> Result<Vec<p4::Entity>, RpcError> {
        let wanted = entry_of(f)?;
        let tr = lock(&self.translations);
        if let Some(w) = &wanted
            && !w.type_name.is_empty()
            && tr.find(&w.type_name).is_none()
        {
            return Err(RpcError::new(
                Code::NotFound,
                format!("the program has no translated type {:?}", w.type_name),
            ));
        }
        Ok(tr
            .mappings()
            .into_iter()
            .filter(|(name, sdn, _, _)| {
                wanted.as_ref().is_none_or(|w| {
                    (w.type_name.is_empty() || w.type_name == *name)
                        && (w.sdn_value.is_empty() || w.sdn_value == *sdn)
                })
            })
            .map(|(type_name, sdn_value, dp_value, pinned)| {
                entity(Translation {
                    type_name,
                    sdn_value,
                    dp_value,
                    pinned,
                })
            })
            .collect())
    }

    /// Whether update `u` can apply to this pipeline as far as translation
    /// goes: it is not a translation mapping, or this program has its type.
    pub(crate) fn takes_translation(&self, u: &p4::Update) -> bool {
        match u.entity.as_ref().and_then(|e| e.entity.as_ref()) {
            Some(p4::entity::Entity::ExternEntry(x))
                if x.extern_type_id == TRANSLATION_EXTERN_TYPE =>
            {
                entry_of(x)
                    .ok()
                    .flatten()
                    .is_some_and(|t| lock(&self.translations).find(&t.type_name).is_some())
            }
            _ => true,
        }
    }

    /// What holds data-plane value `dp` of translated type `ty`: a table
    /// entry (its match or arguments), a default action, or an action
    /// profile member; for messages.
    fn holder_of(&self, ty: usize, dp: &Bits) -> Option<String> {
        let sdn = lock(&self.translations).sdn_of_dp(ty, dp);
        let mut found = None;
        self.held(ty, &mut |v, holder| {
            let hit = match v {
                Held::Dp(v) => v == dp,
                Held::Sdn(v) => *v == sdn,
            };
            if hit {
                found = Some(holder());
            }
            hit
        });
        found
    }

    /// Visits every value of translated type `ty` the state holds (with a
    /// description of its holder) until `visit` returns true: table
    /// entries' matches and arguments and default actions (data-plane
    /// values), members', one-shot sets' and group actions' arguments (SDN
    /// values, as written).
    fn held(&self, ty: usize, visit: &mut dyn FnMut(Held<'_>, &dyn Fn() -> String) -> bool) {
        let is = |tr: &Option<Tr>| tr.as_ref().is_some_and(|t| t.ty == ty);
        for t in self.tables.in_order() {
            let Some(state) = self.switch.table(t.slot) else {
                continue;
            };
            let entry = || format!("an entry of table {}", t.name);
            for e in state.entries() {
                for (tr, m) in t.field_trs().zip(&e.key) {
                    if !is(tr) {
                        continue;
                    }
                    let values: &[&Bits] = match m {
                        FieldMatch::Exact(v) | FieldMatch::Optional(Some(v)) => &[v],
                        FieldMatch::Lpm { value, .. } | FieldMatch::Ternary { value, .. } => {
                            &[value]
                        }
                        FieldMatch::Range { lo, hi } => &[lo, hi],
                        FieldMatch::Optional(None) => &[],
                    };
                    if values.iter().any(|v| visit(Held::Dp(v), &entry)) {
                        return;
                    }
                }
                for (tr, v) in t.param_trs(e.action).iter().zip(&e.args) {
                    if is(tr) && visit(Held::Dp(v), &entry) {
                        return;
                    }
                }
            }
            if let Some((action, args)) = &state.default {
                let default = || format!("the default action of table {}", t.name);
                for (tr, v) in t.param_trs(*action).iter().zip(args) {
                    if is(tr) && visit(Held::Dp(v), &default) {
                        return;
                    }
                }
            }
        }
        for (profile, a) in self.profiles.written_actions() {
            let member = || format!("a member of action profile {profile}");
            let Some(t) = self.tables.in_order().find(|t| t.profile == Some(profile)) else {
                continue;
            };
            for (tr, p) in t.param_trs_of(a.action_id).iter().zip(&a.params) {
                if is(tr) && visit(Held::Sdn(&p.value), &member) {
                    return;
                }
            }
        }
    }

    /// Removes the mappings of type `ty` the server allocated that nothing
    /// holds any more (when the type is full); returns how many.
    pub(crate) fn reclaim(&mut self, ty: usize) -> usize {
        let mut dps = std::collections::HashSet::new();
        let mut sdns = std::collections::HashSet::new();
        self.held(ty, &mut |v, _| {
            match v {
                Held::Dp(v) => dps.insert(translation::dp_number(v)),
                Held::Sdn(v) => sdns.insert(v.clone()),
            };
            false
        });
        lock(&self.translations).release_unheld(ty, &dps, &sdns)
    }
}

/// A value of a translated type some state holds.
enum Held<'a> {
    /// In the data plane's representation (table entries).
    Dp(&'a Bits),
    /// In the controller's, as written (members).
    Sdn(&'a Vec<u8>),
}
