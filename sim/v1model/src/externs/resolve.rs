//! Resolution: at load, each extern call site bound to the operation it
//! runs and the state it touches.

use super::{Call, DATA_LISTS, Kept, Site, StateId, V1Externs};
use janus_engine::eval::Place;
use janus_engine::externs::{CallSite, ExternArg, ExternResolver};
use janus_p4::ir::InstanceId;

impl ExternResolver for V1Externs {
    fn resolve(&self, site: &CallSite<'_>) -> Option<u32> {
        let (name, instance, path) = (site.name, site.instance, site.path);
        let kind = instance
            .and_then(|i| self.kinds.get(&i))
            .map(String::as_str);
        let state = instance.and_then(|i| self.state_of(path, i));
        let call = match (name, kind, state) {
            ("mark_to_drop", None, _) => Call::MarkToDrop,
            ("count", Some("counter"), Some(i)) => Call::Count(i),
            ("count", Some("direct_counter"), Some(i)) => Call::DirectCount(i),
            ("execute_meter", Some("meter"), Some(i)) => Call::ExecuteMeter(i),
            ("read", Some("direct_meter"), Some(i)) => {
                self.note_colour_target(i, site.args.first());
                Call::DirectMeterRead(i)
            }
            ("read", Some("register"), Some(i)) => Call::RegisterRead(i),
            ("write", Some("register"), Some(i)) => Call::RegisterWrite(i),
            ("verify_checksum", None, _) => Call::VerifyChecksum,
            ("update_checksum", None, _) => Call::UpdateChecksum,
            ("verify_checksum_with_payload", None, _) => Call::VerifyChecksumWithPayload,
            ("update_checksum_with_payload", None, _) => Call::UpdateChecksumWithPayload,
            ("truncate", None, _) => Call::Truncate,
            ("clone", None, _) => Call::Clone {
                kept: Kept::Nothing,
            },
            ("clone3", None, _) => Call::Clone {
                kept: self.data_list(site.args.get(2)),
            },
            ("clone_preserving_field_list", None, _) => Call::Clone {
                kept: Kept::FieldList { index: 2 },
            },
            ("resubmit", None, _) => Call::Resubmit {
                kept: self.data_list(site.args.first()),
            },
            ("resubmit_preserving_field_list", None, _) => Call::Resubmit {
                kept: Kept::FieldList { index: 0 },
            },
            ("recirculate", None, _) => Call::Recirculate {
                kept: self.data_list(site.args.first()),
            },
            ("recirculate_preserving_field_list", None, _) => Call::Recirculate {
                kept: Kept::FieldList { index: 0 },
            },
            ("hash", None, _) => Call::Hash,
            ("random", None, _) => Call::Random,
            ("digest", None, _) => Call::Digest,
            ("log_msg" | "assert" | "assume", None, _) => Call::NoOp,
            _ => return None,
        };
        let mut calls = self.calls.borrow_mut();
        let (checksum, guard) = match call {
            Call::VerifyChecksum
            | Call::UpdateChecksum
            | Call::VerifyChecksumWithPayload
            | Call::UpdateChecksumWithPayload => match self.fast_checksum_of(call, site.args) {
                Some((fast, guard)) => (Some(fast), guard.map(Box::new)),
                None => (None, None),
            },
            _ => (None, None),
        };
        calls.push(Site {
            call,
            checksum,
            guard,
        });
        Some(calls.len() as u32 - 1)
    }

    /// The data of `hash`, the checksums and `digest`: a struct there is
    /// its fields (a struct given alone to `clone3`, `resubmit` or
    /// `recirculate` stays whole: one run of its bytes to keep).
    fn is_data(&self, name: &str, instance: Option<InstanceId>, index: usize) -> bool {
        matches!(
            (name, instance, index),
            ("hash", None, 3)
                | (
                    "verify_checksum"
                        | "update_checksum"
                        | "verify_checksum_with_payload"
                        | "update_checksum_with_payload"
                        | "digest",
                    None,
                    1
                )
        )
    }
}

impl V1Externs {
    /// What a deprecated call keeps of its `data` argument: a field list
    /// made of its fields' (bit, width) runs, or nothing.
    pub(super) fn data_list(&self, data: Option<&ExternArg>) -> Kept {
        let mut runs = Vec::new();
        if let Some(d) = data {
            self.data_runs(d, &mut runs);
        }
        if runs.is_empty() {
            return Kept::Nothing;
        }
        let mut lists = self.data_lists.borrow_mut();
        lists.push(runs);
        Kept::Data(DATA_LISTS + lists.len() as u32 - 1)
    }

    /// The (bit, width) runs of the fields in `arg` that sit at fixed
    /// places (a struct as one run of its bytes).
    pub(super) fn data_runs(&self, arg: &ExternArg, out: &mut Vec<(u32, u32)>) {
        match arg {
            ExternArg::Data(layout) => out.extend(layout.runs().iter().map(|r| (r.bit, r.width))),
            ExternArg::List(parts) | ExternArg::Guarded { parts, .. } => {
                for p in parts {
                    self.data_runs(p, out);
                }
            }
            ExternArg::Place {
                place: Place::Fixed { bit, .. },
                ty,
            } => {
                let width = self
                    .width(*ty)
                    .or_else(|| self.sizes.get(ty.0 as usize).copied().flatten());
                if let Some(w) = width {
                    out.push((*bit, w));
                }
            }
            _ => {}
        }
    }

    /// Notes where direct meter `id`'s `read(colour)` writes, if at a fixed
    /// place and the first such read: bmv2 writes the colour there on every
    /// hit of the meter's table, before the action runs.
    pub(super) fn note_colour_target(&self, id: StateId, colour: Option<&ExternArg>) {
        let mut targets = self.colour_targets.borrow_mut();
        if targets.iter().any(|(m, _, _)| *m == id) {
            return;
        }
        if let Some(ExternArg::Place {
            place: Place::Fixed { bit, .. },
            ty,
        }) = colour
            && let Some(width) = self.width(*ty)
        {
            targets.push((id, *bit, width));
        }
    }

    pub(super) fn state_of(&self, path: &str, inst: InstanceId) -> Option<StateId> {
        self.states
            .get(&(path.to_string(), inst))
            .or_else(|| self.states.get(&(String::new(), inst)))
            .copied()
    }
}
