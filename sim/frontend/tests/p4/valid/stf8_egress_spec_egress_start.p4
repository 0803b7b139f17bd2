// simple_switch egress_thread sets egress_spec to drop_port + 1 (512) before
// egress runs; Field::set masks to the field's 9 bits, so egress reads 0,
// whatever ingress left there: 3 for a unicast packet, 511 for a multicast
// one (multicast is decided before the drop check, and the copies are not
// dropped because their egress_spec is no longer 511).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<16> espec;   // egress_spec as egress starts
    bit<16> eport;   // egress_port
}

struct headers_t { h_t h; }
struct meta_t { }

parser EsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control EsVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control EsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (hdr.h.op == 1) {
            sm.egress_spec = 3;
        } else {
            sm.mcast_grp = 2;
            sm.egress_spec = 511;
        }
    }
}

control EsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.espec = (bit<16>)sm.egress_spec;
        hdr.h.eport = (bit<16>)sm.egress_port;
    }
}

control EsCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control EsDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(EsParser(), EsVerify(), EsIngress(), EsEgress(), EsCompute(),
         EsDeparser()) main;
