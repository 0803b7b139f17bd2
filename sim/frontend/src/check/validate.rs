//! Rules p4c enforces on declarations that are not about typing
//! expressions: distinct parameter names, the types a parameter, a tuple
//! element, a value set or a constant may have, self-referencing types.

use super::Checker;
use crate::ast;
use crate::diag::Code;
use crate::ir::Direction;
use crate::types::{Ty, TyId};

impl Checker<'_> {
    /// Reports a parameter named like an earlier parameter of the same
    /// declaration, or like one of its type parameters (p4c's
    /// `ValidateParsedProgram::distinctParameters`; a parameter list is an
    /// indexed vector there, so duplicates in one list are errors too).
    /// The lists share one namespace: a parser's or control's apply and
    /// constructor parameters, a function's parameters.
    pub(crate) fn check_distinct_params(
        &mut self,
        type_params: &[ast::Ident],
        lists: &[&[ast::Param]],
    ) {
        let mut seen: std::collections::HashMap<&str, bool> = std::collections::HashMap::new();
        for t in type_params {
            seen.entry(t.name.as_str()).or_insert(true);
        }
        for list in lists {
            for p in *list {
                match seen.get(p.name.name.as_str()) {
                    Some(true) => self.error(
                        Code::DuplicateParameter,
                        p.name.span,
                        format!(
                            "parameter `{}` has the name of a type parameter of the same declaration",
                            p.name.name
                        ),
                    ),
                    Some(false) => self.error(
                        Code::DuplicateParameter,
                        p.name.span,
                        format!("parameter `{}` is declared twice", p.name.name),
                    ),
                    None => {
                        seen.insert(p.name.name.as_str(), false);
                    }
                }
            }
        }
    }

    /// True if `name` is bound in the innermost scope (a duplicate
    /// parameter, already reported by [`Checker::check_distinct_params`]).
    pub(crate) fn in_innermost_scope(&self, name: &str) -> bool {
        self.scopes.innermost().contains_key(name)
    }

    /// The rules p4c's `checkParameters`, `postorder(Parameter)` and
    /// `CheckNamedArgs` apply to the parameter list of a `list`:
    /// `string`, `int` and extern parameters have no direction; constructor
    /// parameters none at all; a parser or control is passed only to a
    /// constructor, by its type (not by the name of a declaration with a
    /// body); actions take no `int` and no extern; a default value is a
    /// compile-time constant, and not for `out`, `inout` or `@optional`
    /// parameters; `@optional` only where an extern or architecture
    /// declares it.
    pub(crate) fn check_param_types(
        &mut self,
        params: &[ast::Param],
        sigs: &[super::ParamSig],
        list: ParamList,
    ) {
        for (p, s) in params.iter().zip(sigs) {
            let optional = ast::find_annotation(&p.annotations, "optional").is_some();
            if let Some(why) = self.default_value_rule(p, s, optional) {
                self.error(Code::BadParameterType, p.span, why);
            }
            if optional && list.forbids_optional() {
                self.error(
                    Code::BadParameterType,
                    p.span,
                    format!(
                        "parameter `{}` cannot be `@optional` here: only extern functions, methods and constructors, packages and parser or control types take optional parameters",
                        p.name.name
                    ),
                );
            }
            if self.is_unknown(s.ty) {
                continue;
            }
            let shown = self.show(s.ty);
            let is_ctor = list.is_constructor();
            let why = match (self.ty(s.ty), s.dir) {
                (_, d) if is_ctor && d != Direction::None => Some(format!(
                    "constructor parameter `{}` cannot have a direction",
                    p.name.name
                )),
                (Ty::String | Ty::InfInt | Ty::Extern { .. }, d) if d != Direction::None => {
                    Some(format!(
                        "parameter `{}` has type `{shown}`, so it must be directionless",
                        p.name.name
                    ))
                }
                _ if self.lacks_type_args(s.ty) => Some(format!(
                    "parameter `{}` has the generic type `{shown}`: give its type arguments",
                    p.name.name
                )),
                (Ty::Block { decl, .. }, _)
                    if self
                        .blocks
                        .get(*decl as usize)
                        .is_some_and(|b| b.ir.is_some()) =>
                {
                    Some(format!(
                        "parameter `{}` cannot have the type of the declaration `{shown}`: declare a parser or control type and use that",
                        p.name.name
                    ))
                }
                (Ty::Block { .. }, d) if d != Direction::None => Some(format!(
                    "parameter `{}` cannot be a `{}` {shown} with a direction",
                    p.name.name,
                    d.as_str()
                )),
                (Ty::Block { .. }, _) if list.forbids_blocks() => Some(format!(
                    "parameter `{}` cannot be the parser or control `{shown}`: only constructors and packages take parsers and controls",
                    p.name.name
                )),
                (Ty::InfInt, _) if list == ParamList::Action => Some(format!(
                    "action parameter `{}` cannot have type `int`: give it a width",
                    p.name.name
                )),
                (Ty::Extern { .. }, _) if list == ParamList::Action => Some(format!(
                    "action parameter `{}` cannot have the extern type `{shown}`",
                    p.name.name
                )),
                _ => None,
            };
            if let Some(why) = why {
                self.error(Code::BadParameterType, p.span, why);
            }
        }
    }

    /// True if `ty` is a generic extern, parser or control type named
    /// without its type arguments (p4c: "Type parameters needed").
    pub(crate) fn lacks_type_args(&self, ty: TyId) -> bool {
        match self.ty(ty) {
            Ty::Extern { decl, args, .. } => {
                args.is_empty()
                    && self
                        .externs
                        .get(*decl as usize)
                        .is_some_and(|e| !e.type_params.is_empty())
            }
            Ty::Block { decl, args, .. } => {
                args.is_empty()
                    && self
                        .blocks
                        .get(*decl as usize)
                        .is_some_and(|b| !b.type_params.is_empty())
            }
            _ => false,
        }
    }

    /// What is wrong with `p`'s default value, if anything.
    fn default_value_rule(
        &mut self,
        p: &ast::Param,
        s: &super::ParamSig,
        optional: bool,
    ) -> Option<String> {
        let default = p.default.as_ref()?;
        let name = &p.name.name;
        if optional {
            return Some(format!(
                "the optional parameter `{name}` cannot have a default value"
            ));
        }
        if matches!(s.dir, Direction::Out | Direction::InOut) {
            return Some(format!(
                "the `{}` parameter `{name}` cannot have a default value",
                s.dir.as_str()
            ));
        }
        let value = self.expr(default, Some(s.ty));
        // An instantiation (`C c = Nop()`) is a compile-time value too.
        let instance = matches!(self.ty(value.ty), Ty::Extern { .. } | Ty::Block { .. });
        (!self.is_unknown(value.ty) && !instance && !super::exprs::is_constant_tree(&value)).then(
            || format!("the default value of parameter `{name}` must be a compile-time constant"),
        )
    }
    /// A type that cannot be a tuple element (p4c: parsers, controls,
    /// packages and externs are "not supported as a tuple field").
    pub(crate) fn check_tuple_elements(&mut self, items: &[ast::Type], tys: &[TyId]) {
        for (t, ty) in items.iter().zip(tys) {
            if matches!(self.ty(*ty), Ty::Extern { .. } | Ty::Block { .. }) {
                let shown = self.show(*ty);
                self.error(
                    Code::BadTypeArgument,
                    t.span,
                    format!("`{shown}` is not supported as a tuple element"),
                );
            }
        }
    }

    /// A type argument that P4 refuses: `void`, or a parser, control or
    /// package type (p4c: "Cannot use ... as a type parameter").
    pub(crate) fn check_type_args(&mut self, args: &[ast::Type], tys: &[TyId]) {
        for (t, ty) in args.iter().zip(tys) {
            let why = match self.ty(*ty) {
                Ty::Void => Some("`void` cannot be a type argument".to_string()),
                Ty::Block { .. } => Some(format!(
                    "the parser, control or package type `{}` cannot be a type argument",
                    self.show(*ty)
                )),
                _ => None,
            };
            if let Some(why) = why {
                self.error(Code::BadTypeArgument, t.span, why);
            }
        }
    }

    /// `value_set<T>`: p4c allows `bit<W>`/`int<W>`, `bool`, enums, new
    /// types, structs and tuples as `T`.
    pub(crate) fn check_value_set_elem(&mut self, t: &ast::Type, ty: TyId) {
        let ok = matches!(
            self.ty(ty),
            Ty::Unknown
                | Ty::Bits { .. }
                | Ty::Bool
                | Ty::Enum(_)
                | Ty::NewType { .. }
                | Ty::Tuple(_)
                | Ty::Param { .. }
        ) || self
            .prog
            .types
            .struct_info(ty)
            .is_some_and(|s| s.kind == crate::types::StructKind::Struct);
        if !ok {
            let shown = self.show(ty);
            self.error(
                Code::BadTypeArgument,
                t.span,
                format!(
                    "a value set's elements cannot be `{shown}`: use `bit<W>`, `int<W>`, `bool`, an enum, a new type, a struct or a tuple"
                ),
            );
        }
    }

    /// `_` written in a constant's type (`const _ X = 1;`): a constant needs
    /// a type.
    pub(crate) fn check_no_dont_care(&mut self, t: &ast::Type) {
        if let Some(span) = dont_care_in(t) {
            self.error(
                Code::BadTypeArgument,
                span,
                "a constant's type cannot contain `_`: write the type out",
            );
        }
    }

    /// A named type that is not declared but is the declaration being
    /// defined (`struct S { S s; }`, `typedef T T;`): a self-reference.
    pub(crate) fn self_reference(&mut self, path: &ast::Path) -> bool {
        if self.lookup_path(path).is_some() {
            return false;
        }
        let Some(current) = &self.declaring_type else {
            return false;
        };
        if *current != path.name.name {
            return false;
        }
        self.error(
            Code::SelfReferencingType,
            path.name.span,
            format!(
                "type `{}` refers to itself; P4 types cannot be recursive",
                path.name.name
            ),
        );
        true
    }
}

