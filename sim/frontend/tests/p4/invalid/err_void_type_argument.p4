// Invalid: `void` as a type argument (code E0211).
#include <core.p4>

extern Holder<T> { Holder(); }

control C() {
    Holder<void>() h; // error: E0211
    apply { }
}
