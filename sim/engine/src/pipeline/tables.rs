//! Tables and value sets as the program declares them: key shapes, size,
//! default action and the program's own `entries`, read from the IR when a
//! pipeline is loaded. Each refusal names the place in the program.

use crate::eval::{CompileError, constant, scalar_shape};
use crate::table::{Entry, FieldMatch, KeySpec, MatchKind, TableState};
use crate::value::Bits;
use janus_p4::ir::{self, ExprKind};

/// An empty table shaped as the IR declares it: its key fields, size
/// (1024 when not given; per instance when computed from constructor
/// parameters), and its default action: `default_action`, or
/// `NoAction` when the table lists it and gives none.
pub(crate) fn table_from_ir(p: &ir::Program, t: &ir::Table) -> Result<TableState, CompileError> {
    let mut keys = Vec::with_capacity(t.keys.len());
    for k in &t.keys {
        if k.match_kind == "selector" {
            continue;
        }
        let here = |e: CompileError| e.at(p, k.expr.span);
        let kind = MatchKind::from_p4(&k.match_kind)
            .ok_or_else(|| here(CompileError::Unsupported("this match kind")))?;
        let (width, signed) = scalar_shape(&p.types, k.expr.ty)
            .ok_or_else(|| here(CompileError::Unsupported("a composite table key")))?;
        keys.push(KeySpec {
            kind,
            width,
            signed,
        });
    }
    // A `size` over constructor parameters was folded per instance
    // (`lower`); one still open did not fold.
    if let (None, Some(size)) = (t.size, &t.size_expr) {
        return Err(
            CompileError::Unsupported("a table size that does not fold to a constant")
                .at(p, size.span),
        );
    }
    let mut table = TableState::new(keys, t.size.unwrap_or(1024) as usize);
    table.direct_counter = t.direct_counter.is_some();
    table.idle_timeout = t.support_timeout;
    let listed = |a: ir::ActionId| t.actions.iter().position(|x| x.action == a);
    table.default = match &t.default_action {
        Some(call) => {
            let index = listed(call.action).ok_or(CompileError::Unsupported(
                "a default action missing from the list",
            ))?;
            let args = action_args(p, call, "a default action argument that is not a constant")?;
            Some((index, args))
        }
        None => t
            .actions
            .iter()
            .position(|x| p.actions[x.action.0 as usize].name == "NoAction")
            .map(|i| (i, Vec::new())),
    };
    let priorities = entry_priorities(t);
    for (e, priority) in t.entries.iter().zip(priorities) {
        let key = e
            .keys
            .iter()
            .zip(&table.keys)
            .map(|(k, spec)| entry_field(p, k, spec).map_err(|err| err.at(p, k.span)))
            .collect::<Result<Vec<_>, _>>()?;
        let index = listed(e.action.action).ok_or_else(|| {
            let error = CompileError::Unsupported("an entry action missing from the list");
            match e.keys.first() {
                Some(k) => error.at(p, k.span),
                None => error,
            }
        })?;
        let args = action_args(p, &e.action, "an entry argument that is not a constant")?;
        // Duplicates in a program's entries: the first one stands.
        let _ = table.insert(Entry {
            key,
            priority,
            action: index,
            args,
        });
    }
    Ok(table)
}

/// The constant arguments `call` gives its action's directionless
/// parameters (the ones the control plane would give); `what` names a
/// refused one, at its place.
fn action_args(
    p: &ir::Program,
    call: &ir::ActionCall,
    what: &'static str,
) -> Result<Vec<Bits>, CompileError> {
    let params = &p.actions[call.action.0 as usize].params;
    let mut args = Vec::new();
    for (param, arg) in params.iter().zip(&call.args) {
        if param.direction != ir::Direction::None {
            continue;
        }
        let value = match arg.as_ref().map(|a| &a.kind) {
            Some(ExprKind::Const(v)) => constant(&p.types, param.ty, v),
            _ => None,
        };
        let refused = || match arg {
            Some(a) => CompileError::Unsupported(what).at(p, a.span),
            None => CompileError::Unsupported(what),
        };
        args.push(value.ok_or_else(refused)?);
    }
    Ok(args)
}

/// The members of a parser `value_set<T>(size)`, kept as a table: one
/// ternary key per field of `T` (or one for a scalar `T`), so members
/// may be values or value/mask pairs; a select case on the set matches
/// when a member matches every key.
pub(crate) fn value_set_table(
    p: &ir::Program,
    vs: &ir::ValueSet,
) -> Result<TableState, CompileError> {
    let fields: Vec<janus_p4::types::TyId> = match p.types.struct_info(vs.elem) {
        Some(info) => info.fields.iter().map(|f| f.ty).collect(),
        None => vec![vs.elem],
    };
    let keys = fields
        .into_iter()
        .map(|ty| {
            let (width, signed) = scalar_shape(&p.types, ty).ok_or(CompileError::Unsupported(
                "a value set of nested composites",
            ))?;
            Ok(KeySpec {
                kind: MatchKind::Ternary,
                width,
                signed,
            })
        })
        .collect::<Result<Vec<_>, CompileError>>()?;
    Ok(TableState::new(keys, vs.size as usize))
}

