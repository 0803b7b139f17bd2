// A packet exactly as long as the headers the parser extracts has an
// empty payload: the deparser output is the emitted headers and nothing
// else; update_checksum_with_payload then covers the fields only; a header
// made invalid is left out and one made valid is added.
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<8>  op;
    bit<16> csum;   // csum16 over {op} and the payload
}

header b_t {
    bit<16> v;
}

header c_t {
    bit<8> z;
}

struct headers_t {
    a_t a;
    b_t b;
    c_t c;
}

struct meta_t { }

parser EmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.a);
        pkt.extract(hdr.b);
        transition accept;
    }
}

control EmVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (hdr.a.op == 1) {
            hdr.b.setInvalid();
            hdr.c.setValid();
            hdr.c.z = 0x5a;
        }
    }
}

control EmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control EmCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum_with_payload(true, { hdr.a.op }, hdr.a.csum,
                                     HashAlgorithm.csum16);
    }
}

control EmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
        pkt.emit(hdr.c);
    }
}

V1Switch(EmParser(), EmVerify(), EmIngress(), EmEgress(), EmCompute(),
         EmDeparser()) main;
