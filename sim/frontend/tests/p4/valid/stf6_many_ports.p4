// STF rules with many ports: every port named by a `packet` or `expect`
// line is observed; each must send exactly its expected frames in order,
// and an observed port with no `expect` lines must send nothing. Frames
// on ports never named are not checked. The program sends each packet to
// the port named in its first byte and records the ingress port.
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

parser MpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MpVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = (bit<9>)hdr.h.dst;
        hdr.h.from = (bit<16>)sm.ingress_port;
    }
}

control MpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control MpCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MpDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(MpParser(), MpVerify(), MpIngress(), MpEgress(), MpCompute(),
         MpDeparser()) main;
