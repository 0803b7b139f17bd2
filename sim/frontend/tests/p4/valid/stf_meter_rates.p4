// A packet meter with rates set from the STF test: the colour of each
// packet is written into the packet.
#include <core.p4>
#include <v1model.p4>

header data_t { bit<8> color; bit<8> index; }
struct headers_t { data_t data; }
struct meta_t { bit<2> color; }

parser MrParser(packet_in pkt, out headers_t h, inout meta_t m,
                inout standard_metadata_t sm) {
    state start { pkt.extract(h.data); transition accept; }
}
control MrVerify(inout headers_t h, inout meta_t m) { apply { } }
control MrIngress(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) {
    meter(4, MeterType.packets) rate_limit;
    apply {
        rate_limit.execute_meter((bit<32>)h.data.index, m.color);
        h.data.color = (bit<8>)m.color;
        sm.egress_spec = 2;
    }
}
control MrEgress(inout headers_t h, inout meta_t m, inout standard_metadata_t sm) { apply { } }
control MrCompute(inout headers_t h, inout meta_t m) { apply { } }
control MrDeparser(packet_out pkt, in headers_t h) { apply { pkt.emit(h.data); } }

V1Switch(MrParser(), MrVerify(), MrIngress(), MrEgress(), MrCompute(), MrDeparser()) main;
