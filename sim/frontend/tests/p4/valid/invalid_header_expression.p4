// Language test: `{#}`, the invalid header value (P4_16 1.2.4), assigned and
// compared, with its type taken from the context or from a cast.
#include <core.p4>

header tag_t { bit<16> id; bit<16> type; }
header_union either_t { tag_t a; tag_t b; }

control C(inout tag_t t, inout either_t u, out bool was_invalid) {
    apply {
        was_invalid = t == (tag_t){#};
        t = {#};
        u = {#};
    }
}
