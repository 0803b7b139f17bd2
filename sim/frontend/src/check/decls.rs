//! Declarations at the top level and inside parsers and controls.

use super::generic_recheck::{GenericBody, GenericKey};
use super::validate::ParamList;
use super::{
    Binding, BlockInfo, BlockKind, Checker, Context, ExternInfo, ExternMethod, ParamSig, Sig,
};
use crate::ast::{self, DeclKind};
use crate::diag::Code;
use crate::ir::{self, Direction, VarKind};
use crate::source::Span;
use crate::types::{EnumInfo, FieldInfo, StructInfo, StructKind, Ty, TyId, TypeTable};

impl Checker<'_> {
    pub(crate) fn top_decl(&mut self, d: &ast::Decl) {
        match &d.kind {
            DeclKind::Var(v) => {
                self.error(
                    Code::NotAllowedHere,
                    d.span,
                    "variables cannot be declared at the top level",
                );
                let _ = self.local_var(v);
            }
            DeclKind::Table(_) | DeclKind::ValueSet(_) => {
                self.error(
                    Code::NotAllowedHere,
                    d.span,
                    "tables and value sets must be declared inside a control or parser",
                );
            }
            _ => self.decl(d),
        }
    }

    /// Declarations common to every level.
    fn decl(&mut self, d: &ast::Decl) {
        let span = d.span;
        match &d.kind {
            DeclKind::Const(c) => self.const_decl(c),
            DeclKind::Typedef(t) => self.typedef(t),
            DeclKind::Header(s) => self.struct_decl(StructKind::Header, s),
            DeclKind::HeaderUnion(s) => self.struct_decl(StructKind::HeaderUnion, s),
            DeclKind::Struct(s) => self.struct_decl(StructKind::Struct, s),
            DeclKind::Enum(e) => self.enum_decl(e),
            DeclKind::Error(members) => {
                for m in members {
                    if self.error_numbers.contains_key(&m.name) {
                        self.error(
                            Code::DuplicateDeclaration,
                            m.span,
                            format!("`error.{}` is already declared", m.name),
                        );
                    } else {
                        let number = self.prog.errors.len() as u32;
                        self.error_numbers.insert(m.name.clone(), number);
                        self.prog.errors.push(m.name.clone());
                    }
                }
            }
            DeclKind::MatchKind(members) => {
                for m in members {
                    let idx = self.prog.match_kinds.len() as u32;
                    if !self.match_kind_names.insert(m.name.clone()) {
                        self.error(
                            Code::DuplicateDeclaration,
                            m.span,
                            format!("match kind `{}` is already declared", m.name),
                        );
                        continue;
                    }
                    self.prog.match_kinds.push(m.name.clone());
                    self.declare(m, Binding::MatchKind(idx));
                }
            }
            DeclKind::ExternObject(e) => self.extern_object(e),
            DeclKind::ExternFunction(f) => {
                let sig = self.function_sig(f);
                let idx = self.ext_functions.len() as u32;
                self.ext_functions.push((f.name.name.clone(), sig));
                self.declare(&f.name, Binding::ExternFunctions(vec![idx]));
            }
            DeclKind::ParserType(p) => self.block_type(BlockKind::Parser, p),
            DeclKind::ControlType(p) => self.block_type(BlockKind::Control, p),
            DeclKind::Package(p) => self.block_type(BlockKind::Package, p),
            DeclKind::Parser(p) => self.parser_decl(p, span),
            DeclKind::Control(c) => self.control_decl(c, span),
            DeclKind::Action(a) => {
                let _ = self.action_decl(a, span);
            }
            DeclKind::Function(f) => self.function_decl(f, span),
            DeclKind::Instance(i) => {
                let _ = self.instance_decl(i, span);
            }
            DeclKind::Table(t) => {
                let _ = self.table_decl(t, span);
            }
            DeclKind::ValueSet(v) => {
                let _ = self.value_set(v);
            }
            DeclKind::Var(v) => {
                let _ = self.local_var(v);
            }
        }
    }

    // ------------------------------------------------------------ types

    fn typedef(&mut self, t: &ast::TypedefDecl) {
        let outer = self.declaring_type.replace(t.name.name.clone());
        let of = self.resolve_type(&t.ty);
        self.declaring_type = outer;
        let ty = if t.new_type {
            // p4c: "`type' can only be applied to base types" (bit<W>,
            // int<W>, bool, or another `type`).
            if !self.is_unknown(of)
                && !matches!(self.ty(of), Ty::Bits { .. } | Ty::Bool | Ty::NewType { .. })
            {
                let shown = self.show(of);
                self.error(
                    Code::BadTypeArgument,
                    t.ty.span,
                    format!(
                        "`type` cannot introduce a new type over `{shown}`: only over `bit<W>`, `int<W>`, `bool` or another `type`"
                    ),
                );
            }
            let ty = self.types().intern(Ty::NewType {
                name: t.name.name.clone(),
                of,
            });
            self.prog.type_annotations.insert(
                ty,
                ir::TypeAnnotations {
                    decl: t.annotations.clone(),
                    fields: Vec::new(),
                },
            );
            ty
        } else {
            of
        };
        self.declare(&t.name, Binding::Type(ty));
    }

    fn struct_decl(&mut self, kind: StructKind, s: &ast::StructDecl) {
        if !s.type_params.is_empty() {
            let idx = self.generic_structs.len() as u32;
            self.generic_structs.push(s.clone());
            self.generic_kinds.push(kind);
            // Check the fields once with the parameters abstract.
            let owner = self.fresh_owner();
            let outer = self.declaring_type.replace(s.name.name.clone());
            self.scoped(|c| {
                c.declare_type_params(&s.type_params, owner);
                let _ = c.struct_type(kind, &s.name.name, s);
            });
            self.declaring_type = outer;
            self.declare(&s.name, Binding::GenericStruct(idx));
            return;
        }
        let outer = self.declaring_type.replace(s.name.name.clone());
        let ty = self.struct_type(kind, &s.name.name, s);
        self.declaring_type = outer;
        self.prog.type_annotations.insert(
            ty,
            ir::TypeAnnotations {
                decl: s.annotations.clone(),
                fields: s.fields.iter().map(|f| f.annotations.clone()).collect(),
            },
        );
        if kind == StructKind::Header
            && let Some(a) = ast::find_annotation(&s.annotations, "controller_header")
            && let Some(ast::Expr {
                kind: ast::ExprKind::Str(v),
                ..
            }) = a.single_expr()
        {
            self.prog.controller_headers.push((v.clone(), ty));
        }
        self.declare(&s.name, Binding::Type(ty));
    }

    pub(crate) fn generic_struct_kind(&self, idx: u32) -> StructKind {
        self.generic_kinds[idx as usize]
    }

    /// Resolves and checks the fields of a header, union or struct.
    pub(crate) fn struct_type(
        &mut self,
        kind: StructKind,
        name: &str,
        s: &ast::StructDecl,
    ) -> TyId {
        let mut fields: Vec<FieldInfo> = Vec::new();
        let mut names: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for f in &s.fields {
            let ty = self.resolve_type(&f.ty);
            if !names.insert(&f.name.name) {
                self.error(
                    Code::DuplicateDeclaration,
                    f.name.span,
                    format!("field `{}` is declared twice", f.name.name),
                );
                continue;
            }
            // A header may have several `varbit` fields (p4c accepts the
            // declaration); only one can be extracted (`check_varbit_extract`).
            if let Some(why) = self.bad_field_type(kind, ty) {
                self.error(Code::BadTypeArgument, f.ty.span, why);
            }
            fields.push(FieldInfo {
                name: f.name.name.clone(),
                ty,
                field_lists: self.field_lists(&f.annotations),
            });
        }
        self.types().add_struct(StructInfo {
            kind,
            name: name.to_string(),
            fields,
        })
    }

    fn bad_field_type(&self, kind: StructKind, ty: TyId) -> Option<String> {
        if self.is_unknown(ty) {
            return None;
        }
        let shown = self.show(ty);
        match kind {
            StructKind::Header => {
                if self.header_field_ok(ty) {
                    None
                } else {
                    Some(format!(
                        "a header field must be `bit<W>`, `int<W>`, `varbit<W>`, `bool`, a serializable enum or a struct of those, not `{shown}`"
                    ))
                }
            }
            StructKind::HeaderUnion => {
                if self.prog.types.is_header(ty) {
                    None
                } else {
                    Some(format!(
                        "a header union's fields must be headers, not `{shown}`"
                    ))
                }
            }
            StructKind::Struct => match self.ty(ty) {
                Ty::Void
                | Ty::InfInt
                | Ty::String
                | Ty::Extern { .. }
                | Ty::Block { .. }
                | Ty::List(_) => Some(format!("a struct field cannot have type `{shown}`")),
                _ => None,
            },
        }
    }

    fn header_field_ok(&self, ty: TyId) -> bool {
        match self.ty(ty) {
            Ty::Bits { .. } | Ty::Varbit { .. } | Ty::Bool | Ty::Param { .. } => true,
            Ty::Enum(_) => self.prog.types.underlying(ty).is_some(),
            Ty::NewType { of, .. } => self.header_field_ok(*of),
            Ty::Struct(_) => self.only_bits_or_bit_structs(ty),
            _ => false,
        }
    }

    fn enum_decl(&mut self, e: &ast::EnumDecl) {
        let repr = e.repr.as_ref().map(|r| self.resolve_type(r));
        if let Some(r) = repr
            && !self.is_unknown(r)
            && !matches!(self.ty(r), Ty::Bits { .. })
        {
            let shown = self.show(r);
            self.error(
                Code::BadTypeArgument,
                e.repr.as_ref().map_or(e.name.span, |t| t.span),
                format!("an enum's underlying type must be `bit<W>` or `int<W>`, not `{shown}`"),
            );
        }
        let mut members = Vec::new();
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut values = Vec::new();
        for (m, v) in &e.members {
            if !seen.insert(&m.name) {
                self.error(
                    Code::DuplicateDeclaration,
                    m.span,
                    format!("enum member `{}` is declared twice", m.name),
                );
                continue;
            }
            members.push(m.name.clone());
            match (repr, v) {
                (Some(r), Some(v)) => {
                    let raw = self.expr(v, None);
                    // p4c: a member's value must fit the underlying type.
                    if let (Some(n), Some((w, signed))) =
                        (super::exprs::const_int(&raw), self.prog.types.int_width(r))
                        && self.ty(raw.ty) == &Ty::InfInt
                        && !super::consts::fits(n, w, signed)
                    {
                        let shown = self.show(r);
                        self.error(
                            Code::TypeMismatch,
                            v.span,
                            format!(
                                "the value {n} of member `{}` is out of bounds of the enum's underlying type `{shown}`",
                                m.name
                            ),
                        );
                        values.push(0.into());
                        continue;
                    }
                    let x = self.coerce(raw, r);
                    match x.kind {
                        ir::ExprKind::Const(ir::Value::Int(n)) => values.push(n),
                        _ => {
                            if !self.is_unknown(x.ty) {
                                self.error(
                                    Code::NotConstant,
                                    v.span,
                                    "an enum member's value must be a compile-time constant",
                                );
                            }
                            values.push(0.into());
                        }
                    }
                }
                (Some(_), None) => {
                    self.error(
                        Code::TypeMismatch,
                        m.span,
                        format!("member `{}` of a serializable enum needs a value", m.name),
                    );
                    values.push(0.into());
                }
                (None, Some(v)) => {
                    self.error(Code::TypeMismatch, v.span, "only an enum with an underlying type (`enum bit<8> E`) can give members values");
                }
                (None, None) => {}
            }
        }
        let repr = repr.filter(|r| !self.is_unknown(*r));
        let ty = self.types().add_enum(EnumInfo {
            name: e.name.name.clone(),
            repr,
            members,
            values,
        });
        self.declare(&e.name, Binding::Type(ty));
    }

    /// Declares type parameters, as themselves or bound to `bind`.
    fn bind_type_params(&mut self, params: &[ast::Ident], owner: u32, bind: Option<&[TyId]>) {
        match bind {
            Some(args) => {
                for (p, a) in params.iter().zip(args) {
                    self.declare(p, Binding::Type(*a));
                }
            }
            None => self.declare_type_params(params, owner),
        }
    }

    fn declare_type_params(&mut self, params: &[ast::Ident], owner: u32) {
        for (i, p) in params.iter().enumerate() {
            let ty = self.types().intern(Ty::Param {
                owner,
                index: i as u32,
                name: p.name.clone(),
            });
            self.declare(p, Binding::Type(ty));
        }
    }

    fn param_sigs(&mut self, params: &[ast::Param]) -> Vec<ParamSig> {
        params
            .iter()
            .map(|p| {
                let ty = self.resolve_type(&p.ty);
                ParamSig {
                    name: p.name.name.clone(),
                    dir: Direction::from_ast(p.direction),
                    ty,
                    has_default: p.default.is_some()
                        || ast::find_annotation(&p.annotations, "optional").is_some(),
                    default: p.default.clone(),
                }
            })
            .collect()
    }

    /// Declares parameters as variables of the current scope.
    fn declare_params(
        &mut self,
        params: &[ast::Param],
        sigs: &[ParamSig],
        ctor: bool,
    ) -> Vec<ir::Param> {
        let mut out = Vec::new();
        for (p, s) in params.iter().zip(sigs) {
            let kind = if ctor {
                VarKind::CtorParam
            } else {
                VarKind::Param(s.dir)
            };
            let var = self.new_var(&s.name, s.ty, kind, p.name.span);
            // A name already in this scope is a duplicate parameter, which
            // `check_distinct_params` reported (E0105).
            if !self.in_innermost_scope(&p.name.name) {
                self.declare(&p.name, Binding::Var(var));
            }
            out.push(ir::Param {
                name: s.name.clone(),
                ty: s.ty,
                direction: s.dir,
                var,
            });
        }
        out
    }

    fn function_sig(&mut self, f: &ast::FunctionProto) -> Sig {
        self.function_sig_with(f, None, ParamList::ExternFunction)
    }

    /// A function's signature; `bind` gives its type parameters concrete
    /// types (re-checking a generic function for one call).
    fn function_sig_with(
        &mut self,
        f: &ast::FunctionProto,
        bind: Option<&[TyId]>,
        list: ParamList,
    ) -> Sig {
        let owner = self.fresh_owner();
        self.check_distinct_params(&f.type_params, &[&f.params]);
        self.scoped(|c| {
            c.bind_type_params(&f.type_params, owner, bind);
            let ret = c.resolve_type(&f.ret);
            let params = c.param_sigs(&f.params);
            c.check_param_types(&f.params, &params, list);
            Sig {
                owner,
                type_params: f.type_params.iter().map(|p| p.name.clone()).collect(),
                params,
                ret,
            }
        })
    }

    fn extern_object(&mut self, e: &ast::ExternDecl) {
        let owner = self.fresh_owner();
        let idx = self.externs.len() as u32;
        self.externs.push(ExternInfo {
            name: e.name.name.clone(),
            owner,
            type_params: e.type_params.iter().map(|p| p.name.clone()).collect(),
            ctors: Vec::new(),
            methods: Vec::new(),
        });
        self.declare(&e.name, Binding::Extern(idx));
        self.scoped(|c| {
            c.declare_type_params(&e.type_params, owner);
            for m in &e.methods {
                let m_owner = c.fresh_owner();
                c.check_distinct_params(&m.type_params, &[&m.params]);
                let sig = c.scoped(|c| {
                    c.declare_type_params(&m.type_params, m_owner);
                    let ret = m
                        .ret
                        .as_ref()
                        .map_or(TypeTable::VOID, |r| c.resolve_type(r));
                    let params = c.param_sigs(&m.params);
                    let list = if m.ret.is_none() {
                        ParamList::ExternConstructor
                    } else {
                        ParamList::ExternMethod
                    };
                    c.check_param_types(&m.params, &params, list);
                    c.check_method_return(m, ret);
                    Sig {
                        owner: m_owner,
                        type_params: m.type_params.iter().map(|p| p.name.clone()).collect(),
                        params,
                        ret,
                    }
                });
                if m.ret.is_some() && m.name.name == e.name.name {
                    c.error(
                        Code::BadReturnType,
                        m.name.span,
                        format!(
                            "`{}` is the constructor of extern `{}`, so it cannot have a return type",
                            m.name.name, e.name.name
                        ),
                    );
                    continue;
                }
                let info = &mut c.externs[idx as usize];
                if m.ret.is_none() {
                    if m.name.name != e.name.name {
                        c.error(
                            Code::Syntax,
                            m.name.span,
                            format!("method `{}` needs a return type", m.name.name),
                        );
                        continue;
                    }
                    info.ctors.push(sig);
                } else {
                    info.methods.push(ExternMethod {
                        name: m.name.name.clone(),
                        sig,
                        is_abstract: m.is_abstract,
                        optional: ast::find_annotation(&m.annotations, "optional").is_some(),
                    });
                }
            }
        });
    }

    fn block_type(&mut self, kind: BlockKind, p: &ast::BlockProto) {
        let owner = self.fresh_owner();
        self.check_distinct_params(&p.type_params, &[&p.params]);
        let params = self.scoped(|c| {
            c.declare_type_params(&p.type_params, owner);
            let sigs = c.param_sigs(&p.params);
            // A package's parameters are constructor parameters.
            let list = if kind == BlockKind::Package {
                ParamList::Package
            } else {
                ParamList::Apply
            };
            c.check_param_types(&p.params, &sigs, list);
            sigs
        });
        let idx = self.blocks.len() as u32;
        self.blocks.push(BlockInfo {
            kind,
            name: p.name.name.clone(),
            owner,
            type_params: p.type_params.iter().map(|t| t.name.clone()).collect(),
            params,
            ctor_params: Vec::new(),
            ir: None,
        });
        self.declare_block(&p.name, idx);
    }

    // ------------------------------------------------------------ blocks

    /// Sets up the scope of a parser or control: type parameters, apply
    /// and constructor parameters; runs `body`; registers the block.
    fn with_block<T>(
        &mut self,
        kind: BlockKind,
        proto: &ast::BlockProto,
        ctor: &[ast::Param],
        span: Span,
        body: impl FnOnce(&mut Self, ir::BlockId) -> T,
    ) -> T {
        let owner = self.fresh_owner();
        let ir_id = ir::BlockId(self.prog.blocks.len() as u32);
        self.prog.blocks.push(ir::Block {
            kind: if kind == BlockKind::Parser {
                ir::BlockKind::Parser
            } else {
                ir::BlockKind::Control
            },
            name: proto.name.name.clone(),
            params: Vec::new(),
            ctor_params: Vec::new(),
            locals: Vec::new(),
            instances: Vec::new(),
            actions: Vec::new(),
            tables: Vec::new(),
            value_sets: Vec::new(),
            states: Vec::new(),
            apply: Vec::new(),
            span,
        });
        let saved = self.ctx;
        self.check_distinct_params(&proto.type_params, &[&proto.params, ctor]);
        // Re-checking a use of a generic block: its type parameters are
        // the use's types.
        let bind = self.take_recheck_binding();
        let (result, sigs, ctor_sigs) = self.scoped(|c| {
            c.bind_type_params(&proto.type_params, owner, bind.as_deref());
            let sigs = c.param_sigs(&proto.params);
            let ctor_sigs = c.param_sigs(ctor);
            c.check_param_types(&proto.params, &sigs, ParamList::Apply);
            c.check_param_types(ctor, &ctor_sigs, ParamList::BlockConstructor);
            let params = c.declare_params(&proto.params, &sigs, false);
            let ctor_params = c.declare_params(ctor, &ctor_sigs, true);
            let block = &mut c.prog.blocks[ir_id.0 as usize];
            block.params = params;
            block.ctor_params = ctor_params;
            let outer = c.current_block.replace(ir_id);
            let out = body(c, ir_id);
            c.current_block = outer;
            (out, sigs, ctor_sigs)
        });
        self.ctx = saved;
        let idx = self.blocks.len() as u32;
        self.blocks.push(BlockInfo {
            kind,
            name: proto.name.name.clone(),
            owner,
            type_params: proto.type_params.iter().map(|t| t.name.clone()).collect(),
            params: sigs,
            ctor_params: ctor_sigs,
            ir: Some(ir_id),
        });
        self.declare_block(&proto.name, idx);
        result
    }

    pub(crate) fn parser_decl(&mut self, p: &ast::ParserDecl, span: Span) {
        let scope = self.generic_scope(&p.proto.type_params);
        self.parser_body(p, span);
        let key = GenericKey::Block(self.blocks.len().saturating_sub(1) as u32);
        self.keep_generic(key, scope, GenericBody::Parser(p.clone()), span);
    }

    fn parser_body(&mut self, p: &ast::ParserDecl, span: Span) {
        self.with_block(
            BlockKind::Parser,
            &p.proto,
            &p.ctor_params,
            span,
            |c, id| {
                c.ctx = Context::ParserLocal;
                for d in &p.locals {
                    c.block_local(d, id, BlockKind::Parser);
                }
                // State names, with `start` first.
                let mut names: Vec<&ast::Ident> = Vec::new();
                let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
                for s in &p.states {
                    if p.locals
                        .iter()
                        .any(|d| d.kind.name().is_some_and(|n| n.name == s.name.name))
                    {
                        // p4c: "State ... has same name as" a parser local.
                        c.error(
                            Code::DuplicateDeclaration,
                            s.name.span,
                            format!(
                                "state `{}` has the name of a declaration of this parser",
                                s.name.name
                            ),
                        );
                    }
                    if matches!(s.name.name.as_str(), "accept" | "reject")
                        || !seen.insert(&s.name.name)
                    {
                        c.error(
                            Code::DuplicateDeclaration,
                            s.name.span,
                            format!("state `{}` is declared twice", s.name.name),
                        );
                    } else {
                        names.push(&s.name);
                    }
                }
                let Some(start) = names.iter().position(|n| n.name == "start") else {
                    c.error(
                        Code::UnknownState,
                        p.proto.name.span,
                        format!("parser `{}` has no `start` state", p.proto.name.name),
                    );
                    return;
                };
                names.swap(0, start);
                let order: Vec<String> = names.iter().map(|n| n.name.clone()).collect();
                // The first declaration of each name, and each name's index.
                let mut first: std::collections::HashMap<&str, &ast::ParserState> =
                    std::collections::HashMap::new();
                for s in &p.states {
                    first.entry(s.name.name.as_str()).or_insert(s);
                }
                let numbers: std::collections::HashMap<&str, u32> = order
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (n.as_str(), i as u32))
                    .collect();
                let mut states = Vec::new();
                for name in &order {
                    let Some(&s) = first.get(name.as_str()) else {
                        continue;
                    };
                    c.ctx = Context::ParserState;
                    let (body, transition) = c.scoped(|c| {
                        let body: Vec<ir::Stmt> =
                            s.body.iter().filter_map(|st| c.stmt(st)).collect();
                        c.check_uninitialized(&body, &[], None, &p.proto.annotations);
                        let t = match &s.transition {
                            Some(t) => c.transition(t, &numbers),
                            None => {
                                // A state without `transition` goes to reject.
                                ir::Transition::Direct(ir::ParserState::REJECT)
                            }
                        };
                        (body, t)
                    });
                    states.push(ir::ParserState {
                        name: name.clone(),
                        body,
                        transition,
                    });
                }
                c.check_parser_ends(&p.proto.name, &states);
                c.prog.blocks[id.0 as usize].states = states;
            },
        );
    }

    fn state_index(
        &mut self,
        path: &ast::Path,
        order: &std::collections::HashMap<&str, u32>,
    ) -> u32 {
        match path.name.name.as_str() {
            "accept" => ir::ParserState::ACCEPT,
            "reject" => ir::ParserState::REJECT,
            n => match order.get(n) {
                Some(&i) => i,
                None => {
                    self.error(
                        Code::UnknownState,
                        path.name.span,
                        format!("state `{n}` is not declared in this parser"),
                    );
                    ir::ParserState::REJECT
                }
            },
        }
    }

    fn transition(
        &mut self,
        t: &ast::Transition,
        order: &std::collections::HashMap<&str, u32>,
    ) -> ir::Transition {
        match t {
            ast::Transition::Direct(path) => ir::Transition::Direct(self.state_index(path, order)),
            ast::Transition::Select { keys, cases, .. } => {
                let keys: Vec<ir::Expr> = keys.iter().map(|k| self.expr(k, None)).collect();
                for k in &keys {
                    if let Some(bad) = self.unselectable(k.ty) {
                        let shown = self.show(bad);
                        self.error(
                            Code::TypeMismatch,
                            k.span,
                            format!("a select key cannot have a component of type `{shown}`: select on bits, integers, `bool`, enums or `error` (or lists of them)"),
                        );
                    }
                }
                let key_tys: Vec<TyId> = keys.iter().map(|k| k.ty).collect();
                let mut out = Vec::new();
                for case in cases {
                    let items: Vec<&ast::Expr> = match &case.keyset.kind {
                        ast::ExprKind::KeysetTuple(items) => items.iter().collect(),
                        _ => vec![&case.keyset],
                    };
                    let keyset = if items.len() == key_tys.len() {
                        let parts: Vec<ir::Expr> = items
                            .iter()
                            .zip(&key_tys)
                            .map(|(k, t)| self.keyset(k, *t))
                            .collect();
                        if parts.len() == 1 {
                            parts.into_iter().next().expect("one part")
                        } else {
                            let ty = self.types().intern(Ty::Tuple(key_tys.clone()));
                            super::exprs::mk(ty, ir::ExprKind::List(parts), case.keyset.span)
                        }
                    } else if items.len() == 1 {
                        // `default`, `_`, or a value set of a tuple/struct.
                        let ty = self.types().intern(Ty::Tuple(key_tys.clone()));
                        self.keyset(items[0], ty)
                    } else {
                        self.error(
                            Code::ArgumentCount,
                            case.keyset.span,
                            format!(
                                "the select has {} key(s), but this case gives {}",
                                key_tys.len(),
                                items.len()
                            ),
                        );
                        continue;
                    };
                    let next = self.state_index(&case.next, order);
                    out.push(ir::SelectCase { keyset, next });
                }
                ir::Transition::Select(keys, out)
            }
        }
    }

    /// The part of a select key's type p4c's `validateSelectTypes` refuses:
    /// anything but bits, integers, `bool`, enums, `error` and lists or
    /// tuples of them (a `type` counts as its base; type parameters are checked per
    /// use).
    fn unselectable(&self, ty: TyId) -> Option<TyId> {
        match self.ty(ty) {
            Ty::Bits { .. }
            | Ty::InfInt
            | Ty::Bool
            | Ty::Enum(_)
            | Ty::Error
            | Ty::Unknown
            | Ty::Param { .. }
            | Ty::DontCare => None,
            Ty::NewType { of, .. } => self.unselectable(*of),
            Ty::Tuple(items) => items.iter().find_map(|t| self.unselectable(*t)),
            Ty::List(e) => self.unselectable(*e),
            _ => Some(ty),
        }
    }

    pub(crate) fn control_decl(&mut self, ctl: &ast::ControlDecl, span: Span) {
        let scope = self.generic_scope(&ctl.proto.type_params);
        self.control_body(ctl, span);
        let key = GenericKey::Block(self.blocks.len().saturating_sub(1) as u32);
        self.keep_generic(key, scope, GenericBody::Control(ctl.clone()), span);
    }

    fn control_body(&mut self, ctl: &ast::ControlDecl, span: Span) {
        self.with_block(
            BlockKind::Control,
            &ctl.proto,
            &ctl.ctor_params,
            span,
            |c, id| {
                c.ctx = Context::ControlLocal;
                for d in &ctl.locals {
                    c.block_local(d, id, BlockKind::Control);
                }
                c.ctx = Context::ControlApply;
                let apply = c.block_stmts(&ctl.apply);
                c.check_uninitialized(&apply, &[], None, &ctl.proto.annotations);
                c.prog.blocks[id.0 as usize].apply = apply;
            },
        );
    }

    /// A declaration among a parser's or control's locals.
    fn block_local(&mut self, d: &ast::Decl, block: ir::BlockId, kind: BlockKind) {
        let span = d.span;
        let allowed = matches!(
            (&d.kind, kind),
            (
                DeclKind::Const(_) | DeclKind::Var(_) | DeclKind::Instance(_),
                _
            ) | (DeclKind::Action(_) | DeclKind::Table(_), BlockKind::Control)
                | (DeclKind::ValueSet(_), BlockKind::Parser)
        );
        if !allowed {
            self.error(
                Code::NotAllowedHere,
                span,
                format!("this declaration is not allowed inside a {}", kind.as_str()),
            );
            return;
        }
        let b = block.0 as usize;
        match &d.kind {
            DeclKind::Var(v) => {
                self.in_control_var_init = kind == BlockKind::Control;
                let (id, init) = self.local_var(v);
                self.in_control_var_init = false;
                self.prog.blocks[b].locals.push(ir::Stmt {
                    kind: ir::StmtKind::Declare(id, init),
                    span,
                });
            }
            DeclKind::Instance(i) => {
                if let Some(id) = self.instance_decl(i, span) {
                    self.prog.blocks[b].instances.push(id);
                }
            }
            DeclKind::Action(a) => {
                let id = self.action_decl(a, span);
                self.prog.blocks[b].actions.push(id);
            }
            DeclKind::Table(t) => {
                let id = self.table_decl(t, span);
                self.prog.blocks[b].tables.push(id);
            }
            DeclKind::ValueSet(v) => {
                if let Some(id) = self.value_set(v) {
                    self.prog.blocks[b].value_sets.push(id);
                }
            }
            _ => self.decl(d),
        }
    }

    fn action_decl(&mut self, a: &ast::ActionDecl, span: Span) -> ir::ActionId {
        self.check_distinct_params(&[], &[&a.params]);
        let sigs = self.param_sigs(&a.params);
        self.check_param_types(&a.params, &sigs, ParamList::Action);
        let mut seen_directionless = false;
        for (p, s) in a.params.iter().zip(&sigs) {
            if s.dir == Direction::None {
                seen_directionless = true;
            } else if seen_directionless {
                self.error(
                    Code::ActionArguments,
                    p.span,
                    "parameters with a direction must come before directionless (control-plane) parameters",
                );
            }
        }
        let id = ir::ActionId(self.prog.actions.len() as u32);
        let cp = self.control_plane_name(&a.name.name, &a.annotations);
        self.prog.actions.push(ir::Action {
            name: a.name.name.clone(),
            cp_name: cp,
            params: Vec::new(),
            body: Vec::new(),
            annotations: a.annotations.clone(),
            param_annotations: a.params.iter().map(|p| p.annotations.clone()).collect(),
            span,
        });
        self.action_sigs.push(sigs.clone());
        let saved = (self.ctx, self.return_ty);
        self.ctx = Context::Action;
        self.return_ty = None;
        let (params, body) = self.scoped(|c| {
            let params = c.declare_params(&a.params, &sigs, false);
            c.action_params_may_be_unused(a, &params);
            let body = c.block_stmts(&a.body);
            (params, body)
        });
        (self.ctx, self.return_ty) = saved;
        self.check_uninitialized(&body, &params, Some(&a.name.name), &a.annotations);
        let act = &mut self.prog.actions[id.0 as usize];
        act.params = params;
        for (param, decl) in act.params.iter_mut().zip(&a.params) {
            if let Some(name) = param_control_plane_name(decl) {
                param.name = name;
            }
        }
        act.body = body;
        self.declare(&a.name, Binding::Action(id));
        id
    }

    pub(crate) fn function_decl(&mut self, f: &ast::FunctionDecl, span: Span) {
        let scope = self.generic_scope(&f.proto.type_params);
        let bind = self.take_recheck_binding();
        let id = self.function_body(f, span, bind.as_deref());
        let key = GenericKey::Function(id.0);
        self.keep_generic(key, scope, GenericBody::Function(f.clone()), span);
    }

    fn function_body(
        &mut self,
        f: &ast::FunctionDecl,
        span: Span,
        bind: Option<&[TyId]>,
    ) -> ir::FunctionId {
        let sig = self.function_sig_with(&f.proto, bind, ParamList::Function);
        let id = ir::FunctionId(self.prog.functions.len() as u32);
        self.fn_sigs.push(sig.clone());
        self.prog.functions.push(ir::Function {
            name: f.proto.name.name.clone(),
            params: Vec::new(),
            ret: sig.ret,
            body: Vec::new(),
            span,
        });
        // Declared before the body so that it is visible to later code;
        // P4 forbids recursion, so the body itself cannot call it.
        let saved = (self.ctx, self.return_ty);
        self.ctx = Context::Function;
        self.return_ty = Some(sig.ret);
        let (params, body) = self.scoped(|c| {
            c.bind_type_params(&f.proto.type_params, sig.owner, bind);
            let params = c.declare_params(&f.proto.params, &sig.params, false);
            for (p, decl) in params.iter().zip(&f.proto.params) {
                if super::usage::suppressed(&decl.annotations)
                    || super::usage::suppressed(&f.proto.annotations)
                {
                    continue;
                }
                c.may_be_unused(
                    super::usage::Candidate::Param {
                        var: p.var,
                        owner: f.proto.name.name.clone(),
                        what: "function",
                    },
                    decl.name.span,
                    &decl.name.name,
                );
            }
            let body = c.block_stmts(&f.body);
            (params, body)
        });
        (self.ctx, self.return_ty) = saved;
        self.check_uninitialized(
            &body,
            &params,
            Some(&f.proto.name.name),
            &f.proto.annotations,
        );
        if sig.ret != TypeTable::VOID && !self.is_unknown(sig.ret) && !Self::always_returns(&body) {
            self.error(
                Code::MissingReturn,
                f.proto.name.span,
                format!(
                    "function `{}` can reach its end without returning a value",
                    f.proto.name.name
                ),
            );
        }
        let func = &mut self.prog.functions[id.0 as usize];
        func.params = params;
        func.body = body;
        self.declare(&f.proto.name, Binding::Functions(vec![id]));
        id
    }

    fn instance_decl(&mut self, i: &ast::InstanceDecl, span: Span) -> Option<ir::InstanceId> {
        let ty = self.resolve_type(&i.ty);
        let id = self.instantiate(ty, &i.args, span, &i.name.name, i.annotations.clone(), true);
        // The abstract-method implementations, with their signatures.
        let mut impls: Vec<(&ast::FunctionProto, Sig)> = Vec::new();
        // p4c does not look into initialiser blocks for unused parameters.
        let candidates = self.usage.candidates.len();
        if let Some(init) = &i.init {
            let saved = (self.ctx, self.in_initializer);
            self.in_initializer = true;
            self.scoped(|c| {
                for d in init {
                    if let DeclKind::Function(f) = &d.kind {
                        c.function_decl(f, d.span);
                        if let Some(sig) = c.fn_sigs.last() {
                            impls.push((&f.proto, sig.clone()));
                        }
                    } else {
                        c.decl(d);
                    }
                }
            });
            (self.ctx, self.in_initializer) = saved;
        }
        self.usage.candidates.truncate(candidates);
        if let Some(id) = id {
            self.check_abstract_methods(id, i, &impls);
            let is_main = self.ctx == Context::TopLevel && i.name.name == "main";
            if !is_main && !super::usage::suppressed(&i.annotations) {
                self.may_be_unused(
                    super::usage::Candidate::Instance(id),
                    i.name.span,
                    &i.name.name,
                );
            }
        }
        match id {
            Some(id) => {
                self.declare(&i.name, Binding::Instance(id));
                if self.ctx == Context::TopLevel && i.name.name == "main" {
                    self.prog.main = Some(id);
                }
                Some(id)
            }
            None => {
                self.declare(&i.name, Binding::Type(TypeTable::UNKNOWN));
                None
            }
        }
    }

    fn value_set(&mut self, v: &ast::ValueSetDecl) -> Option<ir::ValueSetId> {
        let elem = self.resolve_type(&v.elem);
        self.check_value_set_elem(&v.elem, elem);
        let size = self.const_u64(&v.size, "a value set size")?;
        let id = ir::ValueSetId(self.prog.value_sets.len() as u32);
        let cp = self.control_plane_name(&v.name.name, &v.annotations);
        self.prog.value_sets.push(ir::ValueSet {
            name: v.name.name.clone(),
            cp_name: cp,
            elem,
            size,
        });
        self.declare(&v.name, Binding::ValueSet(id));
        Some(id)
    }
}

