//! Expressions to [`Node`]s and [`Place`]s: names and fields resolved to
//! arena offsets, constants folded to [`Bits`], with the load-time errors.

use super::{EqUnit, Node, Place};
use crate::layout::{LayoutError, LayoutKind, Layouts};
use crate::value::Bits;
use janus_p4::ir::{self, BinOp, ExprKind, UnOp, Value};
use janus_p4::types::{StructKind, Ty, TyId, TypeTable};
use std::collections::HashMap;
use thiserror::Error;

/// Why an expression could not be compiled.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CompileError {
    #[error(transparent)]
    Layout(#[from] LayoutError),
    #[error("variable `{0}` has no storage in this frame")]
    NoStorage(String),
    #[error("{0} is not supported by the engine yet")]
    Unsupported(&'static str),
    #[error("the architecture does not implement extern `{0}`")]
    UnknownExtern(String),
    /// A block's scalar constructor argument that did not fold once the
    /// enclosing instance's arguments were bound.
    #[error(
        "the argument for constructor parameter `{0}` is not a compile-time constant (e.g. a division by zero)"
    )]
    NotConstant(String),
    /// An error at a place in the program (`file:line:col`).
    #[error("{at}: {error}")]
    At {
        at: String,
        error: Box<CompileError>,
    },
}

impl CompileError {
    /// `self` at `span` of `program` (`file:line:col: ...`), unless it
    /// already names a place or the program has no source locations.
    pub fn at(self, program: &ir::Program, span: janus_p4::source::Span) -> CompileError {
        if matches!(self, CompileError::At { .. }) {
            return self;
        }
        match program.locator.locate(span) {
            Some(at) => CompileError::At {
                at,
                error: Box::new(self),
            },
            None => self,
        }
    }

    /// The error without the place it names.
    pub fn inner(&self) -> &CompileError {
        match self {
            CompileError::At { error, .. } => error.inner(),
            other => other,
        }
    }

    /// The `file:line:col` this error names, if any.
    pub fn location(&self) -> Option<&str> {
        match self {
            CompileError::At { at, .. } => Some(at),
            _ => None,
        }
    }
}
/// True if `e` is a list or struct literal (not a stored value).
fn is_literal(e: &ir::Expr) -> bool {
    matches!(e.kind, ExprKind::List(_) | ExprKind::Const(Value::List(_)))
}

/// The member types of a struct or tuple type.
fn member_types(types: &TypeTable, ty: TyId) -> Option<Vec<TyId>> {
    match types.get(ty) {
        Ty::Tuple(tys) => Some(tys.clone()),
        Ty::Stack { elem, size } => Some(vec![*elem; *size as usize]),
        Ty::Struct(_) if !types.is_header(ty) && !types.is_union(ty) => {
            Some(types.struct_info(ty)?.fields.iter().map(|f| f.ty).collect())
        }
        _ => None,
    }
}

/// The members of a struct or tuple value `e` (of member types `tys`), as
/// expressions: the parts of a literal, or fields of a stored value.
fn members(types: &TypeTable, e: &ir::Expr, tys: &[TyId]) -> Vec<ir::Expr> {
    let of_array = matches!(types.get(e.ty), Ty::Stack { .. });
    match &e.kind {
        ExprKind::List(parts) => parts.clone(),
        ExprKind::Const(Value::List(vals)) => vals
            .iter()
            .zip(tys)
            .map(|(v, ty)| ir::Expr {
                ty: *ty,
                kind: ExprKind::Const(v.clone()),
                span: e.span,
            })
            .collect(),
        // An array's elements, by constant index.
        _ if of_array => tys
            .iter()
            .enumerate()
            .map(|(i, ty)| {
                let index = ir::Expr {
                    ty: TypeTable::INF_INT,
                    kind: ExprKind::Const(Value::Int(i.into())),
                    span: e.span,
                };
                ir::Expr {
                    ty: *ty,
                    kind: ExprKind::Index(Box::new(e.clone()), Box::new(index)),
                    span: e.span,
                }
            })
            .collect(),
        _ => tys
            .iter()
            .enumerate()
            .map(|(i, ty)| ir::Expr {
                ty: *ty,
                kind: ExprKind::Field(Box::new(e.clone()), i as u32),
                span: e.span,
            })
            .collect(),
    }
}

