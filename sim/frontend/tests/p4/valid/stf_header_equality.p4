// STF rule: `==` on two headers is true when both are invalid, or both are
// valid with equal fields; a valid and an invalid header are unequal even
// when their field values agree. Assigning a header copies its validity
// with its fields (an invalid source leaves the target invalid).
#include <core.p4>
#include <v1model.p4>

header ctl_t {
    bit<8> flags;  // written by ingress
    bit<8> which;  // bit 0: x present, bit 1: y present
}

header v_t {
    bit<16> v;
}

struct headers_t {
    ctl_t ctl;
    v_t   x;
    v_t   y;
    v_t   z;
}

struct meta_t { }

parser HeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ctl);
        transition select(hdr.ctl.which[0:0]) {
            1       : parse_x;
            default : check_y;
        }
    }
    state parse_x {
        pkt.extract(hdr.x);
        transition check_y;
    }
    state check_y {
        transition select(hdr.ctl.which[1:1]) {
            1       : parse_y;
            default : accept;
        }
    }
    state parse_y {
        pkt.extract(hdr.y);
        transition accept;
    }
}

control HeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control HeIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        bit<8> f = 0;
        if (hdr.x == hdr.y) {
            f = f | 1;
        }
        if (hdr.x != hdr.y) {
            f = f | 2;
        }
        // z takes y's validity and fields.
        hdr.z = hdr.y;
        if (hdr.z == hdr.y) {
            f = f | 4;
        }
        hdr.ctl.flags = f;
    }
}

control HeEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control HeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control HeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ctl);
        pkt.emit(hdr.x);
        pkt.emit(hdr.y);
        pkt.emit(hdr.z);
    }
}

V1Switch(HeParser(), HeVerify(), HeIngress(), HeEgress(), HeCompute(),
         HeDeparser()) main;
