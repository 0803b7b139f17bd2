// STF rule (P4_16 spec 7.2.8 tuples, 8.11 operations on tuples): a tuple
// variable is initialised from a tuple expression of run-time values; its
// fields are read with constant indexes t[0], t[1], ...; tuples are
// assigned as a whole (a copy, later writes to the source do not change
// it), passed to and returned from functions, and compared with `==`
// field by field.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  a;
    bit<16> w;
    bit<8>  r0;
    bit<8>  r1;
    bit<16> r2;
    bit<8>  s0;
    bit<8>  s1;
    bit<8>  eq;
}
struct headers_t { h_t h; }
struct meta_t { }

tuple<bit<8>, bit<8>> swap(in tuple<bit<8>, bit<8>> p) {
    return { p[1], p[0] };
}

parser TvParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control TvVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control TvIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        tuple<bit<8>, bool, bit<16>> t = { hdr.h.a, hdr.h.a == 0, hdr.h.w };
        tuple<bit<8>, bool, bit<16>> u = t;
        t = { 8w0, true, 16w0 };
        hdr.h.r0 = u[0] + 1;
        hdr.h.r1 = u[1] ? 8w1 : 8w0;
        hdr.h.r2 = u[2];
        tuple<bit<8>, bit<8>> s = swap({ hdr.h.a, hdr.h.w[7:0] });
        hdr.h.s0 = s[0];
        hdr.h.s1 = s[1];
        hdr.h.eq = (s == { hdr.h.w[7:0], hdr.h.a }) ? 8w1 : 8w0;
        if (u == t) {
            hdr.h.eq = hdr.h.eq | 2;
        }
        sm.egress_spec = 2;
    }
}

control TvEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control TvCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control TvDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(TvParser(), TvVerify(), TvIngress(), TvEgress(), TvCompute(),
         TvDeparser()) main;
