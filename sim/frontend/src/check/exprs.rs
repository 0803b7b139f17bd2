//! Expressions: typing rules of the P4_16 spec (section 8), implicit
//! conversion of `int` constants, and constant folding.

use super::consts::{self, FoldError, IntTy};
use super::{Binding, Checker, Context};
use crate::ast::{self, BinOp};
use crate::diag::Code;
use crate::ir::{self, ExprKind, UnOp, Value};
use crate::source::Span;
use crate::types::{StructInfo, StructKind, Ty, TyId, TypeTable};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};

pub(crate) fn mk(ty: TyId, kind: ExprKind, span: Span) -> ir::Expr {
    ir::Expr { ty, kind, span }
}

pub(crate) fn unknown(span: Span) -> ir::Expr {
    mk(TypeTable::UNKNOWN, ExprKind::DontCare, span)
}

/// The constant integer value of `e`, if it has one.
pub(crate) fn const_int(e: &ir::Expr) -> Option<&BigInt> {
    match &e.kind {
        ExprKind::Const(Value::Int(v)) => Some(v),
        _ => None,
    }
}

impl Checker<'_> {
    /// Checks an expression; `expected` guides `int` constants and
    /// `{...}` initialisers (the result is not yet converted to it: use
    /// [`Checker::expr_as`] for that).
    pub(crate) fn expr(&mut self, e: &ast::Expr, expected: Option<TyId>) -> ir::Expr {
        use ast::ExprKind as K;
        let span = e.span;
        match &e.kind {
            K::Int(lit) => self.int_literal(lit, span),
            K::Bool(b) => mk(TypeTable::BOOL, ExprKind::Const(Value::Bool(*b)), span),
            K::Str(s) => mk(
                TypeTable::STRING,
                ExprKind::Const(Value::Str(s.clone())),
                span,
            ),
            K::Name(path) => self.name_expr(path, span),
            K::Member(base, m) => self.member_expr(base, m, span),
            K::Index(base, idx) => self.index_expr(base, idx, span),
            K::Slice(base, hi, lo) => self.slice_expr(base, hi, lo, span),
            K::PartSelect {
                base,
                start,
                up,
                width,
            } => self.part_select_expr(base, start, *up, width, span),
            K::Call {
                callee,
                type_args,
                args,
            } => self.call_expr(callee, type_args, args, span, expected),
            K::Construct { ty, args } => {
                let t = self.resolve_type(ty);
                self.construct_value(t, args, span)
            }
            K::Unary(op, operand) => self.unary_expr(*op, operand, span, expected),
            K::Binary(op, l, r) => self.binary_expr(*op, l, r, span, expected),
            K::Ternary(c, t, f) => self.ternary_expr(c, t, f, span, expected),
            K::Cast(ty, inner) => {
                let to = self.resolve_type(ty);
                let v = self.expr(inner, Some(to));
                self.cast(v, to, span)
            }
            K::List(items) => self.list_expr(items, span, expected),
            K::StructInit { fields, dots } => self.struct_init(fields, *dots, span, expected),
            K::Dots => mk(TypeTable::DONT_CARE, ExprKind::DontCare, span),
            K::InvalidHeader => match expected {
                Some(t) if self.prog.types.is_header(t) || self.prog.types.is_union(t) => {
                    mk(t, ExprKind::InvalidHeader, span)
                }
                _ => {
                    self.error(
                        Code::TypeMismatch,
                        span,
                        "`{#}` needs a header or header union type from its context, e.g. `(h_t){#}`",
                    );
                    unknown(span)
                }
            },
            K::DontCare => mk(TypeTable::DONT_CARE, ExprKind::DontCare, span),
            K::Mask(..) | K::Range(..) | K::Default | K::KeysetTuple(_) => {
                self.error(
                    Code::NotAllowedHere,
                    span,
                    "keyset expressions (`&&&`, `..`, `default`) are only allowed in select cases and table entries",
                );
                unknown(span)
            }
        }
    }

    /// Checks `e` and converts it to `ty`, reporting a mismatch.
    pub(crate) fn expr_as(&mut self, e: &ast::Expr, ty: TyId) -> ir::Expr {
        let v = self.expr(e, Some(ty));
        self.coerce(v, ty)
    }

    /// Checks a condition: must be `bool`.
    pub(crate) fn condition(&mut self, e: &ast::Expr, what: &str) -> ir::Expr {
        let v = self.expr(e, Some(TypeTable::BOOL));
        if v.ty != TypeTable::BOOL && !self.is_unknown(v.ty) {
            let shown = self.show(v.ty);
            self.error(
                Code::NotBoolean,
                e.span,
                format!("{what} must be `bool`, but this is `{shown}`"),
            );
            return unknown(e.span);
        }
        v
    }

    fn int_literal(&mut self, lit: &crate::lexer::IntLit, span: Span) -> ir::Expr {
        let value = BigInt::from(lit.value.clone());
        match lit.width {
            None => mk(TypeTable::INF_INT, ExprKind::Const(Value::Int(value)), span),
            Some((width, signed)) => {
                let ty = self.types().bits(width, signed);
                if !consts::fits(&value, width, signed) {
                    let kind = if signed { "int" } else { "bit" };
                    self.warning(
                        Code::Truncation,
                        span,
                        format!("value {value} does not fit in {kind}<{width}>; it is truncated"),
                    );
                }
                let v = consts::wrap(&value, width, signed);
                mk(ty, ExprKind::Const(Value::Int(v)), span)
            }
        }
    }

    fn name_expr(&mut self, path: &ast::Path, span: Span) -> ir::Expr {
        let name = &path.name.name;
        let Some(b) = self.lookup_path(path).cloned() else {
            if name == "this" {
                if !self.in_initializer {
                    // p4c: "this can only be used in the definition of an
                    // abstract method".
                    self.error(
                        Code::NotAllowedHere,
                        span,
                        "`this` can only be used in the implementation of an abstract method, in an instance's initialiser block",
                    );
                }
                return unknown(span);
            }
            self.error(
                Code::UndeclaredName,
                span,
                format!("`{name}` is not declared"),
            );
            return unknown(span);
        };
        match b {
            Binding::Var(id) => {
                self.usage.vars.insert(id);
                let ty = self.prog.var(id).ty;
                mk(ty, ExprKind::Var(id), span)
            }
            Binding::Const { ty, value } => mk(ty, ExprKind::Const(value), span),
            Binding::HeaderConst(e) => ir::Expr { span, ..e },
            Binding::Instance(id) => {
                self.usage.instances.insert(id);
                let ty = self.prog.instances[id.0 as usize].ty;
                mk(ty, ExprKind::Instance(id), span)
            }
            Binding::MatchKind(i) => mk(
                TypeTable::MATCH_KIND,
                ExprKind::Const(Value::MatchKind(i)),
                span,
            ),
            // A declaration that already failed: stay quiet.
            Binding::Type(TypeTable::UNKNOWN) => unknown(span),
            Binding::ValueSet(id) => {
                let elem = self.prog.value_sets[id.0 as usize].elem;
                let ty = self.types().intern(Ty::Set(elem));
                mk(ty, ExprKind::ValueSet(id), span)
            }
            other => {
                self.error(
                    Code::WrongKindOfName,
                    span,
                    format!("`{name}` is {}, not a value", other.describe()),
                );
                unknown(span)
            }
        }
    }

    /// `e.m` where `e` is a value, or `E.m` where `E` is an enum type or `error`.
    fn member_expr(&mut self, base: &ast::Expr, m: &ast::Ident, span: Span) -> ir::Expr {
        if let ast::ExprKind::Name(path) = &base.kind {
            if path.name.name == "error" && !path.global {
                return self.error_member(m, span);
            }
            match self.lookup_path(path).cloned() {
                Some(Binding::Type(ty)) => return self.type_member(ty, m, span),
                Some(Binding::Table(_)) => {
                    self.error(
                        Code::UnknownMember,
                        m.span,
                        format!("a table has no member `{}`; call `apply()`", m.name),
                    );
                    return unknown(span);
                }
                _ => {}
            }
        }
        let b = self.expr(base, None);
        self.value_member(b, m, span)
    }

    fn error_member(&mut self, m: &ast::Ident, span: Span) -> ir::Expr {
        match self.error_numbers.get(&m.name).copied() {
            Some(i) => mk(TypeTable::ERROR, ExprKind::Const(Value::Error(i)), span),
            None => {
                self.error(
                    Code::UnknownMember,
                    m.span,
                    format!("`error.{}` is not declared", m.name),
                );
                unknown(span)
            }
        }
    }

    fn type_member(&mut self, ty: TyId, m: &ast::Ident, span: Span) -> ir::Expr {
        if let Some(info) = self.prog.types.enum_info(ty) {
            if let Some(i) = info.members.iter().position(|x| *x == m.name) {
                let value = if info.repr.is_some() {
                    Value::Int(info.values[i].clone())
                } else {
                    Value::Enum(i as u32)
                };
                return mk(ty, ExprKind::Const(value), span);
            }
            let name = info.name.clone();
            self.error(
                Code::UnknownMember,
                m.span,
                format!("enum `{name}` has no member `{}`", m.name),
            );
            return unknown(span);
        }
        if ty == TypeTable::ERROR {
            return self.error_member(m, span);
        }
        if self.is_unknown(ty) {
            return unknown(span);
        }
        let shown = self.show(ty);
        self.error(
            Code::UnknownMember,
            m.span,
            format!("type `{shown}` has no member `{}`", m.name),
        );
        unknown(span)
    }

    pub(crate) fn value_member(&mut self, b: ir::Expr, m: &ast::Ident, span: Span) -> ir::Expr {
        let name = m.name.as_str();
        match self.ty(b.ty).clone() {
            Ty::Unknown => unknown(span),
            Ty::Struct(i) => {
                let info = &self.prog.types.structs[i as usize];
                match info.fields.iter().position(|f| f.name == name) {
                    Some(idx) => {
                        let fty = info.fields[idx].ty;
                        if let ExprKind::Const(Value::List(vals)) = &b.kind
                            && let Some(v) = vals.get(idx)
                        {
                            return mk(fty, ExprKind::Const(v.clone()), span);
                        }
                        if is_constant_tree(&b)
                            && let ExprKind::List(parts) = &b.kind
                            && let Some(p) = parts.get(idx)
                        {
                            return ir::Expr { span, ..p.clone() };
                        }
                        mk(fty, ExprKind::Field(Box::new(b), idx as u32), span)
                    }
                    None => {
                        let sname = info.name.clone();
                        let kind = match info.kind {
                            StructKind::Header => "header",
                            StructKind::HeaderUnion => "header union",
                            StructKind::Struct => "struct",
                        };
                        self.error(
                            Code::UnknownMember,
                            m.span,
                            format!("{kind} `{sname}` has no field `{name}`"),
                        );
                        unknown(span)
                    }
                }
            }
            Ty::Stack { elem, size } => match name {
                "next" | "last" | "lastIndex"
                    if !self.prog.types.is_header(elem) && !self.prog.types.is_union(elem) =>
                {
                    let shown = self.show(b.ty);
                    self.error(
                        Code::UnknownMember,
                        m.span,
                        format!(
                            "`{name}` is for header stacks; the array `{shown}` has only `size`"
                        ),
                    );
                    unknown(span)
                }
                "next" | "last" => {
                    if self.ctx != Context::ParserState {
                        self.error(
                            Code::NotAllowedHere,
                            m.span,
                            format!("`{name}` of a header stack may only be used in a parser"),
                        );
                    }
                    let kind = if name == "next" {
                        ExprKind::StackNext(Box::new(b))
                    } else {
                        ExprKind::StackLast(Box::new(b))
                    };
                    mk(elem, kind, span)
                }
                "lastIndex" => {
                    if !matches!(self.ctx, Context::ParserState | Context::ParserLocal) {
                        self.error(
                            Code::NotAllowedHere,
                            m.span,
                            format!(
                                "`lastIndex` of a header stack may only be used in a parser, not in {}",
                                self.ctx_name()
                            ),
                        );
                    }
                    let ty = self.types().bits(32, false);
                    mk(ty, ExprKind::StackLastIndex(Box::new(b)), span)
                }
                "size" => {
                    let ty = self.types().bits(32, false);
                    mk(ty, ExprKind::Const(Value::Int(BigInt::from(size))), span)
                }
                _ => {
                    self.error(
                        Code::UnknownMember,
                        m.span,
                        format!("a header stack has no member `{name}`"),
                    );
                    unknown(span)
                }
            },
            Ty::TableResult(t) => match name {
                "hit" => mk(TypeTable::BOOL, ExprKind::TableHit(Box::new(b)), span),
                "miss" => mk(TypeTable::BOOL, ExprKind::TableMiss(Box::new(b)), span),
                "action_run" => {
                    if !std::mem::take(&mut self.allow_action_run) {
                        self.error(
                            Code::NotAllowedHere,
                            m.span,
                            "`action_run` may only be used as the expression of a `switch`: `switch (t.apply().action_run) { ... }`",
                        );
                    }
                    let ty = self.types().intern(Ty::ActionRun(t));
                    mk(ty, ExprKind::ActionRun(Box::new(b)), span)
                }
                _ => {
                    self.error(
                        Code::UnknownMember,
                        m.span,
                        format!("a table's apply result has `hit`, `miss` and `action_run`, not `{name}`"),
                    );
                    unknown(span)
                }
            },
            _ => {
                let shown = self.show(b.ty);
                self.error(
                    Code::UnknownMember,
                    m.span,
                    format!("`{shown}` has no member `{name}`"),
                );
                unknown(span)
            }
        }
    }

    fn index_expr(&mut self, base: &ast::Expr, idx: &ast::Expr, span: Span) -> ir::Expr {
        let b = self.expr(base, None);
        let mut i = self.expr(idx, None);
        if matches!(self.ty(b.ty), Ty::Stack { .. }) {
            // A serializable enum or a `type` over `bit<W>` indexes a stack
            // as its underlying `bit<W>` (a typedef of one already is one).
            i = self.enum_to_repr(i);
            while let Ty::NewType { of, .. } = *self.ty(i.ty) {
                let s = i.span;
                i = match i.kind {
                    ExprKind::Const(v) => mk(of, ExprKind::Const(v), s),
                    kind => mk(of, ExprKind::Cast(Box::new(mk(i.ty, kind, s))), s),
                };
            }
        }
        match self.ty(b.ty).clone() {
            Ty::Unknown => unknown(span),
            Ty::Stack { elem, size } => {
                if let Some(v) = const_int(&i) {
                    if v.is_negative() || *v >= BigInt::from(size) {
                        self.error(
                            Code::BadSlice,
                            idx.span,
                            format!("index {v} is out of bounds for a stack of size {size}"),
                        );
                    }
                } else if !self.is_integer(i.ty) && !self.is_unknown(i.ty) {
                    let shown = self.show(i.ty);
                    self.error(
                        Code::TypeMismatch,
                        idx.span,
                        format!("a stack index must be an integer, not `{shown}`"),
                    );
                }
                let u32t = self.types().bits(32, false);
                let i = if i.ty == TypeTable::INF_INT {
                    self.coerce(i, u32t)
                } else {
                    i
                };
                mk(elem, ExprKind::Index(Box::new(b), Box::new(i)), span)
            }
            Ty::Tuple(items) => match const_int(&i).and_then(|v| v.to_usize()) {
                Some(k) if k < items.len() => {
                    let ty = items[k];
                    // An element of a constant tuple is a constant.
                    if let ExprKind::Const(Value::List(vals)) = &b.kind
                        && let Some(v) = vals.get(k)
                    {
                        return mk(ty, ExprKind::Const(v.clone()), span);
                    }
                    mk(ty, ExprKind::Index(Box::new(b), Box::new(i)), span)
                }
                _ => {
                    self.error(
                        Code::BadSlice,
                        idx.span,
                        "a tuple index must be a constant within the tuple's size",
                    );
                    unknown(span)
                }
            },
            _ => {
                let shown = self.show(b.ty);
                self.error(
                    Code::BadOperand,
                    span,
                    format!("`{shown}` cannot be indexed; only header stacks and tuples can"),
                );
                unknown(span)
            }
        }
    }

    /// The value a slice or part-select takes bits of, with its width
    /// (`None` for an `int` constant): a serializable enum as its
    /// underlying `bit<W>` (p4c); `Err` (reported) for a value that cannot
    /// be sliced.
    fn sliceable(&mut self, base: &ast::Expr, span: Span) -> Result<(ir::Expr, Option<u64>), ()> {
        let mut b = self.expr(base, None);
        if let Ty::Enum(_) = self.ty(b.ty)
            && let Some(under) = self.prog.types.underlying(b.ty)
        {
            let s = b.span;
            b = self.cast(b, under, s);
        }
        let width = match self.ty(b.ty) {
            Ty::Unknown => return Err(()),
            Ty::Bits { width, .. } => Some(*width as u64),
            Ty::InfInt => None,
            _ => {
                let shown = self.show(b.ty);
                self.error(
                    Code::BadSlice,
                    span,
                    format!("only `bit<W>` and `int<W>` values can be sliced, not `{shown}`"),
                );
                return Err(());
            }
        };
        Ok((b, width))
    }

    fn slice_expr(
        &mut self,
        base: &ast::Expr,
        hi: &ast::Expr,
        lo: &ast::Expr,
        span: Span,
    ) -> ir::Expr {
        let Ok((b, width)) = self.sliceable(base, span) else {
            return unknown(span);
        };
        let h = self.const_u64(hi, "a slice bound");
        let l = self.const_u64(lo, "a slice bound");
        let (Some(h), Some(l)) = (h, l) else {
            return unknown(span);
        };
        if h < l || width.is_some_and(|w| h >= w) || h >= 1 << 24 {
            let msg = match width {
                Some(w) if h >= w => format!("slice [{h}:{l}] is out of range for a {w}-bit value"),
                _ => format!("slice [{h}:{l}] needs the high bound at least the low bound"),
            };
            self.error(Code::BadSlice, span, msg);
            return unknown(span);
        }
        let (h, l) = (h as u32, l as u32);
        let ty = self.types().bits(h - l + 1, false);
        if let Some(v) = const_int(&b) {
            return mk(
                ty,
                ExprKind::Const(Value::Int(consts::slice(v, h, l))),
                span,
            );
        }
        mk(ty, ExprKind::Slice(Box::new(b), h, l), span)
    }

    /// `e[start +: w]` / `e[start -: w]` (P4_16 1.2.4, indexed
    /// part-selects): `e` a `bit<W>`/`int<W>`, `w` a positive compile-time
    /// constant, `start` an unsigned integer; the result is `bit<w>`. A
    /// constant `start` must keep the bits inside `e`, and gives a plain
    /// slice.
    fn part_select_expr(
        &mut self,
        base: &ast::Expr,
        start: &ast::Expr,
        up: bool,
        width: &ast::Expr,
        span: Span,
    ) -> ir::Expr {
        let Ok((b, base_width)) = self.sliceable(base, span) else {
            return unknown(span);
        };
        let st = self.expr(start, None);
        let w = self.const_u64(width, "the width of a part-select");
        let Some(w) = w else {
            return unknown(span);
        };
        if w == 0 || w >= 1 << 24 {
            self.error(
                Code::BadSlice,
                width.span,
                format!("the width of a part-select must be positive, not {w}"),
            );
            return unknown(span);
        }
        match self.ty(st.ty) {
            Ty::Unknown => return unknown(span),
            Ty::Bits { signed: false, .. } | Ty::InfInt => {}
            _ => {
                let shown = self.show(st.ty);
                self.error(
                    Code::TypeMismatch,
                    start.span,
                    format!(
                        "the start of a part-select must be an unsigned integer, not `{shown}`"
                    ),
                );
                return unknown(span);
            }
        }
        let ty = self.types().bits(w as u32, false);
        if let Some(v) = const_int(&st) {
            // A constant start: the slice it names, checked like one.
            let lo = match v.to_u64() {
                Some(v) if up => Some(v),
                Some(v) => v.checked_sub(w - 1),
                None => None,
            };
            let hi = lo.and_then(|l| l.checked_add(w - 1));
            let (Some(l), Some(h)) = (lo, hi) else {
                self.error(
                    Code::BadSlice,
                    span,
                    format!("part-select of {w} bits at {v} is out of range"),
                );
                return unknown(span);
            };
            if base_width.is_some_and(|bw| h >= bw) || h >= 1 << 24 {
                let msg = match base_width {
                    Some(bw) => {
                        format!("part-select [{h}:{l}] is out of range for a {bw}-bit value")
                    }
                    None => format!("part-select [{h}:{l}] is out of range"),
                };
                self.error(Code::BadSlice, span, msg);
                return unknown(span);
            }
            let (h, l) = (h as u32, l as u32);
            if let Some(v) = const_int(&b) {
                return mk(
                    ty,
                    ExprKind::Const(Value::Int(consts::slice(v, h, l))),
                    span,
                );
            }
            return mk(ty, ExprKind::Slice(Box::new(b), h, l), span);
        }
        let Some(bw) = base_width else {
            self.error(
                Code::BadSlice,
                span,
                "a part-select with a run-time start needs a value of known width (`bit<W>` or `int<W>`)",
            );
            return unknown(span);
        };
        if w > bw {
            self.error(
                Code::BadSlice,
                width.span,
                format!("a part-select of {w} bits does not fit in a {bw}-bit value"),
            );
            return unknown(span);
        }
        mk(
            ty,
            ExprKind::PartSelect {
                base: Box::new(b),
                start: Box::new(st),
                width: w as u32,
                up,
            },
            span,
        )
    }

    pub(crate) fn is_type_param(&self, ty: TyId) -> bool {
        matches!(self.ty(ty), Ty::Param { .. })
    }

    pub(crate) fn is_integer(&self, ty: TyId) -> bool {
        matches!(self.ty(ty), Ty::Bits { .. } | Ty::InfInt)
    }

    fn int_ty(&self, ty: TyId) -> IntTy {
        match self.ty(ty) {
            Ty::Bits { width, signed } => IntTy::Fixed {
                width: *width,
                signed: *signed,
            },
            _ => IntTy::Inf,
        }
    }

    fn unary_expr(
        &mut self,
        op: UnOp,
        operand: &ast::Expr,
        span: Span,
        expected: Option<TyId>,
    ) -> ir::Expr {
        let v = self.expr(operand, expected);
        if self.is_unknown(v.ty) {
            return unknown(span);
        }
        // `-`, `+` and `~` of a serializable enum work on its underlying
        // type, as p4c's Neg, UPlus and Cmpl do.
        let v = if op == UnOp::Not {
            v
        } else {
            self.enum_to_repr(v)
        };
        let ok = match op {
            UnOp::Not => v.ty == TypeTable::BOOL,
            UnOp::BitNot => matches!(self.ty(v.ty), Ty::Bits { .. }),
            UnOp::Neg | UnOp::Plus => self.is_integer(v.ty),
        };
        if !ok {
            let shown = self.show(v.ty);
            let (code, message) = match op {
                UnOp::Not => (
                    Code::NotBoolean,
                    format!("operator `!` needs a `bool` operand, not `{shown}`"),
                ),
                UnOp::BitNot if v.ty == TypeTable::INF_INT => (
                    Code::BadOperand,
                    format!(
                        "operator `~` cannot be applied to `{shown}` (an `int` constant has no width; cast it first)"
                    ),
                ),
                UnOp::BitNot => (
                    Code::BadOperand,
                    format!("operator `~` cannot be applied to `{shown}`"),
                ),
                UnOp::Neg => (
                    Code::BadOperand,
                    format!("operator `-` cannot be applied to `{shown}`"),
                ),
                UnOp::Plus => (
                    Code::BadOperand,
                    format!("operator `+` cannot be applied to `{shown}`"),
                ),
            };
            self.error(code, span, message);
            return unknown(span);
        }
        if op == UnOp::Plus {
            return mk(v.ty, v.kind, span);
        }
        if let ExprKind::Const(c) = &v.kind
            && let Some(r) = consts::unary(op, c, self.int_ty(v.ty))
        {
            return mk(v.ty, ExprKind::Const(r), span);
        }
        mk(v.ty, ExprKind::Unary(op, Box::new(v)), span)
    }

    /// Converts a serializable enum value to its underlying type (an
    /// implicit conversion P4 allows in arithmetic and comparisons).
    fn enum_to_repr(&mut self, e: ir::Expr) -> ir::Expr {
        match self.prog.types.enum_info(e.ty).and_then(|i| i.repr) {
            Some(repr) => {
                let span = e.span;
                if let ExprKind::Const(v) = &e.kind {
                    return mk(repr, ExprKind::Const(v.clone()), span);
                }
                mk(repr, ExprKind::Cast(Box::new(e)), span)
            }
            None => e,
        }
    }

    /// Brings two numeric operands to one type: `int` constants take the
    /// other operand's type; fixed-width types must agree exactly.
    fn numeric_operands(
        &mut self,
        op: BinOp,
        l: ir::Expr,
        r: ir::Expr,
        span: Span,
    ) -> Option<(ir::Expr, ir::Expr, TyId)> {
        let (l, r) = (self.enum_to_repr(l), self.enum_to_repr(r));
        if self.is_unknown(l.ty) || self.is_unknown(r.ty) {
            return None;
        }
        if self.is_type_param(l.ty) || self.is_type_param(r.ty) {
            let ty = if self.is_type_param(l.ty) { l.ty } else { r.ty };
            return Some((l, r, ty));
        }
        for side in [&l, &r] {
            if !self.is_integer(side.ty) {
                let shown = self.show(side.ty);
                self.error(
                    Code::BadOperand,
                    side.span,
                    format!("operator `{}` cannot be applied to `{shown}`", op.as_str()),
                );
                return None;
            }
        }
        let (lt, rt) = (l.ty, r.ty);
        if lt == TypeTable::INF_INT && rt == TypeTable::INF_INT {
            return Some((l, r, lt));
        }
        if lt == TypeTable::INF_INT {
            let l = self.coerce(l, rt);
            return Some((l, r, rt));
        }
        if rt == TypeTable::INF_INT {
            let r = self.coerce(r, lt);
            return Some((l, r, lt));
        }
        if lt != rt {
            let (ls, rs) = (self.show(lt), self.show(rt));
            self.error_with_note(
                Code::WidthMismatch,
                span,
                format!(
                    "operator `{}` has operands of different types: `{ls}` and `{rs}`",
                    op.as_str()
                ),
                "cast one operand so both have the same width and signedness",
            );
            return None;
        }
        Some((l, r, lt))
    }

    fn binary_expr(
        &mut self,
        op: BinOp,
        la: &ast::Expr,
        ra: &ast::Expr,
        span: Span,
        expected: Option<TyId>,
    ) -> ir::Expr {
        use BinOp::*;
        match op {
            And | Or => {
                let l = self.expr(la, Some(TypeTable::BOOL));
                let r = self.expr(ra, Some(TypeTable::BOOL));
                for side in [&l, &r] {
                    if side.ty != TypeTable::BOOL && !self.is_unknown(side.ty) {
                        let shown = self.show(side.ty);
                        self.error(
                            Code::NotBoolean,
                            side.span,
                            format!(
                                "operator `{}` needs `bool` operands, not `{shown}`",
                                op.as_str()
                            ),
                        );
                        return unknown(span);
                    }
                }
                if let (ExprKind::Const(Value::Bool(a)), ExprKind::Const(Value::Bool(b))) =
                    (&l.kind, &r.kind)
                {
                    let v = if op == And { *a && *b } else { *a || *b };
                    return mk(TypeTable::BOOL, ExprKind::Const(Value::Bool(v)), span);
                }
                mk(
                    TypeTable::BOOL,
                    ExprKind::Binary(op, Box::new(l), Box::new(r)),
                    span,
                )
            }
            Eq | Ne => {
                let l = self.expr(la, None);
                let r = self.expr(ra, Some(l.ty));
                let l = if l.ty == TypeTable::INF_INT || matches!(self.ty(l.ty), Ty::Tuple(_)) {
                    // Re-check with the right side's type known ({...} literals).
                    let lt = r.ty;
                    self.expr(la, Some(lt))
                } else {
                    l
                };
                self.equality(op, l, r, span)
            }
            Shl | Shr => {
                let l = self.expr(la, expected);
                let r = self.expr(ra, None);
                self.shift(op, l, r, span)
            }
            Concat => {
                let l = self.expr(la, None);
                let r = self.expr(ra, None);
                let (l, r) = (self.enum_to_repr(l), self.enum_to_repr(r));
                if self.is_unknown(l.ty) || self.is_unknown(r.ty) {
                    return unknown(span);
                }
                let (Some((lw, ls)), Some((rw, _))) = (
                    self.prog.types.int_width(l.ty),
                    self.prog.types.int_width(r.ty),
                ) else {
                    let bad = if self.prog.types.int_width(l.ty).is_none() {
                        &l
                    } else {
                        &r
                    };
                    let shown = self.show(bad.ty);
                    self.error(
                        Code::BadOperand,
                        bad.span,
                        format!("`++` needs `bit<W>` or `int<W>` operands with a known width, not `{shown}`"),
                    );
                    return unknown(span);
                };
                let ty = self.types().bits(lw + rw, ls);
                if let (Some(a), Some(b)) = (const_int(&l), const_int(&r)) {
                    let v = consts::concat(
                        a,
                        b,
                        rw,
                        IntTy::Fixed {
                            width: lw + rw,
                            signed: ls,
                        },
                    );
                    return mk(ty, ExprKind::Const(Value::Int(v)), span);
                }
                mk(ty, ExprKind::Binary(op, Box::new(l), Box::new(r)), span)
            }
            _ => {
                let hint = if matches!(op, Lt | Le | Gt | Ge) {
                    None
                } else {
                    expected
                };
                let l = self.expr(la, hint);
                let r = self.expr(ra, hint.or(Some(l.ty)));
                if matches!(op, Div | Mod)
                    && [&l, &r].iter().any(|x| {
                        x.ty == TypeTable::INF_INT && const_int(x).is_some_and(|v| v.is_negative())
                    })
                {
                    // p4c's unsBinaryArith: "not defined on negative numbers",
                    // whatever the other operand's type.
                    self.error(
                        Code::BadOperand,
                        span,
                        format!("`{}` is not defined on negative numbers", op.as_str()),
                    );
                    return unknown(span);
                }
                let Some((l, r, ty)) = self.numeric_operands(op, l, r, span) else {
                    return unknown(span);
                };
                if matches!(op, Div | Mod) && matches!(self.ty(ty), Ty::Bits { signed: true, .. }) {
                    let shown = self.show(ty);
                    self.error(
                        Code::BadOperand,
                        span,
                        format!("`{}` is not defined on signed `{shown}`; P4 divides only unsigned values", op.as_str()),
                    );
                    return unknown(span);
                }
                if matches!(op, SatAdd | SatSub) && ty == TypeTable::INF_INT {
                    self.error(
                        Code::BadOperand,
                        span,
                        "saturating arithmetic needs a fixed-width type; cast the `int` operands",
                    );
                    return unknown(span);
                }
                let result_ty = if matches!(op, Lt | Le | Gt | Ge) {
                    TypeTable::BOOL
                } else {
                    ty
                };
                if let (Some(a), Some(b)) = (const_int(&l), const_int(&r)) {
                    match consts::binary(op, a, b, self.int_ty(ty)) {
                        Ok(v) => return mk(result_ty, ExprKind::Const(v), span),
                        Err(FoldError::DivisionByZero) => {
                            self.error(Code::DivisionByZero, span, "division by zero");
                            return unknown(span);
                        }
                        Err(FoldError::Negative) => {
                            self.error(
                                Code::BadOperand,
                                span,
                                format!("`{}` on `int` needs non-negative operands", op.as_str()),
                            );
                            return unknown(span);
                        }
                        Err(FoldError::TooLarge) => {}
                    }
                } else if matches!(op, Div | Mod)
                    && const_int(&r).is_some_and(|v| v.sign() == num_bigint::Sign::NoSign)
                {
                    self.error(Code::DivisionByZero, span, "division by zero");
                    return unknown(span);
                }
                mk(
                    result_ty,
                    ExprKind::Binary(op, Box::new(l), Box::new(r)),
                    span,
                )
            }
        }
    }

    fn equality(&mut self, op: BinOp, l: ir::Expr, r: ir::Expr, span: Span) -> ir::Expr {
        if self.is_unknown(l.ty) || self.is_unknown(r.ty) {
            return unknown(span);
        }
        self.note_compared_type_param(l.ty);
        let (l, r) = if l.ty == r.ty {
            (l, r)
        } else if self.is_integer(l.ty)
            || self.is_integer(r.ty)
            || self.prog.types.underlying(l.ty).is_some()
            || self.prog.types.underlying(r.ty).is_some()
        {
            let l2 = self.enum_to_repr(l);
            let r2 = self.enum_to_repr(r);
            match self.numeric_operands(op, l2, r2, span) {
                Some((l, r, _)) => (l, r),
                None => return unknown(span),
            }
        } else if matches!(self.ty(r.ty), Ty::Tuple(_)) {
            let r = self.coerce(r, l.ty);
            (l, r)
        } else if matches!(self.ty(l.ty), Ty::Tuple(_)) {
            let l = self.coerce(l, r.ty);
            (l, r)
        } else {
            let (ls, rs) = (self.show(l.ty), self.show(r.ty));
            self.error(
                Code::TypeMismatch,
                span,
                format!("cannot compare `{ls}` with `{rs}`"),
            );
            return unknown(span);
        };
        if matches!(
            self.ty(l.ty),
            Ty::Extern { .. } | Ty::Block { .. } | Ty::Void | Ty::TableResult(_)
        ) {
            let shown = self.show(l.ty);
            self.error(
                Code::BadOperand,
                span,
                format!("values of type `{shown}` cannot be compared"),
            );
            return unknown(span);
        }
        if let (ExprKind::Const(a), ExprKind::Const(b)) = (&l.kind, &r.kind) {
            let eq = a == b;
            let v = if op == BinOp::Eq { eq } else { !eq };
            return mk(TypeTable::BOOL, ExprKind::Const(Value::Bool(v)), span);
        }
        mk(
            TypeTable::BOOL,
            ExprKind::Binary(op, Box::new(l), Box::new(r)),
            span,
        )
    }

    fn shift(&mut self, op: BinOp, l: ir::Expr, r: ir::Expr, span: Span) -> ir::Expr {
        let (l, mut r) = (self.enum_to_repr(l), self.enum_to_repr(r));
        if self.is_unknown(l.ty) || self.is_unknown(r.ty) {
            return unknown(span);
        }
        if let Ty::Bits {
            width,
            signed: true,
        } = *self.ty(r.ty)
            && let Some(v) = const_int(&r).filter(|v| !v.is_negative()).cloned()
        {
            // A non-negative signed constant amount is taken as unsigned
            // (p4c's shift: "if the amount is signed but positive, make it
            // unsigned").
            let t = self.types().bits(width, false);
            r = mk(t, ExprKind::Const(Value::Int(v)), r.span);
        }
        if !self.is_integer(l.ty) {
            let shown = self.show(l.ty);
            self.error(
                Code::BadOperand,
                l.span,
                format!("cannot shift a value of type `{shown}`"),
            );
            return unknown(span);
        }
        match self.ty(r.ty) {
            Ty::Bits { signed: false, .. } => {}
            Ty::InfInt if const_int(&r).is_some_and(|v| !v.is_negative()) => {}
            _ => {
                let shown = self.show(r.ty);
                self.error(
                    Code::BadOperand,
                    r.span,
                    format!("a shift amount must be unsigned (`bit<W>` or a non-negative constant), not `{shown}`"),
                );
                return unknown(span);
            }
        }
        if l.ty == TypeTable::INF_INT && const_int(&r).is_none() {
            self.error(
                Code::NotConstant,
                r.span,
                "shifting an `int` constant needs a constant shift amount; cast the left operand to a fixed width",
            );
            return unknown(span);
        }
        if let (Some(a), Some(b)) = (const_int(&l), const_int(&r)) {
            match consts::binary(op, a, b, self.int_ty(l.ty)) {
                Ok(v) => return mk(l.ty, ExprKind::Const(v), span),
                Err(_) => {
                    self.error(
                        Code::BadOperand,
                        span,
                        "shift amount too large for an `int` constant",
                    );
                    return unknown(span);
                }
            }
        }
        let ty = l.ty;
        mk(ty, ExprKind::Binary(op, Box::new(l), Box::new(r)), span)
    }

    fn ternary_expr(
        &mut self,
        c: &ast::Expr,
        t: &ast::Expr,
        f: &ast::Expr,
        span: Span,
        expected: Option<TyId>,
    ) -> ir::Expr {
        let cond = self.condition(c, "the condition of `?:`");
        let a = self.expr(t, expected);
        let b = self.expr(f, expected.or(Some(a.ty)));
        if self.is_unknown(a.ty) || self.is_unknown(b.ty) {
            return unknown(span);
        }
        if a.ty == TypeTable::INF_INT && b.ty == TypeTable::INF_INT {
            // p4c: "Width must be specified for at least one of" the branches,
            // even when the condition is a constant.
            self.error(
                Code::TypeMismatch,
                span,
                "both branches of `?:` are `int` constants, which have no width; give one of them a width (e.g. `8w1`)",
            );
            return unknown(span);
        }
        if let ExprKind::Const(Value::Bool(v)) = cond.kind
            && a.ty == b.ty
        {
            return if v { a } else { b };
        }
        let (a, b) = if a.ty == b.ty {
            (a, b)
        } else if a.ty == TypeTable::INF_INT {
            let t = b.ty;
            (self.coerce(a, t), b)
        } else if b.ty == TypeTable::INF_INT {
            let t = a.ty;
            let b = self.coerce(b, t);
            (a, b)
        } else {
            let (x, y) = (self.show(a.ty), self.show(b.ty));
            self.error(
                Code::TypeMismatch,
                span,
                format!("the branches of `?:` have different types: `{x}` and `{y}`"),
            );
            return unknown(span);
        };
        if a.ty == TypeTable::INF_INT {
            if let ExprKind::Const(Value::Bool(v)) = cond.kind {
                return if v { a } else { b };
            }
            self.error(
                Code::TypeMismatch,
                span,
                "`?:` on `int` constants with a run-time condition has no width; cast a branch",
            );
            return unknown(span);
        }
        let ty = a.ty;
        mk(
            ty,
            ExprKind::Ternary(Box::new(cond), Box::new(a), Box::new(b)),
            span,
        )
    }

    /// An explicit cast, per the P4_16 spec's list of allowed casts.
    pub(crate) fn cast(&mut self, v: ir::Expr, to: TyId, span: Span) -> ir::Expr {
        if self.is_unknown(v.ty) || self.is_unknown(to) {
            return unknown(span);
        }
        if v.ty == to {
            return mk(to, v.kind, span);
        }
        let from = self.ty(v.ty).clone();
        let target = self.ty(to).clone();
        let ok = match (&from, &target) {
            // Width or signedness may change in one cast, not both.
            (
                Ty::Bits {
                    width: fw,
                    signed: fs,
                },
                Ty::Bits {
                    width: tw,
                    signed: ts,
                },
            ) => fw == tw || fs == ts,
            (Ty::InfInt, Ty::Bits { .. }) => true,
            // `(int)K` for a compile-time `bit<W>`/`int<W>` value (p4c's
            // canCastBetween allows Bits to InfInt; a value without a
            // width exists only at compile time).
            (Ty::Enum(_), Ty::InfInt) if self.prog.types.underlying(v.ty).is_none() => false,
            (Ty::Bits { .. } | Ty::Enum(_), Ty::InfInt) => {
                if const_int(&v).is_none() {
                    let f = self.show(v.ty);
                    self.error(
                        Code::BadCast,
                        span,
                        format!("only a compile-time constant `{f}` can be cast to `int`"),
                    );
                    return unknown(span);
                }
                true
            }
            (
                Ty::Bits {
                    width: 1,
                    signed: false,
                },
                Ty::Bool,
            )
            | (
                Ty::Bool,
                Ty::Bits {
                    width: 1,
                    signed: false,
                },
            ) => true,
            (Ty::InfInt, Ty::Bool) => {
                const_int(&v).is_some_and(|x| *x == BigInt::from(0) || *x == BigInt::from(1))
            }
            (Ty::Bits { .. } | Ty::InfInt, Ty::Enum(_)) => self.prog.types.underlying(to).is_some(),
            (Ty::Enum(_), Ty::Bits { .. }) => self.prog.types.underlying(v.ty).is_some(),
            (Ty::Enum(_), Ty::Enum(_)) => {
                self.prog.types.underlying(v.ty).is_some()
                    && self.prog.types.underlying(to).is_some()
            }
            (Ty::NewType { .. }, _) | (_, Ty::NewType { .. }) => {
                // One step through `type` declarations on either side.
                let f1 = self.newtype_base(v.ty);
                let t1 = self.newtype_base(to);
                f1 == to || t1 == v.ty || f1 == t1 || self.cast_allowed_between(f1, t1)
            }
            (Ty::Tuple(_), Ty::Struct(_) | Ty::Tuple(_)) => {
                let c = self.coerce(v.clone(), to);
                return mk(to, c.kind, span);
            }
            (Ty::Struct(a), Ty::Struct(b)) => {
                // A struct-valued expression to a struct of the same shape.
                let (a, b) = (
                    &self.prog.types.structs[*a as usize],
                    &self.prog.types.structs[*b as usize],
                );
                a.fields.len() == b.fields.len()
                    && a.fields.iter().zip(&b.fields).all(|(x, y)| x.ty == y.ty)
                    && a.name.starts_with("struct {")
            }
            _ => false,
        };
        if !ok {
            let (f, t) = (self.show(v.ty), self.show(to));
            self.error(Code::BadCast, span, format!("cannot cast `{f}` to `{t}`"));
            return unknown(span);
        }
        // Fold constant casts.
        if let ExprKind::Const(c) = &v.kind {
            let folded = match (c, &target) {
                (Value::Int(x), Ty::InfInt) => Some(Value::Int(x.clone())),
                (Value::Int(x), Ty::Bits { width, signed }) => {
                    Some(Value::Int(consts::wrap(x, *width, *signed)))
                }
                (Value::Int(x), Ty::Bool) => Some(Value::Bool(*x != BigInt::from(0))),
                (Value::Bool(b), Ty::Bits { .. }) => Some(Value::Int(BigInt::from(*b as u8))),
                (Value::Int(x), Ty::Enum(_)) => {
                    let (w, s) = self
                        .prog
                        .types
                        .underlying(to)
                        .and_then(|u| self.prog.types.int_width(u))
                        .unwrap_or((0, false));
                    Some(Value::Int(consts::wrap(x, w, s)))
                }
                (Value::Int(x), Ty::NewType { of, .. }) => match self.prog.types.int_width(*of) {
                    Some((w, s)) => Some(Value::Int(consts::wrap(x, w, s))),
                    None => Some(Value::Int(x.clone())),
                },
                _ => None,
            };
            if let Some(c) = folded {
                return mk(to, ExprKind::Const(c), span);
            }
        }
        mk(to, ExprKind::Cast(Box::new(v)), span)
    }

    fn newtype_base(&self, ty: TyId) -> TyId {
        match self.ty(ty) {
            Ty::NewType { of, .. } => *of,
            _ => ty,
        }
    }

    fn cast_allowed_between(&self, from: TyId, to: TyId) -> bool {
        matches!(
            (self.ty(from), self.ty(to)),
            (Ty::Bits { .. } | Ty::InfInt, Ty::Bits { .. })
                | (Ty::Bits { width: 1, .. }, Ty::Bool)
                | (Ty::Bool, Ty::Bits { width: 1, .. })
        )
    }

    /// Implicit conversion to `to`: `int` constants to fixed-width types,
    /// serializable enums to their underlying type, `{...}` to structs,
    /// headers and tuples. Reports a mismatch.
    pub(crate) fn coerce(&mut self, v: ir::Expr, to: TyId) -> ir::Expr {
        if v.ty == to || self.is_unknown(to) || self.is_unknown(v.ty) || to == TypeTable::DONT_CARE
        {
            return v;
        }
        if self.is_type_param(v.ty) || self.is_type_param(to) {
            // Inside a generic declaration, values of a type parameter are
            // checked when the declaration is used with concrete types.
            return mk(to, v.kind, v.span);
        }
        let span = v.span;
        if v.ty == TypeTable::DONT_CARE && matches!(v.kind, ExprKind::DontCare) {
            return v;
        }
        let target = self.ty(to).clone();
        match (&target, self.ty(v.ty).clone()) {
            (Ty::Bits { width, signed }, Ty::InfInt) => {
                if let Some(x) = const_int(&v) {
                    if !consts::fits_loosely(x, *width) && !consts::fits(x, *width, *signed) {
                        let shown = self.show(to);
                        self.warning(
                            Code::Truncation,
                            span,
                            format!("value {x} does not fit in `{shown}`; it is truncated"),
                        );
                    }
                    let w = consts::wrap(x, *width, *signed);
                    return mk(to, ExprKind::Const(Value::Int(w)), span);
                }
                return mk(to, ExprKind::Cast(Box::new(v)), span);
            }
            (Ty::NewType { of, .. }, Ty::InfInt) if self.prog.types.int_width(*of).is_some() => {
                let inner = self.coerce(v, *of);
                return mk(to, inner.kind, span);
            }
            (_, Ty::Enum(_)) if self.prog.types.underlying(v.ty) == Some(to) => {
                return self.enum_to_repr(v);
            }
            (Ty::Struct(_) | Ty::Tuple(_) | Ty::Stack { .. } | Ty::List(_), Ty::Tuple(items)) => {
                if let Some(r) = self.list_to(v.clone(), &items, to) {
                    return r;
                }
            }
            (Ty::Struct(_), Ty::Struct(_)) if self.is_anonymous_struct(v.ty) => {
                if let Some(r) = self.anon_struct_to(v.clone(), to) {
                    return r;
                }
            }
            (
                Ty::Block {
                    decl: pd, args: pa, ..
                },
                Ty::Block {
                    decl: ad, args: aa, ..
                },
            ) => {
                // A parser or control where a parser or control type is
                // expected: compatible apply signatures.
                let mut sol = super::unify::Solution::default();
                if self.unify_blocks((*pd, pa.clone()), (ad, aa), &mut sol) {
                    return mk(to, v.kind, span);
                }
            }
            (Ty::Set(elem), _) => {
                let inner = self.coerce(v, *elem);
                return mk(to, inner.kind, span);
            }
            _ => {}
        }
        let (f, t) = (self.show(v.ty), self.show(to));
        self.error(
            Code::TypeMismatch,
            span,
            format!("expected a value of type `{t}`, found `{f}`"),
        );
        unknown(span)
    }

    fn is_anonymous_struct(&self, ty: TyId) -> bool {
        self.prog
            .types
            .struct_info(ty)
            .is_some_and(|s| s.name.starts_with("struct {"))
    }

    /// `{a, b}` (a tuple-typed list) converted positionally to a struct,
    /// header, tuple or stack.
    fn list_to(&mut self, v: ir::Expr, items: &[TyId], to: TyId) -> Option<ir::Expr> {
        let span = v.span;
        let targets: Vec<TyId> = match self.ty(to).clone() {
            Ty::Struct(i) => self.prog.types.structs[i as usize]
                .fields
                .iter()
                .map(|f| f.ty)
                .collect(),
            Ty::Tuple(t) => t,
            Ty::Stack { elem, size } => vec![elem; size as usize],
            Ty::List(elem) => vec![elem; items.len()],
            _ => return None,
        };
        if targets.len() != items.len() {
            let shown = self.show(to);
            self.error(
                Code::TypeMismatch,
                span,
                format!(
                    "`{shown}` has {} fields, but the list has {}",
                    targets.len(),
                    items.len()
                ),
            );
            return Some(unknown(span));
        }
        let parts: Vec<ir::Expr> = match v.kind {
            ExprKind::List(parts) => parts,
            ExprKind::Const(Value::List(vals)) => vals
                .into_iter()
                .zip(items)
                .map(|(val, ty)| mk(*ty, ExprKind::Const(val), span))
                .collect(),
            _ => return None,
        };
        let converted: Vec<ir::Expr> = parts
            .into_iter()
            .zip(targets)
            .map(|(p, t)| self.coerce(p, t))
            .collect();
        Some(self.build_list(to, converted, span))
    }

    fn anon_struct_to(&mut self, v: ir::Expr, to: TyId) -> Option<ir::Expr> {
        let span = v.span;
        let from = self.prog.types.struct_info(v.ty)?.clone();
        let target = self.prog.types.struct_info(to)?.clone();
        let ExprKind::List(parts) = v.kind else {
            return None;
        };
        let mut out = Vec::with_capacity(target.fields.len());
        for f in &target.fields {
            match from.fields.iter().position(|x| x.name == f.name) {
                Some(i) => {
                    let p = parts[i].clone();
                    out.push(self.coerce(p, f.ty));
                }
                None => {
                    self.error(
                        Code::TypeMismatch,
                        span,
                        format!("field `{}` of `{}` is not initialised", f.name, target.name),
                    );
                    return Some(unknown(span));
                }
            }
        }
        for f in &from.fields {
            if !target.fields.iter().any(|x| x.name == f.name) {
                self.error(
                    Code::UnknownMember,
                    span,
                    format!("`{}` has no field `{}`", target.name, f.name),
                );
                return Some(unknown(span));
            }
        }
        Some(self.build_list(to, out, span))
    }

    /// A list node of type `ty`, folded to a constant when every part is one.
    pub(crate) fn build_list(&mut self, ty: TyId, parts: Vec<ir::Expr>, span: Span) -> ir::Expr {
        if parts.iter().all(|p| matches!(p.kind, ExprKind::Const(_)))
            && !self.prog.types.is_header(ty)
        {
            let vals = parts
                .into_iter()
                .map(|p| match p.kind {
                    ExprKind::Const(v) => v,
                    _ => unreachable!("checked all constant"),
                })
                .collect();
            return mk(ty, ExprKind::Const(Value::List(vals)), span);
        }
        mk(ty, ExprKind::List(parts), span)
    }

    fn list_expr(&mut self, items: &[ast::Expr], span: Span, expected: Option<TyId>) -> ir::Expr {
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
    fn list_with_dots(
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

    fn struct_init(
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

/// True if `e` is built only of constants, list nodes and invalid headers
/// (`{#}`): a compile-time value that may hold headers (spec 8.16).
pub(crate) fn is_constant_tree(e: &ir::Expr) -> bool {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::InvalidHeader => true,
        ExprKind::List(parts) => parts.iter().all(is_constant_tree),
        _ => false,
    }
}
