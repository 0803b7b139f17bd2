//! Diagnostics: errors and warnings with stable codes, rendered with a
//! source snippet at `file:line:col`.

use crate::source::{FileId, FileSpan, SourceMap};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;
use std::ops::Range;

macro_rules! codes {
    ($( $(#[$doc:meta])* $name:ident = $code:literal, $title:literal, $explain:literal; )*) => {
        /// Every diagnostic Janus's front end reports has one of these codes.
        /// Codes are stable: tests and users refer to them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code { $( $(#[$doc])* $name, )* }

        impl Code {
            /// All codes, in catalogue order.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];

            /// The code as printed, e.g. `E0100`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$name => $code,)* }
            }

            /// A one-line title.
            pub fn title(self) -> &'static str {
                match self { $(Code::$name => $title,)* }
            }

            /// A short explanation with an example, as `janus p4 explain` prints it.
            pub fn explanation(self) -> &'static str {
                match self { $(Code::$name => $explain,)* }
            }

            /// Looks a code up by its printed form (case-insensitive).
            pub fn parse(s: &str) -> Option<Code> {
                Code::ALL.iter().copied().find(|c| c.as_str().eq_ignore_ascii_case(s))
            }
        }
    };
}

codes! {
    // ---- E00xx: reading the source ----
    BadCharacter = "E0001", "invalid character or token",
        "The source contains a character that cannot start any P4 token, such as `$` or a stray backslash.";
    UnterminatedComment = "E0002", "unterminated block comment",
        "A `/*` comment has no matching `*/` before the end of the file.";
    UnterminatedString = "E0003", "unterminated string literal",
        "A string literal has no closing `\"` before the end of the file (a string may span lines).";
    BadLiteral = "E0004", "malformed integer literal",
        "An integer literal is malformed: a digit that its base does not allow, a width of 0 for `w`, \
         a missing value after `8w`, or a signed width below 1 (`0s1`).";
    Syntax = "E0010", "syntax error",
        "The parser met a token it did not expect here. The message says what it expected.\n\n\
         Example: `bit<8> x = 1` (missing `;`).";
    // ---- E002x: the preprocessor ----
    IncludeNotFound = "E0020", "include file not found",
        "An `#include` names a file that is neither built in (`core.p4`, `v1model.p4`, ...) nor found \
         relative to the including file or in any `-I` directory.";
    BadDirective = "E0021", "malformed preprocessor directive",
        "A `#` directive is unknown or malformed, an `#if` has no `#endif`, an `#else` or `#endif` has \
         no `#if`, or an `#if` expression cannot be evaluated.";
    ErrorDirective = "E0022", "#error directive",
        "The program reached an `#error` directive.";
    MacroArguments = "E0023", "wrong macro arguments",
        "A function-like macro was invoked with the wrong number of arguments, or its argument list \
         is not closed.";
    IncludeDepth = "E0024", "includes nested too deeply",
        "Includes nest more than 200 levels deep, which usually means a file includes itself without \
         an include guard.";
    // ---- E01xx: names ----
    UndeclaredName = "E0100", "undeclared name",
        "A name is used that is not declared in any enclosing scope. P4 requires declaration before use.\n\n\
         Example: `x = y;` where `y` was never declared.";
    DuplicateDeclaration = "E0101", "duplicate declaration",
        "Two declarations in the same scope have the same name (P4 allows overloading only of \
         functions, methods and constructors by argument count).";
    NotAType = "E0102", "not a type",
        "A name is used where a type is expected, but it names a value, table or action.";
    WrongKindOfName = "E0103", "wrong kind of name",
        "A name refers to something that cannot be used this way: calling a variable, applying an \
         action, using a type as a value, instantiating a non-instantiable type.";
    UnknownMember = "E0104", "unknown member",
        "A field, method or enum member does not exist on this type.\n\nExample: `hdr.ipv4.ttll`.";
    // ---- E02xx: types ----
    TypeMismatch = "E0200", "type mismatch",
        "A value of one type is used where another type is required and no implicit conversion \
         exists. P4 converts implicitly only from `int` (infinite-precision) constants and from \
         serializable enums where the spec allows.\n\nExample: `bit<8> a; bit<16> b; a = b;`.";
    WidthMismatch = "E0201", "operands of different widths",
        "A binary operator's operands have different widths or signedness. Cast one of them.\n\n\
         Example: `bit<8> a; bit<16> b; a + b`.";
    BadOperand = "E0202", "invalid operand type",
        "An operator is applied to a type it does not support, such as `+` on `bool` or `!` on `bit<8>`.";
    ArgumentCount = "E0203", "wrong number of arguments",
        "A call, instantiation or specialization passes a different number of arguments (or type \
         arguments) than the callee declares.";
    NotAnLValue = "E0204", "not assignable",
        "The target of an assignment, or an argument for an `out`/`inout` parameter, is not an \
         l-value: a constant, an `in` parameter, a literal or a computed expression.";
    NotConstant = "E0205", "not a compile-time constant",
        "A context that needs a compile-time known value (a width, a `const`, a constructor \
         argument, a `select` or table entry key) got a run-time value.";
    BadSlice = "E0207", "invalid bit slice",
        "A slice `e[h:l]` needs compile-time bounds with `h >= l` inside the value's width, on a \
         `bit<>`/`int<>` value.";
    BadCast = "E0208", "invalid cast",
        "The cast is not among those P4 allows (e.g. `bool` to `bit<8>`, or between structs).";
    NotBoolean = "E0209", "condition is not boolean",
        "The condition of `if`, `?:`, `&&`, `||` or `!` must be `bool`.";
    DivisionByZero = "E0210", "division by zero",
        "A compile-time division or modulo by zero.";
    BadTypeArgument = "E0211", "invalid type argument",
        "A type cannot be used here: e.g. `bit<0>` where a width of at least 1 is needed, a header \
         containing a struct, a type parameter that cannot be inferred.";
    NotCallable = "E0212", "cannot call this",
        "The expression is not a function, action, method or extern function.";
    // ---- E03xx: statements and control flow ----
    NotAllowedHere = "E0300", "not allowed here",
        "The statement, call or declaration is not allowed in this context, e.g. applying a table in \
         an action, calling a control from a parser, `exit` in a function, a `transition` outside a \
         parser state, or a method call that may only appear in a parser.";
    MissingReturn = "E0301", "missing return",
        "A function with a non-void return type can reach its end without `return`.";
    UnknownState = "E0302", "unknown parser state",
        "A `transition` names a state that is not declared in the parser (nor `accept`/`reject`).";
    DuplicateLabel = "E0303", "duplicate label",
        "A `switch` has two cases with the same label, or two `default` labels.";
    BadSwitch = "E0304", "invalid switch",
        "A `switch` must be on `table.apply().action_run` (with action-name labels) or on a value of \
         `bit<>`, `int<>`, enum or error type (with constant labels).";
    // ---- E04xx: tables and actions ----
    BadMatchKind = "E0400", "invalid match kind",
        "A table key uses a match kind that is not declared (`exact`, `ternary`, `lpm`, ... come from \
         core.p4 and the architecture).";
    ActionNotInTable = "E0401", "action not in table",
        "A table's `default_action` or an entry names an action missing from its `actions` list.";
    BadTableProperty = "E0402", "invalid table property",
        "A table property is malformed or repeated: a `key` that is not a list of `expr: match_kind`, \
         `actions` that are not actions, or a property given twice.";
    ActionArguments = "E0403", "wrong action arguments",
        "An action reference gives arguments for the wrong parameters: data-plane (directional) \
         parameters must be bound in the `actions` list; control-plane (directionless) parameters \
         are bound by entries and `default_action`.";
    // ---- E05xx: architecture and packages ----
    BadPackage = "E0500", "invalid package instantiation",
        "The `main` package's arguments do not match its declaration: wrong count, or a parser \
         or control whose signature differs from the architecture's.";
    // ---- Wxxxx: warnings ----
    UnusedDeclaration = "W0001", "unused declaration",
        "A local declaration is never used.";
    Shadowing = "W0002", "declaration shadows another",
        "A declaration hides one of the same name in an enclosing scope.";
    UnreachableCode = "W0003", "unreachable code",
        "A statement follows `return`, `exit` or a `transition` and can never run.";
    UninitializedRead = "W0004", "may read an uninitialised value",
        "A local variable or `out` parameter is read before it is assigned on some path.";
    UnknownAnnotation = "W0005", "unknown annotation",
        "An annotation that Janus does not know is kept as written but has no effect.";
    Truncation = "W0006", "value truncated",
        "A constant does not fit the width it is given or converted to, e.g. `8w256` or \
         `bit<8> x = 300;`; it is truncated to that width (as p4c does, with a warning).";
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Note,
    Warning,
    Error,
}

