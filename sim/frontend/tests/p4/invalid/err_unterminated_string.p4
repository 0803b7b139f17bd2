// Invalid: a string literal with no closing quote anywhere (code E0003).
// The argument list is closed on the next line, so a lexer that ends the
// broken literal at the end of its line sees no further error.
#include <core.p4>

extern void note(string message);

control C(inout bit<8> x) {
    apply {
        x = x + 1;
        note(
            "this string is never closed // error: E0003
        );
    }
}