impl Checker<'_> {
    /// The integer ids of a field's `@field_list(...)` annotations: integer
    /// literals or any constant, such as the members of the serializable
    /// enum p4c's P4_14 translation declares for its field lists
    /// (`@field_list(FieldLists.mirror_info)`).
    fn field_lists(&mut self, annotations: &[crate::ast::Annotation]) -> Vec<u32> {
        let exprs: Vec<&ast::Expr> = annotations
            .iter()
            .filter(|a| a.name.name == "field_list")
            .filter_map(|a| match &a.body {
                crate::ast::AnnotationBody::Unstructured {
                    exprs: Some(list), ..
                }
                | crate::ast::AnnotationBody::ExprList(list) => Some(list),
                _ => None,
            })
            .flatten()
            .collect();
        exprs
            .into_iter()
            .filter_map(|e| match &e.kind {
                crate::ast::ExprKind::Int(lit) => u32::try_from(&lit.value).ok(),
                _ => {
                    let value = self.expr(e, None);
                    super::calls::const_u64_of(&value).and_then(|v| u32::try_from(v).ok())
                }
            })
            .collect()
    }
}

/// The name the control plane gives an action parameter when it differs
/// from the source name: its `@name` (as p4c, a leading `.` dropped).
fn param_control_plane_name(p: &ast::Param) -> Option<String> {
    let annotation = ast::find_annotation(&p.annotations, "name")?;
    match annotation.single_expr() {
        Some(ast::Expr {
            kind: ast::ExprKind::Str(s),
            ..
        }) => Some(s.strip_prefix('.').unwrap_or(s).to_string()),
        _ => None,
    }
}
