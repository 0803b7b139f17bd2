// simple_switch egress: the E2E clone is made before the drop check, so
// mark_to_drop called before clone() in egress still sends the clone; the
// clone's own egress pass may drop it (mark_to_drop there).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> itype;
}
struct headers_t {
    h_t h;
}
struct meta_t { }

parser EcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}
control EcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control EcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
    }
}
control EcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            mark_to_drop(sm);
            if (hdr.h.op != 0) {
                clone(CloneType.E2E, 5);
            }
        } else {
            hdr.h.itype = (bit<8>) sm.instance_type;
            if (hdr.h.op == 2) {
                mark_to_drop(sm);
            }
        }
    }
}
control EcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control EcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}
V1Switch(EcParser(), EcVerify(), EcIngress(), EcEgress(), EcCompute(),
         EcDeparser()) main;
