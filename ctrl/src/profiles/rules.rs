//! What a profile's P4Info allows: selector size semantics and limits,
//! member weights, watch ports.

use super::MAX_PORT;
use crate::codec::{RpcError, from_bytes, invalid, to_bytes};
use crate::proto::p4::config::v1 as cfg;
use crate::proto::p4::v1 as p4;

/// How a selector group's size is counted (`selector_size_semantics`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Semantics {
    SumOfWeights,
    /// The number of members; each weight at most this (0: any).
    SumOfMembers(i32),
}

/// A selector's limits on its groups.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rules {
    /// The largest group, as `semantics` counts (0: none stated).
    pub(super) max_group_size: u64,
    pub(super) semantics: Semantics,
    /// The target chooses the weights: clients leave them at 0.
    pub(super) weights_disallowed: bool,
}

impl Rules {
    /// The limits a P4Info states on an action selector: its
    /// `max_group_size`, `selector_size_semantics` and
    /// `weights_disallowed`, else the annotations that set them,
    /// `@max_group_size(N)`, `@selector_size_semantics(sum_of_weights |
    /// sum_of_members)` and `@max_member_weight(N)` (P4Runtime §6.4.3).
    /// `None` where it states nothing.
    pub(super) fn stated(a: &cfg::ActionProfile) -> (Option<u64>, Option<Semantics>, bool) {
        use cfg::action_profile::SelectorSizeSemantics as S;
        let annotations = a
            .preamble
            .as_ref()
            .map_or(&[][..], |p| p.annotations.as_slice());
        let int = |name: &str| {
            annotation_arg(annotations, name).and_then(|v| {
                let v = v.trim();
                match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
                    Some(hex) => u64::from_str_radix(hex, 16).ok(),
                    None => v.parse::<u64>().ok(),
                }
            })
        };
        let max_group_size = match a.max_group_size {
            n if n > 0 => Some(n as u64),
            _ => int("max_group_size").filter(|&n| n > 0),
        };
        let annotated_weight =
            || int("max_member_weight").map_or(0, |w| i32::try_from(w).unwrap_or(i32::MAX));
        let semantics = match a.selector_size_semantics {
            Some(S::SumOfWeights(_)) => Some(Semantics::SumOfWeights),
            Some(S::SumOfMembers(m)) if m.max_member_weight > 0 => {
                Some(Semantics::SumOfMembers(m.max_member_weight))
            }
            Some(S::SumOfMembers(_)) => Some(Semantics::SumOfMembers(annotated_weight())),
            None => match annotation_arg(annotations, "selector_size_semantics").as_deref() {
                Some("sum_of_members") => Some(Semantics::SumOfMembers(annotated_weight())),
                Some("sum_of_weights") => Some(Semantics::SumOfWeights),
                _ => None,
            },
        };
        (max_group_size, semantics, a.weights_disallowed)
    }

    /// The limits on the groups of profile `a`: what `a` states, else
    /// what the pushed P4Info states of the profile with its id.
    pub(super) fn of(a: &cfg::ActionProfile, pushed: &cfg::P4Info) -> Rules {
        let (mut max_group_size, mut semantics, mut weights_disallowed) = Rules::stated(a);
        let id = a.preamble.as_ref().map_or(0, |p| p.id);
        let theirs = pushed
            .action_profiles
            .iter()
            .find(|x| x.preamble.as_ref().is_some_and(|p| p.id == id));
        if let Some(x) = theirs {
            let (m, s, w) = Rules::stated(x);
            max_group_size = max_group_size.or(m);
            semantics = semantics.or(s);
            weights_disallowed |= w;
        }
        Rules {
            max_group_size: max_group_size.unwrap_or(0),
            semantics: semantics.unwrap_or(Semantics::SumOfWeights),
            weights_disallowed,
        }
    }

    /// The size of a group of `members` members whose weights sum to
    /// `weight`, as `semantics` counts it.
    pub(super) fn size(semantics: Semantics, members: u64, weight: u64) -> u64 {
        match semantics {
            Semantics::SumOfWeights => weight,
            Semantics::SumOfMembers(_) => members,
        }
    }

    /// What `semantics` counts, for messages.
    pub(super) fn unit(semantics: Semantics) -> &'static str {
        match semantics {
            Semantics::SumOfWeights => "the sum of the weights",
            Semantics::SumOfMembers(_) => "members",
        }
    }

    /// The weight the model uses for a member written with `weight`.
    pub(super) fn weight(
        &self,
        semantics: Semantics,
        weight: i32,
        what: &str,
    ) -> Result<u32, RpcError> {
        if self.weights_disallowed {
            return if weight == 0 {
                Ok(1)
            } else {
                Err(invalid(format!(
                    "{what}: weight {weight}; this selector's weights are the target's (weights_disallowed): leave it at 0"
                )))
            };
        }
        if weight <= 0 {
            return Err(invalid(format!(
                "{what}: weight {weight}; a weight is at least 1"
            )));
        }
        if let Semantics::SumOfMembers(max) = semantics
            && max > 0
            && weight > max
        {
            return Err(invalid(format!(
                "{what}: weight {weight} exceeds the selector's max_member_weight {max}"
            )));
        }
        Ok(weight as u32)
    }
}

