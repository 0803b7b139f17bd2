// STF rule: function calls use copy-in/copy-out. `in` arguments are copied
// at the call, `out`/`inout` results are written back when the function
// returns, left to right: bump2(v, v) leaves v + 2 (the second write-back
// wins). `return` ends the function early with its value.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;
}

header out_t {
    bit<8> sum;
    bit<8> diff;
    bit<8> alias;
    bit<8> dbl;
    bit<8> cl;
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

bit<8> addsub(in bit<8> a, in bit<8> b, out bit<8> diff) {
    diff = a - b;
    return a + b;
}

void bump2(inout bit<8> p, inout bit<8> q) {
    p = p + 1;
    q = q + 2;
}

void accumulate(in bit<8> a, inout bit<8> b) {
    b = b + a;
}

void swap(inout bit<8> p, inout bit<8> q) {
    bit<8> t = p;
    p = q;
    q = t;
}

bit<8> clamp(in bit<8> v) {
    if (v > 100) {
        return 100;
    }
    return v;
}

parser FnParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control FnVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control FnIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        bit<8> d;
        hdr.o.sum = addsub(hdr.i.a, hdr.i.b, d);
        hdr.o.diff = d;
        bit<8> v = hdr.i.c;
        bump2(v, v);
        hdr.o.alias = v;
        bit<8> w = hdr.i.c;
        accumulate(w, w);
        hdr.o.dbl = w;
        hdr.o.cl = clamp(hdr.i.a);
        swap(hdr.i.a, hdr.i.b);
    }
}

control FnEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control FnCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control FnDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(FnParser(), FnVerify(), FnIngress(), FnEgress(), FnCompute(),
         FnDeparser()) main;
