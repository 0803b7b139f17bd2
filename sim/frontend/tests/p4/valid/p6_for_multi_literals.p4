// `for` loops with several initialisers and updates separated by commas
// (P4_16 1.2.5 grammar), a loop over a range `lo .. hi`, literals with
// upper-case base prefixes and the decimal prefix (`0D`, `0X`, `0B`,
// `0O`, spec 6.4.3.3), and keyword-like field names (`key`, `type`,
// `state`, `entries`, `priority` are names, spec appendix grammar).
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> key; bit<8> type; bit<8> state; bit<8> entries; bit<8> priority; bit<8> apply; }
struct headers_t { h_t h; }
struct meta_t { }

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        bit<8> acc = 0;
        bit<8> j;
        for (bit<8> i = 0, j = 10; i < 3; i = i + 1, j = j - 1) {
            acc = acc + j;
        }
        hdr.h.key = acc;
        bit<8> s = 0;
        for (bit<8> k in 8w1 .. 8w4) { s = s + k; }
        hdr.h.type = s;
        hdr.h.state = 8w0D99;
        hdr.h.entries = 0X1f + 8w0B1;
        hdr.h.priority = 8w0O17;
        hdr.h.apply = hdr.h.apply + 0d10;
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
