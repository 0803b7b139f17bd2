// STF rule (P4_16 spec, actions): an action body may call other actions
// (two levels here), passing its own parameters or expressions of them as
// directionless arguments; the callee's writes are visible to the caller's
// next statements. The outer action runs from a table entry with
// control-plane data or directly from apply with a constant.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> a;
    bit<8> b;
    bit<8> c;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser AcParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control AcVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control AcIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_a(bit<8> v) {
        hdr.h.a = v;
    }
    action set_b(bit<8> v) {
        hdr.h.b = v;
        set_a(v + 1);
    }
    action both(bit<8> v) {
        set_b(v);
        hdr.h.c = hdr.h.a + hdr.h.b;
    }
    table t {
        key = { hdr.h.k : exact; }
        actions = { both; set_a; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 1;
        if (hdr.h.k == 0xff) {
            set_b(0x10);
        } else {
            t.apply();
        }
    }
}

control AcEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control AcCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control AcDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(AcParser(), AcVerify(), AcIngress(), AcEgress(), AcCompute(),
         AcDeparser()) main;
