// Invalid: an assignment statement missing its `;` before the closing brace
// on the same line (code E0010).
#include <core.p4>

control C(inout bit<8> ttl) {
    action decrement() { ttl = ttl - 1 } // error: E0010
    apply {
        decrement();
    }
}