/// The priority of each of a program's `entries`, larger winning (P4_16,
/// "Entry priorities"): with none written, the first entry wins; else an
/// entry without one takes the previous entry's minus `priority_delta`
/// (plus, with `largest_priority_wins = false`), and with
/// `largest_priority_wins = false` the smaller number wins, so priorities
/// are negated. Equal priorities: the earlier entry wins.
///
/// Entries given `@priority(N)` and no `priority = N:` (the only way to
/// rank `const entries` in p4c) rank as bmv2 ranks the entries p4c writes
/// into its JSON: the annotation's number, else the entry's position
/// (1, 2, ...), the smaller number winning; `largest_priority_wins` and
/// `priority_delta` do not apply to them (p4c leaves `const entries`
/// alone).
fn entry_priorities(t: &ir::Table) -> Vec<i64> {
    let to_i64 = |v: &Option<num_bigint::BigInt>| v.as_ref().and_then(|v| i64::try_from(v).ok());
    if t.entries.iter().all(|e| e.priority.is_none())
        && t.entries.iter().any(|e| e.priority_annotation.is_some())
    {
        return t
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let bmv2 = to_i64(&e.priority_annotation).unwrap_or(i as i64 + 1);
                bmv2.saturating_neg()
            })
            .collect();
    }
    let written: Vec<Option<i64>> = t
        .entries
        .iter()
        .map(|e| to_i64(&e.priority).or_else(|| to_i64(&e.priority_annotation)))
        .collect();
    let n = written.len() as i64;
    if written.iter().all(Option::is_none) {
        return (0..n).map(|i| n - i).collect();
    }
    let delta = i64::try_from(t.priority_delta).unwrap_or(i64::MAX);
    let mut previous: Option<i64> = None;
    let mut out = Vec::with_capacity(written.len());
    for w in written {
        let p = match (w, previous) {
            (Some(p), _) => p,
            (None, Some(q)) if t.largest_priority_wins => q.saturating_sub(delta),
            (None, Some(q)) => q.saturating_add(delta),
            // The first entry has none though others do (p4c rejects
            // this): it ranks first.
            (None, None) if t.largest_priority_wins => i64::MAX,
            (None, None) => i64::MIN + 1,
        };
        previous = Some(p);
        out.push(if t.largest_priority_wins { p } else { -p });
    }
    out
}

/// One key field of a program-written entry, as its table's match kind reads it.
fn entry_field(p: &ir::Program, k: &ir::Expr, spec: &KeySpec) -> Result<FieldMatch, CompileError> {
    let (w, s) = (spec.width, spec.signed);
    let elem = match p.types.get(k.ty) {
        janus_p4::types::Ty::Set(e) => *e,
        _ => k.ty,
    };
    let value = |e: &ir::Expr| match &e.kind {
        ExprKind::Const(v) => constant(&p.types, elem, v)
            .map(|b| b.cast(w, s))
            .ok_or(CompileError::Unsupported("this entry key")),
        _ => Err(CompileError::Unsupported("a run-time entry key")),
    };
    let any = || match spec.kind {
        // `_` in a program's entries matches any value even for an exact
        // key: a ternary field with an empty mask (see `mask_of`).
        MatchKind::Exact | MatchKind::Ternary => Ok(FieldMatch::Ternary {
            value: Bits::zero(w, s),
            mask: Bits::zero(w, s),
        }),
        MatchKind::Lpm => Ok(FieldMatch::Lpm {
            value: Bits::zero(w, s),
            len: 0,
        }),
        MatchKind::Range => Ok(FieldMatch::Range {
            lo: Bits::zero(w, s),
            hi: TableState::all_ones(w, s),
        }),
        MatchKind::Optional => Ok(FieldMatch::Optional(None)),
    };
    match &k.kind {
        ExprKind::Default | ExprKind::DontCare => any(),
        ExprKind::Mask(v, m) => {
            let (v, m) = (value(v)?, value(m)?);
            Ok(match spec.kind {
                MatchKind::Lpm => FieldMatch::Lpm {
                    len: m.words().iter().map(|x| x.count_ones()).sum(),
                    value: v.and(&m),
                },
                _ => FieldMatch::Ternary { value: v, mask: m },
            })
        }
        ExprKind::Range(lo, hi) => Ok(FieldMatch::Range {
            lo: value(lo)?,
            hi: value(hi)?,
        }),
        _ => {
            let v = value(k)?;
            Ok(match spec.kind {
                MatchKind::Exact => FieldMatch::Exact(v),
                MatchKind::Lpm => FieldMatch::Lpm { value: v, len: w },
                MatchKind::Ternary => FieldMatch::Ternary {
                    value: v,
                    mask: TableState::all_ones(w, s),
                },
                MatchKind::Range => FieldMatch::Range {
                    lo: v.clone(),
                    hi: v,
                },
                MatchKind::Optional => FieldMatch::Optional(Some(v)),
            })
        }
    }
}
