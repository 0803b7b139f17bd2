// STF rule (P4_16 spec 8.26 initializing with default values, 7.3 default
// values): `...` as a whole value is the type's default value, and "a
// left-value can be initialized automatically with a default value" this
// way. The default value of a header is invalid; of a struct, each field's
// default (headers inside it invalid, bit<W> 0). So `hdr.y = ...;` makes a
// valid extracted header invalid (it is not emitted), and `s = ...;` zeroes
// a struct that held other values. (A declaration `H h = ...;` works:
// compare the `ty` path.)
#include <core.p4>
#include <v1model.p4>

header tiny_t {
    bit<8> f1;
    bit<8> f2;
}
struct s_t {
    bit<8> a;
    tiny_t t;
}
header op_t {
    bit<8> op;
    bit<8> a;
    bit<8> tv;
}
struct headers_t {
    op_t   o;
    tiny_t y;
}
struct meta_t { }

parser DaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.o);
        pkt.extract(hdr.y);
        transition accept;
    }
}

control DaVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control DaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        s_t s = { a = 9, t = { 8w1, 8w2 } };
        if (hdr.o.op == 1) {
            hdr.y = ...;
            s = ...;
        } else {
            tiny_t ty = ...;
            hdr.y = ty;
            s_t s0 = ...;
            s = s0;
        }
        hdr.o.a = s.a;
        hdr.o.tv = s.t.isValid() ? 8w1 : 8w0;
        sm.egress_spec = 2;
    }
}

control DaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control DaCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control DaDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.o);
        pkt.emit(hdr.y);
    }
}

V1Switch(DaParser(), DaVerify(), DaIngress(), DaEgress(), DaCompute(),
         DaDeparser()) main;
