//! The forms of annotations p4c's front end refuses (E0219):
//!
//! * `@name`, `@deprecated` and `@noWarn` take exactly one argument, a
//!   string literal, in parentheses (p4c's `ValidateStringAnnotations`;
//!   the bracketed structured form is refused too).
//! * `@match` on a struct or header field takes exactly one argument, a
//!   match kind (p4c's `ValidateMatchAnnotations`, which looks only at
//!   annotations of struct fields).
//! * A structured annotation's name is unique among the annotations of its
//!   element, and its keys are unique (P4_16 specification, "Structured
//!   Annotations"). Several unstructured annotations of one name are
//!   allowed: they are cumulative.
//!
//! Every other annotation, known or not, is left alone here.

use super::Checker;
use super::annotation_values::{Event, Site, walk};
use crate::ast::{self, AnnotationBody};
use crate::diag::Code;
use crate::types::TypeTable;

/// The annotations whose single argument must be a string literal, with an
/// example of each.
const STRING_ANNOTATIONS: &[(&str, &str)] = &[
    ("name", "@name(\"ingress.t\")"),
    ("deprecated", "@deprecated(\"use f() instead\")"),
    ("noWarn", "@noWarn(\"unused\")"),
];

impl Checker<'_> {
    /// Checks every annotation list of the program, once all top-level
    /// declarations are known (a `@match` value names a match kind).
    pub(crate) fn check_annotation_rules(&mut self, program: &ast::Program) {
        let mut lists: Vec<(&[ast::Annotation], Site)> = Vec::new();
        walk(program, &mut |ev| {
            if let Event::Annotations(list, site) = ev
                && !list.is_empty()
            {
                lists.push((list, site));
            }
        });
        for (list, site) in lists {
            for a in list {
                self.check_string_annotation(a);
                if site == Site::Field && a.name.name == "match" {
                    self.check_match_annotation(a);
                }
            }
            self.check_structured_uniqueness(list);
        }
    }

    /// `@name("x")`, `@deprecated("x")`, `@noWarn("x")`.
    fn check_string_annotation(&mut self, a: &ast::Annotation) {
        let name = a.name.name.as_str();
        let Some(&(_, example)) = STRING_ANNOTATIONS.iter().find(|(n, _)| *n == name) else {
            return;
        };
        let exprs = match &a.body {
            AnnotationBody::ExprList(list) => {
                let instead = match list.as_slice() {
                    [
                        ast::Expr {
                            kind: ast::ExprKind::Str(s),
                            ..
                        },
                    ] => format!("@{name}({})", crate::pretty::string_lit(s)),
                    _ => example.to_string(),
                };
                self.bad_annotation(
                    a,
                    format!(
                        "`@{name}` is not a structured annotation: its string goes in parentheses, not brackets; write `{instead}`"
                    ),
                );
                return;
            }
            AnnotationBody::KeyValues(_) => {
                self.bad_annotation(
                    a,
                    format!(
                        "`@{name}` is not a structured annotation and takes no key-value pairs; give it one string literal in parentheses, e.g. `{example}`"
                    ),
                );
                return;
            }
            AnnotationBody::Empty => Some(&[][..]),
            AnnotationBody::Unstructured { exprs, .. } => exprs.as_deref(),
        };
        match exprs {
            Some([e]) => {
                if !matches!(e.kind, ast::ExprKind::Str(_)) {
                    let instead = match &e.kind {
                        ast::ExprKind::Name(_) | ast::ExprKind::Int(_) => format!(
                            "@{name}({})",
                            crate::pretty::string_lit(&crate::pretty::expr(e))
                        ),
                        _ => example.to_string(),
                    };
                    self.bad_annotation(
                        a,
                        format!(
                            "the argument of `@{name}` must be a string literal, not `{}`; write `{instead}`",
                            crate::pretty::expr(e)
                        ),
                    );
                }
            }
            Some(list) => {
                let has = argument_count(list.len());
                self.bad_annotation(
                    a,
                    format!(
                        "`@{name}` must have exactly 1 argument, a string literal, but has {has}; write e.g. `{example}`"
                    ),
                );
            }
            None => self.bad_annotation(
                a,
                format!(
                    "`@{name}` must have exactly 1 argument, a string literal; write e.g. `{example}`"
                ),
            ),
        }
    }

    /// `@match(kind)` on a struct or header field.
    fn check_match_annotation(&mut self, a: &ast::Annotation) {
        let exprs = match &a.body {
            // A structured `@match[...]` has its values checked as any
            // structured annotation's (E0217).
            AnnotationBody::ExprList(_) | AnnotationBody::KeyValues(_) => return,
            AnnotationBody::Empty => Some(&[][..]),
            AnnotationBody::Unstructured { exprs, .. } => exprs.as_deref(),
        };
        let e = match exprs {
            Some([e]) => e,
            Some(list) => {
                let has = argument_count(list.len());
                self.bad_annotation(
                    a,
                    format!(
                        "`@match` must have exactly 1 argument, the field's match kind, but has {has}; write e.g. `@match(ternary)`"
                    ),
                );
                return;
            }
            None => {
                self.bad_annotation(
                    a,
                    "`@match` must have exactly 1 argument, the field's match kind; write e.g. `@match(ternary)`",
                );
                return;
            }
        };
        let v = self.expr(e, None);
        if self.is_unknown(v.ty) || v.ty == TypeTable::MATCH_KIND {
            return;
        }
        let shown = self.show(v.ty);
        self.bad_annotation(
            a,
            format!(
                "the argument of `@match` must be a match kind (such as `exact`, `ternary` or `lpm`), not `{}` of type `{shown}`; write e.g. `@match(ternary)`",
                crate::pretty::expr(e)
            ),
        );
    }

    /// A structured annotation's name appears once on its element, and its
    /// keys once in it.
    fn check_structured_uniqueness(&mut self, list: &[ast::Annotation]) {
        let structured = |a: &ast::Annotation| {
            matches!(
                a.body,
                AnnotationBody::ExprList(_) | AnnotationBody::KeyValues(_)
            )
        };
        for (i, a) in list.iter().enumerate() {
            let name = a.name.name.as_str();
            if let AnnotationBody::KeyValues(kvs) = &a.body {
                for (j, (k, _)) in kvs.iter().enumerate() {
                    if kvs[..j].iter().any(|(k0, _)| k0.name == k.name) {
                        self.bad_annotation(
                            a,
                            format!(
                                "the key `{}` appears more than once in `@{name}[...]`; each key of a structured annotation must be unique: keep one `{} = ...`",
                                k.name, k.name
                            ),
                        );
                        break;
                    }
                }
            }
            let Some(first) = list[..i].iter().find(|b| b.name.name == name) else {
                continue;
            };
            let message = match (structured(first), structured(a)) {
                (false, false) => continue,
                (true, true) => format!(
                    "the structured annotation `@{name}` is given more than once on this declaration; a structured annotation's name must be unique on its declaration: merge them into one `@{name}[...]`"
                ),
                _ => format!(
                    "`@{name}` is used both as a structured annotation (`@{name}[...]`) and as an unstructured one (`@{name}(...)`) on this declaration; use one form only"
                ),
            };
            self.bad_annotation(a, message);
        }
    }

    fn bad_annotation(&mut self, a: &ast::Annotation, message: impl Into<String>) {
        self.error(Code::BadAnnotation, a.span, message);
    }
}

/// How many arguments an annotation has, for messages: "none", "2", ...
fn argument_count(n: usize) -> String {
    if n == 0 {
        "none".to_string()
    } else {
        n.to_string()
    }
}
