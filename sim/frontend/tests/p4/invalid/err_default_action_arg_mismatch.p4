// Invalid: the default action binds its data-plane parameter to another
// field than the actions list does (code E0403).
#include <core.p4>

struct m_t { bit<8> a; bit<8> b; }

control C(inout m_t m) {
    action store(inout bit<8> dst, bit<8> v) { dst = v; }
    table t {
        actions = { store(m.a); }
        default_action = store(m.b, 1); // error: E0403
    }
    apply { t.apply(); }
}
