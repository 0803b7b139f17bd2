// STF rule (P4_16 spec 8.12 structure-valued expressions): a structure-
// valued expression may be an operand of `==`/`!=`, as in the spec's own
// example `bool b = s == (S){ a = 1, b = 2 };`; the comparison is field by
// field. Here a struct built from packet fields is compared with a cast
// structure-valued expression, a list-valued one, and with `!=`.
#include <core.p4>
#include <v1model.p4>

struct pair_t {
    bit<8>  x;
    bit<16> y;
}

header h_t {
    bit<8>  x;
    bit<16> y;
    bit<8>  r;
}
struct headers_t { h_t h; }
struct meta_t { }

parser SeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control SeVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control SeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        pair_t a = { hdr.h.x, hdr.h.y };
        bit<8> r = 0;
        if (a == (pair_t){ x = 3, y = 0x1234 }) {
            r = r | 1;
        }
        if ((pair_t){ y = 0x1234, x = 3 } != a) {
            r = r | 2;
        }
        hdr.h.r = r;
        sm.egress_spec = 2;
    }
}

control SeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control SeCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control SeDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(SeParser(), SeVerify(), SeIngress(), SeEgress(), SeCompute(),
         SeDeparser()) main;