/// True if `e` is `packet.lookahead<T>()`.
fn is_lookahead(types: &TypeTable, e: &ir::Expr) -> bool {
    matches!(&e.kind, ExprKind::Call(ir::Callee::ExternMethod { receiver, name, .. }, _)
        if name == "lookahead" && is_packet_in(types, receiver.ty))
}

/// True if `ty` is a header type.
fn is_header(types: &TypeTable, ty: TyId) -> bool {
    matches!(types.get(ty), Ty::Struct(i)
        if types.structs.get(*i as usize).is_some_and(|s| s.kind == StructKind::Header))
}

/// The `packet.lookahead<T>()` call that `e` is a member of, at any depth
/// (`lookahead<T>().a.b`).
fn lookahead_root<'e>(types: &TypeTable, e: &'e ir::Expr) -> Option<&'e ir::Expr> {
    let mut at = e;
    while let ExprKind::Field(base, _) = &at.kind {
        if is_lookahead(types, base) {
            return Some(base);
        }
        at = base;
    }
    None
}

/// A scalar member, at any depth, of `packet.lookahead<T>()` for a struct
/// (or header) `T` without varbits: the member's bits at its place in `T`
/// as the packet holds it, all of `T` needed. `None` if `e` is no such
/// member.
fn lookahead_member(types: &TypeTable, e: &ir::Expr) -> Option<Node> {
    let (width, signed) = scalar_shape(types, e.ty)?;
    let mut offset = 0u32;
    let mut at = e;
    while let ExprKind::Field(base, idx) = &at.kind {
        let fields = &types.structs.get(struct_index(types, base.ty)?)?.fields;
        for f in fields.get(..*idx as usize)? {
            offset = offset.checked_add(wire_width(types, f.ty)?)?;
        }
        at = base;
    }
    if !is_lookahead(types, at) {
        return None;
    }
    Some(Node::Lookahead {
        offset,
        width,
        signed,
        need: wire_width(types, at.ty)?,
    })
}

/// The index of a struct or header type (not a union) in the type table.
fn struct_index(types: &TypeTable, ty: TyId) -> Option<usize> {
    match types.get(ty) {
        Ty::Struct(i) => {
            let kind = types.structs.get(*i as usize)?.kind;
            (kind != StructKind::HeaderUnion).then_some(*i as usize)
        }
        _ => None,
    }
}

/// The bits a value of `ty` takes in a packet: a scalar's width, a
/// struct's or header's fields' summed; `None` for a type holding a varbit,
/// a union or a stack.
fn wire_width(types: &TypeTable, ty: TyId) -> Option<u32> {
    if let Some((w, _)) = scalar_shape(types, ty) {
        return Some(w);
    }
    let fields = &types.structs.get(struct_index(types, ty)?)?.fields;
    fields
        .iter()
        .try_fold(0u32, |sum, f| sum.checked_add(wire_width(types, f.ty)?))
}

/// The bits `packet.lookahead<T>()` needs in the packet: all of `T`, a
/// varbit field counting as empty; `None` for a type it cannot read.
pub fn lookahead_need(types: &TypeTable, ty: TyId) -> Option<u32> {
    if let Some((w, _)) = scalar_shape(types, ty) {
        return Some(w);
    }
    let fields = &types.structs.get(struct_index(types, ty)?)?.fields;
    fields.iter().try_fold(0u32, |sum, f| {
        let w = match types.get(f.ty) {
            Ty::Varbit { .. } => 0,
            _ => lookahead_need(types, f.ty)?,
        };
        sum.checked_add(w)
    })
}

/// The widest `packet.lookahead<T>()` `e` evaluates (0 for none).
pub fn expr_lookahead_need(types: &TypeTable, e: &ir::Expr) -> u32 {
    let own = if is_lookahead(types, e) {
        lookahead_need(types, e.ty).unwrap_or(0)
    } else {
        0
    };
    e.operands()
        .into_iter()
        .map(|x| expr_lookahead_need(types, x))
        .fold(own, u32::max)
}

/// True if `ty` is core.p4's `packet_in`.
pub fn is_packet_in(types: &TypeTable, ty: TyId) -> bool {
    matches!(types.get(ty), Ty::Extern { name, .. } if name == "packet_in")
}

