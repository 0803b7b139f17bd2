//! Diagnostics: errors and warnings with stable codes, rendered with a
//! source snippet at `file:line:col`.

use crate::source::{FileSpan, SourceMap};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;

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
    InputTooLarge = "E0005", "input too large",
        "The program is refused because it is too big: a source file or an included file is larger \
         than 16 MiB, the preprocessed program would be larger than 64 MiB, or the preprocessor \
         would read more than 256 MiB of source in all (a file without an include guard included \
         over and over).";
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
    IncludeNotAllowed = "E0025", "include not allowed",
        "The program was compiled in the sandboxed mode used for programs pushed by a controller \
         (a P4Runtime device config): there `#include` may name only the built-in architecture \
         files (`core.p4`, `v1model.p4`, `psa.p4`, `pna.p4`, ...), and no file is read from disk.";
    // ---- E01xx: names ----
    UndeclaredName = "E0100", "undeclared name",
        "A name is used that is not declared in any enclosing scope. P4 requires declaration before use.\n\n\
         Example: `x = y;` where `y` was never declared.";
    DuplicateDeclaration = "E0101", "duplicate declaration",
        "Two declarations in the same scope have the same name (P4 allows overloading only of \
         functions, methods and constructors by argument count), a parser state has the name \
         of a parser local, or a declaration hides a parameter of an enclosing scope (as p4c \
         refuses).";
    NotAType = "E0102", "not a type",
        "A name is used where a type is expected, but it names a value, table or action.";
    WrongKindOfName = "E0103", "wrong kind of name",
        "A name refers to something that cannot be used this way: calling a variable, applying an \
         action, using a type as a value, instantiating a non-instantiable type.";
    UnknownMember = "E0104", "unknown member",
        "A field, method or enum member does not exist on this type.\n\nExample: `hdr.ipv4.ttll`.";
    DuplicateParameter = "E0105", "duplicate parameter name",
        "Two parameters of one declaration have the same name, or a parameter has the name of a \
         type parameter. The parameters of a parser, control or package (its apply and constructor \
         parameters and its type parameters) share one namespace; so do those of an action, a \
         function, an extern function, a method or a constructor.\n\n\
         Example: `action a(bit<8> x, bit<8> x) { }`.";
    AmbiguousCall = "E0106", "ambiguous call",
        "A call of an overloaded function, extern function, method or constructor matches more \
         than one of its overloads, so it cannot be resolved. Overloads are told apart by their \
         number of parameters and, for named arguments, by parameter names (as p4c resolves \
         them); a parameter with a default value or `@optional` may be left out, so overloads \
         that differ only there, or only in types, are ambiguous. (A call that matches no \
         overload is E0203.)\n\n\
         Example: `extern void f(in bit<8> a); extern void f(in bit<16> b);` and then `f(x)`.";
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
         containing a struct, a type parameter that cannot be inferred. Also, as p4c: `_` in a \
         constant's type, `type` over anything but `bit<W>`, `int<W>`, `bool` or another `type`, \
         a struct with a new type inside a header, an extern, parser or control as a tuple \
         element, `void` or a parser/control/package type as a type argument, a value set of \
         headers, varbits or stacks, a constructor with type parameters.";
    NotCallable = "E0212", "cannot call this",
        "The expression is not a function, action, method or extern function.";
    AbstractMethod = "E0213", "abstract method not implemented as declared",
        "An instance of an extern with abstract methods must implement each of them in its \
         initialiser block (`E() e = { void m(...) { ... } };`), with the same parameter names, \
         types and directions and the same return type; an implementation must name an abstract \
         method of the extern, cannot be generic, and an extern without abstract methods takes no \
         initialiser block. An abstract method marked `@optional` may be left out.";
    BadParameterType = "E0214", "invalid parameter type",
        "A parameter's type does not allow its direction or its place: `string`, `int` and extern \
         parameters must be directionless; an action cannot have `int` parameters; parsers and \
         controls cannot be passed as parameters with a direction; constructor parameters have no \
         direction.\n\nExample: `extern void f(in int x);`.";
    SelfReferencingType = "E0215", "self-referencing type",
        "A type refers to itself: a struct, header or union with a field of its own type, a \
         `typedef` or `type` naming itself, or a generic type given itself as a type argument \
         (`E<E<bit<8>>>`). P4 types are finite.";
    BadReturnType = "E0216", "invalid return type",
        "A function or method cannot return this type: extern methods cannot return `int` or \
         `string`, and no call may produce a parser, control or package, nor an extern object \
         unless all its arguments are compile-time constants.";
    BadAnnotationValue = "E0217", "invalid structured annotation",
        "The values in a structured annotation (`@A[x = 1, y = \"s\"]` or `@A[1, true]`) must be \
         compile-time constants of type `int`, `string` or `bool`.\n\n\
         Example: `@A[x = 8w1]` (a `bit<8>`) or `@A[x = {1, 2}]` (a tuple).";
    BadPacketArgument = "E0218", "invalid argument of a packet method",
        "core.p4's packet methods take what p4c's CheckCoreMethods allows: `extract` takes a \
         header (a header stack's `next`, an element, a union member) or `_`, not a struct, \
         union, stack or scalar; `extract(h)` needs a header without `varbit` fields and \
         `extract(h, n)` one with a `varbit` field; `lookahead<T>` needs a fixed-width `T` (no \
         varbit, no header union, not `void`); `emit` takes headers, stacks, unions, and structs \
         or tuples of those. Inside a generic parser or control, a value of a type parameter \
         is checked where the block is used with concrete types.\n\n\
         Example: `pkt.extract(meta);` for a struct `meta`.";
    BadAnnotation = "E0219", "invalid annotation",
        "A built-in annotation is used in a form p4c rejects. `@name`, `@deprecated` and \
         `@noWarn` take exactly one string literal in parentheses (`@name(\"a\")`), never a \
         structured body in brackets; `@match` on a struct or header field takes exactly one \
         match kind (`@match(ternary)`). A structured annotation (`@A[...]`) may not share its \
         name with any other annotation on the same declaration, and may not repeat a key; \
         several unstructured annotations of one name (`@A(1) @A(2)`) are allowed.\n\n\
         Example: `@name(1)`, `@name(\"a\", \"b\")`, `@name[\"x\"]`, `@match(exact, lpm)`, \
         `@A[x = 1] @A[y = 2]`.";
    // ---- E03xx: statements and control flow ----
    NotAllowedHere = "E0300", "not allowed here",
        "The statement, call or declaration is not allowed in this context, e.g. applying a table in \
         an action, calling a control from a parser, `exit` in a function, a `transition` outside a \
         parser state, or a method call that may only appear in a parser; also `lastIndex` \
         outside a parser, `push_front`/`pop_front` in one, `action_run` outside a `switch`, \
         constructor calls in actions, and `this` outside an abstract method's implementation.";
    MissingReturn = "E0301", "missing return",
        "A function with a non-void return type can reach its end without `return`.";
    UnknownState = "E0302", "unknown parser state",
        "A `transition` names a state that is not declared in the parser (nor `accept`/`reject`).";
    DuplicateLabel = "E0303", "duplicate label",
        "A `switch` has two cases with the same label, or two `default` labels.";
    BadSwitch = "E0304", "invalid switch",
        "A `switch` must be on `table.apply().action_run` (with action-name labels) or on a value of \
         `bit<>`, `int<>`, enum or error type (with constant labels).";
    ParserNeverEnds = "E0305", "parser never reaches accept or reject",
        "No path from the parser's `start` state leads to `accept` or `reject`: every reachable \
         state transitions back into the loop, so the parser could never finish. (A state without \
         `transition` goes to `reject`.)";
    // ---- E04xx: tables and actions ----
    BadMatchKind = "E0400", "invalid match kind",
        "A table key uses a match kind that is not declared (`exact`, `ternary`, `lpm`, ... come from \
         core.p4 and the architecture).";
    ActionNotInTable = "E0401", "action not in table",
        "A table's `default_action` or an entry names an action missing from its `actions` list, \
         or an entry uses an action the list marks `@defaultonly`.";
    BadTableProperty = "E0402", "invalid table property",
        "A table property is malformed or repeated: a `key` that is not a list of `expr: match_kind`, \
         `actions` that are not actions, or a property given twice.";
    ActionArguments = "E0403", "wrong action arguments",
        "An action reference gives arguments for the wrong parameters: data-plane (directional) \
         parameters must be bound in the `actions` list; control-plane (directionless) parameters \
         are bound by entries and `default_action`, which repeat the data-plane arguments of the \
         `actions` list (the same expressions) before the control-plane ones.";
    EntriesWithoutKey = "E0404", "entries in a table without a key",
        "A table with no `key` (or an empty one) has no fields to match, so it cannot have \
         `entries`; give it a key or set its `default_action` instead.";
    BadEntryPriority = "E0405", "invalid entry priority",
        "Entry priorities are checked as p4c computes them: priorities are allowed only when \
         some key field's match kind needs them \
         (anything but `exact` and `lpm`); once one entry has a priority the first entry must have \
         one; and the priorities p4c derives for entries without one (each the previous minus \
         `priority_delta`, or plus it when `largest_priority_wins = false`) must stay within \
         0 ... 2^64-1.\n\nExample: `priority = 0` on an entry when the next priority would be \
         `0 - priority_delta`.";
    MissingNoAction = "E0406", "NoAction missing",
        "A table without `default_action` gets `NoAction` (from core.p4) as its default, so the \
         program must declare `action NoAction() {}` at the top level, with no parameters and no \
         body: include core.p4, or give the table a `default_action`.";
    KeyNeedsName = "E0407", "table key needs a @name",
        "A table key's control-plane name (its P4Info match field name) is its expression when \
         the expression is simple enough, as p4c's TableKeyNames derives it: a name, a field, an \
         array element, a constant, a slice, `a & b` of those, or `h.isValid()`. Any other key (a \
         function or method call, arithmetic, a cast) needs an `@name(\"...\")` annotation.\n\n\
         Example: `twice(hdr.a) : exact @name(\"a_twice\");`";
    ControlPlaneNameConflict = "E0408", "conflicting control-plane name",
        "Two different control-plane objects end up with the same fully qualified name, which \
         p4c rejects. A name is the enclosing control's instance path followed by the object's \
         name or its `@name`; an `@name` starting with `.` is taken as it is (without the dot), \
         and so is any name at the top level. Actions share one namespace (a top-level `a`, an \
         `@name(\"a\")` at the top level and an `@name(\".a\")` anywhere all mean `a`); tables \
         share another, and each kind of extern instance (counters, meters, registers, action \
         profiles, ...) its own, so a table, an action and a counter may have the same name. \
         Only what p4c keeps is compared: actions a kept table lists or an apply block calls, \
         tables that are applied, and the instances of applied parsers and controls. One action \
         used by two controls is one object; a table or extern instance with a `.` name in a \
         control instantiated twice is two. (Control-local actions that read the same but for \
         their name and share a `.` name count as one: p4c writes such copies itself.)\n\n\
         Example: `@name(\"t\") table t1 {...}` and `@name(\"t\") table t2 {...}` in one control.";
    // ---- E05xx: architecture and packages ----
    BadPackage = "E0500", "invalid package instantiation",
        "The `main` package's arguments do not match its declaration: wrong count, or a parser \
         or control whose signature differs from the architecture's.";
    UnknownV1ModelVersion = "E0501", "unknown v1model version",
        "`V1MODEL_VERSION`, defined before including v1model.p4, must be an integer literal \
         between 20180101 (the first v1model version, the default) and 20200408 (the latest), as \
         p4c requires.\n\nExample: `#define V1MODEL_VERSION 20210101`.";
    // ---- Wxxxx: warnings ----
    UnusedDeclaration = "W0001", "unused declaration",
        "A declaration is never used, where p4c warns about it: a parameter of a function or an action, a \
         table never applied, an instance (other than `main`) never referenced. As in p4c, \
         nothing is reported inside a parser or control that is never instantiated, and \
         `@unused` or `@noWarn(\"unused\")` on the declaration silences it.";
    Shadowing = "W0002", "declaration shadows another",
        "A declaration hides one of the same name in an enclosing scope.";
    UnreachableCode = "W0003", "unreachable code",
        "Code that can never run, where p4c warns about it: the `accept` state of a parser when \
         no path from `start` leads to it (the parser can only reject).";
    UninitializedRead = "W0004", "may read an uninitialised value",
        "A local variable declared without a value, or an `out` parameter, is read where some \
         path has not assigned it yet (p4c: \"may be uninitialized\"); or an `out` parameter of an \
         action or function is left unassigned on some path to its end. Scalars (`bit<W>`, \
         `int<W>`, `bool`, enums, `error`, new types) are tracked, as whole variables. \
         `@noWarn(\"uninitialized_use\")` (reads) or `@noWarn(\"uninitialized_out_param\")` on the \
         enclosing action, function, parser or control silences it.";
    Truncation = "W0006", "value truncated",
        "A constant does not fit the width it is given or converted to, e.g. `8w256` or \
         `bit<8> x = 300;`; it is truncated to that width (as p4c does, with a warning).";
    SwitchFallthroughAtEnd = "W0007", "switch label without a statement",
        "The last label of a `switch` has no block (`default:` or `a2:` just before the closing \
         `}`): it falls through to nothing, so that case does nothing. p4c warns \
         \"fallthrough with no statement\"; it is accepted as if written with an empty block \
         `{ }`.\n\nExample: `switch (t.apply().action_run) { a1: { } a2: }`.";
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

