// Invalid: a run-time call may not bind a type parameter to a type holding
// `int`, which exists only at compile time (code E0211).
#include <core.p4>

extern void record<T>(in T data);

control C(inout bit<8> x) {
    apply {
        record({ a = 1, b = true }); // error: E0211
    }
}
