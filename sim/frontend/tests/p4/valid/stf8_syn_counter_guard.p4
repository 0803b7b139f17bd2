// A SYN-flood guard: a register<bit<32>> counts pure SYNs (SYN set, ACK
// clear) per ingress port; a port's 4th and later SYNs are dropped, other
// TCP segments (SYN-ACK, ACK) are neither counted nor dropped. The count
// after this packet is written into the TCP urgent pointer (URG clear) so
// the test can see it. register.read/write as bmv2 register_read/write.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen;
    bit<16> identification; bit<3> flags; bit<13> fragOffset;
    bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    bit<32> srcAddr; bit<32> dstAddr;
}
header tcp_t {
    bit<16> srcPort; bit<16> dstPort; bit<32> seqNo; bit<32> ackNo;
    bit<4> dataOffset; bit<4> res; bit<8> flags; bit<16> window;
    bit<16> checksum; bit<16> urgentPtr;
}

struct headers_t { ethernet_t eth; ipv4_t ipv4; tcp_t tcp; }
struct meta_t { }

const bit<8> TCP_SYN = 0x02;
const bit<8> TCP_ACK = 0x10;
const bit<32> SYN_LIMIT = 3;

parser ScParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etherType) { 0x0800: ipv4; default: accept; }
    }
    state ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) { 6: tcp; default: accept; }
    }
    state tcp { pkt.extract(hdr.tcp); transition accept; }
}

control ScVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control ScIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<32>>(16) syn_count;
    apply {
        sm.egress_spec = 2;
        if (hdr.tcp.isValid() && (hdr.tcp.flags & (TCP_SYN | TCP_ACK)) == TCP_SYN) {
            bit<32> idx = (bit<32>)sm.ingress_port;
            bit<32> n;
            syn_count.read(n, idx);
            n = n + 1;
            syn_count.write(idx, n);
            hdr.tcp.urgentPtr = n[15:0];
            if (n > SYN_LIMIT) {
                mark_to_drop(sm);
            }
        }
    }
}

control ScEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control ScCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control ScDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.eth); pkt.emit(hdr.ipv4); pkt.emit(hdr.tcp); }
}

V1Switch(ScParser(), ScVerify(), ScIngress(), ScEgress(), ScCompute(),
         ScDeparser()) main;
