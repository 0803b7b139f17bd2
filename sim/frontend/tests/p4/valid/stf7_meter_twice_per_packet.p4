// STF rule (v1model packet meter, as bmv2): every execute_meter call runs
// the meter once, so two calls on the same cell in one pass charge the
// packet twice and may give different colours; a call on another cell
// index does not touch the first cell's buckets.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> idx;
    bit<8> c1;  // colour of the first call
    bit<8> c2;  // colour of the second call
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser MtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MtVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MtIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    meter(32w4, MeterType.packets) pm;
    apply {
        sm.egress_spec = 1;
        bit<8> a;
        bit<8> b;
        pm.execute_meter((bit<32>)hdr.h.idx, a);
        pm.execute_meter((bit<32>)hdr.h.idx, b);
        hdr.h.c1 = a;
        hdr.h.c2 = b;
    }
}

control MtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control MtCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MtDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(MtParser(), MtVerify(), MtIngress(), MtEgress(), MtCompute(),
         MtDeparser()) main;
