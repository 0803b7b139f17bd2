// STF rule (P4_16 spec 11.2 variables, 12.4 block statements, 12.10 for):
// a variable declared in a block lives only in that block, so sibling
// blocks may each declare their own variable of the same name; a
// declaration with an initializer inside a loop body runs on every
// iteration (the variable starts fresh each time); a header declared
// without an initializer is invalid on every iteration as well; `for` init
// declarations are scoped to their loop, so two loops may each declare `i`.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> n;
    bit<8> acc;
    bit<8> fresh;
    bit<8> hv;
    bit<8> last;
}
header t_t { bit<8> v; }
struct headers_t { h_t h; }
struct meta_t { }

parser BsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control BsVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control BsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        bit<8> acc = 0;
        {
            bit<8> t = hdr.h.a;
            acc = acc + t;
        }
        {
            bit<8> t = hdr.h.b << 1;
            acc = acc + t;
        }
        hdr.h.acc = acc;
        bit<8> sum = 0;
        bit<8> seen = 0;
        for (bit<8> i = 0; i < hdr.h.n; i = i + 1) {
            bit<8> f = 1;
            f = f + i;
            sum = sum + f;
            t_t th;
            if (th.isValid()) {
                seen = seen + 1;
            }
            th.setValid();
            th.v = i;
        }
        hdr.h.fresh = sum;
        hdr.h.hv = seen;
        bit<8> last = 0;
        for (bit<8> i = 3; i > 0; i = i - 1) {
            last = last + i;
        }
        hdr.h.last = last;
        sm.egress_spec = 2;
    }
}

control BsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control BsCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control BsDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(BsParser(), BsVerify(), BsIngress(), BsEgress(), BsCompute(),
         BsDeparser()) main;
