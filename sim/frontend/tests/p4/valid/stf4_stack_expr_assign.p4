// STF rule (P4_16 spec 8.18.1 header stack expressions): a header stack can
// be given a list of header values `{ e0, e1, e2 }`: element i gets e_i,
// with its validity (a list expression for a header is valid, `(H){#}` is
// invalid); assigning one stack to another copies every element with its
// validity. The emitted stack shows exactly the valid elements.
#include <core.p4>
#include <v1model.p4>

header e_t { bit<8> v; }
header k_t { bit<8> k; }
struct headers_t {
    k_t    k;
    e_t[3] s;
}
struct meta_t { }

parser SeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.k);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        pkt.extract(hdr.s.next);
        transition accept;
    }
}

control SeVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control SeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (hdr.k.k == 1) {
            hdr.s = { { hdr.k.k + 0x10 }, (e_t){#}, { 8w0x33 } };
        } else if (hdr.k.k == 2) {
            e_t[3] ls = { (e_t){#}, { hdr.s[2].v }, { hdr.s[0].v } };
            hdr.s = ls;
        }
        sm.egress_spec = 2;
    }
}

control SeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control SeCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control SeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.k);
        pkt.emit(hdr.s);
    }
}

V1Switch(SeParser(), SeVerify(), SeIngress(), SeEgress(), SeCompute(),
         SeDeparser()) main;
