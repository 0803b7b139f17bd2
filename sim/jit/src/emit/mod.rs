//! Ops to Cranelift IR to machine code.
//!
//! The code of a block is one function `(env, arena) -> flow`. Each op's
//! code either finishes normally, falling through to the next op's, or
//! ends its list with a flow other than [`Flow::Continue`] by jumping to
//! the flow target of the construct around it: the function's return for
//! the block, the end of the action for an action body (where `exit`
//! passes on and anything else ends the action), the construct's own
//! handler for an action's copies. The interpreter's rules for each
//! construct (see `janus_engine::exec::run`) are the rules here.
//!
//! A field is read as its [`FieldWord`] is: one 8-byte load at its first
//! byte, byte-swapped (the arena is big-endian), masked and shifted. Only
//! fields whose load lies inside the arena are compiled so; others, like
//! any op not compiled here, run in the interpreter.

mod word;

use crate::entry::{self, Entry, EntryWithWord};
use crate::flow_code::{CONTINUE, EXIT, REJECT};
use crate::{Coverage, JitError, flow_code};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    AbiParam, Block as Label, BlockArg, InstBuilder, MemFlagsData, SigRef, StackSlotData,
    StackSlotKind, Type, Value, types,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::Module;
use janus_engine::env::Env;
use janus_engine::eval::{Node, Place};
use janus_engine::exec::{ActionImpl, Cmp, Op, Test};
use janus_engine::externs::ExternArg;
use janus_engine::flow::Flow;
use janus_engine::value::FieldWord;
use std::ffi::c_void;
use std::mem::ManuallyDrop;

/// A block's machine code and the module that owns its memory.
pub(crate) struct Code {
    module: ManuallyDrop<JITModule>,
    entry: unsafe extern "C" fn(*mut c_void, *mut u8) -> i64,
}

// SAFETY: the code is immutable once finalised and keeps no state of its
// own: everything it touches comes through its arguments, so it may run on
// any thread, on several at once.
unsafe impl Send for Code {}
// SAFETY: as for `Send`.
unsafe impl Sync for Code {}

