// Invalid: an entry leaves out the data-plane argument the actions list
// binds (code E0403).
#include <core.p4>

control C(in bit<8> k, inout bit<8> x) {
    action store(inout bit<8> dst, bit<8> v) { dst = v; }
    table t {
        key = { k : exact; }
        actions = { store(x); NoAction; }
        const entries = {
            1 : store(5); // error: E0403
        }
    }
    apply { t.apply(); }
}
