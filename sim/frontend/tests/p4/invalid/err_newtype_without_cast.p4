// Invalid: a `type`-declared type does not mix with its underlying type
// without a cast (code E0200).
#include <core.p4>

type bit<32> flow_id_t;

control C(inout flow_id_t id, in bit<32> raw) {
    apply {
        id = raw; // error: E0200
    }
}