/// The span of a `_` written somewhere in `t`.
fn dont_care_in(t: &ast::Type) -> Option<crate::source::Span> {
    use ast::TypeKind as K;
    match &t.kind {
        K::DontCare => Some(t.span),
        K::Named { args, .. } => args.iter().find_map(dont_care_in),
        K::Tuple(items) => items.iter().find_map(dont_care_in),
        K::Stack { elem, .. } | K::List(elem) => dont_care_in(elem),
        _ => None,
    }
}

impl Checker<'_> {
    /// True if `ty` is, or has inside, an instance type of extern `decl`
    /// (`e<e<bit<8>>>` gives `e` itself as a type argument).
    pub(crate) fn mentions_extern(&self, ty: TyId, decl: u32) -> bool {
        match self.ty(ty) {
            Ty::Extern { decl: d, args, .. } => {
                *d == decl || args.iter().any(|a| self.mentions_extern(*a, decl))
            }
            Ty::Block { args, .. } => args.iter().any(|a| self.mentions_extern(*a, decl)),
            Ty::Tuple(items) => items.iter().any(|a| self.mentions_extern(*a, decl)),
            Ty::Stack { elem, .. } | Ty::List(elem) | Ty::Set(elem) => {
                self.mentions_extern(*elem, decl)
            }
            _ => false,
        }
    }
}