/// True if `ty` is core.p4's `packet_out`.
pub fn is_packet_out(types: &TypeTable, ty: TyId) -> bool {
    matches!(types.get(ty), Ty::Extern { name, .. } if name == "packet_out")
}

/// The widest `lookahead` in `n` (bits), so that a statement can check the
/// packet is long enough before it runs.
pub fn lookahead_bits(n: &Node) -> u32 {
    match n {
        Node::Lookahead { need, .. } => *need,
        Node::Unary(_, a)
        | Node::Cast { inner: a, .. }
        | Node::Slice { inner: a, .. }
        | Node::Narrow(a) => lookahead_bits(a),
        Node::Binary(_, a, b)
        | Node::PartSelect {
            inner: a, start: b, ..
        } => lookahead_bits(a).max(lookahead_bits(b)),
        Node::PartSplice {
            whole,
            start,
            value,
            ..
        } => lookahead_bits(whole)
            .max(lookahead_bits(start))
            .max(lookahead_bits(value)),
        Node::Ternary(c, a, b) => lookahead_bits(c)
            .max(lookahead_bits(a))
            .max(lookahead_bits(b)),
        Node::Load { place, .. } | Node::Valid(place) => place_lookahead_bits(place),
        Node::Equal { .. }
        | Node::Const(_)
        | Node::LoadFixed { .. }
        | Node::PacketLength
        | Node::TableHit(_)
        | Node::TableMiss(_)
        | Node::ActionRun(_) => 0,
    }
}
/// The widest `lookahead` in the run-time indexes of `p`.
pub fn place_lookahead_bits(p: &Place) -> u32 {
    match p {
        Place::Indexed { index, .. } => lookahead_bits(index),
        Place::IndexedIn { outer, index, .. } => {
            place_lookahead_bits(outer).max(lookahead_bits(index))
        }
        Place::Fixed { .. } | Place::StackNext { .. } => 0,
    }
}

/// `(width, signed)` of a scalar type's storage and values.
pub fn scalar_shape(types: &TypeTable, ty: TyId) -> Option<(u32, bool)> {
    match types.get(ty) {
        Ty::Bits { width, signed } => Some((*width, *signed)),
        Ty::Bool => Some((1, false)),
        Ty::Error | Ty::MatchKind => Some((32, false)),
        Ty::Enum(_) => match types.underlying(ty) {
            Some(repr) => scalar_shape(types, repr),
            None => Some((32, false)),
        },
        Ty::NewType { of, .. } => scalar_shape(types, *of),
        _ => None,
    }
}

/// A compile-time value as [`Bits`] of the shape of `ty`. An `int`
/// constant (left so by the front end only where no width applies, such as
/// a shift amount) becomes unsigned and just wide enough.
pub fn constant(types: &TypeTable, ty: TyId, v: &Value) -> Option<Bits> {
    let (width, signed) = match (types.get(ty), v) {
        (Ty::InfInt, Value::Int(i)) if i.sign() != num_bigint::Sign::Minus => {
            ((i.bits() as u32).max(1), false)
        }
        _ => scalar_shape(types, ty)?,
    };
    Some(match v {
        Value::Bool(b) => Bits::from_bool(*b),
        Value::Error(i) | Value::Enum(i) | Value::MatchKind(i) => {
            Bits::from_u64(width, signed, *i as u64)
        }
        Value::Int(i) => {
            // Two's complement of the value at the type's width.
            let modulus = num_bigint::BigInt::from(1) << width as usize;
            let mut r = i % &modulus;
            if r.sign() == num_bigint::Sign::Minus {
                r += &modulus;
            }
            let (_, words) = r.to_u64_digits();
            Bits::from_words_le(width, signed, &words)
        }
        Value::Str(_) | Value::List(_) => return None,
    })
}

