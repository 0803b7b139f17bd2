// Invalid: an extern given itself as a type argument (code E0215).
#include <core.p4>

extern Box<T> { Box(); T get(); }

control C() {
    Box<Box<bit<8>>>() b; // error: E0215
    apply { }
}
