// STF rule: parser select cases are tried in order and the first matching
// keyset wins: exact values, masks (&&&), ranges (..), tuples with `_`, and
// `default`. The chosen state is reported in the packet.
#include <core.p4>
#include <v1model.p4>

header k_t {
    bit<8>  a;
    bit<16> b;
    bit<8>  state_id;
}

struct headers_t {
    k_t k;
}

struct meta_t {
    bit<8> sid;
}

parser SkParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.k);
        transition select(hdr.k.a, hdr.k.b) {
            (8w1, 16w0x0800)             : s_exact;
            (8w1, 16w0x8100 &&& 16w0xEFFF) : s_mask;
            (8w2 .. 8w9, _)               : s_range;
            (8w1, _)                      : s_any_b;
            (_, 16w0xffff)                : s_any_a;
            default                       : s_default;
        }
    }
    state s_exact   { meta.sid = 1; transition accept; }
    state s_mask    { meta.sid = 2; transition accept; }
    state s_range   { meta.sid = 3; transition accept; }
    state s_any_b   { meta.sid = 4; transition accept; }
    state s_any_a   { meta.sid = 5; transition accept; }
    state s_default { meta.sid = 6; transition accept; }
}

control SkVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SkIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        hdr.k.state_id = meta.sid;
        sm.egress_spec = 1;
    }
}

control SkEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control SkCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control SkDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.k);
    }
}

V1Switch(SkParser(), SkVerify(), SkIngress(), SkEgress(), SkCompute(),
         SkDeparser()) main;
