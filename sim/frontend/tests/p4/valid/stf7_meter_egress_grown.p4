// STF rule (v1model byte meter, as bmv2): execute_meter on a
// MeterType.bytes meter charges the packet's length as received on this
// pass (bmv2 Meter::execute reads Packet::get_ingress_length), so a meter
// in egress charges 4 for a 4-byte packet even after ingress added an
// 8-byte header. Two-rate three-colour: RED when the peak bucket is short
// (nothing charged), else YELLOW when the committed bucket is short (peak
// charged), else GREEN (both charged).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  colour;  // written by egress
    bit<8>  idx;
    bit<16> pad;
}

header tag_t {
    bit<64> v;
}

struct headers_t {
    h_t   h;
    tag_t tag;
}

struct meta_t { }

parser MgParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MgVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MgIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.tag.setValid();
        hdr.tag.v = 0x0102030405060708;
    }
}

control MgEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    meter(32w2, MeterType.bytes) by_bytes;
    apply {
        bit<8> c;
        by_bytes.execute_meter((bit<32>)hdr.h.idx, c);
        hdr.h.colour = c;
    }
}

control MgCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MgDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.tag);
    }
}

V1Switch(MgParser(), MgVerify(), MgIngress(), MgEgress(), MgCompute(),
         MgDeparser()) main;
