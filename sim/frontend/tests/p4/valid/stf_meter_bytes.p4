// STF rule: a byte meter (MeterType.bytes) charges each packet its length
// as received. As bmv2's two-rate three-colour meter: if the peak bucket
// holds fewer tokens than the packet's bytes the packet is RED (2) and no
// bucket is charged; otherwise the peak bucket is charged, and if the
// committed bucket holds too few the packet is YELLOW (1), else it is
// charged too and the packet is GREEN (0). A meter cell without rates is
// always GREEN.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> colour;  // written by ingress
    bit<8> idx;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser MbParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MbVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MbIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    meter(4, MeterType.bytes) by_bytes;

    apply {
        sm.egress_spec = 2;
        bit<8> c;
        by_bytes.execute_meter((bit<32>)hdr.h.idx, c);
        hdr.h.colour = c;
    }
}

control MbEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control MbCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MbDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(MbParser(), MbVerify(), MbIngress(), MbEgress(), MbCompute(),
         MbDeparser()) main;