/// Compiles expressions of one frame: its variables' byte offsets in the arena.
pub struct Compiler<'a> {
    pub program: &'a ir::Program,
    pub layouts: Layouts<'a>,
    /// Arena byte offset of each variable of the frame.
    pub vars: HashMap<ir::VarId, u32>,
    /// The runtime slot of each table this frame applies.
    pub tables: HashMap<ir::TableId, u32>,
    /// The runtime slot of each value set this frame's parser selects on
    /// (value sets are kept as tables whose entries are the members).
    pub value_sets: HashMap<ir::ValueSetId, u32>,
    /// The architecture's extern ids; without one, extern calls do not compile.
    pub externs: Option<&'a dyn crate::externs::ExternResolver>,
    /// While compiling a function body: where `return e` puts its value.
    pub return_place: Option<Place>,
    /// Where this frame sits in the instance tree, so that nested
    /// `inst.apply(...)` calls can be compiled against the child's frame.
    pub instances: Option<InstanceCtx<'a>>,
    /// Parameters that name an extern, parser or control instance at the
    /// call site being compiled (see [`crate::bind`]).
    pub bound: crate::bind::Bindings,
}

/// The instance tree, for compiling nested applies.
#[derive(Clone)]
pub struct InstanceCtx<'a> {
    pub plan: &'a crate::plan::StoragePlan,
    /// The control-plane path of the instance being compiled.
    pub path: String,
    /// Table slots by (instance path, table).
    pub table_slots: &'a HashMap<(String, ir::TableId), u32>,
    /// Value-set slots by (instance path, value set).
    pub value_set_slots: &'a HashMap<(String, ir::ValueSetId), u32>,
}

impl InstanceCtx<'_> {
    /// Points `c` at the tables and value sets of the instance at `path`.
    pub fn bind_slots(&self, c: &mut Compiler<'_>, path: &str) {
        c.tables = self
            .table_slots
            .iter()
            .filter(|((p, _), _)| p == path)
            .map(|((_, t), s)| (*t, *s))
            .collect();
        c.value_sets = self
            .value_set_slots
            .iter()
            .filter(|((p, _), _)| p == path)
            .map(|((_, v), s)| (*v, *s))
            .collect();
    }
}

impl<'a> Compiler<'a> {
    pub fn new(program: &'a ir::Program, vars: HashMap<ir::VarId, u32>) -> Compiler<'a> {
        Compiler {
            program,
            layouts: Layouts::new(&program.types),
            vars,
            tables: HashMap::new(),
            value_sets: HashMap::new(),
            externs: None,
            return_place: None,
            instances: None,
            bound: crate::bind::Bindings::new(),
        }
    }

    fn types(&self) -> &'a TypeTable {
        &self.program.types
    }

    /// Whether `e` is a struct stored inside a header (a header field, or
    /// a field of such a struct): its members are packed as on the wire,
    /// not laid out as a struct of its own.
    pub fn in_header(&mut self, e: &ir::Expr) -> Result<bool, CompileError> {
        let ExprKind::Field(base, _) = &e.kind else {
            return Ok(false);
        };
        if self.types().struct_info(e.ty).is_none() {
            return Ok(false);
        }
        Ok(match self.layouts.layout(base.ty)?.kind {
            LayoutKind::Header { .. } => true,
            LayoutKind::Struct { .. } => self.in_header(base)?,
            _ => false,
        })
    }

    /// The place an l-value (or any stored value) denotes; an error names
    /// the expression's place in the program.
    pub fn place(&mut self, e: &ir::Expr) -> Result<Place, CompileError> {
        self.place_of(e).map_err(|err| err.at(self.program, e.span))
    }

