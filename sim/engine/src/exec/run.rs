//! The interpreter of [`Op`]s over one packet's [`Env`]: statement lists,
//! table applies with their actions, extracts and emits.

use super::ops::{
    ActionImpl, ActionParam, HeaderShape, NO_ERROR, Op, ParserErrors, REJECT_WITHOUT_ERROR,
    TableKeys,
};
use crate::env::{Env, copy_bits};
use crate::eval::{Node, Place, read_u32, write_u32};
use crate::externs::ExternArg;
use crate::flow::Flow;
use crate::value::{Bits, FieldWord, SMALL_MAX_WIDTH, read_word, write_word};

/// Runs compiled statements.
///
/// A list an op runs next in its own place (the taken branch of an `if` or
/// `switch`, a block, an action body without copies) runs without a call
/// of its own when the op is the last of its list: the list simply goes on
/// with it. An action body entered so ends at its `return` as at its end
/// (`exit` still ends the stage), which [`ended`] applies to the flow the
/// list ends with. Elsewhere the nested list runs in a call of `run`, and
/// an empty one not at all.
///
/// A list of a single extern call or run of emits (a v1model checksum
/// block, a deparser) runs without the interpreter's loop.
#[inline(never)]
pub fn run(ops: &[Op], env: &mut Env<'_>) -> Flow {
    match ops {
        [op @ (Op::Extern { .. } | Op::EmitFixedRun(_))] => run_leaf(op, env),
        _ => run_list(ops, env),
    }
}

/// [`run`] of a list holding only `op`, an extern call or a run of emits.
#[inline(never)]
fn run_leaf(op: &Op, env: &mut Env<'_>) -> Flow {
    match op {
        Op::Extern { id, args, result } => call_extern(env, *id, args, result.as_deref()),
        Op::EmitFixedRun(r) => {
            r.emit(env);
            Flow::Continue
        }
        op => run_list(std::slice::from_ref(op), env),
    }
}

/// [`run`] of any list.
fn run_list(ops: &[Op], env: &mut Env<'_>) -> Flow {
    let mut ops = ops.iter();
    // Whether the ops now running are (the tail of) an action body taken
    // from a tail position.
    let mut in_action = false;
    while let Some(op) = ops.next() {
        match step(op, env) {
            Step::Next => {}
            Step::Stop(flow) => return ended(flow, in_action),
            Step::Branch(list) => {
                if ops.as_slice().is_empty() {
                    ops = list.iter();
                } else if !list.is_empty() {
                    let flow = run(list, env);
                    if flow != Flow::Continue {
                        return ended(flow, in_action);
                    }
                }
            }
            Step::Body(body) => {
                if ops.as_slice().is_empty() {
                    ops = body.iter();
                    in_action = true;
                } else if !body.is_empty() && run_body(body, env) == Flow::Exit {
                    return Flow::Exit;
                }
            }
        }
    }
    Flow::Continue
}

/// [`run`] of an action body not in tail position: its leading stores and
/// extern calls (often all of it: an ACL's `count(); flag = 1;`) in a loop
/// of their own, whose frame is smaller than [`run_list`]'s; the rest, from
/// the first op of another kind, by [`run_list`].
#[inline(never)]
fn run_body(body: &[Op], env: &mut Env<'_>) -> Flow {
    for (i, op) in body.iter().enumerate() {
        match op {
            Op::SetWord { dst, value } => dst.write(env.arena, *value),
            Op::MoveWord { dst, src } => {
                let v = src.read(env.arena);
                dst.write(env.arena, v);
            }
            Op::Extern { id, args, result } => {
                let flow = call_extern(env, *id, args, result.as_deref());
                if flow != Flow::Continue {
                    return flow;
                }
            }
            _ => return run_list(body.get(i..).unwrap_or_default(), env),
        }
    }
    Flow::Continue
}

/// The flow a list run by [`run`] ends with: inside an action body taken
/// from a tail position only `exit` leaves it, as [`run_action`] gives.
#[inline(always)]
fn ended(flow: Flow, in_action: bool) -> Flow {
    if in_action && flow != Flow::Exit {
        Flow::Continue
    } else {
        flow
    }
}

