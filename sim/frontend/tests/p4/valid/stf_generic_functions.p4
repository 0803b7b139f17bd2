// STF rule: a generic function runs with the types of each call's
// arguments: pick<T> is used at bit<8>, bit<16> and bool, each call with
// its own copy of the function's variables.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> sel;
    bit<8> a;
    bit<16> b;
    bit<8> flag;
}

struct headers_t {
    h_t h;
}

struct meta_t {
}

T pick<T>(in bool first, in T x, in T y) {
    T chosen = y;
    if (first) {
        chosen = x;
    }
    return chosen;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        bool first = hdr.h.sel == 1;
        hdr.h.a = pick(first, hdr.h.a, 8w0xaa);
        hdr.h.b = pick(!first, hdr.h.b, 16w0xbbbb);
        if (pick(first, true, false)) {
            hdr.h.flag = 1;
        }
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply { }
}

control C(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
