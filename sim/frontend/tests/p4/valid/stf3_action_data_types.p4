// STF rule (action data): control-plane action parameters of types other
// than bit<W> take plain numbers in STF: a bool parameter 1/0, an int<8>
// the two's-complement bits (0xff is -1, so a cast to int<16> sign-extends
// it), a serializable enum its underlying value, a bit<1> 0/1.
#include <core.p4>
#include <v1model.p4>

enum bit<8> Color { RED = 1, GREEN = 2, BLUE = 3 }

header h_t {
    bit<8>  k;
    bit<8>  flag;
    bit<16> wide;
    bit<8>  color;
    bit<8>  neg;
}

struct headers_t { h_t h; }
struct meta_t { }

parser AdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control AdVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action act(bool f, int<8> d, Color c, bit<1> b) {
        hdr.h.flag = f ? 8w0xf0 : 8w0x0f;
        hdr.h.flag = hdr.h.flag | (bit<8>)b;
        hdr.h.wide = (bit<16>)(int<16>)d;
        hdr.h.neg = (d < 0) ? 8w1 : 8w0;
        if (c == Color.GREEN) {
            hdr.h.color = 0x22;
        } else if (c == Color.BLUE) {
            hdr.h.color = 0x33;
        } else {
            hdr.h.color = (bit<8>)c;
        }
    }
    table t {
        key = { hdr.h.k : exact; }
        actions = { act; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 2;
        t.apply();
    }
}

control AdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control AdCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control AdDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(AdParser(), AdVerify(), Ing(), AdEgress(), AdCompute(),
         AdDeparser()) main;
