// push_front(n) and pop_front(n) with counts above 1 on a partly filled
// stack: pop_front(2) moves element i+2 to i and invalidates the last two;
// push_front(1) moves each element up one (the last one falls off) and
// leaves element 0 invalid until setValid. A count at or past the size
// empties the stack.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> op;
}

header e_t {
    bit<8> v;
}

struct headers_t {
    in_t   i;
    e_t[4] s;
}

struct meta_t {
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (hdr.i.op == 1) {
            hdr.s.pop_front(2);
        } else if (hdr.i.op == 2) {
            hdr.s.push_front(1);
            hdr.s[0].setValid();
            hdr.s[0].v = 8w0xee;
        } else if (hdr.i.op == 3) {
            hdr.s.push_front(2);
        } else if (hdr.i.op == 4) {
            hdr.s.pop_front(5);
        } else if (hdr.i.op == 5) {
            hdr.s.pop_front(1);
            hdr.s.push_front(3);
        }
    }
}

control E(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply { }
}

control C(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
