// STF rule (simple_switch const entries): in a table with ternary, range
// and lpm keys, `val &&& mask` (ternary; a prefix mask on the lpm key),
// `lo .. hi` (range) and `_` (any) can be mixed per entry. The entries'
// priority is their order in the program, first listed wins; in such a
// table the lpm prefix length does NOT decide between matching entries.
// No matching entry runs the default action.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;
    bit<8> res;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser CxParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CxVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CxIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set(bit<8> v) {
        hdr.h.res = v;
    }
    table t {
        key = {
            hdr.h.a : ternary;
            hdr.h.b : range;
            hdr.h.c : lpm;
        }
        actions = { set; }
        const entries = {
            (0x10 &&& 0xf0, 1 .. 5,     _)           : set(1);
            (_,             6 .. 10,    _)           : set(2);
            (0x22,          _,          0x80 &&& 0xc0) : set(3);
            (_,             200 .. 255, 0x80 &&& 0x80) : set(4);
            (_,             200 .. 255, 0xa0 &&& 0xff) : set(5);  // longer prefix, listed later
            (0x44,          _,          _)           : set(6);
            (0x33,          7,          0x33)        : set(7);    // shadowed by entry 2
        }
        default_action = set(0xee);
    }
    apply {
        sm.egress_spec = 1;
        t.apply();
    }
}

control CxEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control CxCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CxDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CxParser(), CxVerify(), CxIngress(), CxEgress(), CxCompute(),
         CxDeparser()) main;
