//! Declarations: top level, parser and control locals, externs, tables,
//! and annotations.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Kw, Punct, Token, TokenKind};

impl Parser<'_> {
    pub(crate) fn program(&mut self) -> Program {
        let mut decls = Vec::new();
        while !self.at_eof() {
            if self.eat_punct(Punct::Semi) {
                continue;
            }
            let start = self.cursor();
            match self.decl() {
                Ok(d) => {
                    decls.append(&mut self.pending);
                    decls.push(d);
                }
                Err(_) => {
                    self.pending.clear();
                    self.recover_decl(start);
                    if self.cursor() == start {
                        self.bump();
                    }
                }
            }
        }
        Program { decls }
    }

    /// One declaration at top level or among parser/control locals.
    pub(crate) fn decl(&mut self) -> PResult<Decl> {
        let lo = self.start();
        let annotations = self.annotations()?;
        let kind = match self.kind().clone() {
            TokenKind::Kw(Kw::Const) => DeclKind::Const(self.const_decl(annotations)?),
            TokenKind::Kw(Kw::Typedef) => self.typedef(annotations, false)?,
            TokenKind::Ident(w) if w == "type" && self.starts_type_after_type_kw() => {
                self.typedef(annotations, true)?
            }
            TokenKind::Kw(Kw::Header) => DeclKind::Header(self.struct_like(annotations)?),
            TokenKind::Kw(Kw::HeaderUnion) => DeclKind::HeaderUnion(self.struct_like(annotations)?),
            TokenKind::Kw(Kw::Struct) => DeclKind::Struct(self.struct_like(annotations)?),
            TokenKind::Kw(Kw::Enum) => DeclKind::Enum(self.enum_decl(annotations)?),
            TokenKind::Kw(Kw::Error) if self.is_punct_at(1, Punct::LBrace) => {
                self.bump();
                DeclKind::Error(self.ident_list()?)
            }
            TokenKind::Kw(Kw::MatchKind) if self.is_punct_at(1, Punct::LBrace) => {
                self.bump();
                DeclKind::MatchKind(self.ident_list()?)
            }
            TokenKind::Kw(Kw::Extern) => self.extern_decl(annotations)?,
            TokenKind::Kw(Kw::Parser) => self.parser_decl(annotations)?,
            TokenKind::Kw(Kw::Control) => self.control_decl(annotations)?,
            TokenKind::Kw(Kw::Package) => {
                self.bump();
                let proto = self.block_proto(annotations)?;
                self.expect_punct(Punct::Semi)?;
                DeclKind::Package(proto)
            }
            TokenKind::Kw(Kw::Action) => DeclKind::Action(self.action_decl(annotations)?),
            TokenKind::Kw(Kw::Table) => DeclKind::Table(self.table_decl(annotations)?),
            TokenKind::Kw(Kw::ValueSet) => DeclKind::ValueSet(self.value_set(annotations)?),
            _ => self.typed_decl(annotations)?,
        };
        Ok(Decl {
            kind,
            span: self.span_from(lo),
        })
    }

    /// `type` is a declaration keyword only when a type follows it.
    fn starts_type_after_type_kw(&self) -> bool {
        !matches!(
            self.kind_at(1),
            TokenKind::Punct(Punct::Assign | Punct::Semi | Punct::LParen | Punct::LBracket)
        )
    }

    /// Declarations that start with a type: functions, instantiations,
    /// variables.
    fn typed_decl(&mut self, annotations: Annotations) -> PResult<DeclKind> {
        let ty = self.ty()?;
        if self.is_punct(Punct::LParen) {
            return self.instance_rest(annotations, ty).map(DeclKind::Instance);
        }
        let name = self.name()?;
        if self.is_punct(Punct::Lt) || self.is_punct(Punct::LParen) {
            let type_params = self.opt_type_params()?;
            let (params, body) = self.with_type_params(&type_params, |p| {
                let params = p.params()?;
                let body = p.annotated_block()?;
                Ok((params, body))
            })?;
            return Ok(DeclKind::Function(FunctionDecl {
                proto: FunctionProto {
                    annotations,
                    ret: ty,
                    name,
                    type_params,
                    params,
                },
                body,
            }));
        }
        let lo = ty.span.lo;
        let init = if self.eat_punct(Punct::Assign) {
            Some(self.expr()?)
        } else {
            None
        };
        self.expect_punct(Punct::Semi)?;
        Ok(DeclKind::Var(VarDecl {
            annotations,
            ty,
            name,
            init,
            span: self.span_from(lo),
        }))
    }

    /// `(args) name [= { decls }];` after the instantiated type.
    fn instance_rest(&mut self, annotations: Annotations, ty: Type) -> PResult<InstanceDecl> {
        let args = self.args()?;
        let name = self.name()?;
        let init = if self.eat_punct(Punct::Assign) {
            self.expect_punct(Punct::LBrace)?;
            let mut decls = Vec::new();
            while !self.eat_punct(Punct::RBrace) {
                if self.at_eof() {
                    return self.fail("`}`");
                }
                decls.push(self.decl()?);
            }
            Some(decls)
        } else {
            None
        };
        self.expect_punct(Punct::Semi)?;
        Ok(InstanceDecl {
            annotations,
            ty,
            args,
            name,
            init,
        })
    }

    fn typedef(&mut self, annotations: Annotations, new_type: bool) -> PResult<DeclKind> {
        self.bump();
        let ty = if matches!(
            self.kind(),
            TokenKind::Kw(Kw::Struct | Kw::Header | Kw::HeaderUnion | Kw::Enum)
        ) {
            // `typedef struct S { ... } T;` declares `S`, then the alias.
            let inner = self.decl()?;
            let name = inner.kind.name().cloned().expect("derived types are named");
            let span = inner.span;
            self.pending.push(inner);
            Type {
                kind: TypeKind::Named {
                    path: Path {
                        global: false,
                        name,
                    },
                    args: Vec::new(),
                },
                span,
            }
        } else {
            self.ty()?
        };
        let name = self.name()?;
        self.expect_punct(Punct::Semi)?;
        self.declare_type(&name.name);
        Ok(DeclKind::Typedef(TypedefDecl {
            annotations,
            new_type,
            ty,
            name,
        }))
    }

    fn struct_like(&mut self, annotations: Annotations) -> PResult<StructDecl> {
        self.bump();
        let name = self.name()?;
        self.declare_type(&name.name);
        let type_params = self.opt_type_params()?;
        let fields = self.with_type_params(&type_params, |p| {
            p.expect_punct(Punct::LBrace)?;
            let mut fields = Vec::new();
            while !p.eat_punct(Punct::RBrace) {
                let lo = p.start();
                let annotations = p.annotations()?;
                let ty = p.ty()?;
                let name = p.name()?;
                p.expect_punct(Punct::Semi)?;
                fields.push(Field {
                    annotations,
                    ty,
                    name,
                    span: p.span_from(lo),
                });
            }
            Ok(fields)
        })?;
        Ok(StructDecl {
            annotations,
            name,
            type_params,
            fields,
        })
    }

    fn enum_decl(&mut self, annotations: Annotations) -> PResult<EnumDecl> {
        self.expect_kw(Kw::Enum)?;
        let repr =
            if matches!(self.kind(), TokenKind::Ident(_)) && self.is_punct_at(1, Punct::LBrace) {
                None
            } else {
                Some(self.ty()?)
            };
        let name = self.name()?;
        self.declare_type(&name.name);
        self.expect_punct(Punct::LBrace)?;
        let mut members = Vec::new();
        loop {
            if self.eat_punct(Punct::RBrace) {
                break;
            }
            let _ = self.annotations()?;
            let m = self.name()?;
            let value = if self.eat_punct(Punct::Assign) {
                Some(self.expr()?)
            } else {
                None
            };
            members.push((m, value));
            if !self.eat_punct(Punct::Comma) {
                self.expect_punct(Punct::RBrace)?;
                break;
            }
        }
        Ok(EnumDecl {
            annotations,
            repr,
            name,
            members,
        })
    }

    /// `{ a, b, c }` for `error` and `match_kind`.
    fn ident_list(&mut self) -> PResult<Vec<Ident>> {
        self.expect_punct(Punct::LBrace)?;
        let mut names = Vec::new();
        loop {
            if self.eat_punct(Punct::RBrace) {
                break;
            }
            names.push(self.name()?);
            if !self.eat_punct(Punct::Comma) {
                self.expect_punct(Punct::RBrace)?;
                break;
            }
        }
        Ok(names)
    }

    fn extern_decl(&mut self, annotations: Annotations) -> PResult<DeclKind> {
        self.expect_kw(Kw::Extern)?;
        let is_object = matches!(self.kind(), TokenKind::Ident(_))
            && (self.is_punct_at(1, Punct::LBrace) || self.is_punct_at(1, Punct::Lt))
            && {
                // `extern E<T> {` is an object; `extern T<X> f(...)` a function.
                self.is_punct_at(1, Punct::LBrace)
                    || self.clone_cursor_check(|p| {
                        p.bump();
                        p.opt_type_params()?;
                        if p.is_punct(Punct::LBrace) {
                            Ok(())
                        } else {
                            p.fail("`{`")
                        }
                    })
            };
        if !is_object {
            let ret = self.ty()?;
            let name = self.name()?;
            let type_params = self.opt_type_params()?;
            let params = self.with_type_params(&type_params, |p| p.params())?;
            self.expect_punct(Punct::Semi)?;
            return Ok(DeclKind::ExternFunction(FunctionProto {
                annotations,
                ret,
                name,
                type_params,
                params,
            }));
        }
        let name = self.name()?;
        self.declare_type(&name.name);
        let type_params = self.opt_type_params()?;
        let methods = self.with_type_params(&type_params, |p| {
            p.expect_punct(Punct::LBrace)?;
            let mut methods = Vec::new();
            while !p.eat_punct(Punct::RBrace) {
                if p.at_eof() {
                    return p.fail("`}`");
                }
                methods.push(p.method(&name.name)?);
            }
            Ok(methods)
        })?;
        Ok(DeclKind::ExternObject(ExternDecl {
            annotations,
            name,
            type_params,
            methods,
        }))
    }

    /// Runs `f` and reports whether it succeeded, always rewinding.
    fn clone_cursor_check(&mut self, f: impl FnOnce(&mut Self) -> PResult<()>) -> bool {
        let (pos, nerr) = (self.cursor(), self.errors.len());
        let ok = f(self).is_ok();
        self.pos = pos;
        self.errors.truncate(nerr);
        ok
    }

    fn method(&mut self, extern_name: &str) -> PResult<MethodDecl> {
        let lo = self.start();
        let annotations = self.annotations()?;
        let is_abstract = self.eat_kw(Kw::Abstract);
        let is_ctor = matches!(self.kind(), TokenKind::Ident(n) if n == extern_name)
            && self.is_punct_at(1, Punct::LParen);
        let (ret, name) = if is_ctor {
            (None, self.name()?)
        } else {
            let ret = self.ty()?;
            (Some(ret), self.member_name()?)
        };
        let type_params = self.opt_type_params()?;
        let params = self.with_type_params(&type_params, |p| p.params())?;
        self.expect_punct(Punct::Semi)?;
        Ok(MethodDecl {
            annotations,
            is_abstract,
            ret,
            name,
            type_params,
            params,
            span: self.span_from(lo),
        })
    }

    /// `name<T>(params)` of a parser, control or package type.
    fn block_proto(&mut self, annotations: Annotations) -> PResult<BlockProto> {
        let name = self.name()?;
        self.declare_type(&name.name);
        let type_params = self.opt_type_params()?;
        let params = self.with_type_params(&type_params, |p| p.params())?;
        Ok(BlockProto {
            annotations,
            name,
            type_params,
            params,
        })
    }

    /// After a parser's or control's signature: optional constructor
    /// parameters and the `{`, then `body` with the type parameters in scope.
    fn block_body(
        &mut self,
        proto: BlockProto,
        body: impl FnOnce(&mut Self, BlockProto, Vec<Param>) -> PResult<DeclKind>,
    ) -> PResult<DeclKind> {
        let type_params = proto.type_params.clone();
        self.with_type_params(&type_params, |p| {
            let ctor_params = if p.is_punct(Punct::LParen) {
                p.params()?
            } else {
                Vec::new()
            };
            p.expect_punct(Punct::LBrace)?;
            body(p, proto, ctor_params)
        })
    }

    fn parser_decl(&mut self, annotations: Annotations) -> PResult<DeclKind> {
        self.expect_kw(Kw::Parser)?;
        let proto = self.block_proto(annotations)?;
        if self.eat_punct(Punct::Semi) {
            return Ok(DeclKind::ParserType(proto));
        }
        self.block_body(proto, |p, proto, ctor_params| {
            let mut locals = Vec::new();
            let mut states = Vec::new();
            while !p.eat_punct(Punct::RBrace) {
                if p.at_eof() {
                    return p.fail("`}`");
                }
                let annos_start = p.cursor();
                let annotations = p.annotations()?;
                if p.is_word("state") && matches!(p.kind_at(1), TokenKind::Ident(_)) {
                    states.push(p.parser_state(annotations)?);
                } else {
                    p.pos = annos_start;
                    locals.push(p.decl()?);
                }
            }
            Ok(DeclKind::Parser(ParserDecl {
                proto,
                ctor_params,
                locals,
                states,
            }))
        })
    }

    fn parser_state(&mut self, annotations: Annotations) -> PResult<ParserState> {
        let lo = self.start();
        self.expect_word("state")?;
        let name = self.name()?;
        self.expect_punct(Punct::LBrace)?;
        let mut body = Vec::new();
        let mut transition = None;
        while !self.eat_punct(Punct::RBrace) {
            if self.at_eof() {
                return self.fail("`}`");
            }
            if self.is_kw(Kw::Transition) {
                transition = Some(self.transition()?);
                self.expect_punct(Punct::RBrace)?;
                break;
            }
            body.push(self.stmt()?);
        }
        Ok(ParserState {
            annotations,
            name,
            body,
            transition,
            span: self.span_from(lo),
        })
    }

    fn control_decl(&mut self, annotations: Annotations) -> PResult<DeclKind> {
        self.expect_kw(Kw::Control)?;
        let proto = self.block_proto(annotations)?;
        if self.eat_punct(Punct::Semi) {
            return Ok(DeclKind::ControlType(proto));
        }
        self.block_body(proto, |p, proto, ctor_params| {
            let mut locals = Vec::new();
            loop {
                if p.at_eof() {
                    return p.fail("`apply`");
                }
                if p.is_word("apply")
                    && (p.is_punct_at(1, Punct::LBrace) || p.is_punct_at(1, Punct::At))
                {
                    p.bump();
                    break;
                }
                locals.push(p.decl()?);
            }
            let apply = p.annotated_block()?;
            p.expect_punct(Punct::RBrace)?;
            Ok(DeclKind::Control(ControlDecl {
                proto,
                ctor_params,
                locals,
                apply,
            }))
        })
    }

    fn action_decl(&mut self, annotations: Annotations) -> PResult<ActionDecl> {
        self.expect_kw(Kw::Action)?;
        let name = self.name()?;
        let params = self.params()?;
        let body = self.annotated_block()?;
        Ok(ActionDecl {
            annotations,
            name,
            params,
            body,
        })
    }

    fn value_set(&mut self, annotations: Annotations) -> PResult<ValueSetDecl> {
        self.expect_kw(Kw::ValueSet)?;
        self.expect_punct(Punct::Lt)?;
        let elem = self.ty()?;
        self.expect_close_angle()?;
        self.expect_punct(Punct::LParen)?;
        let size = self.expr()?;
        self.expect_punct(Punct::RParen)?;
        let name = self.name()?;
        self.expect_punct(Punct::Semi)?;
        Ok(ValueSetDecl {
            annotations,
            elem,
            size,
            name,
        })
    }

    // ------------------------------------------------------------ tables

    fn table_decl(&mut self, annotations: Annotations) -> PResult<TableDecl> {
        self.expect_kw(Kw::Table)?;
        let name = self.name()?;
        self.expect_punct(Punct::LBrace)?;
        let mut props = Vec::new();
        while !self.eat_punct(Punct::RBrace) {
            if self.at_eof() {
                return self.fail("`}`");
            }
            props.push(self.table_prop()?);
        }
        Ok(TableDecl {
            annotations,
            name,
            props,
        })
    }

    fn table_prop(&mut self) -> PResult<TableProp> {
        let lo = self.start();
        let mut annotations = self.annotations()?;
        let is_const = self.eat_kw(Kw::Const);
        annotations.extend(self.annotations()?);
        let kind = if self.is_word("key") && self.is_punct_at(1, Punct::Assign) {
            self.bump();
            self.bump();
            TablePropKind::Key(self.key_elements()?)
        } else if self.is_word("actions") && self.is_punct_at(1, Punct::Assign) {
            self.bump();
            self.bump();
            TablePropKind::Actions(self.action_list()?)
        } else if self.is_word("entries") && self.is_punct_at(1, Punct::Assign) {
            self.bump();
            self.bump();
            TablePropKind::Entries(self.entries()?)
        } else {
            let name = self.member_name()?;
            self.expect_punct(Punct::Assign)?;
            let value = self.expr()?;
            self.expect_punct(Punct::Semi)?;
            TablePropKind::Other { name, value }
        };
        Ok(TableProp {
            annotations,
            is_const,
            kind,
            span: self.span_from(lo),
        })
    }

    fn key_elements(&mut self) -> PResult<Vec<KeyElement>> {
        self.expect_punct(Punct::LBrace)?;
        let mut keys = Vec::new();
        while !self.eat_punct(Punct::RBrace) {
            let lo = self.start();
            let expr = self.expr()?;
            self.expect_punct(Punct::Colon)?;
            let match_kind = self.member_name()?;
            let annotations = self.annotations()?;
            self.expect_punct(Punct::Semi)?;
            keys.push(KeyElement {
                annotations,
                expr,
                match_kind,
                span: self.span_from(lo),
            });
        }
        Ok(keys)
    }

    fn action_list(&mut self) -> PResult<Vec<ActionRef>> {
        self.expect_punct(Punct::LBrace)?;
        let mut actions = Vec::new();
        while !self.eat_punct(Punct::RBrace) {
            actions.push(self.action_ref()?);
            self.expect_punct(Punct::Semi)?;
        }
        Ok(actions)
    }

    fn action_ref(&mut self) -> PResult<ActionRef> {
        let lo = self.start();
        let annotations = self.annotations()?;
        let name = self.path()?;
        let args = if self.is_punct(Punct::LParen) {
            Some(self.args()?)
        } else {
            None
        };
        Ok(ActionRef {
            annotations,
            name,
            args,
            span: self.span_from(lo),
        })
    }

    fn entries(&mut self) -> PResult<Vec<Entry>> {
        self.expect_punct(Punct::LBrace)?;
        let mut entries = Vec::new();
        while !self.eat_punct(Punct::RBrace) {
            if self.at_eof() {
                return self.fail("`}`");
            }
            let lo = self.start();
            let mut annotations = self.annotations()?;
            let is_const = self.eat_kw(Kw::Const);
            annotations.extend(self.annotations()?);
            let priority = if self.is_word("priority") && self.is_punct_at(1, Punct::Assign) {
                self.bump();
                self.bump();
                let p = self.expr()?;
                self.expect_punct(Punct::Colon)?;
                Some(p)
            } else {
                None
            };
            let keyset = self.keyset()?;
            self.expect_punct(Punct::Colon)?;
            let action = self.action_ref()?;
            annotations.extend(self.annotations()?);
            self.expect_punct(Punct::Semi)?;
            entries.push(Entry {
                annotations,
                is_const,
                priority,
                keyset,
                action,
                span: self.span_from(lo),
            });
        }
        Ok(entries)
    }

    // ------------------------------------------------------------ annotations

    pub(crate) fn annotations(&mut self) -> PResult<Annotations> {
        let mut annos = Vec::new();
        while self.is_punct(Punct::At) {
            annos.push(self.annotation()?);
        }
        Ok(annos)
    }

    fn annotation(&mut self) -> PResult<Annotation> {
        let lo = self.start();
        self.expect_punct(Punct::At)?;
        let name = self.member_name()?;
        if name.name == "pragma" {
            // `@pragma name tokens...` runs to the end of the line, and
            // may hold any characters, as an annotation's body.
            let mut tokens = Vec::new();
            while !self.at_eof() && !self.newline_before() {
                tokens.push(self.bump());
            }
            let from = name.span.hi as usize;
            let eol = self.text[from..]
                .find('\n')
                .map_or(self.text.len(), |k| from + k);
            let (from, eol) = (name.span.hi, eol as u32);
            self.annotation_bodies
                .push(crate::source::Span::new(from, eol));
            tokens = with_unread_characters(self.text, from, eol, tokens);
            return Ok(Annotation {
                name,
                body: AnnotationBody::Unstructured {
                    tokens,
                    exprs: None,
                },
                span: self.span_from(lo),
            });
        }
        let body = if self.is_punct(Punct::LParen) {
            self.unstructured_body()?
        } else if self.is_punct(Punct::LBracket) {
            self.structured_body()?
        } else {
            AnnotationBody::Empty
        };
        Ok(Annotation {
            name,
            body,
            span: self.span_from(lo),
        })
    }

    fn unstructured_body(&mut self) -> PResult<AnnotationBody> {
        let open = self.expect_punct(Punct::LParen)?;
        let mut depth = 0usize;
        let mut tokens: Vec<Token> = Vec::new();
        loop {
            match self.kind() {
                TokenKind::Eof => return self.fail("`)` closing the annotation"),
                TokenKind::Punct(Punct::LParen) => depth += 1,
                TokenKind::Punct(Punct::RParen) => {
                    if depth == 0 {
                        let close = self.bump().span;
                        self.annotation_bodies
                            .push(crate::source::Span::new(open.lo, close.hi));
                        // Characters the lexer could not read (`$`, `'`,
                        // a `#` inside a line) are tokens of the body too,
                        // as p4c's UNEXPECTED_TOKENs: found in the gaps
                        // between the lexer's tokens.
                        tokens = with_unread_characters(self.text, open.hi, close.lo, tokens);
                        break;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            tokens.push(self.bump());
        }
        let exprs = parse_expr_list(&tokens, self.text);
        Ok(AnnotationBody::Unstructured { tokens, exprs })
    }

    fn structured_body(&mut self) -> PResult<AnnotationBody> {
        self.expect_punct(Punct::LBracket)?;
        if self.eat_punct(Punct::RBracket) {
            return Ok(AnnotationBody::ExprList(Vec::new()));
        }
        let kv = matches!(self.kind(), TokenKind::Ident(_)) && self.is_punct_at(1, Punct::Assign);
        if kv {
            let mut pairs = Vec::new();
            loop {
                let k = self.name()?;
                self.expect_punct(Punct::Assign)?;
                let v = self.expr()?;
                pairs.push((k, v));
                if !self.eat_punct(Punct::Comma) || self.is_punct(Punct::RBracket) {
                    break;
                }
            }
            self.expect_punct(Punct::RBracket)?;
            return Ok(AnnotationBody::KeyValues(pairs));
        }
        let mut list = Vec::new();
        loop {
            list.push(self.expr()?);
            if !self.eat_punct(Punct::Comma) || self.is_punct(Punct::RBracket) {
                break;
            }
        }
        self.expect_punct(Punct::RBracket)?;
        Ok(AnnotationBody::ExprList(list))
    }
}

/// `tokens` (lexed from `text[lo..hi]`) with the text between them that is
/// neither whitespace nor a comment added as identifier-like tokens, one per
/// run of such characters: what the lexer skipped as unreadable.
fn with_unread_characters(text: &str, lo: u32, hi: u32, tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut at = lo as usize;
    let gap = |from: usize, to: usize, out: &mut Vec<Token>| {
        let Some(s) = text.get(from..to) else {
            return;
        };
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_whitespace() {
                i += 1;
            } else if b[i..].starts_with(b"//") {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            } else if b[i..].starts_with(b"/*") {
                i = s[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
            } else {
                let start = i;
                while i < b.len()
                    && !b[i].is_ascii_whitespace()
                    && !b[i..].starts_with(b"//")
                    && !b[i..].starts_with(b"/*")
                {
                    i += 1;
                }
                let (a, z) = ((from + start) as u32, (from + i) as u32);
                if let Some(run) = text.get(a as usize..z as usize) {
                    out.push(Token {
                        kind: TokenKind::Ident(run.to_string()),
                        span: crate::source::Span::new(a, z),
                        space_before: true,
                    });
                }
            }
        }
    };
    for t in tokens {
        gap(at, t.span.lo as usize, &mut out);
        at = t.span.hi as usize;
        out.push(t);
    }
    gap(at, hi as usize, &mut out);
    out
}

/// Parses annotation tokens as a comma-separated expression list, if they
/// are one. An empty body is an empty list.
fn parse_expr_list(tokens: &[Token], text: &str) -> Option<Vec<Expr>> {
    let mut toks = tokens.to_vec();
    let end = tokens.last().map_or(0, |t| t.span.hi);
    toks.push(Token {
        kind: TokenKind::Eof,
        span: crate::source::Span::new(end, end),
        space_before: true,
    });
    let mut p = Parser::new(&toks, text);
    let mut list = Vec::new();
    if p.at_eof() {
        return Some(list);
    }
    loop {
        list.push(p.expr().ok()?);
        if p.eat_punct(Punct::Comma) {
            continue;
        }
        return p.at_eof().then_some(list);
    }
}
