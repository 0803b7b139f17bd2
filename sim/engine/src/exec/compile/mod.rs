//! The compiler from IR statements to [`Op`]s: every place resolved,
//! calls bound to their externs, actions and tables, a control's prologue.

use super::ops::{Op, ParserErrors};
use super::special;
use crate::eval::{CompileError, Compiler, Node, is_packet_in, lookahead_bits, scalar_shape};
use crate::layout::LayoutKind;
use crate::value::Bits;
use janus_p4::ir::{self, Callee, ExprKind, StmtKind, SwitchLabel, Value};
use janus_p4::types::{StructKind, Ty, TyId, TypeTable};

pub(super) mod calls;

use calls::*;

/// A control's body as it runs on each apply of the instance built with
/// `ctor_args`: its constructor parameters bound, its local declarations
/// (and their initialisers) in order, then the apply block.
pub fn compile_control(
    c: &mut Compiler<'_>,
    block: &ir::Block,
    ctor_args: &[ir::Expr],
) -> Result<Vec<Op>, CompileError> {
    let mut ops = block_prologue(c, block, ctor_args)?;
    ops.extend(compile_stmts(c, &block.apply)?);
    Ok(ops)
}

/// What runs as a parser or control instance starts: its scalar
/// constructor parameters take the instance's (constant) arguments (an
/// argument that is not a constant is an error), then its local
/// declarations run. Constructor parameters naming instances
/// are bound to them in `c` first (see [`crate::bind`]).
pub fn block_prologue(
    c: &mut Compiler<'_>,
    block: &ir::Block,
    ctor_args: &[ir::Expr],
) -> Result<Vec<Op>, CompileError> {
    if let Some(ctx) = &c.instances {
        let bound = crate::bind::ctor_bindings(c.program, &ctx.path);
        c.bound.extend(bound);
    }
    let mut ops = Vec::new();
    for (p, arg) in block.ctor_params.iter().zip(ctor_args) {
        if is_scalar(c, p.ty) {
            // Lowering folds every argument it can bind; one left open did
            // not fold (e.g. `Adder(8w1 / n)` with `n` bound to 0).
            if !matches!(arg.kind, ExprKind::Const(_)) {
                return Err(CompileError::NotConstant(p.name.clone()).at(c.program, arg.span));
            }
            let param = ir::Expr {
                ty: p.ty,
                kind: ExprKind::Var(p.var),
                span: arg.span,
            };
            assign(c, &param, arg, &mut ops)?;
        }
    }
    ops.extend(compile_stmts(c, &block.locals)?);
    Ok(ops)
}

/// Compiles a statement list of one frame, common shapes specialised
/// (see [`special::specialise`]).
pub fn compile_stmts(c: &mut Compiler<'_>, stmts: &[ir::Stmt]) -> Result<Vec<Op>, CompileError> {
    let mut out = Vec::with_capacity(stmts.len());
    for s in stmts {
        compile_stmt(c, s, &mut out)?;
    }
    Ok(special::specialise(out))
}

/// Compiles one statement; an error names the statement's place in the
/// program (or a more precise one found inside it).
fn compile_stmt(c: &mut Compiler<'_>, s: &ir::Stmt, out: &mut Vec<Op>) -> Result<(), CompileError> {
    // A `lookahead` anywhere in the statement's own expressions (an
    // argument, an index, an amount) needs the packet to hold its bits
    // before the statement runs (PacketTooShort otherwise). A bare
    // `packet.lookahead<T>();` checks nothing, as in bmv2.
    let bits = stmt_lookahead_need(c, s);
    if bits > 0 {
        out.push(Op::Require {
            bits,
            too_short: ParserErrors::of(c.program).packet_too_short,
        });
    }
    compile_stmt_here(c, s, out).map_err(|err| err.at(c.program, s.span))
}

