// bmv2 (execute_meter primitive): the colour (GREEN 0, YELLOW 1, RED 2) is
// written to the result field at that field's width: a bit<1> result keeps
// the colour's low bit (RED reads 0), a bit<16> one the whole value.
#include <core.p4>
#include <v1model.p4>

header d_t {
    bit<8>  index;
    bit<8>  c8;
    bit<1>  c1;
    bit<7>  pad;
    bit<16> c16;
}
struct headers_t {
    d_t d;
}
struct meta_t { }

parser MwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.d);
        transition accept;
    }
}
control MwVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control MwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    meter(4, MeterType.packets) m8;
    meter(4, MeterType.packets) m1;
    meter(4, MeterType.packets) m16;
    apply {
        m8.execute_meter((bit<32>) hdr.d.index, hdr.d.c8);
        m1.execute_meter((bit<32>) hdr.d.index, hdr.d.c1);
        m16.execute_meter((bit<32>) hdr.d.index, hdr.d.c16);
        sm.egress_spec = 2;
    }
}
control MwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control MwCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control MwDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.d);
    }
}
V1Switch(MwParser(), MwVerify(), MwIngress(), MwEgress(), MwCompute(),
         MwDeparser()) main;
