// STF rules for registers: cells start at 0, keep their values across
// packets, and can be preset from the STF file with register_write (full
// control-plane name).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  idx;
    bit<32> seen;   // value of the cell before this packet
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser RegParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RegVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RegIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    register<bit<32>>(32w16) cells;

    apply {
        bit<32> v;
        cells.read(v, (bit<32>)hdr.h.idx);
        hdr.h.seen = v;
        cells.write((bit<32>)hdr.h.idx, v + 1);
        sm.egress_spec = 1;
    }
}

control RegEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply { }
}

control RegCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RegDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(RegParser(), RegVerify(), RegIngress(), RegEgress(), RegCompute(),
         RegDeparser()) main;
