// STF rule: the parser can branch on standard_metadata.ingress_port, which
// is set before parsing. An I2E clone is parsed again from the received
// bytes with the same ingress_port, so it takes the same parser path as the
// original (bmv2 keeps ingress_port for that re-parse).
#include <core.p4>
#include <v1model.p4>

header a_t {
    bit<8> x;
    bit<8> y;
}

header b_t {
    bit<8> z;
}

struct headers_t {
    a_t a;
    b_t b;
}

struct meta_t { }

parser IpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        transition select(sm.ingress_port) {
            1       : parse_a;
            2       : parse_b;
            default : accept;
        }
    }
    state parse_a {
        pkt.extract(hdr.a);
        transition accept;
    }
    state parse_b {
        pkt.extract(hdr.b);
        transition accept;
    }
}

control IpVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IpIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 3;
        if (hdr.a.isValid()) {
            hdr.a.y = 0xaa;
            clone(CloneType.I2E, 5);
        }
        if (hdr.b.isValid()) {
            hdr.b.z = 0xbb;
        }
    }
}

control IpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        // Shows which header the parser produced, for the clone too.
        if (hdr.a.isValid()) {
            hdr.a.x = hdr.a.x + 1;
        } else if (hdr.b.isValid()) {
            hdr.b.z = hdr.b.z + 1;
        }
    }
}

control IpCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IpDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.a);
        pkt.emit(hdr.b);
    }
}

V1Switch(IpParser(), IpVerify(), IpIngress(), IpEgress(), IpCompute(),
         IpDeparser()) main;
