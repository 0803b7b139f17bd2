// STF dialect: setdefault and add with parameters named out of order, exact
// keys in decimal (bare digits are decimal, not hex) and hex, ternary keys
// with `*` nibbles, key names by suffix, the larger priority winning, expect
// lines written before their packet, comments after commands, blank lines,
// tabs and `wait`.
#include <core.p4>
#include <v1model.p4>

header k_t {
    bit<16> k;
    bit<8>  m;
    bit<8>  a;
    bit<8>  b;
}

struct headers_t {
    k_t k;
}

struct meta_t { }

parser EdgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.k);
        transition accept;
    }
}

control EdgeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    action set(bit<8> a, bit<8> b) {
        hdr.k.a = a;
        hdr.k.b = b;
    }
    table t {
        key = {
            hdr.k.k : exact;
            hdr.k.m : ternary;
        }
        actions = { set; }
        default_action = set(0xee, 0xee);
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control EdgeEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply { }
}

control EdgeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.k);
    }
}

V1Switch(EdgeParser(), EdgeVerify(), EdgeIngress(), EdgeEgress(), EdgeCompute(),
         EdgeDeparser()) main;
