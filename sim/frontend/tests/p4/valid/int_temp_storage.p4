// Language test: `int` values next to generic calls. An `int` argument takes
// the width its type parameter gets from another argument or from an explicit
// type argument, so no `int` value is ever stored at run time.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
struct hdrs { h_t h; }
struct meta { }

const int K = 3;

T pick<T>(in bool first, in T x, in T y) { if (first) { return x; } return y; }

parser P(packet_in b, out hdrs h, inout meta m, inout standard_metadata_t sm) {
    state start { b.extract(h.h); transition accept; }
}

control Ing(inout hdrs h, inout meta m, inout standard_metadata_t sm) {
    apply {
        // T is bit<8> from h.h.a; the literal converts to it.
        h.h.b = pick(h.h.a == 1, h.h.a, 7);
        // The `int` comes first; the later bit<8> argument still decides T.
        h.h.c = pick(h.h.a == 1, K * 2, h.h.a);
        // Explicit type argument: both literals become bit<8>.
        h.h.d = pick<bit<8>>(h.h.a != 1, 200, K + 1);
        sm.egress_spec = 2;
    }
}
control Eg(inout hdrs h, inout meta m, inout standard_metadata_t sm) { apply { } }
control VC(inout hdrs h, inout meta m) { apply { } }
control CC(inout hdrs h, inout meta m) { apply { } }
control D(packet_out b, in hdrs h) { apply { b.emit(h.h); } }
V1Switch(P(), VC(), Ing(), Eg(), CC(), D()) main;
