// Language test: minimal and empty constructs — empty struct, empty header,
// empty header union, empty tuple, empty control body, a parser whose only
// state goes straight to accept, empty action, empty key list, stray
// top-level semicolons (empty declarations) and a control with no params.
#include <core.p4>

extern void consume<T>(in T value);

;
struct nothing_t { }
header empty_h { }
header_union no_members_u { }
;

control Nothing() {
    apply { }
}

parser Trivial(packet_in pkt) {
    state start {
        transition accept;
    }
}

control Minimal(inout nothing_t n, inout empty_h e) {
    tuple<> unit = { };
    action do_nothing() { }
    table empty_keys {
        key = { }
        actions = { do_nothing; }
        default_action = do_nothing();
    }
    Nothing() nothing_instance;
    apply {
        empty_keys.apply();
        nothing_instance.apply();
        consume(unit);
        consume(n);
        if (!e.isValid()) {
            e.setValid();
        }
    }
}