/// What running one op leaves to [`run`].
enum Step<'o> {
    /// Go on with the next op.
    Next,
    /// The list ends with this flow (never [`Flow::Continue`]).
    Stop(Flow),
    /// Run this list next, its flow the op's (a branch, a block).
    Branch(&'o [Op]),
    /// Run this action body next (its arguments in place, no copies): its
    /// `exit` ends the stage, anything else only the action.
    Body(&'o [Op]),
}

/// [`Step::Next`] for [`Flow::Continue`], else [`Step::Stop`].
#[inline(always)]
fn stop_on(flow: Flow) -> Step<'static> {
    match flow {
        Flow::Continue => Step::Next,
        flow => Step::Stop(flow),
    }
}

/// Runs one op, or tells [`run`] which list to run in its place.
#[inline(always)]
fn step<'o>(op: &'o Op, env: &mut Env<'_>) -> Step<'o> {
    match op {
        Op::SetWord { dst, value } => dst.write(env.arena, *value),
        Op::MoveWord { dst, src } => {
            let v = src.read(env.arena);
            dst.write(env.arena, v);
        }
        Op::AddWord { dst, src, k } => {
            let v = src.read(env.arena).wrapping_add(*k);
            dst.write(env.arena, v);
        }
        Op::StoreWord { bit, value } => {
            let v = value.eval_word(env);
            write_word(env.arena, *bit as usize, v.width, v.v);
        }
        Op::IfTest(t, a, b) => return Step::Branch(if t.holds(env) { a } else { b }),
        Op::ExtractFixed(h) => return stop_on(h.extract(env)),
        Op::EmitFixed(h) => h.emit(env),
        Op::EmitFixedRun(r) => r.emit(env),
        Op::Store {
            place,
            value: Node::Narrow(value),
        } => {
            let v = value.eval_word(env);
            if let Some(bit) = place.resolve(env) {
                write_word(env.arena, bit as usize, v.width, v.v);
            }
        }
        Op::Store { place, value } => {
            let v = value.eval(env);
            if let Some(bit) = place.resolve(env) {
                v.write_bits(env.arena, bit as usize);
            }
        }
        Op::Copy { dst, src, bytes } => {
            if let (Some(d), Some(s)) = (dst.resolve(env), src.resolve(env)) {
                let (d, s) = ((d / 8) as usize, (s / 8) as usize);
                env.arena.copy_within(s..s + *bytes as usize, d);
            }
        }
        Op::Zero { dst, bytes } => {
            if let Some(d) = dst.resolve(env) {
                let d = (d / 8) as usize;
                env.arena[d..d + *bytes as usize].fill(0);
            }
        }
        Op::SetValidity {
            header,
            valid_byte,
            wire_bytes,
            valid,
        } => {
            if let Some(bit) = header.resolve(env) {
                let base = (bit / 8) as usize;
                let flag = base + *valid_byte as usize;
                let was_valid = env.arena[flag] != 0;
                if *valid && !was_valid {
                    env.arena[base..base + *wire_bytes as usize].fill(0);
                    env.length_delta += i64::from(*wire_bytes);
                } else if !*valid && was_valid {
                    env.length_delta -= i64::from(*wire_bytes);
                }
                env.arena[flag] = u8::from(*valid);
            }
        }
        Op::StackShift {
            stack,
            stride,
            size,
            elem_valid_bytes,
            next_index,
            count,
        } => {
            if let Some(bit) = stack.resolve(env) {
                stack_shift(
                    env.arena,
                    (bit / 8) as usize,
                    *stride as usize,
                    *size as usize,
                    elem_valid_bytes,
                    *next_index as usize,
                    *count,
                );
            }
        }
        Op::If(cond, a, b) => return Step::Branch(if cond.truth(env) { a } else { b }),
        Op::Seq(ops) => return Step::Branch(ops),
        Op::Switch {
            subject,
            cases,
            default,
            bodies,
        } => {
            let v = subject.eval(env);
            let chosen = cases
                .iter()
                .find(|(labels, _)| labels.contains(&v))
                .map(|(_, b)| *b)
                .or(*default);
            if let Some(b) = chosen {
                return Step::Branch(&bodies[b]);
            }
        }
        Op::Loop { cond, body, update } => loop {
            if let Some(c) = cond
                && !c.truth(env)
            {
                break;
            }
            match run(body, env) {
                Flow::Break => break,
                flow @ (Flow::Return | Flow::Exit | Flow::Reject(_)) => return Step::Stop(flow),
                Flow::Continue | Flow::LoopContinue => {}
            }
            run(update, env);
        },
        Op::CallAction {
            copy_in,
            body,
            copy_out,
        } if copy_in.is_empty() && copy_out.is_empty() => return Step::Body(body),
        Op::CallAction {
            copy_in,
            body,
            copy_out,
        } => {
            // `exit` ends the callers too, but each block exited still
            // copies out its `out` and `inout` arguments (P4_16, `exit`).
            // Empty lists are skipped without a call.
            if !copy_in.is_empty() {
                // A parser error in an argument (a `lookahead` past the
                // packet's end) stops the call before it starts.
                if let flow @ Flow::Reject(_) = run(copy_in, env) {
                    return Step::Stop(flow);
                }
            }
            let flow = if body.is_empty() {
                Flow::Continue
            } else {
                run(body, env)
            };
            if !copy_out.is_empty() {
                run(copy_out, env);
            }
            if flow == Flow::Exit {
                return Step::Stop(Flow::Exit);
            }
        }
        Op::Exit => return Step::Stop(Flow::Exit),
        Op::Return => return Step::Stop(Flow::Return),
        Op::Break => return Step::Stop(Flow::Break),
        Op::LoopContinue => return Step::Stop(Flow::LoopContinue),
        Op::Extract {
            header,
            shape,
            varbit_len,
            next_index,
            errors,
        } => {
            return stop_on(extract(
                env,
                header,
                shape,
                varbit_len.as_deref(),
                *next_index,
                errors,
            ));
        }
        Op::Peek {
            header,
            shape,
            errors,
        } => {
            let cursor = env.cursor;
            let flow = extract(env, header, shape, None, None, errors);
            env.cursor = cursor;
            return stop_on(flow);
        }
        Op::Advance {
            bits,
            too_short,
            invalid,
        } => {
            // As bmv2: an amount that is not a whole number of bytes is
            // ParserInvalidArgument, checked before the packet's length.
            let n = bits.eval(env).to_u64().unwrap_or(u64::MAX);
            if *invalid != NO_ERROR && !n.is_multiple_of(8) {
                return Step::Stop(Flow::Reject(*invalid));
            }
            if n > env.remaining_bits() as u64 {
                return Step::Stop(Flow::Reject(*too_short));
            }
            env.cursor += n as usize;
        }
        Op::Require { bits, too_short } => {
            if (*bits as usize) > env.remaining_bits() {
                return Step::Stop(Flow::Reject(*too_short));
            }
        }
        Op::Verify { cond, error } => {
            if !cond.truth(env) {
                return Step::Stop(Flow::Reject(error.eval(env).as_u64_truncated() as u32));
            }
        }
        Op::Emit { header, shape } => emit_header(env, header, shape),
        Op::ApplyTable {
            slot,
            keys,
            actions,
            key_words,
        } => {
            let chosen = match key_words {
                Some(fields) => apply_fixed(env, *slot, fields, actions),
                None => None,
            };
            return match chosen.map(|a| a.and_then(|a| actions.get(a))) {
                Some(None) => Step::Next,
                Some(Some(imp)) if imp.copy_in.is_empty() && imp.copy_out.is_empty() => {
                    Step::Body(&imp.body)
                }
                Some(Some(imp)) => stop_on(run_copied(env, imp)),
                None => stop_on(apply(env, *slot, keys, actions)),
            };
        }
        Op::SubParser {
            copy_in,
            parser,
            copy_out,
        } => {
            run(copy_in, env);
            let outcome = crate::parser::run_parser(parser, env);
            // Copy-out happens on reject as on accept (what p4c's inlining
            // of sub-parsers gives on bmv2): the caller keeps what the
            // sub-parser extracted, then rejects with its error.
            run(copy_out, env);
            match outcome {
                crate::parser::Outcome::Accept => {}
                crate::parser::Outcome::Reject(Some(e)) => return Step::Stop(Flow::Reject(e)),
                crate::parser::Outcome::Reject(None) => {
                    return Step::Stop(Flow::Reject(REJECT_WITHOUT_ERROR));
                }
            }
        }
        Op::Extern { id, args, result } => {
            return stop_on(call_extern(env, *id, args, result.as_deref()));
        }
    }
    Step::Next
}

