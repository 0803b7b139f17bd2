// STF rule (P4_16 spec 8.10 operations on varbit): two varbit values of the
// same type can be compared with `==`/`!=`; they are equal when they have
// the same dynamic width and the same bits up to that width.
#include <core.p4>
#include <v1model.p4>

header tag_t { bit<8> r; }
header opt_t {
    bit<8>     len;
    varbit<32> data;
}
struct headers_t {
    tag_t t;
    opt_t a;
    opt_t b;
}
struct meta_t { }

parser VeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.t);
        pkt.extract(hdr.a, (bit<32>)pkt.lookahead<bit<8>>() * 8);
        pkt.extract(hdr.b, (bit<32>)pkt.lookahead<bit<8>>() * 8);
        transition accept;
    }
}

control VeVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control VeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (hdr.a.data == hdr.b.data) {
            hdr.t.r = 1;
        } else {
            hdr.t.r = 0;
        }
        if (hdr.a.data != hdr.b.data) {
            hdr.t.r = hdr.t.r | 2;
        }
        sm.egress_spec = 2;
    }
}

control VeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control VeCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control VeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.t);
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(VeParser(), VeVerify(), VeIngress(), VeEgress(), VeCompute(),
         VeDeparser()) main;
