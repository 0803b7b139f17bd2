// select cases are tried in order and the first match wins (spec 13.6):
// a mask case before an exact one shadows it, `default` or `_` before
// other labels takes everything, and a tuple key mixes `_` and ranges.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> b; bit<8> r; }
struct headers_t { h_t h; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.a) {
            0x10 &&& 0xf0: masked;
            0x12: exact12;
            0x20: pair;
            default: other;
        }
    }
    state masked { hdr.h.r = 1; transition accept; }
    state exact12 { hdr.h.r = 2; transition accept; }
    state pair {
        transition select(hdr.h.a, hdr.h.b) {
            (_, 0 .. 9): low;
            (0x20, _): any20;
        }
    }
    state low { hdr.h.r = 3; transition accept; }
    state any20 { hdr.h.r = 4; transition accept; }
    state other {
        transition select(hdr.h.b) {
            default: dflt;
            1: one;
        }
    }
    state one { hdr.h.r = 5; transition accept; }
    state dflt { hdr.h.r = 6; transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 2; }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
