// STF rule: structs are values. Assigning a struct (also a nested one)
// copies every field, so later writes to the source do not show in the copy;
// `==` on structs compares field by field; user metadata set in ingress is
// still there in egress.
#include <core.p4>
#include <v1model.p4>

header in_t {
    bit<8>  x;
    bit<16> y;
}

header out_t {
    bit<8>  ax;
    bit<8>  bx;
    bit<16> by;
    bit<8>  px;
    bit<16> py;
    bit<8>  tag;
}

struct inner_t {
    bit<8>  x;
    bit<16> y;
}

struct pair_t {
    inner_t first;
    bit<8>  tag;
}

struct headers_t {
    in_t  i;
    out_t o;
}

struct meta_t {
    inner_t a;
    inner_t b;
    pair_t  p;
}

parser NcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        transition accept;
    }
}

control NcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control NcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        meta.a = { x = hdr.i.x, y = hdr.i.y };
        meta.b = meta.a;
        meta.a.x = 0xff;                 // b keeps the old x
        meta.p.first = meta.b;
        meta.p.first.y = meta.p.first.y + 1;  // b keeps the old y
        meta.p.tag = 0;
        if (meta.a == meta.b) {
            meta.p.tag = meta.p.tag | 1;
        }
        if (meta.p.first != meta.b) {
            meta.p.tag = meta.p.tag | 2;
        }
    }
}

control NcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.o.setValid();
        hdr.o.ax = meta.a.x;
        hdr.o.bx = meta.b.x;
        hdr.o.by = meta.b.y;
        hdr.o.px = meta.p.first.x;
        hdr.o.py = meta.p.first.y;
        hdr.o.tag = meta.p.tag;
    }
}

control NcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control NcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.o);
    }
}

V1Switch(NcParser(), NcVerify(), NcIngress(), NcEgress(), NcCompute(),
         NcDeparser()) main;
