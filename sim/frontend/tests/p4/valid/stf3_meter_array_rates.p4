// STF rule (meters): `meter_array_set_rates <meter> <cir>:<cbs> <pir>:<pbs>`
// sets the same rates on EVERY cell of a meter array, with both buckets
// full; each cell then meters on its own (bmv2 two-rate three-colour,
// colour-blind): GREEN (0) while both buckets hold a token, YELLOW (1)
// when only the peak bucket does, RED (2) when it is empty. A later
// meter_set_rates on one cell refills that cell only.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> idx;
    bit<8> color;
}

struct headers_t { h_t h; }
struct meta_t { }

parser MaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control MaVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    meter(3, MeterType.packets) m;
    apply {
        bit<8> c;
        m.execute_meter((bit<32>)hdr.h.idx, c);
        hdr.h.color = c;
        sm.egress_spec = 2;
    }
}

control MaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control MaCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control MaDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(MaParser(), MaVerify(), Ing(), MaEgress(), MaCompute(),
         MaDeparser()) main;
