// Invalid: controls may not be instantiated at the top level of a program
// (code E0300).
#include <core.p4>

control Counter(inout bit<8> x) {
    apply {
        x = x + 1;
    }
}

Counter() global_counter; // error: E0300