/// The widest `lookahead` in the expressions `s` evaluates itself (not in
/// the statements nested in it).
fn stmt_lookahead_need(c: &Compiler<'_>, s: &ir::Stmt) -> u32 {
    let types = &c.program.types;
    let need = |e: &ir::Expr| crate::eval::expr_lookahead_need(types, e);
    match &s.kind {
        StmtKind::Assign(l, r) => need(l).max(need(r)),
        StmtKind::Declare(_, Some(e))
        | StmtKind::If(e, ..)
        | StmtKind::Switch(e, _)
        | StmtKind::Return(Some(e)) => need(e),
        StmtKind::Call(e) => match &e.kind {
            ExprKind::Call(Callee::ExternMethod { receiver, name, .. }, _)
                if name == "lookahead" && is_packet_in(types, receiver.ty) =>
            {
                0
            }
            ExprKind::Call(callee, args) => {
                let receiver = match callee {
                    Callee::Builtin { receiver, .. } => need(receiver),
                    _ => 0,
                };
                args.iter().flatten().map(need).fold(receiver, u32::max)
            }
            _ => need(e),
        },
        _ => 0,
    }
}

fn compile_stmt_here(
    c: &mut Compiler<'_>,
    s: &ir::Stmt,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    match &s.kind {
        StmtKind::Assign(lhs, rhs) => assign(c, lhs, rhs, out)?,
        StmtKind::Declare(v, init) => {
            let var = ir::Expr {
                ty: c.program.var(*v).ty,
                kind: ExprKind::Var(*v),
                span: s.span,
            };
            match init {
                Some(e) => assign(c, &var, e, out)?,
                // Uninitialised locals start as zero (headers invalid), so
                // that runs are deterministic.
                None => zero(c, &var, out)?,
            }
        }
        StmtKind::Call(e) => call(c, e, out)?,
        StmtKind::If(cond, a, b) => {
            let cond = guarded(c, cond, out)?;
            out.push(Op::If(
                Box::new(cond),
                compile_stmts(c, a)?,
                compile_stmts(c, b)?,
            ));
        }
        StmtKind::Block(b) => out.push(Op::Seq(compile_stmts(c, b)?)),
        StmtKind::Exit => out.push(Op::Exit),
        StmtKind::Return(None) => out.push(Op::Return),
        StmtKind::Return(Some(e)) => {
            let place = c.return_place.clone().ok_or(CompileError::Unsupported(
                "`return` with a value outside a function",
            ))?;
            if !is_scalar(c, e.ty) {
                return Err(CompileError::Unsupported(
                    "functions returning composite values",
                ));
            }
            let value = guarded(c, e, out)?;
            out.push(Op::Store {
                place: Box::new(place),
                value,
            });
            out.push(Op::Return);
        }
        StmtKind::Break => out.push(Op::Break),
        StmtKind::Continue => out.push(Op::LoopContinue),
        StmtKind::Switch(subject, cases) => {
            let op = switch(c, subject, cases, out)?;
            out.push(op);
        }
        StmtKind::For {
            init,
            cond,
            update,
            body,
        } => {
            out.extend(compile_stmts(c, init)?);
            // A condition that applies a table or calls something was
            // moved into the body by the lowering (`lower::for_cond`).
            let cond = cond.as_ref().map(|e| c.node(e)).transpose()?.map(Box::new);
            let body = compile_stmts(c, body)?;
            out.push(Op::Loop {
                cond,
                body,
                update: compile_stmts(c, update)?,
            });
        }
        StmtKind::ForIn { .. } => return Err(CompileError::Unsupported("`for ... in` loops")),
    }
    Ok(())
}

/// Compiles a scalar expression; if it looks ahead into the packet, first
/// emits the check that the packet is long enough.
pub fn guarded(
    c: &mut Compiler<'_>,
    e: &ir::Expr,
    out: &mut Vec<Op>,
) -> Result<Node, CompileError> {
    hoist_applies(c, e, out)?;
    let node = c.node(e)?;
    let bits = lookahead_bits(&node);
    if bits > 0 {
        out.push(Op::Require {
            bits,
            too_short: ParserErrors::of(c.program).packet_too_short,
        });
    }
    Ok(node)
}

