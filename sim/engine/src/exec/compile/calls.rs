//! Calls as ops: packet methods, externs and their arguments, built-in
//! methods, functions, nested applies of parsers and controls, actions and
//! table applies.

use super::*;
use crate::eval::{CompileError, Compiler, Node, Place, is_packet_in, is_packet_out, scalar_shape};
use crate::exec::ops::{
    ActionImpl, ActionParam, HeaderShape, NO_ERROR, Op, ParserErrors, TableKeys, VarbitSlot,
};
use crate::externs::{DataLayout, ExternArg};
use crate::layout::LayoutKind;
use crate::value::{Bits, FieldWord, SMALL_MAX_WIDTH};
use janus_p4::ir::{self, BuiltinMethod, Callee, Direction, ExprKind, Value};
use janus_p4::types::TyId;

pub(super) fn call(
    c: &mut Compiler<'_>,
    e: &ir::Expr,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let ExprKind::Call(callee, args) = &e.kind else {
        return Err(CompileError::Unsupported("this statement"));
    };
    match callee {
        Callee::Builtin { receiver, method } => builtin(c, receiver, *method, args, out),
        Callee::Action(a) => {
            out.push(action_call(c, *a, args)?);
            Ok(())
        }
        Callee::TableApply(t) => {
            out.push(apply_table(c, *t)?);
            Ok(())
        }
        Callee::ExternMethod {
            receiver,
            name,
            type_args,
        } if is_packet_in(&c.program.types, receiver.ty) => {
            packet_in_call(c, name, args, type_args, out)
        }
        Callee::ExternMethod { receiver, name, .. }
            if name == "emit" && is_packet_out(&c.program.types, receiver.ty) =>
        {
            let Some(Some(arg)) = args.first() else {
                return Err(CompileError::Unsupported("emit without an argument"));
            };
            emit(c, arg, out)
        }
        Callee::ExternFunction { name, .. } if name == "verify" => {
            let (Some(Some(cond)), Some(Some(error))) = (args.first(), args.get(1)) else {
                return Err(CompileError::Unsupported("verify without arguments"));
            };
            let cond = guarded(c, cond, out)?;
            let error = Box::new(guarded(c, error, out)?);
            out.push(Op::Verify { cond, error });
            Ok(())
        }
        Callee::ExternFunction { .. } | Callee::ExternMethod { .. } => {
            out.push(extern_call(c, callee, args, None)?);
            Ok(())
        }
        Callee::Function(f) => {
            out.push(function_call(c, *f, args, None)?);
            Ok(())
        }
        Callee::BlockApply(receiver) => {
            out.push(nested_apply(c, receiver, args)?);
            Ok(())
        }
    }
}

/// The shape of header type `ty` for extraction and emission.
pub(super) fn header_shape(c: &mut Compiler<'_>, ty: TyId) -> Result<HeaderShape, CompileError> {
    let LayoutKind::Header {
        fields,
        wire_bits,
        valid_bit_offset,
        varbit_len_bit_offset,
    } = c.layouts.layout(ty)?.kind
    else {
        return Err(CompileError::Unsupported(
            "extracting or emitting a non-header",
        ));
    };
    let varbit = match varbit_len_bit_offset {
        Some(len) => {
            let f = fields
                .iter()
                .find(|f| {
                    matches!(
                        c.program.types.get(f.ty),
                        janus_p4::types::Ty::Varbit { .. }
                    )
                })
                .ok_or(CompileError::Unsupported(
                    "a varbit length without a varbit field",
                ))?;
            let janus_p4::types::Ty::Varbit { max } = c.program.types.get(f.ty) else {
                unreachable!("found above")
            };
            Some(VarbitSlot {
                at: f.bit_offset,
                max: *max,
                len_byte: len / 8,
            })
        }
        None => None,
    };
    Ok(HeaderShape {
        wire_bits,
        valid_byte: valid_bit_offset / 8,
        varbit,
    })
}

