// Invalid: the type of `_` cannot be inferred for a generic parameter
// (E0211).
#include <core.p4>
extern void produce<T>(out T x);
control C(inout bit<8> x) {
    apply { produce(_); } // error: E0211
}