    fn place_of(&mut self, e: &ir::Expr) -> Result<Place, CompileError> {
        match &e.kind {
            ExprKind::Var(v) => {
                let byte = self
                    .vars
                    .get(v)
                    .ok_or_else(|| CompileError::NoStorage(self.program.var(*v).name.clone()))?;
                Ok(Place::Fixed {
                    bit: byte * 8,
                    ty: e.ty,
                })
            }
            ExprKind::Field(base, idx) if self.in_header(base)? => {
                // A struct inside a header is packed as on the wire.
                let base_place = self.place(base)?;
                let info = self
                    .types()
                    .struct_info(base.ty)
                    .ok_or(CompileError::Unsupported("a field of a non-struct value"))?;
                let mut offset = 0u32;
                for f in &info.fields[..*idx as usize] {
                    offset += self
                        .types()
                        .size_in_bits(f.ty)
                        .ok_or(CompileError::Unsupported("this field inside a header"))?
                        as u32;
                }
                Ok(base_place.part(offset, e.ty))
            }
            ExprKind::Field(base, idx) => {
                let base_place = self.place(base)?;
                let layout = self.layouts.layout(base.ty)?;
                let offset = match &layout.kind {
                    LayoutKind::Header { fields, .. } | LayoutKind::Struct { fields } => {
                        fields[*idx as usize].bit_offset
                    }
                    LayoutKind::Union { members } => members[*idx as usize].bit_offset,
                    _ => return Err(CompileError::Unsupported("a field of a non-struct value")),
                };
                Ok(base_place.part(offset, e.ty))
            }
            // `x[hi:lo]` as an l-value: bits `hi..=lo` of `x`, stored most
            // significant bit first.
            ExprKind::Slice(inner, hi, _) => {
                let (width, _) = scalar_shape(self.types(), inner.ty)
                    .ok_or(CompileError::Unsupported("a slice of a composite value"))?;
                let offset = width
                    .checked_sub(hi + 1)
                    .ok_or(CompileError::Unsupported("a slice past the value's width"))?;
                Ok(self.place(inner)?.part(offset, e.ty))
            }
            ExprKind::Index(base, index) => {
                let base_place = self.place(base)?;
                let layout = self.layouts.layout(base.ty)?.kind;
                if let (LayoutKind::Struct { fields }, ExprKind::Const(Value::Int(i))) =
                    (&layout, &index.kind)
                {
                    // `t[i]` of a tuple: its member i.
                    let slot = usize::try_from(i)
                        .ok()
                        .and_then(|i| fields.get(i))
                        .ok_or(CompileError::Unsupported("a tuple index out of range"))?;
                    return Ok(base_place.part(slot.bit_offset, e.ty));
                }
                let LayoutKind::Stack { stride, size, .. } = layout else {
                    return Err(CompileError::Unsupported("indexing a tuple at run time"));
                };
                let index = self.node(index)?;
                if let Node::Const(i) = &index {
                    let i = i
                        .to_u64()
                        .filter(|i| *i < size as u64)
                        .unwrap_or(size as u64) as u32;
                    if i < size {
                        return Ok(base_place.part(i * stride, e.ty));
                    }
                }
                match base_place {
                    Place::Fixed { bit, .. } => Ok(Place::Indexed {
                        base: bit,
                        stride,
                        size,
                        index: Box::new(index),
                        offset: 0,
                        ty: e.ty,
                    }),
                    outer => Ok(Place::IndexedIn {
                        outer: Box::new(outer),
                        stride,
                        size,
                        index: Box::new(index),
                        offset: 0,
                        ty: e.ty,
                    }),
                }
            }
            ExprKind::StackNext(stack) | ExprKind::StackLast(stack) => {
                let Place::Fixed { bit, .. } = self.place(stack)? else {
                    return Err(CompileError::Unsupported(
                        "next/last of a run-time indexed stack",
                    ));
                };
                let LayoutKind::Stack {
                    stride,
                    size,
                    next_index_bit_offset,
                    ..
                } = self.layouts.layout(stack.ty)?.kind
                else {
                    return Err(CompileError::Unsupported("next/last of a non-stack"));
                };
                Ok(Place::StackNext {
                    base: bit,
                    stride,
                    size,
                    next_index_byte: (bit + next_index_bit_offset) / 8,
                    last: matches!(e.kind, ExprKind::StackLast(_)),
                    offset: 0,
                    ty: e.ty,
                })
            }
            _ => Err(CompileError::Unsupported("this expression as a place")),
        }
    }

    /// Compiles a scalar expression.
    pub fn node(&mut self, e: &ir::Expr) -> Result<Node, CompileError> {
        Ok(self.node_tree(e)?.narrowed())
    }

    /// [`Compiler::node`] before narrowing; an error names the innermost
    /// expression it comes from.
    fn node_tree(&mut self, e: &ir::Expr) -> Result<Node, CompileError> {
        self.node_of(e).map_err(|err| err.at(self.program, e.span))
    }

