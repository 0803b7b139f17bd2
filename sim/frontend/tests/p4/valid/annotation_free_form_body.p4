// An unknown annotation's body may hold any balanced tokens
// (issue 17, family 6): strings with parentheses inside, brackets, braces,
// operators, keywords, and characters no P4 token starts with (`$`, `'`,
// a `#` inside a line), which p4c's lexer passes to annotation bodies as
// UNEXPECTED_TOKENs. The program compiles silently, as with p4c, the
// annotation here on a statement (kept as an annotated block of that statement).
// Written for Janus from the P4_16 specification's annotationBody grammar.
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        @foo(a "b)" c[1] { } ; , . << >= && $ 'q' # :: (nested (x)) if else) x = 1;
    }
}
