//! Tables: keys, action lists, default actions, entries and the other
//! properties (size, implementation, direct counters and meters).

use super::calls::const_u64_of;
use super::exprs::const_int;
use super::{Binding, Checker};
use crate::ast::{self, TablePropKind};
use crate::diag::Code;
use crate::ir::{self, Direction, ExprKind};
use crate::source::Span;
use crate::types::{Ty, TyId, TypeTable};

impl Checker<'_> {
    pub(crate) fn table_decl(&mut self, t: &ast::TableDecl, span: Span) -> ir::TableId {
        let mut table = ir::Table {
            name: t.name.name.clone(),
            cp_name: self.control_plane_name(&t.name.name, &t.annotations),
            keys: Vec::new(),
            actions: Vec::new(),
            default_action: None,
            default_is_const: false,
            entries: Vec::new(),
            entries_const: false,
            size: None,
            size_expr: None,
            implementation: None,
            direct_counter: None,
            direct_meter: None,
            support_timeout: false,
            largest_priority_wins: true,
            priority_delta: 1,
            annotations: t.annotations.clone(),
            span,
        };
        let mut seen: Vec<String> = Vec::new();
        let mut has_actions = false;
        let mut bad_priority_props = Vec::new();
        // Keys and actions first: entries and default_action refer to them.
        let order = |p: &ast::TableProp| match p.kind {
            TablePropKind::Key(_) => 0,
            TablePropKind::Actions(_) => 1,
            _ => 2,
        };
        let mut props: Vec<&ast::TableProp> = t.props.iter().collect();
        props.sort_by_key(|p| order(p));
        for p in props {
            let pname = match &p.kind {
                TablePropKind::Key(_) => "key".to_string(),
                TablePropKind::Actions(_) => "actions".to_string(),
                TablePropKind::Entries(_) => "entries".to_string(),
                TablePropKind::Other { name, .. } => name.name.clone(),
            };
            if seen.contains(&pname) {
                self.error(
                    Code::BadTableProperty,
                    p.span,
                    format!("table property `{pname}` is given twice"),
                );
                continue;
            }
            seen.push(pname.clone());
            match &p.kind {
                TablePropKind::Key(keys) => {
                    for k in keys {
                        if let Some(key) = self.table_key(k) {
                            table.keys.push(key);
                        }
                    }
                }
                TablePropKind::Actions(refs) => {
                    has_actions = true;
                    for r in refs {
                        if let Some(a) = self.action_list_item(r) {
                            if table.actions.iter().any(|x| x.action == a.action) {
                                self.error(
                                    Code::BadTableProperty,
                                    r.span,
                                    format!("action `{}` is listed twice", r.name.name.name),
                                );
                                continue;
                            }
                            table.actions.push(a);
                        }
                    }
                }
                TablePropKind::Entries(entries) => {
                    table.entries_const = p.is_const;
                    if !entries.is_empty() && !Self::has_key(t) {
                        // p4c: "Entries cannot be specified for a table with no key".
                        self.error(
                            Code::EntriesWithoutKey,
                            p.span,
                            format!(
                                "table `{}` has no key, so it cannot have entries",
                                t.name.name
                            ),
                        );
                        continue;
                    }
                    for e in entries {
                        if let Some(entry) = self.table_entry(e, &table, p.is_const) {
                            table.entries.push(entry);
                        }
                    }
                }
                TablePropKind::Other { name, value } => {
                    bad_priority_props
                        .extend(self.other_property(&mut table, name, value, p.is_const));
                }
            }
        }
        if !has_actions {
            self.error(
                Code::BadTableProperty,
                t.name.span,
                format!("table `{}` has no `actions` property", t.name.name),
            );
        }
        self.check_entries_after_key(t);
        self.check_entry_priorities(t, &table, &bad_priority_props);
        self.add_implicit_no_action(&mut table);
        let id = ir::TableId(self.prog.tables.len() as u32);
        self.prog.tables.push(table);
        if !super::usage::suppressed(&t.annotations) {
            self.may_be_unused(
                super::usage::Candidate::Table(id),
                t.name.span,
                &t.name.name,
            );
        }
        self.declare(&t.name, Binding::Table(id));
        id
    }

    /// A table without `default_action` gets core.p4's `NoAction` in its
    /// list as `@defaultonly` (its default), as p4c's front end adds it
    /// (`CreateBuiltins`): the control plane sees and may set it.
    fn add_implicit_no_action(&mut self, table: &mut ir::Table) {
        if table.default_action.is_some() {
            return;
        }
        if !self.check_global_no_action(table) {
            return;
        }
        let Some(id) = (0..self.prog.actions.len() as u32)
            .map(ir::ActionId)
            .find(|a| {
                let act = &self.prog.actions[a.0 as usize];
                act.name == "NoAction" && act.cp_name.global && act.params.is_empty()
            })
        else {
            return;
        };
        if table.actions.iter().any(|a| a.action == id) {
            return;
        }
        let span = table.span;
        table.actions.push(ir::ActionCall {
            action: id,
            args: Vec::new(),
            default_only: true,
            table_only: false,
            annotations: vec![ast::Annotation {
                name: ast::Ident {
                    name: "defaultonly".into(),
                    span,
                },
                body: ast::AnnotationBody::Empty,
                span,
            }],
        });
    }

    fn table_key(&mut self, k: &ast::KeyElement) -> Option<ir::TableKey> {
        let e = self.expr(&k.expr, None);
        let mk_name = &k.match_kind.name;
        let known = matches!(self.lookup(mk_name), Some(Binding::MatchKind(_)));
        if !known {
            self.error(
                Code::BadMatchKind,
                k.match_kind.span,
                format!("`{mk_name}` is not a declared match kind"),
            );
            return None;
        }
        let ok_type = matches!(
            self.ty(e.ty),
            Ty::Bits { .. }
                | Ty::Bool
                | Ty::Error
                | Ty::Enum(_)
                | Ty::NewType { .. }
                | Ty::Unknown
                | Ty::Varbit { .. }
        );
        if !ok_type {
            let shown = self.show(e.ty);
            self.error(
                Code::TypeMismatch,
                k.expr.span,
                format!("a table key must be a bit-string, bool, enum or error, not `{shown}`"),
            );
        }
        let name = ast::annotation_str(&k.annotations, "name")
            .or_else(|| self.key_name(&k.expr, Some(&e)));
        let name = name.unwrap_or_else(|| {
            // Kept under a stand-in name, so that entries are checked
            // against every key field.
            self.error(
                Code::KeyNeedsName,
                k.expr.span,
                "this key expression is not simple enough to name: give it an @name(\"...\") annotation",
            );
            "key".to_string()
        });
        let written = self.key_name(&k.expr, None).filter(|w| *w != name);
        Some(ir::TableKey {
            expr: e,
            match_kind: mk_name.clone(),
            name,
            written,
            annotations: k.annotations.clone(),
        })
    }

    fn resolve_action(&mut self, path: &ast::Path) -> Option<ir::ActionId> {
        match self.lookup_path(path).cloned() {
            Some(Binding::Action(id)) => Some(id),
            Some(other) => {
                self.error(
                    Code::WrongKindOfName,
                    path.name.span,
                    format!(
                        "`{}` is {}, not an action",
                        path.name.name,
                        other.describe()
                    ),
                );
                None
            }
            None => {
                self.error(
                    Code::UndeclaredName,
                    path.name.span,
                    format!("action `{}` is not declared", path.name.name),
                );
                None
            }
        }
    }

    /// An item of `actions = { ... }`: directional parameters bound here.
    fn action_list_item(&mut self, r: &ast::ActionRef) -> Option<ir::ActionCall> {
        let id = self.resolve_action(&r.name)?;
        let params = self.action_sigs[id.0 as usize].clone();
        let directional = params
            .iter()
            .take_while(|p| p.dir != Direction::None)
            .count();
        let ordered = self.args_in_param_order(&params, r.args.as_deref().unwrap_or(&[]), 0)?;
        let given = ordered.len();
        if given != directional {
            let name = &r.name.name.name;
            let msg = if given < directional {
                format!(
                    "action `{name}` has {directional} directional parameter(s); bind them here, e.g. `{name}(...)`"
                )
            } else {
                format!(
                    "action `{name}` takes {directional} data-plane argument(s) here; its other parameters are set by the control plane"
                )
            };
            self.error(Code::ActionArguments, r.span, msg);
            return None;
        }
        let mut args: Vec<Option<ir::Expr>> = Vec::with_capacity(params.len());
        for (p, a) in params.iter().zip(ordered) {
            let v = self.expr_as(&a.value, p.ty);
            if matches!(p.dir, Direction::Out | Direction::InOut)
                && let Some(why) = self.not_assignable(&v)
            {
                self.error(
                    Code::NotAnLValue,
                    a.value.span,
                    format!("parameter `{}` is `{}`: {why}", p.name, p.dir.as_str()),
                );
            }
            args.push(Some(v));
        }
        args.resize(params.len(), None);
        Some(ir::ActionCall {
            action: id,
            args,
            default_only: ast::find_annotation(&r.annotations, "defaultonly").is_some(),
            table_only: ast::find_annotation(&r.annotations, "tableonly").is_some(),
            annotations: r.annotations.clone(),
        })
    }

    /// An action with control-plane arguments (`default_action`, entries):
    /// must be in the table's list; every directionless parameter needs a
    /// constant argument; directional ones repeat the list's binding.
    fn bound_action(&mut self, e: &ast::Expr, table: &ir::Table) -> Option<ir::ActionCall> {
        let (path, args): (&ast::Path, &[ast::Arg]) = match &e.kind {
            ast::ExprKind::Name(p) => (p, &[]),
            ast::ExprKind::Call { callee, args, .. } => match &callee.kind {
                ast::ExprKind::Name(p) => (p, args.as_slice()),
                _ => {
                    self.error(Code::BadTableProperty, e.span, "expected an action call");
                    return None;
                }
            },
            _ => {
                self.error(Code::BadTableProperty, e.span, "expected an action call");
                return None;
            }
        };
        self.bound_action_parts(path, Some(args), e.span, table)
    }

    fn bound_action_parts(
        &mut self,
        path: &ast::Path,
        args: Option<&[ast::Arg]>,
        span: Span,
        table: &ir::Table,
    ) -> Option<ir::ActionCall> {
        let id = self.resolve_action(path)?;
        let Some(listed) = table.actions.iter().find(|a| a.action == id).cloned() else {
            self.error(
                Code::ActionNotInTable,
                span,
                format!(
                    "action `{}` is not in the `actions` list of table `{}`",
                    path.name.name, table.name
                ),
            );
            return None;
        };
        let params = self.action_sigs[id.0 as usize].clone();
        let directional = params
            .iter()
            .take_while(|p| p.dir != Direction::None)
            .count();
        let cp_params = params.len() - directional;
        let given = args.unwrap_or(&[]);
        let first = if given.len() == cp_params {
            directional
        } else {
            0
        };
        let args = self.args_in_param_order(&params, given, first)?;
        let (skip, ok) = if args.len() == params.len() {
            (0, true)
        } else if args.len() == cp_params {
            (directional, true)
        } else {
            (0, false)
        };
        if !ok {
            self.error(
                Code::ActionArguments,
                span,
                format!(
                    "action `{}` needs {cp_params} control-plane argument(s) here, {} given",
                    path.name.name,
                    args.len()
                ),
            );
            return None;
        }
        if skip > 0 {
            // p4c's validateActionInitializer: the data-plane arguments of
            // the `actions` list are given again ("not enough arguments").
            self.error(
                Code::ActionArguments,
                span,
                format!(
                    "action `{}` has {directional} data-plane parameter(s) bound in the `actions` list; repeat those argument(s) here, before the control-plane ones",
                    path.name.name
                ),
            );
            return None;
        }
        let mut out = listed.args.clone();
        for (i, a) in args.iter().enumerate() {
            let p = &params[skip + i];
            let v = self.expr_as(&a.value, p.ty);
            if p.dir != Direction::None
                && let Some(Some(bound)) = listed.args.get(skip + i)
                && !self.is_unknown(v.ty)
                && !super::validate::same_expr(&v, bound)
            {
                self.error(
                    Code::ActionArguments,
                    a.value.span,
                    format!(
                        "the argument for `{}` does not match the one the `actions` list binds for action `{}`",
                        p.name, path.name.name
                    ),
                );
            }
            if p.dir == Direction::None
                && !matches!(v.kind, ExprKind::Const(_))
                && !self.is_unknown(v.ty)
            {
                self.error(
                    Code::NotConstant,
                    a.value.span,
                    format!(
                        "the argument for `{}` must be a compile-time constant",
                        p.name
                    ),
                );
            }
            if p.dir == Direction::None {
                out[skip + i] = Some(v);
            }
        }
        Some(ir::ActionCall {
            args: out,
            ..listed
        })
    }

    /// The arguments of an action reference in parameter order. Positional
    /// arguments stay as written; named ones (`a(y = 2, x = 1)`, spec
    /// 6.8.2.1) are placed by name and must name exactly the parameters
    /// `first..first + args.len()`, the ones positional arguments would
    /// bind. All arguments are named or none.
    fn args_in_param_order<'b>(
        &mut self,
        params: &[super::ParamSig],
        args: &'b [ast::Arg],
        first: usize,
    ) -> Option<Vec<&'b ast::Arg>> {
        if args.iter().all(|a| a.name.is_none()) {
            return Some(args.iter().collect());
        }
        let mut slots: Vec<Option<&ast::Arg>> = vec![None; args.len()];
        self.place_named(params, args, first, &mut slots, |name| {
            (
                Code::ActionArguments,
                format!("no parameter `{name}` takes an argument here"),
            )
        })?;
        slots.into_iter().collect()
    }

    /// True if `e` is `a` or `a(...)` with `a` an action in scope.
    fn names_action(&self, e: &ast::Expr) -> bool {
        let path = match &e.kind {
            ast::ExprKind::Name(p) => p,
            ast::ExprKind::Call { callee, .. } => match &callee.kind {
                ast::ExprKind::Name(p) => p,
                _ => return false,
            },
            _ => return false,
        };
        matches!(self.lookup_path(path), Some(Binding::Action(_)))
    }

    fn table_entry(
        &mut self,
        e: &ast::Entry,
        table: &ir::Table,
        all_const: bool,
    ) -> Option<ir::TableEntry> {
        let key_tys: Vec<TyId> = table.keys.iter().map(|k| k.expr.ty).collect();
        let items: Vec<&ast::Expr> = match &e.keyset.kind {
            ast::ExprKind::KeysetTuple(items) => items.iter().collect(),
            _ => vec![&e.keyset],
        };
        let keys = if items.len() == 1
            && key_tys.len() != 1
            && matches!(
                items[0].kind,
                ast::ExprKind::Default | ast::ExprKind::DontCare
            ) {
            key_tys.iter().map(|t| self.keyset(items[0], *t)).collect()
        } else if items.len() != key_tys.len() {
            self.error(
                Code::ArgumentCount,
                e.keyset.span,
                format!(
                    "table `{}` has {} key field(s), but this entry gives {}",
                    table.name,
                    key_tys.len(),
                    items.len()
                ),
            );
            return None;
        } else {
            items
                .iter()
                .zip(&key_tys)
                .map(|(k, t)| self.keyset(k, *t))
                .collect()
        };
        let action = self.bound_action_parts(
            &e.action.name,
            e.action.args.as_deref(),
            e.action.span,
            table,
        )?;
        if action.default_only {
            self.error(
                Code::ActionNotInTable,
                e.action.span,
                format!(
                    "action `{}` is marked `@defaultonly` in the `actions` list, so no entry can use it",
                    e.action.name.name.name
                ),
            );
        }
        let priority = match &e.priority {
            Some(p) => {
                let v = self.expr(p, None);
                match const_int(&v) {
                    Some(x) => Some(x.clone()),
                    None => {
                        self.error(
                            Code::NotConstant,
                            p.span,
                            "an entry priority must be a compile-time constant",
                        );
                        None
                    }
                }
            }
            None => None,
        };
        let priority_annotation = ast::find_annotation(&e.annotations, "priority")
            .and_then(|a| a.single_expr().cloned())
            .and_then(|x| const_int(&self.expr(&x, None)).cloned());
        Some(ir::TableEntry {
            keys,
            action,
            priority,
            priority_annotation,
            is_const: all_const || e.is_const,
        })
    }

    /// A keyset (select case or table entry) matched against a key of type
    /// `key_ty`: constants, masks, ranges, `default`/`_`, value sets.
    pub(crate) fn keyset(&mut self, e: &ast::Expr, key_ty: TyId) -> ir::Expr {
        let span = e.span;
        let set_ty = self.types().intern(Ty::Set(key_ty));
        let mk = super::exprs::mk;
        match &e.kind {
            ast::ExprKind::Default => mk(set_ty, ExprKind::Default, span),
            ast::ExprKind::DontCare => mk(set_ty, ExprKind::DontCare, span),
            ast::ExprKind::Mask(v, m) => {
                let v = self.set_operand(v, key_ty);
                let m = self.set_operand(m, key_ty);
                mk(set_ty, ExprKind::Mask(Box::new(v), Box::new(m)), span)
            }
            ast::ExprKind::Range(lo, hi) => {
                let lo = self.set_operand(lo, key_ty);
                let hi = self.set_operand(hi, key_ty);
                mk(set_ty, ExprKind::Range(Box::new(lo), Box::new(hi)), span)
            }
            ast::ExprKind::Name(path)
                if matches!(self.lookup_path(path), Some(Binding::ValueSet(_))) =>
            {
                let v = self.expr(e, None);
                if let Ty::Set(elem) = self.ty(v.ty).clone()
                    && !self.is_unknown(key_ty)
                    && elem != key_ty
                    && !self.convertible(elem, key_ty)
                {
                    let (a, b) = (self.show(elem), self.show(key_ty));
                    self.error(
                        Code::TypeMismatch,
                        span,
                        format!("value set of `{a}` used for a key of type `{b}`"),
                    );
                }
                v
            }
            _ => self.const_key(e, key_ty),
        }
    }

    /// An operand of `a &&& b` or `a .. b` for a key of type `key_ty`. For
    /// a serializable enum key an operand may also be a value of the
    /// underlying type (`E.A &&& 0xff00`): p4c's typeSet works on the
    /// underlying types and types the set by the enum.
    fn set_operand(&mut self, e: &ast::Expr, key_ty: TyId) -> ir::Expr {
        let under = match self.ty(key_ty) {
            Ty::Enum(_) => self.prog.types.underlying(key_ty),
            _ => None,
        };
        let Some(under) = under else {
            return self.const_key(e, key_ty);
        };
        let v = self.expr(e, Some(key_ty));
        let v = if v.ty == key_ty || self.is_unknown(v.ty) {
            v
        } else {
            let c = self.coerce(v, under);
            if self.is_unknown(c.ty) {
                c
            } else {
                super::exprs::mk(key_ty, c.kind, c.span)
            }
        };
        self.check_const_key(v, e.span)
    }

    fn const_key(&mut self, e: &ast::Expr, key_ty: TyId) -> ir::Expr {
        let v = self.expr_as(e, key_ty);
        self.check_const_key(v, e.span)
    }

    fn check_const_key(&mut self, v: ir::Expr, span: Span) -> ir::Expr {
        if !matches!(v.kind, ExprKind::Const(_))
            && !self.is_unknown(v.ty)
            && v.ty != TypeTable::DONT_CARE
        {
            self.error(
                Code::NotConstant,
                span,
                "a keyset value must be a compile-time constant",
            );
        }
        v
    }

    fn other_property(
        &mut self,
        table: &mut ir::Table,
        name: &ast::Ident,
        value: &ast::Expr,
        is_const: bool,
    ) -> Option<PriorityProp> {
        match name.name.as_str() {
            "default_action" => {
                table.default_is_const = is_const;
                table.default_action = self.bound_action(value, table);
            }
            "size" => {
                let v = self.expr(value, None);
                let numeric = !matches!(self.ty(v.ty), Ty::Bool);
                match const_u64_of(&v).filter(|_| numeric) {
                    Some(n) => table.size = Some(n),
                    None if self.is_unknown(v.ty) => {}
                    None if numeric && self.over_ctor_params(&v) => table.size_expr = Some(v),
                    None => self.error(
                        Code::NotConstant,
                        value.span,
                        "a table's `size` must be a non-negative integer constant",
                    ),
                }
            }
            "implementation" | "counters" | "meters" | "psa_implementation"
            | "psa_direct_counter" | "psa_direct_meter" | "pna_implementation"
            | "pna_direct_counter" | "pna_direct_meter" => {
                let v = self.expr(value, None);
                let inst = match v.kind {
                    ExprKind::Instance(id) => Some(id),
                    _ if self.is_unknown(v.ty) => None,
                    _ => {
                        self.error(
                            Code::BadTableProperty,
                            value.span,
                            format!("`{}` must name an extern instance", name.name),
                        );
                        None
                    }
                };
                let n = name.name.as_str();
                if n.ends_with("implementation") {
                    table.implementation = inst;
                } else if n == "counters" || n.ends_with("direct_counter") {
                    table.direct_counter = inst;
                } else {
                    table.direct_meter = inst;
                }
            }
            // p4c reads these two only to number non-const entries
            // (`EntryPriorities`): a bad value is an error only there.
            "largest_priority_wins" => {
                let v = self.expr(value, None);
                match v.kind {
                    ExprKind::Const(ir::Value::Bool(b)) => table.largest_priority_wins = b,
                    _ if self.is_unknown(v.ty) => {}
                    _ => {
                        return Some(PriorityProp {
                            span: value.span,
                            why: "`largest_priority_wins` must be a boolean constant",
                        });
                    }
                }
            }
            "priority_delta" => {
                let v = self.expr(value, None);
                let numeric = !matches!(self.ty(v.ty), Ty::Bool);
                match const_u64_of(&v).filter(|_| numeric) {
                    Some(n) if n <= u64::from(u32::MAX) => table.priority_delta = n,
                    _ if self.is_unknown(v.ty) => {}
                    _ => {
                        return Some(PriorityProp {
                            span: value.span,
                            why: "`priority_delta` must be an integer constant from 0 to 2^32-1",
                        });
                    }
                }
            }
            "support_timeout" => {
                let v = self.expr(value, Some(TypeTable::BOOL));
                table.support_timeout = matches!(v.kind, ExprKind::Const(ir::Value::Bool(true)));
            }
            "psa_idle_timeout" | "pna_idle_timeout" => {
                // `PSA_IdleTimeout_t.NOTIFY_CONTROL` (the enum's second member).
                let v = self.expr(value, None);
                table.support_timeout = matches!(v.kind, ExprKind::Const(ir::Value::Enum(1)));
            }
            _ => {
                // Architecture-defined properties (e.g. PSA's
                // `psa_empty_group_action`) may name an action of the table.
                if self.names_action(value) {
                    let _ = self.bound_action(value, table);
                } else {
                    let _ = self.expr(value, None);
                }
            }
        }
        None
    }
}