fn is_scalar(c: &Compiler<'_>, ty: TyId) -> bool {
    scalar_shape(&c.program.types, ty).is_some()
}

/// `lhs = rhs` for scalars and composites.
fn assign(
    c: &mut Compiler<'_>,
    lhs: &ir::Expr,
    rhs: &ir::Expr,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    if matches!(rhs.kind, ExprKind::DontCare) {
        // `x = ...`: the type's default value (zero, headers invalid).
        if let (Some((width, signed)), true) =
            (scalar_shape(&c.program.types, lhs.ty), has_part_select(lhs))
        {
            let zero = Node::Const(Bits::zero(width, signed));
            return store_scalar(c, lhs, zero, out);
        }
        return zero(c, lhs, out);
    }
    if let ExprKind::Call(Callee::Function(f), args) = &rhs.kind {
        // `x = f(...)`: the function's `return` writes x.
        let result = c.place(lhs)?;
        out.push(function_call(c, *f, args, Some(result))?);
        return Ok(());
    }
    if let ExprKind::Call(
        callee @ (Callee::ExternFunction { .. } | Callee::ExternMethod { .. }),
        args,
    ) = &rhs.kind
        && !is_packet_call(c, callee)
    {
        // `x = e.method(...)`: the architecture writes the result.
        let result = c.place(lhs)?;
        out.push(extern_call(c, callee, args, Some(result))?);
        return Ok(());
    }
    if let ExprKind::Call(Callee::ExternMethod { receiver, name, .. }, _) = &rhs.kind
        && name == "lookahead"
        && is_packet_in(&c.program.types, receiver.ty)
        && is_header(c, lhs.ty)?
    {
        out.push(Op::Peek {
            header: Box::new(c.place(lhs)?),
            shape: header_shape(c, lhs.ty)?,
            errors: ParserErrors::of(c.program),
        });
        return Ok(());
    }
    if let ExprKind::Call(Callee::ExternMethod { receiver, name, .. }, _) = &rhs.kind
        && name == "lookahead"
        && is_packet_in(&c.program.types, receiver.ty)
        && !is_scalar(c, lhs.ty)
    {
        // A struct from `lookahead<S>()`: each field from its bits.
        let need = c
            .program
            .types
            .size_in_bits(lhs.ty)
            .ok_or(CompileError::Unsupported("lookahead of this type"))? as u32;
        out.push(Op::Require {
            bits: need,
            too_short: ParserErrors::of(c.program).packet_too_short,
        });
        return peek_fields(c, lhs, 0, need, out);
    }
    if is_scalar(c, lhs.ty) {
        let value = guarded(c, rhs, out)?;
        return store_scalar(c, lhs, value, out);
    }
    match &rhs.kind {
        ExprKind::List(parts) => {
            assign_parts(c, lhs, parts.iter().map(Part::Expr).collect(), out)?;
        }
        ExprKind::Const(Value::List(vals)) => {
            assign_parts(c, lhs, vals.iter().map(Part::Value).collect(), out)?;
        }
        ExprKind::Var(_) | ExprKind::Field(..) | ExprKind::Index(..)
            if c.in_header(lhs)? || c.in_header(rhs)? =>
        {
            // A struct packed inside a header and one laid out on its own
            // differ: copy member by member.
            let fields = c
                .program
                .types
                .struct_info(lhs.ty)
                .map_or(0, |s| s.fields.len());
            for i in 0..fields {
                let ty = field_ty(c, lhs.ty, i);
                let member = |e: &ir::Expr| ir::Expr {
                    ty,
                    kind: ExprKind::Field(Box::new(e.clone()), i as u32),
                    span: e.span,
                };
                assign(c, &member(lhs), &member(rhs), out)?;
            }
        }
        ExprKind::Var(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
            let bytes = c.layouts.layout(lhs.ty)?.bytes;
            out.push(Op::Copy {
                dst: c.place(lhs)?,
                src: Box::new(c.place(rhs)?),
                bytes,
            });
        }
        ExprKind::InvalidHeader => return invalidate(c, lhs, out),
        _ => return Err(CompileError::Unsupported("this composite value")),
    }
    // A union member that the assignment made valid is the only valid one.
    if is_header(c, lhs.ty)? {
        let mut siblings = Vec::new();
        invalidate_union_siblings(c, lhs, &mut siblings)?;
        if !siblings.is_empty() {
            let valid = c.validity(lhs)?;
            out.push(Op::If(Box::new(valid), siblings, Vec::new()));
        }
    }
    Ok(())
}