/// A labelled place in the source.
#[derive(Clone, Debug)]
pub struct Label {
    pub span: FileSpan,
    pub message: String,
    pub primary: bool,
}

/// One error or warning.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn warning(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    /// Adds the primary label (where the problem is).
    pub fn at(mut self, span: FileSpan, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: true,
        });
        self
    }

    /// Adds a secondary label (related place).
    pub fn also(mut self, span: FileSpan, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: false,
        });
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// The primary location, if any.
    pub fn primary_span(&self) -> Option<FileSpan> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Collects diagnostics during a compilation.
#[derive(Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }

    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }

    pub fn has_errors(&self) -> bool {
        self.list.iter().any(Diagnostic::is_error)
    }

    pub fn error_count(&self) -> usize {
        self.list.iter().filter(|d| d.is_error()).count()
    }

    pub fn warning_count(&self) -> usize {
        self.list
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.list.iter()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.list
    }

    /// Renders every diagnostic as text with source snippets.
    pub fn render(&self, sources: &SourceMap, color: bool) -> String {
        render_all(&self.list, sources, color)
    }
}

/// Renders diagnostics as text with `file:line:col` headers and snippets.
pub fn render_all(list: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let config = term::Config::default();
    let mut out = Vec::new();
    for d in list {
        let cs = to_codespan(d);
        if color {
            let mut w = term::termcolor::Ansi::new(&mut out);
            let _ = term::emit_to_write_style(&mut w, &config, &Files(sources), &cs);
        } else {
            let mut w = term::termcolor::NoColor::new(&mut out);
            let _ = term::emit_to_write_style(&mut w, &config, &Files(sources), &cs);
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn to_codespan(d: &Diagnostic) -> cs::Diagnostic<FileId> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    let labels = d
        .labels
        .iter()
        .map(|l| {
            let style = if l.primary {
                cs::LabelStyle::Primary
            } else {
                cs::LabelStyle::Secondary
            };
            cs::Label::new(style, l.span.file, l.span.lo as usize..l.span.hi as usize)
                .with_message(l.message.clone())
        })
        .collect();
    cs::Diagnostic::new(severity)
        .with_code(d.code.as_str())
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(d.notes.clone())
}

/// Adapter that lets codespan-reporting read a [`SourceMap`].
struct Files<'a>(&'a SourceMap);

impl<'a> codespan_reporting::files::Files<'a> for Files<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        self.check(id)?;
        Ok(&self.0.file(id).name)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        self.check(id)?;
        Ok(&self.0.file(id).text)
    }

    fn line_index(
        &'a self,
        id: FileId,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        self.check(id)?;
        Ok(self.0.file(id).line_index(byte_index as u32))
    }

    fn line_range(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<Range<usize>, codespan_reporting::files::Error> {
        self.check(id)?;
        let f = self.0.file(id);
        let starts = f.line_starts();
        let start =
            *starts
                .get(line_index)
                .ok_or(codespan_reporting::files::Error::LineTooLarge {
                    given: line_index,
                    max: starts.len() - 1,
                })? as usize;
        let end = starts
            .get(line_index + 1)
            .map_or(f.text.len(), |&e| e as usize);
        Ok(start..end)
    }
}

