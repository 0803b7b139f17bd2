// simple_switch E2E clone to a multicast session (STF mirroring_add_mc):
// at the end of egress the copy (headers as egress left them, metadata
// reset) is replicated to every (node, port) of the session's group; each
// replica runs egress with instance_type EGRESS_CLONE (2), its node's
// egress_rid and its own egress_port. The original leaves as usual.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> eit;
    bit<8> rid;
    bit<8> port;
    bit<8> seen;
}

struct headers_t { h_t h; }
struct meta_t { }

parser EmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control EmVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    apply { sm.egress_spec = 2; }
}

control EmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.seen = hdr.h.seen + 1;
        hdr.h.eit = (bit<8>)sm.instance_type;
        hdr.h.rid = (bit<8>)sm.egress_rid;
        hdr.h.port = (bit<8>)sm.egress_port;
        if (sm.instance_type == 0 && hdr.h.op == 1) {
            clone(CloneType.E2E, 5);
        }
    }
}

control EmCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control EmDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(EmParser(), EmVerify(), Ing(), EmEgress(), EmCompute(),
         EmDeparser()) main;