impl Code {
    /// Runs the code over `env`, whose arena has the size the code was
    /// checked against ([`crate::Block::run`] makes sure).
    #[inline]
    pub(crate) fn run(&self, env: &mut Env<'_>) -> Flow {
        let arena = env.arena.as_mut_ptr();
        let env = (env as *mut Env<'_>).cast::<c_void>();
        // SAFETY: the code accesses the arena only at offsets checked
        // against its size, and calls the entry points with `env` and items
        // of the block, which outlive it.
        flow_code::decode(unsafe { (self.entry)(env, arena) })
    }
}

impl Drop for Code {
    fn drop(&mut self) {
        // SAFETY: the code is never called again: it goes with its block.
        unsafe { ManuallyDrop::take(&mut self.module).free_memory() }
    }
}

/// Every op of `ops`, nested ones included, in order.
pub(crate) fn each_op(ops: &[Op], f: &mut impl FnMut(&Op)) {
    for op in ops {
        f(op);
        match op {
            Op::If(_, a, b) | Op::IfTest(_, a, b) => {
                each_op(a, f);
                each_op(b, f);
            }
            Op::Seq(ops) => each_op(ops, f),
            Op::Switch { bodies, .. } => bodies.iter().for_each(|b| each_op(b, f)),
            Op::Loop { body, update, .. } => {
                each_op(body, f);
                each_op(update, f);
            }
            Op::CallAction {
                copy_in,
                body,
                copy_out,
            } => {
                each_op(copy_in, f);
                each_op(body, f);
                each_op(copy_out, f);
            }
            Op::ApplyTable { actions, .. } => {
                for a in actions {
                    each_op(&a.copy_in, f);
                    each_op(&a.body, f);
                    each_op(&a.copy_out, f);
                }
            }
            Op::SubParser {
                copy_in, copy_out, ..
            } => {
                each_op(copy_in, f);
                each_op(copy_out, f);
            }
            _ => {}
        }
    }
}

/// Compiles `ops` for arenas of `arena_len` bytes; `None` when nothing in
/// them would run as machine code.
pub(crate) fn compile(ops: &[Op], arena_len: usize) -> Result<Option<(Code, Coverage)>, JitError> {
    if !ops.iter().any(|op| compiles(op, arena_len)) {
        return Ok(None);
    }
    let mut flags = settings::builder();
    // The verifier checks the IR built here: in debug builds (every test),
    // not at every load of a release build.
    let verify = if cfg!(debug_assertions) {
        "true"
    } else {
        "false"
    };
    for (flag, value) in [("opt_level", "speed"), ("enable_verifier", verify)] {
        flags
            .set(flag, value)
            .map_err(|e| JitError::Host(e.to_string()))?;
    }
    let isa = cranelift_native::builder()
        .map_err(|e| JitError::Host(e.to_string()))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| JitError::Host(e.to_string()))?;
    let mut module = JITModule::new(JITBuilder::with_isa(
        isa,
        cranelift_module::default_libcall_names(),
    ));
    let ptr = module.target_config().pointer_type();
    let mut ctx = module.make_context();
    ctx.func.signature.params.push(AbiParam::new(ptr));
    ctx.func.signature.params.push(AbiParam::new(ptr));
    ctx.func.signature.returns.push(AbiParam::new(types::I64));
    let mut entry_sig = module.make_signature();
    entry_sig.params.push(AbiParam::new(ptr));
    entry_sig.params.push(AbiParam::new(ptr));
    entry_sig.returns.push(AbiParam::new(types::I64));
    let mut fctx = FunctionBuilderContext::new();
    let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
    let mut word_sig = entry_sig.clone();
    word_sig.params.push(AbiParam::new(types::I64));
    let sig = b.import_signature(entry_sig);
    let word_sig = b.import_signature(word_sig);
    let start = b.create_block();
    b.append_block_params_for_function_params(start);
    b.switch_to_block(start);
    let (env, arena) = (b.block_params(start)[0], b.block_params(start)[1]);
    let mut e = Emitter {
        b,
        env,
        arena,
        ptr,
        sig,
        word_sig,
        arena_len,
        coverage: Coverage::default(),
    };
    let ret = e.flow_label();
    if e.list(ops, ret) {
        e.jump_flow(ret, CONTINUE);
    }
    e.b.switch_to_block(ret);
    let flow = e.b.block_params(ret)[0];
    e.b.ins().return_(&[flow]);
    e.b.seal_all_blocks();
    let coverage = e.coverage;
    e.b.finalize(module.target_config());
    let codegen = |e: &dyn std::fmt::Display| JitError::Codegen(e.to_string());
    let id = module
        .declare_anonymous_function(&ctx.func.signature)
        .map_err(|e| codegen(&e))?;
    module.define_function(id, &mut ctx).map_err(|e| match e {
        // The verifier's findings, which the error's text leaves out.
        cranelift_module::ModuleError::Compilation(e) => JitError::Codegen(format!("{e:?}")),
        e => codegen(&e),
    })?;
    module.clear_context(&mut ctx);
    module.finalize_definitions().map_err(|e| codegen(&e))?;
    let address = module.get_finalized_function(id);
    // SAFETY: the function was built with this signature.
    let entry = unsafe {
        std::mem::transmute::<*const u8, unsafe extern "C" fn(*mut c_void, *mut u8) -> i64>(address)
    };
    let code = Code {
        module: ManuallyDrop::new(module),
        entry,
    };
    Ok(Some((code, coverage)))
}

