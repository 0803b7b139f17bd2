// STF rule: `for (T x in lo .. hi)` runs with x = lo, lo + 1, ..., hi (both
// ends evaluated once; none when lo > hi; no wrap-around at the type's
// maximum), `continue` moves to the next value and `break` leaves;
// `for (T x in stack)` visits a copy of each element in index order, and
// `for (T x in { a, b, c })` each item of a list.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> lo;
    bit<8> hi;
    bit<8> sum;
    bit<8> count;
    bit<8> odd_sum;
    bit<8> first_big;
}

header e_t {
    bit<8> v;
}

struct headers_t {
    h_t h;
    e_t[3] s;
}

struct meta_t {
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        bit<8> sum = 0;
        bit<8> count = 0;
        for (bit<8> x in hdr.h.lo .. hdr.h.hi) {
            sum = sum + x;
            count = count + 1;
        }
        hdr.h.sum = sum;
        hdr.h.count = count;
        bit<8> odd = 0;
        for (bit<8> x in 8w1 .. 8w9) {
            if (x & 1 == 0) {
                continue;
            }
            odd = odd + x;
        }
        hdr.h.odd_sum = odd;
        bit<8> listed = 0;
        for (bit<8> v in { 8w3, 8w5, 8w7 }) {
            if (v == 5) {
                continue;
            }
            listed = listed + v;
        }
        hdr.h.odd_sum = hdr.h.odd_sum + listed;
        hdr.h.first_big = 0;
        for (e_t e in hdr.s) {
            if (e.v > 0x10) {
                hdr.h.first_big = e.v;
                break;
            }
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
        pkt.emit(hdr.s);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
