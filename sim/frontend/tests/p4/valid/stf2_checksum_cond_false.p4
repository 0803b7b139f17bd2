// STF rule (v1model update_checksum): the checksum is recomputed only when
// the condition argument is true; with a false condition the checksum field
// keeps whatever value it has (here a stale one after a TTL change). The
// data list includes the IPv4 bit<3> flags / bit<13> fragOffset pair, which
// must be packed into one 16-bit word for the csum16 sum.
#include <core.p4>
#include <v1model.p4>

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> totalLen;
    bit<16> identification;
    bit<3>  flags;
    bit<13> fragOffset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdrChecksum;
    bit<32> srcAddr;
    bit<32> dstAddr;
}

struct headers_t {
    ipv4_t ipv4;
}

struct meta_t { }

parser CkParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control CkVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control CkIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }
}

control CkEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control CkCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        // diffserv 0xff marks packets whose checksum must be left alone.
        update_checksum(hdr.ipv4.diffserv != 0xff,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.totalLen, hdr.ipv4.identification,
              hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control CkDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(CkParser(), CkVerify(), CkIngress(), CkEgress(), CkCompute(),
         CkDeparser()) main;
