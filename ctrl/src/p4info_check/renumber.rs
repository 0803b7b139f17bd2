//! Step 3: the program's P4Info renumbered with the pushed one's ids.

use super::*;

/// Which pushed id each program id becomes: objects by kind and id,
/// match fields, parameters and metadata by their object and id.
#[derive(Clone, Debug, Default)]
pub struct Renumbering {
    ids: HashMap<(Kind, u32), u32>,
    sub: HashMap<(Kind, u32, u32), u32>,
    /// (table, action), in the program's ids: action refs the pushed
    /// P4Info makes GROUP_ACTION ([`super::compare::group_action_refs`]).
    pub(super) group_actions: BTreeSet<(u32, u32)>,
}

impl Renumbering {
    fn object(&self, kind: Kind, id: u32) -> u32 {
        self.ids.get(&(kind, id)).copied().unwrap_or(id)
    }

    fn direct(&self, id: u32) -> u32 {
        self.ids
            .get(&(Kind::DirectCounter, id))
            .or_else(|| self.ids.get(&(Kind::DirectMeter, id)))
            .copied()
            .unwrap_or(id)
    }

    fn field(&self, kind: Kind, object: u32, id: u32) -> u32 {
        self.sub.get(&(kind, object, id)).copied().unwrap_or(id)
    }

    pub(super) fn pair(
        &mut self,
        kind: Kind,
        program: &Option<cfg::Preamble>,
        pushed: &Option<cfg::Preamble>,
    ) {
        self.ids.insert((kind, pre(program).id), pre(pushed).id);
    }

    pub(super) fn pair_fields(
        &mut self,
        kind: Kind,
        object: u32,
        program: impl Iterator<Item = u32>,
        pushed: impl Iterator<Item = u32>,
    ) {
        for (p, c) in program.zip(pushed) {
            self.sub.insert((kind, object, p), c);
        }
    }

    /// `program` with every id replaced by the pushed P4Info's: preambles,
    /// references, match field, parameter and metadata ids. Everything
    /// else (names, widths, sizes, annotations, types) stays the program's,
    /// but for the action refs the pushed P4Info scopes GROUP_ACTION
    /// (which no program's P4Info states: see [`group_action_refs`]).
    pub fn apply(&self, program: &cfg::P4Info) -> cfg::P4Info {
        let mut out = program.clone();
        let set = |p: &mut Option<cfg::Preamble>, kind: Kind| -> u32 {
            let p = p.get_or_insert_with(Default::default);
            let old = p.id;
            p.id = self.object(kind, old);
            old
        };
        for t in &mut out.tables {
            let old = set(&mut t.preamble, Kind::Table);
            for m in &mut t.match_fields {
                m.id = self.field(Kind::Table, old, m.id);
            }
            for r in &mut t.action_refs {
                if self.group_actions.contains(&(old, r.id)) {
                    r.scope = cfg::action_ref::Scope::GroupAction as i32;
                }
                r.id = self.object(Kind::Action, r.id);
            }
            if t.const_default_action_id != 0 {
                t.const_default_action_id = self.object(Kind::Action, t.const_default_action_id);
            }
            if let Some(call) = t.initial_default_action.as_mut() {
                let action = call.action_id;
                call.action_id = self.object(Kind::Action, action);
                for a in &mut call.arguments {
                    a.param_id = self.field(Kind::Action, action, a.param_id);
                }
            }
            if t.implementation_id != 0 {
                t.implementation_id = self.object(Kind::ActionProfile, t.implementation_id);
            }
            for d in &mut t.direct_resource_ids {
                *d = self.direct(*d);
            }
        }
        for a in &mut out.actions {
            let old = set(&mut a.preamble, Kind::Action);
            for p in &mut a.params {
                p.id = self.field(Kind::Action, old, p.id);
            }
        }
        for a in &mut out.action_profiles {
            set(&mut a.preamble, Kind::ActionProfile);
            for t in &mut a.table_ids {
                *t = self.object(Kind::Table, *t);
            }
        }
        for c in &mut out.counters {
            set(&mut c.preamble, Kind::Counter);
        }
        for c in &mut out.direct_counters {
            set(&mut c.preamble, Kind::DirectCounter);
            if c.direct_table_id != 0 {
                c.direct_table_id = self.object(Kind::Table, c.direct_table_id);
            }
        }
        for m in &mut out.meters {
            set(&mut m.preamble, Kind::Meter);
        }
        for m in &mut out.direct_meters {
            set(&mut m.preamble, Kind::DirectMeter);
            if m.direct_table_id != 0 {
                m.direct_table_id = self.object(Kind::Table, m.direct_table_id);
            }
        }
        for r in &mut out.registers {
            set(&mut r.preamble, Kind::Register);
        }
        for v in &mut out.value_sets {
            let old = set(&mut v.preamble, Kind::ValueSet);
            for m in &mut v.r#match {
                m.id = self.field(Kind::ValueSet, old, m.id);
            }
        }
        for d in &mut out.digests {
            set(&mut d.preamble, Kind::Digest);
        }
        for h in &mut out.controller_packet_metadata {
            let old = set(&mut h.preamble, Kind::ControllerHeader);
            for m in &mut h.metadata {
                m.id = self.field(Kind::ControllerHeader, old, m.id);
            }
        }
        out
    }
}
