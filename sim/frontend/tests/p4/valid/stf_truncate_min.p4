// STF rule (v1model truncate): with several truncate(n) calls on one packet
// the smallest length is used, whatever the call order: bmv2's
// Packet::truncate keeps min(n, previous), it does not overwrite.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> tag;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser TrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control TrVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TrIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.h.tag = 0x77;
        if (hdr.h.op == 1) {
            truncate(10);
            truncate(6);
        } else if (hdr.h.op == 2) {
            truncate(6);
            truncate(10);
        } else if (hdr.h.op == 3) {
            truncate(5);
        }
    }
}

control TrEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (hdr.h.op == 3) {
            truncate(9);
        }
    }
}

control TrCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TrDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(TrParser(), TrVerify(), TrIngress(), TrEgress(), TrCompute(),
         TrDeparser()) main;
