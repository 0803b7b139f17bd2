// lpm on a 32-bit key at the extremes: a /0 entry matches every address;
// a /32 entry on 255.255.255.255 matches that address only; a /31 on
// 255.255.255.254 covers .254 and .255 but loses to the /32 on .255;
// a /1 on 128.0.0.0 covers the upper half. The longest prefix wins.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<32> addr;
    bit<8>  tag;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser LxParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control LxVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LxIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action tag(bit<8> t) {
        hdr.h.tag = t;
    }
    table routes {
        key = { hdr.h.addr : lpm; }
        actions = { tag; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        routes.apply();
    }
}

control LxEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control LxCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control LxDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(LxParser(), LxVerify(), LxIngress(), LxEgress(), LxCompute(),
         LxDeparser()) main;
