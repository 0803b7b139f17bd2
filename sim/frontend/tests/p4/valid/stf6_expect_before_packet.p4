// STF rules: the expected frames of a port are compared in order with
// what the port sent, whatever the position of the `expect` lines relative
// to the `packet` lines that cause them; ports are independent. The
// program sends each packet to the port named in its first byte and
// records the ingress port.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  dst;
    bit<16> from;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser EbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control EbVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = (bit<9>)hdr.h.dst;
        hdr.h.from = (bit<16>)sm.ingress_port;
    }
}

control EbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control EbCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EbDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(EbParser(), EbVerify(), EbIngress(), EbEgress(), EbCompute(),
         EbDeparser()) main;