/// Whether `op` itself runs as machine code (not through the interpreter).
fn compiles(op: &Op, arena_len: usize) -> bool {
    let fits = |f: &FieldWord| fits(f, arena_len);
    match op {
        Op::SetWord { dst, .. } => fits(dst),
        Op::MoveWord { dst, src } | Op::AddWord { dst, src, .. } => fits(dst) && fits(src),
        Op::StoreWord { bit, value } => word::shape(value, arena_len)
            .is_some_and(|(width, _)| fits(&FieldWord::new(*bit, width))),
        Op::Copy {
            dst: Place::Fixed { bit: d, .. },
            src,
            bytes,
        } => match **src {
            Place::Fixed { bit: s, .. } => {
                let (d, s, n) = ((*d / 8) as usize, (s / 8) as usize, *bytes as usize);
                // Apart (or the same: a copy onto itself changes nothing),
                // so that copying front to back is a move.
                let apart = d + n <= s || s + n <= d || d == s;
                apart && d.max(s) + n <= arena_len && n <= MAX_INLINE_BYTES
            }
            _ => false,
        },
        Op::Zero {
            dst: Place::Fixed { bit, .. },
            bytes,
        } => {
            (*bit / 8) as usize + *bytes as usize <= arena_len
                && *bytes as usize <= MAX_INLINE_BYTES
        }
        Op::SetValidity {
            header: Place::Fixed { bit, .. },
            valid_byte,
            wire_bytes,
            ..
        } => {
            let base = (*bit / 8) as usize;
            base + (*wire_bytes as usize).max(*valid_byte as usize + 1) <= arena_len
        }
        Op::If(..)
        | Op::IfTest(..)
        | Op::Seq(_)
        | Op::CallAction { .. }
        | Op::Exit
        | Op::Return
        | Op::Break
        | Op::LoopContinue => true,
        Op::ApplyTable { key_words, .. } => key_words.is_some(),
        // A call into the architecture's handler, with the first argument
        // computed here when it is an unsigned word.
        Op::Extern { .. } => true,
        _ => false,
    }
}

/// The first argument of an extern call when it is an unsigned word the
/// code computes.
fn first_word(args: &[ExternArg], arena_len: usize) -> Option<&Node> {
    match args.first() {
        Some(ExternArg::Value(Node::Narrow(n))) => {
            matches!(word::shape(n, arena_len), Some((_, false))).then_some(&**n)
        }
        _ => None,
    }
}

/// The most bytes a copy or a clear compiles to loads and stores for
/// (inline, 8 at a time); longer ones run in the interpreter.
const MAX_INLINE_BYTES: usize = 512;

/// Whether the field's single load lies inside an arena of `arena_len`
/// bytes.
fn fits(f: &FieldWord, arena_len: usize) -> bool {
    f.load().is_some_and(|(at, ..)| {
        (at as usize)
            .checked_add(8)
            .is_some_and(|end| end <= arena_len)
    })
}

/// Whether the test's every access lies inside the arena.
fn test_fits(t: &Test, arena_len: usize) -> bool {
    match t {
        Test::Valid { byte, .. } => (*byte as usize) < arena_len,
        Test::Compare { field, .. } => fits(field, arena_len),
        Test::Fields { a, b, .. } => fits(a, arena_len) && fits(b, arena_len),
        Test::All(ts) | Test::Any(ts) => ts.iter().all(|t| test_fits(t, arena_len)),
    }
}

/// Arena loads and stores: never trapping (their offsets are checked),
/// unaligned, in the machine's byte order.
const ARENA: MemFlagsData = MemFlagsData::new().with_notrap();

/// Stack slot loads and stores: never trapping, aligned.
const STACK: MemFlagsData = MemFlagsData::new().with_notrap().with_aligned();

struct Emitter<'f> {
    b: FunctionBuilder<'f>,
    env: Value,
    arena: Value,
    ptr: Type,
    /// The entry points' signatures: [`Entry`], [`EntryWithWord`].
    sig: SigRef,
    word_sig: SigRef,
    arena_len: usize,
    coverage: Coverage,
}