/// Whether the l-value `e` writes through a part-select with a run-time
/// start (`x[i +: 4]`, `x[i +: 8][3:0]`).
fn has_part_select(e: &ir::Expr) -> bool {
    match &e.kind {
        ExprKind::PartSelect { .. } => true,
        ExprKind::Slice(inner, ..) => has_part_select(inner),
        _ => false,
    }
}

/// Stores the scalar `value` into the l-value `lhs`. A part-select with a
/// run-time start is written as its whole value with the part replaced
/// (bits of the part outside the value are not written).
fn store_scalar(
    c: &mut Compiler<'_>,
    lhs: &ir::Expr,
    value: Node,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let whole = |c: &mut Compiler<'_>, inner: &ir::Expr, start: Node, width: u32, up: bool| {
        Ok::<Node, CompileError>(
            Node::PartSplice {
                whole: Box::new(c.node(inner)?),
                start: Box::new(start),
                value: Box::new(value.clone()),
                width,
                up,
            }
            .narrowed(),
        )
    };
    match &lhs.kind {
        ExprKind::PartSelect {
            base,
            start,
            width,
            up,
        } => {
            let start = guarded(c, start, out)?;
            let spliced = whole(c, base, start, *width, *up)?;
            store_scalar(c, base, spliced, out)
        }
        ExprKind::Slice(inner, hi, lo) if has_part_select(inner) => {
            let start = Node::Const(Bits::from_u64(32, false, u64::from(*lo)));
            let spliced = whole(c, inner, start, hi - lo + 1, true)?;
            store_scalar(c, inner, spliced, out)
        }
        _ => {
            let place = c.place(lhs)?;
            // A `lookahead` in the target's indexes needs the packet too.
            let bits = crate::eval::place_lookahead_bits(&place);
            if bits > 0 {
                out.push(Op::Require {
                    bits,
                    too_short: ParserErrors::of(c.program).packet_too_short,
                });
            }
            out.push(Op::Store {
                place: Box::new(place),
                value,
            });
            Ok(())
        }
    }
}

/// `h = {#}`: the header (or every member of the union) becomes invalid.
fn invalidate(c: &mut Compiler<'_>, lhs: &ir::Expr, out: &mut Vec<Op>) -> Result<(), CompileError> {
    let place = c.place(lhs)?;
    let headers: Vec<(u32, TyId)> = match c.layouts.layout(lhs.ty)?.kind {
        LayoutKind::Header { .. } => vec![(0, lhs.ty)],
        LayoutKind::Union { members } => members.iter().map(|m| (m.bit_offset, m.ty)).collect(),
        _ => return Err(CompileError::Unsupported("{#} for a non-header")),
    };
    for (offset, ty) in headers {
        let shape = header_shape(c, ty)?;
        out.push(Op::SetValidity {
            header: place.clone().part(offset, ty),
            valid_byte: shape.valid_byte,
            wire_bytes: shape.wire_bits.div_ceil(8),
            valid: false,
        });
    }
    Ok(())
}

