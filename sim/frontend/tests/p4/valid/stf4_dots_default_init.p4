// STF rule (P4_16 spec 8.26 initializing with default values): in a
// structure-valued expression ending in `...` every field not named gets its
// default value (0 for bit<W>, false for bool, 0 for a serializable enum even
// if no member is 0, the FIRST member for a plain enum, invalid for a
// header). Assigned over a variable that held other values, the unnamed
// fields are reset. `{ f2 = 5, ... }` for a header makes it valid with the
// other fields 0; `...` alone for a header makes it invalid.
#include <core.p4>
#include <v1model.p4>

enum bit<8> Col { RED = 1, BLUE = 2 }
enum Mode { FIRST, SECOND, THIRD }

header tiny_t {
    bit<8> f1;
    bit<8> f2;
}
struct s_t {
    bit<8>  a;
    bool    b;
    bit<16> c;
    Col     col;
    Mode    m;
    tiny_t  t;
}

header in_t { bit<16> c; }
header out_t {
    bit<8>  a;
    bit<8>  b;
    bit<16> c;
    bit<8>  col;
    bit<8>  m;
    bit<8>  tv;
}
struct headers_t {
    in_t   i;
    tiny_t x;
    tiny_t y;
    out_t  o;
}
struct meta_t { }

parser DdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.i);
        pkt.extract(hdr.x);
        pkt.extract(hdr.y);
        transition accept;
    }
}

control DdVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control DdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        s_t s = { a = 9, b = true, c = 1, col = Col.BLUE, m = Mode.THIRD,
                  t = { 8w1, 8w2 } };
        s = { c = hdr.i.c, ... };
        hdr.o.setValid();
        hdr.o.a = s.a;
        hdr.o.b = s.b ? 8w1 : 8w0;
        hdr.o.c = s.c;
        hdr.o.col = (bit<8>)s.col;
        if (s.m == Mode.FIRST) {
            hdr.o.m = 1;
        } else {
            hdr.o.m = 2;
        }
        hdr.o.tv = s.t.isValid() ? 8w1 : 8w0;
        hdr.x = { f2 = 5, ... };
        hdr.y = ...;
        sm.egress_spec = 2;
    }
}

control DdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control DdCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control DdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.i);
        pkt.emit(hdr.x);
        pkt.emit(hdr.y);
        pkt.emit(hdr.o);
    }
}

V1Switch(DdParser(), DdVerify(), DdIngress(), DdEgress(), DdCompute(),
         DdDeparser()) main;
