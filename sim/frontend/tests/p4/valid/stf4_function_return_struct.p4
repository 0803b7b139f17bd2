// STF rule (P4_16 spec 10 functions): a function may return a value of any
// type, including a struct or a header: `return { ... };` builds the value
// (a header returned from a list expression is valid), the caller receives
// a copy. Here a struct result feeds header fields and a header result is
// assigned to a packet header.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
}
header e_t { bit<8> v; }
struct headers_t {
    h_t h;
    e_t e;
}
struct meta_t { }

struct pair_t {
    bit<8> x;
    bit<8> y;
}

pair_t mk(in bit<8> a) {
    if (a == 0) {
        return { 0xf0, 0x0f };
    }
    return { a + 1, a + 2 };
}

e_t wrap(in bit<8> v) {
    return { v ^ 0xff };
}

parser FsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control FsVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control FsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        pair_t p = mk(hdr.h.a);
        hdr.e = wrap(hdr.h.a);
        hdr.h.a = p.x;
        hdr.h.b = p.y;
        sm.egress_spec = 2;
    }
}

control FsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control FsCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control FsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
        pkt.emit(hdr.e);
    }
}

V1Switch(FsParser(), FsVerify(), FsIngress(), FsEgress(), FsCompute(),
         FsDeparser()) main;
