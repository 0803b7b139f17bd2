// New types (spec 7.2.5): `type bit<16> Id_t` as a header field, a table
// key and an action parameter; casts between the type and its base in
// both directions, a typedef of the new type, and comparison of two
// values of the new type.
#include <core.p4>
#include <v1model.p4>

type bit<16> Id_t;
typedef Id_t IdAlias;
header h_t { Id_t id; bit<16> raw; bit<8> r; bit<8> same; }
struct headers_t { h_t h; }
struct meta_t { IdAlias copy; }

const Id_t SPECIAL = (Id_t)16w0x0bad;

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    action set_raw(Id_t v) { hdr.h.raw = (bit<16>)v + 1; }
    table t {
        key = { hdr.h.id : exact; }
        actions = { set_raw; NoAction; }
        const entries = {
            (Id_t)16w0x0102 : set_raw((Id_t)16w0x1000);
        }
        default_action = NoAction();
    }
    table cp {
        key = { m.copy : exact; }
        actions = { set_raw; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        m.copy = hdr.h.id;
        t.apply();
        cp.apply();
        if (m.copy == SPECIAL) { hdr.h.r = 0xbd; }
        hdr.h.same = (m.copy == (IdAlias)hdr.h.raw) ? 8w1 : 8w0;
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
