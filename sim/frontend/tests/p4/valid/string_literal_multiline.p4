// Language test: a string literal may span several lines (annotations that
// carry long constraint expressions are written this way).
#include <core.p4>

extern void trace(string message);

@description("A table whose documentation
runs over two lines")
control C(inout bit<8> x) {
    apply {
        trace("first line
second line");
        x = x + 1;
    }
}
