// STF rules for checksums: a failed verify_checksum sets checksum_error to 1
// and does not drop the packet; update_checksum in the compute-checksum
// control recomputes the IPv4 header checksum after ingress/egress changes.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  tos;
    bit<16> total_len;
    bit<16> id;
    bit<3>  flags;
    bit<13> frag;
    bit<8>  ttl;
    bit<8>  proto;
    bit<16> csum;
    bit<32> src;
    bit<32> dst;
}

struct headers_t {
    ethernet_t eth;
    ipv4_t     ipv4;
}

struct meta_t { }

parser CkParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            0x0800  : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control CkVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.total_len,
              hdr.ipv4.id, hdr.ipv4.flags, hdr.ipv4.frag, hdr.ipv4.ttl,
              hdr.ipv4.proto, hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}

control CkIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (hdr.ipv4.isValid()) {
            // Report the verification result in the TOS byte and decrement TTL.
            hdr.ipv4.tos = (bit<8>)sm.checksum_error;
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        }
    }
}

control CkEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        // Egress changes are covered by the update too.
        if (hdr.ipv4.isValid() && hdr.ipv4.proto == 6) {
            hdr.ipv4.id = 0xbeef;
        }
    }
}

control CkCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.total_len,
              hdr.ipv4.id, hdr.ipv4.flags, hdr.ipv4.frag, hdr.ipv4.ttl,
              hdr.ipv4.proto, hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.csum, HashAlgorithm.csum16);
    }
}

control CkDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(CkParser(), CkVerify(), CkIngress(), CkEgress(), CkCompute(),
         CkDeparser()) main;