/// A `largest_priority_wins` or `priority_delta` value p4c refuses when it
/// numbers the table's entries.
pub(crate) struct PriorityProp {
    pub(crate) span: Span,
    pub(crate) why: &'static str,
}

impl Checker<'_> {
    /// The default control-plane name of a key, as p4c's TableKeyNames
    /// derives it from the expression as written (`e`, checked as `ir`): a
    /// name (a leading `.` for a global one), a field (by its declaration's
    /// `@name` where `ir` gives its type and it has one; a global
    /// `@name(".f")` drops what is before it), an array element, a slice,
    /// a constant, `a & b` of those, `h.isValid()` as `h.$valid$`, and
    /// part-selects as written; `None` for anything else (E0407: such a
    /// key needs an `@name`). Without `ir`, fields go by their own names.
    fn key_name(&self, e: &ast::Expr, ir: Option<&ir::Expr>) -> Option<String> {
        use ast::ExprKind as K;
        use ir::ExprKind as I;
        Some(match &e.kind {
            K::Name(p) => format!("{}{}", if p.global { "." } else { "" }, p.name.name),
            K::Member(b, m) => {
                let (base, field) = match ir.map(|x| &x.kind) {
                    Some(I::Field(base, i)) => {
                        (Some(base.as_ref()), self.field_external_name(base.ty, *i))
                    }
                    _ => (None, None),
                };
                let field = field.unwrap_or_else(|| m.name.clone());
                match field.strip_prefix('.') {
                    Some(global) => global.to_string(),
                    None => format!("{}.{field}", self.key_name(b, base)?),
                }
            }
            K::Index(b, i) => {
                let (ib, ii) = match ir.map(|x| &x.kind) {
                    Some(I::Index(ib, ii)) => (Some(ib.as_ref()), Some(ii.as_ref())),
                    _ => (None, None),
                };
                format!("{}[{}]", self.key_name(b, ib)?, self.key_name(i, ii)?)
            }
            K::Slice(b, h, l) => {
                let ib = match ir.map(|x| &x.kind) {
                    Some(I::Slice(ib, ..)) => Some(ib.as_ref()),
                    _ => None,
                };
                format!(
                    "{}[{}:{}]",
                    self.key_name(b, ib)?,
                    self.key_name(h, None)?,
                    self.key_name(l, None)?
                )
            }
            K::PartSelect {
                base,
                start,
                up,
                width,
            } => format!(
                "{}[{} {} {}]",
                self.key_name(base, None)?,
                self.key_name(start, None)?,
                if *up { "+:" } else { "-:" },
                self.key_name(width, None)?
            ),
            K::Int(lit) => crate::pretty::int_lit_p4c(&crate::lexer::IntLit {
                width: None,
                ..lit.clone()
            }),
            K::Call { callee, args, .. } if args.is_empty() => match &callee.kind {
                K::Member(b, m) if m.name == "isValid" => {
                    format!("{}.$valid$", self.key_name(b, None)?)
                }
                _ => return None,
            },
            K::Binary(ast::BinOp::BitAnd, l, r) => {
                let (il, ir) = match ir.map(|x| &x.kind) {
                    Some(I::Binary(_, il, ir)) => (Some(il.as_ref()), Some(ir.as_ref())),
                    _ => (None, None),
                };
                format!("{} & {}", self.key_name(l, il)?, self.key_name(r, ir)?)
            }
            _ => return None,
        })
    }

    /// The `@name` of field `index` of the struct or header type `ty`, as
    /// its declaration gives it (p4c's `externalName`).
    fn field_external_name(&self, ty: crate::types::TyId, index: u32) -> Option<String> {
        let annotations = self
            .prog
            .type_annotations
            .get(&ty)?
            .fields
            .get(index as usize)?;
        match ast::find_annotation(annotations, "name")?.single_expr()? {
            ast::Expr {
                kind: ast::ExprKind::Str(s),
                ..
            } => Some(s.clone()),
            _ => None,
        }
    }
}