/// Stores into each scalar field of the struct `lhs` the bits of the
/// packet `offset` bits past the cursor (a struct `lookahead`), in order;
/// a header inside it becomes valid, as `lookahead<H>()` returns a valid
/// header.
fn peek_fields(
    c: &mut Compiler<'_>,
    lhs: &ir::Expr,
    mut offset: u32,
    need: u32,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let unsupported = || CompileError::Unsupported("lookahead of this type");
    let members: Vec<ir::Expr> = if let Ty::Stack { elem, size } = *c.program.types.get(lhs.ty) {
        // A header stack or array: its elements in index order.
        (0..size)
            .map(|i| ir::Expr {
                ty: elem,
                kind: ExprKind::Index(
                    Box::new(lhs.clone()),
                    Box::new(ir::Expr {
                        ty: TypeTable::INF_INT,
                        kind: ExprKind::Const(Value::Int(i.into())),
                        span: lhs.span,
                    }),
                ),
                span: lhs.span,
            })
            .collect()
    } else {
        let info = c
            .program
            .types
            .struct_info(lhs.ty)
            .filter(|i| i.kind != StructKind::HeaderUnion)
            .ok_or_else(unsupported)?;
        if info.kind == StructKind::Header {
            let shape = header_shape(c, lhs.ty)?;
            out.push(Op::SetValidity {
                header: c.place(lhs)?,
                valid_byte: shape.valid_byte,
                wire_bytes: shape.wire_bits.div_ceil(8),
                valid: true,
            });
        }
        (0..info.fields.len())
            .map(|i| ir::Expr {
                ty: field_ty(c, lhs.ty, i),
                kind: ExprKind::Field(Box::new(lhs.clone()), i as u32),
                span: lhs.span,
            })
            .collect()
    };
    for member in &members {
        let bits = c
            .program
            .types
            .size_in_bits(member.ty)
            .ok_or_else(unsupported)? as u32;
        match scalar_shape(&c.program.types, member.ty) {
            Some((width, signed)) => out.push(Op::Store {
                place: Box::new(c.place(member)?),
                value: Node::Lookahead {
                    offset,
                    width,
                    signed,
                    need,
                },
            }),
            None => peek_fields(c, member, offset, need, out)?,
        }
        offset += bits;
    }
    Ok(())
}

/// The type of field `i` of the struct type `ty`.
fn field_ty(c: &Compiler<'_>, ty: TyId, i: usize) -> TyId {
    c.program
        .types
        .struct_info(ty)
        .and_then(|s| s.fields.get(i))
        .map_or(TypeTable::UNKNOWN, |f| f.ty)
}

/// After `header` (a member of a header union) becomes valid, every other
/// member of the union becomes invalid (P4_16, header unions); nothing for
/// a header outside a union.
fn invalidate_union_siblings(
    c: &mut Compiler<'_>,
    header: &ir::Expr,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let ExprKind::Field(union, member) = &header.kind else {
        return Ok(());
    };
    let LayoutKind::Union { members } = c.layouts.layout(union.ty)?.kind else {
        return Ok(());
    };
    let place = c.place(union)?;
    for (i, m) in members.iter().enumerate() {
        if i as u32 == *member {
            continue;
        }
        let shape = header_shape(c, m.ty)?;
        out.push(Op::SetValidity {
            header: place.clone().part(m.bit_offset, m.ty),
            valid_byte: shape.valid_byte,
            wire_bytes: shape.wire_bits.div_ceil(8),
            valid: false,
        });
    }
    Ok(())
}

