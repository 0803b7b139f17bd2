// STF rule (simple_switch): a recirculated packet re-enters ingress with
// standard_metadata.packet_length set to the length of the packet as the
// deparser built it (headers added in egress included), not the original
// length. After that ingress, the unicast copy reaches egress with
// instance_type NORMAL (0) again, and egress sees the same packet_length.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> len1;    // packet_length in the first ingress pass
    bit<8> len2;    // packet_length in the recirculated pass
    bit<8> itype;   // instance_type in the recirculated ingress pass
    bit<8> eitype;  // instance_type in the last egress pass
    bit<8> elen;    // packet_length in the last egress pass
}

header extra_t {
    bit<32> e;
}

struct headers_t {
    h_t     h;
    extra_t extra;
}

struct meta_t {
    @field_list(1)
    bit<8> unused;
}

parser RlParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RlVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RlIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 4) {
            hdr.h.len2 = (bit<8>)sm.packet_length;
            hdr.h.itype = (bit<8>)sm.instance_type;
            sm.egress_spec = 2;
        } else {
            hdr.h.len1 = (bit<8>)sm.packet_length;
            sm.egress_spec = hdr.h.op == 1 ? 9w3 : 9w2;
        }
    }
}

control RlEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (sm.egress_port == 3) {
            hdr.extra.setValid();
            hdr.extra.e = 0xdeadbeef;
            recirculate_preserving_field_list(1);
        } else {
            hdr.h.eitype = (bit<8>)sm.instance_type;
            hdr.h.elen = (bit<8>)sm.packet_length;
        }
    }
}

control RlCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RlDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.extra);
    }
}

V1Switch(RlParser(), RlVerify(), RlIngress(), RlEgress(), RlCompute(),
         RlDeparser()) main;