fn packet_in_call(
    c: &mut Compiler<'_>,
    name: &str,
    args: &[Option<ir::Expr>],
    type_args: &[TyId],
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let errors = ParserErrors::of(c.program);
    match name {
        "extract" => {
            let Some(Some(target)) = args.first() else {
                return Err(CompileError::Unsupported("extract without an argument"));
            };
            if let (ExprKind::DontCare, Some(ty)) = (&target.kind, type_args.first()) {
                // `extract<T>(_)`: T's bits are skipped.
                let bits = c
                    .program
                    .types
                    .size_in_bits(*ty)
                    .ok_or(CompileError::Unsupported(
                        "extract into `_` of a type without a size",
                    ))?;
                out.push(Op::Advance {
                    bits: Node::Const(Bits::from_u64(32, false, bits)),
                    too_short: errors.packet_too_short,
                    invalid: NO_ERROR,
                });
                return Ok(());
            }
            let header = c.place(target)?;
            let shape = header_shape(c, target.ty)?;
            let next_index = match &header {
                Place::StackNext {
                    next_index_byte,
                    last: false,
                    ..
                } => Some(*next_index_byte),
                _ => None,
            };
            let varbit_len = args
                .get(1)
                .and_then(|a| a.as_ref())
                .map(|e| guarded(c, e, out))
                .transpose()?;
            out.push(Op::Extract {
                header: Box::new(header),
                shape: Box::new(shape),
                varbit_len: varbit_len.map(Box::new),
                next_index,
                errors,
            });
            invalidate_union_siblings(c, target, out)
        }
        "advance" => {
            let Some(Some(bits)) = args.first() else {
                return Err(CompileError::Unsupported("advance without an argument"));
            };
            let bits = guarded(c, bits, out)?;
            out.push(Op::Advance {
                bits,
                too_short: errors.packet_too_short,
                invalid: errors.invalid_argument,
            });
            Ok(())
        }
        "lookahead" => Ok(()),
        _ => Err(CompileError::Unsupported("this packet_in method")),
    }
}

/// `packet.emit(x)`: headers in order; stacks element by element; unions
/// and structs member by member.
fn emit(c: &mut Compiler<'_>, arg: &ir::Expr, out: &mut Vec<Op>) -> Result<(), CompileError> {
    let place = c.place(arg)?;
    emit_place(c, place, arg.ty, out)
}