impl Checker<'_> {
    /// A struct a header may hold (p4c's `onlyBitsOrBitStructs`): made of
    /// `bit<W>`, `int<W>`, `bool`, serializable enums and structs of those,
    /// with no varbit and no new type inside.
    pub(crate) fn only_bits_or_bit_structs(&self, ty: TyId) -> bool {
        match self.ty(ty) {
            Ty::Bits { .. } | Ty::Bool | Ty::Param { .. } | Ty::Unknown => true,
            Ty::Enum(_) => self.prog.types.underlying(ty).is_some(),
            Ty::Struct(i) => {
                let info = &self.prog.types.structs[*i as usize];
                info.kind == crate::types::StructKind::Struct
                    && info
                        .fields
                        .iter()
                        .all(|f| self.only_bits_or_bit_structs(f.ty))
            }
            _ => false,
        }
    }
}

impl Checker<'_> {
    /// An extern method's return type (p4c: "illegal return type for
    /// method" for `int` and `string`); constructors take no type
    /// parameters.
    pub(crate) fn check_method_return(&mut self, m: &ast::MethodDecl, ret: TyId) {
        if let Some(r) = &m.ret
            && matches!(self.ty(ret), Ty::InfInt | Ty::String)
        {
            let shown = self.show(ret);
            self.error(
                Code::BadReturnType,
                r.span,
                format!("extern method `{}` cannot return `{shown}`", m.name.name),
            );
        }
        if let Some(r) = &m.ret
            && self.lacks_type_args(ret)
        {
            let shown = self.show(ret);
            self.error(
                Code::BadTypeArgument,
                r.span,
                format!(
                    "extern method `{}` returns the generic type `{shown}`: give its type arguments",
                    m.name.name
                ),
            );
        }
        if m.ret.is_none() && !m.type_params.is_empty() {
            self.error(
                Code::BadTypeArgument,
                m.type_params[0].span,
                "a constructor cannot have type parameters (the extern's own are its type parameters)",
            );
        }
    }
}

