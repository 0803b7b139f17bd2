// STF rule (P4_16 spec, header unions in parsers): a select picks which
// member of a union to extract; extracting a second member later in the
// parse makes the first invalid (its bytes are consumed but no longer
// emitted); isValid() on the union is true when any member is; emitting
// the union emits only its valid member.
#include <core.p4>
#include <v1model.p4>

header r_t { bit<8> flags; }
header ctl_t { bit<8> t; }
header a_t { bit<8> v; }
header b_t { bit<16> w; }

header_union ab_u {
    a_t a;
    b_t b;
}

struct headers_t {
    r_t   r;
    ctl_t ctl;
    ab_u  u;
}

struct meta_t { }

parser UsParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ctl);
        transition select(hdr.ctl.t) {
            1: pa;
            2: pb;
            3: pa_then_b;
            default: accept;
        }
    }
    state pa {
        pkt.extract(hdr.u.a);
        transition accept;
    }
    state pb {
        pkt.extract(hdr.u.b);
        transition accept;
    }
    state pa_then_b {
        pkt.extract(hdr.u.a);
        transition select(hdr.u.a.v) {
            0: accept;
            default: pb;
        }
    }
}

control UsVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control UsIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.r.setValid();
        hdr.r.flags = 0;
        if (hdr.u.a.isValid()) { hdr.r.flags = hdr.r.flags | 1; }
        if (hdr.u.b.isValid()) { hdr.r.flags = hdr.r.flags | 2; }
        if (hdr.u.isValid()) { hdr.r.flags = hdr.r.flags | 4; }
    }
}

control UsEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control UsCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control UsDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.r);
        pkt.emit(hdr.ctl);
        pkt.emit(hdr.u);
    }
}

V1Switch(UsParser(), UsVerify(), UsIngress(), UsEgress(), UsCompute(),
         UsDeparser()) main;
