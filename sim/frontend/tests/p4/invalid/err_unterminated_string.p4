// Invalid: a string literal with no closing quote anywhere (code E0003).
#include <core.p4>

extern void note(string message);

control C(inout bit<8> x) {
    apply {
        x = x + 1;
        note("this string is never closed); // error: E0003
    }
}
