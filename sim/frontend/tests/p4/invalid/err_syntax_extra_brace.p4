// Invalid: an extra closing brace after a complete control (code E0010).
#include <core.p4>

control C(inout bit<8> x) {
    apply {
        x = x + 1;
    }
}
} // error: E0010

control D(inout bit<8> y) {
    apply { }
}
