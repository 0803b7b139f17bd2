// STF rule: at most one member of a header union is valid. Extracting or
// setValid() on one member makes the others invalid; the union is valid
// when a member is; setInvalid() on the valid member leaves the whole union
// invalid. Emitting a union emits its valid member (or nothing).
#include <core.p4>
#include <v1model.p4>

header ctl_t {
    bit<8> op;
    bit<8> tag;
    bit<8> flags;  // written by ingress
}

header a_t {
    bit<16> v;
}

header b_t {
    bit<8> v;
}

header_union ab_t {
    a_t a;
    b_t b;
}

struct headers_t {
    ctl_t ctl;
    ab_t  u;
}

struct meta_t { }

parser UxParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ctl);
        transition select(hdr.ctl.tag) {
            1       : parse_a;
            2       : parse_b;
            default : accept;
        }
    }
    state parse_a {
        pkt.extract(hdr.u.a);
        transition accept;
    }
    state parse_b {
        pkt.extract(hdr.u.b);
        transition accept;
    }
}

control UxVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control UxIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.ctl.op == 1) {
            hdr.u.b.setValid();
            hdr.u.b.v = 0xbb;
        } else if (hdr.ctl.op == 2) {
            hdr.u.a.setInvalid();
        }
        bit<8> f = 0;
        if (hdr.u.isValid()) {
            f = f | 1;
        }
        if (hdr.u.a.isValid()) {
            f = f | 2;
        }
        if (hdr.u.b.isValid()) {
            f = f | 4;
        }
        hdr.ctl.flags = f;
    }
}

control UxEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control UxCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control UxDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ctl);
        pkt.emit(hdr.u);
    }
}

V1Switch(UxParser(), UxVerify(), UxIngress(), UxEgress(), UxCompute(),
         UxDeparser()) main;