impl Checker<'_> {
    /// Records that values of type `ty` are compared, if it is a type
    /// parameter: p4c checks a generic declaration again for each use
    /// (specialising it), and comparing externs is an error there.
    pub(crate) fn note_compared_type_param(&mut self, ty: TyId) {
        if let Ty::Param { owner, index, .. } = self.ty(ty) {
            self.compared_params.insert((*owner, *index));
        }
    }

    /// A call of a generic declaration whose body compares values of a type
    /// parameter that this call binds to an extern, parser or control type
    /// (p4c: "externs cannot be compared" once specialised).
    pub(crate) fn check_compared_type_args(
        &mut self,
        sig: &super::Sig,
        type_args: &[TyId],
        span: crate::source::Span,
        what: &str,
    ) {
        for (i, t) in type_args.iter().enumerate() {
            if self.compared_params.contains(&(sig.owner, i as u32))
                && matches!(self.ty(*t), Ty::Extern { .. } | Ty::Block { .. })
            {
                let shown = self.show(*t);
                let name = sig.type_params.get(i).cloned().unwrap_or_default();
                self.error(
                    Code::BadOperand,
                    span,
                    format!(
                        "`{what}` compares values of its type parameter `{name}` with `==`/`!=`, but here `{name}` is `{shown}`, and externs cannot be compared"
                    ),
                );
            }
        }
    }

    /// The result of a call (p4c's "illegal return type"): no call returns
    /// a parser, control or package, and one returns an extern object only
    /// when all its arguments are compile-time constants.
    pub(crate) fn check_call_result(
        &mut self,
        inv: &super::calls::Invocation,
        span: crate::source::Span,
        what: &str,
    ) {
        let bad = match self.ty(inv.ret) {
            Ty::Block { .. } => true,
            Ty::Extern { .. } => inv.args.iter().flatten().any(|a| {
                !matches!(
                    a.kind,
                    crate::ir::ExprKind::Const(_) | crate::ir::ExprKind::Instance(_)
                )
            }),
            _ => false,
        };
        if bad {
            let shown = self.show(inv.ret);
            self.error(
                Code::BadReturnType,
                span,
                format!("the call of `{what}` cannot produce a `{shown}`: calls return values, not parsers, controls, packages or (with run-time arguments) externs"),
            );
        }
    }
}

/// True if `a` and `b` are the same expression up to positions (p4c's
/// `SameExpression`, for the data-plane arguments a table's default action
/// and entries repeat from its `actions` list).
pub(crate) fn same_expr(a: &crate::ir::Expr, b: &crate::ir::Expr) -> bool {
    use crate::ir::ExprKind as K;
    match (&a.kind, &b.kind) {
        (K::Const(x), K::Const(y)) => x == y,
        (K::Var(x), K::Var(y)) => x == y,
        (K::Instance(x), K::Instance(y)) => x == y,
        (K::ValueSet(x), K::ValueSet(y)) => x == y,
        (K::Field(x, i), K::Field(y, j)) => i == j && same_expr(x, y),
        (K::Index(x, i), K::Index(y, j)) => same_expr(x, y) && same_expr(i, j),
        (K::Slice(x, h, l), K::Slice(y, h2, l2)) => h == h2 && l == l2 && same_expr(x, y),
        (K::StackNext(x), K::StackNext(y))
        | (K::StackLast(x), K::StackLast(y))
        | (K::StackLastIndex(x), K::StackLastIndex(y))
        | (K::Cast(x), K::Cast(y)) => a.ty == b.ty && same_expr(x, y),
        (K::Unary(o, x), K::Unary(p, y)) => o == p && same_expr(x, y),
        (K::Binary(o, x1, x2), K::Binary(p, y1, y2)) => {
            o == p && same_expr(x1, y1) && same_expr(x2, y2)
        }
        (K::Ternary(c, x1, x2), K::Ternary(d, y1, y2)) => {
            same_expr(c, d) && same_expr(x1, y1) && same_expr(x2, y2)
        }
        (K::List(xs), K::List(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_expr(x, y))
        }
        (K::DontCare, K::DontCare) | (K::InvalidHeader, K::InvalidHeader) => a.ty == b.ty,
        // Calls and the rest: only their kind is compared (no false alarm).
        _ => std::mem::discriminant(&a.kind) == std::mem::discriminant(&b.kind),
    }
}

