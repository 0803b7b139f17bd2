// Header stacks and unions: .next/.last/.lastIndex in a parser loop,
// .size, runtime indices (in range) for reads and writes, push_front and
// pop_front (validity and contents move, new slots invalid), a union's
// isValid and member validity after assignment.
#include <core.p4>
#include <v1model.p4>

header cnt_t { bit<8> n; }
header item_t { bit<8> v; }
header v4_t { bit<8> x; }
header v6_t { bit<16> y; }
header_union ip_u { v4_t v4; v6_t v6; }
header out_t {
    bit<8> size; bit<8> last; bit<8> lastidx; bit<8> sel; bit<8> valid;
    bit<8> uval; bit<8> umember;
}
struct headers_t { cnt_t c; item_t[4] items; ip_u u; out_t o; }
struct meta_t { bit<8> li; }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.c);
        transition select(hdr.c.n) {
            0: accept;
            default: item;
        }
    }
    state item {
        pkt.extract(hdr.items.next);
        meta.li = (bit<8>)hdr.items.lastIndex;
        transition select(hdr.items.last.v[7:7], (bit<8>)hdr.items.lastIndex + 1 == hdr.c.n) {
            (1, _): v6;
            (_, true): v4;
            default: item;
        }
    }
    state v4 { pkt.extract(hdr.u.v4); transition accept; }
    state v6 { pkt.extract(hdr.u.v6); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.size = (bit<8>)hdr.items.size;
        hdr.o.lastidx = meta.li;
        bit<2> i = (bit<2>)(hdr.c.n - 1);
        hdr.o.last = hdr.items[i].v;
        hdr.items[i].v = hdr.items[i].v + 1;
        if (hdr.c.n == 2) {
            hdr.items.push_front(1);
            hdr.items[0].setValid();
            hdr.items[0].v = 0xaa;
        } else if (hdr.c.n == 3) {
            hdr.items.pop_front(2);
        }
        bit<8> valid = 0;
        for (bit<8> k = 0; k < 4; k = k + 1) {
            if (hdr.items[(bit<2>)k].isValid()) { valid = valid | (8w1 << k); }
        }
        hdr.o.valid = valid;
        hdr.o.sel = hdr.items[1].v;
        hdr.o.uval = hdr.u.isValid() ? 8w1 : 8w0;
        if (hdr.u.v4.isValid()) {
            hdr.u.v6.setValid();
            hdr.u.v6.y = 0x6666;
        }
        hdr.o.umember = (hdr.u.v4.isValid() ? 8w0x40 : 8w0) | (hdr.u.v6.isValid() ? 8w0x06 : 8w0);
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
