// simple_switch egress_thread sets standard_metadata.packet_length from
// the packet's length register just before egress runs
// (phv packet_length = get_register(PACKET_LENGTH_REG_IDX)), so a value
// ingress wrote into packet_length does not reach egress: unicast copies,
// multicast copies and I2E clones all see the received length.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> in_len;   // packet_length in ingress
    bit<8> eg_len;   // packet_length in egress
    bit<8> eport;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser PlParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control PlVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PlIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.h.in_len = (bit<8>)sm.packet_length;
        if (hdr.h.op == 1) {
            sm.mcast_grp = 1;
        } else {
            sm.egress_spec = 2;
            clone(CloneType.I2E, 5);
        }
        sm.packet_length = 0x55;
    }
}

control PlEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.eg_len = (bit<8>)sm.packet_length;
        hdr.h.eport = (bit<8>)sm.egress_port;
    }
}

control PlCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control PlDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(PlParser(), PlVerify(), PlIngress(), PlEgress(), PlCompute(),
         PlDeparser()) main;
