// STF comments: `#` starts a comment at the end of a control command
// (add, setdefault, mirroring_add, mc_* ...) as on a line of its own; the
// comment is not part of the command (no extra key, argument or port).
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> k;
    bit<8> v;
    bit<8> it;
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser CaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control CaVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action setv(bit<8> v) {
        hdr.h.v = v;
        sm.egress_spec = 2;
    }
    action mc(bit<16> g) {
        sm.mcast_grp = g;
    }
    action mirror(bit<32> s) {
        sm.egress_spec = 2;
        clone(CloneType.I2E, s);
    }
    table t {
        key = { hdr.h.k : exact; }
        actions = { setv; mc; mirror; }
        default_action = setv(0xdd);
    }
    apply {
        t.apply();
    }
}

control CaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        hdr.h.it = (bit<8>)sm.instance_type;
    }
}

control CaCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CaDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(CaParser(), CaVerify(), CaIngress(), CaEgress(), CaCompute(),
         CaDeparser()) main;
