// STF rule: all metadata starts at 0, egress_spec included. A program that
// never assigns egress_spec sends every packet out of port 0.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

struct headers_t {
    ethernet_t eth;
}

struct meta_t { }

parser DefParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition accept;
    }
}

control DefVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control DefIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        // Record the ingress port in the EtherType; egress_spec is left alone.
        hdr.eth.etype = (bit<16>)sm.ingress_port;
    }
}

control DefEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply { }
}

control DefCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control DefDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
    }
}

V1Switch(DefParser(), DefVerify(), DefIngress(), DefEgress(), DefCompute(),
         DefDeparser()) main;
