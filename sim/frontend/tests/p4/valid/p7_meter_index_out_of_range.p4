// bmv2 (execute_meter primitive): an index at or past the meter's size
// updates no meter and leaves the result field as it was; count() at such
// an index counts nothing.
#include <core.p4>
#include <v1model.p4>

header d_t {
    bit<8>  index;
    bit<8>  colour;
    bit<16> wide_colour;
}
struct headers_t {
    d_t d;
}
struct meta_t { }

parser MoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.d);
        transition accept;
    }
}
control MoVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control MoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    meter(4, MeterType.packets) m;
    meter(4, MeterType.bytes) mb;
    apply {
        m.execute_meter((bit<32>) hdr.d.index, hdr.d.colour);
        mb.execute_meter((bit<32>) hdr.d.index, hdr.d.wide_colour);
        sm.egress_spec = 2;
    }
}
control MoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control MoCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control MoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.d);
    }
}
V1Switch(MoParser(), MoVerify(), MoIngress(), MoEgress(), MoCompute(),
         MoDeparser()) main;
