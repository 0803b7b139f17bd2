// bmv2 truncate: truncate(n) in ingress limits the packet that called it;
// an I2E clone is a new packet made from the packet as received, so it is
// sent whole (bmv2 keeps the truncation length per Packet object and a
// clone starts without one). A truncate in the clone's own egress limits
// that clone only.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> x;
    bit<8> it;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser CtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CtVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CtIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.h.x = 0xaa;
        clone(CloneType.I2E, 4);
        if (hdr.h.op == 1) {
            truncate(3);
        }
    }
}

control CtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.it = (bit<8>)sm.instance_type;
        if (hdr.h.op == 2 && sm.instance_type == 1) {
            truncate(5);
        }
    }
}

control CtCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CtDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CtParser(), CtVerify(), CtIngress(), CtEgress(), CtCompute(),
         CtDeparser()) main;
