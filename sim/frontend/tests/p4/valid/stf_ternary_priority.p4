// STF rule: in a ternary table the entry with the LARGER STF priority wins;
// among equal priorities the entry added first wins. A miss runs the
// default action.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> key;
    bit<8> result;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser TpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control TpVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_result(bit<8> r) {
        hdr.h.result = r;
    }

    table classify {
        key = { hdr.h.key : ternary; }
        actions = { set_result; }
        default_action = set_result(0xff);
    }

    apply {
        sm.egress_spec = 1;
        classify.apply();
    }
}

control TpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control TpCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TpDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(TpParser(), TpVerify(), TpIngress(), TpEgress(), TpCompute(),
         TpDeparser()) main;
