//! Expressions: typing rules of the P4_16 spec (section 8), implicit
//! conversion of `int` constants, and constant folding.

use super::consts::{self};
use super::{Binding, Checker, Context};
use crate::ast;
use crate::diag::Code;
use crate::ir::{self, ExprKind, Value};
use crate::source::Span;
use crate::types::{StructKind, Ty, TyId, TypeTable};
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
