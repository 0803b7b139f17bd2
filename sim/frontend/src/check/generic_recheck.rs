//! Generic parsers, controls and functions checked again per use, as p4c
//! specialises them and type checks the copies: a body that passes with
//! its type parameters abstract may still be wrong for the concrete types
//! of an instance or call (`x = x + 1` with `T = bool`, `extract(x)` of a
//! struct).
//!
//! Each distinct (declaration, type arguments) pair is checked once, in the
//! scope of the declaration, with the type parameters bound to the
//! arguments; its errors are kept (with a note naming the use), its
//! warnings and everything else it produced are dropped.

use super::{Binding, Checker, Context};
use crate::ast;
use crate::diag::Diagnostic;
use crate::source::Span;
use crate::types::{Ty, TyId};
use std::collections::HashMap;
use std::rc::Rc;

/// Re-checks stop beyond this many per program (each clones the IR) ...
const MAX_RECHECKS: u32 = 256;
/// ... and beyond this nesting (a generic block using another).
const MAX_DEPTH: u32 = 8;

/// The body of a generic parser, control or function.
#[derive(Debug)]
pub(crate) enum GenericBody {
    Parser(ast::ParserDecl),
    Control(ast::ControlDecl),
    Function(ast::FunctionDecl),
}

/// A generic declaration: a block by its index in `Checker::blocks`, a
/// function by its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum GenericKey {
    Block(u32),
    Function(u32),
}

/// A generic declaration, kept for checking again per use.
#[derive(Debug)]
pub(crate) struct GenericBlock {
    pub body: GenericBody,
    pub span: Span,
    /// The top-level scope just before the declaration.
    pub scope: HashMap<String, Binding>,
}

/// The re-check in progress, for the note on its errors.
#[derive(Clone, Debug)]
pub(crate) struct Recheck {
    pub shown: String,
    pub used_at: Span,
}

/// State of the checker while re-checking one generic block.
#[derive(Debug, Default)]
pub(crate) struct RecheckState {
    pub decls: HashMap<GenericKey, Rc<GenericBlock>>,
    pub done: std::collections::HashSet<(GenericKey, Vec<TyId>)>,
    pub count: u32,
    pub stack: Vec<Recheck>,
    /// Type arguments for the type parameters of the block being re-checked.
    pub bind: Option<Vec<TyId>>,
}

