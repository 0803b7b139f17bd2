// Declarations: typedef of typedef, `type` with casts both ways, serializable
// enums with arithmetic after a cast, error and match_kind extensions in
// several places, a struct constant and a local header with by-name
// initialisers (the header becomes valid), widths from constant expressions, infinite-precision
// constants folded, min/maxSizeInBits/Bytes on values and types.
#include <core.p4>
#include <v1model.p4>

typedef bit<8> byte_t;
typedef byte_t octet_t;
type bit<8> Tag_t;
type Tag_t Inner_t;

const int BIG = 1 << 70;
const int W = (BIG >> 67) + 8;   // 16
const bit<8> K = (bit<8>)((BIG >> 64) + 3);  // 67 = 0x43

enum bit<8> Color { RED = 1, GREEN = 2, BLUE = 0x10 }

error { FirstExtra }
match_kind { my_kind }
error { SecondExtra, ThirdExtra }

header in_t { octet_t a; byte_t b; }
header pair_h { bit<8> x; bit<8> y; }
header out_t {
    bit<(W)> wide; bit<8> tag; bit<8> inner; bit<8> color; bit<8> colsum;
    bit<8> cx; bit<8> cy; bit<8> hx; bit<8> hvalid; bit<8> errs;
    bit<8> minb; bit<8> maxbytes; bit<8> tmin; bit<8> k;
}
struct pair_t { bit<8> x; bit<8> y; }
struct headers_t { in_t i; out_t o; }
struct meta_t { }

const pair_t CP = { y = 8w7, x = 8w5 };

parser PParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
               inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.i); transition accept; }
}

control PVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control PIngress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.o.setValid();
        hdr.o.wide = (bit<(W)>)(hdr.i.a ++ 8w0) + 16w1;
        Tag_t t = (Tag_t)hdr.i.a;
        Inner_t n = (Inner_t)t;
        hdr.o.tag = (bit<8>)t;
        hdr.o.inner = (bit<8>)(Tag_t)n + 1;
        Color c = (Color)hdr.i.b;
        hdr.o.color = (bit<8>)c;
        hdr.o.colsum = (bit<8>)Color.BLUE + (bit<8>)Color.GREEN * 2;
        hdr.o.cx = CP.x;
        hdr.o.cy = CP.y;
        pair_h CH = { x = 8w9, y = 8w1 };
        hdr.o.hx = CH.x + CH.y;
        hdr.o.hvalid = CH.isValid() ? 8w1 : 8w0;
        error e = error.SecondExtra;
        hdr.o.errs = (e == error.SecondExtra && e != error.FirstExtra) ? 8w1 : 8w0;
        hdr.o.minb = (bit<8>)hdr.i.minSizeInBits();
        hdr.o.maxbytes = (bit<8>)hdr.o.maxSizeInBytes();
        hdr.o.tmin = (bit<8>)pair_t.minSizeInBytes();
        hdr.o.k = K;
    }
}

control PEgress(inout headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) { apply { } }
control PCompute(inout headers_t hdr, inout meta_t meta) { apply { } }
control PDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr); }
}

V1Switch(PParser(), PVerify(), PIngress(), PEgress(), PCompute(),
         PDeparser()) main;