impl Checker<'_> {
    /// The states reachable from `start` (the first state) must include
    /// `accept` or `reject` (p4c's `RemoveUnreachableStates`: "Parser never
    /// reaches accept or reject state"); an unreachable `accept` is a
    /// warning there.
    pub(crate) fn check_parser_ends(
        &mut self,
        name: &ast::Ident,
        states: &[crate::ir::ParserState],
    ) {
        use crate::ir::{ParserState, Transition};
        if states.is_empty() {
            return;
        }
        let mut seen = vec![false; states.len()];
        let (mut accept, mut reject) = (false, false);
        let mut work = vec![0u32];
        seen[0] = true;
        while let Some(i) = work.pop() {
            let nexts: Vec<u32> = match &states[i as usize].transition {
                Transition::Direct(n) => vec![*n],
                Transition::Select(_, cases) => cases.iter().map(|c| c.next).collect(),
            };
            for n in nexts {
                match n {
                    ParserState::ACCEPT => accept = true,
                    ParserState::REJECT => reject = true,
                    n => {
                        if let Some(s) = seen.get_mut(n as usize)
                            && !*s
                        {
                            *s = true;
                            work.push(n);
                        }
                    }
                }
            }
        }
        if !accept && !reject {
            self.error(
                Code::ParserNeverEnds,
                name.span,
                format!(
                    "parser `{}` never reaches `accept` or `reject`: every state reachable from `start` transitions to another one",
                    name.name
                ),
            );
        } else if !accept {
            self.warning(
                Code::UnreachableCode,
                name.span,
                format!(
                    "the `accept` state of parser `{}` is unreachable: no path from `start` leads to it",
                    name.name
                ),
            );
        }
    }
}

impl Checker<'_> {
    /// A declaration (not itself a parameter) that hides a parameter of an
    /// enclosing scope: p4c's `checkShadowing` makes that an error
    /// ("declaration of 'x' shadows a parameter 'x'"). Reports it and
    /// returns true; the declaration is then not bound.
    pub(crate) fn shadows_parameter(
        &mut self,
        name: &ast::Ident,
        binding: &super::Binding,
    ) -> bool {
        use crate::ir::VarKind;
        let is_param = |c: &Self, b: &super::Binding| {
            matches!(b, super::Binding::Var(v)
                if matches!(c.prog.var(*v).kind, VarKind::Param(_) | VarKind::CtorParam))
        };
        if is_param(self, binding) {
            return false;
        }
        let hidden = self
            .scopes
            .enclosing()
            .find_map(|s| s.get(&name.name))
            .cloned();
        match hidden {
            Some(b) if is_param(self, &b) => {
                self.error(
                    Code::DuplicateDeclaration,
                    name.span,
                    format!(
                        "the declaration of `{}` hides a parameter of the same name",
                        name.name
                    ),
                );
                true
            }
            _ => false,
        }
    }
}

/// Which parameter list [`Checker::check_param_types`] checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ParamList {
    /// A parser's or control's apply parameters (types and declarations).
    Apply,
    Action,
    Function,
    ExternFunction,
    ExternMethod,
    ExternConstructor,
    /// A parser's or control's constructor parameters.
    BlockConstructor,
    Package,
}

impl ParamList {
    fn is_constructor(self) -> bool {
        matches!(
            self,
            ParamList::ExternConstructor | ParamList::BlockConstructor | ParamList::Package
        )
    }

    /// p4c's `forbidModules`: parsers and controls are no apply, action or
    /// function parameters.
    fn forbids_blocks(self) -> bool {
        matches!(
            self,
            ParamList::Apply | ParamList::Action | ParamList::Function
        )
    }

    /// p4c's `CheckNamedArgs::checkOptionalParameters`.
    fn forbids_optional(self) -> bool {
        matches!(
            self,
            ParamList::Action | ParamList::Function | ParamList::BlockConstructor
        )
    }
}
