// STF rule: emit() on a struct emits its members recursively in declaration
// order: headers when valid, nested structs member by member, header stacks
// element by element (valid ones only). The order is the struct's, not the
// order the parser extracted them in.
#include <core.p4>
#include <v1model.p4>

header a_t { bit<8> v; }
header b_t { bit<16> v; }
header c_t { bit<8> v; }

struct inner_t {
    b_t b;
    c_t c;
}

struct headers_t {
    a_t      a;
    inner_t  mid;
    c_t[2]   stk;
}

struct meta_t { }

parser EsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        // Parse order: stack first, then c, b, a.
        pkt.extract(hdr.stk[0]);
        pkt.extract(hdr.stk[1]);
        pkt.extract(hdr.mid.c);
        pkt.extract(hdr.mid.b);
        pkt.extract(hdr.a);
        transition accept;
    }
}

control EsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.a.v == 1) {
            hdr.mid.c.setInvalid();
            hdr.stk[0].setInvalid();
        }
    }
}

control EsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control EsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(EsParser(), EsVerify(), EsIngress(), EsEgress(), EsCompute(),
         EsDeparser()) main;