enum Part<'e> {
    Expr(&'e ir::Expr),
    Value(&'e Value),
}

/// `{a, b, ...}` assigned field by field; a header becomes valid.
fn assign_parts(
    c: &mut Compiler<'_>,
    lhs: &ir::Expr,
    parts: Vec<Part<'_>>,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let layout = c.layouts.layout(lhs.ty)?;
    if let LayoutKind::Stack { elem, .. } = layout.kind {
        // `stack = { h0, h1, ... }`: element by element.
        for (i, part) in parts.into_iter().enumerate() {
            let element = ir::Expr {
                ty: elem,
                kind: ExprKind::Index(
                    Box::new(lhs.clone()),
                    Box::new(ir::Expr {
                        ty: TypeTable::INF_INT,
                        kind: ExprKind::Const(Value::Int((i as u64).into())),
                        span: lhs.span,
                    }),
                ),
                span: lhs.span,
            };
            match part {
                Part::Expr(e) => assign(c, &element, e, out)?,
                Part::Value(v) => {
                    let value = ir::Expr {
                        ty: elem,
                        kind: ExprKind::Const(v.clone()),
                        span: lhs.span,
                    };
                    assign(c, &element, &value, out)?;
                }
            }
        }
        return Ok(());
    }
    let (field_tys, header): (Vec<TyId>, Option<(u32, u32)>) = match &layout.kind {
        LayoutKind::Header {
            fields,
            valid_bit_offset,
            wire_bits,
            ..
        } => (
            fields.iter().map(|f| f.ty).collect(),
            Some((*valid_bit_offset, wire_bits.div_ceil(8))),
        ),
        LayoutKind::Struct { fields } => (fields.iter().map(|f| f.ty).collect(), None),
        _ => return Err(CompileError::Unsupported("a list assigned to this type")),
    };
    if let Some((valid_bit, wire_bytes)) = header {
        out.push(Op::SetValidity {
            header: c.place(lhs)?,
            valid_byte: valid_bit / 8,
            wire_bytes,
            valid: true,
        });
    }
    for (i, (part, ty)) in parts.into_iter().zip(field_tys).enumerate() {
        let field = ir::Expr {
            ty,
            kind: ExprKind::Field(Box::new(lhs.clone()), i as u32),
            span: lhs.span,
        };
        match part {
            Part::Expr(e) => assign(c, &field, e, out)?,
            Part::Value(v) => {
                let value = ir::Expr {
                    ty,
                    kind: ExprKind::Const(v.clone()),
                    span: lhs.span,
                };
                assign(c, &field, &value, out)?;
            }
        }
    }
    Ok(())
}

/// Sets a variable to zero (scalars) or all-zero bytes (composites).
fn zero(c: &mut Compiler<'_>, var: &ir::Expr, out: &mut Vec<Op>) -> Result<(), CompileError> {
    if let Some((width, signed)) = scalar_shape(&c.program.types, var.ty) {
        out.push(Op::Store {
            place: Box::new(c.place(var)?),
            value: Node::Const(Bits::zero(width, signed)),
        });
        return Ok(());
    }
    let Ok(layout) = c.layouts.layout(var.ty) else {
        return Ok(());
    };
    out.push(Op::Zero {
        dst: c.place(var)?,
        bytes: layout.bytes,
    });
    Ok(())
}

fn switch(
    c: &mut Compiler<'_>,
    subject: &ir::Expr,
    cases: &[ir::SwitchCase],
    out: &mut Vec<Op>,
) -> Result<Op, CompileError> {
    let node = guarded(c, subject, out)?;
    // For `switch (t.apply().action_run)`, labels are actions of t: their
    // index in t's action list.
    let table_actions: Vec<ir::ActionId> = match &subject.kind {
        ExprKind::ActionRun(call) => match &call.kind {
            ExprKind::Call(Callee::TableApply(t), _) => c.program.tables[t.0 as usize]
                .actions
                .iter()
                .map(|a| a.action)
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let mut out_cases = Vec::new();
    let mut default = None;
    let mut bodies = Vec::new();
    for case in cases {
        let body = bodies.len();
        bodies.push(compile_stmts(c, &case.body)?);
        let mut labels = Vec::new();
        for l in &case.labels {
            match l {
                SwitchLabel::Default => default = Some(body),
                SwitchLabel::Value(v) => labels.push(
                    crate::eval::constant(&c.program.types, subject.ty, v)
                        .ok_or(CompileError::Unsupported("this switch label"))?,
                ),
                SwitchLabel::Action(a) => {
                    let i = table_actions.iter().position(|x| x == a).ok_or(
                        CompileError::Unsupported(
                            "a switch label that is not an action of the table",
                        ),
                    )?;
                    labels.push(Bits::from_u64(32, false, i as u64));
                }
            }
        }
        out_cases.push((labels, body));
    }
    Ok(Op::Switch {
        subject: Box::new(node),
        cases: out_cases.into(),
        default,
        bodies: bodies.into(),
    })
}
