// STF rule (P4_16 spec 10 functions, 12.5 return): `return` inside nested
// `if`s, or inside a `for` loop, ends the whole function at once (no later
// statement of the function runs, the loop does not continue); the `out`
// and `inout` arguments are still copied back with the values they had at
// the return.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> x;
    bit<8> res;
    bit<8> path;
    bit<8> cnt;
    bit<8> idx;
}
struct headers_t { h_t h; }
struct meta_t { }

bit<8> classify(in bit<8> x, out bit<8> path) {
    path = 0;
    if (x > 100) {
        path = 1;
        if (x > 200) {
            path = 2;
            return 3;
        }
        path = path + 0x10;
    } else {
        if (x == 0) {
            return 9;
        }
        path = 0x20;
    }
    path = path | 0x80;
    return x[3:0] ++ 4w0;
}

bit<8> find(in bit<8> xin, inout bit<8> cnt) {
    bit<8> x = xin;
    for (bit<8> i = 0; i < 8; i = i + 1) {
        cnt = cnt + 1;
        if (x[0:0] == 1) {
            return i;
        }
        x = x >> 1;
    }
    cnt = cnt + 0x40;
    return 0xff;
}

parser FrParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control FrVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control FrIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.h.res = classify(hdr.h.x, hdr.h.path);
        hdr.h.idx = find(hdr.h.x, hdr.h.cnt);
        sm.egress_spec = 2;
    }
}

control FrEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control FrCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control FrDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(FrParser(), FrVerify(), FrIngress(), FrEgress(), FrCompute(),
         FrDeparser()) main;