/// A compilation keeps at most this many errors; later ones are counted
/// but not kept (nor rendered), so that hostile input cannot make the
/// front end report, and render, one diagnostic per byte.
pub const MAX_ERRORS: usize = 100;
/// The same cap for warnings and notes.
pub const MAX_WARNINGS: usize = 100;
/// Messages, label messages and notes longer than this many characters
/// are cut (with `…`) when a diagnostic is collected.
pub const MAX_MESSAGE_CHARS: usize = 500;

/// Collects diagnostics during a compilation.
///
/// At most [`MAX_ERRORS`] errors and [`MAX_WARNINGS`] warnings are kept;
/// the rest are counted ([`Diagnostics::suppressed_errors`],
/// [`Diagnostics::suppressed_warnings`]) and [`Diagnostics::render`] ends
/// with a note saying how many were left out.
#[derive(Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
    errors: usize,
    warnings: usize,
    suppressed_errors: usize,
    suppressed_warnings: usize,
}

impl Diagnostics {
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }

    /// Collects `d` (its texts cut to [`MAX_MESSAGE_CHARS`]), unless the
    /// cap for its severity is reached, in which case it is only counted.
    pub fn push(&mut self, mut d: Diagnostic) {
        if d.is_error() {
            if self.errors >= MAX_ERRORS {
                self.suppressed_errors += 1;
                return;
            }
            self.errors += 1;
        } else {
            if self.warnings >= MAX_WARNINGS {
                self.suppressed_warnings += 1;
                return;
            }
            self.warnings += 1;
        }
        clip(&mut d.message);
        for l in &mut d.labels {
            clip(&mut l.message);
        }
        for n in &mut d.notes {
            clip(n);
        }
        self.list.push(d);
    }

    /// Whether any error was reported (kept or suppressed).
    pub fn has_errors(&self) -> bool {
        self.errors + self.suppressed_errors > 0
    }

    /// Errors reported, including those over the cap.
    pub fn error_count(&self) -> usize {
        self.errors + self.suppressed_errors
    }

    /// Warnings (and notes) reported, including those over the cap.
    pub fn warning_count(&self) -> usize {
        self.list
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
            + self.suppressed_warnings
    }

    /// Errors reported beyond [`MAX_ERRORS`]: counted, not kept.
    pub fn suppressed_errors(&self) -> usize {
        self.suppressed_errors
    }

    /// Warnings and notes reported beyond [`MAX_WARNINGS`].
    pub fn suppressed_warnings(&self) -> usize {
        self.suppressed_warnings
    }

    /// The kept diagnostics.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.list.iter()
    }

    /// How many diagnostics are kept.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.list
    }

    /// Renders every kept diagnostic as text with source snippets, then,
    /// if some were over the cap, a note saying how many.
    pub fn render(&self, sources: &SourceMap, color: bool) -> String {
        let mut out = render_all(&self.list, sources, color);
        if let Some(note) = self.suppressed_note() {
            out.push_str(&render_plain(
                cs::Diagnostic::note().with_message(note),
                color,
            ));
        }
        out
    }

    /// The closing note about diagnostics over the cap, if there were any.
    pub fn suppressed_note(&self) -> Option<String> {
        let plural =
            |n: usize, what: &str| format!("{n} more {what}{}", if n == 1 { "" } else { "s" });
        let parts: Vec<String> = [
            (self.suppressed_errors, "error"),
            (self.suppressed_warnings, "warning"),
        ]
        .into_iter()
        .filter(|&(n, _)| n > 0)
        .map(|(n, what)| plural(n, what))
        .collect();
        if parts.is_empty() {
            return None;
        }
        Some(format!(
            "{} not shown (the front end reports at most {MAX_ERRORS} errors and {MAX_WARNINGS} warnings)",
            parts.join(" and ")
        ))
    }
}

