// Invalid: a control constructor parameter with a direction (code E0214).
#include <core.p4>

control Shift(inout bit<8> x)(in bit<8> amount) { // error: E0214
    apply { x = x << 1; }
}
