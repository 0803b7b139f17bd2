// STF rule (v1model counters, as bmv2): a counter of type packets counts 1
// per count() call, bytes adds the packet's length as received on this
// pass (bmv2: Packet::get_ingress_length), packets_and_bytes does both.
// Counting in egress after ingress added a 4-byte header, or after a
// truncate, still adds the received length, not the length sent.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> idx;
    bit<8> grow;  // 1: ingress adds the tag header; 2: truncate to 3 bytes
}

header tag_t {
    bit<32> v;
}

struct headers_t {
    h_t   h;
    tag_t tag;
}

struct meta_t { }

parser CtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CtVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CtIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (hdr.h.grow == 1) {
            hdr.tag.setValid();
            hdr.tag.v = 0xa1b2c3d4;
        } else if (hdr.h.grow == 2) {
            truncate(3);
        }
    }
}

control CtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    counter(32w4, CounterType.packets) c_pk;
    counter(32w4, CounterType.bytes) c_by;
    counter(32w4, CounterType.packets_and_bytes) c_pb;
    apply {
        c_pk.count((bit<32>)hdr.h.idx);
        c_by.count((bit<32>)hdr.h.idx);
        c_pb.count((bit<32>)hdr.h.idx);
    }
}

control CtCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CtDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.tag);
    }
}

V1Switch(CtParser(), CtVerify(), CtIngress(), CtEgress(), CtCompute(),
         CtDeparser()) main;