impl Emitter<'_> {
    /// A new label taking a flow.
    fn flow_label(&mut self) -> Label {
        let l = self.b.create_block();
        self.b.append_block_param(l, types::I64);
        l
    }

    fn jump_flow(&mut self, target: Label, flow: i64) {
        let v = self.b.ins().iconst(types::I64, flow);
        self.b.ins().jump(target, &[BlockArg::Value(v)]);
    }

    /// Goes on in a new label.
    fn continue_in(&mut self, next: Label) {
        self.b.switch_to_block(next);
    }

    /// Jumps to `on_flow` with `flow` unless it is `Continue`; goes on
    /// after.
    fn stop_unless_continue(&mut self, flow: Value, on_flow: Label) {
        let next = self.b.create_block();
        self.b
            .ins()
            .brif(flow, on_flow, &[BlockArg::Value(flow)], next, &[]);
        self.continue_in(next);
    }

    /// Emits `ops`; gives whether the code after them is reachable.
    fn list(&mut self, ops: &[Op], on_flow: Label) -> bool {
        for op in ops {
            if !self.op(op, on_flow) {
                return false;
            }
        }
        true
    }

    /// Emits one op; gives whether the code after it is reachable.
    fn op(&mut self, op: &Op, on_flow: Label) -> bool {
        if !compiles(op, self.arena_len) {
            return self.interpreted(op, on_flow);
        }
        self.coverage.compiled += 1;
        match op {
            Op::SetWord { dst, value } => {
                let (_, mask, shift) = load_of(dst);
                let bits = value.wrapping_shl(shift) & mask;
                let x = self.load_be(dst);
                let x = self.b.ins().band_imm_s(x, !mask as i64);
                let x = self.b.ins().bor_imm_s(x, bits as i64);
                self.store_be(dst, x);
            }
            Op::MoveWord { dst, src } => {
                let v = self.read(src);
                self.write(dst, v);
            }
            Op::AddWord { dst, src, k } => {
                let v = self.read(src);
                let v = self.b.ins().iadd_imm_s(v, *k as i64);
                self.write(dst, v);
            }
            Op::StoreWord { bit, value } => {
                let v = self.word(value);
                self.write(&FieldWord::new(*bit, v.width), v.v);
            }
            Op::SetValidity {
                header: Place::Fixed { bit, .. },
                valid_byte,
                wire_bytes,
                valid,
            } => self.set_validity(*bit / 8, *valid_byte, *wire_bytes, *valid),
            Op::Copy {
                dst: Place::Fixed { bit: d, .. },
                src,
                bytes,
            } => {
                if let Place::Fixed { bit: s, .. } = **src {
                    self.copy(*d / 8, s / 8, *bytes);
                }
            }
            Op::Zero {
                dst: Place::Fixed { bit, .. },
                bytes,
            } => self.zero(*bit / 8, *bytes),
            Op::IfTest(t, a, b) => {
                let c = self.test(t);
                self.branch(c, a, b, on_flow);
            }
            Op::If(cond, a, b) => {
                let c = match &**cond {
                    Node::Narrow(n) if word::shape(n, self.arena_len).is_some() => self.word(n).v,
                    cond => self.call(entry::truth, std::ptr::from_ref(cond).cast()),
                };
                self.branch(c, a, b, on_flow);
            }
            Op::Seq(ops) => return self.list(ops, on_flow),
            Op::CallAction {
                copy_in,
                body,
                copy_out,
            } => self.action(copy_in, body, copy_out, true, on_flow),
            Op::ApplyTable { actions, .. } => self.apply(op, actions, on_flow),
            Op::Extern { args, .. } => {
                let item = std::ptr::from_ref(op).cast();
                let flow = match first_word(args, self.arena_len) {
                    Some(n) => {
                        let first = self.word(n).v;
                        self.call_with_word(entry::call_extern_with_first, item, first)
                    }
                    None => self.call(entry::call_extern, item),
                };
                self.stop_unless_continue(flow, on_flow);
            }
            Op::Exit => {
                self.jump_flow(on_flow, EXIT);
                return false;
            }
            Op::Return => {
                self.jump_flow(on_flow, flow_code::RETURN);
                return false;
            }
            Op::Break => {
                self.jump_flow(on_flow, flow_code::BREAK);
                return false;
            }
            Op::LoopContinue => {
                self.jump_flow(on_flow, flow_code::LOOP_CONTINUE);
                return false;
            }
            _ => {
                // `compiles` admits only the ops above.
                self.coverage.compiled -= 1;
                return self.interpreted(op, on_flow);
            }
        }
        true
    }

    /// An op the interpreter runs.
    fn interpreted(&mut self, op: &Op, on_flow: Label) -> bool {
        each_op(std::slice::from_ref(op), &mut |_| {
            self.coverage.interpreted += 1;
        });
        let flow = self.call(entry::run_op, std::ptr::from_ref(op).cast());
        self.stop_unless_continue(flow, on_flow);
        true
    }

    /// Calls an entry point with the environment and `item`.
    fn call(&mut self, f: Entry, item: *const c_void) -> Value {
        let f = self.b.ins().iconst(self.ptr, f as usize as i64);
        let item = self.b.ins().iconst(self.ptr, item as usize as i64);
        let call = self.b.ins().call_indirect(self.sig, f, &[self.env, item]);
        self.b.inst_results(call)[0]
    }

    /// Calls an entry point with the environment, `item` and a word.
    fn call_with_word(&mut self, f: EntryWithWord, item: *const c_void, word: Value) -> Value {
        let f = self.b.ins().iconst(self.ptr, f as usize as i64);
        let item = self.b.ins().iconst(self.ptr, item as usize as i64);
        let call = self
            .b
            .ins()
            .call_indirect(self.word_sig, f, &[self.env, item, word]);
        self.b.inst_results(call)[0]
    }

    /// `if (c) a else b`, `c` nonzero for true.
    fn branch(&mut self, c: Value, a: &[Op], b: &[Op], on_flow: Label) {
        let (then, other, merge) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(c, then, &[], other, &[]);
        for (label, ops) in [(then, a), (other, b)] {
            self.b.switch_to_block(label);
            if self.list(ops, on_flow) {
                self.b.ins().jump(merge, &[]);
            }
        }
        self.continue_in(merge);
    }

    /// An action run in place: the copies in (whose parser error, for a
    /// direct call, stops it), the body, the copies out; `exit` passes on,
    /// any other flow ends only the action.
    fn action(
        &mut self,
        copy_in: &[Op],
        body: &[Op],
        copy_out: &[Op],
        copy_in_rejects: bool,
        on_flow: Label,
    ) {
        if !copy_in.is_empty() {
            let (start, stopped) = (self.b.create_block(), self.flow_label());
            if self.list(copy_in, stopped) {
                self.b.ins().jump(start, &[]);
            }
            self.b.switch_to_block(stopped);
            let flow = self.b.block_params(stopped)[0];
            if copy_in_rejects {
                let rejected =
                    self.b
                        .ins()
                        .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, flow, REJECT);
                self.b
                    .ins()
                    .brif(rejected, on_flow, &[BlockArg::Value(flow)], start, &[]);
            } else {
                self.b.ins().jump(start, &[]);
            }
            self.continue_in(start);
        }
        let ended = self.flow_label();
        if self.list(body, ended) {
            self.jump_flow(ended, CONTINUE);
        }
        self.b.switch_to_block(ended);
        let flow = self.b.block_params(ended)[0];
        if !copy_out.is_empty() {
            let (done, stopped) = (self.b.create_block(), self.flow_label());
            if self.list(copy_out, stopped) {
                self.b.ins().jump(done, &[]);
            }
            self.b.switch_to_block(stopped);
            self.b.ins().jump(done, &[]);
            self.continue_in(done);
        }
        let exited = self.b.ins().icmp_imm_s(IntCC::Equal, flow, EXIT);
        let next = self.b.create_block();
        self.b
            .ins()
            .brif(exited, on_flow, &[BlockArg::Value(flow)], next, &[]);
        self.continue_in(next);
    }

    /// A table apply: the lookup in the interpreter, the chosen action (if
    /// it is left to run) here.
    fn apply(&mut self, op: &Op, actions: &[ActionImpl], on_flow: Label) {
        let item = std::ptr::from_ref(op).cast();
        let chosen = match op {
            Op::ApplyTable {
                key_words: Some(fields),
                ..
            } if fields.iter().all(|f| fits(f, self.arena_len)) => {
                let keys = self.read_keys(fields);
                self.call_with_word(entry::choose_action_with_keys, item, keys)
            }
            _ => self.call(entry::choose_action, item),
        };
        let (done, merge) = (self.b.create_block(), self.b.create_block());
        let mut switch = Switch::new();
        let mut bodies = Vec::new();
        for (i, imp) in actions.iter().enumerate() {
            if !imp.does_nothing() {
                let label = self.b.create_block();
                switch.set_entry(i as u128, label);
                bodies.push((label, imp));
            }
        }
        switch.emit(&mut self.b, chosen, done);
        for (label, imp) in bodies {
            self.b.switch_to_block(label);
            self.action(&imp.copy_in, &imp.body, &imp.copy_out, false, on_flow);
            self.b.ins().jump(merge, &[]);
        }
        // Not an action left to run: the op ran to its end, with `!flow`.
        self.b.switch_to_block(done);
        let ran = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, chosen, 0);
        let flow = self.b.ins().bnot(chosen);
        let zero = self.b.ins().iconst(types::I64, CONTINUE);
        let flow = self.b.ins().select(ran, flow, zero);
        self.stop_unless_continue(flow, on_flow);
        self.b.ins().jump(merge, &[]);
        self.continue_in(merge);
    }

    /// Reads `fields` into words on the stack; gives their address.
    fn read_keys(&mut self, fields: &[FieldWord]) -> Value {
        let slot = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            (8 * fields.len()).max(8) as u32,
            3,
        ));
        let at = self.b.ins().stack_addr(self.ptr, slot, 0);
        for (i, f) in fields.iter().enumerate() {
            let v = self.read(f);
            self.b.ins().store(STACK, v, at, (8 * i) as i32);
        }
        if self.ptr == types::I64 {
            at
        } else {
            self.b.ins().uextend(types::I64, at)
        }
    }

    /// `setValid()` (`valid`) or `setInvalid()` of the header whose bytes
    /// start at `base`: a change of state zeroes a header made valid and
    /// changes the packet's length by the header's wire size (through the
    /// environment); the flag is written either way.
    fn set_validity(&mut self, base: u32, valid_byte: u32, wire_bytes: u32, valid: bool) {
        let flag = (base + valid_byte) as i32;
        let was = self.b.ins().uload8(types::I32, ARENA, self.arena, flag);
        let cc = if valid { IntCC::Equal } else { IntCC::NotEqual };
        let changes = self.b.ins().icmp_imm_s(cc, was, 0);
        let (change, done) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(changes, change, &[], done, &[]);
        self.b.switch_to_block(change);
        if valid {
            self.zero(base, wire_bytes);
        }
        let delta = if valid {
            i64::from(wire_bytes)
        } else {
            -i64::from(wire_bytes)
        };
        self.call(entry::add_length, delta as usize as *const c_void);
        self.b.ins().jump(done, &[]);
        self.continue_in(done);
        let v = self.b.ins().iconst(types::I8, i64::from(valid));
        self.b.ins().store(ARENA, v, self.arena, flag);
    }

    /// Copies `bytes` bytes of the arena from `src` to `dst` (apart), 8 at
    /// a time.
    fn copy(&mut self, dst: u32, src: u32, bytes: u32) {
        let mut off = 0;
        while off < bytes {
            let ty = chunk(bytes - off);
            let v = self.b.ins().load(ty, ARENA, self.arena, (src + off) as i32);
            self.b.ins().store(ARENA, v, self.arena, (dst + off) as i32);
            off += ty.bytes();
        }
    }

    /// Zeroes `bytes` bytes of the arena from `at`, 8 at a time.
    fn zero(&mut self, at: u32, bytes: u32) {
        let zero = self.b.ins().iconst(types::I64, 0);
        let mut off = 0;
        while off < bytes {
            let ty = chunk(bytes - off);
            let v = if ty == types::I64 {
                zero
            } else {
                self.b.ins().ireduce(ty, zero)
            };
            self.b.ins().store(ARENA, v, self.arena, (at + off) as i32);
            off += ty.bytes();
        }
    }

    /// Whether the test holds: 1 or 0 (an `i8`).
    fn test(&mut self, t: &Test) -> Value {
        if !test_fits(t, self.arena_len) {
            let r = self.call(entry::test_holds, std::ptr::from_ref(t).cast());
            return self.b.ins().icmp_imm_s(IntCC::NotEqual, r, 0);
        }
        match t {
            Test::Valid { byte, valid } => {
                let x = self
                    .b
                    .ins()
                    .uload8(types::I32, ARENA, self.arena, *byte as i32);
                let cc = if *valid {
                    IntCC::NotEqual
                } else {
                    IntCC::Equal
                };
                self.b.ins().icmp_imm_s(cc, x, 0)
            }
            Test::Compare {
                field,
                flip,
                cmp,
                k,
            } => {
                let v = self.read_flipped(field, *flip);
                self.b.ins().icmp_imm_s(cc(*cmp), v, *k as i64)
            }
            Test::Fields { a, b, flip, cmp } => {
                let a = self.read_flipped(a, *flip);
                let b = self.read_flipped(b, *flip);
                self.b.ins().icmp(cc(*cmp), a, b)
            }
            Test::All(ts) => self.chain(ts, false),
            Test::Any(ts) => self.chain(ts, true),
        }
    }

    /// `&&` (`any` false) or `||` (`any` true) of tests, left to right
    /// until one decides.
    fn chain(&mut self, ts: &[Test], any: bool) -> Value {
        let done = self.b.create_block();
        self.b.append_block_param(done, types::I8);
        let decided = self.b.ins().iconst(types::I8, i64::from(any));
        for t in ts {
            let c = self.test(t);
            let next = self.b.create_block();
            let stop = [BlockArg::Value(decided)];
            if any {
                self.b.ins().brif(c, done, &stop, next, &[]);
            } else {
                self.b.ins().brif(c, next, &[], done, &stop);
            }
            self.continue_in(next);
        }
        // Every test went the other way.
        let last = self.b.ins().iconst(types::I8, i64::from(!any));
        self.b.ins().jump(done, &[BlockArg::Value(last)]);
        self.continue_in(done);
        self.b.block_params(done)[0]
    }

    fn read_flipped(&mut self, f: &FieldWord, flip: u64) -> Value {
        let v = self.read(f);
        if flip == 0 {
            v
        } else {
            self.b.ins().bxor_imm_s(v, flip as i64)
        }
    }

    /// The 8 bytes of a field's load as a big-endian word.
    fn load_be(&mut self, f: &FieldWord) -> Value {
        let (at, ..) = load_of(f);
        let x = self.b.ins().load(types::I64, ARENA, self.arena, at as i32);
        self.b.ins().bswap(x)
    }

    fn store_be(&mut self, f: &FieldWord, x: Value) {
        let (at, ..) = load_of(f);
        let x = self.b.ins().bswap(x);
        self.b.ins().store(ARENA, x, self.arena, at as i32);
    }

    /// The field's value, as [`FieldWord::read`].
    fn read(&mut self, f: &FieldWord) -> Value {
        let (_, mask, shift) = load_of(f);
        let x = self.load_be(f);
        let x = if mask == u64::MAX {
            x
        } else {
            self.b.ins().band_imm_s(x, mask as i64)
        };
        if shift == 0 {
            x
        } else {
            self.b.ins().ushr_imm_s(x, i64::from(shift))
        }
    }

    /// Writes the low bits of `v` as the field, as [`FieldWord::write`].
    fn write(&mut self, f: &FieldWord, v: Value) {
        let (_, mask, shift) = load_of(f);
        let x = self.load_be(f);
        let x = self.b.ins().band_imm_s(x, !mask as i64);
        let v = if shift == 0 {
            v
        } else {
            self.b.ins().ishl_imm_s(v, i64::from(shift))
        };
        let v = self.b.ins().band_imm_s(v, mask as i64);
        let x = self.b.ins().bor(x, v);
        self.store_be(f, x);
    }
}

/// The widest load or store of at most `left` bytes.
fn chunk(left: u32) -> Type {
    match left {
        8.. => types::I64,
        4.. => types::I32,
        2.. => types::I16,
        _ => types::I8,
    }
}

/// The load of a field [`fits`] admitted.
fn load_of(f: &FieldWord) -> (u32, u64, u32) {
    f.load().unwrap_or((0, 0, 0))
}

/// The condition code of an unsigned comparison.
fn cc(cmp: Cmp) -> IntCC {
    match cmp {
        Cmp::Eq => IntCC::Equal,
        Cmp::Ne => IntCC::NotEqual,
        Cmp::Lt => IntCC::UnsignedLessThan,
        Cmp::Le => IntCC::UnsignedLessThanOrEqual,
        Cmp::Gt => IntCC::UnsignedGreaterThan,
        Cmp::Ge => IntCC::UnsignedGreaterThanOrEqual,
    }
}
