// Named action arguments in tables: `default_action = a(v = 3)`, const
// entries with named arguments in any order, `@defaultonly`/`@tableonly`
// action annotations, a key with `@name`, `(S){...}` struct-typed
// initialisers, and `switch (t.apply().action_run)` with a default label.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> k; bit<8> x; bit<8> y; bit<8> z; }
struct headers_t { h_t h; }
struct pair_t { bit<8> p; bit<8> q; }
struct meta_t { pair_t pr; }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action two(bit<8> first, bit<8> second) { hdr.h.x = first; hdr.h.y = second; }
    action dflt(bit<8> v) { hdr.h.x = v; hdr.h.y = v; }
    action only_entries() { hdr.h.x = 0x77; }
    table t {
        key = { hdr.h.k : exact @name("kind"); }
        actions = { two; @defaultonly dflt; @tableonly only_entries; }
        const entries = {
            1 : two(second = 0x22, first = 0x11);
            2 : two(first = 0x33, second = 0x44);
            3 : only_entries();
        }
        default_action = dflt(v = 0xdf);
    }
    apply {
        sm.egress_spec = 2;
        m.pr = (pair_t){ q = 2, p = 1 };
        switch (t.apply().action_run) {
            two: { hdr.h.z = m.pr.p; }
            default: { hdr.h.z = m.pr.q; }
        }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
