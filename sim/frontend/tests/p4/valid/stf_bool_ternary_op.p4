// STF rule: the conditional operator `c ? x : y` yields x when c is true and
// y otherwise (nested ones group to the right); bit<1> casts to bool
// (1 = true) and bool casts to bit<1> (true = 1).
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8> a;
    bit<8> b;
    bit<1> f;
    bit<7> pad;
}

header out_t {
    bit<8> max;    // a > b ? a : b
    bit<8> pick;   // (bool)f ? a : b
    bit<1> eq;     // (bit<1>)(a == b)
    bit<1> lt;     // (bit<1>)(a < b)
    bit<1> notf;   // (bit<1>)!(bool)f
    bit<5> pad;
    bit<8> cls;    // 0 when a == 0, 1 when a < 128, else 2
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t { }

parser BtParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control BtVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control BtIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.o.setValid();
        hdr.o.max = hdr.i.a > hdr.i.b ? hdr.i.a : hdr.i.b;
        hdr.o.pick = (bool)hdr.i.f ? hdr.i.a : hdr.i.b;
        hdr.o.eq = (bit<1>)(hdr.i.a == hdr.i.b);
        hdr.o.lt = (bit<1>)(hdr.i.a < hdr.i.b);
        hdr.o.notf = (bit<1>)(!(bool)hdr.i.f);
        hdr.o.cls = hdr.i.a == 0 ? 8w0 : hdr.i.a < 128 ? 8w1 : 8w2;
    }
}

control BtEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control BtCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control BtDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(BtParser(), BtVerify(), BtIngress(), BtEgress(), BtCompute(),
         BtDeparser()) main;