impl Files<'_> {
    fn check(&self, id: FileId) -> Result<(), codespan_reporting::files::Error> {
        if (id.0 as usize) < self.0.len() {
            Ok(())
        } else {
            Err(codespan_reporting::files::Error::FileMissing)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_parse_back() {
        let mut seen = std::collections::HashSet::new();
        for &c in Code::ALL {
            assert!(seen.insert(c.as_str()), "duplicate code {c}");
            assert_eq!(Code::parse(c.as_str()), Some(c));
            assert!(!c.explanation().is_empty());
        }
    }

    #[test]
    fn render_shows_file_line_col_and_snippet() {
        let mut sm = SourceMap::new();
        let f = sm.add(
            "prog.p4",
            None,
            "control C() {\n  apply { x = 1; }\n}\n".into(),
        );
        let mut ds = Diagnostics::new();
        ds.push(
            Diagnostic::error(Code::UndeclaredName, "`x` is not declared").at(
                FileSpan {
                    file: f,
                    lo: 24,
                    hi: 25,
                },
                "not found in this scope",
            ),
        );
        let text = ds.render(&sm, false);
        assert!(text.contains("error[E0100]"), "{text}");
        assert!(text.contains("prog.p4:2:11"), "{text}");
        assert!(text.contains("apply { x = 1; }"), "{text}");
    }
}
