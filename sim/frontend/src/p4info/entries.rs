//! The initial table entries p4c writes for `--p4runtime-entries-files`:
//! one `p4.v1.WriteRequest` with an INSERT per entry of every table that
//! has an `entries` list, as p4c's `P4RuntimeEntriesConverter` writes it.
//! Match fields are numbered 1, 2, ... over the keys of standard match
//! kinds; a don't-care (`_`, `default`, a zero mask, a full range) is left
//! out; values are padded to the key's width in whole bytes. Action
//! parameters are numbered 1, 2, ... in order. Tables with a ternary,
//! range or optional key give their entries priorities: the one written,
//! else from the number of entries for the first down to 1 for the last.

use crate::ir::{self, ExprKind};
use crate::proto::Message;
use num_bigint::BigInt;

/// The header p4c writes before the text of the entries.
pub const HEADER: &str =
    "# proto-file: p4/v1/p4runtime.proto\n# proto-message: p4.v1.WriteRequest\n\n";

/// The `Update` messages of one table's entries.
pub(super) fn table_updates(
    p: &ir::Program,
    t: &ir::Table,
    table_id: u32,
    action_id: &dyn Fn(ir::ActionId) -> u32,
) -> Vec<Message> {
    let needs_priority = t
        .keys
        .iter()
        .any(|k| matches!(k.match_kind.as_str(), "ternary" | "range" | "optional"));
    let count = t.entries.len() as i64;
    let mut out = Vec::new();
    for (n, e) in t.entries.iter().enumerate() {
        let mut entry = Message::new();
        entry.u32(1, "table_id", table_id);
        let mut field_id = 0u32;
        for (key, k) in t.keys.iter().zip(&e.keys) {
            let width = super::width(&p.types, key.expr.ty);
            let kind = key.match_kind.as_str();
            if !matches!(kind, "exact" | "lpm" | "ternary" | "range" | "optional") {
                continue;
            }
            field_id += 1;
            if let Some(m) = field_match(kind, k, width) {
                let mut fm = Message::new();
                fm.u32(1, "field_id", field_id);
                let (number, name) = match kind {
                    "exact" => (2, "exact"),
                    "ternary" => (3, "ternary"),
                    "lpm" => (4, "lpm"),
                    "range" => (6, "range"),
                    _ => (7, "optional"),
                };
                fm.message(number, name, m);
                entry.add_message(2, "match", fm);
            }
        }
        let act = &p.actions[e.action.action.0 as usize];
        let mut action = Message::new();
        action.u32(1, "action_id", action_id(e.action.action));
        let mut param_id = 0u32;
        for (param, arg) in act.params.iter().zip(&e.action.args) {
            if param.direction != ir::Direction::None {
                continue;
            }
            param_id += 1;
            let Some(value) = arg.as_ref().and_then(constant) else {
                continue;
            };
            let mut pm = Message::new();
            pm.u32(2, "param_id", param_id);
            pm.bytes(
                3,
                "value",
                super::int_bytes(&value, super::control_width(p, param.ty)),
            );
            action.add_message(4, "params", pm);
        }
        let mut table_action = Message::new();
        table_action.message(1, "action", action);
        entry.message(3, "action", table_action);
        if needs_priority {
            let priority = e
                .priority
                .as_ref()
                .and_then(|v| i32::try_from(v).ok())
                .unwrap_or((count - n as i64) as i32);
            entry.i32(4, "priority", priority);
        }
        let mut entity = Message::new();
        entity.message(2, "table_entry", entry);
        let mut update = Message::new();
        update.enumeration(1, "type", 1, "INSERT");
        update.message(2, "entity", entity);
        out.push(update);
    }
    out
}

/// The `FieldMatch` body of one key, or `None` for a don't-care.
fn field_match(kind: &str, k: &ir::Expr, width: u32) -> Option<Message> {
    let bytes = |v: &BigInt| super::int_bytes(v, width);
    let all_ones = (BigInt::from(1u8) << width) - 1u8;
    let mut m = Message::new();
    match (kind, &k.kind) {
        (_, ExprKind::Default | ExprKind::DontCare) if kind != "exact" => return None,
        ("lpm", ExprKind::Mask(v, mask)) => {
            let (v, mask) = (constant(v)?, constant(mask)?);
            if mask == BigInt::from(0u8) {
                return None;
            }
            let trailing = mask.trailing_zeros().unwrap_or(u64::from(width)) as u32;
            m.bytes(1, "value", bytes(&(v & &mask)));
            m.i32(2, "prefix_len", width.saturating_sub(trailing) as i32);
        }
        ("lpm", _) => {
            m.bytes(1, "value", bytes(&constant(k)?));
            m.i32(2, "prefix_len", width as i32);
        }
        ("ternary", ExprKind::Mask(v, mask)) => {
            let (v, mask) = (constant(v)?, constant(mask)?);
            if mask == BigInt::from(0u8) {
                return None;
            }
            m.bytes(1, "value", bytes(&(v & &mask)));
            m.bytes(2, "mask", bytes(&mask));
        }
        ("ternary", _) => {
            m.bytes(1, "value", bytes(&constant(k)?));
            m.bytes(2, "mask", bytes(&all_ones));
        }
        ("range", ExprKind::Range(lo, hi)) => {
            let (lo, hi) = (constant(lo)?, constant(hi)?);
            if lo == BigInt::from(0u8) && hi == all_ones {
                return None;
            }
            m.bytes(1, "low", bytes(&lo));
            m.bytes(2, "high", bytes(&hi));
        }
        ("range", _) => {
            let v = constant(k)?;
            m.bytes(1, "low", bytes(&v));
            m.bytes(2, "high", bytes(&v));
        }
        _ => {
            m.bytes(1, "value", bytes(&constant(k)?));
        }
    }
    Some(m)
}

/// A constant key or argument (through casts).
fn constant(e: &ir::Expr) -> Option<BigInt> {
    match &e.kind {
        ExprKind::Const(ir::Value::Int(v)) => Some(v.clone()),
        ExprKind::Const(ir::Value::Bool(b)) => Some(BigInt::from(u8::from(*b))),
        ExprKind::Cast(inner) => constant(inner),
        _ => None,
    }
}
