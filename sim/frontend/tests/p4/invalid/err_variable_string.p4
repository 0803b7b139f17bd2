// Invalid: a variable cannot have type string (E0211).
#include <core.p4>
control C(inout bit<8> x) {
    apply {
        string label; // error: E0211
        x = 1;
    }
}
