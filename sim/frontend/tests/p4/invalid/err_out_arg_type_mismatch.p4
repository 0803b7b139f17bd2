// Invalid: arguments for `out` parameters must have exactly the parameter's
// type; bit<32> is passed for an out bit<16> (code E0200).
#include <core.p4>

void produce(out bit<16> result) {
    result = 16w7;
}

control C(inout bit<32> wide) {
    apply {
        produce(wide); // error: E0200
    }
}
