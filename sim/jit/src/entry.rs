//! The interpreter's entry points the compiled code calls: each takes the
//! environment and one item of the block (an op, a test, a condition) by
//! address, and gives a word back.
//!
//! The addresses are of items inside the [`crate::Block`]'s ops, which
//! outlive the code; the environment is the one [`crate::Block::run`] was
//! given, lent to the code for the length of the call.

use crate::flow_code;
use janus_engine::env::Env;
use janus_engine::eval::Node;
use janus_engine::exec::{self, Chosen, Op, Test};
use std::ffi::c_void;

/// The signature of most entry points.
pub(crate) type Entry = extern "C" fn(*mut c_void, *const c_void) -> i64;

/// The signature of entry points that take a word the code computed.
pub(crate) type EntryWithWord = extern "C" fn(*mut c_void, *const c_void, u64) -> i64;

/// # Safety
/// `env` is the `&mut Env` of the running block and `item` points to a `T`
/// of that block, both live for the call.
unsafe fn parts<'e, T>(env: *mut c_void, item: *const c_void) -> (&'e mut Env<'e>, &'e T) {
    // SAFETY: as the caller promises.
    unsafe { (&mut *env.cast::<Env<'e>>(), &*item.cast::<T>()) }
}

/// Runs one op in the interpreter; gives its flow.
pub(crate) extern "C" fn run_op(env: *mut c_void, op: *const c_void) -> i64 {
    // SAFETY: the code passes its environment and an op of its block.
    let (env, op) = unsafe { parts::<Op>(env, op) };
    flow_code::encode(exec::run(std::slice::from_ref(op), env))
}

/// Calls the extern of an [`Op::Extern`]; gives its flow.
pub(crate) extern "C" fn call_extern(env: *mut c_void, op: *const c_void) -> i64 {
    // SAFETY: as for `run_op`.
    let (env, op) = unsafe { parts::<Op>(env, op) };
    let flow = match op {
        Op::Extern { id, args, result } => exec::call_extern(env, *id, args, result.as_deref()),
        op => exec::run(std::slice::from_ref(op), env),
    };
    flow_code::encode(flow)
}

/// [`call_extern`] with the first argument (an unsigned word) computed
/// by the code.
pub(crate) extern "C" fn call_extern_with_first(
    env: *mut c_void,
    op: *const c_void,
    first: u64,
) -> i64 {
    // SAFETY: as for `run_op`.
    let (env, op) = unsafe { parts::<Op>(env, op) };
    let flow = match op {
        Op::Extern { id, args, result } => {
            exec::call_extern_with_first(env, *id, first, args, result.as_deref())
        }
        op => exec::run(std::slice::from_ref(op), env),
    };
    flow_code::encode(flow)
}

/// [`exec::choose_action`]: the index of the action left to run, or the
/// flow of an op run to its end as `!flow`.
pub(crate) extern "C" fn choose_action(env: *mut c_void, op: *const c_void) -> i64 {
    // SAFETY: as for `run_op`.
    let (env, op) = unsafe { parts::<Op>(env, op) };
    match exec::choose_action(op, env) {
        Chosen::Run(a) => a as i64,
        Chosen::Done(flow) => !flow_code::encode(flow),
    }
}

/// [`exec::choose_action_with_keys`], the keys read by the code into the
/// words at address `keys` (one per key field of the apply).
pub(crate) extern "C" fn choose_action_with_keys(
    env: *mut c_void,
    op: *const c_void,
    keys: u64,
) -> i64 {
    // SAFETY: as for `run_op`.
    let (env, op) = unsafe { parts::<Op>(env, op) };
    let n = match op {
        Op::ApplyTable {
            key_words: Some(fields),
            ..
        } => fields.len(),
        _ => 0,
    };
    // SAFETY: the code passes the address of its `n` key words, live for
    // the call.
    let keys = unsafe { std::slice::from_raw_parts(keys as usize as *const u64, n) };
    match exec::choose_action_with_keys(op, keys, env) {
        Chosen::Run(a) => a as i64,
        Chosen::Done(flow) => !flow_code::encode(flow),
    }
}

/// Whether a specialised test holds (for a test the code does not inline).
pub(crate) extern "C" fn test_holds(env: *mut c_void, test: *const c_void) -> i64 {
    // SAFETY: the code passes its environment and a test of its block.
    let (env, test) = unsafe { parts::<Test>(env, test) };
    i64::from(test.holds(env))
}

/// Whether a condition (a general node) holds.
pub(crate) extern "C" fn truth(env: *mut c_void, node: *const c_void) -> i64 {
    // SAFETY: the code passes its environment and a node of its block.
    let (env, node) = unsafe { parts::<Node>(env, node) };
    i64::from(node.truth(env))
}

/// Adds `delta` (passed as the item's address) to the packet's length
/// change: a header made valid or invalid.
pub(crate) extern "C" fn add_length(env: *mut c_void, delta: *const c_void) -> i64 {
    // SAFETY: the code passes its environment.
    let env = unsafe { &mut *env.cast::<Env<'_>>() };
    env.length_delta += delta as usize as i64;
    0
}