impl Checker<'_> {
    /// The top-level scope to keep for a generic declaration about to be
    /// checked (not while re-checking one).
    pub(crate) fn generic_scope(
        &self,
        type_params: &[ast::Ident],
    ) -> Option<HashMap<String, Binding>> {
        if type_params.is_empty() || !self.recheck.stack.is_empty() || !self.scopes.at_top_level() {
            return None;
        }
        Some(self.scopes.global().clone())
    }

    /// Keeps a generic declaration just checked.
    pub(crate) fn keep_generic(
        &mut self,
        key: GenericKey,
        scope: Option<HashMap<String, Binding>>,
        body: GenericBody,
        span: Span,
    ) {
        let Some(scope) = scope else {
            return;
        };
        self.recheck
            .decls
            .insert(key, Rc::new(GenericBlock { body, span, scope }));
    }

    /// Type parameters of the block being declared, bound to the types of
    /// the re-check in progress (once, by the outermost block).
    pub(crate) fn take_recheck_binding(&mut self) -> Option<Vec<TyId>> {
        self.recheck.bind.take()
    }

    /// Checks the generic parser or control that instance type `ty` uses
    /// again with its concrete type arguments (nothing for a block that is
    /// not generic, arguments still open, or a pair already checked).
    pub(crate) fn recheck_generic_use(&mut self, ty: TyId, used_at: Span) {
        let Ty::Block { decl, args, .. } = self.ty(ty).clone() else {
            return;
        };
        let shown = self.show(ty);
        self.recheck_generic(GenericKey::Block(decl), args, shown, used_at);
    }

    /// Checks generic function `f` again for a call with type arguments
    /// `args`.
    pub(crate) fn recheck_generic_call(&mut self, f: u32, args: &[TyId], used_at: Span) {
        let name = self.prog.functions[f as usize].name.clone();
        let shown: Vec<String> = args.iter().map(|a| self.show(*a)).collect();
        let shown = format!("{name}<{}>", shown.join(", "));
        self.recheck_generic(GenericKey::Function(f), args.to_vec(), shown, used_at);
    }

    fn recheck_generic(&mut self, key: GenericKey, args: Vec<TyId>, shown: String, used_at: Span) {
        if args.is_empty() || args.iter().any(|a| self.open_type(*a)) {
            return;
        }
        let Some(generic) = self.recheck.decls.get(&key).cloned() else {
            return;
        };
        if self.recheck.stack.len() as u32 >= MAX_DEPTH
            || self.recheck.count >= MAX_RECHECKS
            || !self.recheck.done.insert((key, args.clone()))
        {
            return;
        }
        self.recheck.count += 1;
        let saved = self.save_for_recheck();
        self.scopes = super::scopes::Scopes::with_global(generic.scope.clone());
        self.recheck.bind = Some(args);
        self.recheck.stack.push(Recheck { shown, used_at });
        match &generic.body {
            GenericBody::Parser(p) => self.parser_decl(p, generic.span),
            GenericBody::Control(c) => self.control_decl(c, generic.span),
            GenericBody::Function(f) => self.function_decl(f, generic.span),
        }
        self.recheck.stack.pop();
        self.recheck.bind = None;
        self.restore_after_recheck(saved);
    }

    /// A note for an error found while re-checking a generic block.
    pub(crate) fn recheck_note(&self, d: Diagnostic) -> Diagnostic {
        let Some(r) = self.recheck.stack.last() else {
            return d;
        };
        let d = d.note(format!(
            "found when checking `{}`, a use of a generic declaration with concrete types",
            r.shown
        ));
        match self.map.resolve(r.used_at) {
            Some(fs) => d.also(fs, format!("`{}` is used here", r.shown)),
            None => d,
        }
    }

    /// True while a generic block is being re-checked (warnings are left
    /// to the generic check).
    pub(crate) fn rechecking(&self) -> bool {
        !self.recheck.stack.is_empty()
    }

    /// A type that still mentions a type parameter or an error.
    fn open_type(&self, t: TyId) -> bool {
        match self.ty(t) {
            Ty::Param { .. } | Ty::Unknown => true,
            Ty::Stack { elem, .. } | Ty::List(elem) | Ty::Set(elem) => self.open_type(*elem),
            Ty::Tuple(items) => items.iter().any(|i| self.open_type(*i)),
            Ty::Extern { args, .. } | Ty::Block { args, .. } => {
                args.iter().any(|i| self.open_type(*i))
            }
            _ => false,
        }
    }

    fn save_for_recheck(&mut self) -> Saved {
        Saved {
            prog: self.prog.clone(),
            scopes: std::mem::take(&mut self.scopes),
            externs: self.externs.len(),
            ext_functions: self.ext_functions.len(),
            blocks: self.blocks.len(),
            fn_sigs: self.fn_sigs.len(),
            action_sigs: self.action_sigs.len(),
            generic_structs: self.generic_structs.len(),
            generic_kinds: self.generic_kinds.len(),
            generic_struct_cache: self.generic_struct_cache.clone(),
            generic_struct_origin: self.generic_struct_origin.clone(),
            compared_params: self.compared_params.clone(),
            usage: self.usage.clone(),
            block_overloads: self.block_overloads.clone(),
            error_numbers: self.error_numbers.clone(),
            match_kind_names: self.match_kind_names.clone(),
            current_block: self.current_block.take(),
            ctx: std::mem::replace(&mut self.ctx, Context::TopLevel),
            return_ty: self.return_ty.take(),
            loop_depth: std::mem::take(&mut self.loop_depth),
            declaring_type: self.declaring_type.take(),
            allow_action_run: std::mem::take(&mut self.allow_action_run),
            in_initializer: std::mem::take(&mut self.in_initializer),
            overload_chosen: std::mem::take(&mut self.overload_chosen),
            in_control_var_init: std::mem::take(&mut self.in_control_var_init),
        }
    }

    fn restore_after_recheck(&mut self, s: Saved) {
        self.prog = s.prog;
        self.scopes = s.scopes;
        self.externs.truncate(s.externs);
        self.ext_functions.truncate(s.ext_functions);
        self.blocks.truncate(s.blocks);
        self.fn_sigs.truncate(s.fn_sigs);
        self.action_sigs.truncate(s.action_sigs);
        self.generic_structs.truncate(s.generic_structs);
        self.generic_kinds.truncate(s.generic_kinds);
        self.generic_struct_cache = s.generic_struct_cache;
        self.generic_struct_origin = s.generic_struct_origin;
        self.compared_params = s.compared_params;
        self.usage = s.usage;
        self.block_overloads = s.block_overloads;
        self.error_numbers = s.error_numbers;
        self.match_kind_names = s.match_kind_names;
        self.current_block = s.current_block;
        self.ctx = s.ctx;
        self.return_ty = s.return_ty;
        self.loop_depth = s.loop_depth;
        self.declaring_type = s.declaring_type;
        self.allow_action_run = s.allow_action_run;
        self.in_initializer = s.in_initializer;
        self.overload_chosen = s.overload_chosen;
        self.in_control_var_init = s.in_control_var_init;
    }
}

/// What a re-check may change, saved before it.
struct Saved {
    prog: crate::ir::Program,
    scopes: super::scopes::Scopes,
    externs: usize,
    ext_functions: usize,
    blocks: usize,
    fn_sigs: usize,
    action_sigs: usize,
    generic_structs: usize,
    generic_kinds: usize,
    generic_struct_cache: HashMap<(u32, Vec<TyId>), TyId>,
    generic_struct_origin: HashMap<TyId, (u32, Vec<TyId>)>,
    compared_params: std::collections::HashSet<(u32, u32)>,
    usage: super::usage::Usage,
    block_overloads: HashMap<u32, Vec<u32>>,
    error_numbers: HashMap<String, u32>,
    match_kind_names: std::collections::HashSet<String>,
    current_block: Option<crate::ir::BlockId>,
    ctx: Context,
    return_ty: Option<TyId>,
    loop_depth: u32,
    declaring_type: Option<String>,
    allow_action_run: bool,
    in_initializer: bool,
    overload_chosen: bool,
    in_control_var_init: bool,
}
