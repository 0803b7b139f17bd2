// bmv2 truncate and recirculate: truncate(n) only limits the bytes
// transmitted for the Packet object that called it (Packet::get_data_size).
// Recirculation copies the whole deparsed buffer into a new Packet
// (clone_no_phv_ptr -> PacketBuffer::clone(buffer.get_data_size())), so the
// recirculated packet, and its packet_length, are NOT truncated; and the
// new packet starts with no truncation length of its own.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> len;   // packet_length seen by the recirculated ingress
}

struct headers_t {
    h_t h;
}

struct meta_t {
    @field_list(1)
    bit<8> keep;
}

parser RtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RtVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RtIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0) {
            sm.egress_spec = 2;
        } else {
            hdr.h.len = (bit<8>)sm.packet_length;
            sm.egress_spec = 3;
        }
    }
}

control RtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0 && sm.egress_port == 2 && hdr.h.op == 1) {
            truncate(4);
            recirculate_preserving_field_list(1);
        }
    }
}

control RtCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RtDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(RtParser(), RtVerify(), RtIngress(), RtEgress(), RtCompute(),
         RtDeparser()) main;
