//! Table rules p4c checks outside its type checker: entries need a key
//! (`TypeInference::preorder(EntriesList)`), entry priorities as
//! `EntryPriorities` computes them, and the `NoAction` that
//! `CreateBuiltins` makes the default action of a table without one.

use super::exprs::const_int;
use super::tables::PriorityProp;
use super::{Binding, Checker};
use crate::ast::{self, TablePropKind};
use crate::diag::Code;
use crate::ir;
use num_traits::ToPrimitive;

impl Checker<'_> {
    /// True if the table declares a key with at least one element (an
    /// empty `key = {}` is no key, as the spec says).
    pub(crate) fn has_key(t: &ast::TableDecl) -> bool {
        t.props
            .iter()
            .any(|p| matches!(&p.kind, TablePropKind::Key(k) if !k.is_empty()))
    }

    /// Entry priorities, as p4c's `EntryPriorities` pass checks them:
    /// explicit ones need a key whose match kinds
    /// need them (not only `exact` and `lpm`) and one on the first entry;
    /// the priority p4c derives after each entry (minus `priority_delta`,
    /// or plus it when `largest_priority_wins = false`) must not leave
    /// 0 ... 2^64-1.
    /// `bad_props` are the table's `largest_priority_wins` and
    /// `priority_delta` values p4c refuses: errors only where it reads
    /// them, to number entries that are not `const`.
    pub(crate) fn check_entry_priorities(
        &mut self,
        t: &ast::TableDecl,
        table: &ir::Table,
        bad_props: &[PriorityProp],
    ) {
        // Recent p4c takes priorities in `const entries` too (the valid
        // corpus has such tables); older releases refused them there.
        let Some((entries, is_const)) = t.props.iter().find_map(|p| match &p.kind {
            TablePropKind::Entries(e) => Some((e, p.is_const)),
            _ => None,
        }) else {
            return;
        };
        if !Self::has_key(t) {
            return;
        }
        if !is_const && let Some(bad) = bad_props.first() {
            self.error(Code::BadEntryPriority, bad.span, bad.why);
            return;
        }
        if entries.is_empty() {
            return;
        }
        let first_explicit = entries.iter().find_map(|e| e.priority.as_ref());
        let delta = table.priority_delta;
        let largest_wins = table.largest_priority_wins;
        let Some(first) = first_explicit else {
            if is_const {
                // p4c numbers only entries that are not `const`.
                return;
            }
            // Priorities all derived: 1, 1 + delta, ... (in reverse order when
            // the largest wins).
            let mut current: u64 = 1;
            for e in entries {
                match current.checked_add(delta) {
                    Some(n) => current = n,
                    None => {
                        self.overflow(t, e.keyset.span, false);
                        return;
                    }
                }
            }
            return;
        };
        let needs = table
            .keys
            .iter()
            .any(|k| k.match_kind != "exact" && k.match_kind != "lpm");
        if !needs {
            self.error(
                Code::BadEntryPriority,
                first.span,
                format!(
                    "the key of table `{}` is matched only `exact` or `lpm`, which need no priorities, but an entry gives one",
                    t.name.name
                ),
            );
            return;
        }
        let mut current: u64 = 0;
        for (i, e) in entries.iter().enumerate() {
            let at = match &e.priority {
                Some(p) => {
                    let v = self.expr(p, None);
                    match const_int(&v).map(|x| x.to_u64()) {
                        Some(Some(x)) => current = x,
                        Some(None) => {
                            self.error(
                                Code::BadEntryPriority,
                                p.span,
                                "an entry priority must be a non-negative integer below 2^64",
                            );
                            return;
                        }
                        // Not a constant: reported with the entry.
                        None => return,
                    }
                    p.span
                }
                None if i == 0 => {
                    self.error(
                        Code::BadEntryPriority,
                        e.keyset.span,
                        format!(
                            "other entries of table `{}` have priorities, so the first entry needs one too",
                            t.name.name
                        ),
                    );
                    return;
                }
                None => e.keyset.span,
            };
            let next = if largest_wins {
                current.checked_sub(delta)
            } else {
                current.checked_add(delta)
            };
            match next {
                Some(n) => current = n,
                None => {
                    self.overflow(t, at, largest_wins);
                    return;
                }
            }
        }
    }

    /// p4c's `TypeInference::preorder(EntriesList)`: a table's entries come
    /// after its key, which they match.
    pub(crate) fn check_entries_after_key(&mut self, t: &ast::TableDecl) {
        let position = |key: bool| {
            t.props.iter().position(|p| match p.kind {
                TablePropKind::Key(_) => key,
                TablePropKind::Entries(_) => !key,
                _ => false,
            })
        };
        if let (Some(key), Some(entries)) = (position(true), position(false))
            && entries < key
        {
            self.error(
                Code::BadTableProperty,
                t.props[entries].span,
                format!(
                    "the entries of table `{}` must come after its `key`",
                    t.name.name
                ),
            );
        }
    }

    fn overflow(&mut self, t: &ast::TableDecl, at: crate::source::Span, down: bool) {
        let how = if down {
            "below 0 (with `largest_priority_wins`, the default, each entry without a priority gets the previous one minus `priority_delta`)"
        } else {
            "above 2^64-1 (each entry without a priority gets the previous one plus `priority_delta`)"
        };
        self.error(
            Code::BadEntryPriority,
            at,
            format!(
                "overflow in the priority computation of table `{}`: the priority after this entry would be {how}",
                t.name.name
            ),
        );
    }

    /// The `NoAction` a table without `default_action` gets (p4c's
    /// `CreateBuiltins::checkGlobalAction`): a top-level action with no
    /// parameters and an empty body. False (after reporting) if there is
    /// none.
    pub(crate) fn check_global_no_action(&mut self, table: &ir::Table) -> bool {
        let why = match self.lookup_global("NoAction") {
            None => "no action `NoAction` is declared; include core.p4".to_string(),
            Some(Binding::Action(id)) => {
                let act = &self.prog.actions[id.0 as usize];
                if !act.params.is_empty() {
                    "`NoAction` must be an action without parameters, as core.p4 declares it"
                        .to_string()
                } else if !act.body.is_empty() {
                    "`NoAction` must be an action with an empty body, as core.p4 declares it"
                        .to_string()
                } else {
                    return true;
                }
            }
            Some(other) => format!(
                "`NoAction` is {}, not the action core.p4 declares",
                other.describe()
            ),
        };
        let span = table.span;
        self.error(
            Code::MissingNoAction,
            span,
            format!(
                "table `{}` has no `default_action`, so its default is `NoAction`, but {why}",
                table.name
            ),
        );
        false
    }
}
