// Invalid: no overload of `emit_words` takes three arguments (code E0203).
#include <core.p4>

extern void emit_words(in bit<16> a);
extern void emit_words(in bit<16> a, in bit<16> b);

control C(in bit<16> x) {
    apply {
        emit_words(x, x, x); // error: E0203
    }
}
