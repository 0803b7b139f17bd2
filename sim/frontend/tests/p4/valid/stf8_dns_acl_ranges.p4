// A UDP ACL with range keys in const entries (P4_16 spec: `lo .. hi` keyset;
// bmv2 range match, entries in program order, the first listed wins when
// ranges overlap). DNS queries (dst 53) go to the resolver port, DNS
// replies (src 53) only from the resolver's subnet, other well-known ports
// are denied, high ports are forwarded; non-UDP traffic goes to port 2.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen;
    bit<16> identification; bit<3> flags; bit<13> fragOffset;
    bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    bit<32> srcAddr; bit<32> dstAddr;
}
header udp_t { bit<16> srcPort; bit<16> dstPort; bit<16> len; bit<16> csum; }

struct headers_t { ethernet_t eth; ipv4_t ipv4; udp_t udp; }
struct meta_t { }

parser DaParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etherType) { 0x0800: ipv4; default: accept; }
    }
    state ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) { 17: udp; default: accept; }
    }
    state udp { pkt.extract(hdr.udp); transition accept; }
}

control DaVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control DaIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action deny() { mark_to_drop(sm); }
    action fwd(bit<9> port) { sm.egress_spec = port; }
    table udp_acl {
        key = {
            hdr.ipv4.srcAddr : ternary;
            hdr.udp.srcPort  : range;
            hdr.udp.dstPort  : range;
        }
        actions = { deny; fwd; }
        default_action = deny();
        const entries = {
            (_, _, 53 .. 53)                       : fwd(3);   // queries
            (0x0a000000 &&& 0xffffff00, 53 .. 53, _) : fwd(4); // replies from 10.0.0.0/24
            (_, 53 .. 53, _)                       : deny();   // spoofed replies
            (_, _, 0 .. 1023)                      : deny();   // other well-known
            (_, _, 1024 .. 65535)                  : fwd(5);
        }
    }
    apply {
        if (hdr.udp.isValid()) {
            udp_acl.apply();
        } else {
            sm.egress_spec = 2;
        }
    }
}

control DaEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) { apply { } }

control DaCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control DaDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.eth); pkt.emit(hdr.ipv4); pkt.emit(hdr.udp); }
}

V1Switch(DaParser(), DaVerify(), DaIngress(), DaEgress(), DaCompute(),
         DaDeparser()) main;
