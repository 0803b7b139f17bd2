// A TTL / hop-limit normalizer: IPv4 TTLs below 32 are raised to 64 and
// TTLs above 200 cut to 200, with the header checksum recomputed in the
// compute-checksum control (update_checksum, csum16 over the 10 header
// words with the checksum left out); IPv6 hop limits get the same rule (no
// checksum). A packet arriving with a wrong IPv4 checksum is dropped
// (checksum_error from verify_checksum).
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen;
    bit<16> identification; bit<3> flags; bit<13> fragOffset;
    bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    bit<32> srcAddr; bit<32> dstAddr;
}
header ipv6_t {
    bit<4> version; bit<8> trafficClass; bit<20> flowLabel;
    bit<16> payloadLen; bit<8> nextHdr; bit<8> hopLimit;
    bit<128> srcAddr; bit<128> dstAddr;
}

struct headers_t { ethernet_t eth; ipv4_t ipv4; ipv6_t ipv6; }
struct meta_t { }

parser TnParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etherType) {
            0x0800: ipv4;
            0x86dd: ipv6;
            default: accept;
        }
    }
    state ipv4 { pkt.extract(hdr.ipv4); transition accept; }
    state ipv6 { pkt.extract(hdr.ipv6); transition accept; }
}

control TnVerify(inout headers_t hdr, inout meta_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.totalLen, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.fragOffset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control TnIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (sm.checksum_error == 1) {
            mark_to_drop(sm);
            return;
        }
        if (hdr.ipv4.isValid()) {
            if (hdr.ipv4.ttl < 32) {
                hdr.ipv4.ttl = 64;
            } else if (hdr.ipv4.ttl > 200) {
                hdr.ipv4.ttl = 200;
            }
        } else if (hdr.ipv6.isValid()) {
            if (hdr.ipv6.hopLimit < 32) {
                hdr.ipv6.hopLimit = 64;
            } else if (hdr.ipv6.hopLimit > 200) {
                hdr.ipv6.hopLimit = 200;
            }
        }
    }
}

control TnEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control TnCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.totalLen, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.fragOffset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control TnDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.eth); pkt.emit(hdr.ipv4); pkt.emit(hdr.ipv6); }
}

V1Switch(TnParser(), TnVerify(), TnIngress(), TnEgress(), TnCompute(),
         TnDeparser()) main;
