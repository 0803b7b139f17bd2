// simple_switch egress_thread: the drop check after egress looks only at
// the copy's final egress_spec == 511. mark_to_drop(sm) in egress sets 511;
// assigning egress_spec any other value afterwards (0, or the copy's own
// port) undoes it for that copy, which still leaves on its egress_port.
// Each multicast copy decides for itself.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<16> rid;
}

struct headers_t { h_t h; }
struct meta_t { }

parser MdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control MdVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control MdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply { sm.mcast_grp = 1; }
}

control MdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    action drop_copy() { mark_to_drop(sm); }
    apply {
        hdr.h.rid = sm.egress_rid;
        drop_copy();
        if (sm.egress_rid == 1) {
            sm.egress_spec = 0;                  // undone: sent on port 4
        } else if (sm.egress_rid == 2) {
            sm.egress_spec = sm.egress_port;     // undone: sent on port 5
        } else if (sm.egress_rid == 3 && hdr.h.op == 1) {
            sm.egress_spec = 9;                  // undone: still port 6
        }
        // rid 4 (port 7), and rid 3 with op != 1: stay dropped
    }
}

control MdCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control MdDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(MdParser(), MdVerify(), MdIngress(), MdEgress(), MdCompute(),
         MdDeparser()) main;
