// Evaluation order with side effects (spec 8.5, 8.7.1 and 8.4):
// `&&`/`||` skip their right operand, `?:` evaluates only the chosen
// branch, `if`/`else if` conditions with calls run in order and stop at
// the first true one, and arguments are evaluated left to right.
#include <core.p4>
#include <v1model.p4>

header h_t { bit<8> a; bit<8> cnt; bit<8> log; bit<8> r; bit<8> s; }
struct headers_t { h_t h; }
struct meta_t { }

bool tick(inout bit<8> c, in bool v) {
    c = c + 1;
    return v;
}

bit<8> note(inout bit<8> log, in bit<8> tag) {
    log = (log << 2) | tag;
    return tag;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t m,
         inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers_t hdr, inout meta_t m) { apply { } }
control I(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        bool x = hdr.h.a[0:0] == 1;
        bool y = hdr.h.a[1:1] == 1;
        // counts 1 (x false) or 2 (x true) ticks
        if (tick(hdr.h.cnt, x) && tick(hdr.h.cnt, y)) { hdr.h.r = 1; }
        // counts 1 (x true) or 2 (x false)
        if (tick(hdr.h.cnt, x) || tick(hdr.h.cnt, y)) { hdr.h.r = hdr.h.r | 2; }
        hdr.h.s = x ? note(hdr.h.log, 1) : note(hdr.h.log, 2);
        if (note(hdr.h.log, 3) == 0) { hdr.h.s = 0xee; }
        else if (note(hdr.h.log, 0) == 0) { hdr.h.s = hdr.h.s + 0x10; }
        else if (note(hdr.h.log, 2) == 2) { hdr.h.s = 0xff; }
    }
}
control E(inout headers_t hdr, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control CC(inout headers_t hdr, inout meta_t m) { apply { } }
control D(packet_out pkt, in headers_t hdr) { apply { pkt.emit(hdr.h); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