    fn node_of(&mut self, e: &ir::Expr) -> Result<Node, CompileError> {
        let types = self.types();
        match &e.kind {
            ExprKind::Const(v) => constant(types, e.ty, v)
                .map(Node::Const)
                .ok_or(CompileError::Unsupported("a composite constant")),
            ExprKind::Field(base, idx) if is_lookahead(types, base) && is_header(types, base.ty) => {
                // A field of `packet.lookahead<H>()` for a header type H.
                let LayoutKind::Header {
                    fields,
                    wire_bits,
                    varbit_len_bit_offset,
                    ..
                } = self.layouts.layout(base.ty)?.kind
                else {
                    return Err(CompileError::Unsupported(
                        "a field of a non-header lookahead",
                    ));
                };
                let (width, signed) = scalar_shape(types, e.ty).ok_or(
                    CompileError::Unsupported("a composite field of a lookahead"),
                )?;
                // A varbit in a looked-ahead header counts as empty.
                let varbit_max: u32 = match varbit_len_bit_offset {
                    Some(_) => fields
                        .iter()
                        .filter_map(|f| match types.get(f.ty) {
                            Ty::Varbit { max } => Some(*max),
                            _ => None,
                        })
                        .sum(),
                    None => 0,
                };
                Ok(Node::Lookahead {
                    offset: fields[*idx as usize].bit_offset,
                    width,
                    signed,
                    need: wire_bits - varbit_max,
                })
            }
            ExprKind::Field(..) if lookahead_root(types, e).is_some() => {
                lookahead_member(types, e).ok_or(CompileError::Unsupported(
                    "this member of a lookahead (only scalars in structs and headers without varbits)",
                ))
            }
            ExprKind::Var(_)
            | ExprKind::Field(..)
            | ExprKind::Index(..)
            | ExprKind::StackNext(_)
            | ExprKind::StackLast(_) => {
                let (width, signed) = scalar_shape(types, e.ty)
                    .ok_or(CompileError::Unsupported("a composite value as a scalar"))?;
                Ok(match self.place(e)? {
                    Place::Fixed { bit, .. } => Node::LoadFixed { bit, width, signed },
                    place => Node::Load {
                        place: Box::new(place),
                        width,
                        signed,
                    },
                })
            }
            ExprKind::Unary(op, a) => Ok(Node::Unary(*op, Box::new(self.node_tree(a)?))),
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b)
                if scalar_shape(types, a.ty).is_none() && (is_literal(a) || is_literal(b)) =>
            {
                // A struct or tuple against a literal: member by member.
                let tys = member_types(types, a.ty)
                    .ok_or(CompileError::Unsupported("comparing this literal"))?;
                let (pa, pb) = (members(types, a, &tys), members(types, b, &tys));
                let mut all: Option<ir::Expr> = None;
                for (x, y) in pa.into_iter().zip(pb) {
                    let eq = ir::Expr {
                        ty: TypeTable::BOOL,
                        kind: ExprKind::Binary(BinOp::Eq, Box::new(x), Box::new(y)),
                        span: e.span,
                    };
                    all = Some(match all {
                        None => eq,
                        Some(prev) => ir::Expr {
                            ty: TypeTable::BOOL,
                            kind: ExprKind::Binary(BinOp::And, Box::new(prev), Box::new(eq)),
                            span: e.span,
                        },
                    });
                }
                let all = all.unwrap_or(ir::Expr {
                    ty: TypeTable::BOOL,
                    kind: ExprKind::Const(Value::Bool(true)),
                    span: e.span,
                });
                let node = self.node_tree(&all)?;
                Ok(if *op == BinOp::Eq {
                    node
                } else {
                    Node::Unary(UnOp::Not, Box::new(node))
                })
            }
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b)
                if scalar_shape(types, a.ty).is_none() =>
            {
                let eq = self.composite_eq(a, b)?;
                Ok(if *op == BinOp::Eq {
                    eq
                } else {
                    Node::Unary(UnOp::Not, Box::new(eq))
                })
            }
            ExprKind::Binary(op, a, b) => Ok(Node::Binary(
                *op,
                Box::new(self.node_tree(a)?),
                Box::new(self.node_tree(b)?),
            )),
            ExprKind::Ternary(c, a, b) => Ok(Node::Ternary(
                Box::new(self.node_tree(c)?),
                Box::new(self.node_tree(a)?),
                Box::new(self.node_tree(b)?),
            )),
            ExprKind::Cast(inner) => {
                let (to_width, to_signed) = scalar_shape(types, e.ty)
                    .ok_or(CompileError::Unsupported("a cast to a composite type"))?;
                let inner = self.node_tree(inner)?;
                Ok(Node::Cast {
                    to_width,
                    to_signed,
                    inner: Box::new(inner),
                })
            }
            ExprKind::Slice(inner, hi, lo) => Ok(Node::Slice {
                hi: *hi,
                lo: *lo,
                inner: Box::new(self.node_tree(inner)?),
            }),
            ExprKind::PartSelect {
                base,
                start,
                width,
                up,
            } => Ok(Node::PartSelect {
                inner: Box::new(self.node_tree(base)?),
                start: Box::new(self.node_tree(start)?),
                width: *width,
                up: *up,
            }),
            ExprKind::Call(
                ir::Callee::Builtin {
                    receiver,
                    method: ir::BuiltinMethod::IsValid,
                },
                _,
            ) => self.validity(receiver),
            ExprKind::Call(ir::Callee::ExternMethod { receiver, name, .. }, _)
                if is_packet_in(types, receiver.ty) =>
            {
                match name.as_str() {
                    "lookahead" => {
                        let (width, signed) = scalar_shape(types, e.ty)
                            .ok_or(CompileError::Unsupported("lookahead of a composite type"))?;
                        Ok(Node::Lookahead {
                            offset: 0,
                            width,
                            signed,
                            need: width,
                        })
                    }
                    "length" => Ok(Node::PacketLength),
                    _ => Err(CompileError::Unsupported(
                        "this packet_in method in an expression",
                    )),
                }
            }
            // `nextIndex - 1` as bit<32> (all ones on an empty stack).
            ExprKind::StackLastIndex(stack) => {
                let Place::Fixed { bit, .. } = self.place(stack)? else {
                    return Err(CompileError::Unsupported(
                        "lastIndex of a run-time indexed stack",
                    ));
                };
                let LayoutKind::Stack {
                    next_index_bit_offset,
                    ..
                } = self.layouts.layout(stack.ty)?.kind
                else {
                    return Err(CompileError::Unsupported("lastIndex of a non-stack"));
                };
                let next = Node::Load {
                    place: Box::new(Place::Fixed {
                        bit: bit + next_index_bit_offset,
                        ty: e.ty,
                    }),
                    width: 32,
                    signed: false,
                };
                Ok(Node::Binary(
                    BinOp::Sub,
                    Box::new(next),
                    Box::new(Node::Const(Bits::from_u64(32, false, 1))),
                ))
            }
            ExprKind::TableHit(call) => Ok(Node::TableHit(self.table_slot(call)?)),
            ExprKind::TableMiss(call) => Ok(Node::TableMiss(self.table_slot(call)?)),
            ExprKind::ActionRun(call) => Ok(Node::ActionRun(self.table_slot(call)?)),
            other => Err(CompileError::Unsupported(unsupported_kind(other))),
        }
    }

    /// The slot of the table a `t.apply()` call applies.
    pub fn table_slot(&self, call: &ir::Expr) -> Result<u32, CompileError> {
        match &call.kind {
            ExprKind::Call(ir::Callee::TableApply(t), _) => self
                .tables
                .get(t)
                .copied()
                .ok_or(CompileError::Unsupported("a table without a runtime slot")),
            _ => Err(CompileError::Unsupported(
                "a table result of something other than apply",
            )),
        }
    }

    /// `a == b` for composite values: `x == {#}` tests invalidity; otherwise
    /// the parts are compared as P4 defines equality.
    fn composite_eq(&mut self, a: &ir::Expr, b: &ir::Expr) -> Result<Node, CompileError> {
        let (a, b) = if matches!(a.kind, ExprKind::InvalidHeader) {
            (b, a)
        } else {
            (a, b)
        };
        if matches!(b.kind, ExprKind::InvalidHeader) {
            let valid = self.validity(a)?;
            return Ok(Node::Unary(UnOp::Not, Box::new(valid)));
        }
        let mut units = Vec::new();
        match self.varbit_field(a)? {
            Some((max, len)) => units.push(EqUnit::Varbit { max, len }),
            None => self.eq_units(a.ty, 0, &mut units)?,
        }
        Ok(Node::Equal {
            a: Box::new(self.place(a)?),
            b: Box::new(self.place(b)?),
            units,
        })
    }

    /// For a varbit field of a header: its maximum and where its current
    /// length is, in bits from the field's start.
    fn varbit_field(&mut self, e: &ir::Expr) -> Result<Option<(u32, u32)>, CompileError> {
        let (Ty::Varbit { max }, ExprKind::Field(header, idx)) = (self.types().get(e.ty), &e.kind)
        else {
            return Ok(None);
        };
        let LayoutKind::Header {
            fields,
            varbit_len_bit_offset: Some(len),
            ..
        } = self.layouts.layout(header.ty)?.kind
        else {
            return Ok(None);
        };
        let at = fields[*idx as usize].bit_offset;
        Ok(Some((*max, len - at)))
    }

    fn eq_units(&mut self, ty: TyId, at: u32, out: &mut Vec<EqUnit>) -> Result<(), CompileError> {
        if let Some((width, _)) = scalar_shape(&self.program.types, ty) {
            out.push(EqUnit::Scalar { bit: at, width });
            return Ok(());
        }
        match self.layouts.layout(ty)?.kind {
            LayoutKind::Header {
                wire_bits,
                valid_bit_offset,
                ..
            } => out.push(EqUnit::Header {
                bit: at,
                wire_bits,
                valid_bit: valid_bit_offset,
            }),
            LayoutKind::Struct { fields } | LayoutKind::Union { members: fields } => {
                for f in fields {
                    self.eq_units(f.ty, at + f.bit_offset, out)?;
                }
            }
            LayoutKind::Stack {
                elem, size, stride, ..
            } => {
                for i in 0..size {
                    self.eq_units(elem, at + i * stride, out)?;
                }
            }
            LayoutKind::Scalar { .. } | LayoutKind::Varbit { .. } => {
                return Err(CompileError::Unsupported("comparing this type"));
            }
        }
        Ok(())
    }

    /// `h.isValid()`: a header's validity byte, or any member's for a union.
    pub fn validity(&mut self, receiver: &ir::Expr) -> Result<Node, CompileError> {
        let place = self.place(receiver)?;
        match self.layouts.layout(receiver.ty)?.kind {
            LayoutKind::Header {
                valid_bit_offset, ..
            } => Ok(Node::Valid(Box::new(
                place.part(valid_bit_offset, TypeTable::BOOL),
            ))),
            LayoutKind::Union { members } => {
                let mut any: Option<Node> = None;
                for m in members {
                    let LayoutKind::Header {
                        valid_bit_offset, ..
                    } = self.layouts.layout(m.ty)?.kind
                    else {
                        continue;
                    };
                    let v = Node::Valid(Box::new(
                        place
                            .clone()
                            .part(m.bit_offset + valid_bit_offset, TypeTable::BOOL),
                    ));
                    any = Some(match any {
                        None => v,
                        Some(prev) => Node::Binary(BinOp::Or, Box::new(prev), Box::new(v)),
                    });
                }
                Ok(any.unwrap_or(Node::Const(Bits::from_bool(false))))
            }
            _ => Err(CompileError::Unsupported("isValid on this type")),
        }
    }
}

/// What an expression the evaluator does not compile is, for its refusal
/// ("a function call here is not supported by the engine yet").
fn unsupported_kind(kind: &ExprKind) -> &'static str {
    use janus_p4::ir::Callee;
    match kind {
        ExprKind::Call(Callee::Function(_), _) => "a function call here",
        ExprKind::Call(Callee::ExternFunction { .. }, _) => "an extern function call here",
        ExprKind::Call(Callee::ExternMethod { .. }, _) => "an extern method call here",
        ExprKind::Call(Callee::Builtin { .. }, _) => "this built-in method here",
        ExprKind::Call(Callee::Action(_), _) => "an action call here",
        ExprKind::Call(Callee::TableApply(_), _) => "a table apply here",
        ExprKind::Call(Callee::BlockApply(_), _) => "a parser or control apply here",
        ExprKind::List(_) => "a list expression here",
        ExprKind::Mask(..) | ExprKind::Range(..) => "a keyset expression here",
        ExprKind::ValueSet(_) => "a value set here",
        ExprKind::Default | ExprKind::DontCare => "`default` or `_` here",
        ExprKind::Instance(_) => "an instance used as a value",
        _ => "this expression",
    }
}
