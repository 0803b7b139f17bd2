// STF rule: range match kind (written in const entries, since STF cannot
// express ranges): `lo .. hi` matches both bounds inclusive; with several
// matching const entries the one listed first wins; a key outside every
// range misses and runs the default action. Combined here with an exact key.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  proto;
    bit<16> port;
    bit<8>  result;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser RgParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RgVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RgIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_result(bit<8> r) {
        hdr.h.result = r;
    }

    table classify {
        key = {
            hdr.h.proto : exact;
            hdr.h.port  : range;
        }
        actions = { set_result; }
        const entries = {
            (6, 0 .. 1023)     : set_result(1);
            (6, 1000 .. 2000)  : set_result(2);
            (17, 53 .. 53)     : set_result(3);
            (17, 0 .. 65535)   : set_result(4);
            (6, 80 .. 80)      : set_result(5);  // shadowed by the first entry
        }
        default_action = set_result(0xff);
    }

    apply {
        sm.egress_spec = 1;
        classify.apply();
    }
}

control RgEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control RgCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RgDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(RgParser(), RgVerify(), RgIngress(), RgEgress(), RgCompute(),
         RgDeparser()) main;