fn emit_place(
    c: &mut Compiler<'_>,
    place: Place,
    ty: TyId,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    match c.layouts.layout(ty)?.kind {
        LayoutKind::Header { .. } => {
            let shape = header_shape(c, ty)?;
            out.push(Op::Emit {
                header: place,
                shape,
            });
        }
        LayoutKind::Stack {
            elem, size, stride, ..
        } => {
            for i in 0..size {
                emit_place(c, place.clone().part(i * stride, elem), elem, out)?;
            }
        }
        LayoutKind::Union { members } | LayoutKind::Struct { fields: members } => {
            for m in members {
                if scalar_shape(&c.program.types, m.ty).is_none() {
                    emit_place(c, place.clone().part(m.bit_offset, m.ty), m.ty, out)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

pub(super) fn is_packet_call(c: &Compiler<'_>, callee: &Callee) -> bool {
    matches!(callee, Callee::ExternMethod { receiver, .. }
        if is_packet_in(&c.program.types, receiver.ty) || is_packet_out(&c.program.types, receiver.ty))
}

/// An extern function or method call, resolved to the architecture's id.
pub(super) fn extern_call(
    c: &mut Compiler<'_>,
    callee: &Callee,
    args: &[Option<ir::Expr>],
    result: Option<Place>,
) -> Result<Op, CompileError> {
    let own_path = c.instances.as_ref().map_or("", |i| i.path.as_str());
    // The path of the block instance whose state the call uses: the
    // caller's, or where an instance passed as a parameter was declared.
    let (name, instance, path) = match callee {
        Callee::ExternFunction { name, .. } => (name.as_str(), None, own_path.to_string()),
        Callee::ExternMethod { receiver, name, .. } => match &receiver.kind {
            ExprKind::Instance(i) => (name.as_str(), Some(*i), own_path.to_string()),
            ExprKind::Var(v) => {
                let b = c.bound.get(v).ok_or(CompileError::Unsupported(
                    "a method of an extern parameter bound to no instance",
                ))?;
                (name.as_str(), Some(b.instance), b.owner.clone())
            }
            _ => return Err(CompileError::Unsupported("a method of this receiver")),
        },
        _ => return Err(CompileError::Unsupported("this call")),
    };
    let resolver = c.externs.ok_or(CompileError::Unsupported(
        "extern calls without an architecture",
    ))?;
    let program = c.program;
    let width_of = |ty| crate::eval::scalar_shape(&program.types, ty).map(|(w, _)| w);
    let args = args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let mut arg = extern_arg(c, a.as_ref())?;
            if resolver.is_data(name, instance, i) {
                arg = struct_fields(c, arg)?;
            }
            // Data at fixed places is resolved into bit runs once, here.
            Ok(match &arg {
                ExternArg::List(_) | ExternArg::Guarded { .. } => {
                    DataLayout::of(&arg, &width_of).map_or(arg, ExternArg::Data)
                }
                _ => arg,
            })
        })
        .collect::<Result<Vec<_>, CompileError>>()?;
    let site = crate::externs::CallSite {
        name,
        instance,
        path: &path,
        args: &args,
    };
    let id = resolver
        .resolve(&site)
        .ok_or(CompileError::UnknownExtern(name.to_string()))?;
    Ok(Op::Extern {
        id,
        args,
        result: result.map(Box::new),
    })
}

fn extern_arg(c: &mut Compiler<'_>, a: Option<&ir::Expr>) -> Result<ExternArg, CompileError> {
    let Some(e) = a else {
        return Ok(ExternArg::Absent);
    };
    Ok(match &e.kind {
        ExprKind::DontCare => ExternArg::Absent,
        ExprKind::Const(Value::Str(s)) => ExternArg::Str(s.clone()),
        ExprKind::List(parts) => ExternArg::List(
            parts
                .iter()
                .map(|p| list_part(c, p))
                .collect::<Result<_, _>>()?,
        ),
        _ if is_header(c, e.ty)? => header_arg(c, e)?,
        ExprKind::Const(Value::List(vals)) => {
            // A constant list: each value as a constant of its part type.
            let janus_p4::types::Ty::Tuple(tys) = c.program.types.get(e.ty).clone() else {
                return Err(CompileError::Unsupported("a constant list of this type"));
            };
            let mut parts = Vec::with_capacity(vals.len());
            for (v, ty) in vals.iter().zip(tys) {
                let part = ir::Expr {
                    ty,
                    kind: ExprKind::Const(v.clone()),
                    span: e.span,
                };
                parts.push(extern_arg(c, Some(&part))?);
            }
            ExternArg::List(parts)
        }
        ExprKind::Var(_)
        | ExprKind::Field(..)
        | ExprKind::Index(..)
        | ExprKind::StackNext(_)
        | ExprKind::StackLast(_) => ExternArg::Place {
            place: c.place(e)?,
            ty: e.ty,
        },
        _ => ExternArg::Value(c.node(e)?),
    })
}

pub(super) fn is_header(
    c: &mut Compiler<'_>,
    ty: janus_p4::types::TyId,
) -> Result<bool, CompileError> {
    if crate::eval::scalar_shape(&c.program.types, ty).is_some() {
        return Ok(false);
    }
    Ok(matches!(
        c.layouts.layout(ty)?.kind,
        crate::layout::LayoutKind::Header { .. }
    ))
}

/// A part of a list given to an extern: a field of a header counts only
/// while the header is valid; a whole header is its fields.
fn list_part(c: &mut Compiler<'_>, e: &ir::Expr) -> Result<ExternArg, CompileError> {
    if let ExprKind::Field(base, idx) = &e.kind
        && is_header(c, base.ty)?
    {
        let (valid, mut parts) = header_parts(c, base)?;
        return Ok(ExternArg::Guarded {
            valid,
            parts: vec![parts.swap_remove(*idx as usize)],
        });
    }
    let arg = extern_arg(c, Some(e))?;
    struct_fields(c, arg)
}

/// Extern data that is a struct (or tuple) in place: its fields in
/// declaration order, a nested struct's in turn, a header's while it is
/// valid (as p4c's bmv2 back end flattens it, and bmv2 skips the fields of
/// invalid headers). Any other argument is returned as it is.
fn struct_fields(c: &mut Compiler<'_>, arg: ExternArg) -> Result<ExternArg, CompileError> {
    let ExternArg::Place { place, ty } = arg else {
        return Ok(arg);
    };
    if crate::eval::scalar_shape(&c.program.types, ty).is_some() {
        return Ok(ExternArg::Place { place, ty });
    }
    match c.layouts.layout(ty)?.kind {
        LayoutKind::Struct { fields } => {
            let mut parts = Vec::with_capacity(fields.len());
            for f in fields {
                let field = ExternArg::Place {
                    place: place.clone().part(f.bit_offset, f.ty),
                    ty: f.ty,
                };
                parts.push(struct_fields(c, field)?);
            }
            Ok(ExternArg::List(parts))
        }
        LayoutKind::Header { .. } => {
            let (valid, parts) = header_parts_at(c, place, ty)?;
            Ok(ExternArg::Guarded { valid, parts })
        }
        _ => Ok(ExternArg::Place { place, ty }),
    }
}

/// A whole header as extern data: its fields, while it is valid.
fn header_arg(c: &mut Compiler<'_>, e: &ir::Expr) -> Result<ExternArg, CompileError> {
    let (valid, parts) = header_parts(c, e)?;
    Ok(ExternArg::Guarded { valid, parts })
}

/// A header's validity byte and each field as an extern argument.
fn header_parts(
    c: &mut Compiler<'_>,
    header: &ir::Expr,
) -> Result<(Place, Vec<ExternArg>), CompileError> {
    let base = c.place(header)?;
    header_parts_at(c, base, header.ty)
}

/// [`header_parts`] of the header of type `ty` at `base`.
fn header_parts_at(
    c: &mut Compiler<'_>,
    base: Place,
    ty: TyId,
) -> Result<(Place, Vec<ExternArg>), CompileError> {
    let crate::layout::LayoutKind::Header {
        fields,
        valid_bit_offset,
        varbit_len_bit_offset,
        ..
    } = c.layouts.layout(ty)?.kind
    else {
        return Err(CompileError::Unsupported("fields of a non-header"));
    };
    let parts = fields
        .iter()
        .map(|f| {
            let place = base.clone().part(f.bit_offset, f.ty);
            match (c.program.types.get(f.ty), varbit_len_bit_offset) {
                (janus_p4::types::Ty::Varbit { .. }, Some(len)) => ExternArg::Varbit {
                    place,
                    len: base.clone().part(len, f.ty),
                },
                _ => ExternArg::Place { place, ty: f.ty },
            }
        })
        .collect();
    Ok((
        base.part(valid_bit_offset, janus_p4::types::TypeTable::BOOL),
        parts,
    ))
}

fn builtin(
    c: &mut Compiler<'_>,
    receiver: &ir::Expr,
    method: BuiltinMethod,
    args: &[Option<ir::Expr>],
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    let place = c.place(receiver)?;
    match (method, c.layouts.layout(receiver.ty)?.kind) {
        (
            BuiltinMethod::SetValid | BuiltinMethod::SetInvalid,
            LayoutKind::Header {
                valid_bit_offset,
                wire_bits,
                ..
            },
        ) => {
            out.push(Op::SetValidity {
                header: place,
                valid_byte: valid_bit_offset / 8,
                wire_bytes: wire_bits.div_ceil(8),
                valid: method == BuiltinMethod::SetValid,
            });
            if method == BuiltinMethod::SetValid {
                invalidate_union_siblings(c, receiver, out)?;
            }
            Ok(())
        }
        (
            BuiltinMethod::PushFront | BuiltinMethod::PopFront,
            LayoutKind::Stack {
                elem,
                size,
                stride,
                next_index_bit_offset,
            },
        ) => {
            let count = match args.first().and_then(|a| a.as_ref()).map(|a| &a.kind) {
                Some(ExprKind::Const(Value::Int(n))) => i64::try_from(n).unwrap_or(i64::MAX),
                _ => return Err(CompileError::Unsupported("a non-constant push/pop count")),
            };
            // The validity bytes of an element: a header's, or each member's
            // of a union (freed elements become invalid).
            let valid_bytes = match c.layouts.layout(elem)?.kind {
                LayoutKind::Header {
                    valid_bit_offset, ..
                } => vec![valid_bit_offset / 8],
                LayoutKind::Union { members } => {
                    let mut bytes = Vec::with_capacity(members.len());
                    for m in members {
                        bytes.push(m.bit_offset / 8 + header_shape(c, m.ty)?.valid_byte);
                    }
                    bytes
                }
                _ => return Err(CompileError::Unsupported("push/pop on this stack")),
            };
            let count = if method == BuiltinMethod::PushFront {
                count
            } else {
                -count
            };
            out.push(Op::StackShift {
                stack: Box::new(place),
                stride: stride / 8,
                size,
                elem_valid_bytes: valid_bytes,
                next_index: next_index_bit_offset / 8,
                count,
            });
            Ok(())
        }
        _ => Err(CompileError::Unsupported("this method")),
    }
}

/// Copy-in and copy-out of a call's arguments: `out` parameters start at
/// zero; `out`/`inout` ones are copied back unless the argument is `_`.
fn copy_args(
    c: &mut Compiler<'_>,
    params: &[ir::Param],
    args: &[Option<ir::Expr>],
) -> Result<(Vec<Op>, Vec<Op>), CompileError> {
    let mut copy_in = Vec::new();
    let mut copy_out = Vec::new();
    for (p, arg) in params.iter().zip(args) {
        let Some(arg) = arg else { continue };
        let param = ir::Expr {
            ty: p.ty,
            kind: ExprKind::Var(p.var),
            span: arg.span,
        };
        match p.direction {
            Direction::Out => zero(c, &param, &mut copy_in)?,
            _ => assign(c, &param, arg, &mut copy_in)?,
        }
        if matches!(p.direction, Direction::Out | Direction::InOut)
            && !matches!(arg.kind, ExprKind::DontCare)
        {
            assign(c, arg, &param, &mut copy_out)?;
        }
    }
    Ok((copy_in, copy_out))
}

/// A function call: arguments copied into the function's parameters, the
/// body compiled here (P4 has no recursion), `return e` writing `result`.
pub(super) fn function_call(
    c: &mut Compiler<'_>,
    f: ir::FunctionId,
    args: &[Option<ir::Expr>],
    result: Option<Place>,
) -> Result<Op, CompileError> {
    let program = c.program;
    let func = &program.functions[f.0 as usize];
    let (copy_in, copy_out) = copy_args(c, &func.params, args)?;
    let saved = std::mem::replace(&mut c.return_place, result);
    let body = compile_stmts(c, &func.body);
    c.return_place = saved;
    Ok(Op::CallAction {
        copy_in: copy_in.into(),
        body: body?,
        copy_out: copy_out.into(),
    })
}

/// `inst.apply(args)` of a parser or control instantiated in this block:
/// the child's body, compiled against its own frame, between copies of the
/// arguments into its parameters and back out.
fn nested_apply(
    c: &mut Compiler<'_>,
    receiver: &ir::Expr,
    args: &[Option<ir::Expr>],
) -> Result<Op, CompileError> {
    let ctx = c.instances.clone().ok_or(CompileError::Unsupported(
        "nested apply without the instance tree",
    ))?;
    let program = c.program;
    // The instance and its path: declared here, or passed as a parameter.
    let (inst, path) = match &receiver.kind {
        ExprKind::Instance(i) => {
            let name = &program.instances[i.0 as usize].name;
            (*i, format!("{}.{name}", ctx.path))
        }
        ExprKind::Var(v) => {
            let b = c.bound.get(v).ok_or(CompileError::Unsupported(
                "apply of a parser or control parameter bound to no instance",
            ))?;
            (b.instance, b.path(program))
        }
        _ => return Err(CompileError::Unsupported("apply of this receiver")),
    };
    let instance = &program.instances[inst.0 as usize];
    let ir::InstanceOf::Block(b) = instance.of else {
        return Err(CompileError::Unsupported("apply of a non-block instance"));
    };
    let block = &program.blocks[b.0 as usize];
    let frame = ctx
        .plan
        .instance_frame(&path)
        .ok_or(CompileError::Unsupported(
            "a nested instance without storage",
        ))?;
    let mut vars = ctx.plan.shared_vars();
    vars.extend(frame.vars.iter().map(|(v, off)| (*v, frame.base + off)));
    let mut child = Compiler::new(program, vars);
    child.externs = c.externs;
    ctx.bind_slots(&mut child, &path);
    child.instances = Some(crate::eval::InstanceCtx {
        path: path.clone(),
        ..ctx
    });
    // Arguments go in through the caller's compiler, into the child's
    // parameter slots (which both can address: the arena is shared), or
    // are passed by reference where that cannot be told apart.
    let by_ref = by_reference(c, &block.params, args)?;
    let mut copy_in = Vec::new();
    let mut copy_out = Vec::new();
    for ((p, arg), by_ref) in block.params.iter().zip(args).zip(by_ref) {
        let Some(arg) = arg else { continue };
        if is_packet_in(&program.types, p.ty) || is_packet_out(&program.types, p.ty) {
            continue;
        }
        // An extern passed in: the child calls it where it was declared.
        if let Some(bound) = crate::bind::bound_arg(program, &c.bound, &ctx.path, arg) {
            child.bound.insert(p.var, bound);
            continue;
        }
        if let Some(byte) = by_ref {
            child.vars.insert(p.var, byte);
            continue;
        }
        let param = ir::Expr {
            ty: p.ty,
            kind: ExprKind::Var(p.var),
            span: arg.span,
        };
        let slot = *child
            .vars
            .get(&p.var)
            .ok_or(CompileError::NoStorage(p.name.clone()))?;
        c.vars.insert(p.var, slot);
        match p.direction {
            Direction::Out => zero(c, &param, &mut copy_in)?,
            _ => assign(c, &param, arg, &mut copy_in)?,
        }
        if matches!(p.direction, Direction::Out | Direction::InOut) {
            assign(c, arg, &param, &mut copy_out)?;
        }
    }
    let ctor_args = resolved_ctor_args(program, &path).unwrap_or_else(|| instance.args.clone());
    match block.kind {
        ir::BlockKind::Control => {
            let body = compile_control(&mut child, block, &ctor_args)?;
            Ok(Op::CallAction {
                copy_in: copy_in.into(),
                body,
                copy_out: copy_out.into(),
            })
        }
        ir::BlockKind::Parser => {
            let parser = crate::parser::compile_parser(&mut child, block, &ctor_args)?;
            Ok(Op::SubParser {
                copy_in,
                parser: Box::new(parser),
                copy_out,
            })
        }
    }
}

/// For each parameter of a nested apply, the byte of the argument's storage
/// when the parameter may be that storage itself instead of a copy of it
/// (copy-in/copy-out cannot be told apart from it): an `inout` or `in`
/// parameter whose argument is a byte-aligned place fixed at load time, of
/// the parameter's type, overlapping no other `out` or `inout` argument. Only
/// the child reaches the argument while it runs (a block sees nothing of
/// its caller but its arguments), the `in` arguments it could see change
/// are copied before it starts, and copy-out happens whatever way the
/// child ends (`exit`, `reject`), so every write lands where copy-out
/// would have put it; an `in` argument passed so is never written while
/// the child runs, as nothing it overlaps is.
fn by_reference(
    c: &mut Compiler<'_>,
    params: &[ir::Param],
    args: &[Option<ir::Expr>],
) -> Result<Vec<Option<u32>>, CompileError> {
    // Per parameter: the bit range its argument may be written at (`None`
    // for a range chosen at run time, which may overlap anything), and
    // whether the parameter could be passed by reference.
    let mut written = Vec::with_capacity(params.len());
    for (p, arg) in params.iter().zip(args) {
        let Some(arg) = arg.as_ref().filter(|a| {
            matches!(p.direction, Direction::Out | Direction::InOut)
                && !matches!(a.kind, ExprKind::DontCare)
        }) else {
            written.push(None);
            continue;
        };
        written.push(Some(match c.place(arg) {
            Ok(Place::Fixed { bit, ty }) => {
                let end = bit + (c.layouts.layout(ty)?.bytes * 8).max(1);
                let whole = p.direction == Direction::InOut && ty == p.ty && bit % 8 == 0;
                (Some((bit, end)), whole)
            }
            _ => (None, false),
        }));
    }
    let overlaps = |i: usize, (lo, hi): (u32, u32)| {
        written
            .iter()
            .enumerate()
            .any(|(j, w)| j != i && w.is_some_and(|(r, _)| r.is_none_or(|(l, h)| l < hi && lo < h)))
    };
    let mut by_ref = Vec::with_capacity(params.len());
    for (i, (p, arg)) in params.iter().zip(args).enumerate() {
        by_ref.push(match (written[i], p.direction, arg) {
            (Some((Some(range), true)), ..) if !overlaps(i, range) => Some(range.0 / 8),
            // An `in` argument the child cannot change (the front end
            // refuses writes to `in` parameters) and no `out` or `inout`
            // argument overlaps: it stays as copy-in would have left it.
            (None, Direction::In, Some(arg)) => match c.place(arg) {
                Ok(Place::Fixed { bit, ty }) if ty == p.ty && bit % 8 == 0 => {
                    let end = bit + (c.layouts.layout(ty)?.bytes * 8).max(1);
                    (!overlaps(i, (bit, end))).then_some(bit / 8)
                }
                _ => None,
            },
            _ => None,
        });
    }
    Ok(by_ref)
}

/// The constructor arguments of the block instance at `path` (a path of
/// [`ir::Program::instance_paths`]), each argument that names a
/// constructor parameter of the enclosing instance replaced by that
/// parameter's value, level by level down the instance tree (so chains of
/// forwarded parameters resolve). `None` when `path` is not in the tree.
pub(in crate::exec) fn resolved_ctor_args(
    program: &ir::Program,
    path: &str,
) -> Option<Vec<ir::Expr>> {
    let mut current = program.main?;
    let mut bound: std::collections::HashMap<ir::VarId, ir::Expr> = Default::default();
    let mut args = Vec::new();
    for name in path.split('.') {
        current = program.child_named(current, name)?;
        let inst = &program.instances[current.0 as usize];
        args = inst
            .args
            .iter()
            .map(|a| match a.kind {
                ExprKind::Var(v) => bound.get(&v).cloned().unwrap_or_else(|| a.clone()),
                _ => a.clone(),
            })
            .collect();
        if let ir::InstanceOf::Block(b) = inst.of {
            let params = &program.blocks[b.0 as usize].ctor_params;
            bound = params
                .iter()
                .map(|p| p.var)
                .zip(args.iter().cloned())
                .collect();
        }
    }
    Some(args)
}

/// A direct call `a(args)`: arguments are copied into the parameters,
/// the body runs, `out`/`inout` parameters are copied back.
fn action_call(
    c: &mut Compiler<'_>,
    a: ir::ActionId,
    args: &[Option<ir::Expr>],
) -> Result<Op, CompileError> {
    let program = c.program;
    let action = &program.actions[a.0 as usize];
    let (copy_in, copy_out) = copy_args(c, &action.params, args)?;
    let body = compile_stmts(c, &action.body)?;
    Ok(Op::CallAction {
        copy_in: copy_in.into(),
        body,
        copy_out: copy_out.into(),
    })
}

/// Emits the table applies an expression reads results of
/// (`t.apply().hit`), so that the expression can read them after.
pub(super) fn hoist_applies(
    c: &mut Compiler<'_>,
    e: &ir::Expr,
    out: &mut Vec<Op>,
) -> Result<(), CompileError> {
    match &e.kind {
        ExprKind::TableHit(call) | ExprKind::TableMiss(call) | ExprKind::ActionRun(call) => {
            if let ExprKind::Call(Callee::TableApply(t), _) = &call.kind {
                out.push(apply_table(c, *t)?);
            }
            Ok(())
        }
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a)
        | ExprKind::Slice(a, ..)
        | ExprKind::Field(a, _) => hoist_applies(c, a, out),
        ExprKind::Binary(_, a, b) => {
            hoist_applies(c, a, out)?;
            hoist_applies(c, b, out)
        }
        ExprKind::Ternary(x, a, b) => {
            hoist_applies(c, x, out)?;
            hoist_applies(c, a, out)?;
            hoist_applies(c, b, out)
        }
        _ => Ok(()),
    }
}

/// Compiles `t.apply()` for the table's runtime slot.
fn apply_table(c: &mut Compiler<'_>, t: ir::TableId) -> Result<Op, CompileError> {
    let slot = *c
        .tables
        .get(&t)
        .ok_or(CompileError::Unsupported("a table without a runtime slot"))?;
    let table = &c.program.tables[t.0 as usize];
    let mut keys = Vec::with_capacity(table.keys.len());
    let mut selector_keys = Vec::new();
    for k in &table.keys {
        let node = c.node(&k.expr)?;
        match k.match_kind.as_str() {
            "selector" => selector_keys.push(node),
            _ => keys.push(node),
        }
    }
    let mut actions = Vec::with_capacity(table.actions.len());
    for call in &table.actions {
        let action = &c.program.actions[call.action.0 as usize];
        let mut params = Vec::new();
        let mut copy_in = Vec::new();
        let mut copy_out = Vec::new();
        for (p, bound) in action.params.iter().zip(&call.args) {
            let param = ir::Expr {
                ty: p.ty,
                kind: ExprKind::Var(p.var),
                span: action.span,
            };
            match bound {
                // Bound in the action list: a data-plane argument.
                Some(arg) => {
                    if p.direction != Direction::Out {
                        assign(c, &param, arg, &mut copy_in)?;
                    }
                    if matches!(p.direction, Direction::Out | Direction::InOut) {
                        assign(c, arg, &param, &mut copy_out)?;
                    }
                }
                // Left to the control plane: written from the entry.
                None => params.push(action_param(c, &param)?),
            }
        }
        let body = compile_stmts(c, &action.body)?;
        actions.push(ActionImpl {
            name: action.name.as_str().into(),
            params,
            copy_in,
            body,
            copy_out,
        });
    }
    Ok(Op::ApplyTable {
        slot,
        keys: Box::new(TableKeys {
            name: table.name.as_str().into(),
            keys,
            selector_keys,
        }),
        actions,
        key_words: None,
    })
}

/// Where an action's control-plane parameter `param` (an expression naming
/// it) lives, with its word form when it has one.
fn action_param(c: &mut Compiler<'_>, param: &ir::Expr) -> Result<ActionParam, CompileError> {
    let place = c.place(param)?;
    let word = match (&place, scalar_shape(&c.program.types, param.ty)) {
        (Place::Fixed { bit, .. }, Some((width, _))) if width <= SMALL_MAX_WIDTH => {
            Some(FieldWord::new(*bit, width))
        }
        _ => None,
    };
    Ok(ActionParam { place, word })
}
