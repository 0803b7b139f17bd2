// Members of `lookahead<T>()` for a struct T, at any depth: each reads its
// bits where T's fields lie in the packet, one after another without
// padding (a nested struct's and a header's fields in turn), from the
// cursor, which stays where it is.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<24> v;
}
header o_t {
    bit<8> x;
    bit<8> a;
    bit<8> b;
    bit<8> y;
    bit<8> pre;
    bit<8> f;
}
struct inner_t {
    bit<4> a;
    bit<4> b;
}
struct top_t {
    bit<3>  x;
    inner_t in_;
    bit<5>  y;
}
header hh_t {
    bit<8> f0;
    bit<8> f;
}
struct wrap_t {
    bit<8> pre;
    hh_t   hh;
}
struct headers_t {
    h_t h;
    o_t o;
}
struct meta_t {
    bit<8> x;
    bit<8> a;
    bit<8> b;
    bit<8> y;
    bit<8> pre;
    bit<8> f;
}

parser LmParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        meta.x = (bit<8>) pkt.lookahead<top_t>().x;
        meta.a = (bit<8>) pkt.lookahead<top_t>().in_.a;
        meta.b = (bit<8>) pkt.lookahead<top_t>().in_.b;
        meta.y = (bit<8>) pkt.lookahead<top_t>().y;
        meta.pre = pkt.lookahead<wrap_t>().pre;
        meta.f = pkt.lookahead<wrap_t>().hh.f;
        pkt.extract(hdr.h);
        transition accept;
    }
}
control LmVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control LmIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.x = meta.x;
        hdr.o.a = meta.a;
        hdr.o.b = meta.b;
        hdr.o.y = meta.y;
        hdr.o.pre = meta.pre;
        hdr.o.f = meta.f;
    }
}
control LmEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}
control LmCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}
control LmDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.o);
    }
}
V1Switch(LmParser(), LmVerify(), LmIngress(), LmEgress(), LmCompute(),
         LmDeparser()) main;
