// STF rules for counters: an indirect counter cell counts the packets and
// bytes (the packet's length as received) given to count(); check_counter
// reads it by full control-plane name and index.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> idx;
    bit<8> drop;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser CntParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CntVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CntIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    counter(32w8, CounterType.packets_and_bytes) by_index;
    counter(32w512, CounterType.packets) by_port;

    apply {
        by_index.count((bit<32>)hdr.h.idx);
        by_port.count((bit<32>)sm.ingress_port);
        if (hdr.h.drop == 1) {
            mark_to_drop(sm);
        } else {
            sm.egress_spec = 2;
        }
    }
}

control CntEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    counter(32w512, CounterType.packets) out_port;
    apply {
        out_port.count((bit<32>)sm.egress_port);
    }
}

control CntCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CntDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CntParser(), CntVerify(), CntIngress(), CntEgress(), CntCompute(),
         CntDeparser()) main;
