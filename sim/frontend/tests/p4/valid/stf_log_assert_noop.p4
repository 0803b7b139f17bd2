// STF rule: log_msg (with and without data), assert and assume (with
// conditions that hold) have no effect on the packet: forwarding and the
// header writes around them happen as if they were absent.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  a;
    bit<8>  b;
    bit<16> sum;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser LgParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control LgVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LgIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        log_msg("ingress start");
        sm.egress_spec = (bit<9>)hdr.h.a;
        log_msg("a = {}, b = {}", { hdr.h.a, hdr.h.b });
        hdr.h.sum = (bit<16>)hdr.h.a + (bit<16>)hdr.h.b;
        assert(hdr.h.sum >= (bit<16>)hdr.h.a);
        assume(hdr.h.sum <= 510);
        log_msg("sum = {}", { hdr.h.sum });
    }
}

control LgEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        assert(sm.egress_port == (bit<9>)hdr.h.a);
        log_msg("egress port {}", { sm.egress_port });
    }
}

control LgCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LgDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(LgParser(), LgVerify(), LgIngress(), LgEgress(), LgCompute(),
         LgDeparser()) main;
