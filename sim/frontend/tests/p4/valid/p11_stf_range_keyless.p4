// STF `add` with a range key written `field:lo->hi` (as simple_switch_CLI
// writes a range; a single value v is v->v), and `add` with no key at all
// on a table without keys (its one entry matches every packet). Range
// tables rank entries by priority like ternary ones: the larger STF
// priority wins.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  a;
    bit<16> p;
    bit<8>  r1;
    bit<8>  r2;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser RkParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control RkVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RkIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_r1(bit<8> v) { hdr.h.r1 = v; }
    action set_r2(bit<8> v) { hdr.h.r2 = v; }
    table ports {
        key = {
            hdr.h.p : range;
            hdr.h.a : exact;
        }
        actions = { set_r1; NoAction; }
        default_action = NoAction();
    }
    table always {
        actions = { set_r2; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 1;
        ports.apply();
        always.apply();
    }
}

control RkEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control RkCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RkDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(RkParser(), RkVerify(), RkIngress(), RkEgress(), RkCompute(),
         RkDeparser()) main;
