// STF rule: table keys are named in STF `add` by their @name annotation
// (needed for key expressions like slices and masks, which have no dotted
// name), or else by their source text, also as a suffix on a `.` boundary
// (`d` finds `hdr.h.d`). The key expression itself is evaluated per packet.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<8> b;
    bit<8> c;
    bit<8> d;
    bit<8> r;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser KnParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control KnVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control KnIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_r(bit<8> r) {
        hdr.h.r = r;
    }

    table t {
        key = {
            hdr.h.a[3:0]   : exact   @name("a_low");
            hdr.h.b & 0x0f : exact   @name("b_low");
            hdr.h.c        : ternary @name("flags");
            hdr.h.d        : exact;
        }
        actions = { set_r; }
        default_action = set_r(0xee);
    }

    apply {
        sm.egress_spec = 1;
        t.apply();
    }
}

control KnEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control KnCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control KnDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(KnParser(), KnVerify(), KnIngress(), KnEgress(), KnCompute(),
         KnDeparser()) main;
