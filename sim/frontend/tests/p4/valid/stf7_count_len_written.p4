// STF rule (v1model counters and byte meters, as bmv2): count() and a byte
// meter's execute_meter() charge the packet's length as received on this
// pass (bmv2 Counter::increment_counter and Meter::execute read
// Packet::get_ingress_length), not the standard_metadata.packet_length
// field: a program that writes packet_length first does not change what is
// counted or metered.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  colour;  // written: the byte meter's colour
    bit<8>  pad;
    bit<32> len;     // written into standard_metadata.packet_length
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser LwParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control LwVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LwIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    counter(32w2, CounterType.packets_and_bytes) seen;
    meter(32w2, MeterType.bytes) by_bytes;
    apply {
        sm.egress_spec = 2;
        sm.packet_length = hdr.h.len;
        seen.count(0);
        bit<8> c;
        by_bytes.execute_meter(32w0, c);
        hdr.h.colour = c;
    }
}

control LwEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control LwCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LwDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(LwParser(), LwVerify(), LwIngress(), LwEgress(), LwCompute(),
         LwDeparser()) main;
