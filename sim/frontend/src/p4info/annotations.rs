//! Annotations as p4c writes them into P4Info: each unstructured annotation
//! printed back the way p4c's `ToP4` prints it, structured annotations
//! (`@name[...]`) in `structured_annotations`, and `@brief` /
//! `@description` as the `doc` field.
//!
//! p4c parses the bodies of the annotations it knows (its
//! `ParseAnnotations` handlers and P4Runtime's) and prints those as a
//! comma-separated expression list; any other body stays a token list,
//! printed with one space between tokens. A string keeps its source text.

use crate::ast::{self, AnnotationBody, Expr, ExprKind};
use crate::lexer::{Token, TokenKind};

/// A structured annotation's value (`p4.config.v1.Expression`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StructuredValue {
    String(String),
    Int(i64),
    Bool(bool),
}

/// `p4.config.v1.StructuredAnnotation`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Structured {
    pub name: String,
    /// `@name[e1, e2]`: the expressions; empty for `@name[]`.
    pub expressions: Vec<StructuredValue>,
    /// `@name[k = v, ...]`.
    pub kv_pairs: Vec<(String, StructuredValue)>,
}

/// `p4.config.v1.Documentation`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Doc {
    pub brief: String,
    pub description: String,
}

/// What a P4Info message takes from a declaration's annotations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    pub unstructured: Vec<String>,
    pub structured: Vec<Structured>,
    pub doc: Option<Doc>,
}

/// Annotations whose bodies p4c parses as expressions (its standard
/// handlers and P4Runtime's); the others keep their tokens.
const PARSED: &[&str] = &[
    "name",
    "deprecated",
    "noWarn",
    "length",
    "pkginfo",
    "synchronous",
    "field_list",
    "match",
    "command_line",
    "controller_header",
    "id",
    "brief",
    "description",
    "platform_property",
    "max_group_size",
    "selector_size_semantics",
    "max_member_weight",
    "p4runtime_translation",
    "p4runtime_translation_mappings",
];

/// Collects `annos` as p4c's `addAnnotations` and `addDocumentation` do:
/// structured annotations always; unstructured ones except `@name`, `@id`,
/// `@brief`, `@description` and those `skip` names.
pub fn collect(annos: &[ast::Annotation], skip: &[&str]) -> Annotations {
    let mut out = Annotations::default();
    for a in annos {
        let name = a.name.name.as_str();
        match &a.body {
            AnnotationBody::ExprList(list) => out.structured.push(Structured {
                name: name.to_string(),
                expressions: list.iter().filter_map(structured_value).collect(),
                kv_pairs: Vec::new(),
            }),
            AnnotationBody::KeyValues(pairs) => out.structured.push(Structured {
                name: name.to_string(),
                expressions: Vec::new(),
                kv_pairs: pairs
                    .iter()
                    .filter_map(|(k, v)| Some((k.name.clone(), structured_value(v)?)))
                    .collect(),
            }),
            _ if matches!(name, "brief" | "description") => {
                let text = doc_text(a);
                let doc = out.doc.get_or_insert_with(Doc::default);
                if name == "brief" {
                    doc.brief = text;
                } else {
                    doc.description = text;
                }
            }
            _ if matches!(name, "name" | "id") || skip.contains(&name) => {}
            _ => out.unstructured.push(unstructured(a)),
        }
    }
    out
}

/// One unstructured annotation as p4c's `ToP4` prints it: `@name` for an
/// empty body (`@oneshot()` included), else `@name(body)`.
pub fn unstructured(a: &ast::Annotation) -> String {
    let name = &a.name.name;
    let AnnotationBody::Unstructured { tokens, .. } = &a.body else {
        return format!("@{name}");
    };
    if tokens.is_empty() {
        return format!("@{name}");
    }
    let body = if PARSED.contains(&name.as_str()) {
        split_on_commas(tokens)
            .iter()
            .map(|part| joined(part))
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        tokens.iter().map(token_text).collect::<Vec<_>>().join(" ")
    };
    format!("@{name}({body})")
}

