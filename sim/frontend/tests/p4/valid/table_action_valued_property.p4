// Language test: architecture-defined table properties whose value is an
// action (PSA's psa_empty_group_action style) are checked as action references.
#include <core.p4>
control C(inout bit<8> k) {
    action drop() { }
    action fwd(bit<8> p) { k = p; }
    table t {
        key = { k : exact; }
        actions = { fwd; drop; }
        psa_empty_group_action = drop();
        other_prop = drop;
    }
    apply { t.apply(); }
}
