//! The argument rules of core.p4's packet methods, as p4c's
//! `CheckCoreMethods` enforces them: `extract` takes a header (or `_`),
//! with a `varbit` field exactly when a length is given; `lookahead` takes a
//! fixed-width type; `emit` takes headers, stacks, unions and structs or
//! tuples of those. Values of a type parameter are checked once the
//! generic block is used with concrete types.

use super::Checker;
use super::calls::Invocation;
use crate::diag::Code;
use crate::ir::{self, ExprKind};
use crate::source::Span;
use crate::types::{StructKind, Ty, TyId, TypeTable};

impl Checker<'_> {
    /// Checks a call of `packet_in.extract`/`lookahead` or `packet_out.emit`.
    pub(crate) fn check_packet_method(
        &mut self,
        ext_name: &str,
        method: &str,
        inv: &Invocation,
        span: Span,
    ) {
        match (ext_name, method) {
            ("packet_in", "extract") => self.check_extract(&inv.args),
            ("packet_in", "lookahead") => {
                if let Some(&t) = inv.type_args.first() {
                    self.check_lookahead(t, span);
                }
            }
            ("packet_out", "emit") => {
                if let Some(Some(a)) = inv.args.first() {
                    self.check_emit(a.ty, a.span);
                }
            }
            _ => {}
        }
    }

    fn check_extract(&mut self, args: &[Option<ir::Expr>]) {
        let Some(Some(h)) = args.first() else {
            return;
        };
        let with_length = args.len() == 2;
        if matches!(h.kind, ExprKind::DontCare) {
            // p4c: `_` passes as a header, but has no varbit field.
            if with_length {
                self.error(
                    Code::BadPacketArgument,
                    h.span,
                    "`_` cannot be extracted with a length: the argument should be a header \
                     with a `varbit` field",
                );
            }
            return;
        }
        if self.deferred(h.ty) {
            return;
        }
        let is_header = self
            .prog
            .types
            .struct_info(h.ty)
            .is_some_and(|i| i.kind == StructKind::Header);
        if !is_header {
            let shown = self.show(h.ty);
            self.error(
                Code::BadPacketArgument,
                h.span,
                format!("the argument of `extract` must be a header, not `{shown}`"),
            );
            return;
        }
        let varbits = self.varbits_or_unions(h.ty, h.span);
        if with_length && !varbits {
            let shown = self.show(h.ty);
            self.error(
                Code::BadPacketArgument,
                h.span,
                format!(
                    "`{shown}` has no `varbit` field: a header extracted with a length \
                     should contain one"
                ),
            );
        } else if !with_length && varbits {
            let shown = self.show(h.ty);
            self.error(
                Code::BadPacketArgument,
                h.span,
                format!(
                    "`{shown}` has a `varbit` field: a header extracted without a length \
                     cannot contain varbit fields (give the length as a second argument)"
                ),
            );
        }
    }

    fn check_lookahead(&mut self, t: TyId, span: Span) {
        if t == TypeTable::VOID {
            self.error(
                Code::BadPacketArgument,
                span,
                "`void` is not a type argument of `lookahead`",
            );
        } else if !self.deferred(t) && self.varbits_or_unions(t, span) {
            let shown = self.show(t);
            self.error(
                Code::BadPacketArgument,
                span,
                format!(
                    "the type argument of `lookahead` must be a fixed-width type; `{shown}` \
                     holds a varbit or a header union"
                ),
            );
        }
    }

    /// `emit`: a header, stack or union, or a struct, tuple or list of such.
    fn check_emit(&mut self, ty: TyId, span: Span) {
        if self.deferred(ty) || self.emittable(ty) {
            return;
        }
        let shown = self.show(ty);
        self.error(
            Code::BadPacketArgument,
            span,
            format!(
                "the argument of `emit` must be a header, stack or union, or a struct or tuple \
                 of such types; `{shown}` is not"
            ),
        );
    }

    fn emittable(&self, ty: TyId) -> bool {
        match self.ty(ty) {
            Ty::Stack { .. } => true,
            Ty::Struct(_) => {
                let Some(info) = self.prog.types.struct_info(ty) else {
                    return true;
                };
                info.kind != StructKind::Struct
                    || info.fields.iter().all(|f| self.emittable_field(f.ty))
            }
            Ty::Tuple(items) => items.iter().all(|t| self.emittable_field(*t)),
            Ty::List(elem) => self.emittable_field(*elem),
            _ => false,
        }
    }

    fn emittable_field(&self, ty: TyId) -> bool {
        self.deferred(ty) || self.emittable(ty)
    }

    /// Known only per instance (a type parameter) or already an error.
    fn deferred(&self, ty: TyId) -> bool {
        matches!(self.ty(ty), Ty::Param { .. } | Ty::Unknown | Ty::DontCare)
    }

    /// p4c's `hasVarbitsOrUnions`: a union or varbit, a header or struct
    /// with a `varbit` field (more than one is E0211), a stack or tuple of
    /// such.
    fn varbits_or_unions(&mut self, ty: TyId, span: Span) -> bool {
        match self.ty(ty).clone() {
            Ty::Varbit { .. } => true,
            Ty::Struct(_) => {
                let Some(info) = self.prog.types.struct_info(ty) else {
                    return false;
                };
                if info.kind == StructKind::HeaderUnion {
                    return true;
                }
                let name = info.name.clone();
                let varbits = info
                    .fields
                    .iter()
                    .filter(|f| matches!(self.prog.types.get(f.ty), Ty::Varbit { .. }))
                    .count();
                if varbits > 1 {
                    self.error(
                        Code::BadTypeArgument,
                        span,
                        format!(
                            "`{name}` has {varbits} `varbit` fields; a header extracted or \
                             looked ahead at can have only one"
                        ),
                    );
                }
                varbits > 0
            }
            Ty::Stack { elem, .. } => self.varbits_or_unions(elem, span),
            Ty::Tuple(items) => items.iter().any(|t| self.varbits_or_unions(*t, span)),
            _ => false,
        }
    }
}