/// The top-level comma-separated parts of a token list.
fn split_on_commas(tokens: &[Token]) -> Vec<&[Token]> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, t) in tokens.iter().enumerate() {
        if let TokenKind::Punct(p) = t.kind {
            match p.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "," if depth == 0 => {
                    parts.push(&tokens[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
    }
    parts.push(&tokens[start..]);
    parts
}

/// An expression's tokens printed together, as an expression printer
/// would: words kept apart by a space, operators between spaces, the rest
/// (`bit<32>`, `a.b`) tight.
fn joined(tokens: &[Token]) -> String {
    let mut s = String::new();
    let mut prev_word = false;
    for t in tokens {
        let text = token_text(t);
        let word = matches!(
            t.kind,
            TokenKind::Ident(_) | TokenKind::Kw(_) | TokenKind::Int(_) | TokenKind::Str(_)
        );
        let binary = matches!(
            text.as_str(),
            "+" | "-"
                | "*"
                | "/"
                | "%"
                | "&"
                | "|"
                | "^"
                | "&&"
                | "||"
                | "=="
                | "!="
                | "<="
                | ">="
                | "++"
                | "&&&"
                | ".."
        );
        if binary {
            s.push(' ');
            s.push_str(&text);
            s.push(' ');
            prev_word = false;
            continue;
        }
        if word && prev_word {
            s.push(' ');
        }
        s.push_str(&text);
        prev_word = word;
    }
    s
}

/// A token's source text (a string literal with its quotes and escapes).
fn token_text(t: &Token) -> String {
    match &t.kind {
        TokenKind::Ident(n) => n.clone(),
        TokenKind::Kw(k) => k.as_str().to_string(),
        TokenKind::Int(lit) => crate::pretty::int_lit_p4c(lit),
        TokenKind::Str(v) => format!("\"{}\"", source_text(v)),
        TokenKind::Punct(p) => p.as_str().to_string(),
        TokenKind::DontCare => "_".to_string(),
        TokenKind::Eof => String::new(),
    }
}

/// A string literal's text as written between its quotes, as far as it
/// can be told from its value: p4c keeps a literal's source text, so a
/// real newline stays one, and `"` and `\` come back escaped.
pub fn source_text(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            c => s.push(c),
        }
    }
    s
}

/// The text of `@brief("...")` / `@description("...")`.
fn doc_text(a: &ast::Annotation) -> String {
    match a.single_expr() {
        Some(Expr {
            kind: ExprKind::Str(s),
            ..
        }) => source_text(s),
        _ => String::new(),
    }
}

fn structured_value(e: &Expr) -> Option<StructuredValue> {
    match &e.kind {
        ExprKind::Str(s) => Some(StructuredValue::String(source_text(s))),
        ExprKind::Bool(b) => Some(StructuredValue::Bool(*b)),
        ExprKind::Int(lit) => i64::try_from(&lit.value).ok().map(StructuredValue::Int),
        ExprKind::Unary(ast::UnOp::Neg, expr) => match &expr.kind {
            ExprKind::Int(lit) => i64::try_from(&lit.value)
                .ok()
                .map(|v| StructuredValue::Int(-v)),
            _ => None,
        },
        _ => None,
    }
}

/// `@p4runtime_translation(uri, bit<W>)` / `(uri, string)` / `(uri, W)` on
/// a type: the URI and the SDN width (`None`: an SDN string).
pub fn translation(annos: &[ast::Annotation]) -> Option<(String, Option<u32>)> {
    let a = ast::find_annotation(annos, "p4runtime_translation")?;
    let AnnotationBody::Unstructured { tokens, .. } = &a.body else {
        return None;
    };
    let parts = split_on_commas(tokens);
    let [uri, sdn] = parts.as_slice() else {
        return None;
    };
    let uri = match uri {
        [
            Token {
                kind: TokenKind::Str(s),
                ..
            },
        ] => source_text(s),
        _ => return None,
    };
    let width = |t: &Token| match &t.kind {
        TokenKind::Int(lit) => u32::try_from(&lit.value).ok(),
        _ => None,
    };
    let sdn = match sdn {
        [t] if token_text(t) == "string" => None,
        [t] => Some(width(t)?),
        [b, lt, w, gt]
            if token_text(b) == "bit" && token_text(lt) == "<" && token_text(gt) == ">" =>
        {
            Some(width(w)?)
        }
        _ => return None,
    };
    Some((uri, sdn))
}
