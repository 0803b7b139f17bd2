// bmv2 (count primitive): count() at an index at or past the counter's
// size counts nothing (no wrap-around to a cell in range); the packet goes
// on as usual.
#include <core.p4>
#include <v1model.p4>

header d_t {
    bit<8> idx;
    bit<8> seen;
}
struct headers_t {
    d_t d;
}
struct meta_t { }

parser CoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.d);
        transition accept;
    }
}
control CoVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control CoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    counter(32w4, CounterType.packets_and_bytes) hits;
    apply {
        hits.count((bit<32>) hdr.d.idx);
        hdr.d.seen = 1;
        sm.egress_spec = 2;
    }
}
control CoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control CoCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control CoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.d);
    }
}
V1Switch(CoParser(), CoVerify(), CoIngress(), CoEgress(), CoCompute(),
         CoDeparser()) main;
