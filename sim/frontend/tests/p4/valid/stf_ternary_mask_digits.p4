// STF rule: a ternary key's mask comes from the digits written: each written
// hex digit is mask F, each `*` is mask 0, and digits not written at all are
// not compared (0x1 on a 16-bit field only compares the low nibble).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<16> key;
    bit<8>  result;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser MdParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MdVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MdIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_result(bit<8> r) {
        hdr.h.result = r;
    }

    action drop() {
        mark_to_drop(sm);
    }

    table match_digits {
        key = { hdr.h.key : ternary; }
        actions = { set_result; drop; }
        default_action = drop();
    }

    apply {
        sm.egress_spec = 3;
        match_digits.apply();
    }
}

control MdEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control MdCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MdDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(MdParser(), MdVerify(), MdIngress(), MdEgress(), MdCompute(),
         MdDeparser()) main;
