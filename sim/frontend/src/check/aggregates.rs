//! Aggregate expressions: lists, `...` in lists, struct initialisers.

use super::Checker;
use super::exprs::{mk, unknown};
use crate::ast;
use crate::diag::Code;
use crate::ir::{self, ExprKind, Value};
use crate::source::Span;
use crate::types::{StructInfo, StructKind, Ty, TyId, TypeTable};
use num_bigint::BigInt;

impl Checker<'_> {
    pub(super) fn list_expr(
        &mut self,
        items: &[ast::Expr],
        span: Span,
        expected: Option<TyId>,
    ) -> ir::Expr {
        let targets: Option<Vec<TyId>> = expected.and_then(|t| match self.ty(t).clone() {
            Ty::Struct(i) => Some(
                self.prog.types.structs[i as usize]
                    .fields
                    .iter()
                    .map(|f| f.ty)
                    .collect(),
            ),
            Ty::Tuple(ts) => Some(ts),
            Ty::Stack { elem, size } => Some(vec![elem; size as usize]),
            Ty::List(elem) => Some(vec![elem; items.len()]),
            _ => None,
        });
        if let (Some(targets), Some(to)) = (&targets, expected)
            && let Some(parts) = self.list_with_dots(items, targets, span)
        {
            return self.build_list(to, parts, span);
        }
        if let (Some(targets), Some(to)) = (&targets, expected)
            && targets.len() == items.len()
        {
            let parts: Vec<ir::Expr> = items
                .iter()
                .zip(targets)
                .map(|(e, t)| self.expr_as(e, *t))
                .collect();
            return self.build_list(to, parts, span);
        }
        let parts: Vec<ir::Expr> = items.iter().map(|e| self.expr(e, None)).collect();
        let tys: Vec<TyId> = parts.iter().map(|p| p.ty).collect();
        let ty = self.types().intern(Ty::Tuple(tys));
        self.build_list(ty, parts, span)
    }

    /// `{ a, b, ... }` for a type with at least as many fields as values
    /// before the trailing `...` (spec: initializing with default values):
    /// the values set the first
    /// fields, the rest take their default values. `None` without dots.
    pub(super) fn list_with_dots(
        &mut self,
        items: &[ast::Expr],
        targets: &[TyId],
        span: Span,
    ) -> Option<Vec<ir::Expr>> {
        let (last, given) = items.split_last()?;
        if !matches!(last.kind, ast::ExprKind::Dots) || given.len() > targets.len() {
            return None;
        }
        let mut parts: Vec<ir::Expr> = given
            .iter()
            .zip(targets)
            .map(|(e, t)| self.expr_as(e, *t))
            .collect();
        parts.extend(
            targets[given.len()..]
                .iter()
                .map(|t| mk(*t, ExprKind::DontCare, span)),
        );
        Some(parts)
    }

    pub(super) fn struct_init(
        &mut self,
        fields: &[(ast::Ident, ast::Expr)],
        dots: bool,
        span: Span,
        expected: Option<TyId>,
    ) -> ir::Expr {
        let target = expected.and_then(|t| self.prog.types.struct_info(t).cloned().map(|s| (t, s)));
        let Some((to, info)) = target else {
            // No struct type expected: an anonymous struct of the given fields.
            let parts: Vec<ir::Expr> = fields.iter().map(|(_, e)| self.expr(e, None)).collect();
            let info = StructInfo {
                kind: StructKind::Struct,
                name: format!(
                    "struct {{ {} }}",
                    fields
                        .iter()
                        .map(|(n, _)| n.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                fields: fields
                    .iter()
                    .zip(&parts)
                    .map(|((n, _), p)| crate::types::FieldInfo {
                        name: n.name.clone(),
                        ty: p.ty,
                        field_lists: Vec::new(),
                    })
                    .collect(),
            };
            let ty = self.types().add_struct(info);
            return mk(ty, ExprKind::List(parts), span);
        };
        let mut parts: Vec<Option<ir::Expr>> = vec![None; info.fields.len()];
        for (name, e) in fields {
            match info.fields.iter().position(|f| f.name == name.name) {
                Some(i) => {
                    if parts[i].is_some() {
                        self.error(
                            Code::DuplicateDeclaration,
                            name.span,
                            format!("field `{}` is given twice", name.name),
                        );
                    }
                    let fty = info.fields[i].ty;
                    parts[i] = Some(self.expr_as(e, fty));
                }
                None => {
                    self.error(
                        Code::UnknownMember,
                        name.span,
                        format!("`{}` has no field `{}`", info.name, name.name),
                    );
                    return unknown(span);
                }
            }
        }
        let mut out = Vec::with_capacity(parts.len());
        for (i, p) in parts.into_iter().enumerate() {
            match p {
                Some(p) => out.push(p),
                None if dots => out.push(mk(info.fields[i].ty, ExprKind::DontCare, span)),
                None => {
                    self.error(
                        Code::TypeMismatch,
                        span,
                        format!(
                            "field `{}` of `{}` is not initialised",
                            info.fields[i].name, info.name
                        ),
                    );
                    return unknown(span);
                }
            }
        }
        self.build_list(to, out, span)
    }

    /// The default value of `ty` (spec: initializing with default values;
    /// p4c's `getDefaultValue`) as a compile-time value: 0 for integers
    /// and serializable enums, `false`, `""`, `error.NoError`, the first
    /// member of an enum, invalid headers and unions, and the fields of a
    /// struct, tuple or stack one by one. `None` for a type without one.
    pub(crate) fn default_value(&mut self, ty: TyId, span: Span) -> Option<ir::Expr> {
        let c = |v: Value| Some(mk(ty, ExprKind::Const(v), span));
        match self.ty(ty).clone() {
            Ty::Bits { .. } | Ty::InfInt => c(Value::Int(BigInt::from(0))),
            Ty::Bool => c(Value::Bool(false)),
            Ty::String => c(Value::Str(String::new())),
            Ty::Error => c(Value::Error(
                self.error_numbers.get("NoError").copied().unwrap_or(0),
            )),
            Ty::Enum(i) => {
                if self.prog.types.enums[i as usize].repr.is_some() {
                    c(Value::Int(BigInt::from(0)))
                } else {
                    c(Value::Enum(0))
                }
            }
            Ty::NewType { of, .. } => {
                let v = self.default_value(of, span)?;
                Some(mk(ty, v.kind, span))
            }
            Ty::Struct(i) => {
                let info = self.prog.types.structs[i as usize].clone();
                if info.kind != StructKind::Struct {
                    return Some(mk(ty, ExprKind::InvalidHeader, span));
                }
                let parts = info
                    .fields
                    .iter()
                    .map(|f| self.default_value(f.ty, span))
                    .collect::<Option<Vec<_>>>()?;
                Some(self.build_list(ty, parts, span))
            }
            Ty::Tuple(items) => {
                let parts = items
                    .iter()
                    .map(|t| self.default_value(*t, span))
                    .collect::<Option<Vec<_>>>()?;
                Some(self.build_list(ty, parts, span))
            }
            Ty::Stack { elem, size } => {
                let parts = (0..size)
                    .map(|_| self.default_value(elem, span))
                    .collect::<Option<Vec<_>>>()?;
                Some(self.build_list(ty, parts, span))
            }
            _ => None,
        }
    }

    /// `e` with every `...` in it (a [`ExprKind::DontCare`] of a known type,
    /// or of `ty` at the top) replaced by its type's default value, and
    /// folded again: how a constant's initialiser gets its value.
    pub(crate) fn fill_defaults(&mut self, e: ir::Expr, ty: TyId) -> ir::Expr {
        match e.kind {
            ExprKind::DontCare => {
                let t = if e.ty == TypeTable::DONT_CARE {
                    ty
                } else {
                    e.ty
                };
                match self.default_value(t, e.span) {
                    Some(v) => v,
                    None => ir::Expr {
                        kind: ExprKind::DontCare,
                        ..e
                    },
                }
            }
            ExprKind::List(parts) => {
                let parts = parts
                    .into_iter()
                    .map(|p| {
                        let t = p.ty;
                        self.fill_defaults(p, t)
                    })
                    .collect();
                self.build_list(e.ty, parts, e.span)
            }
            kind => ir::Expr { kind, ..e },
        }
    }

    /// Why `e` cannot be assigned to, if it cannot.
    pub(crate) fn not_assignable(&self, e: &ir::Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Var(id) => {
                let v = self.prog.var(*id);
                match v.kind {
                    ir::VarKind::Local
                    | ir::VarKind::Param(ir::Direction::Out | ir::Direction::InOut) => None,
                    ir::VarKind::Param(ir::Direction::In) => {
                        Some(format!("`{}` is an `in` parameter", v.name))
                    }
                    ir::VarKind::Param(ir::Direction::None) => Some(format!(
                        "`{}` is a directionless parameter (read-only)",
                        v.name
                    )),
                    ir::VarKind::CtorParam => {
                        Some(format!("`{}` is a constructor parameter", v.name))
                    }
                }
            }
            ExprKind::Field(b, _)
            | ExprKind::Index(b, _)
            | ExprKind::Slice(b, ..)
            | ExprKind::PartSelect { base: b, .. }
            | ExprKind::StackNext(b)
            | ExprKind::StackLast(b) => self.not_assignable(b),
            ExprKind::DontCare if self.is_unknown(e.ty) => None,
            ExprKind::Const(_) => Some("a constant cannot be assigned to".into()),
            _ => Some("this expression is not a variable, field, element or slice".into()),
        }
    }
}
