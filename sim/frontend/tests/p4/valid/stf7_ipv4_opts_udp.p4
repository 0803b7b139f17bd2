// STF rule (varbit extract): IPv4 options are extracted into a varbit field
// sized by IHL ((ihl - 5) * 32 bits, 0 to 320), and the UDP header is
// extracted right after them, so its ports are found at 20 + 4 * (ihl - 5)
// bytes; the deparser emits the options at their extracted length. Too few
// bytes for the options: PacketTooShort, the options and UDP stay invalid
// and the remaining bytes are payload.
#include <core.p4>
#include <v1model.p4>

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  tos;
    bit<16> total_len;
    bit<16> id;
    bit<16> frag;
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

header opts_t {
    varbit<320> data;
}

header udp_t {
    bit<16> sport;
    bit<16> dport;
    bit<16> len;
    bit<16> csum;
}

struct headers_t {
    ipv4_t ipv4;
    opts_t opts;
    udp_t  udp;
}

struct meta_t { }

parser OuParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl) {
            0 .. 4: accept;
            5: parse_l4;
            default: parse_opts;
        }
    }
    state parse_opts {
        pkt.extract(hdr.opts, (bit<32>)(hdr.ipv4.ihl - 5) * 32);
        transition parse_l4;
    }
    state parse_l4 {
        transition select(hdr.ipv4.proto) {
            17: parse_udp;
            default: accept;
        }
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        transition accept;
    }
}

control OuVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control OuIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        if (sm.parser_error != error.NoError) {
            sm.egress_spec = 9;
        } else {
            sm.egress_spec = (bit<9>)hdr.ipv4.ihl;
        }
        if (hdr.udp.isValid()) {
            bit<16> t = hdr.udp.sport;
            hdr.udp.sport = hdr.udp.dport;
            hdr.udp.dport = t;
        }
    }
}

control OuEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control OuCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control OuDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.opts);
        pkt.emit(hdr.udp);
    }
}

V1Switch(OuParser(), OuVerify(), OuIngress(), OuEgress(), OuCompute(),
         OuDeparser()) main;