/// Cuts `s` to [`MAX_MESSAGE_CHARS`] characters, ending it with `…`.
fn clip(s: &mut String) {
    if s.len() <= MAX_MESSAGE_CHARS {
        return;
    }
    if let Some((at, _)) = s.char_indices().nth(MAX_MESSAGE_CHARS) {
        s.truncate(at);
        s.push('…');
    }
}

/// `text` for quoting in a message: at most `max` characters, with `…`
/// when it is longer, and control characters escaped.
pub fn shorten(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, ch) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if ch.is_control() {
            out.extend(ch.escape_debug());
        } else {
            out.push(ch);
        }
    }
    out
}

/// Renders diagnostics as text with `file:line:col` headers and snippets.
///
/// A snippet shows only the lines around each label, and of a line longer
/// than [`snippet::LONG_LINE`] bytes only a window of about
/// [`snippet::CONTEXT`] bytes either side of each label end (`…` marks
/// what is left out), so rendering costs the same however long the file
/// and its lines are. Control characters in the source are shown as `?`.
pub fn render_all(list: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let mut out = String::new();
    for d in list {
        let view = snippet::View::new(d, sources);
        let cs = to_codespan(d, &view);
        out.push_str(&render_with(&cs, &view, color));
    }
    out
}

/// Renders a diagnostic that has no labels.
fn render_plain(d: cs::Diagnostic<usize>, color: bool) -> String {
    render_with(&d, &snippet::View::default(), color)
}