/// Calls extern `id` of the architecture with `args`, its result (if any)
/// to `result`.
#[inline(always)]
pub fn call_extern(env: &mut Env<'_>, id: u32, args: &[ExternArg], result: Option<&Place>) -> Flow {
    // The handler needs the environment too: lend it out for the call.
    let Some(handler) = env.externs.take() else {
        return Flow::Continue;
    };
    let flow = handler.call(id, args, result, env);
    env.externs = Some(handler);
    flow
}

/// [`call_extern`] whose first argument, an unsigned value of at most 64
/// bits, is already evaluated to `first`
/// ([`crate::externs::ExternHandler::call_with_first`]).
#[inline(always)]
pub fn call_extern_with_first(
    env: &mut Env<'_>,
    id: u32,
    first: u64,
    args: &[ExternArg],
    result: Option<&Place>,
) -> Flow {
    let Some(handler) = env.externs.take() else {
        return Flow::Continue;
    };
    let flow = handler.call_with_first(id, first, args, result, env);
    env.externs = Some(handler);
    flow
}

/// Most keys a table lookup evaluates without allocating.
pub(super) const INLINE_KEYS: usize = 8;

/// A table key as [`apply_key`] looks it up.
#[derive(Clone, Copy)]
enum Key<'a> {
    /// The key values (wide keys, and traced applies).
    Bits(&'a [Bits]),
    /// One word per key field: every field has at most 64 bits.
    Words(&'a [u64]),
}

/// Runs `t.apply()`: the entry's action with its arguments, or the default.
/// When every key is narrow, and so is the table, the keys are evaluated to
/// words on the stack and looked up as such (unless tracing, which shows
/// the values).
fn apply(env: &mut Env<'_>, slot: u32, table: &TableKeys, actions: &[ActionImpl]) -> Flow {
    let TableKeys {
        name,
        keys,
        selector_keys,
    } = table;
    let on_words = !env.trace
        && keys.len() <= INLINE_KEYS
        && keys.iter().all(|k| matches!(k, Node::Narrow(_)))
        && env
            .tables
            .get(slot as usize)
            .is_some_and(crate::table::TableState::is_narrow);
    if !on_words {
        return apply_on_values(env, slot, name, keys, selector_keys, actions);
    }
    let mut words = [0u64; INLINE_KEYS];
    for (w, k) in words.iter_mut().zip(keys) {
        if let Node::Narrow(n) = k {
            *w = key_word(n, env);
        }
    }
    let key = Key::Words(&words[..keys.len()]);
    with_values(selector_keys, env, |env, selector| {
        apply_key(env, slot, name, (key, selector), actions)
    })
}

/// The value of a narrow key node as a word. A load of a fixed place, the
/// usual key, is read here rather than through a call of
/// [`Node::eval_word`].
#[inline(always)]
fn key_word(n: &Node, env: &Env<'_>) -> u64 {
    match n {
        Node::LoadFixed { bit, width, .. } => read_word(env.arena, *bit as usize, *width),
        _ => n.eval_word(env).v,
    }
}

/// [`apply`] on key values: for wide keys, and when tracing.
#[inline(never)]
fn apply_on_values(
    env: &mut Env<'_>,
    slot: u32,
    name: &str,
    keys: &[Node],
    selector_keys: &[Node],
    actions: &[ActionImpl],
) -> Flow {
    with_values(keys, env, |env, key| {
        with_values(selector_keys, env, |env, selector| {
            apply_key(env, slot, name, (Key::Bits(key), selector), actions)
        })
    })
}

/// Evaluates `keys` and passes their values to `f`; up to [`INLINE_KEYS`]
/// values live on the stack (no allocation for the usual key sizes).
pub(crate) fn with_values<R>(
    keys: &[Node],
    env: &mut Env<'_>,
    f: impl FnOnce(&mut Env<'_>, &[Bits]) -> R,
) -> R {
    if keys.is_empty() {
        return f(env, &[]);
    }
    if keys.len() <= INLINE_KEYS {
        let mut inline: [Bits; INLINE_KEYS] = std::array::from_fn(|_| Bits::zero(0, false));
        for (dst, k) in inline.iter_mut().zip(keys) {
            *dst = k.eval(env);
        }
        f(env, &inline[..keys.len()])
    } else {
        let spilled: Vec<Bits> = keys.iter().map(|k| k.eval(env)).collect();
        f(env, &spilled)
    }
}

/// What [`choose_action`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chosen {
    /// The table was looked up, its result recorded and the arguments of
    /// the action at this index of its list written: the caller runs the
    /// action (its copies and body).
    Run(usize),
    /// The op ran to its end with this flow.
    Done(Flow),
}

/// Runs `op` but, when it is a table apply on the fast path, for its
/// action: an apply of a direct table of narrow fixed keys stops once its
/// action is chosen and the action's control-plane arguments written,
/// leaving a compiled caller to run the action (see [`Chosen::Run`]);
/// anything else runs as [`run`] runs it.
pub fn choose_action(op: &Op, env: &mut Env<'_>) -> Chosen {
    if let Op::ApplyTable {
        slot,
        actions,
        key_words: Some(fields),
        ..
    } = op
        && let Some(chosen) = apply_fixed(env, *slot, fields, actions)
    {
        return match chosen {
            Some(a) => Chosen::Run(a),
            None => Chosen::Done(Flow::Continue),
        };
    }
    Chosen::Done(run(std::slice::from_ref(op), env))
}

/// [`apply`] of a table whose keys are fixed fields (`fields`, see
/// [`Op::ApplyTable`]'s `key_words`): the keys read with one word load
/// each, looked up as words, the result recorded and the chosen action's
/// control-plane arguments written; gives the index of the action left to
/// run (`None` for none, or one that does nothing), which [`run`] runs in
/// the apply's place. `None`, with nothing done, when tracing, or when the
/// table is not narrow or may point into an action profile: [`apply`]
/// serves those.
#[inline(always)]
fn apply_fixed(
    env: &mut Env<'_>,
    slot: u32,
    fields: &[FieldWord],
    actions: &[ActionImpl],
) -> Option<Option<usize>> {
    if fields.len() > INLINE_KEYS {
        return None;
    }
    let mut words = [0u64; INLINE_KEYS];
    for (w, f) in words.iter_mut().zip(fields) {
        *w = f.read(env.arena);
    }
    apply_words(env, slot, &words[..fields.len()], actions)
}

/// Runs `op`, a table apply on the fast path whose keys (`key_words`) the
/// caller has read into `keys`, for its action, as [`choose_action`]
/// does.
pub fn choose_action_with_keys(op: &Op, keys: &[u64], env: &mut Env<'_>) -> Chosen {
    if let Op::ApplyTable {
        slot,
        actions,
        key_words: Some(fields),
        ..
    } = op
        && fields.len() == keys.len()
        && let Some(chosen) = apply_words(env, *slot, keys, actions)
    {
        return match chosen {
            Some(a) => Chosen::Run(a),
            None => Chosen::Done(Flow::Continue),
        };
    }
    Chosen::Done(run(std::slice::from_ref(op), env))
}

/// [`apply_fixed`] on the keys as read.
#[inline(always)]
fn apply_words(
    env: &mut Env<'_>,
    slot: u32,
    keys: &[u64],
    actions: &[ActionImpl],
) -> Option<Option<usize>> {
    let tables = env.tables;
    let table = tables.get(slot as usize)?;
    if env.trace || !table.is_narrow() || !table.is_direct() {
        return None;
    }
    let found = table
        .lookup_words(keys)
        .and_then(|i| Some((i, table.entry(i)?)));
    let (a, args) = match found {
        Some((i, e)) => {
            table.count_hit(i, env.packet_bytes, env.now_us);
            if table.hit_hook {
                notify_hit(env, slot, i);
            }
            record(env, slot, true, e.action, i);
            (e.action, &e.args)
        }
        None => match &table.default {
            Some((a, args)) => {
                record(env, slot, false, *a, u32::MAX);
                (*a, args)
            }
            None => {
                record(env, slot, false, usize::MAX, u32::MAX);
                return Some(None);
            }
        },
    };
    Some(match actions.get(a) {
        Some(imp) if !imp.does_nothing() => {
            write_params(env, imp, args);
            Some(a)
        }
        _ => None,
    })
}

/// Tells the architecture that entry `entry` of the table at `slot` matched.
#[cold]
fn notify_hit(env: &mut Env<'_>, slot: u32, entry: u32) {
    if let Some(handler) = env.externs.take() {
        handler.table_hit(slot, entry, env);
        env.externs = Some(handler);
    }
}

/// Records the result of the apply of the table at `slot`: hit or miss,
/// the action that ran (index in the list; `usize::MAX` for none), the
/// entry that matched (`u32::MAX` for none).
#[inline]
fn record(env: &mut Env<'_>, slot: u32, hit: bool, action: usize, entry: u32) {
    if let Some(r) = env.results.get_mut(slot as usize) {
        *r = crate::env::ApplyResult {
            hit,
            action: action as u32,
            entry,
        };
    }
}

/// Looks `key` up in the table at `slot` and runs the chosen action; for
/// an entry pointing into an action profile, the member (or the member of
/// the group that a hash of the `selector` values picks) gives the action;
/// an empty or missing group counts as a miss. A one-shot group's group
/// action ([`crate::profile::ActionProfile::group_action`]) runs first, on
/// every hit of the group (an `exit` in it ends the stage before the
/// member's action); the member's action is the one recorded
/// (`action_run`).
fn apply_key(
    env: &mut Env<'_>,
    slot: u32,
    name: &str,
    (key, selector): (Key<'_>, &[Bits]),
    actions: &[ActionImpl],
) -> Flow {
    let (tables, profiles) = (env.tables, env.profiles);
    let Some(table) = tables.get(slot as usize) else {
        return Flow::Continue;
    };
    let index = match key {
        Key::Bits(key) => table.lookup_index(key),
        Key::Words(key) => table.lookup_words(key),
    };
    let mut group_action = None;
    let found = index.and_then(|i| {
        let e = table.entry(i)?;
        let chosen = match table.target(i) {
            None => (e.action, &e.args),
            Some(target) => {
                let profile = profiles.get(table.profile? as usize)?;
                let m = profile.resolve(target, selector)?;
                group_action = profile.group_action(target);
                (m.action, &m.args)
            }
        };
        Some((i, chosen))
    });
    let (hit, chosen) = match found {
        Some((i, chosen)) => {
            table.count_hit(i, env.packet_bytes, env.now_us);
            if table.hit_hook {
                notify_hit(env, slot, i);
            }
            (true, Some(chosen))
        }
        None => (false, table.default.as_ref().map(|(a, args)| (*a, args))),
    };
    let action = chosen.map_or(usize::MAX, |(a, _)| a);
    record(env, slot, hit, action, found.map_or(u32::MAX, |(i, _)| i));
    let Some((a, args)) = chosen else {
        return Flow::Continue;
    };
    let Some(imp) = actions.get(a) else {
        return Flow::Continue;
    };
    if env.trace
        && let Key::Bits(key) = key
    {
        trace_apply(name, key, hit, &imp.name, args);
    }
    if let Some(g) = group_action
        && let Some(group) = actions.get(g.action)
    {
        if env.trace {
            trace_group_action(name, &group.name, &g.args);
        }
        if run_action(env, group, &g.args) == Flow::Exit {
            return Flow::Exit;
        }
    }
    run_action(env, imp, args)
}

/// Runs a table's action: its control-plane arguments written, then
/// [`run_copied`].
#[inline(always)]
fn run_action(env: &mut Env<'_>, imp: &ActionImpl, args: &[Bits]) -> Flow {
    write_params(env, imp, args);
    run_copied(env, imp)
}

/// Runs a table's action whose control-plane arguments are in place: the
/// data-plane ones copied in, the body, the results copied out; `exit`
/// ends the stage, anything else only the action. Empty lists are skipped
/// without a call.
#[inline(always)]
fn run_copied(env: &mut Env<'_>, imp: &ActionImpl) -> Flow {
    if !imp.copy_in.is_empty() {
        run(&imp.copy_in, env);
    }
    let flow = if imp.body.is_empty() {
        Flow::Continue
    } else {
        run(&imp.body, env)
    };
    if !imp.copy_out.is_empty() {
        run(&imp.copy_out, env);
    }
    if flow == Flow::Exit {
        return Flow::Exit;
    }
    Flow::Continue
}

/// Writes a table's control-plane arguments `args` to the parameters of
/// action `imp`.
#[inline(always)]
fn write_params(env: &mut Env<'_>, imp: &ActionImpl, args: &[Bits]) {
    for (param, arg) in imp.params.iter().zip(args) {
        write_param(env, param, arg);
    }
}

/// Writes a control-plane argument to its parameter: one word store when
/// the parameter has a word form of the argument's width, else as
/// [`write_arg`].
#[inline(always)]
pub(super) fn write_param(env: &mut Env<'_>, param: &ActionParam, arg: &Bits) {
    match param.word {
        Some(w) if w.width() == arg.width() => w.write(env.arena, arg.as_u64_truncated()),
        _ => write_arg(env, &param.place, arg),
    }
}

/// Writes an action's control-plane argument to its parameter: a value of
/// at most 64 bits to a fixed place as a word.
#[inline(never)]
pub(super) fn write_arg(env: &mut Env<'_>, place: &Place, arg: &Bits) {
    match place {
        Place::Fixed { bit, .. } if arg.width() <= SMALL_MAX_WIDTH => {
            write_word(
                env.arena,
                *bit as usize,
                arg.width(),
                arg.as_u64_truncated(),
            );
        }
        _ => {
            if let Some(bit) = place.resolve(env) {
                arg.write_bits(env.arena, bit as usize);
            }
        }
    }
}

/// A one-shot group's group action, when tracing.
#[cold]
fn trace_group_action(table: &str, action: &str, args: &[Bits]) {
    let args: Vec<String> = args.iter().map(Bits::to_string).collect();
    tracing::info!(
        target: "janus::trace",
        table,
        action,
        args = %args.join(", "),
        "group action"
    );
}

/// A table's key, result and action, when tracing.
#[cold]
fn trace_apply(table: &str, key: &[Bits], hit: bool, action: &str, args: &[Bits]) {
    let key: Vec<String> = key.iter().map(Bits::to_string).collect();
    let args: Vec<String> = args.iter().map(Bits::to_string).collect();
    tracing::info!(
        target: "janus::trace",
        table,
        key = %key.join(", "),
        hit,
        action,
        args = %args.join(", "),
        "table"
    );
}

/// Extracts a header from the packet at the cursor into the arena. The
/// varbit field, if any, takes `varbit_len` bits; the fields after it keep
/// their static place after the varbit's maximum.
fn extract(
    env: &mut Env<'_>,
    header: &Place,
    shape: &HeaderShape,
    varbit_len: Option<&Node>,
    next_index: Option<u32>,
    errors: &ParserErrors,
) -> Flow {
    let Some(at) = header.resolve(env) else {
        return Flow::Reject(errors.stack_out_of_bounds);
    };
    let at = at as usize;
    let base = at / 8;
    match (&shape.varbit, varbit_len) {
        (Some(v), Some(len)) => {
            // As bmv2's `extract_VL`: a length that is not a whole number
            // of bytes is ParserInvalidArgument; then the packet must hold
            // the bits asked for (PacketTooShort) before the length is
            // checked against the field's maximum (HeaderTooShort), as the
            // P4_16 extract pseudo-code orders them.
            let len = len.eval(env).to_u64().unwrap_or(u64::MAX);
            if !len.is_multiple_of(8) {
                return Flow::Reject(errors.invalid_argument);
            }
            let (pre, max) = (v.at as usize, v.max as usize);
            let post = shape.wire_bits as usize - pre - max;
            let needed = usize::try_from(len).map_or(usize::MAX, |l| l.saturating_add(pre + post));
            if needed > env.remaining_bits() {
                return Flow::Reject(errors.packet_too_short);
            }
            if len > v.max as u64 {
                return Flow::Reject(errors.header_too_short);
            }
            let len = len as usize;
            let c = env.cursor;
            copy_bits(env.input, c, env.arena, at, pre);
            copy_bits(env.input, c + pre, env.arena, at + pre, len);
            copy_bits(env.input, c + pre + len, env.arena, at + pre + max, post);
            write_u32(env.arena, base as u32 + v.len_byte, len as u32);
            env.cursor += pre + len + post;
        }
        _ => {
            let n = shape.wire_bits as usize - shape.varbit.as_ref().map_or(0, |v| v.max as usize);
            if n > env.remaining_bits() {
                return Flow::Reject(errors.packet_too_short);
            }
            copy_bits(env.input, env.cursor, env.arena, at, n);
            env.cursor += n;
        }
    }
    env.arena[base + shape.valid_byte as usize] = 1;
    if let Some(b) = next_index {
        let next = read_u32(env.arena, b);
        write_u32(env.arena, b, next + 1);
    }
    Flow::Continue
}

/// Appends a valid header's wire bits to the output.
fn emit_header(env: &mut Env<'_>, header: &Place, shape: &HeaderShape) {
    let Some(at) = header.resolve(env) else {
        return;
    };
    let at = at as usize;
    let base = at / 8;
    if env.arena[base + shape.valid_byte as usize] == 0 {
        return;
    }
    match &shape.varbit {
        Some(v) => {
            let len = read_u32(env.arena, base as u32 + v.len_byte) as usize;
            let (pre, max) = (v.at as usize, v.max as usize);
            let post = shape.wire_bits as usize - pre - max;
            env.emit_bits(false, at, pre);
            env.emit_bits(false, at + pre, len.min(max));
            env.emit_bits(false, at + pre + max, post);
        }
        None => env.emit_bits(false, at, shape.wire_bits as usize),
    }
}

/// `push_front(count)` (count > 0) or `pop_front(-count)` on a stack at
/// byte `base`: elements move, freed ones become invalid, and `nextIndex`
/// moves with them (clamped to the stack).
fn stack_shift(
    arena: &mut [u8],
    base: usize,
    stride: usize,
    size: usize,
    valid: &[u32],
    next: usize,
    count: i64,
) {
    let invalidate = |arena: &mut [u8], elem: usize| {
        for v in valid {
            arena[base + elem * stride + *v as usize] = 0;
        }
    };
    let n = count.unsigned_abs().min(size as u64) as usize;
    let elems = base..base + stride * size;
    if count > 0 {
        arena.copy_within(
            elems.start..elems.end - stride * n,
            elems.start + stride * n,
        );
        for i in 0..n {
            invalidate(arena, i);
        }
    } else {
        arena.copy_within(elems.start + stride * n..elems.end, elems.start);
        for i in size - n..size {
            invalidate(arena, i);
        }
    }
    let at = base + next;
    let current =
        u32::from_be_bytes([arena[at], arena[at + 1], arena[at + 2], arena[at + 3]]) as i64;
    let moved = (current + count.clamp(-(size as i64), size as i64)).clamp(0, size as i64) as u32;
    arena[at..at + 4].copy_from_slice(&moved.to_be_bytes());
}
