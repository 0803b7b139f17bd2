// A `for` loop whose condition applies a table: the table is applied
// before every test of the condition, so the loop runs while it hits, and
// each apply sees what the iteration before it wrote.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> n; }
struct headers { h_t h; }
struct meta_t { }

parser P(packet_in pk, out headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
control V(inout headers hdr, inout meta_t m) { apply { } }
control I(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) {
    action step(bit<8> next) { hdr.h.a = next; }
    table t {
        key = { hdr.h.a : exact; }
        actions = { step; NoAction; }
        default_action = NoAction();
    }
    apply {
        for (bit<8> i = 0; t.apply().hit; i = i + 1) {
            hdr.h.n = i + 1;
        }
    }
}
control E(inout headers hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control C(inout headers hdr, inout meta_t m) { apply { } }
control D(packet_out pk, in headers hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