fn render_with(d: &cs::Diagnostic<usize>, view: &snippet::View, color: bool) -> String {
    let config = term::Config::default();
    let mut out = Vec::new();
    if color {
        let mut w = term::termcolor::Ansi::new(&mut out);
        let _ = term::emit_to_write_style(&mut w, &config, view, d);
    } else {
        let mut w = term::termcolor::NoColor::new(&mut out);
        let _ = term::emit_to_write_style(&mut w, &config, view, d);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Control characters other than tab and newline, shown as `?`.
fn printable(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                '?'
            } else {
                c
            }
        })
        .collect()
}

fn to_codespan(d: &Diagnostic, view: &snippet::View) -> cs::Diagnostic<usize> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    let labels = d
        .labels
        .iter()
        .take(snippet::MAX_LABELS)
        .zip(view.label_ranges())
        .map(|(l, (file, range))| {
            let style = if l.primary {
                cs::LabelStyle::Primary
            } else {
                cs::LabelStyle::Secondary
            };
            cs::Label::new(style, file, range).with_message(printable(&l.message))
        })
        .collect();
    cs::Diagnostic::new(severity)
        .with_code(d.code.as_str())
        .with_message(printable(&d.message))
        .with_labels(labels)
        .with_notes(d.notes.iter().map(|n| printable(n)).collect())
}

