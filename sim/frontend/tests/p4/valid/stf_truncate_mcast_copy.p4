// STF rule (v1model truncate): truncate(n) makes the packet leave with at
// most n bytes, counted over the whole deparsed frame (headers and payload,
// including headers added by the program). A length above the frame's size
// changes nothing. A call in egress affects only that copy of a multicast
// packet.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> tag;
}

header x_t {
    bit<16> v;
}

struct headers_t {
    h_t h;
    x_t x;
}

struct meta_t { }

parser TmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control TmVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.h.tag = 0x77;
        if (hdr.h.op == 1) {
            hdr.x.setValid();
            hdr.x.v = 0xabcd;
            truncate(5);
        } else if (hdr.h.op == 3) {
            truncate(100);
        } else if (hdr.h.op == 4) {
            sm.mcast_grp = 1;
        }
    }
}

control TmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (hdr.h.op == 4 && sm.egress_port == 3) {
            truncate(3);
        }
    }
}

control TmCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control TmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.x);
    }
}

V1Switch(TmParser(), TmVerify(), TmIngress(), TmEgress(), TmCompute(),
         TmDeparser()) main;
