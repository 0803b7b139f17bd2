// Probe (header unions, spec 8.20): the parser picks a union member by a
// lookahead of the version nibble; isValid() on the union is true when a
// member is; the deparser emits only the valid member; a control sets the
// other member valid, which invalidates the first (bmv2 and the spec agree).
#include <core.p4>
#include <v1model.p4>

header v4_t { bit<4> version; bit<4> x; bit<8> a; }
header v6_t { bit<4> version; bit<4> y; bit<8> b; bit<16> c; }
header_union ip_t { v4_t v4; v6_t v6; }
header tail_t { bit<8> t; }
struct headers_t { ip_t ip; tail_t tail; }
struct meta_t { }

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start {
        transition select(pkt.lookahead<bit<4>>()) {
            4: p4;
            6: p6;
            default: accept;
        }
    }
    state p4 { pkt.extract(hdr.ip.v4); transition tail; }
    state p6 { pkt.extract(hdr.ip.v6); transition tail; }
    state tail { pkt.extract(hdr.tail); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (!hdr.ip.isValid()) {
            hdr.tail.setValid();
            hdr.tail.t = 0xee;
        } else if (hdr.ip.v4.isValid() && hdr.ip.v4.a == 0xff) {
            // turn v4 into v6
            hdr.ip.v6.setValid();
            hdr.ip.v6.version = 6;
            hdr.ip.v6.b = 0x66;
            hdr.ip.v6.c = 0x1234;
            hdr.tail.t = hdr.ip.v4.isValid() ? 8w1 : 8w0;
        } else if (hdr.ip.v6.isValid()) {
            hdr.tail.t = hdr.ip.v6.b;
        }
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    apply { }
}

control PCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.ip); pkt.emit(hdr.tail); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