/// The part of the sources one diagnostic shows, as codespan-reporting
/// reads it.
mod snippet {
    use super::Diagnostic;
    use crate::source::{SourceFile, SourceMap};
    use codespan_reporting::files::{Error, Location};
    use std::ops::Range;

    /// A line longer than this many bytes is shown in windows.
    pub const LONG_LINE: usize = 240;
    /// Bytes shown either side of a label end on a long line.
    pub const CONTEXT: usize = 80;
    /// Labels shown per diagnostic.
    pub const MAX_LABELS: usize = 16;
    /// Lines codespan-reporting shows after the start of a multi-line
    /// label and before its end (its `start_context_lines` and
    /// `end_context_lines`).
    const START_CONTEXT: usize = 3;
    const END_CONTEXT: usize = 1;
    /// Marks text left out of a long line.
    const ELLIPSIS: &str = "…";

    /// A few lines of one file, each cut to windows around label ends.
    #[derive(Debug, Default)]
    struct ViewFile {
        name: String,
        /// The lines shown (and placeholders for lines between them).
        text: String,
        line_starts: Vec<usize>,
        /// The real (one-based) number of each line of `text`.
        line_numbers: Vec<usize>,
        /// Real locations of offsets of `text` where labels start.
        locations: Vec<(usize, Location)>,
    }

    /// What one diagnostic shows: one [`ViewFile`] per file its labels
    /// are in, and each label's range in it.
    #[derive(Debug, Default)]
    pub struct View {
        files: Vec<ViewFile>,
        labels: Vec<(usize, Range<usize>)>,
    }

    impl View {
        pub fn new(d: &Diagnostic, sources: &SourceMap) -> View {
            let labels: Vec<_> = d.labels.iter().take(MAX_LABELS).collect();
            let mut view = View::default();
            let mut ranges = vec![(0, 0..0); labels.len()];
            let mut done = vec![false; labels.len()];
            for i in 0..labels.len() {
                if done[i] {
                    continue;
                }
                let file = labels[i].span.file;
                if (file.0 as usize) >= sources.len() {
                    // Unknown file: the label is dropped (an empty file).
                    done[i] = true;
                    ranges[i] = (view.files.len(), 0..0);
                    view.files.push(ViewFile {
                        line_starts: vec![0],
                        line_numbers: vec![1],
                        ..ViewFile::default()
                    });
                    continue;
                }
                let members: Vec<usize> = (i..labels.len())
                    .filter(|&j| !done[j] && labels[j].span.file == file)
                    .collect();
                let f = sources.file(file);
                let spans: Vec<(usize, usize)> = members
                    .iter()
                    .map(|&j| clamp_span(f, labels[j].span.lo, labels[j].span.hi))
                    .collect();
                let (vf, mapped) = build(f, &spans);
                let id = view.files.len();
                view.files.push(vf);
                for (k, &j) in members.iter().enumerate() {
                    done[j] = true;
                    ranges[j] = (id, mapped[k].clone());
                }
            }
            view.labels = ranges;
            view
        }

        /// Each label's file (an index of this view) and range in it.
        pub fn label_ranges(&self) -> impl Iterator<Item = (usize, Range<usize>)> + '_ {
            self.labels.iter().cloned()
        }

