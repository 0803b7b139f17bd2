// Invalid: keys of table entries must be compile-time known (code E0205).
#include <core.p4>

control C(inout bit<16> etype, in bit<16> learned) {
    action a() { }
    action b() { }
    table t {
        key = { etype : exact; }
        actions = { a; b; }
        const entries = {
            0x0800  : a();
            learned : b(); // error: E0205
        }
    }
    apply { t.apply(); }
}