/// The text inside `@name(...)` among `annotations`, unquoted.
pub(super) fn annotation_arg(annotations: &[String], name: &str) -> Option<String> {
    annotations.iter().find_map(|a| {
        let rest = a.strip_prefix('@')?.strip_prefix(name)?;
        let inner = rest.trim().strip_prefix('(')?.strip_suffix(')')?.trim();
        Some(inner.trim_matches('"').to_string())
    })
}

/// A watch port as written, checked and canonical: `None` when there is
/// none; the port (0..=511) otherwise. An empty `watch_port` is no watch
/// port and is kept as written.
pub(super) fn watch_port(
    watch: Option<i32>,
    port: Option<&[u8]>,
    what: &str,
) -> Result<(), RpcError> {
    let value = match (watch, port) {
        (Some(w), _) => u64::try_from(w).unwrap_or(u64::MAX),
        (None, Some([])) | (None, None) => return Ok(()),
        (None, Some(b)) => {
            let v = from_bytes(b, 64, false, &format!("{what}: watch_port"))
                .map_err(|e| invalid(e.message))?;
            v.to_u64().unwrap_or(u64::MAX)
        }
    };
    if value > MAX_PORT {
        return Err(invalid(format!(
            "{what}: watch port {value} is not a port of the switch (0..={MAX_PORT})"
        )));
    }
    Ok(())
}

/// The canonical `watch_port` bytes of a non-empty, checked one.
pub(super) fn canonical_port(b: &[u8]) -> Vec<u8> {
    from_bytes(b, 64, false, "watch_port").map_or_else(|_| b.to_vec(), |v| to_bytes(&v))
}

pub(super) fn group_watch(
    w: &Option<p4::action_profile_group::member::WatchKind>,
    what: &str,
) -> Result<Option<p4::action_profile_group::member::WatchKind>, RpcError> {
    use p4::action_profile_group::member::WatchKind as W;
    #[allow(deprecated)]
    match w {
        None => Ok(None),
        Some(W::Watch(x)) => watch_port(Some(*x), None, what).map(|()| Some(W::Watch(*x))),
        Some(W::WatchPort(b)) if b.is_empty() => Ok(Some(W::WatchPort(Vec::new()))),
        Some(W::WatchPort(b)) => {
            watch_port(None, Some(b), what).map(|()| Some(W::WatchPort(canonical_port(b))))
        }
    }
}

pub(super) fn action_watch(
    w: &Option<p4::action_profile_action::WatchKind>,
    what: &str,
) -> Result<Option<p4::action_profile_action::WatchKind>, RpcError> {
    use p4::action_profile_action::WatchKind as W;
    #[allow(deprecated)]
    match w {
        None => Ok(None),
        Some(W::Watch(x)) => watch_port(Some(*x), None, what).map(|()| Some(W::Watch(*x))),
        Some(W::WatchPort(b)) if b.is_empty() => Ok(Some(W::WatchPort(Vec::new()))),
        Some(W::WatchPort(b)) => {
            watch_port(None, Some(b), what).map(|()| Some(W::WatchPort(canonical_port(b))))
        }
    }
}
