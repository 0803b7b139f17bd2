// int<16> comparisons against negative constants and at the bounds, in
// `if` conditions and as a table key (exact on the signed field; STF writes
// the two's complement bits).
#include <core.p4>
#include <v1model.p4>

header in_t {
    int<16> s;
    bit<8>  f;
    bit<8>  r;
}

struct headers_t {
    in_t i;
}

struct meta_t {
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta,
         inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control V(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control I(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    action set(bit<8> v) { hdr.i.r = v; }
    table t {
        key = { hdr.i.s : exact; }
        actions = { set; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        bit<8> f = 0;
        if (hdr.i.s < -5) { f = f | 8w0x01; }
        if (hdr.i.s >= -32768) { f = f | 8w0x02; }
        if (hdr.i.s > -16s1) { f = f | 8w0x04; }
        if (hdr.i.s <= 32767) { f = f | 8w0x08; }
        if (hdr.i.s == -1) { f = f | 8w0x10; }
        if ((bit<16>)hdr.i.s > 16w0x7fff) { f = f | 8w0x20; }
        hdr.i.f = f;
        t.apply();
    }
}

control E(inout headers_t hdr, inout meta_t meta,
          inout standard_metadata_t sm) {
    apply { }
}

control C(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(P(), V(), I(), E(), C(), D()) main;