        fn file(&self, id: usize) -> Result<&ViewFile, Error> {
            self.files.get(id).ok_or(Error::FileMissing)
        }
    }

    /// `lo..hi` inside the text and on character boundaries.
    fn clamp_span(f: &SourceFile, lo: u32, hi: u32) -> (usize, usize) {
        let text = &f.text;
        let mut lo = (lo as usize).min(text.len());
        while !text.is_char_boundary(lo) {
            lo -= 1;
        }
        let mut hi = (hi as usize).clamp(lo, text.len());
        while !text.is_char_boundary(hi) {
            hi += 1;
        }
        (lo, hi)
    }

    /// The bounds of line `i` of `f`: its start, the end of its content
    /// (before `\n` or `\r\n`) and the start of the next line.
    fn line_bounds(f: &SourceFile, i: usize) -> (usize, usize, usize) {
        let starts = f.line_starts();
        let start = starts[i] as usize;
        let next = starts.get(i + 1).map_or(f.text.len(), |&s| s as usize);
        let b = f.text.as_bytes();
        let mut end = next;
        if end > start && b[end - 1] == b'\n' {
            end -= 1;
            if end > start && b[end - 1] == b'\r' {
                end -= 1;
            }
        }
        (start, end, next)
    }

    fn floor_boundary(text: &str, mut i: usize) -> usize {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    }

    fn ceil_boundary(text: &str, mut i: usize) -> usize {
        while !text.is_char_boundary(i) {
            i += 1;
        }
        i
    }

    /// Builds the view of file `f` for labels `spans`; returns it and
    /// each label's range in it.
    fn build(f: &SourceFile, spans: &[(usize, usize)]) -> (ViewFile, Vec<Range<usize>>) {
        // Points of interest per line: where labels start and end, and
        // the start of the context lines of multi-line labels.
        let mut points: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        for &(lo, hi) in spans {
            let a = f.line_index(lo as u32);
            let b = f.line_index(hi as u32);
            points.entry(a).or_default().push(lo);
            points.entry(b).or_default().push(hi);
            if b > a {
                let context =
                    (a + 1..=(a + START_CONTEXT).min(b - 1)).chain((b - END_CONTEXT).max(a + 1)..b);
                for line in context {
                    let start = f.line_starts()[line] as usize;
                    points.entry(line).or_default().push(start);
                }
            }
        }
        // Lines one or two apart from the next shown line are shown too
        // (codespan-reporting prints a single line between two shown ones).
        let shown: Vec<usize> = points.keys().copied().collect();
        for w in shown.windows(2) {
            if w[1] - w[0] <= 3 {
                for line in w[0] + 1..w[1] {
                    let start = f.line_starts()[line] as usize;
                    points.entry(line).or_default().push(start);
                }
            }
        }
        let mut vf = ViewFile {
            name: f.name.clone(),
            ..ViewFile::default()
        };
        // Where each (line, window) went: (line, window start, window
        // end, offset of the window in `vf.text`).
        let mut placed: Vec<(usize, usize, usize, usize)> = Vec::new();
        let mut prev: Option<usize> = None;
        for (&line, pts) in &points {
            if let Some(p) = prev
                && line > p + 1
            {
                // Lines left out: three empty placeholder lines, so
                // codespan-reporting prints a break (`·`) here.
                for k in 1..=3 {
                    vf.line_starts.push(vf.text.len());
                    vf.line_numbers.push(p + 1 + k);
                    vf.text.push('\n');
                }
            }
            prev = Some(line);
            let (start, end, next) = line_bounds(f, line);
            vf.line_starts.push(vf.text.len());
            vf.line_numbers.push(line + 1);
            for (ws, we) in windows(&f.text, start, end, pts) {
                if ws > start || (placed.last().is_some_and(|p| p.0 == line)) {
                    vf.text.push_str(ELLIPSIS);
                }
                placed.push((line, ws, we, vf.text.len()));
                push_printable(&mut vf.text, &f.text[ws..we]);
            }
            let last_end = placed
                .iter()
                .rev()
                .find(|p| p.0 == line)
                .map_or(start, |p| p.2);
            if last_end < end {
                vf.text.push_str(ELLIPSIS);
            }
            // The line's own ending, as written.
            let ending_at = vf.text.len();
            vf.text.push_str(&f.text[end..next]);
            placed.push((line, end, next, ending_at));
        }
        if vf.line_starts.is_empty() {
            vf.line_starts.push(0);
            vf.line_numbers.push(1);
        }
        let map = |x: usize| -> usize {
            placed
                .iter()
                .find(|&&(_, ws, we, _)| ws <= x && x <= we)
                .map_or(0, |&(_, ws, _, at)| at + (x - ws))
        };
        let mut ranges = Vec::with_capacity(spans.len());
        for &(lo, hi) in spans {
            let (vlo, vhi) = (map(lo), map(hi));
            let (line, col) = f.line_col(lo as u32);
            vf.locations.push((
                vlo,
                Location {
                    line_number: line,
                    column_number: col,
                },
            ));
            ranges.push(vlo..vhi.max(vlo));
        }
        (vf, ranges)
    }

    /// The windows of the line `start..end` shown for points `pts`: the
    /// whole line if it is short, else about [`CONTEXT`] bytes either
    /// side of each point, merged where they meet.
    fn windows(text: &str, start: usize, end: usize, pts: &[usize]) -> Vec<(usize, usize)> {
        if end - start <= LONG_LINE {
            return vec![(start, end)];
        }
        let mut ws: Vec<(usize, usize)> = pts
            .iter()
            .map(|&p| {
                let p = p.clamp(start, end);
                (
                    floor_boundary(text, p.saturating_sub(CONTEXT).max(start)),
                    ceil_boundary(text, (p + CONTEXT).min(end)),
                )
            })
            .collect();
        ws.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ws.len());
        for (a, b) in ws {
            match merged.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        merged
    }

    /// Appends `s` with control characters (other than tab) as `?`, which
    /// keeps every byte offset.
    fn push_printable(out: &mut String, s: &str) {
        for c in s.chars() {
            if c.is_control() && c != '\t' {
                // Multi-byte controls (U+0080..U+009F) keep their length.
                for _ in 0..c.len_utf8() {
                    out.push('?');
                }
            } else {
                out.push(c);
            }
        }
    }

    impl<'a> codespan_reporting::files::Files<'a> for View {
        type FileId = usize;
        type Name = &'a str;
        type Source = &'a str;

        fn name(&'a self, id: usize) -> Result<&'a str, Error> {
            Ok(&self.file(id)?.name)
        }

        fn source(&'a self, id: usize) -> Result<&'a str, Error> {
            Ok(&self.file(id)?.text)
        }

        fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, Error> {
            let f = self.file(id)?;
            Ok(match f.line_starts.binary_search(&byte_index) {
                Ok(i) => i,
                Err(i) => i.saturating_sub(1),
            })
        }

        fn line_number(&'a self, id: usize, line_index: usize) -> Result<usize, Error> {
            let f = self.file(id)?;
            Ok(f.line_numbers
                .get(line_index)
                .copied()
                .unwrap_or(line_index + 1))
        }

        fn location(&'a self, id: usize, byte_index: usize) -> Result<Location, Error> {
            let f = self.file(id)?;
            if let Some((_, loc)) = f.locations.iter().find(|(at, _)| *at == byte_index) {
                return Ok(*loc);
            }
            let line = self.line_index(id, byte_index)?;
            Ok(Location {
                line_number: self.line_number(id, line)?,
                column_number: self.column_number(id, line, byte_index)?,
            })
        }

        fn line_range(&'a self, id: usize, line_index: usize) -> Result<Range<usize>, Error> {
            let f = self.file(id)?;
            let start = *f.line_starts.get(line_index).ok_or(Error::LineTooLarge {
                given: line_index,
                max: f.line_starts.len() - 1,
            })?;
            let end = f
                .line_starts
                .get(line_index + 1)
                .copied()
                .unwrap_or(f.text.len());
            Ok(start..end)
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

    /// codespan-reporting's own rendering of `d` over whole files.
    fn reference(d: &Diagnostic, sources: &SourceMap) -> String {
        let mut files = codespan_reporting::files::SimpleFiles::new();
        for i in 0..sources.len() {
            let f = sources.file(crate::source::FileId(i as u32));
            files.add(f.name.clone(), f.text.clone());
        }
        let labels = d
            .labels
            .iter()
            .map(|l| {
                let style = if l.primary {
                    cs::LabelStyle::Primary
                } else {
                    cs::LabelStyle::Secondary
                };
                cs::Label::new(
                    style,
                    l.span.file.0 as usize,
                    l.span.lo as usize..l.span.hi as usize,
                )
                .with_message(l.message.clone())
            })
            .collect();
        let cs = cs::Diagnostic::new(match d.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
            Severity::Note => cs::Severity::Note,
        })
        .with_code(d.code.as_str())
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(d.notes.clone());
        let mut out = Vec::new();
        let mut w = term::termcolor::NoColor::new(&mut out);
        term::emit_to_write_style(&mut w, &term::Config::default(), &files, &cs).expect("renders");
        String::from_utf8(out).expect("UTF-8")
    }

    /// On ordinary programs (short lines, no control characters) the
    /// windowed rendering is exactly codespan-reporting's.
    #[test]
    fn windowed_rendering_matches_codespan_on_the_corpus() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/p4");
        let mut compared = 0;
        for dir in ["invalid", "warn"] {
            let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
                .expect("corpus")
                .map(|e| e.expect("entry").path())
                .filter(|p| p.extension().is_some_and(|x| x == "p4"))
                .collect();
            files.sort();
            for path in files {
                let c = crate::driver::compile_file(&path, &Default::default()).expect("readable");
                for d in c.diagnostics.iter() {
                    let ours = render_all(std::slice::from_ref(d), &c.sources, false);
                    assert_eq!(ours, reference(d, &c.sources), "{}", path.display());
                    compared += 1;
                }
            }
        }
        assert!(compared > 100, "only {compared} diagnostics compared");
    }

    /// A multi-line label over many lines, a secondary label far away and
    /// labels in two files render as codespan-reporting renders them.
    #[test]
    fn windowed_rendering_matches_codespan_across_lines_and_files() {
        let mut sm = SourceMap::new();
        let text: String = (0..60).map(|i| format!("line {i} text\n")).collect();
        let a = sm.add("a.p4", None, text.clone());
        let b = sm.add("b.p4", None, "one\ntwo\r\nthree".into());
        let at = |line: usize, col: usize| {
            (text.lines().take(line).map(|l| l.len() + 1).sum::<usize>() + col) as u32
        };
        let span = |file, lo, hi| FileSpan { file, lo, hi };
        let cases = [
            Diagnostic::error(Code::Syntax, "multi").at(span(a, at(3, 2), at(40, 4)), "from here"),
            Diagnostic::error(Code::Syntax, "two")
                .at(span(a, at(5, 0), at(5, 4)), "p")
                .also(span(a, at(50, 1), at(50, 3)), "s"),
            Diagnostic::error(Code::Syntax, "near")
                .at(span(a, at(5, 0), at(5, 4)), "p")
                .also(span(a, at(7, 1), at(8, 3)), "s"),
            Diagnostic::warning(Code::Shadowing, "files")
                .at(span(b, 4, 7), "here")
                .also(span(a, at(1, 0), at(1, 4)), "there"),
            Diagnostic::error(Code::Syntax, "eof")
                .at(span(b, 13, 13), "end")
                .note("a note"),
            Diagnostic::error(Code::Syntax, "newline").at(span(a, at(2, 0), at(3, 0)), "line"),
        ];
        for d in &cases {
            assert_eq!(
                render_all(std::slice::from_ref(d), &sm, false),
                reference(d, &sm),
                "{}",
                d.message
            );
        }
    }

    #[test]
    fn long_lines_render_a_window_around_the_column() {
        let mut sm = SourceMap::new();
        let mut text = "a".repeat(100_000);
        text.replace_range(50_000..50_003, "BAD");
        let f = sm.add("long.p4", None, text);
        let d = Diagnostic::error(Code::BadCharacter, "bad").at(
            FileSpan {
                file: f,
                lo: 50_000,
                hi: 50_003,
            },
            "here",
        );
        let out = render_all(&[d], &sm, false);
        assert!(out.contains("long.p4:1:50001"), "{out}");
        assert!(out.contains("…aaaa"), "{out}");
        assert!(out.contains("aaaBADaaa"), "{out}");
        assert!(out.contains("aaa…"), "{out}");
        assert!(out.len() < 1000, "{} bytes:\n{out}", out.len());
        // The caret sits under `BAD`.
        let lines: Vec<&str> = out.lines().collect();
        let src = lines
            .iter()
            .find(|l| l.contains("BAD"))
            .expect("source line");
        let caret = lines
            .iter()
            .find(|l| l.contains("^^^"))
            .expect("caret line");
        let col = |s: &str, pat: &str| s[..s.find(pat).expect("found")].chars().count();
        assert_eq!(col(src, "BAD"), col(caret, "^^^"), "{out}");
    }

    #[test]
    fn control_characters_are_not_echoed() {
        let mut sm = SourceMap::new();
        let f = sm.add("esc.p4", None, "x \u{1b}[2J y\n".into());
        let d = Diagnostic::error(Code::BadCharacter, "bad \u{1b}[2J").at(
            FileSpan {
                file: f,
                lo: 2,
                hi: 3,
            },
            "here",
        );
        let out = render_all(&[d], &sm, false);
        assert!(!out.contains('\u{1b}'), "{out:?}");
        assert!(out.contains("x ?[2J y"), "{out}");
    }

    #[test]
    fn diagnostics_over_the_cap_are_counted_and_noted() {
        let mut sm = SourceMap::new();
        let f = sm.add("a.p4", None, "x\n".into());
        let mut ds = Diagnostics::new();
        for _ in 0..1000 {
            ds.push(Diagnostic::error(Code::Syntax, "e").at(
                FileSpan {
                    file: f,
                    lo: 0,
                    hi: 1,
                },
                "",
            ));
        }
        for _ in 0..150 {
            ds.push(Diagnostic::warning(Code::Shadowing, "w"));
        }
        assert_eq!(ds.len(), MAX_ERRORS + MAX_WARNINGS);
        assert_eq!(ds.error_count(), 1000);
        assert_eq!(ds.warning_count(), 150);
        assert_eq!(ds.suppressed_errors(), 900);
        assert_eq!(ds.suppressed_warnings(), 50);
        let out = ds.render(&sm, false);
        assert!(
            out.ends_with("note: 900 more errors and 50 more warnings not shown (the front end reports at most 100 errors and 100 warnings)\n\n"),
            "{}",
            &out[out.len().saturating_sub(300)..]
        );
        // A long message is cut.
        let mut small = Diagnostics::new();
        small.push(Diagnostic::error(Code::Syntax, "m".repeat(10_000)));
        let kept = small.iter().next().expect("kept");
        assert_eq!(kept.message.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(kept.message.ends_with('…'));
    }
}
